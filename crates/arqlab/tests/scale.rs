//! Validation and wiring stay linear in nodes + flows (issue 29 item 6: a star of 8,000
//! stations took 546 MB, because every node kept a table over every flow).

use arqlab::scenario::Scenario;

/// `n` stations around one bridge, each sending to the next.
fn star(n: usize) -> String {
    let mut s = String::from("[run]\nduration_s = 1.0\nreplications = 1\n[stack.s]\nkind = \"datagram\"\n[[relay]]\nname = \"hub\"\n");
    for i in 0..n {
        s += &format!("[[node]]\nname = \"s{i}\"\nstack = \"s\"\n[[medium]]\nname = \"l{i}\"\nends = [\"s{i}\", \"hub\"]\n");
    }
    for i in 0..n {
        s += &format!("[[flow]]\nfrom = \"s{i}\"\nto = \"s{}\"\ntraffic = {{ kind = \"poisson\", load = 0.01 }}\n", (i + 1) % n);
    }
    s
}

#[test]
fn each_node_keeps_only_its_own_flows() {
    let n = 2000;
    let sc = Scenario::from_toml(&star(n)).unwrap_or_else(|e| panic!("{e}"));
    let entries: usize = sc.topology.nodes.iter().map(|x| x.flow_conn.len()).sum();
    assert_eq!(entries, 2 * n, "one entry per end of each flow");
    let s1 = &sc.topology.nodes[1];
    // s1 receives flow 0 (from s0) and sends flow 1 (to s2), on its two connections.
    assert_eq!(s1.flow_conn, vec![(0, 0), (1, 1)]);
    let r = arqlab::sim::replicate(&sc, 1, 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.accounting.len(), n);
}
