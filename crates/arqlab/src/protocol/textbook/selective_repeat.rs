//! Selective-repeat ARQ with individual acknowledgements.
//!
//! Sender: frames V(A) … V(A)+W−1 may be outstanding, each with its own timer. An
//! acknowledgement RR carries both a cumulative N(R) = the receiver's V(R) (every frame
//! before it has arrived) and, in its N(S) field, the one frame it was sent for (a
//! convention of this model). The cumulative part matters: without it every lost RR
//! would hold the window until that frame's timer expired. A negative acknowledgement
//! SREJ(N(R)) or the frame's timer expiring retransmits that frame only;
//! retransmissions go before new frames. The window slides when its oldest frame is
//! acknowledged.
//!
//! Receiver: accepts any N(S) in [V(R), V(R)+W), buffers it, delivers the in-order
//! prefix and acknowledges the frame. When a frame arrives beyond a gap, every missing
//! frame of the gap not yet asked for gets one SREJ (if `reject`); a frame behind V(R)
//! is a duplicate after a lost acknowledgement and is acknowledged again. W ≤ M/2.

use super::config::TextbookConfig;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Counters, Event, Frame, FrameKind, Grant, Layer, Modulus, Payload, Pdu, RetransmitCause, Sdu, Service};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug)]
struct Slot<P> {
    msg: P,
    acked: bool,
    /// Set by SREJ or timeout; cleared when the copy is sent.
    resend: Option<RetransmitCause>,
    deadline: Option<SimTime>,
}

pub struct SelectiveRepeat<P: Payload = Sdu> {
    m: Modulus,
    window: u32,
    overhead_bits: u32,
    ack_bits: u32,
    t1: Duration,
    reject: bool,
    nak_corrupted: bool,

    // Sender. `slots[i]` carries N(S) = V(A) + i.
    va: u32,
    slots: VecDeque<Slot<P>>,
    /// (deadline, N(S)) of every timer started, in start order. Frames leave one at a
    /// time on one line, so deadlines only grow along the queue: the earliest live
    /// timer is the first entry still matching its slot (entries of acknowledged or
    /// re-armed frames are dropped lazily). Keeps timers O(1) per event, not O(W).
    timers: VecDeque<(SimTime, u32)>,
    /// Slots marked for retransmission.
    resend_pending: usize,
    queue: VecDeque<P>,

    // Receiver. `rx[i]` holds the frame N(S) = V(R) + i once received.
    vr: u32,
    rx: VecDeque<Option<P>>,
    /// Frames of the receive window already asked for with SREJ.
    srej_sent: VecDeque<bool>,
    /// Information bits held in `rx`, a running total (read after every event).
    held_bits: u64,
    replies: VecDeque<Frame<P>>,

    events: VecDeque<Event<P>>,
    counters: Counters,
}

impl<P: Payload> SelectiveRepeat<P> {
    pub fn new(cfg: &TextbookConfig) -> Self {
        let w = cfg.window as usize;
        SelectiveRepeat {
            m: Modulus(cfg.modulus),
            window: cfg.window,
            overhead_bits: cfg.overhead_bits,
            ack_bits: cfg.ack_bits,
            t1: Duration::from_secs_f64(cfg.timeout_s),
            reject: cfg.reject,
            nak_corrupted: cfg.nak_corrupted,
            va: 0,
            slots: VecDeque::with_capacity(w),
            timers: VecDeque::with_capacity(2 * w),
            resend_pending: 0,
            queue: VecDeque::new(),
            vr: 0,
            rx: VecDeque::from(vec![None; w]),
            srej_sent: VecDeque::from(vec![false; w]),
            held_bits: 0,
            replies: VecDeque::new(),
            events: VecDeque::new(),
            counters: Counters::default(),
        }
    }

    fn slide(&mut self) {
        while self.slots.front().is_some_and(|s| s.acked) {
            let s = self.slots.pop_front().unwrap_or_else(|| unreachable!());
            self.events.push_back(Event::Acknowledged(s.msg));
            self.va = self.m.next(self.va);
        }
    }

    fn slot_of(&mut self, n: u32) -> Option<&mut Slot<P>> {
        let i = self.m.distance(self.va, n) as usize;
        self.slots.get_mut(i)
    }

    fn reply(&mut self, kind: FrameKind, nr: u32) {
        self.replies.push_back(Frame::supervisory(kind, nr, false, self.ack_bits));
    }

    /// RR for frame `ns`, carrying the cumulative N(R) = V(R) as well.
    fn ack(&mut self, ns: u32) {
        let mut f = Frame::supervisory(FrameKind::RR, self.vr, false, self.ack_bits);
        f.ns = ns;
        self.replies.push_back(f);
    }

    fn mark_acked(&mut self, n: u32) {
        if let Some(s) = self.slot_of(n) {
            s.acked = true;
            s.deadline = None;
            if s.resend.take().is_some() {
                self.resend_pending -= 1;
            }
        }
    }

    /// True if the timer entry (deadline, N(S)) is still that frame's running timer.
    fn live(&self, (deadline, ns): (SimTime, u32)) -> bool {
        let i = self.m.distance(self.va, ns) as usize;
        self.slots.get(i).is_some_and(|s| s.deadline == Some(deadline))
    }

    /// Drops stale timer entries from the front, so the front is the earliest live one.
    fn prune_timers(&mut self) {
        while let Some(&e) = self.timers.front() {
            if self.live(e) {
                break;
            }
            self.timers.pop_front();
        }
    }

    fn receive_i(&mut self, ns: u32, msg: P) {
        let i = self.m.distance(self.vr, ns) as usize;
        if i >= self.window as usize {
            // Behind the window: a duplicate whose acknowledgement was lost.
            self.counters.duplicates_discarded += 1;
            self.ack(ns);
            return;
        }
        if self.rx[i].is_some() {
            self.counters.duplicates_discarded += 1;
        } else {
            self.held_bits += msg.bits() as u64;
            self.rx[i] = Some(msg);
        }
        if self.reject {
            for j in 0..i {
                if self.rx[j].is_none() && !self.srej_sent[j] {
                    self.srej_sent[j] = true;
                    let nr = self.m.add(self.vr, j as u32);
                    self.counters.rejects_sent += 1;
                    self.reply(FrameKind::SREJ, nr);
                }
            }
        }
        while let Some(Some(m)) = self.rx.front().cloned() {
            self.rx.pop_front();
            self.held_bits -= m.bits() as u64;
            self.srej_sent.pop_front();
            self.rx.push_back(None);
            self.srej_sent.push_back(false);
            self.vr = self.m.next(self.vr);
            self.events.push_back(Event::Delivered(m));
        }
        self.ack(ns);
    }
}

impl<P: Payload> Layer for SelectiveRepeat<P> {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = P;
    type Pdu = Frame<P>;
    fn service(&self) -> Service {
        Service::InOrder
    }

    fn handle_submit(&mut self, _now: SimTime, msg: P) {
        self.queue.push_back(msg);
    }

    fn handle_receive(&mut self, _now: SimTime, f: &Frame<P>) {
        match f.kind {
            FrameKind::I => {
                if let Some(msg) = f.msg.clone() {
                    self.receive_i(f.ns, msg);
                }
            }
            FrameKind::RR => {
                // Cumulative part first: every frame before N(R) has arrived.
                let upto = self.m.distance(self.va, f.nr) as usize;
                if upto <= self.slots.len() {
                    for i in 0..upto {
                        let n = self.m.add(self.va, i as u32);
                        self.mark_acked(n);
                    }
                }
                self.mark_acked(f.ns);
                self.slide();
            }
            FrameKind::SREJ => {
                if let Some(s) = self.slot_of(f.nr) {
                    if !s.acked && s.resend.is_none() {
                        s.resend = Some(RetransmitCause::Reject);
                        s.deadline = None;
                        self.resend_pending += 1;
                    }
                }
            }
            FrameKind::REJ | FrameKind::RNR => {}
        }
        self.prune_timers();
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, f: &Frame<P>) {
        self.counters.frames_in_error_received += 1;
        // Textbook assumption: the receiver knows which frame was hit and asks for it
        // again at once, every time.
        if self.nak_corrupted && f.kind == FrameKind::I {
            let i = self.m.distance(self.vr, f.ns) as usize;
            if i < self.window as usize && self.rx[i].is_none() {
                self.srej_sent[i] = true;
                self.counters.rejects_sent += 1;
                self.reply(FrameKind::SREJ, f.ns);
            }
        }
    }

    fn handle_timeout(&mut self, now: SimTime) {
        // Every expired live timer is in the front run of entries with deadline ≤ now.
        while let Some(&(deadline, ns)) = self.timers.front() {
            if deadline > now {
                break;
            }
            self.timers.pop_front();
            if self.live((deadline, ns)) {
                if let Some(s) = self.slot_of(ns) {
                    s.deadline = None;
                    s.resend = Some(RetransmitCause::Timeout);
                }
                self.resend_pending += 1;
                self.counters.timeouts += 1;
            }
        }
        self.prune_timers();
    }

    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<P>> {
        Frame::built_by(|slot| self.poll_transmit_into(now, grant, slot))
    }

    // Inlined into the runner, as go-back-N's: the frame is built in the lane's slot it
    // is sent from (no copies of a returned frame).
    #[inline]
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut Frame<P>) -> bool {
        if let Some(r) = self.replies.pop_front() {
            self.counters.frames_sent += 1;
            self.counters.s_frames_sent += 1;
            r.copy_into(slot);
            return true;
        }
        let (va, m, overhead, t1) = (self.va, self.m, self.overhead_bits, self.t1);
        let deadline = |bits: u32| now + grant.transmission(bits) + t1;
        let found = if self.resend_pending > 0 { self.slots.iter_mut().enumerate().find(|(_, s)| s.resend.is_some()) } else { None };
        if let Some((i, s)) = found {
            let cause = s.resend.take().unwrap_or(RetransmitCause::Timeout);
            let ns = m.add(va, i as u32);
            slot.set_information(ns, 0, false, s.msg.clone(), overhead);
            let d = deadline(slot.bits);
            s.deadline = Some(d);
            self.resend_pending -= 1;
            self.timers.push_back((d, ns));
            self.prune_timers();
            self.counters.count_retransmission(cause);
            self.counters.frames_sent += 1;
            self.counters.i_frames_sent += 1;
            return true;
        }
        if self.slots.len() < self.window as usize {
            if let Some(msg) = self.queue.pop_front() {
                let ns = m.add(va, self.slots.len() as u32);
                slot.set_information(ns, 0, false, msg.clone(), overhead);
                let d = deadline(slot.bits);
                self.slots.push_back(Slot { msg, acked: false, resend: None, deadline: Some(d) });
                self.timers.push_back((d, ns));
                self.counters.frames_sent += 1;
                self.counters.i_frames_sent += 1;
                return true;
            }
        }
        false
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        let earliest = self.timers.front().map(|&(d, _)| d);
        debug_assert_eq!(earliest, self.slots.iter().filter_map(|s| s.deadline).min());
        earliest
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        self.events.pop_front()
    }

    fn backlog(&self) -> usize {
        self.queue.len()
    }

    fn unacknowledged(&self) -> usize {
        self.queue.len() + self.slots.len()
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn wants_transmit(&self) -> bool {
        !self.replies.is_empty()
            || self.resend_pending > 0
            || (!self.queue.is_empty() && self.slots.len() < self.window as usize)
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.held_bits
    }
}

#[cfg(test)]
#[path = "selective_repeat_tests.rs"]
mod tests;
