//! Endpoint tests: each rule driven frame by frame, then whole transfers over a line.

use super::*;
use crate::engine::SimTime;
use crate::protocol::testpair::Pair;
use crate::protocol::{Event, Frame, FrameKind, Grant, Layer, Sdu};
use proptest::prelude::*;

fn cfg(mss: u32, wnd_segments: u32, iw: u32) -> TcpConfig {
    TcpConfig { mss_octets: mss, receive_window_octets: mss * wnd_segments, initial_window_segments: iw, ..TcpConfig::default() }
}

fn sdu(id: u64, octets: u32) -> Sdu {
    Sdu { id, bits: octets * 8, flow: 0, born: SimTime::ZERO }
}

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

const G: Grant = Grant::line(1e6);

fn ack(n: u64) -> Frame<Sdu> {
    Frame::supervisory(FrameKind::RR, n as u32, false, 160)
}

/// A sender with `n` segments of 100 octets queued and cwnd = `iw` segments.
fn tcp_established_with(n: u64, iw: u32) -> Tcp {
    let mut a = Tcp::new(&cfg(100, 64, iw));
    for i in 0..n {
        a.handle_submit(SimTime::ZERO, sdu(i, 100));
    }
    a
}

fn drain(a: &mut Tcp, now: SimTime) -> Vec<Frame<Sdu>> {
    std::iter::from_fn(|| a.poll_transmit(now, &G)).collect()
}

#[test]
fn test_established_segments_follow_sdu_boundaries_and_mss() {
    let mut a = Tcp::new(&cfg(100, 64, 4));
    a.handle_submit(SimTime::ZERO, sdu(0, 250));
    a.handle_submit(SimTime::ZERO, sdu(1, 30));
    let f = drain(&mut a, SimTime::ZERO);
    let shape: Vec<_> = f.iter().map(|f| (f.ns, f.bits - 160, f.msg.map(|m| m.id))).collect();
    assert_eq!(shape, vec![(0, 800, None), (100, 800, None), (200, 400, Some(0)), (250, 240, Some(1))]);
}

#[test]
fn test_established_new_ack_samples_rtt_and_sets_rto() {
    let mut a = tcp_established_with(4, 1);
    let f = drain(&mut a, SimTime::ZERO);
    assert_eq!(f.len(), 1, "initial window of one segment");
    assert_eq!(a.timing(), Some((100, SimTime::ZERO)));
    a.handle_receive(t(0.4), &ack(100));
    assert_eq!(a.srtt_s(), Some(0.4));
    assert!((a.rto_s() - 1.2).abs() < 1e-9, "0.4 + 4·0.2");
    assert_eq!(a.cwnd(), 200, "slow start: +1 SMSS per ACK");
    assert_eq!(a.poll_event(), Some(Event::Acknowledged(sdu(0, 100))));
}

#[test]
fn test_timeout_backs_off_goes_back_and_karn_skips_the_retransmission_sample() {
    let mut a = tcp_established_with(4, 2);
    let f = drain(&mut a, SimTime::ZERO);
    assert_eq!(f.len(), 2);
    let first_deadline = a.poll_timeout().unwrap();
    assert_eq!(first_deadline, t(1.0), "initial RTO 1 s");
    a.handle_timeout(first_deadline);
    assert_eq!((a.cwnd(), a.ssthresh()), (100, 200));
    assert_eq!(a.snd_nxt(), 0, "go back to SND.UNA");
    assert_eq!(a.poll_timeout(), Some(t(3.0)), "backed off to 2 s");
    let again = drain(&mut a, t(1.0));
    assert_eq!(again.iter().map(|f| f.ns).collect::<Vec<_>>(), vec![0], "loss window: one segment");
    assert_eq!(a.timing(), None, "Karn: the retransmission is not timed");
    assert_eq!(a.counters().retransmitted_timeout, 1);
    // Its ACK comes back: no sample, the back-off stays until a clean sample.
    a.handle_receive(t(1.3), &ack(100));
    assert_eq!(a.srtt_s(), None);
    assert!((a.rto_s() - 2.0).abs() < 1e-9);
    // Segment 100..200 was sent before the timeout (snd_max) — not timed either.
    let next = drain(&mut a, t(1.3));
    assert_eq!(next.iter().map(|f| f.ns).collect::<Vec<_>>(), vec![100, 200]);
    assert_eq!(a.timing(), Some((300, t(1.3))), "new data is timed again");
    a.handle_receive(t(1.5), &ack(300));
    assert_eq!(a.srtt_s(), Some(0.2 + 1e-12 * 0.0));
    assert!((a.rto_s() - 1.0).abs() < 1e-9, "clamped to min, back-off cleared");
}

#[test]
fn test_three_dupacks_fast_retransmit_then_recovery() {
    let mut a = tcp_established_with(10, 8);
    let f = drain(&mut a, SimTime::ZERO);
    assert_eq!(f.len(), 8);
    a.handle_receive(t(0.1), &ack(100));
    let _ = drain(&mut a, t(0.1));
    let cwnd = a.cwnd();
    assert_eq!(cwnd, 900);
    for k in 0..2 {
        a.handle_receive(t(0.2 + k as f64 * 0.01), &ack(100));
        assert!(!a.wants_transmit() || a.cwnd() == cwnd, "no retransmission before the third duplicate");
    }
    a.handle_receive(t(0.3), &ack(100));
    let rtx = a.poll_transmit(t(0.3), &G).unwrap();
    assert_eq!(rtx.ns, 100, "the missing segment, at once");
    assert_eq!(a.ssthresh(), 450, "half the flight (900 octets)");
    assert_eq!(a.cwnd(), 450 + 300);
    assert_eq!(a.counters().retransmitted_reject, 1);
    a.handle_receive(t(0.4), &ack(1000));
    assert_eq!(a.cwnd(), 450, "deflated on the new ACK");
    assert_eq!(a.counters().timeouts, 0);
}

#[test]
fn test_receiver_delays_ack_of_one_segment_acks_every_second_and_out_of_order_at_once() {
    let mut b = Tcp::new(&cfg(100, 64, 1));
    let mut a = tcp_established_with(5, 8);
    let f = drain(&mut a, SimTime::ZERO);
    b.handle_receive(t(0.1), &f[0]);
    assert!(!b.wants_transmit(), "delayed");
    assert_eq!(b.poll_timeout(), Some(t(0.3)), "delayed-ACK timer 0.2 s");
    b.handle_receive(t(0.15), &f[1]);
    let ack2 = b.poll_transmit(t(0.15), &G).unwrap();
    assert_eq!((ack2.kind, ack2.nr), (FrameKind::RR, 200), "every second full segment");
    b.handle_receive(t(0.2), &f[3]);
    let dup = b.poll_transmit(t(0.2), &G).unwrap();
    assert_eq!(dup.nr, 200, "out of order: duplicate ACK at once");
    b.handle_receive(t(0.25), &f[2]);
    let fill = b.poll_transmit(t(0.25), &G).unwrap();
    assert_eq!(fill.nr, 400, "gap filled: ACK at once, past the held segment");
    let ids: Vec<u64> = std::iter::from_fn(|| b.poll_event()).filter_map(|e| if let Event::Delivered(s) = e { Some(s.id) } else { None }).collect();
    assert_eq!(ids, vec![0, 1, 2, 3]);
    b.handle_receive(t(0.3), &f[4]);
    b.handle_timeout(t(0.5));
    assert_eq!(b.poll_transmit(t(0.5), &G).unwrap().nr, 500, "the delayed ACK after the timer");
}

#[test]
fn test_sequence_numbers_wrap_modulo_2_32() {
    assert_eq!(endpoint::unwrap_seq(5, (1u64 << 32) - 10), (1u64 << 32) + 5);
    assert_eq!(endpoint::unwrap_seq(u32::MAX - 1, (1u64 << 32) + 3), (1u64 << 32) - 2);
}

/// Bulk transfer over a lossless line: after slow start the window W·MSS per round
/// trip binds (or the line does), S = min(C·L/(L+H), W·L/(t_f + RTT)) as the closed
/// form of docs/references.md#closed-forms.
fn bulk_throughput(w: u32) -> (f64, f64) {
    let (mss, rate, delay) = (512u32, 9600.0, 0.5);
    let mut c = cfg(mss, w, 1);
    c.delayed_ack_s = 0.0;
    let mut a = Tcp::new(&c);
    for i in 0..400 {
        a.handle_submit(SimTime::ZERO, sdu(i, mss));
    }
    let mut p = Pair::new(a, Tcp::new(&c), rate, delay);
    p.run(SimTime::from_secs_f64(1e6), |_, _, _| false);
    let got = p.delivered(1);
    assert_eq!(got.iter().map(|x| x.1.id).collect::<Vec<_>>(), (0..400).collect::<Vec<_>>());
    // Steady state: from the 100th to the 400th delivery.
    let (t0, t1) = (got[99].0.as_secs_f64(), got[399].0.as_secs_f64());
    let measured = 300.0 * f64::from(mss) * 8.0 / (t1 - t0);
    let l = f64::from(mss) * 8.0;
    let (t_f, t_a) = ((l + 160.0) / rate, 160.0 / rate);
    let closed = (rate * l / (l + 160.0)).min(f64::from(w) * l / (t_f + 2.0 * delay + t_a));
    (measured, closed)
}

#[test]
fn test_lossless_bulk_transfer_reaches_the_window_limited_closed_form() {
    for w in [1, 2, 3, 8] {
        let (m, c) = bulk_throughput(w);
        assert!((m - c).abs() / c < 1e-6, "W = {w}: measured {m} closed form {c}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Whatever is lost (either direction), every SDU arrives exactly once and in order.
    #[test]
    fn prop_exactly_once_in_order_under_random_loss(seed in any::<u64>(), loss in 0.0f64..0.3, n in 1u64..60, len in 1u32..1500) {
        let mut c = cfg(536, 8, 2);
        c.min_rto_s = 0.2;
        let mut a = Tcp::new(&c);
        for i in 0..n {
            a.handle_submit(SimTime::ZERO, Sdu { id: i, bits: len * 8 - (i as u32 % 7), flow: 0, born: SimTime::ZERO });
        }
        let mut p = Pair::new(a, Tcp::new(&c), 64_000.0, 0.05);
        let mut x = seed | 1;
        p.run(SimTime::from_secs_f64(1e5), |_, _, _| {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            (x % 10_000) as f64 / 10_000.0 < loss
        });
        let got: Vec<u64> = p.delivered(1).iter().map(|x| x.1.id).collect();
        prop_assert_eq!(got, (0..n).collect::<Vec<_>>());
        prop_assert_eq!(p.ends[0].unacknowledged(), 0);
    }
}

fn setup_cfg() -> TcpConfig {
    TcpConfig { connection_setup: true, ..cfg(100, 64, 1) }
}

fn is_syn(f: &Frame<Sdu>) -> bool {
    f.kind == FrameKind::I && f.command && !f.pf && f.bits == 160
}

fn is_syn_ack(f: &Frame<Sdu>) -> bool {
    f.kind == FrameKind::I && f.command && f.pf && f.nr == 1 && f.bits == 160
}

#[test]
fn test_setup_three_way_handshake_then_data_starts_at_sequence_one() {
    let (mut a, mut b) = (Tcp::open(&setup_cfg(), true), Tcp::open(&setup_cfg(), false));
    a.handle_submit(SimTime::ZERO, sdu(0, 50));
    b.handle_submit(SimTime::ZERO, sdu(0, 30));
    assert_eq!(b.poll_transmit(SimTime::ZERO, &G), None, "listening: no data before the handshake");
    let syn = drain(&mut a, SimTime::ZERO);
    assert_eq!(syn.len(), 1, "the SYN alone: no data before the SYN-ACK");
    assert!(is_syn(&syn[0]) && syn[0].ns == 0);
    b.handle_receive(t(0.1), &syn[0]);
    assert_eq!(b.state(), endpoint::State::SynReceived);
    let syn_ack = drain(&mut b, t(0.1));
    assert_eq!(syn_ack.len(), 1);
    assert!(is_syn_ack(&syn_ack[0]));
    a.handle_receive(t(0.25), &syn_ack[0]);
    assert_eq!(a.state(), endpoint::State::Established);
    assert_eq!(a.srtt_s(), Some(0.25), "the SYN was sent once: its RTT is a sample");
    // The ACK of the SYN-ACK rides on the first data segment: seq 1, ack 1.
    let first = drain(&mut a, t(0.25));
    assert_eq!(first.iter().map(|f| (f.kind, f.ns, f.nr, f.bits - 160)).collect::<Vec<_>>(), vec![(FrameKind::I, 1, 1, 400)]);
    b.handle_receive(t(0.35), &first[0]);
    assert_eq!(b.state(), endpoint::State::Established);
    assert_eq!(b.srtt_s(), Some(0.25), "SYN-ACK at 0.1, its ACK at 0.35");
    assert_eq!(b.poll_event(), Some(Event::Delivered(sdu(0, 50))));
    let reply = drain(&mut b, t(0.35));
    assert_eq!(reply.iter().map(|f| (f.ns, f.nr)).collect::<Vec<_>>(), vec![(1, 51)], "data from 1, acking 1 + 50");
    a.handle_receive(t(0.45), &reply[0]);
    assert_eq!(a.poll_event(), Some(Event::Acknowledged(sdu(0, 50))));
    assert_eq!(a.poll_event(), Some(Event::Delivered(sdu(0, 30))));
}

#[test]
fn test_setup_pure_ack_completes_the_handshake_when_no_data_waits() {
    let (mut a, mut b) = (Tcp::open(&setup_cfg(), true), Tcp::open(&setup_cfg(), false));
    let syn = drain(&mut a, SimTime::ZERO);
    b.handle_receive(t(0.1), &syn[0]);
    let syn_ack = drain(&mut b, t(0.1));
    a.handle_receive(t(0.2), &syn_ack[0]);
    let ack = drain(&mut a, t(0.2));
    assert_eq!(ack.iter().map(|f| (f.kind, f.nr, f.command)).collect::<Vec<_>>(), vec![(FrameKind::RR, 1, false)]);
    b.handle_receive(t(0.3), &ack[0]);
    assert_eq!(b.state(), endpoint::State::Established);
    assert_eq!(b.poll_timeout(), None, "the SYN-ACK's timer stops");
    assert_eq!(a.poll_timeout(), None, "the SYN's timer stops");
}

#[test]
fn test_setup_syn_retransmitted_with_back_off_and_karn_then_rto_3s() {
    let mut a = Tcp::open(&setup_cfg(), true);
    a.handle_submit(SimTime::ZERO, sdu(0, 50));
    assert!(is_syn(&drain(&mut a, SimTime::ZERO)[0]));
    // RFC 6298 §2.1: initial RTO 1 s; §5.5: doubled on each expiry.
    let mut sent_at = vec![0.0];
    for expected_gap in [1.0, 2.0, 4.0] {
        let d = a.poll_timeout().unwrap();
        assert_eq!(d, t(sent_at.last().unwrap() + expected_gap));
        a.handle_timeout(d);
        let again = drain(&mut a, d);
        assert_eq!(again.len(), 1);
        assert!(is_syn(&again[0]), "the SYN again, still no data");
        sent_at.push(d.as_secs_f64());
    }
    assert_eq!(sent_at, vec![0.0, 1.0, 3.0, 7.0]);
    assert_eq!(a.counters().timeouts, 3);
    assert_eq!(a.counters().retransmitted_timeout, 3);
    let mut b = Tcp::open(&setup_cfg(), false);
    b.handle_receive(t(7.1), &Frame { kind: FrameKind::I, ns: 0, nr: 0, pf: false, command: true, bits: 160, msg: None });
    let syn_ack = drain(&mut b, t(7.1));
    a.handle_receive(t(7.2), &syn_ack[0]);
    assert_eq!(a.state(), endpoint::State::Established);
    assert_eq!(a.srtt_s(), None, "Karn: the SYN was retransmitted, no sample");
    assert_eq!(a.rto_s(), 3.0, "RFC 6298 §5.7: data starts with RTO = 3 s after a SYN timeout");
    let data = drain(&mut a, t(7.2));
    assert_eq!(data[0].ns, 1);
    assert_eq!(a.poll_timeout(), Some(t(10.2)));
}

#[test]
fn test_setup_lost_syn_ack_answered_again_on_the_duplicate_syn_and_on_its_own_timer() {
    let (mut a, mut b) = (Tcp::open(&setup_cfg(), true), Tcp::open(&setup_cfg(), false));
    let syn = drain(&mut a, SimTime::ZERO);
    b.handle_receive(t(0.1), &syn[0]);
    let _lost = drain(&mut b, t(0.1));
    assert_eq!(b.poll_timeout(), Some(t(1.1)), "the SYN-ACK runs the RTO too");
    // The active side times out first and repeats its SYN: the SYN-ACK is sent again.
    a.handle_timeout(t(1.0));
    let syn2 = drain(&mut a, t(1.0));
    b.handle_receive(t(1.05), &syn2[0]);
    let sa2 = drain(&mut b, t(1.05));
    assert!(is_syn_ack(&sa2[0]));
    assert_eq!(b.counters().retransmitted_timeout, 1);
    // The passive side's own timer: a third SYN-ACK, backed off to 2 s.
    b.handle_timeout(t(1.1));
    assert!(is_syn_ack(&drain(&mut b, t(1.1))[0]));
    assert_eq!(b.poll_timeout(), Some(t(3.1)));
    a.handle_receive(t(1.2), &sa2[0]);
    let ack = drain(&mut a, t(1.2));
    b.handle_receive(t(1.3), &ack[0]);
    assert_eq!(b.state(), endpoint::State::Established);
    assert_eq!(b.srtt_s(), None, "Karn: the SYN-ACK was sent more than once");
    assert_eq!(b.rto_s(), 3.0, "§5.7 on the passive side too: its timer expired");
    // A late duplicate SYN-ACK at the established active side is answered with an ACK.
    a.handle_receive(t(1.4), &sa2[0]);
    assert_eq!(drain(&mut a, t(1.4)).iter().map(|f| (f.kind, f.nr)).collect::<Vec<_>>(), vec![(FrameKind::RR, 1)]);
}

#[test]
fn test_setup_a_syn_repeat_still_queued_when_the_syn_ack_arrives_is_dropped() {
    let (mut a, mut b) = (Tcp::open(&setup_cfg(), true), Tcp::open(&setup_cfg(), false));
    let syn = drain(&mut a, SimTime::ZERO);
    a.handle_timeout(t(1.0));
    assert!(a.wants_transmit(), "the SYN is due again, but the line is not free yet");
    b.handle_receive(t(0.5), &syn[0]);
    let syn_ack = drain(&mut b, t(0.5));
    a.handle_receive(t(1.2), &syn_ack[0]);
    let out = drain(&mut a, t(1.2));
    assert_eq!(out.iter().map(|f| (f.kind, f.command)).collect::<Vec<_>>(), vec![(FrameKind::RR, false)], "the ACK, no stale SYN");
}

#[test]
fn test_setup_off_is_open_from_the_start_and_on_wire_unchanged() {
    let mut a = Tcp::open(&cfg(100, 64, 1), true);
    a.handle_submit(SimTime::ZERO, sdu(0, 50));
    let f = drain(&mut a, SimTime::ZERO);
    assert_eq!((f[0].ns, f[0].nr, f[0].command), (0, 0, false), "no SYN, data from 0");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// With the handshake, whatever is lost (SYNs included), every SDU of both sides
    /// arrives exactly once and in order.
    #[test]
    fn prop_setup_exactly_once_in_order_under_random_loss(seed in any::<u64>(), loss in 0.0f64..0.4, n in 1u64..20) {
        let mut c = TcpConfig { connection_setup: true, ..cfg(536, 8, 2) };
        c.min_rto_s = 0.2;
        c.initial_rto_s = 0.2;
        let (mut a, mut b) = (Tcp::open(&c, true), Tcp::open(&c, false));
        for i in 0..n {
            a.handle_submit(SimTime::ZERO, Sdu { id: i, bits: 700 * 8, flow: 0, born: SimTime::ZERO });
            b.handle_submit(SimTime::ZERO, Sdu { id: i, bits: 90 * 8, flow: 1, born: SimTime::ZERO });
        }
        let mut p = Pair::new(a, b, 64_000.0, 0.05);
        let mut x = seed | 1;
        p.run(SimTime::from_secs_f64(1e5), |_, _, _| {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            (x % 10_000) as f64 / 10_000.0 < loss
        });
        for side in 0..2 {
            let got: Vec<u64> = p.delivered(side).iter().map(|x| x.1.id).collect();
            prop_assert_eq!(got, (0..n).collect::<Vec<_>>());
            prop_assert_eq!(p.ends[side].unacknowledged(), 0);
        }
    }
}
