//! Wiring a scenario into runs: one replication ([`replicate`]), independent
//! replications with an optional sequential stopping rule ([`experiment`]), and the
//! summary of replications into measures with confidence intervals ([`summary`]).

pub mod capture;
pub mod experiment;
pub mod interrupt;
pub mod livelock;
pub mod measure;
pub mod runner;
mod lanes;
pub mod stall;
pub mod scope;
mod state;
pub mod summary;
mod wiring;
mod composed;
mod delivery;
mod link_router;
mod window;
mod routed;

pub use experiment::{run_experiment, Experiment};
pub use measure::Measures;
pub use runner::{RunOutput, SimError, Windows};
pub use summary::{summarize, Metrics};

pub use scope::MeasureSet;

use crate::engine::SimTime;
use crate::protocol::any::{AnyLayer, Ctx};
use crate::scenario::compose::addresses_peers;
use crate::protocol::datagram::Datagram;
use crate::protocol::netwindow::NetWindow;
use crate::protocol::tcp::TcpHost;
use crate::protocol::tp4::{Tp4, Tp4Over, Tpdu};
use crate::protocol::hdlc::HdlcStation;
use crate::protocol::hf::HfArq;
use crate::protocol::llc2::Llc2;
use crate::protocol::mux::{Connection, Mux};
use crate::protocol::textbook::{GoBackN, SelectiveRepeat};
use crate::protocol::{Frame, Sdu, Stacked};
use crate::scenario::{ProtocolConfig, Scenario};
use crate::trace::Tracer;
use serde::Serialize;
use std::collections::BTreeMap;

/// Windows used to find the MSER-5 truncation point in a pilot pass.
pub const MSER_INTERVALS: u64 = 500;

/// The result of one replication.
#[derive(Clone, Debug, Serialize)]
pub struct Replication {
    /// One entry per measurement window (1 for independent replications, `batches` for
    /// batch means): scope (`a_to_b`, `flow.a->b`, `link.l1.a->r`, …) → measures.
    pub batches: Vec<BTreeMap<String, MeasureSet>>,
    pub events: u64,
    pub simulated_s: f64,
    pub wall_s: f64,
    /// Hash of the event trajectory, as 16 hex digits.
    pub fingerprint: String,
    /// The warm-up deleted (fixed, or chosen by MSER-5).
    pub warmup_s: f64,
    /// Whole-run message accounting per direction: issued by the source, delivered to
    /// the receiver's user, acknowledged to the sender, held unacknowledged at the end.
    pub accounting: BTreeMap<String, Accounting>,
    /// MSER-5 only: false if the truncation point hit the search limit (run too short).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mser_reliable: Option<bool>,
    /// Set when a reliable flow stalled and the run ended early (`sim::stall`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stalled: Option<StallReport>,
}

/// A stall, in seconds, for the record of a replication.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct StallReport {
    pub flow: String,
    pub at_s: f64,
    pub idle_s: f64,
    pub limit_s: f64,
    /// The whole sentence, for warnings.
    pub message: String,
}

/// Message accounting of one direction over a whole run. The runner has already
/// checked issued = acknowledged + unacknowledged and acknowledged ≤ delivered ≤ issued.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Accounting {
    pub issued: u64,
    pub delivered: u64,
    pub acknowledged: u64,
    pub unacknowledged: u64,
}

/// Which runner a scenario goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The monomorphised shape where every node's stack has one of them (one layer;
    /// TCP or TP4 over one link layer; LLC2 connections multiplexed per node), the
    /// composed path otherwise.
    Fast,
    /// Every stack composed from its registered layers (`sim::composed`), whatever it is.
    Composed,
    /// Every stack as a chain of any depth (`protocol::deep`), the runner of stacks of
    /// more than three layers, whatever its depth.
    Chain,
}

/// Runs `sc` once with the given windows, dispatching on the protocol.
pub fn run_windows(
    sc: &Scenario,
    seed: u64,
    replication: u64,
    w: &Windows,
) -> Result<RunOutput, SimError> {
    run_dispatch(sc, seed, replication, w, None, Path::Fast)
}

/// The monomorphised runner shapes ([`Path::Fast`]). Each is only a speed
/// specialisation of the composed path (`sim::composed`): the same layers, built from
/// the same configurations, called in the same order, with concrete types in place of
/// [`AnyLayer`]'s one `match` per call, so it gives the same trajectory bit for bit
/// (`tests/fast_shapes.rs` runs a scenario of each shape through both paths and
/// compares every output). The rule for adding one: a shape a study runs often enough
/// for the `match` to show in a benchmark, added here, to [`Shape::FAST`], to
/// `run_dispatch` and with its case in that test (which fails on a shape without one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One layer of this kind on every node, one peer each (TP4 alone included).
    Single(&'static str),
    /// TCP over any one link layer but the HF ARQ (`Stacked<TcpHost, AnyLayer<_>>`).
    TcpOver,
    /// TCP over the HF ARQ (its own PDU type).
    TcpOverHf,
    /// TP4 over any one frame layer (the subnetwork) but the network window.
    Tp4Over,
    /// TP4 over the network window (Colella's stack: `NetWindow<Tpdu>`, no `AnyLayer`).
    Tp4OverNetWindow,
    /// LLC2 alone, one connection per peer in a [`Mux`] (Biersack's bridged rings).
    Llc2Connections,
    /// Not monomorphised: the composed path.
    Composed,
}

impl Shape {
    /// Every monomorphised shape.
    pub const FAST: [Shape; 14] = [
        Shape::Single("stop_and_wait"),
        Shape::Single("go_back_n"),
        Shape::Single("selective_repeat"),
        Shape::Single("hdlc"),
        Shape::Single("datagram"),
        Shape::Single("network_window"),
        Shape::Single("llc2"),
        Shape::Single("hf_arq"),
        Shape::Single("tp4"),
        Shape::TcpOver,
        Shape::TcpOverHf,
        Shape::Tp4Over,
        Shape::Tp4OverNetWindow,
        Shape::Llc2Connections,
    ];

    /// The shape [`Path::Fast`] runs `sc` on: LLC2 alone with several peers somewhere;
    /// else every node the same stack of at most two layers (the upper one top-only),
    /// one peer each, no layer that addresses peers itself (IP, X.25); else composed.
    pub fn of(sc: &Scenario) -> Shape {
        let nodes = &sc.topology.nodes;
        let shape = &nodes[0].stack;
        let several_peers = nodes.iter().any(|n| n.peers.len() > 1);
        if several_peers && nodes.iter().all(|n| matches!(n.stack.as_slice(), [ProtocolConfig::Llc2(_)])) {
            return Shape::Llc2Connections;
        }
        let same = nodes.iter().all(|n| n.stack.len() == shape.len() && n.stack.iter().zip(shape).all(|(a, b)| a.kind() == b.kind()));
        if !same || shape.len() > 2 || several_peers || addresses_peers(shape) || (shape.len() == 2 && !shape[0].declared().top_only) {
            return Shape::Composed;
        }
        match (&shape[0], shape.get(1)) {
            (ProtocolConfig::Tp4(_), Some(ProtocolConfig::NetworkWindow(_))) => Shape::Tp4OverNetWindow,
            (ProtocolConfig::Tp4(_), Some(_)) => Shape::Tp4Over,
            (ProtocolConfig::Tcp(_), Some(ProtocolConfig::HfArq(_))) => Shape::TcpOverHf,
            (ProtocolConfig::Tcp(_), Some(_)) => Shape::TcpOver,
            (l, None) => Shape::FAST.iter().copied().find(|&s| s == Shape::Single(l.kind())).unwrap_or(Shape::Composed),
            _ => Shape::Composed,
        }
    }
}

fn run_dispatch(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>, path: Path) -> Result<RunOutput, SimError> {
    let shape = if path == Path::Fast { Shape::of(sc) } else { Shape::Composed };
    // Each arm builds, per node, the layers its shape names (`Shape::of` checked them).
    match shape {
        Shape::Composed => composed::run(sc, seed, replication, w, t, path == Path::Chain),
        Shape::Llc2Connections => run_llc2_mux(sc, seed, replication, w, t),
        Shape::Tp4Over | Shape::Single("tp4") => run_tp4(sc, seed, replication, w, t),
        Shape::Tp4OverNetWindow => runner::run(sc, seed, replication, w, t, |n, _| match (&n.stack[0], &n.stack[1]) {
            (ProtocolConfig::Tp4(c), ProtocolConfig::NetworkWindow(nw)) => Tp4Over(Stacked::new(Tp4::new(c), NetWindow::<Tpdu>::new(nw))),
            (a, b) => unreachable!("dispatched on tp4 over network_window: {} over {}", a.kind(), b.kind()),
        }),
        Shape::TcpOverHf => run_tcp_over_hf(sc, seed, replication, w, t),
        Shape::TcpOver => run_tcp(sc, seed, replication, w, t),
        Shape::Single("stop_and_wait" | "go_back_n") => runner::run(sc, seed, replication, w, t, |n, _| match &n.stack[0] {
            ProtocolConfig::StopAndWait(c) | ProtocolConfig::GoBackN(c) => GoBackN::new(c),
            other => unreachable!("stack shapes validated: {}", other.kind()),
        }),
        Shape::Single("selective_repeat") => runner::run(sc, seed, replication, w, t, |n, _| match &n.stack[0] {
            ProtocolConfig::SelectiveRepeat(c) => SelectiveRepeat::new(c),
            other => unreachable!("stack shapes validated: {}", other.kind()),
        }),
        Shape::Single("hdlc") => runner::run(sc, seed, replication, w, t, |n, s| match &n.stack[0] {
            ProtocolConfig::Hdlc(c) => HdlcStation::new(c, s),
            other => unreachable!("stack shapes validated: {}", other.kind()),
        }),
        Shape::Single("datagram") => runner::run(sc, seed, replication, w, t, |n, _| match &n.stack[0] {
            ProtocolConfig::Datagram(c) => Datagram::new(c),
            other => unreachable!("stack shapes validated: {}", other.kind()),
        }),
        Shape::Single("network_window") => runner::run(sc, seed, replication, w, t, |n, _| match &n.stack[0] {
            ProtocolConfig::NetworkWindow(c) => NetWindow::new(c),
            other => unreachable!("stack shapes validated: {}", other.kind()),
        }),
        Shape::Single("llc2") => runner::run(sc, seed, replication, w, t, |n, _| match &n.stack[0] {
            ProtocolConfig::Llc2(c) => Llc2::new(c),
            other => unreachable!("stack shapes validated: {}", other.kind()),
        }),
        Shape::Single("hf_arq") => runner::run(sc, seed, replication, w, t, |n, s| match &n.stack[0] {
            ProtocolConfig::HfArq(c) => HfArq::new(c, s),
            other => unreachable!("stack shapes validated: {}", other.kind()),
        }),
        Shape::Single(other) => unreachable!("not a monomorphised kind: {other} (Shape::of returns only Shape::FAST)"),
    }
}

/// LLC2 connections multiplexed per node, as the composed path builds them
/// (`composed::run_depth`) but with `Llc2` in place of `AnyLayer`: no dispatch per
/// call and frames without the other header families' room (`tests/golden.rs` checks
/// the two trajectories are the same).
fn run_llc2_mux(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>) -> Result<RunOutput, SimError> {
    runner::run(sc, seed, replication, w, t, |n, _| {
        let ProtocolConfig::Llc2(c) = &n.stack[0] else { unreachable!("dispatched on llc2: {}", n.stack[0].kind()) };
        let conns = n.peers.iter().map(|&(peer, id)| Connection { id, peer, layer: Llc2::new(c) }).collect();
        Mux::new(conns, n.flow_conn.clone())
    })
}

/// TP4 alone on the medium, or over any frame layer (the subnetwork) but the network
/// window (`Shape::Tp4OverNetWindow`).
fn run_tp4(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>) -> Result<RunOutput, SimError> {
    let tp4 = |n: &crate::scenario::topology::NodeSpec| match &n.stack[0] {
        ProtocolConfig::Tp4(c) => Tp4::new(c),
        other => unreachable!("stack shapes validated: {}", other.kind()),
    };
    if sc.topology.nodes[0].stack.len() == 1 {
        return runner::run(sc, seed, replication, w, t, |n, _| tp4(n));
    }
    runner::run(sc, seed, replication, w, t, |n, s| Tp4Over(Stacked::new(tp4(n), AnyLayer::<Tpdu>::new(&n.stack[1], &Ctx::link(n.index, n.peer, s)))))
}

/// TCP over any link layer (x25 is dispatched above).
fn run_tcp(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>) -> Result<RunOutput, SimError> {
    runner::run(sc, seed, replication, w, t, |n, s| {
        let tcp = match &n.stack[0] {
            ProtocolConfig::Tcp(c) => TcpHost::open(&c.for_replication(n.index, seed, replication), opens_actively(sc, n.index)),
            other => unreachable!("dispatched on tcp: {}", other.kind()),
        };
        // TCP's own counters come out as `transport.<flow>` measures (`Tcp::extra_measures`).
        Stacked::new(tcp, AnyLayer::<Frame<Sdu>>::new(&n.stack[1], &Ctx::link(n.index, n.peer, s)))
    })
}

/// TCP over the HF ARQ (johnson's SMTP/TCP workload): its own PDU type, so not an
/// [`AnyLayer`]. Validation keeps hf_arq directly under tcp on every node.
fn run_tcp_over_hf(sc: &Scenario, seed: u64, replication: u64, w: &Windows, t: Option<Tracer>) -> Result<RunOutput, SimError> {
    runner::run(sc, seed, replication, w, t, |n, s| match (&n.stack[0], &n.stack[1]) {
        (ProtocolConfig::Tcp(c), ProtocolConfig::HfArq(h)) => {
            Stacked::new(TcpHost::open(&c.for_replication(n.index, seed, replication), opens_actively(sc, n.index)), HfArq::<Frame<Sdu>>::new(h, s))
        }
        (a, b) => unreachable!("dispatched on tcp over hf_arq: {} over {}", a.kind(), b.kind()),
    })
}

/// With TCP connection set-up, a node opens its connection actively if it is the
/// source (`from`) of the first flow with traffic it takes part in (a dialogue's
/// client), passively otherwise.
pub(crate) fn opens_actively(sc: &Scenario, node: u32) -> bool {
    sc.topology.flows.iter().find(|f| f.traffic.is_active() && (f.src == node || f.dst == node)).is_some_and(|f| f.src == node)
}

/// The frame-level trace of replication `replication` of `sc` between `from` and `to`
/// (at most `limit` records). The run stops at `to`; up to there it is the same
/// trajectory as [`replicate`] with a fixed warm-up (measurement windows do not change
/// what the stations do).
pub fn trace(
    sc: &Scenario,
    seed: u64,
    replication: u64,
    from: SimTime,
    to: SimTime,
    limit: usize,
) -> Result<Tracer, SimError> {
    let w = Windows {
        boundaries: vec![from.min(to), to],
    };
    let out = run_dispatch(
        sc,
        seed,
        replication,
        &w,
        Some(Tracer::new(from, to, limit)),
        Path::Fast,
    )?;
    Ok(out.trace.unwrap_or_else(|| Tracer::new(from, to, limit)))
}

/// Runs replication `replication` of `sc` with master seed `seed`.
pub fn replicate(sc: &Scenario, seed: u64, replication: u64) -> Result<Replication, SimError> {
    replicate_on(sc, seed, replication, Path::Fast)
}

/// [`replicate`] through the given runner path (the composed one reproduces the fast
/// one bit for bit: `tests/golden.rs` holds it to that).
pub fn replicate_on(sc: &Scenario, seed: u64, replication: u64, path: Path) -> Result<Replication, SimError> {
    let started = std::time::Instant::now();
    let end = SimTime::from_secs_f64(sc.run.duration_s);
    let mut events = 0;
    let (warmup, mser_reliable) = if sc.run.warmup == "mser5" {
        let pilot = run_dispatch(sc, seed, replication, &Windows::equal(SimTime::ZERO, end, MSER_INTERVALS), None, path)?;
        events += pilot.events;
        let (t, reliable) = mser_warmup(sc, &pilot, end);
        (t, Some(reliable))
    } else {
        (SimTime::from_secs_f64(sc.run.warmup_s), None)
    };
    let count = if sc.run.method == "batch_means" {
        sc.run.batches
    } else {
        1
    };
    let out = run_dispatch(sc, seed, replication, &Windows::equal(warmup, end, count), None, path)?;
    events += out.events;
    let accounting = out
        .accounting
        .into_iter()
        .map(|(d, a)| (d, Accounting { issued: a.issued, delivered: a.delivered, acknowledged: a.acknowledged, unacknowledged: a.unacknowledged }))
        .collect();
    let batches = out.windows.into_iter().map(|w| w.into_iter().collect()).collect();
    Ok(Replication {
        batches,
        events,
        simulated_s: out.simulated.as_secs_f64(),
        wall_s: started.elapsed().as_secs_f64(),
        fingerprint: format!("{:016x}", out.fingerprint),
        warmup_s: warmup.as_secs_f64(),
        accounting,
        mser_reliable,
        stalled: out.stalled.map(|s| StallReport { flow: s.flow.clone(), at_s: s.at.as_secs_f64(), idle_s: s.idle.as_secs_f64(), limit_s: s.limit.as_secs_f64(), message: s.to_string() }),
    })
}

/// MSER-5 on the pilot's per-interval mean transfer time of the first loaded direction;
/// an interval in which no message was timed repeats the previous value (0 before the
/// first). Returns the truncation time.
fn mser_warmup(sc: &Scenario, pilot: &RunOutput, end: SimTime) -> (SimTime, bool) {
    let d = (0..sc.topology.flows.len()).find(|&f| sc.loaded(f)).unwrap_or(0);
    let mut last = 0.0;
    let series: Vec<f64> = pilot
        .flow_windows
        .iter()
        .map(|w| {
            let x = &w[d];
            let v = if x.transfer_time_s.is_finite() {
                x.transfer_time_s
            } else {
                last
            };
            last = v;
            v
        })
        .collect();
    let r = crate::stats::mser5(&series);
    let interval = end.0 / MSER_INTERVALS;
    (SimTime(interval * r.truncate_obs as u64), r.reliable)
}
