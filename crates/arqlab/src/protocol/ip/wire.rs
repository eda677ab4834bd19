//! IP datagrams and fragments as real IPv4 packets, for captures (see `trace::wire`),
//! written under LINKTYPE_IPV4 (228); on a token ring the capture puts each in an IEEE
//! 802.5 frame with RFC 1042's SNAP header (`llc2::wire::ipv4_on_ring`).
//!
//! Each packet is an RFC 791 header — version 4, IHL 5, total length, identification
//! (the model's datagram number, modulo 2^16), MF and the fragment offset in 8-octet
//! units as the model cut it, TTL as the packet left its sender (a router has already
//! decremented it), protocol, the header checksum, source and destination 10.0.0.(n+1)
//! of nodes n — and the fragment's data. Under TCP (`tcp` over `ip`) the data is the
//! piece of the segment's octets at that offset (`tcp::wire`: header with its checksum,
//! zero data), protocol 6, so Wireshark reassembles the fragments and checks the TCP
//! checksum over the whole segment. Carrying the users' messages (`ip` alone) the data
//! is zeros under protocol 253 (RFC 3692: for experimentation and testing), which
//! Wireshark shows as data.
//!
//! A packet the channel corrupted has its header checksum complemented (Wireshark marks
//! it bad). The model's `framing_bits` are not written (no link header under 228).

use crate::protocol::tcp::wire::{ipv4, Ipv4, TcpWire, PROTOCOL_TCP};
use crate::trace::wire::{Family, Hop, Wire};
use crate::trace::{Carried, TraceFrame};

/// RFC 3692's protocol number for experiments: the users' messages in a datagram.
pub const PROTOCOL_EXPERIMENT: u8 = 253;
/// The flags-and-offset word's MF bit.
const MF: u16 = 0x2000;

pub struct IpWire {
    /// The encoder of the TCP segments the datagrams carry, if TCP runs above.
    pub tcp: Option<TcpWire>,
}

impl Wire for IpWire {
    fn family(&self) -> Family {
        Family::Ipv4
    }

    /// A datagram's trace fields hold no addresses: only [`Wire::encode_hop`] with the
    /// packet's carried fields can write it.
    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        self.encode_hop(f, None, Hop { sender, from: sender as u32, to: 1 - sender as u32 })
    }

    fn encode_hop(&self, f: &TraceFrame, carried: Option<&Carried>, _hop: Hop) -> Result<Vec<u8>, String> {
        let Some(ends) = carried.and_then(|c| c.ip) else {
            return Err(format!("frame type {:?} is not an IP datagram (no IP header in the trace)", f.kind));
        };
        // The trace's fields of a datagram (`IpPacket::trace`): N(S) = offset in 8-octet
        // units, N(R) = identification, P/F = MF, information = the fragment's data.
        let (offset8, mf) = (f.ns.unwrap_or(0), f.pf);
        let start = offset8 as usize * 8;
        let octets = (f.info_bits / 8) as usize;
        let (protocol, data) = match (&self.tcp, carried.and_then(|c| c.pdu)) {
            (Some(tcp), Some(seg)) => {
                let whole = tcp.segment(&seg, ends.src, ends.dst);
                // The last fragment takes the rest (a segment written longer than the
                // model's, `header_bits` < 160, still reassembles).
                let end = if mf { (start + octets).min(whole.len()) } else { whole.len() };
                (PROTOCOL_TCP, whole.get(start..end).unwrap_or_default().to_vec())
            }
            _ => (PROTOCOL_EXPERIMENT, vec![0; octets]),
        };
        if offset8 >= 1 << 13 || ends.ttl > 255 {
            return Err(format!("fragment offset {offset8} or TTL {} does not fit an IPv4 header", ends.ttl));
        }
        let h = Ipv4 { id: f.nr as u16, flags_offset: if mf { MF } else { 0 } | offset8 as u16, ttl: ends.ttl as u8, protocol, src: ends.src, dst: ends.dst };
        Ok(ipv4(h, &data))
    }

    /// The header checksum fails (complemented): Wireshark flags the packet.
    fn corrupt(&self, packet: &mut Vec<u8>) {
        if packet.len() >= 20 {
            packet[10] ^= 0xFF;
            packet[11] ^= 0xFF;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::tcp::wire::internet_checksum;
    use crate::protocol::tcp::TcpConfig;
    use crate::trace::IpEnds;

    fn fragment(offset8: u32, id: u32, mf: bool, data_octets: u32) -> TraceFrame {
        TraceFrame { kind: "I", ns: Some(offset8), nr: id, pf: mf, command: false, bits: (20 + data_octets) * 8, info_bits: data_octets * 8, message: Some(1) }
    }

    fn carried(pdu: Option<TraceFrame>, ttl: u32) -> Carried {
        Carried { pdu, piece: 0, circuit: None, ip: Some(IpEnds { src: 0, dst: 1, ttl }), conn: None }
    }

    const HOP: Hop = Hop { sender: 0, from: 4, to: 5 };

    #[test]
    fn rfc791_fragment_header_has_mf_offset_ttl_and_a_checksum_that_verifies() {
        let w = IpWire { tcp: None };
        let p = w.encode_hop(&fragment(69, 0x1_0003, true, 552), Some(&carried(None, 63)), HOP).unwrap();
        assert_eq!(p.len(), 20 + 552);
        assert_eq!(&p[0..4], &[0x45, 0, 0x02, 0x3C], "version 4, IHL 5, total length 572");
        assert_eq!(&p[4..6], &[0, 3], "identification modulo 2^16");
        assert_eq!(u16::from_be_bytes([p[6], p[7]]), 0x2000 | 69, "MF and the offset in 8-octet units");
        assert_eq!((p[8], p[9]), (63, PROTOCOL_EXPERIMENT));
        assert_eq!((&p[12..16], &p[16..20]), (&[10, 0, 0, 1][..], &[10, 0, 0, 2][..]), "the datagram's ends, not the hop's");
        assert_eq!(internet_checksum(&[&p[..20]]), 0, "a header with its checksum sums to zero");
        let last = w.encode_hop(&fragment(138, 3, false, 8), Some(&carried(None, 62)), HOP).unwrap();
        assert_eq!(u16::from_be_bytes([last[6], last[7]]), 138, "the last fragment: MF clear");
    }

    #[test]
    fn rfc791_fragments_of_a_tcp_segment_are_its_octets_at_their_offsets() {
        let tcp = TcpWire::new(&TcpConfig::default());
        let seg = TraceFrame { kind: "I", ns: Some(1000), nr: 5, pf: true, command: false, bits: 160 + 8 * 100, info_bits: 800, message: Some(1) };
        let whole = tcp.segment(&seg, 0, 1);
        let w = IpWire { tcp: Some(tcp) };
        let a = w.encode_hop(&fragment(0, 9, true, 64), Some(&carried(Some(seg), 64)), HOP).unwrap();
        let b = w.encode_hop(&fragment(8, 9, false, 56), Some(&carried(Some(seg), 64)), HOP).unwrap();
        assert_eq!(a[9], PROTOCOL_TCP);
        assert_eq!([&a[20..], &b[20..]].concat(), whole, "the pieces reassemble the segment");
        assert!(w.encode_hop(&fragment(0, 9, false, 120), None, HOP).unwrap_err().contains("not an IP datagram"));
    }

    #[test]
    fn a_corrupted_packet_fails_its_header_checksum() {
        let w = IpWire { tcp: None };
        let mut p = w.encode_hop(&fragment(0, 1, false, 10), Some(&carried(None, 64)), HOP).unwrap();
        w.corrupt(&mut p);
        assert_ne!(internet_checksum(&[&p[..20]]), 0);
    }
}
