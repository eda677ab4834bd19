//! LLC2 PDUs in IEEE 802.5 frames, for captures (see `trace::wire`). Registered in
//! `sim::capture::ENCODERS`; written under LINKTYPE_IEEE802_5 (6), which Wireshark
//! decodes as `tr:llc`.
//!
//! Each frame: AC (0x10: a frame, priority 0), FC (0x40: an LLC frame), destination and
//! source addresses (station A 02:00:00:00:00:0a, B 02:00:00:00:00:0b), then the
//! IEEE 802.2 header — DSAP 0x40, SSAP 0x40 with the C/R bit (1 in responses) — the
//! modulo-128 control field of ISO 4335 (I and S formats; SREJ is the S-format code 11
//! that Biersack adds to 802.2), and the information field as zeros (the model carries
//! no user data). No FCS: a token-ring capture holds the frame as the MAC delivered it,
//! so a frame the channel corrupted is written like any other (the ladder and the
//! trace mark it).

use crate::trace::wire::{hdlc_control, Family, Wire};
use crate::trace::TraceFrame;
use serde_json::Value;

/// SAP of both connection ends (individual, not a registered SAP: Wireshark shows the
/// information field as data).
pub const SAP: u8 = 0x40;
const ADDRESS: [[u8; 6]; 2] = [[0x02, 0, 0, 0, 0, 0x0a], [0x02, 0, 0, 0, 0, 0x0b]];

pub struct Llc2Wire;

impl Wire for Llc2Wire {
    fn family(&self) -> Family {
        Family::TokenRing
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        let control = hdlc_control(f, 128)?;
        let info = f.info_bits.div_ceil(8) as usize;
        let mut out = Vec::with_capacity(2 + 12 + 2 + control.len() + info);
        out.extend_from_slice(&[0x10, 0x40]);
        out.extend_from_slice(&ADDRESS[1 - sender]);
        out.extend_from_slice(&ADDRESS[sender]);
        out.extend_from_slice(&[SAP, SAP | u8::from(!f.command)]);
        out.extend_from_slice(&control);
        out.resize(out.len() + info, 0);
        Ok(out)
    }

    /// No FCS in a token-ring capture: nothing to spoil.
    fn corrupt(&self, _frame: &mut Vec<u8>) {}
}

pub fn wire_for(protocol: &Value) -> Option<Result<Box<dyn Wire>, String>> {
    (protocol["kind"].as_str()? == "llc2").then(|| Ok(Box::new(Llc2Wire) as Box<dyn Wire>))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(kind: &'static str, ns: Option<u32>, nr: u32, pf: bool, command: bool, info_bits: u32) -> TraceFrame {
        TraceFrame { kind, ns, nr, pf, command, bits: 0, info_bits, message: None }
    }

    #[test]
    fn an_i_frame_is_ac_fc_addresses_llc_header_and_data() {
        let b = Llc2Wire.encode(&tf("I", Some(3), 5, true, true, 8000), 0).unwrap();
        assert_eq!(&b[..2], &[0x10, 0x40]);
        assert_eq!(&b[2..8], &ADDRESS[1], "to B");
        assert_eq!(&b[8..14], &ADDRESS[0], "from A");
        assert_eq!(&b[14..16], &[0x40, 0x40], "command: C/R = 0");
        assert_eq!(&b[16..18], &[3 << 1, (5 << 1) | 1], "I(3, N(R) 5, P)");
        assert_eq!(b.len(), 18 + 1000);
    }

    #[test]
    fn supervisory_frames_carry_the_response_bit_and_srej_code() {
        let rr = Llc2Wire.encode(&tf("RR", None, 8, true, false, 0), 1).unwrap();
        assert_eq!(&rr[2..8], &ADDRESS[0]);
        assert_eq!(&rr[14..], &[0x40, 0x41, 0x01, (8 << 1) | 1]);
        let srej = Llc2Wire.encode(&tf("SREJ", None, 3, false, false, 0), 1).unwrap();
        assert_eq!(&srej[16..], &[0x0D, 3 << 1]);
        let rej = Llc2Wire.encode(&tf("REJ", None, 127, false, false, 0), 1).unwrap();
        assert_eq!(&rej[16..], &[0x09, 254]);
    }
}
