//! The classic pcap file format (the libpcap "savefile"), nanosecond variant: a 24-octet
//! file header, then per packet a 16-octet record header and the captured octets.
//! Written here rather than taken from a crate: it is a few lines and has not changed
//! since libpcap 1.x.
//!
//! Link types (numbers from the tcpdump.org list of LINKTYPE_ values):
//! - [`LinkType::Sita`] (196, LINKTYPE_SITA): a 5-octet pseudo-header (flags with the
//!   direction, modem signals, two error octets with a receive CRC-error bit, protocol
//!   = 1 for LAPB) before the frame. This is the default because it is the link type
//!   Wireshark reads as LAPB *with a direction*: Wireshark's pcap reader (4.0, the
//!   Debian 12 tshark) does not accept LINKTYPE_LAPB_WITH_DIR, and passes SITA's
//!   direction to its LAPB dissector, which needs it to tell commands from responses.
//! - [`LinkType::LapbWithDir`] (207, LINKTYPE_LAPB_WITH_DIR): one octet, non-zero for
//!   frames sent by the capturing station (DTE → DCE), zero for frames it received,
//!   then the LAPB frame. The registered type for LAPB with a direction; for tools that
//!   read it (Wireshark 4.0 reports "network type 207 unknown or unsupported").
//! - [`LinkType::Ipv4`] (228, LINKTYPE_IPV4): the IPv4 datagram alone, no link header
//!   (TCP over a datagram layer: the datagram is the network's packet).
//! - [`LinkType::User0`] (147, LINKTYPE_USER0, "reserved for private use"): the frame of
//!   a layer with no header format of its own (`datagram`, `network_window`) alone on a
//!   medium, carrying the users' messages: as many zero octets as the frame has on the
//!   line. Wireshark shows it as data (with the warning "User encapsulation not
//!   handled" unless its DLT_USER table maps 147 to `data`).
//! - [`LinkType::Ethernet`] (1, LINKTYPE_ETHERNET) and [`LinkType::TokenRing`] (6,
//!   LINKTYPE_IEEE802_5): the frame alone, no pseudo-header.

use super::wire::Family;

/// Where the direction and error status of a frame go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkType {
    Sita,
    LapbWithDir,
    /// LINKTYPE_ETHERNET (1): the frame is a whole IEEE 802.3 frame (no FCS); carries
    /// TP4's TPDUs (`Family::Cotp`).
    Ethernet,
    /// LINKTYPE_IEEE802_5 (6; 9 is PPP): an IEEE 802.5 frame from AC through the information
    /// field (no FCS); carries LLC2 PDUs (`Family::TokenRing`).
    TokenRing,
    /// LINKTYPE_STANAG_5066_D_PDU (237): one STANAG 5066 D_PDU per record, no
    /// pseudo-header (Wireshark's s5066dts dissector); carries `Family::S5066`.
    Stanag5066,
    /// LINKTYPE_IPV4 (228): one IPv4 datagram per record; carries `Family::Ipv4`.
    Ipv4,
    /// LINKTYPE_USER0 (147): a frame with no registered format; carries
    /// `Family::Opaque`.
    User0,
}

impl LinkType {
    pub const NAMES: &'static [&'static str] = &["sita", "lapb_with_dir", "ethernet", "token_ring", "stanag_5066", "ipv4", "user0"];

    pub fn parse(name: &str) -> Result<LinkType, String> {
        match name {
            "sita" => Ok(LinkType::Sita),
            "lapb_with_dir" => Ok(LinkType::LapbWithDir),
            "ethernet" => Ok(LinkType::Ethernet),
            "token_ring" => Ok(LinkType::TokenRing),
            "stanag_5066" => Ok(LinkType::Stanag5066),
            "ipv4" => Ok(LinkType::Ipv4),
            "user0" => Ok(LinkType::User0),
            other => Err(format!(
                "pcap link type {other:?}: expected one of {}",
                LinkType::NAMES.join(", ")
            )),
        }
    }

    /// The LINKTYPE_ number in the file header.
    /// The name `parse` reads and a capture reports (`LINKTYPE_<NAME>` upper-cased).
    pub fn name(self) -> &'static str {
        match self {
            LinkType::Sita => "sita",
            LinkType::LapbWithDir => "lapb_with_dir",
            LinkType::Ethernet => "ethernet",
            LinkType::TokenRing => "token_ring",
            LinkType::Stanag5066 => "stanag_5066",
            LinkType::Ipv4 => "ipv4",
            LinkType::User0 => "user0",
        }
    }

    pub fn number(self) -> u32 {
        match self {
            LinkType::Sita => 196,
            LinkType::LapbWithDir => 207,
            LinkType::Ethernet => 1,
            LinkType::TokenRing => 6,
            LinkType::Stanag5066 => 237,
            LinkType::Ipv4 => 228,
            LinkType::User0 => 147,
        }
    }

    /// True if this link type carries frames of `family`.
    pub fn carries(self, family: Family) -> bool {
        matches!(
            (self, family),
            (LinkType::Sita | LinkType::LapbWithDir, Family::Hdlc)
                | (LinkType::Ethernet, Family::Cotp | Family::LapbEther)
                | (LinkType::TokenRing, Family::TokenRing)
                | (LinkType::Stanag5066, Family::S5066)
                | (LinkType::Ipv4, Family::Ipv4)
                | (LinkType::User0, Family::Opaque)
        )
    }

    /// The pseudo-header of a frame `sent` by the capturing station (else received),
    /// whose FCS check failed if `crc_error`.
    fn pseudo_header(self, sent: bool, crc_error: bool, out: &mut Vec<u8>) {
        match self {
            LinkType::Sita => {
                // flags (bit 0: 1 = received from the remote end), signals (DSR, DTR,
                // CTS, RTS, DCD all on), errors1, errors2 (bit 6: receive CRC error),
                // protocol (1 = LAPB).
                let rx_crc = if !sent && crc_error { 0x40 } else { 0 };
                out.extend_from_slice(&[u8::from(!sent), 0x1F, 0, rx_crc, 0x01]);
            }
            LinkType::LapbWithDir => out.push(u8::from(sent)),
            LinkType::Ethernet | LinkType::TokenRing | LinkType::Stanag5066 | LinkType::Ipv4 | LinkType::User0 => {}
        }
    }
}

/// One captured frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Capture time in nanoseconds since the start of the run.
    pub time_ns: u64,
    /// Sent by the capturing station (else received by it).
    pub sent: bool,
    /// The frame failed its FCS check at its receiver.
    pub crc_error: bool,
    /// The frame's octets (address through FCS).
    pub bytes: Vec<u8>,
}

/// Magic number of the nanosecond-resolution format.
const MAGIC_NS: u32 = 0xA1B2_3C4D;
const SNAPLEN: u32 = 262_144;

/// The whole file for `packets` (in order) under `link`.
pub fn write(link: LinkType, packets: &[Packet]) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(24 + packets.iter().map(|p| 24 + p.bytes.len()).sum::<usize>());
    out.extend_from_slice(&MAGIC_NS.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes()); // version 2.4
    out.extend_from_slice(&4u16.to_le_bytes());
    out.extend_from_slice(&0i32.to_le_bytes()); // GMT offset
    out.extend_from_slice(&0u32.to_le_bytes()); // timestamp accuracy
    out.extend_from_slice(&SNAPLEN.to_le_bytes());
    out.extend_from_slice(&link.number().to_le_bytes());
    let mut data = Vec::new();
    for p in packets {
        data.clear();
        link.pseudo_header(p.sent, p.crc_error, &mut data);
        data.extend_from_slice(&p.bytes);
        let len = data.len() as u32;
        out.extend_from_slice(&((p.time_ns / 1_000_000_000) as u32).to_le_bytes());
        out.extend_from_slice(&((p.time_ns % 1_000_000_000) as u32).to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&data);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_records_have_the_classic_layout() {
        let p = Packet {
            time_ns: 2_500_000_001,
            sent: false,
            crc_error: true,
            bytes: vec![1, 2, 3],
        };
        let f = write(LinkType::Sita, &[p.clone()]);
        assert_eq!(&f[0..4], &[0x4D, 0x3C, 0xB2, 0xA1]);
        assert_eq!(u32::from_le_bytes(f[20..24].try_into().unwrap()), 196);
        assert_eq!(u32::from_le_bytes(f[24..28].try_into().unwrap()), 2);
        assert_eq!(
            u32::from_le_bytes(f[28..32].try_into().unwrap()),
            500_000_001
        );
        assert_eq!(u32::from_le_bytes(f[32..36].try_into().unwrap()), 8);
        assert_eq!(&f[40..48], &[1, 0x1F, 0, 0x40, 1, 1, 2, 3]);
        let g = write(LinkType::LapbWithDir, &[Packet { sent: true, ..p }]);
        assert_eq!(u32::from_le_bytes(g[20..24].try_into().unwrap()), 207);
        assert_eq!(&g[40..44], &[1, 1, 2, 3]);
        assert!(LinkType::parse("ether")
            .unwrap_err()
            .contains("sita, lapb_with_dir, ethernet, token_ring"));
        // LINKTYPE_IEEE802_5 is 6 (9 is PPP); only LLC2's token-ring frames go in it.
        assert_eq!(LinkType::parse("token_ring").unwrap().number(), 6);
        assert!(LinkType::TokenRing.carries(Family::TokenRing) && !LinkType::Sita.carries(Family::TokenRing));
    }
}
