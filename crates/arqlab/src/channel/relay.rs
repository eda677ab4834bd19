//! Store-and-forward relays: a bridge between rings, a switch between links, or — with
//! unlimited buffers and a (possibly random) forwarding delay — a packet network seen
//! as a transit delay between its access points.
//!
//! A frame fully received on a port is routed by its destination node to an output port
//! (a frame whose destination lies behind the port it came in on is filtered, as a
//! bridge filters local traffic; a corrupted frame is discarded, as its FCS fails). It is
//! admitted to the output port's drop-tail buffer if the buffer has room for all its
//! octets, becomes ready for transmission after the forwarding time, and leaves the
//! buffer when its last bit has been sent. Ready frames leave in the order they became
//! ready, one at a time, when the output port's lane is free.
//!
//! The forwarding time is a pure delay (frames forwarded in parallel) unless the relay
//! has a `single_processor`: then one processor forwards one frame at a time in arrival
//! order, so a frame waits behind those that came before it (an M/D/1 queue in front of
//! the output ports, its places counted in the output port's buffer).

use super::ip_router::IpForwarding;
use crate::engine::{Duration, SimTime, Stream};
use crate::stats::TimeAverage;
use rand::Rng;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The forwarding (or transit) delay of a relay.
#[derive(Clone, Debug, PartialEq)]
pub enum Forwarding {
    Constant(Duration),
    /// Exponential with the given mean.
    Exponential(f64),
    /// Uniform on [lo, hi] seconds.
    Uniform(f64, f64),
    /// A mean that follows a piecewise-constant profile of the time (of day).
    Profile(DelayProfile),
}

/// A piecewise-constant profile of the mean delay over a repeating period: a public
/// network's transit delay by time of day (Comer & Korb 1984, Fig. 2: "T_N varies
/// dramatically with network load").
#[derive(Clone, Debug, PartialEq)]
pub struct DelayProfile {
    /// Start of each piece, seconds into the period: the first is 0, then increasing.
    pub starts_s: Vec<f64>,
    /// The mean delay of each piece, seconds.
    pub means_s: Vec<f64>,
    pub period_s: f64,
    /// Where in the period simulated time zero falls (the clock at the start).
    pub clock_at_start_s: f64,
    /// Each delay is exponential with the piece's mean (else exactly the mean).
    pub exponential: bool,
}

impl DelayProfile {
    /// The mean delay of a frame arriving at simulated time `t_s`.
    pub fn mean_at(&self, t_s: f64) -> f64 {
        let clock = (self.clock_at_start_s + t_s).rem_euclid(self.period_s);
        let k = self.starts_s.partition_point(|&s| s <= clock);
        self.means_s[k.max(1) - 1]
    }
}

impl Forwarding {
    #[inline]
    fn sample(&self, now: SimTime, rng: &mut Stream) -> Duration {
        let exp = |rng: &mut Stream, mean: f64| Duration::from_secs_f64(-(1.0 - rng.random::<f64>()).ln() * mean);
        match self {
            Forwarding::Constant(d) => *d,
            Forwarding::Exponential(mean) => exp(rng, *mean),
            Forwarding::Uniform(lo, hi) => Duration::from_secs_f64(lo + (hi - lo) * rng.random::<f64>()),
            Forwarding::Profile(p) => {
                let mean = p.mean_at(now.as_secs_f64());
                if p.exponential {
                    exp(rng, mean)
                } else {
                    Duration::from_secs_f64(mean)
                }
            }
        }
    }
}

/// Counters of one output port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PortCounters {
    /// Frames routed to this port (admitted or dropped).
    pub frames_offered: u64,
    pub frames_forwarded: u64,
    /// Dropped because the buffer had no room.
    pub frames_dropped: u64,
}

/// One port of a relay: its output queue and buffer.
pub struct RelayPort<F> {
    /// The lane this port transmits on.
    pub lane: u32,
    /// Frames ready to leave, in order, with their destination node.
    pub queue: VecDeque<(F, u32)>,
    /// Bits of the frame being sent, released from the buffer when it has left.
    pub sending: Option<u32>,
    /// Bits held: admitted and not yet sent.
    pub buffered_bits: u64,
    pub occupancy: TimeAverage,
    pub counters: PortCounters,
    /// A wake-up for the port is in the queue (a port on a token ring waits for the token).
    pub wake: bool,
}

/// A relay's state: ports, the frames inside their forwarding delay, the routes.
pub struct Relay<F> {
    pub ports: Vec<RelayPort<F>>,
    /// Buffer per output port, in bits (`None`: unlimited).
    pub capacity_bits: Option<u64>,
    pub forwarding: Forwarding,
    /// One processor forwards the frames one at a time (else in parallel).
    pub single_processor: bool,
    /// When the single processor has finished the frames it holds.
    processor_free: SimTime,
    rng: Stream,
    /// Frames being forwarded: (ready at, arrival order) → slot in `forwarding_slots`.
    pending: BinaryHeap<Reverse<(SimTime, u64, usize)>>,
    /// Frames being forwarded when ready times cannot decrease (`in_arrival_order`):
    /// the heap's order is the arrival order, kept without the heap.
    forwarding_fifo: VecDeque<(F, u32, usize)>,
    slots: Vec<Option<(F, u32, usize)>>,
    free_slots: Vec<usize>,
    order: u64,
    /// Destination node → output port (`None`: not reachable through this relay).
    pub routes: Vec<Option<usize>>,
    /// Frames discarded because they arrived corrupted.
    pub frames_in_error: u64,
    /// Frames filtered (destination behind the arrival port, or unknown).
    pub frames_filtered: u64,
    /// An IP router: TTL, MTU and fragmentation (`channel::ip_router`); `None`: layer 2.
    pub ip: Option<IpForwarding<F>>,
}

/// What a relay did with an arriving frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Ready for its output port at this time.
    Forward(SimTime),
    Dropped,
    Filtered,
    Corrupted,
}

impl<F> Relay<F> {
    pub fn new(lanes: Vec<u32>, capacity_bits: Option<u64>, forwarding: Forwarding, routes: Vec<Option<usize>>, rng: Stream) -> Relay<F> {
        let ports = lanes
            .into_iter()
            .map(|lane| RelayPort {
                lane,
                queue: VecDeque::new(),
                sending: None,
                buffered_bits: 0,
                occupancy: TimeAverage::new(0.0),
                counters: PortCounters::default(),
                wake: false,
            })
            .collect();
        Relay {
            ports,
            capacity_bits,
            forwarding,
            single_processor: false,
            processor_free: SimTime::ZERO,
            rng,
            pending: BinaryHeap::new(),
            forwarding_fifo: VecDeque::new(),
            slots: vec![],
            free_slots: vec![],
            order: 0,
            routes,
            frames_in_error: 0,
            frames_filtered: 0,
            ip: None,
        }
    }

    /// Frames become ready in the order they arrived: a constant delay, or one processor
    /// (each frame done after the one before it). Ties in ready time keep arrival order,
    /// as the heap's (time, arrival order) key does.
    #[inline]
    fn in_arrival_order(&self) -> bool {
        self.single_processor || matches!(self.forwarding, Forwarding::Constant(_))
    }

    /// The output port for a frame to node `dst` that came in on port `from`.
    #[inline]
    pub fn route(&self, from: usize, dst: u32) -> Option<usize> {
        self.routes.get(dst as usize).copied().flatten().filter(|&out| out != from)
    }

    /// A frame of `bits` bits for node `dst` arrived on port `from` at `now`. The caller
    /// has released a frame whose transmission ended at `now` (it left the buffer
    /// before this one came in).
    pub fn arrive(&mut self, now: SimTime, from: usize, frame: F, bits: u32, dst: u32, in_error: bool) -> Admission {
        if in_error {
            self.frames_in_error += 1;
            return Admission::Corrupted;
        }
        let Some(out) = self.route(from, dst) else {
            self.frames_filtered += 1;
            return Admission::Filtered;
        };
        let port = &mut self.ports[out];
        port.counters.frames_offered += 1;
        if self.capacity_bits.is_some_and(|cap| port.buffered_bits + bits as u64 > cap) {
            port.counters.frames_dropped += 1;
            return Admission::Dropped;
        }
        port.buffered_bits += bits as u64;
        port.occupancy.update(now.as_secs_f64(), port.buffered_bits as f64 / 8.0);
        // (A bridge's constant time read in place: `sample` stayed a call per frame.)
        let service = match self.forwarding {
            Forwarding::Constant(d) => d,
            _ => self.forwarding.sample(now, &mut self.rng),
        };
        let ready = if self.single_processor {
            // Queued behind the frames the processor already holds (arrival order).
            self.processor_free = now.max(self.processor_free) + service;
            self.processor_free
        } else {
            now + service
        };
        if self.in_arrival_order() {
            self.forwarding_fifo.push_back((frame, dst, out));
            return Admission::Forward(ready);
        }
        let slot = self.free_slots.pop().unwrap_or_else(|| {
            self.slots.push(None);
            self.slots.len() - 1
        });
        self.slots[slot] = Some((frame, dst, out));
        self.pending.push(Reverse((ready, self.order, slot)));
        self.order += 1;
        Admission::Forward(ready)
    }

    /// The frame whose forwarding delay ends first, moved to its output port's queue.
    /// Returns the port.
    pub fn ready(&mut self) -> Option<usize> {
        if let Some((frame, dst, out)) = self.forwarding_fifo.pop_front() {
            self.ports[out].queue.push_back((frame, dst));
            return Some(out);
        }
        let Reverse((_, _, slot)) = self.pending.pop()?;
        let (frame, dst, out) = self.slots[slot].take()?;
        self.free_slots.push(slot);
        self.ports[out].queue.push_back((frame, dst));
        Some(out)
    }

    /// Port `k`'s transmission (if any) has ended at `now`: its frame leaves the buffer.
    pub fn release(&mut self, now: SimTime, k: usize) {
        let port = &mut self.ports[k];
        if let Some(bits) = port.sending.take() {
            port.buffered_bits -= bits as u64;
            port.counters.frames_forwarded += 1;
            port.occupancy.update(now.as_secs_f64(), port.buffered_bits as f64 / 8.0);
        }
    }
}

impl<F: crate::protocol::Pdu> Relay<F> {
    /// A frame for node `dst` fully received on port `from` at `now`: forwarded as a
    /// layer-2 relay does, or, at an IP router, as a datagram (TTL, MTU, fragments:
    /// `ip_router`), each fragment admitted or dropped on its own. `ready` is called
    /// with the time each admitted frame is ready for its output port.
    pub fn arrive_routed(&mut self, now: SimTime, from: usize, frame: F, dst: u32, in_error: bool, mut ready: impl FnMut(SimTime)) {
        if self.ip.is_none() || in_error {
            let bits = frame.bits();
            if let Admission::Forward(at) = self.arrive(now, from, frame, bits, dst, in_error) {
                ready(at);
            }
            return;
        }
        let out = self.route(from, dst);
        let Some(ip) = self.ip.as_mut() else { return };
        if ip.forward(frame, out).is_none() {
            self.frames_filtered += u64::from(out.is_none());
            return;
        }
        let mut frames = std::mem::take(&mut ip.frames);
        for f in frames.drain(..) {
            let bits = f.bits();
            if let Admission::Forward(at) = self.arrive(now, from, f, bits, dst, false) {
                ready(at);
            }
        }
        if let Some(ip) = self.ip.as_mut() {
            ip.frames = frames;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    #[test]
    fn drop_tail_in_octets_routing_and_forwarding_order() {
        // Port 0 leads to node 0, port 1 to nodes 1 and 2.
        let routes = vec![Some(0), Some(1), Some(1)];
        let mut r: Relay<u32> = Relay::new(vec![10, 11], Some(3000), Forwarding::Constant(Duration(5)), routes, stream(1, 0, "r"));
        assert_eq!(r.arrive(SimTime(0), 0, 1, 1000, 1, false), Admission::Forward(SimTime(5)));
        assert_eq!(r.arrive(SimTime(1), 0, 2, 1500, 2, false), Admission::Forward(SimTime(6)));
        assert_eq!(r.arrive(SimTime(2), 0, 3, 1000, 1, false), Admission::Dropped, "2500 + 1000 bits > 3000");
        assert_eq!(r.arrive(SimTime(2), 0, 4, 500, 1, false), Admission::Forward(SimTime(7)), "500 more still fits");
        assert_eq!(r.arrive(SimTime(3), 1, 5, 100, 1, false), Admission::Filtered, "destination behind the arrival port");
        assert_eq!(r.arrive(SimTime(3), 0, 6, 100, 1, true), Admission::Corrupted);
        assert_eq!(r.arrive(SimTime(3), 0, 7, 100, 9, false), Admission::Filtered, "unknown destination");
        assert_eq!((r.ready(), r.ready(), r.ready(), r.ready()), (Some(1), Some(1), Some(1), None));
        assert_eq!(r.ports[1].queue.iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 4]);
        assert_eq!(r.ports[1].buffered_bits, 3000);
        r.ports[1].sending = Some(1000);
        r.release(SimTime(9), 1);
        assert_eq!(r.ports[1].buffered_bits, 2000);
        assert_eq!(r.ports[1].counters, PortCounters { frames_offered: 4, frames_forwarded: 1, frames_dropped: 1 });
        assert_eq!((r.frames_filtered, r.frames_in_error), (2, 1));
    }

    #[test]
    fn random_transit_delays_reorder_by_ready_time() {
        let mut r: Relay<u32> = Relay::new(vec![0, 1], None, Forwarding::Exponential(1.0), vec![Some(0), Some(1)], stream(3, 0, "r"));
        let mut ready = vec![];
        for i in 0..200u32 {
            if let Admission::Forward(t) = r.arrive(SimTime(i as u64), 0, i, 8, 1, false) {
                ready.push((t, i));
            }
        }
        ready.sort();
        while r.ready().is_some() {}
        let order: Vec<u32> = r.ports[1].queue.iter().map(|x| x.0).collect();
        assert_eq!(order, ready.iter().map(|x| x.1).collect::<Vec<_>>());
        assert_ne!(order, (0..200).collect::<Vec<_>>(), "random delays overtake");
        let mean = ready.iter().map(|(t, i)| t.0 as f64 - *i as f64).sum::<f64>() / 200.0 / 1e12;
        assert!((mean - 1.0).abs() < 0.25, "mean transit {mean}");
    }

    /// A constant delay, or one processor (whatever its service times), makes frames
    /// ready in arrival order: they leave in (ready time, arrival) order, the order the
    /// heap of random delays gives, ties at one ready time included.
    #[test]
    fn test_constant_or_single_processor_forwarding_releases_in_ready_then_arrival_order() {
        let cases = [(Forwarding::Constant(Duration(5)), false), (Forwarding::Exponential(1e-9), true), (Forwarding::Constant(Duration(0)), true)];
        for (forwarding, single) in cases {
            let mut r: Relay<u32> = Relay::new(vec![0, 1], None, forwarding.clone(), vec![Some(0), Some(1)], stream(3, 0, "r"));
            r.single_processor = single;
            let mut ready = vec![];
            for i in 0..300u32 {
                // Several frames per instant: ties in arrival time (and, at a constant delay, in ready time).
                if let Admission::Forward(t) = r.arrive(SimTime(u64::from(i / 3)), 0, i, 8, 1, false) {
                    ready.push((t, i));
                }
            }
            assert!(ready.windows(2).all(|w| w[0].0 <= w[1].0), "{forwarding:?}: ready times never decrease");
            ready.sort();
            let mut out = vec![];
            while let Some(k) = r.ready() {
                assert_eq!(k, 1);
                out.push(r.ports[1].queue.pop_front().unwrap().0);
            }
            assert_eq!(out, ready.iter().map(|x| x.1).collect::<Vec<_>>(), "{forwarding:?}, single processor {single}");
            assert_eq!(out.len(), 300);
        }
    }

    fn day(exponential: bool, clock_at_start_s: f64) -> DelayProfile {
        // Night 0.2 s, business hours (8–17 h) 0.6 s, evening 0.3 s.
        DelayProfile { starts_s: vec![0.0, 8.0 * 3600.0, 17.0 * 3600.0], means_s: vec![0.2, 0.6, 0.3], period_s: 86_400.0, clock_at_start_s, exponential }
    }

    #[test]
    fn profile_mean_follows_the_clock_and_wraps_at_the_period() {
        let p = day(false, 0.0);
        let h = 3600.0;
        for (t, want) in [(0.0, 0.2), (7.99 * h, 0.2), (8.0 * h, 0.6), (16.9 * h, 0.6), (17.0 * h, 0.3), (23.9 * h, 0.3), (24.0 * h, 0.2), (33.0 * h, 0.6)] {
            assert_eq!(p.mean_at(t), want, "t = {} h", t / h);
        }
        // The clock at the start shifts the profile: 10 h at time zero is business hours.
        let q = day(false, 10.0 * h);
        assert_eq!((q.mean_at(0.0), q.mean_at(7.0 * h), q.mean_at(14.0 * h)), (0.6, 0.3, 0.2));
    }

    #[test]
    fn profile_delays_are_the_mean_or_exponential_around_it() {
        let h = 3600.0;
        let mut r: Relay<u32> = Relay::new(vec![0, 1], None, Forwarding::Profile(day(false, 0.0)), vec![Some(0), Some(1)], stream(5, 0, "r"));
        let at = |s: f64| SimTime::from_secs_f64(s);
        assert_eq!(r.arrive(at(h), 0, 1, 8, 1, false), Admission::Forward(at(h) + Duration::from_secs_f64(0.2)));
        assert_eq!(r.arrive(at(9.0 * h), 0, 2, 8, 1, false), Admission::Forward(at(9.0 * h) + Duration::from_secs_f64(0.6)));
        let mut r: Relay<u32> = Relay::new(vec![0, 1], None, Forwarding::Profile(day(true, 0.0)), vec![Some(0), Some(1)], stream(5, 0, "r"));
        for (start, want) in [(h, 0.2), (9.0 * h, 0.6)] {
            let n = 4000;
            let mut sum = 0.0;
            for i in 0..n {
                let t = at(start + f64::from(i));
                if let Admission::Forward(ready) = r.arrive(t, 0, i, 8, 1, false) {
                    sum += (ready - t).as_secs_f64();
                }
            }
            let mean = sum / f64::from(n);
            assert!((mean - want).abs() < 0.05 * want, "mean {mean} vs {want}");
        }
    }

    #[test]
    fn an_ip_router_admits_each_fragment_to_the_drop_tail_queue_and_its_counters_balance() {
        use crate::channel::ip_router::IpForwarding;
        use crate::protocol::ip::{IpHeader, IpPacket, HEADER_OCTETS};
        use crate::protocol::Sdu;
        let datagram = |ttl: u32, data: u32| IpPacket {
            hdr: IpHeader { src: 0, dst: 1, id: 3, offset8: 0, mf: false, ttl, total_octets: HEADER_OCTETS + data },
            msg: Sdu { id: 0, bits: data * 8, flow: 0, born: SimTime::ZERO },
            framing_bits: 0,
        };
        // Room for 800 octets at port 1 (MTU 296): of 1000 data octets' four fragments two
        // of 292 fit (584), the third does not (876), the last (20 + 184) does (788).
        let mut r = Relay::new(vec![0, 1], Some(800 * 8), Forwarding::Constant(Duration(5)), vec![Some(0), Some(1)], stream(1, 0, "r"));
        r.ip = Some(IpForwarding::new(vec![None, Some(296)]));
        let mut admitted = 0;
        r.arrive_routed(SimTime(0), 0, datagram(9, 1000), 1, false, |_| admitted += 1);
        r.arrive_routed(SimTime(0), 0, datagram(1, 10), 1, false, |_| admitted += 1);
        r.arrive_routed(SimTime(0), 0, datagram(9, 10), 7, false, |_| admitted += 1);
        r.arrive_routed(SimTime(0), 0, datagram(9, 10), 1, true, |_| admitted += 1);
        assert_eq!(admitted, 3);
        let c = r.ip.as_ref().unwrap().counters;
        assert_eq!((c.datagrams_in, c.ttl_expired, c.unroutable, c.datagrams_out), (3, 1, 1, 1));
        assert_eq!(c.datagrams_in, c.ttl_expired + c.unroutable + c.datagrams_out);
        let port = r.ports[1].counters;
        assert_eq!(port.frames_offered, c.datagrams_out - c.fragmented + c.fragments_created);
        assert_eq!((port.frames_offered, port.frames_dropped), (4, 1));
        assert_eq!((r.frames_in_error, r.frames_filtered), (1, 1));
        // Without the router part a relay forwards the datagram as it came (layer 2).
        let mut l2 = Relay::new(vec![0, 1], None, Forwarding::Constant(Duration(5)), vec![Some(0), Some(1)], stream(1, 0, "r"));
        l2.arrive_routed(SimTime(0), 0, datagram(1, 1000), 1, false, |_| admitted += 1);
        l2.ready();
        assert_eq!((admitted, l2.ports[1].queue[0].0), (4, datagram(1, 1000)), "no TTL, no MTU at layer 2");
    }
}

#[cfg(test)]
#[path = "relay_tests.rs"]
mod rule_tests;
