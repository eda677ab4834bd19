//! What the runner does with a stack's outputs for the flows: keeping a saturated source
//! topped up, metering deliveries and acknowledgements, and releasing a dialogue's next
//! writes when a delivery completes a step. Split from `runner.rs`, whose event loop
//! calls these after every input.

use super::measure::DirectionMeter;
use super::state::{DialogueRun, Flow, Node, Release, SimError};
use crate::engine::SimTime;
use crate::protocol::{Event, Layer, Sdu, Service};
use crate::traffic::dialogue::Progress;

/// A saturated source always has an SDU waiting (as many as the stack's
/// `saturation_depth`: a layer that plans a whole burst at once needs more than one).
#[inline(always)]
pub(super) fn top_up<L: Layer<Sdu = Sdu>>(node: &mut Node<L>, flows: &mut [Flow], now: SimTime) {
    if let Some(f) = node.saturated {
        let depth = node.stack.saturation_depth();
        // At most `depth` submissions: a layer may drop an SDU (a duplicate filter).
        for _ in 0..depth {
            if node.stack.backlog_of(f) >= depth {
                break;
            }
            let flow = &mut flows[f as usize];
            match flow.source.take(now) {
                Some(bits) => {
                    let m = flow.issue(bits, now, f);
                    node.stack.handle_submit(now, m);
                }
                None => break,
            }
        }
    }
}

/// A delivery to a dialogue's receiver `n`: what it releases goes to `n`'s own stack
/// at once (the application answers with, or before, its acknowledgement) or, for
/// another node, to `released`, in order: the client's close and connect at a
/// session's end, the writes, the server's close after its last step.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(super) fn dialogue_delivered<L: Layer<Sdu = Sdu>>(run: &mut DialogueRun, dir: usize, m: &Sdu, n: usize, stack: &mut L, flows: &mut [Flow], unfinished: &mut usize, released: &mut Vec<(usize, Release)>, now: SimTime) {
    let Progress { writes, session_ended, done, server_closes } = run.d.delivered(dir, m.id, now, run.next_ids(flows));
    if done {
        *unfinished -= 1;
    }
    let [client, server] = run.nodes.map(|x| x as usize);
    let mut to = |node: usize, r: Release| if node == n { r.apply(stack, now) } else { released.push((node, r)) };
    if session_ended {
        to(client, Release::Close);
        if !done {
            to(client, Release::Connect);
        }
    }
    submit_writes(run, writes, now, flows, &mut |node, sdu| to(node, Release::Write(sdu)));
    if server_closes {
        to(server, Release::Close);
    }
}

/// Issues a dialogue's released writes as SDUs of its flows (ids in order) and hands
/// each to `submit` with the index of the node that sends it.
pub(super) fn submit_writes(run: &DialogueRun, writes: Vec<(usize, u32)>, now: SimTime, flows: &mut [Flow], submit: &mut impl FnMut(usize, Sdu)) {
    for (dir, bits) in writes {
        let f = run.flows[dir];
        let sdu = flows[f as usize].issue(bits, now, f);
        submit(run.nodes[dir] as usize, sdu);
    }
}

/// A delivery or acknowledgement into its flow's meter (and the pooled one); for a
/// delivery on a dialogue's flow, the dialogue and direction it moves.
#[inline(always)]
pub(super) fn deliver(flows: &mut [Flow], pooled: &mut Option<DirectionMeter>, unfinished: &mut usize, now: SimTime, e: Event<Sdu>) -> Result<Option<(u32, u8)>, Box<SimError>> {
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
