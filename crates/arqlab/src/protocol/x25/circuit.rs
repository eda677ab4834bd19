//! One virtual circuit at one DTE, packet level (X.25 §4.4, modulo 8): both directions'
//! sequence state, the datagram being segmented into a complete packet sequence, and
//! the receiver's acknowledgement rule of the burst model (Comer & Korb §4): P(R) goes
//! back when W packets are unacknowledged (window full), piggybacked on a data packet
//! if one leaves first, or when the (long) acknowledgement timer expires.

use super::packet::{Packet, PacketKind};
use crate::engine::{Duration, SimTime};
use crate::protocol::{Modulus, Payload};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VcState {
    /// CALL REQUEST sent (or CALL ACCEPTED pending at the callee).
    Calling,
    Open,
    /// CLEAR REQUEST sent, waiting for the confirmation.
    Clearing,
}

/// The datagram being sent as a packet sequence.
#[derive(Clone, Copy, Debug)]
struct Outgoing<P> {
    number: u64,
    payload: P,
    octets: u32,
    sent_octets: u32,
    index: u32,
}

pub struct Circuit<P> {
    pub vc: u32,
    /// The DTE at the other end.
    pub peer: u32,
    pub me: u32,
    pub state: VcState,
    /// True at the end that placed the call.
    pub caller: bool,
    /// When the call was connected (both ends).
    pub opened_at: SimTime,
    /// Last time a datagram was given to or delivered from it (for LRU).
    pub last_used: SimTime,
    m: Modulus,
    w: u32,
    packet_octets: u32,
    /// V(S): P(S) of the next new data packet; `lwe`: the last P(R) received.
    vs: u32,
    lwe: u32,
    out: Option<Outgoing<P>>,
    /// V(R): P(S) expected next; packets accepted since P(R) last went back.
    vr: u32,
    unacked_rx: u32,
    ack_deadline: Option<SimTime>,
    rr_due: bool,
    /// Packets that overtook others in the network (random transit delays), by P(S).
    held: Vec<Option<Packet<P>>>,
    /// Index expected next in the incoming packet sequence (0 at a datagram's start).
    rx_index: u32,
    /// Control packets to send (CALL ACCEPTED, CLEAR REQUEST, …) and when they may go.
    pub control: Option<(PacketKind, SimTime)>,
    /// Counters.
    pub data_packets_sent: u64,
    pub rr_sent: u64,
    pub sequence_errors: u64,
}

impl<P: Payload> Circuit<P> {
    pub fn new(vc: u32, me: u32, peer: u32, caller: bool, window: u32, modulus: u32, packet_octets: u32, now: SimTime) -> Self {
        Circuit {
            vc,
            peer,
            me,
            state: VcState::Calling,
            caller,
            opened_at: now,
            last_used: now,
            m: Modulus(modulus),
            w: window,
            packet_octets,
            vs: 0,
            lwe: 0,
            out: None,
            vr: 0,
            unacked_rx: 0,
            ack_deadline: None,
            rr_due: false,
            held: vec![None; modulus as usize],
            rx_index: 0,
            control: None,
            data_packets_sent: 0,
            rr_sent: 0,
            sequence_errors: 0,
        }
    }

    /// True if it can take a new datagram now.
    pub fn free(&self) -> bool {
        self.state == VcState::Open && self.out.is_none()
    }

    /// A datagram is being segmented (part of it not yet sent).
    pub fn sending(&self) -> bool {
        self.out.is_some()
    }

    /// Data packets sent and not yet acknowledged.
    pub fn outstanding(&self) -> u32 {
        self.m.distance(self.lwe, self.vs)
    }

    /// Nothing in progress in either direction: safe to clear.
    pub fn idle(&self) -> bool {
        self.state == VcState::Open && self.out.is_none() && self.outstanding() == 0 && self.rx_index == 0
    }

    pub fn take(&mut self, now: SimTime, number: u64, payload: P, octets: u32) {
        debug_assert!(self.free());
        self.out = Some(Outgoing { number, payload, octets: octets.max(1), sent_octets: 0, index: 0 });
        self.last_used = now;
    }

    fn window_open(&self) -> bool {
        self.outstanding() < self.w
    }

    /// True if `next_packet` would return a packet at `now`.
    pub fn wants(&self, now: SimTime) -> bool {
        self.control.is_some_and(|(_, at)| at <= now) || (self.state == VcState::Open && ((self.out.is_some() && self.window_open()) || self.rr_due))
    }

    /// The next packet of this circuit, pulled when the link level can take it.
    pub fn next_packet(&mut self, now: SimTime) -> Option<Packet<P>> {
        if let Some((kind, at)) = self.control {
            if at <= now {
                self.control = None;
                let extra = if kind == PacketKind::CallRequest || kind == PacketKind::CallAccepted { 9 } else { 2 };
                let extra = if kind == PacketKind::ClearConfirmation { 0 } else { extra };
                return Some(Packet::control(kind, self.vc, 0, self.me, self.peer, extra));
            }
        }
        if self.state != VcState::Open {
            return None;
        }
        if self.out.is_some() && self.window_open() {
            let o = self.out.as_mut().expect("checked");
            let n = (o.octets - o.sent_octets).min(self.packet_octets);
            o.sent_octets += n;
            let more = o.sent_octets < o.octets;
            let index = o.index;
            o.index += 1;
            // Every packet names the datagram (traces show it); the last takes it.
            let dgram = if more { (o.number, o.payload.clone()) } else { self.out.take().map(|o| (o.number, o.payload)).expect("checked") };
            let p = Packet { kind: PacketKind::Data, vc: self.vc, ps: self.vs, pr: self.vr, m: more, src: self.me, dst: self.peer, data_octets: n, dgram: Some(dgram), index };
            self.vs = self.m.next(self.vs);
            self.data_packets_sent += 1;
            self.acked_rx();
            return Some(p);
        }
        if self.rr_due {
            self.acked_rx();
            self.rr_sent += 1;
            return Some(Packet::control(PacketKind::Rr, self.vc, self.vr, self.me, self.peer, 0).with_pr(self.vr));
        }
        None
    }

    fn acked_rx(&mut self) {
        self.unacked_rx = 0;
        self.rr_due = false;
        self.ack_deadline = None;
    }

    /// A P(R) from the peer: valid iff lwe ≤ P(R) ≤ V(S) (X.25 §4.4.1.2).
    fn on_pr(&mut self, pr: u32) {
        if self.m.distance(self.lwe, pr) <= self.outstanding() {
            self.lwe = pr;
        } else {
            self.sequence_errors += 1;
        }
    }

    /// A data or RR packet of this circuit arrived. Complete datagrams are pushed to
    /// `deliver` in circuit order.
    pub fn on_packet(&mut self, now: SimTime, p: Packet<P>, ack_timer: Duration, deliver: &mut impl FnMut(u64, P)) {
        self.on_pr(p.pr);
        if p.kind != PacketKind::Data {
            return;
        }
        if p.ps != self.vr {
            if self.m.distance(self.vr, p.ps) < self.w && self.held[p.ps as usize].is_none() {
                let ps = p.ps as usize;
                self.held[ps] = Some(p);
            } else {
                self.sequence_errors += 1;
            }
            return;
        }
        self.accept(now, p, ack_timer, deliver);
        while let Some(q) = self.held[self.vr as usize].take() {
            self.accept(now, q, ack_timer, deliver);
        }
    }

    fn accept(&mut self, now: SimTime, p: Packet<P>, ack_timer: Duration, deliver: &mut impl FnMut(u64, P)) {
        if p.index != self.rx_index {
            self.sequence_errors += 1;
        }
        self.vr = self.m.next(self.vr);
        self.unacked_rx += 1;
        if self.unacked_rx >= self.w {
            self.rr_due = true;
        } else if self.ack_deadline.is_none() {
            self.ack_deadline = Some(now + ack_timer);
        }
        if p.m {
            self.rx_index += 1;
        } else {
            self.rx_index = 0;
            self.last_used = now;
            if let Some((n, payload)) = p.dgram {
                deliver(n, payload);
            }
        }
    }

    /// Fires the acknowledgement timer if due; true if it fired.
    pub fn handle_timeout(&mut self, now: SimTime) -> bool {
        if self.ack_deadline.is_some_and(|d| d <= now) {
            self.ack_deadline = None;
            if self.unacked_rx > 0 {
                self.rr_due = true;
            }
            return true;
        }
        false
    }

    /// The ack deadline, and the time a control packet becomes due if that is after
    /// `now` (a due one leaves when the link level next pulls: no wake-up needed).
    pub fn poll_timeout(&self, now: SimTime) -> Option<SimTime> {
        match (self.ack_deadline, self.control.map(|c| c.1).filter(|&at| at > now)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl<P: Payload> Packet<P> {
    fn with_pr(mut self, pr: u32) -> Self {
        self.pr = pr;
        self
    }
}
