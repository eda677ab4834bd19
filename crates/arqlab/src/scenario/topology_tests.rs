//! Tests of the explicit topology form (`topology.rs`); `BASE` is shared with `validate`'s tests.
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
fn relays_in_a_loop_route_on_shortest_paths() {
    let ring = BASE.replace(
        "[[relay]]",
        "[[medium]]\nname = \"l3\"\nends = [\"r\", \"r2\"]\n[[medium]]\nname = \"l4\"\nends = [\"r2\", \"r3\"]\n[[medium]]\nname = \"l5\"\nends = [\"r3\", \"r\"]\n[[relay]]\nname = \"r2\"\n[[relay]]\nname = \"r3\"\n[[relay]]",
    );
    let sc = Scenario::from_toml(&ring).unwrap();
    // Relays r2 (ports l3, l4) and r3 (ports l4, l5) each reach a and b through r,
    // never round the loop through the other.
    let routes: Vec<_> = sc.topology.relays.iter().map(|r| (r.config.name.as_str(), r.routes.clone())).collect();
    assert_eq!(routes, vec![("r2", vec![Some(0), Some(0)]), ("r3", vec![Some(1), Some(1)]), ("r", vec![Some(0), Some(1)])]);
    let self_loop = BASE.replace("ends = [\"a\", \"r\"]", "ends = [\"r\", \"r\"]");
    assert!(problems(&self_loop).contains(&"medium[0].ends: expected two different ends".to_string()));
}

#[test]
fn stacks_whose_layers_do_not_fit_are_errors() {
    let bad = BASE.replace("[stack.s]\nkind = \"go_back_n\"", "[stack.s]\nlayers = [{ kind = \"hdlc\" }, { kind = \"go_back_n\" }]");
    assert_eq!(
        problems(&bad),
        vec!["stack.s.layers[0].kind = \"hdlc\": hdlc over go_back_n (layers[1]): hdlc needs frames on a medium below it, but the layer below offers reliable in-order messages"]
    );
    // Any depth whose neighbours fit (no cap: `protocol::deep`).
    let deep = BASE.replace("[stack.s]\nkind = \"go_back_n\"", "[stack.s]\nlayers = [{ kind = \"go_back_n\" }, { kind = \"go_back_n\" }, { kind = \"go_back_n\" }, { kind = \"go_back_n\" }, { kind = \"go_back_n\" }, { kind = \"datagram\" }]");
    assert_eq!(problems(&deep), Vec::<String>::new());
    let mixed = BASE.replace("[[node]]\nname = \"b\"\nstack = \"s\"", "[[node]]\nname = \"b\"\nstack = \"u\"\n[stack.u]\nkind = \"selective_repeat\"");
    assert_eq!(problems(&mixed).len(), 1, "{:?}", problems(&mixed));
    assert!(problems(&mixed)[0].starts_with("node[1].stack = \"u\": expected the same protocols as its peer a ([\"go_back_n\"]), got [\"selective_repeat\"]"), "{:?}", problems(&mixed));
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
    assert_eq!((a.peers.clone(), a.flow_conn.clone()), (vec![(1, 0), (2, 1)], vec![(0, 0), (1, 1)]), "a multiplexes two connections");
    assert_eq!(sc.topology.nodes[2].flow_conn, vec![(1, 0)]);
    let deep = star.replace("[stack.s]\nkind = \"go_back_n\"", "[stack.s]\nlayers = [{ kind = \"go_back_n\" }, { kind = \"datagram\" }]");
    assert_eq!(problems(&deep), Vec::<String>::new(), "several peers over two layers: one composed stack per connection");
    // A bulk source is topped up like a saturated one: a second from a would never send.
    let bulk = star.replace("to = \"c\"\ntraffic = { kind = \"poisson\" }", "to = \"c\"\ntraffic = { kind = \"bulk\", messages = 3 }");
    assert_eq!(problems(&bulk), vec!["flow[1].traffic.kind = \"bulk\": expected at most one saturated or bulk flow from node a (use poisson traffic for the others)"]);
    let twice = format!("{BASE}\n[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"saturated\" }}\n");
    assert_eq!(
        problems(&twice),
        vec![
            "flow[1].traffic.kind = \"saturated\": expected at most one saturated or bulk flow from node a (use poisson traffic for the others)",
            "flow[1]: expected one flow from a to b (flow[0] has the same ends and both would be measured as flow.a->b): merge their traffic into one flow",
        ]
    );
}
