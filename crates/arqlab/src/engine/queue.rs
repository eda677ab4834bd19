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
        EventQueue { heap: BinaryHeap::with_capacity(64), next_seq: 0, now: SimTime::ZERO, _event: std::marker::PhantomData }
    }

    /// The time of the last event popped.
    pub fn now(&self) -> SimTime {
        self.now
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
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
        let Reverse(key) = self.heap.pop()?;
        self.now = SimTime((key >> 64) as u64);
        Some((self.now, E::decode(key as u32 & ((1 << CODE_BITS) - 1))))
    }

    /// Time of the next event without removing it.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|Reverse(k)| SimTime((k >> 64) as u64))
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
