//! Composing stacks from declared services (`protocol::service`): a stack is accepted
//! when every pair of neighbours fits (the lower layer offers a service the upper one
//! needs), its lowest layer can send on a medium, and a top-only layer (TCP, TP4: their
//! SDUs are the users' messages) is on top; its depth is not limited (`protocol::deep`
//! runs a chain of any length). Nodes of one run may have different stacks, of
//! different depths (they then run as chains, one PDU type on the media); the two ends
//! of a flow must run the same protocols layer by layer (peers fit). Every problem is
//! reported with its path.

use super::elements::{NodeConfig, RelayConfig, StackConfig};
use crate::protocol::registry::ProtocolConfig;
use crate::schema::Problems;
use std::collections::BTreeMap;

/// Checks one `[stack.<name>]`.
pub fn check_stack(name: &str, st: &StackConfig, p: &mut Problems) {
    let path = format!("stack.{name}");
    let kind = |i: usize| serde_json::Value::from(st.layers[i].kind());
    for (i, l) in st.layers.iter().enumerate() {
        let d = l.declared();
        if i == 0 && l.interface_queue().is_some() {
            p.push(format!("{path}.layers[0].interface_queue"), None, format!("expected only under a layer that sends into it (a transport over {}): the top layer takes the users' messages directly", l.kind()));
        }
        if i > 0 && d.top_only {
            p.push(format!("{path}.layers[{i}].kind"), Some(&kind(i)), format!("expected it as the top layer: its SDUs are the users' messages (it is under {})", st.layers[i - 1].kind()));
        }
        match st.layers.get(i + 1) {
            Some(lower) => {
                if let Some(why) = d.misfit_over(&lower.declared()) {
                    p.push(format!("{path}.layers[{i}].kind"), Some(&kind(i)), format!("{} over {} (layers[{}]): {} {why}", l.kind(), lower.kind(), i + 1, l.kind()));
                }
            }
            None => {
                if let Some(why) = d.misfit_on_medium() {
                    p.push(format!("{path}.layers[{i}].kind"), Some(&kind(i)), format!("{} as the lowest layer: it {why}", l.kind()));
                }
            }
        }
    }
}

/// The layer kinds of a stack, top first.
fn kinds(st: &StackConfig) -> Vec<&'static str> {
    st.layers.iter().map(ProtocolConfig::kind).collect()
}

/// Checks the nodes' stacks against each other: the two ends of every flow (`pairs`:
/// node indices) with the same protocols layer by layer (depths may differ between
/// nodes that are not peers).
///
/// `mixed`: routers run link stacks, so depths may differ below `ip`
/// (`scenario::interfaces::mixed_depth`) and peers are compared down to `ip`.
pub fn check_peers(nodes: &[NodeConfig], stacks: &BTreeMap<String, StackConfig>, pairs: &[(u32, u32)], mixed: bool, p: &mut Problems) {
    let stack_of = |n: &NodeConfig| stacks.get(&n.stack);
    let kinds = |st: &StackConfig| {
        let mut k = kinds(st);
        if let (true, Some(ip)) = (mixed, k.iter().position(|&x| x == "ip")) {
            k.truncate(ip + 1);
        }
        k
    };
    let mut reported = vec![];
    for &(a, b) in pairs {
        let (na, nb) = (&nodes[a as usize], &nodes[b as usize]);
        let (Some(sa), Some(sb)) = (stack_of(na), stack_of(nb)) else { continue };
        if kinds(sa) != kinds(sb) && !reported.contains(&(a, b)) {
            reported.push((a, b));
            p.push(
                format!("node[{b}].stack"),
                Some(&nb.stack.as_str().into()),
                format!("expected the same protocols as its peer {} ({:?}), got {:?}: peers run the same layers", na.name, kinds(sa), kinds(sb)),
            );
        }
    }
}

/// An IP router reads the IP header of every frame it forwards: with an `ip_router` in
/// the topology, every node's lowest layer is `ip`.
pub fn check_routers(nodes: &[NodeConfig], stacks: &BTreeMap<String, StackConfig>, relays: &[RelayConfig], p: &mut Problems) {
    let Some(router) = relays.iter().find(|r| r.kind == "ip_router") else { return };
    for (i, n) in nodes.iter().enumerate() {
        let lowest = stacks.get(&n.stack).and_then(|s| s.layers.last());
        if let Some(l) = lowest.filter(|l| !matches!(l, ProtocolConfig::Ip(_))) {
            p.push(
                format!("node[{i}].stack"),
                Some(&n.stack.as_str().into()),
                format!("expected `ip` as the lowest layer (found {}): relay {} is an ip_router and forwards IP datagrams", l.kind(), router.name),
            );
        }
    }
}

/// True if the stack holds a layer that addresses several peers itself (no per-peer
/// multiplexer over it).
pub fn addresses_peers(layers: &[ProtocolConfig]) -> bool {
    layers.iter().any(|l| l.declared().addresses_peers)
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    /// Two hosts a and b on one link, each with `[stack.s]` = `layers`.
    fn pair(layers: &str) -> String {
        format!(
            "[stack.s]\nlayers = [{layers}]\n[[medium]]\nname = \"l\"\nends = [\"a\", \"b\"]\nrate_bps = 9600\n\
             [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
             [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"poisson\", load = 0.3 }}\n"
        )
    }

    fn problems(text: &str) -> Vec<String> {
        Scenario::from_toml(text).err().map_or(vec![], |e| e.problems())
    }

    #[test]
    fn stacks_whose_neighbours_fit_are_accepted() {
        for layers in [
            r#"{ kind = "tp4" }, { kind = "x25" }"#,
            r#"{ kind = "tp4" }, { kind = "hf_arq" }"#,
            r#"{ kind = "tp4" }, { kind = "datagram" }"#,
            r#"{ kind = "tcp" }, { kind = "llc2" }"#,
            r#"{ kind = "tcp" }, { kind = "hdlc" }"#,
            r#"{ kind = "tcp" }, { kind = "go_back_n" }, { kind = "datagram" }"#,
            r#"{ kind = "tp4" }, { kind = "selective_repeat" }, { kind = "hf_arq" }"#,
            r#"{ kind = "go_back_n" }, { kind = "x25" }"#,
        ] {
            // hf_arq on a plain link sends at the link's rate, which must be one of its modem's.
            let text = if layers.contains("hf_arq") { pair(layers).replace("rate_bps = 9600", "rate_bps = 2400") } else { pair(layers) };
            assert_eq!(problems(&text), Vec::<String>::new(), "{layers}");
        }
    }

    #[test]
    fn stacks_whose_neighbours_do_not_fit_name_the_pair_and_why() {
        let cases = [
            (r#"{ kind = "tcp" }"#, "stack.s.layers[0].kind = \"tcp\": tcp as the lowest layer: it needs best-effort datagrams or reliable in-order messages below it, not a medium (put a link layer under it)"),
            (r#"{ kind = "go_back_n" }, { kind = "tcp" }"#, "stack.s.layers[1].kind = \"tcp\": expected it as the top layer: its SDUs are the users' messages (it is under go_back_n)"),
            (r#"{ kind = "x25" }, { kind = "datagram" }"#, "stack.s.layers[0].kind = \"x25\": x25 over datagram (layers[1]): x25 needs frames on a medium below it, but the layer below offers best-effort datagrams"),
            (r#"{ kind = "hf_arq" }, { kind = "hdlc" }"#, "stack.s.layers[0].kind = \"hf_arq\": hf_arq over hdlc (layers[1]): hf_arq needs frames on a medium below it, but the layer below offers reliable in-order messages"),
            (r#"{ kind = "tp4" }, { kind = "tcp" }, { kind = "datagram" }"#, "stack.s.layers[1].kind = \"tcp\": expected it as the top layer: its SDUs are the users' messages (it is under tp4)"),
        ];
        for (layers, want) in cases {
            let got = problems(&pair(layers));
            assert!(got.iter().any(|g| g == want), "{layers}: {got:?}");
        }
    }

    /// x25's `interface_queue` is where the layer above pushes its datagrams: with
    /// nothing above it, refused with its path; under TCP, accepted; out of range, named.
    #[test]
    fn interface_queue_needs_a_layer_above_and_a_depth_of_at_least_one() {
        assert_eq!(
            problems(&pair(r#"{ kind = "x25", interface_queue = 50 }"#)),
            vec!["stack.s.layers[0].interface_queue: expected only under a layer that sends into it (a transport over x25): the top layer takes the users' messages directly"]
        );
        assert_eq!(problems(&pair(r#"{ kind = "tcp" }, { kind = "x25", interface_queue = 50 }"#)), Vec::<String>::new());
        assert_eq!(
            problems(&pair(r#"{ kind = "tcp" }, { kind = "x25", interface_queue = 0 }"#)),
            vec!["stack.s.layers[1].interface_queue = 0: expected a whole number in [1, 1000000]"]
        );
    }

    #[test]
    fn every_problem_is_reported_with_its_path() {
        let got = problems(&pair(r#"{ kind = "tcp" }, { kind = "tp4" }, { kind = "hdlc" }, { kind = "datagram" }"#));
        assert_eq!(
            got,
            vec![
                "stack.s.layers[1].kind = \"tp4\": expected it as the top layer: its SDUs are the users' messages (it is under tcp)",
                "stack.s.layers[2].kind = \"hdlc\": hdlc over datagram (layers[3]): hdlc needs frames on a medium below it, but the layer below offers best-effort datagrams",
            ]
        );
    }

    #[test]
    fn nodes_may_differ_where_peers_fit() {
        // a-b run go-back-N, c-d selective repeat, through one relay.
        let text = r#"
[stack.g]
kind = "go_back_n"
[stack.s]
kind = "selective_repeat"
[[medium]]
name = "la"
ends = ["a", "r"]
[[medium]]
name = "lb"
ends = ["b", "r"]
[[medium]]
name = "lc"
ends = ["c", "r"]
[[medium]]
name = "ld"
ends = ["d", "r"]
[[relay]]
name = "r"
[[node]]
name = "a"
stack = "g"
[[node]]
name = "b"
stack = "g"
[[node]]
name = "c"
stack = "s"
[[node]]
name = "d"
stack = "s"
[[flow]]
from = "a"
to = "b"
traffic = { kind = "poisson", load = 0.2 }
[[flow]]
from = "c"
to = "d"
traffic = { kind = "poisson", load = 0.2 }
"#;
        assert_eq!(problems(text), Vec::<String>::new());
        let crossed = text.replace("from = \"c\"\nto = \"d\"", "from = \"a\"\nto = \"d\"");
        assert!(problems(&crossed).iter().any(|p| p.starts_with("node[3].stack = \"s\": expected the same protocols as its peer a")), "{:?}", problems(&crossed));
        // Different depths where peers fit: the run takes the chain (`protocol::deep`,
        // one PDU type on the media); both flows deliver what they offer (the runner
        // checks each delivery: in order, once), deterministically.
        let deeper = text.replace("[stack.s]\nkind = \"selective_repeat\"", "[stack.s]\nlayers = [{ kind = \"selective_repeat\" }, { kind = \"datagram\" }]");
        assert_eq!(problems(&deeper), Vec::<String>::new());
        let sc = Scenario::from_toml(&deeper).unwrap();
        assert_eq!(sc.topology.nodes.iter().map(|n| n.stack.len()).collect::<Vec<_>>(), [1, 1, 2, 2]);
        let rep = crate::sim::replicate(&sc, 2, 0).unwrap();
        for flow in ["flow.a->b", "flow.c->d"] {
            let acc = rep.accounting[flow];
            assert!(acc.issued > 100 && acc.issued - acc.delivered <= 8, "{flow}: error free, all but a window delivered: {acc:?}");
        }
        assert_eq!(rep.fingerprint, crate::sim::replicate(&sc, 2, 0).unwrap().fingerprint, "deterministic");
    }

    #[test]
    fn an_ip_router_needs_ip_at_the_bottom_of_every_node() {
        let text = "[stack.ip]\nkind = \"ip\"\n[stack.d]\nkind = \"datagram\"\n\
                    [[medium]]\nname = \"l1\"\nends = [\"a\", \"r\"]\nmtu_octets = 576\n[[medium]]\nname = \"l2\"\nends = [\"r\", \"b\"]\n\
                    [[relay]]\nname = \"r\"\nkind = \"ip_router\"\n[[node]]\nname = \"a\"\nstack = \"ip\"\n[[node]]\nname = \"b\"\nstack = \"ip\"\n\
                    [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"poisson\", load = 0.2 }\n";
        assert_eq!(problems(text), Vec::<String>::new());
        let datagram = text.replace("name = \"b\"\nstack = \"ip\"", "name = \"b\"\nstack = \"d\"");
        assert!(
            problems(&datagram).contains(&"node[1].stack = \"d\": expected `ip` as the lowest layer (found datagram): relay r is an ip_router and forwards IP datagrams".to_string()),
            "{:?}",
            problems(&datagram)
        );
        let tiny = text.replace("mtu_octets = 576", "mtu_octets = 67");
        assert!(problems(&tiny).iter().any(|p| p.starts_with("medium[0].mtu_octets = 67: expected")), "RFC 791: every module takes 68 octets; {:?}", problems(&tiny));
    }
}
