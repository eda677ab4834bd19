//! Frames as bytes, for captures (pcap) only: never on the hot path, never read by a
//! run. A protocol makes its frames into bytes by implementing [`Wire`] beside its own
//! code (`protocol/hdlc/wire.rs`, `protocol/textbook/wire.rs`) and naming it in its
//! registration (`protocol::registry`, `wire:`); the capture writer only knows [`Family`], the kind of
//! bytes an encoder produces, which picks the pcap link type.
//!
//! What an encoder gets is a trace record's header fields ([`TraceFrame`]: kind, N(S),
//! N(R), P/F, command/response, length, information bits) and the sender (station 0 =
//! A, 1 = B); anything else it needs (modulus, mode) it takes from the scenario when it
//! is built. The helpers below build ISO 3309 / 4335 (HDLC) and X.25 LAPB frames.

use super::{Carried, TraceFrame};

/// The kind of bytes an encoder produces; each maps to a pcap link type
/// (`trace::pcap::LinkType`). Later models add theirs (LLC2 on token ring, STANAG 5066
/// D_PDUs, IPv4) next to this one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// An HDLC/LAPB frame from the address field through the FCS: no flags and no
    /// bit stuffing (a capture shows the frame after the receiver removed both).
    Hdlc,
    /// An ISO 8073 TPDU in an IEEE 802.3 frame with an OSI LLC header and the ISO 8473
    /// inactive-subset network header (`protocol::tp4::wire`).
    Cotp,
    /// An IEEE 802.5 frame (AC, FC, addresses) carrying an IEEE 802.2 PDU, without FCS
    /// (`protocol::llc2::wire`).
    TokenRing,
    /// A STANAG 5066 D_PDU (`protocol::hf::wire`).
    S5066,
    /// An IPv4 datagram (TCP's segments over a datagram layer, `protocol::tcp::wire`;
    /// the `ip` layer's datagrams and fragments, `protocol::ip::wire`).
    Ipv4,
    /// A frame with no header format of its own carrying the users' messages (a lone
    /// `datagram` layer): zero octets as long as the frame ([`Opaque`]).
    Opaque,
    /// A LAPB frame (no FCS) in Linux's LAPB-over-Ethernet encapsulation ([`lapb_ether`]):
    /// X.25 carrying IP (`protocol::x25::wire`), whose two directions Wireshark must
    /// tell apart to reassemble each M-bit sequence on its own.
    LapbEther,
}

/// Where a captured frame is: the side of the interface that sent it (0: the
/// interface's own end, 1: the far end), the nodes it went between (node indices;
/// a relay counts after the nodes), and the address the interface's own end has in
/// its protocol (an X.25 DTE's, which numbers the circuits it calls).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hop {
    pub sender: usize,
    pub from: u32,
    pub to: u32,
    pub local: u32,
}

impl Hop {
    /// A frame of the pair form sent by station `sender` (0 = A, 1 = B), captured at A.
    pub fn pair(sender: usize) -> Hop {
        Hop { sender, from: sender as u32, to: 1 - sender as u32, local: 0 }
    }
}

/// A protocol's frame encoder.
pub trait Wire {
    fn family(&self) -> Family;
    /// The frame `f` as sent by station `sender` (0 = A, 1 = B), with a correct FCS.
    /// Errors name what cannot be encoded (e.g. a sequence modulus above 128).
    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String>;
    /// The frame `f` on `hop`, carrying `carried` (the PDU of the layer above, when the
    /// trace has it): encoders that write carried PDUs or per-node addresses override
    /// this; the default is [`Wire::encode`] by the sending side.
    fn encode_hop(&self, f: &TraceFrame, carried: Option<&Carried>, hop: Hop) -> Result<Vec<u8>, String> {
        let _ = carried;
        self.encode(f, hop.sender)
    }
    /// Makes an encoded frame fail its receiver's check, its header still readable
    /// (default: the HDLC FCS complemented, [`corrupt`]).
    fn corrupt(&self, frame: &mut Vec<u8>) {
        corrupt(frame);
    }
}

/// The frames of a layer with no header format (a datagram) written as the PDU each
/// carries, by the encoder of the layer above, as that layer's trace shows it (the
/// datagram's own overhead is not written).
pub struct Through(pub Box<dyn Wire>);

impl Wire for Through {
    fn family(&self) -> Family {
        self.0.family()
    }

    fn encode(&self, f: &TraceFrame, sender: usize) -> Result<Vec<u8>, String> {
        self.0.encode(f, sender)
    }

    /// An IP datagram carried (IP over a datagram framing) is written with its whole
    /// header chain; another PDU by its trace fields alone.
    fn encode_hop(&self, f: &TraceFrame, carried: Option<&Carried>, hop: Hop) -> Result<Vec<u8>, String> {
        if let Some((d, c)) = carried.and_then(Carried::first_datagram) {
            return self.0.encode_hop(&d, Some(&c), hop);
        }
        let Some(p) = carried.and_then(|c| c.pdu) else {
            return self.0.encode_hop(f, None, hop);
        };
        self.0.encode_hop(&p, None, hop)
    }

    fn corrupt(&self, frame: &mut Vec<u8>) {
        self.0.corrupt(frame);
    }
}

/// The frames of a layer with no header format alone on a medium (user messages in
/// datagrams): as many zero octets as the frame has bits on the line, rounded up.
/// There is nothing to check, so a corrupted frame is written like any other (the trace
/// and the ladder mark it).
pub struct Opaque;

impl Wire for Opaque {
    fn family(&self) -> Family {
        Family::Opaque
    }

    fn encode(&self, f: &TraceFrame, _sender: usize) -> Result<Vec<u8>, String> {
        Ok(vec![0; f.bits.div_ceil(8) as usize])
    }

    fn corrupt(&self, _frame: &mut Vec<u8>) {}
}

/// The MAC address a capture gives node or relay `n` (as [`Hop`] numbers them): the
/// locally administered 02:00:00:00:00:0a + n.
pub fn mac(n: u32) -> [u8; 6] {
    let [a, b, c, d] = (0x0A + n).to_be_bytes();
    [0x02, 0, a, b, c, d]
}

/// A LAPB frame from station `from` to `to` as Linux's `lapbether` driver sends it on
/// an Ethernet: Ethernet II header (destination, source, EtherType 0x6000, ETH_P_DEC,
/// which Wireshark's lapbether dissector registers), the frame's length in two octets
/// least significant first, then the frame. Wireshark tells the directions apart by
/// the MAC addresses (its X.25 dissector keys reassembly on them, where the SITA
/// pseudo-header's direction never reaches it).
pub fn lapb_ether(from: u32, to: u32, lapb: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + lapb.len());
    out.extend_from_slice(&mac(to));
    out.extend_from_slice(&mac(from));
    out.extend_from_slice(&[0x60, 0x00]);
    out.extend_from_slice(&(lapb.len() as u16).to_le_bytes());
    out.extend_from_slice(lapb);
    out
}

/// The 16-bit frame check sequence of ISO 3309 / X.25 (CRC-16/X.25: polynomial
/// x^16 + x^12 + x^5 + 1, reflected, preset and complemented). Check value:
/// `fcs16(b"123456789") == 0x906E`.
pub fn fcs16(data: &[u8]) -> u16 {
    let mut crc: u16 = 0xFFFF;
    for &b in data {
        crc ^= b as u16;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0x8408
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Appends the FCS, low-order octet first (the order it is sent on the line).
pub fn append_fcs(frame: &mut Vec<u8>) {
    let fcs = fcs16(frame);
    frame.extend_from_slice(&fcs.to_le_bytes());
}

/// The supervisory function bits S (ISO 4335): RR 00, RNR 01, REJ 10, SREJ 11.
fn s_bits(kind: &str) -> Result<u8, String> {
    Ok(match kind {
        "RR" => 0,
        "RNR" => 1,
        "REJ" => 2,
        "SREJ" => 3,
        other => {
            return Err(format!(
                "frame type {other:?} has no HDLC supervisory encoding"
            ))
        }
    })
}

/// The control field of `f` with modulus `modulus` (8: one octet; 128: two octets,
/// the extended format), as its octets are numbered on the line (bit 1 = the
/// low-order bit of the first octet).
pub fn hdlc_control(f: &TraceFrame, modulus: u32) -> Result<Vec<u8>, String> {
    let ns = f.ns.unwrap_or(0);
    if f.nr >= modulus || ns >= modulus {
        return Err(format!(
            "N(S) = {ns}, N(R) = {} do not fit modulus {modulus}",
            f.nr
        ));
    }
    let pf = u8::from(f.pf);
    let (nr, ns) = (f.nr as u8, ns as u8);
    let is_i = f.kind == "I";
    match modulus {
        m if m <= 8 => Ok(vec![if is_i {
            (ns << 1) | (pf << 4) | (nr << 5)
        } else {
            0x01 | (s_bits(f.kind)? << 2) | (pf << 4) | (nr << 5)
        }]),
        m if m <= 128 => Ok(if is_i {
            vec![ns << 1, pf | (nr << 1)]
        } else {
            vec![0x01 | (s_bits(f.kind)? << 2), pf | (nr << 1)]
        }),
        m => Err(format!(
            "sequence modulus {m} has no HDLC control field (8 or 128 only; at most 128 encodes)"
        )),
    }
}

/// The LAPB address of a frame (ITU-T X.25 §2.4.2, single link): station A is the DTE,
/// B the DCE. Commands from the DTE and responses from the DCE carry B (0x01);
/// commands from the DCE and responses from the DTE carry A (0x03).
pub fn lapb_address(sender: usize, command: bool) -> u8 {
    if (sender == 0) == command {
        0x01
    } else {
        0x03
    }
}

/// A whole frame: address, control (modulus 8 or 128), an information field of
/// ⌈info_bits / 8⌉ zero octets (the model carries no user data), FCS.
pub fn hdlc_frame(address: u8, f: &TraceFrame, modulus: u32) -> Result<Vec<u8>, String> {
    let control = hdlc_control(f, modulus)?;
    let info = f.info_bits.div_ceil(8) as usize;
    let mut out = Vec::with_capacity(1 + control.len() + info + 2);
    out.push(address);
    out.extend_from_slice(&control);
    out.resize(out.len() + info, 0);
    append_fcs(&mut out);
    Ok(out)
}

/// The frame as a receiver that detected an error holds it: the same octets with the
/// FCS complemented, so the check fails while the header stays readable.
pub fn corrupt(frame: &mut [u8]) {
    let n = frame.len();
    if n >= 2 {
        frame[n - 2] ^= 0xFF;
        frame[n - 1] ^= 0xFF;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(kind: &'static str, ns: Option<u32>, nr: u32, pf: bool) -> TraceFrame {
        TraceFrame {
            kind,
            ns,
            nr,
            pf,
            command: true,
            bits: 0,
            info_bits: 0,
            message: None,
        }
    }

    #[test]
    fn fcs16_check_value_is_906e() {
        assert_eq!(fcs16(b"123456789"), 0x906E);
    }

    #[test]
    fn a_frame_with_its_fcs_leaves_the_good_residue() {
        // ISO 3309: the CRC over a frame and its FCS, before the final complement, is
        // 0xF0B8 — i.e. fcs16 over everything is !0xF0B8.
        let mut f = vec![0x01, 0x3F, 1, 2, 3];
        append_fcs(&mut f);
        assert_eq!(fcs16(&f), !0xF0B8);
        corrupt(&mut f);
        assert_ne!(fcs16(&f), !0xF0B8);
    }

    #[test]
    fn basic_control_fields_match_iso_4335() {
        // I(ns=3, nr=5, P): N(R)=101, P=1, N(S)=011, 0 → 1011_0110.
        assert_eq!(
            hdlc_control(&frame("I", Some(3), 5, true), 8).unwrap(),
            vec![0xB6]
        );
        assert_eq!(
            hdlc_control(&frame("RR", None, 4, true), 8).unwrap(),
            vec![0x91]
        );
        assert_eq!(
            hdlc_control(&frame("RNR", None, 0, false), 8).unwrap(),
            vec![0x05]
        );
        assert_eq!(
            hdlc_control(&frame("REJ", None, 2, false), 8).unwrap(),
            vec![0x49]
        );
        assert_eq!(
            hdlc_control(&frame("SREJ", None, 7, false), 8).unwrap(),
            vec![0xED]
        );
    }

    #[test]
    fn extended_control_fields_carry_seven_bit_numbers() {
        assert_eq!(
            hdlc_control(&frame("I", Some(100), 77, true), 128).unwrap(),
            vec![200, 155]
        );
        assert_eq!(
            hdlc_control(&frame("REJ", None, 127, false), 128).unwrap(),
            vec![0x09, 254]
        );
        assert!(hdlc_control(&frame("I", Some(8), 0, false), 8).is_err());
        assert!(hdlc_control(&frame("I", Some(1), 0, false), 256)
            .unwrap_err()
            .contains("256"));
    }

    #[test]
    fn lapb_addresses_follow_x25() {
        assert_eq!(lapb_address(0, true), 0x01);
        assert_eq!(lapb_address(0, false), 0x03);
        assert_eq!(lapb_address(1, true), 0x03);
        assert_eq!(lapb_address(1, false), 0x01);
    }

    #[test]
    fn the_information_field_is_rounded_up_to_octets() {
        let mut f = frame("I", Some(0), 0, false);
        f.info_bits = 1001;
        let bytes = hdlc_frame(0x01, &f, 8).unwrap();
        assert_eq!(bytes.len(), 1 + 1 + 126 + 2);
    }
}
