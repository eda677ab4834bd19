//! Opening and closing a connection (RFC 9293 §3.5 three-way handshake, §3.6 close):
//! the SYN / SYN-ACK and FIN segments and the state changes they drive, split from the
//! endpoint's data transfer (`endpoint/mod.rs`), whose private state they share as its
//! child module.

use super::{State, Tcp, TIME_WAIT_S};
use crate::engine::{Duration, SimTime};
use crate::protocol::{Frame, FrameKind, RetransmitCause, Sdu};

impl Tcp {
    /// The application closes: a FIN after everything submitted (no-op without
    /// connection set-up, where the connection lives for the run).
    pub fn close(&mut self) {
        if self.cfg.connection_setup {
            self.close_requested = true;
        }
    }

    /// Our FIN is due: everything submitted has been sent (again, after a go-back) and
    /// the FIN is not acknowledged yet.
    pub(super) fn fin_due(&self) -> bool {
        self.close_requested && self.state.sends() && self.snd_nxt == self.write_end && self.snd_una <= self.write_end
    }

    /// The FIN: header only, N(S) = the sequence number it takes; sent again after a
    /// timeout (the go-back reaches it) or duplicate ACKs (`cause`).
    pub(super) fn fin(&mut self, now: SimTime, cause: RetransmitCause) -> Frame<Sdu> {
        self.counters.frames_sent += 1;
        if self.snd_max > self.write_end {
            self.counters.count_retransmission(cause);
            self.segments_retransmitted += 1;
        }
        self.snd_nxt = self.write_end + 1;
        self.snd_max = self.snd_max.max(self.snd_nxt);
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(self.rto.deadline(now));
        }
        self.state = match self.state {
            State::Established => State::FinWait1,
            State::CloseWait => State::LastAck,
            s => s,
        };
        self.rx.ack_sent();
        Frame { kind: FrameKind::I, ns: (self.write_end + self.wire) as u32, nr: (self.rx.rcv_nxt + self.wire) as u32, pf: false, command: false, bits: self.cfg.header_bits, msg: None }
    }

    /// Our FIN is acknowledged.
    pub(super) fn fin_acked(&mut self, now: SimTime) {
        self.state = match self.state {
            State::FinWait1 => State::FinWait2,
            State::Closing => self.time_wait(now),
            State::LastAck => State::Closed,
            s => s,
        };
    }

    pub(super) fn time_wait(&mut self, now: SimTime) -> State {
        self.time_wait_until = Some(now + Duration::from_secs_f64(TIME_WAIT_S));
        State::TimeWait
    }

    /// The peer's FIN at `seq`: taken in order only (after every octet before it); a
    /// repeat is acknowledged again.
    pub(super) fn on_fin(&mut self, now: SimTime, seq: u64) {
        if seq == self.rx.rcv_nxt && !self.fin_received {
            self.fin_received = true;
            self.rx.rcv_nxt += 1;
            self.state = match self.state {
                State::Established => State::CloseWait,
                State::FinWait1 => State::Closing,
                State::FinWait2 => self.time_wait(now),
                s => s,
            };
        } else if self.fin_received && seq + 1 == self.rx.rcv_nxt && self.state == State::TimeWait {
            // RFC 9293 §3.10.7.4: a retransmitted FIN restarts the 2·MSL timeout.
            self.time_wait(now);
        }
        self.rx.ack_now = true;
    }

    /// The SYN (active) or SYN-ACK (passive) due now. A second copy is a retransmission
    /// and is never timed (Karn).
    pub(super) fn syn(&mut self, now: SimTime) -> Frame<Sdu> {
        self.syn_due = false;
        self.counters.frames_sent += 1;
        if self.syn_sent {
            self.counters.count_retransmission(RetransmitCause::Timeout);
            self.segments_retransmitted += 1;
            self.syn_timing = None;
        } else {
            self.syn_sent = true;
            self.syn_timing = Some(now);
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(self.rto.deadline(now));
        }
        let ack = self.state == State::SynReceived;
        let nr = if ack { self.wire as u32 } else { 0 };
        Frame { kind: FrameKind::I, ns: self.iss as u32, nr, pf: ack, command: true, bits: self.cfg.header_bits, msg: None }
    }

    /// A segment before the connection is established, or a SYN after: returns true if
    /// the handshake consumed it (false: process it as a normal segment).
    pub(super) fn handshake(&mut self, now: SimTime, f: &Frame<Sdu>) -> bool {
        let syn = f.command && f.kind == FrameKind::I;
        match (self.state, syn, f.pf) {
            (State::Listen, true, false) => {
                self.state = State::SynReceived;
                self.syn_due = true;
                true
            }
            // Our SYN-ACK was lost: the peer sent its SYN again.
            (State::SynReceived, true, false) => {
                self.syn_due = true;
                true
            }
            (State::SynSent, true, true) => {
                self.established(now);
                // Our ACK of the SYN-ACK (piggybacked if data is waiting).
                self.rx.ack_now = true;
                true
            }
            // A duplicate SYN-ACK or SYN (our ACK, or the peer's view of it, was lost).
            (s, true, _) if !s.opening() => {
                self.rx.ack_now = true;
                true
            }
            // The ACK of our SYN-ACK, alone or on the peer's first data segment.
            (State::SynReceived, false, _) if f.nr == self.wire as u32 => {
                self.established(now);
                false
            }
            _ => true,
        }
    }

    pub(super) fn established(&mut self, now: SimTime) {
        self.state = State::Established;
        // A SYN (SYN-ACK) repeat that has not left yet is moot now.
        self.syn_due = false;
        if let Some(at) = self.syn_timing.take() {
            self.rto.sample(at, now);
        } else if self.counters.timeouts > 0 {
            // RFC 6298 §5.7: after a SYN timeout, data starts with an RTO of 3 s.
            self.rto.reinitialise(3.0);
        }
        self.rto_deadline = None;
    }
}
