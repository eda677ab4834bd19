//! A relay that is an IP router (`kind = "ip_router"`): before a datagram joins an
//! output port's drop-tail queue (`relay`), the router decrements its TTL and destroys
//! it if the TTL reaches 0 (RFC 791 §3.2, "Time to Live"), routes it by its destination
//! node, and cuts it to the output interface's MTU (RFC 791 fragmentation); each
//! fragment is then admitted, or dropped at the queue, on its own.
//!
//! Counters balance: `datagrams_in = ttl_expired + unroutable + datagrams_out`, and the
//! output ports are offered `datagrams_out − fragmented + fragments_created` frames.

use crate::protocol::Pdu;

/// What a router did with the datagrams it received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IpRouterCounters {
    /// Error-free datagrams (or fragments) received.
    pub datagrams_in: u64,
    /// Destroyed because the TTL reached 0.
    pub ttl_expired: u64,
    /// No route to the destination other than back out of the arrival port.
    pub unroutable: u64,
    /// Routed to an output port (before fragmentation).
    pub datagrams_out: u64,
    /// Datagrams cut into fragments for their output interface's MTU.
    pub fragmented: u64,
    /// Fragments made of them.
    pub fragments_created: u64,
}

impl IpRouterCounters {
    pub fn pairs(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("datagrams_in", self.datagrams_in as f64),
            ("ttl_expired", self.ttl_expired as f64),
            ("unroutable", self.unroutable as f64),
            ("datagrams_out", self.datagrams_out as f64),
            ("fragmented", self.fragmented as f64),
            ("fragments_created", self.fragments_created as f64),
        ]
    }
}

/// The router's part of a relay.
pub struct IpForwarding<F> {
    /// MTU of each port's interface, octets (`None`: no limit).
    pub mtu_octets: Vec<Option<u32>>,
    pub counters: IpRouterCounters,
    /// The frames of the last datagram forwarded (itself, or its fragments).
    pub frames: Vec<F>,
}

impl<F> IpForwarding<F> {
    pub fn new(mtu_octets: Vec<Option<u32>>) -> Self {
        IpForwarding { mtu_octets, counters: IpRouterCounters::default(), frames: vec![] }
    }
}

impl<F: Pdu> IpForwarding<F> {
    /// An error-free datagram that the routes send out of port `out` (`None`: no route):
    /// its TTL decremented and checked, then cut to that port's MTU. Returns the port
    /// if it goes on; its frames are then in `frames`, to be admitted one by one.
    pub fn forward(&mut self, mut frame: F, out: Option<usize>) -> Option<usize> {
        self.counters.datagrams_in += 1;
        if let Some(h) = frame.ip_header() {
            h.ttl = h.ttl.saturating_sub(1);
            if h.ttl == 0 {
                self.counters.ttl_expired += 1;
                return None;
            }
        }
        let Some(out) = out else {
            self.counters.unroutable += 1;
            return None;
        };
        self.counters.datagrams_out += 1;
        self.frames.clear();
        match self.mtu_octets[out] {
            Some(mtu) => frame.ip_fragments(mtu, &mut self.frames),
            None => self.frames.push(frame),
        }
        if self.frames.len() > 1 {
            self.counters.fragmented += 1;
            self.counters.fragments_created += self.frames.len() as u64;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::SimTime;
    use crate::protocol::ip::{IpHeader, IpPacket, HEADER_OCTETS};
    use crate::protocol::Sdu;

    type Pkt = IpPacket<Sdu>;

    fn datagram(ttl: u32, data_octets: u32) -> Pkt {
        let hdr = IpHeader { src: 0, dst: 1, id: 3, offset8: 0, mf: false, ttl, total_octets: HEADER_OCTETS + data_octets };
        IpPacket { hdr, msg: Sdu { id: 0, bits: data_octets * 8, flow: 0, born: SimTime::ZERO }, framing_bits: 0 }
    }

    /// Port 0 without an MTU, port 1 with 296 octets.
    fn ports() -> IpForwarding<Pkt> {
        IpForwarding::new(vec![None, Some(296)])
    }

    #[test]
    fn rfc791_ttl_is_decremented_and_a_datagram_whose_ttl_reaches_0_is_destroyed_and_counted() {
        let mut ip = ports();
        assert_eq!(ip.forward(datagram(2, 100), Some(1)), Some(1));
        assert_eq!(ip.frames[0].hdr.ttl, 1, "forwarded with its TTL one less");
        assert_eq!(ip.forward(datagram(1, 100), Some(1)), None, "TTL 1 reaches 0 here");
        let c = ip.counters;
        assert_eq!((c.datagrams_in, c.ttl_expired, c.datagrams_out), (2, 1, 1));
    }

    #[test]
    fn rfc791_a_router_fragments_to_the_output_interfaces_mtu_only() {
        let mut ip = ports();
        // 1000 data octets at MTU 296: ⌈1000 / 272⌉ = 4 fragments; out of port 0 (no MTU) whole.
        assert_eq!(ip.forward(datagram(9, 1000), Some(1)), Some(1));
        let got: Vec<(u32, bool, u32)> = ip.frames.iter().map(|p| (p.hdr.offset8, p.hdr.mf, p.hdr.total_octets)).collect();
        assert_eq!(got, vec![(0, true, 292), (34, true, 292), (68, true, 292), (102, false, 20 + 1000 - 3 * 272)]);
        assert_eq!(ip.forward(datagram(9, 1000), Some(0)), Some(0));
        assert_eq!(ip.frames.len(), 1);
        assert_eq!((ip.counters.fragmented, ip.counters.fragments_created), (1, 4));
    }

    #[test]
    fn a_datagram_with_no_route_is_counted_unroutable() {
        let mut ip = ports();
        assert_eq!(ip.forward(datagram(9, 10), None), None);
        assert_eq!((ip.counters.unroutable, ip.counters.datagrams_out), (1, 0));
    }
}
