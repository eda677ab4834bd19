//! The token ring as a topology element: `[[medium]] kind = "token_ring"` with any
//! number of `ends` (the ring's stations in ring order: nodes and relay ports). Its
//! lanes — one per station — are numbered after the two-ended media's lanes.
//!
//! ```toml
//! [[medium]]
//! name = "ring1"
//! kind = "token_ring"
//! ends = ["s1", "s2", "bridge1"]   # downstream order; ends[0] is the active monitor
//! rate_bps = 4e6                   # default for a ring
//! station_delay_bits = 1.0         # repeat latency per station
//! monitor_buffer_bits = 24.0       # active monitor's latency buffer
//! propagation_s = 5e-6             # cable around the ring (5 µs/km)
//! token_bits = 24                  # 3-octet token
//! mac_overhead_octets = 21         # SD AC FC DA SA FCS ED FS
//! holding_time_s = 0.01            # absent: one frame per token
//! ```

use super::elements::{End, MediumConfig, MediumKind};
use crate::channel::RingParams;
use crate::schema::{Problems, Range, Table};

/// Parses the ring's own keys into its medium kind.
pub fn parse_kind(t: &mut Table, p: &mut Problems) -> MediumKind {
    let bits = Range::Closed(0.0, 1e6);
    MediumKind::TokenRing {
        station_delay_bits: t.f64("station_delay_bits", 1.0, bits, p),
        monitor_buffer_bits: t.f64("monitor_buffer_bits", 24.0, bits, p),
        propagation_s: t.f64("propagation_s", 5e-6, Range::Closed(0.0, 1.0), p),
        token_bits: t.f64("token_bits", 24.0, Range::Closed(1.0, 1e6), p),
        mac_overhead_octets: t.f64("mac_overhead_octets", 21.0, bits, p),
        holding_time_s: t.opt_f64("holding_time_s", Range::HalfOpen(0.0, 1e6), p).filter(|&h| h > 0.0),
    }
}

/// A wired ring: its stations, lanes and routes.
#[derive(Clone, Debug, PartialEq)]
pub struct RingSpec {
    pub config: MediumConfig,
    /// Stations in ring order.
    pub stations: Vec<End>,
    /// Lane of station k: `first_lane + k`.
    pub first_lane: u32,
    /// The attachment id relays use for this ring (see `Topology::rings`).
    pub attachment: u32,
    pub lane_streams: Vec<String>,
    pub lane_scopes: Vec<String>,
    /// Destination node → the station that copies a frame for it (the node itself, or
    /// the bridge behind which it lies); `u32::MAX`: unreachable from this ring.
    pub receiver: Vec<u32>,
}

impl RingSpec {
    /// The MAC parameters of this ring.
    pub fn params(&self) -> RingParams {
        let MediumKind::TokenRing { station_delay_bits, monitor_buffer_bits, propagation_s, token_bits, mac_overhead_octets, holding_time_s } = self.config.kind else {
            unreachable!("a ring spec holds a token ring")
        };
        RingParams {
            rate_bps: self.config.rate_bps,
            stations: self.stations.len(),
            station_delay_bits,
            monitor_buffer_bits,
            propagation_s,
            token_bits,
            mac_overhead_octets,
            holding_time_s,
        }
    }

    /// Scope and stream names of each station's lane.
    pub fn names(c: &MediumConfig) -> (Vec<String>, Vec<String>) {
        let streams = c.ends.iter().map(|e| format!("medium.{}.{e}.errors", c.name)).collect();
        let scopes = c.ends.iter().map(|e| format!("link.{}.{e}", c.name)).collect();
        (streams, scopes)
    }
}
