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
mod frame;
mod rate;
mod reception;
mod transmission;
pub mod wire;

pub use config::HfArqConfig;
pub use frame::{HfFrame, HfKind, Segment};

use crate::channel::modem::ModemTable;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Counters, Event, Grant, Layer, Payload, Sdu, Service, Station};
use std::collections::VecDeque;
use std::sync::Arc;

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
    /// External modem: the mode of a transmission without data (`ack_rate`): `None`,
    /// the current data rate; else the lowest-rate data mode.
    robust_control: Option<usize>,
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
    /// BW2 fill slots carry further copies of the burst's packets (all, or first sends only).
    fill_repeats: bool,
    fill_first_only: bool,

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
    /// (SNR estimate's bits, rate) already chosen (`rate.rs`).
    rate_memo: Vec<(u64, usize)>,

    // Receiver: packets rx_base .. rx_base + 128.
    rx_base: u64,
    /// The receive window as a ring: packet `seq` in slot `seq % RING` (the window's
    /// 129 packets never share a slot), so the window slides by moving `rx_base` alone.
    rx: Box<[Option<Segment<P>>; RING]>,
    /// The acknowledgement bitmap, kept as packets arrive: bit i set if packet
    /// rx_base + 1 + i has (its ring slot is some); shifted with the window.
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
/// Slots of the receive ring: a power of two above the window's BITMAP + 1 packets.
const RING: usize = 256;
const _: () = assert!(RING.is_power_of_two() && RING as u64 > BITMAP);

/// The receive ring's slot of packet `seq`.
#[inline]
fn ring_slot(seq: u64) -> usize {
    seq as usize & (RING - 1)
}

impl<P: Payload> HfArq<P> {
    pub fn new(cfg: &HfArqConfig, _station: Station) -> Self {
        let table = cfg.table.clone().unwrap_or_else(|| unreachable!("validated: hf_arq has a modem table"));
        let mut data_modes = table.data_modes();
        if let Some(bps) = cfg.link_bps {
            data_modes.retain(|&m| table.modes[m].bps == bps); // validated: at least one
        }
        let control_mode = table.control_mode().unwrap_or(0);
        let robust_control = (cfg.ack_rate == "lowest").then(|| data_modes.iter().copied().min_by(|&a, &b| table.modes[a].bps.total_cmp(&table.modes[b].bps))).flatten();
        let mut s = HfArq {
            sr: cfg.selective_repeat,
            integrated: cfg.integrated_modem,
            duplex: cfg.duplex,
            data_modes,
            control_mode,
            robust_control,
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
            fill_repeats: cfg.fill_slots != "empty",
            fill_first_only: cfg.fill_slots == "repeat_first_only",
            queue: VecDeque::new(),
            next_index: 0,
            base: 0,
            slots: VecDeque::new(),
            last_sent: Vec::new(),
            snr_est: cfg.initial_snr_db,
            rate: 0,
            rate_memo: Vec::new(),
            rx_base: 0,
            rx: Box::new(std::array::from_fn(|_| None)),
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

    fn has_data(&self) -> bool {
        !self.queue.is_empty() || !self.slots.is_empty()
    }

    fn may_send_data(&self) -> bool {
        self.duplex || self.holder
    }

    /// The next packet of the transmission under way, planning one if none is.
    #[inline]
    fn next_frame(&mut self) -> Option<HfFrame<P>> {
        if self.burst.is_empty() {
            self.plan();
        }
        self.burst.pop_front()
    }

    /// Packet `f` starts now: the wait for a response starts at the end of the last.
    #[inline]
    fn sent_frame(&mut self, now: SimTime, f: &HfFrame<P>) {
        self.counters.frames_sent += 1;
        if f.last && self.solicit_pending {
            self.awaiting = Some(now + f.airtime + self.response_timeout);
            self.solicit_pending = false;
        }
    }

    /// Information bits of a segment.
    fn seg_bits(&self, s: &Segment<P>) -> u32 {
        if s.index + 1 == s.count {
            s.sdu.bits().max(1) - s.index * self.segment_bits
        } else {
            self.segment_bits
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
        let f = self.next_frame()?;
        self.sent_frame(now, &f);
        Some(f)
    }

    /// The burst's next packet goes straight from the burst queue into the medium's
    /// slot (one copy, not two through a returned value).
    #[inline]
    fn poll_transmit_into(&mut self, now: SimTime, _grant: &Grant, slot: &mut HfFrame<P>) -> bool {
        let Some(f) = self.next_frame() else { return false };
        *slot = f;
        self.sent_frame(now, slot);
        true
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

    /// Packets acknowledged (the window's lower edge) and received in order (the
    /// receive window's): an SDU of many segments moves on segment by segment.
    fn progress(&self) -> u64 {
        self.base + self.rx_base
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
