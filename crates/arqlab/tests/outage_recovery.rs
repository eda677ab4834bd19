//! Recovery after a link outage (`outages`, docs/models/topology.md): the two slow
//! recoveries the outage tests found are the configured protocols' behaviour, shown here
//! at the frame level and against their closed forms.
//!
//! - Selective repeat behind a relay with a fixed timeout T: once the frames of a full
//!   window W time out while queued, the sender offers W / T retransmissions per second.
//!   The relay's queue drains only while that is below the line's capacity C frames per
//!   second (load ρ = W / (T·C) < 1), and the time lost is at most outage · ρ / (1 − ρ);
//!   at ρ ≥ 1 the sender's own line is saturated with retransmissions and W no longer
//!   matters.
//! - Go-back-N with REJ and W = 7 > M/2: a REJ's N(R) always equals the sender's V(A)
//!   when it arrives (it acknowledges what the RRs before it did, on the same FIFO lane),
//!   so the sender goes back on it even when it has already sent those frames again;
//!   the copies reach the receiver as duplicates, which it cannot tell from frames beyond
//!   a gap, and the first of them draws the next REJ (a *reject storm*).

use arqlab::scenario::Scenario;
use arqlab::sim::{replicate, Replication};

/// 2,000 messages a → r → b at 48 kbit/s (C = 48,000 / 1,048 = 45.8 frames/s), l2 down
/// from 10 to 20 s (or never), selective repeat with `window` and `timeout_s`.
fn relay(window: u32, timeout_s: f64, down: bool) -> Replication {
    let outage = if down { "outages = [{ from_s = 10.0, to_s = 20.0 }]" } else { "" };
    let text = format!(
        "[run]\nduration_s = 600.0\n[stack.s]\nkind = \"selective_repeat\"\nwindow = {window}\ntimeout_s = {timeout_s}\n\
         [[relay]]\nname = \"r\"\n\
         [[medium]]\nname = \"l1\"\nends = [\"a\", \"r\"]\nrate_bps = 48000.0\ndelay_s = 0.01\n\
         [[medium]]\nname = \"l2\"\nends = [\"r\", \"b\"]\nrate_bps = 48000.0\ndelay_s = 0.01\n{outage}\n\
         [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"bulk\", messages = 2000 }}\n"
    );
    replicate(&Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}")), 1, 0).unwrap_or_else(|e| panic!("{e}"))
}

fn get(r: &Replication, scope: &str, measure: &str) -> f64 {
    r.batches[0][scope].get(measure).unwrap_or_else(|| panic!("{scope}.{measure}"))
}

const C: f64 = 48_000.0 / 1_048.0;

#[test]
fn selective_repeat_timeout_load_below_capacity_drains_the_relay_within_the_fluid_bound() {
    // For 10 s every frame of the window times out once per T and is queued again: the
    // relay holds at most 10 · W / T frames when l2 comes back, and drains them at
    // C − W / T, so the time lost beyond the outage is at most 10 ρ / (1 − ρ) seconds
    // (ρ = W / (T·C)); acknowledged frames stop being copied, so it is less, but not by
    // more than half. W = 7 → 44 (ρ = 0.15 → 0.96): 1.5 s → 120 s.
    let base = get(&relay(7, 1.0, false), "run", "completion_time_s");
    for w in [7u32, 30, 40, 44] {
        let r = relay(w, 1.0, true);
        assert_eq!(r.accounting["flow.a->b"].delivered, 2000, "W = {w}");
        assert_eq!(get(&relay(w, 1.0, false), "run", "completion_time_s"), base, "W = {w}: the line, not W, limits the clear run");
        let extra = get(&r, "run", "completion_time_s") - base - 10.0;
        let rho = f64::from(w) / C;
        let bound = 10.0 * rho / (1.0 - rho);
        assert!(extra <= bound && extra >= 0.45 * bound, "W = {w}: {extra} s lost beyond the outage, bound {bound}");
    }
}

#[test]
fn selective_repeat_timeout_load_above_capacity_saturates_the_senders_line_whatever_the_window() {
    // ρ = W / (T·C) ≥ 1: W = 48 and W = 64 (1.05 and 1.40) send exactly the same frames —
    // the sender's line, not its window, limits it — and take several times longer than
    // below the boundary; a longer timeout (T = 5 s, ρ = 0.28) recovers at once.
    let (w48, w64) = (relay(48, 1.0, true), relay(64, 1.0, true));
    let sent = |r: &Replication| get(r, "flow.a->b", "frames_sent");
    assert_eq!(sent(&w48), sent(&w64));
    assert_eq!(get(&w48, "flow.a->b", "timeouts"), get(&w64, "flow.a->b", "timeouts"));
    let below = get(&relay(30, 1.0, true), "run", "completion_time_s");
    assert!(get(&w64, "run", "completion_time_s") > 4.0 * below, "{} vs {below}", get(&w64, "run", "completion_time_s"));
    let slow_timer = relay(64, 5.0, true);
    let base = get(&relay(64, 5.0, false), "run", "completion_time_s");
    assert!(get(&slow_timer, "run", "completion_time_s") < base + 10.0 + 5.0, "{}", get(&slow_timer, "run", "completion_time_s"));
}

/// 2,000 messages over one 48 kbit/s link (t_p = 50 ms) down from 10 to 20 s, go-back-N
/// with `window`, REJ on.
fn gbn(window: u32) -> Replication {
    let text = format!(
        "[run]\nduration_s = 3600.0\n[stack.s]\nkind = \"go_back_n\"\nwindow = {window}\n\
         [[medium]]\nname = \"line\"\nends = [\"a\", \"b\"]\nrate_bps = 48000.0\ndelay_s = 0.05\noutages = [{{ from_s = 10.0, to_s = 20.0 }}]\n\
         [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"bulk\", messages = 2000 }}\n"
    );
    replicate(&Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}")), 1, 0).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn go_back_n_reject_storm_costs_exactly_its_duplicates_one_pipe_half_per_rej() {
    let r = gbn(7);
    let f = |m: &str| get(&r, "flow.a->b", m);
    assert_eq!(r.accounting["flow.a->b"].delivered, 2000);
    // Every frame a REJ sent again was already at (or on its way to) the receiver: each
    // is discarded there as out of sequence — the storm's REJs ask for nothing missing.
    let (rej_resent, discarded) = (f("retransmitted_reject"), f("out_of_sequence_discarded"));
    assert!(f("rejects_sent") > 100.0 && rej_resent > 1000.0, "{rej_resent}");
    assert!((discarded - rej_resent).abs() <= 7.0, "{discarded} vs {rej_resent}");
    // The line never idles outside the outage: completion = every frame sent × t_f
    // + the 10 s outage (+ the last frame's propagation and acknowledgement).
    let t_f = 1048.0 / 48_000.0;
    let done = get(&r, "run", "completion_time_s");
    let busy = f("frames_sent") * t_f + 10.0;
    assert!(done >= busy && done < busy + 0.3, "completion {done} vs line busy {busy}");
    // Per REJ the sender resends the new frames of one round trip, half the frames the
    // line carries in (2 t_p + t_ack + t_f) while it alternates copies and new frames.
    let per_rej = (2.0 * 0.05 + 48.0 / 48_000.0 + t_f) / (2.0 * t_f);
    let measured = rej_resent / f("rejects_sent");
    assert!((measured / per_rej - 1.0).abs() < 0.15, "{measured} resent per REJ vs {per_rej}");
    // The storm needs a first duplicate: with W = 3 the timeout's go-back after the
    // outage resends no frame the receiver already has, so no REJ is ever drawn.
    let w3 = gbn(3);
    assert_eq!(get(&w3, "flow.a->b", "out_of_sequence_discarded"), 0.0);
    assert_eq!(get(&w3, "flow.a->b", "rejects_sent"), 0.0);
}
