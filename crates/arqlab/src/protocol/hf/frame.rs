//! The HF ARQ's packets: what each is, the client segment it carries, and how it
//! goes on the medium and into a trace.

use crate::engine::Duration;
use crate::protocol::{Payload, Pdu};
use crate::trace::TraceFrame;

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
        self.segment.as_ref().and_then(|s| s.sdu.sdu_id())
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
            message: self.segment.as_ref().and_then(|s| s.sdu.sdu_id()),
        }
    }
}
