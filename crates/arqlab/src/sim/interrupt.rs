//! A process-wide interrupt request, checked by the event loop.
//!
//! The simulation core never reads signals itself: the caller (the Python layer, on
//! Ctrl-C) calls [`request`], and a running replication notices it within a few
//! thousand events (the runner checks [`requested`] every [`CHECK_EVERY`] events) and
//! returns [`super::SimError::Interrupted`]. The flag stays set until [`clear`], so every
//! replication still running in this process stops; a caller clears it before starting
//! new work.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// The runner looks at the flag once every this many events (a power of two, so the
/// check is a mask; at ~20 M events/s that is a few milliseconds).
pub const CHECK_EVERY: u64 = 1 << 16;

/// Asks every replication running in this process to stop.
pub fn request() {
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Withdraws the request (before new work starts).
pub fn clear() {
    REQUESTED.store(false, Ordering::Relaxed);
}

/// Whether an interrupt has been requested and not cleared.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Whether the event loop should stop after `events` events: true on every
/// [`CHECK_EVERY`]-th event while a request is pending.
#[inline]
pub fn should_stop(events: u64) -> bool {
    events & (CHECK_EVERY - 1) == 0 && requested()
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test touches the process-wide flag, so tests cannot race on it.
    #[test]
    fn request_is_seen_only_at_check_points_until_cleared() {
        clear();
        assert!(!should_stop(CHECK_EVERY));
        request();
        assert!(requested());
        assert!(should_stop(CHECK_EVERY));
        assert!(should_stop(0));
        assert!(!should_stop(CHECK_EVERY + 1));
        clear();
        assert!(!requested());
        assert!(!should_stop(2 * CHECK_EVERY));
    }
}
