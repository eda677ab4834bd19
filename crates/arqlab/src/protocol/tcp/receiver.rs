//! The receiving half of a TCP endpoint: reassembly in sequence order (out-of-order
//! segments held within the window, as RFC 9293 §3.10.7.4 allows), and the
//! acknowledgement policy of RFC 1122 §4.2.3.2 / RFC 5681 §4.2: delay the ACK of an
//! in-order segment up to `delayed_ack` unless a second full segment arrives, ACK at
//! once a segment out of order (a duplicate ACK), a duplicate, or one that fills a gap.

use crate::engine::{Duration, SimTime};
use crate::protocol::Sdu;
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default)]
pub struct Receiver {
    /// RCV.NXT: the next octet expected.
    pub rcv_nxt: u64,
    /// Held out-of-order segments: start → (end, the SDU that ends there).
    ooo: BTreeMap<u64, (u64, Option<Sdu>)>,
    held_octets: u64,
    /// In-order segments received since the last ACK sent.
    unacked_segments: u32,
    /// The delayed-ACK deadline.
    pub ack_due: Option<SimTime>,
    /// An ACK must go out at the next opportunity.
    pub ack_now: bool,
}

/// What a segment did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    InOrder,
    OutOfOrder,
    Duplicate,
    /// Beyond the receive window: dropped.
    OutOfWindow,
}

impl Receiver {
    pub fn held_octets(&self) -> u64 {
        self.held_octets
    }

    /// Data octets [seq, end) arrived; `sdu` ends at `end`. In-order SDUs completed by
    /// it are pushed to `deliver`.
    pub fn on_segment(&mut self, now: SimTime, seq: u64, end: u64, sdu: Option<Sdu>, window: u64, delay: Duration, deliver: &mut impl FnMut(Sdu)) -> Arrival {
        if end <= self.rcv_nxt {
            self.ack_now = true;
            return Arrival::Duplicate;
        }
        if seq > self.rcv_nxt {
            if end - self.rcv_nxt > window {
                self.ack_now = true;
                return Arrival::OutOfWindow;
            }
            if let std::collections::btree_map::Entry::Vacant(v) = self.ooo.entry(seq) {
                v.insert((end, sdu));
                self.held_octets += end - seq;
            }
            self.ack_now = true;
            return Arrival::OutOfOrder;
        }
        self.rcv_nxt = end;
        if let Some(s) = sdu {
            deliver(s);
        }
        let filled = !self.ooo.is_empty();
        while let Some((&s, &(e, sdu))) = self.ooo.first_key_value() {
            if s > self.rcv_nxt {
                break;
            }
            self.ooo.pop_first();
            self.held_octets -= e - s;
            if e > self.rcv_nxt {
                self.rcv_nxt = e;
                if let Some(x) = sdu {
                    deliver(x);
                }
            }
        }
        self.unacked_segments += 1;
        if filled || self.unacked_segments >= 2 || delay == Duration::ZERO {
            self.ack_now = true;
        } else if self.ack_due.is_none() {
            self.ack_due = Some(now + delay);
        }
        Arrival::InOrder
    }

    /// An ACK (pure or piggybacked) carrying RCV.NXT has been sent.
    pub fn ack_sent(&mut self) {
        self.ack_now = false;
        self.ack_due = None;
        self.unacked_segments = 0;
    }

    pub fn handle_timeout(&mut self, now: SimTime) {
        if self.ack_due.is_some_and(|d| d <= now) {
            self.ack_due = None;
            self.ack_now = true;
        }
    }
}
