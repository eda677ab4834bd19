//! The sending half of a class 4 connection: the user's TSDUs into a send buffer of
//! limited octets, segmentation into DTs, credit, a retransmission timer per DT, and
//! expedited data under the ISO or NBS discipline.
//!
//! State names follow ISO 8073 where it has them: the lower window edge (the oldest
//! unacknowledged TPDU-NR), the upper window edge (YR-TU-NR + CDT of the last AK).

use super::config::{Expedited, ExpeditedUnit, Tp4Config};
use super::tpdu::{Headers, Tpdu, TpduKind};
use super::Tp4Counters;
use crate::engine::{Duration, SimTime};
use crate::protocol::layer::{Event, Grant, Sdu};
use crate::protocol::Counters;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// One DT of the send buffer.
#[derive(Clone, Copy, Debug)]
struct Segment {
    tsdu: Sdu,
    user_octets: u32,
    eot: bool,
    epoch: u32,
    /// Transmitted at least once.
    sent: bool,
    /// Selectively acknowledged (its buffer space is free; never sent again).
    sacked: bool,
    /// Its retransmission deadline, while one runs.
    deadline: Option<SimTime>,
    /// Its timer expired: to be sent again.
    retx: bool,
}

pub(super) struct Sender {
    headers: Headers,
    discipline: Expedited,
    t1: Duration,
    dt_user_octets: u32,
    send_buffer: u32,
    every: u32,
    unit: ExpeditedUnit,
    ed_octets: u32,
    /// TSDUs the user offered that do not fit the send buffer yet (the user is blocked).
    user: VecDeque<Sdu>,
    /// Octets held in the send buffer (unacknowledged user data).
    used: u32,
    /// Segments from the lower window edge on.
    segs: VecDeque<Segment>,
    /// TPDU-NR of `segs[0]`.
    lwe: u64,
    /// Next TPDU-NR never sent.
    next_new: u64,
    /// Upper window edge: DTs below it may be sent.
    uwe: u64,
    /// Segments flagged `retx` (sent again in TPDU-NR order: the first flagged one).
    retx: usize,
    /// Retransmission deadlines (deadline, TPDU-NR), least first. An entry whose segment
    /// has gone or now runs another deadline is stale: it is dropped when it reaches the
    /// top, and the top is never stale after a call returns (`drop_stale`), so the least
    /// live deadline is always `timers.peek()`.
    timers: BinaryHeap<Reverse<(SimTime, u64)>>,
    /// Normal units accepted so far (TSDUs or DT-sized pieces), for ED placement.
    units: u64,
    /// EDs the user has submitted, sent (first copies) and had acknowledged.
    ed_submitted: u32,
    ed_sent: u32,
    ed_acked: u32,
    /// Deadline of the outstanding ED's retransmission timer; resend when set and due.
    ed_deadline: Option<SimTime>,
    ed_resend: bool,
    pub(super) events: VecDeque<Event<Sdu>>,
}

impl Sender {
    pub(super) fn new(c: &Tp4Config) -> Sender {
        Sender {
            headers: c.headers(),
            discipline: c.expedited,
            t1: Duration::from_secs_f64(c.retransmission_timer_s),
            dt_user_octets: c.dt_user_octets(),
            send_buffer: c.send_buffer_octets,
            every: c.expedited_every,
            unit: c.expedited_unit,
            ed_octets: c.ed_data_octets,
            user: VecDeque::new(),
            used: 0,
            segs: VecDeque::new(),
            lwe: 0,
            next_new: 0,
            uwe: c.window_tpdus() as u64,
            retx: 0,
            timers: BinaryHeap::new(),
            units: 0,
            ed_submitted: 0,
            ed_sent: 0,
            ed_acked: 0,
            ed_deadline: None,
            ed_resend: false,
            events: VecDeque::new(),
        }
    }

    /// A T-DATA request: the TSDU enters the send buffer if it fits, else waits.
    pub(super) fn submit(&mut self, now: SimTime, tsdu: Sdu) {
        self.user.push_back(tsdu);
        self.admit(now);
    }

    /// Moves waiting TSDUs into freed buffer space. A TSDU's delay is counted from here
    /// (the user's request completes when the entity accepts the data).
    fn admit(&mut self, now: SimTime) {
        while let Some(&t) = self.user.front() {
            let octets = t.bits.div_ceil(8);
            if self.used > 0 && self.used + octets > self.send_buffer {
                break;
            }
            self.user.pop_front();
            let tsdu = Sdu { born: now, ..t };
            self.used += octets;
            let pieces = octets.div_ceil(self.dt_user_octets).max(1);
            for k in 0..pieces {
                let user_octets = if k + 1 == pieces { octets - k * self.dt_user_octets } else { self.dt_user_octets };
                self.segs.push_back(Segment { tsdu, user_octets, eot: k + 1 == pieces, epoch: self.ed_submitted, sent: false, sacked: false, deadline: None, retx: false });
                if self.unit == ExpeditedUnit::Dt {
                    self.count_unit();
                }
            }
            if self.unit == ExpeditedUnit::Tsdu {
                self.count_unit();
            }
        }
    }

    /// One more normal unit accepted; the user follows every `every`-th with an ED.
    fn count_unit(&mut self) {
        self.units += 1;
        if self.every > 0 && self.units % self.every as u64 == 0 {
            self.ed_submitted += 1;
        }
    }

    /// TSDUs waiting outside the send buffer.
    pub(super) fn backlog(&self) -> usize {
        self.user.len()
    }

    /// TSDUs not yet acknowledged (waiting, or with a segment in the buffer).
    pub(super) fn unacknowledged(&self) -> usize {
        let mut n = self.user.len();
        let mut last = None;
        for s in &self.segs {
            if last != Some(s.tsdu.id) {
                n += 1;
                last = Some(s.tsdu.id);
            }
        }
        n
    }

    /// An AK: cumulative YR-TU-NR, credit, and (selective) one TPDU-NR beyond a gap.
    pub(super) fn on_ak(&mut self, now: SimTime, yr: u64, credit: u32, sack: Option<u64>) {
        if yr > self.next_new {
            return; // acknowledges what was never sent: not from this connection
        }
        while self.lwe < yr {
            let Some(s) = self.segs.pop_front() else { break };
            if !s.sacked {
                self.used -= s.user_octets;
            }
            self.retx -= usize::from(s.retx);
            if s.eot {
                self.events.push_back(Event::Acknowledged(s.tsdu));
            }
            self.lwe += 1;
        }
        self.uwe = yr + credit as u64;
        if let Some(n) = sack.filter(|&n| n >= self.lwe && n < self.next_new) {
            let s = &mut self.segs[(n - self.lwe) as usize];
            if !s.sacked {
                s.sacked = true;
                self.used -= s.user_octets;
                s.deadline = None;
                self.retx -= usize::from(std::mem::take(&mut s.retx));
            }
        }
        self.drop_stale();
        self.admit(now);
    }

    /// Whether timer entry (d, n) is still its segment's running deadline.
    fn live(&self, d: SimTime, n: u64) -> bool {
        n >= self.lwe && self.segs.get((n - self.lwe) as usize).is_some_and(|s| s.deadline == Some(d))
    }

    /// Pops stale entries off the top of `timers`.
    fn drop_stale(&mut self) {
        while let Some(&Reverse((d, n))) = self.timers.peek() {
            if self.live(d, n) {
                break;
            }
            self.timers.pop();
        }
    }

    /// An EA for ED `nr`.
    pub(super) fn on_ea(&mut self, nr: u64) {
        if self.ed_sent > self.ed_acked && nr == self.ed_sent as u64 {
            self.ed_acked = self.ed_sent;
            self.ed_deadline = None;
            self.ed_resend = false;
        }
    }

    /// Expired timers: their DTs (or the ED) are queued to be sent again.
    pub(super) fn on_timeout(&mut self, now: SimTime, c: &mut Counters) {
        while let Some(&Reverse((d, n))) = self.timers.peek() {
            if d > now {
                break;
            }
            self.timers.pop();
            if !self.live(d, n) {
                continue;
            }
            let s = &mut self.segs[(n - self.lwe) as usize];
            s.deadline = None;
            self.retx += usize::from(!std::mem::replace(&mut s.retx, true));
            c.timeouts += 1;
        }
        self.drop_stale();
        if self.ed_deadline.is_some_and(|d| d <= now) {
            self.ed_deadline = None;
            self.ed_resend = true;
            c.timeouts += 1;
        }
    }

    pub(super) fn poll_timeout(&self) -> Option<SimTime> {
        debug_assert!(self.timers.peek().is_none_or(|Reverse((d, n))| self.live(*d, *n)), "the top timer is live");
        let t = self.timers.peek().map(|Reverse(x)| x.0);
        match (t, self.ed_deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// An ED to send now: a resend of the outstanding one, or the next one the user
    /// submitted when none is outstanding (one ED outstanding at most).
    fn ed_ready(&self) -> bool {
        self.ed_resend || (self.ed_sent == self.ed_acked && self.ed_submitted > self.ed_sent)
    }

    /// May the never-sent DT `seg` go now, under the expedited discipline?
    fn new_dt_allowed(&self, seg: &Segment) -> bool {
        match self.discipline {
            // No new normal data while any ED the user submitted is unacknowledged.
            Expedited::Iso => self.ed_acked == self.ed_submitted,
            // Data the user submitted before ED k may go while ED k is unacknowledged.
            Expedited::Nbs => seg.epoch <= self.ed_acked,
        }
    }

    pub(super) fn wants_transmit(&self) -> bool {
        self.ed_ready() || self.retx > 0 || self.next_dt().is_some()
    }

    /// The never-sent DT that may go now, if any.
    fn next_dt(&self) -> Option<u64> {
        let n = self.next_new;
        let seg = self.segs.get((n - self.lwe) as usize)?;
        (n < self.uwe && self.new_dt_allowed(seg)).then_some(n)
    }

    /// The next TPDU of the sending half, in priority order: ED, retransmitted DT, new DT.
    pub(super) fn poll_transmit(&mut self, now: SimTime, grant: &Grant, c: &mut Counters, x: &mut Tp4Counters) -> Option<Tpdu> {
        if self.ed_ready() {
            let nr = if self.ed_resend { self.ed_sent } else { self.ed_sent + 1 };
            if self.ed_resend {
                x.ed_retransmitted += 1;
            }
            self.ed_resend = false;
            self.ed_sent = nr;
            let octets = self.headers.octets(TpduKind::Ed, false) + self.ed_octets;
            let mut t = Tpdu::control(TpduKind::Ed, nr as u64, octets);
            t.user_octets = self.ed_octets;
            self.ed_deadline = Some(now + grant.transmission(octets * 8) + self.t1);
            x.ed_sent += 1;
            return Some(t);
        }
        let (n, again) = match self.first_retx() {
            Some(n) => (n, true),
            None => (self.next_dt()?, false),
        };
        let hdr = self.headers.octets(TpduKind::Dt, false);
        let i = (n - self.lwe) as usize;
        let s = self.segs[i];
        let t = Tpdu { kind: TpduKind::Dt, nr: n, eot: s.eot, credit: 0, sack: None, octets: hdr + s.user_octets, user_octets: s.user_octets, tsdu: Some(s.tsdu), epoch: s.epoch };
        let d = now + grant.transmission(t.octets * 8) + self.t1;
        // A deadline it replaces stays in `timers`, stale.
        self.segs[i].deadline = Some(d);
        self.timers.push(Reverse((d, n)));
        self.drop_stale();
        self.segs[i].sent = true;
        c.i_frames_sent += 1;
        x.dt_sent += 1;
        if again {
            c.count_retransmission(crate::protocol::RetransmitCause::Timeout);
            x.dt_retransmitted += 1;
        } else {
            self.next_new += 1;
        }
        Some(t)
    }

    /// Takes the lowest TPDU-NR flagged for retransmission (a scan of the window, made
    /// only when one is flagged).
    fn first_retx(&mut self) -> Option<u64> {
        if self.retx == 0 {
            return None;
        }
        let i = self.segs.iter().position(|s| s.retx).expect("a flagged segment");
        self.segs[i].retx = false;
        self.retx -= 1;
        Some(self.lwe + i as u64)
    }

    /// DTs acknowledged plus EDs acknowledged (`Layer::progress`).
    pub(super) fn progress(&self) -> u64 {
        self.lwe + u64::from(self.ed_acked)
    }

    /// Octets of user data in the send buffer.
    pub(super) fn buffer_octets(&self) -> u32 {
        self.used
    }
}
