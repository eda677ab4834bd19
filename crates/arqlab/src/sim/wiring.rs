//! Building one replication's state from a wired topology: lanes with their error
//! models and random streams, radio gates, relays with their routes, traffic sources
//! and flow meters, and the nodes' stacks (made by the caller). Everything is in dense
//! arrays indexed as the topology indexes its elements.

use super::measure::DirectionMeter;
use super::lanes::{Lane, Medium, RingLanes, Target};
use super::link_router::{MakeRouter, PortPeers, RouterSlot, X25Sites};
use super::state::{DialogueRun, Flow, Node, Sim, SimError, MAX_ELEMENTS};
use crate::channel::{IpForwarding, TokenRing, BitErrors, DelayProfile, Direction, DirectionCounters, ErrorModel, Forwarding, GilbertElliott, HfErrors, PortCounters, Radio, Relay, Schedule};
use crate::channel::hf::HfChannel;
use crate::engine::{stream, Duration, EventQueue, SimTime, Stream};
use crate::protocol::registry::ProtocolConfig;
use crate::protocol::{Layer, Sdu, Service, Station};
use crate::scenario::link::DirectionConfig;
use crate::scenario::topology::{DelayConfig, End, MediumKind, NodeSpec, Topology};
use crate::scenario::Scenario;
use crate::trace::Tracer;
use crate::traffic::{MessageIds, Source};

/// The error model of a lane sending at `rate_bps` (an HF lane judges frames of a layer
/// that is not modem-aware by the modem mode of that rate); `shared`: the lane's half of
/// a reciprocal HF channel, instead of its own.
fn error_model(cfg: &DirectionConfig, rate_bps: f64, rng: &mut Stream, shared: Option<HfChannel>) -> ErrorModel {
    match cfg {
        DirectionConfig::None => ErrorModel::None,
        &DirectionConfig::Bit { bit_error_rate } if bit_error_rate > 0.0 => ErrorModel::Bit(BitErrors::new(bit_error_rate, rng)),
        DirectionConfig::Bit { .. } => ErrorModel::None,
        &DirectionConfig::GilbertElliott { good_ber, bad_ber, mean_good_bits, mean_bad_bits } => {
            ErrorModel::GilbertElliott(GilbertElliott::new(good_ber, bad_ber, mean_good_bits, mean_bad_bits, rng))
        }
        DirectionConfig::Schedule { times_s, bit_error_rates } => {
            let times: Vec<SimTime> = times_s.iter().map(|&t| SimTime::from_secs_f64(t)).collect();
            ErrorModel::Schedule(Schedule::new(&times, bit_error_rates, rng))
        }
        DirectionConfig::Hf(c) => match &c.table {
            Some(modem) => {
                let link_mode = modem.mode_at_rate(rate_bps).unwrap_or(0) as u8;
                let channel = shared.unwrap_or_else(|| HfChannel::new(&c.params(), rng));
                ErrorModel::Hf(Box::new(HfErrors { channel, modem: modem.clone(), link_mode }))
            }
            None => unreachable!("validated: an hf error model has a modem table"),
        },
    }
}

fn forwarding(d: &DelayConfig) -> Forwarding {
    match d {
        DelayConfig::Constant { mean_s } => Forwarding::Constant(Duration::from_secs_f64(*mean_s)),
        DelayConfig::Exponential { mean_s } => Forwarding::Exponential(*mean_s),
        DelayConfig::Uniform { min_s, max_s } => Forwarding::Uniform(*min_s, *max_s),
        DelayConfig::Profile { starts_s, means_s, period_s, clock_at_start_s, shape } => Forwarding::Profile(DelayProfile {
            starts_s: starts_s.clone(),
            means_s: means_s.clone(),
            period_s: *period_s,
            clock_at_start_s: *clock_at_start_s,
            exponential: shape == "exponential",
        }),
    }
}

/// Token rings: one lane per station (appended after the two-ended media's lanes, in
/// ring order), and the ring's MAC state with who copies frames for each destination.
fn wire_rings<F: crate::protocol::Pdu>(topo: &Topology, seed: u64, replication: u64, lanes: &mut Vec<Lane<F>>) -> Vec<RingLanes> {
    topo.rings
        .iter()
        .enumerate()
        .map(|(g, spec)| {
            let c = &spec.config;
            let stations = spec
                .stations
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let mut rng = stream(seed, replication, &spec.lane_streams[k]);
                    let em = error_model(&c.lane_errors(0), c.rate_bps, &mut rng, None);
                    lanes.push(Lane {
                        dir: Direction::new(c.rate_bps, Duration::ZERO, em, rng),
                        medium: Medium::Ring(g as u32, k as u32),
                        target: Target::Ring(g as u32),
                        at_open: DirectionCounters::default(),
                        down: Box::default(),
                    });
                    match *e {
                        End::Node(n) => Target::Node(n),
                        End::Relay(r) => Target::Port(r, topo.relays[r as usize].media.iter().position(|&x| x == spec.attachment).unwrap_or(0) as u32),
                    }
                })
                .collect();
            // A router on a ring of several stations addresses another router on it by the
            // node count plus its index (`wire_routers`): its station copies those frames.
            let relays = (0..topo.relays.len() as u32).map(|r| spec.stations.iter().position(|&e| e == End::Relay(r)).map_or(u32::MAX, |k| k as u32));
            RingLanes { mac: TokenRing::new(&spec.params()), receiver: spec.receiver.iter().copied().chain(relays).collect(), stations }
        })
        .collect()
}

/// IP routers with link stacks: the stations each port faces. On a line (or a ring of
/// two), the far station, addressed as the first node routed through the port; on a
/// ring of more, every other station by address (a node's index, or the node count plus
/// a relay's) and, per destination node, the station that copies its frames (its next
/// hop). The port's role towards a host is the host's opposite; between two routers, A
/// at the lower index.
fn wire_routers<F>(topo: &Topology, make: MakeRouter<F>) -> Vec<Option<RouterSlot<F>>> {
    if topo.relays.iter().all(|r| r.links.iter().all(Option::is_none)) {
        return vec![];
    }
    let station = |first: bool| if first { Station::A } else { Station::B };
    let nodes = topo.nodes.len() as u32;
    topo.relays
        .iter()
        .enumerate()
        .map(|(r, spec)| {
            let me = End::Relay(r as u32);
            let role = |e: End| match e {
                End::Node(n) => station(!topo.nodes[n as usize].first),
                End::Relay(o) => station((r as u32) < o),
            };
            let peers: Vec<PortPeers> = spec
                .media
                .iter()
                .enumerate()
                .map(|(k, &a)| match (a as usize).checked_sub(topo.media.len()).map(|g| &topo.rings[g]) {
                    Some(g) if g.stations.len() > 2 => {
                        let others: Vec<(u32, End)> = g.stations.iter().enumerate().filter(|x| *x.1 != me).map(|(i, &e)| (i as u32, e)).collect();
                        let address = |e: End| match e {
                            End::Node(n) => n,
                            End::Relay(o) => nodes + o,
                        };
                        let next_hop = g.receiver.iter().map(|&pos| others.iter().position(|x| x.0 == pos).map_or(u32::MAX, |i| i as u32)).collect();
                        PortPeers { far: others.iter().map(|&(_, e)| (address(e), role(e))).collect(), next_hop, x25: None }
                    }
                    _ => {
                        let far = spec.routes.iter().position(|&out| out == Some(k)).map_or(u32::MAX, |n| n as u32);
                        let other = match (a as usize).checked_sub(topo.media.len()) {
                            Some(g) => topo.rings[g].stations.iter().copied().find(|&e| e != me),
                            None => topo.media[a as usize].ends.iter().copied().find(|&e| e != me),
                        };
                        let x25 = match (other, &spec.links[k]) {
                            (Some(End::Relay(o)), Some(ProtocolConfig::X25(_))) if topo.relays[o as usize].x25_switch => Some(x25_sites(topo, r as u32, o)),
                            _ => None,
                        };
                        // (On an X.25 network the peer is only a fallback: each datagram names its site.)
                        let far = x25.as_ref().and_then(|x| x.next_hop.iter().copied().find(|&a| a != u32::MAX)).unwrap_or(far);
                        PortPeers { far: vec![(far, other.map_or(Station::A, role))], next_hop: vec![], x25 }
                    }
                })
                .collect();
            make(spec, &peers).map(|ifaces| RouterSlot { ifaces, wakes: vec![] })
        })
        .collect()
}

/// Gateway `r`'s addresses on the X.25 network it reaches through switch `net` (RFC
/// 877): its own (the node count plus its index) and, per destination node, the DTE
/// where that node's route leaves the network — the next gateway, or the node itself.
fn x25_sites(topo: &Topology, r: u32, net: u32) -> X25Sites {
    let nodes = topo.nodes.len() as u32;
    X25Sites { me: nodes + r, next_hop: (0..nodes).map(|d| x25_exit(topo, End::Relay(r), net, d)).collect() }
}

/// The DTE address station `me` calls for node `d` on the X.25 network it reaches
/// through switch `switch` (`scenario::x25_net`): the station where `d`'s route leaves
/// the network — a gateway, or `d` itself if it is a DTE there; `u32::MAX` if the
/// route turns back to `me` or leaves nowhere. Follows the switches' routes across
/// trunks (every hop one medium nearer `d`, so it ends; bounded by the relay count
/// all the same).
fn x25_exit(topo: &Topology, me: End, switch: u32, d: u32) -> u32 {
    let mut s = switch;
    for _ in 0..=topo.relays.len() {
        let spec = &topo.relays[s as usize];
        let far = spec.routes.get(d as usize).copied().flatten().and_then(|k| topo.media.get(spec.media[k] as usize)).and_then(|m| m.ends.iter().copied().find(|&e| e != End::Relay(s)));
        match far {
            Some(e) if e == me => return u32::MAX,
            Some(End::Relay(o)) if topo.relays[o as usize].x25_switch => s = o,
            Some(End::Relay(o)) => return topo.nodes.len() as u32 + o,
            Some(End::Node(x)) => return x,
            None => return u32::MAX,
        }
    }
    u32::MAX
}

/// A host running `ip` over `x25` on a line to an X.25 network's switch: per
/// destination node, the address it calls (`u32::MAX`: not across the network).
pub(super) fn x25_host_next_hops(topo: &Topology, n: &NodeSpec) -> Option<Vec<u32>> {
    if !crate::scenario::interfaces::ip_over_x25(&n.stack) {
        return None;
    }
    let End::Relay(net) = topo.lane_target(n.lane) else { return None };
    topo.relays[net as usize].x25_switch.then(|| (0..topo.nodes.len() as u32).map(|d| x25_exit(topo, End::Node(n.index), net, d)).collect())
}

/// The state of replication `replication` of `sc` before its first event.
pub(super) fn wire<L: Layer<Sdu = Sdu>>(
    sc: &Scenario,
    seed: u64,
    replication: u64,
    trace: Option<Tracer>,
    make: impl Fn(&NodeSpec, Station) -> L,
    make_router: MakeRouter<L::Pdu>,
) -> Result<Sim<L>, SimError> {
    let topo: &Topology = &sc.topology;
    for (what, n) in [("nodes", topo.nodes.len()), ("lanes", topo.lanes()), ("flows", topo.flows.len()), ("relays", topo.relays.len())] {
        if n >= MAX_ELEMENTS {
            return Err(SimError::TooLarge(format!("{n} {what}")));
        }
    }
    let mut radios = vec![];
    let mut lanes = Vec::with_capacity(topo.lanes());
    for (m, spec) in topo.media.iter().enumerate() {
        let c = &spec.config;
        let radio = match c.kind {
            MediumKind::DuplexLink => None,
            MediumKind::HalfDuplexRadio { turnaround_s, preamble_s } => {
                radios.push(Radio::new(Duration::from_secs_f64(turnaround_s), Duration::from_secs_f64(preamble_s)));
                Some(radios.len() as u32 - 1)
            }
            MediumKind::TokenRing { .. } => unreachable!("rings are wired below"),
        };
        // A reciprocal medium's one propagation process, on the medium's own stream.
        let mut shared = match (c.reciprocal, c.lane_errors(0)) {
            (true, DirectionConfig::Hf(h)) => HfChannel::reciprocal(&h.params(), stream(seed, replication, &format!("medium.{}.channel", c.name))).map(Some),
            (true, _) => unreachable!("validated: a reciprocal medium has hf lanes"),
            (false, _) => [None, None],
        };
        for side in 0..2 {
            let mut rng = stream(seed, replication, &spec.lane_streams[side]);
            let em = error_model(&c.lane_errors(side), c.rate_bps, &mut rng, shared[side].take());
            let lane = (2 * m + side) as u32;
            let target = match topo.lane_target(lane) {
                End::Node(n) => Target::Node(n),
                End::Relay(r) => Target::Port(r, topo.relays[r as usize].media.iter().position(|&x| x as usize == m).unwrap_or(0) as u32),
            };
            lanes.push(Lane {
                dir: Direction::new(c.rate_bps, Duration::from_secs_f64(c.delay_s), em, rng),
                medium: if c.outages.is_empty() { radio.map_or(Medium::Line, |r| Medium::Radio(r, side as u8)) } else { Medium::Down },
                target,
                at_open: DirectionCounters::default(),
                down: crate::scenario::outage::windows(&c.outages),
            });
        }
    }
    let rings = wire_rings(topo, seed, replication, &mut lanes);
    // Dialogues: the flow that names one (client → server) and its reverse (validated).
    let dialogues: Vec<DialogueRun> = topo
        .flows
        .iter()
        .enumerate()
        .filter_map(|(f, spec)| {
            let cfg = spec.traffic.dialogue.as_ref()?;
            let r = topo.flows.iter().position(|x| x.src == spec.dst && x.dst == spec.src)?;
            Some(DialogueRun { d: crate::traffic::dialogue::Dialogue::new(cfg), flows: [f as u32, r as u32], nodes: [spec.src, spec.dst] })
        })
        .collect();
    let dialogue_of = |f: usize| dialogues.iter().enumerate().find_map(|(d, x)| x.flows.iter().position(|&y| y as usize == f).map(|dir| (d as u32, dir as u8)));
    let mut flows: Vec<Flow> = topo
        .flows
        .iter()
        .map(|f| {
            let rate = topo.lane_rate(topo.nodes[f.src as usize].lane);
            Flow {
                total: f.traffic.total().unwrap_or(u64::MAX),
                src: f.src,
                dst: f.dst,
                bottleneck_bps: crate::scenario::validate::bottleneck_bps(topo, f.src, f.dst),
                source: Source::new(
                    &f.traffic,
                    rate,
                    stream(seed, replication, &format!("traffic.{}.arrivals", f.stream)),
                    stream(seed, replication, &format!("traffic.{}.lengths", f.stream)),
                ),
                ids: MessageIds::default(),
                meter: DirectionMeter::new(f.scope.clone()),
                service: Service::InOrder,
                dialogue: None,
            }
        })
        .collect();
    for (i, f) in flows.iter_mut().enumerate() {
        f.dialogue = dialogue_of(i);
    }
    // Each node's first received flow and first saturated source, in one pass over the
    // flows (not one per node: wiring stays linear in nodes + flows).
    let (mut rx_flow, mut saturated) = (vec![None; topo.nodes.len()], vec![None; topo.nodes.len()]);
    for (k, f) in flows.iter().enumerate() {
        rx_flow[f.dst as usize].get_or_insert(k as u32);
        if f.source.is_saturated() {
            saturated[f.src as usize].get_or_insert(k as u32);
        }
    }
    let nodes: Vec<Node<L>> = topo
        .nodes
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let stack = make(spec, if spec.first { Station::A } else { Station::B });
            Node {
                lane: spec.lane,
                peer: spec.peer,
                rx_flow: rx_flow[i],
                saturated: saturated[i],
                wakes: Vec::new(),
                tx_wake: false,
                dialogue: dialogues.iter().position(|d| d.nodes.contains(&(i as u32))).map(|d| d as u32),
                stack,
            }
        })
        .collect();
    for f in flows.iter_mut() {
        f.service = nodes[f.src as usize].stack.service();
    }
    let mut relay_port0 = vec![];
    let mut port_owner = vec![];
    let mut port_scopes = vec![];
    let relays = topo
        .relays
        .iter()
        .enumerate()
        .map(|(r, spec)| {
            relay_port0.push((nodes.len() + port_owner.len()) as u32);
            for k in 0..spec.lanes.len() {
                port_owner.push((r as u32, k as u32));
            }
            port_scopes.extend(spec.port_scopes.iter().cloned());
            let cap = spec.config.buffer_octets.map(|o| (o * 8.0) as u64);
            let rng = stream(seed, replication, &format!("relay.{}.delay", spec.config.name));
            let mut relay = Relay::new(spec.lanes.clone(), cap, forwarding(&spec.config.delay()), spec.routes.clone(), rng);
            relay.single_processor = spec.config.single_processor;
            if spec.config.kind == "ip_router" {
                relay.ip = Some(IpForwarding::new(spec.mtu_octets.clone()));
            }
            relay
        })
        .collect();
    let routers = wire_routers(topo, make_router);
    let declared = super::stall::Declared::of(topo, sc.run.duration_s);
    let timers = sc.run.stall_timers.unwrap_or(super::stall::STALL_TIMERS);
    let stall = super::stall::StallWatch::new(topo, &flows, timers, declared, |f| super::state::inside(&nodes, &flows, f));
    let elements = nodes.len() + lanes.len() + topo.relays.len() + flows.len();
    let mut sim = Sim {
        stall,
        instant: super::livelock::InstantWatch::new(super::livelock::bound(sc.run.livelock_events, elements)),
        q: EventQueue::new(),
        port_at_open: vec![PortCounters::default(); port_owner.len()],
        nodes,
        lanes,
        radios,
        rings,
        relays,
        routers,
        relay_port0,
        port_owner,
        flows,
        extra_scopes: !topo.pair,
        pooled: (!topo.pair && topo.flows.len() > 1).then(|| DirectionMeter::new("flow.*".into())),
        lane_scopes: topo.media.iter().flat_map(|m| m.lane_scopes.iter().cloned()).chain(topo.rings.iter().flat_map(|g| g.lane_scopes.iter().cloned())).collect(),
        port_scopes,
        ip_scopes: topo.relays.iter().enumerate().filter(|(_, r)| r.config.kind == "ip_router").map(|(i, r)| (i, format!("ip.{}", r.config.name))).collect(),
        ring_scopes: topo.rings.iter().map(|g| (format!("ring.{}", g.config.name), g.first_lane as usize..g.first_lane as usize + g.stations.len())).collect(),
        llc2_scopes: !topo.pair && topo.nodes.first().is_some_and(|n| matches!(n.stack.as_slice(), [crate::scenario::ProtocolConfig::Llc2(_)])),
        events: 0,
        unfinished: topo.flows.iter().filter(|f| f.traffic.is_finite()).count(),
        terminating: topo.flows.iter().filter(|f| f.traffic.is_active()).all(|f| f.traffic.is_finite()),
        dialogues,
        released: Vec::new(),
        fingerprint: 0xcbf2_9ce4_8422_2325,
        trace,
    };
    if let (Some(t), false) = (sim.trace.as_mut(), topo.pair) {
        // Stations: the nodes, then the relays; lanes in lane order (media, then rings).
        let names = topo.nodes.iter().map(|n| n.name.clone()).chain(topo.relays.iter().map(|r| r.config.name.clone())).collect();
        let lanes = topo.media.iter().flat_map(|m| m.lane_scopes.iter().cloned()).chain(topo.rings.iter().flat_map(|g| g.lane_scopes.iter().cloned())).collect();
        t.set_names(names, lanes);
    }
    Ok(sim)
}
