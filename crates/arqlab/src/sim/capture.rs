//! Frames in flight over a window, for captures (pcap) and ladder diagrams: each frame
//! sent in [from, to] with when it left, when its last bit reached the peer and whether
//! the peer's FCS check failed; plus the timer expiries of the window. Built from a
//! frame-level trace after the run ([`super::trace`]), never during it, so a run that
//! is captured is the same trajectory as one that is not.
//!
//! Encoders live with their protocols (`protocol/*/wire.rs`) and are named in each
//! protocol's registration (`protocol::registry`, `ProtocolConfig::wire`); a medium's
//! frames are written by the encoder of the layer its trace shows ([`interfaces`]).

use super::trace;
use crate::engine::SimTime;
use crate::scenario::elements::End;
use crate::scenario::{ProtocolConfig, Scenario};
use crate::trace::pcap::{self, LinkType, Packet};
use crate::trace::wire::{Family, Hop, Wire};
use crate::trace::{Carried, TraceFrame, TraceKind, TraceRecord};
use serde::Serialize;
use std::collections::HashMap;

/// Why a capture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The request cannot be met (window too busy, a frame with no encoding): the
    /// user's to fix, reported in one line.
    #[error("{0}")]
    Input(String),
    /// The simulation failed (a model bug).
    #[error(transparent)]
    Sim(#[from] super::SimError),
}


/// One frame sent in the window, on one lane (a hop: a frame a relay forwards is
/// another flight on its next lane).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Flight {
    /// Frame number on its lane since the start of the run.
    pub seq: u64,
    /// The sending node or relay: "A" or "B" in the pair form, else its name.
    pub sender: String,
    /// The node or relay that received it.
    pub receiver: String,
    /// The lane (`link.<medium>.<from>-><to>`); absent in the pair form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
    /// Start of transmission (s).
    pub sent_s: f64,
    /// Last bit sent (s).
    pub tx_end_s: f64,
    /// Last bit received at the peer (s).
    pub arrived_s: f64,
    /// The peer's FCS check failed (the channel corrupted the frame).
    pub in_error: bool,
    pub frame: TraceFrame,
    /// What the frame carries of the layers above (a TCP segment; the whole chain of IP
    /// headers inside it), if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried: Option<Carried>,
}

/// A retransmission-timer expiry in the window.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expiry {
    pub station: String,
    pub time_s: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Flights {
    pub from_s: f64,
    pub to_s: f64,
    /// The stations in axis order: nodes, then relays ("A", "B" in the pair form).
    pub stations: Vec<String>,
    pub flights: Vec<Flight>,
    pub expiries: Vec<Expiry>,
}

/// Lanes of a scenario as a capture sees them: name, rate and one-way delay. The pair
/// form's two directions have no name (their records carry none).
fn lanes(sc: &Scenario) -> Vec<(Option<String>, f64, f64)> {
    let t = &sc.topology;
    if t.pair {
        return vec![(None, sc.link.rate_bps, sc.link.delay_s); 2];
    }
    let media = t.media.iter().flat_map(|m| m.lane_scopes.iter().map(|s| (Some(s.clone()), m.config.rate_bps, m.config.delay_s)));
    let rings = t.rings.iter().flat_map(|g| g.lane_scopes.iter().map(|s| (Some(s.clone()), g.config.rate_bps, g.config.delay_s)));
    media.chain(rings).collect()
}

/// The lane of a frame record: named in explicit topologies; in the pair form A sends
/// on lane 0 and receives from lane 1.
fn lane_of(r: &TraceRecord, index: &HashMap<&str, usize>) -> Option<usize> {
    match &r.lane {
        Some(name) => index.get(name.as_str()).copied(),
        None => {
            let b = usize::from(r.station == "B");
            Some(if r.event == TraceKind::Send { b } else { 1 - b })
        }
    }
}

/// Nodes and relays in the order the media name them (`ends`, file order), so that a
/// ladder's neighbouring axes are mostly neighbours on the path; any left over after.
fn station_order(sc: &Scenario) -> Vec<String> {
    let t = &sc.topology;
    let all = t.nodes.iter().map(|n| &n.name).chain(t.relays.iter().map(|r| &r.config.name));
    let mut seen = std::collections::HashSet::new();
    let named = t.media.iter().flat_map(|m| m.config.ends.iter()).chain(t.rings.iter().flat_map(|g| g.config.ends.iter()));
    named.chain(all).filter(|n| seen.insert(n.as_str())).cloned().collect()
}

/// The frames sent by any node or relay between `from` and `to` of replication
/// `replication`, with their outcomes. Frames still in flight at `to` are followed to
/// their arrival (a further traced run to the last arrival). Fails if the window holds
/// more than `limit` trace events.
pub fn flights(
    sc: &Scenario,
    seed: u64,
    replication: u64,
    from: SimTime,
    to: SimTime,
    limit: usize,
) -> Result<Flights, CaptureError> {
    let run = |end: SimTime| -> Result<Vec<TraceRecord>, CaptureError> {
        let t = trace(sc, seed, replication, from, end, limit)?;
        if t.dropped > 0 {
            return Err(CaptureError::Input(format!(
                "the window holds more than {limit} trace events; narrow it (--from/--to)"
            )));
        }
        Ok(t.records)
    };
    let lanes = lanes(sc);
    let index: HashMap<&str, usize> = lanes.iter().enumerate().filter_map(|(i, l)| Some((l.0.as_deref()?, i))).collect();
    let to_s = to.as_secs_f64();
    let mut records = run(to)?;
    // Run on until every frame sent in the window has arrived: by its bits at the lane's
    // rate, or later (a PDU with its own airtime, an HF modem's; a token wait).
    let mut end = to_s;
    for _ in 0..10 {
        let arrived: std::collections::HashSet<(usize, u64)> = records
            .iter()
            .filter(|r| matches!(r.event, TraceKind::Receive | TraceKind::ReceiveInError))
            .filter_map(|r| Some((lane_of(r, &index)?, r.seq?)))
            .collect();
        let pending: Vec<f64> = records
            .iter()
            .filter(|r| r.event == TraceKind::Send && r.time_s <= to_s)
            .filter_map(|r| {
                let l = lane_of(r, &index)?;
                (!arrived.contains(&(l, r.seq?))).then(|| r.time_s + r.frame.map_or(0.0, |f| f.bits as f64 / lanes[l].1) + lanes[l].2)
            })
            .collect();
        if pending.is_empty() {
            break;
        }
        // Arrivals at the run's last instant come after its end event: 1 µs more.
        let due = pending.iter().cloned().fold(f64::NEG_INFINITY, f64::max) + 1e-6;
        end = if due > end { due } else { end + (end - from.as_secs_f64()).max(1.0) };
        records = run(SimTime::from_secs_f64(end))?;
    }
    let mut arrivals: HashMap<(usize, u64), (f64, bool, String)> = HashMap::new();
    for r in &records {
        if let (TraceKind::Receive | TraceKind::ReceiveInError, Some(seq), Some(l)) = (r.event, r.seq, lane_of(r, &index)) {
            arrivals.insert((l, seq), (r.time_s, r.event == TraceKind::ReceiveInError, r.station.clone()));
        }
    }
    let t = &sc.topology;
    let stations = if t.pair { vec!["A".to_string(), "B".to_string()] } else { station_order(sc) };
    let mut out = Flights { from_s: from.as_secs_f64(), to_s, stations, flights: vec![], expiries: vec![] };
    // A run can end with frames on the line (a dialogue ends when its last message is
    // delivered): those arrive, by their bits and the lane's delay, after its last event.
    let last_s = records.iter().map(|r| r.time_s).fold(f64::NEG_INFINITY, f64::max);
    let in_flight_at_end = |r: &TraceRecord, frame: &TraceFrame, l: usize| -> Option<(f64, bool, String)> {
        let due = r.time_s + frame.bits as f64 / lanes[l].1 + lanes[l].2;
        let receiver = match &r.lane {
            Some(lane) => lane.rsplit_once("->")?.1.to_string(),
            None => (if r.station == "B" { "A" } else { "B" }).to_string(),
        };
        (due > last_s).then_some((due, false, receiver))
    };
    for r in records.iter().filter(|r| r.time_s <= to_s) {
        match (r.event, r.frame, r.seq, lane_of(r, &index)) {
            (TraceKind::Send, Some(frame), Some(seq), Some(l)) => {
                let Some((arrived_s, in_error, receiver)) = arrivals.get(&(l, seq)).cloned().or_else(|| in_flight_at_end(r, &frame, l)) else {
                    let msg = format!("frame {seq} from {} sent at {} s never arrived", r.station, r.time_s);
                    return Err(CaptureError::Input(msg));
                };
                // A PDU with its own airtime (an HF modem's) ends when its arrival says.
                let (rate, delay) = (lanes[l].1, lanes[l].2);
                let by_rate = r.time_s + frame.bits as f64 / rate;
                let tx_end_s = if (arrived_s - delay - by_rate).abs() > 1e-9 { (arrived_s - delay).max(r.time_s) } else { by_rate };
                out.flights.push(Flight { seq, sender: r.station.clone(), receiver, lane: r.lane.clone(), sent_s: r.time_s, tx_end_s, arrived_s, in_error, frame, carried: r.carried.clone() });
            }
            (TraceKind::Timeout, _, _, _) => out.expiries.push(Expiry { station: r.station.clone(), time_s: r.time_s }),
            _ => {}
        }
    }
    Ok(out)
}

/// The layer of `stack` whose frames a trace shows on the medium, and the layers above
/// it (top first): the lowest layer, except that a TPDU shows through the frames carrying it
/// (`Frame::trace`: TP4 over a link layer is traced, and captured, as TPDUs).
fn shown(stack: &[ProtocolConfig]) -> (usize, &[ProtocolConfig]) {
    let low = stack.len() - 1;
    let frames_show_through = !matches!(stack[low], ProtocolConfig::X25(_) | ProtocolConfig::HfArq(_));
    if matches!(stack[0], ProtocolConfig::Tp4(_)) && frames_show_through {
        return (0, &[]);
    }
    (low, &stack[..low])
}

/// The address the link protocol gives the first of `ends` (the interface a capture
/// observes), as the run wires it (`sim::wiring`): a node's index; a router's port on
/// an X.25 network of several, the node count plus the router's index; a router's port
/// on a line to one station, X.25 DTE A or B by the port's role (between two routers,
/// A at the lower index; towards a host, the host's opposite).
fn local_address(sc: &Scenario, ends: &[End]) -> u32 {
    use super::link_router::{X25_DTE_A, X25_DTE_B};
    let t = &sc.topology;
    let dte = |a: bool| if a { X25_DTE_A } else { X25_DTE_B };
    match (ends[0], ends.get(1)) {
        (End::Node(n), _) => n,
        (End::Relay(r), Some(&End::Relay(o))) if ends.len() == 2 && t.relays[o as usize].config.kind == "ip_router" => dte(r < o),
        (End::Relay(_), Some(&End::Node(n))) if ends.len() == 2 => dte(!t.nodes[n as usize].first),
        (End::Relay(r), _) => t.nodes.len() as u32 + r,
    }
}

/// One observed interface: its name, the lanes sent and received on it, the encoder
/// of its frames and the address its own end has in the link protocol ([`Hop::local`]).
pub struct Interface {
    pub name: String,
    /// A token ring (every station's frames, as sent).
    pub ring: bool,
    pub sent: Vec<String>,
    pub received: Vec<String>,
    pub wire: Box<dyn Wire>,
    pub local: u32,
}

/// The link stack a router runs on medium `medium` (an `interfaces` entry: RFC 877's
/// `x25`), if one of `ends` is such a router: the medium then joins routers only (a
/// gateway and an X.25 network, or two gateways), and its frames are that link's,
/// carrying the hosts' datagrams.
fn router_link<'a>(sc: &'a Scenario, medium: usize, ends: &[End]) -> Option<&'a ProtocolConfig> {
    let t = &sc.topology;
    ends.iter().find_map(|e| match e {
        End::Relay(r) => {
            let spec = &t.relays[*r as usize];
            let port = spec.media.iter().position(|&m| m as usize == medium)?;
            spec.links[port].as_ref()
        }
        End::Node(_) => None,
    })
}

/// The encoder of frames on a medium whose ends include `ends`: that of the first node
/// end's stack; on a medium joining relays only, that of a router's link stack there
/// (with the hosts' layers down to their `ip` above it), else any node's. Errors name
/// the layer as the user wrote it.
fn wire_of(sc: &Scenario, medium: usize, ends: &[End]) -> Result<Box<dyn Wire>, String> {
    let t = &sc.topology;
    let first_node = ends.iter().find_map(|e| match e { End::Node(n) => Some(*n as usize), End::Relay(_) => None });
    if let (None, Some(link)) = (first_node, router_link(sc, medium, ends)) {
        let hosts = &t.nodes[0].stack;
        let ip = hosts.iter().rposition(|l| matches!(l, ProtocolConfig::Ip(_))).map_or(0, |k| k + 1);
        return link.wire(&hosts[..ip]).map_err(|e| format!("{}: {e}", link.kind()));
    }
    let node = first_node.unwrap_or(0);
    let stack = &t.nodes[node].stack;
    let (i, above) = shown(stack);
    stack[i].wire(above).map_err(|e| {
        let at = match &sc.network {
            Some(net) => {
                let name = net.node.iter().find(|n| n.name == t.nodes[node].name).map_or("?", |n| n.stack.as_str());
                // A one-layer stack is written as the layer's table itself.
                if stack.len() == 1 { format!("stack.{name}") } else { format!("stack.{name}.layers[{i}]") }
            }
            None => "protocol".into(),
        };
        // An encoder names its own key as in the pair form (`protocol.modulus`): here it
        // is the layer's.
        match e.strip_prefix("protocol.") {
            Some(rest) => format!("{at}.{rest}"),
            None => format!("{at}.kind = {:?}: {e}", stack[i].kind()),
        }
    })
}

/// Every interface a capture observes, each with its encoder. The pair form has one,
/// "link": the line at station A (the DTE), on which A's frames are sent and B's
/// received. An explicit topology has one per medium, named after it: the interface at
/// its first end (`ends[0]`), on which the forward lane's frames are sent and the
/// reverse lane's received (a ring: every station's frames, as sent).
pub fn interfaces(sc: &Scenario) -> Result<Vec<Interface>, String> {
    let t = &sc.topology;
    if t.pair {
        let wire = sc.protocol.wire(&[]).map_err(|e| format!("protocol.kind = {:?}: {e}", sc.protocol.kind()))?;
        return Ok(vec![Interface { name: "link".into(), ring: false, sent: vec![], received: vec![], wire, local: 0 }]);
    }
    let mut out = vec![];
    for (k, m) in t.media.iter().enumerate() {
        let wire = wire_of(sc, k, &m.ends)?;
        let local = local_address(sc, &m.ends);
        out.push(Interface { name: m.config.name.clone(), ring: false, sent: vec![m.lane_scopes[0].clone()], received: vec![m.lane_scopes[1].clone()], wire, local });
    }
    for (k, g) in t.rings.iter().enumerate() {
        let wire = wire_of(sc, t.media.len() + k, &g.stations)?;
        let local = local_address(sc, &g.stations);
        out.push(Interface { name: g.config.name.clone(), ring: true, sent: g.lane_scopes.clone(), received: vec![], wire, local });
    }
    Ok(out)
}

/// The pcap link type a medium's frames are written under, with the name the capture
/// reports: HDLC families under the one asked for (SITA or LAPB with direction), token
/// rings under IEEE 802.5, TPDUs in Ethernet, HF D_PDUs in STANAG 5066 records.
pub fn link_type(family: Family, asked: LinkType) -> LinkType {
    match family {
        Family::Cotp | Family::LapbEther => LinkType::Ethernet,
        Family::TokenRing => LinkType::TokenRing,
        Family::S5066 => LinkType::Stanag5066,
        Family::Ipv4 => LinkType::Ipv4,
        Family::Opaque => LinkType::User0,
        Family::Hdlc => asked,
    }
}

/// One capture per observed interface ([`interfaces`]): (interface name, link type,
/// pcap file). Each frame is as its receiver got it (a corrupted frame carries a
/// failing FCS), stamped with its start of transmission.
pub fn pcap(
    flights: &Flights,
    sc: &Scenario,
    link: LinkType,
) -> Result<Vec<(String, LinkType, Vec<u8>)>, String> {
    let t = &sc.topology;
    // Node indices by name, for per-node addresses (the pair form: A = 0, B = 1).
    let nodes: HashMap<&str, u32> = t.nodes.iter().map(|n| n.name.as_str()).zip(0..).collect();
    let node = |name: &str| -> Option<u32> { if t.pair { Some(u32::from(name == "B")) } else { nodes.get(name).copied() } };
    let relay = |name: &str| t.nodes.len() as u32 + t.relays.iter().position(|r| r.config.name == name).unwrap_or(0) as u32;
    // Connection id → its two nodes, for multiplexed PDUs (`Carried::conn`).
    let pairs: HashMap<u32, (u32, u32)> = t.nodes.iter().flat_map(|n| n.peers.iter().map(move |&(peer, c)| (c, (n.index, peer)))).collect();
    // The nodes a frame goes between: an IP datagram's or a multiplexed PDU's own ends;
    // else a relay's side stands for the node's peer (the transport's far end); between
    // two relays, the relays themselves.
    let ends = |f: &Flight| -> (u32, u32) {
        if let Some(ip) = f.carried.as_ref().and_then(|c| c.ip) {
            return (ip.src, ip.dst);
        }
        if let Some((c, dst)) = f.carried.as_ref().and_then(|c| c.conn) {
            if let Some(&(x, y)) = pairs.get(&c) {
                return (if dst == x { y } else { x }, dst);
            }
        }
        match (node(&f.sender), node(&f.receiver)) {
            (Some(s), Some(r)) => (s, r),
            (Some(s), None) => (s, t.nodes[s as usize].peer),
            (None, Some(r)) => (t.nodes[r as usize].peer, r),
            (None, None) => (relay(&f.sender), relay(&f.receiver)),
        }
    };
    let mut out = vec![];
    for ifc in interfaces(sc)? {
        let family = ifc.wire.family();
        // IP on a token ring is written as the ring carries it (RFC 1042: SNAP in 802.5).
        let ip_on_ring = ifc.ring && family == Family::Ipv4;
        let link = if ip_on_ring { LinkType::TokenRing } else { link_type(family, link) };
        if !ip_on_ring && !link.carries(family) {
            return Err(format!("pcap link type {link:?} cannot carry {family:?} frames"));
        }
        let packet = |f: &Flight, sent: bool| -> Result<Packet, String> {
            // The encoder's sender side (addresses, command/response): the interface's
            // own end (0) for frames sent on it, the far end (1) for frames received.
            let (from, to) = ends(f);
            let hop = Hop { sender: usize::from(!sent), from, to, local: ifc.local };
            let mut bytes = ifc.wire.encode_hop(&f.frame, f.carried.as_ref(), hop)?;
            if f.in_error {
                ifc.wire.corrupt(&mut bytes);
            }
            if ip_on_ring {
                let station = |name: &str| node(name).unwrap_or_else(|| relay(name));
                bytes = crate::protocol::llc2::wire::ipv4_on_ring(station(&f.sender), station(&f.receiver), &bytes);
            }
            Ok(Packet { time_ns: (f.sent_s * 1e9).round() as u64, sent, crc_error: f.in_error, bytes })
        };
        let mut packets = vec![];
        for f in &flights.flights {
            match &f.lane {
                None => packets.push(packet(f, f.sender != "B")?),
                Some(lane) if ifc.sent.contains(lane) => packets.push(packet(f, true)?),
                Some(lane) if ifc.received.contains(lane) => packets.push(packet(f, false)?),
                Some(_) => {}
            }
        }
        out.push((ifc.name, link, pcap::write(link, &packets)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `smtp_three_hops.toml` ends when the dialogue's last message is delivered, with
    /// the client's and a relay's last segments still on the line: a window over the
    /// end captures them (arriving after their bits at 64 kbit/s and the 50 ms delay)
    /// instead of failing with "never arrived".
    #[test]
    fn frames_on_the_line_when_the_run_ends_are_captured() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/compose/smtp_three_hops.toml");
        let sc = Scenario::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
        let f = flights(&sc, 1, 0, SimTime::from_secs_f64(4.5), SimTime::from_secs_f64(6.0), 10_000).unwrap();
        let last = f.flights.iter().map(|x| x.sent_s).fold(0.0, f64::max);
        assert!(last < 6.0, "the run ends inside the window");
        let ending: Vec<&Flight> = f.flights.iter().filter(|x| x.arrived_s > last).collect();
        assert!(!ending.is_empty());
        for x in ending {
            assert_eq!(x.arrived_s, x.sent_s + x.frame.bits as f64 / 64000.0 + 0.05);
            assert!(x.lane.as_deref().unwrap().ends_with(&format!("->{}", x.receiver)));
        }
        let files = pcap(&f, &sc, LinkType::Sita).unwrap();
        assert_eq!(files.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(), ["l1", "l2", "l3"]);
    }
}
