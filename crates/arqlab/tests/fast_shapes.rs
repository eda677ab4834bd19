//! The monomorphised runner shapes (`arqlab::sim::Shape::FAST`) are speed
//! specialisations of the composed path: for each one, a scenario that `Shape::of`
//! puts on it runs through it (`Path::Fast`) and through the composed path, and the two
//! give the same replication bit for bit — fingerprint, event count, every measure of
//! every scope and window, the accounting. A shape added to `Shape::FAST` without a
//! case here fails `every_monomorphised_shape_has_a_case`.

use arqlab::scenario::{apply_override, toml_to_json, Scenario};
use arqlab::sim::{replicate_on, Path as RunPath, Shape};
use serde_json::{json, Value};
use std::path::Path;

fn from_file(file: &str, duration_s: f64, warmup_s: f64) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(file);
    let mut v = toml_to_json(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"))).unwrap();
    apply_override(&mut v, "run.duration_s", json!(duration_s)).unwrap();
    apply_override(&mut v, "run.warmup_s", json!(warmup_s)).unwrap();
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// The pair form with one protocol on a noisy 9600 bit/s line, Poisson both ways.
fn pair(kind: &str) -> Scenario {
    let text = format!(
        "[run]\nduration_s = 120.0\nwarmup_s = 10.0\n[link]\nrate_bps = 9600.0\ndelay_s = 0.01\nbit_error_rate = 2e-5\n\
         [protocol]\nkind = \"{kind}\"\n[traffic.a]\nkind = \"poisson\"\nload = 0.5\n[traffic.b]\nkind = \"poisson\"\nload = 0.2\n"
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{kind}: {e}"))
}

/// TCP over a framing layer between two nodes on a 64 kbit/s line, saturated.
fn tcp_over_datagram() -> Scenario {
    let text = "[run]\nduration_s = 60.0\n[stack.s]\nlayers = [{ kind = \"tcp\", mss_octets = 536 }, { kind = \"datagram\" }]\n\
        [[medium]]\nname = \"l\"\nends = [\"a\", \"b\"]\nrate_bps = 64000.0\ndelay_s = 0.01\n\
        [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
        [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"saturated\", length = { dist = \"constant\", mean_bits = 4288 } }\n";
    Scenario::from_toml(text).unwrap_or_else(|e| panic!("{e}"))
}

/// TP4 (selective AKs) over a framing layer on a noisy 64 kbit/s line, saturated: the
/// general `Tp4Over` shape (the network window has its own).
fn tp4_over_datagram() -> Scenario {
    let text = "[run]\nduration_s = 60.0\n[stack.s]\nlayers = [{ kind = \"tp4\", dt_size_octets = 128, acknowledgement = \"selective\" }, { kind = \"datagram\" }]\n\
        [[medium]]\nname = \"l\"\nends = [\"a\", \"b\"]\nrate_bps = 64000.0\ndelay_s = 0.05\nbit_error_rate = 1e-5\n\
        [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
        [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"saturated\", length = { dist = \"constant\", mean_bits = 8192 } }\n";
    Scenario::from_toml(text).unwrap_or_else(|e| panic!("{e}"))
}

/// TCP (window 7 segments) directly on the HF ARQ over a 2400 bit/s half-duplex radio,
/// saturated (as `tests/tcp_over_hf.rs`).
fn tcp_over_hf_arq() -> Scenario {
    let text = "[run]\nduration_s = 300.0\nwarmup_s = 20.0\n\
        [stack.s]\nlayers = [{ kind = \"tcp\", mss_octets = 536, receive_window_octets = 3752 }, { kind = \"hf_arq\" }]\n\
        [[medium]]\nname = \"hf\"\nkind = \"half_duplex_radio\"\nturnaround_s = 0.5\npreamble_s = 0.0\nends = [\"a\", \"b\"]\nrate_bps = 2400.0\ndelay_s = 0.005\n\
        [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
        [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"saturated\", length = { dist = \"constant\", mean_bits = 4288 } }\n";
    Scenario::from_toml(text).unwrap_or_else(|e| panic!("{e}"))
}

fn cases() -> Vec<(Shape, Scenario)> {
    vec![
        (Shape::Single("stop_and_wait"), from_file("stop_and_wait.toml", 200.0, 10.0)),
        (Shape::Single("go_back_n"), from_file("go_back_n.toml", 200.0, 10.0)),
        (Shape::Single("selective_repeat"), from_file("selective_repeat.toml", 200.0, 10.0)),
        (Shape::Single("hdlc"), from_file("hdlc_nrm.toml", 200.0, 10.0)),
        (Shape::Single("datagram"), pair("datagram")),
        (Shape::Single("network_window"), pair("network_window")),
        (Shape::Single("llc2"), pair("llc2")),
        (Shape::Single("hf_arq"), from_file("johnson/hdl_stable_25.toml", 300.0, 10.0)),
        (Shape::Single("tp4"), pair("tp4")),
        (Shape::TcpOver, tcp_over_datagram()),
        (Shape::TcpOverHf, tcp_over_hf_arq()),
        (Shape::Tp4Over, tp4_over_datagram()),
        (Shape::Tp4OverNetWindow, from_file("colella/acknowledgement.toml", 200.0, 0.0)),
        (Shape::Llc2Connections, from_file("biersack/base.toml", 30.0, 5.0)),
    ]
}

/// A replication without its wall time, floats as exact bits.
fn record(sc: &Scenario, path: RunPath) -> Value {
    let r = replicate_on(sc, 5, 2, path).unwrap_or_else(|e| panic!("{e}"));
    let bits = |x: f64| format!("{:016x}", x.to_bits());
    let batches: Vec<Value> = r.batches.iter().map(|b| b.iter().map(|(d, m)| (d.clone(), m.iter().map(|(k, x)| (k.to_string(), json!(bits(x)))).collect::<serde_json::Map<_, _>>().into())).collect::<serde_json::Map<_, _>>().into()).collect();
    json!({ "fingerprint": r.fingerprint, "events": r.events, "simulated_s": bits(r.simulated_s), "accounting": serde_json::to_value(&r.accounting).unwrap(), "batches": batches })
}

#[test]
fn every_monomorphised_shape_has_a_case() {
    let covered: Vec<Shape> = cases().into_iter().map(|c| c.0).collect();
    assert_eq!(covered, Shape::FAST.to_vec(), "one case per shape of Shape::FAST, in its order");
}

#[test]
fn each_monomorphised_shape_gives_the_composed_paths_trajectory_bit_for_bit() {
    for (shape, sc) in cases() {
        assert_eq!(Shape::of(&sc), shape, "the case runs on the shape it stands for");
        let (fast, composed) = (record(&sc, RunPath::Fast), record(&sc, RunPath::Composed));
        assert!(fast["events"].as_u64().unwrap() > 1000, "{shape:?}: a real run ({})", fast["events"]);
        assert!(fast == composed, "{shape:?}: the composed path differs:\nfast     {fast}\ncomposed {composed}");
    }
}

/// What is not monomorphised goes to the composed path: a stack with a layer that
/// addresses peers (IP, X.25), nodes with different stacks, three layers.
#[test]
fn other_stacks_take_the_composed_path() {
    for file in ["compose/x25_three_gateways.toml", "compose/ip_over_arq_links.toml", "compose/tcp_five_layers.toml", "comer_korb/burst_pair.toml"] {
        assert_eq!(Shape::of(&from_file(file, 10.0, 0.0)), Shape::Composed, "{file}");
    }
}
