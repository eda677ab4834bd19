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

/// A P was received and the F response is owed (combined, ARM secondary).
pub(super) const F_OWED: u8 = 1;
/// Timer recovery asks for a P on the next command.
pub(super) const SEND_P: u8 = 2;
/// NRM secondary: polled and the response not yet ended by F.
pub(super) const POLLED: u8 = 4;
/// A REJ is due (sent when the mode lets it go).
pub(super) const REJ_OWED: u8 = 8;
/// The own busy condition changed and RR or RNR reports it.
pub(super) const BUSY_REPORT: u8 = 16;

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

/// An HDLC primary, secondary or combined station.
pub struct HdlcStation<P: Payload = Sdu> {
    pub(super) mode: Mode,
    pub(super) role: Role,
    pub(super) m: Modulus,
    pub(super) k: usize,
    pub(super) overhead_bits: u32,
    pub(super) s_frame_bits: u32,
    pub(super) t1: Duration,
    pub(super) t2: Duration,
    pub(super) reject: Reject,
    pub(super) buffer_limit: usize,
    pub(super) poll: Poll,
    pub(super) t1_action: T1Action,
    pub(super) withhold_ack: bool,
    pub(super) secondary_t1_action: SecondaryT1Action,
    pub(super) timer_recovery: TimerRecovery,

    // Send side. `sdus[acked]` carries N(S) = V(A).
    pub(super) va: u32,
    pub(super) va_abs: u64,
    /// Every SDU submitted and not yet reported acknowledged, oldest first: the first
    /// `acked` are acknowledged and wait for `poll_event` to report them, the next
    /// `taken` are in the send window (numbered from V(A)), the rest wait to enter it.
    /// One queue, so an SDU entering the window or acknowledged moves no data.
    pub(super) sdus: VecDeque<P>,
    /// SDUs at the front of `sdus` acknowledged and not yet reported: `poll_event`
    /// reports them (`Event::Acknowledged`) before `events`, as one input acts on its
    /// N(R) before it delivers (callers drain the events after each input).
    pub(super) acked: usize,
    pub(super) taken: usize,
    /// Index in `sdus` of the next frame to send: V(S) = V(A) + next.
    pub(super) next: usize,
    /// Frames of the window sent at least once (a send below it is a retransmission).
    pub(super) sent: usize,
    pub(super) cause: RetransmitCause,
    /// Single-frame retransmissions (SREJ, ARM secondary timer): absolute numbers.
    pub(super) single: VecDeque<(u64, RetransmitCause)>,
    /// The peer sent RNR.
    pub(super) peer_busy: bool,

    // P/F.
    /// A P was sent and its F not yet received (primary, combined).
    pub(super) p_outstanding: bool,
    /// The outstanding P was sent on timer expiry: its checkpoint counts as timeout.
    pub(super) p_for_timeout: bool,
    /// Absolute V(S) when the last P (primary, combined) was sent.
    pub(super) p_mark: u64,
    /// Absolute V(S) when the last F (secondary) was sent.
    pub(super) f_mark: u64,
    /// Frames a REJ sent back for since our last P/F: a checkpoint does not repeat them.
    pub(super) rej_cover: Option<(u64, u64)>,
    /// Absolute number of the frame the last checkpoint or time-out retransmission
    /// started from: a REJ asking for the same frame is inhibited (the converse of
    /// `rej_cover`, ISO 4335 REJ recovery).
    pub(super) recovery_from: Option<u64>,
    /// Frames owed ahead of the common case, one bit each (`F_OWED`, `SEND_P`,
    /// `POLLED`, `REJ_OWED`, `BUSY_REPORT`): "none" is one test on the hot path.
    pub(super) owed: u8,

    // Receive side.
    pub(super) vr: u32,
    pub(super) ack_pending: bool,
    /// In-sequence I frames received since our last N(R) went out.
    pub(super) unacked_received: usize,
    pub(super) rej_condition: bool,
    /// SREJ: frames held beyond V(R), by offset from V(R) (offset 0 is always empty).
    pub(super) held: VecDeque<Option<P>>,
    /// Frames and information bits in `held`, kept as running totals so the per-event
    /// buffer statistics and the RNR check do not rescan the window.
    pub(super) held_frames: usize,
    pub(super) held_bits: u64,
    /// SREJ: offsets already requested (one SREJ per missing frame).
    pub(super) srej_sent: VecDeque<bool>,
    pub(super) srej_queue: VecDeque<u32>,
    pub(super) own_busy: bool,

    pub(super) t1_deadline: Option<SimTime>,
    pub(super) t2_deadline: Option<SimTime>,
    pub(super) t2_expired: bool,

    pub(super) events: VecDeque<Event<P>>,
    /// Report each acknowledged SDU upward (`Event::Acknowledged`). Off for a user that
    /// discards them (X.25's access line): each event is a copy of the frame's payload.
    pub(super) report_acknowledged: bool,
    pub(super) counters: Counters,
    pub(super) invalid_nr: u64,
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
            sdus: VecDeque::new(),
            acked: 0,
            taken: 0,
            next: 0,
            sent: 0,
            cause: RetransmitCause::Timeout,
            single: VecDeque::new(),
            peer_busy: false,
            p_outstanding: false,
            p_for_timeout: false,
            p_mark: 0,
            f_mark: 0,
            rej_cover: None,
            recovery_from: None,
            owed: 0,
            vr: 0,
            ack_pending: false,
            unacked_received: 0,
            rej_condition: false,
            held: VecDeque::from(vec![None; held]),
            held_frames: 0,
            held_bits: 0,
            srej_sent: VecDeque::from(vec![false; held]),
            srej_queue: VecDeque::new(),
            own_busy: false,
            t1_deadline: None,
            t2_deadline: None,
            t2_expired: false,
            events: VecDeque::new(),
            report_acknowledged: true,
            counters: Counters::default(),
            invalid_nr: 0,
        }
    }

    /// The station without `Event::Acknowledged` reports: for a user that has no use
    /// for them. Acknowledged frames are still freed, and everything else is unchanged.
    pub fn without_acknowledged_events(mut self) -> Self {
        self.report_acknowledged = false;
        self
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
        self.owes(POLLED)
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

    /// Whether `bit` (`F_OWED`, `SEND_P`, ...) is set.
    #[inline(always)]
    pub(super) fn owes(&self, bit: u8) -> bool {
        self.owed & bit != 0
    }

    #[inline(always)]
    pub(super) fn set_owed(&mut self, bit: u8, on: bool) {
        if on {
            self.owed |= bit;
        } else {
            self.owed &= !bit;
        }
    }

    /// The paper's ABM timer (Appendix A1.3), also both ARM stations' (Appendix A2):
    /// started by I and P frames, restarted by new acknowledgements. The NRM primary
    /// uses the Annex B timer tied to P/F; the NRM secondary has none.
    pub(super) fn async_timer(&self) -> bool {
        self.role == Role::Combined || self.mode == Mode::Arm
    }

    /// `wants_transmit` less an acknowledgement held back for T2, which `poll_transmit`
    /// does not send before T2 runs out. The X.25 access line asks this on every input:
    /// with the looser hint an RR waiting for a piggyback made it choose a frame for
    /// nothing, about half its calls. (The runner keeps the looser hint: its wake-up at
    /// the line's end is an event of every trajectory.)
    pub fn wants_transmit_now(&self) -> bool {
        self.wants(self.ack_pending && (self.t2 == Duration::ZERO || self.t2_expired))
    }

    /// `wants_transmit`, with `ack` standing for "an acknowledgement may be owed".
    fn wants(&self, ack: bool) -> bool {
        if self.mode == Mode::Nrm && self.role == Role::Secondary && !self.owes(POLLED) {
            return false;
        }
        self.owed != 0
            || ack
            || !self.srej_queue.is_empty()
            || !self.single.is_empty()
            || (self.role != Role::Secondary && !self.p_outstanding && self.poll != Poll::Timeout)
            || self.can_send_i(true)
    }

    /// A frame received by value (the X.25 access line owns its frames in flight):
    /// an I frame's payload is moved up instead of cloned.
    pub fn receive_owned(&mut self, now: SimTime, mut f: Frame<P>) {
        let msg = if f.kind == FrameKind::I { f.msg.take() } else { None };
        self.receive(now, &f, msg);
    }

    /// `handle_receive` with the I frame's payload (`msg`) already taken out of `f`.
    /// The common frame, an I frame or RR without P/F, passes each P/F test false and
    /// leaves the REJ, SREJ and RNR rules (`act_on_status`) out.
    #[inline(always)]
    fn receive(&mut self, now: SimTime, f: &Frame<P>, msg: Option<P>) {
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
        let nr_valid = match f.kind {
            // SREJ's N(R) names the frame wanted and acknowledges nothing.
            FrameKind::SREJ => self.names_frame_sent(f.nr),
            _ => self.acknowledge(now, f.nr),
        };
        if nr_valid {
            if !matches!(f.kind, FrameKind::I | FrameKind::RR) {
                self.act_on_status(f, answers_p);
            }
            // Busy here means holding out-of-sequence frames, which are unacknowledged
            // at our side: once everything is acknowledged the peer cannot be busy, even
            // if the RR that cleared its busy condition was lost.
            if matches!(f.kind, FrameKind::RR | FrameKind::REJ)
                || (f.kind != FrameKind::RNR && self.sent == 0)
            {
                self.peer_busy = false;
            }
            if answers_p && f.kind != FrameKind::REJ {
                self.checkpoint(self.p_mark, self.checkpoint_cause());
            }
        }
        if f.kind == FrameKind::I {
            if let Some(msg) = msg {
                self.receive_i(now, f.ns, msg);
            }
        }
        if p_bit {
            match (self.role, self.mode) {
                (Role::Secondary, Mode::Nrm) => self.set_owed(POLLED, true),
                _ => self.set_owed(F_OWED, true),
            }
            // NRM: a P triggers the secondary's checkpoint retransmission (A1.3); ARM
            // keeps this one exception to the ABM rule (A2). ABM checkpoints on F only.
            if self.role == Role::Secondary && nr_valid {
                self.checkpoint(self.f_mark, RetransmitCause::Checkpoint);
            }
        }
        self.async_timer_after_receive(now);
    }

    /// The cause a checkpoint retransmission counts: time-out if the P it answers was
    /// sent on timer expiry.
    fn checkpoint_cause(&self) -> RetransmitCause {
        if self.p_for_timeout {
            RetransmitCause::Timeout
        } else {
            RetransmitCause::Checkpoint
        }
    }

    /// An SREJ's N(R) names a frame sent and unacknowledged; counted if not.
    fn names_frame_sent(&mut self, nr: u32) -> bool {
        let ok = nr < self.m.0 && (self.m.distance(self.va, nr) as usize) < self.sent;
        if !ok {
            self.invalid_nr += 1;
        }
        ok
    }

    /// RNR, REJ and SREJ with a valid N(R) (`answers_p`: the frame is the F = 1
    /// response to our P). Busy cleared and checkpoints are `receive`'s.
    #[inline(never)]
    fn act_on_status(&mut self, f: &Frame<P>, answers_p: bool) {
        match f.kind {
            FrameKind::RNR => self.peer_busy = true,
            FrameKind::REJ => {
                if answers_p && (self.poll != Poll::Supervisory || self.va_abs < self.p_mark) {
                    // A REJ with F = 1 is the checkpoint response: one go-back.
                    // With the poll on its own S frame, only if a frame sent before
                    // the P is still unacknowledged; otherwise the gap concerns frames
                    // sent after the P and this is an ordinary REJ.
                    self.go_back(self.checkpoint_cause());
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
            FrameKind::I | FrameKind::RR => {}
        }
    }

    /// The asynchronous timer after a received frame.
    #[inline(always)]
    fn async_timer_after_receive(&mut self, now: SimTime) {
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
}

impl<P: Payload> Layer for HdlcStation<P> {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = P;
    type Pdu = Frame<P>;
    fn service(&self) -> Service {
        Service::InOrder
    }

    #[inline]
    fn handle_submit(&mut self, _now: SimTime, msg: P) {
        self.sdus.push_back(msg);
    }

    fn handle_receive(&mut self, now: SimTime, f: &Frame<P>) {
        let msg = if f.kind == FrameKind::I { f.msg.clone() } else { None };
        self.receive(now, f, msg);
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
                self.set_owed(SEND_P, true);
            }
        }
    }

    /// False only if `poll_transmit` would return nothing now (and change nothing): each
    /// condition under which `choose` could pick a frame, loosened to one field test.
    /// The runner then schedules no wake-up for the line's end, and the X.25 access
    /// line skips the full choice, when nothing is pending.
    fn wants_transmit(&self) -> bool {
        self.wants(self.ack_pending)
    }

    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<P>> {
        Frame::built_by(|slot| self.poll_transmit_into(now, grant, slot))
    }

    /// The frame is built in the lane's slot it is sent from (no copies of a returned
    /// frame on the way).
    fn poll_transmit_into(&mut self, now: SimTime, grant: &Grant, slot: &mut Frame<P>) -> bool {
        if self.mode == Mode::Nrm && self.role == Role::Secondary && !self.owes(POLLED) {
            return false;
        }
        let Some(pf) = self.choose_into(slot) else { return false };
        // The status a supervisory frame reports is no longer pending; cleared before
        // the P/F decision, which asks whether anything is left to send.
        match slot.kind {
            FrameKind::REJ => self.set_owed(REJ_OWED, false),
            FrameKind::RR | FrameKind::RNR => self.set_owed(BUSY_REPORT, false),
            _ => {}
        }
        slot.pf = self.decide_pf(slot, pf);
        self.sent_frame(now, grant, slot);
        true
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        match (self.t1_deadline, self.t2_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        if self.acked > 0 {
            self.acked -= 1;
            return self.sdus.pop_front().map(Event::Acknowledged);
        }
        self.events.pop_front()
    }

    fn backlog(&self) -> usize {
        self.sdus.len() - self.acked - self.taken
    }

    fn unacknowledged(&self) -> usize {
        self.sdus.len() - self.acked
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.held_bits
    }
}
