//! The receiving half of a class 4 connection: DTs into a receive buffer of limited
//! octets, delivery of whole TSDUs as an in-sequence stream, AKs (one-for-one or
//! selective) carrying YR-TU-NR and a credit, EAs, the window timer and the maximum
//! acknowledgement delay.

use super::config::{Acknowledgement, Tp4Config};
use super::tpdu::{Headers, Tpdu, TpduKind};
use super::Tp4Counters;
use crate::engine::{Duration, SimTime};
use crate::protocol::layer::{Event, Sdu};
use crate::protocol::Counters;
use std::collections::VecDeque;

pub(super) struct Receiver {
    headers: Headers,
    selective: bool,
    window: u32,
    buffer: u32,
    dt_user_octets: u32,
    window_timer: Duration,
    ack_delay: Option<Duration>,
    /// YR-TU-NR: the next DT expected in sequence.
    next: u64,
    /// DTs received beyond a gap, indexed by TPDU-NR − YR-TU-NR: slot k holds DT
    /// `next + k` as (octets, EOT, TSDU, epoch). A DT is held only inside the credit
    /// offered, so the ring never reaches past the window; slot 0 is always empty (the
    /// DT expected next is accepted, not held), and accepting it drops the slot.
    held: VecDeque<Option<(u32, bool, Sdu, u32)>>,
    held_octets: u32,
    /// In-sequence octets of the TSDU not yet complete.
    partial: u32,
    /// AKs owed, one per DT received (one-for-one), each with the out-of-sequence
    /// TPDU-NR it may name (selective).
    owed: VecDeque<Option<u64>>,
    /// The maximum acknowledgement delay: when owed AKs must go (None: at once).
    ack_due: Option<SimTime>,
    /// EAs owed (ED-TPDU-NRs).
    ea_owed: VecDeque<u64>,
    /// The highest ED-TPDU-NR received (EDs are delivered once, in order).
    ed_received: u64,
    /// Window timer: an AK is repeated when none went for `window_timer`.
    window_due: Option<SimTime>,
    pub(super) events: VecDeque<Event<Sdu>>,
}

impl Receiver {
    pub(super) fn new(c: &Tp4Config) -> Receiver {
        Receiver {
            headers: c.headers(),
            selective: c.acknowledgement == Acknowledgement::Selective,
            window: c.window_tpdus(),
            buffer: c.receive_buffer_octets,
            dt_user_octets: c.dt_user_octets(),
            window_timer: Duration::from_secs_f64(c.window_timer_s),
            ack_delay: c.max_ack_delay_s.map(Duration::from_secs_f64),
            next: 0,
            held: VecDeque::new(),
            held_octets: 0,
            partial: 0,
            owed: VecDeque::new(),
            ack_due: None,
            ea_owed: VecDeque::new(),
            ed_received: 0,
            window_due: None,
            events: VecDeque::new(),
        }
    }

    /// The credit offered now: the window, less what the receive buffer cannot hold
    /// beyond the incomplete TSDU already in it.
    pub(super) fn credit(&self) -> u32 {
        let free = self.buffer.saturating_sub(self.partial);
        self.window.min(free / self.dt_user_octets)
    }

    /// DT `n` (at or beyond YR-TU-NR) is held beyond the gap.
    fn holds(&self, n: u64) -> bool {
        usize::try_from(n - self.next).ok().and_then(|k| self.held.get(k)).is_some_and(Option::is_some)
    }

    /// DTs accepted in sequence (YR-TU-NR) plus EDs delivered (`Layer::progress`).
    pub(super) fn progress(&self) -> u64 {
        self.next + self.ed_received
    }

    /// Octets of user data held (the incomplete TSDU and DTs beyond a gap).
    pub(super) fn buffer_octets(&self) -> u32 {
        self.partial + self.held_octets
    }

    pub(super) fn on_dt(&mut self, now: SimTime, t: &Tpdu, c: &mut Counters, x: &mut Tp4Counters) {
        let Some(tsdu) = t.tsdu else { return };
        self.window_due.get_or_insert(now + self.window_timer);
        let n = t.nr;
        let mut sack = None;
        if n < self.next || self.holds(n) {
            c.duplicates_discarded += 1;
            sack = (n >= self.next).then_some(n);
        } else if n > self.next && (n >= self.next + self.credit().max(1) as u64 || self.buffer_octets() + t.user_octets > self.buffer) {
            // Beyond the credit or the buffer. (The DT expected next is always taken: it
            // is inside every credit offered, and refusing it could stall the stream.)
            c.out_of_sequence_discarded += 1;
        } else if n > self.next {
            let k = (n - self.next) as usize; // < the credit (checked above)
            if self.held.len() <= k {
                self.held.resize(k + 1, None);
            }
            self.held[k] = Some((t.user_octets, t.eot, tsdu, t.epoch));
            self.held_octets += t.user_octets;
            x.dt_held += 1;
            sack = Some(n);
        } else {
            self.accept(t.user_octets, t.eot, tsdu, t.epoch, x);
            while let Some((octets, eot, s, e)) = self.held.front_mut().and_then(Option::take) {
                self.held_octets -= octets;
                self.accept(octets, eot, s, e, x);
            }
        }
        self.owed.push_back(if self.selective { sack } else { None });
        if let Some(d) = self.ack_delay {
            self.ack_due.get_or_insert(now + d);
        }
    }

    /// The DT numbered `self.next` joins the in-sequence stream; a completed TSDU is
    /// delivered.
    fn accept(&mut self, octets: u32, eot: bool, tsdu: Sdu, epoch: u32, x: &mut Tp4Counters) {
        self.next += 1;
        self.held.pop_front(); // slot k now names DT `next + k` again
        self.partial += octets;
        if eot {
            // Intact: the segments in sequence add up to the TSDU the user sent.
            if self.partial != tsdu.bits.div_ceil(8) {
                x.tsdu_integrity_violations += 1;
            }
            self.partial = 0;
            // Expedited data submitted before this data must have been delivered first.
            if epoch as u64 > self.ed_received {
                x.expedited_order_violations += 1;
            }
            self.events.push_back(Event::Delivered(tsdu));
        }
    }

    pub(super) fn on_ed(&mut self, t: &Tpdu, x: &mut Tp4Counters) {
        if t.nr == self.ed_received + 1 {
            self.ed_received = t.nr;
            x.ed_delivered += 1;
        }
        if t.nr <= self.ed_received {
            self.ea_owed.push_back(t.nr);
        }
    }

    pub(super) fn on_timeout(&mut self, now: SimTime, c: &mut Counters) {
        if self.window_due.is_some_and(|d| d <= now) && self.owed.is_empty() {
            self.owed.push_back(None);
            c.timeouts += 1;
        }
        if self.window_due.is_some_and(|d| d <= now) {
            self.window_due = Some(now + self.window_timer);
        }
    }

    pub(super) fn poll_timeout(&self) -> Option<SimTime> {
        match (self.window_due, self.ack_due.filter(|_| !self.owed.is_empty())) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    #[inline]
    fn ak_ready(&self, now: SimTime) -> bool {
        !self.owed.is_empty() && self.ack_due.is_none_or(|d| d <= now || self.ack_delay.is_none())
    }

    #[inline]
    pub(super) fn wants_transmit(&self, now: SimTime) -> bool {
        !self.ea_owed.is_empty() || self.ak_ready(now)
    }

    /// The next TPDU of the receiving half: an EA, else an AK (fields fixed now).
    pub(super) fn poll_transmit(&mut self, now: SimTime, c: &mut Counters, x: &mut Tp4Counters) -> Option<Tpdu> {
        if let Some(nr) = self.ea_owed.pop_front() {
            x.ea_sent += 1;
            return Some(Tpdu::control(TpduKind::Ea, nr, self.headers.octets(TpduKind::Ea, false)));
        }
        if !self.ak_ready(now) {
            return None;
        }
        let sack = if self.ack_delay.is_some() {
            // Delayed: one AK answers every DT owed; it names the latest DT beyond the gap.
            let latest = self.owed.iter().rev().find_map(|s| *s);
            self.owed.clear();
            self.ack_due = None;
            latest
        } else {
            self.owed.pop_front()?
        };
        // Name the DT only while it is still beyond the gap (the gap may have filled).
        let sack = sack.filter(|&n| n > self.next && self.holds(n));
        let mut t = Tpdu::control(TpduKind::Ak, self.next, self.headers.octets(TpduKind::Ak, sack.is_some()));
        t.credit = self.credit();
        t.sack = sack;
        c.s_frames_sent += 1;
        x.ak_sent += 1;
        if sack.is_some() {
            x.selective_ak_sent += 1;
        }
        self.window_due = Some(now + self.window_timer);
        Some(t)
    }
}
