//! Student-t confidence intervals for a mean.
//!
//! Every interval in arqlab uses the t distribution with `n − 1` degrees of freedom,
//! never the normal `z`: with the 5–30 replications or batches typical of a study,
//! `z = 1.96` gives an interval 4–29% too narrow (`t(29) = 2.045`, `t(4) = 2.776`;
//! Law & Kelton, *Simulation Modeling and Analysis*, ch. 9). The observations must be
//! (approximately) independent and identically distributed: replication means, or batch
//! means whose lag-1 autocorrelation has been checked (see [`mod@super::batch_means`]).

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Above this many degrees of freedom [`t_quantile`] uses the Cornish–Fisher series:
/// statrs 0.18's `StudentsT::inverse_cdf` drifts for `df ≳ 10⁶` (1.83 instead of 1.96
/// at `df = 10⁷`) and does not terminate at `df = 10⁹`, while the series is accurate to
/// ~1e-12 from here on.
const LARGE_DF: u64 = 1000;

/// A confidence interval `mean ± half_width` computed from `n` observations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// Point estimate (sample mean).
    pub mean: f64,
    /// Half-width of the interval; `∞` when `n = 1`, `NaN` when `n = 0`.
    pub half_width: f64,
    /// Number of observations (replications, batches or pairs).
    pub n: u64,
}

impl Interval {
    /// `half_width / |mean|`, the quantity a relative-precision target is set on.
    ///
    /// A zero half-width gives 0 (even for a zero mean: a measure that is identically
    /// zero is known exactly); a non-zero half-width around a zero mean gives `∞`.
    #[must_use]
    pub fn relative_half_width(&self) -> f64 {
        if self.half_width == 0.0 {
            0.0
        } else {
            self.half_width / self.mean.abs()
        }
    }

    /// Whether `x` lies in the closed interval `[mean − half_width, mean + half_width]`.
    #[must_use]
    pub fn contains(&self, x: f64) -> bool {
        (x - self.mean).abs() <= self.half_width
    }

    /// Lower end `mean − half_width`.
    #[must_use]
    pub fn lower(&self) -> f64 {
        self.mean - self.half_width
    }

    /// Upper end `mean + half_width`.
    #[must_use]
    pub fn upper(&self) -> f64 {
        self.mean + self.half_width
    }
}

/// The `p`-quantile of Student's t distribution with `df` degrees of freedom.
///
/// `df = 0` (a single observation: no variance estimate) gives `NaN`, as does `p`
/// outside `[0, 1]`; `p = 0` and `p = 1` give `−∞` and `+∞`. Uses statrs up to
/// 1000 degrees of freedom and the Cornish–Fisher expansion in `1/df` about the normal
/// quantile beyond (Abramowitz & Stegun 26.7.5), where statrs is unreliable.
#[must_use]
pub fn t_quantile(df: u64, p: f64) -> f64 {
    if df == 0 || p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    if df > LARGE_DF {
        return cornish_fisher(df as f64, p);
    }
    match StudentsT::new(0.0, 1.0, df as f64) {
        Ok(t) => t.inverse_cdf(p),
        Err(_) => f64::NAN,
    }
}

/// Abramowitz & Stegun 26.7.5: `t ≈ z + g₁/ν + g₂/ν² + g₃/ν³ + g₄/ν⁴`, `p ∈ (0, 1)`.
fn cornish_fisher(nu: f64, p: f64) -> f64 {
    let z = match Normal::new(0.0, 1.0) {
        Ok(n) => n.inverse_cdf(p),
        Err(_) => return f64::NAN,
    };
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    z + (g1 + (g2 + (g3 + g4 / nu) / nu) / nu) / nu
}

/// Student-t interval from summary moments (sample mean, unbiased variance, count).
pub(crate) fn from_moments(mean: f64, variance: f64, n: u64, level: f64) -> Interval {
    let half_width = match n {
        0 => f64::NAN,
        _ if level.is_nan() || level <= 0.0 || level >= 1.0 => f64::NAN,
        1 => f64::INFINITY,
        _ => t_quantile(n - 1, 0.5 * (1.0 + level)) * (variance.max(0.0) / n as f64).sqrt(),
    };
    Interval {
        mean: if n == 0 { f64::NAN } else { mean },
        half_width,
        n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::student_t;

    #[test]
    fn known_t_quantiles() {
        for (df, want) in [
            (4, 2.776),
            (9, 2.262),
            (19, 2.093),
            (1, 12.706),
            (29, 2.045),
        ] {
            let got = t_quantile(df, 0.975);
            assert!((got - want).abs() < 5e-4, "t({df}) = {got}, want {want}");
        }
        // Symmetry, median, and the normal limit.
        assert!((t_quantile(9, 0.025) + 2.262).abs() < 5e-4);
        assert!(t_quantile(7, 0.5).abs() < 1e-12);
        // Large df: z(.975) + (z³+z)/(4ν) to first order; no hang at huge df.
        let z = 1.959_963_984_540_054;
        let first_order = |nu: f64| z + (z * z * z + z) / (4.0 * nu);
        for df in [5_000u64, 1_000_000, 10_000_000, 1_000_000_000, u64::MAX] {
            let got = t_quantile(df, 0.975);
            assert!(
                (got - first_order(df as f64)).abs() < 1e-6,
                "t({df}) = {got}"
            );
        }
    }

    #[test]
    fn series_matches_statrs_at_the_switch() {
        for p in [0.6, 0.9, 0.975, 0.995, 0.9995, 1e-6] {
            let exact = t_quantile(LARGE_DF, p);
            let series = cornish_fisher(LARGE_DF as f64, p);
            assert!(
                (exact - series).abs() < 1e-7 * exact.abs(),
                "p {p}: {exact} vs {series}"
            );
            assert!(t_quantile(LARGE_DF + 1, p).abs() <= exact.abs());
        }
    }

    /// A&S 26.7.5 keeps the terms to ν⁻⁴, so its error against the exact quantile is
    /// the first omitted term, c/ν⁵ (+ O(ν⁻⁶)): ν⁵·(series − exact) settles to a
    /// constant as ν doubles, changing by a few per cent at ν = 20…80. A wrong operator
    /// in a kept term leaves an error of order ν⁻⁴ or larger, whose scaled error at
    /// least doubles with ν. (Above ν ≈ 100 statrs' own error, ~10⁻¹³, shows in ν⁵·….)
    #[test]
    fn series_error_is_of_order_nu_to_the_minus_5() {
        for p in [0.9, 0.975, 0.995] {
            let scaled: Vec<f64> = [20u64, 40, 80]
                .iter()
                .map(|&nu| (cornish_fisher(nu as f64, p) - t_quantile(nu, p)) * (nu as f64).powi(5))
                .collect();
            assert!(scaled[0] < 0.0, "p {p}: {scaled:?}");
            assert!((scaled[1] / scaled[0] - 1.0).abs() < 0.1, "p {p}: {scaled:?}");
            assert!((scaled[2] / scaled[1] - 1.0).abs() < 0.1, "p {p}: {scaled:?}");
        }
    }

    #[test]
    fn t_quantile_edges() {
        assert!(t_quantile(0, 0.975).is_nan());
        // No degrees of freedom: NaN even where any df would give ±∞.
        assert!(t_quantile(0, 1.0).is_nan() && t_quantile(0, 0.0).is_nan());
        assert!(t_quantile(5, 1.5).is_nan());
        assert!(t_quantile(5, -0.1).is_nan());
        assert!(t_quantile(5, f64::NAN).is_nan());
        assert_eq!(t_quantile(5, 1.0), f64::INFINITY);
        assert_eq!(t_quantile(5, 0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn hand_computed_interval() {
        // 10 values 1..=10: mean 5.5, s² = 55/6, hw = 2.262·√(55/60) = 2.1657.
        let xs: Vec<f64> = (1..=10).map(f64::from).collect();
        let iv = student_t(&xs, 0.95);
        assert_eq!(iv.n, 10);
        assert!((iv.mean - 5.5).abs() < 1e-12);
        assert!((iv.half_width - 2.2622 * (55.0f64 / 60.0).sqrt()).abs() < 1e-3);
        assert!((iv.half_width - 2.1659).abs() < 1e-3, "{}", iv.half_width);
        assert!(iv.contains(5.5 + 2.16) && !iv.contains(5.5 + 2.17));
        assert!(iv.contains(iv.lower()) && iv.contains(iv.upper()));
        assert!((iv.lower() - 3.3341).abs() < 1e-3 && (iv.upper() - 7.6659).abs() < 1e-3, "{iv:?}");
        assert!((iv.relative_half_width() - iv.half_width / 5.5).abs() < 1e-15);
    }

    #[test]
    fn twenty_values_use_19_df() {
        // 20 values alternating 0/2: mean 1, s² = 20/19, hw = 2.093·√(1/19).
        let xs: Vec<f64> = (0..20).map(|i| f64::from((i % 2) * 2)).collect();
        let iv = student_t(&xs, 0.95);
        assert!((iv.half_width - 2.093 * (1.0f64 / 19.0).sqrt()).abs() < 2e-4);
    }

    #[test]
    fn degenerate_samples() {
        let iv = student_t(&[], 0.95);
        assert!(iv.mean.is_nan() && iv.half_width.is_nan() && iv.n == 0);
        let iv = student_t(&[4.2], 0.95);
        assert_eq!((iv.mean, iv.half_width, iv.n), (4.2, f64::INFINITY, 1));
        let iv = student_t(&[3.0, 3.0, 3.0], 0.95);
        assert_eq!((iv.mean, iv.half_width), (3.0, 0.0));
        assert_eq!(iv.relative_half_width(), 0.0);
        // A level outside (0, 1) has no interval (0 would give a zero width).
        for level in [1.0, 0.0, -0.5, 1.5, f64::NAN] {
            let iv = student_t(&[1.0, 2.0], level);
            assert!(iv.half_width.is_nan() && iv.mean == 1.5, "level {level}: {iv:?}");
        }
        let iv = Interval {
            mean: 0.0,
            half_width: 1.0,
            n: 3,
        };
        assert_eq!(iv.relative_half_width(), f64::INFINITY);
    }
}
