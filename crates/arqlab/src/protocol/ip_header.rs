//! The IP header fields a router and the destination act on (RFC 791), apart from the
//! `ip` layer itself (`protocol::ip`), so that the PDU interface (`layer.rs`) can hand a
//! router its header without depending on the layer that makes datagrams.

/// The fixed header (IHL = 5, no options), octets.
pub const HEADER_OCTETS: u32 = 20;

/// The header fields a router and the destination act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpHeader {
    /// Source and destination nodes (their addresses).
    pub src: u32,
    pub dst: u32,
    /// Identification: the source's datagram counter.
    pub id: u32,
    /// Fragment offset, in 8-octet units from the start of the original data.
    pub offset8: u32,
    /// More fragments follow.
    pub mf: bool,
    pub ttl: u32,
    /// Total length of this datagram or fragment, header included, octets.
    pub total_octets: u32,
}

impl IpHeader {
    /// Data octets carried by this fragment.
    pub fn data_octets(&self) -> u32 {
        self.total_octets - HEADER_OCTETS
    }
}
