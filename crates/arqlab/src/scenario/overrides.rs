//! Route overrides: `[[route]] at = "<relay>", to = "<node>", via = "<medium>"` sends
//! the relay's frames (datagrams) for that node out of its port on that medium instead
//! of the computed shortest path (`routes.rs`). Each override is checked by walking the
//! route it starts from its relay to the destination: a route that comes back to a relay
//! it passed (a loop) or ends anywhere but the destination is refused with the path it
//! takes, so every route of a run reaches its node.

use super::elements::End;
use super::routes::{Graph, Routing};
use crate::schema::{Problems, Table};
use serde::Serialize;
use std::collections::BTreeMap;

/// One `[[route]]` table.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RouteConfig {
    /// The relay whose table changes.
    pub at: String,
    /// The destination node.
    pub to: String,
    /// The medium (attached to `at`) its frames for `to` leave on.
    pub via: String,
}

pub fn parse(root: &mut Table, p: &mut Problems) -> Vec<RouteConfig> {
    root.tables("route", p)
        .into_iter()
        .map(|mut t| {
            let c = RouteConfig { at: t.string("at", p), to: t.string("to", p), via: t.string("via", p) };
            t.finish(p);
            c
        })
        .collect()
}

/// The name of attachment `m` (a two-ended medium, or a ring after them).
fn attachment_name<'a>(g: &'a Graph, m: u32) -> &'a str {
    match g.ring(m) {
        Some(r) => &r.config.name,
        None => &g.media[m as usize].config.name,
    }
}

/// Applies `routes` to `routing`, then checks the path each one starts. `names` maps
/// node and relay names to their ends; `relay_names` are the relays in index order.
pub(super) fn apply(routes: &[RouteConfig], names: &BTreeMap<&str, End>, relay_names: &[&str], graph: &Graph, routing: &mut Routing, p: &mut Problems) {
    let before = p.0.len();
    let mut set: Vec<(usize, u32, u32)> = vec![];
    for (i, c) in routes.iter().enumerate() {
        let at = match names.get(c.at.as_str()) {
            Some(End::Relay(r)) => Some(*r),
            Some(End::Node(_)) => {
                p.push(format!("route[{i}].at"), Some(&c.at.as_str().into()), "expected a [[relay]]: a node has one interface, its route is its medium");
                None
            }
            None => {
                p.push(format!("route[{i}].at"), Some(&c.at.as_str().into()), format!("expected the name of a [[relay]] (known: {})", relay_names.join(", ")));
                None
            }
        };
        let to = match names.get(c.to.as_str()) {
            Some(End::Node(n)) => Some(*n),
            _ => {
                let nodes: Vec<&str> = names.iter().filter(|(_, e)| matches!(e, End::Node(_))).map(|(n, _)| *n).collect();
                p.push(format!("route[{i}].to"), Some(&c.to.as_str().into()), format!("expected the name of a [[node]] (known: {})", nodes.join(", ")));
                None
            }
        };
        let Some(r) = at else { continue };
        let ports = &graph.relay_media[r as usize];
        let port = ports.iter().position(|&m| attachment_name(graph, m) == c.via);
        if port.is_none() {
            let known: Vec<&str> = ports.iter().map(|&m| attachment_name(graph, m)).collect();
            p.push(format!("route[{i}].via"), Some(&c.via.as_str().into()), format!("expected a medium attached to relay {} (its ports: {})", c.at, known.join(", ")));
        }
        let (Some(n), Some(k)) = (to, port) else { continue };
        if let Some(&(j, _, _)) = set.iter().find(|&&(_, q, m)| (q, m) == (r, n)) {
            p.push(format!("route[{i}]"), None, format!("a second route at {} to {} (route[{j}] sets it)", c.at, c.to));
            continue;
        }
        routing.routes[r as usize][n as usize] = Some(k);
        set.push((i, r, n));
    }
    if p.0.len() > before {
        return;
    }
    for &(i, r, n) in &set {
        if let Err(why) = walk(graph, routing, relay_names, names, r, n) {
            p.push(format!("route[{i}]"), None, why);
        }
    }
}

/// Follows the routes from relay `r` to node `dst`: Ok if they reach it, else the path
/// they take and why it fails.
fn walk(graph: &Graph, routing: &Routing, relay_names: &[&str], names: &BTreeMap<&str, End>, r: u32, dst: u32) -> Result<(), String> {
    let node_name = |x: u32| names.iter().find(|(_, e)| **e == End::Node(x)).map_or("?", |(n, _)| *n);
    let mut path = vec![relay_names[r as usize].to_string()];
    let mut seen = vec![false; relay_names.len()];
    let mut q = r;
    let fail = |path: &[String], why: &str| Err(format!("the route from {} to {} {why}: {}", path[0], node_name(dst), path.join(" → ")));
    loop {
        seen[q as usize] = true;
        let Some(port) = routing.routes[q as usize][dst as usize] else {
            return fail(&path, "does not reach it (no route onward)");
        };
        let m = graph.relay_media[q as usize][port];
        path.push(attachment_name(graph, m).to_string());
        let next = match graph.ring(m) {
            Some(ring) => match routing.receiver[m as usize - graph.media.len()][dst as usize] {
                u32::MAX => None,
                k => Some(ring.stations[k as usize]),
            },
            None => {
                let e = graph.media[m as usize].ends;
                Some(if e[0] == End::Relay(q) { e[1] } else { e[0] })
            }
        };
        match next {
            Some(End::Node(x)) if x == dst => return Ok(()),
            Some(End::Node(x)) => {
                path.push(node_name(x).to_string());
                return fail(&path, "does not reach it (it ends at another node)");
            }
            Some(End::Relay(x)) => {
                path.push(relay_names[x as usize].to_string());
                if seen[x as usize] {
                    return fail(&path, "loops");
                }
                q = x;
            }
            None => return fail(&path, "does not reach it (no station on the ring takes it)"),
        }
    }
}
