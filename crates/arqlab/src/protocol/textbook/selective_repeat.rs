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
            self.rx[i] = Some(msg);
            self.held_bits += msg.bits() as u64;
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
        while let Some(Some(m)) = self.rx.front().copied() {
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
                if let Some(msg) = f.msg {
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
            slot.set_information(ns, 0, false, s.msg, overhead);
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
                slot.set_information(ns, 0, false, msg, overhead);
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
mod tests {
    use super::*;

    const LINE: Grant = Grant::line(48_000.0);

    fn entity() -> SelectiveRepeat {
        entity_nak(false)
    }
    fn entity_nak(nak_corrupted: bool) -> SelectiveRepeat {
        let cfg = TextbookConfig {
            window: 4,
            modulus: 8,
            overhead_bits: 48,
            ack_bits: 48,
            timeout_s: 1.0,
            reject: true,
            nak_corrupted,
        };
        SelectiveRepeat::new(&cfg)
    }
    fn replies(e: &mut SelectiveRepeat, now: SimTime) -> Vec<(FrameKind, u32, u32)> {
        std::iter::from_fn(|| e.poll_transmit(now, &LINE)).map(|f| (f.kind, f.ns, f.nr)).collect()
    }
    fn msg(id: u64) -> Sdu {
        Sdu { id, bits: 1000, flow: 0, born: SimTime::ZERO }
    }

    #[test]
    fn test_outstanding_srej_retransmits_only_that_frame() {
        let mut s = entity();
        for i in 0..6 {
            s.handle_submit(SimTime::ZERO, msg(i));
        }
        for k in 0..4 {
            assert_eq!(s.poll_transmit(SimTime::ZERO, &LINE).unwrap().ns, k);
        }
        assert!(s.poll_transmit(SimTime::ZERO, &LINE).is_none(), "window of 4");
        assert_eq!((s.backlog(), s.unacknowledged()), (2, 6), "2 never sent; 6 not yet acknowledged");
        // Frame 1 arrived (individual ack, N(S) = 1), frame 0 did not (cumulative N(R) = 0).
        let mut rr1 = Frame::supervisory(FrameKind::RR, 0, false, 48);
        rr1.ns = 1;
        s.handle_receive(SimTime(1), &rr1);
        s.handle_receive(SimTime(1), &Frame::supervisory(FrameKind::SREJ, 0, false, 48));
        let f = s.poll_transmit(SimTime(1), &LINE).unwrap();
        assert_eq!((f.ns, f.msg.unwrap().id), (0, 0));
        assert!(s.poll_transmit(SimTime(1), &LINE).is_none(), "frame 0 still holds the window");
        assert!(!s.wants_transmit(), "the copy is sent: nothing pending");
        let mut rr0 = Frame::supervisory(FrameKind::RR, 2, false, 48);
        rr0.ns = 0;
        s.handle_receive(SimTime(2), &rr0);
        let acked: Vec<u64> = std::iter::from_fn(|| s.poll_event())
            .filter_map(|e| if let Event::Acknowledged(m) = e { Some(m.id) } else { None })
            .collect();
        assert_eq!(acked, vec![0, 1]);
        assert_eq!(s.poll_transmit(SimTime(2), &LINE).unwrap().ns, 4);
        assert_eq!(s.poll_transmit(SimTime(2), &LINE).unwrap().ns, 5);
        assert_eq!(s.counters().retransmitted_reject, 1);
        let c = s.counters();
        assert_eq!((c.frames_sent, c.i_frames_sent, c.i_frames_retransmitted), (7, 7, 1), "4 + 1 copy + 2");
    }

    #[test]
    fn test_receiver_buffers_out_of_order_and_delivers_in_order() {
        let mut r = entity();
        r.handle_receive(SimTime(1), &Frame::information(1, 0, false, msg(1), 48));
        r.handle_receive(SimTime(2), &Frame::information(2, 0, false, msg(2), 48));
        assert!(r.poll_event().is_none());
        assert_eq!(r.receive_buffer_bits(), 2000);
        let replies: Vec<(FrameKind, u32, u32)> =
            std::iter::from_fn(|| r.poll_transmit(SimTime(2), &LINE)).map(|f| (f.kind, f.ns, f.nr)).collect();
        // (kind, N(S) acknowledged, N(R)): SREJ for the gap, RRs for 1 and 2 with V(R) = 0.
        assert_eq!(replies, vec![(FrameKind::SREJ, 0, 0), (FrameKind::RR, 1, 0), (FrameKind::RR, 2, 0)]);
        r.handle_receive(SimTime(3), &Frame::information(0, 0, false, msg(0), 48));
        let delivered: Vec<u64> = std::iter::from_fn(|| r.poll_event())
            .filter_map(|e| if let Event::Delivered(m) = e { Some(m.id) } else { None })
            .collect();
        assert_eq!(delivered, vec![0, 1, 2]);
        assert_eq!(r.receive_buffer_bits(), 0);
    }

    #[test]
    fn test_outstanding_cumulative_nr_covers_a_lost_rr() {
        let mut s = entity();
        for i in 0..3 {
            s.handle_submit(SimTime::ZERO, msg(i));
            s.poll_transmit(SimTime::ZERO, &LINE);
        }
        // The RR for frame 0 was lost; the RR for frame 1 says N(R) = 2.
        let mut rr = Frame::supervisory(FrameKind::RR, 2, false, 48);
        rr.ns = 1;
        s.handle_receive(SimTime(1), &rr);
        assert_eq!(s.unacknowledged(), 1);
    }

    #[test]
    fn test_outstanding_timeout_retransmits_the_expired_frame() {
        let mut s = entity();
        s.handle_submit(SimTime::ZERO, msg(0));
        s.poll_transmit(SimTime::ZERO, &LINE);
        let d = s.poll_timeout().unwrap();
        s.handle_timeout(d);
        s.handle_timeout(d);
        assert_eq!(s.counters().timeouts, 1);
        assert_eq!(s.poll_transmit(d, &LINE).unwrap().ns, 0);
        assert_eq!(s.counters().retransmitted_timeout, 1);
    }

    #[test]
    fn test_receiver_counts_duplicates_and_holds_only_undelivered_bits() {
        let mut r = entity();
        r.handle_receive(SimTime(1), &Frame::information(1, 0, false, msg(1), 48));
        r.handle_receive(SimTime(2), &Frame::information(3, 0, false, msg(3), 48));
        assert_eq!(r.receive_buffer_bits(), 2000);
        r.handle_receive(SimTime(3), &Frame::information(1, 0, false, msg(1), 48)); // in the window, held
        r.handle_receive(SimTime(4), &Frame::information(0, 0, false, msg(0), 48)); // delivers 0, 1
        assert_eq!(r.receive_buffer_bits(), 1000, "frame 3 still waits for 2");
        r.handle_receive(SimTime(5), &Frame::information(1, 0, false, msg(1), 48)); // behind V(R) = 2
        // (kind, N(S), N(R)): one SREJ per missing frame, an RR for every frame received.
        let expected = vec![
            (FrameKind::SREJ, 0, 0),
            (FrameKind::RR, 1, 0),
            (FrameKind::SREJ, 0, 2),
            (FrameKind::RR, 3, 0),
            (FrameKind::RR, 1, 0),
            (FrameKind::RR, 0, 2),
            (FrameKind::RR, 1, 2),
        ];
        assert_eq!(replies(&mut r, SimTime(5)), expected);
        let c = r.counters();
        assert_eq!((c.duplicates_discarded, c.rejects_sent, c.frames_sent, c.s_frames_sent), (2, 2, 7, 7));
    }

    #[test]
    fn test_receiver_nak_corrupted_srejs_each_corrupted_copy_of_a_missing_frame() {
        let mut r = entity_nak(true);
        r.handle_receive(SimTime(1), &Frame::information(1, 0, false, msg(1), 48));
        assert_eq!(replies(&mut r, SimTime(1)), vec![(FrameKind::SREJ, 0, 0), (FrameKind::RR, 1, 0)]);
        let corrupted = |ns| Frame::information(ns, 0, false, msg(u64::from(ns)), 48);
        r.handle_receive_in_error(SimTime(2), &corrupted(0));
        r.handle_receive_in_error(SimTime(3), &corrupted(0));
        assert_eq!(replies(&mut r, SimTime(3)), vec![(FrameKind::SREJ, 0, 0); 2], "every corrupted copy of frame 0");
        r.handle_receive_in_error(SimTime(4), &corrupted(1)); // already held
        r.handle_receive_in_error(SimTime(5), &corrupted(4)); // V(R) + W: outside the window
        r.handle_receive_in_error(SimTime(6), &Frame::supervisory(FrameKind::RR, 0, false, 48));
        assert!(replies(&mut r, SimTime(6)).is_empty());
        let c = r.counters();
        assert_eq!((c.frames_in_error_received, c.rejects_sent), (5, 3));
        // Without the textbook assumption a corrupted frame is discarded silently.
        let mut quiet = entity();
        quiet.handle_receive_in_error(SimTime(1), &corrupted(0));
        assert!(replies(&mut quiet, SimTime(1)).is_empty());
        assert_eq!(quiet.counters().frames_in_error_received, 1);
    }

    #[test]
    fn test_outstanding_srej_for_an_acknowledged_frame_is_ignored() {
        let mut s = entity();
        for i in 0..4 {
            s.handle_submit(SimTime::ZERO, msg(i));
            s.poll_transmit(SimTime::ZERO, &LINE);
        }
        let mut rr1 = Frame::supervisory(FrameKind::RR, 0, false, 48);
        rr1.ns = 1;
        s.handle_receive(SimTime(1), &rr1);
        // A stale SREJ(1) (sent before frame 1 arrived) must not resend an acknowledged frame.
        s.handle_receive(SimTime(2), &Frame::supervisory(FrameKind::SREJ, 1, false, 48));
        assert!(!s.wants_transmit());
        assert!(s.poll_transmit(SimTime(2), &LINE).is_none());
        // SREJ(0), then frame 0's RR arrives before the copy was sent: nothing left to send.
        s.handle_receive(SimTime(3), &Frame::supervisory(FrameKind::SREJ, 0, false, 48));
        assert!(s.wants_transmit());
        let mut rr0 = Frame::supervisory(FrameKind::RR, 2, false, 48);
        rr0.ns = 0;
        s.handle_receive(SimTime(4), &rr0);
        assert!(!s.wants_transmit(), "the acknowledgement cancels the pending copy");
        assert!(s.poll_transmit(SimTime(4), &LINE).is_none());
        assert_eq!(s.counters().i_frames_retransmitted, 0);
    }
}
