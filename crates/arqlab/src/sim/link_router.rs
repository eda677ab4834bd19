//! An IP router whose interfaces run link stacks (`[[relay]] kind = "ip_router"` with
//! `interfaces`, `scenario::interfaces`): each port terminates its link protocol (an
//! ARQ link to each station at the other end of its medium: one on a line, one per
//! other station on a token ring), and IP forwards the datagrams the links deliver
//! between them.
//!
//! A datagram delivered on port k is routed by its destination node, its TTL
//! decremented, cut to the output port's MTU (`channel::ip_router`, shared with the
//! layer-2 form) and, after the forwarding time, each fragment offered to the link
//! connection to its next hop on the output port (the destination itself if it is on
//! that medium, else the router behind which it lies) if the port's buffer has room
//! for it: the buffer holds what the port's links have been given and not yet got rid
//! of (acknowledged by a reliable link, sent by a best-effort one), drop-tail in
//! octets. A port sends when the runner grants its lane, its connections in turn (one
//! frame per grant, as `protocol::mux`); a frame received is its sender's connection's.
//! The links' timers are the router's wake-ups.
//!
//! The runner sees a router through [`Interfaces`] (one dynamic call per input to a
//! router: routers with link stacks are not on the path of any other scenario).

use crate::channel::{IpForwarding, IpRouterCounters, PortCounters};
use crate::engine::{Duration, SimTime};
use crate::protocol::any::{AnyLayer, AnyPdu, Carry, Ctx};
use crate::protocol::registry::ProtocolConfig;
use crate::protocol::x25::PacketKind;
use crate::protocol::{Event, Grant, Layer, Payload, Pdu, Service, Station};
use std::collections::VecDeque;

/// A router's interfaces as the runner drives them, port by port. Stations are named
/// by address: a node's index, or the node count plus a relay's index.
pub trait Interfaces<F> {
    /// A frame fully received on `port` from the station at address `from` (corrupted:
    /// `in_error`).
    fn receive(&mut self, now: SimTime, port: usize, from: u32, frame: &F, in_error: bool);
    /// The port's next frame and the address it goes to, if its lane grants one now.
    fn poll_transmit(&mut self, now: SimTime, port: usize, grant: &Grant) -> Option<(F, u32)>;
    fn wants_transmit(&self, port: usize) -> bool;
    /// The earliest deadline: a link timer or a datagram's end of forwarding.
    fn poll_timeout(&self) -> Option<SimTime>;
    fn handle_timeout(&mut self, now: SimTime);
    fn ip_counters(&self) -> IpRouterCounters;
    /// A port's counters and the bits its buffer holds.
    fn port(&self, port: usize) -> (PortCounters, u64);
    /// The link layers' own counters, summed over the router's connections (an X.25
    /// interface's calls placed, circuits closed, ...).
    fn link_measures(&self) -> Vec<(&'static str, f64)>;
}

/// The stations a port's link stack talks to: each one's address and the role the
/// port takes towards it; on a medium with several (a token ring), `next_hop[d]` is
/// the index in `far` of the station a datagram for node `d` goes to (empty: the one).
#[derive(Clone, Debug, Default)]
pub struct PortPeers {
    pub far: Vec<(u32, Station)>,
    pub next_hop: Vec<u32>,
    /// An `x25` port on an X.25 network joining several gateways (RFC 877): the
    /// gateway's own address on it and, per destination node, the address of the
    /// gateway (or host) its datagrams are called to — the next hop across the network.
    pub x25: Option<X25Sites>,
}

/// A gateway's addresses on an X.25 network of several DTEs (addressed as the ring's
/// stations are: a node's index, or the node count plus a relay's index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct X25Sites {
    pub me: u32,
    /// Destination node → the next hop's address (`u32::MAX`: not across this network).
    pub next_hop: Vec<u32>,
}

/// The router: one link connection per station a port faces (one on a line, one per
/// other station on a ring), carrying IP datagrams `D`.
pub struct LinkRouter<D: Carry + Pdu> {
    /// Every connection, port by port: port k's are `first[k]..first[k + 1]`.
    links: Vec<AnyLayer<D>>,
    /// Each connection's port and the address of its far station.
    port_of: Vec<usize>,
    far: Vec<u32>,
    first: Vec<usize>,
    next_hop: Vec<Vec<u32>>,
    /// Per port: its X.25 network's addresses, if it is an `x25` port on one.
    x25: Vec<Option<X25Sites>>,
    /// Per port: the connection to offer the lane to next (round robin, one frame per grant).
    turn: Vec<usize>,
    /// A best-effort link gets rid of a datagram when it sends it (else when it is acknowledged).
    best_effort: Vec<bool>,
    ip: IpForwarding<D>,
    /// Destination node → output port.
    routes: Vec<Option<usize>>,
    forwarding: Duration,
    capacity_bits: Option<u64>,
    held_bits: Vec<u64>,
    ports: Vec<PortCounters>,
    /// Fragments inside the forwarding time with their output connection, in the order
    /// they become ready (constant time).
    pending: VecDeque<(SimTime, usize, D)>,
}

impl<D: Carry + Pdu> LinkRouter<D> {
    /// `links[k]` is port k's link protocol; `peers[k]` the stations it faces.
    pub fn new(links: &[ProtocolConfig], peers: &[PortPeers], mtu_octets: Vec<Option<u32>>, routes: Vec<Option<usize>>, forwarding_s: f64, capacity_bits: Option<u64>) -> Self {
        let n = links.len();
        let (mut conns, mut port_of, mut far, mut first) = (vec![], vec![], vec![], vec![]);
        for (k, (c, p)) in links.iter().zip(peers).enumerate() {
            first.push(conns.len());
            for &(addr, s) in &p.far {
                let ctx = match &p.x25 {
                    Some(x) => Ctx::link(x.me, addr, s),
                    None => port_ctx(s),
                };
                conns.push(AnyLayer::new(c, &ctx));
                port_of.push(k);
                far.push(addr);
            }
        }
        first.push(conns.len());
        LinkRouter {
            best_effort: (0..n).map(|k| conns.get(first[k]).is_some_and(|l: &AnyLayer<D>| l.service() != Service::InOrder)).collect(),
            links: conns,
            port_of,
            far,
            first,
            next_hop: peers.iter().map(|p| p.next_hop.clone()).collect(),
            x25: peers.iter().map(|p| p.x25.clone()).collect(),
            turn: vec![0; n],
            ip: IpForwarding::new(mtu_octets),
            routes,
            forwarding: Duration::from_secs_f64(forwarding_s),
            capacity_bits,
            held_bits: vec![0; n],
            ports: vec![PortCounters::default(); n],
            pending: VecDeque::new(),
        }
    }

    /// The connection of port `out` that carries a datagram for node `dst`.
    fn connection(&self, out: usize, dst: Option<usize>) -> usize {
        let hop = dst.and_then(|d| self.next_hop[out].get(d).copied()).filter(|&h| h != u32::MAX);
        self.first[out] + hop.unwrap_or(0) as usize
    }

    /// A datagram delivered on port `from`: routed, TTL decremented, fragmented, and
    /// each fragment queued for the end of the forwarding time.
    fn forward(&mut self, now: SimTime, from: usize, mut d: D) {
        let dst = d.ip_header().map(|h| h.dst as usize);
        let out = dst.and_then(|n| self.routes.get(n).copied().flatten()).filter(|&o| o != from);
        if let Some(out) = self.ip.forward(d, out) {
            let ready = now + self.forwarding;
            let conn = self.connection(out, dst);
            for f in self.ip.frames.drain(..) {
                self.pending.push_back((ready, conn, f));
            }
        }
    }

    /// Fragments whose forwarding time is over go to their connection's link, or are
    /// dropped if its port's buffer is full.
    fn release(&mut self, now: SimTime) {
        while self.pending.front().is_some_and(|p| p.0 <= now) {
            let Some((_, conn, mut f)) = self.pending.pop_front() else { break };
            let out = self.port_of[conn];
            self.ports[out].frames_offered += 1;
            let bits = u64::from(Payload::bits(&f));
            if self.capacity_bits.is_some_and(|cap| self.held_bits[out] + bits > cap) {
                self.ports[out].frames_dropped += 1;
                continue;
            }
            self.held_bits[out] += bits;
            // RFC 877: on a network of several gateways the circuit goes to the next
            // hop's address, the interface's circuits and manager are per address.
            let dst = f.ip_header().map(|h| h.dst as usize);
            let site = self.x25[out].as_ref().zip(dst).and_then(|(x, d)| x.next_hop.get(d).copied());
            match (&mut self.links[conn], site) {
                (AnyLayer::X25(h), Some(site)) if site != u32::MAX => h.submit_to(now, site, f),
                (l, _) => l.handle_submit(now, f),
            }
        }
    }

    /// Each link's deliveries (forwarded) and acknowledgements (out of the buffer).
    fn drain(&mut self, now: SimTime) {
        for c in 0..self.links.len() {
            while let Some(e) = self.links[c].poll_event() {
                match e {
                    Event::Delivered(d) => self.forward(now, self.port_of[c], d),
                    Event::Acknowledged(d) => self.sent(self.port_of[c], &d),
                }
            }
        }
        self.release(now);
    }

    /// What a best-effort port's frame takes out of its buffer: the datagram of an
    /// I frame, or of the last packet of an X.25 data packet sequence (RFC 877: M = 0).
    fn sent_on_transmit(&mut self, port: usize, f: &AnyPdu<D>) {
        let d = match f {
            AnyPdu::Frame(x) => x.msg.clone(),
            AnyPdu::Packet(p) if p.kind == PacketKind::Data && !p.m => p.dgram.as_ref().map(|g| g.1.clone()),
            _ => None,
        };
        if let Some(d) = d {
            self.sent(port, &d);
        }
    }

    fn sent(&mut self, k: usize, d: &D) {
        self.held_bits[k] -= u64::from(Payload::bits(d)).min(self.held_bits[k]);
        self.ports[k].frames_forwarded += 1;
    }

    /// Port `port`'s next frame: its one connection's, or the next connection's in turn
    /// that has one.
    fn next_frame(&mut self, now: SimTime, port: usize, grant: &Grant) -> Option<(AnyPdu<D>, usize)> {
        let (lo, n) = (self.first[port], self.first[port + 1] - self.first[port]);
        if n == 1 {
            return self.links[lo].poll_transmit(now, grant).map(|f| (f, lo));
        }
        for i in 0..n {
            let c = lo + (self.turn[port] + i) % n;
            if !self.links[c].wants_transmit() {
                continue;
            }
            if let Some(f) = self.links[c].poll_transmit(now, grant) {
                self.turn[port] = (c - lo + 1) % n;
                return Some((f, c));
            }
        }
        None
    }
}

impl<D: Carry + Pdu> Interfaces<AnyPdu<D>> for LinkRouter<D> {
    fn receive(&mut self, now: SimTime, port: usize, from: u32, frame: &AnyPdu<D>, in_error: bool) {
        let conns = self.first[port]..self.first[port + 1];
        for c in conns.clone() {
            if in_error {
                // The sender's address is as untrustworthy as the rest: every connection is told.
                self.links[c].handle_receive_in_error(now, frame);
            } else if conns.len() == 1 || self.far[c] == from {
                self.links[c].handle_receive(now, frame);
            }
        }
        self.drain(now);
    }

    fn poll_transmit(&mut self, now: SimTime, port: usize, grant: &Grant) -> Option<(AnyPdu<D>, u32)> {
        let (f, c) = self.next_frame(now, port, grant)?;
        if self.best_effort[port] {
            self.sent_on_transmit(port, &f);
        }
        // (A reliable link may acknowledge on sending, e.g. a piggybacked N(R).)
        self.drain(now);
        // On an X.25 network of several DTEs the network routes each packet by its address.
        let to = match (&f, &self.x25[port]) {
            (AnyPdu::Packet(p), Some(_)) => p.dst,
            _ => self.far[c],
        };
        Some((f, to))
    }

    fn wants_transmit(&self, port: usize) -> bool {
        self.links[self.first[port]..self.first[port + 1]].iter().any(|l| l.wants_transmit())
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        let links = self.links.iter().filter_map(|l| l.poll_timeout()).min();
        match (links, self.pending.front().map(|p| p.0)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn handle_timeout(&mut self, now: SimTime) {
        for l in self.links.iter_mut() {
            if l.poll_timeout().is_some_and(|t| t <= now) {
                l.handle_timeout(now);
            }
        }
        self.drain(now);
    }

    fn ip_counters(&self) -> IpRouterCounters {
        self.ip.counters
    }

    fn port(&self, port: usize) -> (PortCounters, u64) {
        (self.ports[port], self.held_bits[port])
    }

    /// An X.25 interface's counters (`x25_calls_placed`, `x25_circuits_closed`, ...,
    /// summed over the router's X.25 ports) and `x25_circuits_open`, the virtual
    /// circuits open at the end of the window; nothing for other link protocols.
    fn link_measures(&self) -> Vec<(&'static str, f64)> {
        let mut sum: Vec<(&'static str, f64)> = vec![];
        for l in &self.links {
            let AnyLayer::X25(h) = l else { continue };
            let open = h.iface.circuits.iter().filter(|c| c.is_some()).count() as f64;
            for (k, v) in l.extra_measures().into_iter().chain([("x25_circuits_open", open)]) {
                match sum.iter_mut().find(|x| x.0 == k) {
                    Some(x) => x.1 += v,
                    None => sum.push((k, v)),
                }
            }
        }
        sum
    }
}

/// X.25 addresses of the two DTEs of a router-to-router X.25 port (RFC 877), local to
/// the port: the station role tells them apart, so the two gateways' circuits
/// (numbered from the caller's address) never collide. Other link protocols ignore them.
pub const X25_DTE_A: u32 = 0;
pub const X25_DTE_B: u32 = 1;

fn port_ctx(s: Station) -> Ctx<'static> {
    match s {
        Station::A => Ctx::link(X25_DTE_A, X25_DTE_B, s),
        Station::B => Ctx::link(X25_DTE_B, X25_DTE_A, s),
    }
}

/// The runner's record of a router with link stacks: its interfaces and its pending
/// timer wake-ups (as a node's: latest first).
pub(super) struct RouterSlot<F> {
    pub ifaces: Box<dyn Interfaces<F>>,
    pub wakes: Vec<SimTime>,
}

/// Builds a router's interfaces from its spec and the stations each port faces.
pub(super) type MakeRouter<'a, F> = &'a dyn Fn(&crate::scenario::topology::RelaySpec, &[PortPeers]) -> Option<Box<dyn Interfaces<F>>>;

#[cfg(test)]
#[path = "link_router_tests.rs"]
mod tests;
