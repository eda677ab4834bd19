//! Lanes and what gates them: a line, a side of a half-duplex radio, or a station on a
//! token ring (`channel::token_ring`: the ring's MAC state, which station copies a frame
//! for each destination, and what that station is). The runner asks these when a lane
//! may start, when it frees and how a transmission on it ends.

use crate::channel::{Direction, DirectionCounters, Radio, TokenRing, Transmission};
use crate::engine::{Duration, SimTime};
use crate::protocol::Pdu;
use crate::scenario::outage;

/// A lane and what gates it.
pub(super) struct Lane<F> {
    pub(super) dir: Direction<F>,
    /// What besides the lane's own transmissions decides when it may start.
    pub(super) medium: Medium,
    pub(super) target: Target,
    pub(super) at_open: DirectionCounters,
    /// The medium's outages, [from, to) (`Medium::Down` only; `scenario::outage`).
    pub(super) down: Box<[(SimTime, SimTime)]>,
}

/// The medium a lane belongs to, as far as starting a transmission goes.
#[derive(Clone, Copy)]
pub(super) enum Medium {
    /// A line of a duplex link: free when its own last frame has left.
    Line,
    /// A side of a half-duplex radio: (radio, side).
    Radio(u32, u8),
    /// A station's lane on a token ring: (ring, station).
    Ring(u32, u32),
    /// A line of a duplex link with outages: free when its last frame has left and the
    /// medium is up (`Lane::down`).
    Down,
}

impl Medium {
    /// The lane may be closed while its line is idle (the token is elsewhere, the medium
    /// is down): a relay port there waits for a wake-up rather than for its last frame.
    #[inline]
    pub(super) fn may_close_when_idle(&self) -> bool {
        matches!(self, Medium::Ring(..) | Medium::Down)
    }
}

#[derive(Clone, Copy)]
pub(super) enum Target {
    Node(u32),
    /// (relay, port)
    Port(u32, u32),
    /// A token ring's lane: the addressee's station copies the frame.
    Ring(u32),
}

pub(super) struct RingLanes {
    pub(super) mac: TokenRing,
    /// Destination node → station position that copies its frames (`u32::MAX`: none).
    pub(super) receiver: Vec<u32>,
    /// Station position → what it is.
    pub(super) stations: Vec<Target>,
    /// Station position → the port its wake-up names (`TxEnd(port)`: node n, or a
    /// relay's port after the nodes).
    pub(super) ports: Vec<u32>,
    /// Stations waiting for the token: a frame to send, the token elsewhere.
    waiting: Vec<bool>,
    /// The ring's live wake-up, (time, station): the first waiting station the free
    /// token reaches. Only it is woken; any other wake-up of a station still queued
    /// was overtaken by a capture and is stale.
    armed: Option<(SimTime, u32)>,
}

impl RingLanes {
    pub(super) fn new(mac: TokenRing, receiver: Vec<u32>, stations: Vec<Target>, ports: Vec<u32>) -> RingLanes {
        let waiting = vec![false; stations.len()];
        RingLanes { mac, receiver, stations, ports, waiting, armed: None }
    }

    /// Station `pos` waits for the token, which reaches it at `at` as far as is known
    /// now. True if its wake-up must be scheduled: it is now the first waiting station
    /// the token reaches (a station already armed at or before `at` goes first; when
    /// it takes the token, `rearm` wakes the next).
    #[inline]
    pub(super) fn wait(&mut self, pos: u32, at: SimTime) -> bool {
        self.waiting[pos as usize] = true;
        if self.armed.is_some_and(|(t, _)| t <= at) {
            return false;
        }
        self.armed = Some((at, pos));
        true
    }

    /// Station `pos` is woken at `now` (its wake-up, live or stale, has fired): it waits
    /// no more until it asks again.
    #[inline]
    pub(super) fn woken(&mut self, pos: u32, now: SimTime) {
        self.waiting[pos as usize] = false;
        if self.armed == Some((now, pos)) {
            self.armed = None;
        }
    }

    /// The wake-up to schedule when the ring has none live (after a capture, or after
    /// the armed station let the token pass): (time, port) of the waiting station the
    /// free token reaches first.
    pub(super) fn rearm(&mut self, now: SimTime) -> Option<(SimTime, u32)> {
        if self.armed.is_some() {
            return None;
        }
        let mut first: Option<(SimTime, u32)> = None;
        for (pos, _) in self.waiting.iter().enumerate().filter(|w| *w.1) {
            // No waiting station is transmitting (only the holder does, and it took
            // the token): the token alone decides when each may start.
            let at = self.mac.ready_at(pos as u32, now);
            if first.is_none_or(|(t, _)| at < t) {
                first = Some((at, pos as u32));
            }
        }
        self.armed = first;
        first.map(|(at, pos)| (at, self.ports[pos as usize]))
    }

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
        // Every pass the waiting stations were woken for is now later: the caller
        // re-arms (`rearm`).
        self.waiting[pos as usize] = false;
        self.armed = None;
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

/// The lead time of a transmission starting on `lane` at `now`, if one may start.
/// (Inlined into every caller: it runs on every input, and as a call it cost about as
/// much again in the call itself as in its body.)
#[inline(always)]
pub(super) fn gate<F: Pdu>(lane: &Lane<F>, radios: &[Radio], rings: &[RingLanes], now: SimTime) -> Option<Duration> {
    if lane.dir.is_busy(now) {
        return None;
    }
    match lane.medium {
        Medium::Line => Some(Duration::ZERO),
        Medium::Radio(r, side) => {
            let radio = &radios[r as usize];
            (radio.ready_at(side) <= now).then(|| radio.lead(side, now))
        }
        // Token ring: the station may start when the token is with it.
        Medium::Ring(g, k) => rings[g as usize].gate(k, now),
        Medium::Down => outage::down_until(&lane.down, now).is_none().then_some(Duration::ZERO),
    }
}

/// When `lane` may next start (for a token ring: a lower bound, re-checked at the wake).
#[inline]
pub(super) fn ready_at<F: Pdu>(lane: &Lane<F>, radios: &[Radio], rings: &[RingLanes], now: SimTime) -> SimTime {
    match lane.medium {
        Medium::Line => lane.dir.busy_until(),
        Medium::Radio(r, side) => lane.dir.busy_until().max(radios[r as usize].ready_at(side)),
        Medium::Ring(g, k) => lane.dir.busy_until().max(rings[g as usize].ready_at(k, now)),
        // (For ever: a wake that never comes before the end.)
        Medium::Down => outage::up_at(&lane.down, lane.dir.busy_until().max(now)),
    }
}

/// Starts the frame staged in `lane`'s next slot.
#[inline(always)]
pub(super) fn transmit<F: Pdu>(lane: &mut Lane<F>, radios: &mut [Radio], rings: &mut [RingLanes], now: SimTime, lead: Duration, dst: u32) -> Transmission {
    let mut tx = lane.dir.start_staged(now, lead, dst);
    match lane.medium {
        Medium::Line => {}
        Medium::Radio(r, side) => radios[r as usize].started(side, tx.end, lane.dir.delay),
        // Token ring: the frame holds the ring; it arrives when its last bit passes the receiver.
        Medium::Ring(g, k) => tx.arrival = rings[g as usize].started(k, now, tx.end, dst),
        // A frame on the line when the medium goes down is lost.
        Medium::Down => {
            if outage::cuts(&lane.down, now, tx.arrival) {
                lane.dir.corrupt_last();
                tx.in_error = true;
            }
        }
    }
    tx
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::token_ring::RingParams;

    /// Four stations (nodes 0–3, ports 10–13); station 0 released the token at time 0.
    fn ring() -> RingLanes {
        let p = RingParams {
            rate_bps: 4e6,
            stations: 4,
            station_delay_bits: 1.0,
            monitor_buffer_bits: 24.0,
            propagation_s: 0.0,
            token_bits: 24.0,
            mac_overhead_octets: 21.0,
            holding_time_s: None,
        };
        RingLanes::new(TokenRing::new(&p), vec![0, 1, 2, 3], (0..4).map(Target::Node).collect(), vec![10, 11, 12, 13])
    }

    #[test]
    fn only_the_first_waiting_station_the_free_token_reaches_is_woken() {
        let mut g = ring();
        let now = SimTime::ZERO;
        let pass = |g: &RingLanes, k| g.mac.ready_at(k, now);
        // Station 3 waits: it is the first (and only) waiting station, so it is woken.
        assert!(g.wait(3, pass(&g, 3)));
        // Station 2 waits: the token passes 3 later than 2, so 2 is woken first (3's
        // wake-up is now stale) ...
        assert!(pass(&g, 2) < pass(&g, 3));
        assert!(g.wait(2, pass(&g, 2)));
        // ... and station 3, asking again, is not woken a second time.
        assert!(!g.wait(3, pass(&g, 3)));
        // Nothing to re-arm while a wake-up is live.
        assert_eq!(g.rearm(now), None);
    }

    #[test]
    fn a_capture_wakes_the_next_waiting_station_for_its_pass_after_the_release() {
        let mut g = ring();
        let t1 = g.mac.ready_at(1, SimTime::ZERO);
        assert!(g.wait(1, t1));
        assert!(!g.wait(3, g.mac.ready_at(3, SimTime::ZERO)));
        // Station 1 is woken and takes the token with a short frame: the ring is held
        // for one revolution, and station 3's pass moves past the release.
        g.woken(1, t1);
        let end = SimTime(t1.0 + 1_000_000);
        g.started(1, t1, end, 0);
        let after = g.mac.ready_at(3, t1);
        assert!(after > end, "station 3 waits for the token issued after the frame has returned");
        assert_eq!(g.rearm(t1), Some((after, 13)), "station 3's wake-up, on its port");
        assert_eq!(g.rearm(t1), None, "one live wake-up at a time");
    }

    #[test]
    fn an_armed_station_that_lets_the_token_pass_wakes_the_next_in_the_same_revolution() {
        let mut g = ring();
        let (t1, t2) = (g.mac.ready_at(1, SimTime::ZERO), g.mac.ready_at(2, SimTime::ZERO));
        assert!(g.wait(1, t1));
        assert!(!g.wait(2, t2));
        // A stale wake-up of station 1 (another time) leaves the live one armed.
        g.woken(1, SimTime(t1.0 - 1));
        assert_eq!(g.rearm(t1), None);
        // Station 1's live wake-up fires and it sends nothing: station 2 is next.
        g.woken(1, t1);
        assert_eq!(g.rearm(t1), Some((t2, 12)));
    }
}
