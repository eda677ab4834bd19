//! A process-wide interrupt request, checked by the event loop.
//!
//! The simulation core never reads signals itself: the caller (the Python layer, on
//! Ctrl-C) calls [`request`], and a running replication notices it within a few
//! thousand events (the runner looks at the flag once every [`CHECK_EVERY`] events, at
//! the check point where it also watches for a livelock, `sim::livelock`) and returns
//! [`super::SimError::Interrupted`]. The
//! flag stays set until [`clear`], so every replication running in this process stops;
//! a caller clears it before starting new work.

use std::sync::atomic::{AtomicBool, Ordering};

/// The runner looks at the flag once every this many events (a power of two, so the
/// check is a mask; at ~20 M events/s that is a few milliseconds).
pub const CHECK_EVERY: u64 = 1 << 16;

/// An interrupt flag. The process has one ([`request`], [`clear`], [`requested`]).
#[derive(Debug, Default)]
pub struct Flag(AtomicBool);

impl Flag {
    pub const fn new() -> Self {
        Flag(AtomicBool::new(false))
    }
    pub fn request(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// True on every [`CHECK_EVERY`]-th event while a request is pending.
    #[inline]
    pub fn should_stop(&self, events: u64) -> bool {
        events & (CHECK_EVERY - 1) == 0 && self.requested()
    }
}

static PROCESS: Flag = Flag::new();

/// Asks every replication running in this process to stop.
pub fn request() {
    PROCESS.request();
}

/// Withdraws the request (before new work starts).
pub fn clear() {
    PROCESS.clear();
}

/// Whether an interrupt has been requested and not cleared.
pub fn requested() -> bool {
    PROCESS.requested()
}

#[cfg(test)]
mod tests {
    use super::*;

    // A local flag: the process-wide one is left alone, so replications that other
    // tests run in parallel threads are never interrupted.
    #[test]
    fn request_is_seen_only_at_check_points_until_cleared() {
        let flag = Flag::new();
        assert!(!flag.should_stop(CHECK_EVERY));
        flag.request();
        assert!(flag.requested());
        assert!(flag.should_stop(CHECK_EVERY));
        assert!(flag.should_stop(0));
        assert!(!flag.should_stop(CHECK_EVERY + 1));
        flag.clear();
        assert!(!flag.requested());
        assert!(!flag.should_stop(2 * CHECK_EVERY));
    }
}
