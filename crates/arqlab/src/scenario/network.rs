//! The explicit form as written: `[stack.*]`, `[[medium]]`, `[[relay]]`, `[[node]]` and
//! `[[flow]]` parsed into configurations with every default explicit and every problem
//! reported with its path. Wiring them into a topology is `topology.rs`.

use super::elements::{DelayConfig, FlowConfig, MediumConfig, MediumKind, NodeConfig, RelayConfig, StackConfig};
use super::link::optional_direction;
use super::ProtocolConfig;
use crate::schema::{Problems, Range, Table};
use crate::traffic::TrafficConfig;
use serde::Serialize;
use std::collections::BTreeMap;

/// The explicit form as written (resolved: every default explicit).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NetworkConfig {
    pub stack: BTreeMap<String, StackConfig>,
    pub medium: Vec<MediumConfig>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub relay: Vec<RelayConfig>,
    pub node: Vec<NodeConfig>,
    pub flow: Vec<FlowConfig>,
}

impl NetworkConfig {
    pub fn parse(root: &mut Table, p: &mut Problems) -> NetworkConfig {
        let mut stack = BTreeMap::new();
        let mut st = root.table("stack", p);
        for name in st.keys() {
            let mut t = st.table(&name, p);
            let layers = if t.has("layers") {
                let layers: Vec<ProtocolConfig> = t
                    .tables("layers", p)
                    .into_iter()
                    .map(|mut l| {
                        let c = ProtocolConfig::parse(&mut l, p);
                        l.finish(p);
                        c
                    })
                    .collect();
                if layers.is_empty() {
                    p.push(t.path_of("layers"), None, "expected at least one layer");
                }
                layers
            } else {
                vec![ProtocolConfig::parse(&mut t, p)]
            };
            t.finish(p);
            stack.insert(name, StackConfig { layers });
        }
        st.finish(p);

        let medium = root
            .tables("medium", p)
            .into_iter()
            .map(|mut t| {
                let name = t.string("name", p);
                let kind = match t.choice("kind", "duplex_link", &["duplex_link", "half_duplex_radio", "token_ring"], p).as_str() {
                    "half_duplex_radio" => MediumKind::HalfDuplexRadio {
                        turnaround_s: t.f64("turnaround_s", 0.0, Range::Closed(0.0, 1e6), p),
                        preamble_s: t.f64("preamble_s", 0.0, Range::Closed(0.0, 1e6), p),
                    },
                    "token_ring" => super::ring::parse_kind(&mut t, p),
                    _ => MediumKind::DuplexLink,
                };
                let ends = t.strings("ends", p);
                let default_rate = if matches!(kind, MediumKind::TokenRing { .. }) { 4e6 } else { 48_000.0 };
                let rate_bps = t.f64("rate_bps", default_rate, Range::Closed(1.0, 1e12), p);
                let delay_s = t.f64("delay_s", 0.0, Range::Closed(0.0, 1e6), p);
                let bit_error_rate = t.f64("bit_error_rate", 0.0, Range::HalfOpen(0.0, 1.0), p);
                let forward = optional_direction(&mut t, "forward", bit_error_rate, p);
                let reverse = optional_direction(&mut t, "reverse", bit_error_rate, p);
                let mtu = f64::from(crate::protocol::ip::MIN_MTU_OCTETS);
                let mtu_octets = t.opt_f64("mtu_octets", Range::Closed(mtu, 65_535.0), p).map(|m| m as u32);
                let outages = super::outage::parse(&mut t, matches!(kind, MediumKind::DuplexLink), p);
                t.finish(p);
                MediumConfig { name, kind, ends, rate_bps, delay_s, bit_error_rate, forward, reverse, mtu_octets, outages }
            })
            .collect();

        let relay = root
            .tables("relay", p)
            .into_iter()
            .map(|mut t| {
                let name = t.string("name", p);
                let kind = t.choice("kind", "store_and_forward", &["store_and_forward", "ip_router", "transit_network"], p);
                let c = if kind == "transit_network" {
                    let mut d = t.table("transit_delay", p);
                    let delay = parse_delay(&mut d, p);
                    d.finish(p);
                    RelayConfig { name, kind, buffer_octets: None, forwarding_time_s: None, transit_delay: Some(delay), single_processor: false }
                } else {
                    let buffer_octets = t.opt_f64("buffer_octets", Range::Closed(1.0, 1e15), p);
                    let f = t.f64("forwarding_time_s", 0.0, Range::Closed(0.0, 1e6), p);
                    let single_processor = t.bool("single_processor", false, p);
                    RelayConfig { name, kind, buffer_octets, forwarding_time_s: Some(f), transit_delay: None, single_processor }
                };
                t.finish(p);
                c
            })
            .collect();

        let node = root
            .tables("node", p)
            .into_iter()
            .map(|mut t| {
                let c = NodeConfig { name: t.string("name", p), stack: t.string("stack", p) };
                t.finish(p);
                c
            })
            .collect();

        let flow = root
            .tables("flow", p)
            .into_iter()
            .map(|mut t| {
                let from = t.string("from", p);
                let to = t.string("to", p);
                let mut tt = t.table("traffic", p);
                let traffic = TrafficConfig::parse(&mut tt, p);
                tt.finish(p);
                t.finish(p);
                FlowConfig { from, to, traffic }
            })
            .collect();
        NetworkConfig { stack, medium, relay, node, flow }
    }
}

fn parse_delay(d: &mut Table, p: &mut Problems) -> DelayConfig {
    let s = Range::Closed(0.0, 1e6);
    match d.choice("dist", "constant", &["constant", "exponential", "uniform", "profile"], p).as_str() {
        "exponential" => DelayConfig::Exponential { mean_s: d.f64("mean_s", 0.235, s, p) },
        "uniform" => {
            let lo = d.f64("min_s", 0.0, s, p);
            let hi = d.f64("max_s", lo, s, p);
            if hi < lo {
                p.push(d.path_of("max_s"), Some(&hi.into()), format!("expected a number >= min_s ({lo})"));
            }
            DelayConfig::Uniform { min_s: lo, max_s: hi.max(lo) }
        }
        "profile" => parse_profile(d, p),
        _ => DelayConfig::Constant { mean_s: d.f64("mean_s", 0.235, s, p) },
    }
}

/// `dist = "profile"`: starts and means of the same length, starts from 0 increasing
/// within the period, the clock at the start within the period.
fn parse_profile(d: &mut Table, p: &mut Problems) -> DelayConfig {
    let period_s = d.f64("period_s", 86_400.0, Range::Closed(1e-3, 1e9), p);
    let starts_s = super::link::numbers(d, "starts_s", p);
    let means_s = super::link::numbers(d, "means_s", p);
    let clock_at_start_s = d.f64("clock_at_start_s", 0.0, Range::Closed(0.0, 1e9), p);
    let shape = d.choice("shape", "constant", &["constant", "exponential"], p);
    if let Some(i) = means_s.iter().position(|&m| !(0.0..=1e6).contains(&m)) {
        p.push(format!("{}[{i}]", d.path_of("means_s")), Some(&means_s[i].into()), "a mean delay in [0, 1e6] seconds");
    }
    if means_s.is_empty() {
        p.push(d.path_of("means_s"), None, "a non-empty list of mean delays (seconds)");
    } else if starts_s.len() != means_s.len() {
        p.push(d.path_of("starts_s"), None, format!("as many starts as means_s ({}), got {}", means_s.len(), starts_s.len()));
    } else if starts_s.first().is_some_and(|&x| x != 0.0) {
        p.push(format!("{}[0]", d.path_of("starts_s")), Some(&starts_s[0].into()), "0 (the first piece starts the period)");
    } else if let Some(i) = (1..starts_s.len()).find(|&i| !(starts_s[i] > starts_s[i - 1] && starts_s[i] < period_s)) {
        p.push(format!("{}[{i}]", d.path_of("starts_s")), Some(&starts_s[i].into()), format!("greater than the previous start and less than period_s ({period_s})"));
    }
    if clock_at_start_s >= period_s {
        p.push(d.path_of("clock_at_start_s"), Some(&clock_at_start_s.into()), format!("less than period_s ({period_s})"));
    }
    DelayConfig::Profile { starts_s, means_s, period_s, clock_at_start_s, shape }
}

