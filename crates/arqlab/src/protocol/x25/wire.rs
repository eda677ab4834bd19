//! X.25 packets as bytes, for captures (see `trace::wire`): each packet inside a LAPB
//! I frame (so the pcap's LAPB link type carries it and Wireshark's LAPB dissector hands
//! it to its X.25 dissector). Registered in its registration (`protocol::registry`).
//!
//! The trace shows the packet on the network side of the DCE, where the model has no
//! LAPB numbering: the enclosing I frame carries N(S) = N(R) = 0. The packet header is
//! X.25's (modulo 8): GFI 0x1 with LCN 1, the type octet of Table 5-1 with P(S), P(R)
//! and M; user data are zero octets; a CALL REQUEST/ACCEPTED carries empty address and
//! facility blocks, a CLEAR REQUEST cause and diagnostic 0.
//!
//! Under TCP (`ip`), the LCN is the packet's virtual circuit + 1, and each data packet's
//! user data is its piece of the segment's IPv4/TCP datagram (`tcp::wire`): octets
//! [index · packet_octets, + data octets) — Wireshark reassembles the M-bit sequence
//! and decodes `lapb:x.25:ip:tcp`. The datagram's length matches the model's when
//! `ip_header_bits` = 160 and the TCP `header_bits` = 160 (the defaults). These frames
//! carry no FCS (Wireshark's LAPB dissector would read it as packet octets), and a CALL
//! REQUEST carries the call user data 0xCC that RFC 877 gives IP circuits; a capture
//! window that opens mid-datagram holds that datagram's later packets only, which
//! Wireshark then reassembles into a malformed datagram.

use super::packet::PacketKind;
use crate::protocol::tcp::wire::TcpWire;
use crate::trace::wire::{append_fcs, lapb_address, Family, Hop, Wire};
use crate::trace::{Carried, TraceFrame};

pub struct X25Wire {
    /// Largest user-data field of a data packet (`packet_octets`).
    pub packet_octets: u32,
    /// The encoder of the TCP segments the datagrams carry, if TCP runs above.
    pub ip: Option<TcpWire>,
}

/// X.25 under no transport that writes real bytes: LCN 1, user data zeros.
pub const PLAIN: X25Wire = X25Wire { packet_octets: 128, ip: None };

fn kind_of(name: &str) -> Result<PacketKind, String> {
    Ok(match name {
        "DATA" => PacketKind::Data,
        "RR" => PacketKind::Rr,
        "CALL" => PacketKind::CallRequest,
        "CALL-ACC" => PacketKind::CallAccepted,
        "CLEAR" => PacketKind::ClearRequest,
        "CLEAR-CONF" => PacketKind::ClearConfirmation,
        other => return Err(format!("frame type {other:?} is not an X.25 packet")),
    })
}

/// The X.25 packet (header and body) of a trace record.
pub fn packet_octets(f: &TraceFrame) -> Result<Vec<u8>, String> {
    let kind = kind_of(f.kind)?;
    let mut out = vec![0x10, 0x01, kind.type_octet(f.ns.unwrap_or(0), f.nr, f.pf)];
    let body = match kind {
        PacketKind::Data => f.info_bits.div_ceil(8) as usize,
        PacketKind::CallRequest | PacketKind::CallAccepted => 2,
        PacketKind::ClearRequest => 2,
        PacketKind::Rr | PacketKind::ClearConfirmation => 0,
    };
    out.resize(3 + body, 0);
    Ok(out)
}

impl Wire for X25Wire {
    fn family(&self) -> Family {
        Family::Hdlc
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        let hop = Hop { sender, from: sender as u32, to: 1 - sender as u32 };
        self.encode_hop(f, None, hop)
    }

    fn encode_hop(&self, f: &TraceFrame, carried: Option<&Carried>, hop: Hop) -> Result<Vec<u8>, String> {
        let mut out = vec![lapb_address(hop.sender, true), 0x00];
        let mut packet = packet_octets(f)?;
        if let (Some(ip), Some(c)) = (&self.ip, carried) {
            let lcn = (c.circuit.unwrap_or(0) + 1).min(0xFFF) as u16;
            packet[0] = 0x10 | (lcn >> 8) as u8;
            packet[1] = lcn as u8;
            if f.kind == "CALL" {
                packet.push(0xCC); // RFC 877: the call user data of an IP circuit
            }
            if let (Some(seg), "DATA") = (c.pdu, f.kind) {
                let datagram = ip.datagram(&seg, hop.from, hop.to);
                let start = (c.piece * self.packet_octets) as usize;
                packet.truncate(3);
                packet.extend((start..start + f.info_bits.div_ceil(8) as usize).map(|i| datagram.get(i).copied().unwrap_or(0)));
            }
        }
        out.extend(packet);
        // Wireshark's LAPB dissector takes everything after the control field as the
        // packet (it expects no FCS): under TCP the FCS would end up inside the
        // reassembled datagram, so those frames go without it (the SITA pseudo-header's
        // CRC-error flag still marks a corrupted one).
        if self.ip.is_none() {
            append_fcs(&mut out);
        }
        Ok(out)
    }

    /// Without an FCS (under TCP) only the pseudo-header marks the error.
    fn corrupt(&self, frame: &mut Vec<u8>) {
        if self.ip.is_none() {
            crate::trace::wire::corrupt(frame);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(kind: &'static str, ns: Option<u32>, nr: u32, m: bool, info: u32) -> TraceFrame {
        TraceFrame { kind, ns, nr, pf: m, command: true, bits: 24 + info, info_bits: info, message: None }
    }

    #[test]
    fn test_data_rr_and_call_packets_encode_per_table_5_1() {
        let d = PLAIN.encode(&tf("DATA", Some(3), 5, true, 16), 0).unwrap();
        assert_eq!(&d[..7], &[0x01, 0x00, 0x10, 0x01, (5 << 5) | 0x10 | (3 << 1), 0, 0]);
        assert_eq!(d.len(), 2 + 3 + 2 + 2, "LAPB header, X.25 header, 2 data octets, FCS");
        let rr = PLAIN.encode(&tf("RR", None, 2, false, 0), 1).unwrap();
        assert_eq!(&rr[..5], &[0x03, 0x00, 0x10, 0x01, 0x41]);
        assert_eq!(packet_octets(&tf("CALL", None, 0, false, 0)).unwrap(), vec![0x10, 0x01, 0x0B, 0, 0]);
        assert!(PLAIN.encode(&tf("REJ", None, 0, false, 0), 0).is_err());
    }

    /// RFC 877: "the Call User Data field ... [is] 0xCC" in a CALL REQUEST of a circuit
    /// carrying IP; other packets carry none (a CALL ACCEPTED's body is its empty
    /// address and facility blocks).
    #[test]
    fn rfc877_a_call_request_of_an_ip_circuit_carries_call_user_data_0xcc() {
        let ip = X25Wire { packet_octets: 128, ip: Some(TcpWire { header_bits: 160, window: 4096 }) };
        let on = Carried { pdu: None, piece: 0, circuit: Some(2), ip: None, conn: None };
        let hop = Hop { sender: 0, from: 0, to: 1 };
        let call = ip.encode_hop(&tf("CALL", None, 0, false, 0), Some(&on), hop).unwrap();
        assert_eq!(&call[2..], &[0x10, 0x03, 0x0B, 0, 0, 0xCC], "LCN = circuit + 1, empty address and facility blocks, then 0xCC");
        let acc = ip.encode_hop(&tf("CALL-ACC", None, 0, false, 0), Some(&on), hop).unwrap();
        assert_eq!(&acc[2..], &[0x10, 0x03, 0x0F, 0, 0], "no call user data in a CALL ACCEPTED");
    }

    /// Wireshark's own dissectors read the capture as LAPB carrying X.25 (skipped, with
    /// a note, where tshark is not installed; tests/test_capture.py requires it).
    #[test]
    fn test_tshark_decodes_x25_inside_lapb() {
        use crate::trace::pcap::{write, LinkType, Packet};
        let Ok(out) = std::process::Command::new("tshark").arg("--version").output() else {
            eprintln!("tshark missing: skipped");
            return;
        };
        assert!(out.status.success());
        let frames = [tf("CALL", None, 0, false, 0), tf("DATA", Some(1), 0, true, 1024), tf("RR", None, 2, false, 0)];
        let packets: Vec<Packet> = frames
            .iter()
            .enumerate()
            .map(|(i, f)| Packet { time_ns: i as u64 * 1000, sent: i != 2, crc_error: false, bytes: PLAIN.encode(f, usize::from(i == 2)).unwrap() })
            .collect();
        let path = std::env::temp_dir().join(format!("arqlab-x25-{}.pcap", std::process::id()));
        std::fs::write(&path, write(LinkType::Sita, &packets)).unwrap();
        let o = std::process::Command::new("tshark")
            .args(["-r", path.to_str().unwrap(), "-T", "fields", "-e", "x25.lcn", "-e", "x25.type", "-e", "x25.p_s", "-e", "x25.p_r", "-e", "x25.m"])
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&path);
        let text = String::from_utf8_lossy(&o.stdout);
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 3, "{text}\n{}", String::from_utf8_lossy(&o.stderr));
        assert!(rows[0].starts_with("1\t0x0b"), "call request: {}", rows[0]);
        assert!(rows[1].starts_with("1\t") && rows[1].contains("\t1\t0\t"), "data P(S) 1 P(R) 0: {}", rows[1]);
        assert!(rows[2].contains("0x01") && rows[2].contains("\t2"), "RR P(R) 2: {}", rows[2]);
    }
}
