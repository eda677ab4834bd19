//! Time-weighted average of a piecewise-constant quantity.
//!
//! Queue lengths, buffer occupancy and window size are *continuous-time* statistics:
//! each value counts in proportion to how long it was held, not once per change
//! (Law & Kelton ch. 1, the time-average number in queue `∫Q(t)dt / T`). Averaging the
//! values at change instants instead would be biased towards short-lived states.

use serde::Serialize;

/// Running integral of a step function `v(t)`, giving `∫v dt / (t_end − t0)`.
///
/// Times are `f64` in any unit (seconds, or picoseconds converted from the engine's
/// `u64`); only differences are used. A time earlier than the last update is treated as
/// the last update time (zero-length step), so a stale timestamp cannot make the
/// integral negative.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TimeAverage {
    /// Start of the observation window.
    t0: f64,
    /// Time of the last change.
    last_t: f64,
    /// Value held since `last_t`.
    value: f64,
    /// `∫ v dt` over `[t0, last_t]`.
    area: f64,
    /// Largest value held during the window.
    max: f64,
}

impl TimeAverage {
    /// Starts observing at `t0` with value 0 (e.g. an empty queue).
    #[must_use]
    pub const fn new(t0: f64) -> Self {
        Self::with_value(t0, 0.0)
    }

    /// Starts observing at `t0` with value `v0`.
    #[must_use]
    pub const fn with_value(t0: f64, v0: f64) -> Self {
        Self {
            t0,
            last_t: t0,
            value: v0,
            area: 0.0,
            max: v0,
        }
    }

    /// The value changes to `new_value` at time `t`.
    #[inline]
    pub fn update(&mut self, t: f64, new_value: f64) {
        self.advance(t);
        self.value = new_value;
        self.max = self.max.max(new_value);
    }

    /// Accumulates the current value up to `t` (no-op if `t` is not after the last change).
    #[inline]
    fn advance(&mut self, t: f64) {
        if t > self.last_t {
            self.area += self.value * (t - self.last_t);
            self.last_t = t;
        }
    }

    /// Time-average over `[t0, t_end]`, the current value extending to `t_end`.
    /// `NaN` for an empty window (`t_end ≤ t0`).
    #[must_use]
    pub fn mean(&self, t_end: f64) -> f64 {
        let span = t_end - self.t0;
        if span.is_nan() || span <= 0.0 {
            return f64::NAN;
        }
        let tail = if t_end > self.last_t {
            self.value * (t_end - self.last_t)
        } else {
            0.0
        };
        (self.area + tail) / span
    }

    /// `∫ v dt` over `[t0, t_end]`.
    #[must_use]
    pub fn integral(&self, t_end: f64) -> f64 {
        self.area + self.value * (t_end - self.last_t).max(0.0)
    }

    /// Largest value held since `t0` (or the last [`reset`](Self::reset)).
    #[must_use]
    pub const fn max(&self) -> f64 {
        self.max
    }

    /// Value currently held.
    #[must_use]
    pub const fn value(&self) -> f64 {
        self.value
    }

    /// Discards everything before `t` (warm-up deletion): the window restarts at `t`
    /// with the value currently held, and the maximum restarts from that value.
    pub fn reset(&mut self, t: f64) {
        let t = t.max(self.last_t);
        self.t0 = t;
        self.last_t = t;
        self.area = 0.0;
        self.max = self.value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_average() {
        // 0 on [0,2), 3 on [2,5), 1 on [5,10]: ∫ = 0 + 9 + 5 = 14 over 10.
        let mut a = TimeAverage::new(0.0);
        a.update(2.0, 3.0);
        a.update(5.0, 1.0);
        assert!((a.mean(10.0) - 1.4).abs() < 1e-15);
        assert!((a.integral(10.0) - 14.0).abs() < 1e-15);
        assert_eq!(a.max(), 3.0);
        assert_eq!(a.value(), 1.0);
        // The naive average of the change values (0,3,1) would be 4/3.
        // Querying the mean does not change the state.
        assert!((a.mean(5.0) - 9.0 / 5.0).abs() < 1e-15);
    }

    #[test]
    fn nonzero_start_and_initial_value() {
        // 2 on [10,14), 6 on [14,20]: (8 + 36)/10.
        let mut a = TimeAverage::with_value(10.0, 2.0);
        a.update(14.0, 6.0);
        assert!((a.mean(20.0) - 4.4).abs() < 1e-15);
        assert!(a.mean(10.0).is_nan());
        assert!(a.mean(5.0).is_nan());
    }

    #[test]
    fn stale_timestamp_is_zero_length() {
        let mut a = TimeAverage::new(0.0);
        a.update(4.0, 5.0);
        a.update(3.0, 1.0); // earlier than 4: step of zero length
        assert!((a.mean(8.0) - 0.5).abs() < 1e-15); // 1 on [4,8] → 4/8
        assert_eq!(a.max(), 5.0);
    }

    #[test]
    fn reset_deletes_warm_up() {
        let mut a = TimeAverage::new(0.0);
        a.update(1.0, 100.0); // transient
        a.update(2.0, 4.0);
        a.reset(3.0); // window [3, ..], value 4 carried over
        a.update(5.0, 2.0);
        // 4 on [3,5), 2 on [5,7]: (8 + 4)/4 = 3.
        assert!((a.mean(7.0) - 3.0).abs() < 1e-15);
        assert_eq!(a.max(), 4.0);
        assert_eq!(a.value(), 2.0);
    }
}
