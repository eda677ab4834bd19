//! A small schema walker: reads a JSON-like tree field by field, fills defaults, checks
//! ranges and collects *every* problem with its dotted path, then reports keys nobody
//! read as unknown. Each field is declared once, where it is read, with its default and
//! its allowed range, so validation, defaults and the resolved scenario cannot drift apart.

use serde_json::{Map, Value};
use std::fmt;

/// One problem with a scenario: the dotted path, the offending value, what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub value: Option<String>,
    pub expected: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(v) => write!(f, "{} = {}: {}", self.path, v, self.expected),
            None => write!(f, "{}: {}", self.path, self.expected),
        }
    }
}

/// Problems collected while reading a scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    pub fn push(&mut self, path: impl Into<String>, value: Option<&Value>, expected: impl Into<String>) {
        self.0.push(Problem { path: path.into(), value: value.map(show), expected: expected.into() });
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Values longer than this many characters are shortened in messages.
pub const SHOW_MAX_CHARS: usize = 60;

/// A value as the user would write it in TOML, shortened to about [`SHOW_MAX_CHARS`]
/// characters (a message names the value; it does not echo a megabyte back).
pub fn show(v: &Value) -> String {
    let full = match v {
        Value::String(s) => format!("{s:?}"),
        Value::Object(_) => "{…}".to_string(),
        other => other.to_string(),
    };
    shorten(&full)
}

/// `text` cut to [`SHOW_MAX_CHARS`] characters, saying how long it was.
pub fn shorten(text: &str) -> String {
    let n = text.chars().count();
    if n <= SHOW_MAX_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOW_MAX_CHARS - 20).collect();
    format!("{head}… ({n} characters)")
}

/// An allowed range for a number.
#[derive(Clone, Copy, Debug)]
pub enum Range {
    Any,
    /// x > 0
    Positive,
    /// x ≥ 0
    NonNegative,
    /// lo ≤ x ≤ hi
    Closed(f64, f64),
    /// lo ≤ x < hi
    HalfOpen(f64, f64),
    /// lo < x < hi
    Open(f64, f64),
}

impl Range {
    /// Ok, or what is allowed ("expected a number > 0").
    pub fn check(self, x: f64) -> Result<(), String> {
        let ok = match self {
            Range::Any => x.is_finite(),
            Range::Positive => x.is_finite() && x > 0.0,
            Range::NonNegative => x.is_finite() && x >= 0.0,
            Range::Closed(lo, hi) => x >= lo && x <= hi,
            Range::HalfOpen(lo, hi) => x >= lo && x < hi,
            Range::Open(lo, hi) => x > lo && x < hi,
        };
        if ok {
            return Ok(());
        }
        Err(match self {
            Range::Any => "expected a finite number".into(),
            Range::Positive => "expected a number > 0".into(),
            Range::NonNegative => "expected a number >= 0".into(),
            Range::Closed(lo, hi) => format!("expected a number in [{lo}, {hi}]"),
            Range::HalfOpen(lo, hi) => format!("expected a number in [{lo}, {hi})"),
            Range::Open(lo, hi) => format!("expected a number in ({lo}, {hi})"),
        })
    }
}

/// A table being read. Reading a key marks it used; `finish` reports the rest.
pub struct Table<'a> {
    path: String,
    map: Option<&'a Map<String, Value>>,
    used: Vec<String>,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl<'a> Table<'a> {
    /// The root of a scenario. A non-table root is reported and read as empty.
    pub fn root(v: &'a Value, p: &mut Problems) -> Table<'a> {
        match v {
            Value::Object(m) => Table { path: String::new(), map: Some(m), used: vec![] },
            other => {
                p.push("(scenario)", Some(other), "expected a table of sections");
                Table { path: String::new(), map: None, used: vec![] }
            }
        }
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn path_of(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The raw value of `key`, marked as used.
    pub fn raw(&mut self, key: &str) -> Option<&'a Value> {
        let v = self.map.and_then(|m| m.get(key));
        if v.is_some() {
            self.used.push(key.to_string());
        }
        v
    }

    pub fn has(&self, key: &str) -> bool {
        self.map.is_some_and(|m| m.contains_key(key))
    }

    /// A sub-table; missing → an empty table (all defaults). A non-table is reported.
    pub fn table(&mut self, key: &str, p: &mut Problems) -> Table<'a> {
        let path = self.path_of(key);
        match self.raw(key) {
            None => Table { path, map: None, used: vec![] },
            Some(Value::Object(m)) => Table { path, map: Some(m), used: vec![] },
            Some(other) => {
                p.push(path.clone(), Some(other), "expected a table");
                Table { path, map: None, used: vec![] }
            }
        }
    }

    /// An array of tables (`[[node]]`); missing → empty. Elements are named `key[i]`.
    pub fn tables(&mut self, key: &str, p: &mut Problems) -> Vec<Table<'a>> {
        let path = self.path_of(key);
        match self.raw(key) {
            None => vec![],
            Some(Value::Array(xs)) => xs
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let path = format!("{path}[{i}]");
                    match x {
                        Value::Object(m) => Table { path, map: Some(m), used: vec![] },
                        other => {
                            p.push(path.clone(), Some(other), "expected a table");
                            Table { path, map: None, used: vec![] }
                        }
                    }
                })
                .collect(),
            Some(other) => {
                p.push(path, Some(other), "expected an array of tables ([[...]])");
                vec![]
            }
        }
    }

    /// A required string; missing or not a string is reported (returns "").
    pub fn string(&mut self, key: &str, p: &mut Problems) -> String {
        let path = self.path_of(key);
        match self.raw(key) {
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                p.push(path, Some(other), "expected a string");
                String::new()
            }
            None => {
                p.push(path, None, "missing (expected a string)");
                String::new()
            }
        }
    }

    /// The keys of this table, in order (for tables of named entries such as `[stack.x]`).
    pub fn keys(&self) -> Vec<String> {
        self.map.map(|m| m.keys().cloned().collect()).unwrap_or_default()
    }

    /// A number with a default and a range.
    pub fn f64(&mut self, key: &str, default: f64, range: Range, p: &mut Problems) -> f64 {
        let path = self.path_of(key);
        match self.raw(key) {
            None => default,
            Some(v) => match v.as_f64() {
                Some(x) => match range.check(x) {
                    Ok(()) => x,
                    Err(e) => {
                        p.push(path, Some(v), e);
                        default
                    }
                },
                None => {
                    p.push(path, Some(v), "expected a number");
                    default
                }
            },
        }
    }

    /// An optional number (no default): absent → None.
    pub fn opt_f64(&mut self, key: &str, range: Range, p: &mut Problems) -> Option<f64> {
        if self.has(key) {
            Some(self.f64(key, f64::NAN, range, p)).filter(|x| !x.is_nan())
        } else {
            None
        }
    }

    /// A whole number within [lo, hi].
    pub fn u64(&mut self, key: &str, default: u64, lo: u64, hi: u64, p: &mut Problems) -> u64 {
        let path = self.path_of(key);
        match self.raw(key) {
            None => default,
            Some(v) => {
                let n = v.as_u64().or_else(|| {
                    v.as_f64().filter(|x| x.fract() == 0.0 && *x >= 0.0 && *x < 1.8e19).map(|x| x as u64)
                });
                match n {
                    Some(n) if n >= lo && n <= hi => n,
                    _ => {
                        let e = if hi == u64::MAX {
                            format!("expected a whole number >= {lo}")
                        } else {
                            format!("expected a whole number in [{lo}, {hi}]")
                        };
                        p.push(path, Some(v), e);
                        default
                    }
                }
            }
        }
    }

    pub fn bool(&mut self, key: &str, default: bool, p: &mut Problems) -> bool {
        let path = self.path_of(key);
        match self.raw(key) {
            None => default,
            Some(Value::Bool(b)) => *b,
            Some(v) => {
                p.push(path, Some(v), "expected true or false");
                default
            }
        }
    }

    /// One of a fixed set of names.
    pub fn choice(&mut self, key: &str, default: &str, allowed: &[&str], p: &mut Problems) -> String {
        let path = self.path_of(key);
        match self.raw(key) {
            None => default.to_string(),
            Some(Value::String(s)) if allowed.contains(&s.as_str()) => s.clone(),
            Some(v) => {
                p.push(path, Some(v), format!("expected one of {}", quoted(allowed)));
                default.to_string()
            }
        }
    }

    /// A list of strings.
    pub fn strings(&mut self, key: &str, p: &mut Problems) -> Vec<String> {
        let path = self.path_of(key);
        match self.raw(key) {
            None => vec![],
            Some(Value::Array(xs)) if xs.iter().all(Value::is_string) => {
                xs.iter().filter_map(|x| x.as_str().map(String::from)).collect()
            }
            Some(v) => {
                p.push(path, Some(v), "expected a list of strings");
                vec![]
            }
        }
    }

    /// Reports every key that was not read.
    pub fn finish(self, p: &mut Problems) {
        if let Some(m) = self.map {
            for (k, v) in m {
                if !self.used.iter().any(|u| u == k) {
                    p.push(join(&self.path, k), Some(v), "unknown key");
                }
            }
        }
    }

    /// Reports every key not read, naming the keys that would be allowed.
    pub fn finish_with_hint(self, allowed_hint: &str, p: &mut Problems) {
        if let Some(m) = self.map {
            for (k, v) in m {
                if !self.used.iter().any(|u| u == k) {
                    p.push(join(&self.path, k), Some(v), format!("unknown key ({allowed_hint})"));
                }
            }
        }
    }
}

pub fn quoted(xs: &[&str]) -> String {
    xs.iter().map(|x| format!("\"{x}\"")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_values_are_shortened_in_messages() {
        let long = "x".repeat(10_000);
        let v = json!({"title": 5, "kind": long});
        let mut p = Problems::default();
        let mut root = Table::root(&v, &mut p);
        root.choice("kind", "a", &["a"], &mut p);
        let msg = p.0[0].to_string();
        assert!(msg.len() < 200, "{msg}");
        assert!(msg.contains("(10002 characters)"), "{msg}");
        assert_eq!(show(&json!("short")), "\"short\"");
    }

    #[test]
    fn collects_every_problem_with_its_path() {
        let v = json!({"link": {"rate_bps": -5, "delay_s": "x", "bogus": 1}, "other": 2});
        let mut p = Problems::default();
        let mut root = Table::root(&v, &mut p);
        let mut link = root.table("link", &mut p);
        assert_eq!(link.f64("rate_bps", 1.0, Range::Positive, &mut p), 1.0);
        link.f64("delay_s", 0.0, Range::NonNegative, &mut p);
        link.finish(&mut p);
        root.finish(&mut p);
        let msgs: Vec<String> = p.0.iter().map(|x| x.to_string()).collect();
        assert_eq!(
            msgs,
            vec![
                "link.rate_bps = -5: expected a number > 0",
                "link.delay_s = \"x\": expected a number",
                "link.bogus = 1: unknown key",
                "other = 2: unknown key",
            ]
        );
    }
}
