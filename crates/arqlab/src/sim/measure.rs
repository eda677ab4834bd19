//! Measures of one direction over one measurement window (the post-warm-up run, or
//! one batch of a batch-means run).

use crate::channel::DirectionCounters;
use crate::engine::{SimTime, PS_PER_S};
use crate::protocol::{Counters, Sdu, Service};
use crate::stats::{ExactMean, LogHistogram, TimeAverage};
pub use crate::schema::measures::{Measures, MEASURES};

/// A delivery (or acknowledgement) that broke the flow's contract: always a model bug.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct OrderViolation {
    pub direction: String,
    /// The next message id the receiver was to be given.
    pub expected: u64,
    pub got: u64,
    pub at: SimTime,
    /// "delivered" or "acknowledged".
    pub what: &'static str,
}

impl std::fmt::Display for OrderViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (d, got, at, next) = (&self.direction, self.got, self.at, self.expected);
        if self.what == "acknowledged" {
            write!(f, "{d}: message {got} acknowledged at {at} before it was delivered (next to deliver: {next})")
        } else {
            write!(f, "{d}: message {got} delivered at {at} when {next} was expected (lost, duplicated or out of order)")
        }
    }
}

impl OrderViolation {
    #[cold]
    #[inline(never)]
    fn delivered(direction: &str, got: u64, expected: u64, at: SimTime) -> OrderViolation {
        OrderViolation { direction: direction.to_string(), expected, got, at, what: "delivered" }
    }

    #[cold]
    #[inline(never)]
    fn acknowledged_early(direction: &str, got: u64, expected: u64, at: SimTime) -> OrderViolation {
        OrderViolation { direction: direction.to_string(), expected, got, at, what: "acknowledged" }
    }
}

/// Accumulates one direction's measures.
pub struct DirectionMeter {
    pub name: String,
    /// Next message id the receiver must deliver.
    next_id: u64,
    pub delivered_total: u64,
    pub acknowledged_total: u64,
    /// The last delivery or acknowledgement (or when data became pending): `sim::stall`.
    pub progress_at: SimTime,
    window_start: SimTime,
    /// End of the warm-up: messages that arrived before it are not timed.
    measure_from: Option<SimTime>,
    bits: u64,
    delivered: u64,
    /// Transfer and buffer holding times in picoseconds (only their means are reported).
    transfer: ExactMean,
    transfer_hist: LogHistogram,
    holding: ExactMean,
    rx_buffer: TimeAverage,
    rx_buffer_bits: u64,
    sender_at_start: Counters,
    receiver_at_start: Counters,
    line_at_start: DirectionCounters,
}

impl DirectionMeter {
    pub fn new(name: String) -> Self {
        DirectionMeter {
            name,
            next_id: 0,
            delivered_total: 0,
            acknowledged_total: 0,
            progress_at: SimTime::ZERO,
            window_start: SimTime::ZERO,
            measure_from: None,
            bits: 0,
            delivered: 0,
            transfer: ExactMean::new(),
            transfer_hist: LogHistogram::new(),
            holding: ExactMean::new(),
            rx_buffer: TimeAverage::new(0.0),
            rx_buffer_bits: 0,
            sender_at_start: Counters::default(),
            receiver_at_start: Counters::default(),
            line_at_start: DirectionCounters::default(),
        }
    }

    /// A delivery to the flow's receiver, checked against the flow's service: in order,
    /// exactly once; or (best effort) never duplicated nor reordered, gaps allowed.
    #[inline]
    pub fn delivered(&mut self, now: SimTime, m: &Sdu, service: Service) -> Result<(), OrderViolation> {
        let ok = match service {
            Service::InOrder => m.id == self.next_id,
            Service::BestEffort => m.id >= self.next_id,
            Service::Unordered => true,
        };
        if !ok {
            return Err(OrderViolation::delivered(&self.name, m.id, self.next_id, now));
        }
        self.next_id = if service == Service::Unordered { self.next_id.max(m.id + 1) } else { m.id + 1 };
        self.record(now, m);
        Ok(())
    }

    /// Measures a delivery without checking its order (the pooled scope of all flows).
    #[inline(always)]
    pub fn record(&mut self, now: SimTime, m: &Sdu) {
        self.delivered_total += 1;
        self.progress_at = now;
        if self.timed(m) {
            let t = now - m.born;
            self.transfer.add(t.0);
            self.transfer_hist.add_secs_of_ps(t.0);
        }
        self.bits += m.bits as u64;
        self.delivered += 1;
    }

    /// A positive acknowledgement at the flow's sender. An SDU acknowledged before it
    /// was delivered is a violation of the in-order contract, reported when it happens.
    #[inline]
    pub fn acknowledged(&mut self, now: SimTime, m: &Sdu) -> Result<(), OrderViolation> {
        if m.id >= self.next_id {
            return Err(OrderViolation::acknowledged_early(&self.name, m.id, self.next_id, now));
        }
        self.count_acknowledged(now, m);
        Ok(())
    }

    /// Measures an acknowledgement without checking it (the pooled scope of all flows).
    #[inline]
    pub fn count_acknowledged(&mut self, now: SimTime, m: &Sdu) {
        self.acknowledged_total += 1;
        self.progress_at = now;
        if self.timed(m) {
            self.holding.add((now - m.born).0);
        }
    }

    /// When the current window opened.
    pub fn window_start(&self) -> SimTime {
        self.window_start
    }

    /// Messages that arrived during the warm-up are not timed: their transfer times
    /// would carry the initial transient into the measurements. Messages that straddle
    /// a batch boundary are timed in the batch that delivers them.
    #[inline]
    fn timed(&self, m: &Sdu) -> bool {
        self.measure_from.is_some_and(|t| m.born >= t)
    }

    #[inline]
    pub fn receive_buffer(&mut self, now: SimTime, bits: u64) {
        if bits != self.rx_buffer_bits {
            self.rx_buffer_bits = bits;
            self.rx_buffer.update(now.as_secs_f64(), bits as f64 / 8.0);
        }
    }

    /// Starts a window at `now`, discarding what was accumulated.
    pub fn open(
        &mut self,
        now: SimTime,
        sender: Counters,
        receiver: Counters,
        line: DirectionCounters,
    ) {
        self.window_start = now;
        self.measure_from.get_or_insert(now);
        self.bits = 0;
        self.delivered = 0;
        self.transfer = ExactMean::new();
        self.transfer_hist.clear();
        self.holding = ExactMean::new();
        self.rx_buffer.reset(now.as_secs_f64());
        self.sender_at_start = sender;
        self.receiver_at_start = receiver;
        self.line_at_start = line;
    }

    /// The senders' and receivers' counters accumulated since the window opened.
    pub fn counters_since_open(&self, sender: &Counters, receiver: &Counters) -> (Counters, Counters) {
        (sender.since(&self.sender_at_start), receiver.since(&self.receiver_at_start))
    }

    /// Closes the window at `now` and returns its measures.
    pub fn close(
        &self,
        now: SimTime,
        rate_bps: f64,
        sender: Counters,
        receiver: Counters,
        line: DirectionCounters,
    ) -> Measures {
        let span = (now - self.window_start).as_secs_f64();
        let s = sender.since(&self.sender_at_start);
        let r = receiver.since(&self.receiver_at_start);
        let frames_on_line = line.frames_transmitted - self.line_at_start.frames_transmitted;
        let throughput_bps = if span > 0.0 {
            self.bits as f64 / span
        } else {
            f64::NAN
        };
        Measures {
            throughput_efficiency: throughput_bps / rate_bps,
            throughput_bps,
            transfer_time_s: self.transfer.mean_in(PS_PER_S as f64),
            transfer_time_p95_s: self.transfer_hist.quantile(0.95).unwrap_or(f64::NAN),
            buffer_holding_time_s: self.holding.mean_in(PS_PER_S as f64),
            messages_delivered: self.delivered as f64,
            frames_sent: s.frames_sent as f64,
            frames_retransmitted: s.i_frames_retransmitted as f64,
            retransmitted_reject: s.retransmitted_reject as f64,
            retransmitted_checkpoint: s.retransmitted_checkpoint as f64,
            retransmitted_timeout: s.retransmitted_timeout as f64,
            frames_in_error: (line.frames_in_error - self.line_at_start.frames_in_error) as f64,
            out_of_sequence_discarded: r.out_of_sequence_discarded as f64,
            rejects_sent: r.rejects_sent as f64,
            timeouts: s.timeouts as f64,
            receive_buffer_octets_mean: self.rx_buffer.mean(now.as_secs_f64()),
            receive_buffer_octets_max: self.rx_buffer.max(),
            network_efficiency: if frames_on_line > 0 {
                self.delivered as f64 / frames_on_line as f64
            } else {
                f64::NAN
            },
        }
    }
}
