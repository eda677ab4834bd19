//! An endpoint's TCP connections, one after another: the application closes one
//! ([`Layer::handle_close`]) and opens the next ([`Layer::handle_connect`]) — Johnson's
//! SMTP sessions, each "221 … closing connection" and a new connection for the next
//! message. The closing connection finishes its FIN exchange (and TIME-WAIT) beside the
//! new one; TIME-WAIT does not block the next connection because that one has its own
//! ISS (RFC 9293 §3.4.1's rule that a new incarnation starts above the old sequence
//! space; RFC 6191).
//!
//! Ports are not modelled: connection k of a pair uses ISS = k·2^24 in both
//! directions, and a segment is demultiplexed by the sequence space it names — a SYN by
//! its N(S) (the ISS), every other segment by its N(R) (ISS + 1 + octets acknowledged).
//! A connection may carry up to 16 MiB while another of the pair is open; one alone
//! (a bulk transfer) takes every segment whatever its sequence numbers. A passive
//! endpoint answers any SYN of a new ISS with a new connection; data the application
//! submits after closing waits in that connection until the SYN arrives.

use super::endpoint::State;
use super::{Tcp, TcpConfig};
use crate::engine::SimTime;
use crate::protocol::{Counters, Event, Frame, FrameKind, Grant, Layer, Sdu, Service};

/// The sequence space of one connection.
const SPACE_BITS: u32 = 24;

pub struct TcpHost {
    cfg: TcpConfig,
    /// Oldest first; the last is the application's (it submits and closes there).
    conns: Vec<Tcp>,
    /// The ISS of a passive connection is still to come (from the peer's SYN).
    listening: bool,
    /// Counters and measures of the connections already forgotten.
    retired: Counters,
    retired_measures: Vec<(&'static str, f64)>,
    /// Connections opened (actively or passively) since the start.
    opened: u64,
    /// The per-path RTT cache (`rtt_cache`): (SRTT, RTTVAR) of the latest connection
    /// that measured one.
    rtt: Option<(f64, f64)>,
}

impl TcpHost {
    /// An endpoint whose first connection opens actively (sends its SYN at once) if
    /// `active` and `connection_setup` is on; passively otherwise.
    pub fn open(cfg: &TcpConfig, active: bool) -> TcpHost {
        let first = Tcp::open(cfg, active);
        let listening = first.state() == State::Listen;
        TcpHost { cfg: cfg.clone(), conns: vec![first], listening, retired: Counters::default(), retired_measures: vec![], opened: 1, rtt: None }
    }

    /// The application's connection (the newest).
    pub fn current(&self) -> &Tcp {
        self.conns.last().unwrap_or_else(|| unreachable!("a host always has a connection"))
    }

    /// Connections not yet forgotten, oldest first.
    pub fn connections(&self) -> &[Tcp] {
        &self.conns
    }

    fn current_mut(&mut self) -> &mut Tcp {
        self.conns.last_mut().unwrap_or_else(|| unreachable!("a host always has a connection"))
    }

    fn space(seq: u32) -> u32 {
        seq >> SPACE_BITS
    }

    /// A new connection as the application's: active (its SYN with the next ISS) or
    /// listening for the peer's.
    fn push(&mut self, active: bool) {
        let iss = u64::from(Self::space(self.current().iss() as u32).wrapping_add(1) & 0xFF) << SPACE_BITS;
        let mut next = Tcp::open_with_iss(&self.cfg, active, if active { iss } else { 0 });
        if self.cfg.rtt_cache {
            self.rtt = self.current_mut().timer().estimate().or(self.rtt);
            if let Some(rtt) = self.rtt {
                next.timer().seed(rtt);
            }
        }
        self.conns.push(next);
        self.listening = !active;
        self.opened += 1;
    }

    /// The connection a received segment belongs to, if any (a SYN of a new ISS makes
    /// a passive one).
    fn route(&mut self, f: &Frame<Sdu>) -> Option<usize> {
        let syn = f.kind == FrameKind::I && f.command && !f.pf;
        let space = if syn { Self::space(f.ns) } else { Self::space(f.nr.wrapping_sub(1)) };
        let known = self.conns.len() - usize::from(self.listening);
        if let Some(i) = self.conns[..known].iter().position(|c| Self::space(c.iss() as u32) == space) {
            return Some(i);
        }
        if syn {
            if !self.listening {
                self.push(false);
            }
            self.listening = false;
            let last = self.conns.len() - 1;
            self.conns[last].set_iss(u64::from(space) << SPACE_BITS);
            return Some(last);
        }
        // One connection carries everything (a long transfer beyond one space).
        (self.conns.len() == 1).then_some(0)
    }

    /// Forgets closed connections (never the application's).
    fn reap(&mut self) {
        let mut i = 0;
        while i + 1 < self.conns.len() {
            if self.conns[i].state() != State::Closed {
                i += 1;
                continue;
            }
            let c = self.conns.remove(i);
            self.retired = self.retired.plus(&c.counters());
            add(&mut self.retired_measures, c.extra_measures());
        }
    }
}

/// Adds measures `from` into `to`, name by name.
fn add(to: &mut Vec<(&'static str, f64)>, from: Vec<(&'static str, f64)>) {
    for (k, v) in from {
        match to.iter_mut().find(|x| x.0 == k) {
            Some(x) => x.1 += v,
            None => to.push((k, v)),
        }
    }
}

impl Layer for TcpHost {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = Sdu;
    type Pdu = Frame<Sdu>;

    fn service(&self) -> Service {
        Service::InOrder
    }

    /// To the application's connection; after it closed, to the next (passive) one.
    fn handle_submit(&mut self, now: SimTime, sdu: Sdu) {
        if self.current().close_requested() {
            self.push(false);
        }
        self.current_mut().handle_submit(now, sdu);
    }

    fn handle_close(&mut self, _now: SimTime) {
        self.current_mut().close();
    }

    fn handle_connect(&mut self, _now: SimTime) {
        if self.cfg.connection_setup {
            self.push(true);
        }
    }

    fn handle_receive(&mut self, now: SimTime, f: &Frame<Sdu>) {
        if let Some(i) = self.route(f) {
            self.conns[i].handle_receive(now, f);
        }
        self.reap();
    }

    fn handle_receive_in_error(&mut self, now: SimTime, f: &Frame<Sdu>) {
        self.current_mut().handle_receive_in_error(now, f);
    }

    /// Each connection's do ([`Tcp`]); forgetting a closed connection takes nothing
    /// from what the others send.
    fn timeouts_wait_for_deadline(&self) -> bool {
        true
    }

    fn handle_timeout(&mut self, now: SimTime) {
        for c in &mut self.conns {
            c.handle_timeout(now);
        }
        self.reap();
    }

    /// The oldest connection with something to send goes first (a closing one's FIN
    /// and ACKs before the next one's SYN).
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<Sdu>> {
        self.conns.iter_mut().find_map(|c| c.poll_transmit(now, grant))
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        self.conns.iter().filter_map(Tcp::poll_timeout).min()
    }

    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.conns.iter_mut().find_map(Tcp::poll_event)
    }

    fn wants_transmit(&self) -> bool {
        self.conns.iter().any(Tcp::wants_transmit)
    }

    fn backlog(&self) -> usize {
        self.conns.iter().map(Tcp::backlog).sum()
    }

    fn unacknowledged(&self) -> usize {
        self.conns.iter().map(Tcp::unacknowledged).sum()
    }

    fn counters(&self) -> Counters {
        self.conns.iter().fold(self.retired, |acc, c| acc.plus(&c.counters()))
    }

    fn receive_buffer_bits(&self) -> u64 {
        self.conns.iter().map(Tcp::receive_buffer_bits).sum()
    }

    /// The connections' (a connection retired, or a new one opened, changes it too:
    /// the session moved on).
    fn progress(&self) -> u64 {
        self.conns.iter().fold(self.opened, |acc, c| acc.wrapping_add(c.progress()))
    }

    /// Every connection's measures summed ([`Tcp::extra_measures`]), and the
    /// connections opened.
    fn extra_measures(&self) -> Vec<(&'static str, f64)> {
        let mut m = self.retired_measures.clone();
        for c in &self.conns {
            add(&mut m, c.extra_measures());
        }
        m.push(("tcp_connections", self.opened as f64));
        m
    }
}
