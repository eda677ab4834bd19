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
    /// (site, C_max) for the sites whose C_max is not `c_max` (multi-circuit MLRU).
    pub site_c_max: Vec<(u32, u32)>,
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

    /// C_max for `site`: its own under multi-circuit MLRU if it has one, else the policy's.
    pub fn c_max_to(&self, site: u32) -> u32 {
        let (c_max, _, _) = self.effective();
        match self.kind {
            PolicyKind::MultiMlru => self.site_c_max.iter().find(|&&(s, _)| s == site).map_or(c_max, |&(_, c)| c),
            _ => c_max,
        }
    }

    /// `enqueue_datagram`'s condition, evaluated before "place datagram on queue"
    /// (§6.2): open a circuit to `site`, which has `open` circuits (calls in progress
    /// included), if none is open, or if "the queue contains more than one datagram"
    /// (`queued`, not counting this one), fewer than its C_max are open and the last
    /// open (at `last_open`) was more than T_open ago.
    pub fn wants_open(&self, now: SimTime, site: u32, open: u32, queued: usize, last_open: Option<SimTime>) -> bool {
        open == 0 || (queued > 1 && open < self.c_max_to(site) && last_open.is_none_or(|t| now - t > self.t_open))
    }
}

/// `select_and_close_circuit` (§6.2): the circuit to close, if any. Only circuits with
/// nothing in progress are candidates (a circuit carrying part of a datagram is not
/// preempted), so a site's "LRU circuit" is its least recently used idle one.
///  1. "if there exists a site with more than Cmax open circuits (its own C_max) such that its LRU
///     circuit has been open for longer than Tmin": every such site is considered, and
///     of their LRU circuits the least recently used is closed;
///  2. "else if the LRU circuit has been open for longer than Tmin": the least
///     recently used idle circuit of all;
///  3. "else fail": none.
pub fn select_victim<P: Payload>(circuits: &[Option<Circuit<P>>], policy: &Policy, now: SimTime) -> Option<usize> {
    let (_, t_min, _) = policy.effective();
    let old_enough = |c: &Circuit<P>| t_min == Duration::ZERO || now - c.opened_at > t_min;
    let key = |c: &Circuit<P>| (c.last_used, c.vc);
    let idle = || circuits.iter().enumerate().filter_map(|(i, c)| c.as_ref().filter(|c| c.idle()).map(|c| (i, c)));
    let per_site = |site: u32| circuits.iter().flatten().filter(|c| c.peer == site && c.state != VcState::Clearing).count() as u32;
    // A site's LRU circuit: no idle circuit of the same site was used less recently.
    let site_lru = |c: &Circuit<P>| idle().all(|(_, o)| o.peer != c.peer || key(o) >= key(c));
    let crowded = idle().filter(|(_, c)| per_site(c.peer) > policy.c_max_to(c.peer) && site_lru(c) && old_enough(c)).min_by_key(|(_, c)| key(c));
    if let Some((i, _)) = crowded {
        return Some(i);
    }
    idle().min_by_key(|(_, c)| key(c)).filter(|(_, c)| old_enough(c)).map(|(i, _)| i)
}
