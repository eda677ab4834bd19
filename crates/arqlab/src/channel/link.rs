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
use std::collections::VecDeque;

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
    /// (bits, time) of the last transmission time computed.
    last_tx: (u32, Duration),
    in_flight: VecDeque<InFlight<F>>,
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
            last_tx: (0, Duration(1)),
            in_flight: VecDeque::with_capacity(16),
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
    pub fn start(&mut self, now: SimTime, lead: Duration, frame: F, dst: u32) -> Transmission {
        debug_assert!(!self.is_busy(now));
        let bits = frame.bits();
        let time = match frame.airtime() {
            Some(t) => t,
            None => self.cached_transmission_time(bits),
        };
        let end = now + lead + time;
        let in_error = self.errors.frame_in_error(now, bits as u64, frame.mode(), &mut self.rng);
        self.busy_until = end;
        self.counters.frames_transmitted += 1;
        self.counters.bits_transmitted += bits as u64;
        self.counters.frames_in_error += u64::from(in_error);
        self.counters.busy_ps += end.0 - now.0;
        self.in_flight.push_back(InFlight { frame: frame.in_flight_copy(), dst, in_error });
        Transmission { end, arrival: end + self.delay, in_error }
    }

    /// The frame whose arrival is due now (FIFO).
    #[inline]
    pub fn take_arrival(&mut self) -> Option<InFlight<F>> {
        self.in_flight.pop_front()
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
        self.in_flight.pop_front();
    }

    /// Frames sent but not yet arrived.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
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
        let t = d.start(SimTime::ZERO, Duration::ZERO, f, 1);
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
        d.start(t.end, Duration::ZERO, g, 1);
        assert_eq!(d.take_arrival().unwrap().frame.nr, 3);
        assert_eq!(d.take_arrival().unwrap().frame.nr, 4);
        assert!(d.take_arrival().is_none());
    }
}
