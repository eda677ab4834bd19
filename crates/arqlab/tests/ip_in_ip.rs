//! IP in IP (RFC 2003): each IP layer of a stack reports its own counters
//! (`scenarios/compose/tcp_five_layers.toml`: TCP over three IP layers).

mod common;

use arqlab::scenario::Scenario;
use arqlab::sim::replicate;

fn five_layers(edits: &[(&str, &str)]) -> Scenario {
    common::shipped("compose/tcp_five_layers.toml", edits)
}

/// Three IP layers on a line of MTU 576 (RFC 791 §2.3 at each): the top one's 576-octet
/// datagram (a 536-octet segment) fits; the second wraps it in 596 octets and cuts it
/// in 2 fragments (552 + 24 data octets); the third wraps each (592 and 64 octets) and
/// cuts the first again: 3 fragments. TCP's ACKs (40 octets) fit everywhere. So with
/// D data segments, the scopes `transport.<flow>` (top IP), `.ip2` and `.ip3` differ by
/// exactly D: ip2's fragments − ip's = ip3's datagrams − ip2's = ip3's fragments −
/// ip3's datagrams = D; each layer reassembles what its peer layer cut.
#[test]
fn ip_in_ip_each_ip_layer_reports_its_own_counters_by_rank() {
    let sc = five_layers(&[("delay_s = 0.010", "delay_s = 0.010\nmtu_octets = 576")]);
    let rep = replicate(&sc, 1, 0).unwrap();
    let b = &rep.batches[0];
    let t = "transport.flow.a->b";
    let m = |scope: String, k: &str| b[scope.as_str()].get(k).unwrap_or_else(|| panic!("{scope}.{k} missing"));
    let (top, ip2, ip3) = (t.to_string(), format!("{t}.ip2"), format!("{t}.ip3"));
    assert_eq!(m(top.clone(), "ip_datagrams_sent"), m(top.clone(), "ip_fragments_sent"), "the top layer's datagrams fit the MTU");
    let d = m(ip2.clone(), "ip_fragments_sent") - m(top.clone(), "ip_fragments_sent");
    assert!(d > 100.0, "{d} data segments");
    assert_eq!(m(ip2.clone(), "ip_datagrams_sent"), m(top.clone(), "ip_datagrams_sent"), "ip2 wraps each datagram of the top layer");
    assert_eq!(m(ip3.clone(), "ip_datagrams_sent") - m(ip2.clone(), "ip_datagrams_sent"), d, "ip3 wraps each of ip2's fragments");
    assert_eq!(m(ip3.clone(), "ip_fragments_sent") - m(ip3.clone(), "ip_datagrams_sent"), d, "and cuts the first of each data segment's two again");
    let r2 = m(ip2.clone(), "ip_reassembled");
    assert!(r2 <= d && r2 >= d - 16.0, "ip2 reassembles the data segments it cut ({r2} of {d}, but those in flight)");
    let r3 = m(ip3.clone(), "ip_reassembled");
    assert!(r3 <= d && r3 >= d - 16.0, "ip3 reassembles what it cut ({r3} of {d})");
    assert!(b[t].get("tcp_timeouts").is_some(), "TCP's counters stay in the flow's scope");
    assert!(b[ip3.as_str()].get("tcp_timeouts").is_none());
}
