//! Mean of integer observations (durations in picoseconds), summed exactly.
//!
//! The delivery meter needs only the mean transfer and holding time. Summing the
//! integer ticks in a `u128` is exact, so the mean is the sum rounded once, and the
//! per-observation cost is two integer additions: no floating-point division on the
//! hot path, as a running (Welford) mean needs for every observation. The sum cannot
//! overflow: each term is below 2^64 and there are at most 2^64 of them.

/// Count and exact sum of `u64` observations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExactMean {
    n: u64,
    sum: u128,
}

impl ExactMean {
    /// An empty sample.
    #[must_use]
    pub const fn new() -> Self {
        Self { n: 0, sum: 0 }
    }

    /// Records one observation.
    #[inline]
    pub fn add(&mut self, x: u64) {
        self.n += 1;
        self.sum += u128::from(x);
    }

    /// Number of observations.
    #[must_use]
    pub fn n(&self) -> u64 {
        self.n
    }

    /// The exact sum of the observations.
    #[must_use]
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// The mean divided by `unit` (e.g. picoseconds per second), `NaN` if empty.
    #[must_use]
    pub fn mean_in(&self, unit: f64) -> f64 {
        if self.n == 0 {
            return f64::NAN;
        }
        // Whole quotient and remainder apart: both convert to f64 without losing the
        // sum's low digits when it exceeds 2^53.
        let (q, r) = (self.sum / u128::from(self.n), self.sum % u128::from(self.n));
        (q as f64 + r as f64 / self.n as f64) / unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_mean_is_nan() {
        assert!(ExactMean::new().mean_in(1.0).is_nan());
        assert_eq!(ExactMean::new().n(), 0);
    }

    #[test]
    fn mean_of_known_values() {
        let mut m = ExactMean::new();
        for x in [1u64, 2, 3, 4] {
            m.add(x);
        }
        assert_eq!((m.n(), m.sum()), (4, 10));
        assert_eq!(m.mean_in(1.0), 2.5);
        assert_eq!(m.mean_in(10.0), 0.25);
    }

    #[test]
    fn sum_is_exact_beyond_f64_and_u64() {
        // Three values near 2^64: their sum needs 66 bits, and a float sum would lose
        // the low digits; the mean keeps them.
        let big = u64::MAX - 6;
        let mut m = ExactMean::new();
        for d in [0u64, 3, 6] {
            m.add(big + d);
        }
        assert_eq!(m.sum(), 3 * u128::from(big) + 9);
        assert_eq!(m.mean_in(1.0), (u128::from(big) + 3) as f64);
        // Picosecond transfer times: 1 ps apart around 10^15 ps (1000 s) average exactly.
        let mut t = ExactMean::new();
        for x in [1_000_000_000_000_001u64, 1_000_000_000_000_002, 1_000_000_000_000_006] {
            t.add(x);
        }
        assert_eq!(t.mean_in(1e12), 1_000.000_000_000_003);
    }

    #[test]
    fn mean_agrees_with_a_float_mean_to_rounding() {
        let mut m = ExactMean::new();
        let xs: Vec<u64> = (0..10_000u64).map(|i| 21_833_333_333 + (i * 7919) % 100_003 * 1_000_000).collect();
        for &x in &xs {
            m.add(x);
        }
        let float = xs.iter().map(|&x| x as f64).sum::<f64>() / xs.len() as f64;
        assert!((m.mean_in(1.0) - float).abs() <= float * 1e-14, "{} vs {float}", m.mean_in(1.0));
    }
}
