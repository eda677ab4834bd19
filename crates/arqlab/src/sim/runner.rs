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
//! it frees (one pending wake per node); re-read `poll_timeout` (the minimum over its
//! layers) and schedule a timer wake only when none is pending at or before it (a wake
//! that finds no deadline due is harmless; a duplicate is never queued).

use super::delivery::{deliver, dialogue_delivered, submit_writes, top_up};
use super::wiring;
use crate::engine::{EventQueue, SimTime};
use crate::protocol::{Event, Grant, Layer, Pdu, Sdu, Service, Station};
use crate::scenario::topology::NodeSpec;
use crate::scenario::Scenario;
use crate::trace::{TraceKind, Tracer};

use super::lanes::{gate, ready_at, transmit, Medium, Target};
use super::state::{inside, unbox, Ev, Sim, Step, ARRIVAL, BOUNDARY, END, MESSAGE, RELAY_READY, TIMER, TX_END};
pub use super::state::{FlowAccounting, RunOutput, SimError, Windows, MAX_ELEMENTS};
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
    run_wired(sc, wiring::wire(sc, seed, replication, trace, make, &|_, _| None)?, windows)
}

/// Runs a replication already wired (`wiring::wire`, e.g. with IP routers that run
/// link stacks).
pub(super) fn run_wired<L: Layer<Sdu = Sdu>>(sc: &Scenario, mut sim: Sim<L>, windows: &Windows) -> Result<RunOutput, SimError> {
    sim.start(windows)?;
    sim.run(windows).map_err(|e| match e {
        SimError::Livelock(l) => SimError::Livelock(l.named(sc)),
        e => e,
    })
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
                    // A bulk transfer written later: its first message then, the top-up after it.
                    if let Some(start) = self.flows[f].source.start() {
                        self.q.schedule(start, Ev::new(MESSAGE, f))?;
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
        // A flow stalled (found only when a timer fires or at a boundary).
        let mut stalled = false;
        // Per-event state in locals, not fields of `self`: `self` escapes into every
        // step, so its fields would be stored and reloaded around each one.
        let (mask, terminating) = (self.instant.mask(), self.terminating);
        let (mut events, mut fingerprint) = (self.events, self.fingerprint);
        while let Some((now, ev)) = self.q.pop() {
            events += 1;
            if events & mask == 0 {
                self.check_point(now, ev)?;
            }
            fingerprint = (fingerprint ^ now.0).wrapping_mul(0x0000_0100_0000_01b3) ^ ev.fingerprint_code();
            let i = ev.index();
            let step = match ev.kind() {
                ARRIVAL => self.arrival(i, now),
                TX_END if i < self.nodes.len() => {
                    self.nodes[i].tx_wake = false;
                    self.after_input(i, now)
                }
                TX_END => {
                    let (r, k) = self.port_owner[i - self.nodes.len()];
                    if self.is_link_router(r as usize) {
                        self.router_port_free(r as usize, k as usize, now)
                    } else {
                        let port = &mut self.relays[r as usize].ports[k as usize];
                        port.wake = false;
                        // A port's wake-up while waiting for a token releases nothing.
                        if !self.lanes[port.lane as usize].dir.is_busy(now) {
                            self.relays[r as usize].release(now, k as usize);
                        }
                        self.send_from_port(r as usize, k as usize, now)
                    }
                }
                TIMER if i >= self.nodes.len() => self.router_timer(i - self.nodes.len(), now),
                TIMER => {
                    let traced = self.trace.is_some();
                    let node = &mut self.nodes[i];
                    debug_assert_eq!(node.wakes.last(), Some(&now), "wakes fire in time order");
                    node.wakes.pop();
                    // Only a traced run reads the counters to see whether the timer fired.
                    let before = traced.then(|| node.stack.counters().timeouts);
                    node.stack.handle_timeout(now);
                    let (lanes, nodes, flows) = (&self.lanes, &self.nodes, &self.flows);
                    stalled = self.stall.timer_fired(flows, i, now, |n| lanes[nodes[n].lane as usize].dir.longest_frame(), |f| inside(nodes, flows, f));
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
                        let (lanes, nodes, flows) = (&self.lanes, &self.nodes, &self.flows);
                        self.stall.boundary(flows, now, |n| lanes[nodes[n].lane as usize].dir.longest_frame(), |f| inside(nodes, flows, f));
                    }
                    stalled = self.stall.stalled.is_some();
                    if stalled {
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
            if stalled || (terminating && self.unfinished == 0) {
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
        Ok(RunOutput { windows: out, flow_windows, events, simulated: end, fingerprint, accounting, trace: self.trace, stalled: self.stall.stalled })
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
                        record(trace, now, n, Some(l as u32), kind, Some(&w.frame), &nodes[n].stack);
                    }
                    lane.drop_arrival();
                }
                self.after_input(n, now)
            }
            Target::Port(r, k) if self.is_link_router(r as usize) => self.router_arrival(l, r as usize, k as usize, now),
            Target::Port(r, k) => {
                if let Some(w) = self.lanes[l].dir.take_arrival() {
                    if self.trace.is_some() {
                        let kind = if w.in_error { TraceKind::ReceiveInError } else { TraceKind::Receive };
                        let queued = self.relays[r as usize].ports[k as usize].queue.len();
                        record_relay(&mut self.trace, now, self.nodes.len() + r as usize, l as u32, kind, &w.frame, queued);
                    }
                    // A frame whose last bit leaves the output port now is out of the buffer
                    // before this one is admitted (its TxEnd may be later in the queue).
                    if let Some(out) = self.relays[r as usize].route(k as usize, w.dst) {
                        let out_lane = self.relays[r as usize].ports[out].lane as usize;
                        // (Token ring: the port's frame has left even though the token is elsewhere.)
                        let ended = if self.lanes[out_lane].medium.may_close_when_idle() { !self.lanes[out_lane].dir.is_busy(now) } else { self.lane_free(out_lane, now) };
                        if ended {
                            self.relays[r as usize].release(now, out);
                        }
                    }
                    let (relays, q) = (&mut self.relays, &mut self.q);
                    let mut scheduled = Ok(());
                    relays[r as usize].arrive_routed(now, k as usize, w.frame, w.dst, w.in_error, |at| {
                        if scheduled.is_ok() {
                            scheduled = q.schedule(at, Ev::new(RELAY_READY, r as usize));
                        }
                    });
                    scheduled?;
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
            // Token ring (outage): a port with frames waits for the token (the medium to
            // come up), one wake-up at a time.
            let port = &mut self.relays[r].ports[k];
            if self.lanes[lane].medium.may_close_when_idle() && port.sending.is_none() && !port.queue.is_empty() && !port.wake {
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
        if self.trace.is_some() {
            let queued = self.relays[r].ports[k].queue.len();
            record_relay(&mut self.trace, now, self.nodes.len() + r, lane as u32, TraceKind::Send, &frame, queued);
        }
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
        record(&mut self.trace, now, n, None, kind, frame, &self.nodes[n].stack);
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
                    record(trace, now, n, Some(l as u32), TraceKind::Send, Some(f), &node.stack);
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
            // A wake already pending at or before `at` re-reads the deadline when it fires.
            if node.wakes.last().is_none_or(|&w| at < w) {
                q.schedule(at, Ev::new(TIMER, n))?;
                node.wakes.push(at);
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
        for &(m, r) in &writes {
            r.apply(&mut self.nodes[m].stack, now);
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

#[cold]
fn record<L: Layer>(trace: &mut Option<Tracer>, now: SimTime, n: usize, lane: Option<u32>, kind: TraceKind, frame: Option<&L::Pdu>, stack: &L) {
    let (queued, unacknowledged) = (stack.backlog(), stack.unacknowledged());
    if let Some(t) = trace.as_mut() {
        t.push(now, n, lane, kind, frame.map(|f| (f.trace(), f.carried())), queued, unacknowledged);
    }
}

/// A relay's frame event: station `nodes + r`, its port's queue as the backlog.
#[cold]
pub(super) fn record_relay<P: crate::protocol::Pdu>(trace: &mut Option<Tracer>, now: SimTime, station: usize, lane: u32, kind: TraceKind, frame: &P, queued: usize) {
    if let Some(t) = trace.as_mut() {
        t.push(now, station, Some(lane), kind, Some((frame.trace(), frame.carried())), queued, 0);
    }
}
