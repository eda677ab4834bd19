//! Scenarios as data: a TOML file or a dict, validated into typed configuration with
//! every problem reported at once (dotted path, value, what is allowed). Unknown keys
//! are errors; defaults are filled in, and the *resolved* scenario (every default
//! explicit) serializes back to JSON for storage, hashing and `arqlab check`.

pub use crate::schema::fields;
pub mod compose;
pub mod elements;
pub mod interfaces;
pub mod link;
pub mod network;
pub mod overrides;
pub mod outage;
pub mod reorder;
pub mod ring;
mod routes;
pub mod run;
pub mod topology;
pub mod validate;
mod x25_media;
mod x25_net;
mod x25_sites;

pub use crate::schema::{Problem, Problems, Range, Table};
pub use link::{DirectionConfig, LinkConfig};
pub use crate::schema::MEASURES;
pub use run::RunConfig;
pub use topology::{NetworkConfig, Topology};

use crate::protocol::datagram::DatagramConfig;
pub use crate::protocol::registry::{ProtocolConfig, PROTOCOL_KINDS};
use crate::traffic::TrafficConfig;
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// Traffic offered at each station.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Traffic {
    pub a: TrafficConfig,
    pub b: TrafficConfig,
}

/// A validated scenario.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Scenario {
    #[serde(skip_serializing_if = "String::is_empty")]
    pub title: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub run: RunConfig,
    pub link: LinkConfig,
    pub protocol: ProtocolConfig,
    pub traffic: Traffic,
    /// The explicit form (`[stack.*]`, `[[medium]]`, `[[relay]]`, `[[node]]`,
    /// `[[flow]]`); `None` for the pair shorthand, whose resolved form is unchanged.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub network: Option<NetworkConfig>,
    /// The wired topology either form describes.
    #[serde(skip)]
    pub topology: Topology,
}

/// Why a scenario could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// The text is not valid TOML (the message names the line and column).
    #[error("TOML syntax error: {0}")]
    Syntax(String),
    /// The scenario is well-formed but has invalid fields.
    #[error("{}", .0.0.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
    Invalid(Problems),
}

impl ScenarioError {
    /// One line per problem.
    pub fn problems(&self) -> Vec<String> {
        match self {
            ScenarioError::Syntax(m) => vec![format!("TOML syntax error: {m}")],
            ScenarioError::Invalid(p) => p.0.iter().map(|x| x.to_string()).collect(),
        }
    }
}

impl fmt::Display for Traffic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a: {}, b: {}", self.a.kind, self.b.kind)
    }
}

impl Scenario {
    /// Parses TOML text.
    pub fn from_toml(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_value(&toml_to_json(text)?)
    }

    /// Validates a JSON-like tree (a parsed TOML file or a Python dict).
    pub fn from_value(v: &Value) -> Result<Scenario, ScenarioError> {
        let mut p = Problems::default();
        let mut root = Table::root(v, &mut p);
        let title = string_field(&mut root, "title", &mut p);
        let description = string_field(&mut root, "description", &mut p);

        let mut t = root.table("run", &mut p);
        let run = RunConfig::parse(&mut t, &mut p);
        t.finish(&mut p);

        let explicit = ["node", "medium", "flow", "stack", "relay"].iter().any(|k| root.has(k));
        let (link, protocol, traffic, network) = if explicit {
            for key in ["link", "protocol", "traffic"] {
                if root.has(key) {
                    let v = root.raw(key).cloned();
                    p.push(key, v.as_ref(), "not allowed with [[node]]/[[medium]]/[[flow]] (the explicit form names stacks, media and flows instead)");
                }
            }
            let net = NetworkConfig::parse(&mut root, &mut p);
            // Unknown top-level keys ([runn], [[flows]], a `medium[0]` key) are errors here too.
            root.finish_with_hint("expected title, description, run, stack, medium, relay, node, flow or route", &mut p);
            let none = TrafficConfig { kind: "none".into(), load: None, messages: None, initial_backlog: 0, start_s: 0.0, length: crate::traffic::LengthConfig::Constant { mean_bits: 1000.0 }, dialogue: None };
            let link = LinkConfig { rate_bps: 48_000.0, delay_s: 0.0, bit_error_rate: 0.0, a_to_b: None, b_to_a: None, reciprocal: false };
            let protocol = net.stack.values().next().and_then(|s| s.layers.first().cloned()).unwrap_or(ProtocolConfig::Datagram(DatagramConfig { overhead_bits: 0 }));
            (link, protocol, Traffic { a: none.clone(), b: none }, Some(net))
        } else {
            let mut t = root.table("link", &mut p);
            let link = LinkConfig::parse(&mut t, &mut p);
            t.finish(&mut p);

            let mut t = root.table("protocol", &mut p);
            let protocol = ProtocolConfig::parse(&mut t, &mut p);
            if matches!(protocol, ProtocolConfig::Tcp(_)) {
                p.push("protocol.kind", Some(&"tcp".into()), "a link protocol here: TCP runs over one (write a [stack.*] with layers = [{kind = \"tcp\"}, {kind = \"selective_repeat\"}], or over \"x25\")");
            }
            t.finish(&mut p);

            let mut tt = root.table("traffic", &mut p);
            let mut ta = tt.table("a", &mut p);
            let a = TrafficConfig::parse(&mut ta, &mut p);
            ta.finish(&mut p);
            let mut tb = tt.table("b", &mut p);
            let b = TrafficConfig::parse(&mut tb, &mut p);
            tb.finish(&mut p);
            tt.finish(&mut p);
            root.finish(&mut p);
            // A dialogue uses both directions: the other station's own traffic would mix in.
            for (me, other, t) in [("a", "b", &b), ("b", "a", &a)] {
                let mine = if me == "a" { &a } else { &b };
                if mine.dialogue.is_some() && t.is_active() {
                    p.push(format!("traffic.{other}.kind"), Some(&t.kind.as_str().into()), format!("expected \"none\": traffic.{me} is a dialogue, which carries both directions"));
                }
            }
            (link, protocol, Traffic { a, b }, None)
        };
        let topology = match &network {
            Some(net) => {
                // Names and their separators (`validate`, which reads the wired types, so it
                // is called here rather than from `wire`: modules depend one way).
                let wired = net.wire(&mut p);
                let before = p.0.len();
                validate::check_network(net, &mut p);
                wired.filter(|_| p.0.len() == before)
            }
            None => Some(Topology::pair(&link, &protocol, &traffic.a, &traffic.b)),
        };
        let Some(mut topology) = topology else {
            return Err(ScenarioError::Invalid(p));
        };
        validate::bind_modems(&mut topology, network.as_ref(), &mut p);
        x25_sites::resolve(&mut topology, network.as_ref(), &protocol, &mut p);
        let sc = Scenario { title, description, run, link, protocol, traffic, network, topology };
        sc.cross_check(&mut p);
        if p.is_empty() {
            Ok(sc)
        } else {
            Err(ScenarioError::Invalid(p))
        }
    }

    /// Checks that involve more than one section.
    fn cross_check(&self, p: &mut Problems) {
        x25_media::check(self, p);
        reorder::check(&self.topology, p);
        if !self.topology.flows.iter().any(|f| f.traffic.is_active()) {
            if self.network.is_none() {
                p.push("traffic", None, "expected traffic at station a or b (traffic.a.kind or traffic.b.kind other than \"none\")");
            } else {
                p.push("flow", None, "expected a flow with traffic (flow.traffic.kind other than \"none\")");
            }
        }
        // A finite transfer is measured from its start to its completion.
        if let Some(f) = self.topology.flows.iter().find(|f| f.traffic.is_finite()) {
            let (what, unit) = if f.traffic.total().is_some() { ("bulk", "transfer") } else { ("dialogue", "dialogue") };
            if self.run.warmup != "fixed" {
                p.push("run.warmup", Some(&self.run.warmup.as_str().into()), format!("expected \"fixed\" (with run.warmup_s = 0) with {what} traffic: a finite {unit} is measured from its start"));
            } else if self.run.warmup_s > 0.0 && f.traffic.start_s == 0.0 {
                p.push("run.warmup_s", Some(&self.run.warmup_s.into()), format!("expected 0 with {what} traffic: a finite {unit} is measured from its start (run.warmup = \"fixed\")"));
            } else if self.run.warmup_s > 0.0 && self.run.warmup_s != f.traffic.start_s {
                // A transfer written later (traffic.start_s) may be measured from then.
                p.push("run.warmup_s", Some(&self.run.warmup_s.into()), format!("expected 0 or the transfer's start ({} s, traffic.start_s): a finite transfer is measured from its start", f.traffic.start_s));
            }
            if self.run.method != "replications" {
                p.push("run.method", Some(&self.run.method.as_str().into()), format!("expected \"replications\" with {what} traffic: each replication is one {unit}"));
            }
        }
        let mut scopes = self.scopes();
        if !self.topology.pair && self.topology.flows.len() > 1 {
            scopes.push("flow.*".into()); // all flows pooled
        }
        for (i, m) in self.run.precision_measures.iter().enumerate() {
            let ok = m.rsplit_once('.').is_some_and(|(d, name)| scopes.iter().any(|s| s == d) && (MEASURES.contains(&name) || crate::traffic::dialogue::DIALOGUE_MEASURES.contains(&name)));
            if !ok {
                p.push(
                    format!("run.precision_measures[{i}]"),
                    Some(&m.as_str().into()),
                    format!("expected \"<flow>.<measure>\" with a flow among {} and a known measure name", scopes.join(", ")),
                );
            }
        }
        for (name, tr) in self.topology.flows.iter().map(|f| (f.stream.as_str(), &f.traffic)) {
            let max_bits = match &tr.length {
                crate::traffic::LengthConfig::Constant { mean_bits } => *mean_bits,
                crate::traffic::LengthConfig::Exponential { mean_bits } => *mean_bits * 40.0,
                crate::traffic::LengthConfig::Uniform { max_bits, .. } => *max_bits,
                crate::traffic::LengthConfig::Empirical { values_bits, .. } => values_bits.iter().cloned().fold(0.0, f64::max),
            };
            if max_bits > u32::MAX as f64 - 1e6 {
                p.push(format!("traffic.{name}.length"), None, "message lengths must stay below 4e9 bits");
            }
        }
    }

    /// The resolved scenario as JSON (every default explicit). The explicit form has
    /// no `[link]`/`[protocol]`/`[traffic]`.
    pub fn to_value(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        if let (Some(_), Value::Object(m)) = (&self.network, &mut v) {
            for key in ["link", "protocol", "traffic"] {
                m.remove(key);
            }
        }
        v
    }

    /// True if flow `i` (pair form: 0 = a→b, 1 = b→a) offers traffic.
    pub fn loaded(&self, flow: usize) -> bool {
        self.topology.flows.get(flow).is_some_and(|f| f.traffic.is_active())
    }

    /// The flow scope names, in flow order (`a_to_b`, `b_to_a` for the pair form), and
    /// `run` (completion time) when a flow is a finite transfer.
    pub fn scopes(&self) -> Vec<String> {
        let mut out: Vec<String> = self.topology.flows.iter().map(|f| f.scope.clone()).collect();
        if self.topology.flows.iter().any(|f| f.traffic.is_finite()) {
            out.push("run".into());
        }
        out
    }
}

fn string_field(t: &mut Table, key: &str, p: &mut Problems) -> String {
    match t.raw(key) {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => {
            p.push(key, Some(v), "expected a string");
            String::new()
        }
    }
}

/// Parses TOML text into a JSON tree, keeping the line and column of a syntax error.
pub fn toml_to_json(text: &str) -> Result<Value, ScenarioError> {
    let v: toml::Table = toml::from_str(text).map_err(|e| ScenarioError::Syntax(toml_message(&e, text)))?;
    serde_json::to_value(v).map_err(|e| ScenarioError::Syntax(e.to_string()))
}

fn toml_message(e: &toml::de::Error, text: &str) -> String {
    let msg = e.message().trim().to_string();
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            format!("line {line}, column {col}: {msg}")
        }
        None => msg,
    }
}

/// Applies a dotted-key override (`link.bit_error_rate` = 1e-5) to a scenario tree,
/// creating intermediate tables as needed. Fails if a prefix is not a table.
pub fn apply_override(root: &mut Value, dotted: &str, value: Value) -> Result<(), Problem> {
    let parts: Vec<&str> = dotted.split('.').collect();
    if parts.iter().any(|s| s.is_empty()) {
        return Err(Problem { path: dotted.into(), value: None, expected: "expected a dotted key like link.rate_bps".into() });
    }
    let mut cur = root;
    for (i, part) in parts.iter().enumerate() {
        let Value::Object(map) = cur else {
            return Err(Problem {
                path: parts[..i].join("."),
                value: Some(fields::show(cur)),
                expected: format!("expected a table to set {dotted}"),
            });
        };
        if i + 1 == parts.len() {
            map.insert(part.to_string(), value);
            return Ok(());
        }
        cur = map.entry(part.to_string()).or_insert_with(|| Value::Object(Default::default()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const GBN: &str = r#"
[link]
rate_bps = 48000
delay_s = 0.05
bit_error_rate = 1e-5
[protocol]
kind = "go_back_n"
window = 7
[traffic.a]
kind = "saturated"
length = { dist = "constant", mean_bits = 1000 }
"#;

    #[test]
    fn resolves_defaults() {
        let s = Scenario::from_toml(GBN).unwrap();
        let v = s.to_value();
        assert_eq!(v["protocol"]["kind"], "go_back_n");
        assert_eq!(v["protocol"]["modulus"], 8);
        assert_eq!(v["traffic"]["b"]["kind"], "none");
        // The resolved scenario is a fixed point.
        assert_eq!(Scenario::from_value(&v).unwrap(), s);
    }

    #[test]
    fn resolved_scenarios_are_fixed_points_for_every_protocol() {
        // TCP is not a link protocol: it is only valid over x25, in a [stack.*].
        for kind in PROTOCOL_KINDS.iter().filter(|k| **k != "tcp") {
            let mut text = GBN.replace("kind = \"go_back_n\"\nwindow = 7", &format!("kind = \"{kind}\""));
            if *kind == "x25" {
                // X.25 refuses a lossy medium (no RESET/RESTART: it would stall).
                text = text.replace("bit_error_rate = 1e-5", "bit_error_rate = 0.0");
            }
            // hf_arq on a plain link sends at the link's rate: one of its modem's rates.
            if *kind == "hf_arq" {
                text = text.replace("rate_bps = 48000", "rate_bps = 2400");
            }
            let s = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(Scenario::from_value(&s.to_value()).as_ref(), Ok(&s), "{kind}");
        }
        let e = Scenario::from_toml(&GBN.replace("kind = \"go_back_n\"\nwindow = 7", "kind = \"stop_and_wait\"\nwindow = 3"))
            .unwrap_err();
        assert_eq!(
            e.problems(),
            vec!["protocol.window = 3: stop_and_wait has window = 1 by definition (W = 1, M = 2, no reject)"]
        );
    }

    #[test]
    fn every_problem_is_reported() {
        let bad = GBN.replace("rate_bps = 48000", "rate_bps = -5\nspeed = 1").replace("window = 7", "window = 8");
        let e = Scenario::from_toml(&bad).unwrap_err();
        assert_eq!(
            e.problems(),
            vec![
                "link.rate_bps = -5: expected a number in [1, 1000000000000]",
                "link.speed = 1: unknown key",
                "protocol.window = 8: expected a window in [1, 7] (modulus - 1 for modulus 8)",
            ]
        );
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let e = Scenario::from_toml("[link]\nrate_bps = = 3\n").unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("line 2"), "{msg}");
    }

    #[test]
    fn overrides_create_and_replace() {
        let mut v = toml_to_json(GBN).unwrap();
        apply_override(&mut v, "link.bit_error_rate", json!(1e-4)).unwrap();
        apply_override(&mut v, "traffic.b.kind", json!("saturated")).unwrap();
        let s = Scenario::from_value(&v).unwrap();
        assert_eq!(s.link.bit_error_rate, 1e-4);
        assert!(s.loaded(1));
        assert!(apply_override(&mut v, "link.rate_bps.x", json!(1)).is_err());
    }
}
