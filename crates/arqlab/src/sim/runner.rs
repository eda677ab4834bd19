//! One replication: two protocol entities, a duplex link and two traffic sources
//! driven by one event queue. Generic over the protocol, so each protocol gets its own
//! monomorphised loop (no dynamic dispatch on the hot path).
//!
//! Order of work after any input to station `s` (documented because results depend on
//! it): drain `poll_event` into the meters; if `s`'s transmitter is idle, top up a
//! saturated source, ask `poll_transmit` and top up again; if the transmitter is busy
//! and the station `wants_transmit`, make sure it is woken when the line frees;
//! re-read `poll_timeout`.

use super::measure::{DirectionMeter, Measures, OrderViolation};
use crate::channel::{BitErrors, Direction, ErrorModel, GilbertElliott};
use crate::engine::{stream, Duration, EventCode, EventQueue, SchedulePastError, SimTime};
use crate::protocol::{Entity, Event, LinkFrame, Station};
use crate::scenario::{DirectionConfig, Scenario};
use crate::trace::{TraceKind, Tracer};
use crate::traffic::{MessageIds, Source};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    /// Station's transmitter finished a frame.
    TxEnd(u8),
    /// The next frame sent by station `.0` has been fully received by its peer.
    Arrival(u8),
    /// A deadline of station `.0` may have been reached.
    Timer(u8),
    /// A Poisson message arrives at station `.0`.
    Message(u8),
    /// A measurement window boundary (end of warm-up, end of a batch).
    Boundary,
    /// The end of the run.
    End,
}

impl EventCode for Ev {
    #[inline]
    fn encode(self) -> u8 {
        match self {
            Ev::TxEnd(s) => s,
            Ev::Arrival(s) => 2 + s,
            Ev::Timer(s) => 4 + s,
            Ev::Message(s) => 6 + s,
            Ev::Boundary => 8,
            Ev::End => 9,
        }
    }
    #[inline]
    fn decode(code: u8) -> Ev {
        match code {
            0 | 1 => Ev::TxEnd(code),
            2 | 3 => Ev::Arrival(code - 2),
            4 | 5 => Ev::Timer(code - 4),
            6 | 7 => Ev::Message(code - 6),
            8 => Ev::Boundary,
            _ => Ev::End,
        }
    }
}

/// Why a replication failed. Both are model bugs, reported with context, never panics.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    #[error("invariant violated: {0}")]
    Order(#[from] OrderViolation),
    #[error("engine error: {0}")]
    Schedule(#[from] SchedulePastError),
    #[error("counters do not balance: {0}")]
    Balance(String),
    /// Not a model failure: [`super::interrupt::request`] was called (Ctrl-C).
    #[error("interrupted")]
    Interrupted,
}

/// Where measurement windows start and end.
#[derive(Clone, Debug)]
pub struct Windows {
    /// Boundaries in increasing order; the first opens the first window (end of the
    /// warm-up), each later one closes a window and opens the next, the last is the end.
    pub boundaries: Vec<SimTime>,
}

impl Windows {
    /// `count` equal windows after `warmup`, up to `end`.
    pub fn equal(warmup: SimTime, end: SimTime, count: u64) -> Windows {
        let span = end.0 - warmup.0;
        let boundaries = (0..=count)
            .map(|k| SimTime(warmup.0 + (span as u128 * k as u128 / count as u128) as u64))
            .collect();
        Windows { boundaries }
    }
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// One entry per window: measures of a→b and b→a.
    pub windows: Vec<[Measures; 2]>,
    pub events: u64,
    pub simulated: SimTime,
    /// Hash of the event trajectory (times and kinds).
    pub fingerprint: u64,
    /// Whole-run message accounting per direction: (issued, delivered, acknowledged, unacknowledged at end).
    pub accounting: [(u64, u64, u64, u64); 2],
    /// The trace, if one was asked for.
    pub trace: Option<Tracer>,
}

struct Sim<P: Entity> {
    q: EventQueue<Ev>,
    st: [P; 2],
    line: [Direction<P::Frame>; 2],
    src: [Source; 2],
    ids: [MessageIds; 2],
    /// Time of the timer wake-up each station has in the queue, if any.
    wake: [Option<SimTime>; 2],
    /// A TxEnd wake-up is in the queue for the station.
    tx_wake: [bool; 2],
    meter: [DirectionMeter; 2],
    rate_bps: f64,
    events: u64,
    fingerprint: u64,
    trace: Option<Tracer>,
}

fn error_model(cfg: &DirectionConfig, rng: &mut crate::engine::Stream) -> ErrorModel {
    match *cfg {
        DirectionConfig::None => ErrorModel::None,
        DirectionConfig::Bit { bit_error_rate } if bit_error_rate > 0.0 => {
            ErrorModel::Bit(BitErrors::new(bit_error_rate, rng))
        }
        DirectionConfig::Bit { .. } => ErrorModel::None,
        DirectionConfig::GilbertElliott {
            good_ber,
            bad_ber,
            mean_good_bits,
            mean_bad_bits,
        } => ErrorModel::GilbertElliott(GilbertElliott::new(
            good_ber,
            bad_ber,
            mean_good_bits,
            mean_bad_bits,
            rng,
        )),
    }
}

/// Runs one replication of `sc` with entities made by `make`, recording a frame-level
/// trace into `trace` if given (the trajectory is the same either way).
pub fn run<P: Entity>(
    sc: &Scenario,
    seed: u64,
    replication: u64,
    windows: &Windows,
    trace: Option<Tracer>,
    make: impl Fn(Station) -> P,
) -> Result<RunOutput, SimError> {
    let delay = Duration::from_secs_f64(sc.link.delay_s);
    let dir = |i: usize, name: &str| {
        let mut rng = stream(seed, replication, name);
        let em = error_model(&sc.link.direction(i), &mut rng);
        Direction::new(sc.link.rate_bps, delay, em, rng)
    };
    let src = |cfg, name: &str| {
        Source::new(
            cfg,
            sc.link.rate_bps,
            stream(seed, replication, &format!("traffic.{name}.arrivals")),
            stream(seed, replication, &format!("traffic.{name}.lengths")),
        )
    };
    let mut sim = Sim {
        q: EventQueue::new(),
        st: [make(Station::A), make(Station::B)],
        line: [dir(0, "link.a_to_b.errors"), dir(1, "link.b_to_a.errors")],
        src: [src(&sc.traffic.a, "a"), src(&sc.traffic.b, "b")],
        ids: [MessageIds::default(), MessageIds::default()],
        wake: [None, None],
        tx_wake: [false, false],
        meter: [DirectionMeter::new("a_to_b"), DirectionMeter::new("b_to_a")],
        rate_bps: sc.link.rate_bps,
        events: 0,
        fingerprint: 0xcbf2_9ce4_8422_2325,
        trace,
    };
    sim.start(windows)?;
    sim.run(windows)
}

impl<P: Entity> Sim<P> {
    fn start(&mut self, windows: &Windows) -> Result<(), SimError> {
        let n = windows.boundaries.len();
        for (k, &b) in windows.boundaries.iter().enumerate() {
            self.q
                .schedule(b, if k + 1 == n { Ev::End } else { Ev::Boundary })?;
        }
        for s in 0..2 {
            if let Some(gap) = self.src[s].next_gap() {
                self.q.schedule(SimTime::ZERO + gap, Ev::Message(s as u8))?;
            }
            self.after_input(s, SimTime::ZERO)?;
        }
        Ok(())
    }

    fn run(mut self, windows: &Windows) -> Result<RunOutput, SimError> {
        let mut out = Vec::with_capacity(windows.boundaries.len());
        let mut boundary = 0usize;
        let mut end = SimTime::ZERO;
        while let Some((now, ev)) = self.q.pop() {
            self.events += 1;
            if super::interrupt::should_stop(self.events) {
                return Err(SimError::Interrupted);
            }
            self.fingerprint =
                (self.fingerprint ^ now.0).wrapping_mul(0x0000_0100_0000_01b3) ^ ev.encode() as u64;
            match ev {
                Ev::TxEnd(s) => {
                    self.tx_wake[s as usize] = false;
                    self.after_input(s as usize, now)?
                }
                Ev::Arrival(s) => {
                    let s = s as usize;
                    let r = 1 - s;
                    if let Some((frame, in_error)) = self.line[s].take_arrival() {
                        if self.trace.is_some() {
                            let kind = if in_error {
                                TraceKind::ReceiveInError
                            } else {
                                TraceKind::Receive
                            };
                            self.record(now, r, kind, Some(&frame));
                        }
                        if in_error {
                            self.st[r].handle_frame_in_error(now, &frame);
                        } else {
                            self.st[r].handle_frame(now, &frame);
                        }
                    }
                    self.after_input(r, now)?;
                }
                Ev::Timer(s) => {
                    let s = s as usize;
                    if self.wake[s] == Some(now) {
                        self.wake[s] = None;
                    }
                    // Only a traced run reads the counters to see whether the timer fired.
                    let before = self.trace.is_some().then(|| self.st[s].counters().timeouts);
                    self.st[s].handle_timeout(now);
                    if before.is_some_and(|b| self.st[s].counters().timeouts > b) {
                        self.record(now, s, TraceKind::Timeout, None);
                    }
                    self.after_input(s, now)?;
                }
                Ev::Message(s) => {
                    let s = s as usize;
                    let bits = self.src[s].next_length();
                    let m = self.ids[s].next(bits, now);
                    self.st[s].handle_submit(now, m);
                    if let Some(gap) = self.src[s].next_gap() {
                        self.q.schedule(now + gap, Ev::Message(s as u8))?;
                    }
                    self.after_input(s, now)?;
                }
                Ev::Boundary | Ev::End => {
                    if boundary > 0 {
                        out.push([self.close(0, now), self.close(1, now)]);
                    }
                    boundary += 1;
                    if ev == Ev::End {
                        end = now;
                        break;
                    }
                    self.open(now);
                }
            }
        }
        let mut accounting = [(0, 0, 0, 0); 2];
        for s in 0..2 {
            let m = &self.meter[s];
            let acc = (
                self.ids[s].issued(),
                m.delivered_total,
                m.acknowledged_total,
                self.st[s].unacknowledged() as u64,
            );
            // Every message issued is either acknowledged or still held by its sender,
            // and nothing is acknowledged before it is delivered.
            if acc.0 != acc.2 + acc.3 || acc.2 > acc.1 || acc.1 > acc.0 {
                return Err(SimError::Balance(format!(
                    "{}: issued {} delivered {} acknowledged {} unacknowledged {}",
                    m.name, acc.0, acc.1, acc.2, acc.3
                )));
            }
            accounting[s] = acc;
        }
        Ok(RunOutput {
            windows: out,
            events: self.events,
            simulated: end,
            fingerprint: self.fingerprint,
            accounting,
            trace: self.trace,
        })
    }

    #[cold]
    fn record(&mut self, now: SimTime, s: usize, kind: TraceKind, frame: Option<&P::Frame>) {
        let (queued, unacknowledged) = (self.st[s].backlog(), self.st[s].unacknowledged());
        if let Some(t) = self.trace.as_mut() {
            t.push(
                now,
                s,
                kind,
                frame.map(|f| f.trace()),
                queued,
                unacknowledged,
            );
        }
    }

    fn open(&mut self, now: SimTime) {
        for d in 0..2 {
            let (sender, receiver) = (self.st[d].counters(), self.st[1 - d].counters());
            self.meter[d].open(now, sender, receiver, self.line[d].counters);
        }
    }

    fn close(&self, d: usize, now: SimTime) -> Measures {
        self.meter[d].close(
            now,
            self.rate_bps,
            self.st[d].counters(),
            self.st[1 - d].counters(),
            self.line[d].counters,
        )
    }

    /// A saturated source always has a message waiting.
    #[inline]
    fn top_up(&mut self, s: usize, now: SimTime) {
        if self.src[s].is_saturated() && self.st[s].backlog() == 0 {
            let bits = self.src[s].next_length();
            let m = self.ids[s].next(bits, now);
            self.st[s].handle_submit(now, m);
        }
    }

    /// After any input to station `s`: report events, transmit if idle, re-arm timers.
    #[inline]
    fn after_input(&mut self, s: usize, now: SimTime) -> Result<(), SimError> {
        while let Some(e) = self.st[s].poll_event() {
            match e {
                // A delivery at `s` is a message of the direction peer → s.
                Event::Delivered(m) => self.meter[1 - s].delivered(now, &m)?,
                Event::Acknowledged(m) => self.meter[s].acknowledged(now, &m),
            }
        }
        let rb = self.st[s].receive_buffer_bits();
        self.meter[1 - s].receive_buffer(now, rb);
        if !self.line[s].is_busy(now) {
            self.top_up(s, now);
            if let Some(f) = self.st[s].poll_transmit(now) {
                debug_assert!(f.bits() > 0);
                if self.trace.is_some() {
                    self.record(now, s, TraceKind::Send, Some(&f));
                }
                let tx = self.line[s].start(now, f);
                self.q.schedule(tx.arrival, Ev::Arrival(s as u8))?;
                self.top_up(s, now);
            }
        }
        // Wake the station when its line frees only if it has something to send then;
        // otherwise the next input to it will find the line free (or schedule this).
        if !self.tx_wake[s] && self.line[s].is_busy(now) && self.st[s].wants_transmit() {
            self.q
                .schedule(self.line[s].busy_until(), Ev::TxEnd(s as u8))?;
            self.tx_wake[s] = true;
        }
        if let Some(d) = self.st[s].poll_timeout() {
            let at = d.max(now);
            if self.wake[s].is_none_or(|w| at < w) {
                self.q.schedule(at, Ev::Timer(s as u8))?;
                self.wake[s] = Some(at);
            }
        }
        Ok(())
    }
}
