//! Topologies: nodes with protocol stacks, attached to media, joined by relays, and the
//! flows of traffic between them.
//!
//! Two forms. The *pair* shorthand (`[link]`, `[protocol]`, `[traffic.a]`,
//! `[traffic.b]`) expands to two nodes `a` and `b` on one duplex link with flows a→b and
//! b→a, measured under the scope names `a_to_b` and `b_to_a` and drawing from the random
//! streams they always had, so every existing result is unchanged. The *explicit* form:
//!
//! ```toml
//! [stack.arq]                 # a named stack: one protocol table, or
//! kind = "go_back_n"          # layers = [{ kind = "go_back_n" }, { kind = "datagram" }]
//! [[medium]]
//! name = "l1"
//! kind = "duplex_link"        # or "half_duplex_radio" (turnaround_s, preamble_s)
//! ends = ["a", "r"]
//! rate_bps = 48000
//! [[relay]]
//! name = "r"                  # kind = "store_and_forward" (buffer_octets, forwarding_time_s)
//! [[node]]                    #     or "transit_network" (transit_delay = {dist, ...})
//! name = "a"
//! stack = "arq"
//! [[flow]]
//! from = "a"
//! to = "b"
//! traffic = { kind = "poisson", load = 0.5 }
//! ```
//!
//! Validation reports every dangling name, a node with no or several interfaces, a relay
//! with fewer than two ports, relays joined in a loop, flows without a path and stacks
//! whose layers do not fit, each with its path.

use super::link::{parse_direction, DirectionConfig, LinkConfig};
use super::ring::RingSpec;
use super::ProtocolConfig;
use crate::schema::{Problems, Range, Table};
use crate::traffic::TrafficConfig;
use serde::Serialize;
use std::collections::BTreeMap;

/// The kind of a medium.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MediumKind {
    DuplexLink,
    HalfDuplexRadio { turnaround_s: f64, preamble_s: f64 },
    /// IEEE 802.5 token ring over all `ends` (`scenario::ring`, `channel::token_ring`).
    TokenRing {
        station_delay_bits: f64,
        monitor_buffer_bits: f64,
        propagation_s: f64,
        token_bits: f64,
        mac_overhead_octets: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        holding_time_s: Option<f64>,
    },
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MediumConfig {
    pub name: String,
    #[serde(flatten)]
    pub kind: MediumKind,
    pub ends: Vec<String>,
    pub rate_bps: f64,
    pub delay_s: f64,
    pub bit_error_rate: f64,
    /// Error model of the lane `ends[0]` → `ends[1]` (default: bit errors at `bit_error_rate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forward: Option<DirectionConfig>,
    /// Error model of the lane `ends[1]` → `ends[0]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverse: Option<DirectionConfig>,
}

impl MediumConfig {
    /// The error model of lane 0 (forward) or 1 (reverse).
    pub fn lane_errors(&self, i: usize) -> DirectionConfig {
        let link = LinkConfig { rate_bps: self.rate_bps, delay_s: self.delay_s, bit_error_rate: self.bit_error_rate, a_to_b: self.forward.clone(), b_to_a: self.reverse.clone() };
        link.direction(i)
    }
}

/// A relay's forwarding or transit delay.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "dist", rename_all = "snake_case")]
pub enum DelayConfig {
    Constant { mean_s: f64 },
    Exponential { mean_s: f64 },
    Uniform { min_s: f64, max_s: f64 },
    /// A piecewise-constant mean by time of day (`starts_s` into `period_s`, the clock
    /// reading `clock_at_start_s` at time zero); each delay that mean (`shape =
    /// "constant"`) or exponential with it.
    Profile { starts_s: Vec<f64>, means_s: Vec<f64>, period_s: f64, clock_at_start_s: f64, shape: String },
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RelayConfig {
    pub name: String,
    /// "store_and_forward" or "transit_network".
    pub kind: String,
    /// Drop-tail buffer per output port (octets); absent = unlimited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_octets: Option<f64>,
    /// Store and forward: constant time from last bit in to ready for the output port.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forwarding_time_s: Option<f64>,
    /// Transit network: the delay of each frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transit_delay: Option<DelayConfig>,
}

impl RelayConfig {
    /// The forwarding (or transit) delay.
    pub fn delay(&self) -> DelayConfig {
        match (&self.transit_delay, self.forwarding_time_s) {
            (Some(d), _) => d.clone(),
            (None, t) => DelayConfig::Constant { mean_s: t.unwrap_or(0.0) },
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NodeConfig {
    pub name: String,
    pub stack: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowConfig {
    pub from: String,
    pub to: String,
    pub traffic: TrafficConfig,
}

/// A stack: its layers, top first.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StackConfig {
    pub layers: Vec<ProtocolConfig>,
}

/// The explicit form as written (resolved: every default explicit).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NetworkConfig {
    pub stack: BTreeMap<String, StackConfig>,
    pub medium: Vec<MediumConfig>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub relay: Vec<RelayConfig>,
    pub node: Vec<NodeConfig>,
    pub flow: Vec<FlowConfig>,
}

/// One end of a medium.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Node(u32),
    Relay(u32),
}

/// A wired topology, indices instead of names. Lane `2m` of medium `m` runs
/// `ends[0]` → `ends[1]`, lane `2m + 1` the other way.
#[derive(Clone, Debug, PartialEq)]
pub struct Topology {
    pub nodes: Vec<NodeSpec>,
    pub media: Vec<MediumSpec>,
    pub relays: Vec<RelaySpec>,
    pub flows: Vec<FlowSpec>,
    /// The two-node shorthand: legacy scope and stream names.
    pub pair: bool,
    /// Token rings (shared media). Their lanes follow the two-ended media's; a relay
    /// names ring `g` among its `media` as attachment `media.len() + g`.
    pub rings: Vec<RingSpec>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NodeSpec {
    pub name: String,
    /// Layers, top first.
    pub stack: Vec<ProtocolConfig>,
    /// The lane this node transmits on.
    pub lane: u32,
    /// The node its PDUs go to (its first peer).
    pub peer: u32,
    /// Lower index of the pair: station A (HDLC primary in NRM/ARM).
    pub first: bool,
    /// Its index among the nodes.
    pub index: u32,
    /// Every node it exchanges flows with, and the connection id of that pair (shared
    /// by both ends). More than one: the node's stack is multiplexed (`protocol::mux`).
    pub peers: Vec<(u32, u32)>,
    /// Flow index → position in `peers` of the connection carrying it (flows this node
    /// sends or receives).
    pub flow_conn: Vec<Option<usize>>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MediumSpec {
    pub config: MediumConfig,
    pub ends: [End; 2],
    /// Random stream and scope name of each lane.
    pub lane_streams: [String; 2],
    pub lane_scopes: [String; 2],
}

#[derive(Clone, Debug, PartialEq)]
pub struct RelaySpec {
    pub config: RelayConfig,
    /// Port k is attached to medium `media[k]` and transmits on `lanes[k]`.
    pub media: Vec<u32>,
    pub lanes: Vec<u32>,
    /// Destination node → output port.
    pub routes: Vec<Option<usize>>,
    pub port_scopes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FlowSpec {
    /// Scope name of the flow's measures.
    pub scope: String,
    pub src: u32,
    pub dst: u32,
    pub traffic: TrafficConfig,
    /// Prefix of its random streams (`traffic.<x>.arrivals`).
    pub stream: String,
}

impl Topology {
    /// The pair shorthand: nodes a (0) and b (1) on one duplex link.
    pub fn pair(link: &LinkConfig, protocol: &ProtocolConfig, a: &TrafficConfig, b: &TrafficConfig) -> Topology {
        let medium = MediumConfig {
            name: "link".into(),
            kind: MediumKind::DuplexLink,
            ends: vec!["a".into(), "b".into()],
            rate_bps: link.rate_bps,
            delay_s: link.delay_s,
            bit_error_rate: link.bit_error_rate,
            forward: Some(link.direction(0)),
            reverse: Some(link.direction(1)),
        };
        let node = |name: &str, lane: u32, peer| NodeSpec {
            name: name.into(),
            stack: vec![protocol.clone()],
            lane,
            peer,
            first: lane == 0,
            index: lane,
            peers: vec![(peer, 0)],
            flow_conn: vec![Some(0), Some(0)],
        };
        let flow = |scope: &str, src, dst, t: &TrafficConfig, s: &str| FlowSpec { scope: scope.into(), src, dst, traffic: t.clone(), stream: s.into() };
        Topology {
            nodes: vec![node("a", 0, 1), node("b", 1, 0)],
            media: vec![MediumSpec {
                config: medium,
                ends: [End::Node(0), End::Node(1)],
                lane_streams: ["link.a_to_b.errors".into(), "link.b_to_a.errors".into()],
                lane_scopes: ["link.a_to_b".into(), "link.b_to_a".into()],
            }],
            relays: vec![],
            flows: vec![flow("a_to_b", 0, 1, a, "a"), flow("b_to_a", 1, 0, b, "b")],
            pair: true,
            rings: vec![],
        }
    }

    /// Number of lanes (two per two-ended medium, one per ring station).
    pub fn lanes(&self) -> usize {
        2 * self.media.len() + self.rings.iter().map(|g| g.stations.len()).sum::<usize>()
    }

    /// The ring a lane belongs to and its station there, if it is a ring lane.
    pub fn ring_of_lane(&self, lane: u32) -> Option<(u32, u32)> {
        self.rings.iter().enumerate().find_map(|(g, r)| (lane >= r.first_lane && lane < r.first_lane + r.stations.len() as u32).then(|| (g as u32, lane - r.first_lane)))
    }

    /// The transmission rate of a lane.
    pub fn lane_rate(&self, lane: u32) -> f64 {
        match self.ring_of_lane(lane) {
            Some((g, _)) => self.rings[g as usize].config.rate_bps,
            None => self.media[lane as usize / 2].config.rate_bps,
        }
    }

    /// The end a lane delivers to.
    pub fn lane_target(&self, lane: u32) -> End {
        let m = &self.media[lane as usize / 2];
        m.ends[1 - lane as usize % 2]
    }
}

impl NetworkConfig {
    pub fn parse(root: &mut Table, p: &mut Problems) -> NetworkConfig {
        let mut stack = BTreeMap::new();
        let mut st = root.table("stack", p);
        for name in st.keys() {
            let mut t = st.table(&name, p);
            let layers = if t.has("layers") {
                let layers: Vec<ProtocolConfig> = t
                    .tables("layers", p)
                    .into_iter()
                    .map(|mut l| {
                        let c = ProtocolConfig::parse(&mut l, p);
                        l.finish(p);
                        c
                    })
                    .collect();
                if layers.is_empty() {
                    p.push(t.path_of("layers"), None, "expected at least one layer");
                }
                layers
            } else {
                vec![ProtocolConfig::parse(&mut t, p)]
            };
            t.finish(p);
            stack.insert(name, StackConfig { layers });
        }
        st.finish(p);

        let medium = root
            .tables("medium", p)
            .into_iter()
            .map(|mut t| {
                let name = t.string("name", p);
                let kind = match t.choice("kind", "duplex_link", &["duplex_link", "half_duplex_radio", "token_ring"], p).as_str() {
                    "half_duplex_radio" => MediumKind::HalfDuplexRadio {
                        turnaround_s: t.f64("turnaround_s", 0.0, Range::Closed(0.0, 1e6), p),
                        preamble_s: t.f64("preamble_s", 0.0, Range::Closed(0.0, 1e6), p),
                    },
                    "token_ring" => super::ring::parse_kind(&mut t, p),
                    _ => MediumKind::DuplexLink,
                };
                let ends = t.strings("ends", p);
                let default_rate = if matches!(kind, MediumKind::TokenRing { .. }) { 4e6 } else { 48_000.0 };
                let rate_bps = t.f64("rate_bps", default_rate, Range::Closed(1.0, 1e12), p);
                let delay_s = t.f64("delay_s", 0.0, Range::Closed(0.0, 1e6), p);
                let bit_error_rate = t.f64("bit_error_rate", 0.0, Range::HalfOpen(0.0, 1.0), p);
                let mut dir = |key: &str| {
                    if !t.has(key) {
                        return None;
                    }
                    let mut d = t.table(key, p);
                    let c = parse_direction(&mut d, bit_error_rate, p);
                    d.finish(p);
                    Some(c)
                };
                let (forward, reverse) = (dir("forward"), dir("reverse"));
                t.finish(p);
                MediumConfig { name, kind, ends, rate_bps, delay_s, bit_error_rate, forward, reverse }
            })
            .collect();

        let relay = root
            .tables("relay", p)
            .into_iter()
            .map(|mut t| {
                let name = t.string("name", p);
                let kind = t.choice("kind", "store_and_forward", &["store_and_forward", "transit_network"], p);
                let c = if kind == "transit_network" {
                    let mut d = t.table("transit_delay", p);
                    let delay = parse_delay(&mut d, p);
                    d.finish(p);
                    RelayConfig { name, kind, buffer_octets: None, forwarding_time_s: None, transit_delay: Some(delay) }
                } else {
                    let buffer_octets = t.opt_f64("buffer_octets", Range::Closed(1.0, 1e15), p);
                    let f = t.f64("forwarding_time_s", 0.0, Range::Closed(0.0, 1e6), p);
                    RelayConfig { name, kind, buffer_octets, forwarding_time_s: Some(f), transit_delay: None }
                };
                t.finish(p);
                c
            })
            .collect();

        let node = root
            .tables("node", p)
            .into_iter()
            .map(|mut t| {
                let c = NodeConfig { name: t.string("name", p), stack: t.string("stack", p) };
                t.finish(p);
                c
            })
            .collect();

        let flow = root
            .tables("flow", p)
            .into_iter()
            .map(|mut t| {
                let from = t.string("from", p);
                let to = t.string("to", p);
                let mut tt = t.table("traffic", p);
                let traffic = TrafficConfig::parse(&mut tt, p);
                tt.finish(p);
                t.finish(p);
                FlowConfig { from, to, traffic }
            })
            .collect();
        NetworkConfig { stack, medium, relay, node, flow }
    }

    /// Checks names and shapes and wires the topology.
    pub fn wire(&self, p: &mut Problems) -> Option<Topology> {
        let before = p.0.len();
        let mut names: BTreeMap<&str, End> = BTreeMap::new();
        for (i, n) in self.node.iter().enumerate() {
            if names.insert(&n.name, End::Node(i as u32)).is_some() {
                p.push(format!("node[{i}].name"), Some(&n.name.as_str().into()), "expected a name not used by another node or relay");
            }
            if !self.stack.contains_key(&n.stack) {
                let known = self.stack.keys().cloned().collect::<Vec<_>>().join(", ");
                p.push(format!("node[{i}].stack"), Some(&n.stack.as_str().into()), format!("expected the name of a [stack.<name>] table (known: {known})"));
            }
        }
        for (i, r) in self.relay.iter().enumerate() {
            if names.insert(&r.name, End::Relay(i as u32)).is_some() {
                p.push(format!("relay[{i}].name"), Some(&r.name.as_str().into()), "expected a name not used by another node or relay");
            }
        }
        if self.node.len() < 2 {
            p.push("node", None, "expected at least two [[node]] tables");
        }
        let known = || names.keys().copied().collect::<Vec<_>>().join(", ");
        let mut media = vec![];
        let mut attached: Vec<Vec<u32>> = vec![vec![]; self.node.len()];
        let mut relay_media: Vec<Vec<u32>> = vec![vec![]; self.relay.len()];
        let mut ring_ends: Vec<(usize, Vec<End>)> = vec![];
        for (m, c) in self.medium.iter().enumerate() {
            let ring = matches!(c.kind, MediumKind::TokenRing { .. });
            if ring && c.ends.len() < 2 {
                p.push(format!("medium[{m}].ends"), None, format!("expected at least two station names on a token ring (got {})", c.ends.len()));
                continue;
            }
            if !ring && c.ends.len() != 2 {
                p.push(format!("medium[{m}].ends"), None, format!("expected two names (got {})", c.ends.len()));
                continue;
            }
            let mut ends = vec![End::Node(0); c.ends.len()];
            let mut ok = true;
            for (k, e) in c.ends.iter().enumerate() {
                match names.get(e.as_str()) {
                    Some(&x) => ends[k] = x,
                    None => {
                        ok = false;
                        p.push(format!("medium[{m}].ends[{k}]"), Some(&e.as_str().into()), format!("expected the name of a [[node]] or [[relay]] (known: {})", known()));
                    }
                }
            }
            if ok && (1..ends.len()).any(|k| ends[..k].contains(&ends[k])) {
                p.push(format!("medium[{m}].ends"), None, if ring { "expected each station once on the ring" } else { "expected two different ends" });
                ok = false;
            }
            if !ok {
                continue;
            }
            if ring {
                ring_ends.push((m, ends));
                continue;
            }
            let mi = media.len() as u32;
            for (k, e) in ends.iter().enumerate() {
                match *e {
                    End::Node(n) => attached[n as usize].push(2 * mi + k as u32),
                    End::Relay(r) => relay_media[r as usize].push(mi),
                }
            }
            let ends = [ends[0], ends[1]];
            let lane = |a: &str, b: &str| format!("{}.{a}->{b}", c.name);
            media.push(MediumSpec {
                config: c.clone(),
                ends,
                lane_streams: [format!("medium.{}.errors", lane(&c.ends[0], &c.ends[1])), format!("medium.{}.errors", lane(&c.ends[1], &c.ends[0]))],
                lane_scopes: [format!("link.{}", lane(&c.ends[0], &c.ends[1])), format!("link.{}", lane(&c.ends[1], &c.ends[0]))],
            });
        }
        // Rings: lanes after the two-ended media's, one per station.
        let mut rings = vec![];
        let mut lane = 2 * media.len() as u32;
        for (g, (m, ends)) in ring_ends.into_iter().enumerate() {
            let c = &self.medium[m];
            let attachment = (media.len() + g) as u32;
            for (k, e) in ends.iter().enumerate() {
                match *e {
                    End::Node(n) => attached[n as usize].push(lane + k as u32),
                    End::Relay(r) => relay_media[r as usize].push(attachment),
                }
            }
            let (lane_streams, lane_scopes) = RingSpec::names(c);
            rings.push(RingSpec { config: c.clone(), first_lane: lane, attachment, lane_streams, lane_scopes, receiver: vec![], stations: ends });
            lane += rings[g].stations.len() as u32;
        }
        for (i, a) in attached.iter().enumerate() {
            match a.len() {
                1 => {}
                0 => p.push(format!("node[{i}]"), Some(&self.node[i].name.as_str().into()), "not attached to any medium (name it in the ends of a [[medium]])"),
                n => p.push(format!("node[{i}]"), Some(&self.node[i].name.as_str().into()), format!("attached to {n} media; a node has one interface (join media with a [[relay]])")),
            }
        }
        for (r, ms) in relay_media.iter().enumerate() {
            if ms.len() < 2 {
                p.push(format!("relay[{r}]"), Some(&self.relay[r].name.as_str().into()), format!("expected at least two media attached (ports), found {}", ms.len()));
            }
        }
        for (s, st) in &self.stack {
            check_stack(s, st, p);
        }
        check_hf_modems(self, p);
        super::validate::check_network(self, p);
        if p.0.len() > before {
            return None;
        }
        // Relays form a forest with the media: a loop would let frames circulate.
        let node_att: Vec<u32> = attached.iter().map(|a| match rings.iter().find(|g| a[0] >= g.first_lane && a[0] < g.first_lane + g.stations.len() as u32) {
            Some(g) => g.attachment,
            None => a[0] / 2,
        }).collect();
        let graph = Graph { media: &media, rings: &rings, relay_media: &relay_media, node_att: &node_att };
        if let Some(r) = graph.relay_loop() {
            p.push(format!("relay[{r}]"), Some(&self.relay[r].name.as_str().into()), "relays joined in a loop (frames could circulate); remove a medium to break it");
            return None;
        }
        let mut flows = vec![];
        let mut peers: Vec<Vec<(u32, u32)>> = vec![vec![]; self.node.len()];
        let mut conns: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        for (f, c) in self.flow.iter().enumerate() {
            let mut ends = [0u32; 2];
            for (k, (key, name)) in [("from", &c.from), ("to", &c.to)].into_iter().enumerate() {
                match names.get(name.as_str()) {
                    Some(End::Node(n)) => ends[k] = *n,
                    _ => p.push(format!("flow[{f}].{key}"), Some(&name.as_str().into()), format!("expected the name of a [[node]] (known: {})", self.node.iter().map(|n| n.name.as_str()).collect::<Vec<_>>().join(", "))),
                }
            }
            if p.0.len() > before {
                continue;
            }
            if ends[0] == ends[1] {
                p.push(format!("flow[{f}].to"), Some(&c.to.as_str().into()), "expected a node other than flow.from");
                continue;
            }
            if !graph.reachable(ends[0], ends[1]) {
                p.push(format!("flow[{f}]"), None, format!("no path from {} to {} through media and relays", c.from, c.to));
                continue;
            }
            let next = conns.len() as u32;
            let conn = *conns.entry((ends[0].min(ends[1]), ends[0].max(ends[1]))).or_insert(next);
            for (me, other) in [(ends[0], ends[1]), (ends[1], ends[0])] {
                if !peers[me as usize].iter().any(|&(x, _)| x == other) {
                    peers[me as usize].push((other, conn));
                }
            }
            flows.push(FlowSpec { scope: format!("flow.{}->{}", c.from, c.to), src: ends[0], dst: ends[1], traffic: c.traffic.clone(), stream: format!("flow.{}->{}", c.from, c.to) });
        }
        if self.flow.is_empty() {
            p.push("flow", None, "expected at least one [[flow]]");
        }
        dialogue_reverse_flows(&self.flow, &mut flows, p);
        // A saturated source keeps its node's queue topped up to one SDU: two on one node
        // would compete for that one place.
        for (f, c) in self.flow.iter().enumerate() {
            if c.traffic.kind == "saturated" && self.flow[..f].iter().any(|o| o.from == c.from && o.traffic.kind == "saturated") {
                p.push(format!("flow[{f}].traffic.kind"), Some(&"saturated".into()), format!("expected at most one saturated flow from node {} (use poisson traffic for the others)", c.from));
            }
        }
        let shape = |n: &NodeConfig| self.stack[&n.stack].layers.iter().map(|l| l.kind()).collect::<Vec<_>>();
        for (i, n) in self.node.iter().enumerate().skip(1) {
            if shape(n) != shape(&self.node[0]) {
                p.push(format!("node[{i}].stack"), Some(&n.stack.as_str().into()), format!("expected a stack of the same layer kinds as node {} ({:?}): one run has one stack shape", self.node[0].name, shape(&self.node[0])));
            }
        }
        for (i, x) in peers.iter().enumerate() {
            if x.is_empty() && p.0.len() == before {
                p.push(format!("node[{i}]"), Some(&self.node[i].name.as_str().into()), "takes part in no [[flow]]");
            }
            if x.len() > 1 && self.stack.get(&self.node[i].stack).is_some_and(|s| matches!(s.layers.first(), Some(ProtocolConfig::Tp4(_)))) {
                p.push(format!("node[{i}].stack"), Some(&self.node[i].stack.as_str().into()), format!("node {}: tp4 runs one connection per node (multiplexing transport connections is not wired yet)", self.node[i].name));
            } else if x.len() > 1 && self.stack.get(&self.node[i].stack).is_some_and(|s| s.layers.len() > 1) {
                let names: Vec<&str> = x.iter().map(|&(o, _)| self.node[o as usize].name.as_str()).collect();
                p.push(
                    format!("node[{i}].stack"),
                    Some(&self.node[i].stack.as_str().into()),
                    format!("node {} talks to {}: several peers need a one-layer stack (multiplexing over two layers is not wired yet)", self.node[i].name, names.join(" and ")),
                );
            }
        }
        if p.0.len() > before {
            return None;
        }
        let nodes = self
            .node
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let peer = peers[i].first().map_or(0, |x| x.0);
                let flow_conn = flows
                    .iter()
                    .map(|f: &FlowSpec| {
                        let other = if f.src as usize == i { f.dst } else if f.dst as usize == i { f.src } else { return None };
                        peers[i].iter().position(|&(x, _)| x == other)
                    })
                    .collect();
                NodeSpec {
                    name: n.name.clone(),
                    stack: self.stack[&n.stack].layers.clone(),
                    lane: attached[i][0],
                    peer,
                    first: (i as u32) < peer,
                    index: i as u32,
                    peers: peers[i].clone(),
                    flow_conn,
                }
            })
            .collect();
        let relays = self
            .relay
            .iter()
            .enumerate()
            .map(|(r, c)| {
                let ms = &relay_media[r];
                let me = End::Relay(r as u32);
                let lanes: Vec<u32> = ms
                    .iter()
                    .map(|&m| match graph.ring(m) {
                        Some(g) => g.first_lane + g.stations.iter().position(|&e| e == me).unwrap_or(0) as u32,
                        None => 2 * m + u32::from(media[m as usize].ends[1] == me),
                    })
                    .collect();
                let routes = (0..self.node.len() as u32).map(|n| ms.iter().position(|&m| graph.behind(r as u32, m, n))).collect();
                let port_scopes = ms.iter().map(|&m| format!("node.{}.{}", c.name, match graph.ring(m) { Some(g) => &g.config.name, None => &media[m as usize].config.name })).collect();
                RelaySpec { config: c.clone(), media: ms.clone(), lanes, routes, port_scopes }
            })
            .collect();
        let rings = rings
            .iter()
            .map(|g| {
                // Each destination is copied by its own station, or by the bridge behind which it lies.
                let receiver = (0..self.node.len() as u32)
                    .map(|n| {
                        g.stations
                            .iter()
                            .position(|&e| match e {
                                End::Node(x) => x == n,
                                End::Relay(r) => graph.relay_media[r as usize].iter().any(|&m2| m2 != g.attachment && graph.behind(r, m2, n)),
                            })
                            .map_or(u32::MAX, |k| k as u32)
                    })
                    .collect();
                RingSpec { receiver, ..g.clone() }
            })
            .collect();
        Some(Topology { nodes, media, relays, flows, pair: false, rings })
    }
}

/// A dialogue carries both directions of its pair: the reverse flow is added (as a
/// flow without traffic of its own, scope `flow.<to>-><from>`) unless declared, and may
/// carry no other traffic; a node takes part in one dialogue at most.
fn dialogue_reverse_flows(declared: &[FlowConfig], flows: &mut Vec<FlowSpec>, p: &mut Problems) {
    if flows.len() != declared.len() {
        return; // a flow was already reported
    }
    let dialogues: Vec<usize> = (0..flows.len()).filter(|&f| flows[f].traffic.dialogue.is_some()).collect();
    let mut in_dialogue: Vec<u32> = vec![];
    for &f in &dialogues {
        let (src, dst) = (flows[f].src, flows[f].dst);
        if let Some(i) = in_dialogue.iter().find(|&&n| n == src || n == dst) {
            let name = if *i == src { &declared[f].from } else { &declared[f].to };
            p.push(format!("flow[{f}].traffic.kind"), Some(&"dialogue".into()), format!("expected one dialogue per node: node {name} already takes part in one"));
            return;
        }
        in_dialogue.extend([src, dst]);
    }
    for f in dialogues {
        let (src, dst) = (flows[f].src, flows[f].dst);
        match flows.iter().position(|r| r.src == dst && r.dst == src) {
            Some(r) if flows[r].traffic.is_active() => {
                p.push(format!("flow[{r}].traffic.kind"), Some(&flows[r].traffic.kind.as_str().into()), format!("expected \"none\": flow[{f}] is a dialogue, which carries both directions"));
            }
            Some(_) => {}
            None => {
                let (from, to) = (&declared[f].from, &declared[f].to);
                let none = TrafficConfig { kind: "none".into(), load: None, messages: None, initial_backlog: 0, length: crate::traffic::LengthConfig::Constant { mean_bits: 1000.0 }, dialogue: None };
                flows.push(FlowSpec { scope: format!("flow.{to}->{from}"), src: dst, dst: src, traffic: none, stream: format!("flow.{to}->{from}") });
            }
        }
    }
}

fn parse_delay(d: &mut Table, p: &mut Problems) -> DelayConfig {
    let s = Range::Closed(0.0, 1e6);
    match d.choice("dist", "constant", &["constant", "exponential", "uniform", "profile"], p).as_str() {
        "exponential" => DelayConfig::Exponential { mean_s: d.f64("mean_s", 0.235, s, p) },
        "uniform" => {
            let lo = d.f64("min_s", 0.0, s, p);
            let hi = d.f64("max_s", lo, s, p);
            if hi < lo {
                p.push(d.path_of("max_s"), Some(&hi.into()), format!("expected a number >= min_s ({lo})"));
            }
            DelayConfig::Uniform { min_s: lo, max_s: hi.max(lo) }
        }
        "profile" => parse_profile(d, p),
        _ => DelayConfig::Constant { mean_s: d.f64("mean_s", 0.235, s, p) },
    }
}

/// `dist = "profile"`: starts and means of the same length, starts from 0 increasing
/// within the period, the clock at the start within the period.
fn parse_profile(d: &mut Table, p: &mut Problems) -> DelayConfig {
    let period_s = d.f64("period_s", 86_400.0, Range::Closed(1e-3, 1e9), p);
    let starts_s = super::link::numbers(d, "starts_s", p);
    let means_s = super::link::numbers(d, "means_s", p);
    let clock_at_start_s = d.f64("clock_at_start_s", 0.0, Range::Closed(0.0, 1e9), p);
    let shape = d.choice("shape", "constant", &["constant", "exponential"], p);
    if let Some(i) = means_s.iter().position(|&m| !(0.0..=1e6).contains(&m)) {
        p.push(format!("{}[{i}]", d.path_of("means_s")), Some(&means_s[i].into()), "a mean delay in [0, 1e6] seconds");
    }
    if means_s.is_empty() {
        p.push(d.path_of("means_s"), None, "a non-empty list of mean delays (seconds)");
    } else if starts_s.len() != means_s.len() {
        p.push(d.path_of("starts_s"), None, format!("as many starts as means_s ({}), got {}", means_s.len(), starts_s.len()));
    } else if starts_s.first().is_some_and(|&x| x != 0.0) {
        p.push(format!("{}[0]", d.path_of("starts_s")), Some(&starts_s[0].into()), "0 (the first piece starts the period)");
    } else if let Some(i) = (1..starts_s.len()).find(|&i| !(starts_s[i] > starts_s[i - 1] && starts_s[i] < period_s)) {
        p.push(format!("{}[{i}]", d.path_of("starts_s")), Some(&starts_s[i].into()), format!("greater than the previous start and less than period_s ({period_s})"));
    }
    if clock_at_start_s >= period_s {
        p.push(d.path_of("clock_at_start_s"), Some(&clock_at_start_s.into()), format!("less than period_s ({period_s})"));
    }
    DelayConfig::Profile { starts_s, means_s, period_s, clock_at_start_s, shape }
}

/// Layers fit when there are at most two and link-only protocols sit at the bottom.
/// An `hf_arq` stack and the `hf` error models must name one modem table: a packet's
/// mode (data rate, copies combined) is an index into it.
fn check_hf_modems(net: &NetworkConfig, p: &mut Problems) {
    let arq: Vec<&str> = net.stack.values().flat_map(|st| &st.layers).filter_map(|l| if let ProtocolConfig::HfArq(c) = l { Some(c.modem.as_str()) } else { None }).collect();
    for (i, m) in net.medium.iter().enumerate() {
        for (key, d) in [("forward", &m.forward), ("reverse", &m.reverse)] {
            if let Some(DirectionConfig::Hf(h)) = d {
                if let Some(want) = arq.iter().find(|&&a| a != h.modem) {
                    p.push(format!("medium[{i}].{key}.modem"), Some(&h.modem.as_str().into()), format!("expected {want:?}, the modem of the hf_arq stack (a packet's mode indexes its table)"));
                }
            }
        }
    }
}

fn check_stack(name: &str, st: &StackConfig, p: &mut Problems) {
    let path = format!("stack.{name}");
    if st.layers.len() > 2 {
        p.push(format!("{path}.layers"), None, format!("expected at most 2 layers (got {}): deeper stacks are not wired yet", st.layers.len()));
    }
    for (i, l) in st.layers.iter().enumerate() {
        let bottom = i + 1 == st.layers.len();
        if i > 0 && matches!(l, ProtocolConfig::Tp4(_)) {
            p.push(format!("{path}.layers[{i}].kind"), Some(&l.kind().into()), "expected tp4 as the top layer: it carries the users' TSDUs");
        }
        // X.25 (comer-korb): `x25` is a whole host below IP and sends on the network;
        // `tcp` runs only directly over it.
        let below = st.layers.get(i + 1);
        if matches!(l, ProtocolConfig::Tcp(_)) && matches!(below, None | Some(ProtocolConfig::Tcp(_))) {
            p.push(format!("{path}.layers[{i}].kind"), Some(&l.kind().into()), "expected it directly above a link protocol (e.g. \"selective_repeat\", \"datagram\") or \"x25\"");
        }
        if matches!(l, ProtocolConfig::X25(_)) != bottom && matches!(l, ProtocolConfig::X25(_)) {
            p.push(format!("{path}.layers[{i}].kind"), Some(&l.kind().into()), "expected it as the lowest layer: it sends on the network, not over another protocol");
        }
        if bottom && i == 1 && matches!(l, ProtocolConfig::X25(_)) && !matches!(st.layers[0], ProtocolConfig::Tcp(_)) {
            p.push(format!("{path}.layers[0].kind"), Some(&st.layers[0].kind().into()), "\"tcp\" (the only layer wired over \"x25\" for now)");
        }
        // hf_arq (johnson): alone, or as the link under "tcp" (SMTP/TCP over HF ARQ).
        if matches!(l, ProtocolConfig::HfArq(_)) && st.layers.len() > 1 && !(bottom && matches!(st.layers[0], ProtocolConfig::Tcp(_))) {
            p.push(format!("{path}.layers[{i}].kind"), Some(&l.kind().into()), "expected hf_arq as the only layer of its stack or directly under \"tcp\"");
        }
        if !bottom && matches!(l, ProtocolConfig::Hdlc(_) | ProtocolConfig::Datagram(_)) {
            p.push(
                format!("{path}.layers[{i}].kind"),
                Some(&l.kind().into()),
                "expected it as the lowest layer: it sends on a medium, not over another protocol",
            );
        }
    }
}

/// Adjacency of the wired media.
/// Attachment ids: `m < media.len()` is two-ended medium `m`, above are the rings.
struct Graph<'a> {
    media: &'a [MediumSpec],
    rings: &'a [RingSpec],
    relay_media: &'a [Vec<u32>],
    node_att: &'a [u32],
}

impl Graph<'_> {
    fn ring(&self, m: u32) -> Option<&RingSpec> {
        (m as usize).checked_sub(self.media.len()).map(|g| &self.rings[g])
    }

    /// The ends reached from `from` across attachment `m`.
    fn across(&self, m: u32, from: End) -> Vec<End> {
        match self.ring(m) {
            Some(g) => g.stations.iter().copied().filter(|&e| e != from).collect(),
            None => {
                let e = self.media[m as usize].ends;
                vec![if e[0] == from { e[1] } else { e[0] }]
            }
        }
    }

    /// True if node `n` is reached from relay `r` by leaving through attachment `m`.
    fn behind(&self, r: u32, m: u32, n: u32) -> bool {
        let mut stack: Vec<(End, u32)> = self.across(m, End::Relay(r)).into_iter().map(|e| (e, m)).collect();
        while let Some((e, via)) = stack.pop() {
            match e {
                End::Node(x) if x == n => return true,
                End::Node(_) => {}
                End::Relay(q) => {
                    for &m2 in &self.relay_media[q as usize] {
                        if m2 != via {
                            stack.extend(self.across(m2, End::Relay(q)).into_iter().map(|e| (e, m2)));
                        }
                    }
                }
            }
        }
        false
    }

    fn reachable(&self, a: u32, b: u32) -> bool {
        let m = self.node_att[a as usize];
        self.across(m, End::Node(a)).into_iter().any(|e| match e {
            End::Node(x) => x == b,
            End::Relay(r) => self.relay_media[r as usize].iter().any(|&m2| m2 != m && self.behind(r, m2, b)),
        })
    }

    /// A relay on a cycle of relays and media, if any (union–find over relay–relay media).
    fn relay_loop(&self) -> Option<usize> {
        let mut parent: Vec<usize> = (0..self.relay_media.len()).collect();
        fn find(p: &mut [usize], x: usize) -> usize {
            let mut x = x;
            while p[x] != x {
                p[x] = p[p[x]];
                x = p[x];
            }
            x
        }
        for m in self.media {
            if let [End::Relay(a), End::Relay(b)] = m.ends {
                let (ra, rb) = (find(&mut parent, a as usize), find(&mut parent, b as usize));
                if ra == rb {
                    return Some(a as usize);
                }
                parent[ra] = rb;
            }
        }
        // The relays on one ring are joined through it.
        for g in self.rings {
            let on: Vec<u32> = g.stations.iter().filter_map(|e| if let End::Relay(r) = e { Some(*r) } else { None }).collect();
            for w in on.windows(2) {
                let (ra, rb) = (find(&mut parent, w[0] as usize), find(&mut parent, w[1] as usize));
                if ra == rb {
                    return Some(w[1] as usize);
                }
                parent[ra] = rb;
            }
        }
        None
    }
}

#[cfg(test)]
pub(super) mod tests {
    use crate::scenario::Scenario;

    /// A tandem a — l1 — r — l2 — b with a saturated flow a→b (also `validate`'s tests).
    pub(crate) const BASE: &str = r#"
[stack.s]
kind = "go_back_n"
[[medium]]
name = "l1"
ends = ["a", "r"]
[[medium]]
name = "l2"
ends = ["r", "b"]
[[relay]]
name = "r"
buffer_octets = 1000
[[node]]
name = "a"
stack = "s"
[[node]]
name = "b"
stack = "s"
[[flow]]
from = "a"
to = "b"
traffic = { kind = "saturated" }
"#;

    fn problems(text: &str) -> Vec<String> {
        match Scenario::from_toml(text) {
            Ok(_) => vec![],
            Err(e) => e.problems(),
        }
    }

    #[test]
    fn the_explicit_form_wires_routes_lanes_and_scopes() {
        let sc = Scenario::from_toml(BASE).unwrap();
        let t = &sc.topology;
        assert!(!t.pair);
        assert_eq!((t.nodes[0].lane, t.nodes[0].peer, t.nodes[1].lane, t.nodes[1].peer), (0, 1, 3, 0));
        assert_eq!((t.nodes[0].peers.clone(), t.nodes[1].peers.clone()), (vec![(1, 0)], vec![(0, 0)]));
        assert!(t.nodes[0].first && !t.nodes[1].first);
        let r = &t.relays[0];
        assert_eq!((r.media.clone(), r.lanes.clone()), (vec![0, 1], vec![1, 2]), "r sends on l1 r->a and l2 r->b");
        assert_eq!(r.routes, vec![Some(0), Some(1)]);
        assert_eq!(r.port_scopes, vec!["node.r.l1", "node.r.l2"]);
        assert_eq!(t.media[1].lane_scopes, ["link.l2.r->b".to_string(), "link.l2.b->r".to_string()]);
        assert_eq!(sc.scopes(), vec!["flow.a->b"]);
        // The resolved form is a fixed point and has no pair-form sections.
        let v = sc.to_value();
        assert!(v.get("link").is_none() && v.get("traffic").is_none() && v["relay"][0]["buffer_octets"] == 1000.0);
        assert_eq!(Scenario::from_value(&v).unwrap(), sc);
    }

    #[test]
    fn dangling_names_are_reported_with_their_paths() {
        let bad = BASE.replace("ends = [\"r\", \"b\"]", "ends = [\"r\", \"c\"]").replace("stack = \"s\"\n[[flow]]", "stack = \"t\"\n[[flow]]");
        assert_eq!(
            problems(&bad),
            vec![
                "node[1].stack = \"t\": expected the name of a [stack.<name>] table (known: s)",
                "medium[1].ends[1] = \"c\": expected the name of a [[node]] or [[relay]] (known: a, b, r)",
                "node[1] = \"b\": not attached to any medium (name it in the ends of a [[medium]])",
                "relay[0] = \"r\": expected at least two media attached (ports), found 1",
            ]
        );
        let bad = BASE.replace("to = \"b\"", "to = \"q\"");
        assert_eq!(problems(&bad), vec!["flow[0].to = \"q\": expected the name of a [[node]] (known: a, b)"]);
    }

    #[test]
    fn relays_in_a_loop_are_an_error() {
        let ring = BASE.replace(
            "[[relay]]",
            "[[medium]]\nname = \"l3\"\nends = [\"r\", \"r2\"]\n[[medium]]\nname = \"l4\"\nends = [\"r2\", \"r3\"]\n[[medium]]\nname = \"l5\"\nends = [\"r3\", \"r\"]\n[[relay]]\nname = \"r2\"\n[[relay]]\nname = \"r3\"\n[[relay]]",
        );
        assert_eq!(problems(&ring), vec!["relay[1] = \"r3\": relays joined in a loop (frames could circulate); remove a medium to break it"]);
        let self_loop = BASE.replace("ends = [\"a\", \"r\"]", "ends = [\"r\", \"r\"]");
        assert!(problems(&self_loop).contains(&"medium[0].ends: expected two different ends".to_string()));
    }

    #[test]
    fn stacks_whose_layers_do_not_fit_are_errors() {
        let bad = BASE.replace("[stack.s]\nkind = \"go_back_n\"", "[stack.s]\nlayers = [{ kind = \"hdlc\" }, { kind = \"go_back_n\" }]");
        assert_eq!(
            problems(&bad),
            vec!["stack.s.layers[0].kind = \"hdlc\": expected it as the lowest layer: it sends on a medium, not over another protocol"]
        );
        let deep = BASE.replace("[stack.s]\nkind = \"go_back_n\"", "[stack.s]\nlayers = [{ kind = \"go_back_n\" }, { kind = \"go_back_n\" }, { kind = \"datagram\" }]");
        assert_eq!(problems(&deep), vec!["stack.s.layers: expected at most 2 layers (got 3): deeper stacks are not wired yet"]);
        let mixed = BASE.replace("[[node]]\nname = \"b\"\nstack = \"s\"", "[[node]]\nname = \"b\"\nstack = \"u\"\n[stack.u]\nkind = \"selective_repeat\"");
        assert_eq!(problems(&mixed).len(), 1, "{:?}", problems(&mixed));
        assert!(problems(&mixed)[0].starts_with("node[1].stack = \"u\": expected a stack of the same layer kinds as node a"));
    }

    #[test]
    fn the_two_forms_do_not_mix_and_nodes_have_one_interface() {
        let mixed = format!("[link]\nrate_bps = 9600\n{BASE}");
        assert!(problems(&mixed)[0].starts_with("link = "), "{:?}", problems(&mixed));
        let two = BASE.replace("ends = [\"r\", \"b\"]", "ends = [\"a\", \"b\"]");
        assert!(problems(&two).contains(&"node[0] = \"a\": attached to 2 media; a node has one interface (join media with a [[relay]])".to_string()), "{:?}", problems(&two));
        let star = format!("{BASE}\n[[node]]\nname = \"c\"\nstack = \"s\"\n[[medium]]\nname = \"l3\"\nends = [\"r\", \"c\"]\n[[flow]]\nfrom = \"a\"\nto = \"c\"\ntraffic = {{ kind = \"poisson\" }}\n");
        let sc = Scenario::from_toml(&star).unwrap();
        let a = &sc.topology.nodes[0];
        assert_eq!((a.peers.clone(), a.flow_conn.clone()), (vec![(1, 0), (2, 1)], vec![Some(0), Some(1)]), "a multiplexes two connections");
        assert_eq!(sc.topology.nodes[2].flow_conn, vec![None, Some(0)]);
        let deep = star.replace("[stack.s]\nkind = \"go_back_n\"", "[stack.s]\nlayers = [{ kind = \"go_back_n\" }, { kind = \"datagram\" }]");
        assert_eq!(problems(&deep), vec!["node[0].stack = \"s\": node a talks to b and c: several peers need a one-layer stack (multiplexing over two layers is not wired yet)"]);
        let twice = star.replace("to = \"c\"\ntraffic = { kind = \"poisson\" }", "to = \"c\"\ntraffic = { kind = \"saturated\" }");
        assert_eq!(
            problems(&twice),
            vec!["flow[1].traffic.kind = \"saturated\": expected at most one saturated flow from node a (use poisson traffic for the others)"]
        );
    }
}
