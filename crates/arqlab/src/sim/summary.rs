//! From replications to measures with 95% confidence intervals.
//!
//! Independent replications: one observation per replication, Student-t interval.
//! Batch means: the batches of every run are the observations; adjacent batches are
//! merged while |lag-1 autocorrelation| ≥ 0.1 and at least 10 batches remain.
//! Observations that are undefined (NaN: e.g. no message timed in a batch) are left
//! out, so `n` may differ between measures.

use super::Replication;
use crate::scenario::Scenario;
use crate::stats::{select_batches, student_t, Interval, Precision, Status};
use std::collections::BTreeMap;

/// direction → measure → interval.
pub type Metrics = BTreeMap<String, BTreeMap<String, Interval>>;

pub const LEVEL: f64 = 0.95;

/// Observations of each (direction, measure) across `records`.
fn observations(records: &[Replication]) -> BTreeMap<(String, String), Vec<f64>> {
    let mut obs: BTreeMap<(String, String), Vec<f64>> = BTreeMap::new();
    for r in records {
        for batch in &r.batches {
            for (dir, m) in batch {
                for (name, x) in m.iter() {
                    obs.entry((dir.to_string(), name.to_string())).or_default().push(x);
                }
            }
        }
    }
    // `run.stalled` appears only in the windows of a stalled run (unless the run is a
    // terminating one): every other window did not stall.
    let windows: usize = records.iter().map(|r| r.batches.len()).sum();
    if let Some(xs) = obs.get_mut(&("run".to_string(), "stalled".to_string())) {
        xs.resize(windows, 0.0);
    }
    obs
}

/// Summarizes replications (`batch_means`: treat batches as the observations).
pub fn summarize(records: &[Replication], batch_means: bool) -> Metrics {
    let mut out = Metrics::new();
    for ((dir, name), xs) in observations(records) {
        let finite: Vec<f64> = xs.into_iter().filter(|x| x.is_finite()).collect();
        let iv = if batch_means {
            let (batches, _lag1) = select_batches(&finite, 10, 0.1);
            student_t(&batches, LEVEL)
        } else {
            student_t(&finite, LEVEL)
        };
        out.entry(dir).or_default().insert(name, iv);
    }
    out
}

/// The stopping rule of `sc` (relative precision γ, n₀, cap) if it asks for one.
pub fn precision_rule(sc: &Scenario, precision: Option<f64>) -> Option<Precision> {
    precision.or(sc.run.precision).map(|g| Precision {
        relative: g,
        min_n: sc.run.min_replications,
        max_n: sc.run.max_replications,
    })
}

/// Status of the watched measures of `sc` under `rule`.
pub fn precision_status(metrics: &Metrics, sc: &Scenario, rule: &Precision) -> Status {
    let ivs: Vec<Interval> = sc
        .run
        .watched_measures(sc)
        .iter()
        .map(|dm| {
            // Scopes contain dots (`flow.a->b`); measure names do not.
            let (d, m) = dm.rsplit_once('.').unwrap_or(("", ""));
            metrics.get(d).and_then(|x| x.get(m)).copied().unwrap_or(Interval { mean: f64::NAN, half_width: f64::NAN, n: 0 })
        })
        .collect();
    rule.status(&ivs)
}
