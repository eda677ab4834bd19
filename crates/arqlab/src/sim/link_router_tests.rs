use super::*;
use crate::protocol::datagram::DatagramConfig;
use crate::protocol::ip::{IpHeader, IpPacket, HEADER_OCTETS};
use crate::protocol::textbook::TextbookConfig;
use crate::protocol::x25::{Packet, X25Config};
use crate::protocol::{FrameKind, Sdu};

type D = AnyPdu<Sdu>;

fn gbn() -> ProtocolConfig {
    ProtocolConfig::GoBackN(TextbookConfig { window: 7, modulus: 8, overhead_bits: 48, ack_bits: 48, timeout_s: 1.0, reject: false, nak_corrupted: false })
}

fn datagram(id: u32, ttl: u32, data_octets: u32) -> D {
    let hdr = IpHeader { src: 0, dst: 1, id, offset8: 0, mf: false, ttl, total_octets: HEADER_OCTETS + data_octets };
    AnyPdu::Ip(IpPacket { hdr, msg: Sdu { id: u64::from(id), bits: data_octets * 8, flow: 0, born: SimTime::ZERO }, framing_bits: 0 })
}

/// Two-ended ports facing one station each (its address unused), in these roles.
fn lines(roles: [Station; 2]) -> Vec<PortPeers> {
    roles.iter().map(|&s| PortPeers { far: vec![(0, s)], ..Default::default() }).collect()
}

/// Host a (node 0) behind port 0, host b (node 1) behind port 1.
fn router(links: [ProtocolConfig; 2], mtu: [Option<u32>; 2], capacity_bits: Option<u64>) -> LinkRouter<D> {
    LinkRouter::new(&links, &lines([Station::B, Station::A]), mtu.to_vec(), vec![Some(0), Some(1)], 0.0, capacity_bits)
}

/// The I-frame host a's go-back-N link sends for each datagram, in order.
fn frames_from_a(ds: &[D]) -> Vec<AnyPdu<D>> {
    let mut a: AnyLayer<D> = AnyLayer::new(&gbn(), &Ctx::link(0, 1, Station::A));
    ds.iter().map(|&d| {
        a.handle_submit(SimTime::ZERO, d);
        a.poll_transmit(SimTime::ZERO, &Grant::line(9600.0)).unwrap()
    }).collect()
}

fn carried(f: &AnyPdu<D>) -> Option<(FrameKind, Option<D>)> {
    match f {
        AnyPdu::Frame(x) => Some((x.kind, x.msg)),
        _ => None,
    }
}

#[test]
fn a_datagram_received_in_an_i_frame_is_acknowledged_on_its_link_and_sent_in_a_new_i_frame_with_ttl_one_less() {
    let mut r = router([gbn(), gbn()], [None, None], None);
    let f = frames_from_a(&[datagram(7, 9, 100)]);
    r.receive(SimTime(1), 0, 0, &f[0], false);
    let g = Grant::line(9600.0);
    let ack = r.poll_transmit(SimTime(2), 0, &g).and_then(|f| carried(&f.0)).unwrap();
    assert_eq!(ack.0, FrameKind::RR, "port 0 acknowledges the I-frame on its own link");
    let (kind, msg) = r.poll_transmit(SimTime(2), 1, &g).and_then(|f| carried(&f.0)).unwrap();
    assert_eq!(kind, FrameKind::I);
    let mut out = msg.unwrap();
    let h = *out.ip_header().unwrap();
    assert_eq!((h.id, h.ttl, h.total_octets), (7, 8, 120), "the same datagram, TTL one less (RFC 791 §3.2)");
    let (c, held) = r.port(1);
    assert_eq!((c.frames_offered, c.frames_forwarded, held), (1, 0, 120 * 8), "held by the link until b acknowledges it");
}

#[test]
fn rfc791_a_datagram_whose_ttl_reaches_0_is_destroyed_but_its_frame_is_still_acknowledged() {
    let mut r = router([gbn(), gbn()], [None, None], None);
    let f = frames_from_a(&[datagram(1, 1, 100)]);
    r.receive(SimTime(1), 0, 0, &f[0], false);
    let g = Grant::line(9600.0);
    assert!(r.poll_transmit(SimTime(2), 0, &g).is_some(), "the link acknowledges what it received");
    assert!(r.poll_transmit(SimTime(2), 1, &g).is_none() && !r.wants_transmit(1));
    let c = r.ip_counters();
    assert_eq!((c.datagrams_in, c.ttl_expired, c.datagrams_out), (1, 1, 0));
}

#[test]
fn the_output_interface_fragments_to_its_mtu_and_its_drop_tail_buffer_counts_octets() {
    // 1000 data octets to MTU 296: 4 fragments of 292, 292, 292, 204 octets; a buffer
    // of 800 octets admits the first two, drops the third, admits the last.
    let mut r = router([gbn(), gbn()], [None, Some(296)], Some(800 * 8));
    let f = frames_from_a(&[datagram(3, 9, 1000)]);
    r.receive(SimTime(1), 0, 0, &f[0], false);
    let (c, held) = r.port(1);
    assert_eq!((c.frames_offered, c.frames_dropped, held), (4, 1, (292 + 292 + 204) * 8));
    let ip = r.ip_counters();
    assert_eq!((ip.fragmented, ip.fragments_created), (1, 4));
}

#[test]
fn a_reliable_link_releases_buffer_octets_on_acknowledgement_a_best_effort_one_on_sending() {
    let dg = ProtocolConfig::Datagram(DatagramConfig { overhead_bits: 16 });
    let mut r = router([gbn(), dg], [None, None], None);
    let f = frames_from_a(&[datagram(1, 9, 100)]);
    r.receive(SimTime(1), 0, 0, &f[0], false);
    assert_eq!(r.port(1).1, 120 * 8);
    let sent = r.poll_transmit(SimTime(2), 1, &Grant::line(9600.0)).unwrap().0;
    assert_eq!(Pdu::bits(&sent), 120 * 8 + 16);
    let (c, held) = r.port(1);
    assert_eq!((c.frames_forwarded, held), (1, 0));
    // Port 0's RR is what a's link needs; a's unacknowledged frame leaves nothing held at r.
    assert_eq!(r.port(0).1, 0);
}

fn x25() -> ProtocolConfig {
    ProtocolConfig::X25(X25Config { ip_header_bits: 0, ..X25Config::default() })
}

/// a —go-back-N— g1 —X.25— g2 —go-back-N— b (b is node 1, routed out of port 1).
fn gateways() -> (LinkRouter<D>, LinkRouter<D>) {
    let g1 = LinkRouter::new(&[gbn(), x25()], &lines([Station::B, Station::A]), vec![None, None], vec![Some(0), Some(1)], 0.0, None);
    let g2 = LinkRouter::new(&[x25(), gbn()], &lines([Station::B, Station::A]), vec![None, None], vec![Some(0), Some(1)], 0.0, None);
    (g1, g2)
}

/// Runs g1's port 1 against g2's port 0 for `secs` in 1 ms steps, each packet
/// crossing the X.25 network at once; returns the packets g1 sent and the frames
/// g2's port 1 sent towards b.
fn cross(g1: &mut LinkRouter<D>, g2: &mut LinkRouter<D>, secs: f64) -> (Vec<Packet<D>>, Vec<AnyPdu<D>>) {
    let (mut sent, mut to_b) = (vec![], vec![]);
    let g = Grant::line(9600.0);
    for ms in 0..=(secs * 1000.0) as u64 {
        let now = SimTime::from_secs_f64(ms as f64 / 1000.0);
        for r in [&mut *g1, &mut *g2] {
            if r.poll_timeout().is_some_and(|t| t <= now) {
                r.handle_timeout(now);
            }
        }
        while let Some((f, _)) = g1.poll_transmit(now, 1, &g) {
            if let AnyPdu::Packet(p) = f {
                sent.push(p);
            }
            g2.receive(now, 0, 0, &f, false);
        }
        while let Some((f, _)) = g2.poll_transmit(now, 0, &g) {
            g1.receive(now, 1, 0, &f, false);
        }
        to_b.extend(std::iter::from_fn(|| g2.poll_transmit(now, 1, &g).map(|x| x.0)));
    }
    (sent, to_b)
}

#[test]
fn rfc877_a_circuit_to_the_next_hop_gateway_is_opened_by_a_call_request_before_the_first_datagram() {
    let (mut g1, mut g2) = gateways();
    let f = frames_from_a(&[datagram(1, 9, 100)]);
    g1.receive(SimTime::ZERO, 0, 0, &f[0], false);
    let (sent, _) = cross(&mut g1, &mut g2, 2.0);
    let kinds: Vec<PacketKind> = sent.iter().map(|p| p.kind).collect();
    assert_eq!(kinds[..2], [PacketKind::CallRequest, PacketKind::Data], "{kinds:?}");
    assert_eq!((sent[0].src, sent[0].dst), (X25_DTE_A, X25_DTE_B), "g1 (station A) calls g2");
    assert!(sent[1..].iter().all(|p| p.vc == sent[0].vc), "the datagram goes on the circuit just opened");
}

#[test]
fn rfc877_a_datagram_larger_than_the_packet_size_spans_several_packets_m_set_on_all_but_the_last() {
    let (mut g1, mut g2) = gateways();
    // 300 data octets + 20 of IP header = 320 octets: 128 + 128 + 64 (packet size 128).
    let f = frames_from_a(&[datagram(5, 9, 300)]);
    g1.receive(SimTime::ZERO, 0, 0, &f[0], false);
    let (sent, _) = cross(&mut g1, &mut g2, 3.0);
    let data: Vec<(u32, bool, u32)> = sent.iter().filter(|p| p.kind == PacketKind::Data).map(|p| (p.data_octets, p.m, p.index)).collect();
    assert_eq!(data, vec![(128, true, 0), (128, true, 1), (64, false, 2)]);
    assert_eq!(g1.port(1), (PortCounters { frames_offered: 1, frames_forwarded: 1, ..PortCounters::default() }, 0), "the buffer empties when the last packet (M = 0) leaves");
}

#[test]
fn rfc877_the_m_bit_sequence_reassembles_one_datagram_forwarded_whole_with_ttl_two_less() {
    let (mut g1, mut g2) = gateways();
    let f = frames_from_a(&[datagram(5, 9, 300), datagram(6, 9, 40)]);
    g1.receive(SimTime::ZERO, 0, 0, &f[0], false);
    g1.receive(SimTime::ZERO, 0, 0, &f[1], false);
    let (_, to_b) = cross(&mut g1, &mut g2, 4.0);
    let got: Vec<(u32, u32, u32)> = to_b.iter().filter_map(carried).filter_map(|(_, m)| m).map(|mut d| {
        let h = *d.ip_header().unwrap();
        (h.id, h.ttl, h.total_octets)
    }).collect();
    // (b never acknowledges: g2's go-back-N resends them every T1; the first two count.)
    assert_eq!(got[..2], [(6, 7, 60), (5, 7, 320)], "one I frame per datagram, each whole; the small one first (the interface serves its small-datagram queue first)");
    let ip = g2.ip_counters();
    assert_eq!((ip.datagrams_in, ip.datagrams_out, ip.fragmented), (2, 2, 0));
}

#[test]
fn rfc877_the_gateway_reports_its_calls_placed_and_circuits_open() {
    let (mut g1, mut g2) = gateways();
    let f = frames_from_a(&[datagram(1, 9, 100)]);
    g1.receive(SimTime::ZERO, 0, 0, &f[0], false);
    cross(&mut g1, &mut g2, 2.0);
    let m = |g: &LinkRouter<D>, k: &str| g.link_measures().iter().find(|x| x.0 == k).map(|x| x.1);
    assert_eq!((m(&g1, "x25_calls_placed"), m(&g1, "x25_circuits_open"), m(&g1, "x25_datagrams_sent")), (Some(1.0), Some(1.0), Some(1.0)));
    assert_eq!((m(&g2, "x25_calls_received"), m(&g2, "x25_circuits_open"), m(&g2, "x25_calls_placed")), (Some(1.0), Some(1.0), Some(0.0)));
    let plain = router([gbn(), gbn()], [None, None], None);
    assert!(plain.link_measures().is_empty(), "no X.25 port, no X.25 counters");
}

/// A datagram from `src` to `dst` (node indices).
fn between(src: u32, dst: u32, id: u32) -> D {
    let hdr = IpHeader { src, dst, id, offset8: 0, mf: false, ttl: 9, total_octets: HEADER_OCTETS + 100 };
    AnyPdu::Ip(IpPacket { hdr, msg: Sdu { id: u64::from(id), bits: 800, flow: 0, born: SimTime::ZERO }, framing_bits: 0 })
}

/// Port 0 on a ring facing hosts a (node 0) and c (node 2), port 1 a line to b (node 1).
fn ring_router() -> LinkRouter<D> {
    let ring = PortPeers { far: vec![(0, Station::B), (2, Station::B)], next_hop: vec![0, u32::MAX, 1], x25: None };
    let line = PortPeers { far: vec![(1, Station::A)], ..Default::default() };
    LinkRouter::new(&[gbn(), gbn()], &[ring, line], vec![None, None], vec![Some(0), Some(1), Some(0)], 0.0, None)
}

/// Frames port `k` sends now, with the address each goes to.
fn sent_on(r: &mut LinkRouter<D>, k: usize, at: u64) -> Vec<(FrameKind, Option<u32>, u32)> {
    std::iter::from_fn(|| r.poll_transmit(SimTime(at), k, &Grant::line(4e6)))
        .map(|(f, to)| match f {
            AnyPdu::Frame(x) => (x.kind, x.msg.map(|mut d| d.ip_header().unwrap().dst), to),
            _ => unreachable!("go-back-N frames"),
        })
        .collect()
}

#[test]
fn a_port_on_a_ring_of_several_stations_runs_one_link_per_station_and_acknowledges_each_sender_on_its_own() {
    let mut r = ring_router();
    // a and c each send their first I-frame, both N(S) = 0: one connection each.
    let from_a = frames_from_a(&[between(0, 1, 1)]);
    let from_c = frames_from_a(&[between(2, 1, 2)]);
    r.receive(SimTime(1), 0, 0, &from_a[0], false);
    r.receive(SimTime(1), 0, 2, &from_c[0], false);
    let acks = sent_on(&mut r, 0, 2);
    assert_eq!(acks, vec![(FrameKind::RR, None, 0), (FrameKind::RR, None, 2)], "an RR to each sender, addressed to it");
    let out = sent_on(&mut r, 1, 2);
    assert_eq!(out, vec![(FrameKind::I, Some(1), 1), (FrameKind::I, Some(1), 1)], "both datagrams forwarded to b, none taken for a duplicate");
    assert_eq!(r.ip_counters().datagrams_out, 2);
}

#[test]
fn a_datagram_leaves_a_ring_port_on_the_link_to_its_next_hop_the_destination_station() {
    let mut r = ring_router();
    // b (behind port 1) sends to a, then to c: each goes on its own connection, N(S) 0 each.
    let from_b = frames_from_a(&[between(1, 0, 1), between(1, 2, 2)]);
    r.receive(SimTime(1), 1, 1, &from_b[0], false);
    r.receive(SimTime(1), 1, 1, &from_b[1], false);
    let ns: Vec<(Option<u32>, u32, u32)> = std::iter::from_fn(|| r.poll_transmit(SimTime(2), 0, &Grant::line(4e6)))
        .filter_map(|(f, to)| match f {
            AnyPdu::Frame(x) if x.kind == FrameKind::I => Some((x.msg.map(|mut d| d.ip_header().unwrap().dst), to, x.ns)),
            _ => None,
        })
        .collect();
    assert_eq!(ns, vec![(Some(0), 0, 0), (Some(2), 2, 0)], "to a on a's link, to c on c's, each its own sequence");
    // The port's buffer holds both until a and c acknowledge them.
    let (c, held) = r.port(0);
    assert_eq!((c.frames_offered, c.frames_forwarded, held), (2, 0, 2 * 120 * 8));
}

/// g1 on an X.25 network of three gateways: a (node 0) behind port 0, b (node 1) behind
/// g2 (address 11) and c (node 2) behind g3 (address 12), g1 itself 10.
fn gateway_on_a_network() -> LinkRouter<D> {
    let net = PortPeers { far: vec![(11, Station::A)], next_hop: vec![], x25: Some(X25Sites { me: 10, next_hop: vec![u32::MAX, 11, 12] }) };
    let peers = [PortPeers { far: vec![(0, Station::B)], ..Default::default() }, net];
    LinkRouter::new(&[gbn(), x25()], &peers, vec![None, None], vec![Some(0), Some(1), Some(1)], 0.0, None)
}

/// RFC 877 §3 (circuits per destination IP address, the next hop's): a datagram for c
/// opens a circuit by CALL REQUEST to g3's address, not g2's; one for b a second circuit,
/// to g2; every packet is addressed (for the network to route it) to the DTE called.
#[test]
fn rfc877_a_datagram_for_gateway_c_opens_a_circuit_to_c_s_address_not_b_s() {
    let mut g1 = gateway_on_a_network();
    let f = frames_from_a(&[between(0, 2, 1), between(0, 1, 2)]);
    g1.receive(SimTime::ZERO, 0, 0, &f[0], false);
    g1.receive(SimTime::ZERO, 0, 0, &f[1], false);
    let g = Grant::line(9600.0);
    let mut sent: Vec<(Packet<D>, u32)> = vec![];
    for ms in 0..3000 {
        let now = SimTime::from_secs_f64(ms as f64 / 1000.0);
        if g1.poll_timeout().is_some_and(|t| t <= now) {
            g1.handle_timeout(now);
        }
        while let Some((AnyPdu::Packet(p), to)) = g1.poll_transmit(now, 1, &g) {
            sent.push((p, to));
        }
    }
    let calls: Vec<(u32, u32)> = sent.iter().filter(|x| x.0.kind == PacketKind::CallRequest).map(|x| (x.0.src, x.0.dst)).collect();
    assert_eq!(calls, vec![(10, 12), (10, 11)], "c's datagram came first: g3 is called first, then g2 for b's");
    assert!(sent.iter().all(|(p, to)| *to == p.dst), "the network routes each packet by its called address");
    let vc_to = |dst: u32| sent.iter().find(|x| x.0.kind == PacketKind::CallRequest && x.0.dst == dst).map(|x| x.0.vc).unwrap();
    assert_ne!(vc_to(11), vc_to(12), "one circuit per destination");
    let m = |k: &str| g1.link_measures().iter().find(|x| x.0 == k).map(|x| x.1);
    assert_eq!((m("x25_calls_placed"), m("x25_circuits_open")), (Some(2.0), Some(2.0)), "circuits per destination counted");
}
