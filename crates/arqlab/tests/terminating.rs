//! Terminating runs: finite (bulk) transfers end the run when the last message is
//! acknowledged, and the completion time is measured — against the closed forms of an
//! error-free link.

use arqlab::engine::Duration;
use arqlab::scenario::Scenario;
use arqlab::sim::run_experiment;

const RATE: f64 = 48_000.0;
const TP: f64 = 0.05;

fn scenario(protocol: &str, messages: u64, ber: f64) -> Scenario {
    let text = format!(
        "[run]\nduration_s = 3600.0\nreplications = 3\n[link]\nrate_bps = {RATE}\ndelay_s = {TP}\nbit_error_rate = {ber}\n\
         [protocol]\n{protocol}\n[traffic.a]\nkind = \"bulk\"\nmessages = {messages}\nlength = {{ dist = \"constant\", mean_bits = 1000 }}\n"
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

/// Seconds to clock `bits` onto the line, with the simulator's own rounding.
fn tx(bits: u64) -> f64 {
    Duration::transmission(bits, RATE).as_secs_f64()
}

fn completion(sc: &Scenario) -> (f64, f64, f64) {
    let x = run_experiment(sc, 5, None, None).unwrap_or_else(|e| panic!("{e}"));
    let c = x.metrics["run"]["completion_time_s"];
    let done = x.metrics["run"]["completed"].mean;
    for r in &x.records {
        let a = r.accounting["a_to_b"];
        assert_eq!((a.issued, a.delivered, a.acknowledged, a.unacknowledged), (a.issued, a.issued, a.issued, 0), "{a:?}");
        assert!((r.simulated_s - r.batches[0]["run"].get("completion_time_s").unwrap()).abs() < 1e-12, "the run ends at completion");
    }
    (c.mean, c.half_width, done)
}

#[test]
fn stop_and_wait_takes_one_cycle_per_message() {
    let n = 50;
    let (t, hw, done) = completion(&scenario("kind = \"stop_and_wait\"", n, 0.0));
    let cycle = tx(1048) + TP + tx(48) + TP;
    assert!((t - n as f64 * cycle).abs() < 1e-9, "{t} vs {}", n as f64 * cycle);
    assert_eq!((hw, done), (0.0, 1.0), "error free: every replication the same");
}

#[test]
fn go_back_n_with_an_open_window_streams_then_waits_for_the_last_acknowledgement() {
    let n = 200;
    // W·t_f ≥ t_f + 2 t_p + t_ack: the window never stops the sender.
    assert!(7.0 * tx(1048) >= tx(1048) + 2.0 * TP + tx(48));
    let (t, _, _) = completion(&scenario("kind = \"go_back_n\"\nwindow = 7", n, 0.0));
    let want = n as f64 * tx(1048) + TP + tx(48) + TP;
    assert!((t - want).abs() < 1e-9, "{t} vs {want}");
}

#[test]
fn errors_lengthen_the_transfer_and_it_still_completes() {
    let n = 300;
    let clean = n as f64 * tx(1048) + 2.0 * TP + tx(48);
    let (t, hw, done) = completion(&scenario("kind = \"go_back_n\"\nwindow = 7", n, 1e-4));
    assert_eq!(done, 1.0);
    assert!(t > clean && hw > 0.0, "{t} ± {hw} vs error-free {clean}");
}

#[test]
fn a_terminating_run_measures_from_time_zero() {
    let text = "[run]\nwarmup_s = 5.0\n[protocol]\nkind = \"go_back_n\"\n[traffic.a]\nkind = \"bulk\"\nmessages = 10\n";
    let e = Scenario::from_toml(text).unwrap_err();
    assert_eq!(
        e.problems(),
        vec!["run.warmup_s = 5.0: expected 0 with bulk traffic: a finite transfer is measured from its start (run.warmup = \"fixed\")"]
    );
    // Issue 29 item 10: MSER-5 was reported as "run.warmup_s = 0.0: expected 0".
    let text = "[run]\nwarmup = \"mser5\"\n[protocol]\nkind = \"go_back_n\"\n[traffic.a]\nkind = \"bulk\"\nmessages = 10\n";
    let e = Scenario::from_toml(text).unwrap_err();
    assert_eq!(e.problems(), vec!["run.warmup = \"mser5\": expected \"fixed\" (with run.warmup_s = 0) with bulk traffic: a finite transfer is measured from its start"]);
    let e = Scenario::from_toml("[protocol]\nkind = \"go_back_n\"\n[traffic.a]\nkind = \"saturated\"\nmessages = 10\n").unwrap_err();
    assert_eq!(e.problems(), vec!["traffic.a.messages = 10: only allowed with kind = \"bulk\" (kind is \"saturated\")"]);
}
