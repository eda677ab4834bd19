//! X.25 networks of switches (the public data network between RFC 877 gateways): which
//! relays are its switches, the routes they carry packets on, and the DTE a station
//! calls for a destination node.
//!
//! A switch is a relay that is not an IP router, each of whose ports is a *trunk* (a
//! line to another such relay) or a line to a DTE: a gateway's `x25` interface, or a
//! host running `ip` directly over `x25`. Switches joined by trunks form one network;
//! it needs at least one gateway, and every relay its trunks reach must be a switch.
//! One switch alone is the network of earlier versions, unchanged.
//!
//! Each DTE has an address (the model's X.121 address): a node's index, or the node
//! count plus a relay's index. A switch routes a packet by its called address, along
//! the fewest trunks to the DTE's switch: one breadth-first search over the trunks from
//! each DTE's switch, a switch's ports taken in the order the media name it, so ties go
//! to the port reached first (deterministic, as the IP routing tables:
//! `scenario::routes`). A station on the network calls, for a destination node, the DTE
//! where the node's shortest path leaves the network (`sim::wiring::x25_exit`).

use super::elements::End;
use super::interfaces::{attachment, ip_over_x25, PortLinks};
use super::network::NetworkConfig;
use super::routes::Graph;
use crate::protocol::registry::ProtocolConfig;
use std::collections::VecDeque;

/// What the far end of a relay's port is, seen from an X.25 network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Far {
    /// A gateway's `x25` interface (relay index).
    Gateway(u32),
    /// A host running `ip` over `x25` (node index).
    Host(u32),
    /// A line to another relay that is not an IP router (relay index).
    Trunk(u32),
    Other,
}

fn far(net: &NetworkConfig, g: &Graph, links: &PortLinks, r: usize, a: u32) -> Far {
    match attachment(g, a, End::Relay(r as u32)).1[..] {
        [End::Relay(o)] => {
            let k = g.relay_media[o as usize].iter().position(|&x| x == a);
            if k.and_then(|k| links[o as usize][k].as_ref()).is_some_and(|l| matches!(l, ProtocolConfig::X25(_))) {
                Far::Gateway(o)
            } else if net.relay[o as usize].kind != "ip_router" && g.ring(a).is_none() {
                Far::Trunk(o)
            } else {
                Far::Other
            }
        }
        [End::Node(n)] if net.stack.get(&net.node[n as usize].stack).is_some_and(|s| ip_over_x25(&s.layers)) => Far::Host(n),
        _ => Far::Other,
    }
}

/// The relays that are switches of an X.25 network: a set of relays joined by trunks,
/// none an IP router, every port of each a trunk within the set or a line to a DTE,
/// at least one DTE a gateway. Linear in relays and ports.
pub(super) fn switches(net: &NetworkConfig, g: &Graph, links: &PortLinks) -> Vec<bool> {
    let n = net.relay.len();
    let fars: Vec<Vec<Far>> = (0..n).map(|r| g.relay_media[r].iter().map(|&a| far(net, g, links, r, a)).collect()).collect();
    let candidate: Vec<bool> = (0..n).map(|r| net.relay[r].kind != "ip_router" && !fars[r].contains(&Far::Other)).collect();
    let mut out = vec![false; n];
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] || !candidate[start] {
            continue;
        }
        // One network: the candidates its trunks reach.
        let (mut members, mut queue) = (vec![], VecDeque::from([start]));
        seen[start] = true;
        let (mut whole, mut gateway) = (true, false);
        while let Some(r) = queue.pop_front() {
            members.push(r);
            for f in &fars[r] {
                match *f {
                    Far::Gateway(_) => gateway = true,
                    Far::Trunk(o) if !candidate[o as usize] => whole = false,
                    Far::Trunk(o) if !seen[o as usize] => {
                        seen[o as usize] = true;
                        queue.push_back(o as usize);
                    }
                    _ => {}
                }
            }
        }
        for r in members {
            out[r] = whole && gateway;
        }
    }
    out
}

/// Routes to every DTE address at every switch (`routes[s]` resized to nodes + relays):
/// breadth first over the trunks from each DTE's switch. One search per DTE, each
/// linear in the network's trunks.
pub(super) fn dte_routes(net: &NetworkConfig, g: &Graph, links: &PortLinks, switch: &[bool], routes: &mut [Vec<Option<usize>>]) {
    let nodes = net.node.len();
    let fars: Vec<Vec<Far>> = (0..net.relay.len()).map(|r| if switch[r] { g.relay_media[r].iter().map(|&a| far(net, g, links, r, a)).collect() } else { vec![] }).collect();
    for s in (0..net.relay.len()).filter(|&s| switch[s]) {
        routes[s].resize(nodes + net.relay.len(), None);
    }
    // A DTE on two lines (a gateway with two interfaces on one network): the first wins.
    let mut done = vec![false; nodes + net.relay.len()];
    let mut seen = vec![u32::MAX; net.relay.len()];
    let mut stamp = 0u32;
    for s in 0..net.relay.len() {
        for (k, f) in fars[s].iter().enumerate() {
            let address = match *f {
                Far::Gateway(o) => nodes + o as usize,
                Far::Host(h) => h as usize,
                _ => continue,
            };
            if std::mem::replace(&mut done[address], true) {
                continue;
            }
            routes[s][address] = Some(k);
            stamp += 1;
            seen[s] = stamp;
            let mut queue = VecDeque::from([s]);
            while let Some(q) = queue.pop_front() {
                for f in &fars[q] {
                    let Far::Trunk(o) = *f else { continue };
                    if seen[o as usize] == stamp {
                        continue;
                    }
                    seen[o as usize] = stamp;
                    // o reaches the DTE through its port on the trunk it was reached across.
                    routes[o as usize][address] = fars[o as usize].iter().position(|&x| x == Far::Trunk(q as u32));
                    queue.push_back(o as usize);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    /// Four switches in a square (s1–s2, s1–s3, s2–s4, s3–s4), gateway g1 on s1 and
    /// g4 on s4, hosts a behind g1 and b behind g4; `trunks` in file order.
    fn square(trunks: &[(&str, &str)]) -> String {
        let mut t = String::from("[stack.h]\nkind = \"ip\"\n[stack.t]\nkind = \"x25\"\nip_header_bits = 0\n");
        for (x, y) in trunks {
            t += &format!("[[medium]]\nname = \"t{x}{y}\"\nends = [\"s{x}\", \"s{y}\"]\n");
        }
        for s in 1..=4 {
            t += &format!("[[relay]]\nname = \"s{s}\"\nkind = \"transit_network\"\n");
        }
        for (h, g, s) in [("a", "g1", "s1"), ("b", "g4", "s4")] {
            t += &format!("[[medium]]\nname = \"l{h}\"\nends = [\"{h}\", \"{g}\"]\n[[medium]]\nname = \"d{g}\"\nends = [\"{g}\", \"{s}\"]\n\
                [[relay]]\nname = \"{g}\"\nkind = \"ip_router\"\ninterfaces = [{{ medium = \"d{g}\", stack = \"t\" }}]\n[[node]]\nname = \"{h}\"\nstack = \"h\"\n");
        }
        t + "[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n"
    }

    /// Shortest paths with a deterministic tie-break: from s1 two paths of two trunks
    /// reach g4's switch; the search from s4 takes s4's ports in the order the media
    /// name it, so s1 routes g4's address through the neighbour reached first — s2 when
    /// t24 comes before t34 in the file, s3 the other way round — every switch one
    /// trunk nearer each time.
    #[test]
    fn x25_switches_route_each_dte_address_on_a_shortest_path_with_ties_to_the_port_reached_first() {
        for (trunks, via) in [([("1", "2"), ("1", "3"), ("2", "4"), ("3", "4")], "t12"), ([("1", "2"), ("1", "3"), ("3", "4"), ("2", "4")], "t13")] {
            let sc = Scenario::from_toml(&square(&trunks)).unwrap_or_else(|e| panic!("{e}"));
            let topo = &sc.topology;
            let (nodes, name) = (topo.nodes.len(), |r: &str| topo.relays.iter().position(|x| x.config.name == r).unwrap());
            let g4 = nodes + name("g4");
            let s1 = &topo.relays[name("s1")];
            assert!(topo.relays[..4].iter().all(|r| r.x25_switch), "s1..s4 are switches");
            let port = s1.routes[g4].expect("s1 routes g4's address");
            assert_eq!(topo.media[s1.media[port] as usize].config.name, via, "trunks {trunks:?}");
            // s4 delivers g4's address on its line to g4, s2 and s3 towards s4.
            let s4 = &topo.relays[name("s4")];
            assert_eq!(topo.media[s4.media[s4.routes[g4].unwrap()] as usize].config.name, "dg4");
        }
    }

    /// A relay joined by a line to a layer-2 relay that is not a switch (a host port
    /// that is no DTE) leaves the whole set unswitched: refused with the path.
    #[test]
    fn x25_switches_a_trunk_to_a_relay_with_a_port_that_is_no_dte_is_refused() {
        let text = square(&[("1", "2"), ("2", "4"), ("1", "3"), ("3", "4")]) + "[[medium]]\nname = \"lc\"\nends = [\"c\", \"s3\"]\n[[node]]\nname = \"c\"\nstack = \"h\"\n\
            [[flow]]\nfrom = \"c\"\nto = \"a\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n";
        let p = Scenario::from_toml(&text).err().map(|e| e.problems()).unwrap_or_default();
        assert!(p.iter().any(|x| x.starts_with("relay[") && x.contains("expected \"ip_router\"")), "{p:?}");
    }
}
