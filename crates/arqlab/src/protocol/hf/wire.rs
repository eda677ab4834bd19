//! HF ARQ packets as STANAG 5066 Annex C D_PDUs, for captures (see `trace::wire`),
//! written under LINKTYPE_STANAG_5066_D_PDU (Wireshark's s5066dts dissector).
//!
//! A D_PDU: the sync 0x90 0xEB; D_PDU type (4 bits) and EOW (12 bits); EOT (1 octet);
//! address size (3 bits) and header size (5 bits); the addresses (seven octets here:
//! destination and source, station A = 1, B = 2); the type-specific header;
//! CRC-16 over the header (from the type octet); for data, the C_PDU segment and its
//! CRC-32. Types used: DATA, DATA-ONLY (0) with its TX FSN; ACK, ACK-ONLY (1) with its
//! RX LWE; the simplex handshakes REQ / REL as MANAGEMENT (6) D_PDUs (frame id 0 / 1),
//! this model's stand-in for the direction change. The capture shows the header fields
//! a trace records (FSN, LWE, the end of the transmission); the segment's octets are
//! a pattern from the message id and the selective-ACK bitmap is not recorded (an empty one is written).

use crate::trace::wire::{Family, Wire};
use crate::trace::TraceFrame;
use serde_json::Value;

/// CRC-16 of STANAG 5066 C.3.2.8: polynomial 0x9949 (x^16+x^15+x^12+x^11+x^8+x^6+x^3+1),
/// processed least significant bit first, initial value 0, no final complement;
/// stored least significant octet first.
pub fn crc16(data: &[u8]) -> u16 {
    reflected(data, 0x9949u16.reverse_bits() as u32, 16) as u16
}

/// CRC-32 of STANAG 5066 C.3.2.10 on the C_PDU segment: polynomial 0x0AA725CF, same
/// conventions.
pub fn crc32(data: &[u8]) -> u32 {
    reflected(data, 0x0AA7_25CFu32.reverse_bits(), 32)
}

fn reflected(data: &[u8], poly_reflected: u32, width: u32) -> u32 {
    let mask = if width == 32 { u32::MAX } else { (1 << width) - 1 };
    let mut crc = 0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ poly_reflected } else { crc >> 1 };
        }
    }
    crc & mask
}

/// Octets of the address field: 7, the largest (two 28-bit addresses); it also makes
/// the shortest D_PDU (an ACK-ONLY) as long as the dissector's minimum of 15 octets.
const ADDRESS_OCTETS: u8 = 7;

pub struct HfWire {
    /// Header bits of a data packet (the rest of a packet is the segment).
    pub header_bits: u32,
}

impl Wire for HfWire {
    fn family(&self) -> Family {
        Family::S5066
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        let (src, dst) = if sender == 0 { (1u8, 2u8) } else { (2, 1) };
        let mut d = vec![0x90, 0xEB];
        let (ty, specific, segment): (u8, Vec<u8>, usize) = match f.kind {
            "DATA" => {
                let seg = (f.info_bits as usize).div_ceil(8).min(1023);
                // Deliver in order; C_PDU size in the low 10 bits; TX FSN.
                let flags = 0x20 | ((seg >> 8) as u8 & 0x03);
                (0, vec![flags, seg as u8, f.ns.unwrap_or(0) as u8], seg)
            }
            "ACK" => (1, vec![f.nr as u8], 0),
            "REQ" => (6, vec![0x00, 0], 0),
            "REL" => (6, vec![0x00, 1], 0),
            other => return Err(format!("an HF packet of kind {other:?} has no D_PDU encoding")),
        };
        // Header size: type/EOW, EOW, EOT, sizes (4) + type-specific + CRC (2).
        let header_size = 4 + specific.len() + 2;
        d.push(ty << 4);
        d.push(0); // EOW content
        d.push(u8::from(!f.pf)); // EOT: 0 in the last D_PDU of a transmission
        d.push((ADDRESS_OCTETS << 5) | header_size as u8);
        // Destination then source, ADDRESS_OCTETS nibbles each, packed.
        let nibbles: Vec<u8> = (0..2 * ADDRESS_OCTETS as usize)
            .map(|i| match i {
                i if i + 1 == ADDRESS_OCTETS as usize => dst,
                i if i + 1 == 2 * ADDRESS_OCTETS as usize => src,
                _ => 0,
            })
            .collect();
        d.extend(nibbles.chunks(2).map(|c| c[0] << 4 | c[1]));
        d.extend_from_slice(&specific);
        let crc = crc16(&d[2..]);
        d.extend_from_slice(&crc.to_le_bytes());
        if ty == 0 {
            // The segment's octets: a pattern from the message id (the simulation
            // carries lengths, not contents), so the CRC-32 is a real check.
            let start = d.len();
            let seed = f.message.unwrap_or(0);
            d.extend((0..segment).map(|i| (seed as usize).wrapping_add(i) as u8));
            let c = crc32(&d[start..]);
            d.extend_from_slice(&c.to_le_bytes());
        }
        Ok(d)
    }

    /// A corrupted D_PDU fails its header CRC (its fields stay readable).
    fn corrupt(&self, frame: &mut Vec<u8>) {
        let size = (frame.get(5).copied().unwrap_or(0) & 0x1F) as usize + ADDRESS_OCTETS as usize;
        if let Some(b) = frame.get_mut(2 + size - 2) {
            *b ^= 0xFF;
        }
    }
}

/// The encoder for a resolved `[protocol]` table, if it is `hf_arq`'s.
pub fn wire_for(protocol: &Value) -> Option<Result<Box<dyn Wire>, String>> {
    if protocol["kind"].as_str()? != "hf_arq" {
        return None;
    }
    let header_bits = protocol["header_bits"].as_u64().unwrap_or(128) as u32;
    Some(Ok(Box::new(HfWire { header_bits })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(kind: &'static str, ns: Option<u32>, nr: u32, last: bool, info_bits: u32) -> TraceFrame {
        TraceFrame { kind, ns, nr, pf: last, command: false, bits: info_bits + 128, info_bits, message: None }
    }

    #[test]
    fn d_pdus_have_the_annex_c_layout() {
        let w = HfWire { header_bits: 128 };
        let d = w.encode(&tf("DATA", Some(300 % 256), 0, true, 1600), 0).unwrap();
        assert_eq!(&d[..2], &[0x90, 0xEB]);
        assert_eq!(d[2] >> 4, 0, "DATA-ONLY");
        assert_eq!(d[5], (7 << 5) | 9, "seven address octets, 9-octet header");
        assert_eq!(&d[6..13], &[0, 0, 0, 0x20, 0, 0, 0x01], "destination B (2), source A (1)");
        assert_eq!(((d[13] as usize & 3) << 8) | d[14] as usize, 200, "segment octets");
        assert_eq!(d[15], 44, "TX FSN = 300 mod 256");
        assert_eq!(d.len(), 2 + 7 + 9 + 200 + 4);
        let a = w.encode(&tf("ACK", None, 17, false, 0), 1).unwrap();
        assert_eq!((a[2] >> 4, a[4], a[9], a[13]), (1, 1, 0x10, 17));
        assert_eq!(a.len(), 2 + 7 + 7);
        let mut bad = a.clone();
        w.corrupt(&mut bad);
        assert_ne!(bad[bad.len() - 2..], a[a.len() - 2..], "the header CRC fails");
        assert!(w.encode(&tf("XYZ", None, 0, false, 0), 0).is_err());
    }

    /// The CRC computed bit by bit, most significant bit first, on bit-reversed octets
    /// with the polynomial as written (C.3.2.8, C.3.2.10), the result reversed back: an
    /// independent reading of "least significant bit first".
    fn crc_by_bits(data: &[u8], poly: u32, width: u32) -> u32 {
        let top = 1u64 << (width - 1);
        let mask = (1u64 << width) - 1;
        let mut crc = 0u64;
        for &b in data {
            let b = b.reverse_bits();
            for k in (0..8).rev() {
                let bit = u64::from((b >> k) & 1);
                let fb = ((crc & top) != 0) as u64 ^ bit;
                crc = (crc << 1) & mask;
                if fb == 1 {
                    crc ^= u64::from(poly);
                }
            }
        }
        ((crc as u32).reverse_bits()) >> (32 - width)
    }

    #[test]
    fn stanag_5066_c_3_2_8_and_c_3_2_10_crcs_lsb_first_initial_zero_no_complement() {
        let samples: [&[u8]; 5] = [b"", b"\x01", b"123456789", &[0xFF; 40], &[0x0F, 0xA5, 0x5A, 0xF0, 0x80]];
        for d in samples {
            assert_eq!(u32::from(crc16(d)), crc_by_bits(d, 0x9949, 16), "{d:?}");
            assert_eq!(crc32(d), crc_by_bits(d, 0x0AA7_25CF, 32), "{d:?}");
        }
        assert_eq!((crc16(b""), crc32(b"")), (0, 0), "initial value 0, no final complement");
        // Stored least significant octet first, the check of a block with its CRC is 0.
        let mut d = b"123456789".to_vec();
        d.extend_from_slice(&crc16(b"123456789").to_le_bytes());
        assert_eq!(crc16(&d), 0);
    }

    #[test]
    fn d_pdu_header_crc_and_segment_crc_check_to_zero_and_eot_marks_the_last() {
        let w = HfWire { header_bits: 17 };
        for (f, header) in [
            (tf("DATA", Some(3), 0, true, 300 * 8), 9),
            (tf("ACK", None, 200, false, 0), 7),
            (tf("REQ", None, 0, true, 0), 8),
            (tf("REL", None, 0, false, 0), 8),
        ] {
            let d = w.encode(&f, 1).unwrap();
            assert_eq!(usize::from(d[5] & 0x1F), header, "{}", f.kind);
            let end = 2 + 7 + header;
            assert_eq!(crc16(&d[2..end]), 0, "{}: the header with its CRC", f.kind);
            assert_eq!(d[4], u8::from(!f.pf), "{}: EOT 0 in the last D_PDU of a transmission", f.kind);
            assert_eq!(&d[6..13], &[0, 0, 0, 0x10, 0, 0, 0x02], "{}: destination A (1), source B (2)", f.kind);
            if f.kind == "DATA" {
                assert_eq!(crc32(&d[end..]), 0, "the segment with its CRC-32");
                assert_eq!(d.len(), end + 300 + 4);
                // 300 octets: C_PDU size 0x12C in the low 10 bits of two octets.
                assert_eq!((d[13], d[14], d[15]), (0x20 | 0x01, 0x2C, 3));
            } else {
                assert_eq!(d.len(), end);
            }
            let mut bad = d.clone();
            w.corrupt(&mut bad);
            let changed: Vec<usize> = (0..d.len()).filter(|&i| bad[i] != d[i]).collect();
            assert_eq!(changed, [end - 2], "{}: the header CRC's first octet, complemented", f.kind);
            assert_eq!(bad[end - 2], !d[end - 2]);
        }
        let req = w.encode(&tf("REQ", None, 0, true, 0), 0).unwrap();
        let rel = w.encode(&tf("REL", None, 0, true, 0), 0).unwrap();
        assert_eq!((req[2] >> 4, req[13], req[14]), (6, 0, 0), "MANAGEMENT, frame id 0");
        assert_eq!((rel[2] >> 4, rel[13], rel[14]), (6, 0, 1), "frame id 1");
        // A segment longer than the 10-bit size holds is cut to 1023 octets.
        let long = w.encode(&tf("DATA", Some(0), 0, true, 2000 * 8), 0).unwrap();
        assert_eq!((long[13] & 0x03, long[14], long.len()), (0x03, 0xFF, 2 + 7 + 9 + 1023 + 4));
    }

    #[test]
    fn wire_for_answers_only_an_hf_arq_table() {
        assert!(wire_for(&serde_json::json!({"kind": "tcp"})).is_none());
        assert!(wire_for(&serde_json::json!({})).is_none());
        let w = wire_for(&serde_json::json!({"kind": "hf_arq", "header_bits": 17})).expect("hf_arq").unwrap();
        assert!(matches!(w.family(), Family::S5066));
        assert_eq!(w.encode(&tf("ACK", None, 5, true, 0), 0).unwrap()[13], 5);
    }
}

#[cfg(test)]
mod capture_tests {
    /// Writes /tmp/arqlab-hf-probe.pcap for a manual tshark check (ignored by default).
    #[test]
    #[ignore]
    fn probe() {
        use crate::trace::pcap::{write, LinkType, Packet};
        use crate::trace::wire::Wire;
        let w = super::HfWire { header_bits: 128 };
        let f = crate::trace::TraceFrame { kind: "DATA", ns: Some(5), nr: 0, pf: true, command: true, bits: 1728, info_bits: 1600, message: Some(9) };
        let a = crate::trace::TraceFrame { kind: "ACK", ns: None, nr: 6, pf: true, command: true, bits: 160, info_bits: 0, message: None };
        let p = |b: Vec<u8>| Packet { time_ns: 1, sent: true, crc_error: false, bytes: b };
        let pk = vec![p(w.encode(&f, 0).unwrap()), p(w.encode(&a, 1).unwrap())];
        std::fs::write("/tmp/arqlab-hf-probe.pcap", write(LinkType::Stanag5066, &pk)).unwrap();
    }
}
