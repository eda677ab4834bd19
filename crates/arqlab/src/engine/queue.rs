//! The future event list: a binary heap ordered by (time, insertion number).
//!
//! Equal times keep FIFO order (the insertion number breaks ties), which makes a run
//! reproducible bit for bit. Events are one-byte codes: an entry is a single `u128`
//! key — time in the high 64 bits, the insertion number in the next 56, the event in
//! the low 8 — so the heap compares and moves one integer. Payloads that travel with an
//! event (frames on a link) are kept by their owner, not in the queue.

use super::time::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An event that fits in one byte.
pub trait EventCode: Copy {
    fn encode(self) -> u8;
    fn decode(code: u8) -> Self;
}

impl EventCode for u8 {
    fn encode(self) -> u8 {
        self
    }
    fn decode(code: u8) -> u8 {
        code
    }
}

/// Error returned when an event is scheduled in the past. Fatal for the run: it is
/// always a model bug, never a user error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("event scheduled at {at} before the current time {now}")]
pub struct SchedulePastError {
    pub at: SimTime,
    pub now: SimTime,
}

const SEQ_BITS: u32 = 56;

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
    pub fn schedule(&mut self, time: SimTime, event: E) -> Result<(), SchedulePastError> {
        if time < self.now {
            return Err(SchedulePastError { at: time, now: self.now });
        }
        // 2^56 insertions is beyond any run (years of wall time at 10^9 events/s).
        let key = ((time.0 as u128) << 64) | ((self.next_seq as u128) << 8) | event.encode() as u128;
        self.heap.push(Reverse(key));
        self.next_seq = (self.next_seq + 1) & ((1 << SEQ_BITS) - 1);
        Ok(())
    }

    /// Removes the earliest event and advances the clock to its time.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let Reverse(key) = self.heap.pop()?;
        self.now = SimTime((key >> 64) as u64);
        Some((self.now, E::decode(key as u8)))
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
        let mut q = EventQueue::<u8>::new();
        for i in 0..100u8 {
            q.schedule(SimTime(5), 99 - i).unwrap();
        }
        q.schedule(SimTime(1), 200).unwrap();
        assert_eq!(q.pop(), Some((SimTime(1), 200)));
        for i in 0..100u8 {
            assert_eq!(q.pop(), Some((SimTime(5), 99 - i)));
        }
        assert!(q.pop().is_none());
    }

    #[test]
    fn times_order_before_insertion() {
        let mut q = EventQueue::<u8>::new();
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
        let mut q = EventQueue::<u8>::new();
        q.schedule(SimTime(10), 0).unwrap();
        q.pop();
        assert_eq!(q.schedule(SimTime(9), 0), Err(SchedulePastError { at: SimTime(9), now: SimTime(10) }));
        assert!(q.schedule(SimTime(10), 0).is_ok());
    }
}
