//! The retransmission timer of 4.2BSD TCP (1983), the TCP of Comer & Korb's
//! measurements: time is counted in 500 ms ticks of a free-running clock
//! (`PR_SLOWHZ` = 2); the round trip of one timed segment is the number of ticks seen
//! while it was outstanding, counting from 1; SRTT = α·SRTT + (1 − α)·RTT with α = 0.9,
//! starting from a default SRTT of 3 s (`TCPTV_SRTTDFLT`), so the first RTO is 6 s;
//! RTO = β·SRTT with β = 2 in whole ticks, clamped to [1 s, 30 s] (`TCPTV_MIN`,
//! `TCPTV_MAX`), doubled on each expiry; the timer expires on a tick, not at an exact
//! time. There is no variance term and no Karn rule: a segment sent again stays timed
//! from its first transmission, so the sample after a timeout includes the timeout.
//! 4.2BSD's `tcp_input` also restarts the timing (`t_rtt = 1`, `t_rtseq` kept) and the
//! back-off (`t_rxtshift = 0`) on every ACK that advances SND.UNA with data still
//! outstanding, so after the first sample of a window each sample measures the time
//! from the previous advancing ACK, not the round trip of one segment.

use crate::engine::{Duration, SimTime};

/// 500 ms: `PR_SLOWHZ` = 2 ticks per second.
pub const TICK: Duration = Duration(500_000_000_000);
/// SRTT smoothing gain (4.2BSD's `tcp_alpha`).
pub const ALPHA: f64 = 0.9;
/// RTO = β·SRTT (`tcp_beta`).
pub const BETA: f64 = 2.0;

#[derive(Clone, Debug, PartialEq)]
pub struct Bsd42Timer {
    /// SRTT in ticks (a float, as in 4.2BSD's `t_srtt`).
    srtt_ticks: f64,
    min_ticks: u64,
    max_ticks: u64,
    /// Consecutive expiries since the last sample.
    backoff: u32,
}

/// Ticks of the free-running clock by time `t`.
fn ticks(t: SimTime) -> u64 {
    t.0 / TICK.0
}

impl Bsd42Timer {
    /// `initial_rto_s` = β × the default SRTT (6 s for 4.2BSD's 3 s).
    pub fn new(initial_rto_s: f64, min_s: f64, max_s: f64) -> Self {
        let tick = TICK.0 as f64 * 1e-12;
        Bsd42Timer {
            srtt_ticks: initial_rto_s / BETA / tick,
            min_ticks: (min_s / tick).round().max(1.0) as u64,
            max_ticks: (max_s / tick).round().max(1.0) as u64,
            backoff: 0,
        }
    }

    /// The segment timed since `sent` was acknowledged at `now`.
    pub fn sample(&mut self, sent: SimTime, now: SimTime) {
        let rtt = (1 + ticks(now) - ticks(sent)) as f64;
        self.srtt_ticks = ALPHA * self.srtt_ticks + (1.0 - ALPHA) * rtt;
        self.backoff = 0;
    }

    /// The RTO in ticks: ⌊β·SRTT⌋ clamped, doubled per expiry, at most the maximum.
    pub fn rto_ticks(&self) -> u64 {
        let base = ((BETA * self.srtt_ticks) as u64).clamp(self.min_ticks, self.max_ticks);
        (base << self.backoff.min(30)).min(self.max_ticks)
    }

    /// The timer set at `now` expires on the RTO-th tick after it.
    pub fn deadline(&self, now: SimTime) -> SimTime {
        SimTime((ticks(now) + self.rto_ticks()) * TICK.0)
    }

    /// An ACK advanced SND.UNA: the timer restarts without back-off (`t_rxtshift = 0`).
    pub fn ack_advanced(&mut self) {
        self.backoff = 0;
    }

    pub fn expired(&mut self) {
        if self.rto_ticks() < self.max_ticks {
            self.backoff += 1;
        }
    }

    pub fn srtt_s(&self) -> f64 {
        self.srtt_ticks * TICK.0 as f64 * 1e-12
    }

    pub fn rto_s(&self) -> f64 {
        (self.rto_ticks() * TICK.0) as f64 * 1e-12
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: f64) -> SimTime {
        SimTime::from_secs_f64(s)
    }

    /// 4.2BSD: default SRTT 3 s → first RTO 6 s, expiring on a tick boundary.
    #[test]
    fn test_bsd42_initial_rto_is_six_seconds_on_the_tick() {
        let b = Bsd42Timer::new(6.0, 1.0, 30.0);
        assert_eq!((b.rto_ticks(), b.srtt_s()), (12, 3.0));
        assert_eq!(b.deadline(t(0.0)), t(6.0));
        assert_eq!(b.deadline(t(0.3)), t(6.0), "set between ticks: the 12th tick after, not 6 s after");
        assert_eq!(b.deadline(t(0.5)), t(6.5));
    }

    /// The round trip is counted in ticks from 1: 0.6 s and 0.3 s can both read 2 ticks, or 1
    /// tick, depending on where the clock's ticks fall.
    #[test]
    fn test_bsd42_rtt_in_ticks_and_srtt_smoothed_with_alpha_0_9() {
        let mut b = Bsd42Timer::new(6.0, 1.0, 30.0);
        b.sample(t(0.1), t(0.7));
        assert!((b.srtt_ticks - (0.9 * 6.0 + 0.1 * 2.0)).abs() < 1e-12, "0.1 → 0.7 crosses one tick: 2 ticks");
        let mut c = Bsd42Timer::new(6.0, 1.0, 30.0);
        c.sample(t(0.6), t(0.9));
        assert!((c.srtt_ticks - (0.9 * 6.0 + 0.1 * 1.0)).abs() < 1e-12, "0.6 → 0.9 crosses none: 1 tick");
        // RTO = ⌊β·SRTT⌋ ticks, no variance term (⌊2 × 5.4999…⌋ in floating point).
        assert_eq!(c.rto_ticks(), (BETA * c.srtt_ticks) as u64);
        assert!((10..=11).contains(&c.rto_ticks()));
    }

    #[test]
    fn test_bsd42_rto_clamped_to_one_and_thirty_seconds_doubled_per_expiry() {
        let mut b = Bsd42Timer::new(6.0, 1.0, 30.0);
        for _ in 0..200 {
            b.sample(t(0.0), t(0.1));
        }
        assert_eq!(b.rto_ticks(), 2, "TCPTV_MIN = 1 s");
        b.expired();
        assert_eq!(b.rto_s(), 2.0);
        for _ in 0..10 {
            b.expired();
        }
        assert_eq!(b.rto_s(), 30.0, "TCPTV_MAX");
    }
}
