//! Golden trajectories: every shipped scenario (and variants that reach every protocol
//! mode, error model, traffic kind and statistics method) gives exactly the results
//! recorded in `tests/golden/trajectories.json` — fingerprint, event count, every measure
//! of every window to the last bit, the message accounting and a frame-level trace.
//!
//! The file was written by the two-station runner before the core was generalised to
//! stacks and topologies; the generalised runner must reproduce it bit for bit.
//! `tests/golden/topologies.json` pins the same for what only the generalised core runs
//! (relays, the half-duplex radio, the token ring, multiplexed and stacked layers, TP4,
//! X.25, TCP over the HF ARQ, dialogues); it was written at commit 3cdff44, before the
//! hot-path changes that followed it. Re-pin deliberately, never to make a change pass:
//! `ARQLAB_BLESS=1 cargo test --test golden`.

use arqlab::engine::SimTime;
use arqlab::scenario::{apply_override, toml_to_json, Scenario};
use arqlab::sim::{replicate_on, trace, Path as RunPath};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// (name, scenario file, overrides)
fn cases() -> Vec<(String, String, Vec<(&'static str, Value)>)> {
    let short = |d: f64, w: f64| vec![("run.duration_s", json!(d)), ("run.warmup_s", json!(w))];
    let mut out = vec![];
    for f in ["go_back_n", "selective_repeat", "stop_and_wait", "hdlc_nrm", "hdlc_abm_poisson", "demo"] {
        out.push((f.to_string(), format!("scenarios/{f}.toml"), short(400.0, 20.0)));
    }
    for n in 2..=11 {
        let mut o = short(300.0, 20.0);
        o.push(("protocol.t1_s", json!(1.5)));
        out.push((format!("bux1982/fig{n}"), format!("scenarios/bux1982/fig{n}.toml"), o));
    }
    let hdlc = "scenarios/hdlc_nrm.toml";
    for mode in ["nrm", "abm", "arm"] {
        for modulus in [8, 128] {
            let mut o = short(300.0, 20.0);
            o.extend([
                ("protocol.mode", json!(mode)),
                ("protocol.modulus", json!(modulus)),
                ("traffic.a.kind", json!("poisson")),
                ("traffic.a.load", json!(0.4)),
                ("traffic.b.kind", json!("poisson")),
                ("traffic.b.load", json!(0.3)),
                ("traffic.b.length.dist", json!("exponential")),
                ("traffic.b.length.mean_bits", json!(800)),
                ("link.bit_error_rate", json!(5e-5)),
            ]);
            out.push((format!("hdlc-{mode}-{modulus}-poisson"), hdlc.to_string(), o));
        }
    }
    let mut ge = short(300.0, 20.0);
    ge.extend([
        ("link.a_to_b.error_model", json!("gilbert_elliott")),
        ("link.a_to_b.good_ber", json!(1e-6)),
        ("link.a_to_b.bad_ber", json!(1e-2)),
        ("link.a_to_b.mean_good_bits", json!(50000)),
        ("link.a_to_b.mean_bad_bits", json!(2000)),
        ("traffic.b.kind", json!("saturated")),
    ]);
    out.push(("sr-gilbert-elliott-both-ways".into(), "scenarios/selective_repeat.toml".into(), ge));
    let mut bm = short(2000.0, 50.0);
    bm.extend([("run.method", json!("batch_means")), ("run.batches", json!(10))]);
    out.push(("gbn-batch-means".into(), "scenarios/go_back_n.toml".into(), bm));
    let mut mser = short(600.0, 0.0);
    mser.extend([
        ("run.warmup", json!("mser5")),
        ("traffic.a.kind", json!("poisson")),
        ("traffic.a.load", json!(0.7)),
        ("traffic.a.length", json!({"dist": "uniform", "min_bits": 200, "max_bits": 1800})),
    ]);
    out.push(("gbn-mser5-uniform".into(), "scenarios/go_back_n.toml".into(), mser));
    let mut emp = short(300.0, 10.0);
    emp.extend([
        ("traffic.a.length", json!({"dist": "empirical", "values_bits": [200, 1000, 4000], "weights": [3, 2, 1]})),
        ("protocol.nak_corrupted", json!(true)),
    ]);
    out.push(("sr-empirical-nak".into(), "scenarios/selective_repeat.toml".into(), emp));
    out
}

fn scenario(file: &str, overrides: &[(&'static str, Value)]) -> Scenario {
    let text = std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut v = toml_to_json(&text).unwrap();
    for (k, x) in overrides {
        apply_override(&mut v, k, x.clone()).unwrap();
    }
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Everything a replication produced except its wall time, with floats as exact bits.
fn record(sc: &Scenario, seed: u64, rep: u64) -> Value {
    record_on(sc, seed, rep, RunPath::Fast)
}

fn record_on(sc: &Scenario, seed: u64, rep: u64, path: RunPath) -> Value {
    let r = replicate_on(sc, seed, rep, path).unwrap_or_else(|e| panic!("{e}"));
    let bits = |x: f64| format!("{:016x}", x.to_bits());
    let batches: Vec<Value> = r
        .batches
        .iter()
        .map(|b| {
            b.iter()
                .map(|(d, m)| (d.to_string(), m.iter().map(|(k, x)| (k.to_string(), json!(bits(x)))).collect::<serde_json::Map<_, _>>().into()))
                .collect::<serde_json::Map<String, Value>>()
                .into()
        })
        .collect();
    json!({
        "fingerprint": r.fingerprint,
        "events": r.events,
        "simulated_s": bits(r.simulated_s),
        "warmup_s": bits(r.warmup_s),
        "mser_reliable": r.mser_reliable,
        "accounting": serde_json::to_value(&r.accounting).unwrap(),
        "batches": batches,
    })
}

fn traced(sc: &Scenario) -> Value {
    let t = trace(sc, 3, 1, SimTime::from_secs_f64(30.0), SimTime::from_secs_f64(31.5), 400).unwrap();
    serde_json::to_value(&t.records).unwrap()
}

/// Multi-node and stacked scenarios, each shortened (but past the trace window).
fn topology_cases() -> Vec<(String, String, Vec<(&'static str, Value)>)> {
    let short = |d: f64, w: f64| vec![("run.duration_s", json!(d)), ("run.warmup_s", json!(w))];
    [
        ("tandem-relay", "scenarios/topologies/tandem.toml", 300.0, 10.0),
        ("relay-loss-arq", "scenarios/topologies/relay_loss_arq.toml", 300.0, 10.0),
        ("radio-stop-and-wait", "scenarios/topologies/radio_stop_and_wait.toml", 300.0, 10.0),
        ("star-mux", "scenarios/topologies/star_mux.toml", 300.0, 10.0),
        ("llc2-token-rings-bridge", "scenarios/biersack/base.toml", 40.0, 5.0),
        // Finite transfers and dialogues: measured from their start.
        ("tp4-satellite-acknowledgement", "scenarios/colella/acknowledgement.toml", 300.0, 0.0),
        ("tp4-satellite-expedited", "scenarios/colella/expedited.toml", 300.0, 0.0),
        ("tcp-smtp-over-hf-arq", "scenarios/johnson/smtp_tcp_radio.toml", 600.0, 0.0),
        ("hmtp-over-hf-arq", "scenarios/johnson/hmtp_radio.toml", 600.0, 0.0),
        ("ip-x25-burst-pair", "scenarios/comer_korb/burst_pair.toml", 300.0, 10.0),
        ("hf-arq-hdl", "scenarios/johnson/hdl_stable_25.toml", 600.0, 10.0),
        // RFC 877 gateways on an X.25 network of one relay (pinned before networks of
        // several switches were built: their routing must leave it unchanged).
        ("x25-three-gateways", "scenarios/compose/x25_three_gateways.toml", 120.0, 30.0),
    ]
    .into_iter()
    .map(|(name, file, d, w)| (name.to_string(), file.to_string(), short(d, w)))
    .collect()
}

/// Runs `cases` and compares them with the pinned file `name` (or writes it when blessing).
fn check(name: &str, cases: Vec<(String, String, Vec<(&'static str, Value)>)>) {
    let path = root().join("crates/arqlab/tests/golden").join(name);
    let mut got = serde_json::Map::new();
    for (name, file, o) in cases {
        let sc = scenario(&file, &o);
        got.insert(
            name,
            json!({ "rep0": record(&sc, 1, 0), "rep1": record(&sc, 7, 1), "trace": traced(&sc) }),
        );
    }
    // Through text both ways, so float parsing treats both sides alike.
    let text = serde_json::to_string_pretty(&Value::Object(got)).unwrap() + "\n";
    let got: Value = serde_json::from_str(&text).unwrap();
    if std::env::var_os("ARQLAB_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let want: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("golden file")).unwrap();
    let (Value::Object(w), Value::Object(g)) = (&want, &got) else { unreachable!() };
    assert_eq!(w.keys().collect::<Vec<_>>(), g.keys().collect::<Vec<_>>(), "case list changed");
    for (k, wv) in w {
        for part in ["rep0", "rep1", "trace"] {
            assert!(wv[part] == g[k][part], "{k}/{part} differs from the pinned trajectory:\nwant {}\n got {}", wv[part], g[k][part]);
        }
    }
}

#[test]
fn every_scenario_reproduces_its_pinned_trajectory() {
    check("trajectories.json", cases());
}

#[test]
fn every_topology_reproduces_its_pinned_trajectory() {
    check("topologies.json", topology_cases());
}

/// The composed path (every stack built from its registered layers, nested in
/// `Stacked`'s order) and the chain of any depth (`protocol::deep`, the runner of
/// stacks deeper than three layers) reproduce every pinned case bit for bit:
/// fingerprint, event count, every measure of every window and the accounting.
#[test]
fn the_composed_path_and_the_chain_reproduce_every_pinned_trajectory() {
    for (name, file, o) in cases().into_iter().chain(topology_cases()) {
        let sc = scenario(&file, &o);
        let (fast, composed) = (record(&sc, 1, 0), record_on(&sc, 1, 0, RunPath::Composed));
        assert!(fast == composed, "{name}: the composed path differs:\nfast     {fast}\ncomposed {composed}");
        let chain = record_on(&sc, 1, 0, RunPath::Chain);
        assert!(fast == chain, "{name}: the chain differs:\nfast  {fast}\nchain {chain}");
    }
}
