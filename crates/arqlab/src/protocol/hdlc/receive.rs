//! The receive side of an HDLC station: V(R), in-sequence delivery, frames held for
//! SREJ recovery, the own-busy condition and the pending acknowledgement. Split from
//! `station.rs` (the state and the `Layer` interface).

use super::config::{Mode, Reject};
use super::station::{HdlcStation, Role, BUSY_REPORT, REJ_OWED};
use crate::engine::{Duration, SimTime};
use crate::protocol::{Event, Payload};

impl<P: Payload> HdlcStation<P> {
    pub(super) fn set_ack_pending(&mut self, now: SimTime) {
        self.ack_pending = true;
        if self.t2 > Duration::ZERO && self.t2_deadline.is_none() && !self.t2_expired {
            self.t2_deadline = Some(now + self.t2);
        }
    }

    // (Inlined: the dev-opt build kept it out of line, a call per I frame.)
    #[inline]
    pub(super) fn advance_vr(&mut self) {
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

    pub(super) fn held_count(&self) -> usize {
        self.held_frames
    }

    pub(super) fn update_busy(&mut self) {
        let busy = self.buffer_limit > 0 && self.held_count() >= self.buffer_limit;
        if busy != self.own_busy {
            self.own_busy = busy;
            self.set_owed(BUSY_REPORT, true);
        }
    }

    /// ARM primary: an out-of-sequence I frame is answered with RR(V(R)). The secondary
    /// cannot poll; when its timer resends a frame whose acknowledgement was lost, this
    /// RR is the only way it can learn the frame arrived (A2). Elsewhere a discarded
    /// frame is not answered, as in Appendix A1; polls resolve these cases.
    pub(super) fn acks_out_of_sequence(&self) -> bool {
        self.mode == Mode::Arm && self.role == Role::Primary
    }

    pub(super) fn receive_i(&mut self, now: SimTime, ns: u32, msg: P) {
        if ns == self.vr {
            self.events.push_back(Event::Delivered(msg));
            self.advance_vr();
            // The gap is filled: the reject condition ends, and a REJ still waiting for
            // its turn (an NRM secondary waits for a poll) is void. Sent late it would
            // ask for frames a checkpoint retransmission is already resending.
            self.rej_condition = false;
            self.set_owed(REJ_OWED, false);
            while let Some(Some(m)) = self.held.front().cloned() {
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
                    self.set_owed(REJ_OWED, true);
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
                    self.held_bits += msg.bits() as u64;
                    self.held[d] = Some(msg);
                    self.held_frames += 1;
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
}
