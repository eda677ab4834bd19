//! Independent replications of one scenario, with a sequential stopping rule.
//!
//! With a precision γ, replications are added one at a time after n₀ until every
//! watched measure's half-width is within γ/(1+γ) of its mean, or the cap is hit. The
//! final n is therefore the smallest n ≥ n₀ at which the rule holds — the same answer
//! a parallel executor computing replications in rounds must give.

use super::summary::{precision_rule, precision_status, summarize, Metrics};
use super::{replicate, Replication, SimError};
use crate::scenario::Scenario;
use crate::stats::Status;

pub struct Experiment {
    pub records: Vec<Replication>,
    pub metrics: Metrics,
    /// `Some(reached)` when a precision was asked for.
    pub precision_reached: Option<bool>,
}

/// Runs replications 0, 1, … of `sc` with master seed `seed`.
pub fn run_experiment(sc: &Scenario, seed: u64, replications: Option<u64>, precision: Option<f64>) -> Result<Experiment, SimError> {
    let batch_means = sc.run.method == "batch_means";
    let rule = if batch_means { None } else { precision_rule(sc, precision) };
    let mut records = Vec::new();
    let reached = match rule {
        None => {
            let n = if batch_means { 1 } else { replications.unwrap_or(sc.run.replications) };
            for r in 0..n {
                records.push(replicate(sc, seed, r)?);
            }
            None
        }
        Some(rule) => loop {
            records.push(replicate(sc, seed, records.len() as u64)?);
            if (records.len() as u64) < rule.min_n {
                continue;
            }
            match precision_status(&summarize(&records, false), sc, &rule) {
                Status::Continue => continue,
                Status::Reached => break Some(true),
                Status::CapReached => break Some(false),
            }
        },
    };
    let metrics = summarize(&records, batch_means);
    Ok(Experiment { records, metrics, precision_reached: reached })
}
