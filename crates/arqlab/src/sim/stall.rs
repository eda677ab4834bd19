//! Stalled runs. A reliable (in-order) flow that has data pending and makes no progress
//! end to end — no new delivery to its receiver, no new acknowledgement at its sender —
//! for [`STALL_TIMERS`] × its longest legitimate wait has stalled: nothing in the model
//! will move it again (a lost packet that no layer recovers, a deadlock, a half-duplex
//! radio whose turnaround outlasts the ARQ's response timeout), and running on would only
//! report zero throughput as if it were a measurement. The run ends there with a
//! `stalled` outcome instead.
//!
//! Progress is counted at the flow's ends only, however many frames cross the lanes: a
//! source retransmitting into a dead path, or a peer answering with frames that never
//! move the flow on, is not progress. The longest legitimate wait is the larger of
//! - the largest timer of the flow's end nodes' stacks (a timeout, T1, the RTO maximum),
//!   and
//! - a full send window: the largest window in frames of the end nodes' link layers
//!   times the longest frame either end's lane has sent so far. No timer bounds it: an
//!   HDLC NRM primary whose retransmission after a REJ is lost again sends the rest of
//!   its window, all discarded, before its poll at M − 1 outstanding recovers (modulus
//!   128, 5000 bit frames at 48 kbit/s: 13.4 s against T1 = 0.39 s).
//!
//! The idle time counts from the flow's last progress or, if it had nothing pending
//! before, from the submission that gave it data again. It is checked when a timer of the
//! flow's source node fires (at most once per limit per node) and at every window
//! boundary, so a stall is found within about two limits — or at the end of the run, if
//! no timer fires after the flow stopped (a link down for good, `scenario::outage`, may
//! leave nothing to happen until then).

use crate::engine::{Duration, SimTime};
use crate::protocol::Service;
use crate::scenario::topology::Topology;
use crate::scenario::ProtocolConfig;

/// A flow is stalled after this many times its longest legitimate wait without progress
/// (20: a run of 20 timeouts in a row, each retransmission lost, is below 1e-6 for a
/// frame loss rate up to 0.5, so a live flow is not taken for a stalled one), unless
/// `run.stall_timers` says otherwise (0: never — fault-injection harnesses whose stacks
/// the scenario does not describe).
pub const STALL_TIMERS: f64 = 20.0;

/// Which flow stalled, when it was found, and the limit it exceeded.
#[derive(Clone, Debug, PartialEq)]
pub struct Stall {
    pub flow: String,
    pub at: SimTime,
    /// Time since its last progress.
    pub idle: Duration,
    pub limit: Duration,
    /// The multiple of the longest legitimate wait the limit is.
    pub timers: f64,
    /// The flow's largest timer, and the time of its full send window (largest window
    /// × longest frame at its ends): the longest legitimate wait is the larger.
    pub timer: Duration,
    pub window: Duration,
}

impl std::fmt::Display for Stall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} stalled: data pending and no progress for {:.6} s (the limit is {} x its longest legitimate wait = {:.6} s; largest timer {:.6} s, full send window {:.6} s); the run ended at {:.6} s",
            self.flow,
            self.idle.as_secs_f64(),
            self.timers,
            self.limit.as_secs_f64(),
            self.timer.as_secs_f64(),
            self.window.as_secs_f64(),
            self.at.as_secs_f64()
        )
    }
}

/// The largest timer of a stack, in seconds (`None` if it has none).
pub fn largest_timer_s(stack: &[ProtocolConfig]) -> Option<f64> {
    let timers = |c: &ProtocolConfig| -> Vec<f64> {
        match c {
            ProtocolConfig::StopAndWait(t) | ProtocolConfig::GoBackN(t) | ProtocolConfig::SelectiveRepeat(t) => vec![t.timeout_s],
            ProtocolConfig::Hdlc(h) => vec![h.t1_s, h.t2_s],
            // IP's reassembly timer discards; it never restarts a flow.
            ProtocolConfig::Datagram(_) | ProtocolConfig::Ip(_) => vec![],
            ProtocolConfig::Tp4(t) => vec![t.retransmission_timer_s, t.window_timer_s, t.max_ack_delay_s.unwrap_or(0.0)],
            ProtocolConfig::NetworkWindow(n) => vec![n.ack_delay_s],
            ProtocolConfig::Llc2(l) => vec![l.t1_s, l.reject_timer_s, l.busy_timer_s, l.ack_delay_s],
            ProtocolConfig::Tcp(t) => vec![t.initial_rto_s, t.max_rto_s, t.delayed_ack_s],
            ProtocolConfig::X25(x) => vec![x.ack_timer_s, x.lapb_t1_s, x.call_setup_s, x.t_min_s, x.t_open_s],
            ProtocolConfig::HfArq(h) => vec![h.max_transmission_s, h.response_timeout_s],
        }
    };
    stack.iter().flat_map(timers).filter(|t| *t > 0.0).reduce(f64::max)
}

/// The largest send window of a stack's sequence-numbered link layers, in frames (1 if
/// it has none: the other layers' windows are in octets or packets, and their timers —
/// the RTO maximum, X.25's, HF's maximum transmission time — are long already).
pub fn largest_window_frames(stack: &[ProtocolConfig]) -> u32 {
    let window = |c: &ProtocolConfig| match c {
        ProtocolConfig::StopAndWait(t) | ProtocolConfig::GoBackN(t) | ProtocolConfig::SelectiveRepeat(t) => t.window,
        ProtocolConfig::Hdlc(h) => h.window,
        ProtocolConfig::Llc2(l) => l.window,
        _ => 1,
    };
    stack.iter().map(window).max().unwrap_or(1)
}

/// Watches the reliable flows of one run.
pub(super) struct StallWatch {
    /// Per flow: the largest timer and the largest window in frames of its end nodes'
    /// stacks (`None`: not watched).
    timer: Vec<Option<(Duration, u32)>>,
    /// Per flow: the other in-order flows between the same two nodes, either way.
    path: Vec<Vec<u32>>,
    timers: f64,
    /// Per node: the watched flows it sources.
    by_node: Vec<Vec<u32>>,
    /// Per node: the next time its timers may trigger a check.
    next_check: Vec<SimTime>,
    pub(super) stalled: Option<Stall>,
}

/// What the watch reads of a flow (the runner's `Flow` implements it; the watch does not
/// depend on the runner's state, which holds the watch).
pub(super) trait Watched {
    /// Source and destination node.
    fn ends(&self) -> (usize, usize);
    /// The flow's service contract.
    fn service(&self) -> Service;
    /// The last delivery or acknowledgement, or the submission that gave it data again.
    fn progress_at(&self) -> SimTime;
    /// Data is pending.
    fn pending(&self) -> bool;
    /// The flow's scope name.
    fn scope(&self) -> &str;
}

impl StallWatch {
    /// `flows` must already know their service; `timers`: the multiple of the longest
    /// legitimate wait that is a stall (0: none is watched).
    pub(super) fn new<F: Watched>(topo: &Topology, flows: &[F], timers: f64) -> StallWatch {
        let mut by_node = vec![Vec::new(); topo.nodes.len()];
        let timer: Vec<Option<(Duration, u32)>> = flows
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let (src, dst) = f.ends();
                let (s, d) = (&topo.nodes[src].stack, &topo.nodes[dst].stack);
                let largest = largest_timer_s(s).into_iter().chain(largest_timer_s(d)).reduce(f64::max)?;
                (f.service() == Service::InOrder && timers > 0.0).then(|| {
                    by_node[src].push(i as u32);
                    (Duration::from_secs_f64(largest), largest_window_frames(s).max(largest_window_frames(d)))
                })
            })
            .collect();
        let same = |a: (usize, usize), b: (usize, usize)| a == b || a == (b.1, b.0);
        let path = (0..flows.len())
            .map(|i| (0..flows.len()).filter(|&j| j != i && flows[j].service() == Service::InOrder && same(flows[i].ends(), flows[j].ends())).map(|j| j as u32).collect())
            .collect();
        StallWatch { timer, path, timers, next_check: vec![SimTime::ZERO; by_node.len()], by_node, stalled: None }
    }

    /// A timer of `node` fired: checks the flows it sources (at most once per limit).
    /// `frame(n)`: the longest frame node `n`'s lane has sent. True if a flow has
    /// stalled (the runner tests it only after a timer or a boundary, the only places a
    /// stall is found, not after every event).
    #[inline]
    pub(super) fn timer_fired<F: Watched>(&mut self, flows: &[F], node: usize, now: SimTime, frame: impl Fn(usize) -> Duration) -> bool {
        if now < self.next_check[node] || self.by_node[node].is_empty() {
            return false;
        }
        let mut next = SimTime(u64::MAX);
        for &f in &self.by_node[node] {
            if let Some(timer) = self.timer[f as usize] {
                let flow = &flows[f as usize];
                let limit = Limit::of(flow, timer, self.timers, &frame);
                next = next.min(now + limit.limit);
                if self.stalled.is_none() {
                    self.stalled = check(flows, f as usize, &self.path[f as usize], &limit, now);
                }
            }
        }
        self.next_check[node] = next;
        self.stalled.is_some()
    }

    /// A window boundary: checks every watched flow.
    pub(super) fn boundary<F: Watched>(&mut self, flows: &[F], now: SimTime, frame: impl Fn(usize) -> Duration) {
        for (i, (f, timer)) in flows.iter().zip(&self.timer).enumerate() {
            if let (Some(timer), None) = (*timer, &self.stalled) {
                self.stalled = check(flows, i, &self.path[i], &Limit::of(f, timer, self.timers, &frame), now);
            }
        }
    }
}

/// A flow's stall limit now: `timers` × the larger of its largest timer and its full
/// send window (window × the longest frame its ends' lanes have sent).
struct Limit {
    limit: Duration,
    timer: Duration,
    window: Duration,
    timers: f64,
}

impl Limit {
    fn of<F: Watched>(f: &F, (timer, frames): (Duration, u32), timers: f64, frame: &impl Fn(usize) -> Duration) -> Limit {
        let (src, dst) = f.ends();
        let window = Duration(frame(src).max(frame(dst)).0 * u64::from(frames));
        Limit { limit: Duration::from_secs_f64(timers * timer.max(window).as_secs_f64()), timer, window, timers }
    }
}

/// Stalled: flow `i` has data pending and neither it nor any other in-order flow between
/// its two nodes (`path`) has progressed for the limit.
fn check<F: Watched>(flows: &[F], i: usize, path: &[u32], l: &Limit, now: SimTime) -> Option<Stall> {
    let f = &flows[i];
    let progress = path.iter().map(|&j| flows[j as usize].progress_at()).fold(f.progress_at(), SimTime::max);
    let idle = now - progress;
    (f.pending() && idle >= l.limit).then(|| Stall {
        flow: f.scope().to_string(),
        at: now,
        idle,
        limit: l.limit,
        timers: l.timers,
        timer: l.timer,
        window: l.window,
    })
}
