//! Sequential stopping rule for a relative-precision target (Law & Kelton ch. 9).
//!
//! A study asks "±2.5% at 95%" rather than "20 replications": replications are added
//! until the t half-width is within `γ'·|Ȳ|`. The target is the *adjusted* `γ' = γ/(1+γ)`
//! because, if `|Ȳ − μ| ≤ γ'|Ȳ|`, then `|Ȳ − μ| ≤ γ|μ|`, i.e. the achieved error is
//! relative to the true mean `μ`, as the user meant. At least `n₀ ≥ 10` observations are
//! required before stopping, since `S` from very few replications can be small by
//! chance and stop the run early with an interval that undercovers. A cap `max_n`
//! bounds the cost for measures whose mean is near zero.

use serde::Serialize;

use super::ci::Interval;

/// Default minimum sample size `n₀`.
pub const DEFAULT_MIN_N: u64 = 10;

/// A relative-precision target with a minimum and a maximum sample size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Precision {
    /// Requested relative half-width `γ` (e.g. `0.025` for ±2.5%).
    pub relative: f64,
    /// Minimum number of observations `n₀` before stopping.
    pub min_n: u64,
    /// Stop anyway once this many observations have been made.
    pub max_n: u64,
}

/// What to do after checking the intervals of all measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Status {
    /// Not yet precise enough: add replications (or batches).
    Continue,
    /// Every measure meets the target.
    Reached,
    /// The cap `max_n` was reached before every measure met the target.
    CapReached,
}

impl Precision {
    /// Target `relative` with `min_n = DEFAULT_MIN_N` (10) and the given cap.
    #[must_use]
    pub const fn new(relative: f64, max_n: u64) -> Self {
        Self {
            relative,
            min_n: DEFAULT_MIN_N,
            max_n,
        }
    }

    /// The adjusted target `γ' = γ/(1+γ)` the half-width is compared with.
    #[must_use]
    pub fn adjusted(&self) -> f64 {
        self.relative / (1.0 + self.relative)
    }

    /// `n ≥ min_n` and `half_width ≤ γ'·|mean|`. A mean of exactly 0 with a zero
    /// half-width (an identically-zero measure) is satisfied; any `NaN` is not.
    #[must_use]
    pub fn satisfied(&self, iv: &Interval) -> bool {
        iv.n >= self.min_n && iv.half_width <= self.adjusted() * iv.mean.abs()
    }

    /// Joint decision over several measures: `Reached` when all are satisfied (an
    /// empty list is vacuously satisfied), otherwise `CapReached` once any measure has
    /// `n ≥ max_n`, otherwise `Continue`.
    #[must_use]
    pub fn status(&self, ivs: &[Interval]) -> Status {
        if ivs.iter().all(|iv| self.satisfied(iv)) {
            Status::Reached
        } else if ivs.iter().any(|iv| iv.n >= self.max_n) {
            Status::CapReached
        } else {
            Status::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(mean: f64, half_width: f64, n: u64) -> Interval {
        Interval {
            mean,
            half_width,
            n,
        }
    }

    #[test]
    fn adjusted_target() {
        let p = Precision::new(0.025, 1000);
        assert_eq!(p.min_n, 10);
        assert!((p.adjusted() - 0.025 / 1.025).abs() < 1e-16);
        assert!((Precision::new(0.1, 50).adjusted() - 1.0 / 11.0).abs() < 1e-16);
    }

    #[test]
    fn satisfied_rule() {
        let p = Precision::new(0.1, 100); // γ' = 0.0909…
        assert!(p.satisfied(&iv(100.0, 9.0, 10)));
        assert!(!p.satisfied(&iv(100.0, 9.5, 10))); // within γ but not γ'
        assert!(p.satisfied(&iv(-100.0, 9.0, 10))); // sign of the mean is irrelevant
        assert!(!p.satisfied(&iv(100.0, 1.0, 9))); // below n₀
        assert!(p.satisfied(&iv(0.0, 0.0, 10))); // identically zero
        assert!(!p.satisfied(&iv(0.0, 1e-12, 10)));
        assert!(!p.satisfied(&iv(f64::NAN, f64::NAN, 10)));
        assert!(!p.satisfied(&iv(1.0, f64::INFINITY, 10)));
    }

    #[test]
    fn joint_status() {
        let p = Precision::new(0.1, 20);
        let good = iv(10.0, 0.5, 12);
        let bad = iv(10.0, 5.0, 12);
        assert_eq!(p.status(&[good, good]), Status::Reached);
        assert_eq!(p.status(&[good, bad]), Status::Continue);
        assert_eq!(p.status(&[good, iv(10.0, 5.0, 20)]), Status::CapReached);
        assert_eq!(p.status(&[iv(10.0, 0.5, 20)]), Status::Reached); // met at the cap
        assert_eq!(p.status(&[]), Status::Reached);
    }

    /// 20 replications alternating 9 and 11: mean 10, s = √(20/19),
    /// hw = t(19, .975)·s/√20 = 2.093/√19 = 0.480.
    #[test]
    fn with_real_interval() {
        let xs: Vec<f64> = (0..20)
            .map(|i| if i % 2 == 0 { 9.0 } else { 11.0 })
            .collect();
        let ci = super::super::tally::student_t(&xs, 0.95);
        assert!((ci.half_width - 0.4802).abs() < 1e-3);
        // γ = 5%: 0.480 ≤ γ·10 = 0.5 but > γ'·10 = 0.476, so not yet.
        assert!(!Precision::new(0.05, 100).satisfied(&ci));
        assert!(Precision::new(0.06, 100).satisfied(&ci)); // γ'·10 = 0.566
    }
}
