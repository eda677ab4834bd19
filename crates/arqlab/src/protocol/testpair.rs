//! Test fixture: two layers joined by a full-duplex line (rate, propagation delay, a
//! loss predicate on the frame's index per direction), stepped event by event. Unit
//! tests of one layer against its peer use it; scenario-level runs use the runner.

use super::{Event, Grant, Layer, Pdu};
use crate::engine::{Duration, SimTime};

pub struct Line<F> {
    busy_until: SimTime,
    in_flight: std::collections::VecDeque<(SimTime, F, bool)>,
    pub sent: u64,
}

impl<F> Default for Line<F> {
    fn default() -> Self {
        Line { busy_until: SimTime::ZERO, in_flight: Default::default(), sent: 0 }
    }
}

pub struct Pair<L: Layer> {
    pub ends: [L; 2],
    pub lines: [Line<L::Pdu>; 2],
    pub rate_bps: f64,
    pub delay: Duration,
    pub now: SimTime,
    /// Events reported by each end, with their times.
    pub events: [Vec<(SimTime, Event<L::Sdu>)>; 2],
}

impl<L: Layer> Pair<L> {
    pub fn new(a: L, b: L, rate_bps: f64, delay_s: f64) -> Self {
        Pair { ends: [a, b], lines: [Line::default(), Line::default()], rate_bps, delay: Duration::from_secs_f64(delay_s), now: SimTime::ZERO, events: [vec![], vec![]] }
    }

    fn drain(&mut self, s: usize) {
        while let Some(e) = self.ends[s].poll_event() {
            self.events[s].push((self.now, e));
        }
    }

    fn try_send(&mut self, s: usize, lose: &mut impl FnMut(usize, u64, &L::Pdu) -> bool) {
        if self.lines[s].busy_until > self.now {
            return;
        }
        let g = Grant::line(self.rate_bps);
        if let Some(f) = self.ends[s].poll_transmit(self.now, &g) {
            let end = self.now + g.transmission(f.bits());
            let lost = lose(s, self.lines[s].sent, &f);
            self.lines[s].sent += 1;
            self.lines[s].busy_until = end;
            self.lines[s].in_flight.push_back((end + self.delay, f, lost));
        }
        self.drain(s);
    }

    /// Runs until `until` or until nothing is left to happen.
    pub fn run(&mut self, until: SimTime, mut lose: impl FnMut(usize, u64, &L::Pdu) -> bool) {
        loop {
            for s in 0..2 {
                self.try_send(s, &mut lose);
            }
            let mut next: Option<SimTime> = None;
            let mut consider = |t: SimTime| next = Some(next.map_or(t, |n: SimTime| n.min(t)));
            for s in 0..2 {
                if let Some(&(t, _, _)) = self.lines[s].in_flight.front() {
                    consider(t);
                }
                if let Some(t) = self.ends[s].poll_timeout() {
                    consider(t.max(self.now));
                }
                if self.ends[s].wants_transmit() && self.lines[s].busy_until > self.now {
                    consider(self.lines[s].busy_until);
                }
            }
            let Some(t) = next else { return };
            if t > until {
                return;
            }
            self.now = t;
            for s in 0..2 {
                while self.lines[s].in_flight.front().is_some_and(|x| x.0 <= t) {
                    let (_, f, lost) = self.lines[s].in_flight.pop_front().expect("front");
                    if lost {
                        self.ends[1 - s].handle_receive_in_error(t, &f);
                    } else {
                        self.ends[1 - s].handle_receive(t, &f);
                    }
                    self.drain(1 - s);
                }
            }
            for s in 0..2 {
                if self.ends[s].poll_timeout().is_some_and(|d| d <= t) {
                    self.ends[s].handle_timeout(t);
                    self.drain(s);
                }
            }
        }
    }

    /// SDU ids delivered at end `s`.
    pub fn delivered(&self, s: usize) -> Vec<(SimTime, L::Sdu)> {
        self.events[s].iter().filter_map(|(t, e)| if let Event::Delivered(x) = e { Some((*t, x.clone())) } else { None }).collect()
    }
}
