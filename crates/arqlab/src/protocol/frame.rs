//! Frames as metadata: type, sequence numbers, P/F, length. No bytes on the hot path.

use super::layer::{Payload, Pdu, Sdu};

/// Frame types. HDLC names are used for the textbook protocols too: an individual
/// acknowledgement is an RR whose N(R) names the frame acknowledged plus one, a negative
/// acknowledgement is a REJ (go-back-N) or SREJ (selective).
///
/// Four bytes wide on purpose: as one byte it sat beside the two flag bytes, each
/// written by its own store, and the runner's copy of a fresh frame into its lane read
/// the three as one word — a store-forwarding stall on every frame (5% of a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum FrameKind {
    I,
    RR,
    RNR,
    REJ,
    SREJ,
}

impl FrameKind {
    pub fn name(self) -> &'static str {
        match self {
            FrameKind::I => "I",
            FrameKind::RR => "RR",
            FrameKind::RNR => "RNR",
            FrameKind::REJ => "REJ",
            FrameKind::SREJ => "SREJ",
        }
    }
}

/// A data-link frame carrying a payload `P`: an [`Sdu`], or the PDU of a layer above.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<P = Sdu> {
    pub kind: FrameKind,
    /// N(S): send sequence number (I frames).
    pub ns: u32,
    /// N(R): receive sequence number (I and S frames).
    pub nr: u32,
    /// The P/F bit.
    pub pf: bool,
    /// Command (true) or response (false); meaningful for HDLC only.
    pub command: bool,
    /// Total length on the line in bits (header + information + FCS + flags).
    pub bits: u32,
    /// The information field (I frames).
    pub msg: Option<P>,
}

impl<P: Payload> Frame<P> {
    pub fn supervisory(kind: FrameKind, nr: u32, pf: bool, bits: u32) -> Frame<P> {
        Frame {
            kind,
            ns: 0,
            nr,
            pf,
            command: false,
            bits,
            msg: None,
        }
    }

    /// The frame `build` writes into a fresh one, if it writes one: a layer's
    /// `poll_transmit` in terms of its `poll_transmit_into`.
    #[inline]
    pub fn built_by(build: impl FnOnce(&mut Frame<P>) -> bool) -> Option<Frame<P>> {
        let mut f = Frame::supervisory(FrameKind::RR, 0, false, 0);
        build(&mut f).then_some(f)
    }

    /// Makes this frame (a medium's slot) a supervisory one: `supervisory`, in place.
    #[inline(always)]
    pub fn set_supervisory(&mut self, kind: FrameKind, nr: u32, pf: bool, bits: u32) {
        *self = Frame::supervisory(kind, nr, pf, bits);
    }

    /// Makes this frame (a medium's slot) an I frame: `information`, in place.
    #[inline(always)]
    pub fn set_information(&mut self, ns: u32, nr: u32, pf: bool, msg: P, overhead_bits: u32) {
        *self = Frame::information(ns, nr, pf, msg, overhead_bits);
    }

    pub fn information(ns: u32, nr: u32, pf: bool, msg: P, overhead_bits: u32) -> Frame<P> {
        Frame {
            kind: FrameKind::I,
            ns,
            nr,
            pf,
            command: false,
            bits: msg.bits() + overhead_bits,
            msg: Some(msg),
        }
    }
}

impl<P: Payload> Payload for Frame<P> {
    #[inline]
    fn bits(&self) -> u32 {
        self.bits
    }
    fn sdu_id(&self) -> Option<u64> {
        self.msg.as_ref().and_then(|m| m.sdu_id())
    }
    /// A TCP segment carried by a link layer (the HF ARQ's duplicate filter): an I frame
    /// (data, or a SYN: `command`) is the same segment as another with the same sequence
    /// number, length and SYN flag, whatever its acknowledgement number; ACKs (RR) are
    /// never filtered.
    fn filter_key(&self) -> Option<u64> {
        (self.kind == FrameKind::I).then(|| (u64::from(self.command) << 63) | (u64::from(self.ns) << 24) | u64::from(self.bits & 0xFF_FFFF))
    }
    fn as_carried(&self) -> Option<crate::trace::TraceFrame> {
        Some(Pdu::trace(self))
    }
}

impl<P: Payload> Pdu for Frame<P> {
    #[inline]
    fn bits(&self) -> u32 {
        self.bits
    }
    #[inline(always)]
    fn copy_into(&self, slot: &mut Self) {
        slot.kind = self.kind;
        slot.ns = self.ns;
        slot.nr = self.nr;
        slot.pf = self.pf;
        slot.command = self.command;
        slot.bits = self.bits;
        slot.msg = self.msg.as_ref().map(|m| m.in_flight_copy());
    }
    /// The PDU of the layer above (a TCP segment), or the IP datagram it is with its
    /// whole header chain (`Carried::inner`).
    fn carried(&self) -> Option<crate::trace::Carried> {
        let m = self.msg.as_ref()?;
        if let Some(d) = m.as_datagram() {
            return Some(crate::trace::Carried::default().carrying(Some(d)));
        }
        Some(crate::trace::Carried { pdu: Some(m.as_carried()?), ..Default::default() })
    }
    fn trace(&self) -> crate::trace::TraceFrame {
        if let Some(inner) = self.msg.as_ref().and_then(|m| m.trace_inner()) {
            // A payload that shows itself (a TPDU in a network packet): its fields, the
            // whole frame's length.
            return crate::trace::TraceFrame { bits: self.bits, ..inner };
        }
        crate::trace::TraceFrame {
            kind: self.kind.name(),
            ns: (self.kind == FrameKind::I).then_some(self.ns),
            nr: self.nr,
            pf: self.pf,
            command: self.command,
            bits: self.bits,
            info_bits: self.msg.as_ref().map_or(0, |m| m.bits()),
            message: self.msg.as_ref().and_then(|m| m.sdu_id()),
        }
    }
}
