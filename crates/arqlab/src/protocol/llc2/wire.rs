//! LLC2 PDUs in IEEE 802.5 frames, for captures (see `trace::wire`). Registered in
//! its registration (`protocol::registry`); written under LINKTYPE_IEEE802_5 (6), which Wireshark
//! decodes as `tr:llc`.
//!
//! Each frame: AC (0x10: a frame, priority 0), FC (0x40: an LLC frame), destination and
//! source addresses (station A 02:00:00:00:00:0a, B 02:00:00:00:00:0b), then the
//! IEEE 802.2 header — DSAP 0x40, SSAP 0x40 with the C/R bit (1 in responses) — the
//! modulo-128 control field of ISO 4335 (I and S formats; SREJ is the S-format code 11
//! that Biersack adds to 802.2), and the information field as zeros (the model carries
//! no user data). No FCS: a token-ring capture holds the frame as the MAC delivered it,
//! so a frame the channel corrupted is written like any other (the ladder and the
//! trace mark it). Node n's address is 02:00:00:00:00:0a + n (A = ...0a, B = ...0b).
//!
//! Under TCP (`ip`), both SAPs are 0x06 (the IEEE 802.2 SAP of DARPA IP) and each I
//! frame's information field is the segment's IPv4/TCP datagram (`tcp::wire`), which
//! Wireshark decodes as `tr:llc:ip:tcp`; the datagram is the model's segment plus a
//! 20-octet IP header the model's LLC2 frame does not count.

use crate::protocol::tcp::wire::TcpWire;
use crate::trace::wire::{hdlc_control, mac as address, Family, Hop, Wire};
use crate::trace::{Carried, TraceFrame};

/// SAP of both connection ends (individual, not a registered SAP: Wireshark shows the
/// information field as data).
pub const SAP: u8 = 0x40;
/// The SAP of IP (IEEE 802.2's registered SAP for DARPA IP), under TCP.
pub const SAP_IP: u8 = 0x06;

pub struct Llc2Wire {
    /// The encoder of the TCP segments the I frames carry, if TCP runs above.
    pub ip: Option<TcpWire>,
}

/// LLC2 under no transport that writes real bytes: information fields are zeros.
pub const PLAIN: Llc2Wire = Llc2Wire { ip: None };

/// An IPv4 datagram on a token ring from station `from` to station `to` (node or relay
/// numbers, as [`Hop`]): AC, FC, addresses, then the IEEE 802.2 SNAP header of RFC 1042
/// (DSAP = SSAP = 0xAA, UI, OUI 0, EtherType 0x0800) and the datagram; no FCS.
pub fn ipv4_on_ring(from: u32, to: u32, datagram: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(2 + 12 + 8 + datagram.len());
    out.extend_from_slice(&[0x10, 0x40]);
    out.extend_from_slice(&address(to));
    out.extend_from_slice(&address(from));
    out.extend_from_slice(&[0xAA, 0xAA, 0x03, 0, 0, 0, 0x08, 0x00]);
    out.extend_from_slice(datagram);
    out
}

impl Wire for Llc2Wire {
    fn family(&self) -> Family {
        Family::TokenRing
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        let hop = Hop::pair(sender);
        self.encode_hop(f, None, hop)
    }

    fn encode_hop(&self, f: &TraceFrame, carried: Option<&Carried>, hop: Hop) -> Result<Vec<u8>, String> {
        let control = hdlc_control(f, 128)?;
        let sap = if self.ip.is_some() { SAP_IP } else { SAP };
        let info = match (&self.ip, carried) {
            (Some(ip), Some(Carried { pdu: Some(seg), .. })) if f.kind == "I" => ip.datagram(seg, hop.from, hop.to),
            _ => vec![0; f.info_bits.div_ceil(8) as usize],
        };
        let mut out = Vec::with_capacity(2 + 12 + 2 + control.len() + info.len());
        out.extend_from_slice(&[0x10, 0x40]);
        out.extend_from_slice(&address(hop.to));
        out.extend_from_slice(&address(hop.from));
        out.extend_from_slice(&[sap, sap | u8::from(!f.command)]);
        out.extend_from_slice(&control);
        out.extend(info);
        Ok(out)
    }

    /// No FCS in a token-ring capture: nothing to spoil.
    fn corrupt(&self, _frame: &mut Vec<u8>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(kind: &'static str, ns: Option<u32>, nr: u32, pf: bool, command: bool, info_bits: u32) -> TraceFrame {
        TraceFrame { kind, ns, nr, pf, command, bits: 0, info_bits, message: None }
    }

    #[test]
    fn an_i_frame_is_ac_fc_addresses_llc_header_and_data() {
        let b = PLAIN.encode(&tf("I", Some(3), 5, true, true, 8000), 0).unwrap();
        assert_eq!(&b[..2], &[0x10, 0x40]);
        assert_eq!(&b[2..8], &address(1), "to B");
        assert_eq!(&b[8..14], &address(0), "from A");
        assert_eq!(&b[14..16], &[0x40, 0x40], "command: C/R = 0");
        assert_eq!(&b[16..18], &[3 << 1, (5 << 1) | 1], "I(3, N(R) 5, P)");
        assert_eq!(b.len(), 18 + 1000);
    }

    #[test]
    fn supervisory_frames_carry_the_response_bit_and_srej_code() {
        let rr = PLAIN.encode(&tf("RR", None, 8, true, false, 0), 1).unwrap();
        assert_eq!(&rr[2..8], &address(0));
        assert_eq!(&rr[14..], &[0x40, 0x41, 0x01, (8 << 1) | 1]);
        let srej = PLAIN.encode(&tf("SREJ", None, 3, false, false, 0), 1).unwrap();
        assert_eq!(&srej[16..], &[0x0D, 3 << 1]);
        let rej = PLAIN.encode(&tf("REJ", None, 127, false, false, 0), 1).unwrap();
        assert_eq!(&rej[16..], &[0x09, 254]);
    }

    /// TCP above (RFC 1042's IP over IEEE 802.2): both SAPs 0x06, and an I frame that
    /// carries a segment holds that segment's IPv4 datagram between the hop's nodes.
    #[test]
    fn tcp_above_sap_0x06_and_an_i_frames_information_is_the_segments_datagram() {
        let tcp = TcpWire::new(&crate::protocol::tcp::TcpConfig::default());
        let w = Llc2Wire { ip: Some(TcpWire::new(&crate::protocol::tcp::TcpConfig::default())) };
        let seg = TraceFrame { kind: "I", ns: Some(1000), nr: 77, pf: true, command: false, bits: 160 + 80, info_bits: 80, message: None };
        let carried = Carried { pdu: Some(seg), ..Carried::default() };
        let hop = Hop { sender: 0, from: 2, to: 5, local: 0 };
        let b = w.encode_hop(&tf("I", Some(3), 5, false, true, 8 * 30), Some(&carried), hop).unwrap();
        assert_eq!((&b[2..8], &b[8..14]), (&address(5)[..], &address(2)[..]), "to, then from");
        assert_eq!(&b[14..18], &[0x06, 0x06, 3 << 1, 5 << 1]);
        assert_eq!(&b[18..], &tcp.datagram(&seg, 2, 5)[..]);
        let rr = w.encode_hop(&tf("RR", None, 4, false, false, 0), Some(&Carried::default()), hop).unwrap();
        assert_eq!(&rr[14..], &[0x06, 0x07, 0x01, 4 << 1], "a response: C/R = 1, no information");
        // An I frame with no segment recorded: zeros of its information length.
        let bare = w.encode_hop(&tf("I", Some(0), 0, false, true, 16), None, hop).unwrap();
        assert_eq!(&bare[18..], &[0, 0]);
    }

    /// RFC 1042: an IP datagram on an IEEE 802 network follows an 802.2 SNAP header
    /// (AA AA 03, OUI 0, EtherType 0x0800).
    #[test]
    fn rfc1042_ipv4_on_a_ring_follows_a_snap_header() {
        let f = ipv4_on_ring(3, 1, &[0x45, 0, 0, 20]);
        assert_eq!(&f[..2], &[0x10, 0x40]);
        assert_eq!((&f[2..8], &f[8..14]), (&address(1)[..], &address(3)[..]), "destination, then source");
        assert_eq!(&f[14..22], &[0xAA, 0xAA, 0x03, 0, 0, 0, 0x08, 0x00]);
        assert_eq!(&f[22..], &[0x45, 0, 0, 20]);
    }
}
