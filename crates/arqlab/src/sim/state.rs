//! The runner's state: event codes, the elements of a run in dense arrays (nodes,
//! flows, dialogues, lanes, relays) and what a run returns or fails with. The event
//! loop that moves it is in `runner.rs`, its construction in `wiring.rs`.

use super::lanes::{Lane, RingLanes};
use super::livelock::{Livelock, Site};
use super::measure::{DirectionMeter, Measures, OrderViolation};
use super::scope::MeasureSet;
use crate::channel::{DirectionCounters, PortCounters, Radio, Relay};
use crate::engine::{EventCode, EventQueue, ScheduleError, SimTime};
use crate::protocol::{Counters, Layer, Sdu, Service};
use crate::trace::Tracer;
use crate::traffic::dialogue::Dialogue;
use crate::traffic::{MessageIds, Source};

/// Event kinds; an event is (kind, element index).
pub(super) const TX_END: u32 = 0; // a node's or relay port's lane may be free (index: port)
pub(super) const ARRIVAL: u32 = 1; // the next frame in flight on a lane arrives (index: lane)
pub(super) const TIMER: u32 = 2; // a node's deadline may have been reached (index: node)
pub(super) const MESSAGE: u32 = 3; // a Poisson SDU arrives at a flow's source (index: flow)
pub(super) const RELAY_READY: u32 = 4; // a relay's next frame has been forwarded (index: relay)
pub(super) const BOUNDARY: u32 = 5; // a measurement window boundary
pub(super) const END: u32 = 6; // the end of the run
pub(super) const INDEX_BITS: u32 = 21;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ev(u32);

impl Ev {
    #[inline]
    pub(super) fn new(kind: u32, index: usize) -> Ev {
        Ev(kind << INDEX_BITS | index as u32)
    }
    #[inline]
    pub(super) fn kind(self) -> u32 {
        self.0 >> INDEX_BITS
    }
    #[inline]
    pub(super) fn index(self) -> usize {
        (self.0 & ((1 << INDEX_BITS) - 1)) as usize
    }
    /// The code the trajectory fingerprint hashes. The first two elements of the four
    /// per-element kinds keep the two-station runner's codes (so pinned fingerprints
    /// stay valid); everything else gets a code of its own.
    #[inline]
    pub(super) fn fingerprint_code(self) -> u64 {
        // Kinds 0..=3 at elements 0 and 1 (every per-element event of a two-node run):
        // 2·kind + index, read off the code's bits in one test.
        if self.0 & !(3 << INDEX_BITS | 1) == 0 {
            return u64::from(self.0 >> (INDEX_BITS - 1) | self.0 & 1);
        }
        let (k, i) = (self.kind() as u64, self.index() as u64);
        if k == BOUNDARY as u64 {
            8
        } else if k == END as u64 {
            9
        } else {
            16 + (k << 32 | i)
        }
    }
}

impl EventCode for Ev {
    #[inline]
    fn encode(self) -> u32 {
        self.0
    }
    #[inline]
    fn decode(code: u32) -> Ev {
        Ev(code)
    }
}

/// What a step of the event loop returns. An error is rare and large (64 bytes), so it
/// travels boxed: the `Ok` of the unboxed `Result` went through memory on every call.
pub(super) type Step = Result<(), Box<SimError>>;

impl From<ScheduleError> for Box<SimError> {
    #[cold]
    fn from(e: ScheduleError) -> Self {
        Box::new(SimError::Schedule(e))
    }
}

impl From<OrderViolation> for Box<SimError> {
    #[cold]
    fn from(e: OrderViolation) -> Self {
        Box::new(SimError::Order(e))
    }
}

#[cold]
pub(super) fn unbox(e: Box<SimError>) -> SimError {
    *e
}

/// Largest element index an event can name (per kind).
pub const MAX_ELEMENTS: usize = 1 << INDEX_BITS;

/// Why a replication failed. Model bugs, reported with context, never panics.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    #[error("invariant violated: {0}")]
    Order(#[from] OrderViolation),
    #[error("engine error: {0}")]
    Schedule(#[from] ScheduleError),
    #[error("counters do not balance: {0}")]
    Balance(String),
    #[error("topology too large: {0} (at most {MAX_ELEMENTS} of each kind)")]
    TooLarge(String),
    /// Not a model failure: [`super::interrupt::request`] was called (Ctrl-C).
    #[error("interrupted")]
    Interrupted,
    /// A model bug: simulated time stopped advancing (`sim::livelock`).
    #[error("{0}")]
    Livelock(super::livelock::Livelock),
}

/// Where measurement windows start and end.
#[derive(Clone, Debug)]
pub struct Windows {
    /// Boundaries in increasing order; the first opens the first window (end of the
    /// warm-up), each later one closes a window and opens the next, the last is the end.
    /// A window is half-open, [b_k, b_k+1): a boundary event pops before every other
    /// event at its time, so a frame that starts (or a message that is delivered) at
    /// b_k+1 counts in the next window, and one at b_k in this one — at b_0 = 0 too.
    pub boundaries: Vec<SimTime>,
}

impl Windows {
    /// `count` equal windows after `warmup`, up to `end`.
    pub fn equal(warmup: SimTime, end: SimTime, count: u64) -> Windows {
        let span = end.0 - warmup.0;
        let boundaries = (0..=count).map(|k| SimTime(warmup.0 + (span as u128 * k as u128 / count as u128) as u64)).collect();
        Windows { boundaries }
    }
}

/// Whole-run accounting of one flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowAccounting {
    pub issued: u64,
    pub delivered: u64,
    pub acknowledged: u64,
    pub unacknowledged: u64,
}

/// What one run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// One entry per window: (scope, measures), flows first in flow order, then lanes
    /// and relay ports (explicit topologies only).
    pub windows: Vec<Vec<(String, MeasureSet)>>,
    /// The flows' own measures per window (for warm-up detection).
    pub flow_windows: Vec<Vec<Measures>>,
    pub events: u64,
    pub simulated: SimTime,
    /// Hash of the event trajectory (times and kinds).
    pub fingerprint: u64,
    /// Per flow, in flow order, with its scope name.
    pub accounting: Vec<(String, FlowAccounting)>,
    /// The trace, if one was asked for.
    pub trace: Option<Tracer>,
    /// The run ended early because a reliable flow stalled (`sim::stall`).
    pub stalled: Option<super::stall::Stall>,
}

pub(super) struct Node<L> {
    pub(super) stack: L,
    pub(super) lane: u32,
    pub(super) peer: u32,
    /// The flow whose receive buffer this node's stack holds.
    pub(super) rx_flow: Option<u32>,
    /// The saturated flow this node sources, if any (validation allows one).
    pub(super) saturated: Option<u32>,
    /// Times of the timer wake-ups the node has in the queue, latest first: a wake is
    /// scheduled only before every pending one, so the last is the next to fire.
    pub(super) wakes: Vec<SimTime>,
    /// A TxEnd wake-up is in the queue for the node.
    pub(super) tx_wake: bool,
    /// The dialogue the node takes part in (its first transmission starts the session).
    pub(super) dialogue: Option<u32>,
}

pub(super) struct Flow {
    /// Messages of a finite (bulk) transfer; `u64::MAX` for an open-ended source.
    pub(super) total: u64,
    pub(super) src: u32,
    pub(super) dst: u32,
    /// The slowest rate on its path: its throughput efficiency's denominator.
    pub(super) bottleneck_bps: f64,
    pub(super) source: Source,
    pub(super) ids: MessageIds,
    pub(super) meter: DirectionMeter,
    pub(super) service: Service,
    /// The dialogue whose direction (0 client → server, 1 back) this flow carries.
    pub(super) dialogue: Option<(u32, u8)>,
}

/// A dialogue between two nodes: its script state, its two flows and their sources.
pub(super) struct DialogueRun {
    pub(super) d: Dialogue,
    /// Flow and sending node of each direction (client → server first).
    pub(super) flows: [u32; 2],
    pub(super) nodes: [u32; 2],
}

impl DialogueRun {
    pub(super) fn next_ids(&self, flows: &[Flow]) -> [u64; 2] {
        self.flows.map(|f| flows[f as usize].ids.issued())
    }
}

pub(super) struct Sim<L: Layer> {
    pub(super) q: EventQueue<Ev>,
    pub(super) nodes: Vec<Node<L>>,
    pub(super) lanes: Vec<Lane<L::Pdu>>,
    pub(super) radios: Vec<Radio>,
    pub(super) rings: Vec<RingLanes>,
    pub(super) relays: Vec<Relay<L::Pdu>>,
    /// Relay r's link stacks, if it is an IP router with `interfaces` (else `None`, or empty).
    pub(super) routers: Vec<Option<super::link_router::RouterSlot<L::Pdu>>>,
    /// Global port of relay r's port 0 (node ports come first: port n = node n).
    pub(super) relay_port0: Vec<u32>,
    pub(super) port_owner: Vec<(u32, u32)>,
    pub(super) port_at_open: Vec<PortCounters>,
    pub(super) flows: Vec<Flow>,
    pub(super) dialogues: Vec<DialogueRun>,
    /// Dialogue writes and connection events for other nodes, released by the
    /// delivery being handled, in order.
    pub(super) released: Vec<(usize, Release)>,
    /// Extra scopes (lanes, relay ports) are measured: explicit topologies.
    pub(super) extra_scopes: bool,
    /// All flows together (`flow.*`): explicit topologies with several flows.
    pub(super) pooled: Option<DirectionMeter>,
    pub(super) lane_scopes: Vec<String>,
    pub(super) port_scopes: Vec<String>,
    /// `ip.<relay>` of each IP router.
    pub(super) ip_scopes: Vec<(usize, String)>,
    /// `ring.<medium>` and the ring's lanes.
    pub(super) ring_scopes: Vec<(String, std::ops::Range<usize>)>,
    /// LLC2 stacks: the pooled `llc2.*` and `node.*` (all relay ports) scopes are measured.
    pub(super) llc2_scopes: bool,
    pub(super) events: u64,
    /// Finite flows not yet complete; the run ends when the last completes (a
    /// terminating run: every flow with traffic is finite).
    pub(super) unfinished: usize,
    pub(super) terminating: bool,
    pub(super) fingerprint: u64,
    pub(super) trace: Option<Tracer>,
    pub(super) stall: super::stall::StallWatch,
    /// Events in a row at one instant (`sim::livelock`).
    pub(super) instant: super::livelock::InstantWatch,
}

impl<L: Layer<Sdu = Sdu>> Sim<L> {
    /// Every `livelock::check_every` events (`interrupt::CHECK_EVERY` by default), before `ev` (popped at `now`) is handled: an
    /// interrupt request, or a livelock.
    #[cold]
    #[inline(never)]
    pub(super) fn check_point(&mut self, now: SimTime, ev: Ev) -> Result<(), SimError> {
        if super::interrupt::requested() {
            return Err(SimError::Interrupted);
        }
        let Some(events) = self.instant.check(now) else { return Ok(()) };
        let i = ev.index();
        let site = match ev.kind() {
            TIMER => Site::Timer { node: i, layer: self.nodes[i].stack.due_layer(now) },
            TX_END if i < self.nodes.len() => Site::Transmit { node: i },
            TX_END => Site::Relay { relay: self.port_owner[i - self.nodes.len()].0 as usize },
            ARRIVAL => Site::Arrival { lane: i },
            MESSAGE => Site::Message { flow: i },
            RELAY_READY => Site::Relay { relay: i },
            _ => Site::Window,
        };
        Err(SimError::Livelock(Livelock { at: now, events, limit: self.instant.limit(), site, place: String::new() }))
    }
}

/// The pooled scope's counters: senders' and receivers' stacks and the senders' lanes
/// summed over all flows, and the flows' bottleneck rates summed (the capacity the
/// pooled throughput efficiency is relative to).
pub(super) fn pooled_counters<L: Layer>(nodes: &[Node<L>], flows: &[Flow], lanes: &[Lane<L::Pdu>]) -> (Counters, Counters, DirectionCounters, f64) {
    let mut acc = (Counters::default(), Counters::default(), DirectionCounters::default(), 0.0);
    for (i, f) in flows.iter().enumerate() {
        let src = &nodes[f.src as usize];
        let lane = &lanes[src.lane as usize].dir;
        acc.0 = acc.0.plus(&src.stack.counters_of(i as u32));
        acc.3 += f.bottleneck_bps;
        acc.1 = acc.1.plus(&nodes[f.dst as usize].stack.counters_of(i as u32));
        let c = &lane.counters;
        acc.2.frames_transmitted += c.frames_transmitted;
        acc.2.frames_in_error += c.frames_in_error;
        acc.2.bits_transmitted += c.bits_transmitted;
        acc.2.busy_ps += c.busy_ps;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_codes_keep_the_two_station_codes_and_are_distinct() {
        // The definition the pinned fingerprints were made with.
        let reference = |k: u64, i: u64| match (k, i) {
            (0..=3, 0..=1) => 2 * k + i,
            (5, _) => 8,
            (6, _) => 9,
            _ => 16 + (k << 32 | i),
        };
        let mut seen = std::collections::HashMap::new();
        for k in [TX_END, ARRIVAL, TIMER, MESSAGE, RELAY_READY] {
            for i in (0..70).chain([1 << 20, (1 << INDEX_BITS) - 1]) {
                let code = Ev::new(k, i).fingerprint_code();
                assert_eq!(code, reference(k as u64, i as u64), "kind {k} index {i}");
                assert_eq!(seen.insert(code, (k, i)), None, "kind {k} index {i} shares a code");
            }
        }
        for k in [BOUNDARY, END] {
            assert_eq!(Ev::new(k, 0).fingerprint_code(), reference(k as u64, 0));
        }
    }
}

/// What a dialogue hands a node's stack: a write, or a connection event of the
/// application (a session's end closes the client's connection and opens the next;
/// the server closes after its last step).
#[derive(Clone, Copy, Debug)]
pub(super) enum Release {
    Write(Sdu),
    Close,
    Connect,
}

impl Release {
    pub(super) fn apply<L: Layer<Sdu = Sdu>>(self, stack: &mut L, now: SimTime) {
        match self {
            Release::Write(sdu) => stack.handle_submit(now, sdu),
            Release::Close => stack.handle_close(now),
            Release::Connect => stack.handle_connect(now),
        }
    }
}

/// Flow `f`'s progress inside SDUs at its two ends ([`Layer::progress_of`]), read only
/// when the stall watch checks it (kept out of the event loop's code).
#[cold]
#[inline(never)]
pub(super) fn inside<L: Layer>(nodes: &[Node<L>], flows: &[Flow], f: usize) -> u64 {
    let (ends, i) = (&flows[f], f as u32);
    nodes[ends.src as usize].stack.progress_of(i).wrapping_add(nodes[ends.dst as usize].stack.progress_of(i))
}

impl super::stall::Watched for Flow {
    fn ends(&self) -> (usize, usize) {
        (self.src as usize, self.dst as usize)
    }
    fn service(&self) -> Service {
        self.service
    }
    fn progress_at(&self) -> SimTime {
        self.meter.progress_at
    }
    /// Issued and not yet acknowledged, or a saturated source or an unfinished bulk
    /// transfer with more to give (a bulk transfer from its first message: one with a
    /// later `start_s` is not waiting for anything before it).
    fn pending(&self) -> bool {
        let acked = self.meter.acknowledged_total;
        let issued = self.ids.issued();
        issued > acked || (self.source.is_saturated() && acked < self.total && issued > 0)
    }
    fn scope(&self) -> &str {
        &self.meter.name
    }
}

impl Flow {
    /// Issues the flow's next SDU. If the flow had nothing pending, its idle time starts now.
    #[inline]
    pub(super) fn issue(&mut self, bits: u32, now: SimTime, flow: u32) -> Sdu {
        if self.ids.issued() == self.meter.acknowledged_total {
            self.meter.progress_at = now;
        }
        self.ids.next(bits, now, flow)
    }
}
