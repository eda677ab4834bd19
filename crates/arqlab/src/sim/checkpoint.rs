//! The runner's check point, every `interrupt::CHECK_EVERY` events: an interrupt request
//! (`sim::interrupt`) or a zero-time livelock (`sim::livelock`). Kept apart from both so
//! that `state` may hold their types without a cycle.

use super::livelock::{Livelock, Site};
use super::state::{Ev, Sim, SimError, ARRIVAL, MESSAGE, RELAY_READY, TIMER, TX_END};
use crate::engine::SimTime;
use crate::protocol::{Layer, Sdu};

impl<L: Layer<Sdu = Sdu>> Sim<L> {
    /// Every `interrupt::CHECK_EVERY` events, before `ev` (popped at `now`) is handled: an
    /// interrupt request, or a livelock.
    #[cold]
    #[inline(never)]
    pub(super) fn check_point(&mut self, now: SimTime, ev: Ev) -> Result<(), SimError> {
        if super::interrupt::requested() {
            return Err(SimError::Interrupted);
        }
        let Some(events) = self.instant.check(now) else { return Ok(()) };
        let i = ev.index();
        let site = match ev.kind() {
            TIMER => Site::Timer { node: i, layer: self.nodes[i].stack.due_layer(now) },
            TX_END if i < self.nodes.len() => Site::Transmit { node: i },
            TX_END => Site::Relay { relay: self.port_owner[i - self.nodes.len()].0 as usize },
            ARRIVAL => Site::Arrival { lane: i },
            MESSAGE => Site::Message { flow: i },
            RELAY_READY => Site::Relay { relay: i },
            _ => Site::Window,
        };
        Err(SimError::Livelock(Livelock { at: now, events, limit: self.instant.limit(), site, place: String::new() }))
    }
}
