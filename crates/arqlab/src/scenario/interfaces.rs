//! Link stacks at an IP router's interfaces: `[[relay]] kind = "ip_router"` with
//! `interfaces = [{ medium = "wan", stack = "lapb" }]` runs the one-layer stack `lapb`
//! under IP on its port on `wan`; the station at the other end of `wan` runs the same
//! link protocol (a host as the lowest layer under `ip`, a router as its interface on
//! that medium), so the link protocol is terminated hop by hop and IP forwards between
//! interfaces. Checked here, every problem with its path; the result is each relay's
//! link layer per port.

use super::elements::{End, NodeConfig};
use super::routes::Graph;
use super::network::NetworkConfig;
use crate::protocol::registry::ProtocolConfig;
use crate::schema::Problems;

/// Each relay's link layer per port (`None`: IP directly on that medium).
pub type PortLinks = Vec<Vec<Option<ProtocolConfig>>>;

/// The name of attachment `a` (a two-ended medium or a ring) and its far stations from `me`.
pub(super) fn attachment<'a>(g: &Graph<'a>, a: u32, me: End) -> (&'a str, Vec<End>) {
    match (a as usize).checked_sub(g.media.len()).map(|i| &g.rings[i]) {
        Some(r) => (&r.config.name, r.stations.iter().copied().filter(|&e| e != me).collect()),
        None => {
            let m = &g.media[a as usize];
            (&m.config.name, m.ends.iter().copied().filter(|&e| e != me).collect())
        }
    }
}

/// Checks every router's `interfaces`; returns the links.
pub(super) fn check_interfaces(net: &NetworkConfig, g: &Graph, p: &mut Problems) -> PortLinks {
    let mut links: PortLinks = g.relay_media.iter().map(|ms| vec![None; ms.len()]).collect();
    for (r, c) in net.relay.iter().enumerate() {
        for (j, i) in c.interfaces.iter().enumerate() {
            let path = format!("relay[{r}].interfaces[{j}]");
            let me = End::Relay(r as u32);
            let Some(k) = g.relay_media[r].iter().position(|&a| attachment(g, a, me).0 == i.medium) else {
                let ports: Vec<&str> = g.relay_media[r].iter().map(|&a| attachment(g, a, me).0).collect();
                p.push(format!("{path}.medium"), Some(&i.medium.as_str().into()), format!("expected a medium attached to relay {} (its ports: {})", c.name, ports.join(", ")));
                continue;
            };
            let Some(layer) = link_layer(net, &path, &i.stack, p) else { continue };
            if links[r][k].is_some() {
                p.push(format!("{path}.medium"), Some(&i.medium.as_str().into()), "expected each medium once among the interfaces");
                continue;
            }
            let far = attachment(g, g.relay_media[r][k], me).1;
            if far.len() != 1 && matches!(layer, ProtocolConfig::X25(_)) {
                p.push(format!("{path}.medium"), Some(&i.medium.as_str().into()), format!("expected one other station on an x25 interface's medium (found {} stations): an X.25 network joining three or more gateways is a relay (kind = \"transit_network\") with a line to each", far.len()));
                continue;
            }
            if matches!(layer, ProtocolConfig::X25(_)) && matches!(far[0], End::Node(_)) {
                p.push(format!("{path}.medium"), Some(&i.medium.as_str().into()), "expected another router's x25 interface at the far end: x25 at a router interface (RFC 877) runs between gateways across an X.25 network; a host running ip over x25 joins them through an X.25 network relay (kind = \"transit_network\")");
                continue;
            }
            links[r][k] = Some(layer);
        }
    }
    links
}

/// Checks the relays beside routers with interfaces and the stations facing them:
/// every relay an IP router but an X.25 network's switches (`x25_net`), each link's
/// two ends running one protocol.
pub(super) fn check_relays(net: &NetworkConfig, g: &Graph, links: &PortLinks, x25_net: &[bool], p: &mut Problems) {
    if links.iter().all(|ls| ls.iter().all(Option::is_none)) {
        return;
    }
    for (r, c) in net.relay.iter().enumerate() {
        let me = End::Relay(r as u32);
        if x25_net[r] {
            continue;
        }
        for (k, &a) in g.relay_media[r].iter().enumerate() {
            let (medium, far) = attachment(g, a, me);
            if c.kind != "ip_router" {
                p.push(format!("relay[{r}].kind"), Some(&c.kind.as_str().into()), "expected \"ip_router\": where routers run link stacks, every relay is an IP router (a layer-2 relay beside them is not built: it would forward frames of a link protocol the routers terminate hop by hop)".to_string());
                break;
            }
            let Some(layer) = &links[r][k] else {
                // IP straight on this medium: hosts with `ip` lowest, routers without an interface here.
                for e in far {
                    match e {
                        End::Node(n) => check_bare_host(&net.node[n as usize], n, net, medium, &c.name, p),
                        End::Relay(o) => {
                            let theirs = g.relay_media[o as usize].iter().position(|&x| x == a).and_then(|k| links[o as usize][k].as_ref());
                            if let (Some(l), true) = (theirs, net.relay[o as usize].kind == "ip_router") {
                                p.push(format!("relay[{r}].interfaces"), None, format!("expected an interface on medium {medium} running {} as relay {}'s: the two ends of a link run one protocol", l.kind(), net.relay[o as usize].name));
                            }
                        }
                    }
                }
                continue;
            };
            for e in far {
                match e {
                    End::Node(n) => check_host(&net.node[n as usize], n, net, layer, medium, &c.name, p),
                    End::Relay(o) if x25_net[o as usize] => {}
                    End::Relay(o) => {
                        let theirs = g.relay_media[o as usize].iter().position(|&x| x == a).and_then(|k| links[o as usize][k].as_ref());
                        if theirs != Some(layer) && (theirs.is_none() || r < o as usize) {
                            let other = &net.relay[o as usize].name;
                            p.push(format!("relay[{r}].interfaces"), None, format!("expected relay {other}'s port on medium {medium} to run the same link stack ({}): the two ends of a link run one protocol", layer.kind()));
                        }
                    }
                }
            }
        }
    }
}

/// A stack whose lowest layers are `ip` directly over `x25`.
pub fn ip_over_x25(layers: &[ProtocolConfig]) -> bool {
    matches!(layers, [.., ProtocolConfig::Ip(_), ProtocolConfig::X25(_)])
}

/// A host on an X.25 network (`scenario::x25_net`) is its own RFC 877 interface: its
/// `x25` carries IP's datagrams with their header (`ip_header_bits = 0`). It calls, per
/// destination, the DTE where that destination's route leaves the network.
pub(super) fn check_x25_hosts(net: &NetworkConfig, g: &Graph, switch: &[bool], p: &mut Problems) {
    for (r, _) in switch.iter().enumerate().filter(|x| *x.1) {
        for &a in &g.relay_media[r] {
            let [End::Node(n)] = attachment(g, a, End::Relay(r as u32)).1[..] else { continue };
            let node = &net.node[n as usize];
            if let Some(ProtocolConfig::X25(x)) = net.stack.get(&node.stack).and_then(|s| s.layers.last()) {
                if x.ip_header_bits != 0 {
                    p.push(format!("node[{n}].stack"), Some(&node.stack.as_str().into()), format!("expected ip_header_bits = 0 in its x25 layer (got {}): under ip on an X.25 network x25 carries IP's datagrams, their header included", x.ip_header_bits));
                }
            }
        }
    }
}

/// A host on a token ring where a router's interface runs a link stack runs one link
/// connection, to its next hop: every node it exchanges flows with (`peers`) must be
/// reached through one station of the ring (the node itself if it is on the ring, else
/// the router that copies its frames). The router's port runs one connection per
/// station (`sim::link_router`).
pub(super) fn check_next_hops(net: &NetworkConfig, g: &Graph, receiver: &[Vec<u32>], links: &PortLinks, peers: &[Vec<(u32, u32)>], p: &mut Problems) {
    for (i, ring) in g.rings.iter().enumerate() {
        let a = (g.media.len() + i) as u32;
        let linked = ring.stations.iter().any(|&e| match e {
            End::Relay(r) => g.relay_media[r as usize].iter().position(|&x| x == a).is_some_and(|k| links[r as usize][k].is_some()),
            End::Node(_) => false,
        });
        if !linked || ring.stations.len() < 3 {
            continue;
        }
        let name = |k: u32| match ring.stations[k as usize] {
            End::Node(n) => net.node[n as usize].name.as_str(),
            End::Relay(r) => net.relay[r as usize].name.as_str(),
        };
        for &e in &ring.stations {
            let End::Node(n) = e else { continue };
            let hop = |d: u32| ring.stations.iter().position(|&x| x == End::Node(d)).map_or(receiver[i][d as usize], |k| k as u32);
            let mut hops: Vec<(u32, u32)> = vec![];
            for &(d, _) in &peers[n as usize] {
                if !hops.iter().any(|h| h.0 == hop(d)) {
                    hops.push((hop(d), d));
                }
            }
            if let [(h0, d0), (h1, d1), ..] = hops[..] {
                let node = &net.node[n as usize];
                let why = format!(
                    "expected every flow of node {} to reach one station of ring {} (its link stack runs one connection, to its next hop): {} goes through {}, {} through {}",
                    node.name, ring.config.name, net.node[d0 as usize].name, name(h0), net.node[d1 as usize].name, name(h1)
                );
                p.push(format!("node[{n}]"), Some(&node.name.as_str().into()), why);
            }
        }
    }
}

/// The one link layer of `[stack.<name>]`, if it can run under IP on a medium.
fn link_layer(net: &NetworkConfig, path: &str, name: &str, p: &mut Problems) -> Option<ProtocolConfig> {
    let Some(st) = net.stack.get(name) else {
        let known = net.stack.keys().cloned().collect::<Vec<_>>().join(", ");
        p.push(format!("{path}.stack"), Some(&name.into()), format!("expected the name of a [stack.<name>] table (known: {known})"));
        return None;
    };
    let why = match st.layers.as_slice() {
        [l] => {
            let d = l.declared();
            if let ProtocolConfig::X25(x) = l {
                // At a router the datagram is IP's own, its header counted in its bits.
                (x.ip_header_bits != 0).then(|| format!("x25 at a router interface carries whole IP datagrams, their header included: expected ip_header_bits = 0 (got {})", x.ip_header_bits))
            } else if d.top_only {
                Some(format!("{} cannot run under IP at an interface (a link protocol can: go_back_n, hdlc, llc2, hf_arq, ...)", l.kind()))
            } else if d.addresses_peers && !matches!(l, ProtocolConfig::X25(_)) {
                Some(format!("{} addresses several peers itself: only x25 (RFC 877) runs under IP at a router interface", l.kind()))
            } else {
                d.misfit_on_medium().map(|w| format!("{} {w}", l.kind()))
            }
        }
        ls => Some(format!("expected a one-layer stack, a link protocol under IP (got {} layers)", ls.len())),
    };
    match why {
        Some(w) => {
            p.push(format!("{path}.stack"), Some(&name.into()), w);
            None
        }
        None => Some(st.layers[0].clone()),
    }
}

/// A host on a router's port without a link stack runs `ip` as its lowest layer.
fn check_bare_host(node: &NodeConfig, n: u32, net: &NetworkConfig, medium: &str, router: &str, p: &mut Problems) {
    let Some(st) = net.stack.get(&node.stack) else { return };
    if !matches!(st.layers.last(), Some(ProtocolConfig::Ip(_))) {
        let kinds: Vec<&str> = st.layers.iter().map(ProtocolConfig::kind).collect();
        p.push(format!("node[{n}].stack"), Some(&node.stack.as_str().into()), format!("expected `ip` as its lowest layer, found {kinds:?}: relay {router}'s port on medium {medium} runs IP straight on the medium (no interface)"));
    }
}

/// Where routers run link stacks, stacks may differ in depth by that link: every node's
/// `ip` sits at one place from the top, at any depth (the routers forward one PDU
/// shape: `sim::composed` builds their links for it) and a node
/// without a link below `ip` runs it over a pass-through (a datagram layer adding no
/// bits: the same frames on the medium). Returns the run's depth, or `None` if mixed
/// depths are not in play.
pub(super) fn mixed_depth(net: &NetworkConfig, p: &mut Problems) -> Option<usize> {
    if net.relay.iter().all(|r| r.interfaces.is_empty()) {
        return None;
    }
    let at = |layers: &[ProtocolConfig]| layers.iter().position(|l| matches!(l, ProtocolConfig::Ip(_)));
    let first = net.node.iter().find_map(|n| net.stack.get(&n.stack).and_then(|s| at(&s.layers)).map(|i| (i, &n.name)))?;
    for (i, n) in net.node.iter().enumerate() {
        let Some(st) = net.stack.get(&n.stack) else { continue };
        if at(&st.layers) != Some(first.0) || st.layers.len() > first.0 + 2 {
            p.push(
                format!("node[{i}].stack"),
                Some(&n.stack.as_str().into()),
                format!("expected `ip` as layers[{}] (as node {}'s) with at most one link layer below: routers forward one datagram shape", first.0, first.1),
            );
        }
    }
    Some(first.0 + 2)
}

/// A stack padded to `depth` with the pass-through (see [`mixed_depth`]).
pub fn padded(layers: &[ProtocolConfig], depth: usize) -> Vec<ProtocolConfig> {
    let mut v = layers.to_vec();
    while v.len() < depth {
        v.push(pass_through());
    }
    v
}

/// A datagram layer that adds no bits: IP's frames on a medium without a link protocol.
pub fn pass_through() -> ProtocolConfig {
    ProtocolConfig::Datagram(crate::protocol::datagram::DatagramConfig { overhead_bits: 0 })
}

/// A host facing a router's interface runs `ip` over the same link protocol.
fn check_host(node: &NodeConfig, n: u32, net: &NetworkConfig, layer: &ProtocolConfig, medium: &str, router: &str, p: &mut Problems) {
    let Some(st) = net.stack.get(&node.stack) else { return };
    let ok = match st.layers.as_slice() {
        [.., ProtocolConfig::Ip(_), lowest] => lowest == layer,
        _ => false,
    };
    if !ok {
        let kinds: Vec<&str> = st.layers.iter().map(ProtocolConfig::kind).collect();
        p.push(
            format!("node[{n}].stack"),
            Some(&node.stack.as_str().into()),
            format!("expected ip over {} (with the same parameters) as its lowest layers, found {kinds:?}: relay {router}'s interface on medium {medium} runs it", layer.kind()),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    /// a — l1 — r — l2 — b, r an IP router whose interfaces run `[stack.gbn]`.
    const ROUTED: &str = "[stack.host]\nlayers = [{ kind = \"ip\" }, { kind = \"go_back_n\", window = 7 }]\n\
        [stack.gbn]\nkind = \"go_back_n\"\nwindow = 7\n\
        [[medium]]\nname = \"l1\"\nends = [\"a\", \"r\"]\n[[medium]]\nname = \"l2\"\nends = [\"r\", \"b\"]\n\
        [[relay]]\nname = \"r\"\nkind = \"ip_router\"\ninterfaces = [{ medium = \"l1\", stack = \"gbn\" }, { medium = \"l2\", stack = \"gbn\" }]\n\
        [[node]]\nname = \"a\"\nstack = \"host\"\n[[node]]\nname = \"b\"\nstack = \"host\"\n\
        [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"poisson\", load = 0.3 }\n";

    fn problems(text: &str) -> Vec<String> {
        Scenario::from_toml(text).err().map_or(vec![], |e| e.problems())
    }

    #[test]
    fn hosts_running_ip_over_the_routers_link_protocol_are_accepted() {
        assert_eq!(problems(ROUTED), Vec::<String>::new());
        let sc = Scenario::from_toml(ROUTED).unwrap();
        let links = &sc.topology.relays[0].links;
        assert!(links.iter().all(|l| l.as_ref().is_some_and(|l| l.kind() == "go_back_n")), "{links:?}");
    }

    #[test]
    fn an_interface_names_an_attached_medium_and_a_one_layer_link_stack() {
        let bad = ROUTED.replace("{ medium = \"l2\", stack = \"gbn\" }", "{ medium = \"l9\", stack = \"host\" }");
        let p = problems(&bad);
        assert!(p.contains(&"relay[0].interfaces[1].medium = \"l9\": expected a medium attached to relay r (its ports: l1, l2)".to_string()), "{p:?}");
        let two = ROUTED.replace("{ medium = \"l2\", stack = \"gbn\" }", "{ medium = \"l2\", stack = \"host\" }");
        assert!(problems(&two).contains(&"relay[0].interfaces[1].stack = \"host\": expected a one-layer stack, a link protocol under IP (got 2 layers)".to_string()), "{:?}", problems(&two));
        let x25 = format!("[stack.t]\nkind = \"x25\"\nip_header_bits = 0\n{}", ROUTED.replace("{ medium = \"l2\", stack = \"gbn\" }", "{ medium = \"l2\", stack = \"t\" }"));
        let want = "relay[0].interfaces[1].medium = \"l2\": expected another router's x25 interface at the far end";
        assert!(problems(&x25).iter().any(|x| x.starts_with(want)), "{:?}", problems(&x25));
        let hdr = x25.replace("ip_header_bits = 0", "ip_header_bits = 160");
        let want = "relay[0].interfaces[1].stack = \"t\": x25 at a router interface carries whole IP datagrams, their header included: expected ip_header_bits = 0 (got 160)";
        assert!(problems(&hdr).contains(&want.to_string()), "{:?}", problems(&hdr));
        let llc = format!("[stack.t]\nkind = \"ip\"\n{}", ROUTED.replace("{ medium = \"l2\", stack = \"gbn\" }", "{ medium = \"l2\", stack = \"t\" }"));
        assert!(problems(&llc).iter().any(|x| x.starts_with("relay[0].interfaces[1].stack = \"t\": ip ")), "{:?}", problems(&llc));
    }

    #[test]
    fn a_host_facing_an_interface_runs_ip_over_the_same_link_protocol_with_the_same_parameters() {
        let other = ROUTED.replace("[[node]]\nname = \"b\"\nstack = \"host\"", "[[node]]\nname = \"b\"\nstack = \"hb\"")
            + "[stack.hb]\nlayers = [{ kind = \"ip\" }, { kind = \"go_back_n\", window = 3 }]\n";
        let p = problems(&other);
        assert!(
            p.contains(&"node[1].stack = \"hb\": expected ip over go_back_n (with the same parameters) as its lowest layers, found [\"ip\", \"go_back_n\"]: relay r's interface on medium l2 runs it".to_string()),
            "{p:?}"
        );
    }

    #[test]
    fn mixed_depth_a_host_on_a_port_without_a_link_stack_runs_ip_lowest_and_is_padded() {
        // b on l2 without an interface: tcp/ip beside a's tcp/ip/go_back_n.
        let text = ROUTED.replace(", { medium = \"l2\", stack = \"gbn\" }", "")
            .replace("[[node]]\nname = \"b\"\nstack = \"host\"", "[[node]]\nname = \"b\"\nstack = \"bare\"")
            + "[stack.bare]\nkind = \"ip\"\n";
        assert_eq!(problems(&text), Vec::<String>::new());
        let sc = Scenario::from_toml(&text).unwrap();
        let b: Vec<&str> = sc.topology.nodes[1].stack.iter().map(|l| l.kind()).collect();
        assert_eq!(b, ["ip", "datagram"], "padded with the pass-through");
        let wrong = text.replace("[stack.bare]\nkind = \"ip\"", "[stack.bare]\nkind = \"go_back_n\"");
        let p = problems(&wrong);
        assert!(p.iter().any(|x| x.starts_with("node[1].stack = \"bare\": expected `ip` as its lowest layer, found [\"go_back_n\"]: relay r's port on medium l2 runs IP straight")), "{p:?}");
    }

    /// No depth cap: `ip` may sit at any layer above the link the routers run, as long
    /// as it sits at the same one in every node (the hosts run a chain, `protocol::deep`).
    #[test]
    fn mixed_depth_ip_may_sit_at_any_layer_where_routers_run_link_stacks() {
        for k in 1..=4 {
            let upper = "{ kind = \"go_back_n\" }, ".repeat(k);
            let text = ROUTED.replace("[stack.host]\nlayers = [", &format!("[stack.host]\nlayers = [{upper}"));
            assert_eq!(problems(&text), Vec::<String>::new(), "ip at layers[{k}]");
            assert_eq!(Scenario::from_toml(&text).unwrap().topology.nodes[0].stack.len(), k + 2);
        }
    }

    #[test]
    fn mixed_depth_every_node_has_ip_at_one_place_from_the_top() {
        let text = ROUTED.replace(", { medium = \"l2\", stack = \"gbn\" }", "")
            .replace("[[node]]\nname = \"b\"\nstack = \"host\"", "[[node]]\nname = \"b\"\nstack = \"deep\"")
            + "[stack.deep]\nlayers = [{ kind = \"tcp\" }, { kind = \"ip\" }]\n";
        let p = problems(&text);
        assert!(p.iter().any(|x| x.starts_with("node[1].stack = \"deep\": expected `ip` as layers[0] (as node a's)")), "{p:?}");
    }

    /// a and c on a token ring with r, b behind r.
    fn ring_of_three() -> String {
        ROUTED.replace("[[medium]]\nname = \"l1\"\nends = [\"a\", \"r\"]", "[[medium]]\nname = \"l1\"\nkind = \"token_ring\"\nends = [\"a\", \"r\", \"c\"]")
            + "[[node]]\nname = \"c\"\nstack = \"host\"\n[[flow]]\nfrom = \"c\"\nto = \"b\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n"
    }

    #[test]
    fn an_interface_on_a_ring_of_several_stations_is_accepted_with_one_link_per_station() {
        assert_eq!(problems(&ring_of_three()), Vec::<String>::new());
    }

    /// A host's link stack runs one connection: all its flows leave the ring through one
    /// station (its next hop).
    #[test]
    fn a_host_on_such_a_ring_whose_flows_need_two_next_hops_is_refused_naming_both() {
        let two = ring_of_three() + "[[flow]]\nfrom = \"c\"\nto = \"a\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n";
        let p = problems(&two);
        let want = "node[2] = \"c\": expected every flow of node c to reach one station of ring l1 (its link stack runs one connection, to its next hop): b goes through r, a through a";
        assert!(p.contains(&want.to_string()), "{p:?}");
    }

    /// The combinations that stay refused say why: x25 on a shared medium (an X.25
    /// network of several gateways is a relay), and a layer-2 relay beside link-stack
    /// routers that is not such a network.
    #[test]
    fn x25_on_a_ring_and_a_layer_2_relay_beside_routers_are_refused_with_the_reason() {
        let x25 = format!("[stack.t]\nkind = \"x25\"\nip_header_bits = 0\n{}", ring_of_three().replace("{ medium = \"l1\", stack = \"gbn\" }", "{ medium = \"l1\", stack = \"t\" }"));
        let p = problems(&x25);
        let want = "relay[0].interfaces[0].medium = \"l1\": expected one other station on an x25 interface's medium (found 2 stations): an X.25 network joining three or more gateways is a relay (kind = \"transit_network\") with a line to each";
        assert!(p.contains(&want.to_string()), "{p:?}");
        let bridge = ROUTED.replace("ends = [\"r\", \"b\"]", "ends = [\"r\", \"s\"]")
            + "[[medium]]\nname = \"l3\"\nends = [\"s\", \"b\"]\n[[relay]]\nname = \"s\"\n";
        let p = problems(&bridge);
        assert!(p.iter().any(|x| x.starts_with("relay[1].kind = \"store_and_forward\": expected \"ip_router\": where routers run link stacks, every relay is an IP router (a layer-2 relay beside them is not built")), "{p:?}");
    }

    /// a — g1, b — g2, c — g3, the gateways' x25 interfaces on lines to the relay `net`.
    fn x25_network() -> String {
        let mut t = String::from("[stack.host]\nlayers = [{ kind = \"tcp\" }, { kind = \"ip\" }]\n[stack.t]\nkind = \"x25\"\nip_header_bits = 0\n\
            [[relay]]\nname = \"net\"\nkind = \"transit_network\"\n");
        for (h, g) in [("a", "g1"), ("b", "g2"), ("c", "g3")] {
            t += &format!("[[medium]]\nname = \"l{h}\"\nends = [\"{h}\", \"{g}\"]\n[[medium]]\nname = \"d{g}\"\nends = [\"{g}\", \"net\"]\n\
                [[relay]]\nname = \"{g}\"\nkind = \"ip_router\"\ninterfaces = [{{ medium = \"d{g}\", stack = \"t\" }}]\n[[node]]\nname = \"{h}\"\nstack = \"host\"\n");
        }
        t + "[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n[[flow]]\nfrom = \"a\"\nto = \"c\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n"
    }

    /// A relay whose every port is a line to a gateway's x25 interface is the X.25
    /// network: accepted, and it routes packets to each gateway's DTE address (the node
    /// count plus the relay's index) on the line to it.
    #[test]
    fn a_relay_joining_three_gateways_x25_interfaces_is_an_x25_network() {
        let text = x25_network();
        assert_eq!(problems(&text), Vec::<String>::new());
        let sc = Scenario::from_toml(&text).unwrap();
        let net = &sc.topology.relays[0];
        // Nodes a, b, c (0-2); relays net, g1, g2, g3 (addresses 3-6); net's ports in file order: dg1, dg2, dg3.
        assert_eq!(net.routes, vec![Some(0), Some(1), Some(2), None, Some(0), Some(1), Some(2)]);
        // A host on a line to the network relay makes it a layer-2 relay beside routers: refused.
        let host = text + "[[medium]]\nname = \"ld\"\nends = [\"d\", \"net\"]\n[[node]]\nname = \"d\"\nstack = \"host\"\n\
            [[flow]]\nfrom = \"d\"\nto = \"b\"\ntraffic = { kind = \"poisson\", load = 0.1 }\n";
        let p = problems(&host);
        assert!(p.iter().any(|x| x.starts_with("relay[0].kind = \"transit_network\": expected \"ip_router\"")), "{p:?}");
    }

    #[test]
    fn two_routers_on_one_line_run_the_same_link_protocol() {
        let text = ROUTED.replace("ends = [\"r\", \"b\"]", "ends = [\"r\", \"r2\"]")
            + "[[medium]]\nname = \"l3\"\nends = [\"r2\", \"b\"]\n\
               [[relay]]\nname = \"r2\"\nkind = \"ip_router\"\ninterfaces = [{ medium = \"l2\", stack = \"sr\" }, { medium = \"l3\", stack = \"gbn\" }]\n\
               [stack.sr]\nkind = \"selective_repeat\"\n";
        let p = problems(&text);
        assert!(p.contains(&"relay[0].interfaces: expected relay r2's port on medium l2 to run the same link stack (go_back_n): the two ends of a link run one protocol".to_string()), "{p:?}");
        assert_eq!(problems(&text.replace("stack = \"sr\"", "stack = \"gbn\"")), Vec::<String>::new());
    }
}
