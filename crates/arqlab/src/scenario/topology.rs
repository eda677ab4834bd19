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
//! with fewer than two ports, route overrides that loop, flows without a path and stacks
//! whose layers do not fit, each with its path.

pub use super::elements::{DelayConfig, End, FlowConfig, MediumConfig, MediumKind, MediumSpec, NodeConfig, RelayConfig, StackConfig};
pub use super::network::NetworkConfig;
use super::link::{DirectionConfig, LinkConfig};
use super::ring::RingSpec;
use super::routes::Graph;
use super::ProtocolConfig;
use crate::schema::Problems;
use crate::traffic::TrafficConfig;
use std::collections::BTreeMap;

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
    /// (flow index, position in `peers` of the connection carrying it) for the flows
    /// this node sends or receives, by flow index: linear in flows overall, not
    /// nodes × flows.
    pub flow_conn: Vec<(u32, usize)>,
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
    /// The MTU of each port's medium, octets (an `ip_router` fragments to it).
    pub mtu_octets: Vec<Option<u32>>,
    /// The link layer each port runs under IP (`scenario::interfaces`); `None`: none.
    pub links: Vec<Option<ProtocolConfig>>,
    /// A switch of an X.25 network (`scenario::x25_net`): its routes also address the
    /// gateways' DTEs (the node count plus the relay's index).
    pub x25_switch: bool,
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
            mtu_octets: None,
            reciprocal: link.reciprocal,
            outages: vec![],
        };
        let node = |name: &str, lane: u32, peer| NodeSpec {
            name: name.into(),
            stack: vec![protocol.clone()],
            lane,
            peer,
            first: lane == 0,
            index: lane,
            peers: vec![(peer, 0)],
            flow_conn: vec![(0, 0), (1, 0)],
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

    /// The MTU of the medium a lane belongs to, octets (`None`: no limit).
    pub fn lane_mtu(&self, lane: u32) -> Option<u32> {
        match self.ring_of_lane(lane) {
            Some((g, _)) => self.rings[g as usize].config.mtu_octets,
            None => self.media[lane as usize / 2].config.mtu_octets,
        }
    }

    /// The end a lane delivers to.
    pub fn lane_target(&self, lane: u32) -> End {
        let m = &self.media[lane as usize / 2];
        m.ends[1 - lane as usize % 2]
    }
}

impl NetworkConfig {
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
            super::compose::check_stack(s, st, p);
        }
        check_hf_modems(self, p);
        if p.0.len() > before {
            return None;
        }
        let node_att: Vec<u32> = attached.iter().map(|a| match rings.iter().find(|g| a[0] >= g.first_lane && a[0] < g.first_lane + g.stations.len() as u32) {
            Some(g) => g.attachment,
            None => a[0] / 2,
        }).collect();
        let graph = Graph { media: &media, rings: &rings, relay_media: &relay_media, node_att: &node_att };
        let mut routing = graph.routing();
        let relay_names: Vec<&str> = self.relay.iter().map(|r| r.name.as_str()).collect();
        super::overrides::apply(&self.route, &names, &relay_names, &graph, &mut routing, p);
        let mut links = super::interfaces::check_interfaces(self, &graph, p);
        let x25_net = super::x25_net::switches(self, &graph, &links);
        super::interfaces::check_relays(self, &graph, &links, &x25_net, p);
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
            if !routing.reachable(ends[0], ends[1]) {
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
        // A saturated (or bulk: saturated until it runs dry) source keeps its node's queue
        // topped up: the runner tops up one per node, so a second would never send.
        let top_up = |k: &str| k == "saturated" || k == "bulk";
        for (f, c) in self.flow.iter().enumerate() {
            if top_up(&c.traffic.kind) && self.flow[..f].iter().any(|o| o.from == c.from && top_up(&o.traffic.kind)) {
                p.push(format!("flow[{f}].traffic.kind"), Some(&c.traffic.kind.as_str().into()), format!("expected at most one saturated or bulk flow from node {} (use poisson traffic for the others)", c.from));
            }
        }
        super::interfaces::check_next_hops(self, &graph, &routing.receiver, &links, &peers, p);
        super::interfaces::check_x25_hosts(self, &graph, &x25_net, p);
        let pairs: Vec<(u32, u32)> = flows.iter().map(|f| (f.src, f.dst)).collect();
        let depth = super::interfaces::mixed_depth(self, p);
        super::compose::check_peers(&self.node, &self.stack, &pairs, depth.is_some(), p);
        if self.relay.iter().all(|r| r.interfaces.is_empty()) {
            super::compose::check_routers(&self.node, &self.stack, &self.relay, p);
        }
        for (i, x) in peers.iter().enumerate() {
            if x.is_empty() && p.0.len() == before {
                p.push(format!("node[{i}]"), Some(&self.node[i].name.as_str().into()), "takes part in no [[flow]]");
            }
        }
        if p.0.len() > before {
            return None;
        }
        let mut node_flows: Vec<Vec<u32>> = vec![Vec::new(); self.node.len()];
        for (k, f) in flows.iter().enumerate() {
            node_flows[f.src as usize].push(k as u32);
            if f.dst != f.src {
                node_flows[f.dst as usize].push(k as u32);
            }
        }
        let nodes = self
            .node
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let peer = peers[i].first().map_or(0, |x| x.0);
                let flow_conn = node_flows[i]
                    .iter()
                    .filter_map(|&k| {
                        let f: &FlowSpec = &flows[k as usize];
                        let other = if f.src as usize == i { f.dst } else { f.src };
                        peers[i].iter().position(|&(x, _)| x == other).map(|c| (k, c))
                    })
                    .collect();
                NodeSpec {
                    name: n.name.clone(),
                    stack: super::interfaces::padded(&self.stack[&n.stack].layers, depth.unwrap_or(0)),
                    lane: attached[i][0],
                    peer,
                    first: (i as u32) < peer,
                    index: i as u32,
                    peers: peers[i].clone(),
                    flow_conn,
                }
            })
            .collect();
        // An X.25 network's switches also route packets to the DTEs' addresses.
        super::x25_net::dte_routes(self, &graph, &links, &x25_net, &mut routing.routes);
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
                let routes = std::mem::take(&mut routing.routes[r]);
                let port_scopes = ms.iter().map(|&m| format!("node.{}.{}", c.name, match graph.ring(m) { Some(g) => &g.config.name, None => &media[m as usize].config.name })).collect();
                let mtu_octets = ms.iter().map(|&m| match graph.ring(m) { Some(g) => g.config.mtu_octets, None => media[m as usize].config.mtu_octets }).collect();
                RelaySpec { config: c.clone(), media: ms.clone(), lanes, routes, port_scopes, mtu_octets, links: std::mem::take(&mut links[r]), x25_switch: x25_net[r] }
            })
            .collect();
        // Each destination is copied by its own station, or by the bridge behind which it lies.
        let rings = rings.iter().zip(routing.receiver).map(|(g, receiver)| RingSpec { receiver, ..g.clone() }).collect();
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
                let none = TrafficConfig { kind: "none".into(), load: None, messages: None, initial_backlog: 0, start_s: 0.0, length: crate::traffic::LengthConfig::Constant { mean_bits: 1000.0 }, dialogue: None };
                flows.push(FlowSpec { scope: format!("flow.{to}->{from}"), src: dst, dst: src, traffic: none, stream: format!("flow.{to}->{from}") });
            }
        }
    }
}

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

#[cfg(test)]
#[path = "topology_tests.rs"]
pub(super) mod tests;
