//! The station's processor: each received frame is handled for its time (`processing_s`
//! for I frames, `s_processing_s` for S frames), one at a time in arrival order, before
//! it takes effect — Bux & Grillo's per-frame processing of "the various frames", so a
//! station behind on its work answers late.

use crate::engine::{Duration, SimTime};
use crate::protocol::{Frame, FrameKind, Payload};
use std::collections::VecDeque;

pub struct Processor<P: Payload> {
    i_time: Duration,
    s_time: Duration,
    /// Received frames waiting for (or in) the processor, with the time each is done.
    queue: VecDeque<(SimTime, Frame<P>)>,
}

impl<P: Payload> Processor<P> {
    pub fn new(i_time: Duration, s_time: Duration) -> Self {
        Processor { i_time, s_time, queue: VecDeque::new() }
    }

    /// Takes a received frame; true if it takes effect now (no processing time and
    /// nothing ahead of it: the caller acts on it where it lies, uncopied), else it is
    /// queued behind the frames before it.
    #[inline]
    pub fn admit(&mut self, now: SimTime, f: &Frame<P>) -> bool {
        let time = if f.kind == FrameKind::I { self.i_time } else { self.s_time };
        if time.0 == 0 && self.queue.is_empty() {
            return true;
        }
        let start = self.queue.back().map_or(now, |&(done, _)| done.max(now));
        self.queue.push_back((start + time, f.clone()));
        false
    }

    /// The next frame processed by `now`, with the time it was done.
    pub fn done_by(&mut self, now: SimTime) -> Option<(SimTime, Frame<P>)> {
        self.queue.front().is_some_and(|x| x.0 <= now).then(|| self.queue.pop_front()).flatten()
    }

    /// When the frame in the processor is done.
    pub fn next_done(&self) -> Option<SimTime> {
        self.queue.front().map(|x| x.0)
    }
}
