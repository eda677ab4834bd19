//! The composed path: every node's stack built from its registered layers
//! (`protocol::any::AnyLayer`), nested in `Stacked`'s order (`protocol::composed`):
//! stacks of one to three layers on one monomorphised runner per depth, deeper ones as a
//! chain of any length (`protocol::deep`, whose payload type is the same at every
//! depth). A node with several peers runs one stack per connection behind a
//! multiplexer, unless a layer of its stack addresses peers itself (an X.25 host's
//! circuits). Nodes may run different stacks, of different depths on the chain.

use super::runner::{self, RunOutput, SimError, Windows};
use super::wiring;
use crate::protocol::any::{AnyLayer, AnyPdu, Carry, Ctx};
use crate::protocol::composed::Composed;
use crate::protocol::deep::{Deep, Nested};
use crate::protocol::mux::{Connection, Mux};
use crate::protocol::registry::ProtocolConfig;
use crate::protocol::{Layer, Pdu, Sdu, Station};
use crate::scenario::compose::addresses_peers;
use crate::scenario::interfaces::pass_through;
use super::link_router::{Interfaces, LinkRouter, PortPeers};
use crate::scenario::topology::{NodeSpec, RelaySpec};
use crate::scenario::Scenario;
use crate::trace::Tracer;

type L1 = AnyPdu<Sdu>;
type L2 = AnyPdu<L1>;
type Depth2 = Composed<AnyLayer<Sdu>, AnyLayer<L1>>;
type Depth3 = Composed<AnyLayer<Sdu>, Composed<AnyLayer<L1>, AnyLayer<L2>>>;

fn one<P: Carry>(l: &ProtocolConfig, c: &Ctx) -> AnyLayer<P> {
    AnyLayer::new(l, c)
}

/// Builds a stack of `D` layers (`layers.len()` = D, validated), or of any depth ([`Deep`]).
trait Build: Layer<Sdu = Sdu> + Sized {
    fn build(layers: &[ProtocolConfig], c: &Ctx) -> Self;
    /// An IP router's interfaces with link stacks, carrying what the hosts' `ip` layer
    /// sends: hosts of two or three layers (`ip` over a link, under at most one more),
    /// or of any depth on a chain (`scenario::interfaces`).
    fn router(_: &RelaySpec, _: &[PortPeers]) -> Option<Box<dyn Interfaces<Self::Pdu>>> {
        None
    }
}

impl Build for AnyLayer<Sdu> {
    fn build(l: &[ProtocolConfig], c: &Ctx) -> Self {
        one(&l[0], c)
    }
}

impl Build for Depth2 {
    fn build(l: &[ProtocolConfig], c: &Ctx) -> Self {
        Composed::new(one(&l[0], c), one(&l[1], c), l[0].declared().transport).with_interface_queue(l[1].interface_queue())
    }
    fn router(spec: &RelaySpec, ports: &[PortPeers]) -> Option<Box<dyn Interfaces<Self::Pdu>>> {
        link_router::<L1>(spec, ports)
    }
}

impl Build for Depth3 {
    fn build(l: &[ProtocolConfig], c: &Ctx) -> Self {
        let lower = Composed::new(one(&l[1], c), one(&l[2], c), l[1].declared().transport).with_interface_queue(l[2].interface_queue());
        Composed::new(one(&l[0], c), lower, l[0].declared().transport).with_interface_queue(l[1].interface_queue())
    }
    fn router(spec: &RelaySpec, ports: &[PortPeers]) -> Option<Box<dyn Interfaces<Self::Pdu>>> {
        link_router::<L2>(spec, ports)
    }
}

/// Any depth (the only runner for more than three layers).
impl Build for Deep {
    fn build(l: &[ProtocolConfig], c: &Ctx) -> Self {
        Deep::new(l, c)
    }
    fn router(spec: &RelaySpec, ports: &[PortPeers]) -> Option<Box<dyn Interfaces<Self::Pdu>>> {
        link_router::<Nested>(spec, ports)
    }
}

/// A router whose ports carry datagrams `D` of the hosts' `ip` layer in link frames.
fn link_router<D: Carry + Pdu + 'static>(spec: &RelaySpec, ports: &[PortPeers]) -> Option<Box<dyn Interfaces<AnyPdu<D>>>> {
    if spec.config.kind != "ip_router" {
        return None;
    }
    // A port without a link stack passes IP's frames through (as its hosts do).
    let links: Vec<ProtocolConfig> = spec.links.iter().map(|l| l.clone().unwrap_or_else(pass_through)).collect();
    let cap = spec.config.buffer_octets.map(|o| (o * 8.0) as u64);
    let fwd = spec.config.forwarding_time_s.unwrap_or(0.0);
    Some(Box::new(LinkRouter::<D>::new(&links, ports, spec.mtu_octets.clone(), spec.routes.clone(), fwd, cap)))
}

/// Runs `sc` on the composed path; `chain`: as a chain whatever its depth (the same
/// trajectory: `tests/golden.rs`).
pub(super) fn run(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>, chain: bool) -> Result<RunOutput, SimError> {
    let nodes = &sc.topology.nodes;
    // Stacks of different depths share the chain's one PDU type.
    let one_depth = nodes.iter().all(|n| n.stack.len() == nodes[0].stack.len());
    match nodes[0].stack.len() {
        _ if chain || !one_depth => run_depth::<Deep>(sc, seed, replication, w, t),
        1 => run_depth::<AnyLayer<Sdu>>(sc, seed, replication, w, t),
        2 => run_depth::<Depth2>(sc, seed, replication, w, t),
        3 => run_depth::<Depth3>(sc, seed, replication, w, t),
        _ => run_depth::<Deep>(sc, seed, replication, w, t),
    }
}

fn run_depth<S: Build>(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>) -> Result<RunOutput, SimError> {
    let topo = &sc.topology;
    let routes: Vec<u32> = topo.flows.iter().map(|f| f.dst).collect();
    // Each node pre-opens circuits (if its stack asks) to every site it sends to.
    let sites: Vec<Vec<u32>> = topo
        .nodes
        .iter()
        .map(|n| {
            let mut s: Vec<u32> = topo.flows.iter().filter(|f| f.src == n.index && f.traffic.is_active()).map(|f| f.dst).collect();
            s.dedup();
            s
        })
        .collect();
    let hops: Vec<Option<Vec<u32>>> = topo.nodes.iter().map(|n| wiring::x25_host_next_hops(topo, n)).collect();
    let ctx = |n: &NodeSpec, peer: u32, station: Station, active_open: bool| Ctx {
        me: n.index,
        peer,
        station,
        active_open,
        routes: &routes,
        sites: &sites[n.index as usize],
        mtu_octets: topo.lane_mtu(n.lane),
        x25_next_hops: hops[n.index as usize].as_deref(),
        seed,
        replication,
    };
    let mux = topo.nodes.iter().any(|n| n.peers.len() > 1 && !addresses_peers(&n.stack));
    if !mux {
        let sim = wiring::wire(sc, seed, replication, t, |n, s| S::build(&n.stack, &ctx(n, n.peer, s, super::opens_actively(sc, n.index))), &S::router)?;
        return runner::run_wired(sc, sim, w);
    }
    runner::run(sc, seed, replication, w, t, |n, _| {
        let conns = n
            .peers
            .iter()
            .map(|&(peer, id)| {
                let station = if n.index < peer { Station::A } else { Station::B };
                Connection { id, peer, layer: S::build(&n.stack, &ctx(n, peer, station, opens_to(sc, n.index, peer))) }
            })
            .collect();
        Mux::new(conns, n.flow_conn.clone())
    })
}

/// TCP on one connection of several: `node` opens actively if it is the source of the
/// first flow with traffic between it and `peer`.
fn opens_to(sc: &Scenario, node: u32, peer: u32) -> bool {
    sc.topology.flows.iter().find(|f| f.traffic.is_active() && ((f.src, f.dst) == (node, peer) || (f.src, f.dst) == (peer, node))).is_some_and(|f| f.src == node)
}
