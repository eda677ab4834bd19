//! Non-overlapping batch means for steady-state measures from one long run.
//!
//! Observations inside a run (successive transfer times, per-interval throughputs) are
//! autocorrelated, so a t interval on them directly is far too narrow. Averaging them in
//! batches makes the batch means nearly independent once a batch is long compared with
//! the correlation time; the usual check is that the lag-1 autocorrelation of the batch
//! means is small, while keeping 10–30 batches so the t interval still has enough degrees
//! of freedom (Law & Kelton ch. 9; Fishman 1978). [`select_batches`] implements that
//! rule by doubling the batch size (merging adjacent pairs) until it holds.

use super::ci::Interval;

/// Student-t interval over batch means (each batch mean is one observation).
///
/// Valid only when the batch means are approximately independent; check with
/// [`lag1_autocorrelation`] or use [`select_batches`] first.
#[must_use]
pub fn batch_means(values: &[f64], level: f64) -> Interval {
    super::tally::student_t(values, level)
}

/// Means of consecutive batches of `batch_size` raw observations; a trailing partial
/// batch is dropped so all batches have equal weight. Empty if `batch_size == 0`.
#[must_use]
pub fn form_batches(observations: &[f64], batch_size: usize) -> Vec<f64> {
    if batch_size == 0 {
        return Vec::new();
    }
    observations
        .chunks_exact(batch_size)
        .map(|b| b.iter().sum::<f64>() / batch_size as f64)
        .collect()
}

/// Lag-1 sample autocorrelation `Σ(x_i−x̄)(x_{i+1}−x̄) / Σ(x_i−x̄)²`.
///
/// `NaN` for fewer than 2 values. A constant series returns 0: there is no variation
/// to be correlated, and such a measure (e.g. one that is identically zero) must not
/// block [`select_batches`]. Note the estimator is biased downwards by about `−1/k`
/// for `k` batches.
#[must_use]
pub fn lag1_autocorrelation(xs: &[f64]) -> f64 {
    let k = xs.len();
    if k < 2 {
        return f64::NAN;
    }
    let mean = xs.iter().sum::<f64>() / k as f64;
    let den: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
    if den == 0.0 {
        return 0.0;
    }
    let num: f64 = xs.windows(2).map(|w| (w[0] - mean) * (w[1] - mean)).sum();
    num / den
}

/// Merges adjacent pairs of batches (doubling the batch size, halving the count).
/// With an odd count the last batch is dropped, keeping all batches equal in size.
#[must_use]
pub fn coarsen(batches: &[f64]) -> Vec<f64> {
    batches
        .chunks_exact(2)
        .map(|p| 0.5 * (p[0] + p[1]))
        .collect()
}

/// Coarsens `batches` until `|lag-1 autocorrelation| < max_abs_lag1`, or until one more
/// halving would leave fewer than `min_batches`. Returns the batches reached and their
/// lag-1 autocorrelation; the caller should treat a returned `|lag1| ≥ max_abs_lag1` as
/// "run longer" (more batches are needed, not a wider interval).
///
/// Typical call: `select_batches(&initial_batches, 10, 0.1)` starting from e.g. 40–80
/// small batches.
#[must_use]
pub fn select_batches(batches: &[f64], min_batches: usize, max_abs_lag1: f64) -> (Vec<f64>, f64) {
    let mut current = batches.to_vec();
    loop {
        let lag1 = lag1_autocorrelation(&current);
        if lag1.abs() < max_abs_lag1 || current.len() / 2 < min_batches.max(2) {
            return (current, lag1);
        }
        current = coarsen(&current);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn lag1_hand_computed() {
        // 1,2,3,4: mean 2.5, den = 5, num = (−1.5)(−.5)+(−.5)(.5)+(.5)(1.5) = 1.25.
        assert!((lag1_autocorrelation(&[1.0, 2.0, 3.0, 4.0]) - 0.25).abs() < 1e-15);
        // Alternating series: strongly negative. 1,−1,1,−1: num = −3, den = 4.
        assert!((lag1_autocorrelation(&[1.0, -1.0, 1.0, -1.0]) + 0.75).abs() < 1e-15);
        assert_eq!(lag1_autocorrelation(&[2.0; 5]), 0.0);
        // Two values: always −1/2 (−d²/(2d²)), the smallest series with a lag-1.
        assert_eq!(lag1_autocorrelation(&[1.0, 3.0]), -0.5);
        assert!(lag1_autocorrelation(&[1.0]).is_nan());
        assert!(lag1_autocorrelation(&[]).is_nan());
    }

    #[test]
    fn lag1_is_exact_under_a_large_offset() {
        // Picosecond batch means sit near 10¹⁵ with a spread of a few units: the
        // deviations from the mean must be squared, not Σx² − k·x̄² formed from
        // products of the huge values. Every step here is exact in binary (mean
        // 10¹⁵ + 2.5), so the lag-1 of 1,2,3,4 (0.25) comes out exactly.
        let xs: Vec<f64> = [1.0, 2.0, 3.0, 4.0].iter().map(|x| x + 1e15).collect();
        assert_eq!(lag1_autocorrelation(&xs), 0.25);
    }

    #[test]
    fn form_and_coarsen() {
        let xs = [1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 100.0];
        assert_eq!(form_batches(&xs, 2), vec![2.0, 6.0, 10.0]);
        assert_eq!(form_batches(&xs, 0), Vec::<f64>::new());
        assert_eq!(coarsen(&[2.0, 6.0, 10.0]), vec![4.0]);
        assert_eq!(coarsen(&[1.0, 2.0, 3.0, 4.0]), vec![1.5, 3.5]);
        assert!(coarsen(&[]).is_empty());
        // Coarsening batches equals forming batches twice the size.
        let ys: Vec<f64> = (0..64).map(|i| f64::from(i * i % 13)).collect();
        assert_eq!(coarsen(&form_batches(&ys, 4)), form_batches(&ys, 8));
    }

    #[test]
    fn interval_over_batches() {
        let iv = batch_means(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.95);
        assert_eq!(iv.n, 5);
        assert!((iv.half_width - 2.776 * 0.5f64.sqrt()).abs() < 1e-3);
    }

    /// AR(1) with φ = 0.9: batches of 1 have lag-1 ≈ 0.9; doubling the size shrinks it.
    #[test]
    fn select_batches_decorrelates_ar1() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut y = 0.0;
        let obs: Vec<f64> = (0..64_000)
            .map(|_| {
                y = 0.9 * y + (rng.random::<f64>() - 0.5);
                y
            })
            .collect();
        let fine = form_batches(&obs, 5); // 12 800 batches of 5
        assert!(lag1_autocorrelation(&fine) > 0.5);
        let (chosen, lag1) = select_batches(&fine, 10, 0.1);
        assert!(lag1.abs() < 0.1, "lag1 {lag1}");
        assert!(chosen.len() >= 10);
        assert!(chosen.len() < fine.len());
        // The chosen batches are exactly the fine ones merged 2^j at a time.
        let factor = fine.len() / chosen.len();
        assert!(factor.is_power_of_two());
        let direct = form_batches(&obs, 5 * factor);
        for (c, d) in chosen.iter().zip(&direct) {
            assert!((c - d).abs() < 1e-12);
        }
    }

    #[test]
    fn select_batches_stops_at_min_batches() {
        // A linear trend never decorrelates: stop at ≥ 10 batches and report the lag.
        let trend: Vec<f64> = (0..40).map(f64::from).collect();
        let (chosen, lag1) = select_batches(&trend, 10, 0.1);
        assert_eq!(chosen.len(), 10);
        assert!(lag1 > 0.1);
        // Already uncorrelated input is returned unchanged.
        let alt = [1.0, 3.0, 2.0, 2.0, 3.0, 1.0, 2.0, 2.0, 1.0, 3.0, 2.0, 2.0];
        let (same, l) = select_batches(&alt, 10, 0.6); // lag1 = −3/6
        assert_eq!(same, alt.to_vec());
        assert!((l + 0.5).abs() < 1e-15);
        // The bound is strict: |lag-1| equal to it still counts as correlated.
        // 1,−1,1,−1 has lag-1 −3/4 exactly; one halving gives 0,0 (lag-1 0).
        let (merged, l) = select_batches(&[1.0, -1.0, 1.0, -1.0], 2, 0.75);
        assert_eq!((merged, l), (vec![0.0, 0.0], 0.0));
    }
}
