//! A half-duplex radio channel between two sides: one transmitter at a time, a
//! turnaround time τ to switch a side from receiving to transmitting, and a preamble at
//! the start of every transmission.
//!
//! The two lanes of the radio (side 0 → 1, side 1 → 0) carry the frames; this gate says
//! when a side may start and with what lead time:
//! - the side that transmitted last may continue at once; a frame that starts exactly
//!   when its previous one ended continues the same transmission (a burst of frames
//!   shares one preamble), a later one starts a new transmission with a new preamble;
//! - the other side may start τ after the last bit of the last transmission has
//!   *arrived* at it (end of transmission + t_p of that lane), so the channel carries
//!   one transmission at a time and each change of direction costs t_p + τ.
//!
//! A stop-and-wait cycle is then t_f + t_ack + 2·t_p + 2·τ (+ 2 preambles), the closed
//! form the radio is validated against. Turn-taking is ideal (no collisions): the link
//! protocols on such radios coordinate who talks, and the gate models a side that never
//! keys up over its peer. A side that keeps sending holds the channel.

use crate::engine::{Duration, SimTime};

#[derive(Clone, Debug)]
pub struct Radio {
    pub turnaround: Duration,
    pub preamble: Duration,
    /// The side that transmitted last.
    talker: Option<u8>,
    /// End of its last transmission (last bit sent).
    tx_end: SimTime,
    /// When that last bit has arrived at the other side.
    clear_at: SimTime,
}

impl Radio {
    pub fn new(turnaround: Duration, preamble: Duration) -> Radio {
        Radio { turnaround, preamble, talker: None, tx_end: SimTime::ZERO, clear_at: SimTime::ZERO }
    }

    /// The earliest time side `side` may start a transmission.
    #[inline]
    pub fn ready_at(&self, side: u8) -> SimTime {
        match self.talker {
            None => SimTime::ZERO,
            Some(t) if t == side => self.tx_end,
            Some(_) => self.clear_at + self.turnaround,
        }
    }

    /// The lead time of a frame side `side` starts at `now`: none inside a burst, the
    /// preamble otherwise.
    #[inline]
    pub fn lead(&self, side: u8, now: SimTime) -> Duration {
        if self.talker == Some(side) && now == self.tx_end {
            Duration::ZERO
        } else {
            self.preamble
        }
    }

    /// Side `side` started a frame whose last bit leaves at `end` and arrives `delay` later.
    #[inline]
    pub fn started(&mut self, side: u8, end: SimTime, delay: Duration) {
        self.talker = Some(side);
        self.tx_end = end;
        self.clear_at = end + delay;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_take_turns_after_propagation_and_turnaround() {
        let ms = |x: u64| Duration(x * 1_000_000_000);
        let at = |x: u64| SimTime(x * 1_000_000_000);
        let mut r = Radio::new(ms(5), ms(2));
        assert_eq!(r.ready_at(0), SimTime::ZERO);
        assert_eq!(r.lead(0, SimTime::ZERO), ms(2), "a new transmission has a preamble");
        r.started(0, at(12), ms(50)); // 2 ms preamble + 10 ms frame
        assert_eq!(r.ready_at(0), at(12), "the talker may continue");
        assert_eq!(r.lead(0, at(12)), Duration::ZERO, "back to back: same burst");
        assert_eq!(r.lead(0, at(13)), ms(2), "after a pause: a new transmission");
        assert_eq!(r.ready_at(1), at(12 + 50 + 5), "the peer waits for the last bit and turns around");
        r.started(0, at(20), ms(50));
        assert_eq!(r.ready_at(1), at(20 + 50 + 5), "a longer burst pushes the peer back");
        r.started(1, at(80), ms(50));
        assert_eq!(r.ready_at(0), at(80 + 50 + 5));
        assert_eq!(r.ready_at(1), at(80));
    }
}
