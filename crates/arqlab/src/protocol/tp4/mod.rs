//! ISO 8073 class 4 transport (TP4), data transfer phase, as a sans-IO [`Layer`]:
//! TSDUs segmented into DT TPDUs (EOT on the last), credit in DTs from a window in
//! octets, send and receive buffers in octets with back-pressure, a retransmission
//! timer per DT, the window timer, the maximum acknowledgement delay, expedited data
//! (ED/EA) under the ISO or the NBS discipline, and one-for-one or selective AKs
//! (Colella, Aronoff & Mills, NBS). See `docs/models/tp4.md`.
//!
//! ```text
//!   user ── TSDU ──▶ send buffer ─ DT … DT(EOT) ─▶ ┄┄┄ ─▶ receive buffer ── TSDU ──▶ user
//!        ── ED ───▶ (front of the queue) ─ ED ───▶ ┄┄┄ ─▶ EA back
//!                   ◀──────────── AK(YR-TU-NR, CDT[, one TPDU-NR beyond a gap]) ◀──
//! ```
//!
//! One entity has both halves (a connection is full duplex); in the studies one end
//! sends and the other acknowledges. The connection is established at time 0 with the
//! credit of a full window (connection establishment and release are out of scope).
//! Sequence numbers are unbounded (the extended format's 2^31 is never reached).
//!
//! Expedited data. ISO: an ED goes to the front of the send queue and no DT that was
//! never sent leaves until its EA arrives (retransmissions may). NBS (the rule this
//! model derives from the paper's §"NBS expedited data mechanism"): every segment is
//! marked with the number of EDs the user had submitted before its data; a DT never
//! sent may leave iff every ED submitted before its data has been acknowledged. Data
//! submitted before ED k may flow while ED k is outstanding; data after ED k waits for
//! EA k; retransmissions are always allowed; at most one ED is outstanding, and an ED
//! goes ahead of any DT once it may be sent.

mod config;
mod receiver;
mod sender;
mod tpdu;
pub mod wire;
#[cfg(test)]
mod tests;

pub use config::{Acknowledgement, Expedited, ExpeditedUnit, Tp4Config};
pub use tpdu::{Format, Headers, Tpdu, TpduKind};

use super::{Counters, Event, Grant, Layer, Sdu, Service, Stacked};
use crate::engine::SimTime;
use crate::stats::TimeAverage;
use receiver::Receiver;
use sender::Sender;

/// TP4's own counters, beyond the common [`Counters`] (reported as scope
/// `transport.<flow>`, both ends summed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tp4Counters {
    pub dt_sent: u64,
    pub dt_retransmitted: u64,
    pub ak_sent: u64,
    pub selective_ak_sent: u64,
    pub ed_sent: u64,
    pub ed_retransmitted: u64,
    pub ea_sent: u64,
    pub ed_delivered: u64,
    /// DTs received beyond a gap and kept.
    pub dt_held: u64,
    /// TSDUs delivered before an ED the user had submitted ahead of them (a model bug).
    pub expedited_order_violations: u64,
    /// TSDUs delivered whose segments do not add up to their length (a model bug).
    pub tsdu_integrity_violations: u64,
}

impl Tp4Counters {
    pub fn pairs(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("dt_sent", self.dt_sent as f64),
            ("dt_retransmitted", self.dt_retransmitted as f64),
            ("ak_sent", self.ak_sent as f64),
            ("selective_ak_sent", self.selective_ak_sent as f64),
            ("ed_sent", self.ed_sent as f64),
            ("ed_retransmitted", self.ed_retransmitted as f64),
            ("ea_sent", self.ea_sent as f64),
            ("ed_delivered", self.ed_delivered as f64),
            ("dt_held", self.dt_held as f64),
            ("expedited_order_violations", self.expedited_order_violations as f64),
            ("tsdu_integrity_violations", self.tsdu_integrity_violations as f64),
        ]
    }
}

/// Names of the `transport.<flow>` measures.
pub const TRANSPORT_MEASURES: &[&str] = &[
    "dt_sent", "dt_retransmitted", "ak_sent", "selective_ak_sent", "ed_sent", "ed_retransmitted", "ea_sent", "ed_delivered", "dt_held", "expedited_order_violations", "tsdu_integrity_violations",
    "send_buffer_octets_mean", "send_buffer_octets_max",
];

/// A class 4 transport entity (one connection).
pub struct Tp4 {
    tx: Sender,
    rx: Receiver,
    counters: Counters,
    extra: Tp4Counters,
    /// Send-buffer memory (octets of user data held) over the whole run, from time 0:
    /// the sender-side side of Colella's memory utilisation.
    send_memory: TimeAverage,
    /// Time of the last input: `wants_transmit` needs it for a delayed AK.
    now: SimTime,
}

impl Tp4 {
    pub fn new(c: &Tp4Config) -> Tp4 {
        Tp4 {
            tx: Sender::new(c),
            rx: Receiver::new(c),
            counters: Counters::default(),
            extra: Tp4Counters::default(),
            send_memory: TimeAverage::new(0.0),
            now: SimTime::ZERO,
        }
    }

    /// Records the send buffer's octets after an input that may change them (a
    /// submission admits data, an AK frees it).
    fn note_send_buffer(&mut self, now: SimTime) {
        let octets = f64::from(self.tx.buffer_octets());
        if octets != self.send_memory.value() {
            self.send_memory.update(now.as_secs_f64(), octets);
        }
    }

    /// (time-average, maximum) octets of the send buffer from time 0 to the last input;
    /// (0, 0) before any input.
    pub fn send_memory(&self) -> (f64, f64) {
        let t = self.now.as_secs_f64();
        let mean = if t > 0.0 { self.send_memory.integral(t) / t } else { 0.0 };
        (mean, self.send_memory.max())
    }

    pub fn tp4_counters(&self) -> Tp4Counters {
        self.extra
    }

    /// Octets of user data in the send buffer.
    pub fn send_buffer_octets(&self) -> u32 {
        self.tx.buffer_octets()
    }
}

impl Layer for Tp4 {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = Sdu;
    type Pdu = Tpdu;

    fn service(&self) -> Service {
        Service::InOrder
    }

    fn handle_submit(&mut self, now: SimTime, sdu: Sdu) {
        self.now = now;
        self.tx.submit(now, sdu);
        self.note_send_buffer(now);
    }

    fn handle_receive(&mut self, now: SimTime, t: &Tpdu) {
        self.now = now;
        match t.kind {
            TpduKind::Dt => self.rx.on_dt(now, t, &mut self.counters, &mut self.extra),
            TpduKind::Ak => {
                self.tx.on_ak(now, t.nr, t.credit, t.sack);
                self.note_send_buffer(now);
            }
            TpduKind::Ed => self.rx.on_ed(t, &mut self.extra),
            TpduKind::Ea => self.tx.on_ea(t.nr),
        }
    }

    fn handle_receive_in_error(&mut self, now: SimTime, _t: &Tpdu) {
        self.now = now;
        self.counters.frames_in_error_received += 1;
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.now = now;
        self.tx.on_timeout(now, &mut self.counters);
        self.rx.on_timeout(now, &mut self.counters);
    }

    /// Receiver's EA first, then the sender's ED, then AKs, then DTs (retransmissions
    /// before new data).
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Tpdu> {
        self.now = now;
        // The receiving half usually has nothing (one AK per DT received, a pull per
        // packet sent): asked first whether it wants to, not called for a `None`.
        let rx = if self.rx.wants_transmit(now) { self.rx.poll_transmit(now, &mut self.counters, &mut self.extra) } else { None };
        let t = match rx {
            Some(t) => Some(t),
            None => self.tx.poll_transmit(now, grant, &mut self.counters, &mut self.extra),
        };
        if t.is_some() {
            self.counters.frames_sent += 1;
        }
        t
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        match (self.tx.poll_timeout(), self.rx.poll_timeout()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.rx.events.pop_front().or_else(|| self.tx.events.pop_front())
    }

    fn accepts(&self) -> bool {
        true
    }

    fn wants_transmit(&self) -> bool {
        self.rx.wants_transmit(self.now) || self.tx.wants_transmit()
    }

    fn backlog(&self) -> usize {
        self.tx.backlog()
    }

    fn unacknowledged(&self) -> usize {
        self.tx.unacknowledged()
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.rx.buffer_octets() as u64 * 8
    }

    /// DTs acknowledged (the lower window edge) and accepted in sequence (YR-TU-NR),
    /// EDs acknowledged and delivered: a TSDU of many DTs moves on DT by DT.
    fn progress(&self) -> u64 {
        self.tx.progress() + self.rx.progress()
    }

    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        let (mean, max) = self.send_memory();
        let mut m = self.extra.pairs();
        m.extend([("send_buffer_octets_mean", mean), ("send_buffer_octets_max", max)]);
        m
    }
}

/// TP4 over a lower layer (the subnetwork): a [`Stacked`] that reports the transport's
/// counters (the lower layer's are its own business) and TP4's extra measures.
pub struct Tp4Over<L: Layer<Sdu = Tpdu>>(pub Stacked<Tp4, L>);

impl<L: Layer<Sdu = Tpdu>> Layer for Tp4Over<L> {
    const HOLDS_RECEIVED: bool = Stacked::<Tp4, L>::HOLDS_RECEIVED;
    type Sdu = Sdu;
    type Pdu = L::Pdu;
    fn service(&self) -> Service {
        self.0.service()
    }
    fn handle_submit(&mut self, now: SimTime, sdu: Sdu) {
        self.0.handle_submit(now, sdu)
    }
    fn handle_receive(&mut self, now: SimTime, pdu: &L::Pdu) {
        self.0.handle_receive(now, pdu)
    }
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &L::Pdu) {
        // The subnetwork drops a corrupted packet; the transport never sees it.
        self.0.handle_receive_in_error(now, pdu);
        self.0.upper.counters.frames_in_error_received += 1;
    }
    fn handle_timeout(&mut self, now: SimTime) {
        self.0.handle_timeout(now)
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<L::Pdu> {
        self.0.poll_transmit(now, grant)
    }
    /// Into the medium's slot through the stack (not the default: a returned PDU
    /// copied over the slot).
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut L::Pdu) -> bool {
        self.0.poll_transmit_into(now, grant, slot)
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        self.0.poll_timeout()
    }
    fn due_layer(&self, now: SimTime) -> Option<usize> {
        self.0.due_layer(now)
    }
    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.0.poll_event()
    }
    fn accepts(&self) -> bool {
        self.0.accepts()
    }
    fn wants_transmit(&self) -> bool {
        self.0.wants_transmit()
    }
    fn backlog(&self) -> usize {
        self.0.backlog()
    }
    fn unacknowledged(&self) -> usize {
        self.0.unacknowledged()
    }
    fn counters(&self) -> Counters {
        self.0.upper.counters()
    }
    fn receive_buffer_bits(&self) -> u64 {
        self.0.receive_buffer_bits()
    }
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        self.0.upper.extra_measures()
    }
    fn progress(&self) -> u64 {
        self.0.progress()
    }
}
