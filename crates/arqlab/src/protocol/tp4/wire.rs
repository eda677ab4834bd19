//! TPDUs as bytes, for captures (see `trace::wire`). Registered in
//! its registration (`protocol::registry`).
//!
//! Each TPDU is written in the ISO 8073 format the scenario configures (normal or
//! extended, with the checksum parameter computed as ISO 8073 Annex B's Fletcher
//! check), inside what Wireshark decodes as COTP without a real network layer: an
//! Ethernet II / IEEE 802.3 frame with an LLC header for OSI (DSAP = SSAP = 0xFE, UI),
//! then the one-octet ISO 8473 *inactive subset* network header (NLPID 0x00), then the
//! TPDU — `eth:llc:osi:clnp:cotp` in tshark. Node n is 02:00:00:00:00:0a + n (station A
//! ...0a, B ...0b). DST-REF names the connection at the receiver: 2c + 1 towards the
//! higher-numbered node of connection c's pair, 2c + 2 towards the lower — 0x0001
//! towards B and 0x0002 towards A in the two-node form; a node with several peers
//! (`protocol::mux`) has one connection id per peer, so each peer's TPDUs carry their
//! own references.
//!
//! Limits: the AK's credit is written as the configured window (the trace does not
//! record the credit; the model grants less only when the receive buffer binds); the
//! selective AK's extra TPDU-NR goes in the ISO 8073 selective-acknowledgement
//! parameter (code 0x8F) as a one-DT range; user data are zeros. A TPDU the channel
//! corrupted carries a failing checksum (or, without the checksum parameter, is
//! marked by the capture only through the Ethernet frame being otherwise identical).

use super::tpdu::Format;
use crate::trace::wire::{Family, Hop, Wire};
use crate::trace::{Carried, TraceFrame};
use serde_json::Value;

pub struct Tp4Wire {
    pub format: Format,
    pub checksum: bool,
    /// Credit written into AKs.
    pub credit: u32,
}

/// ISO 8073 Annex B / ISO 8473: the two checksum octets at `at` (0-based) of `tpdu`,
/// chosen so that both Fletcher sums over the whole TPDU are 0 modulo 255.
pub fn fletcher(tpdu: &[u8], at: usize) -> [u8; 2] {
    let (mut c0, mut c1) = (0i64, 0i64);
    for (i, &b) in tpdu.iter().enumerate() {
        let b = if i == at || i == at + 1 { 0 } else { b as i64 };
        c0 = (c0 + b) % 255;
        c1 = (c1 + c0) % 255;
    }
    let (l, n) = (tpdu.len() as i64, at as i64 + 1);
    let mut x = ((l - n) * c0 - c1).rem_euclid(255);
    let mut y = ((l - n + 1) * (-c0) + c1).rem_euclid(255);
    if x == 0 {
        x = 255;
    }
    if y == 0 {
        y = 255;
    }
    [x as u8, y as u8]
}

impl Tp4Wire {
    /// The TPDU alone (LI through the user data) sent by station `sender` of the
    /// two-node form (0 = A).
    pub fn tpdu(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        self.tpdu_to(f, if sender == 0 { 1 } else { 2 })
    }

    /// The TPDU alone with destination reference `dst_ref`.
    pub fn tpdu_to(&self, f: &TraceFrame, dst_ref: u16) -> Result<Vec<u8>, String> {
        let ext = self.format == Format::Extended;
        let number = |n: u32, eot: bool| -> Vec<u8> {
            if ext {
                ((u32::from(eot) << 31) | (n & 0x7FFF_FFFF)).to_be_bytes().to_vec()
            } else {
                vec![(u8::from(eot) << 7) | (n & 0x7F) as u8]
            }
        };
        let mut fixed = vec![];
        let mut params: Vec<u8> = vec![];
        let data = f.info_bits.div_ceil(8) as usize;
        match f.kind {
            "DT" | "ED" => {
                fixed.push(if f.kind == "DT" { 0xF0 } else { 0x10 });
                fixed.extend_from_slice(&dst_ref.to_be_bytes());
                fixed.extend(number(f.ns.unwrap_or(0), f.kind == "DT" && f.pf || f.kind == "ED"));
            }
            "AK" => {
                let credit = self.credit.min(if ext { 0xFFFF } else { 0x0F });
                fixed.push(if ext { 0x60 } else { 0x60 | credit as u8 });
                fixed.extend_from_slice(&dst_ref.to_be_bytes());
                fixed.extend(number(f.nr, false));
                if ext {
                    fixed.extend_from_slice(&(credit as u16).to_be_bytes());
                }
                if let Some(s) = f.ns {
                    let edge = number(s, false);
                    params.push(0x8F);
                    params.push((2 * edge.len()) as u8);
                    params.extend(&edge);
                    params.extend(&edge);
                }
            }
            "EA" => {
                fixed.push(0x20);
                fixed.extend_from_slice(&dst_ref.to_be_bytes());
                fixed.extend(number(f.nr, false));
            }
            other => return Err(format!("frame type {other:?} is not a TP4 data-transfer TPDU")),
        }
        let check_at = self.checksum.then(|| 1 + fixed.len() + params.len() + 2);
        if self.checksum {
            params.extend_from_slice(&[0xC3, 2, 0, 0]);
        }
        let li = fixed.len() + params.len();
        let mut out = Vec::with_capacity(1 + li + data);
        out.push(li as u8);
        out.extend(fixed);
        out.extend(params);
        out.resize(out.len() + data, 0);
        if let Some(at) = check_at {
            let c = fletcher(&out, at);
            out[at..at + 2].copy_from_slice(&c);
        }
        Ok(out)
    }
}

impl Wire for Tp4Wire {
    fn family(&self) -> Family {
        Family::Cotp
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        self.encode_hop(f, None, Hop::pair(sender))
    }

    /// Between nodes `hop.from` and `hop.to`, on connection `carried.conn` (0 when
    /// the node has one peer).
    fn encode_hop(&self, f: &TraceFrame, carried: Option<&Carried>, hop: Hop) -> Result<Vec<u8>, String> {
        let conn = carried.and_then(|c| c.conn).map_or(0, |(c, _)| c);
        let dst_ref = 2 * conn + if hop.to > hop.from { 1 } else { 2 };
        let dst_ref = u16::try_from(dst_ref).map_err(|_| format!("connection {conn} has no 16-bit DST-REF"))?;
        let tpdu = self.tpdu_to(f, dst_ref)?;
        let mac = crate::trace::wire::mac;
        let llc_len = 3 + 1 + tpdu.len();
        let mut out = Vec::with_capacity(14 + llc_len);
        out.extend_from_slice(&mac(hop.to));
        out.extend_from_slice(&mac(hop.from));
        out.extend_from_slice(&(llc_len as u16).to_be_bytes());
        out.extend_from_slice(&[0xFE, 0xFE, 0x03, 0x00]);
        out.extend(tpdu);
        Ok(out)
    }

    /// The checksum parameter fails (its two octets complemented).
    fn corrupt(&self, frame: &mut Vec<u8>) {
        if !self.checksum {
            return;
        }
        // LI is the first TPDU octet (after 14 Ethernet, 3 LLC, 1 NLPID octets).
        let tpdu = 18;
        let li = frame[tpdu] as usize;
        let at = tpdu + 1 + li - 2;
        frame[at] ^= 0xFF;
        frame[at + 1] ^= 0xFF;
    }
}

/// The encoder for a resolved `[protocol]` table, if it is TP4's.
pub fn wire_for(protocol: &Value) -> Option<Result<Box<dyn Wire>, String>> {
    if protocol["kind"].as_str()? != "tp4" {
        return None;
    }
    let format = if protocol["format"].as_str() == Some("normal") { Format::Normal } else { Format::Extended };
    let checksum = protocol["checksum"].as_bool().unwrap_or(true);
    let window = protocol["window_octets"].as_u64().unwrap_or(12_288);
    let dt = protocol["dt_size_octets"].as_u64().unwrap_or(1024).max(1);
    Some(Ok(Box::new(Tp4Wire { format, checksum, credit: (window / dt).max(1) as u32 })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(kind: &'static str, ns: Option<u32>, nr: u32, pf: bool, info_bits: u32) -> TraceFrame {
        TraceFrame { kind, ns, nr, pf, command: false, bits: 0, info_bits, message: None }
    }

    /// Both Fletcher sums over a TPDU with its checksum are 0 modulo 255.
    fn verifies(t: &[u8]) -> bool {
        let (mut c0, mut c1) = (0u32, 0u32);
        for &b in t {
            c0 = (c0 + b as u32) % 255;
            c1 = (c1 + c0) % 255;
        }
        c0 == 0 && c1 == 0
    }

    #[test]
    fn extended_tpdus_have_iso_8073_layouts_and_a_valid_checksum() {
        let w = Tp4Wire { format: Format::Extended, checksum: true, credit: 12 };
        let dt = w.tpdu(&tf("DT", Some(5), 0, true, 8 * 100), 0).unwrap();
        assert_eq!(&dt[..8], &[11, 0xF0, 0, 1, 0x80, 0, 0, 5]);
        assert_eq!(&dt[8..10], &[0xC3, 2]);
        assert_eq!(dt.len(), 12 + 100, "the model's 12-octet DT header");
        assert!(verifies(&dt));
        let ak = w.tpdu(&tf("AK", None, 6, false, 0), 1).unwrap();
        assert_eq!(&ak[..10], &[13, 0x60, 0, 2, 0, 0, 0, 6, 0, 12]);
        assert_eq!(ak.len(), 14);
        assert!(verifies(&ak));
        let sack = w.tpdu(&tf("AK", Some(9), 6, false, 0), 1).unwrap();
        assert_eq!(&sack[10..12], &[0x8F, 8]);
        assert!(verifies(&sack));
        let mut eth = w.encode(&tf("EA", None, 1, false, 0), 1).unwrap();
        assert_eq!(&eth[14..18], &[0xFE, 0xFE, 0x03, 0x00]);
        w.corrupt(&mut eth);
        assert!(!verifies(&eth[18..]));
    }

    /// ISO 8073's DST-REF associates a TPDU with its connection at the receiver: a node
    /// with several peers writes each connection's own reference, and the nodes' MACs.
    #[test]
    fn dst_ref_names_the_connection_of_a_multiplexed_tpdu() {
        let w = Tp4Wire { format: Format::Extended, checksum: true, credit: 12 };
        let dt = tf("DT", Some(5), 0, true, 8);
        let on = |conn, dst| Carried { conn: Some((conn, dst)), ..Carried::default() };
        // Connection 3 between nodes 1 and 2: towards 1 (the lower) 2·3 + 2, towards 2 2·3 + 1.
        let down = w.encode_hop(&dt, Some(&on(3, 1)), Hop { sender: 0, from: 2, to: 1, local: 2 }).unwrap();
        assert_eq!((&down[..6], &down[6..12]), (&[2, 0, 0, 0, 0, 0x0B][..], &[2, 0, 0, 0, 0, 0x0C][..]), "dst, src MAC");
        assert_eq!(&down[19..22], &[0xF0, 0, 8]);
        let up = w.encode_hop(&dt, Some(&on(3, 2)), Hop { sender: 1, from: 1, to: 2, local: 2 }).unwrap();
        assert_eq!(&up[19..22], &[0xF0, 0, 7]);
        // The two-node form (no connection): 1 towards B, 2 towards A, as before.
        assert_eq!(w.encode(&dt, 0).unwrap()[19..22], [0xF0, 0, 1]);
        assert_eq!(w.encode(&dt, 1).unwrap()[19..22], [0xF0, 0, 2]);
    }

    #[test]
    fn normal_format_puts_the_credit_in_the_code_octet() {
        let w = Tp4Wire { format: Format::Normal, checksum: false, credit: 7 };
        assert_eq!(w.tpdu(&tf("AK", None, 3, false, 0), 0).unwrap(), vec![4, 0x67, 0, 1, 3]);
        assert_eq!(w.tpdu(&tf("DT", Some(3), 0, false, 16), 0).unwrap(), vec![4, 0xF0, 0, 1, 3, 0, 0]);
    }
}
