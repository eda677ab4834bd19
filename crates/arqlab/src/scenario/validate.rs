//! Checks that keep the explicit form as strict as the pair form, beyond wiring:
//!
//! - names: every stack, node, relay and medium name is a plain word (letters, digits,
//!   `_`, `-`) so that scope names (`flow.a->b`, `link.l1.a->r`, `node.r.l1`) and
//!   override keys (`medium.l1.rate_bps`) split unambiguously; nodes, relays and media
//!   share one namespace, so no two scopes can collide;
//! - flows: at most one flow per ordered pair of nodes (two would share one scope and
//!   one connection);
//! - error models tied to what they model: an `hf` lane judges each frame by a modem
//!   mode. A modem-aware layer (`hf_arq`) names the mode of each packet; any other
//!   layer's frames are sent at the medium's `rate_bps`, so the modem table must have a
//!   data mode of exactly that rate (its PER is used). `hf_arq` on a lane without an
//!   `hf` model (a plain link) sends at that link's rate only.

use super::link::{number, DirectionConfig};
use super::topology::{NetworkConfig, Topology};
use super::ProtocolConfig;
use crate::schema::Problems;
use std::collections::BTreeMap;

/// True if `name` is a plain word: letters, digits, `_` and `-` (so no `.`, `->`,
/// `[`, `*` or space, which scope names and override keys use as separators).
pub fn plain_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

const NAME_RULE: &str = "expected a name of letters, digits, '_' and '-' (scope names and keys use '.', '->' and '[' as separators)";

/// Names and flows of the explicit form; called by [`NetworkConfig::wire`].
pub fn check_network(net: &NetworkConfig, p: &mut Problems) {
    for name in net.stack.keys() {
        if !plain_name(name) {
            p.push(format!("stack.{name:?}"), None, NAME_RULE);
        }
    }
    // Nodes and relays are already checked against each other by the wiring.
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    let named = net.node.iter().enumerate().map(|(i, n)| (format!("node[{i}]"), &n.name));
    let named = named.chain(net.relay.iter().enumerate().map(|(i, r)| (format!("relay[{i}]"), &r.name)));
    for (path, name) in named {
        if !name.is_empty() && !plain_name(name) {
            p.push(format!("{path}.name"), Some(&name.as_str().into()), NAME_RULE);
        }
        seen.entry(name).or_insert(path);
    }
    for (i, m) in net.medium.iter().enumerate() {
        let path = format!("medium[{i}].name");
        if !m.name.is_empty() && !plain_name(&m.name) {
            p.push(&path, Some(&m.name.as_str().into()), NAME_RULE);
        }
        match seen.get(m.name.as_str()) {
            Some(other) => p.push(&path, Some(&m.name.as_str().into()), format!("expected a name not used by another medium, node or relay ({other} has it)")),
            None => {
                seen.insert(&m.name, format!("medium[{i}]"));
            }
        }
    }
    for (i, f) in net.flow.iter().enumerate() {
        if let Some(j) = net.flow[..i].iter().position(|o| o.from == f.from && o.to == f.to) {
            p.push(
                format!("flow[{i}]"),
                None,
                format!("expected one flow from {} to {} (flow[{j}] has the same ends and both would be measured as flow.{}->{}): merge their traffic into one flow", f.from, f.to, f.from, f.to),
            );
        }
    }
}

/// A lane's error model and rate.
fn lane_model(topo: &Topology, lane: u32) -> (DirectionConfig, f64) {
    match topo.ring_of_lane(lane) {
        Some((g, _)) => {
            let c = &topo.rings[g as usize].config;
            (c.lane_errors(0), c.rate_bps)
        }
        None => {
            let c = &topo.media[lane as usize / 2].config;
            (c.lane_errors(lane as usize % 2), c.rate_bps)
        }
    }
}

/// The key of a lane's medium (`medium[i]`, `link` in the pair form) and of its error
/// model (`medium[i].forward`, `link.a_to_b`); only built for messages.
fn lane_paths(topo: &Topology, net: Option<&NetworkConfig>, lane: u32) -> (String, String) {
    let (name, side) = match topo.ring_of_lane(lane) {
        Some((g, _)) => (&topo.rings[g as usize].config.name, 0),
        None => (&topo.media[lane as usize / 2].config.name, lane as usize % 2),
    };
    match net {
        Some(n) => {
            let m = format!("medium[{}]", n.medium.iter().position(|m| &m.name == name).unwrap_or(0));
            let errors = format!("{m}.{}", if side == 0 { "forward" } else { "reverse" });
            (m, errors)
        }
        None => ("link".into(), format!("link.{}", if side == 0 { "a_to_b" } else { "b_to_a" })),
    }
}


fn rates(table: &crate::channel::modem::ModemTable) -> String {
    table.data_rates().iter().map(|r| format!("{r}")).collect::<Vec<_>>().join(", ")
}

/// Ties the lanes' error models to the layers sending on them (both forms): binds each
/// `hf_arq` on a plain link — a node's lowest layer or a router interface's link — to
/// that link's rate, and requires a modem mode at the lane's rate wherever a layer that
/// is not modem-aware sends on an `hf` lane.
pub fn bind_modems(topo: &mut Topology, net: Option<&NetworkConfig>, p: &mut Problems) {
    let modem_aware = |stack: &[ProtocolConfig]| matches!(stack.last(), Some(ProtocolConfig::HfArq(_)));
    // Frames a relay forwards are the nodes' frames: any node's stack may send there,
    // unless the port runs its own link layer (a router's interface).
    let any_plain_sender = topo.nodes.iter().any(|n| !modem_aware(&n.stack));
    let mut senders: Vec<(u32, bool)> = topo.nodes.iter().map(|n| (n.lane, modem_aware(&n.stack))).collect();
    senders.extend(topo.relays.iter().flat_map(|r| r.lanes.iter().zip(&r.links).map(|(&l, link)| (l, link.as_ref().map_or(!any_plain_sender, |k| modem_aware(std::slice::from_ref(k)))))));
    let mut reported: Vec<String> = vec![];
    for (lane, aware) in senders {
        if aware {
            continue;
        }
        let (DirectionConfig::Hf(h), rate) = lane_model(topo, lane) else { continue };
        let Some(table) = &h.table else { continue };
        let path = format!("{}.modem", lane_paths(topo, net, lane).1);
        if table.mode_at_rate(rate).is_none() && !reported.contains(&path) {
            p.push(
                &path,
                Some(&h.modem.as_str().into()),
                format!("expected a modem with a data mode at the link's rate_bps = {rate} (this one has {}): a layer that is not modem-aware sends every frame at rate_bps, judged by that mode's packet error rate", rates(table)),
            );
            reported.push(path);
        }
    }
    // Every layer sending on a lane: a node's lowest, or a relay port's link (if any).
    enum Sender {
        Node(usize),
        Port(usize, usize),
    }
    let mut on_lanes: Vec<(u32, Sender)> = (0..topo.nodes.len()).map(|i| (topo.nodes[i].lane, Sender::Node(i))).collect();
    for (r, x) in topo.relays.iter().enumerate() {
        on_lanes.extend(x.lanes.iter().enumerate().map(|(k, &l)| (l, Sender::Port(r, k))));
    }
    for (lane, sender) in on_lanes {
        let (errors, rate) = lane_model(topo, lane);
        if matches!(errors, DirectionConfig::Hf(_)) {
            continue;
        }
        let rate_path = format!("{}.rate_bps", lane_paths(topo, net, lane).0);
        let layer = match sender {
            Sender::Node(i) => topo.nodes[i].stack.last_mut(),
            Sender::Port(r, k) => topo.relays[r].links[k].as_mut(),
        };
        if let Some(ProtocolConfig::HfArq(c)) = layer {
            c.link_bps = Some(rate);
            let Some(table) = &c.table else { continue };
            let ok = table.data_modes().iter().any(|&m| table.modes[m].bps == rate);
            if !ok && !reported.contains(&rate_path) {
                p.push(
                    &rate_path,
                    Some(&number(rate)),
                    format!("expected a data rate of the hf_arq modem {:?} ({}): on a link without an hf error model the modem sends at the link's rate", c.modem, rates(table)),
                );
                reported.push(rate_path);
            }
        }
    }
}

/// The rate a flow's throughput efficiency is relative to: the slowest lane on its
/// path from `src` to `dst` (through relays and rings, by their routes), and the
/// access line a stack models inside itself (an `x25` host's, or a gateway's `x25`
/// interface's on the path), whichever is lower.
/// The pair form's one link gives its rate, as before.
pub fn bottleneck_bps(topo: &Topology, src: u32, dst: u32) -> f64 {
    use super::topology::End;
    let own = |n: u32| {
        topo.nodes[n as usize].stack.iter().fold(f64::INFINITY, |r, l| match l {
            ProtocolConfig::X25(c) => r.min(c.access_rate_bps),
            _ => r,
        })
    };
    let mut rate = own(src).min(own(dst));
    let mut lane = topo.nodes[src as usize].lane;
    // Relays form a forest with the media (validated): a path visits each relay once.
    for _ in 0..=topo.relays.len() {
        rate = rate.min(topo.lane_rate(lane));
        let next = match topo.ring_of_lane(lane) {
            Some((g, _)) => {
                let ring = &topo.rings[g as usize];
                match ring.receiver.get(dst as usize).and_then(|&k| ring.stations.get(k as usize)) {
                    Some(&e) => e,
                    None => break,
                }
            }
            None => topo.lane_target(lane),
        };
        match next {
            End::Node(_) => break,
            End::Relay(r) => {
                let relay = &topo.relays[r as usize];
                // A gateway's x25 interface (RFC 877) sends and receives on its access line.
                let x25 = |k: usize| match relay.links.get(k) {
                    Some(Some(ProtocolConfig::X25(c))) => c.access_rate_bps,
                    _ => f64::INFINITY,
                };
                if topo.ring_of_lane(lane).is_none() {
                    if let Some(k) = relay.media.iter().position(|&m| m == lane / 2) {
                        rate = rate.min(x25(k));
                    }
                }
                match relay.routes.get(dst as usize).copied().flatten() {
                    Some(port) => {
                        rate = rate.min(x25(port));
                        lane = relay.lanes[port];
                    }
                    None => break,
                }
            }
        }
    }
    rate
}

#[cfg(test)]
mod tests {
    use crate::channel::hf::HfChannelParams;
    use crate::channel::modem::ModemTable;
    use crate::channel::{ErrorModel, HfErrors};
    use crate::engine::{stream, SimTime};
    use crate::scenario::ProtocolConfig;
    use crate::scenario::Scenario;

    use crate::scenario::topology::tests::BASE;

    /// BASE's stack, nodes and flow on one HF radio (the forward lane HF, the reverse plain).
    fn hf() -> String {
        let nodes_and_flow = &BASE[BASE.find("[[node]]").unwrap()..];
        let radio = "name = \"radio\"\nends = [\"a\", \"b\"]\nrate_bps = 2400\nforward = { error_model = \"hf\", channel = \"stable_25\", modem = \"mil-std-188-110b\" }";
        format!("[stack.s]\nkind = \"go_back_n\"\n[[medium]]\n{radio}\n{nodes_and_flow}")
    }

    fn problems(text: &str) -> Vec<String> {
        Scenario::from_toml(text).err().map(|e| e.problems()).unwrap_or_default()
    }

    #[test]
    fn unknown_top_level_keys_of_the_explicit_form_are_errors() {
        let bad = format!("{BASE}\n[runn]\nduration_s = 5\n[[flows]]\nfrom = \"a\"\n");
        assert_eq!(
            problems(&bad),
            vec![
                "flows = [{\"from\":\"a\"}]: unknown key (expected title, description, run, stack, medium, relay, node, flow or route)",
                "runn = {…}: unknown key (expected title, description, run, stack, medium, relay, node, flow or route)",
            ]
        );
        let bad = format!("\"medium[0]\" = {{ rate_bps = 1 }}\n{BASE}");
        assert_eq!(problems(&bad), vec!["medium[0] = {…}: unknown key (expected title, description, run, stack, medium, relay, node, flow or route)"]);
    }

    #[test]
    fn names_are_plain_words_unique_across_nodes_relays_and_media() {
        let bad = BASE.replace("name = \"a\"", "name = \"a->x\"").replace("\"a\", \"r\"", "\"a->x\", \"r\"").replace("from = \"a\"", "from = \"a->x\"");
        assert_eq!(problems(&bad), vec!["node[0].name = \"a->x\": expected a name of letters, digits, '_' and '-' (scope names and keys use '.', '->' and '[' as separators)"]);
        let bad = BASE.replace("name = \"l2\"", "name = \"l1\"");
        assert_eq!(problems(&bad), vec!["medium[1].name = \"l1\": expected a name not used by another medium, node or relay (medium[0] has it)"]);
        let bad = BASE.replace("name = \"l2\"", "name = \"b\"");
        assert_eq!(problems(&bad), vec!["medium[1].name = \"b\": expected a name not used by another medium, node or relay (node[1] has it)"]);
        let bad = BASE.replace("[stack.s]", "[stack.\"s.x\"]").replace("stack = \"s\"", "stack = \"s.x\"");
        assert_eq!(problems(&bad), vec!["stack.\"s.x\": expected a name of letters, digits, '_' and '-' (scope names and keys use '.', '->' and '[' as separators)"]);
    }

    #[test]
    fn two_flows_with_the_same_ends_are_refused() {
        let twice = format!("{BASE}\n[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"poisson\", load = 0.1 }}\n");
        assert_eq!(problems(&twice), vec!["flow[1]: expected one flow from a to b (flow[0] has the same ends and both would be measured as flow.a->b): merge their traffic into one flow"]);
        let reverse = format!("{BASE}\n[[flow]]\nfrom = \"b\"\nto = \"a\"\ntraffic = {{ kind = \"poisson\", load = 0.1 }}\n");
        assert_eq!(problems(&reverse), Vec::<String>::new(), "the other direction is another flow");
    }

    #[test]
    fn every_problem_is_reported_at_once() {
        let bad = format!("{BASE}\n[runn]\n[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"poisson\" }}\n").replace("name = \"l2\"", "name = \"l1\"");
        assert_eq!(problems(&bad).len(), 3, "{:?}", problems(&bad));
    }

    #[test]
    fn an_hf_lane_needs_a_modem_mode_at_the_rate_of_a_plain_layer() {
        assert_eq!(problems(&hf()), Vec::<String>::new(), "110B has a 2400 bit/s mode");
        let bad = hf().replace("rate_bps = 2400", "rate_bps = 9600");
        assert_eq!(
            problems(&bad),
            vec!["medium[0].forward.modem = \"mil-std-188-110b\": expected a modem with a data mode at the link's rate_bps = 9600 (this one has 75, 150, 300, 600, 1200, 2400, 4800): a layer that is not modem-aware sends every frame at rate_bps, judged by that mode's packet error rate"]
        );
        let pair = "[link]\nrate_bps = 9600\na_to_b = { error_model = \"hf\", channel = \"stable_25\", modem = \"mil-std-188-110b\" }\n[protocol]\nkind = \"go_back_n\"\n[traffic.a]\nkind = \"saturated\"\n";
        assert!(problems(pair)[0].starts_with("link.a_to_b.modem = \"mil-std-188-110b\": expected a modem with a data mode at the link's rate_bps = 9600"), "{:?}", problems(pair));
    }

    #[test]
    fn hf_arq_on_a_plain_link_sends_at_the_link_rate() {
        let plain = hf().replace("kind = \"go_back_n\"", "kind = \"hf_arq\"").replace("forward = { error_model = \"hf\", channel = \"stable_25\", modem = \"mil-std-188-110b\" }\n", "");
        let sc = Scenario::from_toml(&plain).unwrap();
        for n in &sc.topology.nodes {
            let Some(ProtocolConfig::HfArq(c)) = n.stack.last() else { panic!() };
            assert_eq!(c.link_bps, Some(2400.0));
        }
        let bad = plain.replace("rate_bps = 2400", "rate_bps = 9600");
        assert_eq!(
            problems(&bad),
            vec!["medium[0].rate_bps = 9600: expected a data rate of the hf_arq modem \"mil-std-188-110b\" (75, 150, 300, 600, 1200, 2400, 4800): on a link without an hf error model the modem sends at the link's rate"]
        );
        // On an hf lane the modem chooses its rate per transmission.
        let hf = hf().replace("kind = \"go_back_n\"", "kind = \"hf_arq\"");
        let sc = Scenario::from_toml(&hf).unwrap();
        let Some(ProtocolConfig::HfArq(c)) = sc.topology.nodes[0].stack.last() else { panic!() };
        assert_eq!(c.link_bps, None, "a sends on the hf lane");
        let Some(ProtocolConfig::HfArq(c)) = sc.topology.nodes[1].stack.last() else { panic!() };
        assert_eq!(c.link_bps, Some(2400.0), "b's lane (reverse) is plain");
    }

    /// The rule above at a router: an interface's `hf_arq` on a plain link is bound to
    /// that link's rate like a host's (unbound, its modem chose rates from its whole
    /// 75–4800 bit/s table on a 2400 bit/s line: composition (b) ran at 92.9 bit/s).
    #[test]
    fn hf_arq_at_a_router_interface_on_a_plain_link_sends_at_the_link_rate() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/compose/tcp_over_hf_between_lans.toml");
        let text = std::fs::read_to_string(path).unwrap();
        let sc = Scenario::from_toml(&text).unwrap();
        for r in &sc.topology.relays {
            let hf: Vec<_> = r.links.iter().filter_map(|l| match l {
                Some(ProtocolConfig::HfArq(c)) => Some(c.link_bps),
                _ => None,
            }).collect();
            assert_eq!(hf, vec![Some(2400.0)], "relay {}", r.config.name);
        }
        let bad = text.replace("rate_bps = 2400.0", "rate_bps = 9600.0");
        assert_eq!(
            problems(&bad),
            vec!["medium[1].rate_bps = 9600: expected a data rate of the hf_arq modem \"mil-std-188-110b\" (75, 150, 300, 600, 1200, 2400, 4800): on a link without an hf error model the modem sends at the link's rate"]
        );
    }

    #[test]
    fn an_hf_lane_judges_a_plain_frame_by_the_mode_of_the_link_rate() {
        // 110B at a constant 12 dB: a 1024-bit packet fails with 0.402161 at 2400 bit/s
        // and 2.048e-7 at 75 bit/s (mode 0), the rate the frame was once judged at.
        let mut p = Default::default();
        let table = ModemTable::load("mil-std-188-110b", "modem", &mut p).unwrap();
        let mut params = HfChannelParams::preset("stable_25").unwrap();
        params.mean.start_db = 12.0;
        params.variation_db = 0.0;
        let mut rng = stream(1, 0, "hf");
        let link_mode = table.mode_at_rate(2400.0).unwrap() as u8;
        let channel = crate::channel::hf::HfChannel::new(&params, &mut rng);
        let mut m = ErrorModel::Hf(Box::new(HfErrors { channel, modem: table.clone(), link_mode }));
        let n = 20_000;
        let errors = (0..n).filter(|_| m.frame_in_error(SimTime::ZERO, 1024, crate::channel::errors::AT_LINK_RATE, &mut rng)).count();
        let (got, want) = (errors as f64 / n as f64, 0.402161);
        assert!((got - want).abs() < 4.0 * (want * (1.0 - want) / n as f64).sqrt(), "{got} vs {want}");
        assert_eq!(table.per(0, 1024, 12.0), 2.048e-7, "mode 0 would have judged it almost error-free");
    }

    #[test]
    fn a_flow_s_bottleneck_is_the_slowest_lane_on_its_path_or_its_own_access_line() {
        let slow = BASE.replace("name = \"l2\"\nends = [\"r\", \"b\"]", "name = \"l2\"\nends = [\"r\", \"b\"]\nrate_bps = 2400");
        let t = Scenario::from_toml(&slow).unwrap().topology;
        assert_eq!((super::bottleneck_bps(&t, 0, 1), super::bottleneck_bps(&t, 1, 0)), (2400.0, 2400.0), "not the first hop's 48000");
        let x25 = BASE.replace("kind = \"go_back_n\"", "layers = [{ kind = \"tcp\" }, { kind = \"x25\", access_rate_bps = 9600 }]").replace("rate_bps = 2400", "").replace("[[relay]]\nname = \"r\"\nbuffer_octets = 1000", "[[relay]]\nname = \"r\"\nkind = \"transit_network\"");
        let t = Scenario::from_toml(&x25).unwrap_or_else(|e| panic!("{e}")).topology;
        assert_eq!(super::bottleneck_bps(&t, 0, 1), 9600.0, "the X.25 access line, not the 48000 bit/s network media");
    }
}
