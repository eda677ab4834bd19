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
/// form of REFERENCE.md §G.
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
