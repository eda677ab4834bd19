//! Fixed-memory quantile estimation with a log-linear histogram.
//!
//! Transfer-time percentiles (e.g. `transfer_time_p95_s`) need quantiles of millions of
//! observations per run. Storing and sorting them costs memory proportional to the run
//! length; a log-linear histogram (the HdrHistogram idea) costs a fixed 132 KiB and one
//! integer increment per observation, with a *relative* error bound that holds equally
//! for picoseconds and hours.
//!
//! # Layout and error bound
//!
//! A positive `f64` is `2^e · (1 + m)` with `m ∈ [0, 1)`. The bucket index is the biased
//! exponent `e` concatenated with the top [`SUB_BUCKET_BITS`]` = 7` bits of the mantissa,
//! read straight from [`f64::to_bits`] (one shift and one subtraction, no `log`). Each
//! binary octave `[2^e, 2^(e+1))` is thus cut into 128 equal sub-buckets of width
//! `2^e/128`. A quantile is reported as the midpoint of the bucket holding the
//! corresponding order statistic `x`, so `|estimate − x| ≤ 2^e/256 ≤ x·2^-8`:
//!
//! **for values in `[2^-64, 2^65)` (≈ 5.4·10⁻²⁰ to 3.7·10¹⁹, covering seconds down to
//! sub-picosecond and any `u64` picosecond count), every quantile estimate is within a
//! relative error of 2⁻⁸ ≈ 0.39% of the exact sample quantile.**
//!
//! Estimates are also clamped to the exact observed `[min, max]`, and `q = 0` / `q = 1`
//! return the exact minimum / maximum. Zeros are counted exactly (estimate `0`). Positive
//! values outside the range are counted in an underflow/overflow bin whose quantile
//! estimate is the clamped range edge, with no error bound. Negative, NaN and infinite
//! inputs are not observations of a duration: they are counted in
//! [`LogHistogram::rejected`] and otherwise ignored.

use std::fmt;

/// Mantissa bits kept per octave: 2^7 = 128 linear sub-buckets.
pub const SUB_BUCKET_BITS: u32 = 7;
/// Smallest binary exponent with its own buckets (values `≥ 2^MIN_EXP`).
pub const MIN_EXP: i32 = -64;
/// Largest binary exponent with its own buckets (values `< 2^(MAX_EXP+1)`).
pub const MAX_EXP: i32 = 64;
/// Guaranteed relative error of a quantile estimate within the range: 2^-(SUB_BUCKET_BITS+1).
pub const RELATIVE_ERROR: f64 = 1.0 / (1u64 << (SUB_BUCKET_BITS + 1)) as f64;

const MANTISSA_BITS: u32 = 52;
const SHIFT: u32 = MANTISSA_BITS - SUB_BUCKET_BITS;
const SUBS: usize = 1 << SUB_BUCKET_BITS;
const N_BUCKETS: usize = (MAX_EXP - MIN_EXP + 1) as usize * SUBS;
/// `to_bits() >> SHIFT` of `2^MIN_EXP`: the index origin.
const ORIGIN: u64 = ((1023 + MIN_EXP) as u64) << SUB_BUCKET_BITS;

/// Log-linear histogram of non-negative values with fixed memory (see the module docs
/// for the error bound).
#[derive(Clone)]
pub struct LogHistogram {
    /// Counts of buckets `lo .. lo + counts.len()`: only the range observed so far is
    /// held (a few hundred buckets in practice, not all 16,512), so a run with many
    /// flows keeps its memory and its window resets small.
    counts: Vec<u64>,
    lo: usize,
    zeros: u64,
    underflow: u64,
    overflow: u64,
    rejected: u64,
    total: u64,
    min: f64,
    max: f64,
}

/// Equal when they hold the same observations: the same count in every bucket, whatever
/// range of buckets each happens to hold.
impl PartialEq for LogHistogram {
    fn eq(&self, o: &Self) -> bool {
        let nonzero = |h: &LogHistogram| h.counts.iter().enumerate().filter(|(_, &c)| c > 0).map(|(i, &c)| (h.lo + i, c)).collect::<Vec<_>>();
        (self.zeros, self.underflow, self.overflow, self.rejected, self.total) == (o.zeros, o.underflow, o.overflow, o.rejected, o.total)
            && self.min.to_bits() == o.min.to_bits()
            && self.max.to_bits() == o.max.to_bits()
            && nonzero(self) == nonzero(o)
    }
}

impl Default for LogHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for LogHistogram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LogHistogram")
            .field("count", &self.total)
            .field("zeros", &self.zeros)
            .field("underflow", &self.underflow)
            .field("overflow", &self.overflow)
            .field("rejected", &self.rejected)
            .field("min", &self.min())
            .field("max", &self.max())
            .finish_non_exhaustive()
    }
}

impl LogHistogram {
    /// An empty histogram (allocates its fixed bucket array once, here).
    #[must_use]
    pub fn new() -> Self {
        Self {
            counts: Vec::new(),
            lo: 0,
            zeros: 0,
            underflow: 0,
            overflow: 0,
            rejected: 0,
            total: 0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }

    /// Records one observation. Allocation-free and `log`-free.
    #[inline]
    pub fn add(&mut self, x: f64) {
        if x > 0.0 && x < f64::INFINITY {
            let idx = bucket(x);
            match self.held(idx) {
                Some(c) => *c += 1,
                None if (idx as usize) < N_BUCKETS => self.widen(idx as usize),
                None if x.to_bits() >> SHIFT < ORIGIN => self.underflow += 1,
                None => self.overflow += 1,
            }
        } else if x == 0.0 {
            self.zeros += 1;
        } else {
            self.rejected += 1;
            return;
        }
        self.total += 1;
        self.min = self.min.min(x);
        self.max = self.max.max(x);
    }

    /// The counter of bucket `idx`, if the range held so far includes it.
    #[inline(always)]
    fn held(&mut self, idx: u64) -> Option<&mut u64> {
        self.counts.get_mut((idx as usize).wrapping_sub(self.lo))
    }

    /// Counts bucket `idx`, outside the range held so far: widens the range to it.
    #[cold]
    fn widen(&mut self, idx: usize) {
        if self.counts.is_empty() {
            self.lo = idx;
        } else if idx < self.lo {
            let mut c = vec![0; self.lo - idx];
            c.extend_from_slice(&self.counts);
            self.counts = c;
            self.lo = idx;
        }
        let i = idx - self.lo;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
    }

    /// Records a non-negative integer (e.g. a duration in picoseconds).
    #[inline]
    pub fn add_u64(&mut self, x: u64) {
        self.add(x as f64);
    }

    /// Records `ps` picoseconds in seconds: exactly `add(ps as f64 / 1e12)` (same bucket,
    /// minimum and maximum, bit for bit), without the division on the common path.
    /// The product with 1e-12 is within two ulps of the quotient, so when it lies at
    /// least four ulps inside its bucket and clearly between the minimum and maximum
    /// so far, the quotient falls in the same bucket and changes neither extreme: only
    /// the count moves. Otherwise the quotient is computed. (A division's latency sat
    /// on every delivery of a run.)
    #[inline]
    pub fn add_secs_of_ps(&mut self, ps: u64) {
        const LOW: u64 = (1 << SHIFT) - 1;
        // `ps as i64 as f64` is `ps as f64` for ps < 2^63 (one instruction instead of
        // the unsigned conversion's several); above, the product is negative and never
        // passes the test below.
        let approx = ps as i64 as f64 * 1e-12;
        let low = approx.to_bits() & LOW;
        if (4..=LOW - 4).contains(&low) && approx > self.min * (1.0 + 1e-14) && approx < self.max * (1.0 - 1e-14) {
            if let Some(c) = self.held(bucket(approx)) {
                *c += 1;
                self.total += 1;
                return;
            }
        }
        self.add(ps as f64 / 1e12);
    }

    /// Number of recorded observations (rejected inputs excluded).
    #[must_use]
    pub const fn count(&self) -> u64 {
        self.total
    }

    /// Number of negative, NaN or infinite inputs that were ignored.
    #[must_use]
    pub const fn rejected(&self) -> u64 {
        self.rejected
    }

    /// Exact smallest observation, if any.
    #[must_use]
    pub fn min(&self) -> Option<f64> {
        (self.total > 0).then_some(self.min)
    }

    /// Exact largest observation, if any.
    #[must_use]
    pub fn max(&self) -> Option<f64> {
        (self.total > 0).then_some(self.max)
    }

    /// Estimate of the `q`-quantile, defined as the order statistic `x_(k)` with
    /// `k = max(1, ⌈q·n⌉)`. `None` when empty or when `q ∉ [0, 1]`.
    #[must_use]
    pub fn quantile(&self, q: f64) -> Option<f64> {
        if self.total == 0 || q.is_nan() || !(0.0..=1.0).contains(&q) {
            return None;
        }
        if q == 0.0 {
            return Some(self.min);
        }
        if q == 1.0 {
            return Some(self.max);
        }
        let k = rank(q, self.total);
        let clamp = |v: f64| v.clamp(self.min, self.max);
        let mut cum = self.zeros;
        if cum >= k {
            return Some(0.0);
        }
        cum += self.underflow;
        if cum >= k {
            return Some(clamp(2f64.powi(MIN_EXP)));
        }
        for (i, &c) in self.counts.iter().enumerate() {
            cum += c;
            if cum >= k {
                return Some(clamp(midpoint(self.lo + i)));
            }
        }
        Some(self.max)
    }

    /// Adds all observations of `other` to `self` (e.g. across replications).
    pub fn merge(&mut self, other: &LogHistogram) {
        for (i, &b) in other.counts.iter().enumerate() {
            if b > 0 {
                let idx = other.lo + i;
                match self.counts.get_mut(idx.wrapping_sub(self.lo)) {
                    Some(a) => *a += b,
                    None => {
                        self.widen(idx);
                        self.counts[idx - self.lo] += b - 1;
                    }
                }
            }
        }
        self.zeros += other.zeros;
        self.underflow += other.underflow;
        self.overflow += other.overflow;
        self.rejected += other.rejected;
        self.total += other.total;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }

    /// Forgets every observation (e.g. at the end of the warm-up), keeping the memory.
    pub fn clear(&mut self) {
        self.counts.fill(0); // keeps the range: the next window sees much the same values
        self.zeros = 0;
        self.underflow = 0;
        self.overflow = 0;
        self.rejected = 0;
        self.total = 0;
        self.min = f64::INFINITY;
        self.max = f64::NEG_INFINITY;
    }
}

/// `k = max(1, ⌈q·n⌉)`, tolerant of `q·n` landing a rounding error above an integer
/// (e.g. `0.95 × 100 = 95.000…01` must give 95, not 96).
fn rank(q: f64, n: u64) -> u64 {
    let r = q * n as f64;
    let nearest = r.round();
    let k = if (r - nearest).abs() <= 1e-9 * r.max(1.0) {
        nearest
    } else {
        r.ceil()
    };
    (k as u64).clamp(1, n)
}

/// The bucket of a positive `x`: the sign bit is 0, so the top bits are (biased
/// exponent, mantissa prefix).
#[inline(always)]
fn bucket(x: f64) -> u64 {
    (x.to_bits() >> SHIFT).wrapping_sub(ORIGIN)
}

/// Midpoint of bucket `i`: its lower edge with the next mantissa bit set.
fn midpoint(i: usize) -> f64 {
    f64::from_bits(((i as u64 + ORIGIN) << SHIFT) | (1u64 << (SHIFT - 1)))
}

#[cfg(test)]
mod tests {
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
}

#[cfg(test)]
mod range_tests {
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
}
