//! TCP over IP over X.25 over LAPB: the Comer & Korb file transfer, two hosts, a
//! network of transit delay T_N, C circuits opened before the transfer.

use super::*;
use crate::engine::SimTime;
use crate::protocol::tcp::{Tcp, TcpConfig};
use crate::protocol::testpair::Pair;
use crate::protocol::{Frame, Layer, Sdu, Stacked};
use proptest::prelude::*;

type Host = Stacked<Tcp, X25Host<Frame<Sdu>>>;

/// Throughput (bit/s) of a `bytes`-octet transfer in 452-octet segments (492-octet
/// datagrams: four packets), counted from time zero (the calls are set up first, as in
/// the paper, so their set-up time is subtracted), and TCP's retransmitted share.
pub(crate) fn transfer(c: u32, w: u32, bytes: u32) -> (f64, f64, f64) {
    let x = X25Config { window: w, preopen_circuits: c, policy: PolicyKind::MultiMlru, c_max: c, ..X25Config::default() };
    let tc = TcpConfig { mss_octets: 452, receive_window_octets: 4096, ..TcpConfig::default() };
    let a: Host = Stacked::new(Tcp::new(&tc), X25Host::new(0, &x, vec![], 1, &[1]));
    let b: Host = Stacked::new(Tcp::new(&tc), X25Host::new(1, &x, vec![], 0, &[]));
    let mut p = Pair::new(a, b, 1e12, 0.235);
    // Set-up: run until every call is connected, then offer the file.
    p.run(SimTime::from_secs_f64(5.0), |_, _, _| false);
    let start = p.now;
    let n = bytes.div_ceil(452);
    for k in 0..n {
        let len = (bytes - k * 452).min(452);
        p.ends[0].handle_submit(start, Sdu { id: u64::from(k), bits: 8 * len, flow: 0, born: start });
    }
    p.run(SimTime::from_secs_f64(1e5), |_, _, _| false);
    let got = p.delivered(1);
    assert_eq!(got.iter().map(|x| x.1.id).collect::<Vec<_>>(), (0..u64::from(n)).collect::<Vec<_>>(), "TCP delivers in order");
    let done = got.last().expect("delivered").0;
    let tcp = &p.ends[0].upper;
    let rtx = tcp.octets_retransmitted as f64 / f64::from(bytes);
    (8.0 * f64::from(bytes) / (done - start).as_secs_f64(), rtx, start.as_secs_f64())
}

#[test]
fn test_tcp_file_transfer_over_one_circuit_stays_below_the_burst_bound_and_saturates_with_more() {
    let (one, rtx1, setup) = transfer(1, 2, 100_000);
    let cfg = X25Config::default();
    let bound = super::tests::burst_model(2, 1, 0.235, &cfg) * 452.0 / 492.0;
    eprintln!("C=1: {one:.0} bit/s (bound with headers {bound:.0}), retransmitted {rtx1:.3}, set-up done at {setup:.3} s");
    assert!(one < bound, "{one} < {bound}");
    let mut prev = one;
    for c in 2..=5 {
        let (s, rtx, _) = transfer(c, 2, 100_000);
        eprintln!("C={c}: {s:.0} bit/s retransmitted {rtx:.3}");
        if c <= 3 {
            assert!(s > 1.3 * prev, "C = {c}: {s} vs {prev}: throughput grows with circuits");
        }
        prev = s;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// Datagrams of random sizes over 1–4 circuits: each delivered exactly once, every
    /// circuit's packets in sequence, every packet carrying one datagram's pieces in order.
    #[test]
    fn prop_datagrams_exactly_once_per_circuit_order_no_shared_packets(c in 1u32..5, w in 1u32..5, sizes in proptest::collection::vec(1u32..1500, 1..60)) {
        let cfg = X25Config { window: w, preopen_circuits: c, policy: PolicyKind::MultiMlru, c_max: c, ..X25Config::default() };
        let a: X25Host<Sdu> = X25Host::new(0, &cfg, vec![1], 1, &[1]);
        let b = X25Host::new(1, &cfg, vec![0], 0, &[]);
        let mut p = Pair::new(a, b, 1e12, 0.1);
        for (k, &s) in sizes.iter().enumerate() {
            p.ends[0].handle_submit(SimTime::ZERO, Sdu { id: k as u64, bits: 8 * s, flow: 0, born: SimTime::ZERO });
        }
        let mut seen: std::collections::HashMap<u32, (u32, Option<(u64, u32)>)> = Default::default();
        let mut bad = None;
        p.run(SimTime::from_secs_f64(1e5), |side, _, f| {
            if side == 0 {
                let pk = f;
                if pk.kind == PacketKind::Data {
                    let e = seen.entry(pk.vc).or_insert((0, None));
                    let (n, _) = pk.dgram.expect("a data packet names its datagram");
                    // P(S) in sequence on the circuit; a datagram's pieces consecutive.
                    let ok_ps = pk.ps == e.0 % 8;
                    let ok_piece = match e.1 { Some((d, i)) => d == n && pk.index == i + 1, None => pk.index == 0 };
                    if !(ok_ps && ok_piece) && bad.is_none() { bad = Some((pk.vc, pk.ps, pk.index)); }
                    e.0 += 1;
                    e.1 = pk.m.then_some((n, pk.index));
                }
            }
            false
        });
        prop_assert_eq!(bad, None);
        let mut ids: Vec<u64> = p.delivered(1).iter().map(|x| x.1.id).collect();
        ids.sort();
        prop_assert_eq!(ids, (0..sizes.len() as u64).collect::<Vec<_>>());
        prop_assert_eq!(p.ends[1].iface.counters.sequence_errors, 0);
    }
}

/// TCP with a window of k one-packet segments over X.25 (W = 2) and LAPB at 2400 bit/s,
/// ACK at once, no loss: one segment per (k ∧ W) per round trip, the round trip
/// 2 T_d + 2 T_a + 2 T_N, where T_d and T_a are the data and ACK datagrams' frame times
/// (40 octets of TCP/IP headers, 3 of X.25, 6 of LAPB). With the LAPB acknowledgement
/// delay T2 = 0 each end first sends an RR S frame (48 bits) ahead of the reply made at
/// the same instant: 2·48/R more per round trip — except at the sender when k > W: its
/// next segment already waits in the X.25 queue when the ACK (and P(R)) arrives, so
/// LAPB's N(R) rides on it. With T2 > 0 every N(R) rides on the reply. Returns
/// (measured, closed form).
fn window_k_over_w2(k: u32, t2: f64) -> (f64, f64) {
    window_k_over_w2_processed(k, t2, 0.0)
}

/// [`window_k_over_w2`] with host processing `h` per packet handed to LAPB; the closed
/// form adds 2h per round trip (the data packet at the sender, the ACK's at the
/// receiver), valid for k = 1 (one packet in each direction per round trip).
fn window_k_over_w2_processed(k: u32, t2: f64, h: f64) -> (f64, f64) {
    const MSS: u32 = 80;
    let r = 2400.0;
    let t_n = 0.235;
    let x = X25Config { window: 2, preopen_circuits: 1, access_rate_bps: r, lapb_t2_s: t2, host_processing_s: h, ..X25Config::default() };
    let tc = TcpConfig { mss_octets: MSS, receive_window_octets: k * MSS, delayed_ack_s: 0.0, flavour: "bsd42".into(), initial_rto_s: 60.0, max_rto_s: 60.0, ..TcpConfig::default() };
    let a: Host = Stacked::new(Tcp::new(&tc), X25Host::new(0, &x, vec![], 1, &[1]));
    let b: Host = Stacked::new(Tcp::new(&tc), X25Host::new(1, &x, vec![], 0, &[]));
    let mut p = Pair::new(a, b, 1e12, t_n);
    p.run(SimTime::from_secs_f64(5.0), |_, _, _| false);
    let start = p.now;
    let n = 200u32;
    for i in 0..n {
        p.ends[0].handle_submit(start, Sdu { id: u64::from(i), bits: 8 * MSS, flow: 0, born: start });
    }
    p.run(SimTime::from_secs_f64(1e5), |_, _, _| false);
    let got = p.delivered(1);
    assert_eq!(got.len() as u32, n, "every segment delivered");
    assert_eq!(p.ends[0].upper.segments_retransmitted, 0, "no timeout");
    // Steady state: segments 50 to 150.
    let measured = 100.0 * f64::from(8 * MSS) / (got[150].0 - got[50].0).as_secs_f64();
    let t_d = f64::from(8 * (MSS + 40 + 3 + 6)) / r;
    let t_a = f64::from(8 * (40 + 3 + 6)) / r;
    let rr_ends = if t2 > 0.0 { 0.0 } else if k <= 2 { 2.0 } else { 1.0 };
    let rr = rr_ends * 48.0 / r;
    let cycle = 2.0 * t_d + 2.0 * t_a + 2.0 * t_n + rr + 2.0 * h;
    let model = (f64::from(k.min(2)) * f64::from(8 * MSS) / cycle).min(f64::from(8 * MSS) / t_d);
    (measured, model)
}

#[test]
fn test_lapb_t2_tcp_window_1_2_3_over_x25_w2_at_2400_matches_the_closed_form() {
    for k in 1..=3 {
        for t2 in [0.0, 0.1] {
            let (m, model) = window_k_over_w2(k, t2);
            eprintln!("k = {k}, T2 = {t2}: {m:.3} vs {model:.3} bit/s");
            assert!((m - model).abs() / model < 1e-6, "k = {k}, T2 = {t2}: measured {m}, closed form {model}");
        }
    }
    // Today's T2 = 0 costs exactly 2·48/R per round trip.
    let (slow, _) = window_k_over_w2(1, 0.0);
    let (fast, _) = window_k_over_w2(1, 0.1);
    eprintln!("T2 = 0 is {:.2} % slower", 100.0 * (1.0 - slow / fast));
}

/// Host processing h per packet, not overlapped with transmission (eq. 1's W (T_p + T_f)
/// counts T_f per packet): TCP window 1 over X.25 W = 2 is slower by exactly 2h per
/// round trip; h = 0 is the model without processing, to the bit.
#[test]
fn test_host_processing_adds_h_per_packet_to_the_tcp_window_1_round_trip() {
    for h in [0.0, 0.015, 0.05] {
        let (m, model) = window_k_over_w2_processed(1, 0.1, h);
        eprintln!("h = {h}: {m:.3} vs {model:.3} bit/s");
        assert!((m - model).abs() / model < 1e-6, "h = {h}: measured {m}, closed form {model}");
    }
    assert_eq!(window_k_over_w2_processed(1, 0.1, 0.0), window_k_over_w2(1, 0.1));
}

/// A burst of W packets leaves the DTE one per (h + T_p): the next packet is taken from
/// the interface only after the previous frame has gone.
#[test]
fn test_host_processing_spaces_a_bursts_packets_by_h_plus_t_p() {
    let h = 0.015;
    let x = X25Config { window: 2, preopen_circuits: 1, host_processing_s: h, ..X25Config::default() };
    let a: X25Host<Sdu> = X25Host::new(0, &x, vec![1], 1, &[1]);
    let b: X25Host<Sdu> = X25Host::new(1, &x, vec![0], 0, &[]);
    let mut p = Pair::new(a, b, 1e12, 0.235);
    p.run(SimTime::from_secs_f64(5.0), |_, _, _| false);
    let up0 = p.ends[0].line.counters().up_frames;
    let start = p.now;
    for i in 0..2 {
        p.ends[0].handle_submit(start, Sdu { id: i, bits: 800, flow: 0, born: start });
    }
    // One packet each (100 + 20 octets); a frame is counted when it starts: the first
    // at h, the second at h + T_p + h (taken when the first has gone, then processed).
    let t_p = f64::from(8 * (120 + 3 + 6)) / 9600.0;
    let frames_by = |p: &mut Pair<X25Host<Sdu>>, at: f64| {
        p.run(start + crate::engine::Duration::from_secs_f64(at), |_, _, _| false);
        p.ends[0].line.counters().up_frames - up0
    };
    assert_eq!(frames_by(&mut p, h - 1e-9), 0, "processing first");
    assert_eq!(frames_by(&mut p, h + 1e-9), 1);
    assert_eq!(frames_by(&mut p, 2.0 * h + t_p - 1e-9), 1, "not overlapped with the first frame");
    assert_eq!(frames_by(&mut p, 2.0 * h + t_p + 1e-9), 2);
}
