//! Stalled runs. A reliable (in-order) flow that has data pending, makes no progress —
//! no delivery to its receiver, no acknowledgement to its sender — for [`STALL_TIMERS`] ×
//! the largest timer of its end nodes' stacks, and whose source sends nothing on its
//! lane meanwhile, has stalled: nothing in the model will move it again (a lost packet
//! that no layer recovers, a deadlock), and running on would only report zero throughput
//! as if it were a measurement. The run ends there with a `stalled` outcome instead.
//!
//! A source that keeps transmitting (retransmissions over a very lossy channel) is slow,
//! not stalled: it may yet get through, so the run goes on. The idle time counts from the
//! flow's last progress or, if it had nothing pending before, from the submission that
//! gave it data again. It is checked when a timer of the flow's source node fires (at
//! most once per limit per node) and at every window boundary; the source's lane must
//! have been silent for the last limit (its last frame ended that long ago), or since
//! the previous check if that came after the last progress, so a stall is found within
//! about three limits — or at the end of the run, if no timer fires after the flow
//! stopped (a link down for good, `scenario::outage`, may leave nothing to happen until
//! then).

use crate::engine::{Duration, SimTime};
use crate::protocol::Service;
use crate::scenario::topology::Topology;
use crate::scenario::ProtocolConfig;

/// A flow is stalled after this many times its largest timer without progress, unless
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
    /// The multiple of the largest timer the limit is.
    pub timers: f64,
}

impl std::fmt::Display for Stall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} stalled: data pending and no progress for {:.6} s (the limit is {} x its largest timer = {:.6} s); the run ended at {:.6} s",
            self.flow,
            self.idle.as_secs_f64(),
            self.timers,
            self.limit.as_secs_f64(),
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

/// Watches the reliable flows of one run.
pub(super) struct StallWatch {
    /// Per flow: the idle time that is a stall (`None`: not watched).
    limit: Vec<Option<Duration>>,
    timers: f64,
    /// Per node: the watched flows it sources.
    by_node: Vec<Vec<u32>>,
    /// Per node: the next time its timers may trigger a check.
    next_check: Vec<SimTime>,
    /// Per flow: (time of the previous check, frames its source's lane had sent then).
    seen: Vec<(SimTime, u64)>,
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
    /// `flows` must already know their service; `timers`: the multiple of the largest
    /// timer that is a stall (0: none is watched).
    pub(super) fn new<F: Watched>(topo: &Topology, flows: &[F], timers: f64) -> StallWatch {
        let mut by_node = vec![Vec::new(); topo.nodes.len()];
        let limit: Vec<Option<Duration>> = flows
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let (src, dst) = f.ends();
                let (s, d) = (&topo.nodes[src].stack, &topo.nodes[dst].stack);
                let largest = largest_timer_s(s).into_iter().chain(largest_timer_s(d)).reduce(f64::max)?;
                (f.service() == Service::InOrder && timers > 0.0).then(|| {
                    by_node[src].push(i as u32);
                    Duration::from_secs_f64(timers * largest)
                })
            })
            .collect();
        let seen = vec![(SimTime::ZERO, u64::MAX); limit.len()];
        StallWatch { limit, timers, next_check: vec![SimTime::ZERO; by_node.len()], seen, by_node, stalled: None }
    }

    /// A timer of `node` fired: checks the flows it sources (at most once per limit).
    /// True if a flow has stalled (the runner tests it only after a timer or a boundary,
    /// the only places a stall is found, not after every event).
    #[inline]
    pub(super) fn timer_fired<F: Watched>(&mut self, flows: &[F], node: usize, now: SimTime, sent: impl Fn(usize) -> Sent) -> bool {
        if now < self.next_check[node] || self.by_node[node].is_empty() {
            return false;
        }
        let mut next = SimTime(u64::MAX);
        for &f in &self.by_node[node] {
            if let Some(limit) = self.limit[f as usize] {
                next = next.min(now + limit);
                if self.stalled.is_none() {
                    let flow = &flows[f as usize];
                    self.stalled = check(flow, limit, self.timers, now, &mut self.seen[f as usize], sent(flow.ends().0));
                }
            }
        }
        self.next_check[node] = next;
        self.stalled.is_some()
    }

    /// A window boundary: checks every watched flow.
    pub(super) fn boundary<F: Watched>(&mut self, flows: &[F], now: SimTime, sent: impl Fn(usize) -> Sent) {
        for ((f, limit), seen) in flows.iter().zip(&self.limit).zip(self.seen.iter_mut()) {
            if let (Some(limit), None) = (*limit, &self.stalled) {
                self.stalled = check(f, limit, self.timers, now, seen, sent(f.ends().0));
            }
        }
    }
}

/// What a source's lane has sent: frames started, and when its last frame ended.
pub(super) type Sent = (u64, SimTime);

/// Stalled: data pending, no progress for `limit`, and the source's lane silent — its
/// last frame ended at least `limit` ago, or the previous check came after the last
/// progress and no frame has started since. Updates `seen`.
fn check<F: Watched>(f: &F, limit: Duration, timers: f64, now: SimTime, seen: &mut (SimTime, u64), (sent, last_end): Sent) -> Option<Stall> {
    let idle = now - f.progress_at();
    let silent = last_end + limit <= now || (seen.0 >= f.progress_at() && seen.1 == sent);
    *seen = (now, sent);
    (f.pending() && idle >= limit && silent).then(|| Stall { flow: f.scope().to_string(), at: now, idle, limit, timers })
}
