//! Planning a transmission: the window filled from the client queue, the packets of
//! one turn (acknowledgement, data, REQUEST / RELEASE) and their modes and airtimes.

use super::{HfArq, HfFrame, HfKind, Segment, Slot};
use crate::engine::Duration;
use crate::protocol::{Payload, RetransmitCause};
use std::collections::VecDeque;

impl<P: Payload> HfArq<P> {
    /// Segments queued SDUs into the window.
    pub(super) fn fill_window(&mut self) {
        while (self.slots.len() as u64) < self.window {
            let Some(sdu) = self.queue.front().cloned() else { break };
            let count = sdu.bits().max(1).div_ceil(self.segment_bits);
            let seg = Segment { sdu, index: self.next_index, count };
            let bits = self.seg_bits(&seg);
            let last = seg.index + 1 == count;
            self.slots.push_back(Slot { seg, bits, acked: false, sent: 0 });
            if last {
                self.queue.pop_front();
                self.next_index = 0;
            } else {
                self.next_index += 1;
            }
        }
    }

    pub(super) fn frame(&self, kind: HfKind) -> HfFrame<P> {
        // Every unit test (the random-error property test among them) checks the kept
        // bitmap against the window.
        #[cfg(test)]
        assert_eq!(self.rx_bitmap, self.bitmap());
        HfFrame { kind, seq: 0, segment: None, lwe: self.rx_base, bitmap: self.rx_bitmap, request: false, first: false, last: false, bits: self.ack_bits, info: 0, mode: 0, airtime: Duration::ZERO }
    }

    /// Plans the next transmission, if we may and have something to send.
    pub(super) fn plan(&mut self) {
        if self.peer_busy || !(self.owe || self.retry || self.awaiting.is_none()) {
            return;
        }
        self.fill_window();
        // Built in the (empty) burst queue: its capacity is kept from one transmission
        // to the next.
        debug_assert!(self.burst.is_empty());
        let mut frames = std::mem::take(&mut self.burst);
        let wants_direction = !self.duplex && !self.holder && self.has_data();
        if self.ack_pending {
            let mut a = self.frame(HfKind::Ack);
            a.request = wants_direction;
            frames.push_back(a);
        }
        let mut data = 0usize;
        // Simplex: data or an acknowledgement, never both.
        if self.may_send_data() && (self.duplex || !self.ack_pending) {
            data = self.push_data(&mut frames);
        }
        let mut release = false;
        if !self.duplex && data == 0 {
            if self.peer_wants && (!self.holder || !self.has_data()) {
                // The holder with nothing left, or a station that does not hold it,
                // hands the direction to the peer that asked.
                frames.push_back(self.frame(HfKind::Release));
                release = true;
            } else if wants_direction && frames.is_empty() {
                let mut r = self.frame(HfKind::Request);
                r.request = true;
                frames.push_back(r);
            }
        }
        if frames.is_empty() {
            self.burst = frames;
            return;
        }
        // HDL-1d: every transmission starts with its robust control packet.
        if self.integrated && !self.sr && self.duplex && frames[0].kind != HfKind::Ack {
            frames.push_front(self.frame(HfKind::Ack));
        }
        if release {
            self.holder = false;
            self.peer_wants = false;
        }
        // Data, a REQUEST or an ACK with the request flag asks for an answer (the
        // holder's data or RELEASE): wait for it rather than ask again at once.
        self.solicit_pending = data > 0 || frames.iter().any(|f| f.request);
        self.last_sent.clear();
        // Each packet once (fill copies repeat the first `data`).
        self.last_sent.extend(frames.iter().filter(|f| f.kind == HfKind::Data).take(data).map(|f| f.seq));
        self.owe = false;
        self.ack_pending = false;
        self.retry = false;
        self.awaiting = None;
        self.time(frames.make_contiguous());
        self.counters.s_frames_sent += frames.iter().filter(|f| f.kind != HfKind::Data).count() as u64;
        let n = frames.len();
        for (k, f) in frames.iter_mut().enumerate() {
            f.first = k == 0;
            f.last = k + 1 == n;
        }
        self.burst = frames;
    }

    /// Appends the data packets of a transmission: every unacknowledged packet of the
    /// window in order (resends first, then new ones), within the limits. One pass over
    /// the window's slots; what every packet of the turn shares (the acknowledgement
    /// fields, the framing mode) is computed once, not per packet.
    pub(super) fn push_data(&mut self, frames: &mut VecDeque<HfFrame<P>>) -> usize {
        let (mut data, mut airtime) = (0usize, 0.0);
        let limit = if self.sr { self.max_packets } else { 1 };
        let template = self.frame(HfKind::Data);
        let framing = self.framing_mode();
        let bw2_bits = self.integrated.then(|| self.data_bits(0));
        let cause = if self.retry { RetransmitCause::Timeout } else { RetransmitCause::Reject };
        let HfArq { slots, table, data_modes, rate, integrated, header_bits, max_tx, base, counters, packets_new, .. } = self;
        for (i, s) in slots.iter_mut().enumerate() {
            if data >= limit {
                break;
            }
            if s.acked {
                continue;
            }
            let bits = bw2_bits.unwrap_or(s.bits + *header_bits);
            let t = table.airtime_s(framing, bits);
            if data > 0 && airtime + t > *max_tx {
                break;
            }
            airtime += t;
            data += 1;
            s.sent += 1;
            let mut f = template.clone();
            f.seq = *base + i as u64;
            f.segment = Some(s.seg.clone());
            f.bits = bits;
            f.info = s.bits;
            f.mode = data_mode(*integrated, data_modes, *rate, s.sent);
            frames.push_back(f);
            counters.i_frames_sent += 1;
            if s.sent == 1 {
                *packets_new += 1;
            } else {
                counters.count_retransmission(cause);
            }
        }
        if self.fill_repeats && self.integrated && self.sr && data > 0 {
            self.fill_slots(frames, data);
        }
        data
    }

    /// `fill_slots = "repeat"`: the slots a BW2 burst of `data` packets has beyond them
    /// carry further copies of those packets, first to last and round again; each copy
    /// goes in the mode of its copy count, so the receiver combines it with the earlier
    /// ones (after k copies at one SNR a packet is lost with the table's PER_k). They are
    /// packets sent (`i_frames_sent`), neither new nor retransmissions for a cause.
    /// `"repeat_first_only"`: only the burst's first sends are repeated.
    fn fill_slots(&mut self, frames: &mut VecDeque<HfFrame<P>>, data: usize) {
        let first = frames.len() - data;
        let fill = self.table.burst_slots(data as u32) as usize - data;
        let repeated: Vec<HfFrame<P>> = frames
            .iter()
            .skip(first)
            .filter(|f| !self.fill_first_only || self.slots[(f.seq - self.base) as usize].sent == 1)
            .cloned()
            .collect();
        if repeated.is_empty() {
            return;
        }
        for j in 0..fill {
            let mut f = repeated[j % repeated.len()].clone();
            let i = (f.seq - self.base) as usize;
            self.slots[i].sent += 1;
            f.mode = self.data_mode(self.slots[i].sent);
            frames.push_back(f);
            self.counters.i_frames_sent += 1;
        }
    }

    pub(super) fn data_bits(&self, info: u32) -> u32 {
        if self.integrated {
            // A BW2 slot always carries a whole 1881-bit packet.
            self.table.modes[self.data_modes[0]].packet_bits[0]
        } else {
            info + self.header_bits
        }
    }

    /// The mode whose rate and framing data packets use now: an external modem's
    /// current rate, else the integrated waveform's first data mode.
    pub(super) fn framing_mode(&self) -> usize {
        self.data_modes[if self.integrated { 0 } else { self.rate }]
    }

    pub(super) fn data_mode(&self, copies: u32) -> u8 {
        data_mode(self.integrated, &self.data_modes, self.rate, copies)
    }

    /// Modes and airtimes: the preamble on the first packet, interleaver padding on
    /// the last (external modem). An external modem's transmission without data goes
    /// at the robust rate when `ack_rate = "lowest"` (one waveform per transmission:
    /// with data, the acknowledgement rides at the data rate).
    pub(super) fn time(&self, frames: &mut [HfFrame<P>]) {
        let mode = match self.robust_control {
            Some(m) if frames.iter().all(|f| f.kind != HfKind::Data) => m,
            _ => self.framing_mode(),
        };
        let mut data_s = 0.0;
        // The packets of a turn are mostly of one size and mode: the last airtime's
        // conversion to a Duration is reused (the same value converts to the same time).
        let mut last: Option<(f64, Duration)> = None;
        for f in frames.iter_mut() {
            let t = match (self.integrated, f.kind) {
                (true, HfKind::Data) => self.table.airtime_s(f.mode as usize, f.bits),
                (true, _) => {
                    f.mode = self.control_mode as u8;
                    self.table.airtime_s(self.control_mode, f.bits)
                }
                (false, _) => {
                    f.mode = mode as u8;
                    self.table.airtime_s(mode, f.bits)
                }
            };
            f.airtime = match last {
                Some((s, d)) if s == t => d,
                _ => Duration::from_secs_f64(t),
            };
            last = Some((t, f.airtime));
            data_s += t;
        }
        // The waveform's framing (110B App. C modes have their own preamble and
        // interleaver; a slotted burst is padded to an allowed size: HDL's BW2 carries
        // 3, 6, 12 or 24 packets). HDL-1d's one optional data packet is Johnson's own
        // waveform, not a BW2 burst: not padded.
        let mut pad = self.table.rounded_s(mode, data_s) - data_s;
        if self.integrated && self.sr {
            let n = frames.iter().filter(|f| f.kind == HfKind::Data).count() as u32;
            if n > 0 {
                pad += f64::from(self.table.burst_slots(n) - n) * self.table.airtime_s(mode, 0);
            }
        }
        if let Some(last) = frames.last_mut() {
            last.airtime = last.airtime + Duration::from_secs_f64(pad.max(0.0));
        }
        if let Some(first) = frames.first_mut() {
            first.airtime = first.airtime + Duration::from_secs_f64(self.table.preamble_s(mode));
        }
    }
}

/// The mode of a data packet's `copies`-th copy: the integrated waveform's mode for that
/// many copies combined, else the external modem's current rate.
fn data_mode(integrated: bool, data_modes: &[usize], rate: usize, copies: u32) -> u8 {
    if integrated {
        data_modes[(copies as usize).min(data_modes.len()) - 1] as u8
    } else {
        data_modes[rate] as u8
    }
}
