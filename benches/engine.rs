//! Criterion benchmark of the engine on the reference scenario of the foundation issue:
//! saturated go-back-N one way, W = 7 (modulus 8), 1000-bit messages + 48 overhead
//! bits, 48-bit acknowledgements, 48 kbit/s each way, t_p = 50 ms, p_bit = 1e-5 both
//! ways, one REJ per gap, T1 = 1 s. Each iteration simulates 10,000 s.
//!
//! `cargo bench -p arqlab --bench engine`; `benches/report.py` prints events per second.

use arqlab::scenario::Scenario;
use arqlab::sim::replicate;
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

/// The HF ARQ (issue 30's HF part): HDL saturated one way at stable 5 dB — code
/// combining, BW2 bursts of up to 24 packets, selective acknowledgement bitmaps — and
/// 5066 at stable 25 dB, one simulated hour each. Events per second as above.
fn hf_arq(c: &mut Criterion) {
    let mut g = c.benchmark_group("hf_arq");
    g.sample_size(10);
    for (name, text) in [
        ("hdl_stable_5", include_str!("../scenarios/johnson/hdl_stable_5.toml")),
        ("5066_stable_25", include_str!("../scenarios/johnson/5066_stable_25.toml")),
    ] {
        let mut v = arqlab::scenario::toml_to_json(text).expect("scenario parses");
        arqlab::scenario::apply_override(&mut v, "run.duration_s", 3600.0.into()).expect("override");
        let sc = Scenario::from_value(&v).expect("scenario is valid");
        let events = replicate(&sc, 1, 0).expect("runs").events;
        g.throughput(Throughput::Elements(events));
        g.bench_function(name, |b| b.iter(|| replicate(&sc, 1, 0).expect("runs")));
    }
    g.finish();
}

criterion_group!(benches, bench, scaling, hf_arq);
criterion_main!(benches);
