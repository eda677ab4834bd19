//! Rule tests of the congestion window, each at its boundary and named after its clause:
//! RFC 5681 §3.1 eq. (2) slow start (+min(N, SMSS) per ACK while cwnd < ssthresh),
//! eq. (3) congestion avoidance (+SMSS·SMSS/cwnd, at least 1 octet), eq. (4) ssthresh =
//! max(FlightSize/2, 2·SMSS) with the loss window of 1 SMSS after an RTO, §3.2 fast
//! retransmit at exactly the dupthresh-th duplicate (cwnd = ssthresh + dupthresh·SMSS),
//! the §2 definition of a duplicate ACK; RFC 6582 §3.2's partial-ACK deflation; and
//! 4.2BSD's fixed window (the receive window only, never grown or cut).

use super::flavour::Congestion;
use super::newreno::NewReno;
use super::*;
use crate::engine::SimTime;
use crate::protocol::{Frame, FrameKind, Grant, Layer, Sdu};

const GRANT: Grant = Grant::line(1e6);

fn at(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

/// A pure ACK (no data) for offset `n`.
fn pure_ack(n: u64) -> Frame<Sdu> {
    Frame::supervisory(FrameKind::RR, n as u32, false, 160)
}

/// A segment of 100 octets from the peer at `seq`, acknowledging `n`.
fn data_ack(seq: u32, n: u64) -> Frame<Sdu> {
    let msg = Sdu { id: u64::from(seq), bits: 800, flow: 0, born: SimTime::ZERO };
    Frame { kind: FrameKind::I, ns: seq, nr: n as u32, pf: true, command: false, bits: 160 + 800, msg: Some(msg) }
}

/// An open endpoint of `flavour`, MSS 100, a receive window of `wnd` segments, an
/// initial window of `iw` segments, `n` SDUs of 100 octets queued.
fn endpoint(flavour: &str, wnd: u32, iw: u32, n: u64) -> Tcp {
    let c = TcpConfig {
        flavour: flavour.into(),
        mss_octets: 100,
        receive_window_octets: 100 * wnd,
        initial_window_segments: iw,
        ..TcpConfig::default()
    };
    let mut a = Tcp::new(&c);
    for id in 0..n {
        a.handle_submit(SimTime::ZERO, Sdu { id, bits: 800, flow: 0, born: SimTime::ZERO });
    }
    a
}

/// The sequence numbers of the segments that leave now.
fn out(a: &mut Tcp, now: SimTime) -> Vec<u32> {
    std::iter::from_fn(|| a.poll_transmit(now, &GRANT)).map(|f| f.ns).collect()
}

/// cwnd after each of the ACKs acknowledging `acked` new octets.
fn cwnd_after(r: &mut Reno, acked: &[u64]) -> Vec<u64> {
    acked.iter().map(|&n| {
        r.on_new_ack(n);
        r.cwnd
    }).collect()
}

/// Eq. (2): cwnd += min(N, SMSS), N the octets the ACK acknowledged: less than one
/// SMSS adds N, more than one adds SMSS.
#[test]
fn test_rfc5681_3_1_eq2_slow_start_adds_min_of_acked_and_smss() {
    // N = 40 < SMSS adds 40, N = SMSS adds SMSS, N = 250 > SMSS adds one SMSS.
    assert_eq!(cwnd_after(&mut Reno::new(100, 1), &[40, 100, 250]), vec![140, 240, 340]);
    // Frame in, frame out: an ACK of two segments opens the window by one SMSS only.
    let mut a = endpoint("reno", 64, 1, 20);
    assert_eq!(out(&mut a, at(0.0)), vec![0]);
    a.handle_receive(at(0.1), &pure_ack(100));
    assert_eq!((a.cwnd(), out(&mut a, at(0.1))), (200, vec![100, 200]));
    a.handle_receive(at(0.2), &pure_ack(300));
    assert_eq!((a.cwnd(), out(&mut a, at(0.2))), (300, vec![300, 400, 500]), "+SMSS, not +2·SMSS");
}

/// §3.1: slow start while cwnd < ssthresh; at cwnd = ssthresh congestion avoidance
/// (the RFC allows either at equality; the model takes avoidance).
#[test]
fn test_rfc5681_3_1_slow_start_below_ssthresh_avoidance_from_equality() {
    let mut r = Reno::new(100, 1);
    (r.cwnd, r.ssthresh) = (799, 800);
    r.on_new_ack(100);
    assert_eq!(r.cwnd, 899, "799 < 800: slow start");
    (r.cwnd, r.ssthresh) = (800, 800);
    r.on_new_ack(100);
    assert_eq!(r.cwnd, 812, "800 = ssthresh: 100·100/800 = 12.5, truncated");
}

/// Eq. (3): cwnd += SMSS·SMSS/cwnd per ACK, and at least 1 octet when that rounds to 0
/// ("SHOULD be rounded up to 1 byte").
#[test]
fn test_rfc5681_3_1_eq3_avoidance_adds_smss_squared_over_cwnd_at_least_one_octet() {
    let mut r = Reno::new(100, 1);
    (r.cwnd, r.ssthresh) = (1000, 500);
    // 10000/1000; 10000/1010 = 9.9, truncated; the same whatever the octets acknowledged.
    assert_eq!(cwnd_after(&mut r, &[100, 100, 1000]), vec![1010, 1019, 1028]);
    let mut small = Reno::new(10, 1);
    (small.cwnd, small.ssthresh) = (200, 100);
    small.on_new_ack(10);
    assert_eq!(small.cwnd, 201, "10·10/200 = 0: one octet");
}

/// Frame in, frame out: after an RTO (ssthresh 400), one-segment ACKs grow cwnd by a
/// segment each up to ssthresh, then by SMSS²/cwnd.
#[test]
fn test_rfc5681_3_1_slow_start_then_avoidance_after_an_rto() {
    let mut a = endpoint("reno", 64, 8, 20);
    assert_eq!(out(&mut a, at(0.0)).len(), 8);
    a.handle_timeout(a.poll_timeout().unwrap());
    assert_eq!((a.cwnd(), a.ssthresh()), (100, 400));
    let mut cwnds = vec![];
    for k in 1..=5u64 {
        a.handle_receive(at(1.0 + 0.1 * k as f64), &pure_ack(100 * k));
        cwnds.push(a.cwnd());
    }
    assert_eq!(cwnds, vec![200, 300, 400, 425, 448]);
    // SND.UNA = 500, cwnd 448: the segments ending at or before 948 may go.
    assert_eq!(out(&mut a, at(1.6)), vec![500, 600, 700, 800]);
}

/// Eq. (4): ssthresh = max(FlightSize/2, 2·SMSS) at a fast retransmit, with FlightSize
/// on either side of 4·SMSS.
#[test]
fn test_rfc5681_3_1_eq4_ssthresh_is_half_the_flight_but_at_least_two_smss() {
    for (flight, ssthresh) in [(300, 200), (399, 200), (401, 200), (402, 201), (405, 202), (1000, 500)] {
        let mut r = Reno::new(100, 10);
        for _ in 0..3 {
            r.on_dupack(flight, 3);
        }
        assert_eq!((r.ssthresh, r.cwnd), (ssthresh, ssthresh + 300), "FlightSize {flight}");
        let mut t = Reno::new(100, 10);
        t.on_timeout(flight);
        assert_eq!((t.ssthresh, t.cwnd), (ssthresh, 100), "RTO, FlightSize {flight}");
    }
}

/// §3.2 steps 2–3: the fast retransmit comes at exactly the dupthresh-th duplicate
/// (configurable), and cwnd = ssthresh + dupthresh·SMSS; step 4: each further
/// duplicate inflates by one SMSS; step 6: the next new ACK deflates to ssthresh.
#[test]
fn test_rfc5681_3_2_fast_retransmit_at_exactly_the_dupthresh_th_duplicate() {
    for threshold in [2u32, 3, 4] {
        let mut r = Reno::new(100, 10);
        for k in 1..threshold {
            assert!(!r.on_dupack(1000, threshold), "duplicate {k} of {threshold}");
            assert_eq!((r.cwnd, r.ssthresh), (1000, u64::MAX), "nothing changes before");
        }
        assert!(r.on_dupack(1000, threshold));
        assert_eq!(r.cwnd, 500 + 100 * u64::from(threshold));
        assert!(!r.on_dupack(1000, threshold), "one fast retransmit per recovery");
        assert_eq!(r.cwnd, 600 + 100 * u64::from(threshold));
        r.on_new_ack(50);
        assert_eq!((r.cwnd, r.in_recovery, r.dupacks), (500, false, 0));
    }
}

/// Frame in, frame out: 3 segments in flight, the third duplicate ACK resends the
/// segment at SND.UNA at once; ssthresh = max(150, 200) = 200, cwnd = 500.
#[test]
fn test_rfc5681_3_2_fast_retransmit_halves_the_flight_frame_by_frame() {
    let mut a = endpoint("reno", 64, 3, 20);
    assert_eq!(out(&mut a, at(0.0)), vec![0, 100, 200]);
    for k in 0..2 {
        a.handle_receive(at(0.1 + 0.01 * f64::from(k)), &pure_ack(0));
        assert_eq!(out(&mut a, at(0.1)), Vec::<u32>::new(), "duplicate {}", k + 1);
    }
    a.handle_receive(at(0.2), &pure_ack(0));
    assert_eq!((a.ssthresh(), a.cwnd()), (200, 500));
    assert_eq!(out(&mut a, at(0.2)), vec![0, 300, 400], "the retransmission, then new data up to cwnd");
    assert_eq!((a.fast_retransmits, a.counters().retransmitted_reject), (1, 1));
}

/// RFC 5681 §2, "duplicate acknowledgment": (a) data outstanding and (b) no data
/// carried. ACKs for SND.UNA on data segments, or with nothing outstanding, are not
/// duplicates.
#[test]
fn test_rfc5681_2_duplicate_ack_needs_outstanding_data_and_no_payload() {
    let mut a = endpoint("reno", 64, 4, 20);
    assert_eq!(out(&mut a, at(0.0)).len(), 4);
    for k in 0..5u32 {
        a.handle_receive(at(0.1), &data_ack(100 * k, 0));
    }
    assert_eq!((a.fast_retransmits, a.ssthresh()), (0, u64::MAX), "(b): each carried data");
    // (a): everything acknowledged, then pure ACKs for SND.UNA.
    let mut b = endpoint("reno", 64, 2, 2);
    assert_eq!(out(&mut b, at(0.0)), vec![0, 100]);
    b.handle_receive(at(0.1), &pure_ack(200));
    for _ in 0..4 {
        b.handle_receive(at(0.2), &pure_ack(200));
    }
    assert_eq!((b.fast_retransmits, b.ssthresh(), b.cwnd()), (0, u64::MAX, 300));
}

/// §3.1, after an RTO: cwnd = the loss window (1 SMSS), ssthresh by eq. (4) from the
/// flight; the go-back sends one segment.
#[test]
fn test_rfc5681_3_1_rto_cuts_cwnd_to_one_smss() {
    let mut a = endpoint("reno", 64, 3, 20);
    assert_eq!(out(&mut a, at(0.0)), vec![0, 100, 200]);
    a.handle_timeout(a.poll_timeout().unwrap());
    assert_eq!((a.cwnd(), a.ssthresh()), (100, 200), "FlightSize 300: max(150, 200)");
    assert_eq!(out(&mut a, at(1.0)), vec![0]);
}

/// RFC 6582 §3.2 step 3: a partial ACK deflates cwnd by the octets acknowledged (not
/// below one SMSS) and adds one SMSS back if at least one SMSS was acknowledged.
#[test]
fn test_rfc6582_3_2_partial_ack_adds_back_one_smss_from_exactly_one_smss_acked() {
    let recovering = || {
        let mut n = NewReno::new(100, 10);
        for _ in 0..3 {
            n.on_dupack(1000, 3, 0, 1000);
        }
        assert_eq!(n.reno.cwnd, 800);
        n
    };
    for (acked, cwnd) in [(99, 701), (100, 800), (101, 799), (750, 200), (799, 200)] {
        let mut n = recovering();
        assert!(n.on_new_ack(acked, acked), "ACK {acked} < recover 1000: partial");
        assert_eq!((n.reno.cwnd, n.reno.in_recovery), (cwnd, true), "{acked} octets acknowledged");
    }
    let mut n = recovering();
    assert!(!n.on_new_ack(999, 999 + 1), "ACK = recover: full");
    assert_eq!((n.reno.cwnd, n.reno.in_recovery), (500, false));
}

/// 4.2BSD has no congestion window: the window is the receive window, it slides by
/// exactly what each ACK acknowledges, duplicates and timeouts change nothing, and a
/// timeout resends the whole window.
#[test]
fn test_bsd42_fixed_window_is_the_receive_window_never_grown_or_cut() {
    let mut a = endpoint("bsd42", 4, 1, 20);
    assert_eq!(out(&mut a, at(0.0)), vec![0, 100, 200, 300]);
    assert_eq!((a.cwnd(), a.ssthresh()), (u64::MAX, u64::MAX));
    a.handle_receive(at(0.1), &pure_ack(100));
    assert_eq!(out(&mut a, at(0.1)), vec![400], "one segment acknowledged, one more sent");
    a.handle_receive(at(0.2), &pure_ack(300));
    assert_eq!(out(&mut a, at(0.2)), vec![500, 600]);
    for _ in 0..4 {
        a.handle_receive(at(0.3), &pure_ack(300));
    }
    assert_eq!(out(&mut a, at(0.3)), Vec::<u32>::new(), "duplicates ignored");
    a.handle_timeout(a.poll_timeout().unwrap());
    let t = a.poll_timeout().unwrap();
    assert_eq!(out(&mut a, t), vec![300, 400, 500, 600], "the whole window again");
    assert_eq!((a.cwnd(), a.ssthresh(), a.fast_retransmits), (u64::MAX, u64::MAX, 0));
    let mut c = Congestion::Bsd42;
    assert!(!c.on_new_ack(100, 100));
    assert!(!c.on_dupack(400, 3, 0, 400) && !c.on_dupack(400, 3, 0, 400) && !c.on_dupack(400, 3, 0, 400));
    c.on_timeout(400, 400);
    assert_eq!(c, Congestion::Bsd42);
}

/// The flavour picks the congestion control: `reno` and `newreno` start at the
/// initial window with ssthresh "arbitrarily high", `bsd42` has none.
#[test]
fn test_flavour_selects_the_congestion_control() {
    let c = |flavour: &str| TcpConfig { flavour: flavour.into(), mss_octets: 100, initial_window_segments: 2, ..TcpConfig::default() };
    assert_eq!(Congestion::new(&c("reno")), Congestion::Reno(Reno::new(100, 2)));
    assert_eq!(Congestion::new(&c("newreno")), Congestion::NewReno(NewReno::new(100, 2)));
    assert_eq!(Congestion::new(&c("bsd42")), Congestion::Bsd42);
    let r = Congestion::new(&c("newreno"));
    assert_eq!((r.cwnd(), r.ssthresh()), (200, u64::MAX));
}
