//! Any built-in layer, chosen at run time: the slot type of user-composed stacks beyond
//! the monomorphised single-layer shapes. Costs one `match` per call per layer slot.

use super::datagram::Datagram;
use super::hdlc::HdlcStation;
use super::netwindow::NetWindow;
use super::llc2::Llc2;
use super::textbook::{GoBackN, SelectiveRepeat};
use super::{Counters, Event, Frame, Grant, Layer, Payload, Service, Station};
use crate::engine::SimTime;
use crate::scenario::ProtocolConfig;

pub enum AnyLayer<P: Payload> {
    GoBackN(GoBackN<P>),
    SelectiveRepeat(SelectiveRepeat<P>),
    Hdlc(HdlcStation<P>),
    Datagram(Datagram<P>),
    NetWindow(NetWindow<P>),
    Llc2(Llc2<P>),
}

impl<P: Payload> AnyLayer<P> {
    pub fn new(cfg: &ProtocolConfig, station: Station) -> Self {
        match cfg {
            ProtocolConfig::StopAndWait(c) | ProtocolConfig::GoBackN(c) => AnyLayer::GoBackN(GoBackN::new(c)),
            ProtocolConfig::SelectiveRepeat(c) => AnyLayer::SelectiveRepeat(SelectiveRepeat::new(c)),
            ProtocolConfig::Hdlc(c) => AnyLayer::Hdlc(HdlcStation::new(c, station)),
            ProtocolConfig::Datagram(c) => AnyLayer::Datagram(Datagram::new(c)),
            ProtocolConfig::NetworkWindow(c) => AnyLayer::NetWindow(NetWindow::new(c)),
            // Validation keeps TP4 at the top of a stack, over one of the layers above.
            ProtocolConfig::Tp4(_) => unreachable!("tp4 is only a top layer (validated)"),
            ProtocolConfig::Llc2(c) => AnyLayer::Llc2(Llc2::new(c)),
            // Validation keeps them out of generic stacks: `sim` wires them itself.
            ProtocolConfig::Tcp(_) | ProtocolConfig::X25(_) => unreachable!("{} is wired by sim::run_x25", cfg.kind()),
            // Its own PDU (an HF packet with its airtime): wired alone by `sim`.
            ProtocolConfig::HfArq(_) => unreachable!("hf_arq is a single-layer stack (validated)"),
        }
    }
}

macro_rules! each {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            AnyLayer::GoBackN($l) => $e,
            AnyLayer::SelectiveRepeat($l) => $e,
            AnyLayer::Hdlc($l) => $e,
            AnyLayer::Datagram($l) => $e,
            AnyLayer::NetWindow($l) => $e,
            AnyLayer::Llc2($l) => $e,
        }
    };
}

impl<P: Payload> Layer for AnyLayer<P> {
    // The variant is chosen at run time and may be one that buffers (SR, HDLC, LLC2, ...).
    const HOLDS_RECEIVED: bool = true;
    type Sdu = P;
    type Pdu = Frame<P>;

    fn service(&self) -> Service {
        each!(self, l => l.service())
    }
    fn handle_submit(&mut self, now: SimTime, sdu: P) {
        each!(self, l => l.handle_submit(now, sdu))
    }
    fn handle_receive(&mut self, now: SimTime, pdu: &Frame<P>) {
        each!(self, l => l.handle_receive(now, pdu))
    }
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &Frame<P>) {
        each!(self, l => l.handle_receive_in_error(now, pdu))
    }
    fn handle_timeout(&mut self, now: SimTime) {
        each!(self, l => l.handle_timeout(now))
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<P>> {
        each!(self, l => l.poll_transmit(now, grant))
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        each!(self, l => l.poll_timeout())
    }
    fn poll_event(&mut self) -> Option<Event<P>> {
        each!(self, l => l.poll_event())
    }
    fn accepts(&self) -> bool {
        each!(self, l => l.accepts())
    }
    fn wants_transmit(&self) -> bool {
        each!(self, l => l.wants_transmit())
    }
    fn backlog(&self) -> usize {
        each!(self, l => l.backlog())
    }
    fn unacknowledged(&self) -> usize {
        each!(self, l => l.unacknowledged())
    }
    fn counters(&self) -> Counters {
        each!(self, l => l.counters())
    }
    fn receive_buffer_bits(&self) -> u64 {
        each!(self, l => l.receive_buffer_bits())
    }
}
