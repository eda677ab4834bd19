//! Criterion benchmark of the engine on the reference scenario of the foundation issue:
//! saturated go-back-N one way, W = 7 (modulus 8), 1000-bit messages + 48 overhead
//! bits, 48-bit acknowledgements, 48 kbit/s each way, t_p = 50 ms, p_bit = 1e-5 both
//! ways, one REJ per gap, T1 = 1 s. Each iteration simulates 10,000 s.
//!
//! `cargo bench -p arqlab --bench engine`; `benches/report.py` prints events per second.

use arqlab::scenario::Scenario;
use arqlab::sim::{replicate, replicate_on, Path};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const REFERENCE: &str = include_str!("../scenarios/go_back_n.toml");

fn reference(duration_s: f64) -> Scenario {
    let mut v = arqlab::scenario::toml_to_json(REFERENCE).expect("reference scenario parses");
    arqlab::scenario::apply_override(&mut v, "run.duration_s", duration_s.into()).expect("override");
    arqlab::scenario::apply_override(&mut v, "run.warmup_s", 0.0.into()).expect("override");
    Scenario::from_value(&v).expect("reference scenario is valid")
}

fn bench(c: &mut Criterion) {
    let sc = reference(10_000.0);
    let events = replicate(&sc, 1, 0).expect("runs").events;
    let mut g = c.benchmark_group("go_back_n_reference");
    g.throughput(Throughput::Elements(events));
    g.sample_size(20);
    g.bench_function("10000_simulated_s", |b| b.iter(|| replicate(&sc, 1, 0).expect("runs")));
    g.finish();
}

/// K independent two-node links (the reference link each) in one run: the cost per
/// event may grow only with log K (the heap); `benches/scaling.py` adds memory per K.
fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("independent_links");
    g.sample_size(10);
    for k in [1usize, 10, 100, 1000] {
        let mut v = serde_json::json!({
            "run": { "duration_s": (2000.0 / k as f64).max(2.0), "warmup_s": 0.0 },
            "stack": { "gbn": { "kind": "go_back_n", "window": 7, "modulus": 8, "timeout_s": 1.0 } },
            "medium": [], "node": [], "flow": [],
        });
        for i in 0..k {
            v["medium"].as_array_mut().unwrap().push(serde_json::json!({
                "name": format!("l{i}"), "ends": [format!("n{i}a"), format!("n{i}b")],
                "rate_bps": 48000.0, "delay_s": 0.05, "bit_error_rate": 1e-5,
            }));
            for s in ["a", "b"] {
                v["node"].as_array_mut().unwrap().push(serde_json::json!({ "name": format!("n{i}{s}"), "stack": "gbn" }));
            }
            v["flow"].as_array_mut().unwrap().push(serde_json::json!({
                "from": format!("n{i}a"), "to": format!("n{i}b"),
                "traffic": { "kind": "saturated", "length": { "dist": "constant", "mean_bits": 1000 } },
            }));
        }
        let sc = Scenario::from_value(&v).expect("scaling scenario is valid");
        let events = replicate(&sc, 1, 0).expect("runs").events;
        g.throughput(Throughput::Elements(events));
        g.bench_function(format!("k{k}"), |b| b.iter(|| replicate(&sc, 1, 0).expect("runs")));
    }
    g.finish();
}

/// Today's two-layer stacks through their monomorphised shape (`fast`) and forced
/// through the composed path (`composed`: every layer an `AnyLayer`, one `match` per
/// call). Criterion prints events per second (`thrpt`); the ratio composed / fast is
/// the composed path's cost. (`relay_loss_arq` is go-back-N over datagrams, composed on
/// both paths.)
fn composed(c: &mut Criterion) {
    let mut g = c.benchmark_group("two_layer_stacks");
    g.sample_size(10);
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/");
    for (name, file, duration_s) in [
        ("tp4_over_network_window", "colella/acknowledgement.toml", 2000.0),
        ("tcp_over_hf_arq", "johnson/smtp_tcp_radio.toml", 3600.0),
        ("go_back_n_over_datagram", "topologies/relay_loss_arq.toml", 2000.0),
        ("stop_and_wait_over_datagram", "compose/stop_and_wait_over_datagram.toml", 20000.0),
    ] {
        let text = std::fs::read_to_string(format!("{root}{file}")).expect("scenario file");
        let mut v = arqlab::scenario::toml_to_json(&text).expect("parses");
        arqlab::scenario::apply_override(&mut v, "run.duration_s", duration_s.into()).expect("override");
        let sc = Scenario::from_value(&v).expect("valid");
        for (path, label) in [(Path::Fast, "fast"), (Path::Composed, "composed")] {
            let events = replicate_on(&sc, 1, 0, path).expect("runs").events;
            g.throughput(Throughput::Elements(events));
            g.bench_function(format!("{name}/{label}"), |b| b.iter(|| replicate_on(&sc, 1, 0, path).expect("runs")));
        }
    }
    g.finish();
}

/// Building (validating and wiring) large relay topologies: a line of 1,000 relays
/// between two hosts and a star of 2,000 hosts on one relay. Routes come from one
/// search per destination (`scenario/routes.rs`).
fn routing(c: &mut Criterion) {
    let mut g = c.benchmark_group("topology_build");
    g.sample_size(10);
    let flow = |a: &str, b: &str| serde_json::json!({ "from": a, "to": b, "traffic": { "kind": "poisson", "load": 0.1 } });
    let medium = |n: String, a: String, b: String| serde_json::json!({ "name": n, "ends": [a, b] });
    let base = || serde_json::json!({ "stack": { "s": { "kind": "datagram" } }, "medium": [], "relay": [], "node": [], "flow": [] });
    // The line: a - r0 - r1 - ... - r999 - b.
    let mut line = base();
    let k = 1000;
    line["medium"].as_array_mut().unwrap().push(medium("la".into(), "a".into(), "r0".into()));
    for i in 1..k {
        line["medium"].as_array_mut().unwrap().push(medium(format!("m{i}"), format!("r{}", i - 1), format!("r{i}")));
    }
    line["medium"].as_array_mut().unwrap().push(medium("lb".into(), format!("r{}", k - 1), "b".into()));
    for i in 0..k {
        line["relay"].as_array_mut().unwrap().push(serde_json::json!({ "name": format!("r{i}") }));
    }
    for n in ["a", "b"] {
        line["node"].as_array_mut().unwrap().push(serde_json::json!({ "name": n, "stack": "s" }));
    }
    line["flow"].as_array_mut().unwrap().push(flow("a", "b"));
    // The star: h0 .. h1999 on relay hub, h(2i) -> h(2i+1).
    let mut star = base();
    star["relay"].as_array_mut().unwrap().push(serde_json::json!({ "name": "hub" }));
    for i in 0..2000 {
        star["medium"].as_array_mut().unwrap().push(medium(format!("l{i}"), format!("h{i}"), "hub".into()));
        star["node"].as_array_mut().unwrap().push(serde_json::json!({ "name": format!("h{i}"), "stack": "s" }));
        if i % 2 == 1 {
            star["flow"].as_array_mut().unwrap().push(flow(&format!("h{}", i - 1), &format!("h{i}")));
        }
    }
    for (name, v) in [("line_of_1000_relays", line), ("star_of_2000_hosts", star)] {
        Scenario::from_value(&v).expect("valid");
        g.bench_function(name, |b| b.iter(|| Scenario::from_value(&v).expect("valid")));
    }
    g.finish();
}

criterion_group!(benches, bench, scaling, composed, routing);
criterion_main!(benches);
