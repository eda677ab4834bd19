//! One replication of a topology: nodes with protocol stacks, lanes of media, relays and
//! traffic sources, driven by one event queue. Generic over the stack shape `L`, so each
//! shape gets its own monomorphised loop (no dynamic dispatch on the hot path); elements
//! live in dense arrays per kind and an event names (kind, index).
//!
//! Order of work after any input to node `n` (documented because results depend on it):
//! drain `poll_event` into the flow meters (a delivery that completes a dialogue step
//! releases the next writes: into `n`'s own stack at once, so a reply goes out with its
//! acknowledgement, and into another node's after `n`'s work, followed by that node's
//! own after-input work); if `n`'s lane may start a transmission, top
//! up a saturated source, ask `poll_transmit` with the medium's grant and top up again;
//! if the lane is not free and the stack `wants_transmit`, make sure `n` is woken when
//! it frees (one pending wake per node); re-read `poll_timeout` (one pending timer wake
//! per node: the minimum over its layers; a stale wake is harmless).

use super::measure::{DirectionMeter, Measures, OrderViolation};
use super::scope::{lane_measures, llc2_measures, port_measures, relays_measures, ring_measures, MeasureSet};
use super::ring_lanes::RingLanes;
use super::wiring;
use crate::channel::{Direction, DirectionCounters, PortCounters, Radio, Relay};
use crate::engine::{Duration, EventCode, EventQueue, ScheduleError, SimTime};
use crate::protocol::{Counters, Event, Grant, Layer, Pdu, Sdu, Service, Station};
use crate::scenario::topology::NodeSpec;
use crate::scenario::Scenario;
use crate::trace::{TraceKind, Tracer};
use crate::traffic::dialogue::Dialogue;
use crate::traffic::{MessageIds, Source};

/// Event kinds; an event is (kind, element index).
const TX_END: u32 = 0; // a node's or relay port's lane may be free (index: port)
const ARRIVAL: u32 = 1; // the next frame in flight on a lane arrives (index: lane)
const TIMER: u32 = 2; // a node's deadline may have been reached (index: node)
pub(super) const MESSAGE: u32 = 3; // a Poisson SDU arrives at a flow's source (index: flow)
const RELAY_READY: u32 = 4; // a relay's next frame has been forwarded (index: relay)
pub(super) const BOUNDARY: u32 = 5; // a measurement window boundary
pub(super) const END: u32 = 6; // the end of the run
const INDEX_BITS: u32 = 21;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ev(u32);

impl Ev {
    #[inline]
    pub(super) fn new(kind: u32, index: usize) -> Ev {
        Ev(kind << INDEX_BITS | index as u32)
    }
    #[inline]
    fn kind(self) -> u32 {
        self.0 >> INDEX_BITS
    }
    #[inline]
    fn index(self) -> usize {
        (self.0 & ((1 << INDEX_BITS) - 1)) as usize
    }
    /// The code the trajectory fingerprint hashes. The first two elements of the four
    /// per-element kinds keep the two-station runner's codes (so pinned fingerprints
    /// stay valid); everything else gets a code of its own.
    #[inline]
    fn fingerprint_code(self) -> u64 {
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
type Step = Result<(), Box<SimError>>;

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
fn unbox(e: Box<SimError>) -> SimError {
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
    /// Time of the timer wake-up the node has in the queue, if any.
    pub(super) wake: Option<SimTime>,
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
    fn next_ids(&self, flows: &[Flow]) -> [u64; 2] {
        self.flows.map(|f| flows[f as usize].ids.issued())
    }
}

/// A lane and what gates it.
pub(super) struct Lane<F> {
    pub(super) dir: Direction<F>,
    /// What besides the lane's own transmissions decides when it may start.
    pub(super) medium: Medium,
    pub(super) target: Target,
    pub(super) at_open: DirectionCounters,
}

/// The medium a lane belongs to, as far as starting a transmission goes.
#[derive(Clone, Copy)]
pub(super) enum Medium {
    /// A line of a duplex link: free when its own last frame has left.
    Line,
    /// A side of a half-duplex radio: (radio, side).
    Radio(u32, u8),
    /// A station's lane on a token ring: (ring, station).
    Ring(u32, u32),
}

#[derive(Clone, Copy)]
pub(super) enum Target {
    Node(u32),
    /// (relay, port)
    Port(u32, u32),
    /// A token ring's lane: the addressee's station copies the frame.
    Ring(u32),
}

pub(super) struct Sim<L: Layer> {
    pub(super) q: EventQueue<Ev>,
    pub(super) nodes: Vec<Node<L>>,
    pub(super) lanes: Vec<Lane<L::Pdu>>,
    pub(super) radios: Vec<Radio>,
    pub(super) rings: Vec<RingLanes>,
    pub(super) relays: Vec<Relay<L::Pdu>>,
    /// Global port of relay r's port 0 (node ports come first: port n = node n).
    pub(super) relay_port0: Vec<u32>,
    pub(super) port_owner: Vec<(u32, u32)>,
    pub(super) port_at_open: Vec<PortCounters>,
    pub(super) flows: Vec<Flow>,
    pub(super) dialogues: Vec<DialogueRun>,
    /// Dialogue writes released for other nodes by the delivery being handled.
    pub(super) released: Vec<(usize, Sdu)>,
    /// Extra scopes (lanes, relay ports) are measured: explicit topologies.
    pub(super) extra_scopes: bool,
    /// All flows together (`flow.*`): explicit topologies with several flows.
    pub(super) pooled: Option<DirectionMeter>,
    pub(super) lane_scopes: Vec<String>,
    pub(super) port_scopes: Vec<String>,
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
}

/// The pooled scope's counters: senders' and receivers' stacks and the senders' lanes
/// summed over all flows, and the senders' rates summed (the capacity the pooled
/// throughput efficiency is relative to).
fn pooled_counters<L: Layer>(nodes: &[Node<L>], flows: &[Flow], lanes: &[Lane<L::Pdu>]) -> (Counters, Counters, DirectionCounters, f64) {
    let mut acc = (Counters::default(), Counters::default(), DirectionCounters::default(), 0.0);
    for (i, f) in flows.iter().enumerate() {
        let src = &nodes[f.src as usize];
        let lane = &lanes[src.lane as usize].dir;
        acc.0 = acc.0.plus(&src.stack.counters_of(i as u32));
        acc.1 = acc.1.plus(&nodes[f.dst as usize].stack.counters_of(i as u32));
        let c = &lane.counters;
        acc.2.frames_transmitted += c.frames_transmitted;
        acc.2.frames_in_error += c.frames_in_error;
        acc.2.bits_transmitted += c.bits_transmitted;
        acc.2.busy_ps += c.busy_ps;
        acc.3 += lane.rate_bps;
    }
    acc
}

/// Runs one replication of `sc` with stacks made by `make` (given each node's spec and
/// its station letter: A for the lower index of a pair), recording a frame-level trace
/// into `trace` if given (the trajectory is the same either way).
pub fn run<L: Layer<Sdu = Sdu>>(
    sc: &Scenario,
    seed: u64,
    replication: u64,
    windows: &Windows,
    trace: Option<Tracer>,
    make: impl Fn(&NodeSpec, Station) -> L,
) -> Result<RunOutput, SimError> {
    let mut sim = wiring::wire(sc, seed, replication, trace, make)?;
    sim.start(windows)?;
    sim.run(windows)
}

impl<L: Layer<Sdu = Sdu>> Sim<L> {
    fn start(&mut self, windows: &Windows) -> Result<(), SimError> {
        // The window boundaries are the queue's calendar (given before anything is scheduled).
        debug_assert!(self.q.is_empty());
        let n = windows.boundaries.len();
        let calendar = windows.boundaries.iter().enumerate().map(|(k, &b)| (b, Ev::new(if k + 1 == n { END } else { BOUNDARY }, 0))).collect();
        self.q = EventQueue::with_calendar(calendar)?;
        // Windows are half-open, [b_k, b_k+1): what happens at a boundary belongs to the
        // window it opens. At t = 0 the sources submit and the first frames start before
        // any event pops, so a window opening at 0 is opened here, before them.
        if windows.boundaries.len() > 1 && windows.boundaries[0] == SimTime::ZERO {
            self.open(SimTime::ZERO);
        }
        for d in 0..self.dialogues.len() {
            let next = self.dialogues[d].next_ids(&self.flows);
            let writes = self.dialogues[d].d.start(next);
            let Sim { nodes, flows, dialogues, .. } = self;
            submit_writes(&dialogues[d], writes, SimTime::ZERO, flows, &mut |m, sdu| nodes[m].stack.handle_submit(SimTime::ZERO, sdu));
        }
        for node in 0..self.nodes.len() {
            for f in 0..self.flows.len() {
                if self.flows[f].src as usize == node {
                    // An initial backlog: messages born at time 0, ahead of the first arrival.
                    for _ in 0..self.flows[f].source.initial_backlog() {
                        let flow = &mut self.flows[f];
                        let bits = flow.source.next_length();
                        let m = flow.issue(bits, SimTime::ZERO, f as u32);
                        self.nodes[node].stack.handle_submit(SimTime::ZERO, m);
                    }
                    if let Some(gap) = self.flows[f].source.next_gap() {
                        self.q.schedule(SimTime::ZERO + gap, Ev::new(MESSAGE, f))?;
                    }
                }
            }
            self.after_input(node, SimTime::ZERO).map_err(unbox)?;
        }
        Ok(())
    }

    fn run(mut self, windows: &Windows) -> Result<RunOutput, SimError> {
        let mut out = Vec::with_capacity(windows.boundaries.len());
        let mut flow_windows = Vec::with_capacity(windows.boundaries.len());
        let mut boundary = 0usize;
        let mut end = SimTime::ZERO;
        while let Some((now, ev)) = self.q.pop() {
            self.events += 1;
            if super::interrupt::should_stop(self.events) {
                return Err(SimError::Interrupted);
            }
            self.fingerprint = (self.fingerprint ^ now.0).wrapping_mul(0x0000_0100_0000_01b3) ^ ev.fingerprint_code();
            let i = ev.index();
            let step = match ev.kind() {
                ARRIVAL => self.arrival(i, now),
                TX_END if i < self.nodes.len() => {
                    self.nodes[i].tx_wake = false;
                    self.after_input(i, now)
                }
                TX_END => {
                    let (r, k) = self.port_owner[i - self.nodes.len()];
                    let port = &mut self.relays[r as usize].ports[k as usize];
                    port.wake = false;
                    // A port's wake-up while waiting for a token releases nothing.
                    if !self.lanes[port.lane as usize].dir.is_busy(now) {
                        self.relays[r as usize].release(now, k as usize);
                    }
                    self.send_from_port(r as usize, k as usize, now)
                }
                TIMER => {
                    let traced = self.trace.is_some();
                    let node = &mut self.nodes[i];
                    if node.wake == Some(now) {
                        node.wake = None;
                    }
                    // Only a traced run reads the counters to see whether the timer fired.
                    let before = traced.then(|| node.stack.counters().timeouts);
                    node.stack.handle_timeout(now);
                    let (lanes, nodes) = (&self.lanes, &self.nodes);
                    self.stall.timer_fired(&self.flows, i, now, |n| lanes[nodes[n].lane as usize].dir.counters.frames_transmitted);
                    if before.is_some_and(|b| self.nodes[i].stack.counters().timeouts > b) {
                        self.record(now, i, TraceKind::Timeout, None);
                    }
                    self.after_input(i, now)
                }
                MESSAGE => {
                    let f = &mut self.flows[i];
                    let bits = f.source.next_length();
                    let m = f.issue(bits, now, i as u32);
                    let src = f.src as usize;
                    let gap = f.source.next_gap();
                    self.nodes[src].stack.handle_submit(now, m);
                    if let Some(gap) = gap {
                        self.q.schedule(now + gap, Ev::new(MESSAGE, i))?;
                    }
                    self.after_input(src, now)
                }
                RELAY_READY => match self.relays[i].ready() {
                    Some(k) => self.send_from_port(i, k, now),
                    None => Ok(()),
                },
                kind => {
                    if boundary > 0 {
                        let (lanes, nodes) = (&self.lanes, &self.nodes);
                        self.stall.boundary(&self.flows, now, |n| lanes[nodes[n].lane as usize].dir.counters.frames_transmitted);
                    }
                    if self.stall.stalled.is_some() {
                        // The window is closed below, and the run ends.
                        Ok(())
                    } else {
                    if boundary > 0 {
                        flow_windows.push((0..self.flows.len()).map(|f| self.close_flow(f, now)).collect::<Vec<_>>());
                        out.push(self.close(now, flow_windows.last().map(Vec::as_slice).unwrap_or(&[])));
                    }
                    boundary += 1;
                    if kind == END {
                        end = now;
                        break;
                    }
                    // (A first window opening at 0 was opened by `start`.)
                    if !(boundary == 1 && now == SimTime::ZERO) {
                        self.open(now);
                    }
                    Ok(())
                    }
                }
            };
            step.map_err(unbox)?;
            if (self.terminating && self.unfinished == 0) || self.stall.stalled.is_some() {
                // The last finite transfer is complete, or a flow stalled: the run ends now.
                if boundary == 0 {
                    self.open(now); // (stalled in the warm-up: an empty window)
                }
                flow_windows.push((0..self.flows.len()).map(|f| self.close_flow(f, now)).collect::<Vec<_>>());
                out.push(self.close(now, flow_windows.last().map(Vec::as_slice).unwrap_or(&[])));
                end = now;
                break;
            }
        }
        let mut accounting = Vec::with_capacity(self.flows.len());
        for (fi, f) in self.flows.iter().enumerate() {
            let m = &f.meter;
            let unacknowledged = if f.service == Service::InOrder { self.nodes[f.src as usize].stack.unacknowledged_of(fi as u32) as u64 } else { 0 };
            let acc = FlowAccounting { issued: f.ids.issued(), delivered: m.delivered_total, acknowledged: m.acknowledged_total, unacknowledged };
            // In order: every SDU issued is either acknowledged or still held by its
            // sender, and nothing is acknowledged before it is delivered. Best effort:
            // nothing is delivered that was not issued.
            let balanced = match f.service {
                Service::InOrder => acc.issued == acc.acknowledged + acc.unacknowledged && acc.acknowledged <= acc.delivered && acc.delivered <= acc.issued,
                Service::BestEffort | Service::Unordered => acc.delivered <= acc.issued,
            };
            if !balanced {
                return Err(SimError::Balance(format!(
                    "{}: issued {} delivered {} acknowledged {} unacknowledged {}",
                    m.name, acc.issued, acc.delivered, acc.acknowledged, acc.unacknowledged
                )));
            }
            accounting.push((m.name.clone(), acc));
        }
        Ok(RunOutput { windows: out, flow_windows, events: self.events, simulated: end, fingerprint: self.fingerprint, accounting, trace: self.trace, stalled: self.stall.stalled })
    }

    fn arrival(&mut self, l: usize, now: SimTime) -> Step {
        // Token ring: the station that copies the frame (its addressee or a bridge).
        let target = match self.lanes[l].target {
            Target::Ring(g) => match self.lanes[l].dir.next_arrival().map(|w| self.rings[g as usize].target(w.dst)) {
                Some(Some(t)) => t,
                _ => {
                    self.lanes[l].dir.drop_arrival();
                    return Ok(());
                }
            },
            t => t,
        };
        match target {
            Target::Ring(_) => Ok(()),
            Target::Node(n) => {
                let n = n as usize;
                // Handled in place, then dropped: the frame is not copied out of the lane.
                let Sim { lanes, nodes, trace, .. } = self;
                let lane = &mut lanes[l].dir;
                if let Some(w) = lane.next_arrival() {
                    let stack = &mut nodes[n].stack;
                    if w.in_error {
                        stack.handle_receive_in_error(now, &w.frame);
                    } else if w.dst as usize == n {
                        stack.handle_receive(now, &w.frame);
                    }
                    // Recorded after the frame is handled: the state columns are the
                    // state the frame left behind.
                    if trace.is_some() {
                        let kind = if w.in_error { TraceKind::ReceiveInError } else { TraceKind::Receive };
                        record(trace, now, n, kind, Some(&w.frame), &nodes[n].stack);
                    }
                    lane.drop_arrival();
                }
                self.after_input(n, now)
            }
            Target::Port(r, k) => {
                if let Some(w) = self.lanes[l].dir.take_arrival() {
                    let bits = w.frame.bits();
                    // A frame whose last bit leaves the output port now is out of the buffer
                    // before this one is admitted (its TxEnd may be later in the queue).
                    if let Some(out) = self.relays[r as usize].route(k as usize, w.dst) {
                        let out_lane = self.relays[r as usize].ports[out].lane as usize;
                        // (Token ring: the port's frame has left even though the token is elsewhere.)
                        let ended = if matches!(self.lanes[out_lane].medium, Medium::Ring(..)) { !self.lanes[out_lane].dir.is_busy(now) } else { self.lane_free(out_lane, now) };
                        if ended {
                            self.relays[r as usize].release(now, out);
                        }
                    }
                    if let crate::channel::Admission::Forward(at) = self.relays[r as usize].arrive(now, k as usize, w.frame, bits, w.dst, w.in_error) {
                        self.q.schedule(at, Ev::new(RELAY_READY, r as usize))?;
                    }
                }
                Ok(())
            }
        }
    }

    /// Relay `r`'s port `k` sends its next ready frame if its lane is free, and asks to
    /// be woken when the lane frees (to release the frame from the buffer).
    fn send_from_port(&mut self, r: usize, k: usize, now: SimTime) -> Step {
        let lane = self.relays[r].ports[k].lane as usize;
        let Some(lead) = gate(&self.lanes[lane], &self.radios, &self.rings, now) else {
            // Token ring: a port with frames waits for the token (one wake-up at a time).
            let port = &mut self.relays[r].ports[k];
            if matches!(self.lanes[lane].medium, Medium::Ring(..)) && port.sending.is_none() && !port.queue.is_empty() && !port.wake {
                port.wake = true;
                self.q.schedule(ready_at(&self.lanes[lane], &self.radios, &self.rings, now), Ev::new(TX_END, (self.relay_port0[r] as usize) + k))?;
            }
            return Ok(());
        };
        if self.relays[r].ports[k].sending.is_some() {
            return Ok(());
        }
        let Some((frame, dst)) = self.relays[r].ports[k].queue.pop_front() else { return Ok(()) };
        let bits = frame.bits();
        self.lanes[lane].dir.stage(&frame);
        let tx = transmit(&mut self.lanes[lane], &mut self.radios, &mut self.rings, now, lead, dst);
        self.relays[r].ports[k].sending = Some(bits);
        self.q.schedule(tx.arrival, Ev::new(ARRIVAL, lane))?;
        self.q.schedule(tx.end, Ev::new(TX_END, (self.relay_port0[r] as usize) + k))?;
        Ok(())
    }

    /// True if a transmission may start on `lane` at `now`.
    #[inline]
    fn lane_free(&self, lane: usize, now: SimTime) -> bool {
        gate(&self.lanes[lane], &self.radios, &self.rings, now).is_some()
    }

    #[cold]
    fn record(&mut self, now: SimTime, n: usize, kind: TraceKind, frame: Option<&L::Pdu>) {
        record(&mut self.trace, now, n, kind, frame, &self.nodes[n].stack);
    }

    fn open(&mut self, now: SimTime) {
        for d in self.dialogues.iter_mut() {
            d.d.open();
        }
        for (i, f) in self.flows.iter_mut().enumerate() {
            let i = i as u32;
            let (sender, receiver) = (self.nodes[f.src as usize].stack.counters_of(i), self.nodes[f.dst as usize].stack.counters_of(i));
            let line = self.lanes[self.nodes[f.src as usize].lane as usize].dir.counters;
            f.meter.open(now, sender, receiver, line);
        }
        if let Some(p) = self.pooled.as_mut() {
            let (sender, receiver, line, _) = pooled_counters(&self.nodes, &self.flows, &self.lanes);
            p.open(now, sender, receiver, line);
        }
        if self.extra_scopes {
            for l in self.lanes.iter_mut() {
                l.at_open = l.dir.counters;
            }
            for (p, &(r, k)) in self.port_owner.iter().enumerate() {
                let port = &mut self.relays[r as usize].ports[k as usize];
                self.port_at_open[p] = port.counters;
                port.occupancy.reset(now.as_secs_f64());
            }
        }
    }

    fn close_flow(&self, i: usize, now: SimTime) -> Measures {
        let f = &self.flows[i];
        let src = &self.nodes[f.src as usize];
        let lane = &self.lanes[src.lane as usize].dir;
        let (sender, receiver) = (src.stack.counters_of(i as u32), self.nodes[f.dst as usize].stack.counters_of(i as u32));
        f.meter.close(now, lane.rate_bps, sender, receiver, lane.counters)
    }

    fn close(&self, now: SimTime, flows: &[Measures]) -> Vec<(String, MeasureSet)> {
        let mut out: Vec<(String, MeasureSet)> = self.flows.iter().zip(flows).map(|(f, m)| (f.meter.name.clone(), MeasureSet::from(m))).collect();
        // A dialogue's measures join its client → server flow's scope.
        for d in &self.dialogues {
            out[d.flows[0] as usize].1 .0.extend(d.d.measures());
        }
        let stalled = f64::from(u8::from(self.stall.stalled.is_some()));
        if self.terminating {
            let done = self.unfinished == 0;
            let at = if done { now.as_secs_f64() } else { f64::NAN };
            out.push(("run".into(), MeasureSet(vec![("completion_time_s", at), ("completed", f64::from(u8::from(done))), ("stalled", stalled)])));
        } else if stalled > 0.0 {
            out.push(("run".into(), MeasureSet(vec![("stalled", stalled)])));
        }
        // Layers' own whole-run counters (TP4's TPDU counts), both ends of a flow summed.
        for f in &self.flows {
            let (s, r) = (self.nodes[f.src as usize].stack.extra_measures(), self.nodes[f.dst as usize].stack.extra_measures());
            if !s.is_empty() {
                let sum = s.iter().zip(r.iter().chain(std::iter::repeat(&("", 0.0)))).map(|(&(k, a), &(_, b))| (k, a + b)).collect();
                out.push((format!("transport.{}", f.meter.name), MeasureSet(sum)));
            }
        }
        if let Some(p) = &self.pooled {
            let (sender, receiver, line, rate) = pooled_counters(&self.nodes, &self.flows, &self.lanes);
            let m = p.close(now, rate, sender, receiver, line);
            out.push((p.name.clone(), MeasureSet::from(&m)));
            if self.llc2_scopes {
                let (s, r) = p.counters_since_open(&sender, &receiver);
                out.push(("llc2.*".into(), llc2_measures(&s, &r, m.messages_delivered)));
            }
        }
        if self.extra_scopes {
            let start = self.flows.first().map_or(now, |f| f.meter.window_start());
            let span = (now - start).as_secs_f64();
            for (l, name) in self.lanes.iter().zip(&self.lane_scopes) {
                out.push((name.clone(), lane_measures(&l.dir.counters, &l.at_open, span)));
            }
            for (p, &(r, k)) in self.port_owner.iter().enumerate() {
                let port = &self.relays[r as usize].ports[k as usize];
                out.push((self.port_scopes[p].clone(), port_measures(port, &self.port_at_open[p], now)));
            }
            if self.llc2_scopes && !self.port_owner.is_empty() {
                let ports: Vec<_> = self.port_owner.iter().map(|&(r, k)| self.relays[r as usize].ports[k as usize].counters).collect();
                out.push(("node.*".into(), relays_measures(&ports, &self.port_at_open)));
            }
            for (name, lanes) in &self.ring_scopes {
                out.push((name.clone(), ring_measures(self.lanes[lanes.clone()].iter().map(|l| (&l.dir.counters, &l.at_open)), span)));
            }
        }
        out
    }

    /// After any input to node `n`: report events, transmit if granted, re-arm wakes.
    /// (Borrows the runner's parts separately: one bounds check per element.)
    #[inline]
    fn after_input(&mut self, n: usize, now: SimTime) -> Step {
        let Sim { q, nodes, lanes, radios, rings, flows, pooled, trace, unfinished, dialogues, released, .. } = self;
        let node = &mut nodes[n];
        while let Some(e) = node.stack.poll_event() {
            // `deliver` names a dialogue only for a delivery (an acknowledgement moves none).
            if let (Some((d, dir)), Event::Delivered(m)) = (deliver(flows, pooled, unfinished, now, e)?, e) {
                dialogue_delivered(&mut dialogues[d as usize], usize::from(dir), &m, n, &mut node.stack, flows, unfinished, released, now);
            }
        }
        if L::HOLDS_RECEIVED {
            if let Some(rf) = node.rx_flow {
                flows[rf as usize].meter.receive_buffer(now, node.stack.receive_buffer_bits());
            }
        }
        debug_assert!(L::HOLDS_RECEIVED || node.stack.receive_buffer_bits() == 0, "a layer that holds received data must say so (Layer::HOLDS_RECEIVED)");
        let l = node.lane as usize;
        let lane = &mut lanes[l];
        if let Medium::Ring(..) = lane.medium {
            // Token ring: a saturated station keeps a frame waiting for the token.
            top_up(node, flows, now);
        }
        // A transmission started now makes the lane busy (frames have at least one bit).
        let mut busy = true;
        if let Some(lead) = gate(lane, radios, rings, now) {
            top_up(node, flows, now);
            let grant = Grant { rate_bps: lane.dir.rate_bps, lead, mtu_bits: u32::MAX };
            // The frame is built in the lane's next slot (a lane without a free slot
            // makes room when a frame is staged).
            let sent = match lane.dir.free_slot() {
                Some(slot) => node.stack.poll_transmit_into(now, &grant, slot),
                None => node.stack.poll_transmit(now, &grant).map(|f| lane.dir.stage(&f)).is_some(),
            };
            if sent {
                let f = lane.dir.staged();
                debug_assert!(f.bits() > 0);
                if let Some(d) = node.dialogue {
                    dialogues[d as usize].d.transmitted(now);
                }
                if trace.is_some() {
                    record(trace, now, n, TraceKind::Send, Some(f), &node.stack);
                }
                let dst = f.dst().unwrap_or(node.peer);
                let tx = transmit(lane, radios, rings, now, lead, dst);
                q.schedule(tx.arrival, Ev::new(ARRIVAL, l))?;
                top_up(node, flows, now);
            } else {
                busy = false;
            }
        }
        debug_assert_eq!(busy, gate(lane, radios, rings, now).is_none());
        // Wake the node when its lane frees only if it has something to send then;
        // otherwise the next input to it will find the lane free (or schedule this).
        if !node.tx_wake && busy && node.stack.wants_transmit() {
            q.schedule(ready_at(lane, radios, rings, now), Ev::new(TX_END, n))?;
            node.tx_wake = true;
        }
        if let Some(d) = node.stack.poll_timeout() {
            let at = d.max(now);
            if node.wake.is_none_or(|w| at < w) {
                q.schedule(at, Ev::new(TIMER, n))?;
                node.wake = Some(at);
            }
        }
        if !self.released.is_empty() {
            self.submit_released(now)?;
        }
        Ok(())
    }

    /// Hands dialogue writes released by a delivery to the nodes that send them, then
    /// lets each of those nodes act (in the order the writes were released).
    #[cold]
    #[inline(never)]
    fn submit_released(&mut self, now: SimTime) -> Step {
        let mut writes = std::mem::take(&mut self.released);
        for &(m, sdu) in &writes {
            self.nodes[m].stack.handle_submit(now, sdu);
        }
        let mut touched: Vec<usize> = writes.iter().map(|x| x.0).collect();
        touched.dedup();
        for m in touched {
            self.after_input(m, now)?;
        }
        // Keep the buffer (a write released meanwhile has been submitted in its turn).
        writes.clear();
        if self.released.is_empty() {
            self.released = writes;
        }
        Ok(())
    }
}

/// The lead time of a transmission starting on `lane` at `now`, if one may start.
#[inline]
fn gate<F: Pdu>(lane: &Lane<F>, radios: &[Radio], rings: &[RingLanes], now: SimTime) -> Option<Duration> {
    if lane.dir.is_busy(now) {
        return None;
    }
    match lane.medium {
        Medium::Line => Some(Duration::ZERO),
        Medium::Radio(r, side) => {
            let radio = &radios[r as usize];
            (radio.ready_at(side) <= now).then(|| radio.lead(side, now))
        }
        // Token ring: the station may start when the token is with it.
        Medium::Ring(g, k) => rings[g as usize].gate(k, now),
    }
}

/// When `lane` may next start (for a token ring: a lower bound, re-checked at the wake).
#[inline]
fn ready_at<F: Pdu>(lane: &Lane<F>, radios: &[Radio], rings: &[RingLanes], now: SimTime) -> SimTime {
    match lane.medium {
        Medium::Line => lane.dir.busy_until(),
        Medium::Radio(r, side) => lane.dir.busy_until().max(radios[r as usize].ready_at(side)),
        Medium::Ring(g, k) => lane.dir.busy_until().max(rings[g as usize].ready_at(k, now)),
    }
}

/// Starts the frame staged in `lane`'s next slot.
#[inline(always)]
fn transmit<F: Pdu>(lane: &mut Lane<F>, radios: &mut [Radio], rings: &mut [RingLanes], now: SimTime, lead: Duration, dst: u32) -> crate::channel::Transmission {
    let mut tx = lane.dir.start_staged(now, lead, dst);
    match lane.medium {
        Medium::Line => {}
        Medium::Radio(r, side) => radios[r as usize].started(side, tx.end, lane.dir.delay),
        // Token ring: the frame holds the ring; it arrives when its last bit passes the receiver.
        Medium::Ring(g, k) => tx.arrival = rings[g as usize].started(k, now, tx.end, dst),
    }
    tx
}

/// A saturated source always has an SDU waiting (as many as the stack's
/// `saturation_depth`: a layer that plans a whole burst at once needs more than one).
#[inline(always)]
fn top_up<L: Layer<Sdu = Sdu>>(node: &mut Node<L>, flows: &mut [Flow], now: SimTime) {
    if let Some(f) = node.saturated {
        let depth = node.stack.saturation_depth();
        // At most `depth` submissions: a layer may drop an SDU (a duplicate filter).
        for _ in 0..depth {
            if node.stack.backlog_of(f) >= depth {
                break;
            }
            let flow = &mut flows[f as usize];
            match flow.source.take() {
                Some(bits) => {
                    let m = flow.issue(bits, now, f);
                    node.stack.handle_submit(now, m);
                }
                None => break,
            }
        }
    }
}

/// A delivery to a dialogue's receiver `n`: the writes it releases go to `n`'s own stack
/// at once (the application answers with, or before, its acknowledgement) or, for
/// another node, to `released`.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn dialogue_delivered<L: Layer<Sdu = Sdu>>(run: &mut DialogueRun, dir: usize, m: &Sdu, n: usize, stack: &mut L, flows: &mut [Flow], unfinished: &mut usize, released: &mut Vec<(usize, Sdu)>, now: SimTime) {
    let (writes, done) = run.d.delivered(dir, m.id, now, run.next_ids(flows));
    if done {
        *unfinished -= 1;
    }
    submit_writes(run, writes, now, flows, &mut |to, sdu| if to == n { stack.handle_submit(now, sdu) } else { released.push((to, sdu)) });
}

/// Issues a dialogue's released writes as SDUs of its flows (ids in order) and hands
/// each to `submit` with the index of the node that sends it.
fn submit_writes(run: &DialogueRun, writes: Vec<(usize, u32)>, now: SimTime, flows: &mut [Flow], submit: &mut impl FnMut(usize, Sdu)) {
    for (dir, bits) in writes {
        let f = run.flows[dir];
        let sdu = flows[f as usize].issue(bits, now, f);
        submit(run.nodes[dir] as usize, sdu);
    }
}

/// A delivery or acknowledgement into its flow's meter (and the pooled one); for a
/// delivery on a dialogue's flow, the dialogue and direction it moves.
#[inline(always)]
fn deliver(flows: &mut [Flow], pooled: &mut Option<DirectionMeter>, unfinished: &mut usize, now: SimTime, e: Event<Sdu>) -> Result<Option<(u32, u8)>, Box<SimError>> {
    match e {
        Event::Delivered(m) => {
            let f = &mut flows[m.flow as usize];
            f.meter.delivered(now, &m, f.service)?;
            if let Some(p) = pooled.as_mut() {
                p.record(now, &m);
            }
            // A best-effort finite transfer is complete when its last message arrives.
            if f.service != Service::InOrder && f.meter.delivered_total == f.total {
                *unfinished -= 1;
            }
            Ok(f.dialogue)
        }
        Event::Acknowledged(m) => {
            let f = &mut flows[m.flow as usize];
            f.meter.acknowledged(now, &m)?;
            if let Some(p) = pooled.as_mut() {
                p.count_acknowledged(now, &m);
            }
            // An in-order finite transfer is complete when its last message is acknowledged.
            if f.meter.acknowledged_total == f.total {
                *unfinished -= 1;
            }
            Ok(None)
        }
    }
}

#[cold]
fn record<L: Layer>(trace: &mut Option<Tracer>, now: SimTime, n: usize, kind: TraceKind, frame: Option<&L::Pdu>, stack: &L) {
    let (queued, unacknowledged) = (stack.backlog(), stack.unacknowledged());
    if let Some(t) = trace.as_mut() {
        t.push(now, n, kind, frame.map(|f| f.trace()), queued, unacknowledged);
    }
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
