//! Traffic sources: what each station's upper layer offers to its protocol entity.
//!
//! - `none`: nothing.
//! - `saturated`: a message is always waiting (the entity's backlog is topped up to one
//!   whenever it takes the last one), for maximum-throughput experiments.
//! - `poisson`: messages arrive in a Poisson stream whose rate gives a target *useful
//!   load* ρ = λ·E(l) / rate (information bits per second over the link rate).
//!   `initial_backlog` messages may wait at time 0 (a start-up transient on purpose).
//! - `bulk`: a finite transfer of `messages` messages, all waiting from time 0 (a
//!   saturated source that runs dry). A run whose flows are all finite ends when the
//!   last one is complete (a terminating run).
//!
//! - `dialogue`: a scripted exchange with the flow's destination ([`dialogue`]), e.g.
//!   Johnson's SMTP and HMTP e-mail sessions; it ends the run when its script is done.
//!
//! Message lengths (information bits) are constant, exponential, uniform or drawn from
//! an empirical table. Buffers are unlimited.

pub mod dialogue;

use crate::engine::{Duration, SimTime, Stream};
use crate::schema::{Problems, Range, Table};
use rand::Rng;
use serde::Serialize;

/// Message length distribution (information bits).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "dist", rename_all = "snake_case")]
pub enum LengthConfig {
    Constant { mean_bits: f64 },
    /// Exponential with the given mean, rounded to whole bits, at least 1 bit.
    Exponential { mean_bits: f64 },
    /// Uniform on whole bits in [min_bits, max_bits].
    Uniform { min_bits: f64, max_bits: f64 },
    /// `values_bits[i]` with probability `weights[i] / Σ weights`.
    Empirical { values_bits: Vec<f64>, weights: Vec<f64> },
}

impl LengthConfig {
    pub fn mean_bits(&self) -> f64 {
        match self {
            LengthConfig::Constant { mean_bits } | LengthConfig::Exponential { mean_bits } => *mean_bits,
            LengthConfig::Uniform { min_bits, max_bits } => 0.5 * (min_bits + max_bits),
            LengthConfig::Empirical { values_bits, weights } => {
                let w: f64 = weights.iter().sum();
                values_bits.iter().zip(weights).map(|(v, p)| v * p).sum::<f64>() / w
            }
        }
    }

    pub fn parse(t: &mut Table, p: &mut Problems) -> LengthConfig {
        let dist = t.choice("dist", "constant", &["constant", "exponential", "uniform", "empirical"], p);
        const MAX: f64 = 4.0e9; // lengths are u32 bits on the line
        let cfg = match dist.as_str() {
            "exponential" => LengthConfig::Exponential { mean_bits: t.f64("mean_bits", 1000.0, Range::Closed(1.0, 1e8), p) },
            "uniform" => {
                let lo = t.f64("min_bits", 1.0, Range::Closed(1.0, MAX), p);
                let hi = t.f64("max_bits", 1000.0, Range::Closed(1.0, MAX), p);
                if hi < lo {
                    // Name the value the user wrote: max_bits when given, else min_bits
                    // (above max_bits' default, which the user never wrote).
                    if t.has("max_bits") {
                        p.push(t.path_of("max_bits"), Some(&hi.into()), format!("expected a number >= min_bits ({lo})"));
                    } else {
                        p.push(
                            t.path_of("min_bits"),
                            Some(&lo.into()),
                            format!("is above the default max_bits ({hi}): give max_bits as well"),
                        );
                    }
                }
                LengthConfig::Uniform { min_bits: lo.round(), max_bits: hi.round().max(lo.round()) }
            }
            "empirical" => {
                let values = number_list(t, "values_bits", Range::Closed(1.0, MAX), p);
                let weights = number_list(t, "weights", Range::NonNegative, p);
                // A list with a bad entry is already reported: no second problem about it.
                let (Some(values), Some(weights)) = (values, weights) else {
                    return LengthConfig::Empirical { values_bits: vec![1.0], weights: vec![1.0] };
                };
                if values.is_empty() {
                    p.push(t.path_of("values_bits"), None, "expected a non-empty list of lengths in bits");
                } else if values.len() != weights.len() {
                    p.push(
                        t.path_of("weights"),
                        None,
                        format!("expected {} weights, one per entry of values_bits (got {})", values.len(), weights.len()),
                    );
                } else if weights.iter().sum::<f64>() <= 0.0 {
                    p.push(t.path_of("weights"), None, "expected weights with a positive sum");
                }
                LengthConfig::Empirical { values_bits: values, weights }
            }
            _ => LengthConfig::Constant { mean_bits: t.f64("mean_bits", 1000.0, Range::Closed(1.0, MAX), p).round() },
        };
        cfg
    }
}

/// A list of numbers in `range` (lengths are rounded to whole bits); None when an entry
/// is bad (each bad entry is reported once, with what is allowed).
fn number_list(t: &mut Table, key: &str, range: Range, p: &mut Problems) -> Option<Vec<f64>> {
    let path = t.path_of(key);
    match t.raw(key) {
        None => Some(vec![]),
        Some(serde_json::Value::Array(xs)) => {
            let mut out = Vec::with_capacity(xs.len());
            let mut ok = true;
            for (i, x) in xs.iter().enumerate() {
                match x.as_f64().map(|v| (v, range.check(v))) {
                    Some((v, Ok(()))) if matches!(range, Range::NonNegative) => out.push(v),
                    Some((v, Ok(()))) => out.push(v.round()),
                    Some((_, Err(e))) => {
                        p.push(format!("{path}[{i}]"), Some(x), e);
                        ok = false;
                    }
                    None => {
                        p.push(format!("{path}[{i}]"), Some(x), "expected a number");
                        ok = false;
                    }
                }
            }
            ok.then_some(out)
        }
        Some(v) => {
            p.push(path, Some(v), "expected a list of numbers");
            None
        }
    }
}

/// The largest `initial_backlog`: every waiting message is held from time 0.
const MAX_INITIAL_BACKLOG: u64 = 10_000_000;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_zero_s(x: &f64) -> bool {
    *x == 0.0
}

/// A station's traffic configuration.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TrafficConfig {
    /// "none" | "saturated" | "poisson" | "bulk" | "dialogue"
    pub kind: String,
    /// Poisson only: useful load ρ in (0, 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// Bulk only: the number of messages of the transfer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub messages: Option<u64>,
    /// Poisson only: messages already waiting at time 0, ahead of the first arrival.
    /// Omitted from the resolved scenario when 0 (the default, a start-empty run).
    #[serde(skip_serializing_if = "is_zero")]
    pub initial_backlog: u64,
    /// Bulk only: when the transfer's messages are written, seconds (default 0). A
    /// transfer that must not overlap a set-up (Comer & Korb's circuits "opened before
    /// each test began") starts after it; measure it from there with `run.warmup_s`.
    #[serde(skip_serializing_if = "is_zero_s")]
    pub start_s: f64,
    pub length: LengthConfig,
    /// Dialogue only: the script (its keys sit in the traffic table).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub dialogue: Option<dialogue::DialogueConfig>,
}

impl TrafficConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> TrafficConfig {
        let kind = t.choice("kind", "none", &["none", "saturated", "poisson", "bulk", "dialogue"], p);
        if kind == "dialogue" {
            let d = dialogue::DialogueConfig::parse(t, p);
            // The script gives the lengths; the resolved form still carries the default.
            let default = LengthConfig::Constant { mean_bits: 1000.0 };
            let mut lt = t.table("length", p);
            if LengthConfig::parse(&mut lt, p) != default {
                p.push(t.path_of("length"), None, "not used with kind = \"dialogue\" (the script gives the lengths)");
            }
            lt.finish(p);
            return TrafficConfig { kind, load: None, messages: None, initial_backlog: 0, start_s: 0.0, length: default, dialogue: Some(d) };
        }
        let messages = if kind == "bulk" {
            Some(t.u64("messages", 1000, 1, 1_000_000_000_000, p))
        } else {
            if t.has("messages") {
                let v = t.raw("messages").cloned();
                p.push(t.path_of("messages"), v.as_ref(), format!("only allowed with kind = \"bulk\" (kind is \"{kind}\")"));
            }
            None
        };
        let load = if kind == "poisson" {
            Some(t.f64("load", 0.5, Range::Open(0.0, 1.0), p))
        } else {
            if t.has("load") {
                let v = t.raw("load").cloned();
                p.push(t.path_of("load"), v.as_ref(), format!("only allowed with kind = \"poisson\" (kind is \"{kind}\")"));
            }
            None
        };
        let initial_backlog = if kind == "poisson" {
            t.u64("initial_backlog", 0, 0, MAX_INITIAL_BACKLOG, p)
        } else {
            if t.has("initial_backlog") {
                let v = t.raw("initial_backlog").cloned();
                p.push(t.path_of("initial_backlog"), v.as_ref(), format!("only allowed with kind = \"poisson\" (kind is \"{kind}\")"));
            }
            0
        };
        let start_s = if kind == "bulk" {
            t.f64("start_s", 0.0, Range::Closed(0.0, 1e9), p)
        } else {
            if t.has("start_s") {
                let v = t.raw("start_s").cloned();
                p.push(t.path_of("start_s"), v.as_ref(), format!("only allowed with kind = \"bulk\" (kind is \"{kind}\")"));
            }
            0.0
        };
        let mut lt = t.table("length", p);
        let length = LengthConfig::parse(&mut lt, p);
        lt.finish(p);
        TrafficConfig { kind, load, messages, initial_backlog, start_s, length, dialogue: None }
    }

    /// The number of messages of a finite (bulk) source.
    pub fn total(&self) -> Option<u64> {
        self.messages.filter(|_| self.kind == "bulk")
    }

    pub fn is_active(&self) -> bool {
        self.kind != "none"
    }

    /// True for sources that end: a bulk transfer or a dialogue.
    pub fn is_finite(&self) -> bool {
        self.total().is_some() || self.dialogue.is_some()
    }
}

/// Draws message lengths.
#[derive(Clone, Debug)]
pub enum Lengths {
    Constant(u32),
    Exponential { mean: f64 },
    Uniform { lo: u32, hi: u32 },
    /// (cumulative probability, bits)
    Empirical(Vec<(f64, u32)>),
}

impl Lengths {
    pub fn new(cfg: &LengthConfig) -> Lengths {
        match cfg {
            LengthConfig::Constant { mean_bits } => Lengths::Constant(*mean_bits as u32),
            LengthConfig::Exponential { mean_bits } => Lengths::Exponential { mean: *mean_bits },
            LengthConfig::Uniform { min_bits, max_bits } => Lengths::Uniform { lo: *min_bits as u32, hi: *max_bits as u32 },
            LengthConfig::Empirical { values_bits, weights } => {
                let total: f64 = weights.iter().sum();
                let mut acc = 0.0;
                let mut table: Vec<(f64, u32)> = values_bits
                    .iter()
                    .zip(weights)
                    .map(|(v, w)| {
                        acc += w / total;
                        (acc, *v as u32)
                    })
                    .collect();
                if let Some(last) = table.last_mut() {
                    last.0 = 1.0;
                }
                Lengths::Empirical(table)
            }
        }
    }

    #[inline]
    pub fn sample(&self, rng: &mut Stream) -> u32 {
        match self {
            Lengths::Constant(b) => *b,
            _ => self.draw(rng),
        }
    }

    /// `sample` for the lengths that take a draw (out of line: a constant length is a
    /// load, on every message of a saturated source).
    #[inline(never)]
    fn draw(&self, rng: &mut Stream) -> u32 {
        match self {
            Lengths::Constant(b) => *b, // (`sample` answers it; kept so `draw` is total)
            Lengths::Exponential { mean } => {
                let u: f64 = 1.0 - rng.random::<f64>();
                ((-u.ln() * mean).round() as u32).max(1)
            }
            Lengths::Uniform { lo, hi } => rng.random_range(*lo..=*hi),
            Lengths::Empirical(table) => {
                let u: f64 = rng.random();
                table.iter().find(|(c, _)| u < *c).map_or(table[table.len() - 1].1, |x| x.1)
            }
        }
    }
}

/// A running traffic source. Arrivals and lengths use separate streams so that, e.g.,
/// changing the length distribution does not change the arrival instants.
pub enum Source {
    None,
    Saturated { lengths: Lengths, rng_len: Stream },
    /// A saturated source with `left` messages to go, from `start` on.
    Bulk { left: u64, start: SimTime, lengths: Lengths, rng_len: Stream },
    /// `initial` messages wait at time 0 (drawn from the length stream first).
    Poisson { mean_gap_s: f64, initial: u64, lengths: Lengths, rng_arr: Stream, rng_len: Stream },
}

impl Source {
    pub fn new(cfg: &TrafficConfig, rate_bps: f64, rng_arr: Stream, rng_len: Stream) -> Source {
        let lengths = Lengths::new(&cfg.length);
        match cfg.kind.as_str() {
            "saturated" => Source::Saturated { lengths, rng_len },
            "bulk" => Source::Bulk { left: cfg.messages.unwrap_or(0), start: SimTime::from_secs_f64(cfg.start_s), lengths, rng_len },
            "poisson" => {
                let lambda = cfg.load.unwrap_or(0.5) * rate_bps / cfg.length.mean_bits();
                Source::Poisson { mean_gap_s: 1.0 / lambda, initial: cfg.initial_backlog, lengths, rng_arr, rng_len }
            }
            _ => Source::None,
        }
    }

    /// Messages waiting at time 0 (a Poisson source's `initial_backlog`).
    pub fn initial_backlog(&self) -> u64 {
        match self {
            Source::Poisson { initial, .. } => *initial,
            _ => 0,
        }
    }

    /// Time from one Poisson arrival to the next.
    #[inline]
    pub fn next_gap(&mut self) -> Option<Duration> {
        match self {
            Source::Poisson { mean_gap_s, rng_arr, .. } => {
                let u: f64 = 1.0 - rng_arr.random::<f64>();
                Some(Duration::from_secs_f64(-u.ln() * *mean_gap_s))
            }
            _ => None,
        }
    }

    #[inline]
    pub fn next_length(&mut self) -> u32 {
        match self {
            Source::Saturated { lengths, rng_len } | Source::Poisson { lengths, rng_len, .. } => lengths.sample(rng_len),
            Source::Bulk { left, lengths, rng_len, .. } => {
                *left = left.saturating_sub(1);
                lengths.sample(rng_len)
            }
            Source::None => 0,
        }
    }

    /// The length of the next message of a source that keeps its sender topped up
    /// (saturated, or bulk from its start until it runs dry); `None` once a bulk
    /// source is done, or before it starts.
    #[inline]
    pub fn take(&mut self, now: SimTime) -> Option<u32> {
        match self {
            Source::Bulk { left: 0, .. } => None,
            Source::Bulk { start, .. } if now < *start => None,
            _ => Some(self.next_length()),
        }
    }

    /// A bulk transfer's start, if after time 0 (the runner wakes its sender then).
    pub fn start(&self) -> Option<SimTime> {
        match self {
            Source::Bulk { start, .. } if *start > SimTime::ZERO => Some(*start),
            _ => None,
        }
    }

    /// A bulk transfer that has not started by `now`: nothing pending yet.
    pub fn waiting(&self, now: SimTime) -> bool {
        matches!(self, Source::Bulk { start, .. } if now < *start)
    }

    /// True for sources that keep their sender topped up (saturated and bulk).
    pub fn is_saturated(&self) -> bool {
        matches!(self, Source::Saturated { .. } | Source::Bulk { .. })
    }
}

/// Sequential message ids for one sender.
#[derive(Default)]
pub struct MessageIds(u64);

impl MessageIds {
    pub fn next(&mut self, bits: u32, now: SimTime, flow: u32) -> crate::protocol::Sdu {
        let id = self.0;
        self.0 += 1;
        crate::protocol::Sdu { id, bits, flow, born: now }
    }
    pub fn issued(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    #[test]
    fn length_means() {
        let mut rng = stream(5, 0, "len");
        for cfg in [
            LengthConfig::Exponential { mean_bits: 1000.0 },
            LengthConfig::Uniform { min_bits: 100.0, max_bits: 300.0 },
            LengthConfig::Empirical { values_bits: vec![100.0, 1000.0], weights: vec![3.0, 1.0] },
        ] {
            let l = Lengths::new(&cfg);
            let n = 200_000;
            let mean = (0..n).map(|_| l.sample(&mut rng) as f64).sum::<f64>() / n as f64;
            assert!((mean - cfg.mean_bits()).abs() / cfg.mean_bits() < 0.01, "{cfg:?}: {mean}");
        }
    }

    #[test]
    fn poisson_rate_gives_the_useful_load() {
        let cfg = TrafficConfig { kind: "poisson".into(), load: Some(0.4), messages: None, initial_backlog: 0, start_s: 0.0, length: LengthConfig::Constant { mean_bits: 1000.0 }, dialogue: None };
        let mut s = Source::new(&cfg, 48_000.0, stream(1, 0, "a"), stream(1, 0, "b"));
        let n = 100_000;
        let total: f64 = (0..n).map(|_| s.next_gap().unwrap().as_secs_f64()).sum();
        let load = n as f64 * 1000.0 / total / 48_000.0;
        assert!((load - 0.4).abs() < 0.01, "{load}");
    }

    fn scenario(traffic: &str) -> Result<crate::scenario::Scenario, crate::scenario::ScenarioError> {
        let text = format!(
            "[run]\nduration_s = 20.0\nreplications = 1\n[link]\nrate_bps = 48000.0\ndelay_s = 0.005\n\
             [protocol]\nkind = \"selective_repeat\"\nwindow = 64\nmodulus = 128\n[traffic.a]\n{traffic}\n"
        );
        crate::scenario::Scenario::from_toml(&text)
    }

    #[test]
    fn an_initial_backlog_is_served_back_to_back_from_time_zero() {
        // N constant messages waiting at t = 0 on an error-free link, the window never
        // limiting (64·t_f ≫ RTT), arrivals negligible (ρ = 10⁻⁹: none in 20 s at
        // λ = 4.8·10⁻⁸/s): message i (0-based) is delivered at (i+1)·t_f + t_p, so the
        // mean transfer time is (N+1)/2·t_f + t_p.
        let n = 200u64;
        let sc = scenario(&format!("kind = \"poisson\"\nload = 1e-9\ninitial_backlog = {n}")).expect("valid");
        let x = crate::sim::run_experiment(&sc, 1, None, None).expect("runs");
        let a = x.records[0].accounting["a_to_b"];
        assert_eq!((a.issued, a.delivered), (n, n), "{a:?}");
        let tf = crate::engine::Duration::transmission(1048, 48_000.0).as_secs_f64();
        let want = (n + 1) as f64 / 2.0 * tf + 0.005;
        let got = x.metrics["a_to_b"]["transfer_time_s"].mean;
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        // The default is a start-empty run: nothing issued without arrivals.
        let sc = scenario("kind = \"poisson\"\nload = 1e-9").expect("valid");
        let x = crate::sim::run_experiment(&sc, 1, None, None).expect("runs");
        assert_eq!(x.records[0].accounting["a_to_b"].issued, 0);
    }

    #[test]
    fn a_bad_initial_backlog_names_the_field() {
        for (traffic, want) in [
            ("kind = \"poisson\"\ninitial_backlog = -1", "traffic.a.initial_backlog = -1: expected a whole number in [0, 10000000]"),
            ("kind = \"poisson\"\ninitial_backlog = 2.5", "traffic.a.initial_backlog = 2.5: expected a whole number in [0, 10000000]"),
            ("kind = \"poisson\"\ninitial_backlog = 10000001", "traffic.a.initial_backlog = 10000001: expected a whole number in [0, 10000000]"),
            ("kind = \"poisson\"\ninitial_backlog = \"many\"", "traffic.a.initial_backlog = \"many\": expected a whole number in [0, 10000000]"),
            ("kind = \"saturated\"\ninitial_backlog = 10", "traffic.a.initial_backlog = 10: only allowed with kind = \"poisson\" (kind is \"saturated\")"),
        ] {
            let e = scenario(traffic).unwrap_err();
            assert_eq!(e.problems(), vec![want], "{traffic}");
        }
    }
}
