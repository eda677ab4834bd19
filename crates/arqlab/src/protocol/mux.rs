//! A multiplexing layer: one node talks to several peers (or runs several connections
//! to one peer) through one interface, each connection its own protocol state machine,
//! owned by handle like quinn-proto's `Endpoint` owns `Connection`s. X.25 virtual
//! circuits, LLC2 service access points and TCP connections are this shape.
//!
//! Every PDU is tagged with its connection id (shared by both ends) and the node it is
//! addressed to, so a relay can route it and the receiving mux can find the state
//! machine it belongs to. The medium is served round robin over the connections that
//! have something to send, one PDU per grant.

use super::{Counters, Event, Grant, Layer, Payload, Pdu, Sdu, Service};
use crate::engine::SimTime;
use crate::trace::TraceFrame;
use std::collections::VecDeque;

/// A PDU of connection `conn`, addressed to node `dst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tagged<P> {
    pub conn: u32,
    pub dst: u32,
    pub pdu: P,
}

impl<P: Payload> Payload for Tagged<P> {
    #[inline]
    fn bits(&self) -> u32 {
        self.pdu.bits()
    }
    fn sdu_id(&self) -> Option<u64> {
        self.pdu.sdu_id()
    }
    fn as_carried(&self) -> Option<TraceFrame> {
        self.pdu.as_carried()
    }
    fn as_datagram(&self) -> Option<(TraceFrame, crate::trace::Carried)> {
        self.pdu.as_datagram()
    }
}

impl<P: Pdu> Pdu for Tagged<P> {
    #[inline]
    fn bits(&self) -> u32 {
        self.pdu.bits()
    }
    fn mode(&self) -> u8 {
        self.pdu.mode()
    }
    #[inline(always)]
    fn airtime(&self) -> Option<crate::engine::Duration> {
        self.pdu.airtime()
    }
    #[inline]
    fn dst(&self) -> Option<u32> {
        Some(self.dst)
    }
    fn trace(&self) -> TraceFrame {
        self.pdu.trace()
    }
    /// The carried PDU, if any, and the connection and destination (captures name
    /// the connection's ends by them).
    fn carried(&self) -> Option<crate::trace::Carried> {
        let inner = self.pdu.carried().unwrap_or_default();
        Some(crate::trace::Carried { conn: Some((self.conn, self.dst)), ..inner })
    }
}

/// One connection: its id (the same at both ends), the peer node and its state machine.
pub struct Connection<L> {
    pub id: u32,
    pub peer: u32,
    pub layer: L,
}

pub struct Mux<L: Layer<Sdu = Sdu>> {
    conns: Vec<Connection<L>>,
    /// Flow index → connection handle (index into `conns`) for the flows this node
    /// sends or receives.
    /// (flow, handle), sorted by flow: only the flows this node carries.
    by_flow: Vec<(u32, usize)>,
    /// Next handle to offer the medium to (round robin).
    next: usize,
    events: VecDeque<Event<Sdu>>,
    /// Each connection's deadline as of its last call, and their minimum. The runner
    /// asks the node's deadline after every input; a connection's deadline is a
    /// function of its state, which only a call on that connection changes, so only
    /// that one is asked again (`touched`).
    deadlines: Vec<Option<SimTime>>,
    deadline: Option<SimTime>,
}

impl<L: Layer<Sdu = Sdu>> Mux<L> {
    /// `conns` in handle order; `by_flow` pairs each flow sent or received here with
    /// the handle of the connection that carries it.
    pub fn new(conns: Vec<Connection<L>>, mut by_flow: Vec<(u32, usize)>) -> Self {
        by_flow.sort_unstable();
        let deadlines: Vec<_> = conns.iter().map(|c| c.layer.poll_timeout()).collect();
        let deadline = deadlines.iter().flatten().min().copied();
        Mux { conns, by_flow, next: 0, events: VecDeque::new(), deadlines, deadline }
    }

    fn handle_of(&self, flow: u32) -> Option<usize> {
        self.by_flow.binary_search_by_key(&flow, |&(f, _)| f).ok().map(|i| self.by_flow[i].1)
    }

    pub fn connection(&self, handle: usize) -> &Connection<L> {
        &self.conns[handle]
    }

    pub fn connections(&self) -> usize {
        self.conns.len()
    }

    fn collect(&mut self, h: usize) {
        while let Some(e) = self.conns[h].layer.poll_event() {
            self.events.push_back(e);
        }
    }

    /// Connection `h` was called with `&mut`: its deadline is asked again and the
    /// minimum kept. Only when `h` held the minimum and moved later is the cache
    /// scanned (no layer is asked).
    fn touched(&mut self, h: usize) {
        let new = self.conns[h].layer.poll_timeout();
        let old = std::mem::replace(&mut self.deadlines[h], new);
        if new == old {
            return;
        }
        self.deadline = match (new, self.deadline) {
            (Some(n), Some(d)) if n <= d => new,
            (Some(_), None) => new,
            _ if old == self.deadline => self.deadlines.iter().flatten().min().copied(),
            _ => self.deadline,
        };
    }
}

impl<L: Layer<Sdu = Sdu>> Layer for Mux<L> {
    const HOLDS_RECEIVED: bool = L::HOLDS_RECEIVED;
    type Sdu = Sdu;
    type Pdu = Tagged<L::Pdu>;
    fn service(&self) -> Service {
        self.conns.first().map_or(Service::InOrder, |c| c.layer.service())
    }

    /// An SDU of a flow this node does not send is a wiring bug; it is dropped.
    fn handle_submit(&mut self, now: SimTime, sdu: Sdu) {
        if let Some(h) = self.handle_of(sdu.flow) {
            self.conns[h].layer.handle_submit(now, sdu);
            self.touched(h);
        }
    }

    /// A PDU of a connection this node does not have is discarded (as a real
    /// multiplexer discards a frame for an unknown circuit).
    fn handle_receive(&mut self, now: SimTime, pdu: &Self::Pdu) {
        if let Some(h) = self.conns.iter().position(|c| c.id == pdu.conn) {
            self.conns[h].layer.handle_receive(now, &pdu.pdu);
            self.collect(h);
            self.touched(h);
        }
    }

    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &Self::Pdu) {
        // The tag is as untrustworthy as the rest: every connection is told.
        for h in 0..self.conns.len() {
            self.conns[h].layer.handle_receive_in_error(now, &pdu.pdu);
            self.collect(h);
            self.touched(h);
        }
    }

    fn handle_timeout(&mut self, now: SimTime) {
        for h in 0..self.conns.len() {
            if self.deadlines[h].is_some_and(|d| d <= now) {
                self.conns[h].layer.handle_timeout(now);
                self.collect(h);
                self.touched(h);
            }
        }
    }

    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Self::Pdu> {
        let n = self.conns.len();
        for i in 0..n {
            let h = (self.next + i) % n;
            if !self.conns[h].layer.wants_transmit() {
                continue;
            }
            let pdu = self.conns[h].layer.poll_transmit(now, grant);
            // Choosing nothing may still have changed the state (a void request dropped).
            self.touched(h);
            if let Some(pdu) = pdu {
                self.next = (h + 1) % n;
                self.collect(h);
                let c = &self.conns[h];
                return Some(Tagged { conn: c.id, dst: c.peer, pdu });
            }
        }
        None
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        debug_assert_eq!(self.deadline, self.conns.iter().filter_map(|c| c.layer.poll_timeout()).min(), "a connection's deadline changed without `touched`");
        self.deadline
    }

    fn due_layer(&self, now: SimTime) -> Option<usize> {
        self.conns.iter().find_map(|c| c.layer.due_layer(now))
    }

    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.events.pop_front()
    }

    fn accepts(&self) -> bool {
        self.conns.iter().all(|c| c.layer.accepts())
    }

    fn wants_transmit(&self) -> bool {
        self.conns.iter().any(|c| c.layer.wants_transmit())
    }

    fn backlog(&self) -> usize {
        self.conns.iter().map(|c| c.layer.backlog()).sum()
    }

    fn unacknowledged(&self) -> usize {
        self.conns.iter().map(|c| c.layer.unacknowledged()).sum()
    }

    fn counters(&self) -> Counters {
        self.conns.iter().fold(Counters::default(), |acc, c| acc.plus(&c.layer.counters()))
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.conns.iter().map(|c| c.layer.receive_buffer_bits()).sum()
    }

    fn counters_of(&self, flow: u32) -> Counters {
        self.conn_of(flow).map_or_else(Counters::default, |c| c.layer.counters())
    }

    fn backlog_of(&self, flow: u32) -> usize {
        self.conn_of(flow).map_or(0, |c| c.layer.backlog())
    }

    fn unacknowledged_of(&self, flow: u32) -> usize {
        self.conn_of(flow).map_or(0, |c| c.layer.unacknowledged())
    }

    /// The flow's connection's own measures (TP4's TPDU counts): one `transport.<flow>`
    /// scope per connection, as in the two-node form.
    fn extra_measures_of(&self, flow: u32) -> Vec<(&'static str, f64)> {
        self.conn_of(flow).map_or_else(Vec::new, |c| c.layer.extra_measures())
    }

    fn progress(&self) -> u64 {
        self.conns.iter().fold(0, |acc, c| acc.wrapping_add(c.layer.progress()))
    }

    /// The flow's connection's.
    fn progress_of(&self, flow: u32) -> u64 {
        self.conn_of(flow).map_or(0, |c| c.layer.progress())
    }
}

impl<L: Layer<Sdu = Sdu>> Mux<L> {
    fn conn_of(&self, flow: u32) -> Option<&Connection<L>> {
        self.handle_of(flow).map(|h| &self.conns[h])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Duration;
    use crate::protocol::textbook::{GoBackN, TextbookConfig};

    #[test]
    fn holds_received_as_its_connections_do() {
        use crate::protocol::textbook::SelectiveRepeat;
        const {
            assert!(!Mux::<GoBackN<Sdu>>::HOLDS_RECEIVED);
            assert!(Mux::<SelectiveRepeat<Sdu>>::HOLDS_RECEIVED);
        }
    }

    fn gbn() -> GoBackN {
        GoBackN::new(&TextbookConfig { window: 2, modulus: 8, overhead_bits: 8, ack_bits: 8, timeout_s: 1.0, reject: true, nak_corrupted: false })
    }

    fn sdu(flow: u32, id: u64) -> Sdu {
        Sdu { id, bits: 100, flow, born: SimTime::ZERO }
    }

    /// The mux's deadline is the earliest of its connections' (`touched` keeps it):
    /// T1s started at different times; a later one stopped (nothing moves); the
    /// earliest stopped by its wake-up and the earliest moved later by an
    /// acknowledgement (both scan the cache); a wake-up before any deadline; an error.
    #[test]
    fn test_deadline_is_the_earliest_connections_after_every_call() {
        let g = Grant::line(1e4);
        let t = |ms: u64| SimTime(ms * 1_000_000_000);
        let t1_from = |at: SimTime| Some(at + g.transmission(108) + Duration::from_secs_f64(1.0));
        let conns = (0..3).map(|i| Connection { id: i, peer: i + 1, layer: gbn() }).collect();
        let mut hub = Mux::new(conns, vec![(0, 0), (1, 1), (2, 2)]);
        let peer = |id| Mux::new(vec![Connection { id, peer: 0, layer: gbn() }], vec![]);
        let (mut peer1, mut peer2) = (peer(1), peer(2));
        let check = |m: &Mux<GoBackN>, want: Option<SimTime>| {
            let own = (0..m.connections()).filter_map(|h| m.connection(h).layer.poll_timeout()).min();
            assert_eq!((m.poll_timeout(), own), (want, want));
        };
        check(&hub, None);
        hub.handle_submit(t(0), sdu(0, 0));
        check(&hub, None);
        // Connection 0 sends at 0 ms, 1 at 100 ms, 2 at 200 ms: each starts its T1.
        hub.poll_transmit(t(0), &g).unwrap();
        check(&hub, t1_from(t(0)));
        hub.handle_submit(t(100), sdu(1, 0));
        let f1 = hub.poll_transmit(t(100), &g).unwrap();
        hub.handle_submit(t(200), sdu(2, 0));
        hub.handle_submit(t(200), sdu(2, 1));
        let f2 = hub.poll_transmit(t(200), &g).unwrap();
        check(&hub, t1_from(t(0)));
        // Connection 1's acknowledgement stops its T1: not the earliest, nothing moves.
        peer1.handle_receive(t(150), &f1);
        hub.handle_receive(t(300), &peer1.poll_transmit(t(150), &g).unwrap());
        check(&hub, t1_from(t(0)));
        // Connection 0's T1 fires and stops (it goes back; T1 restarts when it sends):
        // the earliest is connection 2's.
        let due = t1_from(t(0)).unwrap();
        hub.handle_timeout(due);
        check(&hub, t1_from(t(200)));
        hub.handle_timeout(t(1100));
        check(&hub, t1_from(t(200)));
        // Connection 0 sends again, then connection 2 its second frame.
        let resent = SimTime(due.0 + 1);
        hub.poll_transmit(resent, &g).unwrap();
        hub.poll_transmit(resent, &g).unwrap();
        check(&hub, t1_from(t(200)));
        // Connection 2's first frame acknowledged at 1.5 s: its T1 restarts at 2.5 s,
        // later than connection 0's.
        peer2.handle_receive(t(250), &f2);
        hub.handle_receive(t(1500), &peer2.poll_transmit(t(250), &g).unwrap());
        assert_eq!(hub.connection(2).layer.poll_timeout(), Some(t(2500)));
        check(&hub, t1_from(resent));
        // An error on the line tells every connection; no timer moves.
        hub.handle_receive_in_error(t(1600), &f1);
        check(&hub, t1_from(resent));
    }

    #[test]
    fn test_connections_are_served_round_robin_and_routed_by_tag() {
        let g = Grant::line(1e4);
        // Node 0 has connections 7 (to node 1, flow 0) and 9 (to node 2, flow 1).
        let mut hub = Mux::new(
            vec![Connection { id: 7, peer: 1, layer: gbn() }, Connection { id: 9, peer: 2, layer: gbn() }],
            vec![(0, 0), (1, 1)],
        );
        let mut n1 = Mux::new(vec![Connection { id: 7, peer: 0, layer: gbn() }], vec![]);
        let mut n2 = Mux::new(vec![Connection { id: 9, peer: 0, layer: gbn() }], vec![]);
        for id in 0..3 {
            hub.handle_submit(SimTime::ZERO, sdu(0, id));
            hub.handle_submit(SimTime::ZERO, sdu(1, id));
        }
        assert_eq!(hub.backlog(), 6);
        let out: Vec<_> = std::iter::from_fn(|| hub.poll_transmit(SimTime::ZERO, &g)).collect();
        // Window 2 per connection, alternating.
        assert_eq!(out.iter().map(|t| (t.conn, t.dst, t.pdu.ns)).collect::<Vec<_>>(), vec![(7, 1, 0), (9, 2, 0), (7, 1, 1), (9, 2, 1)]);
        assert_eq!(out[0].dst(), Some(1));
        for t in &out {
            if t.dst == 1 { n1.handle_receive(SimTime(1), t) } else { n2.handle_receive(SimTime(1), t) }
        }
        let delivered = |m: &mut Mux<GoBackN>| std::iter::from_fn(|| m.poll_event()).filter(|e| matches!(e, Event::Delivered(_))).count();
        assert_eq!((delivered(&mut n1), delivered(&mut n2)), (2, 2));
        // An acknowledgement on connection 9 frees only that connection's window.
        let ack = n2.poll_transmit(SimTime(2), &g).unwrap();
        assert_eq!((ack.conn, ack.dst), (9, 0));
        hub.handle_receive(SimTime(3), &ack);
        let acked: Vec<_> = std::iter::from_fn(|| hub.poll_event()).collect();
        assert_eq!(acked, vec![Event::Acknowledged(sdu(1, 0)), Event::Acknowledged(sdu(1, 1))]);
        let next = hub.poll_transmit(SimTime(3), &g).unwrap();
        assert_eq!((next.conn, next.pdu.ns), (9, 2));
        assert!(hub.poll_transmit(SimTime(3), &g).is_none(), "connection 7 is still window-blocked");
        // A PDU for an unknown connection is discarded.
        n1.handle_receive(SimTime(4), &Tagged { conn: 99, ..out[0] });
        assert_eq!(delivered(&mut n1), 0);
        assert_eq!(hub.counters().i_frames_sent, 5);
        assert_eq!(hub.connections(), 2);
    }
}
