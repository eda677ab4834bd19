//! Wiring of X.25 stacks (`x25`, or `tcp` over `x25`): every node is an X.25 host
//! whose PDUs are packets on the network side of its DCE; the scenario's media and
//! relays between hosts are the network (transit delay T_N).

use super::runner::{self, RunOutput, SimError, Windows};
use crate::protocol::tcp::Tcp;
use crate::protocol::x25::X25Host;
use crate::protocol::{Frame, Sdu, Stacked};
use crate::scenario::topology::NodeSpec;
use crate::scenario::{ProtocolConfig, Scenario};
use crate::trace::Tracer;

pub(super) fn run(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>) -> Result<RunOutput, SimError> {
    let flows = &sc.topology.flows;
    let routes: Vec<u32> = flows.iter().map(|f| f.dst).collect();
    // Each host pre-opens circuits (if asked) to every site it sends to.
    let sites = |n: &NodeSpec| {
        let mut s: Vec<u32> = flows.iter().filter(|f| f.src == n.index && f.traffic.is_active()).map(|f| f.dst).collect();
        s.dedup();
        s
    };
    let x25 = |n: &NodeSpec| match n.stack.last() {
        Some(ProtocolConfig::X25(c)) => c.clone(),
        other => unreachable!("dispatched on x25: {:?}", other.map(ProtocolConfig::kind)),
    };
    if sc.topology.nodes[0].stack.len() == 2 {
        return runner::run(sc, seed, replication, w, t, |n, _| {
            let tcp = match &n.stack[0] {
                ProtocolConfig::Tcp(c) => Tcp::open(c, super::opens_actively(sc, n.index)),
                other => unreachable!("validated: {}", other.kind()),
            };
            Stacked::new(tcp, X25Host::<Frame<Sdu>>::new(n.index, &x25(n), routes.clone(), n.peer, &sites(n)))
        });
    }
    runner::run(sc, seed, replication, w, t, |n, _| X25Host::<Sdu>::new(n.index, &x25(n), routes.clone(), n.peer, &sites(n)))
}
