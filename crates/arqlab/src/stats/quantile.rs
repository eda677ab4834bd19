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
#[path = "quantile_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "quantile_range_tests.rs"]
mod range_tests;
