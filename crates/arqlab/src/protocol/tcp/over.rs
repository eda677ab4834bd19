//! TCP over a link layer, as one stack: a [`Stacked`] whose flow counters are the link
//! layer's (what went on the medium) and whose transport counters — segments, TCP
//! retransmissions and timeouts, the ones that matter when TCP's timer meets a slow
//! ARQ link — are reported as the extra `transport.<flow>` measures (`Tcp::extra_measures`).

use super::Tcp;
use crate::engine::SimTime;
use crate::protocol::{Counters, Event, Frame, Grant, Layer, Sdu, Service, Stacked};

pub struct TcpOver<L: Layer<Sdu = Frame<Sdu>>>(pub Stacked<Tcp, L>);

impl<L: Layer<Sdu = Frame<Sdu>>> Layer for TcpOver<L> {
    type Sdu = Sdu;
    type Pdu = L::Pdu;
    fn service(&self) -> Service {
        self.0.service()
    }
    fn handle_submit(&mut self, now: SimTime, sdu: Sdu) {
        self.0.handle_submit(now, sdu)
    }
    fn handle_receive(&mut self, now: SimTime, pdu: &L::Pdu) {
        self.0.handle_receive(now, pdu)
    }
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &L::Pdu) {
        self.0.handle_receive_in_error(now, pdu)
    }
    fn handle_timeout(&mut self, now: SimTime) {
        self.0.handle_timeout(now)
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<L::Pdu> {
        self.0.poll_transmit(now, grant)
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        self.0.poll_timeout()
    }
    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.0.poll_event()
    }
    fn accepts(&self) -> bool {
        self.0.accepts()
    }
    fn wants_transmit(&self) -> bool {
        self.0.wants_transmit()
    }
    fn backlog(&self) -> usize {
        self.0.backlog()
    }
    fn unacknowledged(&self) -> usize {
        self.0.unacknowledged()
    }
    fn counters(&self) -> Counters {
        self.0.counters()
    }
    fn receive_buffer_bits(&self) -> u64 {
        self.0.receive_buffer_bits()
    }
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        self.0.extra_measures()
    }
}
