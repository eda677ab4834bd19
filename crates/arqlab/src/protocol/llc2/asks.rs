//! Multi-SREJ recovery on the receive side: which missing frames to ask for, one SREJ
//! each. A frame arriving above V(R) asks at once for every gap below it not asked for
//! yet (each gap once); the reject timer asks again for every frame still missing.

use super::store::Store;
use crate::protocol::{Modulus, Payload};
use std::collections::VecDeque;

/// N(S)s to ask for (one SREJ each), and the N(S) below which every missing frame has
/// been asked for.
#[derive(Debug, Default)]
pub struct Asks {
    pending: VecDeque<u32>,
    asked_to: u32,
}

impl Asks {
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Queues an SREJ for every frame missing in [from, to) not yet held or queued.
    fn ask_missing<P: Payload>(&mut self, m: Modulus, store: &Store<P>, from: u32, to: u32) {
        let mut x = from;
        while x != to {
            if !store.holds(x) && !self.pending.contains(&x) {
                self.pending.push_back(x);
            }
            x = m.next(x);
        }
    }

    /// Frame `ns` arrived above V(R) = `vr`; every gap below it not asked for yet is
    /// asked for now.
    pub fn gaps_below<P: Payload>(&mut self, m: Modulus, k: u32, vr: u32, store: &Store<P>, ns: u32) {
        // `asked_to` behind V(R) (or further than the window ahead) is stale.
        let ahead = m.distance(vr, self.asked_to);
        let from = if ahead <= k { self.asked_to } else { vr };
        let to = m.next(ns);
        if m.distance(vr, to) > m.distance(vr, from) {
            self.ask_missing(m, store, from, ns);
            self.asked_to = to;
        }
    }

    /// Reject timer: asks again for every frame still missing from V(R) up.
    pub fn again<P: Payload>(&mut self, m: Modulus, vr: u32, store: &Store<P>) {
        let to = self.asked_to;
        self.ask_missing(m, store, vr, to);
    }

    /// The next SREJ's N(R); frames that came meanwhile (or fell outside the window
    /// from V(R)) need none.
    pub fn next<P: Payload>(&mut self, m: Modulus, k: u32, vr: u32, store: &Store<P>) -> Option<u32> {
        while self.pending.front().is_some_and(|&x| m.distance(vr, x) >= k || store.holds(x)) {
            self.pending.pop_front();
        }
        self.pending.pop_front()
    }
}
