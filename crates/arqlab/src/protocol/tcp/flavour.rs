//! TCP flavours (`flavour` in the scenario): the congestion control and the
//! retransmission timer that differ between the TCP of 1983 and today's.
//!
//! | flavour   | window                         | loss recovery                         | RTO                          |
//! |-----------|--------------------------------|---------------------------------------|------------------------------|
//! | `reno`    | min(cwnd, rwnd), RFC 5681      | fast retransmit + recovery            | RFC 6298 (or `rto = "rfc793"`), Karn |
//! | `newreno` | as Reno                        | + partial ACKs, RFC 6582              | as Reno                      |
//! | `bsd42`   | rwnd only (no congestion window) | timeout, go back N over the window  | 4.2BSD's: 2·SRTT in 500 ms ticks, SRTT 0 until timed between two ACKs, `tcp_backoff[]`, no Karn (`bsd42`) |

use super::bsd42::Bsd42Timer;
use super::newreno::NewReno;
use super::{Reno, RtoEstimator, TcpConfig};
use crate::engine::SimTime;

/// The congestion state of a sender.
#[derive(Clone, Debug, PartialEq)]
pub enum Congestion {
    Reno(Reno),
    NewReno(NewReno),
    /// 4.2BSD: no congestion window, no fast retransmit (duplicate ACKs ignored).
    Bsd42,
}

impl Congestion {
    pub fn new(cfg: &TcpConfig) -> Self {
        match cfg.flavour.as_str() {
            "newreno" => Congestion::NewReno(NewReno::new(cfg.mss_octets, cfg.initial_window_segments)),
            "bsd42" => Congestion::Bsd42,
            _ => Congestion::Reno(Reno::new(cfg.mss_octets, cfg.initial_window_segments)),
        }
    }

    fn reno(&self) -> Option<&Reno> {
        match self {
            Congestion::Reno(r) => Some(r),
            Congestion::NewReno(n) => Some(&n.reno),
            Congestion::Bsd42 => None,
        }
    }

    /// cwnd in octets (unbounded without a congestion window).
    pub fn cwnd(&self) -> u64 {
        self.reno().map_or(u64::MAX, |r| r.cwnd)
    }

    pub fn ssthresh(&self) -> u64 {
        self.reno().map_or(u64::MAX, |r| r.ssthresh)
    }

    /// `acked` new octets, up to `ack`. True: retransmit the segment at `ack` now (a
    /// NewReno partial acknowledgement).
    pub fn on_new_ack(&mut self, acked: u64, ack: u64) -> bool {
        match self {
            Congestion::Reno(r) => {
                r.on_new_ack(acked);
                false
            }
            Congestion::NewReno(n) => n.on_new_ack(acked, ack),
            Congestion::Bsd42 => false,
        }
    }

    /// A duplicate ACK. True: fast retransmit the segment at `ack`.
    pub fn on_dupack(&mut self, flight: u64, threshold: u32, ack: u64, snd_max: u64) -> bool {
        match self {
            Congestion::Reno(r) => r.on_dupack(flight, threshold),
            Congestion::NewReno(n) => n.on_dupack(flight, threshold, ack, snd_max),
            Congestion::Bsd42 => false,
        }
    }

    pub fn on_timeout(&mut self, flight: u64, snd_max: u64) {
        match self {
            Congestion::Reno(r) => r.on_timeout(flight),
            Congestion::NewReno(n) => n.on_timeout(flight, snd_max),
            Congestion::Bsd42 => {}
        }
    }
}

/// The retransmission timer of a flavour.
#[derive(Clone, Debug, PartialEq)]
pub enum Timer {
    /// RFC 6298 (or RFC 793's 2·SRTT) in exact time, with Karn's rule.
    Rfc(RtoEstimator),
    /// 4.2BSD's timer; `true`: timed from `tcp_output` as its 6.2 sources (83/11/04) do.
    Bsd42(Bsd42Timer, bool),
}

impl Timer {
    pub fn new(cfg: &TcpConfig) -> Self {
        if cfg.flavour == "bsd42" {
            let from_output = cfg.bsd42_timing == "tcp_output";
            return Timer::Bsd42(Bsd42Timer::new(cfg.initial_rto_s, cfg.min_rto_s, cfg.max_rto_s).with_phase(cfg.bsd42_tick_phase_s), from_output);
        }
        let e = RtoEstimator::new(cfg.initial_rto_s, cfg.min_rto_s, cfg.max_rto_s);
        // RFC 793 §3.7's β = 2, 4.2BSD's value.
        Timer::Rfc(if cfg.rto == "rfc793" { e.rfc793(2.0) } else { e })
    }

    /// When a timer started at `now` expires.
    pub fn deadline(&self, now: SimTime) -> SimTime {
        match self {
            Timer::Rfc(e) => now + e.rto(),
            Timer::Bsd42(b, _) => b.deadline(now),
        }
    }

    /// The segment timed since `sent` was acknowledged at `now`.
    pub fn sample(&mut self, sent: SimTime, now: SimTime) {
        match self {
            Timer::Rfc(e) => e.sample((now - sent).as_secs_f64()),
            Timer::Bsd42(b, _) => b.sample(sent, now),
        }
    }

    pub fn expired(&mut self) {
        match self {
            Timer::Rfc(e) => e.expired(),
            Timer::Bsd42(b, _) => b.expired(),
        }
    }

    /// RFC 6298 §5.7 after a SYN timeout (4.2BSD has no such rule).
    pub fn reinitialise(&mut self, s: f64) {
        if let Timer::Rfc(e) = self {
            e.reinitialise(s);
        }
    }

    /// 4.2BSD (6.1) starts the round-trip timing on every ACK that advances SND.UNA
    /// with data still outstanding; timed from `tcp_output` (6.2) it does not.
    pub fn restarts_on_ack(&self) -> bool {
        matches!(self, Timer::Bsd42(_, false))
    }

    /// An ACK advanced SND.UNA (4.2BSD: `t_rxtshift = 0`).
    pub fn ack_advanced(&mut self) {
        if let Timer::Bsd42(b, _) = self {
            b.ack_advanced();
        }
    }

    /// A new segment sent while nothing is timed starts a timing (4.2BSD's 6.1
    /// tcp_output never does: only its tcp_input starts one, at an advancing ACK; 6.2's
    /// does: `if (t_rtt == 0) { t_rtt = 1; t_rtseq = startseq; }`).
    pub fn times_sends(&self) -> bool {
        matches!(self, Timer::Rfc(_) | Timer::Bsd42(_, true))
    }

    /// The acknowledgement that ends the timing of the segment [seq, end): all of it
    /// (RFC 6298), or, in 4.2BSD's 6.2, any ACK past its first octet
    /// (`SEQ_GT(ti_ack, t_rtseq)`, `t_rtseq` = the segment's start).
    pub fn timed_until(&self, seq: u64, end: u64) -> u64 {
        if matches!(self, Timer::Bsd42(_, true)) { seq + 1 } else { end }
    }

    /// Karn's rule: stop timing a segment once it has been sent again.
    pub fn karn(&self) -> bool {
        matches!(self, Timer::Rfc(_))
    }

    pub fn rto_s(&self) -> f64 {
        match self {
            Timer::Rfc(e) => e.rto_s(),
            Timer::Bsd42(b, _) => b.rto_s(),
        }
    }

    pub fn srtt_s(&self) -> Option<f64> {
        match self {
            Timer::Rfc(e) => e.srtt_s(),
            Timer::Bsd42(b, _) => (b.srtt_s() > 0.0).then(|| b.srtt_s()),
        }
    }

    /// (SRTT, RTTVAR) once measured, for a per-path cache (`rtt_cache`; RFC timers only).
    pub fn estimate(&self) -> Option<(f64, f64)> {
        match self {
            Timer::Rfc(e) => Some((e.srtt_s()?, e.rttvar_s())),
            Timer::Bsd42(..) => None,
        }
    }

    /// Starts from a cached estimate (RFC 9040 temporal sharing).
    pub fn seed(&mut self, (srtt, rttvar): (f64, f64)) {
        if let Timer::Rfc(e) = self {
            e.seed(srtt, rttvar);
        }
    }
}
