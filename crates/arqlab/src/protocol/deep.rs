//! Stacks of any depth. The composed stacks of `sim::composed` nest their PDU types
//! (`AnyPdu<AnyPdu<Sdu>>` under two layers), so each depth is a type of its own and one
//! monomorphised runner. Here every layer is an `AnyLayer<Nested>`: its payload is the
//! users' SDU (the top layer) or the PDU of the layer above behind a reference count,
//! one type at every depth, so a stack of any number of layers is a chain built at run
//! time ([`Chain`]). The chain calls its layers in [`Composed`]'s order (each layer
//! over the chain below it), so a stack run through it gives the trajectory of the
//! nested stack of the same layers bit for bit (`tests/golden.rs`).
//!
//! Cost: one `match` of [`Chain`] per layer per call on top of `AnyLayer`'s, and one
//! allocation per PDU handed from a layer to the one below it (the box around it).

use super::any::{AnyLayer, AnyPdu, Carry, Ctx};
use super::composed::Composed;
use super::ip_header::IpHeader;
use super::registry::ProtocolConfig;
use super::x25::Routable;
use super::{Counters, Event, Grant, Layer, Payload, Pdu, Sdu, Service};
use crate::engine::{Duration, SimTime};
use crate::trace::{Carried, TraceFrame};
use std::rc::Rc;

/// What a layer of a chain carries: the users' SDU at the top, the PDU of the layer
/// above below it (shared by the copies a lower layer keeps for retransmission).
#[derive(Clone, Debug, PartialEq)]
pub enum Nested {
    User(Sdu),
    Pdu(Rc<AnyPdu<Nested>>),
}

impl Payload for Nested {
    #[inline]
    fn bits(&self) -> u32 {
        match self {
            Nested::User(s) => s.bits,
            Nested::Pdu(p) => Payload::bits(&**p),
        }
    }
    fn sdu_id(&self) -> Option<u64> {
        match self {
            Nested::User(s) => Some(s.id),
            Nested::Pdu(p) => p.sdu_id(),
        }
    }
    fn trace_inner(&self) -> Option<TraceFrame> {
        match self {
            Nested::User(s) => s.trace_inner(),
            Nested::Pdu(p) => p.trace_inner(),
        }
    }
    fn filter_key(&self) -> Option<u64> {
        match self {
            Nested::User(s) => s.filter_key(),
            Nested::Pdu(p) => p.filter_key(),
        }
    }
    fn as_carried(&self) -> Option<TraceFrame> {
        match self {
            Nested::User(s) => s.as_carried(),
            Nested::Pdu(p) => p.as_carried(),
        }
    }
    fn as_datagram(&self) -> Option<(TraceFrame, Carried)> {
        match self {
            Nested::User(s) => s.as_datagram(),
            Nested::Pdu(p) => p.as_datagram(),
        }
    }
}

/// The users' SDUs carry their flow; a PDU of a layer above carries none (as in the
/// nested stacks: X.25 sends it to the host's one peer).
impl Routable for Nested {
    fn flow(&self) -> Option<u32> {
        match self {
            Nested::User(s) => s.flow(),
            Nested::Pdu(p) => p.flow(),
        }
    }
    fn ip_dst(&self) -> Option<u32> {
        match self {
            Nested::User(_) => None,
            Nested::Pdu(p) => p.ip_dst(),
        }
    }
}

impl Carry for Nested {
    #[inline]
    fn user(self) -> Sdu {
        match self {
            Nested::User(s) => s,
            Nested::Pdu(_) => unreachable!("a top-only layer (tcp, tp4) below the top (validated)"),
        }
    }
    #[inline]
    fn from_user(s: Sdu) -> Self {
        Nested::User(s)
    }
}

/// An IP router with link stacks forwards the datagrams its links deliver: in a chain
/// they are `Nested` (the PDU of the hosts' `ip` layer, boxed).
impl Pdu for Nested {
    fn bits(&self) -> u32 {
        Payload::bits(self)
    }
    fn trace(&self) -> TraceFrame {
        match self {
            Nested::Pdu(p) => p.trace(),
            Nested::User(_) => unreachable!("a router forwards PDUs of the layer above its links"),
        }
    }
    fn mode(&self) -> u8 {
        self.inner().map_or(0, Pdu::mode)
    }
    fn airtime(&self) -> Option<Duration> {
        self.inner().and_then(Pdu::airtime)
    }
    fn dst(&self) -> Option<u32> {
        self.inner().and_then(Pdu::dst)
    }
    fn carried(&self) -> Option<Carried> {
        self.inner().and_then(Pdu::carried)
    }
    /// Copy on write: a TTL changed at a router is not changed in the copy the sending
    /// link keeps for retransmission.
    fn ip_header(&mut self) -> Option<&mut IpHeader> {
        match self {
            Nested::Pdu(p) => Rc::make_mut(p).ip_header(),
            Nested::User(_) => None,
        }
    }
    fn ip_fragments(&self, mtu_octets: u32, out: &mut Vec<Self>) {
        match self {
            Nested::Pdu(p) if matches!(**p, AnyPdu::Ip(_)) => {
                let mut pieces = Vec::new();
                p.ip_fragments(mtu_octets, &mut pieces);
                out.extend(pieces.into_iter().map(|f| Nested::Pdu(Rc::new(f))));
            }
            other => out.push(other.clone()),
        }
    }
}

impl Nested {
    fn inner(&self) -> Option<&AnyPdu<Nested>> {
        match self {
            Nested::Pdu(p) => Some(p),
            Nested::User(_) => None,
        }
    }

    /// The PDU of the layer above, out of its box.
    #[inline]
    fn unbox(self) -> AnyPdu<Nested> {
        match self {
            Nested::Pdu(p) => Rc::unwrap_or_clone(p),
            Nested::User(_) => unreachable!("a user SDU delivered below the top layer"),
        }
    }
}

/// An event of the chain as the layer above (or the user) sees it.
#[inline]
fn lift<T>(e: Event<Nested>, f: impl FnOnce(Nested) -> T) -> Event<T> {
    match e {
        Event::Delivered(n) => Event::Delivered(f(n)),
        Event::Acknowledged(n) => Event::Acknowledged(f(n)),
    }
}

/// The `Layer` methods a wrapper or the chain passes on unchanged, each through
/// `$via!(self, l => ...)`: the chain's `each!` (one `match` per call) or `chain!` (a
/// wrapper's `chain` field).
macro_rules! forward {
    ($via:ident) => {
        fn service(&self) -> Service {
            $via!(self, l => l.service())
        }
        #[inline]
        fn handle_receive(&mut self, now: SimTime, pdu: &AnyPdu<Nested>) {
            $via!(self, l => l.handle_receive(now, pdu))
        }
        fn handle_receive_in_error(&mut self, now: SimTime, pdu: &AnyPdu<Nested>) {
            $via!(self, l => l.handle_receive_in_error(now, pdu))
        }
        #[inline]
        fn handle_timeout(&mut self, now: SimTime) {
            $via!(self, l => l.handle_timeout(now))
        }
        fn handle_close(&mut self, now: SimTime) {
            $via!(self, l => l.handle_close(now))
        }
        fn handle_connect(&mut self, now: SimTime) {
            $via!(self, l => l.handle_connect(now))
        }
        #[inline]
        fn plans_transmissions(&self) -> bool {
            $via!(self, l => l.plans_transmissions())
        }
        #[inline]
        fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<AnyPdu<Nested>> {
            $via!(self, l => l.poll_transmit(now, grant))
        }
        #[inline]
        fn poll_timeout(&self) -> Option<SimTime> {
            $via!(self, l => l.poll_timeout())
        }
        fn due_layer(&self, now: SimTime) -> Option<usize> {
            $via!(self, l => l.due_layer(now))
        }
        fn accepts(&self) -> bool {
            $via!(self, l => l.accepts())
        }
        #[inline]
        fn wants_transmit(&self) -> bool {
            $via!(self, l => l.wants_transmit())
        }
        fn backlog(&self) -> usize {
            $via!(self, l => l.backlog())
        }
        fn saturation_depth(&self) -> usize {
            $via!(self, l => l.saturation_depth())
        }
        fn unacknowledged(&self) -> usize {
            $via!(self, l => l.unacknowledged())
        }
        fn counters(&self) -> Counters {
            $via!(self, l => l.counters())
        }
        fn receive_buffer_bits(&self) -> u64 {
            $via!(self, l => l.receive_buffer_bits())
        }
        fn extra_measures(&self) -> Vec<(&'static str, f64)> {
            $via!(self, l => l.extra_measures())
        }
        fn progress(&self) -> u64 {
            $via!(self, l => l.progress())
        }
    };
}

/// A wrapper's `chain` field, for [`forward!`].
macro_rules! chain {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            Self { chain: $l } => $e,
        }
    };
}

/// A chain of layers, top first: one layer, or a layer over the chain below it.
pub enum Chain {
    One(AnyLayer<Nested>),
    More(Box<Composed<AnyLayer<Nested>, Boxed>>),
}

impl Chain {
    /// The chain of `layers` (top first, at least one; validated), each built with `c`.
    pub fn new(layers: &[ProtocolConfig], c: &Ctx) -> Self {
        let top = AnyLayer::new(&layers[0], c);
        match &layers[1..] {
            [] => Chain::One(top),
            below => Chain::More(Box::new(Composed::new(top, Boxed { chain: Chain::new(below, c) }, layers[0].declared().transport))),
        }
    }
}

/// The one `match` per call a chain link costs.
macro_rules! each {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            Chain::One($l) => $e,
            Chain::More($l) => $e,
        }
    };
}

impl Layer for Chain {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = Nested;
    type Pdu = AnyPdu<Nested>;

    forward!(each);

    #[inline]
    fn handle_submit(&mut self, now: SimTime, sdu: Nested) {
        each!(self, l => l.handle_submit(now, sdu))
    }
    #[inline]
    fn poll_event(&mut self) -> Option<Event<Nested>> {
        each!(self, l => l.poll_event())
    }
}

/// The chain below a layer as that layer's lower layer: the layer's PDUs go down in a
/// box, the chain's deliveries come up out of it.
pub struct Boxed {
    chain: Chain,
}

impl Layer for Boxed {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = AnyPdu<Nested>;
    type Pdu = AnyPdu<Nested>;

    forward!(chain);

    #[inline]
    fn handle_submit(&mut self, now: SimTime, sdu: AnyPdu<Nested>) {
        self.chain.handle_submit(now, Nested::Pdu(Rc::new(sdu)))
    }
    #[inline]
    fn poll_event(&mut self) -> Option<Event<AnyPdu<Nested>>> {
        self.chain.poll_event().map(|e| lift(e, Nested::unbox))
    }
}

/// A node's stack of any depth, as the runner sees it: the users' SDUs at the top.
pub struct Deep {
    chain: Chain,
}

impl Deep {
    pub fn new(layers: &[ProtocolConfig], c: &Ctx) -> Self {
        Deep { chain: Chain::new(layers, c) }
    }
}

impl Layer for Deep {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = Sdu;
    type Pdu = AnyPdu<Nested>;

    forward!(chain);

    #[inline]
    fn handle_submit(&mut self, now: SimTime, sdu: Sdu) {
        self.chain.handle_submit(now, Nested::User(sdu))
    }
    #[inline]
    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.chain.poll_event().map(|e| lift(e, Carry::user))
    }
}
