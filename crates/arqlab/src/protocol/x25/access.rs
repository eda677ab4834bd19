//! The DTE–DCE access line: LAPB (the HDLC ABM model, `protocol::hdlc`) at both ends
//! of a full-duplex line, clocked from inside the host layer. The DTE end is station
//! A, the DCE end station B; the line is error free with no propagation delay (a local
//! loop), so the frame-level delay T_f of the burst model *emerges* from LAPB:
//! frame overhead, acknowledgement frames and queueing behind other frames.
//!
//! LAPB delivers every packet once and in order, so the packets of one direction wait
//! on the line in one queue, in the order handed to LAPB, and its frames carry a
//! [`Ticket`] (the packet's place and length) instead of the packet: a packet is not
//! copied into every frame that carries it and into its retransmission buffer, and the
//! far end's delivery takes the packet at the head of the queue (its ticket checks
//! that it is that packet).

use super::packet::Packet;
use super::X25Config;
use crate::engine::{Duration, SimTime};
use crate::protocol::hdlc::{HdlcConfig, HdlcStation, Mode};
use crate::protocol::{Event, Frame, FrameKind, Grant, Layer, Payload, Pdu, Station};
use std::collections::VecDeque;

/// What LAPB carries for a packet on the access line: its place in its direction's
/// sequence (numbered from 0, wrapping) and its length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket {
    seq: u32,
    bits: u32,
}

impl Payload for Ticket {
    #[inline(always)]
    fn bits(&self) -> u32 {
        self.bits
    }
}

/// The packets handed to one end's LAPB and not yet handed on from the other, in
/// order: first those the far end has delivered (the DCE's, waiting for the network),
/// then those LAPB still carries.
struct Waiting<P> {
    packets: VecDeque<Packet<P>>,
    /// Packets at the front already delivered, not yet handed on.
    delivered: usize,
    /// The ticket number of the next packet handed over.
    next: u32,
}

impl<P: Payload> Waiting<P> {
    fn new() -> Self {
        Waiting { packets: VecDeque::new(), delivered: 0, next: 0 }
    }

    /// `p` waits; its ticket goes to LAPB.
    fn push(&mut self, p: Packet<P>) -> Ticket {
        let t = Ticket { seq: self.next, bits: Payload::bits(&p) };
        self.next = self.next.wrapping_add(1);
        self.packets.push_back(p);
        t
    }

    /// Checks that LAPB delivered the oldest packet not yet delivered (in order).
    fn delivering(&self, t: Ticket) {
        let oldest = self.next.wrapping_sub((self.packets.len() - self.delivered) as u32);
        assert_eq!(t.seq, oldest, "LAPB delivered packet {} of a direction whose oldest undelivered is {oldest}", t.seq);
    }

    /// The packet LAPB delivered ticket `t` of, taken at once (the DTE's deliveries).
    fn take(&mut self, t: Ticket) -> Packet<P> {
        debug_assert_eq!(self.delivered, 0, "a direction is either handed on at delivery or later, not both");
        self.delivering(t);
        self.packets.pop_front().expect("a delivered ticket has its packet waiting")
    }

    /// Ticket `t` delivered: its packet stays where it is until handed on (`pop_delivered`).
    fn deliver(&mut self, t: Ticket) {
        self.delivering(t);
        self.delivered += 1;
    }

    /// The oldest delivered packet, to hand on.
    fn pop_delivered(&mut self) -> Option<Packet<P>> {
        if self.delivered == 0 {
            return None;
        }
        self.delivered -= 1;
        self.packets.pop_front()
    }
}

struct Wire<F> {
    busy_until: SimTime,
    in_flight: VecDeque<(SimTime, F)>,
    frames: u64,
    busy: Duration,
}

impl<F> Default for Wire<F> {
    fn default() -> Self {
        Wire { busy_until: SimTime::ZERO, in_flight: VecDeque::new(), frames: 0, busy: Duration::ZERO }
    }
}

/// Counters of the access line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AccessCounters {
    pub up_frames: u64,
    pub down_frames: u64,
    /// Time each direction was transmitting, picoseconds.
    pub up_busy_ps: u64,
    pub down_busy_ps: u64,
    /// Time the host's sending side was busy, picoseconds: the up direction
    /// transmitting or a packet in processing, their union (kept only with processing;
    /// without it, `up_busy_ps`).
    pub sending_busy_ps: u64,
}

pub struct AccessLine<P: Payload> {
    pub dte: HdlcStation<Ticket>,
    pub dce: HdlcStation<Ticket>,
    up: Wire<Frame<Ticket>>,
    down: Wire<Frame<Ticket>>,
    /// Packets the DTE's LAPB (up) and the DCE's (down) carry, waiting for delivery.
    up_packets: Waiting<P>,
    down_packets: Waiting<P>,
    grant: Grant,
    /// The host's processing per packet it hands to LAPB (`host_processing_s`).
    processing: Duration,
    /// A packet being processed, and when it is ready for LAPB.
    processed: Option<(SimTime, Packet<P>)>,
    /// The sending side's busy time (up frames and processing, their union) and the
    /// end of its last busy interval: intervals start at the current time, so each
    /// adds only its part past the last one's end.
    sending_busy: Duration,
    sending_until: SimTime,
    /// The DTE's (up) and the DCE's (down) station answered `wants_transmit_now` false
    /// and has had no input since: it would answer false again (the answer depends on
    /// the station's state only, which changes only through the calls made here), so
    /// `transmit` does not ask. Most starts find the station that did not just receive
    /// a frame or a packet with nothing to send.
    up_quiet: bool,
    down_quiet: bool,
}

impl<P: Payload> AccessLine<P> {
    pub fn new(cfg: &X25Config) -> Self {
        let mut h = HdlcConfig::defaults(Mode::Abm, 8);
        h.window = cfg.lapb_window;
        h.t1_s = cfg.lapb_t1_s;
        h.t2_s = cfg.lapb_t2_s;
        h.overhead_bits = cfg.lapb_overhead_bits;
        h.s_frame_bits = cfg.lapb_overhead_bits;
        AccessLine {
            // Only deliveries are used (`arrivals`): no copy of each acknowledged packet.
            dte: HdlcStation::new(&h, Station::A).without_acknowledged_events(),
            dce: HdlcStation::new(&h, Station::B).without_acknowledged_events(),
            up: Wire::default(),
            down: Wire::default(),
            up_packets: Waiting::new(),
            down_packets: Waiting::new(),
            grant: Grant::line(cfg.access_rate_bps),
            processing: Duration::from_secs_f64(cfg.host_processing_s),
            processed: None,
            sending_busy: Duration::ZERO,
            sending_until: SimTime::ZERO,
            up_quiet: false,
            down_quiet: false,
        }
    }

    pub fn rate_bps(&self) -> f64 {
        self.grant.rate_bps
    }

    /// True if the host processes each packet before LAPB (`host_processing_s` > 0).
    pub fn processes(&self) -> bool {
        self.processing != Duration::ZERO
    }

    pub fn counters(&self) -> AccessCounters {
        let sending = if self.processing == Duration::ZERO { self.up.busy } else { self.sending_busy };
        AccessCounters { up_frames: self.up.frames, down_frames: self.down.frames, up_busy_ps: self.up.busy.0, down_busy_ps: self.down.busy.0, sending_busy_ps: sending.0 }
    }

    /// The sending side is busy over [now, until): adds the part past the last busy
    /// interval's end (`sending_busy`).
    fn note_sending(&mut self, now: SimTime, until: SimTime) {
        let from = now.max(self.sending_until);
        if until > from {
            self.sending_busy = self.sending_busy + (until - from);
            self.sending_until = until;
        }
    }

    /// A packet from the network for the DTE: the DCE's LAPB queues it.
    pub fn from_network(&mut self, now: SimTime, p: Packet<P>) {
        let t = self.down_packets.push(p);
        self.dce.handle_submit(now, t);
        self.down_quiet = false;
    }

    /// A packet from the host's packet level for the network: the DTE's LAPB queues it.
    pub fn from_dte(&mut self, now: SimTime, p: Packet<P>) {
        let t = self.up_packets.push(p);
        self.dte.handle_submit(now, t);
        self.up_quiet = false;
    }

    /// Packets the DCE's LAPB delivered, waiting for the network. (The DTE's go
    /// straight to the host's packet level, see [`AccessLine::arrivals`].)
    pub fn to_net_len(&self) -> usize {
        self.up_packets.delivered
    }

    /// The oldest packet the DCE's LAPB delivered, for the network: it moves from the
    /// line's queue to the caller, not through a queue of its own.
    pub fn pop_to_net(&mut self) -> Option<Packet<P>> {
        self.up_packets.pop_delivered()
    }

    /// Frames whose last bit has arrived by `now` are handed to the far station, and
    /// stations' timers due by `now` fire; then the packets the DTE's LAPB delivered go
    /// to `to_dte` in order (the host's packet level, with no queue between).
    pub fn arrivals(&mut self, now: SimTime, to_dte: &mut impl FnMut(Packet<P>)) {
        // Each frame is handed over by value: an I frame's packet moves up, not cloned.
        // A station that neither received a frame nor ran out a timer has nothing new
        // to deliver (it reports only deliveries, and only on receipt): its events are
        // not polled, and its `wants_transmit_now` answer stands (`up_quiet`).
        while self.up.in_flight.front().is_some_and(|x| x.0 <= now) {
            let (_, f) = self.up.in_flight.pop_front().expect("a frame has arrived");
            self.dce.receive_owned(now, f);
            self.down_quiet = false;
        }
        while self.down.in_flight.front().is_some_and(|x| x.0 <= now) {
            let (_, f) = self.down.in_flight.pop_front().expect("a frame has arrived");
            self.dte.receive_owned(now, f);
            self.up_quiet = false;
        }
        if self.dte.poll_timeout().is_some_and(|d| d <= now) {
            self.dte.handle_timeout(now);
            self.up_quiet = false;
        }
        if self.dce.poll_timeout().is_some_and(|d| d <= now) {
            self.dce.handle_timeout(now);
            self.down_quiet = false;
        }
        if !self.up_quiet {
            while let Some(e) = self.dte.poll_event() {
                if let Event::Delivered(t) = e {
                    to_dte(self.down_packets.take(t));
                }
            }
        }
        if !self.down_quiet {
            while let Some(e) = self.dce.poll_event() {
                if let Event::Delivered(t) = e {
                    self.up_packets.deliver(t);
                }
            }
        }
        debug_assert!(self.dte.poll_event().is_none() && self.dce.poll_event().is_none(), "a quiet station reported an event");
    }

    /// True if a frame has arrived or a station timer has run out by `now`: what
    /// `arrivals` would act on.
    pub fn due(&self, now: SimTime) -> bool {
        [&self.up, &self.down].iter().any(|w| w.in_flight.front().is_some_and(|x| x.0 <= now))
            || [&self.dte, &self.dce].iter().any(|s| s.poll_timeout().is_some_and(|d| d <= now))
    }

    /// Starts a frame on each free direction, until nothing more starts. The DTE's
    /// LAPB is given a packet from `pull` only when it has none queued and its line is
    /// free, so the packet's P(R) is decided as late as possible. With host processing
    /// the packet reaches LAPB that long after it is pulled, and the next is pulled
    /// only when this one's frame has gone: each packet costs processing + T_p, not
    /// overlapped (eq. 1's W (T_p + T_f)).
    ///
    /// The two directions share nothing here (their stations change only through
    /// arrivals and timers, which starting does not make), so each is tried once: a
    /// frame started on one keeps it busy past now. The up direction is tried a second
    /// time only when it started nothing and the down one did: the rule the host kept
    /// before (start both until neither starts) pulled again then, and a second pull
    /// can find a packet the first did not (`assign` gives datagrams out in turns).
    pub fn start(&mut self, now: SimTime, pull: &mut impl FnMut() -> Option<Packet<P>>) {
        let up = self.start_up(now, pull);
        let down = self.down.busy_until <= now && Self::transmit(&mut self.dce, &mut self.down, &mut self.down_quiet, now, &self.grant);
        if down && !up {
            self.start_up(now, pull);
        }
    }

    /// The up direction's part of `start`: true if a frame started.
    fn start_up(&mut self, now: SimTime, pull: &mut impl FnMut() -> Option<Packet<P>>) -> bool {
        if self.up.busy_until > now {
            return false;
        }
        if self.dte.backlog() == 0 {
            if self.processing == Duration::ZERO {
                if let Some(p) = pull() {
                    self.from_dte(now, p);
                }
            } else {
                self.process(now, pull);
            }
        }
        let sent = Self::transmit(&mut self.dte, &mut self.up, &mut self.up_quiet, now, &self.grant);
        if sent && self.processing != Duration::ZERO {
            self.note_sending(now, self.up.busy_until);
        }
        sent
    }

    /// Host processing: hands the processed packet to LAPB once ready, or starts
    /// processing the next one.
    fn process(&mut self, now: SimTime, pull: &mut impl FnMut() -> Option<Packet<P>>) {
        match &self.processed {
            Some((ready, _)) if *ready <= now => {
                if let Some((_, p)) = self.processed.take() {
                    self.from_dte(now, p);
                }
            }
            Some(_) => {}
            None => {
                self.processed = pull().map(|p| (now + self.processing, p));
                if self.processed.is_some() {
                    self.note_sending(now, now + self.processing);
                }
            }
        }
    }

    /// Starts `station`'s next frame on `w`, if it has one. The frame is built where it
    /// will wait for its arrival, at the back of the wire's queue: no copies of a
    /// returned frame. `quiet`: the station's (see `up_quiet`). Returns true if a frame
    /// started.
    fn transmit(station: &mut HdlcStation<Ticket>, w: &mut Wire<Frame<Ticket>>, quiet: &mut bool, now: SimTime, g: &Grant) -> bool {
        debug_assert!(!*quiet || !station.wants_transmit_now(), "a quiet station wants to send: an input did not end its quiet");
        if *quiet {
            return false;
        }
        if !station.wants_transmit_now() {
            *quiet = true;
            return false;
        }
        w.in_flight.push_back((now, Frame::supervisory(FrameKind::RR, 0, false, 0)));
        let slot = w.in_flight.back_mut().expect("just pushed");
        if !station.poll_transmit_into(now, g, &mut slot.1) {
            w.in_flight.pop_back();
            return false;
        }
        let tx = g.transmission(Pdu::bits(&slot.1));
        slot.0 = now + tx;
        w.busy_until = now + tx;
        w.busy = w.busy + tx;
        w.frames += 1;
        true
    }

    /// Test view: how many of the two stations are quiet (`up_quiet`), checking that
    /// each quiet one still answers `wants_transmit_now` false.
    #[cfg(test)]
    pub(crate) fn quiet_stations(&self) -> usize {
        for (quiet, s, name) in [(self.up_quiet, &self.dte, "DTE"), (self.down_quiet, &self.dce, "DCE")] {
            assert!(!quiet || !s.wants_transmit_now(), "the {name}'s station is kept quiet but wants to send");
        }
        usize::from(self.up_quiet) + usize::from(self.down_quiet)
    }

    /// The next time something happens on the line: an arrival or a station timer.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        let mut t: Option<SimTime> = None;
        let mut at = |x: SimTime| t = Some(t.map_or(x, |y: SimTime| y.min(x)));
        for w in [&self.up, &self.down] {
            if let Some(&(a, _)) = w.in_flight.front() {
                at(a);
            }
        }
        if let Some(d) = self.dte.poll_timeout() {
            at(d);
        }
        if let Some(d) = self.dce.poll_timeout() {
            at(d);
        }
        // A processed packet goes to LAPB only when LAPB has nothing queued and the
        // line is free (`start`); until then the frame arrivals above are the moments
        // to look again, and its ready time (already past) would ask for a wake at the
        // same instant forever.
        if let Some((ready, _)) = self.processed {
            if self.dte.backlog() == 0 {
                at(ready.max(self.up.busy_until));
            }
        }
        // A direction frees exactly when its frame arrives (no propagation delay on
        // the local loop), so the arrivals above are also the moments to start again.
        t
    }
}

#[cfg(test)]
mod tests {
    use super::super::packet::PacketKind;
    use super::*;
    use crate::protocol::Sdu;

    /// X.25 §2.4 (LAPB delivers each packet once, in order): a direction's packets wait
    /// in the order handed to LAPB, each carried by a ticket with its length, and each
    /// delivery takes the oldest — across the wrap of the ticket numbers.
    #[test]
    fn lapb_in_order_delivery_takes_each_packet_by_its_ticket() {
        let mut w: Waiting<Sdu> = Waiting { packets: VecDeque::new(), delivered: 0, next: u32::MAX - 1 };
        let pkt = |k: u32| Packet::control(PacketKind::Rr, 1, k, 0, 1, k);
        let t: Vec<Ticket> = (0..3).map(|k| w.push(pkt(k))).collect();
        assert_eq!(t.iter().map(|x| (x.seq, x.bits)).collect::<Vec<_>>(), vec![(u32::MAX - 1, 24), (u32::MAX, 32), (0, 40)]);
        assert_eq!([w.take(t[0]).pr, w.take(t[1]).pr, w.take(t[2]).pr], [0, 1, 2]);
        assert!(w.packets.is_empty());
    }

    /// The DCE's deliveries wait where they are, in the line's queue, until the network
    /// takes them (no queue of their own): each delivery marks the oldest undelivered
    /// packet, and they are handed on oldest first while those behind are still carried.
    #[test]
    fn dce_deliveries_wait_in_place_for_the_network() {
        let mut w: Waiting<Sdu> = Waiting::new();
        let t: Vec<Ticket> = (0..3).map(|k| w.push(Packet::control(PacketKind::Rr, 1, k, 0, 1, 0))).collect();
        assert!(w.pop_delivered().is_none(), "nothing delivered yet");
        w.deliver(t[0]);
        w.deliver(t[1]);
        assert_eq!(w.pop_delivered().map(|p| p.pr), Some(0));
        assert_eq!(w.pop_delivered().map(|p| p.pr), Some(1));
        assert!(w.pop_delivered().is_none(), "packet 2 is still carried by LAPB");
        w.deliver(t[2]);
        assert_eq!(w.pop_delivered().map(|p| p.pr), Some(2));
        assert!(w.packets.is_empty());
    }

    /// A ticket delivered twice is refused, though its packet still waits to be handed on.
    #[test]
    #[should_panic(expected = "LAPB delivered packet 0 of a direction whose oldest undelivered is 1")]
    fn a_ticket_delivered_twice_is_refused() {
        let mut w: Waiting<Sdu> = Waiting::new();
        let t: Vec<Ticket> = (0..2).map(|k| w.push(Packet::control(PacketKind::Rr, 1, k, 0, 1, 0))).collect();
        w.deliver(t[0]);
        w.deliver(t[0]);
    }

    /// A delivery out of order (or twice) is a model bug: the ticket names a packet that
    /// is not the oldest waiting, and the run stops there rather than hand up another.
    #[test]
    #[should_panic(expected = "LAPB delivered packet 1 of a direction whose oldest undelivered is 0")]
    fn a_ticket_delivered_out_of_order_is_refused() {
        let mut w: Waiting<Sdu> = Waiting::new();
        let t: Vec<Ticket> = (0..2).map(|k| w.push(Packet::control(PacketKind::Rr, 1, k, 0, 1, 0))).collect();
        w.take(t[1]);
    }

    /// X.25 §2 (LAPB on the local loop, no propagation delay): an I frame's last bit
    /// arrives (packet + LAPB framing) / rate after it starts, and `due` (what
    /// `arrivals` acts on) turns true exactly then, not a picosecond before, with no
    /// timer due; the DCE's T2 then holds its RR, and `due` turns true again exactly at
    /// T2's deadline with nothing on the wire. The RR (framing only) frees T1.
    #[test]
    fn lapb_frame_is_due_when_its_last_bit_arrives_and_t2_when_it_runs_out() {
        let cfg = X25Config::default(); // 9600 bit/s, 48 bits of framing, T2 0.1 s
        let mut line: AccessLine<Sdu> = AccessLine::new(&cfg);
        assert_eq!(line.rate_bps(), 9600.0);
        let t0 = SimTime::from_secs_f64(1.0);
        line.from_dte(t0, Packet::control(PacketKind::Rr, 1, 0, 0, 1, 0)); // 24 bits
        line.start(t0, &mut || None);
        let arrive = SimTime(t0.0 + 7_500_000_000); // 72 bits at 9600 bit/s: 7.5 ms
        assert_eq!(line.poll_timeout(), Some(arrive));
        assert!(!line.due(SimTime(arrive.0 - 1)), "the last bit is still on the line");
        assert!(line.due(arrive), "the frame has arrived, no timer is due");
        line.arrivals(arrive, &mut |_| panic!("nothing for the DTE"));
        assert_eq!(line.to_net_len(), 1, "the DCE delivered the packet");
        line.start(arrive, &mut || None);
        let t2 = arrive + Duration::from_secs_f64(cfg.lapb_t2_s);
        assert_eq!(line.poll_timeout(), Some(t2), "the DCE's RR waits for T2");
        assert!(!line.due(SimTime(t2.0 - 1)) && line.due(t2), "T2 is due at its deadline exactly");
        line.arrivals(t2, &mut |_| {});
        line.start(t2, &mut || None);
        let rr = SimTime(t2.0 + 5_000_000_000); // 48 bits: 5 ms
        assert_eq!(line.poll_timeout(), Some(rr));
        line.arrivals(rr, &mut |_| {});
        line.start(rr, &mut || None);
        assert_eq!(line.poll_timeout(), None, "the RR stopped T1: nothing left to happen");
        let c = line.counters();
        assert_eq!((c.up_frames, c.down_frames, c.up_busy_ps, c.down_busy_ps), (1, 1, 7_500_000_000, 5_000_000_000));
    }

    /// `start` gives the DTE's LAPB a packet from the host only when its line is free
    /// (the last frame's last bit gone, exactly) and it has none queued, pulling once
    /// per start; a second time only when the up direction started nothing and the
    /// down one started a frame (the host's rule: start both until neither starts).
    #[test]
    fn start_pulls_once_when_the_up_line_is_free_and_again_only_after_a_down_frame() {
        let cfg = X25Config::default();
        let mut line: AccessLine<Sdu> = AccessLine::new(&cfg);
        let pulls = std::cell::Cell::new(0);
        let mut pull = || {
            pulls.set(pulls.get() + 1);
            None
        };
        let t0 = SimTime::from_secs_f64(1.0);
        line.from_dte(t0, Packet::control(PacketKind::Rr, 1, 0, 0, 1, 0));
        line.start(t0, &mut pull);
        assert_eq!(pulls.get(), 0, "LAPB has a packet queued: no pull");
        let arrive = SimTime(t0.0 + 7_500_000_000);
        line.start(SimTime(arrive.0 - 1), &mut pull);
        assert_eq!(pulls.get(), 0, "the up line is busy until the frame's last bit");
        line.arrivals(arrive, &mut |_| {});
        line.start(arrive, &mut pull);
        assert_eq!(pulls.get(), 1, "free exactly at the arrival: one pull, neither direction starts");
        let t2 = arrive + Duration::from_secs_f64(cfg.lapb_t2_s);
        line.arrivals(t2, &mut |_| {});
        line.start(t2, &mut pull);
        assert_eq!(pulls.get(), 3, "the DCE's RR started, the DTE nothing: pulled again");
        let rr = SimTime(t2.0 + 5_000_000_000);
        line.arrivals(rr, &mut |_| {});
        line.start(rr, &mut pull);
        assert_eq!(pulls.get(), 4, "neither starts: one pull");
        line.from_dte(rr, Packet::control(PacketKind::Rr, 1, 0, 0, 1, 0));
        line.start(rr, &mut pull);
        assert_eq!(pulls.get(), 4, "the up direction started a frame: no pull");
    }

    /// The sending side's busy time is the union of its intervals, each starting at the
    /// current time: an interval inside the last adds nothing, one overlapping its end
    /// adds the part past it, one after a gap adds itself.
    #[test]
    fn sending_busy_is_the_union_of_frames_and_processing() {
        let cfg = X25Config { host_processing_s: 0.001, ..X25Config::default() };
        let mut line: AccessLine<Sdu> = AccessLine::new(&cfg);
        let ms = |x: u64| SimTime(x * 1_000_000_000);
        line.note_sending(ms(0), ms(10)); // 10
        line.note_sending(ms(2), ms(5)); // inside: 0
        line.note_sending(ms(5), ms(12)); // past the end: 2
        line.note_sending(ms(20), ms(25)); // after a gap: 5
        line.note_sending(ms(25), ms(25)); // empty: 0
        assert_eq!(line.counters().sending_busy_ps, ms(17).0);
        let plain: AccessLine<Sdu> = AccessLine::new(&X25Config::default());
        assert!(!plain.processes() && line.processes());
    }

    /// Host processing: a packet processed while LAPB still holds frames it cannot send
    /// (eight queued ahead of it) waits for LAPB; the line's
    /// next moment is then always after now, and every packet reaches the DCE once.
    #[test]
    fn processed_packet_waits_for_lapb_and_every_wake_moves_time_forward() {
        let cfg = X25Config { host_processing_s: 0.001, lapb_t2_s: 0.9, ..X25Config::default() };
        let mut line: AccessLine<Sdu> = AccessLine::new(&cfg);
        let pkt = |k: u32| Packet::control(PacketKind::Rr, 1, k % 8, 0, 1, 0);
        let mut host: VecDeque<Packet<Sdu>> = VecDeque::from([pkt(0)]);
        let mut pull = || host.pop_front();
        let mut now = SimTime::ZERO;
        line.start(now, &mut pull); // processing of packet 0 starts
        for k in 1..=8 {
            line.from_dte(now, pkt(k)); // eight frames queued in LAPB meanwhile
        }
        line.start(now, &mut pull); // the host polls after each input
        let mut wakes = 0;
        while let Some(next) = line.poll_timeout() {
            assert!(next > now, "wake {wakes}: next moment {next:?} not after now {now:?}");
            now = next;
            line.arrivals(now, &mut |_| {});
            line.start(now, &mut pull);
            wakes += 1;
            if line.to_net_len() == 9 {
                break;
            }
            assert!(wakes < 1000, "no progress: {} of 9 delivered", line.to_net_len());
        }
        assert_eq!(line.to_net_len(), 9, "every packet reaches the DCE once (at {now:?}, {wakes} wakes, LAPB backlog {}, processed {})", line.dte.backlog(), line.processed.is_some());
        // Packet 0's 1 ms of processing ran while packet 1's frame was on the line: the
        // sending side's busy time is the line's alone.
        let c = line.counters();
        assert_eq!(c.sending_busy_ps, c.up_busy_ps);
    }
}
