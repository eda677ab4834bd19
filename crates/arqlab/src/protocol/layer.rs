//! The layer interface: one protocol layer of a node's stack, sans-IO on both faces.
//!
//! ```text
//!            handle_submit(Sdu)   ▲ poll_event: Delivered(Sdu) / Acknowledged(Sdu)
//!                  │              │
//!            ┌─────▼──────────────┴─────┐  handle_timeout(now)   (idempotent)
//!            │          Layer           │  poll_timeout() -> next deadline
//!            └─────┬──────────────▲─────┘  accepts(), wants_transmit()
//!                  │              │
//!   poll_transmit(now, &Grant)    handle_receive(Pdu) / handle_receive_in_error(Pdu)
//!                  ▼              │
//!          the layer below, or a medium
//! ```
//!
//! A layer never sees the event queue or a clock: inputs come with the current time,
//! outputs are pulled. Pulling is what ARQ needs — N(R), the P/F bit or a TCP
//! acknowledgement number is decided when a PDU *starts* transmission, and a go-back-N
//! of W frames leaves one frame at a time. The medium says how it grants the
//! transmission ([`Grant`]): a layer never computes the end of its own transmission from
//! a fixed line rate, which would be wrong behind a token wait or a radio preamble.
//!
//! SDUs are small `Copy` values that carry when they were born and which flow they
//! belong to, so any layer (and the runner) can time end-to-end delay; PDUs are passed
//! by reference on receipt. A payload is only `Clone`: a stack of any depth carries the
//! PDU of the layer above behind a reference count (`protocol::deep::Nested`); every
//! other payload is `Copy`, so its clone is the same copy as before.

use crate::engine::{Duration, SimTime};
use crate::trace::{Carried, TraceFrame};

/// A service data unit offered by a traffic source (a message, a datagram, a TSDU).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sdu {
    /// Per-flow sequential id, from 0: delivery order is checked against it.
    pub id: u64,
    /// Information bits.
    pub bits: u32,
    /// The flow it belongs to (an index into the run's flows).
    pub flow: u32,
    /// When it was offered to the top of the sender's stack.
    pub born: SimTime,
}

/// What a layer can carry as the information field of its PDUs: an [`Sdu`], or the PDU
/// of the layer above (a frame inside a frame).
pub trait Payload: Clone + std::fmt::Debug {
    /// Length in bits.
    fn bits(&self) -> u32;
    /// The id of the SDU inside, for traces.
    fn sdu_id(&self) -> Option<u64> {
        None
    }
    /// How a trace shows this payload when a lower layer's frame carries it, if it
    /// should be shown instead of that frame (a transport PDU inside a network packet);
    /// `None` shows the carrying frame.
    fn trace_inner(&self) -> Option<TraceFrame> {
        None
    }
    /// What identifies a copy of this payload for a link layer's duplicate filter (the
    /// HF ARQ's "drop a TCP segment already queued or in transmission"): two payloads
    /// with the same key are the same segment. `None` (the default): never filtered.
    fn filter_key(&self) -> Option<u64> {
        None
    }
    /// This payload's header fields when it is a PDU of a layer above (a TCP segment in
    /// a link frame), for captures that write it as real bytes; `None` for user SDUs.
    fn as_carried(&self) -> Option<TraceFrame> {
        None
    }
    /// This payload's trace fields and description when it is an IP datagram of a layer
    /// above (IP in IP; a datagram in an X.25 packet), so the carrier's capture record
    /// holds the whole header chain ([`Carried::carrying`]); `None` otherwise.
    fn as_datagram(&self) -> Option<(TraceFrame, Carried)> {
        None
    }
    /// A copy for a PDU in flight (see [`Pdu::copy_into`]).
    #[inline(always)]
    fn in_flight_copy(&self) -> Self {
        self.clone()
    }
}

impl Payload for Sdu {
    #[inline(always)]
    fn in_flight_copy(&self) -> Self {
        let Sdu { id, bits, flow, born } = *self;
        Sdu { id, bits, flow, born }
    }
    #[inline]
    fn bits(&self) -> u32 {
        self.bits
    }
    fn sdu_id(&self) -> Option<u64> {
        Some(self.id)
    }
}

/// What a medium (and a relay) needs to know about the PDU of a node's lowest layer.
pub trait Pdu: Clone {
    /// Length on the medium in bits.
    fn bits(&self) -> u32;
    /// The transmission mode (e.g. an adaptive modem's data rate index) for error models
    /// that depend on it; 0 when the medium has one mode.
    fn mode(&self) -> u8 {
        0
    }
    /// Its own time on the medium, when that is not bits / the lane's rate: a modem
    /// that picks its data rate per transmission, a preamble or interleaver padding the
    /// sending layer accounts for. `None` (the default): bits / rate.
    #[inline(always)]
    fn airtime(&self) -> Option<Duration> {
        None
    }
    /// The node it is addressed to, when the sending layer talks to more than one peer
    /// (a multiplexing layer); `None` sends it to the node's one peer.
    #[inline]
    fn dst(&self) -> Option<u32> {
        None
    }
    /// The header fields a trace shows.
    fn trace(&self) -> TraceFrame;
    /// The PDU of the layer above inside this one, if any ([`Payload::as_carried`]).
    fn carried(&self) -> Option<Carried> {
        None
    }
    /// Copies this PDU into `slot`, the medium's copy while it is in flight. A PDU type
    /// whose fields are written one by one (a bool, a u32) copies itself field by field:
    /// a copy of the whole struct reads wider words than were written and stalls on
    /// store forwarding.
    #[inline(always)]
    fn copy_into(&self, slot: &mut Self) {
        slot.clone_from(self);
    }
    /// The IP header a router acts on (TTL), if this PDU is an IP datagram.
    #[inline]
    fn ip_header(&mut self) -> Option<&mut super::ip_header::IpHeader> {
        None
    }
    /// This PDU cut to an interface's MTU (octets), appended to `out`: IP fragments
    /// (RFC 791); any other PDU is appended whole.
    fn ip_fragments(&self, _mtu_octets: u32, out: &mut Vec<Self>) {
        out.push(self.clone());
    }
}

/// A medium's permission to transmit now: at what rate, after what lead time (a radio's
/// preamble), and how much may be sent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grant {
    pub rate_bps: f64,
    /// Time on the medium before the first bit of the PDU (preamble, synchronisation).
    pub lead: Duration,
    /// Largest PDU the medium takes, in bits.
    pub mtu_bits: u32,
}

impl Grant {
    /// A plain line: no lead time, no size limit.
    pub const fn line(rate_bps: f64) -> Grant {
        Grant { rate_bps, lead: Duration::ZERO, mtu_bits: u32::MAX }
    }

    /// Time from the grant until the last bit of a `bits`-bit PDU has left.
    #[inline]
    pub fn transmission(&self, bits: u32) -> Duration {
        self.lead + Duration::transmission(bits as u64, self.rate_bps)
    }
}

/// Something a layer reports to the layer (or user) above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<S> {
    /// An SDU from the peer delivered upward (error free; in order for ARQ layers).
    Delivered(S),
    /// The peer positively acknowledged one of our SDUs: its buffer is freed.
    Acknowledged(S),
}

/// What a flow's receiver may expect from the stack that carries it; it chooses the
/// invariant checks the runner makes on every delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    /// Every SDU delivered exactly once, in order (ARQ). A gap, a duplicate or a
    /// reordering is a model bug.
    InOrder,
    /// SDUs may be lost (a relay dropped them, a frame was corrupted), never duplicated
    /// or reordered.
    BestEffort,
    /// SDUs may be lost or reordered (datagrams over parallel circuits), never
    /// duplicated.
    Unordered,
}

/// One protocol layer. `Sdu` is what it takes from above and delivers upward; `Pdu` is
/// what it hands to the layer below (or the medium) and receives from it.
pub trait Layer {
    type Sdu: Payload;
    type Pdu: Pdu + Payload;

    /// The service this layer gives the layer above.
    fn service(&self) -> Service;

    /// An SDU from above. Layers queue without limit unless they refuse via `accepts`.
    fn handle_submit(&mut self, now: SimTime, sdu: Self::Sdu);
    /// A PDU received with a correct FCS.
    fn handle_receive(&mut self, now: SimTime, pdu: &Self::Pdu);
    /// A PDU received with a failed FCS: its contents must not be trusted.
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &Self::Pdu);
    /// The clock reached (or passed) a deadline. Must be idempotent.
    fn handle_timeout(&mut self, now: SimTime);
    /// True if `handle_timeout(now)` cannot turn a false `wants_transmit` true while
    /// no deadline of this layer is at or before `now` (`poll_timeout` after `now`, or
    /// none): each of its timers acts only once due. A stack then keeps the layer's
    /// "nothing to send" across the wake-ups of the layers below it
    /// ([`super::Stacked`]). The default (false) is always correct.
    fn timeouts_wait_for_deadline(&self) -> bool {
        false
    }
    /// The application closes its end of the connection: nothing more will be
    /// submitted on it (a transport sends its FIN after the data). Layers without
    /// connections ignore it.
    fn handle_close(&mut self, _now: SimTime) {}
    /// The application opens a new connection (an active open) for what it submits
    /// next, the previous one being closed. Layers without connections ignore it.
    fn handle_connect(&mut self, _now: SimTime) {}
    /// The medium grants a transmission now: the PDU to start, if any.
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Self::Pdu>;
    /// `poll_transmit`, with the PDU written into `slot` (the medium's copy of it, which
    /// holds an old PDU: every field is overwritten) instead of returned; true if there
    /// is one. A layer that builds its PDU in place saves the copies a returned value
    /// goes through on its way into the medium; the default calls `poll_transmit`.
    #[inline]
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut Self::Pdu) -> bool {
        match self.poll_transmit(now, grant) {
            Some(pdu) => {
                pdu.copy_into(slot);
                true
            }
            None => false,
        }
    }
    /// The earliest pending deadline.
    fn poll_timeout(&self) -> Option<SimTime>;
    /// The layer (0 = this one, or the top of a stack) whose deadline is at or before
    /// `now`, if any: names the culprit of a livelock (`sim::livelock`), never called on
    /// the hot path.
    fn due_layer(&self, now: SimTime) -> Option<usize> {
        self.poll_timeout().is_some_and(|t| t <= now).then_some(0)
    }
    /// The next event for the layer above, if any.
    fn poll_event(&mut self) -> Option<Event<Self::Sdu>>;
    /// Back-pressure: false while the layer takes no more SDUs.
    fn accepts(&self) -> bool {
        true
    }
    /// True if `poll_transmit` could return a PDU now were the medium free. A hint that
    /// lets the runner skip waking an idle node; the default (always true) is correct,
    /// just slower.
    fn wants_transmit(&self) -> bool {
        true
    }
    /// SDUs submitted but never yet transmitted (for saturated sources).
    fn backlog(&self) -> usize;
    /// How many SDUs a saturated source keeps in `backlog` (1: one always waiting; a
    /// layer that plans a whole transmission at once asks for enough to fill it).
    #[inline(always)]
    fn saturation_depth(&self) -> usize {
        1
    }
    /// SDUs submitted and not yet acknowledged (queued + outstanding).
    fn unacknowledged(&self) -> usize;
    /// Whole-run counters of the layer's own (e.g. TP4's AK, ED and EA TPDUs), as
    /// (name, value) pairs; the runner reports the sum over a flow's two ends as scope
    /// `transport.<flow>`. Empty (the default): no such scope.
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
    /// Counters since the start of the run.
    fn counters(&self) -> super::Counters;
    /// True if `receive_buffer_bits` can be non-zero. A layer that keeps the default
    /// (nothing held) leaves it false, and the runner does not poll it after every input.
    /// Set it true whenever you override `receive_buffer_bits`, and forward it from a
    /// layer that wraps others: a false here drops the receive-buffer measure (debug
    /// builds assert that a layer declaring false reports zero).
    const HOLDS_RECEIVED: bool = false;
    /// The layer plans a whole transmission (several PDUs behind one preamble: the HF
    /// ARQ's bursts) from what it holds when granted the medium: a layer stacked above
    /// hands it every PDU it has ready then, not one — as a host's transport hands its
    /// window's segments to the subnetwork's queue at once.
    const PLANS_TRANSMISSIONS: bool = false;
    /// [`Layer::PLANS_TRANSMISSIONS`] of this value: a layer whose variant is chosen at
    /// run time ([`super::any::AnyLayer`]) answers for the variant it holds.
    #[inline]
    fn plans_transmissions(&self) -> bool {
        Self::PLANS_TRANSMISSIONS
    }
    /// Information bits held at the receiver waiting for a gap to fill (selective
    /// retransmission); in-sequence receivers hold nothing.
    fn receive_buffer_bits(&self) -> u64 {
        0
    }
    /// The part of `counters()` that concerns flow `flow`: all of it, except in a
    /// multiplexing layer (the flow's connection).
    fn counters_of(&self, _flow: u32) -> super::Counters {
        self.counters()
    }
    /// `backlog()` for flow `flow` (see `counters_of`).
    fn backlog_of(&self, _flow: u32) -> usize {
        self.backlog()
    }
    /// `unacknowledged()` for flow `flow` (see `counters_of`).
    fn unacknowledged_of(&self, _flow: u32) -> usize {
        self.unacknowledged()
    }
    /// `extra_measures()` for flow `flow` (see `counters_of`): a multiplexing layer
    /// answers with the measures of the flow's connection.
    fn extra_measures_of(&self, _flow: u32) -> Vec<(&'static str, f64)> {
        self.extra_measures()
    }
    /// Progress inside SDUs, for the stall watch (`sim::stall`): a value that changes
    /// whenever the layer moves its users' data on in pieces smaller than an SDU — new
    /// data acknowledged at its sending half or accepted in order at its receiving half
    /// (TP4's DTs and EDs, the HF ARQ's segments, TCP's octets) — and never otherwise.
    /// It is read only when the watch checks a flow, never on the hot path, so a layer
    /// answers from the sequence state it keeps anyway (a lower window edge, the next
    /// number expected). 0 (the default): the layer's SDUs are its PDUs' data, and the
    /// flow's own deliveries and acknowledgements are all its progress. A stack answers
    /// for its top layer only: a lower layer moving PDUs of a transport that never gets
    /// a whole one through (a segment's fragments, a packet of a sequence) is not
    /// progress of the flow.
    fn progress(&self) -> u64 {
        0
    }
    /// `progress()` for flow `flow` (see `counters_of`).
    fn progress_of(&self, _flow: u32) -> u64 {
        self.progress()
    }
}
