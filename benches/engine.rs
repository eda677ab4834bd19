//! Criterion benchmarks of the engine, one group per model a study runs, each reporting
//! events per CPU-second (`cpu_time.rs`: the machines are shared):
//!
//! - `reference`: the go-back-N reference scenario (`scenarios/go_back_n.toml`: saturated
//!   one way, W = 7, 1000 + 48 bits, 48 kbit/s, t_p = 50 ms, p_bit = 1e-5 both ways, T1 =
//!   1 s) beside the bare hand-written loop of the same model (`bare_loop.rs`);
//! - `hdlc_nrm`, `hdlc_abm` (Bux), `llc2` (Biersack), `tp4` (Colella), `x25` (Comer &
//!   Korb), `hf` (Johnson): the study's shipped scenario, one replication;
//! - `independent_links`: K reference links in one run (`benches/scaling.py` adds memory).
//!
//! `cargo bench -p arqlab --bench engine [-- GROUP]`; `make bench-vs-bare` times the
//! reference against the bare loop in alternated processes.

#[allow(dead_code)]
#[path = "bare_loop.rs"]
mod bare_loop;
mod cpu_time;

use arqlab::scenario::Scenario;
use arqlab::sim::replicate;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use cpu_time::CpuTime;

type Crit = Criterion<CpuTime>;

/// (group, scenario text, simulated seconds): each run lasts a fraction of a CPU-second.
/// The TP4 and X.25 scenarios are finite transfers: they end when the transfer completes.
const MODELS: &[(&str, &str, f64)] = &[
    ("reference", include_str!("../scenarios/go_back_n.toml"), 10_000.0),
    ("hdlc_nrm", include_str!("../scenarios/hdlc_nrm.toml"), 1_000.0),
    ("hdlc_abm", include_str!("../scenarios/hdlc_abm_poisson.toml"), 3_000.0),
    ("llc2", include_str!("../scenarios/biersack/base.toml"), 60.0),
    ("tp4", include_str!("../scenarios/colella/acknowledgement.toml"), 100_000.0),
    ("x25", include_str!("../scenarios/comer_korb/fig3.toml"), 3_600.0),
    ("hf", include_str!("../scenarios/johnson/5066_stable_25.toml"), 3_600.0),
];

/// A shipped scenario run for `duration_s` without warm-up (every event counts).
fn scenario(text: &str, duration_s: f64) -> Scenario {
    let mut v = arqlab::scenario::toml_to_json(text).expect("scenario parses");
    arqlab::scenario::apply_override(&mut v, "run.duration_s", duration_s.into()).expect("override");
    arqlab::scenario::apply_override(&mut v, "run.warmup_s", 0.0.into()).expect("override");
    Scenario::from_value(&v).expect("scenario is valid")
}

fn models(c: &mut Crit) {
    for &(name, text, duration_s) in MODELS {
        let sc = scenario(text, duration_s);
        let events = replicate(&sc, 1, 0).expect("runs").events;
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Elements(events));
        g.sample_size(10);
        g.bench_function("arqlab", |b| b.iter(|| replicate(&sc, 1, 0).expect("runs")));
        if name == "reference" {
            let bare = bare_loop::bare_run(duration_s, 1).events;
            g.throughput(Throughput::Elements(bare));
            g.bench_function("bare_loop", |b| b.iter(|| bare_loop::bare_run(duration_s, 1)));
        }
        g.finish();
    }
}

/// K independent two-node links (the reference link each) in one run: the cost per
/// event may grow only with log K (the heap).
fn scaling(c: &mut Crit) {
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
        g.bench_function(BenchmarkId::from_parameter(format!("k{k}")), |b| b.iter(|| replicate(&sc, 1, 0).expect("runs")));
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = models, scaling
}
criterion_main!(benches);
