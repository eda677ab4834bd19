//! Simulated time: an integer count of picoseconds.
//!
//! Integer time makes a run a pure function of (scenario, seed): no rounding drift,
//! and ties are exact so the event queue can break them by insertion order.
//! `u64` picoseconds reach 213 days of simulated time.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time (picoseconds since the start of the run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time in picoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(pub u64);

pub const PS_PER_S: u64 = 1_000_000_000_000;
/// Seconds per picosecond: multiplying is much cheaper than dividing on the hot path.
const S_PER_PS: f64 = 1e-12;

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    /// Seconds as a float, for the boundary only (reports, statistics).
    #[inline]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * S_PER_PS
    }

    pub fn from_secs_f64(s: f64) -> SimTime {
        SimTime(Duration::from_secs_f64(s).0)
    }

    /// Time elapsed since `earlier` (saturating at zero).
    pub fn since(self, earlier: SimTime) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
}

impl Duration {
    pub const ZERO: Duration = Duration(0);

    /// Rounds to the nearest picosecond; negative or NaN inputs become zero
    /// (scenario validation rejects them before they get here).
    pub fn from_secs_f64(s: f64) -> Duration {
        if s.is_nan() || s <= 0.0 {
            return Duration(0);
        }
        // `+ 0.5` then truncation rounds to nearest without a libm call (`f64::round`
        // is not inlined on baseline x86-64 and this sits on the hot path).
        Duration((s * PS_PER_S as f64 + 0.5).min(u64::MAX as f64) as u64)
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / PS_PER_S as f64
    }

    /// Time to clock `bits` onto a line of `rate_bps`, to the nearest picosecond
    /// (at least 1 ps, so a frame always takes time).
    #[inline]
    pub fn transmission(bits: u64, rate_bps: f64) -> Duration {
        // The same arithmetic as `Direction::transmission_time` (picoseconds per bit,
        // times bits), so a timer computed from it and the link agree to the picosecond.
        let ps_per_bit = PS_PER_S as f64 / rate_bps;
        Duration(((bits as f64 * ps_per_bit + 0.5) as u64).max(1))
    }
}

impl Add<Duration> for SimTime {
    type Output = SimTime;
    fn add(self, d: Duration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}

impl AddAssign<Duration> for SimTime {
    fn add_assign(&mut self, d: Duration) {
        self.0 = self.0.saturating_add(d.0);
    }
}

impl Sub for SimTime {
    type Output = Duration;
    fn sub(self, rhs: SimTime) -> Duration {
        self.since(rhs)
    }
}

impl Add for Duration {
    type Output = Duration;
    fn add(self, d: Duration) -> Duration {
        Duration(self.0.saturating_add(d.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transmission_time_of_a_1048_bit_frame_at_48k() {
        let d = Duration::transmission(1048, 48_000.0);
        assert_eq!(d.0, 21_833_333_333);
    }

    #[test]
    fn seconds_round_trip() {
        let t = SimTime::from_secs_f64(0.05);
        assert_eq!(t.0, 50_000_000_000);
        assert!((t.as_secs_f64() - 0.05).abs() < 1e-15);
    }

    #[test]
    fn negative_and_nan_durations_are_zero() {
        assert_eq!(Duration::from_secs_f64(-1.0), Duration::ZERO);
        assert_eq!(Duration::from_secs_f64(f64::NAN), Duration::ZERO);
    }
}
