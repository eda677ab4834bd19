//! `[run]`: how long, how many replications, how precise.

use crate::schema::{Problems, Range, Table};
use super::Scenario;

/// The smallest `run.livelock_events` (`sim::livelock`): with check points every half
/// bound, a bound this low still costs only one cold call per 32 events.
pub const LIVELOCK_EVENTS_FLOOR: u64 = 64;
use serde::Serialize;


#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RunConfig {
    /// Simulated seconds per replication, warm-up included.
    pub duration_s: f64,
    /// Deleted prefix (fixed warm-up), seconds.
    pub warmup_s: f64,
    /// "fixed" or "mser5" (MSER-5 truncation chosen per replication; warmup_s ignored).
    pub warmup: String,
    /// "replications" (independent replications) or "batch_means" (one long run).
    pub method: String,
    /// Number of batches for batch means.
    pub batches: u64,
    /// Replications when no precision is asked for.
    pub replications: u64,
    /// Relative half-width target γ (sequential precision), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision: Option<f64>,
    /// n₀ of the sequential rule: Law & Kelton recommend ≥ 10 (the default); as few as
    /// 2 are accepted for quick exploratory runs.
    pub min_replications: u64,
    pub max_replications: u64,
    /// Measures the precision applies to, "direction.measure"; empty = throughput
    /// efficiency and mean transfer time of each loaded direction.
    pub precision_measures: Vec<String>,
    /// A reliable flow with data pending and no progress for this many times its largest
    /// timer has stalled and ends the run (`sim::stall`; absent: 20; 0: never).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stall_timers: Option<f64>,
    /// Events in a row at one simulated instant that end the run as a livelock
    /// (`sim::livelock`; absent: the default bound, which grows with the run's size).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub livelock_events: Option<u64>,
}

impl RunConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> RunConfig {
        let duration_s = t.f64("duration_s", 1000.0, Range::Closed(1e-9, 1.5e7), p);
        let warmup_s = t.f64("warmup_s", 0.0, Range::NonNegative, p);
        let warmup = t.choice("warmup", "fixed", &["fixed", "mser5"], p);
        let method = t.choice("method", "replications", &["replications", "batch_means"], p);
        // 40 batches leave room to merge twice (40 → 20 → 10) while lag-1 ≥ 0.1.
        let batches = t.u64("batches", 40, 2, 10_000, p);
        let replications = t.u64("replications", 10, 1, 1_000_000, p);
        let precision = t.opt_f64("precision", Range::Open(0.0, 1.0), p);
        let min_replications = t.u64("min_replications", 10, 2, 1_000_000, p);
        let max_replications = t.u64("max_replications", 200, 2, 1_000_000, p);
        let precision_measures = t.strings("precision_measures", p);
        let stall_timers = t.opt_f64("stall_timers", Range::NonNegative, p);
        let livelock_events = t.has("livelock_events").then(|| t.u64("livelock_events", LIVELOCK_EVENTS_FLOOR, LIVELOCK_EVENTS_FLOOR, u64::MAX, p));
        if warmup_s >= duration_s {
            p.push(t.path_of("warmup_s"), Some(&warmup_s.into()), format!("expected a warm-up shorter than run.duration_s ({duration_s})"));
        }
        if max_replications < min_replications {
            p.push(
                t.path_of("max_replications"),
                Some(&max_replications.into()),
                format!("expected a number >= run.min_replications ({min_replications})"),
            );
        }
        if precision.is_some() && method == "batch_means" {
            p.push(t.path_of("precision"), precision.map(Into::into).as_ref(), "sequential precision needs run.method = \"replications\"");
        }
        RunConfig {
            duration_s,
            warmup_s,
            warmup,
            method,
            batches,
            replications,
            precision,
            min_replications,
            max_replications,
            precision_measures,
            stall_timers,
            livelock_events,
        }
    }

    /// The measures the stopping rule watches.
    pub fn watched_measures(&self, sc: &Scenario) -> Vec<String> {
        if !self.precision_measures.is_empty() {
            return self.precision_measures.clone();
        }
        let mut out = vec![];
        for f in sc.topology.flows.iter().filter(|f| f.traffic.is_active()) {
            out.push(format!("{}.throughput_efficiency", f.scope));
            out.push(format!("{}.transfer_time_s", f.scope));
        }
        out
    }
}
