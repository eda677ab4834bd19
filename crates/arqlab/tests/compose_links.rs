//! IP routers whose interfaces run link protocols (`[[relay]] interfaces`): each hop's
//! link protocol is terminated at the router, IP forwards between interfaces. Closed
//! forms: exact store and forward error free; go-back-N on a lossy hop.

use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::replicate;
use std::path::Path;

fn load_text(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose").join(file);
    std::fs::read_to_string(&path).unwrap()
}

fn parse(text: &str) -> Result<Scenario, Vec<String>> {
    let v = toml_to_json(text).unwrap();
    Scenario::from_value(&v).map_err(|e| e.problems())
}

/// One message through a router with go-back-N interfaces: its transfer time is the
/// two hops' transmission of the I-frame (L rounded up to octets + 20 IP header
/// octets + the link's 48 overhead bits), both propagation delays and the forwarding
/// time, exactly (to the picosecond rounding of the five steps).
#[test]
fn store_and_forward_through_a_router_with_go_back_n_interfaces_is_exact() {
    let sc = parse(&load_text("ip_over_arq_links.toml")).unwrap();
    let rep = replicate(&sc, 1, 0).unwrap();
    let frame = ((1000.0f64 / 8.0).ceil() + 20.0) * 8.0 + 48.0;
    let want = frame / 9600.0 + 0.005 + 0.001 + frame / 19200.0 + 0.010;
    let got = rep.batches[0]["flow.a->b"].get("transfer_time_s").unwrap();
    assert!((got - want).abs() <= 5e-12, "transfer time {got} s vs the per-hop sum {want} s");
    let acc = rep.accounting["flow.a->b"];
    assert_eq!((acc.issued, acc.delivered), (1, 1));
    let ip = &rep.batches[0]["ip.r"];
    assert_eq!((ip.get("datagrams_in"), ip.get("datagrams_out")), (Some(1.0), Some(1.0)));
    // Each hop's frames: one I-frame one way, its acknowledgement the other.
    let lane = |s: &str| rep.batches[0][s].get("frames_transmitted").unwrap();
    assert_eq!((lane("link.l1.a->r"), lane("link.l1.r->a"), lane("link.l2.r->b"), lane("link.l2.b->r")), (1.0, 1.0, 1.0, 1.0));
}
