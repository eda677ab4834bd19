//! IP at a host: sends each upper PDU as a datagram to its destination (the flow's
//! destination node, or the host's one peer), cut to the host's interface MTU; receives
//! datagrams and fragments addressed to it and delivers each upper PDU once
//! reassembled. Best effort: a datagram lost below, dropped by a router or timed out in
//! reassembly is not recovered here (a transport above does that).

use super::fragment::{fragment, Reassembly, ReassemblyCounters};
use super::{IpConfig, IpPacket};
use crate::engine::{Duration, SimTime};
use crate::protocol::x25::Routable;
use crate::protocol::{Counters, Event, Grant, Layer, Service};
use std::collections::VecDeque;

pub struct IpHost<P: Routable> {
    me: u32,
    peer: u32,
    /// Flow index → destination node.
    routes: Vec<u32>,
    ttl: u32,
    framing_bits: u32,
    /// The MTU of this host's interface (octets); `None`: no limit.
    mtu_octets: Option<u32>,
    next_id: u32,
    /// Upper PDUs waiting, and the fragments of the one being sent.
    queue: VecDeque<P>,
    fragments: VecDeque<IpPacket<P>>,
    reassembly: Reassembly<P>,
    events: VecDeque<Event<P>>,
    counters: Counters,
    datagrams_sent: u64,
    delivered: u64,
}

impl<P: Routable> IpHost<P> {
    pub fn new(cfg: &IpConfig, me: u32, peer: u32, routes: Vec<u32>, mtu_octets: Option<u32>) -> Self {
        IpHost {
            me,
            peer,
            routes,
            ttl: cfg.ttl,
            framing_bits: cfg.framing_bits,
            mtu_octets,
            next_id: 0,
            queue: VecDeque::new(),
            fragments: VecDeque::new(),
            reassembly: Reassembly::new(Duration::from_secs_f64(cfg.reassembly_timeout_s)),
            events: VecDeque::new(),
            counters: Counters::default(),
            datagrams_sent: 0,
            delivered: 0,
        }
    }

    pub fn reassembly_counters(&self) -> ReassemblyCounters {
        self.reassembly.counters
    }
}

impl<P: Routable> Layer for IpHost<P> {
    type Sdu = P;
    type Pdu = IpPacket<P>;

    fn service(&self) -> Service {
        Service::BestEffort
    }

    fn handle_submit(&mut self, _now: SimTime, sdu: P) {
        self.queue.push_back(sdu);
    }

    fn handle_receive(&mut self, now: SimTime, pkt: &IpPacket<P>) {
        if pkt.hdr.dst != self.me {
            return;
        }
        if let Some(msg) = self.reassembly.receive(now, pkt) {
            self.delivered += 1;
            self.events.push_back(Event::Delivered(msg));
        }
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, _pkt: &IpPacket<P>) {
        // The header checksum (or the frame's FCS) fails: discarded.
        self.counters.frames_in_error_received += 1;
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.reassembly.expire(now);
    }

    fn poll_transmit(&mut self, _now: SimTime, _grant: &Grant) -> Option<IpPacket<P>> {
        if self.fragments.is_empty() {
            let msg = self.queue.pop_front()?;
            let dst = msg.flow().map_or(self.peer, |f| self.routes[f as usize]);
            let pkt = IpPacket::new(self.me, dst, self.next_id, self.ttl, msg, self.framing_bits);
            self.next_id = self.next_id.wrapping_add(1);
            self.datagrams_sent += 1;
            let queue = &mut self.fragments;
            fragment(&pkt, self.mtu_octets.unwrap_or(u32::MAX), |f| queue.push_back(f));
        }
        let f = self.fragments.pop_front()?;
        self.counters.frames_sent += 1;
        self.counters.i_frames_sent += 1;
        Some(f)
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.reassembly.next_deadline()
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        self.events.pop_front()
    }

    fn wants_transmit(&self) -> bool {
        !self.queue.is_empty() || !self.fragments.is_empty()
    }

    fn backlog(&self) -> usize {
        self.queue.len() + usize::from(!self.fragments.is_empty())
    }

    fn unacknowledged(&self) -> usize {
        self.backlog()
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    /// Datagrams sent and delivered, and reassembly at this host.
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        let r = &self.reassembly.counters;
        vec![
            ("ip_datagrams_sent", self.datagrams_sent as f64),
            ("ip_fragments_sent", self.counters.i_frames_sent as f64),
            ("ip_datagrams_delivered", self.delivered as f64),
            ("ip_reassembled", r.reassembled as f64),
            ("ip_reassembly_timeouts", r.timeouts as f64),
            ("ip_fragments_discarded", r.fragments_discarded as f64),
            ("ip_duplicate_fragments", r.duplicate_fragments as f64),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Sdu;

    fn cfg() -> IpConfig {
        IpConfig { ttl: 32, framing_bits: 16, reassembly_timeout_s: 15.0 }
    }

    fn sdu(id: u64, bits: u32, flow: u32) -> Sdu {
        Sdu { id, bits, flow, born: SimTime::ZERO }
    }

    #[test]
    fn rfc791_a_host_sends_each_message_as_one_datagram_cut_to_its_mtu() {
        let g = Grant::line(1e6);
        let mut a: IpHost<Sdu> = IpHost::new(&cfg(), 0, 1, vec![1, 2], Some(576));
        a.handle_submit(SimTime::ZERO, sdu(0, 1480 * 8, 0));
        a.handle_submit(SimTime::ZERO, sdu(1, 100 * 8, 1));
        let sent: Vec<IpPacket<Sdu>> = std::iter::from_fn(|| a.poll_transmit(SimTime::ZERO, &g)).collect();
        let hdr: Vec<(u32, u32, u32, bool, u32)> = sent.iter().map(|p| (p.hdr.dst, p.hdr.id, p.hdr.offset8, p.hdr.mf, p.hdr.ttl)).collect();
        assert_eq!(hdr, vec![(1, 0, 0, true, 32), (1, 0, 69, true, 32), (1, 0, 138, false, 32), (2, 1, 0, false, 32)]);
        assert_eq!(crate::protocol::Pdu::bits(&sent[3]), (20 + 100) * 8 + 16, "header, data and framing on the medium");
        assert!(!a.wants_transmit());
        let m = a.extra_measures();
        assert_eq!((m[0].1, m[1].1), (2.0, 4.0), "two datagrams, four fragments");
    }

    #[test]
    fn rfc791_the_destination_delivers_a_reassembled_message_once_and_ignores_others_traffic() {
        let g = Grant::line(1e6);
        let mut a: IpHost<Sdu> = IpHost::new(&cfg(), 0, 1, vec![1], Some(296));
        let mut b: IpHost<Sdu> = IpHost::new(&cfg(), 1, 0, vec![0], None);
        let mut c: IpHost<Sdu> = IpHost::new(&cfg(), 2, 0, vec![0], None);
        a.handle_submit(SimTime::ZERO, sdu(0, 1000 * 8, 0));
        let sent: Vec<_> = std::iter::from_fn(|| a.poll_transmit(SimTime::ZERO, &g)).collect();
        assert_eq!(sent.len(), 4, "⌈1000 / 272⌉");
        for p in sent.iter().rev() {
            b.handle_receive(SimTime(1), p);
            c.handle_receive(SimTime(1), p);
        }
        let got: Vec<u64> = std::iter::from_fn(|| b.poll_event()).map(|e| match e {
            Event::Delivered(s) => s.id,
            Event::Acknowledged(_) => unreachable!("best effort"),
        }).collect();
        assert_eq!(got, vec![0]);
        assert!(c.poll_event().is_none() && c.poll_timeout().is_none(), "not addressed to c");
    }

    #[test]
    fn rfc791_a_lost_fragment_times_the_datagram_out_and_it_is_counted() {
        let g = Grant::line(1e6);
        let mut a: IpHost<Sdu> = IpHost::new(&cfg(), 0, 1, vec![1], Some(296));
        let mut b: IpHost<Sdu> = IpHost::new(&cfg(), 1, 0, vec![0], None);
        a.handle_submit(SimTime::ZERO, sdu(0, 1000 * 8, 0));
        let sent: Vec<_> = std::iter::from_fn(|| a.poll_transmit(SimTime::ZERO, &g)).collect();
        b.handle_receive(SimTime::ZERO, &sent[0]);
        b.handle_receive_in_error(SimTime::ZERO, &sent[1]);
        b.handle_receive(SimTime::ZERO, &sent[2]);
        b.handle_receive(SimTime::ZERO, &sent[3]);
        let t = b.poll_timeout().unwrap();
        assert_eq!(t, SimTime::from_secs_f64(15.0));
        b.handle_timeout(t);
        assert!(b.poll_event().is_none() && b.poll_timeout().is_none());
        let r = b.reassembly_counters();
        assert_eq!((r.timeouts, r.fragments_discarded, b.counters().frames_in_error_received), (1, 3, 1));
    }
}
