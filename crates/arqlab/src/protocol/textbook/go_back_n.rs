//! Go-back-N ARQ (and stop-and-wait as its W = 1, M = 2 case).
//!
//! Sender: V(S) next to send, V(A) oldest unacknowledged; at most W frames outstanding.
//! A cumulative acknowledgement RR(N(R)) frees every frame before N(R). A REJ(N(R))
//! or a timeout sends the sender back to V(A): frames are then retransmitted one at a
//! time as the line frees, N(R) decided at each transmission start.
//!
//! Receiver: V(R) next expected. An in-sequence frame is delivered and acknowledged
//! (RR per in-sequence frame, coalesced while the line is busy, or piggybacked on an I
//! frame). A corrupted frame is discarded silently — its header cannot be trusted, so
//! the gap is seen only when the next frame arrives. An out-of-sequence frame is
//! discarded and, if no reject is outstanding for this gap, answered with REJ(V(R));
//! the reject condition clears when the frame it asks for arrives. Any other
//! out-of-sequence frame (a duplicate sent again after a lost acknowledgement, or a
//! later frame of the same gap) is answered with RR(V(R)).
//!
//! Timer T1 runs while frames are outstanding: started when a frame's last bit leaves,
//! restarted when an acknowledgement frees something, stopped when nothing is
//! outstanding. On expiry the sender goes back to V(A).

use super::config::TextbookConfig;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Counters, Event, Frame, FrameKind, Grant, Layer, Modulus, Payload, RetransmitCause, Sdu, Service};
use std::collections::VecDeque;

pub struct GoBackN<P: Payload = Sdu> {
    m: Modulus,
    window: u32,
    overhead_bits: u32,
    ack_bits: u32,
    t1: Duration,
    reject: bool,
    nak_corrupted: bool,

    // Sender. `buf` holds the SDUs acknowledged and not yet reported, then those of
    // the window, then the queue: `buf[acked]` carries N(S) = V(A), the `outstanding`
    // from there are in the window (an SDU joins it by moving the boundary, not
    // itself), and an acknowledged SDU is reported from where it lies (`poll_event`).
    va: u32,
    buf: VecDeque<P>,
    /// SDUs at the front of `buf` acknowledged and not yet reported upward.
    acked: usize,
    outstanding: usize,
    /// Index in `buf` of the next frame to transmit: V(S) = V(A) + next.
    next: usize,
    /// Frames of the window transmitted at least once (a send below it is a retransmission).
    sent: usize,
    cause: RetransmitCause,
    t1_deadline: Option<SimTime>,

    // Receiver.
    vr: u32,
    ack_pending: bool,
    rej_pending: bool,
    rej_condition: bool,

    /// SDUs delivered and not yet reported upward (after the acknowledgements: see
    /// `poll_event`).
    delivered: VecDeque<P>,
    counters: Counters,
}

impl<P: Payload> GoBackN<P> {
    pub fn new(cfg: &TextbookConfig) -> Self {
        GoBackN {
            m: Modulus(cfg.modulus),
            window: cfg.window,
            overhead_bits: cfg.overhead_bits,
            ack_bits: cfg.ack_bits,
            t1: Duration::from_secs_f64(cfg.timeout_s),
            reject: cfg.reject,
            nak_corrupted: cfg.nak_corrupted,
            va: 0,
            buf: VecDeque::new(),
            acked: 0,
            outstanding: 0,
            next: 0,
            sent: 0,
            cause: RetransmitCause::Timeout,
            t1_deadline: None,
            vr: 0,
            ack_pending: false,
            rej_pending: false,
            rej_condition: false,
            delivered: VecDeque::new(),
            counters: Counters::default(),
        }
    }

    /// V(S): the send sequence number of the next frame to transmit.
    pub fn vs(&self) -> u32 {
        self.m.add(self.va, self.next as u32)
    }

    /// V(R): the next in-sequence frame expected.
    pub fn vr(&self) -> u32 {
        self.vr
    }

    /// Frees every frame before `nr` if N(R) is valid (V(A) ≤ N(R) ≤ highest sent + 1).
    #[inline]
    fn acknowledge(&mut self, now: SimTime, nr: u32) {
        let n = self.m.distance(self.va, nr) as usize;
        if n == 0 || n > self.sent {
            return; // nothing new, or an invalid N(R): ignored
        }
        self.free(now, n, nr);
    }

    /// Frees the `n` oldest frames of the window: V(A) becomes `nr`. Their SDUs stay at
    /// the front of `buf` until reported (not copied into a queue of events and out again).
    #[inline]
    fn free(&mut self, now: SimTime, n: usize, nr: u32) {
        self.acked += n;
        self.outstanding -= n;
        self.va = nr;
        self.sent -= n;
        self.next = self.next.saturating_sub(n);
        self.t1_deadline = if self.sent > 0 { Some(now + self.t1) } else { None };
    }

    fn go_back(&mut self, cause: RetransmitCause) {
        self.next = 0;
        self.cause = cause;
    }

    fn receive_i(&mut self, ns: u32, msg: P) {
        if ns == self.vr {
            self.vr = self.m.next(self.vr);
            self.rej_condition = false;
            self.ack_pending = true;
            self.delivered.push_back(msg);
        } else {
            // With W > M/2 a duplicate (behind V(R)) and a frame beyond a gap are not
            // distinguishable by N(S). The first out-of-sequence frame of a gap gets the
            // gap's one REJ; any other is answered with RR(V(R)), which re-acknowledges a
            // duplicate whose acknowledgement was lost (without it a lost RR during a
            // reject condition would deadlock) and is ignored by a sender with nothing new.
            self.counters.out_of_sequence_discarded += 1;
            if self.reject && !self.rej_condition {
                self.rej_condition = true;
                self.rej_pending = true;
            } else {
                self.ack_pending = true;
            }
        }
    }
}

impl<P: Payload> Layer for GoBackN<P> {
    type Sdu = P;
    type Pdu = Frame<P>;
    fn service(&self) -> Service {
        Service::InOrder
    }

    fn handle_submit(&mut self, _now: SimTime, msg: P) {
        self.buf.push_back(msg);
    }

    fn handle_receive(&mut self, now: SimTime, f: &Frame<P>) {
        match f.kind {
            FrameKind::I => {
                self.acknowledge(now, f.nr);
                if let Some(msg) = f.msg.clone() {
                    self.receive_i(f.ns, msg);
                }
            }
            FrameKind::RR | FrameKind::RNR => self.acknowledge(now, f.nr),
            FrameKind::REJ => {
                self.acknowledge(now, f.nr);
                if f.nr == self.va && self.sent > 0 {
                    self.go_back(RetransmitCause::Reject);
                }
            }
            FrameKind::SREJ => {}
        }
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, f: &Frame<P>) {
        self.counters.frames_in_error_received += 1;
        // Textbook assumption: the receiver knows which frame was hit and NAKs the
        // expected one every time it is corrupted (stop-and-wait included).
        if self.nak_corrupted && f.kind == FrameKind::I && f.ns == self.vr {
            self.rej_condition = true;
            self.rej_pending = true;
        }
    }

    fn handle_timeout(&mut self, now: SimTime) {
        if let Some(d) = self.t1_deadline {
            if d <= now {
                self.t1_deadline = None;
                self.counters.timeouts += 1;
                if self.sent > 0 {
                    self.go_back(RetransmitCause::Timeout);
                }
            }
        }
    }

    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<P>> {
        Frame::built_by(|slot| self.poll_transmit_into(now, grant, slot))
    }

    // Inlined into the runner: the frame is built in the lane's slot it is sent from
    // (no copies of a returned frame).
    #[inline(always)]
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut Frame<P>) -> bool {
        if self.rej_pending {
            self.rej_pending = false;
            self.ack_pending = false;
            self.counters.frames_sent += 1;
            self.counters.s_frames_sent += 1;
            self.counters.rejects_sent += 1;
            slot.set_supervisory(FrameKind::REJ, self.vr, false, self.ack_bits);
            return true;
        }
        if self.next == self.outstanding && self.outstanding < self.window as usize && self.buf.len() > self.acked + self.outstanding {
            self.outstanding += 1;
        }
        if self.next < self.outstanding {
            let msg = self.buf[self.acked + self.next].clone();
            let ns = self.vs();
            if self.next < self.sent {
                self.counters.count_retransmission(self.cause);
            } else {
                self.sent += 1;
            }
            self.next += 1;
            self.ack_pending = false;
            self.counters.frames_sent += 1;
            self.counters.i_frames_sent += 1;
            slot.set_information(ns, self.vr, false, msg, self.overhead_bits);
            // T1 starts when the last bit has left; a running T1 is not restarted by sends.
            if self.t1_deadline.is_none() {
                self.t1_deadline = Some(now + grant.transmission(slot.bits) + self.t1);
            }
            return true;
        }
        if self.ack_pending {
            self.ack_pending = false;
            self.counters.frames_sent += 1;
            self.counters.s_frames_sent += 1;
            slot.set_supervisory(FrameKind::RR, self.vr, false, self.ack_bits);
            return true;
        }
        false
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.t1_deadline
    }

    /// Acknowledgements first, then deliveries. One input reports them in that order
    /// (an I frame's N(R) is taken before its information field), so a caller that
    /// drains the events after each input, as the runner and `Stacked` do, sees them
    /// exactly as they happened.
    #[inline]
    fn poll_event(&mut self) -> Option<Event<P>> {
        if self.acked > 0 {
            self.acked -= 1;
            return self.buf.pop_front().map(Event::Acknowledged);
        }
        self.delivered.pop_front().map(Event::Delivered)
    }

    fn backlog(&self) -> usize {
        self.buf.len() - self.acked - self.outstanding
    }

    fn unacknowledged(&self) -> usize {
        self.buf.len() - self.acked
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn wants_transmit(&self) -> bool {
        self.rej_pending
            || self.ack_pending
            || self.next < self.outstanding
            || (self.buf.len() > self.acked + self.outstanding && self.outstanding < self.window as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(window: u32, modulus: u32) -> TextbookConfig {
        TextbookConfig { window, modulus, overhead_bits: 48, ack_bits: 48, timeout_s: 1.0, reject: true, nak_corrupted: false }
    }
    const LINE: Grant = Grant::line(48_000.0);

    fn msg(id: u64) -> Sdu {
        Sdu { id, bits: 1000, flow: 0, born: SimTime::ZERO }
    }

    fn sender_with(n: u64, window: u32) -> GoBackN {
        let mut s = GoBackN::new(&cfg(window, 8));
        for i in 0..n {
            s.handle_submit(SimTime::ZERO, msg(i));
        }
        s
    }

    fn acked(e: &mut GoBackN) -> Vec<u64> {
        let mut out = vec![];
        while let Some(ev) = e.poll_event() {
            if let Event::Acknowledged(m) = ev {
                out.push(m.id);
            }
        }
        out
    }

    #[test]
    fn test_idle_submit_sends_up_to_the_window() {
        let mut s = sender_with(10, 7);
        let ns: Vec<u32> = (0..7).map(|_| s.poll_transmit(SimTime::ZERO, &LINE).unwrap().ns).collect();
        assert_eq!(ns, vec![0, 1, 2, 3, 4, 5, 6]);
        assert!(s.poll_transmit(SimTime::ZERO, &LINE).is_none(), "window of 7 is full");
        // The runner's wake-up hint is exact: a full window with a backlog wants nothing.
        assert!(!s.wants_transmit());
        assert_eq!(s.poll_timeout(), Some(SimTime(21_833_333_333) + Duration::from_secs_f64(1.0)));
    }

    #[test]
    fn test_window_full_rr_frees_and_resumes() {
        let mut s = sender_with(10, 7);
        for _ in 0..7 {
            s.poll_transmit(SimTime::ZERO, &LINE);
        }
        s.handle_receive(SimTime(5), &Frame::supervisory(FrameKind::RR, 3, false, 48));
        assert_eq!(acked(&mut s), vec![0, 1, 2]);
        assert_eq!(s.poll_transmit(SimTime(5), &LINE).unwrap().ns, 7);
        assert_eq!(s.poll_transmit(SimTime(5), &LINE).unwrap().ns, 0, "sequence numbers wrap modulo 8");
        assert_eq!(s.poll_transmit(SimTime(5), &LINE).unwrap().ns, 1);
        assert!(s.poll_transmit(SimTime(5), &LINE).is_none());
    }

    #[test]
    fn test_outstanding_rej_goes_back_to_nr() {
        let mut s = sender_with(10, 7);
        for _ in 0..5 {
            s.poll_transmit(SimTime::ZERO, &LINE);
        }
        s.handle_receive(SimTime(9), &Frame::supervisory(FrameKind::REJ, 2, false, 48));
        assert_eq!(acked(&mut s), vec![0, 1]);
        let f = s.poll_transmit(SimTime(9), &LINE).unwrap();
        assert_eq!((f.ns, f.msg.unwrap().id), (2, 2));
        assert_eq!(s.counters().retransmitted_reject, 1);
        assert_eq!(s.poll_transmit(SimTime(9), &LINE).unwrap().ns, 3);
        assert_eq!(s.poll_transmit(SimTime(9), &LINE).unwrap().ns, 4);
        assert_eq!(s.poll_transmit(SimTime(9), &LINE).unwrap().ns, 5, "new frames after the go-back");
        assert_eq!(s.counters().i_frames_retransmitted, 3);
        // 5 first copies + 3 copies again + frame 5: every I frame counts as sent.
        let c = s.counters();
        assert_eq!((c.frames_sent, c.i_frames_sent, c.s_frames_sent), (9, 9, 0));
    }

    #[test]
    fn test_outstanding_timeout_goes_back_and_is_idempotent() {
        let mut s = sender_with(3, 7);
        for _ in 0..3 {
            s.poll_transmit(SimTime::ZERO, &LINE);
        }
        let d = s.poll_timeout().unwrap();
        s.handle_timeout(SimTime(d.0 - 1));
        assert_eq!(s.counters().timeouts, 0, "early wake-up is harmless");
        s.handle_timeout(d);
        s.handle_timeout(d);
        assert_eq!(s.counters().timeouts, 1);
        assert_eq!(s.poll_transmit(d, &LINE).unwrap().ns, 0);
        assert_eq!(s.counters().retransmitted_timeout, 1);
    }

    #[test]
    fn test_receiver_out_of_sequence_sends_one_rej_per_gap() {
        let mut r = GoBackN::new(&cfg(7, 8));
        r.handle_receive(SimTime(1), &Frame::information(0, 0, false, msg(0), 48));
        assert_eq!(r.poll_transmit(SimTime(1), &LINE).unwrap().kind, FrameKind::RR);
        // Frame 1 lost; 2 and 3 arrive.
        r.handle_receive(SimTime(2), &Frame::information(2, 0, false, msg(2), 48));
        r.handle_receive(SimTime(3), &Frame::information(3, 0, false, msg(3), 48));
        let f = r.poll_transmit(SimTime(3), &LINE).unwrap();
        assert_eq!((f.kind, f.nr), (FrameKind::REJ, 1));
        assert!(r.poll_transmit(SimTime(3), &LINE).is_none(), "one REJ per gap; it carries N(R) = V(R)");
        r.handle_receive(SimTime(4), &Frame::information(4, 0, false, msg(4), 48));
        assert_eq!(r.poll_transmit(SimTime(4), &LINE).unwrap().kind, FrameKind::RR);
        assert_eq!(r.counters().out_of_sequence_discarded, 3);
        // The requested frame clears the condition; a later gap gets its own REJ.
        r.handle_receive(SimTime(5), &Frame::information(1, 0, false, msg(1), 48));
        r.handle_receive(SimTime(6), &Frame::information(3, 0, false, msg(3), 48));
        let f = r.poll_transmit(SimTime(6), &LINE).unwrap();
        assert_eq!((f.kind, f.nr), (FrameKind::REJ, 2));
        // Sent: RR, REJ, RR, REJ (frame 1's RR was never polled for: the REJ went first).
        let c = r.counters();
        assert_eq!((c.frames_sent, c.s_frames_sent, c.rejects_sent, c.i_frames_sent), (4, 4, 2, 0));
    }

    #[test]
    fn test_receiver_vr_advances_only_on_the_in_sequence_frame() {
        let mut r = GoBackN::new(&cfg(1, 2)); // stop-and-wait: V(R) alternates 0, 1, 0
        assert_eq!(r.vr(), 0);
        r.handle_receive(SimTime(1), &Frame::information(0, 0, false, msg(0), 48));
        assert_eq!(r.vr(), 1);
        r.handle_receive(SimTime(2), &Frame::information(0, 0, false, msg(0), 48));
        assert_eq!(r.vr(), 1, "a duplicate leaves V(R)");
        r.handle_receive(SimTime(3), &Frame::information(1, 0, false, msg(1), 48));
        assert_eq!(r.vr(), 0, "V(R) wraps modulo 2");
    }

    #[test]
    fn test_receiver_duplicate_is_acknowledged_again() {
        let mut r = GoBackN::new(&cfg(7, 8));
        r.handle_receive(SimTime(1), &Frame::information(0, 0, false, msg(0), 48));
        r.poll_transmit(SimTime(1), &LINE);
        r.handle_receive(SimTime(2), &Frame::information(0, 0, false, msg(0), 48));
        // Out of sequence with no reject condition: REJ(V(R)), which acknowledges frame 0
        // again; a further copy under the reject condition gets RR(V(R)).
        let f = r.poll_transmit(SimTime(2), &LINE).unwrap();
        assert_eq!((f.kind, f.nr), (FrameKind::REJ, 1));
        r.handle_receive(SimTime(3), &Frame::information(0, 0, false, msg(0), 48));
        let f = r.poll_transmit(SimTime(3), &LINE).unwrap();
        assert_eq!((f.kind, f.nr), (FrameKind::RR, 1));
        let mut delivered = 0;
        while let Some(e) = r.poll_event() {
            delivered += matches!(e, Event::Delivered(_)) as u32;
        }
        assert_eq!(delivered, 1);
    }

    #[test]
    fn test_receiver_nak_corrupted_rejects_every_corrupted_copy_of_the_expected_frame() {
        let mut c = cfg(7, 8);
        c.nak_corrupted = true;
        let mut r = GoBackN::new(&c);
        let f1 = Frame::information(0, 0, false, msg(0), 48);
        r.handle_receive_in_error(SimTime(1), &f1);
        let f = r.poll_transmit(SimTime(1), &LINE).unwrap();
        assert_eq!((f.kind, f.nr), (FrameKind::REJ, 0));
        r.handle_receive_in_error(SimTime(2), &f1);
        assert_eq!(r.poll_transmit(SimTime(2), &LINE).unwrap().kind, FrameKind::REJ, "again for the retransmission");
        // A corrupted frame beyond the expected one is left to the go-back.
        r.handle_receive_in_error(SimTime(3), &Frame::information(1, 0, false, msg(1), 48));
        assert!(r.poll_transmit(SimTime(3), &LINE).is_none());
        let c = r.counters();
        assert_eq!((c.frames_in_error_received, c.rejects_sent, c.s_frames_sent, c.frames_sent), (3, 2, 2, 2));
    }

    /// An I frame whose N(R) frees frames: the acknowledgements are reported before the
    /// frame's own delivery (the order they happen in), and SDUs freed but not yet
    /// reported count neither as unacknowledged nor as backlog, nor shift V(S).
    #[test]
    fn test_piggybacked_nr_reports_acknowledgements_before_the_delivery() {
        let mut s = sender_with(5, 7);
        for _ in 0..3 {
            s.poll_transmit(SimTime::ZERO, &LINE);
        }
        s.handle_receive(SimTime(4), &Frame::information(0, 2, false, msg(10), 48));
        assert_eq!((s.unacknowledged(), s.backlog()), (3, 2), "frames 0 and 1 freed, 2 outstanding, 3 and 4 queued");
        let f = s.poll_transmit(SimTime(4), &LINE).unwrap();
        assert_eq!((f.ns, f.nr, f.msg.unwrap().id), (3, 1, 3), "V(S) = 3 with the freed SDUs still unreported");
        let events: Vec<(char, u64)> = std::iter::from_fn(|| s.poll_event())
            .map(|e| match e {
                Event::Acknowledged(m) => ('A', m.id),
                Event::Delivered(m) => ('D', m.id),
            })
            .collect();
        assert_eq!(events, vec![('A', 0), ('A', 1), ('D', 10)]);
        assert_eq!((s.unacknowledged(), s.backlog()), (3, 1));
    }

    #[test]
    fn test_invalid_nr_is_ignored() {
        let mut s = sender_with(3, 7);
        s.poll_transmit(SimTime::ZERO, &LINE);
        s.handle_receive(SimTime(1), &Frame::supervisory(FrameKind::RR, 5, false, 48));
        assert!(acked(&mut s).is_empty());
        assert_eq!(s.unacknowledged(), 3);
    }

    #[test]
    fn test_rej_with_invalid_nr_does_not_go_back() {
        let mut s = sender_with(10, 7);
        for _ in 0..3 {
            s.poll_transmit(SimTime::ZERO, &LINE);
        }
        // V(A) = 0, V(S) = 3: N(R) = 5 acknowledges frames never sent; the REJ is ignored.
        s.handle_receive(SimTime(1), &Frame::supervisory(FrameKind::REJ, 5, false, 48));
        assert!(acked(&mut s).is_empty());
        assert_eq!(s.poll_transmit(SimTime(1), &LINE).unwrap().ns, 3, "new frame, no go-back");
        assert_eq!(s.counters().i_frames_retransmitted, 0);
    }
}
