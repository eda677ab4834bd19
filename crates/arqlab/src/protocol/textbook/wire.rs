//! Textbook stop-and-wait, go-back-N and selective repeat frames as bytes, for
//! captures (see `trace::wire`). Registered in its registration (`protocol::registry`).
//!
//! The textbook protocols use HDLC's frame types, so they are written as LAPB frames
//! (station A the DTE): an I frame is a command, an acknowledgement (RR) or negative
//! acknowledgement (REJ, SREJ) a response, with the control field of modulus 8 for
//! M ≤ 8 and the extended one for 8 < M ≤ 128. A larger modulus has no HDLC encoding
//! and is reported.

use crate::trace::wire::{hdlc_frame, lapb_address, Family, Wire};
use crate::trace::TraceFrame;
use serde_json::Value;

pub struct TextbookWire {
    pub modulus: u32,
}

impl Wire for TextbookWire {
    fn family(&self) -> Family {
        Family::Hdlc
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        let control_modulus = if self.modulus <= 8 {
            8
        } else {
            self.modulus.max(128)
        };
        hdlc_frame(lapb_address(sender, f.kind == "I"), f, control_modulus)
    }
}

/// The encoder for a resolved `[protocol]` table, if it is a textbook protocol's.
pub fn wire_for(protocol: &Value) -> Option<Result<Box<dyn Wire>, String>> {
    let kind = protocol["kind"].as_str()?;
    if !matches!(kind, "stop_and_wait" | "go_back_n" | "selective_repeat") {
        return None;
    }
    let modulus = protocol["modulus"].as_u64().unwrap_or(2) as u32;
    if modulus > 128 {
        return Some(Err(format!(
            "protocol.modulus = {modulus}: a capture needs an HDLC control field, modulus ≤ 128"
        )));
    }
    Some(Ok(Box::new(TextbookWire { modulus })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn i_frames_are_commands_and_acks_responses() {
        let w = wire_for(&json!({"kind": "go_back_n", "modulus": 8}))
            .unwrap()
            .unwrap();
        let i = TraceFrame {
            kind: "I",
            ns: Some(2),
            nr: 0,
            pf: false,
            command: false,
            bits: 1048,
            info_bits: 1000,
            message: Some(0),
        };
        let bytes = w.encode(&i, 1).unwrap();
        assert_eq!(bytes[..2], [0x03, 0x04]);
        assert_eq!(bytes.len(), 2 + 125 + 2);
        let sr = wire_for(&json!({"kind": "selective_repeat", "modulus": 32}))
            .unwrap()
            .unwrap();
        assert_eq!(sr.encode(&i, 0).unwrap()[..3], [0x01, 0x04, 0x00]);
        assert!(wire_for(&json!({"kind": "go_back_n", "modulus": 256}))
            .unwrap()
            .is_err());
        // 128, the largest modulus the extended control field encodes, is accepted.
        let w128 = wire_for(&json!({"kind": "selective_repeat", "modulus": 128}))
            .unwrap()
            .unwrap();
        assert_eq!(w128.encode(&i, 0).unwrap()[..3], [0x01, 0x04, 0x00]);
    }
}
