//! Tests of the log-linear histogram (`quantile.rs`): quantiles within the bound, bucket geometry, zeros, clamping, merging, rank rounding.
use super::*;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn exact(sorted: &[f64], q: f64) -> f64 {
    sorted[rank(q, sorted.len() as u64) as usize - 1]
}

fn check_exponential(scale: f64, seed: u64) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut h = LogHistogram::new();
    let mut xs: Vec<f64> = (0..50_000)
        .map(|_| -scale * (1.0 - rng.random::<f64>()).ln())
        .collect();
    for &x in &xs {
        h.add(x);
    }
    xs.sort_by(f64::total_cmp);
    assert_eq!(h.count(), xs.len() as u64);
    for q in [
        0.0, 1e-4, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1.0,
    ] {
        let want = exact(&xs, q);
        let got = h.quantile(q).expect("non-empty");
        let rel = (got - want).abs() / want;
        assert!(
            rel <= RELATIVE_ERROR,
            "scale {scale} q {q}: {got} vs {want} ({rel})"
        );
    }
    assert_eq!(h.quantile(0.0), Some(xs[0]));
    assert_eq!(h.quantile(1.0), xs.last().copied());
}

#[test]
fn exponential_seconds_within_bound() {
    check_exponential(0.020, 1); // 20 ms transfer times
}

#[test]
fn exponential_picoseconds_within_bound() {
    check_exponential(3.0e10, 2); // 30 ms in ps
}

#[test]
fn bucket_geometry() {
    assert_eq!(RELATIVE_ERROR, 1.0 / 256.0);
    // 1.0 is the lower edge of its bucket: midpoint 1 + 1/256, the worst case.
    let mut h = LogHistogram::new();
    h.add(1.0);
    h.add(3.0);
    assert_eq!(h.quantile(0.5), Some(1.0 + 1.0 / 256.0));
    // Sub-buckets are linear inside an octave: 1.5 sits at [1.5, 1.5+1/128).
    let mut h = LogHistogram::new();
    h.add(1.5);
    h.add(2.0);
    assert_eq!(h.quantile(0.5), Some(1.5 + 1.0 / 256.0));
    // Extremes of the bucketed range.
    let mut h = LogHistogram::new();
    h.add(2f64.powi(MIN_EXP));
    h.add(2f64.powi(MAX_EXP + 1) * (1.0 - f64::EPSILON));
    h.add_u64(u64::MAX); // rounds to 2^64: still bucketed
    assert_eq!(h.underflow + h.overflow, 0);
    h.add(2f64.powi(MAX_EXP + 1));
    h.add(2f64.powi(MIN_EXP) * (1.0 - f64::EPSILON));
    h.add(f64::from_bits(1)); // subnormal
    assert_eq!((h.underflow, h.overflow), (2, 1));
}

#[test]
fn zeros_and_rejected() {
    let mut h = LogHistogram::new();
    assert_eq!(h.quantile(0.5), None);
    for x in [0.0, -0.0, 0.0, 5.0] {
        h.add(x);
    }
    for x in [-1.0, f64::NAN, f64::INFINITY] {
        h.add(x);
    }
    assert_eq!((h.count(), h.rejected()), (4, 3));
    // Rejected inputs touch neither the zeros nor the exact extremes.
    assert_eq!((h.zeros, h.min(), h.max()), (3, Some(0.0), Some(5.0)));
    assert_eq!(h.quantile(0.75), Some(0.0));
    let top = h.quantile(0.9).expect("non-empty");
    assert!((top - 5.0).abs() <= 5.0 * RELATIVE_ERROR);
    assert_eq!(h.quantile(1.5), None);
    assert_eq!(h.quantile(f64::NAN), None);
}

#[test]
fn out_of_range_is_clamped() {
    let mut h = LogHistogram::new();
    h.add(1e-30);
    h.add(2e-30);
    assert_eq!(h.underflow, 2);
    let q = h.quantile(0.5).expect("non-empty");
    assert!((1e-30..=2e-30).contains(&q));
    h.add(1e30);
    assert_eq!(h.quantile(0.99), Some(1e30));
}

#[test]
fn merge_equals_single_and_clear_empties() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let xs: Vec<f64> = (0..2000).map(|_| rng.random::<f64>() * 10.0).collect();
    let mut all = LogHistogram::new();
    let (mut a, mut b) = (LogHistogram::new(), LogHistogram::new());
    for (i, &x) in xs.iter().enumerate() {
        all.add(x);
        if i % 3 == 0 {
            a.add(x)
        } else {
            b.add(x)
        }
    }
    a.merge(&b);
    assert_eq!(a, all);
    a.clear();
    assert_eq!(a, LogHistogram::new());
    assert_eq!(a.quantile(0.5), None);
}

#[test]
fn rank_is_robust_to_rounding() {
    assert_eq!(rank(0.95, 100), 95);
    // 0.07 × 100 = 7.000000000000001 and 0.07 × 10⁸ = 7000000.000000001 in binary:
    // the tolerance scales with q·n.
    assert_eq!(rank(0.07, 100), 7);
    assert_eq!(rank(0.07, 100_000_000), 7_000_000);
    assert_eq!(rank(0.29, 100_000_000), 29_000_000);
    assert_eq!(rank(0.951, 100), 96);
    assert_eq!(rank(0.5, 3), 2);
    assert_eq!(rank(1e-9, 10), 1);
    assert_eq!(rank(1.0, 10), 10);
}
