//! TCP segments as real IPv4/TCP datagrams, for captures (see `trace::wire`): the link
//! encoder that carries a segment (LLC2's I frame, X.25's data packets) asks this one
//! for the datagram's octets.
//!
//! Each segment becomes an IPv4 header (RFC 791: version 4, IHL 5, total length, DF,
//! TTL 64, protocol 6, the header checksum) and a TCP header (RFC 9293 §3.1: ports,
//! sequence and acknowledgement numbers, flags, window, the checksum over the
//! pseudo-header), then the data as zero octets. How the model's segment maps to it
//! (`protocol::tcp::endpoint`): an I frame with `command` is a SYN (with ACK when P/F
//! is set: the SYN-ACK), a header-only I frame otherwise is a FIN, an I frame with data
//! carries ACK (and PSH when it ends an SDU), an RR is a pure ACK. Node n has address
//! 10.0.0.0 + n + 1 and talks from port 1024 + n: both ends of a connection agree.
//!
//! Limits: the advertised window is the configured receive window (at most 65,535:
//! no window scaling); a TCP header longer than 20 octets (`header_bits` up to 480) is
//! padded with NOP options; a shorter `header_bits` is still written as 20 octets, so
//! the capture's lengths then differ from the model's.

use super::TcpConfig;
use crate::trace::wire::{Family, Hop, Wire};
use crate::trace::{Carried, TraceFrame};

pub struct TcpWire {
    /// The model's TCP header length in bits (`header_bits`).
    pub header_bits: u32,
    /// The window every segment advertises.
    pub window: u16,
}

/// RFC 1071 Internet checksum: the one's complement of the one's-complement sum of
/// 16-bit words (an odd last octet padded with zero).
pub fn internet_checksum(parts: &[&[u8]]) -> u16 {
    let mut sum: u32 = 0;
    let mut odd: Option<u8> = None;
    for part in parts {
        for &b in *part {
            match odd.take() {
                Some(hi) => sum += u32::from(u16::from_be_bytes([hi, b])),
                None => odd = Some(b),
            }
        }
    }
    if let Some(hi) = odd {
        sum += u32::from(hi) << 8;
    }
    while sum > 0xFFFF {
        sum = (sum & 0xFFFF) + (sum >> 16);
    }
    !(sum as u16)
}

/// The IPv4 address of node `n`.
pub fn address(n: u32) -> [u8; 4] {
    (0x0A00_0000 + n + 1).to_be_bytes()
}

// TCP flag bits (RFC 9293 §3.1).
const FIN: u8 = 0x01;
const SYN: u8 = 0x02;
const PSH: u8 = 0x08;
const ACK: u8 = 0x10;

impl TcpWire {
    pub fn new(cfg: &TcpConfig) -> TcpWire {
        TcpWire { header_bits: cfg.header_bits, window: cfg.receive_window_octets.min(65_535) as u16 }
    }

    /// Octets of TCP header written: the model's, rounded up to 32-bit words, 20 to 60.
    fn header_octets(&self) -> usize {
        (self.header_bits.div_ceil(32) * 4).clamp(20, 60) as usize
    }

    /// The flags and data length of segment `s`.
    fn flags_and_data(&self, s: &TraceFrame) -> (u8, usize) {
        let data = (s.bits.saturating_sub(self.header_bits) / 8) as usize;
        let flags = match (s.kind, s.command) {
            ("I", true) => SYN | if s.pf { ACK } else { 0 },
            ("I", false) if data == 0 => FIN | ACK,
            ("I", false) => ACK | if s.pf { PSH } else { 0 },
            _ => ACK,
        };
        (flags, data)
    }

    /// The whole IPv4 datagram of segment `s` from node `src` to node `dst`.
    pub fn datagram(&self, s: &TraceFrame, src: u32, dst: u32) -> Vec<u8> {
        let tcp = self.segment(s, src, dst);
        ipv4(Ipv4 { id: 0, flags_offset: DF, ttl: 64, protocol: PROTOCOL_TCP, src, dst }, &tcp)
    }

    /// The TCP segment `s` (header and zero data) from node `src` to node `dst`, its
    /// checksum over the pseudo-header of those addresses.
    pub fn segment(&self, s: &TraceFrame, src: u32, dst: u32) -> Vec<u8> {
        let (flags, data) = self.flags_and_data(s);
        let hlen = self.header_octets();
        let mut tcp = Vec::with_capacity(hlen + data);
        tcp.extend_from_slice(&(1024 + src as u16).to_be_bytes());
        tcp.extend_from_slice(&(1024 + dst as u16).to_be_bytes());
        tcp.extend_from_slice(&s.ns.unwrap_or(0).to_be_bytes());
        // A SYN without ACK has no acknowledgement number (RFC 9293: zero).
        let ack = if flags & ACK != 0 { s.nr } else { 0 };
        tcp.extend_from_slice(&ack.to_be_bytes());
        tcp.push(((hlen / 4) as u8) << 4);
        tcp.push(flags);
        tcp.extend_from_slice(&self.window.to_be_bytes());
        tcp.extend_from_slice(&[0, 0, 0, 0]); // checksum (below), urgent pointer
        tcp.resize(hlen, 0x01); // NOP options
        tcp.resize(hlen + data, 0);
        let (sa, da) = (address(src), address(dst));
        let pseudo = [&sa[..], &da[..], &[0, 6], &(tcp.len() as u16).to_be_bytes()].concat();
        let c = internet_checksum(&[&pseudo, &tcp]);
        tcp[16..18].copy_from_slice(&c.to_be_bytes());
        tcp
    }
}

/// IPv4's protocol number of TCP.
pub const PROTOCOL_TCP: u8 = 6;
/// The flags-and-offset word's DF bit (RFC 791: don't fragment).
pub const DF: u16 = 0x4000;

/// The fields of an RFC 791 header that vary between datagrams (version 4, IHL 5, no
/// options, TOS 0; total length and checksum follow from the data).
pub struct Ipv4 {
    pub id: u16,
    /// Flags (DF 0x4000, MF 0x2000) and the fragment offset in 8-octet units.
    pub flags_offset: u16,
    pub ttl: u8,
    pub protocol: u8,
    /// Source and destination nodes (addresses by [`address`]).
    pub src: u32,
    pub dst: u32,
}

/// The IPv4 datagram of `h` around `data`, with its header checksum.
pub fn ipv4(h: Ipv4, data: &[u8]) -> Vec<u8> {
    let total = 20 + data.len();
    let mut ip = Vec::with_capacity(total);
    ip.extend_from_slice(&[0x45, 0]);
    ip.extend_from_slice(&(total as u16).to_be_bytes());
    ip.extend_from_slice(&h.id.to_be_bytes());
    ip.extend_from_slice(&h.flags_offset.to_be_bytes());
    ip.extend_from_slice(&[h.ttl, h.protocol, 0, 0]);
    ip.extend_from_slice(&address(h.src));
    ip.extend_from_slice(&address(h.dst));
    let c = internet_checksum(&[&ip]);
    ip[10..12].copy_from_slice(&c.to_be_bytes());
    ip.extend_from_slice(data);
    ip
}

/// TCP's segments as the medium's packets (TCP over a datagram layer, which writes what
/// it carries: `trace::wire::Through`), under LINKTYPE_IPV4.
impl Wire for TcpWire {
    fn family(&self) -> Family {
        Family::Ipv4
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        self.encode_hop(f, None, Hop::pair(sender))
    }

    fn encode_hop(&self, f: &TraceFrame, _: Option<&Carried>, hop: Hop) -> Result<Vec<u8>, String> {
        if !matches!(f.kind, "I" | "RR") {
            return Err(format!("frame type {:?} is not a TCP segment", f.kind));
        }
        Ok(self.datagram(f, hop.from, hop.to))
    }

    /// The TCP checksum fails (complemented): Wireshark flags the segment.
    fn corrupt(&self, frame: &mut Vec<u8>) {
        if frame.len() >= 38 {
            frame[36] ^= 0xFF;
            frame[37] ^= 0xFF;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(kind: &'static str, ns: u32, nr: u32, pf: bool, command: bool, bits: u32) -> TraceFrame {
        TraceFrame { kind, ns: (kind == "I").then_some(ns), nr, pf, command, bits, info_bits: 0, message: None }
    }

    fn wire() -> TcpWire {
        TcpWire::new(&TcpConfig::default())
    }

    #[test]
    fn rfc1071_checksum_of_the_rfc_example() {
        // RFC 1071 §3: the words 0001 f203 f4f5 f6f7 sum to ddf2; the checksum is !ddf2.
        assert_eq!(internet_checksum(&[&[0x00, 0x01, 0xf2, 0x03], &[0xf4, 0xf5, 0xf6, 0xf7]]), !0xddf2);
        // An odd octet is padded with zero on the right.
        assert_eq!(internet_checksum(&[&[0x01]]), !0x0100);
    }

    #[test]
    fn rfc791_header_checksum_verifies_and_lengths_add_up() {
        let d = wire().datagram(&seg("I", 1000, 77, true, false, 160 + 8 * 100), 0, 1);
        assert_eq!(d.len(), 20 + 20 + 100);
        assert_eq!(&d[0..4], &[0x45, 0, 0, 140]);
        assert_eq!((d[9], &d[12..16], &d[16..20]), (6, &[10, 0, 0, 1][..], &[10, 0, 0, 2][..]));
        assert_eq!(internet_checksum(&[&d[..20]]), 0, "a header with its checksum sums to zero");
    }

    #[test]
    fn rfc9293_checksum_covers_the_pseudo_header() {
        let d = wire().datagram(&seg("I", 1000, 77, false, false, 160 + 8 * 33), 2, 5);
        let tcp = &d[20..];
        let pseudo = [&d[12..20], &[0, 6], &(tcp.len() as u16).to_be_bytes()].concat();
        assert_eq!(internet_checksum(&[&pseudo, tcp]), 0);
        // Ports 1024 + node, seq and ack as the model numbers them.
        assert_eq!(&tcp[0..4], &[4, 2, 4, 5]);
        assert_eq!(u32::from_be_bytes(tcp[4..8].try_into().unwrap()), 1000);
        assert_eq!(u32::from_be_bytes(tcp[8..12].try_into().unwrap()), 77);
        assert_eq!((tcp[12], tcp[13]), (0x50, ACK), "5 words, ACK, no PSH mid-SDU");
        assert_eq!(u16::from_be_bytes([tcp[14], tcp[15]]), 4096);
    }

    #[test]
    fn rfc9293_flags_of_syn_syn_ack_fin_and_pure_ack() {
        let w = wire();
        let flags = |s: TraceFrame| w.datagram(&s, 0, 1)[33];
        let syn = w.datagram(&seg("I", 7, 99, false, true, 160), 0, 1);
        assert_eq!(syn[33], SYN);
        assert_eq!(&syn[28..32], &[0, 0, 0, 0], "a SYN without ACK carries no acknowledgement number");
        assert_eq!(flags(seg("I", 7, 8, true, true, 160)), SYN | ACK);
        assert_eq!(flags(seg("I", 500, 8, false, false, 160)), FIN | ACK);
        assert_eq!(flags(seg("I", 500, 8, true, false, 168)), ACK | PSH);
        assert_eq!(flags(seg("RR", 0, 8, false, false, 160)), ACK);
    }

    #[test]
    fn longer_headers_are_padded_with_nop_options() {
        let w = TcpWire { header_bits: 192, window: 10 };
        let d = w.datagram(&seg("I", 0, 0, false, false, 192 + 8), 0, 1);
        assert_eq!(d.len(), 20 + 24 + 1);
        assert_eq!((d[32] >> 4, &d[40..44]), (6, &[1, 1, 1, 1][..]));
    }
}
