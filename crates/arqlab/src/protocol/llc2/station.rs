//! One LLC type 2 connection end (IEEE 802.2 §7, modulo 128, balanced): sender and
//! receiver of one data link connection, sans-IO.
//!
//! Send side: V(S) = V(A) + `next`, at most min(k, working window) I frames
//! outstanding. Acknowledgement timer T1 runs while I frames are outstanding; on expiry
//! the station polls (RR command, P = 1), sends no new I frames until the F = 1
//! response, and then recovers from its N(R): go-back-N (ORIG, BG, JAIN) or that one
//! frame (SREJ, multi-FIFO). A REJ goes back to its N(R); an SREJ asks for one frame.
//! BG and JAIN shrink the working window to 1 on REJ (and on T1 if
//! `t1_resets_window`) and grow it by one after `n` (BG) or `working window` (JAIN) RRs.
//!
//! Receive side: V(R) next expected. In sequence: deliver (then whatever the store holds
//! in sequence after it) and acknowledge with RR(V(R)) after N3 frames or T2. Out of
//! sequence: ORIG/BG/JAIN discard it and send one REJ(V(R)) per gap; SREJ and multi-FIFO
//! store it (`store.rs`) and send SREJ(V(R)) if none is outstanding; a multi-FIFO
//! receiver with `rej_after_discard` that had to discard a frame sends REJ(V(R)) instead
//! (the sender goes back, so every discarded frame comes again in one round trip). A REJ/SREJ
//! unanswered after the reject timer is sent again. Duplicates are discarded and
//! answered with RR(V(R)). A command with P = 1 is answered at once with F = 1.
//! Multi-SREJ: the receiver sends SREJ(x) for every missing x below a frame that
//! arrives out of sequence (each gap asked for once, at once); on the reject timer it
//! asks again for all still missing. Its SREJ(x) acknowledges nothing (x may be above
//! V(R)).
//!
//! Which gaps a multi-SREJ receiver asks for is `asks.rs`. Received frames take effect
//! after the station's processing (`processor.rs`).

use super::asks::Asks;
use super::config::{Llc2Config, Variant};
use super::processor::Processor;
use super::store::{Placed, Store};
use super::window::Window;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Counters, Event, Frame, FrameKind, Grant, Layer, Modulus, Payload, RetransmitCause, Sdu, Service};
use std::collections::VecDeque;

/// Counters beyond the common ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Llc2Stats {
    /// Out-of-sequence I frames kept for resequencing.
    pub out_of_sequence_stored: u64,
    /// T1 expiries beyond N2 in a row (a real station would reset the link).
    pub n2_exceeded: u64,
}

pub struct Llc2<P: Payload = Sdu> {
    variant: Variant,
    m: Modulus,
    k: u32,
    header_bits: u32,
    t1: Duration,
    t_reject: Duration,
    t_busy: Duration,
    t2: Duration,
    n2: u32,
    n3: u32,
    window: Window,
    processor: Processor<P>,

    // Send side: `unacked[0]` has N(S) = V(A).
    va: u32,
    unacked: VecDeque<P>,
    next: usize,
    sent: usize,
    cause: RetransmitCause,
    queue: VecDeque<P>,
    /// Single frames asked for (SREJ, or after a poll in the selective variants).
    singles: VecDeque<u32>,
    t1_at: Option<SimTime>,
    retries: u32,
    poll_pending: bool,
    awaiting_f: bool,
    peer_busy: bool,
    busy_at: Option<SimTime>,

    // Receive side.
    vr: u32,
    /// A REJ/SREJ condition exists (sent, not yet answered).
    rejecting: bool,
    send_reject: bool,
    /// Multi-FIFO with `rej_after_discard`: a frame was discarded, so the reject
    /// condition is a REJ (go back) instead of an SREJ until the gap closes.
    rej_mode: bool,
    rej_after_discard: bool,
    reject_at: Option<SimTime>,
    /// Multi-SREJ: the missing frames to ask for.
    asks: Asks,
    send_f: bool,
    ack_owed: u32,
    ack_at: Option<SimTime>,
    store: Store<P>,
    held_bits: u64,
    /// Frames held in the store.
    held: u32,

    events: VecDeque<Event<P>>,
    counters: Counters,
    stats: Llc2Stats,
}

fn dur(s: f64) -> Duration {
    Duration::from_secs_f64(s)
}

impl<P: Payload> Llc2<P> {
    pub fn new(c: &Llc2Config) -> Self {
        let store = match c.variant {
            Variant::Srej | Variant::MultiSrej => Store::window(128),
            Variant::MultiFifo => Store::fifos(c.fifo_buffers),
            _ => Store::None,
        };
        Llc2 {
            variant: c.variant,
            m: Modulus(128),
            k: c.window,
            header_bits: c.header_bits,
            t1: dur(c.t1_s),
            t_reject: dur(c.reject_timer_s),
            t_busy: dur(c.busy_timer_s),
            t2: dur(c.ack_delay_s),
            n2: c.n2,
            n3: c.n3,
            window: Window::new(c),
            processor: Processor::new(dur(c.processing_s), dur(c.s_processing_s.unwrap_or(c.processing_s))),
            va: 0,
            unacked: VecDeque::new(),
            next: 0,
            sent: 0,
            cause: RetransmitCause::Reject,
            queue: VecDeque::new(),
            singles: VecDeque::new(),
            t1_at: None,
            retries: 0,
            poll_pending: false,
            awaiting_f: false,
            peer_busy: false,
            busy_at: None,
            vr: 0,
            rejecting: false,
            send_reject: false,
            rej_mode: false,
            rej_after_discard: c.rej_after_discard,
            reject_at: None,
            asks: Asks::default(),
            send_f: false,
            ack_owed: 0,
            ack_at: None,
            store,
            held_bits: 0,
            held: 0,
            events: VecDeque::new(),
            counters: Counters::default(),
            stats: Llc2Stats::default(),
        }
    }

    pub fn stats(&self) -> Llc2Stats {
        self.stats
    }

    /// The working window (k for the fixed-window variants).
    pub fn working_window(&self) -> u32 {
        self.window.current()
    }

    /// V(S), V(A), V(R).
    pub fn state(&self) -> (u32, u32, u32) {
        (self.m.add(self.va, self.next as u32), self.va, self.vr)
    }

    fn s_frame(&mut self, kind: FrameKind, pf: bool, command: bool) -> Frame<P> {
        self.counters.frames_sent += 1;
        self.counters.s_frames_sent += 1;
        self.ack_owed = 0;
        self.ack_at = None;
        Frame { command, ..Frame::supervisory(kind, self.vr, pf, self.header_bits) }
    }

    fn i_frame(&mut self, now: SimTime, grant: &Grant, index: usize) -> Frame<P> {
        let msg = self.unacked[index].clone();
        let f = Frame { command: true, ..Frame::information(self.m.add(self.va, index as u32), self.vr, false, msg, self.header_bits) };
        self.counters.frames_sent += 1;
        self.counters.i_frames_sent += 1;
        self.counters.window_sum += self.window.current() as u64;
        self.ack_owed = 0;
        self.ack_at = None;
        if self.t1_at.is_none() {
            self.t1_at = Some(now + grant.transmission(f.bits) + self.t1);
        }
        f
    }

    /// Acts on an N(R): frames before it are acknowledged. Returns false if invalid.
    fn acknowledge(&mut self, now: SimTime, nr: u32) -> bool {
        let n = self.m.distance(self.va, nr) as usize;
        if n > self.sent {
            return false;
        }
        for _ in 0..n {
            if let Some(p) = self.unacked.pop_front() {
                self.events.push_back(Event::Acknowledged(p));
            }
        }
        if n > 0 {
            self.va = nr;
            self.next = self.next.saturating_sub(n);
            self.sent -= n;
            self.retries = 0;
            let (va, sent, m) = (self.va, self.sent as u32, self.m);
            if !self.singles.is_empty() {
                self.singles.retain(|&x| m.distance(va, x) < sent);
            }
            self.t1_at = (self.sent > 0 || self.awaiting_f).then(|| now + self.t1);
        }
        true
    }

    /// Queues frame `ns` for a single retransmission (once).
    fn ask_single(&mut self, ns: u32) {
        if (self.m.distance(self.va, ns) as usize) < self.sent && !self.singles.contains(&ns) {
            self.singles.push_back(ns);
        }
    }

    fn receive_i(&mut self, now: SimTime, ns: u32, msg: P) {
        self.counters.i_frames_received += 1;
        if ns == self.vr {
            self.events.push_back(Event::Delivered(msg));
            self.vr = self.m.next(self.vr);
            let mut owed = 1;
            while let Some(p) = self.store.take(self.vr) {
                self.held_bits -= p.bits() as u64;
                self.held -= 1;
                self.events.push_back(Event::Delivered(p));
                self.vr = self.m.next(self.vr);
                owed += 1;
            }
            // The frame asked for has come: the REJ/SREJ condition is cleared (multi-SREJ:
            // once nothing is held, i.e. every gap is filled).
            if self.variant != Variant::MultiSrej || self.held == 0 {
                self.rejecting = false;
                self.send_reject = false;
                self.rej_mode = false;
                self.reject_at = None;
            }
            self.ack_owed += owed;
            if self.ack_at.is_none() {
                self.ack_at = Some(now + self.t2);
            }
        } else if self.m.in_window(self.vr, self.k, ns) {
            let bits = msg.bits();
            match self.store.insert(self.m, ns, msg) {
                Placed::Stored => {
                    self.stats.out_of_sequence_stored += 1;
                    self.held_bits += bits as u64;
                    self.held += 1;
                }
                Placed::Duplicate => self.counters.duplicates_discarded += 1,
                Placed::Discarded => {
                    self.counters.out_of_sequence_discarded += 1;
                    if self.rej_after_discard && !self.rej_mode {
                        // One REJ recovers every discarded frame in one round trip.
                        self.rej_mode = true;
                        self.rejecting = true;
                        self.send_reject = true;
                    }
                }
            }
            if self.variant == Variant::MultiSrej {
                self.asks.gaps_below(self.m, self.k, self.vr, &self.store, ns);
                self.rejecting |= !self.asks.is_empty();
            } else if !self.rejecting {
                self.rejecting = true;
                self.send_reject = true;
            }
        } else {
            self.counters.duplicates_discarded += 1;
            self.ack_owed = self.n3;
        }
    }

    /// A received frame takes effect (after its processing, if any).
    fn process(&mut self, now: SimTime, f: &Frame<P>) {
        if f.kind == FrameKind::I {
            if let Some(msg) = f.msg.clone() {
                self.receive_i(now, f.ns, msg);
            }
        }
        if f.command && f.pf {
            self.send_f = true;
        }
        // A multi-SREJ's N(R) names the frame asked for, not an acknowledgement.
        let multi_srej = f.kind == FrameKind::SREJ && self.variant == Variant::MultiSrej;
        let valid = multi_srej || self.acknowledge(now, f.nr);
        if f.kind == FrameKind::I || !valid {
            return;
        }
        let f_response = !f.command && f.pf && self.awaiting_f;
        match f.kind {
            FrameKind::RR => {
                self.peer_busy = false;
                self.busy_at = None;
                self.window.on_rr();
            }
            FrameKind::RNR => {
                self.peer_busy = true;
                self.busy_at.get_or_insert(now + self.t_busy);
            }
            FrameKind::REJ => {
                self.peer_busy = false;
                self.next = 0;
                self.cause = RetransmitCause::Reject;
                if self.window.on_congestion() {
                    self.counters.window_cuts += 1;
                }
            }
            FrameKind::SREJ => {
                self.cause = RetransmitCause::Reject;
                self.ask_single(f.nr);
            }
            FrameKind::I => {}
        }
        if f_response {
            // Poll answered: recover from its N(R).
            self.awaiting_f = false;
            self.retries = 0;
            self.t1_at = (self.sent > 0).then(|| now + self.t1);
            if self.variant.selective() {
                self.ask_single(self.va);
            } else if f.kind != FrameKind::REJ && self.next > 0 {
                self.next = 0;
                self.cause = RetransmitCause::Checkpoint;
            }
        }
    }

    fn can_send_i(&self) -> bool {
        !self.awaiting_f && !self.peer_busy && (self.next as u32) < self.window.current().min(self.k) && (self.next < self.unacked.len() || !self.queue.is_empty())
    }

    fn ack_due(&self) -> bool {
        self.ack_owed >= self.n3
    }
}

impl<P: Payload> Layer for Llc2<P> {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = P;
    type Pdu = Frame<P>;

    fn service(&self) -> Service {
        Service::InOrder
    }

    fn handle_submit(&mut self, _now: SimTime, sdu: P) {
        self.queue.push_back(sdu);
    }

    fn handle_receive(&mut self, now: SimTime, f: &Frame<P>) {
        if self.processor.admit(now, f) {
            self.process(now, f);
        }
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, _f: &Frame<P>) {
        self.counters.frames_in_error_received += 1;
    }

    fn handle_timeout(&mut self, now: SimTime) {
        while let Some((done, f)) = self.processor.done_by(now) {
            self.process(done, &f);
        }
        if self.ack_owed > 0 && self.ack_at.is_some_and(|t| t <= now) {
            // T2: the acknowledgement owed for fewer than N3 frames leaves now.
            self.ack_owed = self.ack_owed.max(self.n3);
            self.ack_at = None;
        }
        if self.t1_at.is_some_and(|t| t <= now) {
            self.counters.timeouts += 1;
            self.retries += 1;
            if self.retries > self.n2 {
                self.stats.n2_exceeded += 1;
                self.retries = 0;
            }
            self.poll_pending = true;
            self.t1_at = Some(now + self.t1);
            if self.window.on_timeout() {
                self.counters.window_cuts += 1;
            }
        }
        if self.reject_at.is_some_and(|t| t <= now) {
            self.reject_at = None;
            if self.rejecting && self.variant == Variant::MultiSrej {
                self.asks.again(self.m, self.vr, &self.store);
            } else if self.rejecting {
                self.send_reject = true;
            }
        }
        if self.busy_at.is_some_and(|t| t <= now) {
            self.busy_at = None;
            if self.peer_busy {
                self.poll_pending = true;
                self.busy_at = Some(now + self.t_busy);
            }
        }
    }

    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<P>> {
        if self.send_f {
            self.send_f = false;
            return Some(self.s_frame(FrameKind::RR, true, false));
        }
        if let Some(x) = self.asks.next(self.m, self.k, self.vr, &self.store) {
            self.counters.rejects_sent += 1;
            self.reject_at = Some(now + self.t_reject);
            // Not `s_frame`: an SREJ(x) acknowledges nothing, so an RR still owed stays owed.
            self.counters.frames_sent += 1;
            self.counters.s_frames_sent += 1;
            return Some(Frame { command: false, ..Frame::supervisory(FrameKind::SREJ, x, false, self.header_bits) });
        }
        if self.send_reject {
            self.send_reject = false;
            self.counters.rejects_sent += 1;
            self.reject_at = Some(now + self.t_reject);
            let kind = if self.variant.selective() && !self.rej_mode { FrameKind::SREJ } else { FrameKind::REJ };
            return Some(self.s_frame(kind, false, false));
        }
        if self.poll_pending {
            self.poll_pending = false;
            self.awaiting_f = true;
            return Some(self.s_frame(FrameKind::RR, true, true));
        }
        if self.ack_due() {
            return Some(self.s_frame(FrameKind::RR, false, false));
        }
        while let Some(ns) = self.singles.pop_front() {
            let i = self.m.distance(self.va, ns) as usize;
            if i < self.sent {
                self.counters.count_retransmission(self.cause);
                return Some(self.i_frame(now, grant, i));
            }
        }
        if self.can_send_i() {
            let i = self.next;
            if i < self.sent {
                self.counters.count_retransmission(self.cause);
            } else if i == self.unacked.len() {
                let p = self.queue.pop_front()?;
                self.unacked.push_back(p);
            }
            self.next += 1;
            self.sent = self.sent.max(self.next);
            return Some(self.i_frame(now, grant, i));
        }
        None
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        // Called after every input (and per connection by a multiplexer): pairwise
        // minima, no array of options to build and scan.
        fn min(a: Option<SimTime>, b: Option<SimTime>) -> Option<SimTime> {
            match (a, b) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            }
        }
        let ack = if self.ack_owed > 0 { self.ack_at } else { None };
        min(min(min(self.t1_at, self.reject_at), min(self.busy_at, ack)), self.processor.next_done())
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        self.events.pop_front()
    }

    fn wants_transmit(&self) -> bool {
        self.send_f || self.send_reject || !self.asks.is_empty() || self.poll_pending || self.ack_due() || !self.singles.is_empty() || self.can_send_i()
    }

    fn backlog(&self) -> usize {
        self.queue.len()
    }

    fn unacknowledged(&self) -> usize {
        self.queue.len() + self.unacked.len()
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.held_bits
    }
}
