//! X.25 packet level and the IP-to-X.25 interface (RFC 877) over LAPB, as studied by
//! Comer & Korb (1984). See `docs/models/x25.md`.
//!
//! ```text
//!   IP datagrams ──► Interface: per-site queues, circuits, manager (LRU/MLRU/multi)
//!                      │ X.25 packets (P(S)/P(R) mod 8, window W, M-bit sequences)
//!                    AccessLine: DTE LAPB ══ 9600 bit/s ══ DCE LAPB   (HDLC ABM)
//!                      │ packets on the trunk, addressed to the remote DTE
//!                    the network: a medium / transit relay with delay T_N
//! ```
//! [`X25Host`] is the whole stack of one host as one layer: its PDUs are X.25 packets
//! on the DCE's network side; the access line with LAPB at both ends lives inside it.

pub mod access;
pub mod circuit;
pub mod host;
pub mod interface;
pub mod manager;
pub mod packet;
pub mod wire;

pub use host::{Routable, X25Host};
pub use manager::{Policy, PolicyKind};
pub use packet::{Packet, PacketKind};

use crate::engine::Duration;
use crate::schema::{Problems, Range, Table};
use serde::Serialize;
use std::collections::BTreeMap;

/// Parameters of an X.25 host (`kind = "x25"`). Field names are the scenario keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct X25Config {
    /// Packet-level window W (Telenet: 2, the paper's network; X.25 default 2).
    pub window: u32,
    /// Packet sequence modulus (8; 128 for extended sequencing).
    pub modulus: u32,
    /// Maximum user data per packet, octets (X.25 default 128).
    pub packet_octets: u32,
    /// The receiver's acknowledgement timer: P(R) goes back when W packets are
    /// unacknowledged or after this long (the paper's "extremely long time").
    pub ack_timer_s: f64,
    /// Virtual circuits the host may have at once (its logical channels).
    pub channels: u32,
    /// Time the called host takes to accept a call (network and host processing
    /// beyond the packets' own transmission and transit).
    pub call_setup_s: f64,
    /// IP header added to every datagram, bits (20 octets).
    pub ip_header_bits: u32,
    /// Datagrams of at most this many octets go in the small (priority) queue.
    pub small_datagram_octets: u32,
    /// Circuit manager: "lru", "mlru" or "multi_mlru".
    pub policy: PolicyKind,
    /// multi_mlru: circuits opened to one site at most.
    pub c_max: u32,
    /// multi_mlru: C_max for the named sites (node names), in place of `c_max` for
    /// them (one site allowed more circuits than the others: §6's gateway).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub site_c_max: BTreeMap<String, u32>,
    /// `site_c_max` with each name resolved to its node number by the scenario
    /// (`scenario::x25_sites`); not a key.
    #[serde(skip)]
    pub site_c_max_nodes: Vec<(u32, u32)>,
    /// mlru, multi_mlru: minimum time a circuit stays open before it may be closed.
    pub t_min_s: f64,
    /// multi_mlru: minimum time between opens to one site.
    pub t_open_s: f64,
    /// mlru, multi_mlru: channels reserved for incoming calls.
    pub k_reserved: u32,
    /// A close of a circuit open less than this counts as thrashing.
    pub thrash_window_s: f64,
    /// Circuits opened at the start to every site this host sends to (Fig. 3: "the
    /// required virtual circuits were opened before each test began").
    pub preopen_circuits: u32,
    /// The DTE–DCE access line.
    pub access_rate_bps: f64,
    /// LAPB window k, T1 and N(R)-only frame overhead on the access line.
    pub lapb_window: u32,
    pub lapb_t1_s: f64,
    pub lapb_overhead_bits: u32,
    /// LAPB acknowledgement delay T2 (X.25 §2.4.8.2: T2 < T1): how long a received I
    /// frame may wait for an outgoing I frame to carry its N(R) before an RR is sent.
    /// Default 0.1 s (a tenth of T1): a reply made at the same instant carries N(R); 0
    /// sends an RR at once, ahead of that reply (the model before issue 26).
    pub lapb_t2_s: f64,
    /// The host's processing per packet it hands to LAPB (data, RR and call packets),
    /// not overlapped with the packet's transmission: with it each packet of a burst
    /// costs T_p + this, as eq. 1's W (T_p + T_f) counts T_f. Default 0: the frame-level
    /// delay then emerges from LAPB alone (and the key is left out of the resolved form).
    #[serde(skip_serializing_if = "is_zero")]
    pub host_processing_s: f64,
    /// The interface's send queue, datagrams (4.2BSD's IFQ_MAXLEN = 50): the layer
    /// above (TCP) hands every datagram it sends at once, and one that finds this many
    /// waiting for a circuit is dropped (`ifq_drops`). Absent (the default): the layer
    /// above is asked for one datagram whenever none waits (`protocol::stacked`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interface_queue: Option<u32>,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for X25Config {
    fn default() -> Self {
        X25Config {
            window: 2,
            modulus: 8,
            packet_octets: 128,
            ack_timer_s: 2.0,
            channels: 16,
            call_setup_s: 0.0,
            ip_header_bits: 160,
            small_datagram_octets: 64,
            policy: PolicyKind::Mlru,
            c_max: 1,
            site_c_max: BTreeMap::new(),
            site_c_max_nodes: vec![],
            t_min_s: 60.0,
            t_open_s: 1.0,
            k_reserved: 2,
            thrash_window_s: 60.0,
            preopen_circuits: 0,
            access_rate_bps: 9600.0,
            lapb_window: 7,
            lapb_t1_s: 1.0,
            lapb_overhead_bits: 48,
            lapb_t2_s: 0.1,
            host_processing_s: 0.0,
            interface_queue: None,
        }
    }
}

impl X25Config {
    pub fn policy(&self) -> Policy {
        Policy {
            kind: self.policy,
            c_max: self.c_max,
            site_c_max: self.site_c_max_nodes.clone(),
            t_min: Duration::from_secs_f64(self.t_min_s),
            t_open: Duration::from_secs_f64(self.t_open_s),
            k_reserved: self.k_reserved,
        }
    }

    pub fn parse(t: &mut Table, p: &mut Problems) -> X25Config {
        let d = X25Config::default();
        let modulus = t.u64("modulus", 8, 8, 128, p) as u32;
        if modulus != 8 && modulus != 128 {
            p.push(t.path_of("modulus"), None, "8 or 128");
        }
        let window = t.u64("window", u64::from(d.window), 1, 127, p) as u32;
        if window >= modulus {
            p.push(t.path_of("window"), None, format!("less than the modulus ({modulus}); got {window}"));
        }
        let policy = match t.choice("policy", "mlru", &["lru", "mlru", "multi_mlru"], p).as_str() {
            "lru" => PolicyKind::Lru,
            "multi_mlru" => PolicyKind::MultiMlru,
            _ => PolicyKind::Mlru,
        };
        let channels = t.u64("channels", u64::from(d.channels), 1, 4095, p) as u32;
        let mut sites = t.table("site_c_max", p);
        let site_c_max: BTreeMap<String, u32> = sites.keys().into_iter().map(|k| (k.clone(), sites.u64(&k, 1, 1, 4095, p) as u32)).collect();
        if !site_c_max.is_empty() && policy != PolicyKind::MultiMlru {
            p.push(sites.path(), None, "only with policy = \"multi_mlru\" (lru and mlru open one circuit per site)");
        }
        sites.finish(p);
        let c = X25Config {
            window,
            modulus,
            packet_octets: t.u64("packet_octets", u64::from(d.packet_octets), 16, 4096, p) as u32,
            ack_timer_s: t.f64("ack_timer_s", d.ack_timer_s, Range::Positive, p),
            channels,
            call_setup_s: t.f64("call_setup_s", d.call_setup_s, Range::NonNegative, p),
            ip_header_bits: t.u64("ip_header_bits", u64::from(d.ip_header_bits), 0, 480, p) as u32,
            small_datagram_octets: t.u64("small_datagram_octets", u64::from(d.small_datagram_octets), 0, 65_535, p) as u32,
            policy,
            c_max: t.u64("c_max", u64::from(d.c_max), 1, 4095, p) as u32,
            site_c_max,
            site_c_max_nodes: vec![],
            t_min_s: t.f64("t_min_s", d.t_min_s, Range::NonNegative, p),
            t_open_s: t.f64("t_open_s", d.t_open_s, Range::NonNegative, p),
            k_reserved: t.u64("k_reserved", u64::from(d.k_reserved), 0, 4095, p) as u32,
            thrash_window_s: t.f64("thrash_window_s", d.thrash_window_s, Range::NonNegative, p),
            preopen_circuits: t.u64("preopen_circuits", 0, 0, 4095, p) as u32,
            access_rate_bps: t.f64("access_rate_bps", d.access_rate_bps, Range::Positive, p),
            lapb_window: t.u64("lapb_window", u64::from(d.lapb_window), 1, 127, p) as u32,
            lapb_t1_s: t.f64("lapb_t1_s", d.lapb_t1_s, Range::Positive, p),
            lapb_overhead_bits: t.u64("lapb_overhead_bits", u64::from(d.lapb_overhead_bits), 0, 1024, p) as u32,
            lapb_t2_s: t.f64("lapb_t2_s", d.lapb_t2_s, Range::NonNegative, p),
            host_processing_s: t.f64("host_processing_s", d.host_processing_s, Range::Closed(0.0, 10.0), p),
            interface_queue: t.has("interface_queue").then(|| t.u64("interface_queue", 50, 1, 1_000_000, p) as u32),
        };
        if c.lapb_t2_s >= c.lapb_t1_s {
            p.push(t.path_of("lapb_t2_s"), None, format!("less than lapb_t1_s ({})", c.lapb_t1_s));
        }
        if c.k_reserved >= channels && c.policy != PolicyKind::Lru {
            p.push(t.path_of("k_reserved"), None, format!("less than channels ({channels})"));
        }
        if c.lapb_window >= 8 {
            p.push(t.path_of("lapb_window"), None, "at most 7 (LAPB modulo 8)");
        }
        c
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod manager_tests;
#[cfg(test)]
mod tcp_tests;
#[cfg(test)]
mod ifq_tests;
#[cfg(test)]
mod interface_tests;
