//! The elements of a topology as data: media, relays, nodes, flows and stacks as
//! written (configurations), and the wired medium with its ends. Shared by the parser
//! (`topology.rs`), token rings (`ring.rs`) and route computation (`routes.rs`), which
//! depend on it and not on each other.

use super::link::{DirectionConfig, LinkConfig};
use super::ProtocolConfig;
use crate::traffic::TrafficConfig;
use serde::Serialize;

/// The kind of a medium.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MediumKind {
    DuplexLink,
    HalfDuplexRadio { turnaround_s: f64, preamble_s: f64 },
    /// IEEE 802.5 token ring over all `ends` (`scenario::ring`, `channel::token_ring`).
    TokenRing {
        station_delay_bits: f64,
        monitor_buffer_bits: f64,
        propagation_s: f64,
        token_bits: f64,
        mac_overhead_octets: f64,
        #[serde(skip_serializing_if = "Option::is_none")]
        holding_time_s: Option<f64>,
    },
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MediumConfig {
    pub name: String,
    #[serde(flatten)]
    pub kind: MediumKind,
    pub ends: Vec<String>,
    pub rate_bps: f64,
    pub delay_s: f64,
    pub bit_error_rate: f64,
    /// Error model of the lane `ends[0]` → `ends[1]` (default: bit errors at `bit_error_rate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forward: Option<DirectionConfig>,
    /// Error model of the lane `ends[1]` → `ends[0]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reverse: Option<DirectionConfig>,
    /// Largest IP datagram the medium carries (octets, header included); IP hosts and
    /// `ip_router` relays fragment to it. Absent: no limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mtu_octets: Option<u32>,
    /// The two lanes sample one HF propagation process (`link::parse_reciprocal`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reciprocal: bool,
    /// Windows in which the medium carries nothing (`scenario::outage`); a duplex link only.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outages: Vec<super::outage::Outage>,
}

impl MediumConfig {
    /// The error model of lane 0 (forward) or 1 (reverse).
    pub fn lane_errors(&self, i: usize) -> DirectionConfig {
        let link = LinkConfig { rate_bps: self.rate_bps, delay_s: self.delay_s, bit_error_rate: self.bit_error_rate, a_to_b: self.forward.clone(), b_to_a: self.reverse.clone(), reciprocal: self.reciprocal };
        link.direction(i)
    }
}

/// A relay's forwarding or transit delay.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "dist", rename_all = "snake_case")]
pub enum DelayConfig {
    Constant { mean_s: f64 },
    Exponential { mean_s: f64 },
    Uniform { min_s: f64, max_s: f64 },
    /// A piecewise-constant mean by time of day (`starts_s` into `period_s`, the clock
    /// reading `clock_at_start_s` at time zero); each delay that mean (`shape =
    /// "constant"`) or exponential with it.
    Profile { starts_s: Vec<f64>, means_s: Vec<f64>, period_s: f64, clock_at_start_s: f64, shape: String },
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RelayConfig {
    pub name: String,
    /// "store_and_forward", "ip_router" (store and forward, plus TTL, MTU and
    /// fragmentation: `channel::ip_router`) or "transit_network".
    pub kind: String,
    /// Drop-tail buffer per output port (octets); absent = unlimited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_octets: Option<f64>,
    /// Store and forward: constant time from last bit in to ready for the output port.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forwarding_time_s: Option<f64>,
    /// Transit network: the delay of each frame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transit_delay: Option<DelayConfig>,
    /// Store and forward: one processor forwards one frame at a time (else in parallel).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub single_processor: bool,
    /// `ip_router` only: the link stack each interface runs under IP (`scenario::interfaces`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub interfaces: Vec<InterfaceConfig>,
}

/// `interfaces = [{ medium = "wan", stack = "lapb" }]`: the router's port on `medium`
/// runs the one-layer `[stack.<stack>]` under IP, as does the station at its other end.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InterfaceConfig {
    pub medium: String,
    pub stack: String,
}

impl RelayConfig {
    /// The forwarding (or transit) delay.
    pub fn delay(&self) -> DelayConfig {
        match (&self.transit_delay, self.forwarding_time_s) {
            (Some(d), _) => d.clone(),
            (None, t) => DelayConfig::Constant { mean_s: t.unwrap_or(0.0) },
        }
    }
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NodeConfig {
    pub name: String,
    pub stack: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FlowConfig {
    pub from: String,
    pub to: String,
    pub traffic: TrafficConfig,
}

/// A stack: its layers, top first.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StackConfig {
    pub layers: Vec<ProtocolConfig>,
}

/// One end of a medium.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Node(u32),
    Relay(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub struct MediumSpec {
    pub config: MediumConfig,
    pub ends: [End; 2],
    /// Random stream and scope name of each lane.
    pub lane_streams: [String; 2],
    pub lane_scopes: [String; 2],
}

