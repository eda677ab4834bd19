//! In-order ARQ over a path that reorders: `check` refuses a path whose delay spread
//! reaches modulus × the shortest frame's transmission time (the sequence space can
//! wrap under reordering), and accepts one that stays below it — which then runs clean.

use arqlab::scenario::Scenario;
use arqlab::sim::replicate;

/// `layer` from a to b across a transit network with `delay`, at 9600 bit/s each side.
fn across(layer: &str, delay: &str) -> String {
    format!(
        "[run]\nduration_s = 600.0\nwarmup_s = 10.0\nreplications = 1\n[stack.s]\nlayers = [{layer}]\n\
         [[relay]]\nname = \"net\"\nkind = \"transit_network\"\ntransit_delay = {delay}\n\
         [[medium]]\nname = \"la\"\nends = [\"a\", \"net\"]\nrate_bps = 9600.0\n[[medium]]\nname = \"lb\"\nends = [\"net\", \"b\"]\nrate_bps = 9600.0\n\
         [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"saturated\", length = {{ dist = \"constant\", mean_bits = 1000 }} }}\n"
    )
}

const GBN: &str = "{ kind = \"go_back_n\", window = 7, modulus = 8, overhead_bits = 48, ack_bits = 48, timeout_s = 2.0 }";

#[test]
fn go_back_n_across_an_exponential_transit_delay_is_refused_by_check() {
    let e = Scenario::from_toml(&across(GBN, "{ dist = \"exponential\", mean_s = 0.2 }")).unwrap_err();
    let msg = e.problems().join("\n");
    assert!(msg.starts_with("relay.net.transit_delay: a delay that reorders frames without bound on the path of flow.a->b (go_back_n, modulus 8)"), "{msg}");
    assert!(msg.contains("in-order delivery breaks") && msg.contains("tp4"), "{msg}");
}

#[test]
fn every_small_sequence_space_is_checked() {
    for layer in [
        "{ kind = \"stop_and_wait\" }",
        "{ kind = \"selective_repeat\", window = 4, modulus = 8 }",
        "{ kind = \"hdlc\", mode = \"abm\" }",
    ] {
        let e = Scenario::from_toml(&across(layer, "{ dist = \"exponential\", mean_s = 0.2 }")).expect_err(layer);
        assert!(e.problems().join("\n").contains("reorders frames without bound"), "{layer}: {e}");
    }
    // Time-of-day profiles: exponential delays, or a step down of the mean.
    let profile = |shape: &str| format!("{{ dist = \"profile\", starts_s = [0.0, 100.0], means_s = [0.7, 0.2], period_s = 200.0, shape = \"{shape}\" }}");
    assert!(Scenario::from_toml(&across(GBN, &profile("exponential"))).is_err());
    let e = Scenario::from_toml(&across(GBN, &profile("constant"))).unwrap_err();
    assert!(e.problems().join("\n").contains("by up to 0.500000 s"), "{e}");
}

#[test]
fn a_spread_below_the_sequence_space_is_accepted_and_delivers_in_order() {
    // Modulus 8 × 48 header bits at 9600 bit/s = 40 ms: a 30 ms spread cannot wrap.
    let sc = Scenario::from_toml(&across(GBN, "{ dist = \"uniform\", min_s = 0.2, max_s = 0.23 }")).unwrap_or_else(|e| panic!("{e}"));
    let r = replicate(&sc, 1, 0).unwrap_or_else(|e| panic!("{e}"));
    assert!(r.batches[0]["flow.a->b"].get("messages_delivered").unwrap() > 100.0);
    // 50 ms is refused.
    let e = Scenario::from_toml(&across(GBN, "{ dist = \"uniform\", min_s = 0.2, max_s = 0.25 }")).unwrap_err();
    assert!(e.problems().join("\n").contains("by up to 0.050000 s") && e.problems().join("\n").contains("(0.040000 s)"), "{e}");
}

#[test]
fn a_large_sequence_space_end_to_end_is_not_a_hazard() {
    let tp4 = "{ kind = \"tp4\" }, { kind = \"datagram\", overhead_bits = 48 }";
    Scenario::from_toml(&across(tp4, "{ dist = \"exponential\", mean_s = 0.2 }")).unwrap_or_else(|e| panic!("{e}"));
    Scenario::from_toml(&across(GBN, "{ dist = \"constant\", mean_s = 0.2 }")).unwrap_or_else(|e| panic!("{e}"));
}
