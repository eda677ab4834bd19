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

criterion_group!(benches, bench);
criterion_main!(benches);
