//! One X.25 host as a layer: the IP-to-X.25 interface and its packet level over the
//! LAPB access line, its lower face the DCE's side of the network. SDUs are IP
//! payloads (application messages, or TCP segments when TCP sits on top); PDUs are
//! X.25 packets addressed to the remote DTE, carried by the network (a medium or a
//! transit relay with delay T_N).

use super::access::AccessLine;
use super::interface::Interface;
use super::packet::Packet;
use super::X25Config;
use crate::engine::SimTime;
use crate::protocol::{Counters, Event, Frame, Grant, Layer, Payload, Sdu, Service};
use std::collections::VecDeque;

/// What IP needs from a payload to route it: its flow, if it names one.
pub trait Routable: Payload {
    fn flow(&self) -> Option<u32>;
    /// The destination node an IP datagram names (an RFC 877 host calls its next hop).
    fn ip_dst(&self) -> Option<u32> {
        None
    }
}

impl Routable for Sdu {
    fn flow(&self) -> Option<u32> {
        Some(self.flow)
    }
}

/// TCP segments carry no flow: they go to the host's one peer.
impl Routable for Frame<Sdu> {
    fn flow(&self) -> Option<u32> {
        None
    }
}

pub struct X25Host<P: Routable> {
    pub iface: Interface<P>,
    pub line: AccessLine<P>,
    /// Flow index → destination node; `default_peer` for payloads without a flow.
    routes: Vec<u32>,
    default_peer: u32,
    /// Destination node → the DTE address an IP datagram for it is called to (RFC 877
    /// on an X.25 network; `u32::MAX` or empty: by `routes`).
    next_hop: Vec<u32>,
    events: VecDeque<Event<P>>,
    counters: Counters,
    /// The time of the last input (the packet level's "now" for `poll_timeout`).
    now: SimTime,
    /// When `service` last ran (None before the first: pre-opened calls wait for it).
    serviced_at: Option<SimTime>,
}

impl<P: Routable> X25Host<P> {
    /// Host `me`; `routes[f]` is flow f's destination node; `preopen` lists the sites
    /// to open `cfg.preopen_circuits` circuits to at time zero.
    pub fn new(me: u32, cfg: &X25Config, routes: Vec<u32>, default_peer: u32, preopen: &[u32]) -> Self {
        let mut iface = Interface::new(me, cfg);
        for &s in preopen {
            iface.preopen(SimTime::ZERO, s, cfg.preopen_circuits);
        }
        X25Host { iface, line: AccessLine::new(cfg), routes, default_peer, next_hop: vec![], events: VecDeque::new(), counters: Counters::default(), now: SimTime::ZERO, serviced_at: None }
    }

    /// IP datagrams go to `next_hop[dst]` (RFC 877 §3: circuits per destination address).
    pub fn with_next_hops(mut self, next_hop: Vec<u32>) -> Self {
        self.next_hop = next_hop;
        self
    }

    /// A datagram for the DTE at `site` (a gateway's next hop on an X.25 network of
    /// several: RFC 877 keeps circuits per destination address).
    pub fn submit_to(&mut self, now: SimTime, site: u32, sdu: P) {
        self.iface.submit(now, site, sdu);
        self.service(now);
    }

    /// Runs the host up to `now`: arrivals on the access line, packets up to the
    /// interface, then frames started on free directions until nothing more starts.
    /// Arrivals are taken once: a frame started now arrives after now (it has at least
    /// one bit), the timers it starts run past now, and starting reports nothing upward.
    fn service(&mut self, now: SimTime) {
        self.now = now;
        self.serviced_at = Some(now);
        let (iface, ev) = (&mut self.iface, &mut self.events);
        self.line.arrivals(now, &mut |p| iface.on_packet(now, p, &mut |x| ev.push_back(Event::Delivered(x))));
        let iface = &mut self.iface;
        self.line.start(now, &mut || iface.next_packet(now));
        debug_assert!(!self.line.due(now), "something on the access line is due at {now:?} after the starts");
    }

    /// The next packet the DCE hands to the network, if any.
    #[inline]
    fn next_out(&mut self, now: SimTime) -> Option<Packet<P>> {
        // Every input ran `service` at its time: at the same time nothing new can start.
        if self.serviced_at != Some(now) {
            self.service(now);
        }
        let p = self.line.pop_to_net()?;
        self.counters.frames_sent += 1;
        Some(p)
    }
}

impl<P: Routable> Layer for X25Host<P> {
    type Sdu = P;
    type Pdu = Packet<P>;

    /// Datagrams: none duplicated, but circuits in parallel reorder them and an
    /// overloaded interface discards them.
    fn service(&self) -> Service {
        Service::Unordered
    }

    fn handle_submit(&mut self, now: SimTime, sdu: P) {
        let hop = sdu.ip_dst().and_then(|d| self.next_hop.get(d as usize).copied()).filter(|&h| h != u32::MAX);
        let site = hop.or_else(|| sdu.flow().and_then(|f| self.routes.get(f as usize).copied())).unwrap_or(self.default_peer);
        self.submit_to(now, site, sdu);
    }

    fn handle_receive(&mut self, now: SimTime, pdu: &Packet<P>) {
        self.line.from_network(now, pdu.clone());
        self.service(now);
    }

    fn handle_receive_in_error(&mut self, now: SimTime, _pdu: &Packet<P>) {
        self.counters.frames_in_error_received += 1;
        self.service(now);
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.iface.handle_timeout(now);
        self.service(now);
    }

    fn poll_transmit(&mut self, now: SimTime, _grant: &Grant) -> Option<Packet<P>> {
        self.next_out(now)
    }

    /// The packet moves from the DCE's queue into the medium's slot.
    fn poll_transmit_into(&mut self, now: SimTime, _grant: &Grant, slot: &mut Packet<P>) -> bool {
        match self.next_out(now) {
            Some(p) => {
                *slot = p;
                true
            }
            None => false,
        }
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        match (self.line.poll_timeout(), self.iface.poll_timeout()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        self.events.pop_front()
    }

    fn wants_transmit(&self) -> bool {
        self.line.to_net_len() > 0
    }

    fn backlog(&self) -> usize {
        self.iface.queued()
    }

    fn unacknowledged(&self) -> usize {
        self.iface.queued()
    }

    /// The interface's counters: calls placed (the cost), closes, thrashing, discards,
    /// packets and their fill; and `x25_line_busy_s`, the time the busier direction of
    /// this host's access line was transmitting (frames, flags and LAPB's own frames).
    /// The runner sums a flow's two ends: in a one-way transfer each end's busier
    /// direction carries the file's frames, so the sum over twice the duration is the
    /// share of time the access lines were busy ("saturation": completely busy).
    ///
    /// With an interface queue (`interface_queue`, the upper layer pushing whole
    /// windows) also `x25_window_blocked_s`: the time datagrams waited at the interface
    /// with the line free and every circuit that could take them window-blocked,
    /// waiting for P(R) (`Interface::window_blocked`): the X.25 network's delay holding
    /// datagrams back, as against the upper layer offering none.
    ///
    /// With host processing (`host_processing_s` > 0) also `x25_interface_busy_s`: the
    /// time the sending side of this host's interface was busy, its outgoing frames or
    /// a packet in processing (their union), at an end whose sending side was busier
    /// than its incoming line; 0 at an end that mostly received. The sum over a one-way
    /// transfer's two ends is therefore its sender's interface (§5's "X.25 interface
    /// completely busy"), without the receiver's processing of its acknowledgements.
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        let mut m = self.iface.counters.pairs();
        let c = self.line.counters();
        m.push(("x25_line_busy_s", c.up_busy_ps.max(c.down_busy_ps) as f64 * 1e-12));
        if self.iface.reports_window_blocked() {
            m.push(("x25_window_blocked_s", self.iface.window_blocked.as_secs_f64()));
        }
        if self.line.processes() {
            let sending = if c.sending_busy_ps > c.down_busy_ps { c.sending_busy_ps } else { 0 };
            m.push(("x25_interface_busy_s", sending as f64 * 1e-12));
        }
        m
    }

    /// Packet-level counters: data packets as I frames, RR packets as S frames.
    fn counters(&self) -> Counters {
        let c = &self.iface.counters;
        Counters {
            frames_sent: c.data_packets_sent + c.rr_packets_sent,
            i_frames_sent: c.data_packets_sent,
            s_frames_sent: c.rr_packets_sent,
            out_of_sequence_discarded: c.sequence_errors,
            frames_in_error_received: self.counters.frames_in_error_received,
            ..Counters::default()
        }
    }
}
