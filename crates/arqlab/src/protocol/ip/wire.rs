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
/// RFC 2003's protocol number of an IP datagram carried in IP (IP in IP).
pub const PROTOCOL_IP_IN_IP: u8 = 4;
/// The flags-and-offset word's MF bit.
const MF: u16 = 0x2000;

pub struct IpWire {
    /// The encoder of the TCP segments the datagrams carry, if TCP runs above.
    pub tcp: Option<TcpWire>,
}

impl IpWire {
    /// The datagram (or fragment) `f` described by `c` (its ends as `c.ip`) as sent,
    /// with the whole header chain inside it: each datagram of `c.inner` (IP in IP)
    /// written the same way under protocol 4, the innermost one's data being the TCP
    /// segment `c.pdu` (protocol 6) or the users' message (zeros, protocol 253). A
    /// fragment's data is the octets of what it carries at its offset, so the pieces
    /// reassemble into the datagram written one level in.
    pub fn datagram(&self, f: &TraceFrame, c: &Carried) -> Result<Vec<u8>, String> {
        let Some(ends) = c.ip else {
            return Err(format!("frame type {:?} is not an IP datagram (no IP header in the trace)", f.kind));
        };
        // The trace's fields of a datagram (`IpPacket::trace`): N(S) = offset in 8-octet
        // units, N(R) = identification, P/F = MF, information = the fragment's data.
        let (offset8, mf) = (f.ns.unwrap_or(0), f.pf);
        let start = offset8 as usize * 8;
        let octets = (f.info_bits / 8) as usize;
        let whole = match (c.first_datagram(), &self.tcp, c.pdu) {
            (Some((g, inner)), _, _) => Some((PROTOCOL_IP_IN_IP, self.datagram(&g, &inner)?)),
            (None, Some(tcp), Some(seg)) => Some((PROTOCOL_TCP, tcp.segment(&seg, ends.src, ends.dst))),
            _ => None,
        };
        let (protocol, data) = match whole {
            Some((protocol, whole)) => {
                // The last fragment takes the rest (a segment written longer than the
                // model's, `header_bits` < 160, still reassembles).
                let end = if mf { (start + octets).min(whole.len()) } else { whole.len() };
                (protocol, whole.get(start.min(end)..end).unwrap_or_default().to_vec())
            }
            None => (PROTOCOL_EXPERIMENT, vec![0; octets]),
        };
        if offset8 >= 1 << 13 || ends.ttl > 255 {
            return Err(format!("fragment offset {offset8} or TTL {} does not fit an IPv4 header", ends.ttl));
        }
        let h = Ipv4 { id: f.nr as u16, flags_offset: if mf { MF } else { 0 } | offset8 as u16, ttl: ends.ttl as u8, protocol, src: ends.src, dst: ends.dst };
        Ok(ipv4(h, &data))
    }
}

impl Wire for IpWire {
    fn family(&self) -> Family {
        Family::Ipv4
    }

    /// A datagram's trace fields hold no addresses: only [`Wire::encode_hop`] with the
    /// packet's carried fields can write it.
    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        self.encode_hop(f, None, Hop::pair(sender))
    }

    fn encode_hop(&self, f: &TraceFrame, carried: Option<&Carried>, _hop: Hop) -> Result<Vec<u8>, String> {
        let Some(c) = carried.filter(|c| c.ip.is_some()) else {
            return Err(format!("frame type {:?} is not an IP datagram (no IP header in the trace)", f.kind));
        };
        self.datagram(f, c)
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
        Carried { pdu, ip: Some(IpEnds { src: 0, dst: 1, ttl }), ..Carried::default() }
    }

    const HOP: Hop = Hop { sender: 0, from: 4, to: 5, local: 4 };

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

    /// RFC 2003 §3 (IP in IP): the outer header's protocol is 4 and its data the inner
    /// datagram whole, header and data; each header has its own length, TTL and a
    /// checksum that verifies (RFC 791 §3.1). A segment (600 octets with its header)
    /// in a 620-octet inner datagram, wrapped in a 640-octet outer one.
    #[test]
    fn rfc2003_ip_in_ip_writes_the_whole_header_chain_under_protocol_4() {
        let tcp = TcpWire::new(&TcpConfig::default());
        let seg = TraceFrame { kind: "I", ns: Some(7), nr: 3, pf: false, command: false, bits: 8 * 600, info_bits: 8 * 580, message: Some(1) };
        let inner = (fragment(0, 11, false, 600), IpEnds { src: 0, dst: 1, ttl: 64 });
        let outer = Carried { pdu: Some(seg), ip: Some(IpEnds { src: 0, dst: 1, ttl: 30 }), inner: vec![inner], ..Carried::default() };
        let segment = tcp.segment(&seg, 0, 1);
        let w = IpWire { tcp: Some(tcp) };
        let p = w.encode_hop(&fragment(0, 5, false, 620), Some(&outer), HOP).unwrap();
        assert_eq!(p.len(), 640);
        assert_eq!((u16::from_be_bytes([p[2], p[3]]), p[8], p[9]), (640, 30, PROTOCOL_IP_IN_IP), "outer: total length, TTL, protocol 4");
        assert_eq!(internet_checksum(&[&p[..20]]), 0, "outer header checksum");
        let q = &p[20..];
        assert_eq!((u16::from_be_bytes([q[2], q[3]]), u16::from_be_bytes([q[4], q[5]]), q[8], q[9]), (620, 11, 64, PROTOCOL_TCP), "inner: its own length, identification, TTL, protocol 6");
        assert_eq!(internet_checksum(&[&q[..20]]), 0, "inner header checksum");
        assert_eq!((&q[12..16], &q[16..20]), (&[10, 0, 0, 1][..], &[10, 0, 0, 2][..]));
        assert_eq!(&q[20..], &segment[..], "then the segment");
    }

    /// RFC 791 §2.3 at the outer level: the outer layer cuts the inner datagram (its
    /// header included) into fragments whose data, in offset order, are the inner
    /// datagram's octets — what the peer's outer layer reassembles and hands up.
    #[test]
    fn rfc2003_outer_fragments_reassemble_into_the_inner_datagram() {
        let w = IpWire { tcp: None };
        let inner = (fragment(0, 2, false, 1000), IpEnds { src: 0, dst: 1, ttl: 64 });
        let on = |ttl| Carried { ip: Some(IpEnds { src: 0, dst: 1, ttl }), inner: vec![inner], ..Carried::default() };
        let whole = w.datagram(&inner.0, &on(64).first_datagram().unwrap().1).unwrap();
        assert_eq!(whole.len(), 1020);
        let a = w.encode_hop(&fragment(0, 8, true, 552), Some(&on(9)), HOP).unwrap();
        let b = w.encode_hop(&fragment(69, 8, false, 468), Some(&on(9)), HOP).unwrap();
        assert_eq!((a[9], b[9]), (PROTOCOL_IP_IN_IP, PROTOCOL_IP_IN_IP));
        assert_eq!([&a[20..], &b[20..]].concat(), whole, "the pieces are the inner datagram");
        assert_eq!(internet_checksum(&[&whole[..20]]), 0);
    }

    /// RFC 877 at a gateway: each data packet of a datagram carries its piece of the
    /// datagram with its whole header chain (M = 1 on all but the last), inside LAPB
    /// (no FCS) inside Linux's LAPB-over-Ethernet encapsulation between the two
    /// stations' MAC addresses.
    #[test]
    fn rfc877_a_gateways_data_packets_carry_the_datagram_piece_by_piece() {
        use crate::protocol::x25::wire::X25Wire;
        let tcp = TcpWire::new(&TcpConfig::default());
        let w = X25Wire { packet_octets: 128, ip: None, datagrams: Some(Box::new(IpWire { tcp: Some(TcpWire::new(&TcpConfig::default())) })) };
        assert_eq!(w.family(), Family::LapbEther);
        let seg = TraceFrame { kind: "I", ns: Some(0), nr: 0, pf: true, command: false, bits: 8 * 556, info_bits: 8 * 536, message: Some(0) };
        let dgram = TraceFrame { kind: "I", ns: Some(0), nr: 9, pf: false, command: false, bits: 8 * 576, info_bits: 8 * 556, message: Some(0) };
        let ends = IpEnds { src: 0, dst: 1, ttl: 63 };
        let on = |piece| Carried { pdu: Some(seg), piece, circuit: Some((5 << 12) | 3), inner: vec![(dgram, ends)], ..Carried::default() };
        let hop = Hop { sender: 0, from: 5, to: 6, local: 5 };
        let mut whole = vec![];
        for (piece, (octets, m)) in [(128, true), (128, true), (128, true), (128, true), (64, false)].into_iter().enumerate() {
            let f = TraceFrame { kind: "DATA", ns: Some(piece as u32), nr: 0, pf: m, command: true, bits: 24 + 8 * octets, info_bits: 8 * octets, message: None };
            let e = w.encode_hop(&f, Some(&on(piece as u32)), hop).unwrap();
            assert_eq!((&e[..6], &e[6..12], &e[12..14]), (&[2, 0, 0, 0, 0, 0x10][..], &[2, 0, 0, 0, 0, 0x0F][..], &[0x60, 0][..]), "dst, src MAC, EtherType 0x6000");
            assert_eq!(u16::from_le_bytes([e[14], e[15]]) as usize, e.len() - 16, "lapbether length");
            let x25 = &e[18..];
            assert_eq!(&x25[..3], &[0x10, 4, (u8::from(m) << 4) | ((piece as u8) << 1)], "GFI, LCN 4 (own call, channel 3), P(S) and M");
            assert_eq!(x25.len(), 3 + octets as usize, "no FCS");
            whole.extend_from_slice(&x25[3..]);
        }
        let expected = IpWire { tcp: Some(tcp) }.datagram(&dgram, &Carried { pdu: Some(seg), ip: Some(ends), ..Carried::default() }).unwrap();
        assert_eq!(whole, expected, "the M-bit sequence reassembles into the IPv4 datagram");
        assert_eq!(whole.len(), 576);
    }

    #[test]
    fn a_corrupted_packet_fails_its_header_checksum() {
        let w = IpWire { tcp: None };
        let mut p = w.encode_hop(&fragment(0, 1, false, 10), Some(&carried(None, 64)), HOP).unwrap();
        w.corrupt(&mut p);
        assert_ne!(internet_checksum(&[&p[..20]]), 0);
    }
}
