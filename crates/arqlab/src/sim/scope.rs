//! Measure scopes beyond flows: a lane of a medium (`link.<medium>.<from>-><to>`) and a
//! relay's output port (`node.<relay>.<medium>`), each a named set of measures for one
//! window. A [`MeasureSet`] is what every scope reports: (name, value) pairs in a fixed
//! order, serialised as a map.

use super::measure::Measures;
use crate::channel::relay::RelayPort;
use crate::channel::{DirectionCounters, PortCounters};
use crate::engine::SimTime;
use serde::ser::{Serialize, SerializeMap, Serializer};

/// The measures of one scope over one window.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeasureSet(pub Vec<(&'static str, f64)>);

impl MeasureSet {
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.0.iter().copied()
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.0.iter().find(|(k, _)| *k == name).map(|x| x.1)
    }
}

impl From<&Measures> for MeasureSet {
    fn from(m: &Measures) -> MeasureSet {
        MeasureSet(m.iter().collect())
    }
}

impl Serialize for MeasureSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// Names of a lane's measures.
pub const LANE_MEASURES: &[&str] = &["frames_transmitted", "frames_in_error", "bits_transmitted", "frame_error_ratio", "utilisation"];

/// A lane over a window of `span_s` seconds: counts, the fraction of frames corrupted,
/// and the fraction of time its transmitter was busy (preambles included).
pub fn lane_measures(now: &DirectionCounters, open: &DirectionCounters, span_s: f64) -> MeasureSet {
    let frames = (now.frames_transmitted - open.frames_transmitted) as f64;
    let errors = (now.frames_in_error - open.frames_in_error) as f64;
    let busy_s = (now.busy_ps - open.busy_ps) as f64 * 1e-12;
    MeasureSet(vec![
        ("frames_transmitted", frames),
        ("frames_in_error", errors),
        ("bits_transmitted", (now.bits_transmitted - open.bits_transmitted) as f64),
        ("frame_error_ratio", if frames > 0.0 { errors / frames } else { f64::NAN }),
        ("utilisation", if span_s > 0.0 { busy_s / span_s } else { f64::NAN }),
    ])
}

/// Names of a relay port's measures.
pub const PORT_MEASURES: &[&str] = &["frames_offered", "frames_forwarded", "frames_dropped", "loss_ratio", "buffer_octets_mean", "buffer_octets_max"];

/// A relay's output port over a window: what was routed to it, sent, dropped at the
/// full buffer, and the buffer's time-average and maximum occupancy.
pub fn port_measures<F>(port: &RelayPort<F>, open: &PortCounters, now: SimTime) -> MeasureSet {
    let c = &port.counters;
    let offered = (c.frames_offered - open.frames_offered) as f64;
    let dropped = (c.frames_dropped - open.frames_dropped) as f64;
    MeasureSet(vec![
        ("frames_offered", offered),
        ("frames_forwarded", (c.frames_forwarded - open.frames_forwarded) as f64),
        ("frames_dropped", dropped),
        ("loss_ratio", if offered > 0.0 { dropped / offered } else { f64::NAN }),
        ("buffer_octets_mean", port.occupancy.mean(now.as_secs_f64())),
        ("buffer_octets_max", port.occupancy.max()),
    ])
}
