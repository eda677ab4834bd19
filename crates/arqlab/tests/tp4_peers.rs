//! TP4 with several peers (`scenarios/topologies/star_tp4.toml`): a node that exchanges
//! flows with two others runs one TP4 connection per peer behind the multiplexing layer.
//! Against the closed form of the round-robin alternation on the server's line, and the
//! runner's invariants (every TSDU delivered once, in order; counters balance).

use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::replicate;
use std::path::Path;

fn load(file: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/topologies").join(file);
    let v = toml_to_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// DT: 1012 octets of user data + 12 of header; AK: 14 octets (extended format and
/// checksum); all lines 9600 bit/s, 5 ms; the relay forwards at once.
const T_DT: f64 = 1024.0 * 8.0 / 9600.0;
const T_AK: f64 = 14.0 * 8.0 / 9600.0;
const D: f64 = 0.005;

#[test]
fn two_peers_of_one_node_each_get_half_of_its_line_in_alternation() {
    let sc = load("star_tp4.toml");
    let rep = replicate(&sc, 1, 0).unwrap();
    let m = &rep.batches[0];
    // No TSDU lost, duplicated or reordered (the runner checks each delivery), all
    // acknowledged, none sent twice.
    for f in ["flow.a->c", "flow.b->c"] {
        let acc = rep.accounting[f];
        assert_eq!((acc.issued, acc.delivered, acc.acknowledged), (20, 20, 20), "{f}");
        let tp = &m[&format!("transport.{f}")];
        assert_eq!((tp.get("dt_sent"), tp.get("dt_retransmitted"), tp.get("ak_sent")), (Some(20.0), Some(0.0), Some(20.0)), "{f}: its own connection's TPDUs");
    }
    // Both clients' first DTs reach the relay at T + d; from then its port onto lc is
    // busy back to back, one DT per T, alternating a's and b's (each connection numbers
    // its own DTs from 0): DT j of the 40 reaches c at (j + 2) T + 2d.
    let t = arqlab::sim::trace(&sc, 1, 0, arqlab::engine::SimTime::ZERO, arqlab::engine::SimTime::from_secs_f64(100.0), 100_000).unwrap();
    let arrivals: Vec<(f64, u32)> = t
        .records
        .iter()
        .filter(|r| r.event == arqlab::trace::TraceKind::Receive && r.lane.as_deref() == Some("link.lc.r->c"))
        .map(|r| (r.time_s, r.frame.unwrap().ns.unwrap()))
        .collect();
    assert_eq!(arrivals.len(), 40);
    for (j, &(at, nr)) in arrivals.iter().enumerate() {
        let want = (j as f64 + 2.0) * T_DT + 2.0 * D;
        assert!((at - want).abs() < 1e-9, "DT {j} at {at} s, want {want} s");
        assert_eq!(nr, j as u32 / 2, "slot {j}: the clients alternate");
    }
    // The last DT's AK back to b ends the run: the closed form, exactly.
    let done = m["run"].get("completion_time_s").unwrap();
    let want = 41.0 * T_DT + 2.0 * D + 2.0 * (T_AK + D);
    assert!((done - want).abs() < 1e-9, "completion {done} s, closed form {want} s");
    // Each flow's share of the bottleneck: the same user throughput over the run.
    for f in ["flow.a->c", "flow.b->c"] {
        let got = m[f].get("throughput_bps").unwrap();
        assert!((got - 20.0 * 8096.0 / done).abs() < 1e-6, "{f}: {got} bit/s");
    }
    assert_eq!(m["node.r.lc"].get("frames_dropped"), Some(0.0));
}

#[test]
fn a_star_of_tp4_connections_is_deterministic() {
    let sc = load("star_tp4.toml");
    let (x, y) = (replicate(&sc, 7, 0).unwrap(), replicate(&sc, 7, 0).unwrap());
    assert_eq!((x.fingerprint, x.events), (y.fingerprint, y.events));
}
