//! A composed stack: two layers chosen at run time, stacked in [`Stacked`]'s order, so a
//! composed two-layer stack reproduces the monomorphised one's trajectory bit for bit.
//! Deeper stacks nest: `Composed<AnyLayer<Sdu>, Composed<AnyLayer<L1>, AnyLayer<L2>>>`.
//!
//! What the stack reports follows its top layer's declared role: under a transport
//! (`Declared::transport`, TP4) the stack's counters and extra measures are the
//! transport's, and a corrupted PDU the subnetwork drops counts as a transport PDU
//! received in error; otherwise they are the lower layer's (what went on the medium)
//! and both layers' extra measures, the upper's first.

use super::{Counters, Event, Grant, Layer, Service, Stacked};
use crate::engine::SimTime;

pub struct Composed<U: Layer, L: Layer<Sdu = U::Pdu>> {
    pub stack: Stacked<U, L>,
    /// The top layer is a transport over a subnetwork.
    transport: bool,
    /// Transport only: PDUs received in error below it.
    in_error: u64,
}

impl<U: Layer, L: Layer<Sdu = U::Pdu>> Composed<U, L> {
    pub fn new(upper: U, lower: L, transport: bool) -> Self {
        Composed { stack: Stacked::new(upper, lower), transport, in_error: 0 }
    }

    /// The upper layer pushes into an interface queue of `depth` PDUs ([`Stacked`]).
    pub fn with_interface_queue(mut self, depth: Option<u32>) -> Self {
        self.stack = self.stack.with_interface_queue(depth);
        self
    }
}

impl<U: Layer, L: Layer<Sdu = U::Pdu>> Layer for Composed<U, L> {
    const HOLDS_RECEIVED: bool = Stacked::<U, L>::HOLDS_RECEIVED;
    type Sdu = U::Sdu;
    type Pdu = L::Pdu;

    fn service(&self) -> Service {
        self.stack.service()
    }
    #[inline]
    fn handle_submit(&mut self, now: SimTime, sdu: U::Sdu) {
        self.stack.handle_submit(now, sdu)
    }
    #[inline]
    fn handle_receive(&mut self, now: SimTime, pdu: &L::Pdu) {
        self.stack.handle_receive(now, pdu)
    }
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &L::Pdu) {
        self.stack.handle_receive_in_error(now, pdu);
        self.in_error += u64::from(self.transport);
    }
    #[inline]
    fn handle_timeout(&mut self, now: SimTime) {
        self.stack.handle_timeout(now)
    }
    fn handle_close(&mut self, now: SimTime) {
        self.stack.handle_close(now)
    }
    fn handle_connect(&mut self, now: SimTime) {
        self.stack.handle_connect(now)
    }
    #[inline]
    fn plans_transmissions(&self) -> bool {
        self.stack.plans_transmissions()
    }
    #[inline]
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<L::Pdu> {
        self.stack.poll_transmit(now, grant)
    }
    #[inline]
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut L::Pdu) -> bool {
        self.stack.poll_transmit_into(now, grant, slot)
    }
    #[inline]
    fn poll_timeout(&self) -> Option<SimTime> {
        self.stack.poll_timeout()
    }
    fn due_layer(&self, now: SimTime) -> Option<usize> {
        self.stack.due_layer(now)
    }
    #[inline]
    fn poll_event(&mut self) -> Option<Event<U::Sdu>> {
        self.stack.poll_event()
    }
    fn accepts(&self) -> bool {
        self.stack.accepts()
    }
    #[inline]
    fn wants_transmit(&self) -> bool {
        self.stack.wants_transmit()
    }
    fn backlog(&self) -> usize {
        self.stack.backlog()
    }
    /// A saturated source feeds the top layer, enough for the lower layer's whole
    /// transmission when it plans one at a time (the HF ARQ): each message is at least
    /// one upper PDU, and the upper layer hands over what its window lets it send.
    fn saturation_depth(&self) -> usize {
        self.stack.upper.saturation_depth().max(self.stack.lower.saturation_depth())
    }
    fn unacknowledged(&self) -> usize {
        self.stack.unacknowledged()
    }
    fn counters(&self) -> Counters {
        if self.transport {
            let mut c = self.stack.upper.counters();
            c.frames_in_error_received += self.in_error;
            c
        } else {
            self.stack.counters()
        }
    }
    fn receive_buffer_bits(&self) -> u64 {
        self.stack.receive_buffer_bits()
    }
    fn progress(&self) -> u64 {
        self.stack.progress()
    }
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        if self.transport {
            self.stack.upper.extra_measures()
        } else {
            self.stack.extra_measures()
        }
    }
}
