//! The retransmission timer of 4.2BSD TCP (1983, the CSRG sources of the 4.2
//! distribution: `tcp_timer.c`, `tcp_input.c`, `tcp_output.c` 6.1 of 83/07/29), the TCP
//! of Comer & Korb's measurements. Time is counted in 500 ms ticks of a free-running
//! clock (`PR_SLOWHZ` = 2) and a timer expires on a tick, not at an exact time.
//!
//! - SRTT (`t_srtt`) starts at 0 ("no idea yet"): the first RTO is β·0 clamped to
//!   `TCPTV_MIN`, 1 s.
//! - `tcp_output` never starts timing a segment: its test "not a retransmission"
//!   (`SEQ_GT(snd_nxt, snd_max)`) runs after `snd_max` has been advanced to `snd_nxt`,
//!   so it never holds. Only `tcp_input` starts the round-trip count (`t_rtt = 1`), on
//!   an ACK that advances SND.UNA and leaves data outstanding; `t_rtseq` is never set, so
//!   the next advancing ACK ends the count. A sample is the number of ticks seen
//!   between two advancing ACKs, counting from 1; a sender that never has data
//!   outstanding after an ACK (one segment at a time) never samples.
//! - The first sample replaces SRTT outright (`if (t_srtt == 0) t_srtt = t_rtt`); later
//!   ones are smoothed, SRTT = α·SRTT + (1 − α)·RTT with α = 0.9.
//! - The RTO set by a send with no timer running, or by an advancing ACK, is β·SRTT with
//!   β = 2, truncated to whole ticks and clamped to [`TCPTV_MIN`, `TCPTV_MAX`] = [1 s,
//!   30 s]; the ACK also resets the back-off (`t_rxtshift = 0`).
//! - On the n-th expiry in a row the timer is set to SRTT (not β·SRTT) clamped, times
//!   `tcp_backoff[n − 1]` = 1, 1.2, 1.4, 1.7, 2, 3, 5, 8, 16, 32, truncated and clamped
//!   again. 4.2BSD drops the connection at the 11th expiry; here the last factor stays.
//! - No variance term, no Karn rule: a timing that runs across a timeout ends at the
//!   next advancing ACK and includes the timeout.

use crate::engine::{Duration, SimTime};

/// 500 ms: `PR_SLOWHZ` = 2 ticks per second.
pub const TICK: Duration = Duration(500_000_000_000);
/// SRTT smoothing gain (`TCP_ALPHA`). 4.2BSD's `tcp_alpha`, `t_srtt` and `tcp_backoff[]`
/// are C `float`s, stored in single precision and computed in double (K&R C), as here:
/// 10 ticks × 1.4 is 13.99… and truncates to 13.
pub const ALPHA: f32 = 0.9;
/// RTO = β·SRTT (`TCP_BETA`).
pub const BETA: f64 = 2.0;
/// `tcp_backoff[]`: the multiplier of SRTT at the 1st, 2nd, … expiry in a row.
pub const BACKOFF: [f32; 10] = [1.0, 1.2, 1.4, 1.7, 2.0, 3.0, 5.0, 8.0, 16.0, 32.0];

#[derive(Clone, Debug, PartialEq)]
pub struct Bsd42Timer {
    /// `t_srtt` in ticks (a C `float`); 0 until the first sample.
    srtt_ticks: f32,
    /// The SRTT the RTO rules use while `t_srtt` is 0: 0 in 4.2BSD (so the RTO is
    /// `TCPTV_MIN`); a sensitivity may assume another (4.3BSD's `TCPTV_SRTTDFLT`, 3 s).
    unmeasured_srtt_ticks: f64,
    min_ticks: u64,
    max_ticks: u64,
    /// `t_rxtshift`: expiries in a row since the timer was last set afresh.
    shift: usize,
    /// TICK − the clock's phase (mod TICK), picoseconds: the ticks fall at
    /// phase + k × TICK. 0 for phase 0 (ticks on whole half-seconds).
    offset: u64,
}

fn tick_s() -> f64 {
    TICK.0 as f64 * 1e-12
}

impl Bsd42Timer {
    /// `unmeasured_rto_s`: the RTO before any sample (β × the SRTT assumed meanwhile); 4.2BSD
    /// computes `TCPTV_MIN` (1 s), and any value at or below it behaves exactly so.
    pub fn new(unmeasured_rto_s: f64, min_s: f64, max_s: f64) -> Self {
        Bsd42Timer {
            srtt_ticks: 0.0,
            unmeasured_srtt_ticks: unmeasured_rto_s / BETA / tick_s(),
            min_ticks: (min_s / tick_s()).round().max(1.0) as u64,
            max_ticks: (max_s / tick_s()).round().max(1.0) as u64,
            shift: 0,
            offset: 0,
        }
    }

    /// The clock's ticks fall at `phase_s` + k × 500 ms (`phase_s` in [0, 0.5)); 0 leaves
    /// them on whole half-seconds, bit for bit the timer without a phase.
    pub fn with_phase(mut self, phase_s: f64) -> Self {
        let phase = SimTime::from_secs_f64(phase_s).0 % TICK.0;
        self.offset = (TICK.0 - phase) % TICK.0;
        self
    }

    /// Ticks of the free-running clock by time `t` (counted from a tick at or before 0).
    fn ticks(&self, t: SimTime) -> u64 {
        (t.0 + self.offset) / TICK.0
    }

    /// The round trip counted from `started` (t_rtt = 1) and ended at `now`.
    pub fn sample(&mut self, started: SimTime, now: SimTime) {
        let rtt = (1 + self.ticks(now) - self.ticks(started)) as f64;
        let (a, s) = (f64::from(ALPHA), f64::from(self.srtt_ticks));
        self.srtt_ticks = if self.srtt_ticks == 0.0 { rtt as f32 } else { (a * s + (1.0 - a) * rtt) as f32 };
    }

    fn srtt_for_rto(&self) -> f64 {
        if self.srtt_ticks == 0.0 {
            self.unmeasured_srtt_ticks
        } else {
            f64::from(self.srtt_ticks)
        }
    }

    /// `TCPT_RANGESET` into a `short` timer: truncated to whole ticks, then clamped.
    fn rangeset(&self, v: f64) -> u64 {
        (v as u64).clamp(self.min_ticks, self.max_ticks)
    }

    /// The RTO in ticks: β·SRTT when set afresh; after n expiries in a row SRTT ×
    /// `tcp_backoff[n − 1]`.
    pub fn rto_ticks(&self) -> u64 {
        let s = self.srtt_for_rto();
        match self.shift {
            0 => self.rangeset(BETA * s),
            n => self.rangeset(self.rangeset(s) as f64 * f64::from(BACKOFF[n.min(BACKOFF.len()) - 1])),
        }
    }

    /// The timer set at `now` expires on the RTO-th tick after it.
    pub fn deadline(&self, now: SimTime) -> SimTime {
        SimTime((self.ticks(now) + self.rto_ticks()) * TICK.0 - self.offset)
    }

    /// An ACK advanced SND.UNA: the timer restarts without back-off (`t_rxtshift = 0`;
    /// with nothing outstanding the next send sets it afresh, also with 0).
    pub fn ack_advanced(&mut self) {
        self.shift = 0;
    }

    pub fn expired(&mut self) {
        self.shift += 1;
    }

    /// SRTT in seconds (0 before the first sample).
    pub fn srtt_s(&self) -> f64 {
        f64::from(self.srtt_ticks) * tick_s()
    }

    pub fn rto_s(&self) -> f64 {
        self.rto_ticks() as f64 * tick_s()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: f64) -> SimTime {
        SimTime::from_secs_f64(s)
    }

    fn bsd42() -> Bsd42Timer {
        Bsd42Timer::new(1.0, 1.0, 30.0)
    }

    /// 4.2BSD: t_srtt = 0, so the first RTO is β·0 clamped to TCPTV_MIN = 2 ticks, and it
    /// expires on the second tick after it is set.
    #[test]
    fn test_bsd42_first_rto_is_tcptv_min_on_the_tick() {
        let b = bsd42();
        assert_eq!((b.rto_ticks(), b.srtt_s()), (2, 0.0));
        assert_eq!(b.deadline(t(0.0)), t(1.0));
        assert_eq!(b.deadline(t(0.3)), t(1.0), "set between ticks: the 2nd tick after, not 1 s after");
        assert_eq!(b.deadline(t(0.5)), t(1.5));
        // Any assumed unmeasured RTO at or below TCPTV_MIN is 4.2BSD's; 6 s is 4.3BSD's β × 3 s.
        assert_eq!(Bsd42Timer::new(0.5, 1.0, 30.0), Bsd42Timer { unmeasured_srtt_ticks: 0.5, ..bsd42() });
        assert_eq!(Bsd42Timer::new(0.5, 1.0, 30.0).rto_ticks(), 2);
        assert_eq!(Bsd42Timer::new(6.0, 1.0, 30.0).rto_ticks(), 12);
    }

    /// `if (t_srtt == 0) t_srtt = t_rtt`: the first sample replaces SRTT; the next is
    /// smoothed with α = 0.9. The round trip counts ticks from 1.
    #[test]
    fn test_bsd42_first_sample_replaces_srtt_then_alpha_0_9() {
        let mut b = bsd42();
        b.sample(t(0.1), t(0.7));
        assert_eq!(b.srtt_ticks, 2.0, "0.1 → 0.7 crosses one tick: 2 ticks, taken as SRTT");
        assert_eq!(b.rto_ticks(), 4, "β·SRTT");
        b.sample(t(0.6), t(0.9));
        let a = f64::from(0.9f32);
        assert_eq!(b.srtt_ticks, (a * 2.0 + (1.0 - a) * 1.0) as f32, "0.6 → 0.9 crosses none: 1 tick");
        assert!((b.srtt_s() - 0.5 * 1.9).abs() < 1e-6);
        // ⌊2 × 1.9⌋ = 3 ticks: truncated into the short timer.
        assert_eq!(b.rto_ticks(), 3);
    }

    /// The clock's phase moves every tick boundary: with phase 0.2 s the ticks fall at
    /// 0.2, 0.7, 1.2, … s, so a timer of 2 ticks set at 0.3 s expires at 1.2 s (not 1.0 s),
    /// one set at 0.1 s at 0.7 s; a round trip from 0.1 to 0.25 s crosses the tick at 0.2 s.
    /// Phase 0 is the timer without a phase, bit for bit.
    #[test]
    fn test_bsd42_tick_boundary_moves_with_the_phase() {
        let b = bsd42().with_phase(0.2);
        assert_eq!(b.deadline(t(0.3)), t(1.2));
        assert_eq!(b.deadline(t(0.1)), t(0.7));
        assert_eq!(b.deadline(t(0.2)), t(1.2), "set on a tick: the 2nd tick after");
        assert_eq!(b.deadline(t(0.19)), t(0.7));
        assert_eq!(bsd42().deadline(t(0.3)), t(1.0), "phase 0: whole half-seconds");
        assert_eq!(bsd42().with_phase(0.0), bsd42());
        let mut c = bsd42().with_phase(0.2);
        c.sample(t(0.1), t(0.25));
        assert_eq!(c.srtt_ticks, 2.0, "0.1 → 0.25 crosses the tick at 0.2: 2 ticks");
        let mut d = bsd42();
        d.sample(t(0.1), t(0.25));
        assert_eq!(d.srtt_ticks, 1.0, "phase 0: no tick between 0.1 and 0.25");
        // Just below a full tick of phase: the ticks fall at 0.499…, 0.999…
        assert_eq!(bsd42().with_phase(0.4999).deadline(t(0.0)), t(0.9999));
    }

    /// On the n-th expiry in a row the timer is SRTT (not β·SRTT) × tcp_backoff[n − 1],
    /// truncated and clamped to [TCPTV_MIN, TCPTV_MAX].
    #[test]
    fn test_bsd42_backoff_sequence_is_srtt_times_tcp_backoff() {
        let mut b = bsd42();
        b.sample(t(0.0), t(4.9)); // 10 ticks: SRTT = 5 s
        assert_eq!(b.rto_ticks(), 20, "β·SRTT = 10 s");
        let mut seq = vec![];
        for _ in 0..12 {
            b.expired();
            seq.push(b.rto_ticks());
        }
        // 10 × {1, 1.2, 1.4, 1.7, 2, 3, 5, 8, 16, 32} ticks, at most 60 (30 s); 1.4 as a
        // float is 1.39999998, so 10 × 1.4 truncates to 13.
        assert_eq!(seq, vec![10, 12, 13, 17, 20, 30, 50, 60, 60, 60, 60, 60]);
        b.ack_advanced();
        assert_eq!(b.rto_ticks(), 20, "an advancing ACK: β·SRTT, no back-off");
        // Before any sample (SRTT 0): SRTT clamps to TCPTV_MIN, 2 ticks, then × the factors.
        let mut c = bsd42();
        let seq: Vec<u64> = (0..10)
            .map(|_| {
                c.expired();
                c.rto_ticks()
            })
            .collect();
        assert_eq!(seq, vec![2, 2, 2, 3, 4, 6, 10, 16, 32, 60]);
    }
}
