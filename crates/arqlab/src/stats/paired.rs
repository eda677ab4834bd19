//! Paired comparison of two variants under common random numbers.
//!
//! When variants A and B run replication `i` with the same seed, they see the same
//! arrivals and the same channel, so `a_i` and `b_i` are positively correlated and
//! `Var(a_i − b_i) = Var(a) + Var(b) − 2·Cov(a, b)` is much smaller than for independent
//! runs. The paired-t interval on the differences `d_i = a_i − b_i` exploits that and
//! needs no equal-variance assumption (Law & Kelton ch. 10, paired-t; Jain 1991 ch. 13,
//! paired observations). If it excludes 0, the variants differ at that confidence level.

use thiserror::Error;

use super::ci::Interval;

/// The two samples of a paired comparison must have one value per replication each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("paired comparison needs equal lengths, got {a} and {b}")]
pub struct LengthMismatch {
    /// Length of the first sample.
    pub a: usize,
    /// Length of the second sample.
    pub b: usize,
}

/// Student-t interval on the per-replication differences `a_i − b_i` at confidence `level`.
///
/// # Errors
/// [`LengthMismatch`] when `a` and `b` differ in length.
pub fn paired_difference(a: &[f64], b: &[f64], level: f64) -> Result<Interval, LengthMismatch> {
    if a.len() != b.len() {
        return Err(LengthMismatch {
            a: a.len(),
            b: b.len(),
        });
    }
    let diffs: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    Ok(super::tally::student_t(&diffs, level))
}

/// Expresses a difference interval relative to the baseline mean `mean_b`: e.g. a
/// `mean` of 0.12 means "A is 12% above B".
///
/// This divides by `mean_b` as if it were exact, ignoring its own sampling error; that is
/// adequate when B's relative half-width is small compared with the difference's.
/// `mean_b = 0` gives non-finite values.
#[must_use]
pub fn relative(iv_diff: &Interval, mean_b: f64) -> Interval {
    Interval {
        mean: iv_diff.mean / mean_b,
        half_width: iv_diff.half_width / mean_b.abs(),
        n: iv_diff.n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_paired_interval() {
        // Differences 1,2,3,4,5 (B shares A's noise): mean 3, s² = 2.5,
        // hw = 2.776·√(2.5/5) = 1.963.
        let b = [10.0, 20.0, 5.0, 40.0, 7.0];
        let a: Vec<f64> = b.iter().zip(1..).map(|(x, i)| x + f64::from(i)).collect();
        let iv = paired_difference(&a, &b, 0.95).expect("equal lengths");
        assert_eq!(iv.n, 5);
        assert!((iv.mean - 3.0).abs() < 1e-12);
        assert!((iv.half_width - 2.776 * 0.5f64.sqrt()).abs() < 1e-3);
        assert!(!iv.contains(0.0));
        // Unpaired, the huge spread of B would hide the difference entirely.
        let ua = crate::stats::student_t(&a, 0.95);
        assert!(ua.half_width > 5.0 * iv.half_width);
    }

    #[test]
    fn relative_difference() {
        let d = Interval {
            mean: 3.0,
            half_width: 1.5,
            n: 10,
        };
        let r = relative(&d, 30.0);
        assert_eq!(
            r,
            Interval {
                mean: 0.1,
                half_width: 0.05,
                n: 10
            }
        );
        let r = relative(&d, -30.0);
        assert_eq!((r.mean, r.half_width), (-0.1, 0.05));
    }

    #[test]
    fn mismatch_and_empty() {
        let e = paired_difference(&[1.0, 2.0], &[1.0], 0.95).unwrap_err();
        assert_eq!(e, LengthMismatch { a: 2, b: 1 });
        assert_eq!(
            e.to_string(),
            "paired comparison needs equal lengths, got 2 and 1"
        );
        let iv = paired_difference(&[], &[], 0.95).expect("equal lengths");
        assert!(iv.mean.is_nan() && iv.n == 0);
    }
}
