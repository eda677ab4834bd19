//! Tests of the histogram's held range and equality (`quantile.rs`): picosecond adds, extremes, out-of-range bins, Debug.
use super::*;

/// `add_secs_of_ps` is `add` of the quotient, bit for bit: the same state, for durations spread over 20 decades and for the integers
/// whose quotients sit next to bucket edges (where the shortcut must not be taken).
#[test]
fn add_secs_of_ps_equals_add_of_the_quotient() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    let mut ps: Vec<u64> = (0..200_000).map(|_| (10f64.powf(rng.random::<f64>() * 20.0)) as u64).collect();
    // Integers around bucket edges: ps = edge · 1e12 ± a few.
    for i in (ORIGIN + (30 << SUB_BUCKET_BITS))..(ORIGIN + (75 << SUB_BUCKET_BITS)) {
        let edge = f64::from_bits(i << SHIFT) * 1e12;
        if edge < 1e19 {
            ps.extend((edge as u64).saturating_sub(3)..=(edge as u64) + 3);
        }
    }
    // Above 2^53 ps the conversion to f64 rounds: the f64 neighbours of edge · 1e12
    // have quotients within an ulp or two of the edge, on either side.
    for i in (ORIGIN + (74 << SUB_BUCKET_BITS))..(ORIGIN + (85 << SUB_BUCKET_BITS)) {
        let at = f64::from_bits(i << SHIFT) * 1e12;
        let (down, up) = (f64::from_bits(at.to_bits() - 1), f64::from_bits(at.to_bits() + 1));
        ps.extend([down as u64, at as u64, up as u64]);
    }
    ps.extend([0, 1, 2, u64::MAX / 2, (1 << 63) + 5, u64::MAX]);
    let (mut a, mut b) = (LogHistogram::new(), LogHistogram::new());
    for (k, &t) in ps.iter().enumerate() {
        a.add(crate::engine::Duration(t).as_secs_f64());
        b.add_secs_of_ps(t);
        // The scalars after every observation (a missed minimum could be hidden by
        // a later one), the buckets every so often (counts only add up).
        assert_eq!((a.lo, a.total, a.zeros, a.underflow, a.overflow), (b.lo, b.total, b.zeros, b.underflow, b.overflow), "after {k} ({t} ps)");
        assert_eq!((a.min.to_bits(), a.max.to_bits()), (b.min.to_bits(), b.max.to_bits()), "after {k} ({t} ps)");
        if k % 997 == 0 || k + 10 > ps.len() {
            assert_eq!(a.counts, b.counts, "after {k} ({t} ps)");
        }
    }
}

fn of(xs: &[f64]) -> LogHistogram {
    let mut h = LogHistogram::new();
    xs.iter().for_each(|&x| h.add(x));
    h
}

#[test]
fn equality_is_same_observations_whatever_the_range_held() {
    // Only the exact minimum differs (1.0 and 1.001 share a bucket).
    assert_ne!(of(&[1.0, 3.0]), of(&[1.001, 3.0]));
    assert_ne!(of(&[1.0, 3.0]), of(&[1.0, 3.001]));
    // Only the middle bucket differs.
    assert_ne!(of(&[1.0, 2.0, 3.0]), of(&[1.0, 2.5, 3.0]));
    assert_ne!(of(&[0.0, 1.0]), of(&[1.0, 1.0]));
    // A histogram cleared after seeing 1.0 still holds the range from 1.0's bucket;
    // refilled with 100.0 it equals a fresh one holding only 100.0's bucket.
    let mut h = of(&[1.0, 100.0]);
    h.clear();
    h.add(100.0);
    assert!(h.counts.len() > 1 && h.lo < of(&[100.0]).lo);
    assert_eq!(h, of(&[100.0]));
    assert_ne!(h, of(&[99.0]));
}

#[test]
fn extremes_integers_and_the_out_of_range_bins() {
    let empty = LogHistogram::new();
    assert_eq!((empty.min(), empty.max()), (None, None));
    let mut h = of(&[4.0, 2.5]);
    assert_eq!((h.min(), h.max()), (Some(2.5), Some(4.0)));
    h.add_u64(30_000_000_000); // 30 ms in picoseconds
    assert_eq!((h.count(), h.max()), (3, Some(3.0e10)));
    // Zeros, then the underflow bin (its estimate: the range edge 2⁻⁶⁴), then buckets.
    let h = of(&[0.0, 1e-30, 5.0]);
    assert_eq!(h.quantile(0.34), Some(2f64.powi(MIN_EXP)));
    assert_eq!(h.quantile(0.3), Some(0.0));
    // Merging carries the out-of-range bins.
    let mut a = of(&[1e-30, 1.0, 0.0, -1.0]);
    a.merge(&of(&[1e-30, 1e30, 0.0, f64::NAN]));
    assert_eq!((a.zeros, a.underflow, a.overflow, a.rejected, a.count()), (2, 2, 1, 2, 6));
    assert_eq!(a, of(&[1e-30, 1.0, 0.0, -1.0, 1e-30, 1e30, 0.0, f64::NAN]));
}

#[test]
fn debug_shows_the_summary() {
    let s = format!("{:?}", of(&[0.0, 2.5, -1.0]));
    assert_eq!(s, "LogHistogram { count: 2, zeros: 1, underflow: 0, overflow: 0, rejected: 1, min: Some(0.0), max: Some(2.5), .. }");
}

#[test]
fn the_held_range_grows_both_ways_and_quantiles_do_not_depend_on_it() {
    // Descending then ascending values force growth below and above the range.
    let xs: Vec<f64> = (1..=200).map(|i| 1.0 / i as f64).chain((1..=200).map(|i| i as f64 * 3.7)).collect();
    let mut h = LogHistogram::new();
    for &x in &xs {
        h.add(x);
    }
    // Only the octaves between the smallest and the largest value are held.
    let octaves = (740.0f64 / (1.0 / 200.0)).log2().ceil() as usize + 1;
    assert!(h.counts.len() <= octaves * SUBS && h.counts.len() < N_BUCKETS / 7, "holds {} buckets", h.counts.len());
    let mut sorted = xs.clone();
    sorted.sort_by(f64::total_cmp);
    for q in [0.01, 0.1, 0.5, 0.9, 0.99] {
        let want = sorted[rank(q, sorted.len() as u64) as usize - 1];
        let got = h.quantile(q).unwrap();
        assert!((got - want).abs() / want <= RELATIVE_ERROR, "q {q}: {got} vs {want}");
    }
    // Merging disjoint ranges equals adding everything to one histogram.
    let (mut a, mut b) = (LogHistogram::new(), LogHistogram::new());
    xs[..200].iter().for_each(|&x| a.add(x));
    xs[200..].iter().for_each(|&x| b.add(x));
    a.merge(&b);
    assert_eq!(a, h);
    assert_eq!(a.quantile(0.95), h.quantile(0.95));
}
