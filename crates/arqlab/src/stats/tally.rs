//! Running summary of a sample (count, mean, variance, min, max, sum).
//!
//! Uses Welford's update so the variance stays accurate when the mean is large
//! compared with the spread (e.g. transfer times in picoseconds), where the naive
//! `Σx² − n·x̄²` loses every significant digit. Two tallies (e.g. from different
//! replications or threads) combine exactly with [`Tally::merge`] (Chan, Golub &
//! LeVeque's pairwise update).

use serde::Serialize;

use super::ci::{self, Interval};

/// Running count, mean, sample variance, minimum, maximum and sum of observations.
///
/// Empty-sample statistics are `NaN` rather than panics.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Tally {
    n: u64,
    mean: f64,
    /// Sum of squared deviations from the running mean.
    m2: f64,
    min: f64,
    max: f64,
    sum: f64,
}

impl Default for Tally {
    fn default() -> Self {
        Self::new()
    }
}

impl Tally {
    /// An empty tally.
    #[must_use]
    pub const fn new() -> Self {
        Self {
            n: 0,
            mean: 0.0,
            m2: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            sum: 0.0,
        }
    }

    /// Records one observation.
    #[inline]
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let delta = x - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (x - self.mean);
        self.min = self.min.min(x);
        self.max = self.max.max(x);
        self.sum += x;
    }

    /// Folds `other` into `self`, as if every observation of `other` had been added here.
    pub fn merge(&mut self, other: &Tally) {
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            *self = *other;
            return;
        }
        let (na, nb) = (self.n as f64, other.n as f64);
        let n = na + nb;
        let delta = other.mean - self.mean;
        self.mean += delta * nb / n;
        self.m2 += other.m2 + delta * delta * na * nb / n;
        self.n += other.n;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
        self.sum += other.sum;
    }

    /// Number of observations.
    #[must_use]
    pub const fn n(&self) -> u64 {
        self.n
    }

    /// Sample mean; `NaN` when empty.
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.mean
        }
    }

    /// Unbiased sample variance (divisor `n − 1`); `NaN` when `n < 2`.
    #[must_use]
    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            f64::NAN
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }

    /// Sample standard deviation; `NaN` when `n < 2`.
    #[must_use]
    pub fn std_dev(&self) -> f64 {
        self.variance().sqrt()
    }

    /// Smallest observation; `NaN` when empty.
    #[must_use]
    pub fn min(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.min
        }
    }

    /// Largest observation; `NaN` when empty.
    #[must_use]
    pub fn max(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.max
        }
    }

    /// Sum of observations (0 when empty).
    #[must_use]
    pub const fn sum(&self) -> f64 {
        self.sum
    }

    /// Student-t confidence interval for the mean, treating the observations as
    /// independent (e.g. one per replication); see [`student_t`].
    #[must_use]
    pub fn interval(&self, level: f64) -> Interval {
        ci::from_moments(self.mean(), self.variance(), self.n, level)
    }
}

impl Extend<f64> for Tally {
    fn extend<I: IntoIterator<Item = f64>>(&mut self, iter: I) {
        for x in iter {
            self.add(x);
        }
    }
}

impl FromIterator<f64> for Tally {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> Self {
        let mut t = Tally::new();
        t.extend(iter);
        t
    }
}

/// Two-sided Student-t interval at confidence `level` (e.g. 0.95) for the mean of
/// independent observations: `Ȳ ± t(n−1, (1+level)/2)·S/√n` (the moments by [`Tally`],
/// the quantile by `ci`).
///
/// `n = 0` gives a `NaN` mean and half-width; `n = 1` gives an infinite half-width
/// (nothing is known about the spread); a `level` outside `(0, 1)` gives a `NaN`
/// half-width.
#[must_use]
pub fn student_t(values: &[f64], level: f64) -> Interval {
    let t: Tally = values.iter().copied().collect();
    t.interval(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1.0)
    }

    #[test]
    fn hand_computed_moments() {
        // 2,4,4,4,5,5,7,9: mean 5, Σ(x−5)² = 32, s² = 32/7.
        let t: Tally = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
            .into_iter()
            .collect();
        assert_eq!(t.n(), 8);
        assert!(close(t.mean(), 5.0, 1e-15));
        assert!(close(t.variance(), 32.0 / 7.0, 1e-14));
        assert!(close(t.std_dev(), (32.0f64 / 7.0).sqrt(), 1e-14));
        assert_eq!(t.min(), 2.0);
        assert_eq!(t.max(), 9.0);
        assert_eq!(t.sum(), 40.0);
    }

    #[test]
    fn empty_and_single() {
        let t = Tally::new();
        assert_eq!(t.n(), 0);
        assert!(t.mean().is_nan() && t.variance().is_nan());
        assert!(t.min().is_nan() && t.max().is_nan());
        let mut t = Tally::new();
        t.add(-3.5);
        assert_eq!(t.mean(), -3.5);
        assert!(t.variance().is_nan() && t.std_dev().is_nan());
        assert_eq!((t.min(), t.max()), (-3.5, -3.5));
        // Two observations are the fewest with a variance: (1 − 2)² + (3 − 2)² over 1.
        let t: Tally = [1.0, 3.0].into_iter().collect();
        assert_eq!((t.variance(), t.std_dev()), (2.0, 2f64.sqrt()));
    }

    #[test]
    fn large_offset_is_stable() {
        // Picosecond-scale values: the naive formula would return garbage here.
        let base = 1e15;
        let t: Tally = [base + 1.0, base + 2.0, base + 3.0].into_iter().collect();
        assert!(close(t.variance(), 1.0, 1e-9), "{}", t.variance());
    }

    #[test]
    fn merge_equals_sequential() {
        let xs: Vec<f64> = (0..101)
            .map(|i| ((i * 37) % 17) as f64 * 0.5 - 2.0)
            .collect();
        let all: Tally = xs.iter().copied().collect();
        let mut a: Tally = xs[..40].iter().copied().collect();
        let b: Tally = xs[40..].iter().copied().collect();
        a.merge(&b);
        assert_eq!(a.n(), all.n());
        assert!(close(a.mean(), all.mean(), 1e-14));
        assert!(close(a.variance(), all.variance(), 1e-13));
        assert_eq!((a.min(), a.max()), (all.min(), all.max()));
        assert!(close(a.sum(), all.sum(), 1e-14));
        // Merging with empties is the identity both ways.
        let mut e = Tally::new();
        e.merge(&all);
        assert_eq!(e, all);
        let mut c = all;
        c.merge(&Tally::new());
        assert_eq!(c, all);
    }

    #[test]
    fn interval_from_tally() {
        // 1..=5: mean 3, s² = 2.5, t(4,.975)=2.776 → hw = 2.776·√(2.5/5).
        let t: Tally = (1..=5).map(f64::from).collect();
        let iv = t.interval(0.95);
        assert_eq!(iv.n, 5);
        assert!(close(iv.half_width, 2.776_445 * 0.5f64.sqrt(), 1e-5));
    }
}
