//! Routes through a loop of relays (`scenarios/topologies/diamond_route.toml`): the
//! computed route is the shortest path, a `[[route]]` table overrides it, and traffic
//! follows whichever applies — each flow's frames on the lanes of its path only, and
//! one message's delay exactly the sum of that path's hops.

use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::{replicate, Replication};
use std::path::Path;

fn text() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/topologies/diamond_route.toml");
    std::fs::read_to_string(path).unwrap()
}

fn run(text: &str) -> Replication {
    let sc = Scenario::from_value(&toml_to_json(text).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    replicate(&sc, 1, 0).unwrap()
}

fn frames(rep: &Replication, lane: &str) -> f64 {
    rep.batches[0][lane].get("frames_transmitted").unwrap_or_else(|| panic!("no lane {lane}"))
}

/// Σ (L + h)/R_i + Σ d_i over the media, + Σ f_j over the relays of a path.
fn path_delay(media: &[(f64, f64)], forwarding: &[f64]) -> f64 {
    let bits = 1000.0 + 48.0;
    media.iter().map(|(r, d)| bits / r + d).sum::<f64>() + forwarding.iter().sum::<f64>()
}

const LA: (f64, f64) = (9600.0, 0.001);
const LINE1: (f64, f64) = (64000.0, 0.001);
const LINE2: (f64, f64) = (19200.0, 0.002);
const LINE3: (f64, f64) = (19200.0, 0.003);
const LB: (f64, f64) = (9600.0, 0.004);

#[test]
fn an_overridden_route_carries_the_flow_the_long_way_and_the_other_direction_keeps_the_shortest() {
    let rep = run(&text());
    assert_eq!((frames(&rep, "link.line2.r1->r3"), frames(&rep, "link.line3.r3->r2")), (1.0, 1.0), "a→b the long way");
    assert_eq!(frames(&rep, "link.line1.r1->r2"), 0.0, "nothing a→b on the shortest path");
    assert_eq!(frames(&rep, "link.line1.r2->r1"), 1.0, "b→a keeps line1");
    assert_eq!((frames(&rep, "link.line2.r3->r1"), frames(&rep, "link.line3.r2->r3")), (0.0, 0.0));
    let want = path_delay(&[LA, LINE2, LINE3, LB], &[0.0005, 0.002, 0.001]);
    let got = rep.batches[0]["flow.a->b"].get("transfer_time_s").unwrap();
    assert!((got - want).abs() <= 1e-9, "a→b {got} s vs the long path's hops {want} s");
    let back = path_delay(&[LB, LINE1, LA], &[0.001, 0.0005]);
    let got = rep.batches[0]["flow.b->a"].get("transfer_time_s").unwrap();
    assert!((got - back).abs() <= 1e-9, "b→a {got} s vs the short path's hops {back} s");
}

#[test]
fn without_the_override_the_shortest_path_is_taken() {
    let text = text().replace("[[route]]\nat = \"r1\"\nto = \"b\"\nvia = \"line2\"\n", "");
    let rep = run(&text);
    assert_eq!((frames(&rep, "link.line1.r1->r2"), frames(&rep, "link.line2.r1->r3")), (1.0, 0.0));
    let want = path_delay(&[LA, LINE1, LB], &[0.0005, 0.001]);
    let got = rep.batches[0]["flow.a->b"].get("transfer_time_s").unwrap();
    assert!((got - want).abs() <= 1e-9, "a→b {got} s vs the shortest path's hops {want} s");
}

fn problems(text: &str) -> Vec<String> {
    match Scenario::from_value(&toml_to_json(text).unwrap()) {
        Ok(_) => vec![],
        Err(e) => e.problems(),
    }
}

#[test]
fn overrides_that_loop_or_do_not_reach_are_refused_with_their_path() {
    let base = text();
    let with = |extra: &str| base.replace("[[node]]\nname = \"a\"", &format!("{extra}\n[[node]]\nname = \"a\""));
    // r3 sends b's frames back to r1, which sends them to r3.
    let looping = with("[[route]]\nat = \"r3\"\nto = \"b\"\nvia = \"line2\"");
    assert_eq!(
        problems(&looping),
        vec![
            "route[0]: the route from r1 to b loops: r1 → line2 → r3 → line2 → r1",
            "route[1]: the route from r3 to b loops: r3 → line2 → r1 → line2 → r3",
        ]
    );
    let elsewhere = base.replace("via = \"line2\"", "via = \"la\"");
    assert_eq!(problems(&elsewhere), vec!["route[0]: the route from r1 to b does not reach it (it ends at another node): r1 → la → a"]);
    let bad_names = base.replace("at = \"r1\"\nto = \"b\"", "at = \"a\"\nto = \"r2\"");
    assert_eq!(
        problems(&bad_names),
        vec![
            "route[0].at = \"a\": expected a [[relay]]: a node has one interface, its route is its medium",
            "route[0].to = \"r2\": expected the name of a [[node]] (known: a, b)",
        ]
    );
    let not_attached = base.replace("via = \"line2\"", "via = \"line3\"");
    assert_eq!(problems(&not_attached), vec!["route[0].via = \"line3\": expected a medium attached to relay r1 (its ports: la, line1, line2)"]);
    let twice = with("[[route]]\nat = \"r1\"\nto = \"b\"\nvia = \"line1\"");
    assert_eq!(problems(&twice), vec!["route[1]: a second route at r1 to b (route[0] sets it)"]);
    let unknown_key = base.replace("via = \"line2\"", "via = \"line2\"\nvai = 1");
    assert_eq!(problems(&unknown_key).len(), 1, "{:?}", problems(&unknown_key));
}
