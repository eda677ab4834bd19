//! Who waits for a token ring's token, and the one wake-up the ring keeps live: for the
//! waiting station the free token reaches first. Every other waiting station would
//! find the token taken upstream when its own pass came, so it is not woken; when the
//! armed station takes the token (or lets it pass), the ring arms the next.
//!
//! The waiting stations are a bit set in ring order. The free token passes stations in
//! that order, so the next to arm is the first set bit at or after the station the
//! token reaches first (`TokenRing::reaches_first`), and only its pass is computed: a
//! re-arm costs a few bit operations and one `ready_at`, whatever the number waiting.
//! On a ring whose stations are not all apart (zero delays: several stations passed at
//! the same instant) every waiting station is woken for its own pass, as before.

use crate::channel::TokenRing;
use crate::engine::SimTime;

pub(super) struct RingWaits {
    /// Station positions waiting for the token (a frame to send, the token elsewhere),
    /// one bit each.
    bits: Box<[u64]>,
    /// How many bits are set.
    count: u32,
    /// The live wake-up, (time, station). Any other wake-up of a ring station still
    /// queued was overtaken (a nearer station started waiting) and finds the token
    /// elsewhere.
    armed: Option<(SimTime, u32)>,
    /// False: every waiting station is woken for its own pass (`TokenRing::stations_apart`).
    one_live: bool,
}

impl RingWaits {
    pub(super) fn new(mac: &TokenRing, stations: usize) -> RingWaits {
        RingWaits { bits: vec![0; stations.div_ceil(64).max(1)].into(), count: 0, armed: None, one_live: mac.stations_apart() }
    }

    #[inline]
    fn is_waiting(&self, pos: u32) -> bool {
        self.bits[(pos / 64) as usize] >> (pos % 64) & 1 == 1
    }

    #[inline]
    fn set(&mut self, pos: u32, on: bool) {
        let (w, b) = ((pos / 64) as usize, 1u64 << (pos % 64));
        if (self.bits[w] & b != 0) != on {
            self.bits[w] ^= b;
            self.count = if on { self.count + 1 } else { self.count - 1 };
        }
    }

    /// Station `pos` waits for the token, which reaches it at `at` as far as is known
    /// now. True if its wake-up must be scheduled: it is now the first waiting station
    /// the token reaches (a station armed at or before `at` goes first; when it takes
    /// the token, `rearm` wakes the next).
    #[inline]
    pub(super) fn wait(&mut self, pos: u32, at: SimTime) -> bool {
        if !self.one_live {
            return true;
        }
        self.set(pos, true);
        if self.armed.is_some_and(|(t, _)| t <= at) {
            return false;
        }
        self.armed = Some((at, pos));
        true
    }

    /// Station `pos`'s wake-up (live or overtaken) fired at `now`: it waits no more
    /// until it asks again. True if it was the live one (the caller re-arms after the
    /// station's turn, if the station did not take the token).
    #[inline]
    pub(super) fn woken(&mut self, pos: u32, now: SimTime) -> bool {
        self.set(pos, false);
        let live = self.armed == Some((now, pos));
        if live {
            self.armed = None;
        }
        live
    }

    /// True if some station waits and none is armed: `rearm` has work to do.
    #[inline]
    pub(super) fn unarmed(&self) -> bool {
        self.armed.is_none() && self.count > 0
    }

    /// Station `pos` took the token: every pass the others were woken for is now
    /// later; the caller re-arms (`rearm`).
    #[inline]
    pub(super) fn captured(&mut self, pos: u32) {
        self.set(pos, false);
        self.armed = None;
    }

    /// When the ring has no live wake-up (after a capture, or after the armed station
    /// let the token pass): (time, station) of the waiting station the free token
    /// reaches first, now armed.
    #[inline(never)]
    pub(super) fn rearm(&mut self, mac: &TokenRing, now: SimTime) -> Option<(SimTime, u32)> {
        if !self.unarmed() {
            return None;
        }
        let holder = mac.holder();
        // A holder that may send again back to back goes before any pass of the token.
        let pos = if self.is_waiting(holder) && mac.continues(holder, now) { holder } else { self.first_from(mac.reaches_first(now)) };
        // (No waiting station is transmitting: only the holder does, and its lane
        // frees before the token does. The ring alone decides.)
        let at = mac.ready_at(pos, now);
        debug_assert_eq!(Some(at), (0..self.bits.len() as u32 * 64).filter(|&k| self.is_waiting(k)).map(|k| mac.ready_at(k, now)).min(), "the armed station's pass is the earliest of the waiting stations'");
        self.armed = Some((at, pos));
        Some((at, pos))
    }

    /// The first waiting station at or after position `from`, in ring order (some
    /// station waits).
    #[inline]
    fn first_from(&self, from: u32) -> u32 {
        let (w0, b0) = ((from / 64) as usize, from % 64);
        let here = self.bits[w0] & (!0u64 << b0);
        if here != 0 {
            return w0 as u32 * 64 + here.trailing_zeros();
        }
        let n = self.bits.len();
        // The words after, wrapping round to this one's bits before `from`.
        (1..=n)
            .map(|i| (w0 + i) % n)
            .find(|&w| self.bits[w] != 0)
            .map_or(from, |w| w as u32 * 64 + self.bits[w].trailing_zeros())
    }
}

#[cfg(test)]
#[path = "ring_waits_tests.rs"]
mod tests;
