//! Multi-node topologies against closed forms and invariants: the shipped examples in
//! `scenarios/topologies/` are the ones validated here.

use arqlab::scenario::{apply_override, toml_to_json, Scenario};
use arqlab::sim::{run_experiment, Experiment};
use arqlab::stats::Interval;
use serde_json::{json, Value};
use std::path::Path;

/// Loads a shipped example; overrides are dotted keys, or JSON pointers (`/medium/0/x`)
/// into arrays of tables.
fn load(file: &str, overrides: &[(&str, Value)]) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/topologies").join(file);
    let mut v = toml_to_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (k, x) in overrides {
        match v.pointer_mut(k) {
            Some(slot) if k.starts_with('/') => *slot = x.clone(),
            _ => apply_override(&mut v, k, x.clone()).unwrap(),
        }
    }
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn run(sc: &Scenario) -> Experiment {
    run_experiment(sc, 11, None, None).unwrap_or_else(|e| panic!("{e}"))
}

fn metric(x: &Experiment, scope: &str, m: &str) -> Interval {
    x.metrics[scope][m]
}

/// The closed form must lie inside the 95% interval, widened by `rel` of its value
/// for the model's own approximations (stated at each use).
fn assert_covers(iv: Interval, want: f64, rel: f64, what: &str) {
    let slack = iv.half_width + rel * want.abs();
    assert!((iv.mean - want).abs() <= slack, "{what}: simulated {} ± {} vs closed form {want}", iv.mean, iv.half_width);
}

#[test]
fn tandem_delay_is_md1_on_the_first_link_plus_one_transmission_plus_propagation() {
    let sc = load("tandem.toml", &[]);
    let x = run(&sc);
    let (rate, l, h, d1, d2) = (9600.0, 1000.0, 48.0, 0.005, 0.020);
    let lambda = 0.5755 * rate / l;
    let s = (l + h) / rate;
    let rho = lambda * s;
    let wq = rho * s / (2.0 * (1.0 - rho)); // M/D/1 waiting time (Pollaczek–Khinchine)
    let want = wq + s + d1 + s + d2;
    assert_covers(metric(&x, "flow.a->b", "transfer_time_s"), want, 0.0, "end-to-end delay");
    // The second link never queues: the relay holds at most one frame, drops none.
    let port = "node.r.l2";
    assert_eq!(metric(&x, port, "buffer_octets_max").mean, (l + h) / 8.0);
    assert_eq!(metric(&x, port, "frames_dropped").mean, 0.0);
    // Utilisation of each lane a→r and r→b is the frame load ρ.
    assert_covers(metric(&x, "link.l1.a->r", "utilisation"), rho, 0.0, "l1 utilisation");
    assert_covers(metric(&x, "link.l2.r->b", "utilisation"), rho, 0.0, "l2 utilisation");
    assert_eq!(metric(&x, "link.l2.b->r", "frames_transmitted").mean, 0.0, "datagrams need no reverse traffic");
    // Best effort, error free, nothing dropped: what is not delivered is still in the
    // system at the end (queued at a or on the wire); more than 20 there has probability
    // of order ρ^20 ≈ 4e-5 at ρ = 0.6.
    for r in &x.records {
        let a = r.accounting["flow.a->b"];
        assert!(a.issued - a.delivered <= 20, "{a:?}");
    }
}

#[test]
fn unequal_rates_make_the_second_link_queue() {
    // The same tandem with l2 at half the rate: the relay queues (and the M/D/1 + one
    // transmission form no longer holds), a finite buffer drops, best effort loses.
    let sc = load("tandem.toml", &[("medium", json!([
        { "name": "l1", "ends": ["a", "r"], "rate_bps": 9600.0, "delay_s": 0.005 },
        { "name": "l2", "ends": ["r", "b"], "rate_bps": 6000.0, "delay_s": 0.02 },
    ])), ("relay", json!([{ "name": "r", "buffer_octets": 400 }])), ("run.replications", json!(3))]);
    let x = run(&sc);
    assert!(metric(&x, "node.r.l2", "buffer_octets_max").mean > 131.0 * 2.0, "more than one frame held");
    assert!(metric(&x, "node.r.l2", "frames_dropped").mean > 0.0);
    let lost: u64 = x.records.iter().map(|r| r.accounting["flow.a->b"].issued - r.accounting["flow.a->b"].delivered).sum();
    assert!(lost > 0, "a best-effort flow loses what the relay drops");
}

#[test]
fn go_back_n_end_to_end_recovers_every_relay_loss() {
    let sc = load("relay_loss_arq.toml", &[]);
    let x = run(&sc);
    let dropped = metric(&x, "node.r.l2", "frames_dropped").mean;
    assert!(dropped > 10.0, "the relay must drop for this test to mean anything ({dropped})");
    assert!(metric(&x, "flow.a->b", "frames_retransmitted").mean > dropped);
    // Exactly-once in-order delivery was checked by the runner on every delivery, and the
    // accounting balanced at the end (issued = acknowledged + held by the sender).
    for r in &x.records {
        let a = r.accounting["flow.a->b"];
        assert_eq!(a.issued, a.acknowledged + a.unacknowledged, "{a:?}");
        assert!(a.delivered >= a.acknowledged && a.delivered > 100, "{a:?}");
    }
    // Throughput is bounded by the slower link.
    assert!(metric(&x, "flow.a->b", "throughput_bps").mean < 9600.0 * 1000.0 / 1048.0);
}

#[test]
fn stop_and_wait_over_a_half_duplex_radio_matches_the_cycle_formula() {
    for (tau, preamble) in [(0.05, 0.0), (0.2, 0.03)] {
        let sc = load("radio_stop_and_wait.toml", &[("/medium/0/turnaround_s", json!(tau)), ("/medium/0/preamble_s", json!(preamble))]);
        let x = run(&sc);
        let (rate, l, h, ack, tp, p) = (2400.0, 1000.0, 48.0, 48.0, 0.01, 2e-4);
        let (tf, ta) = (preamble + (l + h) / rate, preamble + ack / rate);
        let pf = 1.0 - (1.0f64 - p).powf(l + h);
        let eta = (l / rate) * (1.0 - pf) / (tf + ta + 2.0 * tp + 2.0 * tau);
        assert_covers(metric(&x, "flow.a->b", "throughput_efficiency"), eta, 0.0, &format!("η at τ = {tau}, preamble {preamble}"));
        assert_eq!(metric(&x, "flow.a->b", "timeouts").mean, 0.0, "a NAK answers every error: no timeouts");
    }
}


const TWO_WAY: &str = r#"
[run]
duration_s = 300.0
warmup_s = 10.0
replications = 3
[stack.sr]
kind = "selective_repeat"
window = 7
[[medium]]
name = "l"
ends = ["x", "y"]
rate_bps = 9600.0
delay_s = 0.02
bit_error_rate = 1e-4
[[node]]
name = "x"
stack = "sr"
[[node]]
name = "y"
stack = "sr"
[[flow]]
from = "x"
to = "y"
traffic = { kind = "saturated" }
[[flow]]
from = "y"
to = "x"
traffic = { kind = "poisson", load = 0.3 }
"#;

#[test]
fn the_pooled_scope_sums_every_flow() {
    let sc = Scenario::from_toml(TWO_WAY).unwrap();
    assert_eq!(sc.scopes(), vec!["flow.x->y", "flow.y->x"]);
    let x = run(&sc);
    for r in &x.records {
        let b = &r.batches[0];
        let sum = |m: &str| b["flow.x->y"].get(m).unwrap() + b["flow.y->x"].get(m).unwrap();
        for m in ["messages_delivered", "frames_sent", "frames_retransmitted", "frames_in_error"] {
            assert_eq!(b["flow.*"].get(m).unwrap(), sum(m), "{m}");
        }
        // Bits / span summed, up to rounding.
        assert!((b["flow.*"].get("throughput_bps").unwrap() / sum("throughput_bps") - 1.0).abs() < 1e-12);
        // Throughput efficiency of the pool is relative to both lanes' capacity.
        let eff = b["flow.*"].get("throughput_efficiency").unwrap();
        assert!((eff - sum("throughput_bps") / (2.0 * 9600.0)).abs() < 1e-12);
        // The mean transfer time of the pool lies between the flows' means.
        let t = |s: &str| b[s].get("transfer_time_s").unwrap();
        assert!(t("flow.*") >= t("flow.x->y").min(t("flow.y->x")) && t("flow.*") <= t("flow.x->y").max(t("flow.y->x")));
    }
}

#[test]
fn a_two_layer_stack_delivers_end_to_end_over_a_lossy_lower_layer() {
    let text = TWO_WAY.replace(
        "[stack.sr]\nkind = \"selective_repeat\"\nwindow = 7",
        "[stack.sr]\nlayers = [{ kind = \"go_back_n\", window = 7, timeout_s = 2.0 }, { kind = \"datagram\", overhead_bits = 16 }]",
    );
    let sc = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    let x = run(&sc);
    // The datagram layer loses every corrupted frame; go-back-N above recovers them:
    // the runner checked in-order exactly-once delivery on every one.
    assert!(metric(&x, "flow.x->y", "frames_in_error").mean > 10.0);
    assert!(metric(&x, "flow.x->y", "messages_delivered").mean > 1000.0);
    for r in &x.records {
        let a = r.accounting["flow.x->y"];
        assert_eq!(a.issued, a.acknowledged + a.unacknowledged, "{a:?}");
    }
}

#[test]
fn a_multiplexed_star_keeps_every_connection_in_order_and_accounts_per_flow() {
    let sc = load("star_mux.toml", &[("run.replications", json!(3))]);
    let x = run(&sc);
    // The runner checked in-order exactly-once delivery of each flow; every flow moved.
    for f in ["flow.a->c", "flow.b->c", "flow.c->a"] {
        assert!(metric(&x, f, "messages_delivered").mean > 100.0, "{f}");
        assert!(metric(&x, f, "frames_retransmitted").mean > 0.0, "{f}: errors were recovered");
    }
    for r in &x.records {
        let b = &r.batches[0];
        // Per-flow counters are the flow's connection's: c's two connections (to a and
        // to b) together sent every frame on c's lane.
        let on_lane = b["link.lc.c->r"].get("frames_transmitted").unwrap();
        let c_sent = b["flow.c->a"].get("frames_sent").unwrap() + b["flow.a->c"].get("rejects_sent").unwrap();
        assert!(c_sent <= on_lane, "c sent {c_sent} of {on_lane}");
        // a's lane carries only a's connection to c: its frames are flow a->c's.
        assert_eq!(b["link.la.a->r"].get("frames_transmitted"), b["flow.a->c"].get("frames_sent"));
        for f in ["flow.a->c", "flow.b->c", "flow.c->a"] {
            let a = r.accounting[f];
            assert_eq!(a.issued, a.acknowledged + a.unacknowledged, "{f}: {a:?}");
        }
    }
    // The saturated flow gets most of c's receiving capacity.
    assert!(metric(&x, "flow.a->c", "throughput_bps").mean > metric(&x, "flow.b->c", "throughput_bps").mean);
}

#[test]
fn a_finite_transfer_across_a_lossy_relay_ends_the_run_when_complete() {
    let sc = load("relay_loss_arq.toml", &[("/flow/0/traffic", json!({ "kind": "bulk", "messages": 300 })), ("run.warmup_s", json!(0.0)), ("run.replications", json!(3))]);
    let x = run(&sc);
    assert_eq!(metric(&x, "run", "completed").mean, 1.0);
    let t = metric(&x, "run", "completion_time_s");
    // At least the time to clock 300 frames onto the slower link.
    assert!(t.mean > 300.0 * 1048.0 / 9600.0, "{t:?}");
    for r in &x.records {
        let a = r.accounting["flow.a->b"];
        assert_eq!((a.issued, a.delivered, a.acknowledged), (300, 300, 300), "{a:?}");
        assert!(r.simulated_s < 600.0, "ended at completion, before run.duration_s");
    }
}
