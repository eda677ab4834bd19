//! A windowed network access: at most `window` packets in transit, a packet's place
//! released when the subnetwork acknowledges it. The model of Colella, Aronoff & Mills'
//! "network window (MSGs) 4" under class 4 transport, reusable under any layer.
//!
//! The subnetwork is the medium below. It acknowledges a packet `ack_delay_s` after
//! the packet's last bit has left (0: as soon as the access link has carried it — a
//! local acknowledgement, as an X.25 DCE's P(R) usually is; the round trip of the
//! satellite hop makes it an end-to-end acknowledgement). It does not recover errors:
//! a packet corrupted on the medium is lost (the transport above recovers it), and its
//! place is released all the same. While `window` packets are in transit the layer
//! takes no more (`accepts() == false`), so the layer above waits with its PDUs
//! unbuilt and its own ordering (an ED ahead of DTs) is kept.
//!
//! PDUs are `Frame`s of kind I with N(S) = packet number modulo 8 and a header of
//! `overhead_bits` (network and link headers together).

use super::datagram::{Datagram, DatagramConfig};
use super::{Counters, Event, Frame, Grant, Layer, Payload, Service};
use crate::engine::{Duration, SimTime};
use crate::schema::{Problems, Range, Table};
use serde::Serialize;
use std::collections::VecDeque;

/// `kind = "network_window"`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NetWindowConfig {
    /// Packets in transit at most ("network window (MSGs)").
    pub window: u32,
    /// Header and trailer bits per packet (network + link level).
    pub overhead_bits: u32,
    /// From a packet's last bit leaving to the subnetwork's acknowledgement.
    pub ack_delay_s: f64,
}

impl NetWindowConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> NetWindowConfig {
        NetWindowConfig {
            window: t.u64("window", 4, 1, 1 << 20, p) as u32,
            overhead_bits: t.u64("overhead_bits", 72, 0, 1 << 20, p) as u32,
            ack_delay_s: t.f64("ack_delay_s", 0.0, Range::Closed(0.0, 1e6), p),
        }
    }
}

/// A [`Datagram`] layer (one SDU per packet, corrupted packets lost) with a window on
/// the packets in transit and N(S) numbering.
pub struct NetWindow<P: Payload> {
    window: u32,
    ack_delay: Duration,
    datagram: Datagram<P>,
    /// Release times of the packets sent and not yet acknowledged (FIFO: one delay).
    releases: VecDeque<SimTime>,
    sent: u32,
}

impl<P: Payload> NetWindow<P> {
    pub fn new(cfg: &NetWindowConfig) -> Self {
        NetWindow {
            window: cfg.window,
            ack_delay: Duration::from_secs_f64(cfg.ack_delay_s),
            datagram: Datagram::new(&DatagramConfig { overhead_bits: cfg.overhead_bits }),
            releases: VecDeque::new(),
            sent: 0,
        }
    }

    /// Packets in transit: queued here or sent and not yet acknowledged.
    pub fn in_transit(&self) -> usize {
        self.datagram.backlog() + self.releases.len()
    }
}

impl<P: Payload> Layer for NetWindow<P> {
    type Sdu = P;
    type Pdu = Frame<P>;
    fn service(&self) -> Service {
        Service::BestEffort
    }
    fn handle_submit(&mut self, now: SimTime, sdu: P) {
        self.datagram.handle_submit(now, sdu);
    }
    fn handle_receive(&mut self, now: SimTime, pdu: &Frame<P>) {
        self.datagram.handle_receive(now, pdu);
    }
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &Frame<P>) {
        self.datagram.handle_receive_in_error(now, pdu);
    }
    fn handle_timeout(&mut self, now: SimTime) {
        while self.releases.front().is_some_and(|&t| t <= now) {
            self.releases.pop_front();
        }
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<Frame<P>> {
        let mut f = self.datagram.poll_transmit(now, grant)?;
        f.ns = self.sent % 8;
        self.releases.push_back(now + grant.transmission(f.bits) + self.ack_delay);
        self.sent = self.sent.wrapping_add(1);
        Some(f)
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        self.releases.front().copied()
    }
    fn poll_event(&mut self) -> Option<Event<P>> {
        self.datagram.poll_event()
    }
    fn accepts(&self) -> bool {
        self.in_transit() < self.window as usize
    }
    fn wants_transmit(&self) -> bool {
        self.datagram.wants_transmit()
    }
    fn backlog(&self) -> usize {
        self.datagram.backlog()
    }
    fn unacknowledged(&self) -> usize {
        self.in_transit()
    }
    fn counters(&self) -> Counters {
        self.datagram.counters()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Sdu;

    fn sdu(id: u64) -> Sdu {
        Sdu { id, bits: 992, flow: 0, born: SimTime::ZERO }
    }

    #[test]
    fn test_window_full_refuses_until_the_subnetwork_acknowledges() {
        let g = Grant::line(1000.0); // a 1000-bit packet takes 1 s
        let mut w: NetWindow<Sdu> = NetWindow::new(&NetWindowConfig { window: 2, overhead_bits: 8, ack_delay_s: 0.5 });
        w.handle_submit(SimTime::ZERO, sdu(0));
        assert!(w.accepts());
        w.handle_submit(SimTime::ZERO, sdu(1));
        assert!(!w.accepts(), "two in transit fill a window of 2");
        let f = w.poll_transmit(SimTime::ZERO, &g).unwrap();
        assert_eq!((f.bits, f.ns), (1000, 0));
        assert!(!w.accepts(), "sent but not acknowledged still counts");
        assert_eq!(w.poll_timeout(), Some(SimTime::from_secs_f64(1.5)), "last bit at 1 s + ack delay 0.5 s");
        w.handle_timeout(SimTime::from_secs_f64(1.4));
        assert!(!w.accepts(), "a stale wake-up releases nothing");
        w.handle_timeout(SimTime::from_secs_f64(1.5));
        assert!(w.accepts());
        assert_eq!(w.poll_transmit(SimTime::from_secs_f64(1.5), &g).unwrap().ns, 1);
        assert_eq!(w.counters().frames_sent, 2);
    }

    #[test]
    fn test_a_corrupted_packet_is_lost_and_a_good_one_delivered() {
        let g = Grant::line(1000.0);
        let mut a: NetWindow<Sdu> = NetWindow::new(&NetWindowConfig { window: 4, overhead_bits: 8, ack_delay_s: 0.0 });
        let mut b: NetWindow<Sdu> = NetWindow::new(&NetWindowConfig { window: 4, overhead_bits: 8, ack_delay_s: 0.0 });
        a.handle_submit(SimTime::ZERO, sdu(0));
        a.handle_submit(SimTime::ZERO, sdu(1));
        let f0 = a.poll_transmit(SimTime::ZERO, &g).unwrap();
        let f1 = a.poll_transmit(SimTime::ZERO, &g).unwrap();
        b.handle_receive_in_error(SimTime(1), &f0);
        b.handle_receive(SimTime(2), &f1);
        assert_eq!(b.poll_event(), Some(Event::Delivered(sdu(1))));
        assert_eq!(b.poll_event(), None);
        assert_eq!(b.counters().frames_in_error_received, 1);
    }
}
