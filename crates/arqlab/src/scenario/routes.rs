//! Routes through relays, computed once from the wired media: one breadth-first search
//! per destination node (ns-3's global routing, INET's network configurator), so a
//! topology of N nodes, R relays and M attachments takes O(N·(R + M)) instead of one
//! traversal per relay, port and node. Each relay sends towards a destination on a
//! shortest path (fewest media crossed); of several, the one through the attachment
//! reached first — media in file order, a relay's ports in the order the media name
//! it — so routes are deterministic. Every relay's next hop is one medium closer to
//! the destination, so the computed routes never loop, whatever cycles the media form;
//! `[[route]]` overrides (`overrides.rs`) are checked for that separately.

use super::ring::RingSpec;
use super::elements::{End, MediumSpec};

/// Adjacency of the wired media.
/// Attachment ids: `m < media.len()` is two-ended medium `m`, above are the rings.
pub(super) struct Graph<'a> {
    pub media: &'a [MediumSpec],
    pub rings: &'a [RingSpec],
    pub relay_media: &'a [Vec<u32>],
    pub node_att: &'a [u32],
}

/// What the searches found.
pub(super) struct Routing {
    /// Relay → destination node → output port.
    pub routes: Vec<Vec<Option<usize>>>,
    /// Ring → destination node → the station that copies its frames (itself, or the
    /// bridge behind which it lies); `u32::MAX` if none.
    pub receiver: Vec<Vec<u32>>,
    /// Connected component of each node (nodes in one component reach each other).
    component: Vec<u32>,
}

impl Routing {
    pub fn reachable(&self, a: u32, b: u32) -> bool {
        self.component[a as usize] == self.component[b as usize]
    }
}

impl Graph<'_> {
    pub fn ring(&self, m: u32) -> Option<&RingSpec> {
        (m as usize).checked_sub(self.media.len()).map(|g| &self.rings[g])
    }

    /// Calls `f` for every end reached from `from` across attachment `m`.
    fn across(&self, m: u32, from: End, mut f: impl FnMut(End)) {
        match self.ring(m) {
            Some(g) => g.stations.iter().copied().filter(|&e| e != from).for_each(f),
            None => {
                let e = self.media[m as usize].ends;
                f(if e[0] == from { e[1] } else { e[0] })
            }
        }
    }

    /// Routes to every node: one search outward from each destination. A relay first
    /// reached across attachment m sends towards the destination through its port on m;
    /// a ring first crossed from station e has e copy the destination's frames.
    pub fn routing(&self) -> Routing {
        let nodes = self.node_att.len();
        let mut routes = vec![vec![None; nodes]; self.relay_media.len()];
        let mut receiver = vec![vec![u32::MAX; nodes]; self.rings.len()];
        let mut seen = vec![u32::MAX; self.relay_media.len()];
        let mut component = vec![u32::MAX; nodes];
        // (relay, attachment it was reached across), first in first out: breadth first.
        let mut queue: std::collections::VecDeque<(u32, u32)> = Default::default();
        for n in 0..nodes as u32 {
            let fresh = component[n as usize] == u32::MAX;
            if fresh {
                component[n as usize] = n;
            }
            let mut cross = |m: u32, from: End, queue: &mut std::collections::VecDeque<(u32, u32)>, component: &mut [u32]| {
                if let Some(g) = self.ring(m) {
                    let r = &mut receiver[m as usize - self.media.len()][n as usize];
                    if *r != u32::MAX {
                        return; // crossed already, from a station nearer the destination
                    }
                    *r = g.stations.iter().position(|&e| e == from).map_or(u32::MAX, |k| k as u32);
                }
                self.across(m, from, |e| match e {
                    End::Node(x) => {
                        if fresh {
                            component[x as usize] = n;
                        }
                    }
                    End::Relay(q) => {
                        if seen[q as usize] != n {
                            seen[q as usize] = n;
                            routes[q as usize][n as usize] = self.relay_media[q as usize].iter().position(|&x| x == m);
                            queue.push_back((q, m));
                        }
                    }
                });
            };
            cross(self.node_att[n as usize], End::Node(n), &mut queue, &mut component);
            while let Some((q, via)) = queue.pop_front() {
                for &m in &self.relay_media[q as usize] {
                    if m != via {
                        cross(m, End::Relay(q), &mut queue, &mut component);
                    }
                }
            }
        }
        Routing { routes, receiver, component }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    /// a — r0 — r1 — … — r{k-1} — b, with node c hanging off relay r{k/2}.
    fn line(k: usize) -> String {
        let mut t = String::from("[stack.s]\nkind = \"datagram\"\n");
        let link = |t: &mut String, name: String, x: String, y: String| t.push_str(&format!("[[medium]]\nname = \"{name}\"\nends = [\"{x}\", \"{y}\"]\n"));
        link(&mut t, "la".into(), "a".into(), "r0".into());
        for i in 1..k {
            link(&mut t, format!("m{i}"), format!("r{}", i - 1), format!("r{i}"));
        }
        link(&mut t, "lb".into(), format!("r{}", k - 1), "b".into());
        link(&mut t, "lc".into(), format!("r{}", k / 2), "c".into());
        for i in 0..k {
            t.push_str(&format!("[[relay]]\nname = \"r{i}\"\n"));
        }
        for n in ["a", "b", "c"] {
            t.push_str(&format!("[[node]]\nname = \"{n}\"\nstack = \"s\"\n"));
        }
        t.push_str("[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"poisson\" }\n[[flow]]\nfrom = \"c\"\nto = \"a\"\ntraffic = { kind = \"poisson\" }\n");
        t
    }

    #[test]
    fn every_relay_of_a_line_routes_each_node_through_the_port_towards_it() {
        let k = 40;
        let sc = Scenario::from_toml(&line(k)).unwrap();
        for (i, r) in sc.topology.relays.iter().enumerate() {
            // Ports in the order the media name the relay: towards a first, then b
            // (then c at the middle relay).
            let (to_a, to_b) = (0, 1);
            let to_c = if i == k / 2 { 2 } else if i < k / 2 { to_b } else { to_a };
            assert_eq!(r.routes, vec![Some(to_a), Some(to_b), Some(to_c)], "relay r{i}");
        }
    }

    #[test]
    fn nodes_in_separate_components_have_no_path() {
        // d and e on a link of their own.
        let text = line(3)
            + "[[medium]]\nname = \"de\"\nends = [\"d\", \"e\"]\n[[node]]\nname = \"d\"\nstack = \"s\"\n[[node]]\nname = \"e\"\nstack = \"s\"\n\
               [[flow]]\nfrom = \"a\"\nto = \"d\"\ntraffic = { kind = \"poisson\" }\n[[flow]]\nfrom = \"e\"\nto = \"d\"\ntraffic = { kind = \"poisson\" }\n";
        let problems = Scenario::from_toml(&text).unwrap_err().problems();
        assert_eq!(problems, vec!["flow[2]: no path from a to d through media and relays"]);
    }
}
