//! MSER-5 warm-up (initial-transient) detection (White 1997; White, Cobb & Spratt 2000).
//!
//! A run started empty and idle is biased towards light load at first; its early
//! observations must be deleted before estimating steady-state measures. MSER picks the
//! truncation point that minimises the marginal standard error of what remains: deleting
//! a biased prefix lowers the spread faster than losing the observations widens the
//! error. MSER-5 applies the rule to means of batches of 5 observations, which smooths
//! the statistic without shifting the optimum much.
//!
//! With `k` batch means `Z_1..Z_k`, `d*` minimises
//! `MSER(d) = Σ_{j>d} (Z_j − Z̄_d)² / (k − d)²` over `0 ≤ d ≤ ⌊k/2⌋`. The search is
//! restricted to the first half of the series (the usual rule): a minimum at that boundary
//! means the run is too short to show where the transient ends, and is reported as
//! unreliable.

use serde::Serialize;

use super::batch_means::form_batches;

/// Outcome of an MSER warm-up search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MserResult {
    /// Number of leading *original* observations to delete (`batch_size · d*`).
    pub truncate_obs: usize,
    /// Optimal truncation `d*`, in batches.
    pub d_star_batches: usize,
    /// `false` when `d*` hit the `⌊k/2⌋` bound, or the series had fewer than two batches:
    /// the run is too short to locate the end of the warm-up; lengthen it.
    pub reliable: bool,
}

/// MSER-5: [`mser`] with batches of 5 observations.
#[must_use]
pub fn mser5(observations: &[f64]) -> MserResult {
    mser(observations, 5)
}

/// MSER with batches of `batch_size` observations (`batch_size = 1` is plain MSER).
/// A trailing partial batch is ignored. Ties go to the smallest `d`. Runs in `O(n)`.
#[must_use]
pub fn mser(observations: &[f64], batch_size: usize) -> MserResult {
    let z = form_batches(observations, batch_size);
    let k = z.len();
    let unreliable = MserResult {
        truncate_obs: 0,
        d_star_batches: 0,
        reliable: false,
    };
    if k < 2 {
        return unreliable;
    }
    let d_max = k / 2;
    // Suffix Welford from the end: after pushing Z_k..Z_{d+1} (0-based z[d..]),
    // `m2` is Σ_{j>d}(Z_j − Z̄_d)². Numerically stable even for large offsets.
    let mut mean = 0.0;
    let mut m2 = 0.0;
    let mut best = (f64::INFINITY, 0);
    for (i, &x) in z.iter().enumerate().rev() {
        let m = (k - i) as f64;
        let delta = x - mean;
        mean += delta / m;
        m2 += delta * (x - mean);
        if i <= d_max {
            let stat = m2 / (m * m);
            if stat <= best.0 {
                best = (stat, i);
            }
        }
    }
    let d_star = best.1;
    if !best.0.is_finite() {
        return unreliable; // NaN/∞ in the data
    }
    MserResult {
        truncate_obs: d_star * batch_size,
        d_star_batches: d_star,
        reliable: d_star < d_max,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn noise(n: usize, seed: u64) -> Vec<f64> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..n).map(|_| rng.random::<f64>() - 0.5).collect()
    }

    #[test]
    fn finds_clear_transient() {
        let mut xs = noise(2000, 3);
        for x in &mut xs[..200] {
            *x += 10.0;
        }
        let r = mser5(&xs);
        assert_eq!(r.d_star_batches, 40);
        assert_eq!(r.truncate_obs, 200);
        assert!(r.reliable);
    }

    #[test]
    fn stationary_series_truncates_little() {
        let r = mser5(&noise(5000, 4));
        assert!(r.reliable);
        assert!(r.truncate_obs < 500, "{r:?}");
    }

    #[test]
    fn hand_computed_small_case() {
        // Batch size 1, Z = [9, 0, 0, 0, 1, 0]; k = 6, d ∈ 0..=3.
        // d=0: mean 10/6, SSE = 81+1−100/6 = 65.33, /36 = 1.815
        // d=1: [0,0,0,1,0] SSE = 0.8, /25 = 0.032
        // d=2: [0,0,1,0]   SSE = 0.75, /16 = 0.0469
        // d=3: [0,1,0]     SSE = 0.667, /9 = 0.0741
        let r = mser(&[9.0, 0.0, 0.0, 0.0, 1.0, 0.0], 1);
        assert_eq!(
            r,
            MserResult {
                truncate_obs: 1,
                d_star_batches: 1,
                reliable: true
            }
        );
    }

    #[test]
    fn transient_too_long_is_flagged() {
        // A steady ramp: the minimum sits at the k/2 bound.
        let xs: Vec<f64> = (0..100).map(|i| -f64::from(i)).collect();
        let r = mser5(&xs);
        assert_eq!(r.d_star_batches, 10);
        assert_eq!(r.truncate_obs, 50);
        assert!(!r.reliable);
    }

    #[test]
    fn degenerate_inputs() {
        assert!(!mser5(&[]).reliable);
        assert!(!mser5(&[1.0; 9]).reliable); // one batch
        assert_eq!(mser(&[1.0; 10], 0).truncate_obs, 0);
        // Constant series: every d ties at 0, the smallest wins.
        let r = mser5(&[2.0; 100]);
        assert_eq!((r.d_star_batches, r.reliable), (0, true));
        assert!(!mser5(&[f64::NAN; 50]).reliable);
    }

    #[test]
    fn two_batches_are_enough_to_decide() {
        // k = 2, d ∈ {0, 1}. Equal batches: MSER(0) = 0 = MSER(1), the smaller d wins,
        // below the bound d = 1. A high first batch: MSER(1) = 0 < MSER(0) = 8/4, at the bound.
        assert_eq!(mser(&[1.0, 1.0], 1), MserResult { truncate_obs: 0, d_star_batches: 0, reliable: true });
        assert_eq!(mser(&[5.0, 1.0], 1), MserResult { truncate_obs: 1, d_star_batches: 1, reliable: false });
    }
}
