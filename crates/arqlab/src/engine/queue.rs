//! The future event list: a binary heap ordered by (time, insertion number).
//!
//! Equal times keep FIFO order (the insertion number breaks ties), which makes a run
//! reproducible bit for bit. Events are small `Copy` values; payloads that travel with
//! an event (frames on a link) are kept by their owner, not in the queue.

use super::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug)]
struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.time == other.time && self.seq == other.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest (time, seq) on top.
    fn cmp(&self, other: &Self) -> Ordering {
        other.time.cmp(&self.time).then_with(|| other.seq.cmp(&self.seq))
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

pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    now: SimTime,
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(64), next_seq: 0, now: SimTime::ZERO }
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
        self.heap.push(Entry { time, seq: self.next_seq, event });
        self.next_seq += 1;
        Ok(())
    }

    /// Removes the earliest event and advances the clock to its time.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = self.heap.pop()?;
        self.now = e.time;
        Some((e.time, e.event))
    }

    /// Time of the next event without removing it.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_times_pop_in_insertion_order() {
        let mut q = EventQueue::new();
        for i in 0..100u32 {
            q.schedule(SimTime(5), i).unwrap();
        }
        q.schedule(SimTime(1), 999).unwrap();
        assert_eq!(q.pop(), Some((SimTime(1), 999)));
        for i in 0..100u32 {
            assert_eq!(q.pop(), Some((SimTime(5), i)));
        }
        assert!(q.pop().is_none());
    }

    #[test]
    fn scheduling_in_the_past_is_an_error() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(10), ()).unwrap();
        q.pop();
        assert_eq!(
            q.schedule(SimTime(9), ()),
            Err(SchedulePastError { at: SimTime(9), now: SimTime(10) })
        );
        assert!(q.schedule(SimTime(10), ()).is_ok());
    }
}
