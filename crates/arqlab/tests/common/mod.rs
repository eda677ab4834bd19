//! Shared by the integration tests: wrappers around a real protocol entity, driven by
//! the real runner (`arqlab::sim::runner::run`).
//!
//! - [`Lossy`] loses or corrupts frames arriving at its station until `errors_end`, then
//!   none; from `errors_end` on it holds back new messages from the upper layer, so the
//!   entity has a finite amount of work left and must finish it (liveness / recovery).
//! - [`Faulty`] corrupts the entity's `poll_event` stream (skips, duplicates, reorders or
//!   withholds deliveries and acknowledgements) to show that the runner's safety net
//!   reports each fault.
//!
//! Both are a [`Hooked`] entity (a [`Hook`] each: `Losses`, `Faults`), generic over
//! `Layer`, and touch only its inputs and `poll_event`, so they port to another layer
//! trait by renaming methods.
#![allow(dead_code)] // each test binary uses a part

use arqlab::engine::SimTime;
use arqlab::protocol::{Counters, Event, Grant, Layer, Pdu, Sdu, Service};
use arqlab::scenario::Scenario;
use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;

/// A two-station scenario on a 48 kbit/s link without channel errors (the wrappers make
/// the errors). The `[protocol]` table is unused: entities come from the maker closure.
pub fn scenario(delay_s: f64, a: &str, b: &str) -> Scenario {
    let text = format!(
        "[run]\nduration_s = 100.0\nstall_timers = 0\n[link]\nrate_bps = 48000.0\ndelay_s = {delay_s}\n\
         [protocol]\nkind = \"go_back_n\"\n[traffic.a]\n{a}\n[traffic.b]\n{b}\n"
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

pub const NONE: &str = "kind = \"none\"";

/// Flow `d`'s whole-run accounting: (issued, delivered, acknowledged, unacknowledged).
pub fn acc(out: &arqlab::sim::runner::RunOutput, d: usize) -> (u64, u64, u64, u64) {
    let a = out.accounting[d].1;
    (a.issued, a.delivered, a.acknowledged, a.unacknowledged)
}

/// After a [`Lossy`] run: in each direction every message issued is delivered except
/// those held back after the errors stop, every delivered one is acknowledged, and the
/// sender still holds exactly the held ones. The first mismatch, if any.
pub fn drained(out: &arqlab::sim::runner::RunOutput, logs: &[std::rc::Rc<Log>; 2]) -> Result<(), String> {
    for (d, log) in logs.iter().enumerate() {
        let (issued, delivered, acked, unacked) = acc(out, d);
        let held = log.held.get();
        if (delivered, acked, unacked) != (issued - held, issued - held, held) {
            return Err(format!(
                "direction {d}: issued {issued}, held back {held}: delivered {delivered}, acknowledged {acked}, unacknowledged {unacked}: {:?}",
                out.accounting
            ));
        }
    }
    Ok(())
}

pub fn saturated(bits: u32) -> String {
    format!("kind = \"saturated\"\nlength = {{ dist = \"uniform\", min_bits = 8, max_bits = {bits} }}")
}

pub fn poisson(load: f64, bits: u32) -> String {
    format!("kind = \"poisson\"\nload = {load}\nlength = {{ dist = \"constant\", mean_bits = {bits} }}")
}

/// splitmix64: a tiny deterministic generator for the loss pattern.
#[derive(Clone, Copy, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// How frames arriving at a station are hit while errors last.
#[derive(Clone, Copy, Debug)]
pub struct Loss {
    /// Probability that an I frame is hit (in the good state when bursty).
    pub p_data: f64,
    /// Probability that any other frame (acknowledgements, rejects, polls) is hit.
    pub p_ack: f64,
    /// Gilbert-like bursts: while "bad", every frame is hit.
    pub burst: bool,
    /// Share of hit frames lost without trace (the rest arrive with a failed FCS and go
    /// to `handle_frame_in_error`).
    pub vanish: f64,
}

/// What a [`Lossy`] station reports after the run (shared with the test).
#[derive(Debug, Default)]
pub struct Log {
    /// Messages held back from the entity after `errors_end`.
    pub held: Cell<u64>,
    /// Messages the entity held (queued or unacknowledged) at its last input before
    /// `errors_end`: the work left when the errors stop.
    pub left_at_end: Cell<u64>,
    /// Time of the last delivery or acknowledgement the entity reported.
    pub last_event: Cell<SimTime>,
    /// Frames hit.
    pub hit: Cell<u64>,
}

/// A real entity whose received frames are hit while errors last ([`Loss`]), and whose
/// new messages are held back from `errors_end` on.
pub type Lossy<P> = Hooked<P, Losses>;

/// `inner` behind a [`Losses`] hook.
pub fn lossy<P: Layer<Sdu = Sdu>>(inner: P, loss: Loss, seed: u64, errors_end: SimTime, log: Rc<Log>) -> Lossy<P> {
    Hooked { inner, hook: Losses { loss, rng: Rng(seed), bad: false, errors_end, now: SimTime::ZERO, log } }
}

/// The loss pattern and its state.
pub struct Losses {
    loss: Loss,
    rng: Rng,
    bad: bool,
    errors_end: SimTime,
    now: SimTime,
    log: Rc<Log>,
}

impl Losses {
    fn hit(&mut self, kind: &str) -> bool {
        let p = if kind == "I" { self.loss.p_data } else { self.loss.p_ack };
        if self.loss.burst {
            // Two-state: enter the bad state with probability p / 5, leave it with 0.3.
            if self.rng.uniform() < if self.bad { 0.3 } else { p / 5.0 } {
                self.bad = !self.bad;
            }
            self.bad
        } else {
            self.rng.uniform() < p
        }
    }
}

impl<P: Layer<Sdu = Sdu>> Hook<P> for Losses {
    fn input(&mut self, now: SimTime) {
        self.now = now;
    }
    fn transmit(&mut self, now: SimTime) {
        self.now = now;
    }
    fn after_input(&mut self, inner: &P) {
        if self.now < self.errors_end {
            self.log.left_at_end.set(inner.unacknowledged() as u64);
        }
    }
    fn submit(&mut self, inner: &mut P, now: SimTime, msg: Sdu) {
        if now >= self.errors_end {
            self.log.held.set(self.log.held.get() + 1);
        } else {
            inner.handle_submit(now, msg);
        }
    }
    fn receive(&mut self, inner: &mut P, now: SimTime, frame: &P::Pdu) {
        if now < self.errors_end && self.hit(frame.trace().kind) {
            self.log.hit.set(self.log.hit.get() + 1);
            if self.rng.uniform() >= self.loss.vanish {
                inner.handle_receive_in_error(now, frame);
            }
        } else {
            inner.handle_receive(now, frame);
        }
    }
    fn event(&mut self, inner: &mut P) -> Option<Event<Sdu>> {
        let e = inner.poll_event();
        if e.is_some() {
            self.log.last_event.set(self.now);
        }
        e
    }
    fn held(&self) -> usize {
        self.log.held.get() as usize
    }
}

/// A fault in an entity's event stream. `k` counts the events of that kind the entity
/// reported, from 0 (deliveries and acknowledgements separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    None,
    /// Delivery `k` is never reported (a lost message).
    SkipDelivery(u64),
    /// Delivery `k` is reported twice.
    DuplicateDelivery(u64),
    /// Deliveries `k` and `k + 1` are reported in the opposite order.
    SwapDeliveries(u64),
    /// From delivery `k` on nothing is reported, while the protocol acknowledges it.
    WithholdDeliveriesFrom(u64),
    /// Deliveries `k` … `k + n − 1` are reported only together with delivery `k + n`:
    /// the sender has their acknowledgements before the receiver delivers them.
    DelayDeliveries { k: u64, n: u64 },
    /// Acknowledgement `k` is never reported.
    SkipAck(u64),
    /// Acknowledgement `k` is reported twice.
    DuplicateAck(u64),
}

/// A hook on a real entity for a test: each method is a place a test may tamper with and
/// passes through by default; [`Hooked`] delegates everything else to the entity. The
/// fault injectors (`Faults` here, the livelock test's stuck deadline) override one or two.
pub trait Hook<P: Layer> {
    /// Every input (a submission, a frame, a timeout), before the entity sees it.
    fn input(&mut self, _now: SimTime) {}
    /// Every transmit opportunity, before the entity sees it.
    fn transmit(&mut self, _now: SimTime) {}
    /// After every input, the entity as it is then.
    fn after_input(&mut self, _inner: &P) {}
    /// A submission, passed to the entity.
    fn submit(&mut self, inner: &mut P, now: SimTime, msg: P::Sdu) {
        inner.handle_submit(now, msg)
    }
    /// An intact frame, passed to the entity.
    fn receive(&mut self, inner: &mut P, now: SimTime, frame: &P::Pdu) {
        inner.handle_receive(now, frame)
    }
    /// Whether a timeout reaches the entity.
    fn pass_timeout(&self) -> bool {
        true
    }
    /// The deadline reported, given the entity's.
    fn deadline(&self, inner: Option<SimTime>) -> Option<SimTime> {
        inner
    }
    /// The next event reported, drawn from the entity's stream.
    fn event(&mut self, inner: &mut P) -> Option<Event<P::Sdu>> {
        inner.poll_event()
    }
    /// Messages the hook holds back from the entity (in its backlog, unacknowledged).
    fn held(&self) -> usize {
        0
    }
}

/// A real entity with a [`Hook`]: a `Layer` that delegates every method to `inner`,
/// through the hook where it has one.
pub struct Hooked<P, H> {
    pub inner: P,
    pub hook: H,
}

impl<P: Layer, H: Hook<P>> Layer for Hooked<P, H> {
    const HOLDS_RECEIVED: bool = P::HOLDS_RECEIVED;
    type Sdu = P::Sdu;
    type Pdu = P::Pdu;

    fn service(&self) -> Service {
        self.inner.service()
    }
    fn handle_submit(&mut self, now: SimTime, msg: P::Sdu) {
        self.hook.input(now);
        self.hook.submit(&mut self.inner, now, msg);
        self.hook.after_input(&self.inner);
    }
    fn handle_receive(&mut self, now: SimTime, frame: &P::Pdu) {
        self.hook.input(now);
        self.hook.receive(&mut self.inner, now, frame);
        self.hook.after_input(&self.inner);
    }
    fn handle_receive_in_error(&mut self, now: SimTime, frame: &P::Pdu) {
        self.hook.input(now);
        self.inner.handle_receive_in_error(now, frame);
        self.hook.after_input(&self.inner);
    }
    fn handle_timeout(&mut self, now: SimTime) {
        self.hook.input(now);
        if self.hook.pass_timeout() {
            self.inner.handle_timeout(now)
        }
        self.hook.after_input(&self.inner);
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<P::Pdu> {
        self.hook.transmit(now);
        self.inner.poll_transmit(now, grant)
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        self.hook.deadline(self.inner.poll_timeout())
    }
    fn poll_event(&mut self) -> Option<Event<P::Sdu>> {
        self.hook.event(&mut self.inner)
    }
    fn backlog(&self) -> usize {
        self.inner.backlog() + self.hook.held()
    }
    fn unacknowledged(&self) -> usize {
        self.inner.unacknowledged() + self.hook.held()
    }
    fn counters(&self) -> Counters {
        self.inner.counters()
    }
    fn wants_transmit(&self) -> bool {
        self.inner.wants_transmit()
    }
    fn receive_buffer_bits(&self) -> u64 {
        self.inner.receive_buffer_bits()
    }
}

/// An entity whose event stream carries `fault` (the safety net's subject).
pub type Faulty<P> = Hooked<P, Faults>;

pub fn faulty<P: Layer<Sdu = Sdu>>(inner: P, fault: Fault) -> Faulty<P> {
    Hooked { inner, hook: Faults { fault, delivered: 0, acked: 0, out: VecDeque::new(), held: vec![] } }
}

/// The fault and the events it holds back or queues.
pub struct Faults {
    fault: Fault,
    delivered: u64,
    acked: u64,
    out: VecDeque<Event<Sdu>>,
    held: Vec<Event<Sdu>>,
}

impl Faults {
    /// Applies the fault to one event of the real stream, queueing what is reported.
    fn corrupt(&mut self, e: Event<Sdu>) {
        match e {
            Event::Delivered(_) => {
                let k = self.delivered;
                self.delivered += 1;
                match self.fault {
                    Fault::SkipDelivery(j) if j == k => {}
                    Fault::DuplicateDelivery(j) if j == k => self.out.extend([e, e]),
                    Fault::SwapDeliveries(j) if j == k => self.held.push(e),
                    Fault::SwapDeliveries(j) if j + 1 == k => {
                        self.out.push_back(e);
                        self.out.extend(self.held.drain(..));
                    }
                    Fault::WithholdDeliveriesFrom(j) if k >= j => {}
                    Fault::DelayDeliveries { k: j, n } if k >= j && k < j + n => self.held.push(e),
                    Fault::DelayDeliveries { k: j, n } if k == j + n => {
                        self.out.extend(self.held.drain(..));
                        self.out.push_back(e);
                    }
                    _ => self.out.push_back(e),
                }
            }
            Event::Acknowledged(_) => {
                let k = self.acked;
                self.acked += 1;
                match self.fault {
                    Fault::SkipAck(j) if j == k => {}
                    Fault::DuplicateAck(j) if j == k => self.out.extend([e, e]),
                    _ => self.out.push_back(e),
                }
            }
        }
    }
}

impl<P: Layer<Sdu = Sdu>> Hook<P> for Faults {
    fn event(&mut self, inner: &mut P) -> Option<Event<Sdu>> {
        while self.out.is_empty() {
            let e = inner.poll_event()?;
            self.corrupt(e);
        }
        self.out.pop_front()
    }
}

/// A shipped scenario (`scenarios/<path>`) with each `(from, to)` replaced in its text
/// (each must occur).
pub fn shipped(path: &str, edits: &[(&str, &str)]) -> Scenario {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios").join(path);
    let mut text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    for (from, to) in edits {
        assert!(text.contains(from), "{path} has no {from:?}");
        text = text.replace(from, to);
    }
    Scenario::from_value(&arqlab::scenario::toml_to_json(&text).unwrap()).unwrap_or_else(|e| panic!("{path}: {e}"))
}
