//! X.25 packets (packet level, ITU-T X.25 §5–6, modulo 8) as metadata. A data packet
//! carries a piece of one datagram: RFC 877 sends a datagram as one complete packet
//! sequence (M = 1 on all but the last) and never puts two datagrams in one packet, so
//! a packet names its datagram (`dgram`: the sender's datagram number and the payload)
//! and its place in the sequence (`index`).

use crate::protocol::{Payload, Pdu};
use crate::trace::TraceFrame;

/// Packet types used by the model (X.25 §5.2, Table 5-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PacketKind {
    Data,
    /// Receive Ready: carries P(R) only.
    Rr,
    CallRequest,
    CallAccepted,
    ClearRequest,
    ClearConfirmation,
}

impl PacketKind {
    pub fn name(self) -> &'static str {
        match self {
            PacketKind::Data => "DATA",
            PacketKind::Rr => "RR",
            PacketKind::CallRequest => "CALL",
            PacketKind::CallAccepted => "CALL-ACC",
            PacketKind::ClearRequest => "CLEAR",
            PacketKind::ClearConfirmation => "CLEAR-CONF",
        }
    }

    /// The packet type identifier octet (X.25 Table 5-1, modulo 8), for encodings.
    pub fn type_octet(self, ps: u32, pr: u32, m: bool) -> u8 {
        match self {
            PacketKind::Data => ((pr as u8 & 7) << 5) | (u8::from(m) << 4) | ((ps as u8 & 7) << 1),
            PacketKind::Rr => ((pr as u8 & 7) << 5) | 0x01,
            PacketKind::CallRequest => 0x0B,
            PacketKind::CallAccepted => 0x0F,
            PacketKind::ClearRequest => 0x13,
            PacketKind::ClearConfirmation => 0x17,
        }
    }
}

/// Header octets of a modulo-8 packet (GFI + LCN, LCN, type).
pub const HEADER_OCTETS: u32 = 3;

/// One X.25 packet, carrying (a piece of) a datagram of type `P`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet<P> {
    pub kind: PacketKind,
    /// The virtual circuit: unique in the run (caller node << 12 | caller's channel).
    pub vc: u32,
    /// P(S), data packets only.
    pub ps: u32,
    /// P(R), data and RR packets.
    pub pr: u32,
    /// More-data bit.
    pub m: bool,
    /// The DTE (node) that sent it and the one it is for.
    pub src: u32,
    pub dst: u32,
    /// Octets of user data (data packets) or of the rest of the packet after the header.
    pub data_octets: u32,
    /// The datagram (sender's number, payload) a data packet belongs to.
    pub dgram: Option<(u64, P)>,
    /// Place of the packet in its datagram's sequence, from 0.
    pub index: u32,
}

impl<P: Payload> Packet<P> {
    pub fn control(kind: PacketKind, vc: u32, pr: u32, src: u32, dst: u32, extra_octets: u32) -> Self {
        Packet { kind, vc, ps: 0, pr, m: false, src, dst, data_octets: extra_octets, dgram: None, index: 0 }
    }
}

impl<P: Payload> Payload for Packet<P> {
    #[inline]
    fn bits(&self) -> u32 {
        8 * (HEADER_OCTETS + self.data_octets)
    }
    fn sdu_id(&self) -> Option<u64> {
        self.dgram.as_ref().and_then(|(_, p)| p.sdu_id())
    }
}

impl<P: Payload> Pdu for Packet<P> {
    #[inline]
    fn bits(&self) -> u32 {
        Payload::bits(self)
    }
    #[inline]
    fn dst(&self) -> Option<u32> {
        Some(self.dst)
    }
    fn carried(&self) -> Option<crate::trace::Carried> {
        let pdu = self.dgram.as_ref().and_then(|(_, p)| p.as_carried());
        let own = crate::trace::Carried { pdu, piece: self.index, circuit: Some(self.vc), ..Default::default() };
        // An IP datagram (RFC 877 at a gateway): its whole header chain.
        Some(own.carrying(self.dgram.as_ref().and_then(|(_, p)| p.as_datagram())))
    }
    fn trace(&self) -> TraceFrame {
        TraceFrame {
            kind: self.kind.name(),
            ns: (self.kind == PacketKind::Data).then_some(self.ps),
            nr: self.pr,
            pf: self.m,
            command: true,
            bits: Payload::bits(self),
            info_bits: 8 * if self.kind == PacketKind::Data { self.data_octets } else { 0 },
            message: self.sdu_id(),
        }
    }
}
