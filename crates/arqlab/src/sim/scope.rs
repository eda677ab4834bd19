//! Measure scopes beyond flows: a lane of a medium (`link.<medium>.<from>-><to>`), a
//! relay's output port (`node.<relay>.<medium>`), all relay ports together (`node.*`),
//! a token ring (`ring.<medium>`) and the LLC2 connections together (`llc2.*`), each a
//! named set of measures for one window. A [`MeasureSet`] is what every scope reports: (name, value) pairs in a fixed
//! order, serialised as a map.

use super::measure::Measures;
use crate::channel::relay::RelayPort;
use crate::channel::{DirectionCounters, PortCounters};
use crate::protocol::Counters;
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

/// Names of the pooled relay scope's measures (`node.*`).
pub const RELAYS_MEASURES: &[&str] = &["frames_offered", "frames_dropped", "loss_ratio"];

/// Every relay output port together over a window: frames routed to a port, frames
/// dropped at a full buffer, and their ratio (Biersack's bridge losses).
pub fn relays_measures(now: &[PortCounters], open: &[PortCounters]) -> MeasureSet {
    let offered: u64 = now.iter().zip(open).map(|(c, o)| c.frames_offered - o.frames_offered).sum();
    let dropped: u64 = now.iter().zip(open).map(|(c, o)| c.frames_dropped - o.frames_dropped).sum();
    MeasureSet(vec![
        ("frames_offered", offered as f64),
        ("frames_dropped", dropped as f64),
        ("loss_ratio", if offered > 0 { dropped as f64 / offered as f64 } else { f64::NAN }),
    ])
}

/// Names of a token ring's measures (`ring.<medium>`).
pub const RING_MEASURES: &[&str] = &["frames_transmitted", "bits_transmitted", "utilisation"];

/// A token ring over a window: its stations' lanes summed (one frame on the ring at a
/// time, so the busy fractions add up to the ring's).
pub fn ring_measures<'a>(lanes: impl Iterator<Item = (&'a DirectionCounters, &'a DirectionCounters)>, span_s: f64) -> MeasureSet {
    let (mut frames, mut bits, mut busy_ps) = (0u64, 0u64, 0u64);
    for (now, open) in lanes {
        frames += now.frames_transmitted - open.frames_transmitted;
        bits += now.bits_transmitted - open.bits_transmitted;
        busy_ps += now.busy_ps - open.busy_ps;
    }
    MeasureSet(vec![
        ("frames_transmitted", frames as f64),
        ("bits_transmitted", bits as f64),
        ("utilisation", if span_s > 0.0 { busy_ps as f64 * 1e-12 / span_s } else { f64::NAN }),
    ])
}

/// Names of the pooled LLC2 scope's measures (`llc2.*`).
pub const LLC2_MEASURES: &[&str] = &[
    "i_frames_sent",
    "i_frames_retransmitted",
    "i_frames_received",
    "network_efficiency",
    "out_of_sequence_fraction",
    "discarded_fraction",
    "working_window_mean",
    "window_cuts",
];

/// The LLC2 connections together over a window, from the senders' (`s`) and receivers'
/// (`r`) counters and the messages delivered (one I frame each): Biersack's network
/// efficiency (I frames delivered / I frames transmitted), the fraction of received I
/// frames discarded out of sequence within the receive window, the fraction discarded
/// for any reason (duplicates too: Biersack's "out-of-sequence and discarded", every
/// frame with N(S) ≠ V(R) that is not stored), and the working window seen by each I
/// frame sent.
pub fn llc2_measures(s: &Counters, r: &Counters, delivered: f64) -> MeasureSet {
    let ratio = |a: f64, b: u64| if b > 0 { a / b as f64 } else { f64::NAN };
    MeasureSet(vec![
        ("i_frames_sent", s.i_frames_sent as f64),
        ("i_frames_retransmitted", s.i_frames_retransmitted as f64),
        ("i_frames_received", r.i_frames_received as f64),
        ("network_efficiency", ratio(delivered, s.i_frames_sent)),
        ("out_of_sequence_fraction", ratio(r.out_of_sequence_discarded as f64, r.i_frames_received)),
        ("discarded_fraction", ratio((r.out_of_sequence_discarded + r.duplicates_discarded) as f64, r.i_frames_received)),
        ("working_window_mean", ratio(s.window_sum as f64, s.i_frames_sent)),
        ("window_cuts", s.window_cuts as f64),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llc2_ratios_follow_biersack_s_definitions() {
        let s = Counters { i_frames_sent: 200, i_frames_retransmitted: 40, window_sum: 700, window_cuts: 3, ..Counters::default() };
        let r = Counters { i_frames_received: 180, out_of_sequence_discarded: 27, duplicates_discarded: 9, ..Counters::default() };
        let m = llc2_measures(&s, &r, 150.0);
        assert_eq!(m.get("network_efficiency"), Some(0.75), "delivered / transmitted");
        assert_eq!(m.get("out_of_sequence_fraction"), Some(0.15), "discarded in the window / received");
        assert_eq!(m.get("discarded_fraction"), Some(0.2), "discarded in the window or as duplicates / received");
        assert_eq!(m.get("working_window_mean"), Some(3.5));
        assert_eq!(m.get("window_cuts"), Some(3.0));
        assert_eq!(m.iter().map(|(k, _)| k).collect::<Vec<_>>(), LLC2_MEASURES);
        assert!(llc2_measures(&Counters::default(), &Counters::default(), 0.0).get("network_efficiency").unwrap().is_nan());
    }

    #[test]
    fn relay_ports_pool_over_the_window() {
        let open = [PortCounters { frames_offered: 10, frames_forwarded: 10, frames_dropped: 0 }, PortCounters::default()];
        let now = [PortCounters { frames_offered: 60, frames_forwarded: 55, frames_dropped: 5 }, PortCounters { frames_offered: 50, frames_forwarded: 45, frames_dropped: 5 }];
        let m = relays_measures(&now, &open);
        assert_eq!((m.get("frames_offered"), m.get("frames_dropped"), m.get("loss_ratio")), (Some(100.0), Some(10.0), Some(0.1)));
        assert_eq!(m.iter().map(|(k, _)| k).collect::<Vec<_>>(), RELAYS_MEASURES);
    }

    #[test]
    fn a_ring_sums_its_lanes() {
        let lane = |frames, busy_ps| DirectionCounters { frames_transmitted: frames, bits_transmitted: 8 * frames, busy_ps, ..DirectionCounters::default() };
        let (a, b, zero) = (lane(3, 250_000_000_000), lane(1, 500_000_000_000), DirectionCounters::default());
        let m = ring_measures([(&a, &zero), (&b, &zero)].into_iter(), 1.0);
        assert_eq!((m.get("frames_transmitted"), m.get("utilisation")), (Some(4.0), Some(0.75)));
        assert_eq!(m.iter().map(|(k, _)| k).collect::<Vec<_>>(), RING_MEASURES);
    }
}
