//! An IP router whose interfaces run link stacks (`[[relay]] kind = "ip_router"` with
//! `interfaces`, `scenario::interfaces`): each port terminates its link protocol (an
//! ARQ link to the station at the other end of its medium), and IP forwards the
//! datagrams the links deliver between them.
//!
//! A datagram delivered on port k is routed by its destination node, its TTL
//! decremented, cut to the output port's MTU (`channel::ip_router`, shared with the
//! layer-2 form) and, after the forwarding time, each fragment offered to the output
//! port's link layer if the port's buffer has room for it: the buffer holds what the
//! link has been given and not yet got rid of (acknowledged by a reliable link, sent by
//! a best-effort one), drop-tail in octets. The link layer sends when the runner grants
//! its lane, like a node's stack; its timers are the router's wake-ups.
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

/// A router's interfaces as the runner drives them, port by port.
pub trait Interfaces<F> {
    /// A frame fully received on `port` (corrupted: `in_error`).
    fn receive(&mut self, now: SimTime, port: usize, frame: &F, in_error: bool);
    /// The port's next frame, if its lane grants one now.
    fn poll_transmit(&mut self, now: SimTime, port: usize, grant: &Grant) -> Option<F>;
    fn wants_transmit(&self, port: usize) -> bool;
    /// The earliest deadline: a link timer or a datagram's end of forwarding.
    fn poll_timeout(&self) -> Option<SimTime>;
    fn handle_timeout(&mut self, now: SimTime);
    fn ip_counters(&self) -> IpRouterCounters;
    /// A port's counters and the bits its buffer holds.
    fn port(&self, port: usize) -> (PortCounters, u64);
}

/// The router: one link layer per port, carrying IP datagrams `D`.
pub struct LinkRouter<D: Carry + Pdu> {
    links: Vec<AnyLayer<D>>,
    /// A best-effort link gets rid of a datagram when it sends it (else when it is acknowledged).
    best_effort: Vec<bool>,
    ip: IpForwarding<D>,
    /// Destination node → output port.
    routes: Vec<Option<usize>>,
    forwarding: Duration,
    capacity_bits: Option<u64>,
    held_bits: Vec<u64>,
    ports: Vec<PortCounters>,
    /// Fragments inside the forwarding time, in the order they become ready (constant time).
    pending: VecDeque<(SimTime, usize, D)>,
}

impl<D: Carry + Pdu> LinkRouter<D> {
    /// `links[k]` is port k's link protocol; `stations[k]` its role towards the far end.
    pub fn new(links: &[ProtocolConfig], stations: &[Station], mtu_octets: Vec<Option<u32>>, routes: Vec<Option<usize>>, forwarding_s: f64, capacity_bits: Option<u64>) -> Self {
        let links: Vec<AnyLayer<D>> = links.iter().zip(stations).map(|(c, &s)| AnyLayer::new(c, &port_ctx(s))).collect();
        let n = links.len();
        LinkRouter {
            best_effort: links.iter().map(|l| l.service() != Service::InOrder).collect(),
            links,
            ip: IpForwarding::new(mtu_octets),
            routes,
            forwarding: Duration::from_secs_f64(forwarding_s),
            capacity_bits,
            held_bits: vec![0; n],
            ports: vec![PortCounters::default(); n],
            pending: VecDeque::new(),
        }
    }

    /// A datagram delivered on port `from`: routed, TTL decremented, fragmented, and
    /// each fragment queued for the end of the forwarding time.
    fn forward(&mut self, now: SimTime, from: usize, mut d: D) {
        let dst = d.ip_header().map(|h| h.dst as usize);
        let out = dst.and_then(|n| self.routes.get(n).copied().flatten()).filter(|&o| o != from);
        if let Some(out) = self.ip.forward(d, out) {
            let ready = now + self.forwarding;
            for f in self.ip.frames.drain(..) {
                self.pending.push_back((ready, out, f));
            }
        }
    }

    /// Fragments whose forwarding time is over go to their port's link, or are dropped
    /// if its buffer is full.
    fn release(&mut self, now: SimTime) {
        while self.pending.front().is_some_and(|p| p.0 <= now) {
            let Some((_, out, f)) = self.pending.pop_front() else { break };
            self.ports[out].frames_offered += 1;
            let bits = u64::from(Payload::bits(&f));
            if self.capacity_bits.is_some_and(|cap| self.held_bits[out] + bits > cap) {
                self.ports[out].frames_dropped += 1;
                continue;
            }
            self.held_bits[out] += bits;
            self.links[out].handle_submit(now, f);
        }
    }

    /// Each link's deliveries (forwarded) and acknowledgements (out of the buffer).
    fn drain(&mut self, now: SimTime) {
        for k in 0..self.links.len() {
            while let Some(e) = self.links[k].poll_event() {
                match e {
                    Event::Delivered(d) => self.forward(now, k, d),
                    Event::Acknowledged(d) => self.sent(k, &d),
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
}

impl<D: Carry + Pdu> Interfaces<AnyPdu<D>> for LinkRouter<D> {
    fn receive(&mut self, now: SimTime, port: usize, frame: &AnyPdu<D>, in_error: bool) {
        if in_error {
            self.links[port].handle_receive_in_error(now, frame);
        } else {
            self.links[port].handle_receive(now, frame);
        }
        self.drain(now);
    }

    fn poll_transmit(&mut self, now: SimTime, port: usize, grant: &Grant) -> Option<AnyPdu<D>> {
        let f = self.links[port].poll_transmit(now, grant)?;
        if self.best_effort[port] {
            self.sent_on_transmit(port, &f);
        }
        // (A reliable link may acknowledge on sending, e.g. a piggybacked N(R).)
        self.drain(now);
        Some(f)
    }

    fn wants_transmit(&self, port: usize) -> bool {
        self.links[port].wants_transmit()
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

/// The runner's record of a router with link stacks: its interfaces, its pending
/// timer wake-ups (as a node's: latest first) and, per port, the node its frames are
/// addressed to (the far station, or a node behind it).
pub(super) struct RouterSlot<F> {
    pub ifaces: Box<dyn Interfaces<F>>,
    pub wakes: Vec<SimTime>,
    pub far: Vec<u32>,
}

/// Builds a router's interfaces from its spec and each port's station role.
pub(super) type MakeRouter<'a, F> = &'a dyn Fn(&crate::scenario::topology::RelaySpec, &[Station]) -> Option<Box<dyn Interfaces<F>>>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::datagram::DatagramConfig;
    use crate::protocol::ip::{IpHeader, IpPacket, HEADER_OCTETS};
    use crate::protocol::textbook::TextbookConfig;
    use crate::protocol::x25::{Packet, X25Config};
    use crate::protocol::{FrameKind, Sdu};

    type D = AnyPdu<Sdu>;

    fn gbn() -> ProtocolConfig {
        ProtocolConfig::GoBackN(TextbookConfig { window: 7, modulus: 8, overhead_bits: 48, ack_bits: 48, timeout_s: 1.0, reject: false, nak_corrupted: false })
    }

    fn datagram(id: u32, ttl: u32, data_octets: u32) -> D {
        let hdr = IpHeader { src: 0, dst: 1, id, offset8: 0, mf: false, ttl, total_octets: HEADER_OCTETS + data_octets };
        AnyPdu::Ip(IpPacket { hdr, msg: Sdu { id: u64::from(id), bits: data_octets * 8, flow: 0, born: SimTime::ZERO }, framing_bits: 0 })
    }

    /// Host a (node 0) behind port 0, host b (node 1) behind port 1.
    fn router(links: [ProtocolConfig; 2], mtu: [Option<u32>; 2], capacity_bits: Option<u64>) -> LinkRouter<D> {
        LinkRouter::new(&links, &[Station::B, Station::A], mtu.to_vec(), vec![Some(0), Some(1)], 0.0, capacity_bits)
    }

    /// The I-frame host a's go-back-N link sends for each datagram, in order.
    fn frames_from_a(ds: &[D]) -> Vec<AnyPdu<D>> {
        let mut a: AnyLayer<D> = AnyLayer::new(&gbn(), &Ctx::link(0, 1, Station::A));
        ds.iter().map(|&d| {
            a.handle_submit(SimTime::ZERO, d);
            a.poll_transmit(SimTime::ZERO, &Grant::line(9600.0)).unwrap()
        }).collect()
    }

    fn carried(f: &AnyPdu<D>) -> Option<(FrameKind, Option<D>)> {
        match f {
            AnyPdu::Frame(x) => Some((x.kind, x.msg)),
            _ => None,
        }
    }

    #[test]
    fn a_datagram_received_in_an_i_frame_is_acknowledged_on_its_link_and_sent_in_a_new_i_frame_with_ttl_one_less() {
        let mut r = router([gbn(), gbn()], [None, None], None);
        let f = frames_from_a(&[datagram(7, 9, 100)]);
        r.receive(SimTime(1), 0, &f[0], false);
        let g = Grant::line(9600.0);
        let ack = r.poll_transmit(SimTime(2), 0, &g).and_then(|f| carried(&f)).unwrap();
        assert_eq!(ack.0, FrameKind::RR, "port 0 acknowledges the I-frame on its own link");
        let (kind, msg) = r.poll_transmit(SimTime(2), 1, &g).and_then(|f| carried(&f)).unwrap();
        assert_eq!(kind, FrameKind::I);
        let mut out = msg.unwrap();
        let h = *out.ip_header().unwrap();
        assert_eq!((h.id, h.ttl, h.total_octets), (7, 8, 120), "the same datagram, TTL one less (RFC 791 §3.2)");
        let (c, held) = r.port(1);
        assert_eq!((c.frames_offered, c.frames_forwarded, held), (1, 0, 120 * 8), "held by the link until b acknowledges it");
    }

    #[test]
    fn rfc791_a_datagram_whose_ttl_reaches_0_is_destroyed_but_its_frame_is_still_acknowledged() {
        let mut r = router([gbn(), gbn()], [None, None], None);
        let f = frames_from_a(&[datagram(1, 1, 100)]);
        r.receive(SimTime(1), 0, &f[0], false);
        let g = Grant::line(9600.0);
        assert!(r.poll_transmit(SimTime(2), 0, &g).is_some(), "the link acknowledges what it received");
        assert!(r.poll_transmit(SimTime(2), 1, &g).is_none() && !r.wants_transmit(1));
        let c = r.ip_counters();
        assert_eq!((c.datagrams_in, c.ttl_expired, c.datagrams_out), (1, 1, 0));
    }

    #[test]
    fn the_output_interface_fragments_to_its_mtu_and_its_drop_tail_buffer_counts_octets() {
        // 1000 data octets to MTU 296: 4 fragments of 292, 292, 292, 204 octets; a buffer
        // of 800 octets admits the first two, drops the third, admits the last.
        let mut r = router([gbn(), gbn()], [None, Some(296)], Some(800 * 8));
        let f = frames_from_a(&[datagram(3, 9, 1000)]);
        r.receive(SimTime(1), 0, &f[0], false);
        let (c, held) = r.port(1);
        assert_eq!((c.frames_offered, c.frames_dropped, held), (4, 1, (292 + 292 + 204) * 8));
        let ip = r.ip_counters();
        assert_eq!((ip.fragmented, ip.fragments_created), (1, 4));
    }

    #[test]
    fn a_reliable_link_releases_buffer_octets_on_acknowledgement_a_best_effort_one_on_sending() {
        let dg = ProtocolConfig::Datagram(DatagramConfig { overhead_bits: 16 });
        let mut r = router([gbn(), dg], [None, None], None);
        let f = frames_from_a(&[datagram(1, 9, 100)]);
        r.receive(SimTime(1), 0, &f[0], false);
        assert_eq!(r.port(1).1, 120 * 8);
        let sent = r.poll_transmit(SimTime(2), 1, &Grant::line(9600.0)).unwrap();
        assert_eq!(Pdu::bits(&sent), 120 * 8 + 16);
        let (c, held) = r.port(1);
        assert_eq!((c.frames_forwarded, held), (1, 0));
        // Port 0's RR is what a's link needs; a's unacknowledged frame leaves nothing held at r.
        assert_eq!(r.port(0).1, 0);
    }

    fn x25() -> ProtocolConfig {
        ProtocolConfig::X25(X25Config { ip_header_bits: 0, ..X25Config::default() })
    }

    /// a —go-back-N— g1 —X.25— g2 —go-back-N— b (b is node 1, routed out of port 1).
    fn gateways() -> (LinkRouter<D>, LinkRouter<D>) {
        let g1 = LinkRouter::new(&[gbn(), x25()], &[Station::B, Station::A], vec![None, None], vec![Some(0), Some(1)], 0.0, None);
        let g2 = LinkRouter::new(&[x25(), gbn()], &[Station::B, Station::A], vec![None, None], vec![Some(0), Some(1)], 0.0, None);
        (g1, g2)
    }

    /// Runs g1's port 1 against g2's port 0 for `secs` in 1 ms steps, each packet
    /// crossing the X.25 network at once; returns the packets g1 sent and the frames
    /// g2's port 1 sent towards b.
    fn cross(g1: &mut LinkRouter<D>, g2: &mut LinkRouter<D>, secs: f64) -> (Vec<Packet<D>>, Vec<AnyPdu<D>>) {
        let (mut sent, mut to_b) = (vec![], vec![]);
        let g = Grant::line(9600.0);
        for ms in 0..=(secs * 1000.0) as u64 {
            let now = SimTime::from_secs_f64(ms as f64 / 1000.0);
            for r in [&mut *g1, &mut *g2] {
                if r.poll_timeout().is_some_and(|t| t <= now) {
                    r.handle_timeout(now);
                }
            }
            while let Some(f) = g1.poll_transmit(now, 1, &g) {
                if let AnyPdu::Packet(p) = f {
                    sent.push(p);
                }
                g2.receive(now, 0, &f, false);
            }
            while let Some(f) = g2.poll_transmit(now, 0, &g) {
                g1.receive(now, 1, &f, false);
            }
            to_b.extend(std::iter::from_fn(|| g2.poll_transmit(now, 1, &g)));
        }
        (sent, to_b)
    }

    #[test]
    fn rfc877_a_circuit_to_the_next_hop_gateway_is_opened_by_a_call_request_before_the_first_datagram() {
        let (mut g1, mut g2) = gateways();
        let f = frames_from_a(&[datagram(1, 9, 100)]);
        g1.receive(SimTime::ZERO, 0, &f[0], false);
        let (sent, _) = cross(&mut g1, &mut g2, 2.0);
        let kinds: Vec<PacketKind> = sent.iter().map(|p| p.kind).collect();
        assert_eq!(kinds[..2], [PacketKind::CallRequest, PacketKind::Data], "{kinds:?}");
        assert_eq!((sent[0].src, sent[0].dst), (X25_DTE_A, X25_DTE_B), "g1 (station A) calls g2");
        assert!(sent[1..].iter().all(|p| p.vc == sent[0].vc), "the datagram goes on the circuit just opened");
    }

    #[test]
    fn rfc877_a_datagram_larger_than_the_packet_size_spans_several_packets_m_set_on_all_but_the_last() {
        let (mut g1, mut g2) = gateways();
        // 300 data octets + 20 of IP header = 320 octets: 128 + 128 + 64 (packet size 128).
        let f = frames_from_a(&[datagram(5, 9, 300)]);
        g1.receive(SimTime::ZERO, 0, &f[0], false);
        let (sent, _) = cross(&mut g1, &mut g2, 3.0);
        let data: Vec<(u32, bool, u32)> = sent.iter().filter(|p| p.kind == PacketKind::Data).map(|p| (p.data_octets, p.m, p.index)).collect();
        assert_eq!(data, vec![(128, true, 0), (128, true, 1), (64, false, 2)]);
        assert_eq!(g1.port(1), (PortCounters { frames_offered: 1, frames_forwarded: 1, ..PortCounters::default() }, 0), "the buffer empties when the last packet (M = 0) leaves");
    }

    #[test]
    fn rfc877_the_m_bit_sequence_reassembles_one_datagram_forwarded_whole_with_ttl_two_less() {
        let (mut g1, mut g2) = gateways();
        let f = frames_from_a(&[datagram(5, 9, 300), datagram(6, 9, 40)]);
        g1.receive(SimTime::ZERO, 0, &f[0], false);
        g1.receive(SimTime::ZERO, 0, &f[1], false);
        let (_, to_b) = cross(&mut g1, &mut g2, 4.0);
        let got: Vec<(u32, u32, u32)> = to_b.iter().filter_map(carried).filter_map(|(_, m)| m).map(|mut d| {
            let h = *d.ip_header().unwrap();
            (h.id, h.ttl, h.total_octets)
        }).collect();
        // (b never acknowledges: g2's go-back-N resends them every T1; the first two count.)
        assert_eq!(got[..2], [(6, 7, 60), (5, 7, 320)], "one I frame per datagram, each whole; the small one first (the interface serves its small-datagram queue first)");
        let ip = g2.ip_counters();
        assert_eq!((ip.datagrams_in, ip.datagrams_out, ip.fragmented), (2, 2, 0));
    }
}
