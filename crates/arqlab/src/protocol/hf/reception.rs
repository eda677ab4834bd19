//! The peer's packets arriving: acknowledgements sliding the send window (and stepping
//! the rate), data into the receive window with its kept bitmap, the turn's end.

use super::{ring_slot, HfArq, HfFrame, HfKind, Segment, BITMAP};
use crate::protocol::{Event, Payload};

impl<P: Payload> HfArq<P> {
    /// The bitmap rebuilt from the receive window (tests: it equals `rx_bitmap`).
    #[cfg(test)]
    pub(super) fn bitmap(&self) -> u128 {
        (0..BITMAP).filter(|&i| self.rx[ring_slot(self.rx_base + 1 + i)].is_some()).fold(0, |b, i| b | 1 << i)
    }

    pub(super) fn slide(&mut self) {
        while self.slots.front().is_some_and(|s| s.acked) {
            let s = self.slots.pop_front().unwrap_or_else(|| unreachable!());
            self.base += 1;
            if s.seg.index + 1 == s.seg.count {
                self.events.push_back(Event::Acknowledged(s.seg.sdu));
            }
        }
    }

    /// Marks the packets an acknowledgement covers: those below its lower edge, and
    /// those above it whose bitmap bit is set. Visits only those packets (the prefix
    /// below the edge, then the bitmap's set bits), not the whole send window.
    pub(super) fn mark_acked(&mut self, f: &HfFrame<P>) {
        let n = self.slots.len() as u64;
        for s in self.slots.iter_mut().take(f.lwe.saturating_sub(self.base).min(n) as usize) {
            s.acked = true;
        }
        // Bit j: packet lwe + 1 + j (the bitmap covers BITMAP packets).
        const _: () = assert!(BITMAP == u128::BITS as u64);
        let mut bits = f.bitmap;
        while bits != 0 {
            let seq = f.lwe + 1 + u64::from(bits.trailing_zeros());
            bits &= bits - 1;
            if seq >= self.base && seq - self.base < n {
                self.slots[(seq - self.base) as usize].acked = true;
            }
        }
    }

    pub(super) fn on_ack(&mut self, f: &HfFrame<P>) {
        self.mark_acked(f);
        // Rate adaptation on the outcome of our last transmission's data packets.
        if !self.last_sent.is_empty() {
            let lost = self.last_sent.iter().filter(|&&q| q >= self.base && self.slots.get((q - self.base) as usize).is_some_and(|s| !s.acked)).count();
            let n = self.last_sent.len();
            if self.per_packet {
                // Every packet steps the estimate: it settles where the PER is
                // up / (up + down).
                self.adapt((self.step_up * (n - lost) as f64 - self.step_down * lost as f64) / n as f64);
            } else if 2 * lost > n {
                self.adapt(-self.step_down);
            } else if lost == 0 {
                self.adapt(self.step_up);
            }
            self.last_sent.clear();
        }
        if f.request {
            self.peer_wants = true;
        }
        self.slide();
    }

    pub(super) fn on_data(&mut self, seq: u64, seg: Segment<P>) {
        self.peer_had_data = true;
        if seq < self.rx_base {
            self.counters.duplicates_discarded += 1;
            return;
        }
        let i = (seq - self.rx_base) as usize;
        let limit = if self.sr { BITMAP as usize } else { 0 };
        if i > limit {
            // Beyond the window (cannot happen with a conforming sender).
            return;
        }
        if self.rx[ring_slot(seq)].is_some() {
            self.counters.duplicates_discarded += 1;
            return;
        }
        self.peer_dups_only = false;
        self.held_bits += u64::from(self.seg_bits(&seg));
        self.rx[ring_slot(seq)] = Some(seg);
        if i > 0 {
            self.rx_bitmap |= 1 << (i - 1);
        }
        // A packet leaves its slot as the lower edge passes it, so every slot outside
        // the window is empty.
        while let Some(s) = self.rx[ring_slot(self.rx_base)].take() {
            // Bit 0 was the next packet's (now the lower edge).
            self.rx_bitmap >>= 1;
            self.rx_base += 1;
            self.held_bits -= u64::from(self.seg_bits(&s));
            if s.index + 1 == s.count {
                self.events.push_back(Event::Delivered(s.sdu));
            }
        }
    }

    /// A frame of the peer's transmission arrived (correct or not).
    pub(super) fn on_peer_frame(&mut self, f: &HfFrame<P>, ok: bool) {
        if f.first {
            self.peer_solicits = false;
            self.peer_dups_only = true;
            self.peer_had_data = false;
        }
        // The peer is answering: whatever it says, the wait is over.
        self.awaiting = None;
        self.peer_busy = !f.last;
        self.retry = false;
        if ok {
            match f.kind {
                HfKind::Data => {
                    self.peer_solicits = true;
                    self.ack_pending = true;
                    if let Some(seg) = f.segment.clone() {
                        self.on_data(f.seq, seg);
                    }
                }
                HfKind::Ack => self.on_ack(f),
                HfKind::Request => {
                    self.peer_solicits = true;
                    self.peer_wants = true;
                }
                HfKind::Release => {
                    if !self.duplex {
                        self.holder = true;
                        self.peer_wants = false;
                    }
                }
            }
        } else if f.kind == HfKind::Data || f.kind == HfKind::Request {
            // A packet in error still tells the receiver a transmission arrived that
            // expects an answer (the modem synchronised; the CRC failed).
            self.peer_solicits = true;
            self.peer_dups_only = false;
            self.ack_pending |= f.kind == HfKind::Data;
        }
        if f.last {
            if self.peer_solicits {
                self.owe = true;
            }
            // The peer resent only packets we had: our acknowledgement did not arrive.
            if self.peer_had_data && self.peer_dups_only {
                self.adapt(-self.step_down);
            }
            // Our data went unanswered by an ack (it was lost): resend all.
            self.last_sent.clear();
        }
    }
}
