//! Relay rules at their boundaries (store and forward, drop-tail in octets, the
//! forwarding delay, one processor in arrival order): frame in, ready time or port
//! state out. A child of `relay` (beside its first tests).

use super::*;
use crate::engine::stream;

fn relay(forwarding: Forwarding, capacity_bits: Option<u64>) -> Relay<u32> {
    Relay::new(vec![0, 1], capacity_bits, forwarding, vec![Some(0), Some(1)], stream(7, 0, "r"))
}

fn s(x: f64) -> SimTime {
    SimTime::from_secs_f64(x)
}

/// `single_processor`: one frame forwarded at a time in arrival order, each done
/// `service` after the later of its arrival and the previous frame's end (M/D/1);
/// without it the delay is pure (frames forwarded in parallel).
#[test]
fn test_single_processor_forwards_one_frame_at_a_time_in_arrival_order() {
    let d = Duration(5);
    for (single, want) in [(true, [5, 10, 15, 105]), (false, [5, 5, 6, 105])] {
        let mut r = relay(Forwarding::Constant(d), None);
        r.single_processor = single;
        let ready: Vec<_> = [0, 0, 1, 100]
            .iter()
            .enumerate()
            .map(|(i, &t)| r.arrive(SimTime(t), 0, i as u32, 8, 1, false))
            .collect();
        assert_eq!(ready, want.map(|t| Admission::Forward(SimTime(t))), "single processor {single}");
    }
}

/// The buffer's occupancy (the port's time average) is in octets: a 1000-bit frame
/// held from 0 to 1 s, then nothing to 2 s, averages 62.5 octets.
#[test]
fn test_port_occupancy_is_the_time_average_of_the_octets_held() {
    let mut r = relay(Forwarding::Constant(Duration(5)), Some(8000));
    assert_eq!(r.arrive(s(0.0), 0, 1, 1000, 1, false), Admission::Forward(SimTime(5)));
    assert_eq!(r.ready(), Some(1));
    r.ports[1].sending = Some(1000);
    r.release(s(1.0), 1);
    assert_eq!((r.ports[1].buffered_bits, r.ports[1].counters.frames_forwarded), (0, 1));
    assert_eq!(r.ports[1].occupancy.mean(2.0), 62.5);
    assert_eq!(r.ports[1].occupancy.max(), 125.0);
}

/// Drop-tail at the capacity boundary: a frame that fills the buffer exactly is
/// admitted, one bit more is dropped; a release makes room again.
#[test]
fn test_drop_tail_admits_a_frame_that_fills_the_buffer_exactly() {
    let mut r = relay(Forwarding::Constant(Duration(5)), Some(2000));
    assert_eq!(r.arrive(SimTime(0), 0, 1, 1000, 1, false), Admission::Forward(SimTime(5)));
    assert_eq!(r.arrive(SimTime(1), 0, 2, 1001, 1, false), Admission::Dropped, "2001 bits > 2000");
    assert_eq!(r.arrive(SimTime(2), 0, 3, 1000, 1, false), Admission::Forward(SimTime(7)), "exactly 2000");
    r.ports[1].sending = Some(1000);
    r.release(SimTime(9), 1);
    assert_eq!(r.arrive(SimTime(9), 0, 4, 1000, 1, false), Admission::Forward(SimTime(14)));
    assert_eq!(r.ports[1].counters, PortCounters { frames_offered: 4, frames_forwarded: 1, frames_dropped: 1 });
}

/// Uniform on [lo, hi]: every delay within the bounds, the mean their midpoint;
/// exponential: the given mean (2,000 frames, fixed seed).
#[test]
fn test_uniform_and_exponential_forwarding_delays() {
    let n = 2000;
    // Tolerances: about 8 and 4.5 standard errors of the mean.
    for (forwarding, lo, hi, mean, tol) in [
        (Forwarding::Uniform(0.1, 0.3), 0.1, 0.3, 0.2, 0.05),
        (Forwarding::Exponential(0.5), 0.0, f64::INFINITY, 0.5, 0.1),
    ] {
        let mut r = relay(forwarding.clone(), None);
        let mut sum = 0.0;
        for i in 0..n {
            let Admission::Forward(t) = r.arrive(s(1.0), 0, i, 8, 1, false) else { panic!("admitted") };
            let d = (t - s(1.0)).as_secs_f64();
            assert!(d >= lo - 1e-12 && d <= hi + 1e-12, "{forwarding:?}: delay {d}");
            sum += d;
        }
        let m = sum / f64::from(n);
        assert!((m - mean).abs() < tol * mean, "{forwarding:?}: mean {m}");
    }
}

/// The occupancy after a release is what is still held, in octets: two 1000-bit frames
/// held from 0 s (250 octets), one leaves at 1 s (125 octets left), the other at 2 s;
/// over 3 s the mean is (250 + 125 + 0) / 3 = 125 octets.
#[test]
fn test_port_occupancy_after_a_release_counts_the_octets_still_held() {
    let mut r = relay(Forwarding::Constant(Duration(5)), None);
    for i in 0..2 {
        assert_eq!(r.arrive(s(0.0), 0, i, 1000, 1, false), Admission::Forward(SimTime(5)));
    }
    for (i, t) in [(0, 1.0), (1, 2.0)] {
        assert_eq!(r.ready(), Some(1));
        r.ports[1].sending = Some(1000);
        r.release(s(t), 1);
        assert_eq!(r.ports[1].buffered_bits, 1000 - 1000 * i);
    }
    assert_eq!(r.ports[1].occupancy.mean(3.0), 125.0);
    assert_eq!(r.ports[1].counters.frames_forwarded, 2);
}

/// Frames whose random delays end at the same instant leave in arrival order (the
/// heap's key is (ready time, arrival order)), also when their slots are reused in
/// another order: a uniform delay on [1 ms, 1 ms] makes every ready time tie.
#[test]
fn test_ties_in_ready_time_leave_in_arrival_order_whatever_the_slots() {
    let mut r = relay(Forwarding::Uniform(1e-3, 1e-3), None);
    let mut out = vec![];
    for batch in [0u32, 3] {
        for i in batch..batch + 3 {
            assert_eq!(r.arrive(s(1.0), 0, i, 8, 1, false), Admission::Forward(s(1.0) + Duration::from_secs_f64(1e-3)));
        }
        while r.ready().is_some() {}
        out.extend(r.ports[1].queue.drain(..).map(|x| x.0));
    }
    assert_eq!(out, vec![0, 1, 2, 3, 4, 5], "the second batch reuses slots 2, 1, 0");
}
