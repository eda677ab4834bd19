//! Any registered layer, chosen at run time: the slot type of composed stacks
//! ([`super::composed`]). `AnyLayer<P>` carries payloads `P` (the users' SDUs, or the
//! PDUs of the layer above) and sends [`AnyPdu<P>`]: one variant per header family, so
//! layers whose PDUs differ (frames, TPDUs, TCP segments, HF packets, X.25 packets)
//! stack in any order their declared services allow. Costs one `match` per call.
//!
//! TCP and TP4 take the users' SDUs only (`Carry::user`): validation keeps them on top.

use super::datagram::Datagram;
use super::hdlc::HdlcStation;
use super::hf::{HfArq, HfFrame};
use super::ip::{IpHeader, IpHost, IpPacket};
use super::llc2::Llc2;
use super::netwindow::NetWindow;
use super::registry::ProtocolConfig;
use super::tcp::TcpHost;
use super::textbook::{GoBackN, SelectiveRepeat};
use super::tp4::{Tp4, Tpdu};
use super::x25::{packet::Packet, Routable, X25Host};
use super::{Counters, Event, Frame, Grant, Layer, Payload, Pdu, Sdu, Service, Station};
use crate::engine::{Duration, SimTime};
use crate::trace::TraceFrame;

/// A PDU of any registered header family, carrying `P`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnyPdu<P> {
    /// A link frame (textbook ARQ, HDLC, LLC2, datagram, network window).
    Frame(Frame<P>),
    /// A TCP segment (always carries the users' SDUs).
    Segment(Frame<Sdu>),
    Tpdu(Tpdu),
    Hf(HfFrame<P>),
    Packet(Packet<P>),
    /// An IP datagram or fragment.
    Ip(IpPacket<P>),
}

macro_rules! each_pdu {
    ($self:expr, $x:ident => $e:expr) => {
        match $self {
            AnyPdu::Frame($x) => $e,
            AnyPdu::Segment($x) => $e,
            AnyPdu::Tpdu($x) => $e,
            AnyPdu::Hf($x) => $e,
            AnyPdu::Packet($x) => $e,
            AnyPdu::Ip($x) => $e,
        }
    };
}

impl<P: Payload> Payload for AnyPdu<P> {
    #[inline]
    fn bits(&self) -> u32 {
        each_pdu!(self, x => Payload::bits(x))
    }
    fn sdu_id(&self) -> Option<u64> {
        each_pdu!(self, x => Payload::sdu_id(x))
    }
    fn trace_inner(&self) -> Option<TraceFrame> {
        each_pdu!(self, x => x.trace_inner())
    }
    fn filter_key(&self) -> Option<u64> {
        each_pdu!(self, x => x.filter_key())
    }
    fn as_carried(&self) -> Option<TraceFrame> {
        each_pdu!(self, x => x.as_carried())
    }
    fn as_datagram(&self) -> Option<(TraceFrame, crate::trace::Carried)> {
        each_pdu!(self, x => x.as_datagram())
    }
}

impl<P: Payload> Pdu for AnyPdu<P> {
    #[inline]
    fn bits(&self) -> u32 {
        each_pdu!(self, x => Pdu::bits(x))
    }
    /// A link frame (TP4's DTs over the network window, LLC2) onto a slot that held one
    /// copies field by field, as `Frame` does; other kinds are cloned over the slot.
    #[inline(always)]
    fn copy_into(&self, slot: &mut Self) {
        match (self, slot) {
            (AnyPdu::Frame(a), AnyPdu::Frame(b)) => a.copy_into(b),
            (a, b) => b.clone_from(a),
        }
    }
    fn mode(&self) -> u8 {
        each_pdu!(self, x => x.mode())
    }
    #[inline]
    fn airtime(&self) -> Option<Duration> {
        each_pdu!(self, x => x.airtime())
    }
    #[inline]
    fn dst(&self) -> Option<u32> {
        each_pdu!(self, x => x.dst())
    }
    fn trace(&self) -> TraceFrame {
        each_pdu!(self, x => x.trace())
    }
    fn ip_header(&mut self) -> Option<&mut IpHeader> {
        match self {
            AnyPdu::Ip(x) => Some(&mut x.hdr),
            _ => None,
        }
    }
    fn ip_fragments(&self, mtu_octets: u32, out: &mut Vec<Self>) {
        match self {
            AnyPdu::Ip(x) => super::ip::fragment(x, mtu_octets, |f| out.push(AnyPdu::Ip(f))),
            other => out.push(other.clone()),
        }
    }
    fn carried(&self) -> Option<crate::trace::Carried> {
        each_pdu!(self, x => x.carried())
    }
}

/// TCP segments and TPDUs carry no flow: IP sends them to the host's one peer. An IP
/// datagram names its destination node.
impl<P: Payload> Routable for AnyPdu<P> {
    fn flow(&self) -> Option<u32> {
        None
    }
    fn ip_dst(&self) -> Option<u32> {
        match self {
            AnyPdu::Ip(x) => Some(x.hdr.dst),
            _ => None,
        }
    }
}

/// What a composed layer carries: the users' SDUs at the top, PDUs below.
pub trait Carry: Routable {
    /// The users' SDU (top of the stack only).
    fn user(self) -> Sdu;
    fn from_user(s: Sdu) -> Self;
}

impl Carry for Sdu {
    #[inline(always)]
    fn user(self) -> Sdu {
        self
    }
    #[inline(always)]
    fn from_user(s: Sdu) -> Self {
        s
    }
}

impl<P: Payload> Carry for AnyPdu<P> {
    fn user(self) -> Sdu {
        unreachable!("a top-only layer (tcp, tp4) below the top (validated)")
    }
    fn from_user(_: Sdu) -> Self {
        unreachable!("a top-only layer (tcp, tp4) below the top (validated)")
    }
}

/// What a layer's constructor may need to know about its node.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    pub me: u32,
    /// The peer this stack talks to (the first, for a layer that addresses several).
    pub peer: u32,
    pub station: Station,
    /// TCP: open actively (the client of the first flow with traffic to `peer`).
    pub active_open: bool,
    /// Flow index → destination node (X.25 routes datagrams by it).
    pub routes: &'a [u32],
    /// The sites this node sends to (X.25 pre-opens circuits to them).
    pub sites: &'a [u32],
    /// The MTU of the node's interface, octets (IP fragments to it); `None`: no limit.
    pub mtu_octets: Option<u32>,
    /// The run's seed and replication (a TCP draws its per-replication inputs from them:
    /// `TcpConfig::for_replication`).
    pub seed: u64,
    pub replication: u64,
    /// A host running `ip` over `x25` on an X.25 network (RFC 877): per destination
    /// node, the address its datagrams are called to, where that node's route leaves the
    /// network (a gateway, or the node itself; `u32::MAX`: not across it); `None`: the peer.
    pub x25_next_hops: Option<&'a [u32]>,
}

impl Ctx<'static> {
    /// A link layer's context: no routes, no sites, passive.
    pub fn link(me: u32, peer: u32, station: Station) -> Self {
        Ctx { me, peer, station, active_open: false, routes: &[], sites: &[], mtu_octets: None, x25_next_hops: None, seed: 0, replication: 0 }
    }
}

pub enum AnyLayer<P: Carry> {
    GoBackN(GoBackN<P>),
    SelectiveRepeat(SelectiveRepeat<P>),
    Hdlc(HdlcStation<P>),
    Datagram(Datagram<P>),
    NetWindow(NetWindow<P>),
    Llc2(Llc2<P>),
    Tp4(Tp4),
    Tcp(TcpHost),
    X25(X25Host<P>),
    HfArq(HfArq<P>),
    Ip(IpHost<P>),
}

impl<P: Carry> AnyLayer<P> {
    /// The layer a registered configuration builds.
    pub fn new(cfg: &ProtocolConfig, ctx: &Ctx) -> Self {
        match cfg {
            ProtocolConfig::StopAndWait(c) | ProtocolConfig::GoBackN(c) => AnyLayer::GoBackN(GoBackN::new(c)),
            ProtocolConfig::SelectiveRepeat(c) => AnyLayer::SelectiveRepeat(SelectiveRepeat::new(c)),
            ProtocolConfig::Hdlc(c) => AnyLayer::Hdlc(HdlcStation::new(c, ctx.station)),
            ProtocolConfig::Datagram(c) => AnyLayer::Datagram(Datagram::new(c)),
            ProtocolConfig::NetworkWindow(c) => AnyLayer::NetWindow(NetWindow::new(c)),
            ProtocolConfig::Llc2(c) => AnyLayer::Llc2(Llc2::new(c)),
            ProtocolConfig::Tp4(c) => AnyLayer::Tp4(Tp4::new(c)),
            ProtocolConfig::Tcp(c) => AnyLayer::Tcp(TcpHost::open(&c.for_replication(ctx.me, ctx.seed, ctx.replication), ctx.active_open)),
            ProtocolConfig::X25(c) => AnyLayer::X25(match ctx.x25_next_hops {
                // Under ip every SDU is a datagram: each goes to its destination's next hop,
                // and circuits are pre-opened to the next hops of the sites it sends to.
                Some(hops) => {
                    let hop = |d: u32| hops.get(d as usize).copied().filter(|&h| h != u32::MAX).unwrap_or(d);
                    let mut sites: Vec<u32> = vec![];
                    for s in ctx.sites.iter().map(|&d| hop(d)) {
                        if !sites.contains(&s) {
                            sites.push(s);
                        }
                    }
                    X25Host::new(ctx.me, c, vec![], hop(ctx.peer), &sites).with_next_hops(hops.to_vec())
                }
                None => X25Host::new(ctx.me, c, ctx.routes.to_vec(), ctx.peer, ctx.sites),
            }),
            ProtocolConfig::HfArq(c) => AnyLayer::HfArq(HfArq::new(c, ctx.station)),
            ProtocolConfig::Ip(c) => AnyLayer::Ip(IpHost::new(c, ctx.me, ctx.peer, ctx.routes.to_vec(), ctx.mtu_octets)),
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
            AnyLayer::Tp4($l) => $e,
            AnyLayer::Tcp($l) => $e,
            AnyLayer::X25($l) => $e,
            AnyLayer::HfArq($l) => $e,
            AnyLayer::Ip($l) => $e,
        }
    };
}

impl<P: Carry> AnyLayer<P> {
    /// `poll_transmit_into` of every variant but X.25's.
    #[inline(never)]
    fn transmit_into_other(&mut self, now: SimTime, grant: &Grant, slot: &mut AnyPdu<P>) -> bool {
        match (&mut *self, &mut *slot) {
            (AnyLayer::GoBackN(l), AnyPdu::Frame(f)) => l.poll_transmit_into(now, grant, f),
            (AnyLayer::SelectiveRepeat(l), AnyPdu::Frame(f)) => l.poll_transmit_into(now, grant, f),
            (AnyLayer::Hdlc(l), AnyPdu::Frame(f)) => l.poll_transmit_into(now, grant, f),
            (AnyLayer::Datagram(l), AnyPdu::Frame(f)) => l.poll_transmit_into(now, grant, f),
            (AnyLayer::NetWindow(l), AnyPdu::Frame(f)) => l.poll_transmit_into(now, grant, f),
            (AnyLayer::Llc2(l), AnyPdu::Frame(f)) => l.poll_transmit_into(now, grant, f),
            (AnyLayer::Tp4(l), AnyPdu::Tpdu(t)) => l.poll_transmit_into(now, grant, t),
            (AnyLayer::Tcp(l), AnyPdu::Segment(s)) => l.poll_transmit_into(now, grant, s),
            (AnyLayer::HfArq(l), AnyPdu::Hf(h)) => l.poll_transmit_into(now, grant, h),
            (AnyLayer::Ip(l), AnyPdu::Ip(p)) => l.poll_transmit_into(now, grant, p),
            _ => match self.poll_transmit(now, grant) {
                Some(pdu) => {
                    pdu.copy_into(slot);
                    true
                }
                None => false,
            },
        }
    }
}

/// The PDU a layer gets, unwrapped from its header family; a PDU of another family
/// cannot reach it (peers run the same layers, validated) and is ignored.
macro_rules! receive {
    ($self:expr, $pdu:expr, $f:ident($now:expr)) => {
        match ($self, $pdu) {
            (AnyLayer::GoBackN(l), AnyPdu::Frame(x)) => l.$f($now, x),
            (AnyLayer::SelectiveRepeat(l), AnyPdu::Frame(x)) => l.$f($now, x),
            (AnyLayer::Hdlc(l), AnyPdu::Frame(x)) => l.$f($now, x),
            (AnyLayer::Datagram(l), AnyPdu::Frame(x)) => l.$f($now, x),
            (AnyLayer::NetWindow(l), AnyPdu::Frame(x)) => l.$f($now, x),
            (AnyLayer::Llc2(l), AnyPdu::Frame(x)) => l.$f($now, x),
            (AnyLayer::Tp4(l), AnyPdu::Tpdu(x)) => l.$f($now, x),
            (AnyLayer::Tcp(l), AnyPdu::Segment(x)) => l.$f($now, x),
            (AnyLayer::X25(l), AnyPdu::Packet(x)) => l.$f($now, x),
            (AnyLayer::HfArq(l), AnyPdu::Hf(x)) => l.$f($now, x),
            (AnyLayer::Ip(l), AnyPdu::Ip(x)) => l.$f($now, x),
            _ => debug_assert!(false, "a PDU of another header family"),
        }
    };
}

impl<P: Carry> Layer for AnyLayer<P> {
    // The variant is chosen at run time and may be one that buffers (SR, HDLC, LLC2, ...).
    const HOLDS_RECEIVED: bool = true;
    type Sdu = P;
    type Pdu = AnyPdu<P>;

    fn service(&self) -> Service {
        each!(self, l => l.service())
    }
    fn handle_submit(&mut self, now: SimTime, sdu: P) {
        match self {
            AnyLayer::Tp4(l) => l.handle_submit(now, sdu.user()),
            AnyLayer::Tcp(l) => l.handle_submit(now, sdu.user()),
            AnyLayer::GoBackN(l) => l.handle_submit(now, sdu),
            AnyLayer::SelectiveRepeat(l) => l.handle_submit(now, sdu),
            AnyLayer::Hdlc(l) => l.handle_submit(now, sdu),
            AnyLayer::Datagram(l) => l.handle_submit(now, sdu),
            AnyLayer::NetWindow(l) => l.handle_submit(now, sdu),
            AnyLayer::Llc2(l) => l.handle_submit(now, sdu),
            AnyLayer::X25(l) => l.handle_submit(now, sdu),
            AnyLayer::HfArq(l) => l.handle_submit(now, sdu),
            AnyLayer::Ip(l) => l.handle_submit(now, sdu),
        }
    }
    fn handle_receive(&mut self, now: SimTime, pdu: &AnyPdu<P>) {
        receive!(self, pdu, handle_receive(now))
    }
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &AnyPdu<P>) {
        receive!(self, pdu, handle_receive_in_error(now))
    }
    fn handle_timeout(&mut self, now: SimTime) {
        each!(self, l => l.handle_timeout(now))
    }
    fn handle_close(&mut self, now: SimTime) {
        each!(self, l => l.handle_close(now))
    }
    fn handle_connect(&mut self, now: SimTime) {
        each!(self, l => l.handle_connect(now))
    }
    fn plans_transmissions(&self) -> bool {
        each!(self, l => l.plans_transmissions())
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<AnyPdu<P>> {
        match self {
            AnyLayer::GoBackN(l) => l.poll_transmit(now, grant).map(AnyPdu::Frame),
            AnyLayer::SelectiveRepeat(l) => l.poll_transmit(now, grant).map(AnyPdu::Frame),
            AnyLayer::Hdlc(l) => l.poll_transmit(now, grant).map(AnyPdu::Frame),
            AnyLayer::Datagram(l) => l.poll_transmit(now, grant).map(AnyPdu::Frame),
            AnyLayer::NetWindow(l) => l.poll_transmit(now, grant).map(AnyPdu::Frame),
            AnyLayer::Llc2(l) => l.poll_transmit(now, grant).map(AnyPdu::Frame),
            AnyLayer::Tp4(l) => l.poll_transmit(now, grant).map(AnyPdu::Tpdu),
            AnyLayer::Tcp(l) => l.poll_transmit(now, grant).map(AnyPdu::Segment),
            AnyLayer::X25(l) => l.poll_transmit(now, grant).map(AnyPdu::Packet),
            AnyLayer::HfArq(l) => l.poll_transmit(now, grant).map(AnyPdu::Hf),
            AnyLayer::Ip(l) => l.poll_transmit(now, grant).map(AnyPdu::Ip),
        }
    }
    /// Each variant builds its PDU in a slot that holds its own header family (every
    /// slot of a lane after the lane's first PDU), through its own `poll_transmit_into`;
    /// a slot of another family (the lane's first) is overwritten through `poll_transmit`.
    /// X.25 is tested here, the rest in `transmit_into_other`: with every arm in one
    /// function the X.25 host's calls were no longer inlined (+17 instructions per
    /// event on `comer_korb/fig3.toml`).
    #[inline]
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut AnyPdu<P>) -> bool {
        if let (AnyLayer::X25(l), AnyPdu::Packet(p)) = (&mut *self, &mut *slot) {
            return l.poll_transmit_into(now, grant, p);
        }
        self.transmit_into_other(now, grant, slot)
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        each!(self, l => l.poll_timeout())
    }
    fn timeouts_wait_for_deadline(&self) -> bool {
        each!(self, l => l.timeouts_wait_for_deadline())
    }
    fn poll_event(&mut self) -> Option<Event<P>> {
        let up = |e: Event<Sdu>| match e {
            Event::Delivered(s) => Event::Delivered(P::from_user(s)),
            Event::Acknowledged(s) => Event::Acknowledged(P::from_user(s)),
        };
        match self {
            AnyLayer::Tp4(l) => l.poll_event().map(up),
            AnyLayer::Tcp(l) => l.poll_event().map(up),
            AnyLayer::GoBackN(l) => l.poll_event(),
            AnyLayer::SelectiveRepeat(l) => l.poll_event(),
            AnyLayer::Hdlc(l) => l.poll_event(),
            AnyLayer::Datagram(l) => l.poll_event(),
            AnyLayer::NetWindow(l) => l.poll_event(),
            AnyLayer::Llc2(l) => l.poll_event(),
            AnyLayer::X25(l) => l.poll_event(),
            AnyLayer::HfArq(l) => l.poll_event(),
            AnyLayer::Ip(l) => l.poll_event(),
        }
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
    fn saturation_depth(&self) -> usize {
        each!(self, l => l.saturation_depth())
    }
    fn unacknowledged(&self) -> usize {
        each!(self, l => l.unacknowledged())
    }
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        each!(self, l => l.extra_measures())
    }
    fn counters(&self) -> Counters {
        each!(self, l => l.counters())
    }
    fn receive_buffer_bits(&self) -> u64 {
        each!(self, l => l.receive_buffer_bits())
    }
    fn progress(&self) -> u64 {
        each!(self, l => l.progress())
    }
}

/// The monomorphised shapes' lower layers (TCP or TP4 over one link layer) carry
/// these; they are never a top layer's.
macro_rules! carried_below_only {
    ($($t:ty),*) => {$(
        impl Carry for $t {
            fn user(self) -> Sdu {
                unreachable!("carried below the top only")
            }
            fn from_user(_: Sdu) -> Self {
                unreachable!("carried below the top only")
            }
        }
    )*};
}
carried_below_only!(Frame<Sdu>, Tpdu);

impl Routable for Tpdu {
    fn flow(&self) -> Option<u32> {
        None
    }
}

#[cfg(test)]
#[path = "any_tests.rs"]
mod tests;
