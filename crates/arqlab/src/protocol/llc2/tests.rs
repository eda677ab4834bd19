//! Frame-in/frame-out tests of the LLC2 rules, one per rule, at explicit times.

use super::config::{Llc2Config, Variant};
use super::station::Llc2;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Event, Frame, FrameKind, Grant, Layer, Sdu};

const G: Grant = Grant::line(4e6);

fn cfg(variant: Variant, window: u32) -> Llc2Config {
    Llc2Config { variant, window, ..Llc2Config::default() }
}

pub(super) fn at(ms: u64) -> SimTime {
    SimTime(ms * 1_000_000_000)
}

pub(super) fn sender(c: &Llc2Config, messages: u64) -> Llc2 {
    let mut a = Llc2::new(c);
    for id in 0..messages {
        a.handle_submit(SimTime::ZERO, Sdu { id, bits: 8000, flow: 0, born: SimTime::ZERO });
    }
    a
}

pub(super) fn drain(x: &mut Llc2, now: SimTime) -> Vec<Frame> {
    std::iter::from_fn(|| x.poll_transmit(now, &G)).collect()
}

fn one(x: &mut Llc2, now: SimTime) -> Frame {
    let mut f = drain(x, now);
    assert_eq!(f.len(), 1, "{f:?}");
    f.remove(0)
}

fn ns(fs: &[Frame]) -> Vec<u32> {
    fs.iter().map(|f| f.ns).collect()
}

fn sup(f: &Frame) -> (FrameKind, u32, bool) {
    (f.kind, f.nr, f.pf)
}

pub(super) fn delivered(x: &mut Llc2) -> Vec<u64> {
    std::iter::from_fn(|| x.poll_event()).filter_map(|e| if let Event::Delivered(s) = e { Some(s.id) } else { None }).collect()
}

fn acknowledged(x: &mut Llc2) -> Vec<u64> {
    std::iter::from_fn(|| x.poll_event()).filter_map(|e| if let Event::Acknowledged(s) = e { Some(s.id) } else { None }).collect()
}

fn rr(nr: u32) -> Frame {
    Frame::supervisory(FrameKind::RR, nr, false, 32)
}

#[test]
fn test_orig_out_of_sequence_is_discarded_with_one_rej_and_the_sender_goes_back() {
    let c = cfg(Variant::Orig, 4);
    let (mut a, mut b) = (sender(&c, 6), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    assert_eq!(ns(&w), vec![0, 1, 2, 3], "window k = 4");
    assert!(w.iter().all(|f| f.bits == 8000 + 32 && f.command));
    b.handle_receive(at(1), &w[0]);
    // 1 lost; 2 and 3 out of sequence: discarded, one REJ for the gap.
    b.handle_receive(at(1), &w[2]);
    b.handle_receive(at(1), &w[3]);
    assert_eq!(delivered(&mut b), vec![0]);
    let s = drain(&mut b, at(1));
    assert_eq!(s.iter().map(sup).collect::<Vec<_>>(), vec![(FrameKind::REJ, 1, false)], "one REJ, its N(R) acknowledging 0");
    assert_eq!(b.counters().out_of_sequence_discarded, 2);
    assert_eq!(b.counters().rejects_sent, 1);
    a.handle_receive(at(2), &s[0]);
    assert_eq!(acknowledged(&mut a), vec![0]);
    let again = drain(&mut a, at(2));
    assert_eq!(ns(&again), vec![1, 2, 3, 4], "go back to N(R) = 1, then new frame 4");
    assert_eq!(a.counters().retransmitted_reject, 3);
    for f in &again {
        b.handle_receive(at(3), f);
    }
    assert_eq!(delivered(&mut b), vec![1, 2, 3, 4]);
    assert_eq!(b.working_window(), 4);
}

#[test]
fn test_bg_rej_cuts_the_window_to_one_and_n_rrs_grow_it_by_one() {
    let c = Llc2Config { n: 3, ..cfg(Variant::Bg, 7) };
    let mut a = sender(&c, 40);
    assert_eq!(ns(&drain(&mut a, at(0))), vec![0, 1, 2, 3, 4, 5, 6]);
    a.handle_receive(at(1), &Frame::supervisory(FrameKind::REJ, 2, false, 32));
    assert_eq!(a.working_window(), 1);
    assert_eq!(ns(&drain(&mut a, at(1))), vec![2], "one frame outstanding");
    // Each RR acknowledges one frame; 3 RRs per increment.
    let mut sent = vec![];
    for (i, nr) in (3..9).enumerate() {
        a.handle_receive(at(2 + i as u64), &rr(nr));
        sent.push((a.working_window(), drain(&mut a, at(2 + i as u64)).len()));
    }
    assert_eq!(sent, vec![(1, 1), (1, 1), (2, 2), (2, 1), (2, 1), (3, 2)]);
    assert_eq!(a.counters().window_cuts, 1);
}

#[test]
fn test_jain_grows_after_as_many_rrs_as_the_working_window() {
    let c = cfg(Variant::Jain, 7);
    let mut a = sender(&c, 60);
    drain(&mut a, at(0));
    a.handle_receive(at(1), &Frame::supervisory(FrameKind::REJ, 0, false, 32));
    let mut windows = vec![a.working_window()];
    let mut nr = 0;
    for t in 2..12 {
        drain(&mut a, at(t));
        nr += 1;
        a.handle_receive(at(t), &rr(nr));
        windows.push(a.working_window());
    }
    // 1 RR at window 1, 2 at window 2, 3 at window 3, 4 at window 4.
    assert_eq!(windows, vec![1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5]);
}

#[test]
fn test_t1_expiry_polls_and_resets_the_window_only_if_configured() {
    for resets in [true, false] {
        let c = Llc2Config { t1_resets_window: resets, t1_s: 0.5, ..cfg(Variant::Bg, 4) };
        let (mut a, mut b) = (sender(&c, 8), Llc2::new(&c));
        let w = drain(&mut a, at(0));
        assert_eq!(w.len(), 4);
        let t1 = a.poll_timeout().unwrap();
        assert_eq!(t1, at(0) + G.transmission(8032) + Duration::from_secs_f64(0.5), "T1 from the end of the first frame");
        a.handle_timeout(t1);
        assert_eq!(a.working_window(), if resets { 1 } else { 4 });
        let poll = one(&mut a, t1);
        assert_eq!((sup(&poll), poll.command), ((FrameKind::RR, 0, true), true));
        assert!(drain(&mut a, t1).is_empty(), "no I frames while the poll is outstanding");
        // All four frames were lost; the F response says N(R) = 0: go back.
        b.handle_receive(t1, &poll);
        let f = one(&mut b, t1);
        assert_eq!((sup(&f), f.command), ((FrameKind::RR, 0, true), false));
        a.handle_receive(t1, &f);
        let again = drain(&mut a, t1);
        assert_eq!(ns(&again), if resets { vec![0] } else { vec![0, 1, 2, 3] });
        assert_eq!(a.counters().retransmitted_checkpoint, again.len() as u64);
        assert_eq!(a.counters().timeouts, 1);
    }
}

#[test]
fn test_srej_recovers_the_fig4_scenario_step_by_step() {
    // Biersack (1992) Fig. 4: w = 5, I frames 2 and 3 lost, then the SREJ(3) lost.
    let c = cfg(Variant::Srej, 5);
    let (mut a, mut b) = (sender(&c, 10), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    assert_eq!(ns(&w), vec![0, 1, 2, 3, 4]);
    b.handle_receive(at(1), &w[0]);
    b.handle_receive(at(1), &w[1]);
    let ack = one(&mut b, at(1));
    assert_eq!(sup(&ack), (FrameKind::RR, 2, false));
    a.handle_receive(at(2), &ack);
    let w56 = drain(&mut a, at(2));
    assert_eq!(ns(&w56), vec![5, 6], "the window moves to 2..6");
    // 2 and 3 are lost; 4 arrives out of sequence: stored, SREJ(2).
    b.handle_receive(at(3), &w[4]);
    let srej = one(&mut b, at(3));
    assert_eq!(sup(&srej), (FrameKind::SREJ, 2, false));
    assert_eq!(b.receive_buffer_bits(), 8000);
    a.handle_receive(at(4), &srej);
    let r2 = one(&mut a, at(4));
    assert_eq!(r2.ns, 2, "only the frame asked for");
    // 5 and 6 arrive: stored, no second SREJ while one is outstanding.
    b.handle_receive(at(5), &w56[0]);
    b.handle_receive(at(5), &w56[1]);
    assert!(drain(&mut b, at(5)).is_empty());
    // 2 arrives: delivered; 3 is still missing: RR(3).
    b.handle_receive(at(6), &r2);
    assert_eq!(delivered(&mut b), vec![0, 1, 2]);
    let rr3 = one(&mut b, at(6));
    assert_eq!(sup(&rr3), (FrameKind::RR, 3, false));
    a.handle_receive(at(7), &rr3);
    let f7 = one(&mut a, at(7));
    assert_eq!(f7.ns, 7, "RR(3) advances the window to 3..7: I frame 7 may go");
    // 7 arrives: the recovery of 3 begins with SREJ(3) — which is lost.
    b.handle_receive(at(8), &f7);
    assert_eq!(sup(&one(&mut b, at(8))), (FrameKind::SREJ, 3, false));
    // The sender's T1 expires: poll; F response RR(3); retransmit 3 only.
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    let poll = one(&mut a, t1);
    assert_eq!(sup(&poll), (FrameKind::RR, 0, true));
    b.handle_receive(t1, &poll);
    let fr = one(&mut b, t1);
    assert_eq!(sup(&fr), (FrameKind::RR, 3, true));
    a.handle_receive(t1, &fr);
    let r3 = drain(&mut a, t1);
    assert_eq!(ns(&r3), vec![3], "selective: 4..7 are not sent again");
    b.handle_receive(t1, &r3[0]);
    assert_eq!(delivered(&mut b), vec![3, 4, 5, 6, 7]);
    assert_eq!(sup(&one(&mut b, t1)), (FrameKind::RR, 8, false));
    assert_eq!(b.receive_buffer_bits(), 0);
    assert_eq!((a.counters().i_frames_retransmitted, b.counters().out_of_sequence_discarded), (2, 0));
}

#[test]
fn test_multi_fifo_keeps_runs_in_free_buffers_and_discards_the_rest() {
    // m = 3: one buffer for the in-sequence stream, two for runs.
    let c = Llc2Config { fifo_buffers: 3, ..cfg(Variant::MultiFifo, 10) };
    let (mut a, mut b) = (sender(&c, 10), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    // 0 lost; 2, 3 (a run); 5 (a second run); 6 extends it; 8 needs a third: discarded.
    for i in [2, 3, 5, 6, 8] {
        b.handle_receive(at(1), &w[i]);
    }
    assert_eq!(b.stats().out_of_sequence_stored, 4);
    assert_eq!(b.counters().out_of_sequence_discarded, 1);
    assert_eq!(sup(&one(&mut b, at(1))), (FrameKind::SREJ, 0, false));
    b.handle_receive(at(2), &w[0]);
    assert_eq!(delivered(&mut b), vec![0], "1 is missing: the runs wait");
    b.handle_receive(at(2), &w[1]);
    assert_eq!(delivered(&mut b), vec![1, 2, 3]);
    b.handle_receive(at(2), &w[4]);
    assert_eq!(delivered(&mut b), vec![4, 5, 6]);
    // m = 1 keeps nothing (ORIG's discard); m >= w keeps everything (SREJ).
    for (m, discarded) in [(1, 5), (10, 0)] {
        let c = Llc2Config { fifo_buffers: m, ..cfg(Variant::MultiFifo, 10) };
        let mut b = Llc2::new(&c);
        for i in [2, 3, 5, 6, 8] {
            b.handle_receive(at(1), &w[i]);
        }
        assert_eq!(b.counters().out_of_sequence_discarded, discarded, "m = {m}");
    }
}

#[test]
fn test_rnr_stops_i_frames_and_the_busy_timer_polls() {
    let c = Llc2Config { busy_timer_s: 0.2, ..cfg(Variant::Orig, 7) };
    let mut a = sender(&c, 10);
    drain(&mut a, at(0));
    a.handle_receive(at(1), &Frame::supervisory(FrameKind::RNR, 7, false, 32));
    a.handle_submit(at(1), Sdu { id: 10, bits: 8, flow: 0, born: at(1) });
    assert!(drain(&mut a, at(1)).is_empty(), "the peer is busy");
    let t = a.poll_timeout().unwrap();
    assert_eq!(t, at(1) + Duration::from_secs_f64(0.2));
    a.handle_timeout(t);
    assert_eq!(sup(&one(&mut a, t)), (FrameKind::RR, 0, true));
    a.handle_receive(t, &Frame { pf: true, ..rr(7) });
    assert_eq!(drain(&mut a, t).len(), 4, "RR clears the busy state");
}

#[test]
fn test_n3_frames_or_t2_send_the_acknowledgement() {
    let c = Llc2Config { n3: 3, ack_delay_s: 0.05, ..cfg(Variant::Orig, 7) };
    let (mut a, mut b) = (sender(&c, 5), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    b.handle_receive(at(1), &w[0]);
    b.handle_receive(at(1), &w[1]);
    assert!(drain(&mut b, at(1)).is_empty() && !b.wants_transmit());
    b.handle_receive(at(1), &w[2]);
    assert_eq!(sup(&one(&mut b, at(1))), (FrameKind::RR, 3, false), "N3 = 3 frames");
    b.handle_receive(at(2), &w[3]);
    assert_eq!(b.poll_timeout(), Some(at(2) + Duration::from_secs_f64(0.05)));
    b.handle_timeout(at(52));
    assert_eq!(sup(&one(&mut b, at(52))), (FrameKind::RR, 4, false), "T2");
}

/// Biersack (1992), Section II: "Whenever the sender receives a REJ-frame it reduces its
/// current window size dw to 1" — the REJ is the only congestion signal
/// (`t1_resets_window = false`): a T1 expiry polls and goes back with the whole window.
fn rej_only(variant: Variant) -> Llc2Config {
    Llc2Config { t1_resets_window: false, t1_s: 0.5, ..cfg(variant, 4) }
}

#[test]
fn test_bg_and_jain_rej_only_cut_t1_expiry_keeps_the_working_window() {
    for variant in [Variant::Bg, Variant::Jain] {
        let c = rej_only(variant);
        let (mut a, mut b) = (sender(&c, 12), Llc2::new(&c));
        let w = drain(&mut a, at(0));
        assert_eq!(ns(&w), vec![0, 1, 2, 3]);
        // Every frame lost: only T1 can tell. It polls but does not cut.
        let t1 = a.poll_timeout().unwrap();
        a.handle_timeout(t1);
        assert_eq!((a.working_window(), a.counters().window_cuts), (4, 0), "{variant:?}: T1 is no congestion signal");
        let poll = one(&mut a, t1);
        assert_eq!(sup(&poll), (FrameKind::RR, 0, true));
        b.handle_receive(t1, &poll);
        a.handle_receive(t1, &one(&mut b, t1));
        assert_eq!(ns(&drain(&mut a, t1)), vec![0, 1, 2, 3], "{variant:?}: go back with the whole window");
        assert_eq!(a.working_window(), 4);
    }
}

#[test]
fn test_bg_and_jain_rej_only_cut_a_rej_from_the_receiver_cuts_to_one() {
    for variant in [Variant::Bg, Variant::Jain] {
        let c = rej_only(variant);
        let (mut a, mut b) = (sender(&c, 12), Llc2::new(&c));
        let w = drain(&mut a, at(0));
        // 0 delivered, 1 lost, 2 out of sequence: the receiver's REJ(1) cuts the window.
        b.handle_receive(at(1), &w[0]);
        b.handle_receive(at(1), &w[2]);
        let rej = one(&mut b, at(1));
        assert_eq!(sup(&rej), (FrameKind::REJ, 1, false));
        a.handle_receive(at(2), &rej);
        assert_eq!((a.working_window(), a.counters().window_cuts), (1, 1), "{variant:?}");
        let again = drain(&mut a, at(2));
        assert_eq!(ns(&again), vec![1], "{variant:?}: one frame outstanding after the cut");
        b.handle_receive(at(3), &again[0]);
        assert_eq!(delivered(&mut b), vec![0, 1]);
        let ack = one(&mut b, at(3));
        assert_eq!(sup(&ack), (FrameKind::RR, 2, false));
        a.handle_receive(at(4), &ack);
        // BG (n = 8) needs 8 RRs per step; JAIN grows after dw = 1 RR.
        let want = if variant == Variant::Jain { 2 } else { 1 };
        assert_eq!(a.working_window(), want, "{variant:?}");
        assert_eq!(ns(&drain(&mut a, at(4))), (2..2 + want).collect::<Vec<_>>());
    }
}

#[test]
fn test_processing_received_frames_take_effect_one_at_a_time_in_arrival_order() {
    let c = Llc2Config { processing_s: 0.002, ..cfg(Variant::Orig, 7) };
    let (mut a, mut b) = (sender(&Llc2Config::default(), 3), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    for f in &w {
        b.handle_receive(at(1), f);
    }
    // Nothing happens before the processor is done with the first frame.
    assert!(delivered(&mut b).is_empty() && !b.wants_transmit());
    assert_eq!(b.poll_timeout(), Some(at(3)), "1 ms + 2 ms of processing");
    b.handle_timeout(at(3));
    assert_eq!(delivered(&mut b), vec![0]);
    assert_eq!(sup(&one(&mut b, at(3))), (FrameKind::RR, 1, false));
    assert_eq!(b.poll_timeout(), Some(at(5)), "the second frame waited behind the first");
    // A late wake-up processes every frame that is done, in order.
    b.handle_timeout(at(8));
    assert_eq!(delivered(&mut b), vec![1, 2]);
    assert_eq!(sup(&one(&mut b, at(8))), (FrameKind::RR, 3, false));
    // A frame arriving to an idle processor waits only its own processing time.
    b.handle_receive(at(20), &rr(0));
    assert_eq!(b.poll_timeout(), Some(at(22)));
}

#[test]
fn test_multi_fifo_rej_after_discard_goes_back_once_for_every_discarded_frame() {
    // m = 2: the in-sequence buffer and one run. 0 lost; 1, 2 a run (SREJ(0));
    // 4 starts a second run: discarded, so REJ(0); 5 discarded too, no second REJ.
    let c = Llc2Config { fifo_buffers: 2, rej_after_discard: true, ..cfg(Variant::MultiFifo, 10) };
    let (mut a, mut b) = (sender(&c, 10), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    for i in [1, 2] {
        b.handle_receive(at(1), &w[i]);
    }
    assert_eq!(sup(&one(&mut b, at(1))), (FrameKind::SREJ, 0, false), "no discard yet: selective");
    for i in [4, 5] {
        b.handle_receive(at(2), &w[i]);
    }
    assert_eq!(b.counters().out_of_sequence_discarded, 2);
    let rej = one(&mut b, at(2));
    assert_eq!(sup(&rej), (FrameKind::REJ, 0, false), "one REJ for the discards");
    a.handle_receive(at(3), &rej);
    let again = drain(&mut a, at(3));
    assert_eq!(ns(&again), (0..10).collect::<Vec<_>>(), "the sender goes back to V(R) = 0");
    for f in &again {
        b.handle_receive(at(4), f);
    }
    assert_eq!(delivered(&mut b), (0..10).collect::<Vec<u64>>(), "exactly once, in order");
    assert_eq!(b.counters().duplicates_discarded, 2, "1 and 2 were already stored");
    // Without the option the discards wait for their own SREJ round trips.
    let c = Llc2Config { fifo_buffers: 2, ..cfg(Variant::MultiFifo, 10) };
    let mut b = Llc2::new(&c);
    for i in [1, 2, 4, 5] {
        b.handle_receive(at(1), &w[i]);
    }
    assert_eq!(drain(&mut b, at(1)).iter().map(sup).collect::<Vec<_>>(), vec![(FrameKind::SREJ, 0, false)]);
}

#[test]
fn test_orig_discards_every_i_frame_whose_ns_is_not_vr_duplicates_included() {
    // Biersack §II, the ORIG receiver: "If false [N(S) = V(R)], the I-frame is
    // discarded". Out of sequence inside the window and duplicates alike count in the
    // "out-of-sequence and discarded" share (`discarded_fraction`).
    let c = cfg(Variant::Orig, 4);
    let (mut a, mut b) = (sender(&c, 4), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    b.handle_receive(at(1), &w[0]);
    b.handle_receive(at(1), &w[0]); // N(S) = 0 < V(R) = 1: a duplicate
    b.handle_receive(at(1), &w[2]); // N(S) = 2 > V(R): out of sequence
    assert_eq!(delivered(&mut b), vec![0]);
    let r = b.counters();
    assert_eq!((r.i_frames_received, r.out_of_sequence_discarded, r.duplicates_discarded), (3, 1, 1));
    let m = crate::sim::scope::llc2_measures(&a.counters(), &r, 1.0);
    assert_eq!(m.get("discarded_fraction"), Some(2.0 / 3.0), "both discarded frames");
    assert_eq!(m.get("out_of_sequence_fraction"), Some(1.0 / 3.0), "inside the window only");
}

#[path = "timer_tests.rs"]
mod timers;

#[path = "rule_tests.rs"]
mod rules;
