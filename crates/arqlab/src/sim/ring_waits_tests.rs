//! `RingWaits`: one live wake-up per ring, for the waiting station the free token
//! reaches first, found without computing any other station's pass.
use super::*;
use crate::channel::RingParams;
use crate::engine::Duration;

fn params(stations: usize) -> RingParams {
    RingParams {
        rate_bps: 4e6,
        stations,
        station_delay_bits: 1.0,
        monitor_buffer_bits: 24.0,
        propagation_s: 0.0,
        token_bits: 24.0,
        mac_overhead_octets: 21.0,
        holding_time_s: None,
    }
}

/// A ring of `n` stations (station 0 released the token at time 0) and its waits.
fn ring(n: usize) -> (TokenRing, RingWaits) {
    let mac = TokenRing::new(&params(n));
    let w = RingWaits::new(&mac, n);
    (mac, w)
}

/// The earliest pass among the waiting stations, by computing every one.
fn earliest(mac: &TokenRing, w: &RingWaits, n: u32, now: SimTime) -> Option<(SimTime, u32)> {
    (0..n).filter(|&k| w.is_waiting(k)).map(|k| (mac.ready_at(k, now), k)).min()
}

#[test]
fn only_the_first_waiting_station_the_free_token_reaches_is_woken() {
    let (mac, mut w) = ring(4);
    let now = SimTime::ZERO;
    // Station 3 waits: the first (and only) waiting station, so it is woken.
    assert!(w.wait(3, mac.ready_at(3, now)));
    // Station 2 waits: the token passes 2 before 3, so 2 is woken (3's wake-up is
    // overtaken) ...
    assert!(mac.ready_at(2, now) < mac.ready_at(3, now));
    assert!(w.wait(2, mac.ready_at(2, now)));
    // ... and station 3, asking again, is not woken a second time.
    assert!(!w.wait(3, mac.ready_at(3, now)));
    // Nothing to re-arm while a wake-up is live.
    assert_eq!(w.rearm(&mac, now), None);
}

#[test]
fn a_capture_arms_the_first_waiting_station_downstream_of_the_holder_wrapping_round() {
    // Eight stations; 1 captures while 0 and 6 wait: the free token, issued by 1,
    // passes 2, 3, …, 7, then 0, so 6 goes first although 0 is at a lower position.
    let (mut mac, mut w) = ring(8);
    let t1 = mac.ready_at(1, SimTime::ZERO);
    assert!(w.wait(1, t1));
    assert!(!w.wait(6, mac.ready_at(6, SimTime::ZERO)));
    assert!(!w.wait(0, mac.ready_at(0, SimTime::ZERO)));
    w.woken(1, t1);
    w.captured(1);
    let end = SimTime(t1.0 + 1_000_000);
    mac.started(1, t1, end, 2);
    let (at, pos) = w.rearm(&mac, t1).expect("two stations wait");
    assert_eq!(pos, 6);
    assert_eq!(at, mac.ready_at(6, t1));
    assert!(at > end && at < mac.ready_at(0, t1), "its pass, after the release, before station 0's");
    assert_eq!(w.rearm(&mac, t1), None, "one live wake-up at a time");
    // 6 takes the token; the holder (1) is no longer waiting: 0 is next.
    w.woken(6, at);
    w.captured(6);
    mac.started(6, at, SimTime(at.0 + 1_000_000), 7);
    assert_eq!(w.rearm(&mac, at), Some((mac.ready_at(0, at), 0)));
}

#[test]
fn an_armed_station_that_lets_the_token_pass_wakes_the_next_in_the_same_revolution() {
    let (mac, mut w) = ring(4);
    let (t1, t2) = (mac.ready_at(1, SimTime::ZERO), mac.ready_at(2, SimTime::ZERO));
    assert!(w.wait(1, t1));
    assert!(!w.wait(2, t2));
    // An overtaken wake-up of station 1 (another time) leaves the live one armed.
    assert!(!w.woken(1, SimTime(t1.0 - 1)));
    assert_eq!(w.rearm(&mac, t1), None);
    // Station 1's live wake-up fires and it sends nothing: station 2 is next, for the
    // same revolution (the token is free and between them: one division).
    assert!(w.woken(1, t1), "the live one");
    assert_eq!(w.rearm(&mac, t1), Some((t2, 2)));
}

#[test]
fn a_station_the_token_passes_exactly_now_is_armed_for_now() {
    // The free token circulates; station 2 starts waiting at the instant it passes 2,
    // after the armed station 3 let it pass a revolution earlier.
    let (mac, mut w) = ring(4);
    let t2 = mac.ready_at(2, SimTime::ZERO);
    let l = mac.latency().0;
    let now = SimTime(t2.0 + 3 * l);
    assert_eq!(mac.reaches_first(now), 2);
    assert_eq!(mac.reaches_first(SimTime(now.0 + 1)), 3);
    w.set(2, true);
    assert_eq!(w.rearm(&mac, now), Some((now, 2)));
}

#[test]
fn a_holder_that_may_continue_is_armed_before_any_pass_of_the_token() {
    let mut mac = TokenRing::new(&RingParams { holding_time_s: Some(1e-3), ..params(4) });
    let mut w = RingWaits::new(&mac, 4);
    let t1 = mac.ready_at(1, SimTime::ZERO);
    let end = t1 + Duration(2_000 * 250_000); // 0.5 ms
    w.captured(1);
    mac.started(1, t1, end, 2);
    w.set(1, true);
    w.set(3, true);
    assert_eq!(w.rearm(&mac, t1), Some((end, 1)), "back to back at the end of its frame");
}

#[test]
fn rings_of_more_than_64_stations_search_every_word_in_ring_order() {
    let n = 150u32;
    let (mut mac, mut w) = ring(n as usize);
    // 140 captures; 5 and 70 wait: the free token from 140 reaches 5 first (wrapping).
    let t = mac.ready_at(140, SimTime::ZERO);
    w.captured(140);
    mac.started(140, t, SimTime(t.0 + 1_000_000), 141);
    w.set(70, true);
    w.set(5, true);
    assert_eq!(w.rearm(&mac, t).map(|a| a.1), Some(5));
    assert_eq!(w.rearm(&mac, t), None);
    // 5 lets it pass: 70 next, in the same revolution.
    let at5 = mac.ready_at(5, t);
    w.woken(5, at5);
    assert_eq!(w.rearm(&mac, at5), Some((mac.ready_at(70, at5), 70)));
    assert_eq!(earliest(&mac, &w, n, at5), Some((mac.ready_at(70, at5), 70)));
}

#[test]
fn the_armed_pass_is_the_earliest_of_every_waiting_station_over_random_captures() {
    // Random waits, captures and declines on a 13-station ring (Biersack's size) and on
    // one of 70: the armed station's pass always equals the minimum over every waiting
    // station's `ready_at`, by computing them all.
    for n in [13u32, 70] {
        let (mut mac, mut w) = ring(n as usize);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let mut now = SimTime::ZERO;
        for _ in 0..5_000 {
            for _ in 0..rnd(3) {
                let k = rnd(n as u64) as u32;
                w.wait(k, mac.ready_at(k, now));
            }
            if w.armed.is_none() {
                assert_eq!(w.rearm(&mac, now), earliest(&mac, &w, n, now));
            }
            let Some((at, k)) = w.armed else { continue };
            assert_eq!(Some(at), earliest(&mac, &w, n, now).map(|e| e.0));
            now = at;
            w.woken(k, at);
            if rnd(4) > 0 {
                w.captured(k);
                let end = SimTime(at.0 + 250_000 * (1 + rnd(20_000)));
                mac.started(k, at, end, (k + 1) % n);
            } // (else it lets the token pass)
            let _ = w.rearm(&mac, at);
            // The next inputs come before the armed wake-up fires.
            if let Some((t, _)) = w.armed {
                now = SimTime(at.0 + rnd(t.0 - at.0 + 1));
            }
        }
    }
}

#[test]
fn a_ring_of_stations_at_one_place_wakes_every_waiting_station() {
    // Zero delays everywhere: stations are not apart, the token passes several at once;
    // each waiting station is woken for its own pass, as without the live wake-up.
    let mac = TokenRing::new(&RingParams { station_delay_bits: 0.0, monitor_buffer_bits: 0.0, ..params(4) });
    assert!(!mac.stations_apart());
    let mut w = RingWaits::new(&mac, 4);
    assert!(w.wait(1, mac.ready_at(1, SimTime::ZERO)));
    assert!(w.wait(2, mac.ready_at(2, SimTime::ZERO)));
    assert_eq!(w.rearm(&mac, SimTime::ZERO), None);
}
