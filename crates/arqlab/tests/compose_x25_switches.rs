//! X.25 networks of several switches (`scenario::x25_net`, docs/models/x25.md, "X.25
//! networks of several switches"): `scenarios/compose/x25_two_switches.toml` (one
//! circuit on a line of two switches, closed form) and
//! `scenarios/compose/x25_three_switches.toml` (four gateways, three switches).

mod common;

use arqlab::engine::SimTime;
use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::{replicate, trace, Replication};
use std::collections::BTreeMap;

const ACCESS: f64 = 9600.0;
const DATA_PACKET: f64 = (3.0 + 128.0) * 8.0; // X.25 header + 128 octets
const RR_PACKET: f64 = 3.0 * 8.0;
const LAPB: f64 = 48.0; // flags, address, control, FCS on the access lines
const USER_PER_PACKET: f64 = 4960.0 / 5.0; // a 640-octet datagram: 620 octets of user data, 5 packets
const MEASURED_S: f64 = 270.0;

/// One circuit's user-data throughput on a line of five hops — the sender's access
/// line, its DCE's line to s1, the trunk, s2's line to the far DCE, the receiver's
/// access line — in the burst model (docs/models/x25.md): W packets leave back to back,
/// each hop j stores a packet whole and sends it in τ_j, the receiver returns P(R) when
/// the W-th is in, and the RR packet's way back opens the next burst:
/// X = W·d / (Σ τ_j + (W − 1)·max τ_j + 2·D + Σ ρ_j), with D the propagation and
/// transit delays one way and ρ_j the RR packet's time on hop j.
fn closed_form(window: f64, trunk_bps: f64, delays_one_way: f64) -> f64 {
    let rates = [ACCESS, 1e9, trunk_bps, 1e9, ACCESS];
    let frame = |j: usize, packet: f64| if j == 0 || j == 4 { packet + LAPB } else { packet };
    let tau: Vec<f64> = (0..5).map(|j| frame(j, DATA_PACKET) / rates[j]).collect();
    let (sum, max) = (tau.iter().sum::<f64>(), tau.iter().cloned().fold(0.0, f64::max));
    let back: f64 = (0..5).map(|j| frame(j, RR_PACKET) / rates[j]).sum();
    window * USER_PER_PACKET / (sum + (window - 1.0) * max + 2.0 * delays_one_way + back)
}

fn two_switches(window: u32, trunk_bps: f64, trunk_delay_s: f64) -> Scenario {
    let trunk = format!("rate_bps = {trunk_bps:?}\ndelay_s = {trunk_delay_s:?}");
    common::shipped("compose/x25_two_switches.toml", &[("window = 7", &format!("window = {window}")), ("rate_bps = 4800.0\ndelay_s = 0.02", &trunk)])
}

fn measure<'a>(rep: &'a Replication) -> impl Fn(&str, &str) -> f64 + 'a {
    move |scope: &str, k: &str| rep.batches[0].get(scope).and_then(|m| m.get(k)).unwrap_or_else(|| panic!("{scope}.{k} missing"))
}

/// The closed form of one circuit on a line of two switches, in its three regimes: the
/// trunk slowest (4800 bit/s, W = 7: the file), the window's round trip (W = 2 over a
/// 200 ms trunk) and the access lines slowest (a 64 kbit/s trunk, W = 7). Error free
/// with constant delays, every replication is the same trajectory (the 95 % interval
/// over replications has width 0: two seeds give the same result), so the check is
/// to the measurement's resolution: a burst of W packets and one datagram over the
/// 270 s measured.
#[test]
fn x25_switches_one_circuit_on_a_two_switch_line_meets_the_window_round_trip_closed_form() {
    let transit = 0.005;
    for (w, trunk, d) in [(7, 4800.0, 0.02), (2, 64000.0, 0.2), (7, 64000.0, 0.02)] {
        let sc = two_switches(w, trunk, d);
        let rep = replicate(&sc, 1, 0).unwrap();
        let got = measure(&rep)("flow.a->b", "throughput_bps");
        let want = closed_form(w as f64, trunk, transit + d + transit);
        let resolution = (w as f64 * USER_PER_PACKET + 4960.0) / MEASURED_S;
        assert!((got - want).abs() <= resolution, "W {w}, trunk {trunk} bit/s, {d} s: simulated {got} bit/s, closed form {want} (± {resolution})");
        let other = replicate(&sc, 7, 1).unwrap();
        assert_eq!(measure(&other)("flow.a->b", "throughput_bps"), got, "W {w}: error free and constant delays: every replication the same");
    }
    // The regimes are distinct: the trunk's limit (d / τ_trunk) and the access line's
    // (d / τ_access) are approached only as W grows.
    assert!(closed_form(7.0, 4800.0, 0.03) < USER_PER_PACKET * 4800.0 / DATA_PACKET);
    assert!(closed_form(7.0, 64000.0, 0.03) < USER_PER_PACKET * ACCESS / (DATA_PACKET + LAPB));
}

/// Data packets sent on `lane` by `station` in the first 100 s: per virtual circuit,
/// each P(S) must follow the one before (mod 8): every packet crosses the hop once,
/// in order. Returns the packets seen per circuit.
fn in_order_per_circuit(sc: &Scenario, lane: &str, station: &str) -> BTreeMap<u32, usize> {
    let t = trace(sc, 1, 0, SimTime::ZERO, SimTime::from_secs_f64(100.0), 1_000_000).unwrap();
    let mut last: BTreeMap<u32, (u32, usize)> = BTreeMap::new();
    for r in t.records.iter().filter(|r| r.lane.as_deref() == Some(lane) && r.station == station && format!("{:?}", r.event) == "Send") {
        let (Some(f), Some(c)) = (&r.frame, r.carried.as_ref().and_then(|c| c.circuit)) else { continue };
        let Some(ps) = f.ns.filter(|_| f.kind == "DATA") else { continue };
        let e = last.entry(c).or_insert(((ps + 7) % 8, 0));
        assert_eq!(ps, (e.0 + 1) % 8, "{lane}: circuit {c}'s P(S) {ps} after {} at {} s", e.0, r.time_s);
        *e = (ps, e.1 + 1);
    }
    last.into_iter().map(|(c, (_, n))| (c, n)).collect()
}

/// Invariants on the two-switch line: every data packet crosses each hop once and in
/// order (P(S) consecutive on the trunk and on s2's line to g2); each switch forwards
/// what it is offered, dropping nothing (at most the frame on the line in flight);
/// what enters s1 from g1 leaves on the trunk; every datagram g1 puts on the circuit
/// reaches g2 but those in flight (at most a window), each as its 5 packets, and g2
/// forwards them all to b.
#[test]
fn x25_switches_every_packet_crosses_each_hop_once_in_order_and_counters_balance() {
    let sc = two_switches(7, 4800.0, 0.02);
    for (lane, station) in [("link.trunk.s1->s2", "s1"), ("link.dce2.s2->g2", "s2")] {
        let seen = in_order_per_circuit(&sc, lane, station);
        assert_eq!(seen.len(), 1, "{lane}: one circuit");
        assert!(seen.values().all(|&n| n > 100), "{lane}: {seen:?}");
    }
    let rep = replicate(&sc, 1, 0).unwrap();
    let m = measure(&rep);
    for port in ["node.s1.trunk", "node.s1.dce1", "node.s2.dce2", "node.s2.trunk"] {
        let (offered, forwarded) = (m(port, "frames_offered"), m(port, "frames_forwarded"));
        assert!((offered - forwarded).abs() <= 1.0 && m(port, "frames_dropped") == 0.0, "{port}: offered {offered}, forwarded {forwarded}");
    }
    let window = 7.0;
    let into_s1 = m("link.dce1.g1->s1", "frames_transmitted");
    assert!((into_s1 - m("node.s1.trunk", "frames_offered")).abs() <= window + 1.0, "what g1 sends s1 goes on the trunk");
    assert!((m("link.trunk.s1->s2", "frames_transmitted") - m("node.s2.dce2", "frames_offered")).abs() <= window + 1.0, "the trunk's frames go to g2");
    let (sent, got) = (m("ip.g1", "x25_datagrams_sent"), m("ip.g2", "x25_datagrams_delivered"));
    assert!(got <= sent && sent - got <= (window / 5.0).ceil() + 1.0, "g1 sent {sent} datagrams on the circuit, g2 got {got}");
    let packets = m("ip.g1", "x25_data_packets_sent");
    assert!(packets <= 5.0 * sent && 5.0 * sent - packets < 5.0, "{packets} packets for {sent} datagrams of 5");
    assert_eq!(m("ip.g2", "datagrams_in"), m("ip.g2", "datagrams_out"), "g2 forwards all to b");
    // (The gateways' counters are whole-run, as the accounting.)
    let delivered = rep.accounting["flow.a->b"].delivered as f64;
    assert!(delivered <= m("ip.g2", "datagrams_out") && m("ip.g2", "datagrams_out") - delivered <= 1.0, "b gets what g2 forwards (but the one on its line)");
    assert_eq!((m("ip.g1", "x25_datagrams_discarded"), m("ip.g2", "x25_datagrams_discarded")), (0.0, 0.0));
    let again = replicate(&sc, 1, 0).unwrap();
    assert_eq!((&again.fingerprint, again.events), (&rep.fingerprint, rep.events), "deterministic");
}

/// Four gateways on three switches (`x25_three_switches.toml`). RFC 877 §3 per
/// destination: g1 calls g2 (for b) and g3 (for c), g4 calls g1 (for f), each call
/// answered by the gateway called. The circuits are routed hop by hop: g1's packets
/// to g3 cross t12 and t23 in order (P(S) consecutive per circuit on both trunks), to
/// g2 only t12. g1's 9600 bit/s access line binds the two saturated flows (busy all
/// the time; together at most its share for user data), the Poisson flow e → f
/// carries its offered load (within 3 σ of the Poisson count), nothing is dropped or
/// discarded, deterministic.
#[test]
fn x25_three_switches_route_each_circuit_hop_by_hop_and_nothing_is_lost() {
    let sc = common::shipped("compose/x25_three_switches.toml", &[]);
    let rep = replicate(&sc, 1, 0).unwrap();
    let m = measure(&rep);
    assert_eq!((m("ip.g1", "x25_calls_placed"), m("ip.g1", "x25_calls_received")), (2.0, 1.0), "g1 calls g2 and g3, answers g4");
    for (g, calls) in [("ip.g2", 1.0), ("ip.g3", 1.0), ("ip.g4", 0.0)] {
        assert_eq!(m(g, "x25_calls_received"), calls, "{g}");
    }
    assert_eq!(m("ip.g4", "x25_calls_placed"), 1.0, "g4 calls g1 for f");
    let on_t12 = in_order_per_circuit(&sc, "link.t12.s1->s2", "s1");
    let on_t23 = in_order_per_circuit(&sc, "link.t23.s2->s3", "s2");
    // g1's circuits to g2 and g3, and its answers (TCP ACKs for f) on g4's circuit.
    assert_eq!(on_t12.len(), 3, "g1's three circuits share t12: {on_t12:?}");
    assert_eq!(on_t23.len(), 2, "those to g3 and g4 go on over t23: {on_t23:?}");
    assert!(on_t23.iter().all(|(c, &n)| on_t12.get(c) == Some(&n)), "each packet of them crosses both trunks: {on_t12:?} {on_t23:?}");
    let share = ACCESS * 536.0 / (576.0 + 5.0 * 9.0);
    let edge = 536.0 * 8.0 / MEASURED_S;
    let (ab, dc) = (m("flow.a->b", "throughput_bps"), m("flow.d->c", "throughput_bps"));
    assert!(ab + dc <= share + 2.0 * edge, "a->b {ab} + d->c {dc} vs the access line's share {share}");
    assert!(ab > 0.45 * share && dc > 0.45 * share, "each about half the line: {ab}, {dc}");
    assert!(m("ip.g1", "x25_line_busy_s") >= 0.99 * 300.0, "g1's access line is the bottleneck: busy {} s of 300", m("ip.g1", "x25_line_busy_s"));
    let expected = 0.0005 * 4e6 / 4288.0 * MEASURED_S;
    let got = m("flow.e->f", "messages_delivered");
    assert!((got - expected).abs() <= 3.0 * expected.sqrt(), "e->f delivered {got} messages, offered {expected}");
    for g in ["ip.g1", "ip.g2", "ip.g3", "ip.g4"] {
        assert_eq!(m(g, "datagrams_in"), m(g, "datagrams_out"), "{g}");
        assert_eq!((m(g, "ttl_expired"), m(g, "unroutable"), m(g, "x25_datagrams_discarded")), (0.0, 0.0, 0.0), "{g}");
    }
    for (scope, set) in &rep.batches[0] {
        if scope.starts_with("node.s") {
            assert_eq!(set.get("frames_dropped"), Some(0.0), "{scope}");
        }
    }
    for (name, a) in &rep.accounting {
        assert!(a.acknowledged <= a.delivered && a.issued - a.acknowledged <= 8, "{name}: {a:?}");
    }
    let again = replicate(&sc, 1, 0).unwrap();
    assert_eq!((&again.fingerprint, again.events), (&rep.fingerprint, rep.events), "deterministic");
}

/// A network cut in two: s1 and s3 joined by a trunk (g1, g3 on them), s2 alone with
/// g2 and g4, no trunk between the halves. `check` names the flow without a path
/// (exit 2 at the CLI: `tests/test_x25_switches.py`).
#[test]
fn x25_switches_a_disconnected_network_is_refused_naming_the_flow() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose/x25_two_switches.toml");
    let text = std::fs::read_to_string(path).unwrap().replace("ends = [\"s1\", \"s2\"]", "ends = [\"s1\", \"s3\"]")
        + "[[medium]]\nname = \"dce3\"\nends = [\"s3\", \"g3\"]\nrate_bps = 1e9\n[[medium]]\nname = \"dce4\"\nends = [\"s2\", \"g4\"]\nrate_bps = 1e9\n\
           [[medium]]\nname = \"l_c\"\nends = [\"g3\", \"c\"]\n[[medium]]\nname = \"l_d\"\nends = [\"g4\", \"d\"]\n\
           [[relay]]\nname = \"s3\"\nkind = \"transit_network\"\n\
           [[relay]]\nname = \"g3\"\nkind = \"ip_router\"\ninterfaces = [{ medium = \"dce3\", stack = \"rfc877\" }]\n\
           [[relay]]\nname = \"g4\"\nkind = \"ip_router\"\ninterfaces = [{ medium = \"dce4\", stack = \"rfc877\" }]\n\
           [[node]]\nname = \"c\"\nstack = \"ip\"\n[[node]]\nname = \"d\"\nstack = \"ip\"\n\
           [[flow]]\nfrom = \"c\"\nto = \"d\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n";
    let e = Scenario::from_value(&toml_to_json(&text).unwrap()).err().expect("refused").problems();
    assert_eq!(e, vec!["flow[0]: no path from a to b through media and relays"]);
    // Joined again (s3 to s2), it runs: g1 calls g2 across s1, s3 and s2.
    let joined = text + "[[medium]]\nname = \"t32\"\nends = [\"s3\", \"s2\"]\nrate_bps = 64000.0\n";
    let sc = Scenario::from_value(&toml_to_json(&joined).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let rep = replicate(&sc, 1, 0).unwrap();
    assert_eq!(measure(&rep)("ip.g2", "x25_calls_received"), 1.0);
    assert!(measure(&rep)("flow.a->b", "throughput_bps") > 1000.0);
}

/// A host that is its own RFC 877 interface calls, per destination, the DTE where the
/// destination's route leaves the network (RFC 877 §3: circuits per destination
/// address): e, IP directly over `x25` on a line to s1, sends to a (behind g1, on s1)
/// and to b (behind g2, across the trunk); it calls g1's address for a's datagrams and
/// g2's for b's, one circuit each, and every datagram arrives (Poisson, 1000 bit/s each,
/// whole run: issued = delivered but those in flight).
#[test]
fn rfc877_a_host_on_the_x25_network_calls_each_destinations_gateway() {
    let host = "[stack.ipx25]\nlayers = [{ kind = \"ip\" }, { kind = \"x25\", ip_header_bits = 0, window = 7 }]\n\
        [[medium]]\nname = \"dce_e\"\nends = [\"e\", \"s1\"]\nrate_bps = 1e9\n[[node]]\nname = \"e\"\nstack = \"ipx25\"\n\
        [[flow]]\nfrom = \"e\"\nto = \"a\"\ntraffic = { kind = \"poisson\", load = 1e-6, length = { dist = \"constant\", mean_bits = 4960 } }\n\
        [[flow]]\nfrom = \"e\"\nto = \"b\"\ntraffic = { kind = \"poisson\", load = 1e-6, length = { dist = \"constant\", mean_bits = 4960 } }\n";
    let sc = common::shipped("compose/x25_two_switches.toml", &[("[[node]]\nname = \"a\"", &format!("{host}[[node]]\nname = \"a\""))]);
    let rep = replicate(&sc, 1, 0).unwrap();
    let m = measure(&rep);
    let t = "transport.flow.e->b";
    assert_eq!((m(t, "x25_calls_placed"), m(t, "x25_calls_received")), (2.0, 0.0), "e calls g1 and g2, one circuit each");
    assert_eq!((m("ip.g1", "x25_calls_received"), m("ip.g2", "x25_calls_received")), (1.0, 2.0), "g1 answers e's call, g2 e's and g1's");
    assert_eq!(m(t, "x25_datagrams_discarded"), 0.0);
    for f in ["flow.e->a", "flow.e->b"] {
        let acc = &rep.accounting[f];
        assert!(acc.issued > 30 && acc.issued - acc.delivered <= 2, "{f}: {acc:?}");
    }
}

/// A trunk has its own rate, delay and error model, but the network is modelled
/// reliable between the DCEs (no RESET/RESTART: a packet lost on a trunk would stall
/// its circuit for ever): a lossy trunk is refused naming its field.
#[test]
fn x25_switches_a_lossy_trunk_is_refused_naming_its_field() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose/x25_two_switches.toml");
    let text = std::fs::read_to_string(path).unwrap().replace("rate_bps = 4800.0\ndelay_s = 0.02", "rate_bps = 4800.0\ndelay_s = 0.02\nbit_error_rate = 1e-6");
    let e = Scenario::from_value(&toml_to_json(&text).unwrap()).err().expect("refused").problems();
    assert!(e.iter().any(|x| x.starts_with("medium[2].bit_error_rate = 1e-6: expected 0 under \"x25\"")), "{e:?}");
}
