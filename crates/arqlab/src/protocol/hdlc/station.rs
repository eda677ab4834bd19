//! One HDLC station in the information-transfer phase (link already initialized).
//!
//! Send side: V(S) next to send, V(A) oldest unacknowledged, at most k I frames
//! outstanding. Frames are numbered absolutely inside the station (`va_abs` = frames
//! acknowledged so far) so checkpoint marks survive the modulus wrap.
//!
//! Receive side: V(R) next expected. An in-sequence I frame is delivered; an
//! out-of-sequence one is discarded (REJ) or held (SREJ), but its N(R) and P/F are acted
//! on. A frame with a bad FCS is only counted (Appendix A1.3).

use super::config::{HdlcConfig, Mode, Poll, Reject, SecondaryT1Action, T1Action, TimerRecovery};
use crate::engine::{Duration, SimTime};
use crate::protocol::{
    Counters, Event, Frame, FrameKind, Grant, Layer, Modulus, Payload, RetransmitCause, Sdu,
    Service, Station,
};
use std::collections::VecDeque;

/// The station's part in its mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// NRM/ARM station A: sends commands, owns the poll.
    Primary,
    /// NRM/ARM station B: sends responses.
    Secondary,
    /// ABM: commands and responses.
    Combined,
}

/// Whether the P/F bit of a chosen frame is already decided.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pf {
    /// A poll or an F response: the bit is 1.
    Set,
    /// Decided by the mode's rule after the frame is chosen.
    Rule,
}

/// An HDLC primary, secondary or combined station.
pub struct HdlcStation<P: Payload = Sdu> {
    mode: Mode,
    role: Role,
    m: Modulus,
    k: usize,
    overhead_bits: u32,
    s_frame_bits: u32,
    t1: Duration,
    t2: Duration,
    reject: Reject,
    buffer_limit: usize,
    poll: Poll,
    t1_action: T1Action,
    withhold_ack: bool,
    secondary_t1_action: SecondaryT1Action,
    timer_recovery: TimerRecovery,

    // Send side. `unacked[0]` carries N(S) = V(A).
    va: u32,
    va_abs: u64,
    unacked: VecDeque<P>,
    /// Index in `unacked` of the next frame to send: V(S) = V(A) + next.
    next: usize,
    /// Frames of `unacked` sent at least once (a send below it is a retransmission).
    sent: usize,
    cause: RetransmitCause,
    queue: VecDeque<P>,
    /// Single-frame retransmissions (SREJ, ARM secondary timer): absolute numbers.
    single: VecDeque<(u64, RetransmitCause)>,
    /// The peer sent RNR.
    peer_busy: bool,

    // P/F.
    /// A P was sent and its F not yet received (primary, combined).
    p_outstanding: bool,
    /// The outstanding P was sent on timer expiry: its checkpoint counts as timeout.
    p_for_timeout: bool,
    /// Timer recovery asks for a P on the next command.
    send_p: bool,
    /// Absolute V(S) when the last P (primary, combined) was sent.
    p_mark: u64,
    /// Absolute V(S) when the last F (secondary) was sent.
    f_mark: u64,
    /// Frames a REJ sent back for since our last P/F: a checkpoint does not repeat them.
    rej_cover: Option<(u64, u64)>,
    /// Absolute number of the frame the last checkpoint or time-out retransmission
    /// started from: a REJ asking for the same frame is inhibited (the converse of
    /// `rej_cover`, ISO 4335 REJ recovery).
    recovery_from: Option<u64>,
    /// A P was received and the F response is owed (combined, ARM secondary).
    f_pending: bool,
    /// NRM secondary: polled and the response not yet ended by F.
    polled: bool,

    // Receive side.
    vr: u32,
    ack_pending: bool,
    /// In-sequence I frames received since our last N(R) went out.
    unacked_received: usize,
    rej_condition: bool,
    rej_pending: bool,
    /// SREJ: frames held beyond V(R), by offset from V(R) (offset 0 is always empty).
    held: VecDeque<Option<P>>,
    /// Frames and information bits in `held`, kept as running totals so the per-event
    /// buffer statistics and the RNR check do not rescan the window.
    held_frames: usize,
    held_bits: u64,
    /// SREJ: offsets already requested (one SREJ per missing frame).
    srej_sent: VecDeque<bool>,
    srej_queue: VecDeque<u32>,
    own_busy: bool,
    busy_report_pending: bool,

    t1_deadline: Option<SimTime>,
    t2_deadline: Option<SimTime>,
    t2_expired: bool,

    events: VecDeque<Event<P>>,
    counters: Counters,
    invalid_nr: u64,
}

impl<P: Payload> HdlcStation<P> {
    pub fn new(cfg: &HdlcConfig, station: Station) -> Self {
        let role = match (cfg.mode, station) {
            (Mode::Abm, _) => Role::Combined,
            (_, Station::A) => Role::Primary,
            (_, Station::B) => Role::Secondary,
        };
        let modulus = cfg.modulus.max(2);
        let k = (cfg.window.clamp(1, modulus - 1)) as usize;
        let held = if cfg.reject == Reject::Srej { k } else { 0 };
        HdlcStation {
            mode: cfg.mode,
            role,
            m: Modulus(modulus),
            k,
            overhead_bits: cfg.overhead_bits,
            s_frame_bits: cfg.s_frame_bits.max(1),
            t1: Duration::from_secs_f64(cfg.t1_s).max(Duration(1)),
            t2: Duration::from_secs_f64(cfg.t2_s),
            reject: cfg.reject,
            buffer_limit: cfg.receive_buffer_frames as usize,
            poll: cfg.poll,
            t1_action: cfg.t1_action,
            withhold_ack: cfg.mode == Mode::Nrm
                && role == Role::Primary
                && cfg.withhold_ack_at_window.unwrap_or(true),
            secondary_t1_action: cfg.secondary_t1_action.unwrap_or(SecondaryT1Action::Oldest),
            timer_recovery: cfg.timer_recovery.unwrap_or(TimerRecovery::Continue),
            va: 0,
            va_abs: 0,
            unacked: VecDeque::new(),
            next: 0,
            sent: 0,
            cause: RetransmitCause::Timeout,
            queue: VecDeque::new(),
            single: VecDeque::new(),
            peer_busy: false,
            p_outstanding: false,
            p_for_timeout: false,
            send_p: false,
            p_mark: 0,
            f_mark: 0,
            rej_cover: None,
            recovery_from: None,
            f_pending: false,
            polled: false,
            vr: 0,
            ack_pending: false,
            unacked_received: 0,
            rej_condition: false,
            rej_pending: false,
            held: VecDeque::from(vec![None; held]),
            held_frames: 0,
            held_bits: 0,
            srej_sent: VecDeque::from(vec![false; held]),
            srej_queue: VecDeque::new(),
            own_busy: false,
            busy_report_pending: false,
            t1_deadline: None,
            t2_deadline: None,
            t2_expired: false,
            events: VecDeque::new(),
            counters: Counters::default(),
            invalid_nr: 0,
        }
    }

    pub fn role(&self) -> Role {
        self.role
    }
    /// V(S): the send sequence number of the next I frame.
    pub fn vs(&self) -> u32 {
        self.m.add(self.va, self.next as u32)
    }
    /// V(A): the oldest unacknowledged N(S).
    pub fn va(&self) -> u32 {
        self.va
    }
    /// V(R): the next in-sequence N(S) expected.
    pub fn vr(&self) -> u32 {
        self.vr
    }
    /// I frames sent and not yet acknowledged.
    pub fn outstanding(&self) -> usize {
        self.sent
    }
    /// A P was sent and its F not yet received.
    pub fn p_outstanding(&self) -> bool {
        self.p_outstanding
    }
    /// NRM secondary: polled, and the response not yet ended by F.
    pub fn polled(&self) -> bool {
        self.polled
    }
    /// A REJ was sent for the current gap and the requested frame has not arrived.
    pub fn reject_condition(&self) -> bool {
        self.rej_condition
    }
    /// The station is busy (sent RNR).
    pub fn own_busy(&self) -> bool {
        self.own_busy
    }
    /// The peer is busy (RNR received).
    pub fn peer_busy(&self) -> bool {
        self.peer_busy
    }
    /// Frames received with an N(R) outside [V(A), V(S)]: ignored (a real station would
    /// report FRMR; the information-transfer model has no link reset).
    pub fn invalid_nr_received(&self) -> u64 {
        self.invalid_nr
    }

    /// The paper's ABM timer (Appendix A1.3), also both ARM stations' (Appendix A2):
    /// started by I and P frames, restarted by new acknowledgements. The NRM primary
    /// uses the Annex B timer tied to P/F; the NRM secondary has none.
    fn async_timer(&self) -> bool {
        self.role == Role::Combined || self.mode == Mode::Arm
    }

    /// Section 3.1.3: the NRM primary stops acknowledging while its window is full, so a
    /// secondary whose REJ recovery failed reaches its own limit, sets F and gets
    /// checkpointed sooner.
    fn withholding(&self) -> bool {
        self.withhold_ack && self.sent >= self.k
    }

    /// True if an I frame may start now (`with_queue`: counting new messages waiting).
    /// A busy peer still accepts the frame it expects next, N(S) = V(A), so recovery of
    /// that frame goes on under RNR; anything else waits.
    fn can_send_i(&self, with_queue: bool) -> bool {
        if self.peer_busy {
            return self.next == 0 && self.sent > 0;
        }
        if self.in_timer_recovery() {
            return self.next < self.sent;
        }
        self.next < self.unacked.len()
            || (self.unacked.len() < self.k && (!with_queue || !self.queue.is_empty()))
    }

    /// `timer_recovery = "lapb"`: from T1's expiry until the F = 1 response to the poll
    /// it caused, no new I frame goes (X.25 §2.4.5.9).
    fn in_timer_recovery(&self) -> bool {
        self.timer_recovery == TimerRecovery::Lapb
            && self.role != Role::Secondary
            && (self.send_p || (self.p_outstanding && self.p_for_timeout))
    }

    /// The first single-frame retransmission that may go now. Requests for frames
    /// acknowledged meanwhile are void; under RNR only the frame at V(A) may go, the
    /// others wait for the busy condition to clear (each SREJ is sent only once).
    fn single_ready(&self) -> Option<usize> {
        self.single.iter().position(|&(abs, _)| {
            abs >= self.va_abs
                && abs < self.va_abs + self.sent as u64
                && (!self.peer_busy || abs == self.va_abs)
        })
    }

    /// RR, or RNR while busy, or REJ while one is due: the status a supervisory frame
    /// reports.
    fn status_kind(&self) -> FrameKind {
        if self.own_busy {
            FrameKind::RNR
        } else if self.rej_pending {
            FrameKind::REJ
        } else {
            FrameKind::RR
        }
    }

    fn supervisory(&self, kind: FrameKind, nr: u32, command: bool) -> Frame<P> {
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
    fn s_command(&self) -> bool {
        self.role == Role::Primary
    }

    fn go_back(&mut self, cause: RetransmitCause) {
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
    fn acknowledge(&mut self, now: SimTime, nr: u32) -> bool {
        let n = self.m.distance(self.va, nr) as usize;
        if nr >= self.m.0 || n > self.sent {
            self.invalid_nr += 1;
            return false;
        }
        if n > 0 {
            for _ in 0..n {
                if let Some(msg) = self.unacked.pop_front() {
                    self.events.push_back(Event::Acknowledged(msg));
                }
            }
            self.va = nr;
            self.va_abs += n as u64;
            let va_abs = self.va_abs;
            self.single.retain(|&(abs, _)| abs >= va_abs);
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
    fn checkpoint(&mut self, mark: u64, cause: RetransmitCause) {
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

    fn set_ack_pending(&mut self, now: SimTime) {
        self.ack_pending = true;
        if self.t2 > Duration::ZERO && self.t2_deadline.is_none() && !self.t2_expired {
            self.t2_deadline = Some(now + self.t2);
        }
    }

    fn advance_vr(&mut self) {
        self.vr = self.m.next(self.vr);
        if !self.held.is_empty() {
            if let Some(Some(m)) = self.held.pop_front() {
                self.held_frames -= 1;
                self.held_bits -= m.bits() as u64;
            }
            self.held.push_back(None);
            self.srej_sent.pop_front();
            self.srej_sent.push_back(false);
        }
    }

    fn held_count(&self) -> usize {
        self.held_frames
    }

    fn update_busy(&mut self) {
        let busy = self.buffer_limit > 0 && self.held_count() >= self.buffer_limit;
        if busy != self.own_busy {
            self.own_busy = busy;
            self.busy_report_pending = true;
        }
    }

    /// ARM primary: an out-of-sequence I frame is answered with RR(V(R)). The secondary
    /// cannot poll; when its timer resends a frame whose acknowledgement was lost, this
    /// RR is the only way it can learn the frame arrived (A2). Elsewhere a discarded
    /// frame is not answered, as in Appendix A1; polls resolve these cases.
    fn acks_out_of_sequence(&self) -> bool {
        self.mode == Mode::Arm && self.role == Role::Primary
    }

    fn receive_i(&mut self, now: SimTime, ns: u32, msg: P) {
        if ns == self.vr {
            self.events.push_back(Event::Delivered(msg));
            self.advance_vr();
            // The gap is filled: the reject condition ends, and a REJ still waiting for
            // its turn (an NRM secondary waits for a poll) is void. Sent late it would
            // ask for frames a checkpoint retransmission is already resending.
            self.rej_condition = false;
            self.rej_pending = false;
            while let Some(Some(m)) = self.held.front().copied() {
                self.events.push_back(Event::Delivered(m));
                self.advance_vr();
            }
            self.update_busy();
            self.set_ack_pending(now);
            // k frames unacknowledged: the peer's window is full and nothing more can
            // come for an acknowledgement to wait for; T2 would only stall the link.
            self.unacked_received += 1;
            if self.unacked_received >= self.k {
                self.t2_deadline = None;
                self.t2_expired = true;
            }
            return;
        }
        match self.reject {
            Reject::Rej => {
                // Only one REJ per gap: a failed REJ recovery is left to checkpointing
                // or the timer (Appendix A1.3, REJ Recovery).
                self.counters.out_of_sequence_discarded += 1;
                if !self.rej_condition {
                    self.rej_condition = true;
                    self.rej_pending = true;
                } else if self.acks_out_of_sequence() {
                    self.set_ack_pending(now);
                }
            }
            Reject::None => {
                self.counters.out_of_sequence_discarded += 1;
                if self.acks_out_of_sequence() {
                    self.set_ack_pending(now);
                }
            }
            Reject::Srej => {
                let d = self.m.distance(self.vr, ns) as usize;
                if d >= self.k {
                    // Behind V(R) (k ≤ M/2 makes this unambiguous): our acknowledgement
                    // was lost or late; acknowledge again.
                    self.counters.duplicates_discarded += 1;
                    self.set_ack_pending(now);
                    return;
                }
                if self.held[d].is_some() {
                    self.counters.duplicates_discarded += 1;
                } else if self.buffer_limit > 0 && self.held_count() >= self.buffer_limit {
                    self.counters.out_of_sequence_discarded += 1;
                } else {
                    self.held[d] = Some(msg);
                    self.held_frames += 1;
                    self.held_bits += msg.bits() as u64;
                }
                for j in 0..d {
                    if self.held[j].is_none() && !self.srej_sent[j] {
                        self.srej_sent[j] = true;
                        self.srej_queue.push_back(self.m.add(self.vr, j as u32));
                    }
                }
                self.update_busy();
            }
        }
    }

    /// Picks the next frame without its P/F bit, advancing the send state.
    fn choose(&mut self) -> Option<(Frame<P>, Pf)> {
        let withholding = self.withholding();
        let command = self.s_command();
        // ABM: a P is answered at once by a supervisory response with F = 1.
        if self.role == Role::Combined && self.f_pending {
            return Some((
                self.supervisory(self.status_kind(), self.vr, false),
                Pf::Set,
            ));
        }
        // Timer recovery: query the peer's status with a supervisory command, P = 1.
        if self.send_p
            && self.role != Role::Secondary
            && !(self.t1_action == T1Action::GoBack
                && self.next < self.sent
                && self.can_send_i(true))
        {
            return Some((self.supervisory(self.status_kind(), self.vr, true), Pf::Set));
        }
        // `poll = "supervisory"`: the poll goes ahead of the I frames on a short command.
        if self.poll == Poll::Supervisory && self.role == Role::Primary && !self.p_outstanding {
            return Some((self.supervisory(self.status_kind(), self.vr, true), Pf::Set));
        }
        if self.rej_pending && !withholding {
            return Some((self.supervisory(FrameKind::REJ, self.vr, command), Pf::Rule));
        }
        while let Some(seq) = self.srej_queue.pop_front() {
            let d = self.m.distance(self.vr, seq) as usize;
            if d < self.k && self.held[d].is_none() {
                return Some((self.supervisory(FrameKind::SREJ, seq, command), Pf::Rule));
            }
        }
        if self.busy_report_pending {
            let kind = if self.own_busy {
                FrameKind::RNR
            } else {
                FrameKind::RR
            };
            return Some((self.supervisory(kind, self.vr, command), Pf::Rule));
        }
        if let Some(pos) = self.single_ready() {
            if let Some((abs, cause)) = self.single.remove(pos) {
                let idx = (abs - self.va_abs) as usize;
                if let Some(&msg) = self.unacked.get(idx) {
                    self.counters.count_retransmission(cause);
                    let ns = self.m.add(self.va, idx as u32);
                    let f = Frame::information(ns, self.vr, false, msg, self.overhead_bits);
                    let command = self.role != Role::Secondary;
                    return Some((Frame { command, ..f }, Pf::Rule));
                }
            }
        }
        if self.can_send_i(true) {
            if self.next == self.unacked.len() {
                let msg = self.queue.pop_front()?;
                self.unacked.push_back(msg);
            }
            let idx = self.next;
            let msg = self.unacked[idx];
            if idx < self.sent {
                self.counters.count_retransmission(self.cause);
            } else {
                self.sent += 1;
            }
            self.next += 1;
            let ns = self.m.add(self.va, idx as u32);
            let f = Frame::information(ns, self.vr, false, msg, self.overhead_bits);
            return Some((
                Frame {
                    command: self.role != Role::Secondary,
                    ..f
                },
                Pf::Rule,
            ));
        }
        // "Poll as often as possible": a supervisory poll when no I frame can carry it.
        if self.role != Role::Secondary
            && !self.p_outstanding
            && matches!(self.poll, Poll::Asap | Poll::Idle | Poll::Supervisory)
        {
            return Some((self.supervisory(self.status_kind(), self.vr, true), Pf::Set));
        }
        let t2_ok = self.t2 == Duration::ZERO || self.t2_expired;
        let nrm_secondary = self.mode == Mode::Nrm && self.role == Role::Secondary;
        if self.ack_pending && !withholding && !nrm_secondary && t2_ok {
            let kind = if self.own_busy {
                FrameKind::RNR
            } else {
                FrameKind::RR
            };
            return Some((self.supervisory(kind, self.vr, command), Pf::Rule));
        }
        // A secondary owing F with nothing else to send ends its response with an S frame.
        if (nrm_secondary && self.polled) || (self.role == Role::Secondary && self.f_pending) {
            return Some((
                self.supervisory(self.status_kind(), self.vr, false),
                Pf::Set,
            ));
        }
        None
    }

    /// NRM secondary: is this the last frame of the response? An I frame ends it when
    /// the window is then full (Section 3.1.2); any frame ends it when nothing else
    /// could follow. With more messages merely possible later, the response is ended by
    /// an RR with F = 1 once the line is idle and nothing is left.
    fn response_ends_with(&self, f: &Frame<P>) -> bool {
        let more_s = (self.rej_pending && !self.withholding())
            || !self.srej_queue.is_empty()
            || self.busy_report_pending
            || self.single_ready().is_some();
        !more_s && !self.can_send_i(f.kind != FrameKind::I)
    }

    fn decide_pf(&self, f: &Frame<P>, pf: Pf) -> bool {
        if pf == Pf::Set {
            return true;
        }
        match self.role {
            Role::Primary | Role::Combined if f.command => {
                self.send_p
                    || (!self.p_outstanding
                        && match self.poll {
                            Poll::Asap => true,
                            Poll::Idle => f.kind != FrameKind::I && !self.can_send_i(true),
                            Poll::Timeout | Poll::Supervisory => false,
                        })
            }
            Role::Secondary if self.mode == Mode::Nrm => self.response_ends_with(f),
            Role::Secondary => self.f_pending,
            _ => false,
        }
    }

    /// Bookkeeping once a frame starts transmission.
    fn sent_frame(&mut self, now: SimTime, grant: &Grant, f: &Frame<P>) {
        let end = now + grant.transmission(f.bits);
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
            self.p_for_timeout = self.send_p;
            self.send_p = false;
            if self.async_timer() {
                self.t1_deadline.get_or_insert(end + self.t1);
            } else {
                // Annex B: the primary's timer (re)starts when a P is sent.
                self.t1_deadline = Some(end + self.t1);
            }
        }
        if f.pf && !f.command {
            self.f_pending = false;
            self.f_mark = vs_abs;
            // A secondary checkpoints on the next P, against this F. A combined
            // station's checkpoint is against its own P, so its F leaves the cover of
            // that cycle alone (clearing it here made a REJ retransmission repeat when
            // the F for our P came back: duplicates, then a REJ cycle).
            if self.role == Role::Secondary {
                self.rej_cover = None;
            }
            if self.mode == Mode::Nrm {
                self.polled = false;
            }
        }
        if f.kind == FrameKind::I && self.async_timer() {
            self.t1_deadline.get_or_insert(end + self.t1);
        }
    }
}

impl<P: Payload> Layer for HdlcStation<P> {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = P;
    type Pdu = Frame<P>;
    fn service(&self) -> Service {
        Service::InOrder
    }

    fn handle_submit(&mut self, _now: SimTime, msg: P) {
        self.queue.push_back(msg);
    }

    fn handle_receive(&mut self, now: SimTime, f: &Frame<P>) {
        // P is meaningful only in commands, F only in responses.
        let p_bit = f.pf && f.command && self.role != Role::Primary;
        let f_bit = f.pf && !f.command && self.role != Role::Secondary;
        if self.mode == Mode::Nrm && self.role == Role::Primary {
            // Annex B: stop on F = 1, restart on any error-free frame with F = 0.
            if f_bit {
                self.t1_deadline = None;
            } else if self.t1_deadline.is_some() {
                self.t1_deadline = Some(now + self.t1);
            }
        }
        let answers_p = f_bit && self.p_outstanding;
        if answers_p {
            self.p_outstanding = false;
        }
        let checkpoint_cause = if self.p_for_timeout {
            RetransmitCause::Timeout
        } else {
            RetransmitCause::Checkpoint
        };
        let nr_valid = match f.kind {
            // SREJ's N(R) names the frame wanted and acknowledges nothing.
            FrameKind::SREJ => {
                let idx = self.m.distance(self.va, f.nr) as usize;
                let ok = f.nr < self.m.0 && idx < self.sent;
                if !ok {
                    self.invalid_nr += 1;
                }
                ok
            }
            _ => self.acknowledge(now, f.nr),
        };
        if nr_valid {
            match f.kind {
                FrameKind::RNR => self.peer_busy = true,
                FrameKind::RR => self.peer_busy = false,
                FrameKind::REJ => {
                    self.peer_busy = false;
                    if answers_p && (self.poll != Poll::Supervisory || self.va_abs < self.p_mark) {
                        // A REJ with F = 1 is the checkpoint response: one go-back.
                        // With the poll on its own S frame, only if a frame sent before
                        // the P is still unacknowledged; otherwise the gap concerns frames
                        // sent after the P and this is an ordinary REJ.
                        self.go_back(checkpoint_cause);
                    } else if self.sent > 0 && self.recovery_from != Some(self.va_abs) {
                        // A REJ for the frame a checkpoint or time-out retransmission
                        // already started from was sent before that retransmission
                        // reached the peer: going back again would only send
                        // duplicates, and each duplicate is a sequence error that draws
                        // a new REJ — a go-back cycle that never ends under load.
                        self.rej_cover = Some((self.va_abs, self.va_abs + self.sent as u64));
                        self.go_back(RetransmitCause::Reject);
                    }
                }
                FrameKind::SREJ => {
                    let abs = self.va_abs + self.m.distance(self.va, f.nr) as u64;
                    if !self.single.iter().any(|&(a, _)| a == abs) {
                        self.single.push_back((abs, RetransmitCause::Reject));
                    }
                }
                FrameKind::I => {}
            }
            // Busy here means holding out-of-sequence frames, which are unacknowledged
            // at our side: once everything is acknowledged the peer cannot be busy, even
            // if the RR that cleared its busy condition was lost.
            if f.kind != FrameKind::RNR && self.sent == 0 {
                self.peer_busy = false;
            }
            if answers_p && f.kind != FrameKind::REJ {
                self.checkpoint(self.p_mark, checkpoint_cause);
            }
        }
        if f.kind == FrameKind::I {
            if let Some(msg) = f.msg {
                self.receive_i(now, f.ns, msg);
            }
        }
        if p_bit {
            match (self.role, self.mode) {
                (Role::Secondary, Mode::Nrm) => self.polled = true,
                _ => self.f_pending = true,
            }
            // NRM: a P triggers the secondary's checkpoint retransmission (A1.3); ARM
            // keeps this one exception to the ABM rule (A2). ABM checkpoints on F only.
            if self.role == Role::Secondary && nr_valid {
                self.checkpoint(self.f_mark, RetransmitCause::Checkpoint);
            }
        }
        if self.async_timer() {
            // Stopped when nothing is outstanding; kept running while the peer is busy
            // so that a lost RR clearing the busy condition is recovered by a poll, and
            // in LAPB timer recovery, which only the F = 1 response ends (a lost poll
            // must be repeated or no new I frame would ever go).
            if self.sent == 0 && !self.peer_busy && !self.in_timer_recovery() {
                self.t1_deadline = None;
            } else if self.peer_busy && self.t1_deadline.is_none() && self.role != Role::Secondary {
                self.t1_deadline = Some(now + self.t1);
            }
        }
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, _f: &Frame<P>) {
        self.counters.frames_in_error_received += 1;
    }

    fn handle_timeout(&mut self, now: SimTime) {
        if self.t2_deadline.is_some_and(|d| d <= now) {
            self.t2_deadline = None;
            self.t2_expired = true;
        }
        if self.t1_deadline.is_none_or(|d| d > now) {
            return;
        }
        self.t1_deadline = None;
        self.counters.timeouts += 1;
        match self.role {
            Role::Secondary => {
                // ARM (A2): no means to query the primary; resend unacknowledged frames.
                if self.sent > 0 {
                    match self.secondary_t1_action {
                        SecondaryT1Action::Oldest => {
                            if !self.single.iter().any(|&(a, _)| a == self.va_abs) {
                                self.single
                                    .push_back((self.va_abs, RetransmitCause::Timeout));
                            }
                        }
                        SecondaryT1Action::GoBack => self.go_back(RetransmitCause::Timeout),
                    }
                }
            }
            Role::Primary | Role::Combined => {
                if self.t1_action == T1Action::GoBack {
                    self.go_back(RetransmitCause::Timeout);
                }
                self.send_p = true;
            }
        }
    }

    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<P>> {
        if self.mode == Mode::Nrm && self.role == Role::Secondary && !self.polled {
            return None;
        }
        let (mut f, pf) = self.choose()?;
        // The status a supervisory frame reports is no longer pending; cleared before
        // the P/F decision, which asks whether anything is left to send.
        match f.kind {
            FrameKind::REJ => self.rej_pending = false,
            FrameKind::RR | FrameKind::RNR => self.busy_report_pending = false,
            _ => {}
        }
        f.pf = self.decide_pf(&f, pf);
        self.sent_frame(now, grant, &f);
        Some(f)
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        match (self.t1_deadline, self.t2_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        self.events.pop_front()
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
