//! IEEE 802.5 token ring MAC (4 Mbit/s, no early token release): a shared medium whose
//! token position is computed, never ticked — no per-station token events.
//!
//! ```text
//!      ┌──── s0 (active monitor: + latency buffer) ──── s1 ────┐
//!      │                                                       │
//!      └──── s(n-1) ──────────── … ─────────────────── s2 ─────┘
//!                 token and frames travel downstream (increasing index)
//! ```
//!
//! Station `p` repeats what it receives after `station_delay_bits`; the active monitor
//! (station 0) adds its latency buffer; the cable adds `propagation_s`, split evenly
//! between the stations. Ring latency L is their sum, and `d(i, j)` is the time from
//! station i to station j downstream (`d(i, i) = L`, one revolution).
//!
//! Rules (validated in `tests/token_ring.rs`):
//! - A station may start a frame only when the free token passes it. The free token
//!   released by station h at time r passes station j at `r + t_token + d(h, j) + k·L`.
//! - A frame occupies the ring until it has returned to its sender: with no early token
//!   release the sender issues a new token at `max(end of its last frame, start of its
//!   last frame + L)`, i.e. after the last frame's header has come back.
//! - One frame per token by default. With a holding time, the holder may start another
//!   frame back to back while less than the holding time has passed since capture.
//! - MAC framing (SD, AC, FC, DA, SA, FCS, ED, FS: 21 octets) is time on the ring before
//!   the PDU's bits: it is the grant's lead time.
//! - A frame is received by station j when its last bit passes j: `end + d(i, j)`.
//!
//! One saturated station then sends a frame every `max(t_f, L) + t_token + L`, the
//! closed form of the validation; N stations form a 1-limited polling system.
//! Priorities and reservations (all stations at one priority) are not modelled.

use crate::engine::{Duration, SimTime};

/// Parameters of one ring.
#[derive(Clone, Debug, PartialEq)]
pub struct RingParams {
    pub rate_bps: f64,
    pub stations: usize,
    /// Repeat latency of each station, bits.
    pub station_delay_bits: f64,
    /// Latency buffer of the active monitor, bits.
    pub monitor_buffer_bits: f64,
    /// Total cable propagation around the ring, seconds.
    pub propagation_s: f64,
    pub token_bits: f64,
    /// MAC framing per frame (octets) — the lead time of every transmission.
    pub mac_overhead_octets: f64,
    /// Token-holding time; `None`: one frame per token.
    pub holding_time_s: Option<f64>,
}

/// Counters of one ring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RingCounters {
    /// Tokens captured.
    pub captures: u64,
    /// Frames started (captures plus back-to-back continuations).
    pub frames: u64,
    /// Time the ring was held (capture to token release), picoseconds.
    pub held_ps: u64,
}

/// One ring's token state.
#[derive(Clone, Debug)]
pub struct TokenRing {
    /// Time from station 0 to station p downstream, picoseconds (`offset[0] = 0`).
    offset: Vec<u64>,
    latency: u64,
    token: u64,
    mac: Duration,
    holding: Option<u64>,
    /// Whether a station holds the token (false before the first capture).
    held: bool,
    /// The last holder (the station that released the token when it is free).
    holder: u32,
    capture: SimTime,
    last_end: SimTime,
    /// When the holder releases (released) the token.
    release: SimTime,
    /// Arrival of each station's last frame (frames of one station arrive in order).
    last_arrival: Vec<SimTime>,
    pub counters: RingCounters,
}

fn ps(s: f64) -> u64 {
    (s * crate::engine::PS_PER_S as f64).round() as u64
}

impl TokenRing {
    pub fn new(p: &RingParams) -> TokenRing {
        let bit = 1.0 / p.rate_bps;
        let n = p.stations.max(1);
        let mut offset = Vec::with_capacity(n);
        let mut at = 0u64;
        for s in 0..n {
            offset.push(at);
            let monitor = if s == 0 { p.monitor_buffer_bits } else { 0.0 };
            at += ps((p.station_delay_bits + monitor) * bit) + ps(p.propagation_s / n as f64);
        }
        TokenRing {
            offset,
            latency: at.max(1),
            token: ps(p.token_bits * bit),
            mac: Duration(ps(p.mac_overhead_octets * 8.0 * bit)),
            holding: p.holding_time_s.map(ps),
            held: false,
            holder: 0,
            capture: SimTime::ZERO,
            last_end: SimTime::ZERO,
            release: SimTime::ZERO,
            last_arrival: vec![SimTime::ZERO; n],
            counters: RingCounters::default(),
        }
    }

    /// Ring latency L (one revolution).
    pub fn latency(&self) -> Duration {
        Duration(self.latency)
    }

    /// Time to transmit the token.
    pub fn token_time(&self) -> Duration {
        Duration(self.token)
    }

    /// MAC framing time of every frame (the grant's lead).
    pub fn mac_time(&self) -> Duration {
        self.mac
    }

    /// Time from station `i` downstream to station `j`; one revolution if `i == j`.
    pub fn distance(&self, i: u32, j: u32) -> Duration {
        let (a, b) = (self.offset[i as usize], self.offset[j as usize]);
        Duration(if b > a { b - a } else { b + self.latency - a })
    }

    /// True if the holder `pos` may start another frame back to back at `now`.
    #[inline]
    fn may_continue(&self, pos: u32, now: SimTime) -> bool {
        self.held && pos == self.holder && now == self.last_end && self.holding.is_some_and(|h| now.0 - self.capture.0 < h)
    }

    /// The first time at or after `t` that the free token passes station `pos`, once
    /// the current holder has released it.
    #[inline]
    fn next_pass(&self, pos: u32, t: SimTime) -> SimTime {
        let first = self.release.0 + self.token + self.distance(self.holder, pos).0;
        if t.0 <= first {
            SimTime(first)
        } else {
            SimTime(first + (t.0 - first).div_ceil(self.latency) * self.latency)
        }
    }

    /// The lead time (MAC framing) if station `pos` may start a frame at `now`.
    #[inline]
    pub fn gate(&self, pos: u32, now: SimTime) -> Option<Duration> {
        if self.may_continue(pos, now) || (now >= self.release && self.next_pass(pos, now) == now) {
            Some(self.mac)
        } else {
            None
        }
    }

    /// The earliest time station `pos` could start, as far as is known at `now` (a lower
    /// bound: an upstream station may capture the token first; the caller re-asks).
    #[inline]
    pub fn ready_at(&self, pos: u32, now: SimTime) -> SimTime {
        if self.last_end >= now && self.may_continue(pos, self.last_end) {
            self.last_end
        } else {
            self.next_pass(pos, now.max(self.release))
        }
    }

    /// Station `pos` started at `now` a frame whose last bit leaves at `end`, addressed
    /// to station `to`. Returns when the frame has been received there.
    #[inline]
    pub fn started(&mut self, pos: u32, now: SimTime, end: SimTime, to: u32) -> SimTime {
        if !self.may_continue(pos, now) {
            if self.held {
                self.counters.held_ps += self.release.0 - self.capture.0;
            }
            self.held = true;
            self.holder = pos;
            self.capture = now;
            self.counters.captures += 1;
        }
        self.counters.frames += 1;
        self.last_end = end;
        self.release = SimTime(end.0.max(now.0 + self.latency));
        let at = (end + self.distance(pos, to)).max(self.last_arrival[pos as usize]);
        self.last_arrival[pos as usize] = at;
        at
    }

    /// Time the ring has been held up to `now` (the current holding counted up to now).
    pub fn held_until(&self, now: SimTime) -> u64 {
        let current = if self.held { self.release.min(now).0.saturating_sub(self.capture.0) } else { 0 };
        self.counters.held_ps + current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(stations: usize) -> RingParams {
        RingParams {
            rate_bps: 4e6,
            stations,
            station_delay_bits: 1.0,
            monitor_buffer_bits: 24.0,
            propagation_s: 0.0,
            token_bits: 24.0,
            mac_overhead_octets: 21.0,
            holding_time_s: None,
        }
    }

    const BIT: u64 = 250_000; // ps at 4 Mbit/s

    #[test]
    fn latency_is_station_bits_plus_monitor_plus_propagation() {
        let r = TokenRing::new(&RingParams { propagation_s: 5e-6, ..params(10) });
        assert_eq!(r.latency(), Duration(34 * BIT + 5_000_000));
        assert_eq!(r.distance(0, 1), Duration(25 * BIT + 500_000), "the monitor's buffer sits after station 0");
        assert_eq!(r.distance(1, 0), Duration(9 * BIT + 4_500_000));
        assert_eq!(r.distance(3, 3), r.latency());
        assert_eq!(r.token_time(), Duration(24 * BIT));
        assert_eq!(r.mac_time(), Duration(168 * BIT));
    }

    #[test]
    fn the_free_token_circulates_and_a_frame_holds_the_ring_until_it_returns() {
        let mut r = TokenRing::new(&params(4));
        let l = r.latency().0; // 28 bits
        // Initially station 0 has just released: station 2 sees the token at token + d(0, 2).
        let t2 = SimTime(24 * BIT + r.distance(0, 2).0);
        assert_eq!(r.ready_at(2, SimTime::ZERO), t2);
        assert_eq!(r.gate(2, t2), Some(r.mac_time()));
        assert_eq!(r.gate(2, SimTime(t2.0 + 1)), None, "the token has passed");
        assert_eq!(r.ready_at(2, SimTime(t2.0 + 1)), SimTime(t2.0 + l), "one revolution later");
        // Station 2 sends a short frame (shorter than L): the ring is held for L.
        let end = SimTime(t2.0 + 10 * BIT);
        let arrival = r.started(2, t2, end, 3);
        assert_eq!(arrival, end + r.distance(2, 3));
        assert_eq!(r.gate(3, SimTime(t2.0 + l)), None);
        let release = t2.0 + l;
        assert_eq!(r.ready_at(3, end), SimTime(release + 24 * BIT + r.distance(2, 3).0));
        assert_eq!(r.ready_at(2, end), SimTime(release + 24 * BIT + l), "the holder waits a revolution");
        assert_eq!(r.gate(2, end), None, "one frame per token");
        assert_eq!(r.counters.captures, 1);
    }

    #[test]
    fn a_holding_time_lets_the_holder_send_back_to_back() {
        let mut r = TokenRing::new(&RingParams { holding_time_s: Some(1e-3), ..params(4) });
        let t0 = r.ready_at(1, SimTime::ZERO);
        let f = Duration(2000 * BIT); // 0.5 ms
        let e1 = t0 + f;
        r.started(1, t0, e1, 2);
        assert_eq!(r.ready_at(1, t0), e1);
        assert_eq!(r.gate(1, e1), Some(r.mac_time()), "0.5 ms < 1 ms: may continue");
        let e2 = e1 + f;
        r.started(1, e1, e2, 2);
        assert_eq!(r.gate(1, e2), None, "1 ms used: the token goes");
        assert_eq!(r.counters, RingCounters { captures: 1, frames: 2, held_ps: 0 });
        assert_eq!(r.held_until(e2 + Duration(r.latency().0)), (e2 - t0).0, "held until the last frame ended (it is longer than L)");
    }
}

#[cfg(test)]
#[path = "token_ring_tests.rs"]
mod rule_tests;
