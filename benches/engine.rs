//! Criterion benchmarks of the engine, one group per model a study runs, each reporting
//! events per CPU-second (`cpu_time.rs`: the machines are shared):
//!
//! - `reference`: the go-back-N reference scenario (`scenarios/go_back_n.toml`: saturated
//!   one way, W = 7, 1000 + 48 bits, 48 kbit/s, t_p = 50 ms, p_bit = 1e-5 both ways, T1 =
//!   1 s) beside the bare hand-written loop of the same model (`bare_loop.rs`);
//! - `hdlc_nrm`, `hdlc_abm` (Bux), `llc2` (Biersack), `tp4` (Colella), `x25` (Comer &
//!   Korb), `hf` (Johnson): the study's shipped scenario, one replication;
//! - `independent_links`: K reference links in one run (`benches/scaling.py` adds memory);
//! - `ip_routed`: 1,000 IP hosts behind 20 IP routers (build, and events per second),
//!   and the TCP/IP composition between two token rings.
//!
//! `cargo bench -p arqlab --bench engine [-- GROUP]`; `make bench-vs-bare` times the
//! reference against the bare loop in alternated processes.

#[allow(dead_code)]
#[path = "bare_loop.rs"]
mod bare_loop;
mod cpu_time;

use arqlab::scenario::Scenario;
use arqlab::sim::{replicate, replicate_on, Path};
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

/// Today's two-layer stacks through their monomorphised shape (`fast`) and forced
/// through the composed path (`composed`: every layer an `AnyLayer`, one `match` per
/// call). Criterion prints events per second (`thrpt`); the ratio composed / fast is
/// the composed path's cost. (`relay_loss_arq` is go-back-N over datagrams, composed on
/// both paths.)
fn composed(c: &mut Crit) {
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
        for (path, label) in [(Path::Fast, "fast"), (Path::Composed, "composed"), (Path::Chain, "chain")] {
            let events = replicate_on(&sc, 1, 0, path).expect("runs").events;
            g.throughput(Throughput::Elements(events));
            g.bench_function(format!("{name}/{label}"), |b| b.iter(|| replicate_on(&sc, 1, 0, path).expect("runs")));
        }
    }
    g.finish();
}

/// Stacks of any depth (`protocol::deep`): three-layer stacks nested (`composed`, one
/// monomorphised runner) and as a chain (`chain`, the runner of deeper stacks), and the
/// same bulk TCP transfer over 3, 4 and 5 layers as a chain (`scenarios/compose/
/// tcp_five_layers.toml` with two, one or no IP layer removed). Events per second; the
/// ratio chain / composed at depth 3 is the chain's cost.
fn deep(c: &mut Crit) {
    let mut g = c.benchmark_group("deep_stacks");
    g.sample_size(10);
    let five = include_str!("../scenarios/compose/tcp_five_layers.toml");
    let load = |text: &str, duration_s: f64| {
        let mut v = arqlab::scenario::toml_to_json(text).expect("parses");
        arqlab::scenario::apply_override(&mut v, "run.duration_s", duration_s.into()).expect("override");
        Scenario::from_value(&v).expect("valid")
    };
    let ip = "  { kind = \"ip\" },\n";
    let cases = [
        ("tcp_over_hf_between_lans_3", load(include_str!("../scenarios/compose/tcp_over_hf_between_lans.toml"), 2000.0), true),
        ("tcp_ip_framing_3", load(&five.replacen(ip, "", 2), 2000.0), true),
        ("tcp_ip_ip_framing_4", load(&five.replacen(ip, "", 1), 2000.0), false),
        ("tcp_ip_ip_ip_framing_5", load(five, 2000.0), false),
    ];
    for (name, sc, nested) in &cases {
        let paths: &[(Path, &str)] = if *nested { &[(Path::Composed, "composed"), (Path::Chain, "chain")] } else { &[(Path::Chain, "chain")] };
        for &(path, label) in paths {
            let events = replicate_on(sc, 1, 0, path).expect("runs").events;
            g.throughput(Throughput::Elements(events));
            g.bench_function(format!("{name}/{label}"), |b| b.iter(|| replicate_on(sc, 1, 0, path).expect("runs")));
        }
    }
    g.finish();
}

/// The HF ARQ (issue 30's HF part): HDL saturated one way at stable 5 dB — code
/// combining, BW2 bursts of up to 24 packets, selective acknowledgement bitmaps — and
/// 5066 at stable 25 dB, one simulated hour each. Events per second as above.
fn hf_arq(c: &mut Crit) {
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

/// Building (validating and wiring) large relay topologies: a line of 1,000 relays
/// between two hosts and a star of 2,000 hosts on one relay. Routes come from one
/// search per destination (`scenario/routes.rs`).
fn routing(c: &mut Crit) {
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

/// A routed topology of 1,000 IP hosts (`protocol::ip`, `channel::ip_router`): 20 IP
/// routers in a line joined by 10 Mbit/s links, 50 hosts on each by its own 64 kbit/s
/// link (MTU 576); host i sends Poisson datagrams of 4000 bits (load 0.1 of its link,
/// fragmented to 576 octets) to host (i + 500) mod 1000, through 11 routers. Building
/// it (validate, wire, route) and simulating 10 s, in events per CPU-second; and the
/// TCP/IP composition (`scenarios/compose/tcp_ip_two_rings.toml`, composed path).
fn ip_routed(c: &mut Crit) {
    let mut g = c.benchmark_group("ip_routed");
    g.sample_size(10);
    let (hosts, routers) = (1000, 20);
    let mut v = serde_json::json!({ "run": { "duration_s": 10.0, "warmup_s": 0.0 }, "stack": { "ip": { "kind": "ip" } }, "medium": [], "relay": [], "node": [], "flow": [] });
    for r in 0..routers {
        v["relay"].as_array_mut().unwrap().push(serde_json::json!({ "name": format!("r{r}"), "kind": "ip_router", "forwarding_time_s": 0.0001 }));
        if r > 0 {
            v["medium"].as_array_mut().unwrap().push(serde_json::json!({ "name": format!("b{r}"), "ends": [format!("r{}", r - 1), format!("r{r}")], "rate_bps": 1e7, "delay_s": 0.001 }));
        }
    }
    for h in 0..hosts {
        v["node"].as_array_mut().unwrap().push(serde_json::json!({ "name": format!("h{h}"), "stack": "ip" }));
        v["medium"].as_array_mut().unwrap().push(serde_json::json!({ "name": format!("l{h}"), "ends": [format!("h{h}"), format!("r{}", h / (hosts / routers))], "rate_bps": 64000.0, "delay_s": 0.001, "mtu_octets": 576 }));
        let traffic = serde_json::json!({ "kind": "poisson", "load": 0.1, "length": { "dist": "constant", "mean_bits": 4000 } });
        v["flow"].as_array_mut().unwrap().push(serde_json::json!({ "from": format!("h{h}"), "to": format!("h{}", (h + hosts / 2) % hosts), "traffic": traffic }));
    }
    let sc = Scenario::from_value(&v).expect("valid");
    g.bench_function("build_1000_hosts_20_routers", |b| b.iter(|| Scenario::from_value(&v).expect("valid")));
    let events = replicate(&sc, 1, 0).expect("runs").events;
    g.throughput(Throughput::Elements(events));
    g.bench_function("simulate_1000_hosts_20_routers", |b| b.iter(|| replicate(&sc, 1, 0).expect("runs")));
    let tcp_ip = scenario(include_str!("../scenarios/compose/tcp_ip_two_rings.toml"), 3_000.0);
    let events = replicate(&tcp_ip, 1, 0).expect("runs").events;
    g.throughput(Throughput::Elements(events));
    g.bench_function("tcp_ip_two_rings", |b| b.iter(|| replicate(&tcp_ip, 1, 0).expect("runs")));
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = models, scaling, composed, deep, routing, hf_arq, ip_routed
}
criterion_main!(benches);
