//! Scenario keys of the LLC type 2 model (`kind = "llc2"`).
//!
//! IEEE 802.2 gives the procedures and names; Biersack (1992) the variants; the values
//! the paper omits (timeouts, processing) are keys with documented defaults
//! (`docs/models/llc2.md`).

use crate::schema::{Problems, Range, Table};
use serde::Serialize;

/// The protocol variant: one model, five behaviours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// IEEE 802.2 as standardised: fixed window k, REJ (go-back-N).
    Orig,
    /// Bux–Grillo dynamic window: REJ → working window 1; +1 after `n` RRs.
    Bg,
    /// Jain's policy: REJ → working window 1; +1 after (working window) RRs.
    Jain,
    /// Selective retransmission: the receiver keeps out-of-sequence frames in
    /// [V(R), V(R) + k − 1]; at most one SREJ outstanding.
    Srej,
    /// SREJ with the receiver's memory as `fifo_buffers` FIFO buffers (Gopal & Rom):
    /// one holds the in-sequence frame, the others runs of adjacent out-of-sequence
    /// frames; a frame that starts a new run with no buffer free is discarded.
    MultiFifo,
    /// SREJ with several SREJs outstanding: the receiver asks for every missing frame
    /// as soon as a later one arrives (one SREJ per missing N(S)), so recoveries overlap
    /// instead of waiting for one another. An SREJ here acknowledges nothing.
    MultiSrej,
}

impl Variant {
    pub const NAMES: &'static [&'static str] = &["orig", "bg", "jain", "srej", "multi_fifo", "multi_srej"];

    /// True for the variants whose sender shrinks its working window on REJ.
    pub fn dynamic_window(self) -> bool {
        matches!(self, Variant::Bg | Variant::Jain)
    }

    /// True for the variants whose receiver asks for single frames (SREJ).
    pub fn selective(self) -> bool {
        matches!(self, Variant::Srej | Variant::MultiFifo | Variant::MultiSrej)
    }
}

/// `kind = "llc2"`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Llc2Config {
    pub variant: Variant,
    /// k: the maximum window (modulo 128, so at most 127).
    pub window: u32,
    /// Bux–Grillo's n: RRs received per window increment.
    pub n: u32,
    /// Multi-FIFO: number of FIFO buffers m (≥ 1); 1 discards every out-of-sequence frame.
    pub fifo_buffers: u32,
    /// Multi-FIFO: after discarding a frame the receiver sends REJ(V(R)) (the sender goes
    /// back) instead of recovering each discarded frame with its own SREJ round trip.
    pub rej_after_discard: bool,
    /// Acknowledgement timer T1 (also the P-bit timer of the poll it sends).
    pub t1_s: f64,
    /// Reject timer: a REJ/SREJ not answered in this time is sent again.
    pub reject_timer_s: f64,
    /// Busy-state timer: while the peer is busy (RNR), poll it this often.
    pub busy_timer_s: f64,
    /// N2: T1 expiries in a row before the link would be reset (counted, see docs).
    pub n2: u32,
    /// N3: I frames received before an acknowledgement must be sent.
    pub n3: u32,
    /// Acknowledgement delay (T2): an RR owed for fewer than N3 frames leaves after it.
    pub ack_delay_s: f64,
    /// Whether a T1 expiry also resets the BG/JAIN working window to 1. Off by default:
    /// Biersack states the REJ as the only signal ("Whenever the sender receives a
    /// REJ-frame it reduces its current window size dw to 1").
    pub t1_resets_window: bool,
    /// Processing time of every received I frame at this station (one frame at a time,
    /// in arrival order); 0 (with `s_processing_s` 0): frames take effect on arrival.
    pub processing_s: f64,
    /// Processing time of every received S frame (RR, RNR, REJ, SREJ); unset: the I
    /// frames' `processing_s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s_processing_s: Option<f64>,
    /// LLC header bits of every PDU (DSAP, SSAP, 2-octet control: 32); the MAC framing
    /// is the medium's (the token ring's `mac_overhead_octets`).
    pub header_bits: u32,
}

impl Default for Llc2Config {
    fn default() -> Self {
        Llc2Config {
            variant: Variant::Orig,
            window: 7,
            n: 8,
            fifo_buffers: 2,
            rej_after_discard: false,
            t1_s: 1.0,
            reject_timer_s: 1.0,
            busy_timer_s: 1.0,
            n2: 8,
            n3: 1,
            ack_delay_s: 0.1,
            t1_resets_window: false,
            processing_s: 0.0,
            s_processing_s: None,
            header_bits: 32,
        }
    }
}

impl Llc2Config {
    pub fn parse(t: &mut Table, p: &mut Problems) -> Llc2Config {
        let d = Llc2Config::default();
        let variant = match t.choice("variant", "orig", Variant::NAMES, p).as_str() {
            "bg" => Variant::Bg,
            "jain" => Variant::Jain,
            "srej" => Variant::Srej,
            "multi_fifo" => Variant::MultiFifo,
            "multi_srej" => Variant::MultiSrej,
            _ => Variant::Orig,
        };
        let time = Range::Open(0.0, 1e6);
        let c = Llc2Config {
            variant,
            window: t.u64("window", d.window as u64, 1, 127, p) as u32,
            n: t.u64("n", d.n as u64, 1, 1_000_000, p) as u32,
            fifo_buffers: t.u64("fifo_buffers", d.fifo_buffers as u64, 1, 127, p) as u32,
            rej_after_discard: t.bool("rej_after_discard", d.rej_after_discard, p),
            t1_s: t.f64("t1_s", d.t1_s, time, p),
            reject_timer_s: t.f64("reject_timer_s", d.reject_timer_s, time, p),
            busy_timer_s: t.f64("busy_timer_s", d.busy_timer_s, time, p),
            n2: t.u64("n2", d.n2 as u64, 1, 1_000_000, p) as u32,
            n3: t.u64("n3", d.n3 as u64, 1, 127, p) as u32,
            ack_delay_s: t.f64("ack_delay_s", d.ack_delay_s, Range::HalfOpen(0.0, 1e6), p),
            t1_resets_window: t.bool("t1_resets_window", d.t1_resets_window, p),
            processing_s: t.f64("processing_s", d.processing_s, Range::HalfOpen(0.0, 1e6), p),
            s_processing_s: t.opt_f64("s_processing_s", Range::HalfOpen(0.0, 1e6), p),
            header_bits: t.u64("header_bits", d.header_bits as u64, 0, 1_000_000, p) as u32,
        };
        // Selective retransmission needs 2k <= 128, or an old frame could look new.
        if c.variant.selective() && c.window > 64 {
            p.push(t.path_of("window"), Some(&(c.window as u64).into()), "expected a whole number in [1, 64] with selective retransmission (modulo 128)");
        }
        c
    }
}
