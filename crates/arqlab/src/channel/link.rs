//! One direction of a medium (a *lane*): a transmitter with a rate, a one-way delay t_p
//! (processing + propagation) and an error model. A full-duplex link is two independent
//! lanes; a half-duplex radio is two lanes behind one [`super::Radio`] gate.
//!
//! A frame occupies its lane's transmitter for lead + bits/rate (the lead is a radio's
//! preamble, zero on a line) and arrives t_p after its last bit leaves. Because t_p is
//! constant per lane, frames arrive in the order they were sent, so a lane keeps its
//! frames in flight in a FIFO and the event queue only carries "the next arrival on this
//! lane" — no payload in events.

use super::errors::ErrorModel;
use crate::engine::{Duration, SimTime, Stream};
use crate::protocol::Pdu;

/// Counters of one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DirectionCounters {
    pub frames_transmitted: u64,
    pub frames_in_error: u64,
    pub bits_transmitted: u64,
    /// Time the transmitter was busy (picoseconds), preambles included.
    pub busy_ps: u64,
}

/// One direction of the link.
pub struct Direction<F> {
    pub rate_bps: f64,
    /// Picoseconds per bit, precomputed: transmission time is one multiply per frame.
    ps_per_bit: f64,
    pub delay: Duration,
    errors: ErrorModel,
    rng: Stream,
    busy_until: SimTime,
    /// The longest time a frame has held this lane (lead time included): the stall
    /// watch's measure of how long a window of frames takes.
    longest_frame: Duration,
    /// (bits, time) of the last transmission time computed.
    last_tx: (u32, Duration),
    in_flight: InFlightRing<F>,
    pub counters: DirectionCounters,
}

/// A frame on its way: the frame, the node it is addressed to, and whether the channel
/// corrupted it.
#[derive(Clone, Debug)]
pub struct InFlight<F> {
    pub frame: F,
    pub dst: u32,
    pub in_error: bool,
}

/// What `start` tells the caller to schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transmission {
    /// The transmitter becomes idle (last bit sent).
    pub end: SimTime,
    /// The frame has been fully received at the far end.
    pub arrival: SimTime,
    pub in_error: bool,
}

impl<F: Pdu> Direction<F> {
    pub fn new(rate_bps: f64, delay: Duration, errors: ErrorModel, rng: Stream) -> Self {
        Direction {
            rate_bps,
            ps_per_bit: crate::engine::PS_PER_S as f64 / rate_bps,
            delay,
            errors,
            rng,
            busy_until: SimTime::ZERO,
            longest_frame: Duration::ZERO,
            last_tx: (0, Duration(1)),
            in_flight: InFlightRing { slots: Vec::new(), head: 0, tail: 0, len: 0 },
            counters: DirectionCounters::default(),
        }
    }

    /// True if a frame is being clocked onto the line at `now`.
    #[inline]
    pub fn is_busy(&self, now: SimTime) -> bool {
        self.busy_until > now
    }

    /// When the frame being transmitted has left (or when the line last became idle).
    #[inline]
    pub fn busy_until(&self) -> SimTime {
        self.busy_until
    }

    /// The longest time a frame has held this lane so far, lead time included.
    #[inline]
    pub fn longest_frame(&self) -> Duration {
        self.longest_frame
    }

    /// Time to transmit `bits` on this direction (equal to `Duration::transmission`).
    #[inline]
    pub fn transmission_time(&self, bits: u32) -> Duration {
        Duration(((bits as f64 * self.ps_per_bit + 0.5) as u64).max(1))
    }

    /// `transmission_time`, remembered for the last frame length: most lanes carry
    /// one or two lengths, and the float conversion is on every transmission.
    #[inline]
    fn cached_transmission_time(&mut self, bits: u32) -> Duration {
        if bits != self.last_tx.0 {
            self.last_tx = (bits, self.transmission_time(bits));
        }
        self.last_tx.1
    }

    /// Starts transmitting `frame`, addressed to node `dst`, at `now` after a lead time
    /// (a preamble; zero on a line). The error outcome is drawn now from this lane's own
    /// stream, so it does not depend on anything else in the run.
    #[inline(always)]
    pub fn start(&mut self, now: SimTime, lead: Duration, frame: &F, dst: u32) -> Transmission {
        self.stage(frame);
        self.start_staged(now, lead, dst)
    }

    /// The slot the next frame started on this lane will occupy, to build the frame in
    /// place (it holds an old frame: overwrite all of it); `None` when the lane has no
    /// free slot (then `stage` a frame, which makes room).
    #[inline]
    pub fn free_slot(&mut self) -> Option<&mut F> {
        self.in_flight.free_slot()
    }

    /// Copies `frame` into the next slot, making room if need be.
    #[inline]
    pub fn stage(&mut self, frame: &F) {
        self.in_flight.stage(frame);
    }

    /// The frame in the next slot (built there, or staged).
    #[inline]
    pub fn staged(&self) -> &F {
        self.in_flight.staged()
    }

    /// Starts transmitting the frame in the next slot (as `start`).
    #[inline(always)]
    pub fn start_staged(&mut self, now: SimTime, lead: Duration, dst: u32) -> Transmission {
        debug_assert!(!self.is_busy(now));
        let frame = self.in_flight.staged();
        let bits = frame.bits();
        // A frame with its own airtime chose its modem mode; any other is sent at the lane's rate.
        let (time, mode) = match frame.airtime() {
            Some(t) => (t, frame.mode()),
            None => (self.cached_transmission_time(bits), super::errors::AT_LINK_RATE),
        };
        let end = now + lead + time;
        let in_error = self.errors.frame_in_error(now, bits as u64, mode, &mut self.rng);
        self.busy_until = end;
        self.longest_frame = self.longest_frame.max(end - now);
        self.counters.frames_transmitted += 1;
        self.counters.bits_transmitted += bits as u64;
        self.counters.frames_in_error += u64::from(in_error);
        self.counters.busy_ps += end.0 - now.0;
        self.in_flight.commit(dst, in_error);
        Transmission { end, arrival: end + self.delay, in_error }
    }

    /// The frame started last is lost after all (its medium went down while it was on
    /// the line): it arrives in error.
    #[cold]
    pub fn corrupt_last(&mut self) {
        if let Some(w) = self.in_flight.back_mut() {
            self.counters.frames_in_error += u64::from(!w.in_error);
            w.in_error = true;
        }
    }

    /// The frame whose arrival is due now (FIFO).
    #[inline]
    pub fn take_arrival(&mut self) -> Option<InFlight<F>> {
        let w = self.in_flight.front().cloned();
        self.in_flight.pop();
        w
    }

    /// The frame whose arrival is due now, by reference (then `drop_arrival`): a
    /// receiver that only reads it need not copy it out.
    #[inline]
    pub fn next_arrival(&self) -> Option<&InFlight<F>> {
        self.in_flight.front()
    }

    /// Removes the frame `next_arrival` returned.
    #[inline]
    pub fn drop_arrival(&mut self) {
        self.in_flight.pop();
    }

    /// Frames sent but not yet arrived.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len
    }
}

/// The frames in flight on a lane, oldest first: a ring of slots that stay initialised,
/// so a frame is copied into its slot field by field where it is started, not
/// assembled beside it and then moved in (each move of a fresh frame was several
/// copies through the stack).
struct InFlightRing<F> {
    /// Capacity a power of two (or zero).
    slots: Vec<InFlight<F>>,
    head: usize,
    /// The slot after the last frame in flight (where the next frame is built); kept
    /// rather than computed from `head` and `len` at each of its several uses.
    tail: usize,
    len: usize,
}

impl<F: Pdu> InFlightRing<F> {
    #[inline]
    fn free_slot(&mut self) -> Option<&mut F> {
        if self.len == self.slots.len() {
            return None;
        }
        Some(&mut self.slots[self.tail].frame)
    }

    #[inline]
    fn stage(&mut self, frame: &F) {
        if self.len == self.slots.len() {
            self.grow(frame);
        }
        frame.copy_into(&mut self.slots[self.tail].frame);
    }

    #[inline]
    fn staged(&self) -> &F {
        &self.slots[self.tail].frame
    }

    /// The staged frame joins the frames in flight.
    #[inline]
    fn commit(&mut self, dst: u32, in_error: bool) {
        let slot = &mut self.slots[self.tail];
        slot.dst = dst;
        slot.in_error = in_error;
        self.tail = (self.tail + 1) & (self.slots.len() - 1);
        self.len += 1;
        debug_assert_eq!(self.tail, (self.head + self.len) & (self.slots.len() - 1));
    }

    /// Doubles the capacity, oldest first at slot 0; new slots hold copies of `fill`.
    /// Starts at 4 slots: a lane rarely holds more frames in flight, and the ring's
    /// slots are written in turn, so every slot is a cache line a run keeps touching
    /// (16 slots per lane put 2,000 lanes' rings at about 2 MB).
    #[cold]
    fn grow(&mut self, fill: &F) {
        let cap = (2 * self.slots.len()).max(4);
        let mask = self.slots.len().wrapping_sub(1);
        let mut slots: Vec<InFlight<F>> = (0..self.len).map(|k| self.slots[(self.head + k) & mask].clone()).collect();
        slots.resize(cap, InFlight { frame: fill.clone(), dst: 0, in_error: false });
        self.slots = slots;
        self.head = 0;
        self.tail = self.len;
    }

    /// The frame committed last.
    fn back_mut(&mut self) -> Option<&mut InFlight<F>> {
        if self.len == 0 {
            return None;
        }
        let last = self.tail.wrapping_sub(1) & (self.slots.len() - 1);
        Some(&mut self.slots[last])
    }

    #[inline]
    fn front(&self) -> Option<&InFlight<F>> {
        (self.len > 0).then(|| &self.slots[self.head])
    }

    #[inline]
    fn pop(&mut self) {
        if self.len > 0 {
            self.head = (self.head + 1) & (self.slots.len() - 1);
            self.len -= 1;
            debug_assert_eq!(self.tail, (self.head + self.len) & (self.slots.len() - 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;
    use crate::protocol::{Frame, FrameKind};

    #[test]
    fn frames_arrive_after_transmission_plus_delay_in_order() {
        let mut d: Direction<Frame> =
            Direction::new(48_000.0, Duration::from_secs_f64(0.05), ErrorModel::None, stream(1, 0, "x"));
        let f: Frame = Frame::supervisory(FrameKind::RR, 3, false, 48);
        let t = d.start(SimTime::ZERO, Duration::ZERO, &f, 1);
        assert_eq!(t.end, SimTime(1_000_000_000));
        assert_eq!(t.arrival, SimTime(51_000_000_000));
        for rate in [1200.0, 4800.0, 9600.0, 48_000.0, 64_000.0, 1_544_000.0, 4e6, 33_333.3] {
            let d: Direction<Frame> = Direction::new(rate, Duration::ZERO, ErrorModel::None, stream(1, 0, "x"));
            for bits in [1u32, 47, 48, 56, 1048, 5048, 8056, 100_000, 3_999_999] {
                assert_eq!(d.transmission_time(bits), Duration::transmission(bits as u64, rate), "{bits} bits at {rate}");
            }
        }
        assert!(d.is_busy(SimTime(999_999_999)));
        assert!(!d.is_busy(t.end));
        let g: Frame = Frame::supervisory(FrameKind::REJ, 4, false, 48);
        d.start(t.end, Duration::ZERO, &g, 1);
        assert_eq!(d.take_arrival().unwrap().frame.nr, 3);
        assert_eq!(d.take_arrival().unwrap().frame.nr, 4);
        assert!(d.take_arrival().is_none());
    }

    /// Frames built in the free slot, staged ones and frames that were only built (no
    /// start) interleaved with arrivals, across ring wrap-arounds and growth: the frames
    /// in flight are exactly those started, oldest first, each with its address.
    #[test]
    fn in_flight_frames_are_those_started_in_order_across_growth_and_wrap() {
        let mut d: Direction<Frame> = Direction::new(1e9, Duration::ZERO, ErrorModel::None, stream(1, 0, "x"));
        let (mut now, mut expected, mut started) = (SimTime::ZERO, std::collections::VecDeque::new(), 0);
        for k in 0..300u32 {
            match d.free_slot() {
                // Built in place, sometimes abandoned (a layer with nothing to send).
                Some(slot) if k % 3 == 0 => slot.set_supervisory(FrameKind::RNR, 9999, true, 8),
                Some(slot) => slot.set_supervisory(FrameKind::RR, k, false, 48),
                None => d.stage(&Frame::supervisory(FrameKind::RR, k, false, 48)),
            }
            if k % 3 != 0 || d.staged().nr != 9999 {
                let t = d.start_staged(now, Duration::ZERO, k + 1000);
                expected.push_back(k);
                started += 1;
                now = t.end;
            }
            // Fewer arrivals than starts while k < 200 (the ring fills and grows),
            // more afterwards (it drains, wrapping around).
            let arrivals = if k < 200 { usize::from(k % 2 == 0) } else { 2 };
            for _ in 0..arrivals {
                let got = d.next_arrival().map(|w| (w.frame.nr, w.dst));
                assert_eq!(got, expected.front().map(|&e| (e, e + 1000)), "at {k}");
                d.drop_arrival();
                expected.pop_front();
            }
            assert_eq!(d.in_flight(), expected.len());
        }
        assert_eq!(d.counters.frames_transmitted, started);
        assert!(started > 200 && started < 300, "some built frames were abandoned: {started}");
    }
}
