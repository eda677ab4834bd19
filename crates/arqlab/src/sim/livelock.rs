//! Zero-time livelocks. A model bug can make a run spin at one simulated instant for
//! ever — a layer whose deadline stays at `now` after its timeout is handled wakes its
//! node again at the same time, and again. The stall watch (`sim::stall`) cannot see it,
//! since it watches simulated time, and simulated time no longer moves.
//!
//! The runner already stops every [`CHECK_EVERY`] events to look at the interrupt flag;
//! there it also compares the current time with the time at the previous check point.
//! Time never goes back, so an unchanged time means that every event in between happened
//! at that instant. After [`limit`] events in a row at one instant (or
//! `run.livelock_events`, [`bound`]) the run ends with `SimError::Livelock`, naming the
//! instant and the node and layer (or the medium at fault) of the element whose event was
//! being handled. An ordinary event adds only the test of its count against the check mask.
//!
//! The default bound is generous: a legitimate instant holds a few events per element
//! (a timer of each node, an arrival on each lane, a frame leaving each relay port), and
//! every frame takes at least a picosecond to transmit, so no chain of frames stays at
//! one instant. `run.livelock_events` (at least [`LIVELOCK_EVENTS_FLOOR`]) sets another
//! bound: lower, to stop a suspected livelock sooner — and then a legitimate instant
//! with that many events (many identical links in step) trips it too; higher, for a
//! very large synchronised network. Check points come every [`check_every`] events
//! ([`CHECK_EVERY`], or less for a bound below twice that), so a livelock is found after
//! between the bound and the bound + 2 × [`check_every`] events at its instant.

use super::interrupt::CHECK_EVERY;
use crate::engine::SimTime;
use crate::scenario::Scenario;

/// At least this many consecutive events at one instant are a livelock …
pub const LIVELOCK_EVENTS_MIN: u64 = 1 << 20;
/// … or this many per element of the run (nodes, lanes, relays, flows), if more.
pub const LIVELOCK_EVENTS_PER_ELEMENT: u64 = 64;

/// The smallest `run.livelock_events` (defined with the key, which sim reads).
pub use crate::scenario::run::LIVELOCK_EVENTS_FLOOR;

/// The default livelock bound of a run with `elements` elements.
pub fn limit(elements: usize) -> u64 {
    LIVELOCK_EVENTS_MIN.max(LIVELOCK_EVENTS_PER_ELEMENT.saturating_mul(elements as u64))
}

/// The bound of a run: `run.livelock_events` if given, else [`limit`].
pub fn bound(asked: Option<u64>, elements: usize) -> u64 {
    asked.unwrap_or_else(|| limit(elements))
}

/// Events between check points for `bound`: [`CHECK_EVERY`], or the largest power of two
/// at most half the bound if that is less (so a low bound is found near it, not after
/// two whole intervals).
pub fn check_every(bound: u64) -> u64 {
    let half = (bound / 2).max(1);
    CHECK_EVERY.min(1 << (63 - half.leading_zeros()))
}

/// The element whose event the runner was handling when it found a livelock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    /// A timer wake of a node; the layer (0 = top) whose deadline is due, if one is.
    Timer { node: usize, layer: Option<usize> },
    /// A node woken because its lane may be free.
    Transmit { node: usize },
    /// A frame arriving on a lane.
    Arrival { lane: usize },
    /// A message of a flow's source.
    Message { flow: usize },
    /// A relay: its next frame forwarded, or one of its ports woken.
    Relay { relay: usize },
    /// A measurement window boundary or the end.
    Window,
}

/// A run that stopped advancing simulated time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Livelock {
    pub at: SimTime,
    /// Consecutive events at `at` when it was found (at least).
    pub events: u64,
    pub limit: u64,
    pub site: Site,
    /// The site in words, with the scenario's names (filled in by [`Livelock::named`]).
    pub place: String,
}

impl std::fmt::Display for Livelock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "livelock at t={} s in {} ({} events in a row without simulated time advancing; the limit is {})",
            self.at.as_secs_f64(),
            self.place,
            self.events,
            self.limit
        )
    }
}

impl Livelock {
    /// Names the site with `sc`'s nodes, layers, media, flows and relays: always a node and
    /// its layer, or the medium when a lane is at fault (stated as such), or the relay.
    pub fn named(mut self, sc: &Scenario) -> Livelock {
        let topo = &sc.topology;
        let node = |n: usize| topo.nodes.get(n).map_or(format!("node {n}"), |x| format!("node {:?}", x.name));
        let stack = |n: usize| topo.nodes.get(n).map(|x| x.stack.as_slice()).unwrap_or_default();
        // The layer (0 = top) of node n, with its place in the stack.
        let layer = |n: usize, k: usize, what: &str| match stack(n).get(k) {
            Some(c) => format!("{}, layer {} ({} of {}{what})", node(n), c.kind(), k + 1, stack(n).len()),
            None => format!("{}, no layer", node(n)),
        };
        let bottom = |n: usize| stack(n).len().saturating_sub(1);
        // A lane's medium (two-ended or ring) and scope.
        let medium = |l: usize| {
            let two = topo.media.iter().flat_map(|m| m.lane_scopes.iter().map(move |s| (&m.config.name, s)));
            let ring = topo.rings.iter().flat_map(|g| g.lane_scopes.iter().map(move |s| (&g.config.name, s)));
            two.chain(ring).nth(l).map_or(format!("lane {l}"), |(m, s)| format!("medium {m:?} (lane {s})"))
        };
        self.place = match self.site {
            Site::Timer { node: n, layer: Some(k) } if k < stack(n).len() => {
                format!("{}: its timer stays due at this instant after every timeout", layer(n, k, ""))
            }
            Site::Timer { node: n, .. } => {
                let kinds = stack(n).iter().map(|c| c.kind()).collect::<Vec<_>>().join(", ");
                format!("{}, no layer's timer due (layers {kinds}): its wake-up list wakes it at this instant again and again", node(n))
            }
            Site::Transmit { node: n } => format!("{}: it is woken to transmit at this instant again and again", layer(n, bottom(n), ", on the lane")),
            Site::Arrival { lane: l } => {
                let to = match topo.media.get(l / 2).map(|_| topo.lane_target(l as u32)) {
                    Some(crate::scenario::topology::End::Node(n)) => format!(", delivering to {}", layer(n as usize, bottom(n as usize), ", on the lane")),
                    _ => String::new(),
                };
                format!("{} — the medium is at fault: frames keep arriving at this instant{to}", medium(l))
            }
            Site::Message { flow } => match topo.flows.get(flow) {
                Some(f) => format!("{}: flow {}'s source keeps submitting at this instant", layer(f.src as usize, 0, ", the top"), f.scope),
                None => format!("flow {flow}: its source keeps submitting at this instant"),
            },
            Site::Relay { relay } => format!("relay {:?} (a relay has no layers): it keeps forwarding at this instant", topo.relays.get(relay).map_or(relay.to_string(), |r| r.config.name.clone())),
            Site::Window => "no node or layer: the measurement windows' boundaries".to_string(),
        };
        self
    }
}

/// Counts the check points in a row at which simulated time had not moved.
pub(super) struct InstantWatch {
    at: SimTime,
    checks: u64,
    limit: u64,
    every: u64,
}

impl InstantWatch {
    pub(super) fn new(limit: u64) -> InstantWatch {
        InstantWatch { at: SimTime::ZERO, checks: 0, limit, every: check_every(limit) }
    }

    /// The runner stops at a check point when its event count ANDed with this is 0.
    #[inline(always)]
    pub(super) fn mask(&self) -> u64 {
        self.every - 1
    }

    /// At a check point (every [`check_every`] events), the current time: the events in
    /// a row at this instant (at least) if they reach the limit.
    #[inline]
    pub(super) fn check(&mut self, now: SimTime) -> Option<u64> {
        if now != self.at {
            self.at = now;
            self.checks = 0;
            return None;
        }
        self.checks += 1;
        let events = self.checks.saturating_mul(self.every);
        (events >= self.limit).then_some(events)
    }

    pub(super) fn limit(&self) -> u64 {
        self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_the_minimum_or_per_element_whichever_is_more() {
        assert_eq!(limit(0), LIVELOCK_EVENTS_MIN);
        assert_eq!(limit(2), LIVELOCK_EVENTS_MIN);
        let n = (LIVELOCK_EVENTS_MIN / LIVELOCK_EVENTS_PER_ELEMENT) as usize;
        assert_eq!(limit(n), LIVELOCK_EVENTS_MIN);
        assert_eq!(limit(n + 1), LIVELOCK_EVENTS_MIN + LIVELOCK_EVENTS_PER_ELEMENT);
        assert_eq!(limit(usize::MAX), u64::MAX);
    }

    #[test]
    fn a_low_bound_is_checked_every_half_bound_and_the_default_every_check_every() {
        assert_eq!(check_every(limit(0)), CHECK_EVERY);
        assert_eq!(check_every(2 * CHECK_EVERY), CHECK_EVERY);
        assert_eq!(check_every(2 * CHECK_EVERY - 1), CHECK_EVERY / 2);
        assert_eq!(check_every(LIVELOCK_EVENTS_FLOOR), 32);
        assert_eq!(check_every(100), 32);
        assert_eq!(check_every(1), 1);
        assert_eq!(bound(Some(100), 10), 100);
        assert_eq!(bound(None, 10), limit(10));
        // A bound of 100 checked every 32 events: found after 128 events at the instant.
        let mut w = InstantWatch::new(100);
        assert_eq!(w.mask(), 31);
        assert_eq!(w.check(SimTime(3)), None);
        assert_eq!((1..=3).map(|_| w.check(SimTime(3))).collect::<Vec<_>>(), [None, None, None]);
        assert_eq!(w.check(SimTime(3)), Some(128));
    }

    // Check points at one instant count up to the limit; any move of time starts again.
    #[test]
    fn instant_watch_reports_at_the_limit_and_resets_when_time_moves() {
        let mut w = InstantWatch::new(3 * CHECK_EVERY);
        let t = SimTime(5);
        assert_eq!(w.check(t), None, "the first check point at an instant only notes it");
        assert_eq!(w.check(t), None);
        assert_eq!(w.check(t), None);
        assert_eq!(w.check(t), Some(3 * CHECK_EVERY));
        assert_eq!(w.check(SimTime(6)), None, "time moved: the count starts again");
        assert_eq!(w.check(SimTime(6)), None);
        assert_eq!(w.check(SimTime(7)), None);
        // A limit of 1 is checked at every event, and still needs two check points at
        // the instant (time 0 is where the watch starts).
        let mut w = InstantWatch::new(1);
        assert_eq!(w.check(SimTime::ZERO), Some(1), "time 0 is where the watch starts");
        assert_eq!(w.check(SimTime(1)), None);
        assert_eq!(w.check(SimTime(1)), Some(1));
    }
}
