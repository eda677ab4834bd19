//! Token-ring rules at their boundaries (IEEE 802.5 without early token release): the
//! holder continuing exactly at the end of its frame, the ring's holding time summed
//! over captures. A child of `token_ring` (beside its first tests).

use super::*;

const BIT: u64 = 250_000; // ps at 4 Mbit/s

fn ring(holding_time_s: Option<f64>) -> TokenRing {
    TokenRing::new(&RingParams {
        rate_bps: 4e6,
        stations: 4,
        station_delay_bits: 1.0,
        monitor_buffer_bits: 24.0,
        propagation_s: 0.0,
        token_bits: 24.0,
        mac_overhead_octets: 21.0,
        holding_time_s,
    })
}

/// With a holding time, the holder may start its next frame at the very instant its
/// last one ends (back to back), and not after: a holder that lets that instant pass
/// has released the token and waits for it to come round.
#[test]
fn test_802_5_holder_continues_exactly_at_the_end_of_its_frame_and_not_later() {
    let mut r = ring(Some(1e-3));
    let l = r.latency().0;
    let t0 = r.ready_at(1, SimTime::ZERO);
    let e1 = t0 + Duration(1000 * BIT); // 0.25 ms, longer than L
    r.started(1, t0, e1, 2);
    assert_eq!(r.ready_at(1, e1), e1, "back to back");
    assert_eq!(r.gate(1, e1), Some(r.mac_time()));
    let later = SimTime(e1.0 + 1);
    assert_eq!(r.gate(1, later), None);
    assert_eq!(r.ready_at(1, later), SimTime(e1.0 + 24 * BIT + l), "the token's next pass after its release at e1");
}

/// `held_ps` sums capture to release over the finished holdings; `held_until` adds
/// the current one up to `now`.
#[test]
fn test_ring_holding_time_is_summed_over_captures() {
    let mut r = ring(None);
    let l = r.latency().0;
    let t1 = r.ready_at(1, SimTime::ZERO);
    r.started(1, t1, t1 + Duration(10 * BIT), 2); // shorter than L: held for L
    assert_eq!(r.held_until(SimTime(t1.0 + 5 * BIT)), 5 * BIT, "the current holding, up to now");
    let t2 = r.ready_at(2, t1 + Duration(10 * BIT));
    let e2 = t2 + Duration(100 * BIT); // longer than L: held until its end
    r.started(2, t2, e2, 3);
    assert_eq!(r.counters, RingCounters { captures: 2, frames: 2, held_ps: l });
    assert_eq!(r.held_until(e2 + Duration(1)), l + 100 * BIT);
    assert_eq!(r.held_until(SimTime(t2.0 + 50 * BIT)), l + 50 * BIT);
}

/// The free token passes a station once per revolution L: at its first pass, exactly
/// k·L later (the gate opens then), and never between; asked between the k-th and the
/// (k+1)-th pass, the next pass is the (k+1)-th.
#[test]
fn test_802_5_free_token_passes_each_station_once_per_revolution() {
    let r = ring(None);
    let l = r.latency().0;
    let first = r.ready_at(2, SimTime::ZERO);
    assert_eq!(first, SimTime(24 * BIT + r.distance(0, 2).0));
    for k in 1..4u64 {
        let pass = SimTime(first.0 + k * l);
        assert_eq!(r.ready_at(2, SimTime(pass.0 - 1)), pass, "pass {k}");
        assert_eq!(r.ready_at(2, pass), pass, "pass {k}, asked at that instant");
        assert_eq!(r.gate(2, pass), Some(r.mac_time()));
        assert_eq!(r.ready_at(2, SimTime(pass.0 + 1)), SimTime(pass.0 + l), "after pass {k}");
        assert_eq!(r.gate(2, SimTime(pass.0 + 1)), None);
    }
}

/// The holding time runs from the capture, whenever that is: a holder that captured
/// the token 2 ms into the run may still continue 0.25 ms later (holding time 1 ms).
#[test]
fn test_802_5_holding_time_is_measured_from_the_capture_not_from_time_zero() {
    let mut r = ring(Some(1e-3));
    let t0 = r.ready_at(1, SimTime::from_secs_f64(2e-3));
    assert!(t0 >= SimTime::from_secs_f64(2e-3));
    let e1 = t0 + Duration(1000 * BIT); // 0.25 ms
    r.started(1, t0, e1, 2);
    assert_eq!(r.gate(1, e1), Some(r.mac_time()), "0.25 ms since the capture");
    let e2 = e1 + Duration(3000 * BIT); // 1 ms since the capture
    r.started(1, e1, e2, 2);
    assert_eq!(r.gate(1, e2), None);
    assert_eq!(r.counters, RingCounters { captures: 1, frames: 2, held_ps: 0 });
}

/// Only the holder may send back to back: another station, even at the very instant
/// the holder's frame ends (within the holding time), waits for the free token, which
/// the holder issues at that instant and which reaches it `t_token + d(holder, j)` later.
#[test]
fn test_802_5_only_the_holder_continues_back_to_back() {
    let mut r = ring(Some(1e-3));
    let t0 = r.ready_at(1, SimTime::ZERO);
    let e1 = t0 + Duration(1000 * BIT); // 0.25 ms, longer than L: released at e1
    r.started(1, t0, e1, 2);
    assert_eq!(r.gate(1, e1), Some(r.mac_time()), "the holder may continue");
    let pass = SimTime(e1.0 + 24 * BIT + r.distance(1, 2).0);
    assert_eq!(r.gate(2, e1), None, "station 2 does not hold the token");
    assert_eq!(r.ready_at(2, e1), pass);
    assert_eq!(r.gate(2, pass), Some(r.mac_time()));
}

/// Before the first capture no station holds the token (station 0, the active monitor,
/// has just issued it): with a holding time, station 0 at time zero still waits one
/// revolution for the token to come round, `t_token + L`.
#[test]
fn test_802_5_no_station_holds_the_token_before_the_first_capture() {
    let r = ring(Some(1e-3));
    let l = r.latency().0;
    assert_eq!(r.gate(0, SimTime::ZERO), None);
    assert_eq!(r.ready_at(0, SimTime::ZERO), SimTime(24 * BIT + l));
    assert_eq!(r.gate(0, SimTime(24 * BIT + l)), Some(r.mac_time()));
}

/// d(i, j), the time from station i downstream to station j, on which every token pass
/// and frame arrival rests, between two stations neither of which is station 0 (the
/// active monitor): one bit of repeat delay per station from 1 to 3, so a frame from 1 is
/// received at 3 two bit times after its last bit leaves; from 3 back to 1 the way passes
/// the monitor's 24-bit buffer (1 + 25 bits).
#[test]
fn test_802_5_frame_is_received_after_the_repeat_delays_between_sender_and_receiver() {
    let mut r = ring(None);
    assert_eq!(r.distance(1, 3), Duration(2 * BIT));
    assert_eq!(r.distance(3, 1), Duration(26 * BIT));
    let t = r.ready_at(1, SimTime::ZERO);
    let end = t + Duration(100 * BIT);
    assert_eq!(r.started(1, t, end, 3), end + Duration(2 * BIT));
}
