//! HDLC frames as bytes, for captures (see `trace::wire`). Registered in
//! its registration (`protocol::registry`).
//!
//! Addresses: in ABM both stations are combined stations and the frames follow LAPB
//! (ITU-T X.25 §2.4.2, single link) with station A as the DTE: commands from A and
//! responses from B carry 0x01, commands from B and responses from A carry 0x03. In NRM
//! and ARM every frame carries the secondary's (B's) address, 0x01, so a command from A
//! and a response from B read alike to a LAPB decoder that knows the direction.
//! The control field is the basic one with modulus 8 and the extended (two-octet) one
//! with modulus 128 (ISO 4335).

use crate::trace::wire::{hdlc_frame, lapb_address, Family, Wire};
use crate::trace::TraceFrame;
use serde_json::Value;

/// Address of the secondary station (B) in NRM and ARM.
pub const SECONDARY_ADDRESS: u8 = 0x01;

pub struct HdlcWire {
    pub modulus: u32,
    /// Asynchronous balanced mode (LAPB addressing); else NRM/ARM.
    pub balanced: bool,
}

impl Wire for HdlcWire {
    fn family(&self) -> Family {
        Family::Hdlc
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        let address = if self.balanced {
            lapb_address(sender, f.command)
        } else {
            SECONDARY_ADDRESS
        };
        hdlc_frame(address, f, self.modulus)
    }
}

/// The encoder for a resolved `[protocol]` table, if it is HDLC's.
pub fn wire_for(protocol: &Value) -> Option<Result<Box<dyn Wire>, String>> {
    if protocol["kind"] != "hdlc" {
        return None;
    }
    let modulus = protocol["modulus"].as_u64().unwrap_or(8) as u32;
    let balanced = protocol["mode"] == "abm";
    Some(Ok(Box::new(HdlcWire { modulus, balanced })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rr(command: bool) -> TraceFrame {
        TraceFrame {
            kind: "RR",
            ns: None,
            nr: 3,
            pf: true,
            command,
            bits: 48,
            info_bits: 0,
            message: None,
        }
    }

    #[test]
    fn abm_uses_lapb_addresses_and_nrm_the_secondarys() {
        let abm = wire_for(&json!({"kind": "hdlc", "mode": "abm", "modulus": 8}))
            .unwrap()
            .unwrap();
        assert_eq!(abm.encode(&rr(true), 0).unwrap()[0], 0x01);
        assert_eq!(abm.encode(&rr(true), 1).unwrap()[0], 0x03);
        assert_eq!(abm.encode(&rr(false), 1).unwrap()[0], 0x01);
        let nrm = wire_for(&json!({"kind": "hdlc", "mode": "nrm", "modulus": 128}))
            .unwrap()
            .unwrap();
        let bytes = nrm.encode(&rr(false), 1).unwrap();
        assert_eq!(bytes[..3], [0x01, 0x01, 0x07]);
        assert_eq!(bytes.len(), 5);
        assert!(wire_for(&json!({"kind": "go_back_n"})).is_none());
    }
}
