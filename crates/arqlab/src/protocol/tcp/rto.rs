//! The retransmission timer of RFC 6298: SRTT and RTTVAR with gains 1/8 and 1/4,
//! RTO = SRTT + max(G, 4·RTTVAR) clamped to [min, max], doubled on every expiry
//! (§5.5) until a new measurement. Karn's rule (no samples from retransmitted
//! segments) is the caller's: it never passes such a sample.
//!
//! Optionally RFC 793's original rule, RTO = β·SRTT with no variance term (the 4.2BSD
//! TCP of Comer & Korb's measurements): with bursty round trips it expires early.

use crate::engine::Duration;

#[derive(Clone, Debug, PartialEq)]
pub struct RtoEstimator {
    /// SRTT in seconds (`None` before the first sample, RFC 6298 §2.1).
    srtt: Option<f64>,
    rttvar: f64,
    /// The RTO without back-off, seconds.
    base: f64,
    /// Consecutive expiries since the last sample: RTO = base · 2^backoff (§5.5).
    backoff: u32,
    min: f64,
    max: f64,
    /// RFC 793's β: RTO = β·SRTT (`None`: RFC 6298).
    beta: Option<f64>,
}

impl RtoEstimator {
    pub fn new(initial_s: f64, min_s: f64, max_s: f64) -> Self {
        RtoEstimator { srtt: None, rttvar: 0.0, base: initial_s, backoff: 0, min: min_s, max: max_s, beta: None }
    }

    /// RFC 793's rule instead (§3.7: RTO = min(UBOUND, max(LBOUND, β·SRTT))); SRTT is
    /// smoothed with the same gain 1/8 (RFC 793's α = 0.875).
    pub fn rfc793(mut self, beta: f64) -> Self {
        self.beta = Some(beta);
        self
    }

    /// A round-trip sample R (seconds) from a segment sent once (§2.2, §2.3).
    pub fn sample(&mut self, r: f64) {
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2.0;
            }
            Some(s) => {
                self.rttvar = 0.75 * self.rttvar + 0.25 * (s - r).abs();
                self.srtt = Some(0.875 * s + 0.125 * r);
            }
        }
        self.set_base();
    }

    /// Starts from a cached SRTT and RTTVAR (RFC 9040 §4 temporal sharing, as RFC 2140
    /// and 4.4BSD's route metrics): the RTO they give, without back-off.
    pub fn seed(&mut self, srtt: f64, rttvar: f64) {
        self.srtt = Some(srtt);
        self.rttvar = rttvar;
        self.set_base();
    }

    fn set_base(&mut self) {
        let Some(srtt) = self.srtt else { return };
        // G, the clock granularity, is zero: simulated time is exact.
        let rto = match self.beta {
            Some(beta) => beta * srtt,
            None => srtt + 4.0 * self.rttvar,
        };
        self.base = rto.clamp(self.min, self.max);
        self.backoff = 0;
    }

    /// The timer expired: back off (§5.5, "back off the timer").
    pub fn expired(&mut self) {
        if self.rto_s() < self.max {
            self.backoff += 1;
        }
    }

    /// RFC 6298 §5.7: the handshake's SYN timed out, so data transmission starts with
    /// an RTO of at least `s` (3 s), without back-off.
    pub fn reinitialise(&mut self, s: f64) {
        self.base = self.base.max(s).clamp(self.min, self.max);
        self.backoff = 0;
    }

    /// The current RTO in seconds, back-off included, at most `max`.
    pub fn rto_s(&self) -> f64 {
        (self.base * f64::from(1u32 << self.backoff.min(30))).min(self.max)
    }

    pub fn rto(&self) -> Duration {
        Duration::from_secs_f64(self.rto_s())
    }

    pub fn srtt_s(&self) -> Option<f64> {
        self.srtt
    }

    pub fn rttvar_s(&self) -> f64 {
        self.rttvar
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_rto_first_sample_then_smoothing_per_rfc6298() {
        let mut e = RtoEstimator::new(1.0, 0.2, 60.0);
        assert_eq!(e.rto_s(), 1.0, "§2.1: initial RTO");
        e.sample(0.5);
        // §2.2: SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR = 1.5
        assert_eq!((e.srtt_s(), e.rttvar_s(), e.rto_s()), (Some(0.5), 0.25, 1.5));
        e.sample(0.3);
        // §2.3: RTTVAR = 3/4·0.25 + 1/4·|0.5−0.3| = 0.2375; SRTT = 7/8·0.5 + 1/8·0.3 = 0.475
        assert!((e.rttvar_s() - 0.2375).abs() < 1e-12);
        assert!((e.srtt_s().unwrap() - 0.475).abs() < 1e-12);
        assert!((e.rto_s() - (0.475 + 4.0 * 0.2375)).abs() < 1e-12);
    }

    #[test]
    fn test_rto_clamped_to_min_and_backed_off_to_max() {
        let mut e = RtoEstimator::new(1.0, 1.0, 8.0);
        e.sample(0.01);
        assert_eq!(e.rto_s(), 1.0, "§2.4: at least 1 s");
        e.expired();
        assert_eq!(e.rto_s(), 2.0);
        e.expired();
        e.expired();
        assert_eq!(e.rto_s(), 8.0);
        e.expired();
        assert_eq!(e.rto_s(), 8.0, "§2.5: a maximum may be placed on RTO");
        e.sample(0.01);
        assert_eq!(e.rto_s(), 1.0, "a new sample ends the back-off");
    }

    #[test]
    fn test_rto_seeded_from_a_cache_per_rfc9040_temporal_sharing() {
        let mut e = RtoEstimator::new(1.0, 1.0, 60.0);
        e.expired();
        e.seed(2.0, 0.5);
        // SRTT and RTTVAR taken as they are; RTO = SRTT + 4 RTTVAR = 4 s, no back-off.
        assert_eq!((e.srtt_s(), e.rttvar_s(), e.rto_s()), (Some(2.0), 0.5, 4.0));
        // The next sample smooths from the cached values (§2.3), not as a first one.
        e.sample(1.0);
        assert!((e.srtt_s().unwrap() - (0.875 * 2.0 + 0.125 * 1.0)).abs() < 1e-12);
        assert!((e.rttvar_s() - (0.75 * 0.5 + 0.25 * 1.0)).abs() < 1e-12);
    }

    #[test]
    fn rfc793_rule_is_beta_times_srtt_without_variance() {
        let mut e = RtoEstimator::new(1.0, 1.0, 60.0).rfc793(2.0);
        e.sample(1.5);
        assert_eq!(e.rto_s(), 3.0, "first sample: SRTT = R");
        e.sample(0.7);
        let srtt = 0.875 * 1.5 + 0.125 * 0.7;
        assert!((e.rto_s() - 2.0 * srtt).abs() < 1e-12);
        // RFC 6298 with the same samples adds 4·RTTVAR: larger after a varying sample.
        let mut f = RtoEstimator::new(1.0, 1.0, 60.0);
        f.sample(1.5);
        f.sample(0.7);
        assert!(f.rto_s() > e.rto_s() - 1.0 && f.rto_s() != e.rto_s());
        e.sample(0.1);
        e.sample(0.1);
        e.sample(0.1);
        assert!(e.rto_s() >= 1.0, "LBOUND");
        e.expired();
        assert_eq!(e.rto_s(), 2.0 * e.base, "back-off as before");
    }
}
