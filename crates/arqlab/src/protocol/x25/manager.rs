//! Circuit management of the IP-to-X.25 interface (Comer & Korb 1984, §2.2 and §6.2):
//! when to open a circuit for a datagram, and which circuit to close when every channel
//! is in use. LRU and MLRU are the multi-circuit MLRU with C_max = 1 and, for LRU,
//! T_min = 0 and no reserved channels.

use super::circuit::{Circuit, VcState};
use crate::engine::{Duration, SimTime};
use crate::protocol::Payload;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PolicyKind {
    /// Close the circuit idle longest whenever a new one is needed.
    Lru,
    /// LRU, but only circuits open at least T_min may be closed, and K channels are
    /// reserved for incoming calls (Comer & Korb 1983, ref. 4).
    Mlru,
    /// MLRU with up to C_max circuits per site, a new one at most every T_open (§6).
    MultiMlru,
}

/// The manager's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub kind: PolicyKind,
    /// Circuits the interface opens to one site at most.
    pub c_max: u32,
    pub t_min: Duration,
    pub t_open: Duration,
    /// Channels reserved for incoming calls.
    pub k_reserved: u32,
}

impl Policy {
    /// C_max, T_min and K as the policy uses them (LRU ignores T_min and K, and LRU
    /// and MLRU open one circuit per site).
    pub fn effective(&self) -> (u32, Duration, u32) {
        match self.kind {
            PolicyKind::Lru => (1, Duration::ZERO, 0),
            PolicyKind::Mlru => (1, self.t_min, self.k_reserved),
            PolicyKind::MultiMlru => (self.c_max, self.t_min, self.k_reserved),
        }
    }

    /// `enqueue_datagram`'s condition: open a circuit to a site with `open` circuits
    /// (calls in progress included) whose queue holds `queued` datagrams (before this
    /// one is added), the last opened at `last_open`.
    pub fn wants_open(&self, now: SimTime, open: u32, queued: usize, last_open: Option<SimTime>) -> bool {
        let (c_max, _, _) = self.effective();
        open == 0 || (queued + 1 > 1 && open < c_max && last_open.is_none_or(|t| now - t > self.t_open))
    }
}

/// `select_and_close_circuit`: the circuit to close, if any. Candidates are open
/// circuits with nothing in progress (a circuit carrying part of a datagram is not
/// preempted). First a site with more than C_max circuits whose least recently used
/// circuit has been open longer than T_min; else the least recently used circuit
/// overall, if open longer than T_min; else none (the open fails).
pub fn select_victim<P: Payload>(circuits: &[Option<Circuit<P>>], policy: &Policy, now: SimTime) -> Option<usize> {
    let (c_max, t_min, _) = policy.effective();
    let old_enough = |c: &Circuit<P>| now - c.opened_at > t_min || t_min == Duration::ZERO;
    let lru_of = |pred: &dyn Fn(&Circuit<P>) -> bool| {
        circuits
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().filter(|c| c.idle() && pred(c)).map(|c| (c.last_used, c.vc, i)))
            .min()
            .map(|x| x.2)
    };
    let per_site = |site: u32| circuits.iter().flatten().filter(|c| c.peer == site && c.state != VcState::Clearing).count() as u32;
    let crowded = lru_of(&|c: &Circuit<P>| per_site(c.peer) > c_max);
    if let Some(i) = crowded {
        // That site's LRU circuit (idle ones only), if old enough.
        if circuits[i].as_ref().is_some_and(old_enough) {
            return Some(i);
        }
    }
    lru_of(&|_| true).filter(|&i| circuits[i].as_ref().is_some_and(old_enough))
}
