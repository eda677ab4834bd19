//! Liveness and recovery of the textbook protocols through the real runner: random
//! losses and corruptions in both directions (acknowledgements included) for a while,
//! then none; within a bounded error-free drain every message is delivered, in order
//! (the runner checks the order), and acknowledged. A protocol that stops sending after
//! some loss pattern (a retransmission that never restarts its timer, say) fails here
//! even though everything it did deliver was correct.

mod common;

/// The line rate of `common::scenario`.
const RATE_BPS: f64 = 48_000.0;

use arqlab::engine::SimTime;
use arqlab::protocol::textbook::{GoBackN, SelectiveRepeat, TextbookConfig};
use arqlab::protocol::any::AnyLayer;
use arqlab::protocol::Station;
use arqlab::scenario::Scenario;
use arqlab::sim::runner::{run, RunOutput, Windows};
use common::{drained, lossy, poisson, saturated, scenario, Log, Loss, NONE};
use proptest::prelude::*;
use std::rc::Rc;

const OVERHEAD: u32 = 48;
const ACK: u32 = 48;

#[derive(Clone, Copy, Debug)]
enum Kind {
    StopAndWait,
    GoBackN,
    SelectiveRepeat,
}

fn config(kind: Kind, modulus_big: bool, window: u32, timeout_s: f64, reject: bool, nak: bool) -> TextbookConfig {
    let (modulus, limit) = match (kind, modulus_big) {
        (Kind::StopAndWait, _) => (2, 1),
        (Kind::GoBackN, false) => (8, 7),
        (Kind::GoBackN, true) => (128, 127),
        (Kind::SelectiveRepeat, false) => (8, 4),
        (Kind::SelectiveRepeat, true) => (128, 64),
    };
    TextbookConfig {
        window: 1 + window % limit,
        modulus,
        overhead_bits: OVERHEAD,
        ack_bits: ACK,
        timeout_s,
        reject: reject && !matches!(kind, Kind::StopAndWait),
        nak_corrupted: nak,
    }
}

/// Runs `kind` with lossy stations until `errors_end`, then error free for a long time
/// (nothing happens once the work is done), and returns the run and both stations' logs.
fn lossy_run(kind: Kind, c: &TextbookConfig, sc: &Scenario, loss: [Loss; 2], seed: u64, errors_end: SimTime) -> (RunOutput, [Rc<Log>; 2]) {
    let logs = [Rc::new(Log::default()), Rc::new(Log::default())];
    let end = SimTime::from_secs_f64(errors_end.as_secs_f64() + 2000.0);
    let w = Windows::equal(SimTime::ZERO, end, 1);
    let wrap = |s: Station, e| {
        let i = s.index();
        lossy(e, loss[i], seed ^ (i as u64 + 1) * 0x5851_f42d, errors_end, logs[i].clone())
    };
    let out = match kind {
        Kind::SelectiveRepeat => run(sc, seed, 0, &w, None, |_, s| wrap(s, AnyLayer::SelectiveRepeat(SelectiveRepeat::new(c)))),
        _ => run(sc, seed, 0, &w, None, |_, s| wrap(s, AnyLayer::GoBackN(GoBackN::new(c)))),
    }
    .unwrap_or_else(|e| panic!("{kind:?} {c:?}: {e}"));
    (out, logs)
}

/// Every message the sender got before the errors stopped was delivered and
/// acknowledged; the last delivery or acknowledgement came within `bound(left)` seconds
/// of `errors_end`, `left` being the messages the station still held then.
fn assert_drained(out: &RunOutput, logs: &[Rc<Log>; 2], errors_end: SimTime, bound: impl Fn(u64) -> f64, what: &str) {
    if let Err(e) = drained(out, logs) {
        panic!("{what}: {e}");
    }
    let left = logs[0].left_at_end.get() + logs[1].left_at_end.get();
    let last = logs[0].last_event.get().max(logs[1].last_event.get());
    let took = last.as_secs_f64() - errors_end.as_secs_f64();
    assert!(took <= bound(left), "{what}: drained {took:.3} s after the errors stopped, bound {:.3} s for {left} messages", bound(left));
}

fn kind_strategy() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::StopAndWait), Just(Kind::GoBackN), Just(Kind::SelectiveRepeat)]
}

/// No traffic, a saturated source, or Poisson arrivals at `load`.
fn traffic(which: u8, bits: u32, load: f64) -> String {
    match which % 3 {
        0 => NONE.to_string(),
        1 => saturated(bits),
        _ => poisson(load, bits),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    /// Losses and corruptions both ways for 20–60 s, then none: every message is
    /// delivered and acknowledged within a bounded drain.
    #[test]
    fn prop_textbook_recovers_after_errors_stop(
        kind in kind_strategy(), big in any::<bool>(), window in 0u32..200,
        timeout_factor in 1.05f64..4.0, reject in any::<bool>(), nak in any::<bool>(),
        a in 1u8..3, b in 0u8..3, bits in 50u32..4000, delay_s in 0.0f64..0.3,
        p_data in 0.0f64..0.6, p_ack in 0.0f64..0.6, burst in any::<bool>(), vanish in 0.0f64..1.0,
        errors_s in 20.0f64..60.0, seed in any::<u64>(),
    ) {
        // The longest possible exchange: a maximal frame each way plus the round trip.
        let frame_s = (bits + OVERHEAD) as f64 / RATE_BPS;
        let round = 2.0 * frame_s + 2.0 * delay_s + ACK as f64 / RATE_BPS;
        let c = config(kind, big, window, timeout_factor * round, reject, nak);
        // Poisson load: a fifth of what the window allows error free, so the queue left
        // when the errors stop is finite and drains in well under the run's remaining time.
        let load = 0.2 * (c.window as f64 * frame_s / (frame_s + 2.0 * delay_s + ACK as f64 / RATE_BPS)).min(1.0);
        let sc = scenario(delay_s, &traffic(a, bits, load), &traffic(b, bits, load));
        let errors_end = SimTime::from_secs_f64(errors_s);
        let loss = Loss { p_data, p_ack, burst, vanish };
        let (out, logs) = lossy_run(kind, &c, &sc, [loss, loss], seed, errors_end);
        prop_assume!(out.accounting[0].1.issued + out.accounting[1].1.issued > 0);
        // A few timer periods to find what was lost, then at most one round per message
        // left (in both directions) and per window, with a factor of two.
        let bound = |left: u64| 2.0 * (3.0 * (c.timeout_s + round) + (left + 2 * c.window as u64 + 2) as f64 * round);
        assert_drained(&out, &logs, errors_end, bound, &format!("{kind:?} {c:?}"));
    }
}

/// Seeds where a selective-repeat retransmission is lost (the case that once stalled
/// the link when a retransmitted frame did not restart its timer): the frames stop
/// being lost only after the retransmissions have been hit too.
#[test]
fn selective_repeat_recovers_from_lost_retransmissions() {
    let sc = scenario(0.05, &saturated(1000), NONE);
    let c = config(Kind::SelectiveRepeat, false, 3, 0.3, false, false);
    let errors_end = SimTime::from_secs_f64(30.0);
    for seed in 0..20 {
        let loss = Loss { p_data: 0.5, p_ack: 0.3, burst: false, vanish: 1.0 };
        let (out, logs) = lossy_run(Kind::SelectiveRepeat, &c, &sc, [Loss { p_data: 0.0, ..loss }, loss], seed, errors_end);
        let m = &out.flow_windows[0][0];
        assert!(m.retransmitted_timeout > 10.0, "seed {seed}: timeouts resend lost copies: {m:?}");
        assert_drained(&out, &logs, errors_end, |left| 3.0 + left as f64, &format!("seed {seed}"));
    }
}

/// Error free, long enough for many round trips: no timer ever expires and nothing is
/// sent twice, for every protocol, window and direction pattern (a timer that is not
/// restarted by acknowledgements fires in the middle of a long error-free run).
#[test]
fn error_free_runs_have_no_timeouts_and_no_retransmissions() {
    for kind in [Kind::StopAndWait, Kind::GoBackN, Kind::SelectiveRepeat] {
        for (window, big) in [(0, false), (2, false), (6, false), (126, true)] {
            for (a, b) in [(1, 0), (1, 1), (2, 1)] {
                let sc = scenario(0.05, &traffic(a, 1000, 0.1), &traffic(b, 1000, 0.1));
                // Longer than the round trip with a peer frame ahead of the ack (0.15 s).
                let c = config(kind, big, window, 0.25, true, true);
                let w = Windows::equal(SimTime::ZERO, SimTime::from_secs_f64(120.0), 1);
                let out = match kind {
                    Kind::SelectiveRepeat => run(&sc, 3, 0, &w, None, |_, _| SelectiveRepeat::new(&c)),
                    _ => run(&sc, 3, 0, &w, None, |_, _| GoBackN::new(&c)),
                }
                .unwrap_or_else(|e| panic!("{e}"));
                for d in 0..2 {
                    let m = &out.flow_windows[0][d];
                    let what = format!("{kind:?} W={} traffic {a}/{b} direction {d}: {m:?}", c.window);
                    assert_eq!(m.timeouts, 0.0, "{what}");
                    assert_eq!(m.frames_retransmitted, 0.0, "{what}");
                    assert_eq!(m.out_of_sequence_discarded, 0.0, "{what}");
                    if sc.loaded(d) {
                        assert!(m.messages_delivered > 100.0, "{what}");
                    }
                }
            }
        }
    }
}
