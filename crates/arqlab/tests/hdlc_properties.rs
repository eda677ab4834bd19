//! HDLC stations driven by the simulation runner, which checks exactly-once in-order
//! delivery and counter balance itself (a violation is a `SimError`). The scenario's
//! `[protocol]` is a textbook kind only because the lead wires `kind = "hdlc"` later; the
//! entities come from the maker closure.
//!
//! `prop_hdlc_recovers_after_errors_stop`: random losses and corruptions both ways
//! (acknowledgements, polls and rejects included) for a while, then a bounded error-free
//! drain after which every message is delivered and acknowledged (the liveness pattern
//! of `textbook_liveness.rs`, through the real runner).
//! `prop_hdlc_new_options_recover_after_errors_stop`: the same with NRM's
//! `poll = "supervisory"` and ABM/ARM's `timer_recovery = "lapb"` (64 cases, a few
//! seconds; the 256 cases above cover the other options).

mod common;

use arqlab::engine::SimTime;
use arqlab::protocol::hdlc::{HdlcConfig, HdlcStation, Mode, Poll, Reject, SecondaryT1Action, T1Action};
use arqlab::protocol::{Counters, Event, Frame, Grant, Layer, Sdu, Service};
use arqlab::scenario::Scenario;
use arqlab::sim::runner::{run, RunOutput, Windows};

fn scenario(link: &str, a: &str, b: &str, duration_s: f64) -> Scenario {
    let text = format!(
        r#"
[run]
duration_s = {duration_s}
warmup_s = 10.0
[link]
rate_bps = 48000.0
delay_s = 0.05
{link}
[protocol]
kind = "go_back_n"
[traffic.a]
{a}
[traffic.b]
{b}
"#
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn saturated(bits: u32) -> String {
    format!("kind = \"saturated\"\nlength = {{ dist = \"constant\", mean_bits = {bits} }}")
}

const NONE: &str = "kind = \"none\"";

fn simulate(sc: &Scenario, c: &HdlcConfig, seed: u64) -> RunOutput {
    let end = SimTime::from_secs_f64(sc.run.duration_s);
    let w = Windows::equal(SimTime::from_secs_f64(10.0), end, 1);
    run(sc, seed, 0, &w, None, |_, s| HdlcStation::new(c, s))
        .unwrap_or_else(|e| panic!("{c:?}: {e}"))
}

/// NRM, ABM and ARM at moduli 8 and 128 with REJ, and with SREJ (window M/2, three
/// frames of receive buffer).
fn every_mode_modulus_and_reject() -> Vec<HdlcConfig> {
    let mut out = vec![];
    for mode in [Mode::Nrm, Mode::Abm, Mode::Arm] {
        for modulus in [8, 128] {
            for reject in [Reject::Rej, Reject::Srej] {
                let mut c = HdlcConfig::defaults(mode, modulus);
                c.reject = reject;
                if reject == Reject::Srej {
                    c.window = modulus / 2;
                    c.receive_buffer_frames = 3;
                }
                out.push(c);
            }
        }
    }
    out
}

#[test]
fn runner_accepts_every_mode_modulus_and_reject_under_heavy_errors() {
    let links = [
        "bit_error_rate = 2e-4",
        "[link.a_to_b]\nerror_model = \"gilbert_elliott\"\ngood_ber = 1e-6\nbad_ber = 0.01\nmean_good_bits = 50000\nmean_bad_bits = 2000\n[link.b_to_a]\nerror_model = \"gilbert_elliott\"\ngood_ber = 1e-6\nbad_ber = 0.01\nmean_good_bits = 50000\nmean_bad_bits = 2000",
    ];
    let mut seed = 1;
    for link in links {
        for (a, b) in [
            (saturated(1000), NONE.to_string()),
            (NONE.to_string(), saturated(1000)),
            (saturated(2000), saturated(500)),
        ] {
            let sc = scenario(link, &a, &b, 120.0);
            for c in every_mode_modulus_and_reject() {
                seed += 1;
                let out = simulate(&sc, &c, seed);
                let delivered: u64 = out.accounting.iter().map(|x| x.1.delivered).sum();
                assert!(delivered > 100, "{c:?}: only {delivered} delivered");
            }
        }
    }
}

/// Throughput efficiency of `dir` (0 = a→b, 1 = b→a) and the sender's retransmissions
/// by (reject, checkpoint, timeout).
fn measure(sc: &Scenario, c: &HdlcConfig, dir: usize) -> (f64, [f64; 3]) {
    let out = simulate(sc, c, 7);
    let m = &out.flow_windows[0][dir];
    (
        m.throughput_efficiency,
        [
            m.retransmitted_reject,
            m.retransmitted_checkpoint,
            m.retransmitted_timeout,
        ],
    )
}

/// Fig. 3's mechanism, 48 kbit/s, t_p = 50 ms, p_bit = 1e-5, 5000-bit messages, one-way
/// flow secondary → primary: with modulus 128 a failed REJ recovery waits until the
/// secondary has 127 frames outstanding and is polled, so modulus 128 loses to modulus
/// 8, by checkpoint retransmissions; ABM recovers by the timer and does not collapse.
#[test]
fn nrm_secondary_to_primary_modulus_128_collapses_for_long_messages() {
    let sc = scenario("bit_error_rate = 1e-5", NONE, &saturated(5000), 1500.0);
    let (nrm8, r8) = measure(&sc, &HdlcConfig::defaults(Mode::Nrm, 8), 1);
    let (nrm128, r128) = measure(&sc, &HdlcConfig::defaults(Mode::Nrm, 128), 1);
    let (abm8, _) = measure(&sc, &HdlcConfig::defaults(Mode::Abm, 8), 1);
    let (abm128, a128) = measure(&sc, &HdlcConfig::defaults(Mode::Abm, 128), 1);
    eprintln!("NRM s→p mod 8 {nrm8:.3} {r8:?} mod 128 {nrm128:.3} {r128:?}; ABM mod 8 {abm8:.3} mod 128 {abm128:.3} {a128:?}");
    assert!(
        nrm128 < 0.9 * nrm8,
        "NRM s→p: modulus 128 {nrm128} should lose to modulus 8 {nrm8}"
    );
    assert!(
        r128[1] > 2.0 * r8[1],
        "recovered by checkpoint after 127 frames: {r128:?} vs {r8:?}"
    );
    assert!(
        abm128 > nrm128 * 1.2,
        "ABM {abm128} recovers by timeout, NRM {nrm128} does not"
    );
    assert!(
        abm128 >= abm8 * 0.97,
        "ABM does not collapse: {abm128} vs {abm8}"
    );
}

/// Fig. 2, right of the optimum (long messages, p_bit = 1e-5): in NRM primary → secondary
/// a REJ never acts alone — the secondary can send it only in its F response, so every
/// recovery is a checkpoint or a timeout; secondary → primary and ABM recover by REJ.
#[test]
fn nrm_primary_to_secondary_recovers_by_checkpoint_others_by_rej() {
    let sc_ps = scenario("bit_error_rate = 1e-5", &saturated(8000), NONE, 1000.0);
    let sc_sp = scenario("bit_error_rate = 1e-5", NONE, &saturated(8000), 1000.0);
    let (ps, r_ps) = measure(&sc_ps, &HdlcConfig::defaults(Mode::Nrm, 8), 0);
    let (sp, r_sp) = measure(&sc_sp, &HdlcConfig::defaults(Mode::Nrm, 8), 1);
    let (abm, r_abm) = measure(&sc_ps, &HdlcConfig::defaults(Mode::Abm, 8), 0);
    eprintln!("p→s {ps:.3} {r_ps:?}; s→p {sp:.3} {r_sp:?}; ABM {abm:.3} {r_abm:?}");
    assert!(
        r_ps[0] == 0.0 && r_ps[1] > 0.0,
        "p→s: checkpoint and timeout only {r_ps:?}"
    );
    assert!(r_sp[0] > r_sp[1], "s→p: REJ dominates {r_sp:?}");
    assert!(
        r_abm[0] > r_abm[1] + r_abm[2],
        "ABM: REJ dominates {r_abm:?}"
    );
}

fn poisson(load: f64, bits: u32) -> String {
    format!(
        "kind = \"poisson\"\nload = {load}\nlength = {{ dist = \"constant\", mean_bits = {bits} }}"
    )
}

/// The Fig. 9 link (800-bit messages, p_bit = 1e-5, Poisson load 0.7 both ways, T1 by
/// the study's rule). A REJ answers a sequence gap, and without duplicates a gap needs
/// a lost frame, so REJs never outnumber frames in error. A station that resends frames
/// the peer already has breaks this: every duplicate is a sequence error, draws a REJ,
/// the REJ a go-back and more duplicates — a cycle that needs no further error and once
/// held this link at half its throughput for a minute (seed 1, replication 8).
#[test]
fn rejects_are_explained_by_frames_in_error() {
    let sc = scenario(
        "bit_error_rate = 1e-5",
        &poisson(0.7, 800),
        &poisson(0.7, 800),
        1000.0,
    );
    let w = Windows::equal(SimTime::ZERO, SimTime::from_secs_f64(1000.0), 1);
    for mode in [Mode::Abm, Mode::Nrm] {
        let mut c = HdlcConfig::defaults(mode, 8);
        c.t1_s = 0.2045;
        for replication in [8, 0, 1, 2] {
            let out = run(&sc, 1, replication, &w, None, |_, s| HdlcStation::new(&c, s))
                .unwrap_or_else(|e| panic!("{e}"));
            let [ab, ba] = &out.flow_windows[0][..] else { panic!("two flows") };
            let rejects = ab.rejects_sent + ba.rejects_sent;
            let errors = ab.frames_in_error + ba.frames_in_error;
            assert!(
                rejects <= errors,
                "{mode:?} replication {replication}: {rejects} REJs for {errors} frames in error"
            );
        }
    }
}

/// A configuration from raw draws: every mode, modulus, reject kind and alternative
/// strategy (one bit each), as in the unit-level harness of `protocol/hdlc/tests.rs`.
#[allow(clippy::too_many_arguments)]
fn hdlc_config(mode: u8, big: bool, reject: u8, window: u32, alt: u8, t1_s: f64, buffer: u32) -> HdlcConfig {
    let mode = [Mode::Nrm, Mode::Abm, Mode::Arm][mode as usize % 3];
    let modulus = if big { 128 } else { 8 };
    let mut c = HdlcConfig::defaults(mode, modulus);
    c.reject = [Reject::Rej, Reject::Srej, Reject::None][reject as usize % 3];
    let limit = if c.reject == Reject::Srej { modulus / 2 } else { modulus - 1 };
    c.window = 1 + window % limit;
    c.t1_s = t1_s;
    if c.reject == Reject::Srej {
        c.receive_buffer_frames = buffer % (c.window + 1);
    }
    if alt & 1 != 0 {
        c.t1_action = T1Action::GoBack;
    }
    if alt & 2 != 0 {
        c.poll = if mode == Mode::Nrm { Poll::Idle } else { Poll::Asap };
    }
    if alt & 4 != 0 {
        c.withhold_ack_at_window = c.withhold_ack_at_window.map(|_| false);
        c.secondary_t1_action = c.secondary_t1_action.map(|_| SecondaryT1Action::GoBack);
    }
    if alt & 8 != 0 {
        c.t2_s = t1_s / 4.0;
    }
    if c.reject == Reject::None && mode == Mode::Arm {
        c.secondary_t1_action = Some(SecondaryT1Action::GoBack);
    }
    c
}

mod liveness {
    use super::common::{self, lossy, Log, Loss};
    use super::*;
    use arqlab::protocol::hdlc::TimerRecovery;
    use proptest::prelude::*;
    use proptest::test_runner::TestCaseError;
    use std::rc::Rc;

    /// The link, traffic and loss drawn for one case (the configuration is drawn apart).
    #[derive(Debug)]
    struct Draws {
        a: u8,
        b: u8,
        bits: u32,
        delay_s: f64,
        loss: Loss,
        errors_s: f64,
        seed: u64,
    }

    fn draws() -> impl Strategy<Value = Draws> {
        (
            0u8..3, 0u8..3, 50u32..4000, 0.0f64..0.3,
            (0.0f64..0.5, 0.0f64..0.5, any::<bool>(), 0.0f64..1.0),
            20.0f64..50.0, any::<u64>(),
        )
            .prop_map(|(a, b, bits, delay_s, (p_data, p_ack, burst, vanish), errors_s, seed)| Draws {
                a, b, bits, delay_s, loss: Loss { p_data, p_ack, burst, vanish }, errors_s, seed,
            })
    }

    /// T1 above a frame each way plus the round trip, as a real configuration would be.
    fn round_s(d: &Draws) -> f64 {
        let frame_s = (d.bits as f64 + 56.0) / 48_000.0;
        2.0 * frame_s + 2.0 * d.delay_s + 0.01
    }

    /// Random losses and corruptions both ways until `errors_s`, then an error-free drain:
    /// every message delivered exactly once in order (the runner checks order and
    /// duplicates itself), every one acknowledged, and the drain within its bound.
    fn recovers_after_errors_stop(c: &HdlcConfig, d: &Draws) -> Result<(), TestCaseError> {
        let frame_s = (d.bits as f64 + 56.0) / 48_000.0;
        let round = round_s(d);
        let load = 0.2 * (c.window as f64 * frame_s / (frame_s + 2.0 * d.delay_s)).min(1.0);
        let traffic = |k: u8| match k % 3 {
            0 => common::NONE.to_string(),
            1 => common::saturated(d.bits),
            _ => common::poisson(load, d.bits),
        };
        let (ta, tb) = if d.a % 3 == 0 && d.b % 3 == 0 { (traffic(1), traffic(0)) } else { (traffic(d.a), traffic(d.b)) };
        let sc = common::scenario(d.delay_s, &ta, &tb);
        let errors_end = SimTime::from_secs_f64(d.errors_s);
        let logs = [Rc::new(Log::default()), Rc::new(Log::default())];
        let end = SimTime::from_secs_f64(d.errors_s + 3000.0);
        let w = Windows::equal(SimTime::ZERO, end, 1);
        let seed = d.seed;
        let out = run(&sc, seed, 0, &w, None, |_, s| {
            let i = s.index();
            lossy(HdlcStation::new(c, s), d.loss, seed ^ (i as u64 + 1) * 0x5851_f42d, errors_end, logs[i].clone())
        })
        .unwrap_or_else(|e| panic!("{c:?}: {e}"));
        common::drained(&out, &logs).map_err(|e| TestCaseError::fail(format!("{c:?}: {e}")))?;
        // A few timer periods, then at most one round per message and window left;
        // A2's literal ARM rule may cost a T1 per outstanding frame.
        let left = logs[0].left_at_end.get() + logs[1].left_at_end.get();
        let mut bound = 2.0 * (10.0 * (c.t1_s + c.t2_s) + (left + 2 * c.window as u64 + 2) as f64 * round);
        if c.secondary_t1_action == Some(SecondaryT1Action::Oldest) {
            bound += 2.0 * c.window as f64 * (c.t1_s + c.t2_s + round);
            if c.reject == Reject::Srej && c.receive_buffer_frames > 0 && c.receive_buffer_frames < c.window {
                // A receive buffer smaller than the window can stall on a spent SREJ
                // for good (docs/guide/testing.md): whenever the busy condition ends, the
                // secondary's queued single retransmissions and new frames — all beyond a
                // gap whose one SREJ each was already used — refill the buffer, and the
                // gap frames are discarded again. Only the secondary's T1 then recovers
                // them, the frame at V(A) once per T1 + T2 + round (retransmit, RNR/RR
                // back, timer restarted), which the busy receiver always accepts: at
                // worst one period per message left and per frame outstanding.
                bound += 2.0 * (left + 2 * c.window as u64 + 2) as f64 * (c.t1_s + c.t2_s + round);
            }
        }
        let last = logs[0].last_event.get().max(logs[1].last_event.get());
        let took = last.as_secs_f64() - d.errors_s;
        prop_assert!(took <= bound, "{:?}: drained {:.3} s after the errors stopped, bound {:.3} s for {} messages", c, took, bound, left);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

        #[test]
        fn prop_hdlc_recovers_after_errors_stop(
            mode in 0u8..3, big in any::<bool>(), reject in 0u8..3, window in 0u32..200,
            alt in 0u8..16, t1_factor in 1.1f64..4.0, buffer in 0u32..8, d in draws(),
        ) {
            let c = hdlc_config(mode, big, reject, window, alt, t1_factor * round_s(&d), buffer);
            recovers_after_errors_stop(&c, &d)?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

        /// The issue-14 options under the same losses: NRM with the poll on a supervisory
        /// command ahead of the I frames (`poll = "supervisory"`), ABM and ARM with the
        /// LAPB timer-recovery condition (`timer_recovery = "lapb"`), each with every other
        /// strategy bit of `hdlc_config`.
        #[test]
        fn prop_hdlc_new_options_recover_after_errors_stop(
            mode in 0u8..3, big in any::<bool>(), reject in 0u8..3, window in 0u32..200,
            alt in 0u8..16, t1_factor in 1.1f64..4.0, buffer in 0u32..8, d in draws(),
        ) {
            let mut c = hdlc_config(mode, big, reject, window, alt, t1_factor * round_s(&d), buffer);
            if c.mode == Mode::Nrm {
                c.poll = Poll::Supervisory;
            } else {
                c.timer_recovery = Some(TimerRecovery::Lapb);
            }
            recovers_after_errors_stop(&c, &d)?;
        }
    }
}

/// The station with `Layer::wants_transmit` left at its default (always true): the
/// runner wakes it every time its line frees, as before the station answered the
/// question itself.
struct EveryWake(HdlcStation);

impl Layer for EveryWake {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = Sdu;
    type Pdu = Frame;
    fn service(&self) -> Service {
        self.0.service()
    }
    fn handle_submit(&mut self, now: SimTime, msg: Sdu) {
        self.0.handle_submit(now, msg)
    }
    fn handle_receive(&mut self, now: SimTime, f: &Frame) {
        self.0.handle_receive(now, f)
    }
    fn handle_receive_in_error(&mut self, now: SimTime, f: &Frame) {
        self.0.handle_receive_in_error(now, f)
    }
    fn handle_timeout(&mut self, now: SimTime) {
        self.0.handle_timeout(now)
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame> {
        self.0.poll_transmit(now, grant)
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        self.0.poll_timeout()
    }
    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.0.poll_event()
    }
    fn backlog(&self) -> usize {
        self.0.backlog()
    }
    fn unacknowledged(&self) -> usize {
        self.0.unacknowledged()
    }
    fn counters(&self) -> Counters {
        self.0.counters()
    }
    fn receive_buffer_bits(&self) -> u64 {
        self.0.receive_buffer_bits()
    }
}

/// `Layer::wants_transmit`: the runner wakes a station when its line frees only if the
/// station says a frame could go; a skipped wake-up is one that would have sent nothing
/// and changed nothing. Every mode, both moduli, REJ and SREJ, Poisson traffic both ways
/// (idle spells) on a noisy line: every measure of every window and the accounting equal
/// those of the station woken every time; only the event count falls, and does fall.
#[test]
fn wants_transmit_skips_only_wake_ups_that_send_nothing() {
    let poisson = |load: f64, bits: u32| format!("kind = \"poisson\"\nload = {load}\nlength = {{ dist = \"constant\", mean_bits = {bits} }}");
    let sc = scenario("bit_error_rate = 1e-4", &poisson(0.5, 1000), &poisson(0.3, 600), 200.0);
    let w = Windows::equal(SimTime::from_secs_f64(10.0), SimTime::from_secs_f64(200.0), 4);
    for c in every_mode_modulus_and_reject() {
        let asked = run(&sc, 3, 0, &w, None, |_, s| HdlcStation::new(&c, s)).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        let every = run(&sc, 3, 0, &w, None, |_, s| EveryWake(HdlcStation::new(&c, s))).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        let what = |o: &RunOutput| format!("{:?} {:?} {:?} {:?}", o.windows, o.flow_windows, o.accounting, o.simulated);
        assert_eq!(what(&asked), what(&every), "{c:?}: a skipped wake-up changed a measure");
        assert!(asked.events < every.events, "{c:?}: {} events, woken every time {}", asked.events, every.events);
    }
}
