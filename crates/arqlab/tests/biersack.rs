//! The Biersack (1992) model as shipped (`scenarios/biersack/base.toml`): 3 × 12
//! stations on token rings bridged to a backbone ring. Under overload the 4 KB bridge
//! buffers drop frames; the runner checks exactly-once in-order delivery of every one
//! of the 36 connections for every variant (a violation is a `SimError`), and the
//! totals balance. Also: the bridge alone against M/D/1/K-like loss bounds, and the
//! scenario's validation.

use arqlab::scenario::{apply_override, toml_to_json, Scenario};
use arqlab::sim::{run_experiment, Experiment};
use serde_json::{json, Value};
use std::path::Path;

fn base(overrides: &[(&str, Value)]) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/biersack/base.toml");
    let mut v = toml_to_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    for (k, x) in overrides {
        apply_override(&mut v, k, x.clone()).unwrap();
    }
    v
}

fn offered(v: &mut Value, bps: f64) {
    for f in v["flow"].as_array_mut().unwrap() {
        f["traffic"]["load"] = json!(bps / 36.0 / 4e6);
    }
}

fn run(v: &Value) -> Experiment {
    let sc = Scenario::from_value(v).unwrap_or_else(|e| panic!("{e}"));
    run_experiment(&sc, 3, None, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_variant_delivers_exactly_once_in_order_through_lossy_bridges() {
    for variant in ["orig", "bg", "jain", "srej", "multi_fifo", "multi_srej"] {
        let mut v = base(&[("stack.llc2.variant", json!(variant)), ("run.duration_s", json!(8.0)), ("run.warmup_s", json!(1.0)), ("run.replications", json!(1))]);
        if variant == "multi_fifo" {
            v["stack"]["llc2"]["fifo_buffers"] = json!(2);
        }
        offered(&mut v, 5e6);
        let x = run(&v);
        let dropped: f64 = (1..=3).map(|r| x.metrics[&format!("node.bridge{r}.backbone")]["frames_dropped"].mean).sum();
        assert!(dropped > 0.0, "{variant}: overload must make the bridges drop");
        let pooled = &x.metrics["flow.*"];
        assert!(pooled["throughput_bps"].mean > 0.2e6, "{variant}: {:?}", pooled["throughput_bps"]);
        for r in &x.records {
            for (scope, a) in &r.accounting {
                assert_eq!(a.issued, a.acknowledged + a.unacknowledged, "{variant} {scope}");
                assert!(a.acknowledged <= a.delivered && a.delivered <= a.issued, "{variant} {scope}");
            }
        }
    }
}

#[test]
fn light_load_is_carried_without_loss() {
    let mut v = base(&[("run.duration_s", json!(20.0)), ("run.replications", json!(2))]);
    offered(&mut v, 1e6);
    let x = run(&v);
    let tp = x.metrics["flow.*"]["throughput_bps"];
    assert!((tp.mean - 1e6).abs() < 0.05e6, "carried = offered at 1 Mbit/s: {tp:?}");
    assert_eq!(x.metrics["node.bridge1.backbone"]["frames_dropped"].mean, 0.0);
}

/// M/G/1/K loss (K places including the one in service) with Poisson arrivals at rate
/// λ and deterministic service D (ρ = λD): the departure-epoch chain gives π₀, and the
/// loss is (π₀ + ρ − 1)/(π₀ + ρ) (Gross & Harris, *Fundamentals of Queueing Theory*,
/// §5.1.9, M/G/1/K).
fn md1k_loss(rho: f64, k: usize) -> f64 {
    let a: Vec<f64> = (0..k + 1).scan(1.0, |fact, j| { if j > 0 { *fact *= j as f64 } Some((-rho).exp() * rho.powi(j as i32) / *fact) }).collect();
    let mut pi = vec![1.0];
    for j in 0..k - 1 {
        let mut x = pi[j] - pi[0] * a[j];
        for i in 1..=j {
            x -= pi[i] * a[j - i + 1];
        }
        pi.push(x / a[0]);
    }
    let total: f64 = pi.iter().sum();
    let p0 = pi[0] / total;
    (p0 + rho - 1.0) / (p0 + rho)
}

#[test]
fn a_bridge_port_loses_as_an_md1k_queue() {
    // Poisson datagrams reach the bridge over a (practically instant) link; the bridge
    // sends them on a ring where it is the only sender: a frame every
    // t_mac + t_f + t_token + L (deterministic service), K = 3 frames of buffer.
    let text = |load: f64| {
        format!(
            "[run]\nduration_s = 400.0\nwarmup_s = 5.0\nreplications = 5\n[stack.d]\nkind = \"datagram\"\noverhead_bits = 0\n\
             [[medium]]\nname = \"a\"\nends = [\"src\", \"br\"]\nrate_bps = 1e12\n\
             [[medium]]\nname = \"b\"\nkind = \"token_ring\"\nends = [\"br\", \"dst\"]\npropagation_s = 0.0\n\
             [[relay]]\nname = \"br\"\nbuffer_octets = 3000\n[[node]]\nname = \"src\"\nstack = \"d\"\n[[node]]\nname = \"dst\"\nstack = \"d\"\n\
             [[flow]]\nfrom = \"src\"\nto = \"dst\"\ntraffic = {{ kind = \"poisson\", load = {load}, length = {{ dist = \"constant\", mean_bits = 8000 }} }}\n"
        )
    };
    let bit = 0.25e-6;
    let service = (168.0 + 8000.0 + 24.0 + 2.0 + 24.0) * bit;
    for rho in [0.6, 0.9] {
        let lambda = rho / service;
        let x = run(&toml_to_json(&text(lambda * 8000.0 / 1e12)).unwrap());
        let got = x.metrics["node.br.b"]["loss_ratio"];
        let want = md1k_loss(rho, 3);
        // The buffer frees a frame's place when its last bit leaves, t_token + L (0.6%
        // of D) before the next one may start: loss slightly below M/D/1/K.
        assert!(got.mean <= want + got.half_width && got.mean >= 0.93 * want - got.half_width, "ρ = {rho}: loss {got:?} vs M/D/1/3 {want}");
    }
}

/// A relay between two (practically instant) links, forwarding Poisson datagrams of
/// 8000 bits in `forwarding_time_s` = D with one processor: an M/D/1 queue (M/D/1/K with
/// a buffer of K frames). `extra` adds relay keys.
fn processor_scenario(rho: f64, d: f64, extra: &str) -> Value {
    let load = rho / d * 8000.0 / 1e12;
    toml_to_json(&format!(
        "[run]\nduration_s = 300.0\nwarmup_s = 5.0\nreplications = 20\n[stack.d]\nkind = \"datagram\"\noverhead_bits = 0\n\
         [[medium]]\nname = \"a\"\nends = [\"src\", \"br\"]\nrate_bps = 1e12\n\
         [[medium]]\nname = \"b\"\nends = [\"br\", \"dst\"]\nrate_bps = 1e12\n\
         [[relay]]\nname = \"br\"\nforwarding_time_s = {d}\n{extra}\n[[node]]\nname = \"src\"\nstack = \"d\"\n[[node]]\nname = \"dst\"\nstack = \"d\"\n\
         [[flow]]\nfrom = \"src\"\nto = \"dst\"\ntraffic = {{ kind = \"poisson\", load = {load}, length = {{ dist = \"constant\", mean_bits = 8000 }} }}\n"
    ))
    .unwrap()
}

#[test]
fn a_single_processor_bridge_queues_as_md1() {
    let d = 0.002;
    for rho in [0.5, 0.8] {
        let x = run(&processor_scenario(rho, d, "single_processor = true"));
        let got = x.metrics["flow.src->dst"]["transfer_time_s"];
        // Sojourn = D + M/D/1 wait ρD / (2(1 − ρ)); the two links add 16 ns.
        let want = d + rho * d / (2.0 * (1.0 - rho));
        // Within 1.5 half-widths of the 95% CI (about 3 standard errors: four checks, each
        // failing by chance with probability 0.003), and the CI narrow enough (< 1%) to
        // tell M/D/1 from a pure delay (ρ/(2(1 − ρ)) = 50% or 200% more).
        assert!((got.mean - want).abs() <= 1.5 * got.half_width, "ρ = {rho}: {got:?} vs M/D/1 {want}");
        assert!(got.half_width < 0.01 * want, "precise enough: {got:?}");
        // Without the processor the forwarding time is a pure delay: no queue.
        let pure = run(&processor_scenario(rho, d, "")).metrics["flow.src->dst"]["transfer_time_s"];
        assert!((pure.mean - d).abs() < 1e-6, "ρ = {rho}: pure delay {pure:?}");
    }
}

#[test]
fn a_single_processor_bridge_with_a_buffer_loses_as_md1k() {
    // 3000 octets hold K = 3 frames of 8000 bits: waiting for the processor or in it.
    for rho in [0.7, 1.2] {
        let x = run(&processor_scenario(rho, 0.002, "single_processor = true\nbuffer_octets = 3000"));
        let got = x.metrics["node.br.b"]["loss_ratio"];
        let want = md1k_loss(rho, 3);
        assert!((got.mean - want).abs() <= 1.5 * got.half_width, "ρ = {rho}: loss {got:?} vs M/D/1/3 {want}");
        assert!(got.half_width < 0.05 * want, "precise enough: {got:?}");
    }
}

#[test]
fn bad_input_names_the_field() {
    let problems = |v: Value| match Scenario::from_value(&v) {
        Ok(_) => vec![],
        Err(e) => e.problems(),
    };
    let p = problems(base(&[("stack.llc2.window", json!(200))]));
    assert_eq!(p, vec!["stack.llc2.window = 200: expected a whole number in [1, 127]"]);
    let p = problems(base(&[("stack.llc2.n", json!(0))]));
    assert_eq!(p, vec!["stack.llc2.n = 0: expected a whole number in [1, 1000000]"]);
    let p = problems(base(&[("stack.llc2.fifo_buffers", json!(0))]));
    assert_eq!(p, vec!["stack.llc2.fifo_buffers = 0: expected a whole number in [1, 127]"]);
    let p = problems(base(&[("stack.llc2.variant", json!("srej")), ("stack.llc2.window", json!(100))]));
    assert_eq!(p, vec!["stack.llc2.window = 100: expected a whole number in [1, 64] with selective retransmission (modulo 128)"]);
    // A station placed on a ring that does not exist: ring4 is not declared, so the
    // station is attached nowhere.
    let mut v = base(&[]);
    v["medium"][3]["ends"].as_array_mut().unwrap().retain(|e| e != "r3s05");
    assert!(problems(v).contains(&"node[28] = \"r3s05\": not attached to any medium (name it in the ends of a [[medium]])".to_string()));
    let mut v = base(&[]);
    v["medium"][1]["ends"][0] = json!("r9s01");
    assert!(problems(v)[0].starts_with("medium[1].ends[0] = \"r9s01\": expected the name of a [[node]] or [[relay]]"));
}
