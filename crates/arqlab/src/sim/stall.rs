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
//! move the flow on, is not progress. It is a whole SDU delivered or acknowledged, or a
//! piece of one: the top layer of either end's stack moving the flow's data on inside
//! an SDU ([`Layer::progress_of`](crate::protocol::Layer::progress_of): TP4's DTs and
//! EDs, the HF ARQ's segments, TCP's octets). A layer answers that from the sequence
//! state it keeps anyway, and the watch reads it only when a timer of the flow's source
//! fires, at most once per longest legitimate wait (a *sample*), and at its checks, so
//! no event pays for it: a change since the previous reading counts as progress at this
//! one, which dates it at most one wait late. The longest legitimate wait is the
//! larger of
//! - the largest timer of the flow's end nodes' stacks (a timeout, T1, the RTO maximum),
//!   and
//! - a full send window: the largest window in frames of the end nodes' link layers
//!   times the longest frame either end's lane has sent so far. No timer bounds it: an
//!   HDLC NRM primary whose retransmission after a REJ is lost again sends the rest of
//!   its window, all discarded, before its poll at M − 1 outstanding recovers (modulus
//!   128, 5000 bit frames at 48 kbit/s: 13.4 s against T1 = 0.39 s).
//!
//! Two waits are not the stacks' but the scenario's, and it declares them:
//! - an outage of a medium (`outages`, a window with an end): the flow waits it out and
//!   then recovers as after any loss, so the longest declared outage is *added* to the
//!   limit (an outage without an end is a link down for good: a stall, and not counted);
//! - a dialogue with `start_until_s`: the run gives the last session it starts
//!   `run.duration_s − start_until_s` to complete (the study's own guard, after which the
//!   session is cut and counted as censored), so that *session cap* is a floor of the
//!   limit for the dialogue's two flows. Johnson's e-mail sessions over the transition HF
//!   channel go 2,460–4,050 s without delivering a whole write (25 or more 200-octet
//!   segments of the 5,000-octet body, one per exchange, through fades) and then
//!   complete, past 20 × the 120 s maximum transmission; the fading channel itself
//!   declares no bound (its lognormal excursions have no longest one), the session cap
//!   does.
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

/// The waits a scenario declares for a flow beyond its stacks' timers and windows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Declared {
    /// The longest outage with an end of any medium (added to the limit).
    pub outage: Duration,
    /// A dialogue's session cap, `run.duration_s − start_until_s` (a floor of the limit).
    pub session_cap: Duration,
}

impl Declared {
    /// What `topo` declares for each of its flows: the longest outage with an end of any
    /// medium (a flow crossing a relay may wait out an outage of a medium that does not
    /// touch its ends; counting every medium only finds a stall later), and the session
    /// cap of a dialogue with `start_until_s` between the flow's two nodes, either way.
    pub fn of(topo: &Topology, duration_s: f64) -> Vec<Declared> {
        let outage = topo
            .media
            .iter()
            .flat_map(|m| &m.config.outages)
            .filter_map(|o| Some(o.to_s? - o.from_s))
            .fold(0.0, f64::max);
        let same = |a: (u32, u32), b: (u32, u32)| a == b || a == (b.1, b.0);
        topo.flows
            .iter()
            .map(|f| {
                let cap = topo
                    .flows
                    .iter()
                    .filter(|d| same((f.src, f.dst), (d.src, d.dst)))
                    .filter_map(|d| Some(duration_s - d.traffic.dialogue.as_ref()?.start_until_s?))
                    .fold(0.0, f64::max);
                Declared { outage: Duration::from_secs_f64(outage), session_cap: Duration::from_secs_f64(cap) }
            })
            .collect()
    }
}

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
    /// What the scenario declares for the flow.
    pub declared: Declared,
}

impl std::fmt::Display for Stall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = |d: Duration| d.as_secs_f64();
        write!(
            f,
            "{} stalled: data pending and no progress for {:.6} s (the limit is {} x its longest legitimate wait",
            self.flow,
            secs(self.idle),
            self.timers
        )?;
        if self.declared.outage > Duration::ZERO {
            write!(f, " + the longest declared outage {:.6} s", secs(self.declared.outage))?;
        }
        if self.declared.session_cap > Duration::ZERO {
            write!(f, ", at least the session cap {:.6} s", secs(self.declared.session_cap))?;
        }
        write!(
            f,
            " = {:.6} s; largest timer {:.6} s, full send window {:.6} s); the run ended at {:.6} s",
            secs(self.limit),
            secs(self.timer),
            secs(self.window),
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
    /// Per flow: what the scenario declares.
    declared: Vec<Declared>,
    /// Per flow: the other in-order flows between the same two nodes, either way.
    path: Vec<Vec<u32>>,
    timers: f64,
    /// Per node: the watched flows it sources.
    by_node: Vec<Vec<u32>>,
    /// Per node: the next time its timers may trigger a check.
    next_check: Vec<SimTime>,
    /// Per node: the next time its timers may trigger a sample of its flows' progress
    /// inside SDUs, and the interval (its flows' least longest legitimate wait at the
    /// last check).
    next_sample: Vec<SimTime>,
    sample_every: Vec<Duration>,
    /// Per flow: its ends' progress inside SDUs when last read, and the check that saw
    /// it change.
    seen: Vec<(u64, SimTime)>,
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
    /// legitimate wait that is a stall (0: none is watched); `declared`: per flow;
    /// `inside(f)`: flow `f`'s progress inside SDUs at its two ends, as the run starts.
    pub(super) fn new<F: Watched>(topo: &Topology, flows: &[F], timers: f64, declared: Vec<Declared>, inside: impl Fn(usize) -> u64) -> StallWatch {
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
        let seen = (0..flows.len()).map(|f| (inside(f), SimTime::ZERO)).collect();
        let nodes = by_node.len();
        StallWatch {
            timer,
            declared,
            path,
            timers,
            next_check: vec![SimTime::ZERO; nodes],
            next_sample: vec![SimTime::ZERO; nodes],
            sample_every: vec![Duration::ZERO; nodes],
            by_node,
            seen,
            stalled: None,
        }
    }

    /// A timer of `node` fired: checks the flows it sources (at most once per limit),
    /// or samples their progress inside SDUs (at most once per longest legitimate wait).
    /// `frame(n)`: the longest frame node `n`'s lane has sent; `inside(f)`: flow `f`'s
    /// progress inside SDUs at its two ends. True if a flow has stalled (the runner
    /// tests it only after a timer or a boundary, the only places a stall is found, not
    /// after every event).
    #[inline]
    pub(super) fn timer_fired<F: Watched>(&mut self, flows: &[F], node: usize, now: SimTime, frame: impl Fn(usize) -> Duration, inside: impl Fn(usize) -> u64) -> bool {
        if now < self.next_sample[node].min(self.next_check[node]) || self.by_node[node].is_empty() {
            return false;
        }
        self.next_sample[node] = now + self.sample_every[node];
        if now < self.next_check[node] {
            for k in 0..self.by_node[node].len() {
                self.sample(self.by_node[node][k] as usize, now, &inside);
            }
            return false;
        }
        let (mut next, mut every) = (SimTime(u64::MAX), Duration(u64::MAX));
        for k in 0..self.by_node[node].len() {
            let f = self.by_node[node][k] as usize;
            if let Some(timer) = self.timer[f] {
                let limit = Limit::of(&flows[f], timer, self.declared[f], self.timers, &frame);
                next = next.min(now + limit.limit);
                every = every.min(limit.timer.max(limit.window));
                if self.stalled.is_none() {
                    self.stalled = self.check(flows, f, &limit, now, &inside);
                }
            }
        }
        self.next_check[node] = next;
        self.sample_every[node] = every;
        self.next_sample[node] = now + every;
        self.stalled.is_some()
    }

    /// A window boundary: checks every watched flow.
    pub(super) fn boundary<F: Watched>(&mut self, flows: &[F], now: SimTime, frame: impl Fn(usize) -> Duration, inside: impl Fn(usize) -> u64) {
        for (i, f) in flows.iter().enumerate() {
            if let (Some(timer), None) = (self.timer[i], &self.stalled) {
                let limit = Limit::of(f, timer, self.declared[i], self.timers, &frame);
                self.stalled = self.check(flows, i, &limit, now, &inside);
            }
        }
    }

    /// Reads the progress inside SDUs of flow `i` and of the other in-order flows
    /// between its nodes: a change since the last reading is progress now.
    fn sample(&mut self, i: usize, now: SimTime, inside: &impl Fn(usize) -> u64) {
        for j in std::iter::once(i).chain(self.path[i].iter().map(|&j| j as usize)) {
            let count = inside(j);
            if count != self.seen[j].0 {
                self.seen[j] = (count, now);
            }
        }
    }

    /// Samples flow `i` ([`StallWatch::sample`]), then checks it ([`check`]).
    fn check<F: Watched>(&mut self, flows: &[F], i: usize, l: &Limit, now: SimTime, inside: &impl Fn(usize) -> u64) -> Option<Stall> {
        self.sample(i, now, inside);
        check(flows, i, &self.path[i], &self.seen, l, now)
    }
}

/// A flow's stall limit now: `timers` × the larger of its largest timer and its full
/// send window (window × the longest frame its ends' lanes have sent), plus the longest
/// declared outage, and at least the session cap.
struct Limit {
    limit: Duration,
    timer: Duration,
    window: Duration,
    timers: f64,
    declared: Declared,
}

impl Limit {
    fn of<F: Watched>(f: &F, (timer, frames): (Duration, u32), declared: Declared, timers: f64, frame: &impl Fn(usize) -> Duration) -> Limit {
        let (src, dst) = f.ends();
        let window = Duration(frame(src).max(frame(dst)).0 * u64::from(frames));
        let limit = Limit::from_parts(timers, timer.max(window), declared);
        Limit { limit, timer, window, timers, declared }
    }

    /// `timers` × `wait` + the declared outage, at least the declared session cap.
    fn from_parts(timers: f64, wait: Duration, declared: Declared) -> Duration {
        let waits = Duration::from_secs_f64(timers * wait.as_secs_f64());
        (waits + declared.outage).max(declared.session_cap)
    }
}

/// Stalled: flow `i` has data pending and neither it nor any other in-order flow between
/// its two nodes (`path`) has progressed for the limit — no SDU delivered or acknowledged
/// (`progress_at`), no progress inside one seen (`seen`: per flow, the last check that
/// saw it).
fn check<F: Watched>(flows: &[F], i: usize, path: &[u32], seen: &[(u64, SimTime)], l: &Limit, now: SimTime) -> Option<Stall> {
    let f = &flows[i];
    let at = |j: usize| flows[j].progress_at().max(seen[j].1);
    let progress = path.iter().map(|&j| at(j as usize)).fold(at(i), SimTime::max);
    let idle = now - progress;
    (f.pending() && idle >= l.limit).then(|| Stall {
        flow: f.scope().to_string(),
        at: now,
        idle,
        limit: l.limit,
        timers: l.timers,
        timer: l.timer,
        window: l.window,
        declared: l.declared,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    /// A flow with data pending since t = 0 and no progress.
    struct Idle;

    impl Watched for Idle {
        fn ends(&self) -> (usize, usize) {
            (0, 1)
        }
        fn service(&self) -> Service {
            Service::InOrder
        }
        fn progress_at(&self) -> SimTime {
            SimTime::ZERO
        }
        fn pending(&self) -> bool {
            true
        }
        fn scope(&self) -> &str {
            "flow.a->b"
        }
    }

    const PS: Duration = Duration(1);

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// Stalled after `idle` without progress: largest timer 1 s, window 1 frame, frames of 0.1 s.
    fn stalled_after(declared: Declared, idle: Duration) -> Option<Stall> {
        let l = Limit::of(&Idle, (secs(1.0), 1), declared, STALL_TIMERS, &|_| secs(0.1));
        check(&[Idle], 0, &[], &[(0, SimTime::ZERO)], &l, SimTime::ZERO + idle)
    }

    /// Not stalled one picosecond before `limit`, stalled at it, and the stall reports it.
    fn boundary(declared: Declared, limit: Duration) {
        assert_eq!(stalled_after(declared, Duration(limit.0 - PS.0)), None, "{declared:?}: stalled before {limit:?}");
        let s = stalled_after(declared, limit).unwrap_or_else(|| panic!("{declared:?}: not stalled at {limit:?}"));
        assert_eq!(s.limit, limit);
    }

    #[test]
    fn limit_k_timers_just_below_and_just_above() {
        boundary(Declared::default(), secs(20.0));
    }

    #[test]
    fn limit_declared_outage_is_added_just_below_and_just_above() {
        // A link down for 60 s and up again: the flow waits it out, then recovers.
        let d = Declared { outage: secs(60.0), session_cap: Duration::ZERO };
        boundary(d, secs(80.0));
        assert!(stalled_after(d, secs(79.9)).is_none() && stalled_after(Declared::default(), secs(79.9)).is_some());
        let s = stalled_after(d, secs(80.0)).unwrap();
        assert!(s.to_string().contains("20 x its longest legitimate wait + the longest declared outage 60.000000 s = 80.000000 s"), "{s}");
    }

    #[test]
    fn limit_dialogue_session_cap_is_a_floor_just_below_and_just_above() {
        // Johnson: 4 h runs, no session starts after 1 h: the last one gets 3 h.
        let d = Declared { outage: Duration::ZERO, session_cap: secs(10_800.0) };
        boundary(d, secs(10_800.0));
        assert!(stalled_after(d, secs(4_050.0)).is_none(), "a 4,050 s gap inside the cap");
        let s = stalled_after(d, secs(10_800.0)).unwrap();
        assert!(s.to_string().contains("at least the session cap 10800.000000 s = 10800.000000 s"), "{s}");
        // A cap below 20 waits leaves the limit where the timers put it.
        boundary(Declared { outage: Duration::ZERO, session_cap: secs(19.0) }, secs(20.0));
    }

    /// A watch of one idle flow a -> b over selective repeat with T1 = 1 s (frames of
    /// 10 ms: the longest legitimate wait is T1, the limit 20 s).
    fn watch(inside_at_start: u64) -> StallWatch {
        let sc = Scenario::from_toml("[protocol]\nkind = \"selective_repeat\"\ntimeout_s = 1.0\n[traffic.a]\nkind = \"saturated\"\n").unwrap();
        StallWatch::new(&sc.topology, &[Idle], STALL_TIMERS, vec![Declared::default()], |_| inside_at_start)
    }

    /// A timer of a fires at `t` seconds with `inside` as the flow's progress inside SDUs:
    /// stalled, and whether the watch read `inside` (only when it checks).
    fn fire(w: &mut StallWatch, t: Duration, inside: u64) -> (bool, bool) {
        let read = std::cell::Cell::new(false);
        let stalled = w.timer_fired(&[Idle], 0, SimTime::ZERO + t, |_| secs(0.01), |_| {
            read.set(true);
            inside
        });
        (stalled, read.get())
    }

    #[test]
    fn progress_inside_an_sdu_is_progress_at_the_check_that_sees_it_just_below_and_just_above() {
        // No SDU moves (`Idle`); a DT, segment or octet does at some time before 5 s.
        // Read again 20 s after the check that saw it, less a picosecond (a sample), or
        // not (a check: the next is due one limit after the first).
        for (again, stalled) in [(Duration(secs(25.0).0 - PS.0), false), (secs(25.0), true)] {
            let mut w = watch(7);
            assert_eq!(fire(&mut w, secs(5.0), 9), (false, true), "the first check sees it");
            assert_eq!(fire(&mut w, again, 9), (stalled, true), "at {again:?}");
            assert_eq!(w.stalled.as_ref().map(|s| s.idle), stalled.then(|| secs(20.0)));
        }
        // The value the layer had as the run started is not progress.
        let mut w = watch(7);
        assert_eq!(fire(&mut w, secs(5.0), 7), (false, true));
        assert_eq!(fire(&mut w, secs(25.0), 7), (true, true), "stalled at the next check");
        assert_eq!(w.stalled.as_ref().map(|s| s.idle), Some(secs(25.0)));
        // Any change counts, not only growth (a connection retired, a new one opened).
        let mut w = watch(7);
        assert_eq!(fire(&mut w, secs(5.0), 3), (false, true));
        assert_eq!(fire(&mut w, secs(24.0), 3), (false, true));
    }

    #[test]
    fn samples_read_progress_inside_sdus_at_most_once_per_longest_legitimate_wait_checks_once_per_limit() {
        let mut w = watch(0);
        assert_eq!(fire(&mut w, secs(5.0), 1), (false, true), "a check");
        assert_eq!(fire(&mut w, Duration(secs(6.0).0 - PS.0), 2), (false, false), "within one wait (T1 = 1 s) of it: no sample, no read");
        assert_eq!(fire(&mut w, secs(6.0), 2), (false, true), "a sample");
        // The change read at 6 s dates progress there: 19 s idle at the next check (25 s).
        assert_eq!(fire(&mut w, secs(25.0), 2), (false, true));
        // 20 s idle at 26 s, but only a sample: the check after is one limit on.
        assert_eq!(fire(&mut w, secs(26.0), 2), (false, true));
        assert_eq!(fire(&mut w, Duration(secs(45.0).0 - PS.0), 2), (false, true));
        assert_eq!(fire(&mut w, secs(45.0), 2), (true, true));
        assert_eq!(w.stalled.as_ref().map(|s| s.idle), Some(secs(39.0)));
    }

    fn declared(text: &str) -> Vec<Declared> {
        let sc = Scenario::from_toml(text).unwrap_or_else(|e| panic!("{e}"));
        Declared::of(&sc.topology, sc.run.duration_s)
    }

    const NODES: &str = "[stack.s]\nkind = \"selective_repeat\"\n[[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
                         [[node]]\nname = \"c\"\nstack = \"s\"\n[[node]]\nname = \"d\"\nstack = \"s\"\n";

    #[test]
    fn declared_reads_outages_with_an_end_and_dialogue_caps_between_the_flows_nodes() {
        // Two pairs on two links: a-b and c-d.
        let media = |outages: &str| {
            format!(
                "[[medium]]\nname = \"ab\"\nends = [\"a\", \"b\"]\nrate_bps = 9600.0\n{outages}\n\
                 [[medium]]\nname = \"cd\"\nends = [\"c\", \"d\"]\nrate_bps = 9600.0\n"
            )
        };
        let flows = "[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"saturated\" }\n\
                     [[flow]]\nfrom = \"c\"\nto = \"d\"\ntraffic = { kind = \"saturated\" }\n";
        let run = "[run]\nduration_s = 1000.0\n";
        // The longest outage with an end; one without an end is a stall, not a wait.
        let d = declared(&format!("{run}{NODES}{}{flows}", media("outages = [{ from_s = 10.0, to_s = 40.0 }, { from_s = 100.0, to_s = 145.0 }, { from_s = 500.0 }]")));
        assert_eq!(d, vec![Declared { outage: secs(45.0), session_cap: Duration::ZERO }; 2], "every flow: the medium's outages");
        let d = declared(&format!("{run}{NODES}{}{flows}", media("outages = [{ from_s = 10.0 }]")));
        assert_eq!(d, vec![Declared::default(); 2]);
        // A dialogue a <-> b with start_until_s: both its flows get the cap, c -> d none.
        let dialogue = "[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"dialogue\", script = \"hmtp\", sessions = 100, start_until_s = 400.0 }\n\
                        [[flow]]\nfrom = \"b\"\nto = \"a\"\ntraffic = { kind = \"none\" }\n\
                        [[flow]]\nfrom = \"c\"\nto = \"d\"\ntraffic = { kind = \"saturated\" }\n";
        let d = declared(&format!("{run}{NODES}{}{dialogue}", media("")));
        let cap = Declared { outage: Duration::ZERO, session_cap: secs(600.0) };
        assert_eq!(d, vec![cap, cap, Declared::default()]);
        // Without start_until_s the sessions have no cap.
        let d = declared(&format!("{run}{NODES}{}{}", media(""), dialogue.replace(", start_until_s = 400.0", "")));
        assert_eq!(d, vec![Declared::default(); 3]);
    }
}
