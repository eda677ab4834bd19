//! Multi-circuit MLRU's per-site C_max (`site_c_max`, an `x25` key) names sites by
//! their node names; the `x25` layer is parsed without the nodes, so the names are
//! checked and resolved to node numbers here, once the topology is known.

use super::topology::Topology;
use super::{NetworkConfig, ProtocolConfig};
use crate::schema::Problems;

/// Reports every `site_c_max` name that is not a node (its path names the stack and
/// layer, or `protocol` in the two-station form) and fills each node's `x25` layers'
/// `site_c_max_nodes`.
pub fn resolve(topology: &mut Topology, network: Option<&NetworkConfig>, protocol: &ProtocolConfig, p: &mut Problems) {
    let names: Vec<String> = topology.nodes.iter().map(|n| n.name.clone()).collect();
    let index = |name: &str| names.iter().position(|n| n == name).map(|i| i as u32);
    let mut unknown = |path: String, name: &str| {
        p.push(format!("{path}.site_c_max.{name}"), None, format!("expected the name of a node (known: {})", names.join(", ")));
    };
    match network {
        Some(net) => {
            for (stack, s) in &net.stack {
                for (i, l) in s.layers.iter().enumerate() {
                    if let ProtocolConfig::X25(c) = l {
                        let at = if s.layers.len() > 1 { format!("stack.{stack}.layers[{i}]") } else { format!("stack.{stack}") };
                        c.site_c_max.keys().filter(|n| index(n).is_none()).for_each(|n| unknown(at.clone(), n));
                    }
                }
            }
        }
        None => {
            if let ProtocolConfig::X25(c) = protocol {
                c.site_c_max.keys().filter(|n| index(n).is_none()).for_each(|n| unknown("protocol".into(), n));
            }
        }
    }
    for node in &mut topology.nodes {
        for l in &mut node.stack {
            if let ProtocolConfig::X25(c) = l {
                c.site_c_max_nodes = c.site_c_max.iter().filter_map(|(n, &m)| index(n).map(|i| (i, m))).collect();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::registry::ProtocolConfig;
    use crate::scenario::Scenario;

    /// Host a (multi-MLRU, C_max 1, `sites` as its site_c_max) sending to b and c.
    fn gateway(sites: &str) -> String {
        let mut s = format!("[run]\nduration_s = 10.0\n[stack.gw]\nlayers = [{{ kind = \"x25\", policy = \"multi_mlru\", c_max = 1, site_c_max = {sites} }}]\n[stack.host]\nlayers = [{{ kind = \"x25\" }}]\n[[relay]]\nname = \"net\"\nkind = \"transit_network\"\ntransit_delay = {{ dist = \"constant\", mean_s = 0.235 }}\n");
        for n in ["a", "b", "c"] {
            s += &format!("[[medium]]\nname = \"dce_{n}\"\nends = [\"{n}\", \"net\"]\nrate_bps = 1e9\n[[node]]\nname = \"{n}\"\nstack = \"{}\"\n", if n == "a" { "gw" } else { "host" });
        }
        for n in ["b", "c"] {
            s += &format!("[[flow]]\nfrom = \"a\"\nto = \"{n}\"\ntraffic = {{ kind = \"poisson\", load = 1e-6, length = {{ dist = \"constant\", mean_bits = 3776 }} }}\n");
        }
        s
    }

    #[test]
    fn test_site_c_max_names_resolve_to_node_numbers_and_unknown_names_are_refused() {
        let sc = Scenario::from_toml(&gateway("{ c = 3 }")).expect("valid");
        let resolved: Vec<_> = sc.topology.nodes.iter().map(|n| match &n.stack[0] {
            ProtocolConfig::X25(c) => c.site_c_max_nodes.clone(),
            _ => unreachable!(),
        }).collect();
        assert_eq!(resolved, vec![vec![(2, 3)], vec![], vec![]], "a's site c is node 2");
        let err = Scenario::from_toml(&gateway("{ d = 3 }")).err().expect("refused").problems();
        assert_eq!(err.len(), 1, "{err:?}");
        assert!(err[0].starts_with("stack.gw.site_c_max.d") && err[0].contains("the name of a node (known: a, b, c)"), "{err:?}");
        let pair = "[run]\nduration_s = 10.0\n[protocol]\nkind = \"x25\"\npolicy = \"multi_mlru\"\nsite_c_max = { z = 2 }\n[traffic.a]\nkind = \"saturated\"\n";
        let err = Scenario::from_toml(pair).err().expect("refused").problems();
        assert!(err.iter().any(|e| e.starts_with("protocol.site_c_max.z") && e.contains("known: a, b")), "{err:?}");
    }
}
