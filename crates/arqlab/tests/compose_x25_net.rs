//! An X.25 network joining three gateways (`scenarios/compose/x25_three_gateways.toml`,
//! RFC 877): hosts a and d behind g1 send to b behind g2 and to c behind g3 across a
//! transit relay that carries X.25 packets by the called DTE's address. g1's interface
//! keeps circuits per destination address: one to g2 for b's datagrams, one to g3 for
//! c's.

mod common;

use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::replicate;
use std::path::Path;

fn three_gateways(edits: &[(&str, &str)]) -> Scenario {
    common::shipped("compose/x25_three_gateways.toml", edits)
}

/// RFC 877 §3, circuits per destination: g1 places one call per next-hop gateway (g2
/// for b, g3 for c), each answered by the gateway called; two circuits open at g1, one
/// at each of the others; every datagram g1 hands to a circuit reaches its gateway but
/// those in flight.
#[test]
fn rfc877_on_a_network_of_three_gateways_g1_calls_each_next_hop_once() {
    let rep = replicate(&three_gateways(&[]), 1, 0).unwrap();
    let m = |scope: &str, k: &str| rep.batches[0][scope].get(k).unwrap_or_else(|| panic!("{scope}.{k} missing"));
    assert_eq!((m("ip.g1", "x25_calls_placed"), m("ip.g1", "x25_circuits_open")), (2.0, 2.0), "one circuit to each destination gateway");
    for g in ["ip.g2", "ip.g3"] {
        assert_eq!((m(g, "x25_calls_received"), m(g, "x25_calls_placed"), m(g, "x25_circuits_open")), (1.0, 0.0, 1.0), "{g} answers g1's call to it");
    }
    let sent = m("ip.g1", "x25_datagrams_sent");
    let got = m("ip.g2", "x25_datagrams_delivered") + m("ip.g3", "x25_datagrams_delivered");
    assert!(got <= sent && sent - got <= 2.0 * 8.0, "g1 sent {sent} datagrams on circuits, g2 and g3 got {got}");
    // The network relay carries what the gateways send it, by address: nothing dropped.
    for port in ["node.net.dce1", "node.net.dce2", "node.net.dce3"] {
        assert_eq!(m(port, "frames_dropped"), 0.0, "{port}");
    }
}

/// Two saturated TCP flows (a → b through g2, d → c through g3) share g1's 9600 bit/s
/// access line. With a packet window of 7 each circuit's window/RTT bound is far above
/// the line, and TCP's 4096-octet window far above share × RTT, so the line binds:
/// together they carry its share for user data, R × 536 / (576 + 5 × 9) (a 576-octet
/// datagram is 5 packets with 3 octets of header in 6 of LAPB), each half of it —
/// within one segment over the 270 s measured (the window edges). Invariants: every
/// gateway forwards all it receives (no TTL, route or buffer loss), what a host sent
/// and its peer has not got is within a window,
/// what is delivered and not yet acknowledged within a window, two runs the same
/// trajectory.
#[test]
fn two_flows_through_a_three_gateway_x25_network_share_the_access_line() {
    let (r, mss, dgram) = (9600.0, 536.0, 576.0);
    let share = r * mss / (dgram + (dgram / 128.0_f64).ceil() * 9.0);
    let sc = three_gateways(&[]);
    let rep = replicate(&sc, 1, 0).unwrap();
    let b = &rep.batches[0];
    let m = |scope: &str, k: &str| b[scope].get(k).unwrap_or_else(|| panic!("{scope}.{k} missing"));
    let edge = mss * 8.0 / 270.0;
    let (ab, dc) = (m("flow.a->b", "throughput_bps"), m("flow.d->c", "throughput_bps"));
    for (f, got) in [("a->b", ab), ("d->c", dc)] {
        assert!((got - share / 2.0).abs() <= edge, "{f}: {got} bit/s vs half the line's share {}", share / 2.0);
    }
    assert!(ab + dc <= share + 2.0 * edge, "together {} bit/s vs the share {share}", ab + dc);
    // Throughput efficiency is relative to the path's bottleneck: the gateways' 9600
    // bit/s access lines, not the 4 Mbit/s rings nor the network's nominal 1 Gbit/s.
    assert_eq!(m("flow.a->b", "throughput_efficiency"), ab / r);
    for g in ["ip.g1", "ip.g2", "ip.g3"] {
        assert_eq!(m(g, "datagrams_in"), m(g, "datagrams_out"), "{g}");
        assert_eq!((m(g, "ttl_expired"), m(g, "unroutable"), m(g, "fragmented")), (0.0, 0.0, 0.0), "{g}");
        assert_eq!(m(g, "x25_datagrams_discarded"), 0.0, "{g}");
    }
    for t in ["transport.flow.a->b", "transport.flow.d->c"] {
        let in_flight = m(t, "ip_datagrams_sent") - m(t, "ip_datagrams_delivered");
        assert!((0.0..=2.0 * (4096.0 / mss).ceil()).contains(&in_flight), "{t}: {in_flight} datagrams neither delivered nor in a window");
    }
    for (name, a) in &rep.accounting {
        assert!(a.acknowledged <= a.delivered && a.delivered - a.acknowledged <= 8, "{name}: delivered {} acknowledged {} (the rest within a window)", a.delivered, a.acknowledged);
    }
    let again = replicate(&sc, 1, 0).unwrap();
    assert_eq!((again.fingerprint, again.events), (rep.fingerprint, rep.events), "deterministic");
}

/// Idle close per destination: g1 has one channel (`channels = 1`) and LRU (T_min 0);
/// both flows Poisson, 1200 bit/s each. A datagram for the other destination finds the
/// channel taken, so the manager clears the circuit idle longest — the one to
/// the other gateway — and calls the new destination: calls at g2 and g3 alternate,
/// and a datagram that finds the one circuit busy is discarded and counted (Comer &
/// Korb §6.2; TCP re-sends it); each one handed to a circuit is delivered.
#[test]
fn rfc877_with_one_channel_the_idle_circuit_to_the_other_destination_is_cleared() {
    let poisson = "{ kind = \"poisson\", load = 0.0003, length = { dist = \"constant\", mean_bits = 4288 } }";
    let sc = three_gateways(&[
        ("policy = \"multi_mlru\"\nc_max = 1", "policy = \"lru\"\nchannels = 1"),
        ("{ kind = \"saturated\", length = { dist = \"constant\", mean_bits = 4288 } }", poisson),
    ]);
    let rep = replicate(&sc, 1, 0).unwrap();
    let m = |scope: &str, k: &str| rep.batches[0][scope].get(k).unwrap_or_else(|| panic!("{scope}.{k} missing"));
    let (placed, closed) = (m("ip.g1", "x25_calls_placed"), m("ip.g1", "x25_circuits_closed"));
    assert!(closed >= 10.0, "{closed} circuits cleared");
    assert!(m("ip.g1", "x25_circuits_open") <= 1.0, "at most one of g1's own circuits at a time");
    assert_eq!(placed, closed + m("ip.g1", "x25_circuits_open"), "each call placed is open or cleared");
    let (to2, to3) = (m("ip.g2", "x25_calls_received"), m("ip.g3", "x25_calls_received"));
    assert_eq!(to2 + to3, placed, "each call reaches the gateway called");
    assert!((to2 - to3).abs() <= 1.0, "the calls alternate between the destinations: {to2} to g2, {to3} to g3");
    // Each datagram g1 hands to a circuit reaches its gateway (but the last in flight);
    // one that finds the one channel busy is discarded and counted (whole run).
    let (sent, lost) = (m("ip.g1", "x25_datagrams_sent"), m("ip.g1", "x25_datagrams_discarded"));
    assert!(lost > 0.0, "a datagram that finds the one channel busy is discarded (§6.2)");
    let got = m("ip.g2", "x25_datagrams_delivered") + m("ip.g3", "x25_datagrams_delivered");
    assert!(got <= sent && sent - got <= 2.0, "g1 sent {sent} on circuits, g2 and g3 got {got}");
    assert!(m("flow.a->b", "throughput_bps") > 0.0 && m("flow.d->c", "throughput_bps") > 0.0, "both flows progress");
}

/// A host that is its own RFC 877 interface: e runs TCP/IP directly over `x25` on a
/// line to the X.25 network and sends a file to c behind g3. e calls g3's address (its
/// next hop towards c), g3 answers and forwards the datagrams onto ring3; the file
/// arrives once, in order; e places one call, g3 receives two (g1's and e's).
#[test]
fn a_host_running_ip_directly_over_x25_calls_the_gateway_towards_its_peer() {
    let host = "[stack.ipx25]\nlayers = [\n  { kind = \"tcp\", mss_octets = 536, receive_window_octets = 4096 },\n  { kind = \"ip\", ttl = 64 },\n  { kind = \"x25\", ip_header_bits = 0, window = 7 },\n]\n\n\
        [[medium]]\nname = \"dce_e\"\nends = [\"e\", \"net\"]\nrate_bps = 1e9\nmtu_octets = 576\n\n[[node]]\nname = \"e\"\nstack = \"ipx25\"\n\n\
        [[flow]]\nfrom = \"e\"\nto = \"c\"\ntraffic = { kind = \"bulk\", messages = 40, length = { dist = \"constant\", mean_bits = 4288 } }\n\n[[relay]]\nname = \"net\"";
    let sc = three_gateways(&[("[[relay]]\nname = \"net\"", host), ("warmup_s = 30.0", "warmup_s = 0.0")]);
    let rep = replicate(&sc, 1, 0).unwrap();
    let m = |scope: &str, k: &str| rep.batches[0][scope].get(k).unwrap_or_else(|| panic!("{scope}.{k} missing"));
    let t = "transport.flow.e->c";
    assert_eq!((m(t, "x25_calls_placed"), m(t, "x25_calls_received")), (1.0, 0.0), "e calls once (c runs no x25)");
    assert_eq!(m("ip.g3", "x25_calls_received"), 2.0, "g3 answers g1's call and e's");
    assert_eq!(m("ip.g2", "x25_calls_received"), 1.0, "g2 only g1's");
    assert_eq!(m(t, "x25_datagrams_discarded"), 0.0);
    let acc = &rep.accounting["flow.e->c"];
    assert_eq!((acc.issued, acc.delivered), (40, 40), "the file arrives whole (the runner checks order and uniqueness per delivery)");
}

/// `check` names a host on the X.25 network whose x25 would add a second IP header.
#[test]
fn a_host_over_x25_on_the_network_carries_ips_header_once() {
    let host = "[stack.ipx25]\nlayers = [{ kind = \"tcp\" }, { kind = \"ip\" }, { kind = \"x25\" }]\n\
        [[medium]]\nname = \"dce_e\"\nends = [\"e\", \"net\"]\n[[node]]\nname = \"e\"\nstack = \"ipx25\"\n\
        [[flow]]\nfrom = \"e\"\nto = \"c\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n[[relay]]\nname = \"net\"";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose/x25_three_gateways.toml");
    let text = std::fs::read_to_string(path).unwrap().replace("[[relay]]\nname = \"net\"", host);
    let e = Scenario::from_value(&toml_to_json(&text).unwrap()).err().expect("refused").problems();
    assert!(e.iter().any(|x| x.starts_with("node[0].stack = \"ipx25\": expected ip_header_bits = 0 in its x25 layer (got 160)")), "{e:?}");
}
