//! The X.25 stack through the scenario schema and the generic runner: the Fig. 3
//! scenario runs to completion, saturated datagram flows reproduce the burst model,
//! and bad X.25 parameters are reported with their field.

use arqlab::scenario::Scenario;
use arqlab::sim::run_experiment;

fn pair(x25: &str, traffic: &str) -> String {
    format!(
        "[run]\nduration_s = 600.0\nwarmup_s = 100.0\nreplications = 1\n[stack.h]\nkind = \"x25\"\n{x25}\n\
         [[medium]]\nname = \"net\"\nends = [\"a\", \"b\"]\nrate_bps = 1e9\ndelay_s = 0.235\n\
         [[node]]\nname = \"a\"\nstack = \"h\"\n[[node]]\nname = \"b\"\nstack = \"h\"\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {traffic}\n"
    )
}

#[test]
fn fig3_scenario_completes_in_order_over_three_circuits() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/comer_korb/fig3.toml")).unwrap();
    let sc = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    let x = run_experiment(&sc, 1, None, None).unwrap_or_else(|e| panic!("{e}"));
    let r = &x.records[0];
    let a = r.accounting["flow.a->b"];
    assert_eq!((a.delivered, a.acknowledged, a.unacknowledged), (222, 222, 0));
    let s = x.metrics["flow.a->b"]["throughput_bps"].mean;
    // Three circuits: about three single-circuit burst bounds (2275 bit/s with the
    // TCP/IP headers), less slow start and the set-up.
    assert!(s > 5500.0 && s < 3.0 * 2275.0, "{s}");
}

#[test]
fn saturated_datagrams_reach_the_burst_bound_per_circuit_through_the_runner() {
    // One-packet datagrams (128 octets, no IP header), W = 2, C circuits.
    let t_p = (8.0 * 131.0 + 48.0) / 9600.0;
    let t_rr = (8.0 * 3.0 + 48.0) / 9600.0;
    let bound = 2.0 * 1024.0 / (3.0 * t_p + 2.0 * 0.235 + 2.0 * t_rr);
    for c in [1u32, 2, 4] {
        let x25 = format!("ip_header_bits = 0\npolicy = \"multi_mlru\"\nc_max = {c}\npreopen_circuits = {c}");
        let sc = Scenario::from_toml(&pair(&x25, "{ kind = \"saturated\", length = { dist = \"constant\", mean_bits = 1024 } }")).unwrap_or_else(|e| panic!("{e}"));
        let x = run_experiment(&sc, 1, None, None).unwrap_or_else(|e| panic!("{e}"));
        let s = x.metrics["flow.a->b"]["throughput_bps"].mean;
        let model = (f64::from(c) * bound).min(1024.0 / t_p);
        assert!((s - model).abs() / model < 2e-3, "C = {c}: {s} vs {model}");
    }
}

#[test]
fn bad_x25_parameters_name_their_field() {
    for (bad, field) in [("window = 8", "window"), ("c_max = 0", "c_max"), ("t_min_s = -1.0", "t_min_s"), ("policy = \"fifo\"", "policy")] {
        let e = Scenario::from_toml(&pair(bad, "{ kind = \"saturated\" }")).expect_err(bad);
        let msg = e.problems().join("\n");
        assert!(msg.contains(&format!("stack.h.{field}")), "{bad}: {msg}");
    }
}

#[test]
fn tcp_needs_a_layer_below_and_x25_carries_only_tcp() {
    let pair = "[run]\nduration_s = 10.0\n[link]\nrate_bps = 9600.0\n[protocol]\nkind = \"tcp\"\n[traffic.a]\nkind = \"saturated\"\n";
    let e = Scenario::from_toml(pair).expect_err("tcp alone");
    assert!(e.problems().join("\n").contains("protocol.kind"), "{e}");
    for (layers, path) in [("[{ kind = \"tcp\" }]", "layers[0].kind"), ("[{ kind = \"tcp\" }, { kind = \"tcp\" }]", "layers[0].kind"), ("[{ kind = \"go_back_n\" }, { kind = \"x25\" }]", "layers[0].kind"), ("[{ kind = \"x25\" }, { kind = \"datagram\" }]", "layers[0].kind")] {
        let text = pair_explicit(layers);
        let e = Scenario::from_toml(&text).expect_err(layers);
        assert!(e.problems().join("\n").contains(&format!("stack.h.{path}")), "{layers}: {e}");
    }
}

fn pair_explicit(layers: &str) -> String {
    format!(
        "[run]\nduration_s = 10.0\n[stack.h]\nlayers = {layers}\n[[medium]]\nname = \"net\"\nends = [\"a\", \"b\"]\nrate_bps = 1e9\n\
         [[node]]\nname = \"a\"\nstack = \"h\"\n[[node]]\nname = \"b\"\nstack = \"h\"\n[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"saturated\" }}\n"
    )
}
