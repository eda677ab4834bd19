//! An IP-like network layer (RFC 791): a datagram header with TTL, identification,
//! fragment offset and MF; fragmentation to a medium's MTU and reassembly at the
//! destination ([`fragment`]); the host's layer ([`host`]). Routers forward these
//! datagrams hop by hop (`channel::relay`, an `ip_router` relay): TTL decremented and
//! checked, per-interface MTU and fragmentation, drop-tail output queues in octets.
//!
//! No bytes: a fragment carries a copy of the whole upper PDU plus its own offset and
//! length; the destination delivers that PDU once every octet of it has arrived.

pub mod fragment;
pub mod host;
pub mod wire;

use super::{Payload, Pdu};
use crate::schema::{Problems, Range, Table};
use crate::trace::TraceFrame;
use serde::Serialize;

pub use super::ip_header::{IpHeader, HEADER_OCTETS};
pub use fragment::{fragment, Reassembly};
pub use host::IpHost;

/// The smallest MTU every IP module must handle without further fragmentation (RFC 791
/// §3.2, "Fragmentation": 68 octets).
pub const MIN_MTU_OCTETS: u32 = 68;

/// `kind = "ip"`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct IpConfig {
    /// Time to live set by the source.
    pub ttl: u32,
    /// Link framing around each datagram on the medium (bits; 0: IP directly on it).
    pub framing_bits: u32,
    /// Reassembly timer: a datagram whose fragments are not all in this long after the
    /// first is discarded (RFC 791 suggests a lower bound of 15 s).
    pub reassembly_timeout_s: f64,
}

impl IpConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> IpConfig {
        IpConfig {
            ttl: t.f64("ttl", 64.0, Range::Closed(1.0, 255.0), p) as u32,
            framing_bits: t.f64("framing_bits", 0.0, Range::Closed(0.0, 1e6), p) as u32,
            reassembly_timeout_s: t.f64("reassembly_timeout_s", 15.0, Range::Closed(1e-6, 1e9), p),
        }
    }
}

/// A datagram (or fragment) on a medium: its header, the upper PDU it is part of, and
/// the link framing around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IpPacket<P> {
    pub hdr: IpHeader,
    pub msg: P,
    pub framing_bits: u32,
}

impl<P: Payload> IpPacket<P> {
    /// A whole datagram carrying `msg` (its data: the PDU's bits rounded up to octets).
    pub fn new(src: u32, dst: u32, id: u32, ttl: u32, msg: P, framing_bits: u32) -> Self {
        let total_octets = HEADER_OCTETS + msg.bits().div_ceil(8);
        IpPacket { hdr: IpHeader { src, dst, id, offset8: 0, mf: false, ttl, total_octets }, msg, framing_bits }
    }
}

impl<P: Payload> Payload for IpPacket<P> {
    fn bits(&self) -> u32 {
        self.hdr.total_octets * 8 + self.framing_bits
    }
    fn sdu_id(&self) -> Option<u64> {
        self.msg.sdu_id()
    }
    fn trace_inner(&self) -> Option<TraceFrame> {
        self.msg.trace_inner()
    }
    fn as_datagram(&self) -> Option<(TraceFrame, crate::trace::Carried)> {
        Some((Pdu::trace(self), Pdu::carried(self)?))
    }
    /// A whole datagram is the same segment as another between the same ends whose
    /// carried PDU has the same key: the link under a router's interface (the HF ARQ's
    /// duplicate filter, Johnson's "each TCP segment submitted to the ARQ entity")
    /// sees IP datagrams, and a TCP retransmission is a new datagram (new
    /// identification) around the same segment. The ends are mixed into the carried
    /// key (an odd multiplier, a bijection; two distinct segments collide with
    /// probability 2⁻⁶⁴). A fragment is never filtered: dropping one fragment of a
    /// copy would leave its siblings to cross for nothing.
    fn filter_key(&self) -> Option<u64> {
        let h = &self.hdr;
        if h.offset8 != 0 || h.mf {
            return None;
        }
        let ends = (u64::from(h.src) << 32 | u64::from(h.dst)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.msg.filter_key().map(|k| k ^ ends.rotate_left(17))
    }
}

impl<P: Payload> Pdu for IpPacket<P> {
    fn bits(&self) -> u32 {
        Payload::bits(self)
    }
    fn dst(&self) -> Option<u32> {
        Some(self.hdr.dst)
    }
    fn trace(&self) -> TraceFrame {
        let h = &self.hdr;
        TraceFrame {
            kind: "I",
            ns: Some(h.offset8),
            nr: h.id,
            pf: h.mf,
            command: false,
            bits: Payload::bits(self),
            info_bits: h.data_octets() * 8,
            message: self.msg.sdu_id(),
        }
    }
    /// The upper PDU (a TCP segment, or the datagram of an IP layer above with what it
    /// carries: IP in IP) and the header fields a capture needs.
    fn carried(&self) -> Option<crate::trace::Carried> {
        let h = &self.hdr;
        let ip = Some(crate::trace::IpEnds { src: h.src, dst: h.dst, ttl: h.ttl });
        let own = crate::trace::Carried { pdu: self.msg.as_carried(), piece: h.offset8, ip, ..Default::default() };
        Some(own.carrying(self.msg.as_datagram()))
    }
    fn ip_header(&mut self) -> Option<&mut IpHeader> {
        Some(&mut self.hdr)
    }
    fn ip_fragments(&self, mtu_octets: u32, out: &mut Vec<Self>) {
        fragment(self, mtu_octets, |f| out.push(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SimTime;
    use crate::protocol::hf::{HfArq, HfArqConfig};
    use crate::protocol::{Frame, Layer, Sdu, Station};

    /// A TCP segment (sequence number `seq`, acknowledging `ack`) in a datagram `id`.
    fn datagram(src: u32, dst: u32, id: u32, seq: u32, ack: u32) -> IpPacket<Frame<Sdu>> {
        let sdu = Sdu { id: u64::from(seq), bits: 4288, flow: 0, born: SimTime::ZERO };
        IpPacket::new(src, dst, id, 64, Frame::information(seq, ack, false, sdu, 160), 0)
    }

    /// Johnson: "each TCP segment submitted to the ARQ entity for transmission was
    /// compared to queued segments and discarded if an earlier copy was already
    /// awaiting or in transmission" — at a router the ARQ entity is handed IP
    /// datagrams, and a TCP retransmission is a new datagram around the same segment.
    #[test]
    fn johnsons_filter_sees_the_tcp_segment_inside_a_whole_ip_datagram() {
        let cfg = HfArqConfig::of("5066");
        let mut hf = HfArq::<IpPacket<Frame<Sdu>>>::new(&cfg, Station::A);
        hf.handle_submit(SimTime::ZERO, datagram(1, 2, 10, 536, 0));
        hf.handle_submit(SimTime::ZERO, datagram(1, 2, 11, 536, 1));
        assert_eq!(hf.backlog(), 1, "the same segment in a new datagram (new id, later ACK) is a copy");
        hf.handle_submit(SimTime::ZERO, datagram(1, 2, 12, 1072, 1));
        hf.handle_submit(SimTime::ZERO, datagram(3, 2, 13, 536, 0));
        hf.handle_submit(SimTime::ZERO, datagram(1, 4, 14, 536, 0));
        assert_eq!(hf.backlog(), 4, "another segment, or the same numbers between other ends, is not");
        let whole = datagram(1, 2, 15, 2144, 0);
        let mut pieces = vec![];
        fragment(&whole, 296, |f| pieces.push(f));
        assert!(pieces.len() > 1 && pieces.iter().all(|f| f.filter_key().is_none()), "a fragment is never filtered");
        assert_eq!(hf.extra_measures().iter().find(|m| m.0 == "hf_duplicates_filtered"), Some(&("hf_duplicates_filtered", 1.0)));
    }
}
