//! The IP-to-X.25 interface of one host (RFC 877; Comer & Korb 1984 §6): per-site
//! queues of datagrams (small ones before large ones), the virtual circuits open to
//! each site, datagrams handed round robin to a site's free circuits, and the circuit
//! manager deciding opens and closes. Pulled by the link level one packet at a time.

use super::circuit::{Circuit, VcState};
use super::manager::{select_victim, Policy};
use super::packet::{Packet, PacketKind};
use super::X25Config;
use crate::engine::{Duration, SimTime};
use crate::protocol::Payload;
use std::cell::Cell;
use std::collections::VecDeque;

/// A datagram waiting for a circuit: (number, payload, octets).
type Queued<P> = (u64, P, u32);

struct Site<P> {
    small: VecDeque<Queued<P>>,
    large: VecDeque<Queued<P>>,
    last_open: Option<SimTime>,
    /// Round-robin position over the site's circuits.
    rr: usize,
    /// The site's circuits free for a datagram, and those holding one (`Class`).
    free: u32,
    sending: u32,
}

impl<P> Default for Site<P> {
    fn default() -> Self {
        Site { small: VecDeque::new(), large: VecDeque::new(), last_open: None, rr: 0, free: 0, sending: 0 }
    }
}

/// What a circuit can do for its site's datagrams: (free for one, holding one).
type Class = (bool, bool);

fn class<P: Payload>(c: &Circuit<P>) -> Class {
    (c.free(), c.sending())
}

impl<P> Site<P> {
    fn queued(&self) -> usize {
        self.small.len() + self.large.len()
    }

    /// A datagram on one of its circuits and none free: the site waits for the network.
    fn blocked(&self) -> bool {
        self.sending > 0 && self.free == 0
    }

    /// One of its circuits went from class `was` to `now`; `blocked_sites` follows.
    fn retally(&mut self, blocked_sites: &mut u32, was: Class, now: Class) {
        let before = self.blocked();
        self.free = self.free + u32::from(now.0) - u32::from(was.0);
        self.sending = self.sending + u32::from(now.1) - u32::from(was.1);
        match (before, self.blocked()) {
            (false, true) => *blocked_sites += 1,
            (true, false) => *blocked_sites -= 1,
            _ => {}
        }
    }
    fn pop(&mut self) -> Option<Queued<P>> {
        self.small.pop_front().or_else(|| self.large.pop_front())
    }
}

/// Counters of the interface (the cost and the manager's behaviour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InterfaceCounters {
    pub calls_placed: u64,
    pub calls_received: u64,
    pub calls_refused: u64,
    pub circuits_closed: u64,
    /// Closes of a circuit open less than `thrash_window` (LRU thrashing).
    pub short_lived_closes: u64,
    /// Closes by `select_and_close_circuit`'s first rule: a circuit of a site with more
    /// than C_max open (only possible when that site called in), whatever asked for it.
    pub crowded_site_closes: u64,
    /// Closes asked for by `enqueue_datagram` (the paper's only caller of
    /// `select_and_close_circuit`), by rule: 1 (a crowded site's LRU circuit), 2 (the
    /// LRU circuit of all).
    pub close_rule_1: u64,
    pub close_rule_2: u64,
    /// Closes made to accept an incoming CALL REQUEST with every channel in use (a
    /// rule of this model, not of the paper's pseudo-code). With the two above they
    /// make `circuits_closed`.
    pub closes_for_calls_in: u64,
    /// Calls `enqueue_datagram` placed to a site that already had a circuit open or
    /// being opened: multi-circuit MLRU's second … C_max-th circuits (the study's
    /// pre-opened circuits are not counted). Zero means the multi-circuit rule never ran.
    pub extra_circuit_calls: u64,
    pub datagrams_sent: u64,
    pub datagrams_delivered: u64,
    /// Discarded because no circuit could be obtained (§6.2), or lost because a circuit
    /// was cleared by the peer under it.
    pub datagrams_discarded: u64,
    pub data_packets_sent: u64,
    pub rr_packets_sent: u64,
    pub sequence_errors: u64,
    /// Octets of the datagrams handed to circuits (IP headers included): with
    /// `data_packets_sent` it gives how full the packets were (RFC 877 leaves the
    /// tail of a datagram's last packet empty).
    pub datagram_octets_sent: u64,
}

impl InterfaceCounters {
    /// The counters as `x25_*` measures (scope `transport.<flow>`, both hosts summed).
    pub fn pairs(&self) -> Vec<(&'static str, f64)> {
        vec![
            ("x25_calls_placed", self.calls_placed as f64),
            ("x25_calls_received", self.calls_received as f64),
            ("x25_calls_refused", self.calls_refused as f64),
            ("x25_circuits_closed", self.circuits_closed as f64),
            ("x25_short_lived_closes", self.short_lived_closes as f64),
            ("x25_close_rule_1", self.close_rule_1 as f64),
            ("x25_close_rule_2", self.close_rule_2 as f64),
            ("x25_closes_for_calls_in", self.closes_for_calls_in as f64),
            ("x25_extra_circuit_calls", self.extra_circuit_calls as f64),
            ("x25_datagrams_sent", self.datagrams_sent as f64),
            ("x25_datagrams_delivered", self.datagrams_delivered as f64),
            ("x25_datagrams_discarded", self.datagrams_discarded as f64),
            ("x25_data_packets_sent", self.data_packets_sent as f64),
            ("x25_rr_packets_sent", self.rr_packets_sent as f64),
            ("x25_datagram_octets_sent", self.datagram_octets_sent as f64),
        ]
    }
}

pub struct Interface<P> {
    pub me: u32,
    cfg: X25Config,
    policy: Policy,
    ack_timer: Duration,
    /// Per site, indexed by its node number (grown on first use): the sites are the
    /// run's nodes, few and numbered from 0, and `assign` visits them in that order.
    sites: Vec<Site<P>>,
    /// Channels: at most `cfg.channels` circuits at a time. Occupy and free them
    /// through [`Interface::set_circuit`], which keeps `active`; change a circuit
    /// through [`Interface::circuit_mut`], which ends a quiet spell (`quiet_until`).
    pub circuits: Vec<Option<Circuit<P>>>,
    /// The occupied channels in ascending order: scans visit these only, in the order
    /// a scan over every channel would (the results are identical).
    active: Vec<usize>,
    /// Channels whose circuit may want to send, one bit each. A clear bit's circuit
    /// answers `wants` false and has no control packet waiting (whose due time would
    /// pass without an input), and has had no input since: it answers false again, and
    /// `search` skips it. Every change of a circuit sets its bit; `search` clears it.
    may_send: Vec<u64>,
    /// Sites whose datagrams wait for the network (`Site::blocked`), kept through each
    /// change of a circuit's `Class`: `waits_for_network` reads it instead of scanning.
    blocked_sites: u32,
    /// A circuit was handed out by `circuit_mut` (tests): the sites' tallies are
    /// counted afresh before their next use.
    tally_stale: bool,
    next_channel: u32,
    /// Round-robin position over circuits for the link level.
    rr: usize,
    next_number: u64,
    /// Packets outside any circuit (CLEAR REQUESTs of closed or refused circuits).
    pending: VecDeque<Packet<P>>,
    /// Datagrams queued over all sites (`assign` and `wants` skip the sites when 0).
    queued_total: usize,
    /// False only when `assign`'s last pass gave out nothing and nothing it depends on
    /// has changed since: no datagram queued, no channel occupied or freed, no circuit
    /// become free (opened, or its datagram's last packet sent). Another pass would
    /// then give out nothing either and is skipped (a datagram often waits for a
    /// circuit through many pulls). A pass that gives out datagrams leaves it set: the
    /// next pass may give out more (its round robin moves past a circuit it serves).
    assign_due: bool,
    /// `assign`'s list of a site's channels, kept to avoid an allocation per call.
    scratch: Vec<usize>,
    /// `next_packet` found nothing, with `assign` not due, and nothing has changed
    /// since but the time: until this time (the next control packet's due time, or
    /// `SimTime::MAX`) it finds nothing again and returns at once (most pulls of the
    /// link level find nothing: every circuit's window closed). `SimTime::ZERO`: not
    /// quiet. Every input (submit, a packet, a timer fired, a channel changed) ends it.
    quiet_until: SimTime,
    /// The time of the last input.
    now: SimTime,
    /// `poll_timeout`'s last answer while no circuit's deadlines have changed since
    /// (most inputs are the access line's and leave them alone); `None`: recompute.
    /// Kept only when no circuit has a control packet waiting, whose deadline counts
    /// only while it is after `now`.
    timeout_memo: Cell<Option<Option<SimTime>>>,
    pub counters: InterfaceCounters,
    /// Since when a pull found nothing to send while a datagram waited with no circuit
    /// to its site free (`note_blocked`); `None`: not so.
    blocked_since: Option<SimTime>,
    /// The closed spells of `blocked_since`: the time datagrams waited at the
    /// interface for the network, the line free and every circuit that could carry
    /// them holding one behind a closed window (`x25_window_blocked_s`).
    pub window_blocked: Duration,
}

impl<P: Payload> Interface<P> {
    pub fn new(me: u32, cfg: &X25Config) -> Self {
        Interface {
            me,
            cfg: cfg.clone(),
            policy: cfg.policy(),
            ack_timer: Duration::from_secs_f64(cfg.ack_timer_s),
            sites: Vec::new(),
            circuits: (0..cfg.channels).map(|_| None).collect(),
            active: Vec::with_capacity(cfg.channels as usize),
            may_send: vec![0; (cfg.channels as usize).div_ceil(64)],
            blocked_sites: 0,
            tally_stale: false,
            next_channel: 0,
            rr: 0,
            next_number: 0,
            pending: VecDeque::new(),
            queued_total: 0,
            assign_due: true,
            scratch: Vec::with_capacity(cfg.channels as usize),
            quiet_until: SimTime::ZERO,
            now: SimTime::ZERO,
            timeout_memo: Cell::new(None),
            counters: InterfaceCounters::default(),
            blocked_since: None,
            window_blocked: Duration::ZERO,
        }
    }

    /// Puts `c` in channel `slot` (None frees it), keeping the index of occupied ones.
    pub fn set_circuit(&mut self, slot: usize, c: Option<Circuit<P>>) -> Option<Circuit<P>> {
        self.settle();
        self.assign_due = true;
        self.quiet_until = SimTime::ZERO;
        self.timeout_memo.set(None);
        if let Some(c) = &c {
            self.site(c.peer);
            self.sites[c.peer as usize].retally(&mut self.blocked_sites, (false, false), class(c));
        }
        let old = std::mem::replace(&mut self.circuits[slot], c);
        if let Some(o) = &old {
            self.sites[o.peer as usize].retally(&mut self.blocked_sites, class(o), (false, false));
        }
        match (old.is_some(), self.circuits[slot].is_some()) {
            (false, true) => {
                let k = self.active.partition_point(|&i| i < slot);
                self.active.insert(k, slot);
            }
            (true, false) => self.active.retain(|&i| i != slot),
            _ => {}
        }
        self.mark(slot, self.circuits[slot].is_some());
        old
    }

    /// The circuit in channel `slot`, to change it (ends a quiet spell).
    pub fn circuit_mut(&mut self, slot: usize) -> Option<&mut Circuit<P>> {
        self.quiet_until = SimTime::ZERO;
        self.timeout_memo.set(None);
        self.tally_stale = true;
        self.mark(slot, self.circuits[slot].is_some());
        self.circuits[slot].as_mut()
    }

    /// Sets (`on`) or clears channel `slot`'s bit in `may_send`.
    fn mark(&mut self, slot: usize, on: bool) {
        let (w, b) = (slot / 64, 1u64 << (slot % 64));
        if on {
            self.may_send[w] |= b;
        } else {
            self.may_send[w] &= !b;
        }
    }

    /// The first channel at or after `from` whose `may_send` bit is set.
    fn next_may_send(&self, from: usize) -> Option<usize> {
        let mut w = from / 64;
        let mut word = self.may_send.get(w)? & (!0u64 << (from % 64));
        while word == 0 {
            w += 1;
            word = *self.may_send.get(w)?;
        }
        Some(64 * w + word.trailing_zeros() as usize)
    }

    /// Counts the sites' tallies afresh if `circuit_mut` handed a circuit out (tests
    /// only: the check is inlined, the count is not).
    #[inline]
    fn settle(&mut self) {
        if self.tally_stale {
            self.recount();
        }
    }

    #[cold]
    #[inline(never)]
    fn recount(&mut self) {
        self.tally_stale = false;
        for s in &mut self.sites {
            (s.free, s.sending) = (0, 0);
        }
        self.blocked_sites = 0;
        for k in 0..self.active.len() {
            let c = self.circuits[self.active[k]].as_ref().expect("active");
            let (site, now) = (c.peer, class(c));
            self.site(site);
            self.sites[site as usize].retally(&mut self.blocked_sites, (false, false), now);
        }
    }

    /// The occupied channels' circuits, in channel order.
    fn open_circuits(&self) -> impl Iterator<Item = &Circuit<P>> {
        self.active.iter().filter_map(|&i| self.circuits[i].as_ref())
    }

    fn in_use(&self) -> u32 {
        self.active.len() as u32
    }

    fn open_to(&self, site: u32) -> u32 {
        self.open_circuits().filter(|c| c.peer == site && c.state != VcState::Clearing).count() as u32
    }

    /// The state of `site`, made on first use.
    fn site(&mut self, site: u32) -> &mut Site<P> {
        let i = site as usize;
        if i >= self.sites.len() {
            self.sites.resize_with(i + 1, Site::default);
        }
        &mut self.sites[i]
    }

    /// Octets of a datagram carrying `bits` of payload (the IP header included).
    pub fn datagram_octets(&self, bits: u32) -> u32 {
        (bits + self.cfg.ip_header_bits).div_ceil(8)
    }

    /// Opens `n` circuits to `site` now (the study's "opened before the test").
    pub fn preopen(&mut self, now: SimTime, site: u32, n: u32) {
        for _ in 0..n {
            if !self.place_call(now, site) {
                break;
            }
        }
    }

    /// `output_interface` / `enqueue_datagram` (§6.2) for a datagram to `site`.
    pub fn submit(&mut self, now: SimTime, site: u32, payload: P) {
        self.now = now;
        self.quiet_until = SimTime::ZERO;
        let octets = self.datagram_octets(payload.bits());
        let number = self.next_number;
        self.next_number += 1;
        let open = self.open_to(site);
        let s = self.site(site);
        let (queued, last_open) = (s.queued(), s.last_open);
        if self.policy.wants_open(now, site, open, queued, last_open) {
            let (_, _, k) = self.policy.effective();
            let mut can = self.in_use() + k < self.cfg.channels;
            if !can {
                can = self.close_one(now, false);
            }
            if can {
                if self.place_call(now, site) && open > 0 {
                    self.counters.extra_circuit_calls += 1;
                }
            } else if open == 0 {
                // No connection can be obtained: the site's waiting datagrams go.
                let s = &mut self.sites[site as usize];
                self.counters.datagrams_discarded += s.queued() as u64 + 1;
                self.queued_total -= s.queued();
                s.small.clear();
                s.large.clear();
                return;
            }
        }
        let s = &mut self.sites[site as usize];
        self.queued_total += 1;
        self.assign_due = true;
        if octets <= self.cfg.small_datagram_octets {
            s.small.push_back((number, payload, octets));
        } else {
            s.large.push_back((number, payload, octets));
        }
    }

    /// `select_and_close_circuit`. The channel is free at once: X.25 clearing is
    /// confirmed by the local DCE (local significance), and the CLEAR REQUEST still
    /// travels to the remote DTE, which frees its end when it arrives.
    /// `for_call_in`: asked for by an incoming CALL REQUEST, not by `enqueue_datagram`.
    fn close_one(&mut self, now: SimTime, for_call_in: bool) -> bool {
        let Some(i) = select_victim(&self.circuits, &self.policy, now) else { return false };
        // A victim on a crowded site is rule 1's: rule 2's LRU circuit there would be
        // that site's LRU circuit too, old enough, so rule 1 would have taken it.
        let rule_1 = self.circuits[i].as_ref().is_some_and(|c| self.open_to(c.peer) > self.policy.c_max_to(c.peer));
        let k = &mut self.counters;
        k.crowded_site_closes += u64::from(rule_1);
        match (for_call_in, rule_1) {
            (true, _) => k.closes_for_calls_in += 1,
            (false, true) => k.close_rule_1 += 1,
            (false, false) => k.close_rule_2 += 1,
        }
        let c = self.set_circuit(i, None).expect("victim exists");
        self.counters.circuits_closed += 1;
        if now - c.opened_at < Duration::from_secs_f64(self.cfg.thrash_window_s) {
            self.counters.short_lived_closes += 1;
        }
        self.pending.push_back(Packet::control(PacketKind::ClearRequest, c.vc, 0, self.me, c.peer, 2));
        true
    }

    fn free_slot(&self) -> Option<usize> {
        self.circuits.iter().position(Option::is_none)
    }

    fn place_call(&mut self, now: SimTime, site: u32) -> bool {
        let Some(slot) = self.free_slot() else { return false };
        let vc = (self.me << 12) | (self.next_channel & 0xFFF);
        self.next_channel += 1;
        let mut c = Circuit::new(vc, self.me, site, true, self.cfg.window, self.cfg.modulus, self.cfg.packet_octets, now);
        c.control = Some((PacketKind::CallRequest, now));
        self.set_circuit(slot, Some(c));
        self.site(site).last_open = Some(now);
        self.counters.calls_placed += 1;
        true
    }

    fn find(&self, vc: u32) -> Option<usize> {
        self.active.iter().copied().find(|&i| self.circuits[i].as_ref().is_some_and(|c| c.vc == vc))
    }

    /// A packet from the link level. Complete datagrams go to `deliver`.
    pub fn on_packet(&mut self, now: SimTime, p: Packet<P>, deliver: &mut impl FnMut(P)) {
        self.now = now;
        self.quiet_until = SimTime::ZERO;
        self.timeout_memo.set(None);
        self.settle();
        let slot = self.find(p.vc);
        if let Some(s) = slot {
            self.mark(s, true);
        }
        match p.kind {
            PacketKind::CallRequest => {
                self.counters.calls_received += 1;
                let slot = self.free_slot().or_else(|| if self.close_one(now, true) { self.free_slot() } else { None });
                match slot {
                    Some(s) => {
                        let mut c = Circuit::new(p.vc, self.me, p.src, false, self.cfg.window, self.cfg.modulus, self.cfg.packet_octets, now);
                        c.control = Some((PacketKind::CallAccepted, now + Duration::from_secs_f64(self.cfg.call_setup_s)));
                        self.set_circuit(s, Some(c));
                    }
                    None => self.pending.push_back(Packet::control(PacketKind::ClearRequest, p.vc, 0, self.me, p.src, 2)),
                }
            }
            PacketKind::CallAccepted => {
                if let Some(c) = slot.and_then(|s| self.circuits[s].as_mut()) {
                    let was = class(c);
                    c.state = VcState::Open;
                    c.opened_at = now;
                    c.last_used = now;
                    self.assign_due = true;
                    let (site, is) = (c.peer, class(c));
                    self.sites[site as usize].retally(&mut self.blocked_sites, was, is);
                }
            }
            PacketKind::ClearRequest => {
                if let Some(s) = slot {
                    let c = self.set_circuit(s, None).expect("found");
                    if c.sending() {
                        // Cleared by the peer with part of a datagram not yet sent.
                        self.counters.datagrams_discarded += 1;
                    }
                    if c.state == VcState::Calling && c.caller {
                        self.counters.calls_refused += 1;
                        if self.open_to(c.peer) == 0 {
                            self.site(c.peer);
                            let site = &mut self.sites[c.peer as usize];
                            self.counters.datagrams_discarded += site.queued() as u64;
                            self.queued_total -= site.queued();
                            site.small.clear();
                            site.large.clear();
                        }
                    }
                }
            }
            PacketKind::ClearConfirmation => {}
            // The peer cleared the circuit under a datagram's packets in flight (a
            // clear collision): that datagram is lost, counted once, at its last packet.
            PacketKind::Data if slot.is_none() => {
                if !p.m {
                    self.counters.datagrams_discarded += 1;
                }
            }
            PacketKind::Data | PacketKind::Rr => {
                if let Some(c) = slot.and_then(|s| self.circuits[s].as_mut()) {
                    let before = c.sequence_errors;
                    let was = class(c);
                    let counters = &mut self.counters;
                    c.on_packet(now, p, self.ack_timer, &mut |_, payload| {
                        counters.datagrams_delivered += 1;
                        deliver(payload);
                    });
                    debug_assert_eq!(was, class(c), "a data or RR packet changed what its circuit can carry");
                    self.counters.sequence_errors += c.sequence_errors - before;
                }
            }
        }
    }

    /// Hands queued datagrams to free circuits, round robin over each site's circuits.
    fn assign(&mut self, now: SimTime) {
        if self.queued_total == 0 || !self.assign_due {
            return;
        }
        let before = self.queued_total;
        let mine = &mut self.scratch;
        for (site, s) in self.sites.iter_mut().enumerate() {
            if s.queued() == 0 {
                continue;
            }
            mine.clear();
            mine.extend(self.active.iter().copied().filter(|&i| self.circuits[i].as_ref().is_some_and(|c| c.peer as usize == site)));
            let n = mine.len();
            if n == 0 {
                continue;
            }
            // Step k looks at position rr + k of the site's circuits, rr moving past
            // each circuit given a datagram; both stay below 2n, so one subtraction
            // wraps them (no division per step).
            let wrap = |x: usize| if x >= n { x - n } else { x };
            let mut rr = s.rr % n;
            for k in 0..n {
                let i = mine[wrap(rr + k)];
                let c = self.circuits[i].as_mut().expect("listed");
                if c.free() {
                    let Some((number, payload, octets)) = s.pop() else { break };
                    self.queued_total -= 1;
                    c.take(now, number, payload, octets);
                    s.retally(&mut self.blocked_sites, (true, false), class(c));
                    self.may_send[i / 64] |= 1 << (i % 64);
                    self.counters.datagrams_sent += 1;
                    self.counters.datagram_octets_sent += u64::from(octets);
                    rr = wrap(rr + k + 1);
                    s.rr = rr;
                }
            }
        }
        self.assign_due = self.queued_total != before;
    }

    /// True if `next_packet(now)` would return a packet.
    pub fn wants(&self, now: SimTime) -> bool {
        !self.pending.is_empty()
            || self
                .open_circuits()
                .any(|c| c.wants(now) || (self.queued_total > 0 && c.free() && self.sites.get(c.peer as usize).is_some_and(|s| s.queued() > 0)))
    }

    /// The next packet for the link level, round robin over circuits. The quiet
    /// spell's answer is inlined into the caller: most pulls end there, and the search
    /// below needs a large stack frame.
    #[inline]
    pub fn next_packet(&mut self, now: SimTime) -> Option<Packet<P>> {
        self.now = now;
        let quiet = now < self.quiet_until;
        let p = if quiet {
            debug_assert!(self.pending.is_empty() && !self.open_circuits().any(|c| c.wants(now)));
            None
        } else {
            self.search(now)
        };
        self.note_blocked(now, p.is_some(), quiet);
        p
    }

    /// `window_blocked`: a spell starts at a pull that finds nothing to send while a
    /// datagram waits (in a site's queue, or with packets left on a circuit) and no
    /// open circuit to its site is free: every one holds a datagram with its window
    /// closed, waiting for P(R), or the site's call is not yet connected. It ends at
    /// the next pull that finds a packet, or that finds nothing with a circuit free
    /// for the datagrams waiting (or none waiting): then the layer above, not the
    /// network, leaves the line idle. The link level pulls after every input, so the
    /// spell ends when the P(R) that opens a window arrives. A quiet pull (nothing
    /// changed since the last) keeps the state; without an interface queue the measure
    /// is not reported and nothing is tracked.
    #[inline]
    fn note_blocked(&mut self, now: SimTime, sent: bool, quiet: bool) {
        if quiet || !self.reports_window_blocked() {
            return;
        }
        let blocked = !sent && self.waits_for_network();
        match self.blocked_since {
            Some(t) if !blocked => {
                self.window_blocked = self.window_blocked + (now - t);
                self.blocked_since = None;
            }
            None if blocked => self.blocked_since = Some(now),
            _ => {}
        }
    }

    /// After a pull found nothing: does a datagram wait with no open circuit to its
    /// site free? (`assign` has run, so a queued datagram has none; a datagram on a
    /// circuit has packets left behind a closed window.)
    fn waits_for_network(&mut self) -> bool {
        self.settle();
        debug_assert_eq!(self.blocked_sites > 0, self.waits_for_network_fresh(), "the sites' tallies drifted");
        self.queued_total > 0 || self.blocked_sites > 0
    }

    /// `waits_for_network`'s answer counted afresh over the circuits, with no datagram
    /// queued (the check of the kept tallies).
    fn waits_for_network_fresh(&mut self) -> bool {
        self.scratch.clear();
        for &i in &self.active {
            if let Some(c) = &self.circuits[i] {
                if c.free() {
                    self.scratch.push(c.peer as usize);
                }
            }
        }
        self.open_circuits().any(|c| c.sending() && !self.scratch.contains(&(c.peer as usize)))
    }

    /// `next_packet` outside a quiet spell.
    #[inline(never)]
    fn search(&mut self, now: SimTime) -> Option<Packet<P>> {
        if let Some(p) = self.pending.pop_front() {
            return Some(p);
        }
        self.settle();
        self.assign(now);
        debug_assert!(self.skipped_circuits_are_quiet(now));
        // Round robin from channel `rr`: the channels that may send at or after it, then
        // before; a circuit found not wanting leaves the set until its next change. The
        // control packets' due times met on the way make the quiet deadline.
        let (start, mut from, mut wrapped) = (self.rr, self.rr, false);
        let mut control_due = SimTime::MAX;
        loop {
            let i = match self.next_may_send(from) {
                Some(i) if !wrapped || i < start => i,
                _ if !wrapped => {
                    (wrapped, from) = (true, 0);
                    continue;
                }
                _ => break,
            };
            from = i + 1;
            let c = self.circuits[i].as_mut().expect("a channel may send only while occupied");
            if !c.wants(now) {
                match c.control {
                    Some((_, at)) => control_due = control_due.min(at),
                    None => self.may_send[i / 64] &= !(1 << (i % 64)),
                }
                continue;
            }
            let was_calling_callee = c.state == VcState::Calling && !c.caller;
            let before = (c.data_packets_sent, c.rr_sent);
            let was = class(c);
            self.timeout_memo.set(None);
            let p = c.next_packet(now)?;
            if was_calling_callee && p.kind == PacketKind::CallAccepted {
                c.state = VcState::Open;
                c.opened_at = now;
                c.last_used = now;
            }
            let is = class(c);
            if is != was {
                self.sites[c.peer as usize].retally(&mut self.blocked_sites, was, is);
            }
            self.assign_due |= c.free();
            self.counters.data_packets_sent += c.data_packets_sent - before.0;
            self.counters.rr_packets_sent += c.rr_sent - before.1;
            // The circuit keeps the line while its window is open: a burst leaves
            // contiguous, as from a device queue served in order of readiness.
            self.rr = i;
            return Some(p);
        }
        // Nothing wants to send and `assign` will not run again: only a control packet
        // falling due (each is due after now, or it would have gone) changes that.
        if self.queued_total == 0 || !self.assign_due {
            debug_assert_eq!(control_due, self.open_circuits().filter_map(|c| c.control.map(|(_, at)| at)).min().unwrap_or(SimTime::MAX));
            self.quiet_until = control_due;
        }
        None
    }

    /// Every occupied channel outside `may_send` has a circuit that does not want to
    /// send at `now` and has no control packet waiting (the kept set against a fresh
    /// question).
    fn skipped_circuits_are_quiet(&self, now: SimTime) -> bool {
        self.active.iter().all(|&i| {
            let c = self.circuits[i].as_ref().expect("active");
            self.may_send[i / 64] & (1 << (i % 64)) != 0 || (c.control.is_none() && !c.wants(now))
        })
    }

    /// Test view: checks the kept state against a fresh computation (the `may_send`
    /// set, the sites' tallies) and returns how many occupied channels are outside the
    /// set and how many sites are blocked.
    #[cfg(test)]
    pub(crate) fn check_kept(&mut self) -> (usize, u32) {
        self.settle();
        assert!(self.skipped_circuits_are_quiet(self.now), "a circuit outside may_send wants to send");
        for (site, s) in self.sites.iter().enumerate() {
            let mine = self.open_circuits().filter(|c| c.peer as usize == site);
            let (free, sending) = mine.fold((0, 0), |(f, x), c| (f + u32::from(c.free()), x + u32::from(c.sending())));
            assert_eq!((s.free, s.sending), (free, sending), "site {site}'s tally");
        }
        assert_eq!(self.blocked_sites > 0, self.waits_for_network_fresh(), "blocked sites");
        let outside = self.active.iter().filter(|&&i| self.may_send[i / 64] & (1 << (i % 64)) == 0).count();
        (outside, self.blocked_sites)
    }

    /// Fires the circuits' due timers. A quiet spell ends only if one fired: the host
    /// calls this on every wake-up, most of them for its access line.
    pub fn handle_timeout(&mut self, now: SimTime) {
        self.now = now;
        // `poll_timeout`'s remembered answer (no control packet waiting, no deadline
        // changed since) says whether any circuit's timer is due: most wake-ups are
        // the access line's, and then none is.
        if let Some(t) = self.timeout_memo.get() {
            if !t.is_some_and(|t| t <= now) {
                return;
            }
        }
        for &i in &self.active {
            if let Some(c) = self.circuits[i].as_mut() {
                if c.handle_timeout(now) {
                    self.quiet_until = SimTime::ZERO;
                    self.timeout_memo.set(None);
                    self.may_send[i / 64] |= 1 << (i % 64);
                }
            }
        }
    }

    pub fn poll_timeout(&self) -> Option<SimTime> {
        let fresh = || self.open_circuits().filter_map(|c| c.poll_timeout(self.now)).min();
        if let Some(t) = self.timeout_memo.get() {
            debug_assert_eq!(t, fresh(), "a circuit's deadline changed without clearing the memo");
            return t;
        }
        let (mut t, mut control) = (None, false);
        for c in self.open_circuits() {
            control |= c.control.is_some();
            t = match (t, c.poll_timeout(self.now)) {
                (Some(a), Some(b)) => Some(std::cmp::min(a, b)),
                (a, b) => a.or(b),
            };
        }
        if !control {
            self.timeout_memo.set(Some(t));
        }
        t
    }

    /// Datagrams queued (not yet given to a circuit).
    pub fn queued(&self) -> usize {
        debug_assert_eq!(self.queued_total, self.sites.iter().map(Site::queued).sum::<usize>());
        debug_assert!(self.active.iter().copied().eq((0..self.circuits.len()).filter(|&i| self.circuits[i].is_some())));
        self.queued_total
    }

    /// Circuits open (or being opened) now.
    pub fn circuits_in_use(&self) -> u32 {
        self.in_use()
    }

    /// `x25_window_blocked_s` is reported with an interface queue only: it asks whether
    /// datagrams an upper layer pushed wait for the network (without a queue the layer
    /// above is pulled only when none waits), and runs without one keep the measures
    /// they had.
    pub fn reports_window_blocked(&self) -> bool {
        self.cfg.interface_queue.is_some()
    }
}
