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
/// A line's answer is inline (a wake-up per frame a saturated sender queues); the
/// other media's is a call.
#[inline(always)]
pub(super) fn ready_at<F: Pdu>(lane: &Lane<F>, radios: &[Radio], rings: &[RingLanes], now: SimTime) -> SimTime {
    match lane.medium {
        Medium::Line => lane.dir.busy_until(),
        _ => gated_ready_at(lane, radios, rings, now),
    }
}

#[inline(never)]
fn gated_ready_at<F: Pdu>(lane: &Lane<F>, radios: &[Radio], rings: &[RingLanes], now: SimTime) -> SimTime {
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

