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
