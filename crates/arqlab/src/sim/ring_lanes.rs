//! The runner's side of a token ring (`channel::token_ring`): the ring's MAC state,
//! which station copies a frame for each destination, and what that station is (a node
//! or a relay's port). The runner hooks rings in at its gate, wake-up time, transmit and
//! arrival functions (marked "token ring" in `runner.rs`).

use super::runner::Target;
use crate::channel::TokenRing;
use crate::engine::{Duration, SimTime};

pub(super) struct RingLanes {
    pub(super) mac: TokenRing,
    /// Destination node → station position that copies its frames (`u32::MAX`: none).
    pub(super) receiver: Vec<u32>,
    /// Station position → what it is.
    pub(super) stations: Vec<Target>,
}

impl RingLanes {
    /// The station that receives a frame for node `dst`, if any.
    #[inline]
    pub(super) fn target(&self, dst: u32) -> Option<Target> {
        let k = *self.receiver.get(dst as usize)?;
        self.stations.get(k as usize).copied()
    }

    /// Station `pos` starts a frame for `dst` at `now` ending at `end`: its arrival time.
    #[inline]
    pub(super) fn started(&mut self, pos: u32, now: SimTime, end: SimTime, dst: u32) -> SimTime {
        let to = self.receiver.get(dst as usize).copied().filter(|&k| k != u32::MAX).unwrap_or(pos);
        self.mac.started(pos, now, end, to)
    }

    #[inline]
    pub(super) fn gate(&self, pos: u32, now: SimTime) -> Option<Duration> {
        self.mac.gate(pos, now)
    }

    #[inline]
    pub(super) fn ready_at(&self, pos: u32, now: SimTime) -> SimTime {
        self.mac.ready_at(pos, now)
    }
}
