//! HF radio ARQ (Johnson) end to end: the shipped `scenarios/johnson/` examples run and
//! keep their invariants; error-free transmission cycles match the closed form of the
//! burst timing (preamble, interleaver rounding, turnaround); bad input names the field.

use arqlab::scenario::{apply_override, toml_to_json, Scenario};
use arqlab::sim::{run_experiment, Experiment};
use serde_json::{json, Value};
use std::path::Path;

fn load_value(file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/johnson").join(file);
    toml_to_json(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// Overrides are dotted keys, or JSON pointers (`/medium/0/x`) into arrays of tables.
fn with(mut v: Value, overrides: &[(&str, Value)]) -> Value {
    for (k, x) in overrides {
        match v.pointer_mut(k) {
            Some(slot) if k.starts_with('/') => *slot = x.clone(),
            _ => apply_override(&mut v, k, x.clone()).unwrap(),
        }
    }
    v
}

fn load(file: &str, overrides: &[(&str, Value)]) -> Scenario {
    Scenario::from_value(&with(load_value(file), overrides)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn problems(file: &str, overrides: &[(&str, Value)]) -> String {
    match Scenario::from_value(&with(load_value(file), overrides)) {
        Ok(_) => panic!("{file} {overrides:?}: accepted"),
        Err(e) => e.to_string(),
    }
}

fn run(sc: &Scenario) -> Experiment {
    run_experiment(sc, 11, None, None).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_johnson_scenario_runs_and_keeps_its_invariants() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/johnson");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        // The protocol × channel files (<protocol>_<channel>.toml); pair/ holds the
        // two-station form for captures, the SMTP/HMTP files are dialogues.
        if !name.ends_with(".toml") || !(name.starts_with("5066") || name.starts_with("hdl")) {
            continue;
        }
        if !name.contains("_stable_") && !name.ends_with("_transition.toml") {
            continue; // the dialogue workloads over other protocols (docs/models/dialogue.md)
        }
        let sc = load(&name, &[("run.duration_s", json!(600.0)), ("run.replications", json!(2))]);
        // The runner checks exactly-once in-order delivery and balanced accounting on
        // every event; a violation fails the run.
        let x = run(&sc);
        assert!(x.metrics["transport.flow.a->b"]["hf_packets_new"].mean >= 10.0, "{name}: no progress");
        n += 1;
    }
    assert_eq!(n, 12, "four protocols × three channels");
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let sc = load("5066_transition.toml", &[("run.duration_s", json!(600.0)), ("run.replications", json!(1))]);
    let a = run(&sc);
    let b = run(&sc);
    assert_eq!(a.records[0].fingerprint, b.records[0].fingerprint);
    assert_eq!(a.metrics["flow.a->b"]["throughput_bps"].mean, b.metrics["flow.a->b"]["throughput_bps"].mean);
}

/// Error-free saturated transfer: every cycle is one data transmission of W packets and
/// one acknowledgement, each behind its preamble, with t_p + τ at each change of
/// direction, so throughput = W · segment bits / cycle.
fn error_free(file: &str, extra: &[(&str, Value)]) -> Scenario {
    let mut o: Vec<(&str, Value)> = vec![
        ("/medium/0/forward", json!({ "error_model": "none" })),
        ("/medium/0/reverse", json!({ "error_model": "none" })),
        ("/flow/1/traffic", json!({ "kind": "none" })),
        ("run.replications", json!(1)),
    ];
    o.extend(extra.iter().cloned());
    load(file, &o)
}

#[test]
fn hdl_error_free_cycle_is_the_bw2_bw1_closed_form() {
    // One 233-octet segment per message, so every packet completes a message.
    let seg = 233.0 * 8.0;
    let sc = error_free("hdl_stable_25.toml", &[("/flow/0/traffic", json!({ "kind": "saturated", "length": { "dist": "constant", "mean_bits": seg } }))]);
    let x = run(&sc);
    let (tp, tau) = (0.01, 0.5);
    // BW2: 640 ms + 400 ms per packet (24); BW1: 1306.67 ms.
    let cycle = (0.64 + 24.0 * 0.4) + tp + tau + (0.64 + 0.66667) + tp + tau;
    let want = 24.0 * seg / cycle;
    let got = x.metrics["flow.a->b"]["throughput_bps"].mean;
    // The run starts and ends mid-cycle: within one cycle's 24 messages over 3600 s.
    assert!((got - want).abs() <= 24.0 * seg / 3600.0, "HDL: {got} vs {want}");
}

#[test]
fn external_modem_error_free_cycle_rounds_to_interleaver_blocks() {
    // On a link without an hf error model the modem sends at the link's rate (at 40 dB
    // it would choose 4800 bit/s on an HF channel): the cycle follows rate_bps.
    let seg = 200.0 * 8.0;
    for r in [2400.0, 4800.0] {
        let sc = error_free(
            "5066_stable_25.toml",
            &[
                ("/flow/0/traffic", json!({ "kind": "saturated", "length": { "dist": "constant", "mean_bits": seg } })),
                ("stack.arq.initial_snr_db", json!(40.0)),
                ("/medium/0/rate_bps", json!(r)),
            ],
        );
        let x = run(&sc);
        let (tp, tau) = (0.01, 1.1);
        // Data: 24 × (1600 + 128) bits = 8.64 s at 4800 bit/s → 15 blocks of 0.6 s
        // (17.28 s → 29 blocks at 2400); ACK: 160 bits → 1 block.
        let data = 0.6 + (24.0 * (seg + 128.0) / r / 0.6f64).ceil() * 0.6;
        let ack = 0.6 + 0.6;
        let cycle = data + tp + tau + ack + tp + tau;
        let want = 24.0 * seg / cycle;
        let got = x.metrics["flow.a->b"]["throughput_bps"].mean;
        assert!((got - want).abs() <= 24.0 * seg / 3600.0, "5066 at {r} bit/s: {got} vs {want}");
    }
}

#[test]
fn bad_hf_input_names_the_field() {
    let e = problems("hdl_stable_5.toml", &[("stack.arq.variant", json!("hdl-2"))]);
    assert!(e.contains("stack.arq.variant = \"hdl-2\": expected one of \"5066\""), "{e}");
    let e = problems("hdl_stable_5.toml", &[("stack.arq.modem", json!("mil-std-188-110b"))]);
    assert!(e.contains("stack.arq.modem = \"mil-std-188-110b\": an integrated modem needs a code-combining table"), "{e}");
    let e = problems("hdl_stable_5.toml", &[("/medium/0/forward/channel", json!("stable_7"))]);
    assert!(e.contains("medium[0].forward.channel = \"stable_7\": expected one of \"stable_25\", \"stable_5\", \"transition\""), "{e}");
    let e = problems("5066_stable_5.toml", &[("stack.arq.window", json!(200))]);
    assert!(e.contains("stack.arq.window = 200: expected a whole number in [1, 128]"), "{e}");
    let e = problems("5066-1s_stable_5.toml", &[("stack.arq.window", json!(4))]);
    assert!(e.contains("stack.arq.window = 4: stop-and-wait has window = 1"), "{e}");
    let e = problems("hdl_stable_5.toml", &[("/medium/0/reverse/modem", json!("mil-std-188-110b"))]);
    assert!(e.contains("medium[0].reverse.modem = \"mil-std-188-110b\": expected \"mil-std-188-141b-appc\", the modem of the hf_arq stack"), "{e}");
    // A modem table that is not monotone, from a file.
    let dir = std::env::temp_dir().join(format!("arqlab-hf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"bad\"\nsnr_db = [0, 10]\n[[mode]]\nname = \"x\"\nbps = 300\npacket_bits = [100]\nper = [[0.1, 0.2]]\n").unwrap();
    let e = problems("5066_stable_5.toml", &[("/medium/0/forward/modem", json!(bad.to_str().unwrap()))]);
    assert!(e.contains("medium[0].forward.modem.mode[0].per[0]: PER must not increase with SNR"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_resolved_scenario_parses_back_to_itself() {
    for file in ["5066_transition.toml", "hdl-1d_stable_5.toml"] {
        let sc = load(file, &[]);
        let again = Scenario::from_value(&sc.to_value()).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(again, sc, "{file}");
    }
}

#[test]
fn the_rate_staircase_settles_where_a_step_down_is_up_over_up_plus_down() {
    // Stop-and-wait over the external modem at 25 dB: the SNR estimate climbs until
    // the chosen rate fails. In the long run the steps balance, E[Δ] = 0, so the share
    // of transmissions that step down is up / (up + down): 1/3 for the default +1/−2 dB
    // per transmission, whatever target_per; per packet with up = 2·0.1/0.9 dB, the
    // target 0.1. Data packets lost are at most that share (timeouts and lost ACKs
    // also step down) and not far below it.
    let fer = |over: &[(&str, Value)]| {
        let mut o = vec![("run.duration_s", json!(7200.0)), ("run.replications", json!(4)), ("/flow/1/traffic", json!({ "kind": "none" }))];
        o.extend_from_slice(over);
        let x = run(&load("5066-1s_stable_25.toml", &o));
        x.metrics["link.hf.a->b"]["frame_error_ratio"].mean
    };
    let burst = fer(&[]);
    assert!((0.25..=1.0 / 3.0 + 0.01).contains(&burst), "{burst}");
    let up = 2.0 * 0.1 / 0.9;
    let target = fer(&[("stack.arq.rate_adaptation", json!("per_packet")), ("stack.arq.snr_step_up_db", json!(up))]);
    assert!((0.06..=0.11).contains(&target), "{target}");
}
