//! One TCP endpoint (both halves of a connection) as a sans-IO [`Layer`]: application
//! SDUs in, segments out, Reno congestion control and the RFC 6298 timer.
//!
//! Segments travel as [`Frame`]s so TCP stacks on any layer that carries frames: a data
//! segment is an `I` frame with N(S) = SEQ and N(R) = ACK (the low 32 bits of the
//! octet offsets, modulo 2^32 as on the wire; the initial sequence number is 0), a pure
//! ACK an `RR` frame. Its length is header + 8·octets; `msg` is the SDU whose last
//! octet the segment carries, if any. Segments never span two SDUs (PSH at every SDU
//! end, no Nagle coalescing), so every copy of a segment has the same boundaries.
//! By default the connection is open from the start. With `connection_setup` it is
//! opened by the three-way handshake (RFC 9293 §3.5): the active end sends SYN, the
//! passive end answers SYN-ACK, the active end's ACK (or first data segment) completes
//! it. SYN and SYN-ACK are timed and retransmitted under the same RFC 6298 timer as
//! data (initial RTO, back-off on every expiry, Karn's rule), and after a handshake
//! that timed out the RTO restarts at 3 s (RFC 6298 §5.7). The SYN consumes sequence
//! number ISS (0 for an endpoint's first connection), so data starts at ISS + 1. A SYN travels as a header-only
//! `I` frame with the `command` bit set (HDLC's command/response bit means nothing to
//! TCP) and `pf` as its ACK flag: SYN = (command, !pf), SYN-ACK = (command, pf).
//!
//! Close (RFC 9293 §3.6): once the application closes ([`Layer::handle_close`]) and
//! every octet submitted has been sent, a FIN follows — a header-only `I` frame
//! *without* the command bit, N(S) = the sequence number it consumes — under the same
//! timer and go-back as data. FIN-WAIT-1 → FIN-WAIT-2 → TIME-WAIT for the end that
//! closes first, CLOSE-WAIT → LAST-ACK → CLOSED for the other; TIME-WAIT (2·MSL)
//! re-acknowledges a repeated FIN. Each connection of an endpoint has its own
//! sequence space starting at its ISS (both ends use the same one, given by the active
//! opener's SYN); [`super::host::TcpHost`] holds an endpoint's connections.

use super::receiver::{Arrival, Receiver};
use super::flavour::{Congestion, Timer};
use super::TcpConfig;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Counters, Event, Frame, FrameKind, Grant, Layer, RetransmitCause, Sdu, Service};
use std::collections::VecDeque;

mod open_close;

/// Octets an SDU of `bits` occupies in the byte stream (at least one).
pub fn octets(bits: u32) -> u64 {
    u64::from(bits.div_ceil(8).max(1))
}

/// The absolute offset nearest to `reference` whose low 32 bits are `wire`.
pub fn unwrap_seq(wire: u32, reference: u64) -> u64 {
    let d = wire.wrapping_sub(reference as u32) as i32 as i64;
    (reference as i64 + d).max(0) as u64
}

/// The connection state (RFC 9293 §3.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Passive open: waiting for a SYN.
    Listen,
    /// Active open: SYN sent, waiting for the SYN-ACK.
    SynSent,
    /// SYN received, SYN-ACK sent, waiting for its ACK.
    SynReceived,
    Established,
    /// We closed first and sent our FIN; neither acknowledged nor answered yet.
    FinWait1,
    /// Our FIN is acknowledged; waiting for the peer's.
    FinWait2,
    /// Both FINs crossed: waiting for the acknowledgement of ours.
    Closing,
    /// Both FINs acknowledged; 2·MSL before the connection is forgotten.
    TimeWait,
    /// The peer closed first; we may still send.
    CloseWait,
    /// We closed after the peer: waiting for the acknowledgement of our FIN.
    LastAck,
    Closed,
}

impl State {
    /// Data (sent before any FIN of ours) may still go, or go again.
    fn sends(self) -> bool {
        matches!(self, State::Established | State::CloseWait | State::FinWait1 | State::Closing | State::LastAck)
    }

    /// Before the connection is synchronised: the handshake decides every segment.
    fn opening(self) -> bool {
        matches!(self, State::Listen | State::SynSent | State::SynReceived)
    }
}

/// TIME-WAIT lasts 2·MSL, MSL = 2 minutes (RFC 9293 §3.4.2). It does not block the
/// next connection, which has its own ISS.
const TIME_WAIT_S: f64 = 240.0;

pub struct Tcp {
    cfg: TcpConfig,
    state: State,
    /// A SYN (active) or SYN-ACK (passive) is to be sent at the next opportunity.
    syn_due: bool,
    /// The SYN (SYN-ACK) has been sent: a further copy is a retransmission.
    syn_sent: bool,
    /// The handshake's send time of its (only) SYN or SYN-ACK, for the RTT sample.
    syn_timing: Option<SimTime>,
    /// The initial sequence number of both directions (the active opener's choice).
    iss: u64,
    /// Offset of data on the wire: ISS + 1 when the SYN took sequence number ISS.
    wire: u64,
    /// The application closed: a FIN follows the last octet submitted.
    close_requested: bool,
    /// The peer's FIN has been received (it took one sequence number).
    fin_received: bool,
    /// End of TIME-WAIT.
    time_wait_until: Option<SimTime>,
    /// Submitted SDUs not yet acknowledged, with the offset after their last octet.
    sdus: VecDeque<(Sdu, u64)>,
    /// Offset after the last octet submitted.
    write_end: u64,
    /// SND.UNA, SND.NXT and the highest SND.NXT reached.
    snd_una: u64,
    snd_nxt: u64,
    snd_max: u64,
    /// The flavour's congestion control and retransmission timer.
    cc: Congestion,
    rto: Timer,
    rto_deadline: Option<SimTime>,
    /// The segment being timed (its end, when it was sent): one at a time, never a
    /// retransmitted one (Karn).
    timing: Option<(u64, SimTime)>,
    /// Retransmit the segment at SND.UNA at the next opportunity (fast retransmit).
    fast_rtx: bool,
    rx: Receiver,
    events: VecDeque<Event<Sdu>>,
    counters: Counters,
    /// Octets sent again (timeouts and fast retransmits).
    pub octets_retransmitted: u64,
    pub segments_retransmitted: u64,
    pub fast_retransmits: u64,
}

impl Tcp {
    /// An endpoint; with `connection_setup` it opens passively (listens).
    pub fn new(cfg: &TcpConfig) -> Self {
        Tcp::open(cfg, false)
    }

    /// An endpoint that opens the connection actively (sends the SYN at once) if
    /// `active` and `connection_setup` is on; passively otherwise.
    pub fn open(cfg: &TcpConfig, active: bool) -> Self {
        Tcp::open_with_iss(cfg, active, 0)
    }

    /// [`Tcp::open`] with the connection's ISS (the sequence number of the SYN).
    pub fn open_with_iss(cfg: &TcpConfig, active: bool, iss: u64) -> Self {
        let state = match (cfg.connection_setup, active) {
            (false, _) => State::Established,
            (true, true) => State::SynSent,
            (true, false) => State::Listen,
        };
        Tcp {
            state,
            syn_due: state == State::SynSent,
            syn_sent: false,
            syn_timing: None,
            iss,
            wire: if cfg.connection_setup { iss + 1 } else { 0 },
            close_requested: false,
            fin_received: false,
            time_wait_until: None,
            cfg: cfg.clone(),
            sdus: VecDeque::new(),
            write_end: 0,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            cc: Congestion::new(cfg),
            rto: Timer::new(cfg),
            rto_deadline: None,
            timing: None,
            fast_rtx: false,
            rx: Receiver::default(),
            events: VecDeque::new(),
            counters: Counters::default(),
            octets_retransmitted: 0,
            segments_retransmitted: 0,
            fast_retransmits: 0,
        }
    }

    pub fn cwnd(&self) -> u64 {
        self.cc.cwnd()
    }
    pub fn ssthresh(&self) -> u64 {
        self.cc.ssthresh()
    }
    pub fn rto_s(&self) -> f64 {
        self.rto.rto_s()
    }
    pub fn srtt_s(&self) -> Option<f64> {
        self.rto.srtt_s()
    }
    pub(super) fn timer(&mut self) -> &mut Timer {
        &mut self.rto
    }
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }
    pub fn rcv_nxt(&self) -> u64 {
        self.rx.rcv_nxt
    }
    pub fn timing(&self) -> Option<(u64, SimTime)> {
        self.timing
    }
    pub fn state(&self) -> State {
        self.state
    }
    pub fn iss(&self) -> u64 {
        self.iss
    }
    /// The application has closed this connection.
    pub fn close_requested(&self) -> bool {
        self.close_requested
    }

    /// A passive connection learns its ISS from the SYN.
    pub fn set_iss(&mut self, iss: u64) {
        debug_assert_eq!(self.state, State::Listen);
        self.iss = iss;
        self.wire = iss + 1;
    }

    fn flight(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// The segment starting at `seq`: its end and the SDU it completes, if any.
    fn cut(&self, seq: u64) -> (u64, Option<Sdu>) {
        let i = self.sdus.partition_point(|&(_, end)| end <= seq);
        let (sdu, end) = self.sdus[i];
        let seg_end = end.min(seq + u64::from(self.cfg.mss_octets));
        (seg_end, (seg_end == end).then_some(sdu))
    }

    fn window(&self) -> u64 {
        self.cc.cwnd().min(u64::from(self.cfg.receive_window_octets))
    }

    /// True if the segment at SND.NXT fits the usable window now.
    fn can_send_new(&self) -> bool {
        self.state.sends() && self.snd_nxt < self.write_end && {
            let (end, _) = self.cut(self.snd_nxt);
            end - self.snd_una <= self.window()
        }
    }

    fn segment(&mut self, now: SimTime, seq: u64) -> Frame<Sdu> {
        let (end, sdu) = self.cut(seq);
        let len = end - seq;
        let retransmission = seq < self.snd_max;
        self.counters.frames_sent += 1;
        self.counters.i_frames_sent += 1;
        if retransmission {
            self.octets_retransmitted += len;
            self.segments_retransmitted += 1;
            // Karn: a retransmission makes any sample ambiguous (4.2BSD keeps timing).
            if self.rto.karn() {
                self.timing = None;
            }
        } else if self.timing.is_none() && self.rto.times_sends() {
            self.timing = Some((self.rto.timed_until(seq, end), now));
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(self.rto.deadline(now));
        }
        self.rx.ack_sent();
        Frame {
            kind: FrameKind::I,
            ns: (seq + self.wire) as u32,
            nr: (self.rx.rcv_nxt + self.wire) as u32,
            pf: sdu.is_some(),
            command: false,
            bits: self.cfg.header_bits + 8 * len as u32,
            msg: sdu,
        }
    }

    fn on_ack(&mut self, now: SimTime, ack: u64, pure: bool) {
        if ack > self.snd_una && ack <= self.snd_max {
            let acked = ack - self.snd_una;
            self.snd_una = ack;
            self.snd_nxt = self.snd_nxt.max(ack);
            if let Some((end, at)) = self.timing {
                if ack >= end {
                    self.rto.sample(at, now);
                    self.timing = None;
                }
            }
            // 4.2BSD's tcp_input: an ACK that advances and leaves data outstanding
            // starts the timing (t_rtt = 1; t_rtseq, never set, lies below SND.UNA), so
            // the next advancing ACK ends it; every advancing ACK resets the back-off.
            if self.rto.restarts_on_ack() && ack < self.snd_max {
                self.timing = Some((ack, now));
            }
            self.rto.ack_advanced();
            // A NewReno partial acknowledgement retransmits the next hole at once.
            self.fast_rtx = self.cc.on_new_ack(acked, ack);
            while self.sdus.front().is_some_and(|&(_, end)| end <= ack) {
                let (s, _) = self.sdus.pop_front().expect("front exists");
                self.events.push_back(Event::Acknowledged(s));
            }
            // RFC 6298 §5.3: restart on new data acknowledged; §5.2: stop when all is.
            self.rto_deadline = (self.snd_una < self.snd_max).then(|| self.rto.deadline(now));
            if self.close_requested && self.snd_una == self.write_end + 1 {
                self.fin_acked(now);
            }
        } else if pure && ack == self.snd_una && self.flight() > 0 {
            if self.cc.on_dupack(self.flight(), self.cfg.dupack_threshold, ack, self.snd_max) {
                self.fast_rtx = true;
            }
        }
    }
}

impl Layer for Tcp {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = Sdu;
    type Pdu = Frame<Sdu>;

    fn service(&self) -> Service {
        Service::InOrder
    }

    fn handle_submit(&mut self, _now: SimTime, sdu: Sdu) {
        self.write_end += octets(sdu.bits);
        self.sdus.push_back((sdu, self.write_end));
    }

    fn handle_receive(&mut self, now: SimTime, f: &Frame<Sdu>) {
        // Before the connection is up, or a SYN after: the handshake decides.
        if (self.state.opening() || (f.command && f.kind == FrameKind::I)) && self.handshake(now, f) {
            return;
        }
        let w = self.wire as u32;
        let data = f.kind == FrameKind::I && f.bits > self.cfg.header_bits;
        let fin = f.kind == FrameKind::I && !f.command && f.bits == self.cfg.header_bits;
        self.on_ack(now, unwrap_seq(f.nr.wrapping_sub(w), self.snd_una), !data && !fin);
        if fin {
            let seq = unwrap_seq(f.ns.wrapping_sub(w), self.rx.rcv_nxt);
            self.on_fin(now, seq);
        }
        if data {
            let seq = unwrap_seq(f.ns.wrapping_sub(w), self.rx.rcv_nxt);
            let end = seq + u64::from((f.bits - self.cfg.header_bits) / 8);
            let delay = Duration::from_secs_f64(self.cfg.delayed_ack_s);
            let events = &mut self.events;
            match self.rx.on_segment(now, seq, end, f.msg, u64::from(self.cfg.receive_window_octets), delay, &mut |s| events.push_back(Event::Delivered(s))) {
                Arrival::InOrder => {}
                Arrival::OutOfOrder => self.counters.out_of_sequence_discarded += 1,
                Arrival::Duplicate | Arrival::OutOfWindow => self.counters.duplicates_discarded += 1,
            }
        }
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, _f: &Frame<Sdu>) {
        self.counters.frames_in_error_received += 1;
    }

    /// Its three timers (the delayed ACK, TIME-WAIT, the retransmission timer) each act
    /// only once their deadline is due, and `poll_timeout` is the earliest of them.
    fn timeouts_wait_for_deadline(&self) -> bool {
        true
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.rx.handle_timeout(now);
        if self.time_wait_until.is_some_and(|d| d <= now) {
            self.time_wait_until = None;
            self.state = State::Closed;
        }
        let handshaking = matches!(self.state, State::SynSent | State::SynReceived);
        if handshaking && self.rto_deadline.is_some_and(|d| d <= now) {
            // RFC 6298 §5.4–5.6 for the SYN (SYN-ACK): send it again, back off.
            self.counters.timeouts += 1;
            self.rto.expired();
            self.syn_due = true;
            self.syn_timing = None;
            self.rto_deadline = Some(self.rto.deadline(now));
        } else if self.rto_deadline.is_some_and(|d| d <= now) {
            if self.snd_una < self.snd_max {
                // RFC 5681 §3.1 / RFC 6298 §5.4–5.6: loss window, back off, go back.
                self.counters.timeouts += 1;
                self.cc.on_timeout(self.flight(), self.snd_max);
                self.rto.expired();
                self.snd_nxt = self.snd_una;
                if self.rto.karn() {
                    self.timing = None;
                }
                self.fast_rtx = false;
                self.rto_deadline = Some(self.rto.deadline(now));
            } else {
                self.rto_deadline = None;
            }
        }
    }

    fn poll_transmit(&mut self, now: SimTime, _grant: &Grant) -> Option<Frame<Sdu>> {
        if self.syn_due {
            return Some(self.syn(now));
        }
        if self.fast_rtx {
            self.fast_rtx = false;
            self.fast_retransmits += 1;
            let seq = self.snd_una;
            if seq >= self.write_end {
                // Every octet is acknowledged and only our FIN is outstanding: the
                // duplicate ACKs ask for it (it takes a sequence number, RFC 9293 §3.4).
                return Some(self.fin(now, RetransmitCause::Reject));
            }
            self.counters.count_retransmission(RetransmitCause::Reject);
            return Some(self.segment(now, seq));
        }
        if self.can_send_new() {
            let seq = self.snd_nxt;
            if seq < self.snd_max {
                self.counters.count_retransmission(RetransmitCause::Timeout);
            }
            let f = self.segment(now, seq);
            self.snd_nxt = self.snd_nxt.max(self.cut(seq).0);
            self.snd_max = self.snd_max.max(self.snd_nxt);
            return Some(f);
        }
        if self.fin_due() {
            return Some(self.fin(now, RetransmitCause::Timeout));
        }
        if self.rx.ack_now {
            self.rx.ack_sent();
            self.counters.frames_sent += 1;
            self.counters.s_frames_sent += 1;
            return Some(Frame::supervisory(FrameKind::RR, (self.rx.rcv_nxt + self.wire) as u32, false, self.cfg.header_bits));
        }
        None
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        [self.rto_deadline, self.rx.ack_due, self.time_wait_until].into_iter().flatten().min()
    }

    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.events.pop_front()
    }

    fn wants_transmit(&self) -> bool {
        self.syn_due || self.fast_rtx || self.rx.ack_now || self.can_send_new() || self.fin_due()
    }

    /// The SDUs at the end not yet begun. Asked after every input (a saturated
    /// source's top-up), mostly while the newest SDU is being sent: that one is checked
    /// first.
    fn backlog(&self) -> usize {
        let unsent = |&&(s, end): &&(Sdu, u64)| end - octets(s.bits) >= self.snd_max;
        match self.sdus.back() {
            Some(last) if unsent(&last) => self.sdus.iter().rev().take_while(unsent).count(),
            _ => 0,
        }
    }

    fn unacknowledged(&self) -> usize {
        self.sdus.len()
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn handle_close(&mut self, _now: SimTime) {
        self.close();
    }

    fn receive_buffer_bits(&self) -> u64 {
        8 * self.rx.held_octets()
    }

    /// Octets acknowledged (SND.UNA) and received in order (RCV.NXT): an SDU of many
    /// segments moves on segment by segment.
    fn progress(&self) -> u64 {
        self.snd_una.wrapping_add(self.rx.rcv_nxt)
    }

    /// Data segments sent, all segments sent (pure ACKs and SYNs included), segments
    /// sent again (Comer & Korb's "datagrams retransmitted"), octets sent again,
    /// retransmission timeouts (handshake included) and fast retransmits.
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("tcp_segments_sent", self.counters.i_frames_sent as f64),
            ("tcp_all_segments_sent", self.counters.frames_sent as f64),
            ("tcp_segments_retransmitted", self.segments_retransmitted as f64),
            ("tcp_octets_retransmitted", self.octets_retransmitted as f64),
            ("tcp_timeouts", self.counters.timeouts as f64),
            ("tcp_fast_retransmits", self.fast_retransmits as f64),
        ]
    }
}
