//! A best-effort datagram layer: one SDU per PDU, no sequence numbers, no
//! acknowledgement, no retransmission. A PDU that arrives corrupted, or that a relay
//! drops, is lost. It is the layer to put under measurements of the media and relays
//! themselves (queueing delay, loss at a finite buffer) and the bottom of stacks whose
//! upper layer does its own error recovery end to end.

use super::{Counters, Event, Frame, Grant, Layer, Payload, Sdu, Service};
use crate::engine::SimTime;
use crate::schema::{Problems, Range, Table};
use serde::Serialize;
use std::collections::VecDeque;

/// `[protocol] kind = "datagram"`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DatagramConfig {
    /// Header and trailer bits added to every SDU.
    pub overhead_bits: u32,
}

impl DatagramConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> DatagramConfig {
        DatagramConfig { overhead_bits: t.f64("overhead_bits", 48.0, Range::Closed(0.0, 1e6), p) as u32 }
    }
}

pub struct Datagram<P: Payload = Sdu> {
    overhead_bits: u32,
    queue: VecDeque<P>,
    events: VecDeque<Event<P>>,
    counters: Counters,
}

impl<P: Payload> Datagram<P> {
    pub fn new(cfg: &DatagramConfig) -> Self {
        Datagram { overhead_bits: cfg.overhead_bits, queue: VecDeque::new(), events: VecDeque::new(), counters: Counters::default() }
    }
}

impl<P: Payload> Layer for Datagram<P> {
    type Sdu = P;
    type Pdu = Frame<P>;
    fn service(&self) -> Service {
        Service::BestEffort
    }

    fn handle_submit(&mut self, _now: SimTime, sdu: P) {
        self.queue.push_back(sdu);
    }

    fn handle_receive(&mut self, _now: SimTime, pdu: &Frame<P>) {
        if let Some(p) = pdu.msg.clone() {
            self.events.push_back(Event::Delivered(p));
        }
    }

    fn handle_receive_in_error(&mut self, _now: SimTime, _pdu: &Frame<P>) {
        self.counters.frames_in_error_received += 1;
    }

    fn handle_timeout(&mut self, _now: SimTime) {}

    fn poll_transmit(&mut self, _now: SimTime, _grant: &Grant) -> Option<Frame<P>> {
        let p = self.queue.pop_front()?;
        self.counters.frames_sent += 1;
        self.counters.i_frames_sent += 1;
        Some(Frame::information(0, 0, false, p, self.overhead_bits))
    }

    fn poll_timeout(&self) -> Option<SimTime> {
        None
    }

    fn poll_event(&mut self) -> Option<Event<P>> {
        self.events.pop_front()
    }

    fn wants_transmit(&self) -> bool {
        !self.queue.is_empty()
    }

    fn backlog(&self) -> usize {
        self.queue.len()
    }

    fn unacknowledged(&self) -> usize {
        self.queue.len()
    }

    fn counters(&self) -> Counters {
        self.counters
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::FrameKind;

    #[test]
    fn test_each_sdu_is_one_frame_and_a_corrupted_one_is_lost() {
        let g = Grant::line(1000.0);
        let mut a: Datagram = Datagram::new(&DatagramConfig { overhead_bits: 16 });
        let mut b: Datagram = Datagram::new(&DatagramConfig { overhead_bits: 16 });
        for id in 0..3 {
            a.handle_submit(SimTime::ZERO, Sdu { id, bits: 100, flow: 0, born: SimTime::ZERO });
        }
        assert!(a.wants_transmit());
        let f: Vec<_> = (0..3).map(|_| a.poll_transmit(SimTime::ZERO, &g).unwrap()).collect();
        assert!(a.poll_transmit(SimTime::ZERO, &g).is_none() && !a.wants_transmit());
        assert!(f.iter().all(|f| f.bits == 116 && f.kind == FrameKind::I));
        b.handle_receive(SimTime(1), &f[0]);
        b.handle_receive_in_error(SimTime(2), &f[1]);
        b.handle_receive(SimTime(3), &f[2]);
        let got: Vec<u64> = std::iter::from_fn(|| b.poll_event())
            .map(|e| match e {
                Event::Delivered(s) => s.id,
                Event::Acknowledged(_) => unreachable!("a datagram is never acknowledged"),
            })
            .collect();
        assert_eq!(got, vec![0, 2]);
        assert_eq!(b.counters().frames_in_error_received, 1);
        assert_eq!(a.counters().frames_sent, 3);
        assert_eq!(a.poll_timeout(), None);
    }
}
