//! IP in IP (RFC 2003): each IP layer of a stack reports its own counters
//! (`scenarios/compose/tcp_five_layers.toml`: TCP over three IP layers).

mod common;

use arqlab::scenario::Scenario;
use arqlab::sim::replicate;

fn five_layers(edits: &[(&str, &str)]) -> Scenario {
    common::shipped("compose/tcp_five_layers.toml", edits)
}

/// Three IP layers on a line of MTU 576 (RFC 791 §2.3 at each): the top one's 576-octet
/// datagram (a 536-octet segment) fits; the second wraps it in 596 octets and cuts it
/// in 2 fragments (552 + 24 data octets); the third wraps each (592 and 64 octets) and
/// cuts the first again: 3 fragments. TCP's ACKs (40 octets) fit everywhere. So with
/// D data segments, the scopes `transport.<flow>` (top IP), `.ip2` and `.ip3` differ by
/// exactly D: ip2's fragments − ip's = ip3's datagrams − ip2's = ip3's fragments −
/// ip3's datagrams = D; each layer reassembles what its peer layer cut.
#[test]
fn ip_in_ip_each_ip_layer_reports_its_own_counters_by_rank() {
    let sc = five_layers(&[("delay_s = 0.010", "delay_s = 0.010\nmtu_octets = 576")]);
    let rep = replicate(&sc, 1, 0).unwrap();
    let b = &rep.batches[0];
    let t = "transport.flow.a->b";
    let m = |scope: String, k: &str| b[scope.as_str()].get(k).unwrap_or_else(|| panic!("{scope}.{k} missing"));
    let (top, ip2, ip3) = (t.to_string(), format!("{t}.ip2"), format!("{t}.ip3"));
    assert_eq!(m(top.clone(), "ip_datagrams_sent"), m(top.clone(), "ip_fragments_sent"), "the top layer's datagrams fit the MTU");
    let d = m(ip2.clone(), "ip_fragments_sent") - m(top.clone(), "ip_fragments_sent");
    assert!(d > 100.0, "{d} data segments");
    assert_eq!(m(ip2.clone(), "ip_datagrams_sent"), m(top.clone(), "ip_datagrams_sent"), "ip2 wraps each datagram of the top layer");
    assert_eq!(m(ip3.clone(), "ip_datagrams_sent") - m(ip2.clone(), "ip_datagrams_sent"), d, "ip3 wraps each of ip2's fragments");
    assert_eq!(m(ip3.clone(), "ip_fragments_sent") - m(ip3.clone(), "ip_datagrams_sent"), d, "and cuts the first of each data segment's two again");
    let r2 = m(ip2.clone(), "ip_reassembled");
    assert!(r2 <= d && r2 >= d - 16.0, "ip2 reassembles the data segments it cut ({r2} of {d}, but those in flight)");
    let r3 = m(ip3.clone(), "ip_reassembled");
    assert!(r3 <= d && r3 >= d - 16.0, "ip3 reassembles what it cut ({r3} of {d})");
    assert!(b[t].get("tcp_timeouts").is_some(), "TCP's counters stay in the flow's scope");
    assert!(b[ip3.as_str()].get("tcp_timeouts").is_none());
}

/// The records of a pcap file (classic format: 24-octet file header, 16-octet record
/// headers).
fn records(file: &[u8]) -> Vec<&[u8]> {
    let (mut out, mut at) = (vec![], 24);
    while at < file.len() {
        let len = u32::from_le_bytes(file[at + 8..at + 12].try_into().unwrap()) as usize;
        out.push(&file[at + 16..at + 16 + len]);
        at += 16 + len;
    }
    out
}

/// RFC 1071: a header whose checksum is right sums (ones' complement) to 0xFFFF.
fn header_ok(h: &[u8]) -> bool {
    let sum: u32 = h[..20].chunks(2).map(|w| u32::from(u16::from_be_bytes([w[0], w[1]]))).sum();
    let folded = (sum & 0xFFFF) + (sum >> 16);
    (folded & 0xFFFF) + (folded >> 16) == 0xFFFF
}

/// The data of the datagrams whose pieces (header and data each) are all among
/// `packets`, reassembled in offset order by identification (RFC 791 §3.2), headers
/// stripped.
fn reassemble(packets: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut open: std::collections::BTreeMap<u16, Vec<(u16, Vec<u8>, bool)>> = Default::default();
    let mut done = vec![];
    for p in packets {
        let id = u16::from_be_bytes([p[4], p[5]]);
        let fo = u16::from_be_bytes([p[6], p[7]]);
        let parts = open.entry(id).or_default();
        parts.push((fo & 0x1FFF, p[20..].to_vec(), fo & 0x2000 == 0));
        parts.sort_by_key(|x| x.0);
        let contiguous = parts.iter().try_fold(0usize, |at, (off, data, _)| (usize::from(*off) * 8 == at).then_some(at + data.len()));
        if contiguous.is_some() && parts.last().is_some_and(|x| x.2) {
            done.push(open.remove(&id).unwrap().into_iter().flat_map(|x| x.1).collect());
        }
    }
    done
}

/// RFC 2003 §3 with RFC 791 at every level, in the capture: with MTU 576 each record on
/// the line is an outer datagram or fragment (protocol 4) whose header checksum holds;
/// the outer layer's pieces reassemble into the middle layer's datagrams or fragments
/// (protocol 4, own checksums), whose pieces reassemble into the top layer's datagrams
/// (protocol 6) carrying the TCP segments — each level's total length its own.
#[test]
fn rfc2003_a_capture_of_ip_in_ip_holds_the_whole_header_chain() {
    use arqlab::engine::SimTime;
    use arqlab::sim::capture::{flights, pcap};
    use arqlab::trace::pcap::LinkType;
    let sc = five_layers(&[("delay_s = 0.010", "delay_s = 0.010\nmtu_octets = 576")]);
    let f = flights(&sc, 1, 0, SimTime::from_secs_f64(20.0), SimTime::from_secs_f64(21.0), 100_000).unwrap();
    let files = pcap(&f, &sc, LinkType::Sita).unwrap();
    assert_eq!(files.len(), 1);
    let (name, link, bytes) = &files[0];
    assert_eq!((name.as_str(), *link), ("line", LinkType::Ipv4));
    let outer = records(bytes);
    let down: Vec<&[u8]> = outer.iter().copied().filter(|p| p[12..16] == [10, 0, 0, 1]).collect();
    assert!(down.len() > 10, "{} records from a", down.len());
    for p in &outer {
        assert!(header_ok(p), "outer header checksum");
        assert_eq!((p[0], p[9], usize::from(u16::from_be_bytes([p[2], p[3]]))), (0x45, 4, p.len()), "IPv4, protocol 4, total length = the record");
    }
    // A window can open inside a datagram: whole ones only.
    let middle = reassemble(&down);
    let middle: Vec<&[u8]> = middle.iter().map(Vec::as_slice).collect();
    let top = reassemble(&middle);
    assert!(top.len() > 3, "{} top-level datagrams", top.len());
    for p in middle.iter().copied().chain(top.iter().map(Vec::as_slice)) {
        assert!(header_ok(p), "inner header checksum");
        assert_eq!(usize::from(u16::from_be_bytes([p[2], p[3]])), p.len(), "each level's total length");
        assert_eq!((&p[12..16], &p[16..20]), (&[10, 0, 0, 1][..], &[10, 0, 0, 2][..]), "the inner addresses: a to b");
    }
    assert!(middle.iter().all(|p| p[9] == 4), "the middle layer carries IP");
    for p in &top {
        assert_eq!((p[9], p.len()), (6, 576), "the top layer's datagram: TCP, 536 octets of data");
        assert_eq!(u16::from_be_bytes([p[20], p[21]]), 1024, "TCP source port of node a");
    }
}
