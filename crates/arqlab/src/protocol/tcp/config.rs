//! Scenario keys of the TCP model (`kind = "tcp"`). Defaults cite their RFC.

use crate::schema::{Problems, Range, Table};
use serde::Serialize;

/// Parameters of one TCP endpoint. Field names are the scenario keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TcpConfig {
    /// Maximum segment size in octets (RFC 1122 default 536).
    pub mss_octets: u32,
    /// Receive window advertised by the peer, in octets (fixed: the application reads
    /// every in-order octet at once, so only out-of-order data occupies the buffer).
    /// Default 4096; 2048 under `bsd42` (4.2BSD's `tcp_recvspace`).
    pub receive_window_octets: u32,
    /// Header bits of every segment (TCP 20 octets = 160 bits; options not modelled).
    pub header_bits: u32,
    /// Initial congestion window in segments (RFC 5681 §3.1 allows up to 2–4; 1 is the
    /// 1988 BSD value).
    pub initial_window_segments: u32,
    /// RTO before the first measurement (RFC 6298 §2.1: 1 s).
    pub initial_rto_s: f64,
    /// Lower bound of the RTO (RFC 6298 §2.4: 1 s).
    pub min_rto_s: f64,
    /// Upper bound of the RTO (RFC 6298 §2.5: at least 60 s).
    pub max_rto_s: f64,
    /// Delayed-ACK timer (RFC 1122 §4.2.3.2: at most 0.5 s; BSD 0.2 s); 0 acks every
    /// segment at once.
    pub delayed_ack_s: f64,
    /// Duplicate ACKs that trigger fast retransmit (RFC 5681 §3.2: 3).
    pub dupack_threshold: u32,
    /// Open the connection with the three-way handshake (SYN, SYN-ACK, ACK; RFC 9293
    /// §3.5) under the RFC 6298 timer; off: the connection is open from the start.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub connection_setup: bool,
    /// The RTO rule: "rfc6298" (SRTT + 4·RTTVAR) or "rfc793" (2·SRTT, as 4.2BSD).
    pub rto: String,
    /// "reno" (RFC 5681), "newreno" (RFC 6582 partial acknowledgements) or "bsd42"
    /// (4.2BSD, 1983: no congestion window, no fast retransmit, RTO = 2·SRTT in 500 ms
    /// ticks, no Karn rule; `initial_rto_s` is the RTO before any sample, 1 s by default
    /// since 4.2BSD's SRTT starts at 0 and the RTO is clamped to `TCPTV_MIN`; `min_rto_s`
    /// 1 s, `max_rto_s` 30 s, `receive_window_octets` 2048 by default).
    /// See `flavour`.
    #[serde(skip_serializing_if = "is_reno")]
    pub flavour: String,
    /// `bsd42` only: where the round trip is timed. "tcp_input" (the 4.2 distribution,
    /// 6.1 of 83/07/29: from one advancing ACK to the next) or "tcp_output" (6.2 of
    /// 83/11/04: a new segment from its send to the ACK past its first octet).
    #[serde(skip_serializing_if = "is_tcp_input")]
    pub bsd42_timing: String,
    /// `bsd42` only: the phase of the free-running 500 ms slow-timer clock, seconds in
    /// [0, 0.5): its ticks fall at this offset + k × 500 ms of simulated time. 0 (the
    /// default) puts them on whole half-seconds. A real host's phase relative to a
    /// transfer is unknown: see `bsd42_random_tick_phase`.
    #[serde(skip_serializing_if = "is_zero")]
    pub bsd42_tick_phase_s: f64,
    /// `bsd42` only: draw the tick phase uniformly in [0, 0.5 s) per node and
    /// replication (the stream `tcp.<node>.tick_phase`, deterministic per seed) instead of
    /// `bsd42_tick_phase_s`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bsd42_random_tick_phase: bool,
    /// A new connection of the endpoint starts its RTO estimator from the SRTT and
    /// RTTVAR its previous connection to the peer last had (RFC 9040 §4 temporal
    /// sharing, RFC 2140; 4.4BSD's route metrics); off: RFC 6298 §2.1's initial RTO.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rtt_cache: bool,
}

/// 4.2BSD's default receive window (`tcp_recvspace`, 2 KiB).
pub const BSD42_RECEIVE_WINDOW_OCTETS: u32 = 2048;

fn is_reno(f: &str) -> bool {
    f == "reno"
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

fn is_tcp_input(t: &str) -> bool {
    t == "tcp_input"
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            mss_octets: 536,
            receive_window_octets: 4096,
            header_bits: 160,
            initial_window_segments: 1,
            initial_rto_s: 1.0,
            min_rto_s: 1.0,
            max_rto_s: 60.0,
            delayed_ack_s: 0.2,
            dupack_threshold: 3,
            connection_setup: false,
            rto: "rfc6298".into(),
            flavour: "reno".into(),
            bsd42_timing: "tcp_input".into(),
            bsd42_tick_phase_s: 0.0,
            bsd42_random_tick_phase: false,
            rtt_cache: false,
        }
    }
}

impl TcpConfig {
    /// The configuration node `me` runs in replication `replication` of a run with
    /// `seed`: with `bsd42_random_tick_phase`, the tick phase drawn uniformly in
    /// [0, 0.5 s) from the stream `tcp.<me>.tick_phase`; otherwise itself.
    pub fn for_replication(&self, me: u32, seed: u64, replication: u64) -> std::borrow::Cow<'_, TcpConfig> {
        use rand::Rng;
        if !self.bsd42_random_tick_phase {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut rng = crate::engine::rng::stream(seed, replication, &format!("tcp.{me}.tick_phase"));
        let phase = 0.5 * rng.random::<f64>();
        std::borrow::Cow::Owned(TcpConfig { bsd42_tick_phase_s: phase, bsd42_random_tick_phase: false, ..self.clone() })
    }
}

/// The congestion-control flavours a configuration names (`flavour::Congestion`).
pub const FLAVOURS: &[&str] = &["reno", "newreno", "bsd42"];

impl TcpConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> TcpConfig {
        let d = TcpConfig::default();
        let flavour = t.choice("flavour", "reno", FLAVOURS, p);
        // 4.2BSD's timer constants: t_srtt = 0 before a sample, so the RTO is TCPTV_MIN
        // (1 s); TCPTV_MAX 30 s.
        let (initial_rto, max_rto) = if flavour == "bsd42" { (1.0, 30.0) } else { (d.initial_rto_s, d.max_rto_s) };
        // 4.2BSD's socket receive buffer, the window it advertises: tcp_recvspace = 2048.
        let rwnd = if flavour == "bsd42" { BSD42_RECEIVE_WINDOW_OCTETS } else { d.receive_window_octets };
        let mss = t.u64("mss_octets", d.mss_octets as u64, 1, 65_495, p) as u32;
        let c = TcpConfig {
            mss_octets: mss,
            receive_window_octets: t.u64("receive_window_octets", u64::from(rwnd), 1, 1 << 30, p) as u32,
            header_bits: t.u64("header_bits", d.header_bits as u64, 0, 480, p) as u32,
            initial_window_segments: t.u64("initial_window_segments", d.initial_window_segments as u64, 1, 10, p) as u32,
            initial_rto_s: t.f64("initial_rto_s", initial_rto, Range::Open(0.0, 3600.0), p),
            min_rto_s: t.f64("min_rto_s", d.min_rto_s, Range::Open(0.0, 3600.0), p),
            max_rto_s: t.f64("max_rto_s", max_rto, Range::Open(0.0, 86_400.0), p),
            delayed_ack_s: t.f64("delayed_ack_s", d.delayed_ack_s, Range::Closed(0.0, 0.5), p),
            dupack_threshold: t.u64("dupack_threshold", d.dupack_threshold as u64, 1, 100, p) as u32,
            connection_setup: t.bool("connection_setup", d.connection_setup, p),
            rto: t.choice("rto", "rfc6298", &["rfc6298", "rfc793"], p),
            bsd42_timing: t.choice("bsd42_timing", "tcp_input", &["tcp_input", "tcp_output"], p),
            bsd42_tick_phase_s: t.f64("bsd42_tick_phase_s", 0.0, Range::HalfOpen(0.0, 0.5), p),
            bsd42_random_tick_phase: t.bool("bsd42_random_tick_phase", false, p),
            flavour,
            rtt_cache: t.bool("rtt_cache", false, p),
        };
        if c.flavour != "bsd42" && c.bsd42_timing != "tcp_input" {
            p.push(t.path_of("bsd42_timing"), None, format!("only with flavour = \"bsd42\" (flavour is \"{}\")", c.flavour));
        }
        if c.flavour != "bsd42" && (c.bsd42_tick_phase_s != 0.0 || c.bsd42_random_tick_phase) {
            let key = if c.bsd42_random_tick_phase { "bsd42_random_tick_phase" } else { "bsd42_tick_phase_s" };
            p.push(t.path_of(key), None, format!("only with flavour = \"bsd42\" (flavour is \"{}\")", c.flavour));
        }
        if c.rtt_cache && c.flavour == "bsd42" {
            p.push(t.path_of("rtt_cache"), None, "expected no rtt_cache with flavour = \"bsd42\" (4.2BSD kept no per-path RTT)");
        }
        // The resolved form writes rto = "rfc6298" back: only another rule is refused.
        if c.flavour == "bsd42" && c.rto != "rfc6298" {
            p.push(t.path_of("rto"), None, "expected no rto with flavour = \"bsd42\" (4.2BSD's own timer: 2·SRTT in 500 ms ticks)");
        }
        if c.receive_window_octets < c.mss_octets {
            p.push(t.path_of("receive_window_octets"), None, format!("at least mss_octets ({})", c.mss_octets));
        }
        if c.max_rto_s < c.min_rto_s {
            p.push(t.path_of("max_rto_s"), None, format!("at least min_rto_s ({})", c.min_rto_s));
        }
        c
    }
}
