//! The future event list: a binary heap ordered by (time, insertion number).
//!
//! Equal times keep FIFO order (the insertion number breaks ties), which makes a run
//! reproducible bit for bit. Events are 24-bit codes (a kind and an element index, so
//! a topology may have millions of elements): an entry is a single `u128` key — time in
//! the high 64 bits, the insertion number in the next 40, the event in the low 24 — so
//! the heap compares and moves one integer. Payloads that travel with an event (frames
//! on a lane) are kept by their owner, not in the queue. 2^40 insertions (about 10^12,
//! hours of wall time at tens of millions of events per second) bound one run; running
//! out is an error, never a silent wrap that would reorder ties.
//!
//! Events at times fixed before the run (measurement window boundaries, the end) are a
//! *calendar* kept beside the heap: a long run has dozens of them, and in the heap they
//! would deepen every sift of the model's handful of pending events. A calendar event
//! pops before any scheduled event at the same time, exactly as if it had been
//! scheduled first, which is how the calendar is given (before anything is scheduled).

use super::time::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An event that fits in 24 bits.
pub trait EventCode: Copy {
    fn encode(self) -> u32;
    fn decode(code: u32) -> Self;
}

impl EventCode for u32 {
    fn encode(self) -> u32 {
        self
    }
    fn decode(code: u32) -> u32 {
        code
    }
}

/// Why an event could not be scheduled. Fatal for the run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleError {
    /// Always a model bug.
    #[error("event scheduled at {at} before the current time {now}")]
    Past { at: SimTime, now: SimTime },
    /// The run scheduled 2^40 events: split it (shorter replications).
    #[error("the run scheduled 2^40 events, more than one queue orders; use shorter replications")]
    Exhausted,
}

/// Code bits of a key.
pub const CODE_BITS: u32 = 24;
const SEQ_BITS: u32 = 40;

pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<u128>>,
    /// Calendar events, latest first (the next one is popped off the end).
    calendar: Vec<(SimTime, E)>,
    /// The next calendar event's time as the least key at that time (`time << 64`;
    /// `u128::MAX` when none is left): one compare with the heap's top per pop, where
    /// reading the calendar's last entry cost a dozen instructions on every event.
    calendar_key: u128,
    next_seq: u64,
    now: SimTime,
    _event: std::marker::PhantomData<E>,
}

impl<E: EventCode> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: EventCode> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(64), calendar: Vec::new(), calendar_key: u128::MAX, next_seq: 0, now: SimTime::ZERO, _event: std::marker::PhantomData }
    }

    /// A queue holding `events` (in non-decreasing time order) as its calendar: each pops
    /// before any event scheduled later for the same time.
    pub fn with_calendar(events: Vec<(SimTime, E)>) -> Result<Self, ScheduleError> {
        if let Some(w) = events.windows(2).find(|w| w[1].0 < w[0].0) {
            return Err(ScheduleError::Past { at: w[1].0, now: w[0].0 });
        }
        let mut q = Self::new();
        q.calendar = events;
        q.calendar.reverse();
        q.calendar_key = q.next_calendar_key();
        Ok(q)
    }

    #[inline]
    fn next_calendar_key(&self) -> u128 {
        self.calendar.last().map_or(u128::MAX, |&(t, _)| (t.0 as u128) << 64)
    }

    /// The time of the last event popped.
    pub fn now(&self) -> SimTime {
        self.now
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.calendar.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.calendar.is_empty()
    }

    /// Schedules `event` at `time`; events at equal times pop in scheduling order.
    #[inline]
    pub fn schedule(&mut self, time: SimTime, event: E) -> Result<(), ScheduleError> {
        if time < self.now {
            return Err(ScheduleError::Past { at: time, now: self.now });
        }
        if self.next_seq >> SEQ_BITS != 0 {
            return Err(ScheduleError::Exhausted);
        }
        let code = event.encode();
        debug_assert!(code >> CODE_BITS == 0);
        let key = ((time.0 as u128) << 64) | ((self.next_seq as u128) << CODE_BITS) | code as u128;
        self.heap.push(Reverse(key));
        self.next_seq += 1;
        Ok(())
    }

    /// Removes the earliest event and advances the clock to its time.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        // A calendar event pops before a scheduled one at its time: its key is the least
        // at that time. (`u128::MAX` on both sides: the calendar is empty, or the heap
        // holds the largest key there is; `calendar.pop` tells which.)
        if self.calendar_key <= self.heap.peek().map_or(u128::MAX, |Reverse(k)| *k) {
            if let Some((t, e)) = self.calendar.pop() {
                self.calendar_key = self.next_calendar_key();
                self.now = t;
                return Some((t, e));
            }
        }
        let Reverse(key) = self.heap.pop()?;
        self.now = SimTime((key >> 64) as u64);
        Some((self.now, E::decode(key as u32 & ((1 << CODE_BITS) - 1))))
    }

    /// Time of the next event without removing it.
    pub fn peek_time(&self) -> Option<SimTime> {
        let heap = self.heap.peek().map(|Reverse(k)| SimTime((k >> 64) as u64));
        match (self.calendar.last(), heap) {
            (Some(&(t, _)), Some(h)) => Some(t.min(h)),
            (Some(&(t, _)), None) => Some(t),
            (None, h) => h,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_pop_in_insertion_order() {
        let mut q = EventQueue::<u32>::new();
        for i in 0..100u32 {
            q.schedule(SimTime(5), 99 - i).unwrap();
        }
        q.schedule(SimTime(1), 200).unwrap();
        assert_eq!(q.pop(), Some((SimTime(1), 200)));
        for i in 0..100u32 {
            assert_eq!(q.pop(), Some((SimTime(5), 99 - i)));
        }
        assert!(q.pop().is_none());
    }

    #[test]
    fn times_order_before_insertion() {
        let mut q = EventQueue::<u32>::new();
        q.schedule(SimTime(u64::MAX - 1), 1).unwrap();
        q.schedule(SimTime(3), 2).unwrap();
        q.schedule(SimTime(2), 3).unwrap();
        assert_eq!(q.peek_time(), Some(SimTime(2)));
        assert_eq!(q.pop(), Some((SimTime(2), 3)));
        assert_eq!(q.pop(), Some((SimTime(3), 2)));
        assert_eq!(q.pop(), Some((SimTime(u64::MAX - 1), 1)));
    }

    #[test]
    fn calendar_events_pop_as_if_scheduled_first() {
        // The same events through the heap alone and through calendar + heap pop alike.
        let fixed = [(SimTime(0), 900), (SimTime(5), 901), (SimTime(5), 902), (SimTime(12), 903), (SimTime(40), 904)];
        let model = [(SimTime(5), 1), (SimTime(3), 2), (SimTime(12), 3), (SimTime(5), 4), (SimTime(41), 5), (SimTime(0), 6)];
        let mut heap_only = EventQueue::<u32>::new();
        for &(t, e) in fixed.iter().chain(&model) {
            heap_only.schedule(t, e).unwrap();
        }
        let mut with = EventQueue::<u32>::with_calendar(fixed.to_vec()).unwrap();
        for &(t, e) in &model {
            with.schedule(t, e).unwrap();
        }
        assert_eq!(with.len(), heap_only.len());
        let drain = |q: &mut EventQueue<u32>| std::iter::from_fn(|| q.pop()).collect::<Vec<_>>();
        let expected = drain(&mut heap_only);
        assert_eq!(expected[..4], [(SimTime(0), 900), (SimTime(0), 6), (SimTime(3), 2), (SimTime(5), 901)]);
        assert_eq!(with.peek_time(), Some(SimTime(0)));
        assert_eq!(drain(&mut with), expected);
        assert!(with.is_empty());
        assert_eq!(with.schedule(SimTime(40), 0), Err(ScheduleError::Past { at: SimTime(40), now: SimTime(41) }), "the clock followed the calendar");
    }

    /// Schedules and pops interleaved at random, many ties: the same pops, lengths and
    /// next times as an ordered set of (time, insertion number) keys.
    #[test]
    fn interleaved_schedules_and_pops_match_an_ordered_model() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut q = EventQueue::<u32>::with_calendar(vec![(SimTime(50), 90_000), (SimTime(500), 90_001)]).unwrap();
        let mut model = std::collections::BTreeSet::from([(50u64, 0u64, 90_000u32), (500, 1, 90_001)]);
        let (mut seq, mut now) = (2u64, 0u64);
        for step in 0..50_000u32 {
            // Phases that grow the queue (to about a thousand events) and drain it again.
            let grow = (step / 5_000) % 2 == 0;
            if rng.random_bool(if grow { 0.6 } else { 0.4 }) {
                let t = now + rng.random_range(0..40);
                q.schedule(SimTime(t), step).unwrap();
                model.insert((t, seq, step));
                seq += 1;
            } else {
                let want = model.pop_first().map(|(t, _, e)| (SimTime(t), e));
                assert_eq!(q.pop(), want, "step {step}");
                now = want.map_or(now, |w| w.0 .0);
            }
            assert_eq!(q.len(), model.len());
            assert_eq!(q.peek_time(), model.first().map(|k| SimTime(k.0)));
        }
    }

    /// The boundaries of the calendar's key compare: a scheduled event whose key is the
    /// least of its time (insertion 0, code 0) still pops after a calendar event at that
    /// time, and the largest key there is (time, insertion number and code all at their
    /// maximum) pops from an empty calendar, before and after the calendar runs out.
    #[test]
    fn calendar_key_ties_and_the_largest_key() {
        let mut q = EventQueue::<u32>::with_calendar(vec![(SimTime(7), 1), (SimTime(u64::MAX), 2)]).unwrap();
        q.schedule(SimTime(7), 0).unwrap();
        assert_eq!(q.pop(), Some((SimTime(7), 1)), "calendar first at equal time");
        assert_eq!(q.pop(), Some((SimTime(7), 0)));
        q.next_seq = (1 << SEQ_BITS) - 1;
        q.schedule(SimTime(u64::MAX), (1 << CODE_BITS) - 1).unwrap();
        assert_eq!(q.pop(), Some((SimTime(u64::MAX), 2)), "calendar first, even against the largest key");
        assert_eq!(q.pop(), Some((SimTime(u64::MAX), (1 << CODE_BITS) - 1)));
        assert_eq!(q.pop(), None);
        let mut empty = EventQueue::<u32>::new();
        empty.next_seq = (1 << SEQ_BITS) - 1;
        empty.schedule(SimTime(u64::MAX), (1 << CODE_BITS) - 1).unwrap();
        assert_eq!(empty.pop(), Some((SimTime(u64::MAX), (1 << CODE_BITS) - 1)), "no calendar: the heap's largest key pops");
        assert!(empty.is_empty());
    }

    #[test]
    fn a_calendar_out_of_order_is_an_error() {
        let r = EventQueue::<u32>::with_calendar(vec![(SimTime(1), 0), (SimTime(3), 1), (SimTime(2), 2)]);
        assert_eq!(r.err(), Some(ScheduleError::Past { at: SimTime(2), now: SimTime(3) }));
    }

    #[test]
    fn scheduling_in_the_past_is_an_error() {
        let mut q = EventQueue::<u32>::new();
        q.schedule(SimTime(10), 0).unwrap();
        q.pop();
        assert_eq!(q.schedule(SimTime(9), 0), Err(ScheduleError::Past { at: SimTime(9), now: SimTime(10) }));
        assert!(q.schedule(SimTime(10), 0).is_ok());
    }

    #[test]
    fn running_out_of_insertion_numbers_is_an_error_not_a_wrap() {
        let mut q = EventQueue::<u32>::new();
        q.next_seq = (1 << SEQ_BITS) - 1;
        assert!(q.schedule(SimTime(1), 0xff_ffff).is_ok(), "the last number and the widest code fit");
        assert_eq!(q.pop(), Some((SimTime(1), 0xff_ffff)));
        assert_eq!(q.schedule(SimTime(2), 1), Err(ScheduleError::Exhausted));
    }
}
