//! The send side of an HDLC station: which frame goes next and its P/F bit, V(S) and
//! V(A), acknowledgement by N(R), go-back and checkpoint retransmission, and the timers
//! a sent frame starts. Split from `station.rs` (the state and the `Layer` interface).

use super::config::{Mode, Poll, T1Action, TimerRecovery};
use super::station::{HdlcStation, Role, BUSY_REPORT, F_OWED, POLLED, REJ_OWED, SEND_P};
use crate::engine::{Duration, SimTime};
use crate::protocol::{Frame, FrameKind, Grant, Payload, RetransmitCause};

/// Whether the P/F bit of a chosen frame is already decided.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Pf {
    /// A poll or an F response: the bit is 1.
    Set,
    /// Decided by the mode's rule after the frame is chosen.
    Rule,
}

impl<P: Payload> HdlcStation<P> {
    /// Section 3.1.3: the NRM primary stops acknowledging while its window is full, so a
    /// secondary whose REJ recovery failed reaches its own limit, sets F and gets
    /// checkpointed sooner.
    pub(super) fn withholding(&self) -> bool {
        self.withhold_ack && self.sent >= self.k
    }

    /// True if an I frame may start now (`with_queue`: counting new messages waiting).
    /// A busy peer still accepts the frame it expects next, N(S) = V(A), so recovery of
    /// that frame goes on under RNR; anything else waits.
    pub(super) fn can_send_i(&self, with_queue: bool) -> bool {
        if self.peer_busy {
            return self.next == 0 && self.sent > 0;
        }
        if self.in_timer_recovery() {
            return self.next < self.sent;
        }
        self.next < self.taken || (self.taken < self.k && (!with_queue || self.sdus.len() > self.acked + self.taken))
    }

    /// `timer_recovery = "lapb"`: from T1's expiry until the F = 1 response to the poll
    /// it caused, no new I frame goes (X.25 §2.4.5.9).
    pub(super) fn in_timer_recovery(&self) -> bool {
        self.timer_recovery == TimerRecovery::Lapb
            && self.role != Role::Secondary
            && (self.owes(SEND_P) || (self.p_outstanding && self.p_for_timeout))
    }

    /// The first single-frame retransmission that may go now. Requests for frames
    /// acknowledged meanwhile are void; under RNR only the frame at V(A) may go, the
    /// others wait for the busy condition to clear (each SREJ is sent only once).
    pub(super) fn single_ready(&self) -> Option<usize> {
        // (Almost always empty: skip building the iterator.)
        if self.single.is_empty() {
            return None;
        }
        self.single.iter().position(|&(abs, _)| {
            abs >= self.va_abs
                && abs < self.va_abs + self.sent as u64
                && (!self.peer_busy || abs == self.va_abs)
        })
    }

    /// RR, or RNR while busy, or REJ while one is due: the status a supervisory frame
    /// reports.
    pub(super) fn status_kind(&self) -> FrameKind {
        if self.own_busy {
            FrameKind::RNR
        } else if self.owes(REJ_OWED) {
            FrameKind::REJ
        } else {
            FrameKind::RR
        }
    }

    pub(super) fn supervisory(&self, kind: FrameKind, nr: u32, command: bool) -> Frame<P> {
        Frame {
            kind,
            ns: 0,
            nr,
            pf: false,
            command,
            bits: self.s_frame_bits,
            msg: None,
        }
    }

    /// Commands come from primaries; a combined station's I frames and polls are commands,
    /// its acknowledgements and rejects responses.
    pub(super) fn s_command(&self) -> bool {
        self.role == Role::Primary
    }

    pub(super) fn go_back(&mut self, cause: RetransmitCause) {
        if self.sent > 0 {
            self.next = 0;
            self.cause = cause;
            if cause != RetransmitCause::Reject {
                self.recovery_from = Some(self.va_abs);
            }
        }
    }

    /// Frees every I frame before N(R). Returns false (and counts) if N(R) is not in
    /// [V(A), V(A) + sent].
    pub(super) fn acknowledge(&mut self, now: SimTime, nr: u32) -> bool {
        let n = self.m.distance(self.va, nr) as usize;
        if nr >= self.m.0 || n > self.sent {
            self.invalid_nr += 1;
            return false;
        }
        if n > 0 {
            // Reported by `poll_event` from where they are (no copy into `events`).
            if self.report_acknowledged {
                self.acked += n;
            } else {
                self.sdus.drain(..n);
            }
            self.taken -= n;
            self.va = nr;
            self.va_abs += n as u64;
            let va_abs = self.va_abs;
            // (Most acknowledgements find no single retransmission queued.)
            if !self.single.is_empty() {
                self.single.retain(|&(abs, _)| abs >= va_abs);
            }
            self.sent -= n;
            self.next = self.next.saturating_sub(n);
            if self.async_timer() {
                self.t1_deadline = Some(now + self.t1);
            }
        }
        true
    }

    /// Checkpoint retransmission: unacknowledged frames sent up to the last P/F frame
    /// (absolute `mark`) are sent again from V(A), unless a REJ since then already did.
    pub(super) fn checkpoint(&mut self, mark: u64, cause: RetransmitCause) {
        if self.sent == 0 || self.va_abs >= mark {
            return;
        }
        if self
            .rej_cover
            .is_some_and(|(lo, hi)| lo <= self.va_abs && self.va_abs < hi)
        {
            return;
        }
        self.go_back(cause);
    }

    /// Picks the next frame without its P/F bit, advancing the send state, and writes
    /// it into `slot` (a medium's slot: the frame is built where it is sent from).
    /// `None`: nothing to send (`slot` may have been written and is to be ignored).
    pub(super) fn choose_into(&mut self, slot: &mut Frame<P>) -> Option<Pf> {
        // The common case (no F owed, no poll, reject, busy report or single
        // retransmission pending) skips the status frames in one test.
        if self.status_may_go_first() {
            if let Some(pf) = self.choose_status_into(slot) {
                return Some(pf);
            }
        }
        self.choose_i_or_ack_into(slot)
    }

    /// False only if none of `choose_status_into`'s frames can be chosen: each of its
    /// conditions loosened to one field test.
    #[inline(always)]
    fn status_may_go_first(&self) -> bool {
        self.owed & (F_OWED | SEND_P | REJ_OWED | BUSY_REPORT) != 0
            || self.poll == Poll::Supervisory
            || !self.srej_queue.is_empty()
            || !self.single.is_empty()
    }

    /// The frames that go ahead of new I frames: an F response (ABM), a poll (timer
    /// recovery, `poll = "supervisory"`), REJ, SREJ, a busy report, a single-frame
    /// retransmission. `None`: none of these.
    #[inline(never)]
    fn choose_status_into(&mut self, slot: &mut Frame<P>) -> Option<Pf> {
        let withholding = self.withholding();
        let command = self.s_command();
        // ABM: a P is answered at once by a supervisory response with F = 1.
        if self.role == Role::Combined && self.owes(F_OWED) {
            slot.set_supervisory(self.status_kind(), self.vr, false, self.s_frame_bits);
            return Some(Pf::Set);
        }
        // Timer recovery: query the peer's status with a supervisory command, P = 1.
        if self.owes(SEND_P)
            && self.role != Role::Secondary
            && !(self.t1_action == T1Action::GoBack
                && self.next < self.sent
                && self.can_send_i(true))
        {
            self.set_s_frame(slot, self.status_kind(), true);
            return Some(Pf::Set);
        }
        // `poll = "supervisory"`: the poll goes ahead of the I frames on a short command.
        if self.poll == Poll::Supervisory && self.role == Role::Primary && !self.p_outstanding {
            self.set_s_frame(slot, self.status_kind(), true);
            return Some(Pf::Set);
        }
        if self.owes(REJ_OWED) && !withholding {
            self.set_s_frame(slot, FrameKind::REJ, command);
            return Some(Pf::Rule);
        }
        while let Some(seq) = self.srej_queue.pop_front() {
            let d = self.m.distance(self.vr, seq) as usize;
            if d < self.k && self.held[d].is_none() {
                *slot = self.supervisory(FrameKind::SREJ, seq, command);
                return Some(Pf::Rule);
            }
        }
        if self.owes(BUSY_REPORT) {
            let kind = if self.own_busy {
                FrameKind::RNR
            } else {
                FrameKind::RR
            };
            self.set_s_frame(slot, kind, command);
            return Some(Pf::Rule);
        }
        if let Some(pos) = self.single_ready() {
            if let Some((abs, cause)) = self.single.remove(pos) {
                let idx = (abs - self.va_abs) as usize;
                if let Some(msg) = self.sdus.get(self.acked + idx).cloned() {
                    self.counters.count_retransmission(cause);
                    self.set_i_frame(slot, idx, msg);
                    return Some(Pf::Rule);
                }
            }
        }
        None
    }

    /// An I frame (new or a go-back retransmission), else a poll, an acknowledgement or
    /// a secondary's F: what `choose_into` picks when no status frame goes first.
    #[inline(always)]
    fn choose_i_or_ack_into(&mut self, slot: &mut Frame<P>) -> Option<Pf> {
        if self.can_send_i(true) {
            if self.next == self.taken {
                if self.sdus.len() == self.acked + self.taken {
                    return None;
                }
                self.taken += 1;
            }
            let idx = self.next;
            let msg = self.sdus[self.acked + idx].clone();
            if idx < self.sent {
                self.counters.count_retransmission(self.cause);
            } else {
                self.sent += 1;
            }
            self.next += 1;
            self.set_i_frame(slot, idx, msg);
            return Some(Pf::Rule);
        }
        // "Poll as often as possible": a supervisory poll when no I frame can carry it.
        if self.role != Role::Secondary
            && !self.p_outstanding
            && matches!(self.poll, Poll::Asap | Poll::Idle | Poll::Supervisory)
        {
            self.set_s_frame(slot, self.status_kind(), true);
            return Some(Pf::Set);
        }
        let t2_ok = self.t2 == Duration::ZERO || self.t2_expired;
        let nrm_secondary = self.mode == Mode::Nrm && self.role == Role::Secondary;
        let command = self.s_command();
        if self.ack_pending && !self.withholding() && !nrm_secondary && t2_ok {
            let kind = if self.own_busy {
                FrameKind::RNR
            } else {
                FrameKind::RR
            };
            self.set_s_frame(slot, kind, command);
            return Some(Pf::Rule);
        }
        // A secondary owing F with nothing else to send ends its response with an S frame.
        if (nrm_secondary && self.owes(POLLED)) || (self.role == Role::Secondary && self.owes(F_OWED)) {
            self.set_s_frame(slot, self.status_kind(), false);
            return Some(Pf::Set);
        }
        None
    }

    /// `slot` := an S frame reporting V(R) (`supervisory`), in place.
    #[inline(always)]
    fn set_s_frame(&self, slot: &mut Frame<P>, kind: FrameKind, command: bool) {
        slot.set_supervisory(kind, self.vr, false, self.s_frame_bits);
        slot.command = command;
    }

    /// `slot` := the I frame at index `idx` of the window carrying `msg` (a command
    /// unless a secondary sends it), in place.
    #[inline(always)]
    fn set_i_frame(&self, slot: &mut Frame<P>, idx: usize, msg: P) {
        let ns = self.m.add(self.va, idx as u32);
        slot.set_information(ns, self.vr, false, msg, self.overhead_bits);
        slot.command = self.role != Role::Secondary;
    }

    /// NRM secondary: is this the last frame of the response? An I frame ends it when
    /// the window is then full (Section 3.1.2); any frame ends it when nothing else
    /// could follow. With more messages merely possible later, the response is ended by
    /// an RR with F = 1 once the line is idle and nothing is left.
    pub(super) fn response_ends_with(&self, f: &Frame<P>) -> bool {
        let more_s = (self.owes(REJ_OWED) && !self.withholding())
            || !self.srej_queue.is_empty()
            || self.owes(BUSY_REPORT)
            || self.single_ready().is_some();
        !more_s && !self.can_send_i(f.kind != FrameKind::I)
    }

    pub(super) fn decide_pf(&self, f: &Frame<P>, pf: Pf) -> bool {
        if pf == Pf::Set {
            return true;
        }
        match self.role {
            Role::Primary | Role::Combined if f.command => {
                self.owes(SEND_P)
                    || (!self.p_outstanding
                        && match self.poll {
                            Poll::Asap => true,
                            Poll::Idle => f.kind != FrameKind::I && !self.can_send_i(true),
                            Poll::Timeout | Poll::Supervisory => false,
                        })
            }
            Role::Secondary if self.mode == Mode::Nrm => self.response_ends_with(f),
            Role::Secondary => self.owes(F_OWED),
            _ => false,
        }
    }

    /// Bookkeeping once a frame starts transmission.
    pub(super) fn sent_frame(&mut self, now: SimTime, grant: &Grant, f: &Frame<P>) {
        // The frame's end (a float conversion), only where a timer starts from it.
        let end = || now + grant.transmission(f.bits);
        self.counters.frames_sent += 1;
        match f.kind {
            FrameKind::I => self.counters.i_frames_sent += 1,
            FrameKind::REJ | FrameKind::SREJ => {
                self.counters.s_frames_sent += 1;
                self.counters.rejects_sent += 1;
            }
            _ => self.counters.s_frames_sent += 1,
        }
        if f.kind != FrameKind::SREJ && f.nr == self.vr {
            self.ack_pending = false;
            self.unacked_received = 0;
            self.t2_deadline = None;
            self.t2_expired = false;
        }
        let vs_abs = self.va_abs + self.next as u64;
        if f.pf && f.command {
            // A re-poll on timer expiry while a P is still outstanding (A1.2(2): only
            // in time-out recovery) keeps the checkpoint mark of the first P: the F that
            // comes back may answer that one, and frames sent since are in flight, not
            // lost (X.25 §2.4.5.9: x = V(S) when timer recovery began).
            if !self.p_outstanding {
                self.p_mark = vs_abs;
                self.rej_cover = None;
            }
            self.p_outstanding = true;
            self.p_for_timeout = self.owes(SEND_P);
            self.set_owed(SEND_P, false);
            if self.async_timer() {
                self.t1_deadline.get_or_insert_with(|| end() + self.t1);
            } else {
                // Annex B: the primary's timer (re)starts when a P is sent.
                self.t1_deadline = Some(end() + self.t1);
            }
        }
        if f.pf && !f.command {
            self.set_owed(F_OWED, false);
            self.f_mark = vs_abs;
            // A secondary checkpoints on the next P, against this F. A combined
            // station's checkpoint is against its own P, so its F leaves the cover of
            // that cycle alone (clearing it here made a REJ retransmission repeat when
            // the F for our P came back: duplicates, then a REJ cycle).
            if self.role == Role::Secondary {
                self.rej_cover = None;
            }
            if self.mode == Mode::Nrm {
                self.set_owed(POLLED, false);
            }
        }
        if f.kind == FrameKind::I && self.async_timer() {
            self.t1_deadline.get_or_insert_with(|| end() + self.t1);
        }
    }
}
