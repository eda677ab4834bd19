//! HF radio ARQ (Johnson): one model with three features — selective repeat vs
//! stop-and-wait, the integrated code-combining 141B App. C modem vs an external
//! MIL-STD-188-110B modem, and duplex vs simplex client data — giving STANAG 5066,
//! 5066-1s, 3G HDL, HDL-1d and the other four combinations ([`config::VARIANTS`]).
//!
//! The link is half duplex: stations take turns, and each turn is one *transmission*
//! (a burst of packets behind one preamble). The rules, common to all variants:
//!
//! - A transmission *solicits* a response if it carries data or a request for the data
//!   direction (a REQUEST, or an ACK with the request flag). Its sender
//!   then waits: the peer's next transmission is the response; if none has started
//!   `response_timeout_s` after the end of ours, the sender may transmit again.
//! - A station transmits when it owes a response (the peer's last transmission
//!   solicited one and has ended — the end of a signal is observed even when its last
//!   packet fails its CRC), when its wait timed out, or when it is idle (neither owing
//!   nor waiting) and has something to send.
//! - A response always starts with an acknowledgement: the receive window's lower edge
//!   (every packet below it has arrived) and a bitmap of the packets received above it
//!   (STANAG 5066's selective ACK). The sender then resends every unacknowledged packet
//!   of its window before new ones (all of them were covered by that response).
//! - Stop-and-wait: one data packet per transmission, window 1. Selective repeat: up to
//!   `max_packets` packets (and `max_transmission_s` of data) per transmission, window W.
//! - Duplex: data may follow the acknowledgement in any transmission (DATA-ACK).
//!   Simplex: only the station holding the data direction sends data, and a
//!   transmission carries data or an acknowledgement, never both; a station with data
//!   but not the direction asks for it (a REQUEST, or the request flag of its ACK), and
//!   the holder hands it over with a RELEASE once it has nothing outstanding — the
//!   link-layer handshake the paper charges simplex protocols for at every reversal.
//! - External 110B modem: every transmission has the modem's preamble and its data part
//!   fills whole interleaver blocks; the data rate is chosen per transmission as the
//!   highest rate whose tabulated PER at the sender's SNR estimate is at most
//!   `target_per`. The estimate starts at `initial_snr_db` (Johnson: "set using the
//!   user-specified SNR") and follows the outcomes: −`snr_step_down_db` (2) when more
//!   than half of a transmission's packets were lost (or no response came),
//!   +`snr_step_up_db` (1) when none was. With one packet per transmission this
//!   staircase settles where a transmission fails with probability up / (up + down)
//!   (1/3 by default), whatever `target_per`. `rate_adaptation = "per_packet"` steps
//!   per packet instead ((up · received − down · lost) / packets sent), which settles
//!   where the PER is up / (up + down) for any burst size.
//! - Integrated 141B modem: data packets go in 400 ms BW2 slots behind a short sync
//!   preamble, a burst padded with empty slots to the table's sizes (BW2: 3, 6, 12 or
//!   24 packets; selective repeat only); the n-th copy of a packet is decoded with all earlier copies combined
//!   (its mode is the number of copies); acknowledgements and control are the robust
//!   BW1. HDL-1d sends a control packet (ack and data flag) optionally followed by one
//!   data packet in every transmission.
//! - Client SDUs are segmented into packets of `segment_bits` and delivered whole, in
//!   order, exactly once. With `filter_duplicates`, an SDU whose [`Payload::filter_key`]
//!   equals that of one still queued or unacknowledged is dropped on submission.

pub mod config;
pub mod wire;

pub use config::HfArqConfig;

use crate::channel::modem::ModemTable;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Counters, Event, Grant, Layer, Payload, Pdu, RetransmitCause, Sdu, Service, Station};
use crate::trace::TraceFrame;
use std::collections::VecDeque;
use std::sync::Arc;

/// What an HF packet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HfKind {
    /// A data packet (D_PDU DATA-ONLY / a BW2 slot).
    Data,
    /// An acknowledgement (ACK-ONLY / BW1 / HDL-1d's control packet).
    Ack,
    /// Simplex: asks the peer for the data direction.
    Request,
    /// Simplex: hands the data direction to the peer.
    Release,
}

impl HfKind {
    pub fn name(self) -> &'static str {
        match self {
            HfKind::Data => "DATA",
            HfKind::Ack => "ACK",
            HfKind::Request => "REQ",
            HfKind::Release => "REL",
        }
    }
}

/// One segment of a client SDU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment<P> {
    pub sdu: P,
    pub index: u32,
    pub count: u32,
}

/// An HF packet on the medium.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HfFrame<P> {
    pub kind: HfKind,
    /// Data: the packet's sequence number (FSN = seq mod 256 on the wire).
    pub seq: u64,
    pub segment: Option<Segment<P>>,
    /// Ack: the receive window's lower edge and the packets received above it (bit i:
    /// packet lwe + 1 + i).
    pub lwe: u64,
    pub bitmap: u128,
    /// The sender has client data and asks for the data direction (simplex).
    pub request: bool,
    /// First / last packet of its transmission.
    pub first: bool,
    pub last: bool,
    pub bits: u32,
    /// Client bits of the segment carried (data).
    pub info: u32,
    /// Index into the modem table's modes (data rate, or copies combined).
    pub mode: u8,
    pub airtime: Duration,
}

impl<P: Payload> Payload for HfFrame<P> {
    fn bits(&self) -> u32 {
        self.bits
    }
    fn sdu_id(&self) -> Option<u64> {
        self.segment.and_then(|s| s.sdu.sdu_id())
    }
}

impl<P: Payload> Pdu for HfFrame<P> {
    #[inline]
    fn bits(&self) -> u32 {
        self.bits
    }
    fn mode(&self) -> u8 {
        self.mode
    }
    fn airtime(&self) -> Option<Duration> {
        Some(self.airtime)
    }
    fn trace(&self) -> TraceFrame {
        TraceFrame {
            kind: self.kind.name(),
            ns: (self.kind == HfKind::Data).then_some((self.seq % 256) as u32),
            nr: (self.lwe % 256) as u32,
            pf: self.last,
            command: self.first,
            bits: self.bits,
            info_bits: self.info,
            message: self.segment.and_then(|s| s.sdu.sdu_id()),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Slot<P> {
    seg: Segment<P>,
    /// Information bits of this segment.
    bits: u32,
    acked: bool,
    /// Copies sent so far.
    sent: u32,
}

pub struct HfArq<P: Payload = Sdu> {
    sr: bool,
    integrated: bool,
    duplex: bool,
    table: Arc<ModemTable>,
    data_modes: Vec<usize>,
    control_mode: usize,
    target_per: f64,
    /// The SNR estimate's steps (dB): up after a clean transmission, down after a bad one.
    step_up: f64,
    step_down: f64,
    /// Step per packet (`rate_adaptation = "per_packet"`) instead of per transmission.
    per_packet: bool,
    segment_bits: u32,
    header_bits: u32,
    ack_bits: u32,
    window: u64,
    max_packets: usize,
    max_tx: f64,
    response_timeout: Duration,
    filter: bool,

    // Sender: SDUs not yet segmented, and the window of packets base .. base + len.
    queue: VecDeque<P>,
    /// The next segment of the SDU at the head of `queue`.
    next_index: u32,
    base: u64,
    slots: VecDeque<Slot<P>>,
    /// Sequence numbers of the data packets of our last transmission.
    last_sent: Vec<u64>,
    snr_est: f64,
    /// The index into `data_modes` of the external modem's current rate.
    rate: usize,

    // Receiver: packets rx_base .. rx_base + 128.
    rx_base: u64,
    rx: VecDeque<Option<Segment<P>>>,
    /// The acknowledgement bitmap, kept as packets arrive: bit i set if packet
    /// rx_base + 1 + i has (rx[i + 1] is some); shifted with the window.
    rx_bitmap: u128,
    held_bits: u64,

    // Turns.
    burst: VecDeque<HfFrame<P>>,
    /// Deadline of the wait for a response to our last transmission.
    awaiting: Option<SimTime>,
    /// The wait timed out: we may transmit again.
    retry: bool,
    /// The peer's transmission in progress solicits a response.
    peer_solicits: bool,
    /// ... and every data packet of it was one we already had (our ack was lost).
    peer_dups_only: bool,
    peer_had_data: bool,
    /// The peer's transmission is still arriving (its last packet has not): we do not
    /// key up over it (carrier sense; on a half-duplex radio the gate ensures it too).
    peer_busy: bool,
    /// We owe the peer a response.
    owe: bool,
    /// ... and it must acknowledge data.
    ack_pending: bool,
    /// The transmission being sent solicits a response (the wait starts at its end).
    solicit_pending: bool,
    /// Simplex: we hold the data direction; the peer asked for it.
    holder: bool,
    peer_wants: bool,

    events: VecDeque<Event<P>>,
    counters: Counters,
    packets_new: u64,
    filtered: u64,
}

/// The acknowledgement bitmap covers this many packets above the lower edge.
const BITMAP: u64 = 128;

impl<P: Payload> HfArq<P> {
    pub fn new(cfg: &HfArqConfig, _station: Station) -> Self {
        let table = cfg.table.clone().unwrap_or_else(|| unreachable!("validated: hf_arq has a modem table"));
        let mut data_modes = table.data_modes();
        if let Some(bps) = cfg.link_bps {
            data_modes.retain(|&m| table.modes[m].bps == bps); // validated: at least one
        }
        let control_mode = table.control_mode().unwrap_or(0);
        let mut s = HfArq {
            sr: cfg.selective_repeat,
            integrated: cfg.integrated_modem,
            duplex: cfg.duplex,
            data_modes,
            control_mode,
            target_per: cfg.target_per,
            step_up: cfg.snr_step_up_db,
            step_down: cfg.snr_step_down_db,
            per_packet: cfg.rate_adaptation == "per_packet",
            segment_bits: cfg.segment_bits,
            header_bits: cfg.header_bits,
            ack_bits: cfg.ack_bits,
            window: cfg.window as u64,
            max_packets: cfg.max_packets as usize,
            max_tx: cfg.max_transmission_s,
            response_timeout: Duration::from_secs_f64(cfg.response_timeout_s),
            filter: cfg.filter_duplicates,
            queue: VecDeque::new(),
            next_index: 0,
            base: 0,
            slots: VecDeque::new(),
            last_sent: Vec::new(),
            snr_est: cfg.initial_snr_db,
            rate: 0,
            rx_base: 0,
            rx: VecDeque::from(vec![None; BITMAP as usize + 1]),
            rx_bitmap: 0,
            held_bits: 0,
            burst: VecDeque::new(),
            awaiting: None,
            retry: false,
            peer_solicits: false,
            peer_dups_only: true,
            peer_had_data: false,
            peer_busy: false,
            owe: false,
            ack_pending: false,
            solicit_pending: false,
            holder: false,
            peer_wants: false,
            events: VecDeque::new(),
            counters: Counters::default(),
            packets_new: 0,
            filtered: 0,
            table,
        };
        s.choose_rate();
        s
    }

    /// The current data rate of the external modem (bit/s).
    pub fn rate_bps(&self) -> f64 {
        self.table.modes[self.data_modes[self.rate]].bps
    }

    pub fn holds_direction(&self) -> bool {
        self.holder
    }

    /// Highest rate whose PER for a full packet at the SNR estimate ≤ target (else the
    /// first mode). Between modes of equal rate the later in the table wins; a table
    /// need not be in rate order (110B lists its App. C modes after 4800 uncoded).
    fn choose_rate(&mut self) {
        if self.integrated {
            return;
        }
        let bits = self.segment_bits + self.header_bits;
        let bps = |r: usize| self.table.modes[self.data_modes[r]].bps;
        self.rate = (0..self.data_modes.len())
            .filter(|&r| self.table.per(self.data_modes[r], bits, self.snr_est) <= self.target_per)
            .max_by(|&a, &b| bps(a).total_cmp(&bps(b)).then(a.cmp(&b)))
            .unwrap_or(0);
    }

    fn adapt(&mut self, delta_db: f64) {
        let s = &self.table.snr_db;
        self.snr_est = (self.snr_est + delta_db).clamp(s[0], s[s.len() - 1]);
        self.choose_rate();
    }

    fn has_data(&self) -> bool {
        !self.queue.is_empty() || !self.slots.is_empty()
    }

    fn may_send_data(&self) -> bool {
        self.duplex || self.holder
    }

    /// Information bits of a segment.
    fn seg_bits(&self, s: &Segment<P>) -> u32 {
        if s.index + 1 == s.count {
            s.sdu.bits().max(1) - s.index * self.segment_bits
        } else {
            self.segment_bits
        }
    }

    /// Segments queued SDUs into the window.
    fn fill_window(&mut self) {
        while (self.slots.len() as u64) < self.window {
            let Some(&sdu) = self.queue.front() else { break };
            let count = sdu.bits().max(1).div_ceil(self.segment_bits);
            let seg = Segment { sdu, index: self.next_index, count };
            let bits = self.seg_bits(&seg);
            self.slots.push_back(Slot { seg, bits, acked: false, sent: 0 });
            if seg.index + 1 == count {
                self.queue.pop_front();
                self.next_index = 0;
            } else {
                self.next_index += 1;
            }
        }
    }

    fn frame(&self, kind: HfKind) -> HfFrame<P> {
        // Every unit test (the random-error property test among them) checks the kept
        // bitmap against the window.
        #[cfg(test)]
        assert_eq!(self.rx_bitmap, self.bitmap());
        HfFrame { kind, seq: 0, segment: None, lwe: self.rx_base, bitmap: self.rx_bitmap, request: false, first: false, last: false, bits: self.ack_bits, info: 0, mode: 0, airtime: Duration::ZERO }
    }

    /// The bitmap rebuilt from the receive window (tests: it equals `rx_bitmap`).
    #[cfg(test)]
    fn bitmap(&self) -> u128 {
        (0..BITMAP as usize).filter(|&i| self.rx.get(i + 1).is_some_and(Option::is_some)).fold(0, |b, i| b | 1 << i)
    }

    /// Plans the next transmission, if we may and have something to send.
    fn plan(&mut self) {
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
        self.last_sent.extend(frames.iter().filter(|f| f.kind == HfKind::Data).map(|f| f.seq));
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
    /// window in order (resends first, then new ones), within the limits.
    fn push_data(&mut self, frames: &mut VecDeque<HfFrame<P>>) -> usize {
        let (mut data, mut airtime) = (0usize, 0.0);
        let limit = if self.sr { self.max_packets } else { 1 };
        for i in 0..self.slots.len() {
            if data >= limit {
                break;
            }
            if self.slots[i].acked {
                continue;
            }
            let bits = self.data_bits(self.slots[i].bits);
            let t = self.data_airtime(bits);
            if data > 0 && airtime + t > self.max_tx {
                break;
            }
            airtime += t;
            data += 1;
            self.slots[i].sent += 1;
            let Slot { seg, sent, .. } = self.slots[i];
            let mut f = self.frame(HfKind::Data);
            f.seq = self.base + i as u64;
            f.segment = Some(seg);
            f.bits = bits;
            f.info = self.slots[i].bits;
            f.mode = self.data_mode(sent);
            frames.push_back(f);
            self.counters.i_frames_sent += 1;
            if sent == 1 {
                self.packets_new += 1;
            } else {
                self.counters.count_retransmission(if self.retry { RetransmitCause::Timeout } else { RetransmitCause::Reject });
            }
        }
        data
    }

    fn data_bits(&self, info: u32) -> u32 {
        if self.integrated {
            // A BW2 slot always carries a whole 1881-bit packet.
            self.table.modes[self.data_modes[0]].packet_bits[0]
        } else {
            info + self.header_bits
        }
    }

    /// The mode whose rate and framing data packets use now: an external modem's
    /// current rate, else the integrated waveform's first data mode.
    fn framing_mode(&self) -> usize {
        self.data_modes[if self.integrated { 0 } else { self.rate }]
    }

    fn data_airtime(&self, bits: u32) -> f64 {
        self.table.airtime_s(self.framing_mode(), bits)
    }

    fn data_mode(&self, copies: u32) -> u8 {
        if self.integrated {
            self.data_modes[(copies as usize).min(self.data_modes.len()) - 1] as u8
        } else {
            self.data_modes[self.rate] as u8
        }
    }

    /// Modes and airtimes: the preamble on the first packet, interleaver padding on
    /// the last (external modem).
    fn time(&self, frames: &mut [HfFrame<P>]) {
        let mode = self.framing_mode();
        let mut data_s = 0.0;
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
            f.airtime = Duration::from_secs_f64(t);
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

    fn slide(&mut self) {
        while self.slots.front().is_some_and(|s| s.acked) {
            let s = self.slots.pop_front().unwrap_or_else(|| unreachable!());
            self.base += 1;
            if s.seg.index + 1 == s.seg.count {
                self.events.push_back(Event::Acknowledged(s.seg.sdu));
            }
        }
    }

    fn on_ack(&mut self, f: &HfFrame<P>) {
        for i in 0..self.slots.len() {
            let seq = self.base + i as u64;
            let acked = seq < f.lwe || (seq > f.lwe && seq - f.lwe - 1 < BITMAP && f.bitmap >> (seq - f.lwe - 1) & 1 == 1);
            if acked {
                self.slots[i].acked = true;
            }
        }
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

    fn on_data(&mut self, seq: u64, seg: Segment<P>) {
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
        if self.rx[i].is_some() {
            self.counters.duplicates_discarded += 1;
            return;
        }
        self.peer_dups_only = false;
        self.rx[i] = Some(seg);
        if i > 0 {
            self.rx_bitmap |= 1 << (i - 1);
        }
        self.held_bits += u64::from(self.seg_bits(&seg));
        while let Some(Some(s)) = self.rx.front().copied() {
            self.rx.pop_front();
            self.rx.push_back(None);
            // Bit 0 was the new front's packet (now below the lower edge).
            self.rx_bitmap >>= 1;
            self.rx_base += 1;
            self.held_bits -= u64::from(self.seg_bits(&s));
            if s.index + 1 == s.count {
                self.events.push_back(Event::Delivered(s.sdu));
            }
        }
    }

    /// A frame of the peer's transmission arrived (correct or not).
    fn on_peer_frame(&mut self, f: &HfFrame<P>, ok: bool) {
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
                    if let Some(seg) = f.segment {
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

impl<P: Payload> Layer for HfArq<P> {
    const HOLDS_RECEIVED: bool = true;
    const PLANS_TRANSMISSIONS: bool = true;
    type Sdu = P;
    type Pdu = HfFrame<P>;

    fn service(&self) -> Service {
        Service::InOrder
    }

    fn handle_submit(&mut self, _now: SimTime, sdu: P) {
        if self.filter {
            if let Some(k) = sdu.filter_key() {
                let queued = self.queue.iter().any(|q| q.filter_key() == Some(k)) || self.slots.iter().any(|s| !s.acked && s.seg.sdu.filter_key() == Some(k));
                if queued {
                    self.filtered += 1;
                    return;
                }
            }
        }
        self.queue.push_back(sdu);
    }

    fn handle_receive(&mut self, _now: SimTime, f: &HfFrame<P>) {
        self.on_peer_frame(f, true);
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, f: &HfFrame<P>) {
        self.counters.frames_in_error_received += 1;
        self.on_peer_frame(f, false);
    }

    fn handle_timeout(&mut self, now: SimTime) {
        if self.awaiting.is_some_and(|d| d <= now) {
            self.awaiting = None;
            self.retry = true;
            self.counters.timeouts += 1;
            if !self.last_sent.is_empty() {
                self.adapt(-self.step_down);
                self.last_sent.clear();
            }
        }
    }

    fn poll_transmit(&mut self, now: SimTime, _grant: &Grant) -> Option<HfFrame<P>> {
        if self.burst.is_empty() {
            self.plan();
        }
        let f = self.burst.pop_front()?;
        self.counters.frames_sent += 1;
        if f.last && self.solicit_pending {
            self.awaiting = Some(now + f.airtime + self.response_timeout);
            self.solicit_pending = false;
        }
        Some(f)
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.awaiting
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        self.events.pop_front()
    }

    fn wants_transmit(&self) -> bool {
        if !self.burst.is_empty() {
            return true;
        }
        if self.peer_busy {
            return false;
        }
        if self.owe || self.retry {
            return true;
        }
        self.awaiting.is_none() && (self.has_data() || self.peer_wants)
    }

    fn backlog(&self) -> usize {
        self.queue.len()
    }

    /// Enough SDUs to fill a transmission (each is at least one packet).
    fn saturation_depth(&self) -> usize {
        self.max_packets
    }

    fn unacknowledged(&self) -> usize {
        let sdus_in_window = self.slots.iter().filter(|s| s.seg.index + 1 == s.seg.count).count();
        // A partially segmented SDU is still at the head of the queue.
        self.queue.len() + sdus_in_window
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.held_bits
    }

    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("hf_packets_sent", self.counters.i_frames_sent as f64),
            ("hf_packets_new", self.packets_new as f64),
            ("hf_duplicates_filtered", self.filtered as f64),
        ]
    }
}

#[cfg(test)]
mod tests;
