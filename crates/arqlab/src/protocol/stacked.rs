//! Static composition: `Stacked<Upper, Lower>` is itself a layer, whose PDUs are the
//! lower layer's and whose SDUs are the upper layer's. The upper layer's PDUs travel as
//! the lower layer's SDUs (a frame inside a frame).
//!
//! Pulling stays end to end: the upper layer is asked for a PDU only when the lower one
//! has nothing queued and is granted the medium, so the upper PDU's fields (an N(R), a
//! TCP acknowledgement number) are fixed at the moment the frame that carries it starts,
//! not when it was queued. Deliveries and acknowledgements of the lower layer are
//! consumed inside the stack: a lower delivery is the upper layer's receipt.
//!
//! A lower layer that plans whole transmissions ([`Layer::PLANS_TRANSMISSIONS`], the HF
//! ARQ) is handed every upper PDU ready when it is hungry: a transmission can then
//! carry a TCP window of segments, not the one segment pulled before it was planned.
//!
//! An interface queue ([`Stacked::with_interface_queue`], x25's `interface_queue`)
//! replaces the pull by 4.2BSD's push: whenever the upper layer has PDUs to send it
//! hands them all at once (`tcp_output` sends every segment the window allows), each
//! into the lower layer's queue, and one that finds `depth` PDUs already queued is
//! dropped and counted (`ip_output` on IF_QFULL); the upper layer counts it sent and
//! recovers it as a loss. Without one (the default) the pull above holds: the lower
//! layer's queue never holds more than one upper PDU and none is dropped.
//!
//! The upper layer sees the same [`Grant`] as the lower one: its transmission-end time
//! (a timer start) ignores the lower layer's header bits, an error of at most
//! `lower overhead / rate` per PDU.

use super::{Counters, Event, Grant, Layer, Service};
use crate::engine::SimTime;

pub struct Stacked<U: Layer, L: Layer<Sdu = U::Pdu>> {
    pub upper: U,
    pub lower: L,
    /// The interface queue's depth (PDUs), if the upper layer pushes into one.
    ifq: Option<usize>,
    /// Upper PDUs dropped because the interface queue was full.
    pub ifq_drops: u64,
    /// With an interface queue: the upper layer answered `wants_transmit` false and
    /// has had no input since (every input reaches it through this stack), so it would
    /// answer false again (`wants_transmit` reads the layer's state only) and `feed`
    /// does not ask. The stack is fed after every input, most of them the lower
    /// layer's (the X.25 access line's frames), which leave TCP as it was.
    upper_quiet: bool,
    /// A wake-up of the stack before this time leaves `upper_quiet` standing: the upper
    /// layer's earliest deadline when the spell began, if its timers wait for their
    /// deadlines ([`Layer::timeouts_wait_for_deadline`]: most wake-ups are the lower
    /// layer's); otherwise zero (every wake-up ends the spell).
    upper_quiet_until: SimTime,
}

impl<U: Layer, L: Layer<Sdu = U::Pdu>> Stacked<U, L> {
    pub fn new(upper: U, lower: L) -> Self {
        Stacked { upper, lower, ifq: None, ifq_drops: 0, upper_quiet: false, upper_quiet_until: SimTime::ZERO }
    }

    /// The upper layer pushes into an interface queue of `depth` PDUs (None: pulled).
    pub fn with_interface_queue(mut self, depth: Option<u32>) -> Self {
        self.ifq = depth.map(|d| d as usize);
        self
    }

    /// Hands the lower layer's deliveries to the upper layer.
    #[inline]
    fn pump_up(&mut self, now: SimTime) {
        while let Some(e) = self.lower.poll_event() {
            if let Event::Delivered(p) = e {
                self.upper.handle_receive(now, &p);
                self.upper_quiet = false;
            }
        }
    }

    /// Hands the lower layer what the upper layer sends now, before the lower layer is
    /// asked for its PDU.
    #[inline]
    fn feed(&mut self, now: SimTime, grant: &Grant) {
        if let Some(depth) = self.ifq {
            // tcp_output: all the upper layer will send now; ip_output: into the
            // queue, or dropped when it holds `depth`. Most calls find nothing to send
            // (the stack is asked after every input): `wants_transmit` answers that
            // without building an empty PDU through the layer's dispatch, and its
            // answer stands until the upper layer's next input (`upper_quiet`).
            debug_assert!(!self.upper_quiet || !self.upper.wants_transmit(), "the upper layer wants to send after no input");
            if self.upper_quiet {
                return;
            }
            if !self.upper.wants_transmit() {
                self.upper_quiet = true;
                // No input reaches the upper layer during the spell, so its deadline
                // stays what it is now.
                self.upper_quiet_until = if self.upper.timeouts_wait_for_deadline() { self.upper.poll_timeout().unwrap_or(SimTime::MAX) } else { SimTime::ZERO };
                return;
            }
            while let Some(p) = self.upper.poll_transmit(now, grant) {
                if self.lower.backlog() < depth && self.lower.accepts() {
                    self.lower.handle_submit(now, p);
                } else {
                    self.ifq_drops += 1;
                }
            }
        } else if self.lower_hungry() {
            // One PDU, fixed as late as can be; all that is ready for a lower layer
            // that plans its transmission from its queue.
            while let Some(p) = self.upper.poll_transmit(now, grant) {
                self.lower.handle_submit(now, p);
                if !self.lower.plans_transmissions() {
                    break;
                }
            }
        }
    }

    /// Test view: whether the upper layer is kept quiet (`upper_quiet`), checking that
    /// it still answers `wants_transmit` false.
    #[cfg(test)]
    pub(crate) fn upper_is_quiet(&self) -> bool {
        assert!(!self.upper_quiet || !self.upper.wants_transmit(), "the upper layer is kept quiet but wants to send");
        self.upper_quiet
    }

    /// True if the lower layer would take an upper PDU now.
    #[inline]
    fn lower_hungry(&self) -> bool {
        self.lower.backlog() == 0 && self.lower.accepts()
    }
}

impl<U: Layer, L: Layer<Sdu = U::Pdu>> Layer for Stacked<U, L> {
    const HOLDS_RECEIVED: bool = U::HOLDS_RECEIVED || L::HOLDS_RECEIVED;
    const PLANS_TRANSMISSIONS: bool = L::PLANS_TRANSMISSIONS;
    type Sdu = U::Sdu;
    type Pdu = L::Pdu;
    /// The stack gives what its top layer gives.
    fn service(&self) -> Service {
        self.upper.service()
    }

    fn handle_submit(&mut self, now: SimTime, sdu: U::Sdu) {
        self.upper.handle_submit(now, sdu);
        self.upper_quiet = false;
    }

    /// Connections are the top layer's (the application's transport).
    #[inline]
    fn plans_transmissions(&self) -> bool {
        self.lower.plans_transmissions()
    }

    fn handle_close(&mut self, now: SimTime) {
        self.upper.handle_close(now);
        self.upper_quiet = false;
    }

    fn handle_connect(&mut self, now: SimTime) {
        self.upper.handle_connect(now);
        self.upper_quiet = false;
    }

    fn handle_receive(&mut self, now: SimTime, pdu: &L::Pdu) {
        self.lower.handle_receive(now, pdu);
        self.pump_up(now);
    }

    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &L::Pdu) {
        self.lower.handle_receive_in_error(now, pdu);
        self.pump_up(now);
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.lower.handle_timeout(now);
        self.upper.handle_timeout(now);
        if now >= self.upper_quiet_until {
            self.upper_quiet = false;
        }
        debug_assert!(!self.upper_quiet || !self.upper.wants_transmit(), "the upper layer wants to send after a wake-up before its deadline");
        self.pump_up(now);
    }

    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<L::Pdu> {
        self.feed(now, grant);
        let out = self.lower.poll_transmit(now, grant);
        self.pump_up(now);
        out
    }

    /// `poll_transmit`, the lower layer's PDU built in the medium's slot (no copy of a
    /// returned PDU through the stack).
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut L::Pdu) -> bool {
        self.feed(now, grant);
        let sent = self.lower.poll_transmit_into(now, grant, slot);
        self.pump_up(now);
        sent
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        match (self.upper.poll_timeout(), self.lower.poll_timeout()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn due_layer(&self, now: SimTime) -> Option<usize> {
        // The upper layer is one layer; the lower may be a stack of its own.
        self.upper.due_layer(now).map(|_| 0).or_else(|| self.lower.due_layer(now).map(|k| k + 1))
    }

    fn poll_event(&mut self) -> Option<Event<U::Sdu>> {
        self.upper.poll_event()
    }

    fn accepts(&self) -> bool {
        self.upper.accepts()
    }

    /// (A quiet upper layer is not asked: see `upper_quiet`.)
    fn wants_transmit(&self) -> bool {
        debug_assert!(!self.upper_quiet || !self.upper.wants_transmit(), "the upper layer is kept quiet but wants to send");
        self.lower.wants_transmit() || (!self.upper_quiet && (self.ifq.is_some() || self.lower_hungry()) && self.upper.wants_transmit())
    }

    fn backlog(&self) -> usize {
        self.upper.backlog()
    }

    /// A saturated source feeds the upper layer, enough for the lower layer's whole
    /// transmission when it plans one at a time (the HF ARQ asks for `max_packets`):
    /// each message is at least one upper PDU, and the upper layer hands over all its
    /// window lets it send when the lower one plans (TCP kept one message otherwise).
    fn saturation_depth(&self) -> usize {
        self.upper.saturation_depth().max(self.lower.saturation_depth())
    }

    /// End to end: SDUs the upper layer holds unacknowledged.
    fn unacknowledged(&self) -> usize {
        self.upper.unacknowledged()
    }

    /// The lower layer's counters: what the stack put on the medium. The upper layer's
    /// own are in `self.upper.counters()`.
    fn counters(&self) -> Counters {
        self.lower.counters()
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.upper.receive_buffer_bits() + self.lower.receive_buffer_bits()
    }

    /// The upper layer's: it carries the users' data.
    fn progress(&self) -> u64 {
        self.upper.progress()
    }

    fn progress_of(&self, flow: u32) -> u64 {
        self.upper.progress_of(flow)
    }

    /// Both layers' own measures, the upper layer's first; with an interface queue,
    /// its drops (`ifq_drops`).
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        let mut m = self.upper.extra_measures();
        m.extend(self.lower.extra_measures());
        if self.ifq.is_some() {
            m.push(("ifq_drops", self.ifq_drops as f64));
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::datagram::{Datagram, DatagramConfig};
    use crate::protocol::textbook::{GoBackN, TextbookConfig};
    use crate::protocol::{Frame, Pdu, Sdu};

    type Arq = Stacked<GoBackN<Sdu>, Datagram<Frame<Sdu>>>;

    #[test]
    fn holds_received_if_either_layer_does() {
        use crate::protocol::textbook::SelectiveRepeat;
        const {
            assert!(!Arq::HOLDS_RECEIVED, "neither go-back-N nor the datagram layer buffers");
            assert!(Stacked::<GoBackN<Sdu>, SelectiveRepeat<Frame<Sdu>>>::HOLDS_RECEIVED, "the lower layer buffers");
            assert!(Stacked::<SelectiveRepeat<Sdu>, Datagram<Frame<Sdu>>>::HOLDS_RECEIVED, "the upper layer buffers");
        }
    }

    fn arq_over_datagram() -> Arq {
        let c = TextbookConfig { window: 3, modulus: 8, overhead_bits: 40, ack_bits: 40, timeout_s: 1.0, reject: true, nak_corrupted: false };
        Stacked::new(GoBackN::new(&c), Datagram::new(&DatagramConfig { overhead_bits: 24 }))
    }

    #[test]
    fn test_upper_frames_ride_in_lower_frames_and_losses_are_recovered_end_to_end() {
        let g = Grant::line(10_000.0);
        let (mut a, mut b) = (arq_over_datagram(), arq_over_datagram());
        for id in 0..4 {
            a.handle_submit(SimTime::ZERO, Sdu { id, bits: 200, flow: 0, born: SimTime::ZERO });
        }
        assert!(a.wants_transmit());
        // Three I frames (window 3), each an upper frame inside a datagram.
        let sent: Vec<_> = std::iter::from_fn(|| a.poll_transmit(SimTime::ZERO, &g)).collect();
        assert_eq!(sent.len(), 3, "the upper window binds");
        assert!(sent.iter().all(|f| f.bits() == 200 + 40 + 24));
        // The first is corrupted: the datagram layer drops it, the upper receiver sees a gap.
        b.handle_receive_in_error(SimTime(1), &sent[0]);
        b.handle_receive(SimTime(2), &sent[1]);
        b.handle_receive(SimTime(3), &sent[2]);
        assert!(b.poll_event().is_none(), "nothing delivered past the gap");
        let rej = b.poll_transmit(SimTime(3), &g).unwrap();
        assert_eq!(rej.msg.unwrap().kind, crate::protocol::FrameKind::REJ);
        a.handle_receive(SimTime(4), &rej);
        let again: Vec<_> = std::iter::from_fn(|| a.poll_transmit(SimTime(4), &g)).collect();
        assert_eq!(again.iter().map(|f| f.msg.unwrap().ns).collect::<Vec<_>>(), vec![0, 1, 2]);
        for f in &again {
            b.handle_receive(SimTime(5), f);
        }
        let got: Vec<u64> = std::iter::from_fn(|| b.poll_event())
            .filter_map(|e| if let Event::Delivered(s) = e { Some(s.id) } else { None })
            .collect();
        assert_eq!(got, vec![0, 1, 2]);
        assert_eq!(a.backlog(), 1);
        assert_eq!(a.unacknowledged(), 4);
        assert_eq!(a.counters().frames_sent, 6, "lower counters: frames on the medium");
        assert_eq!(a.upper.counters().i_frames_retransmitted, 3);
        assert!(a.poll_timeout().is_some(), "the upper T1 runs");
    }
}
