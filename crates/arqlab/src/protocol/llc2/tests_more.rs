//! Frame-in/frame-out tests of the multi-SREJ receiver (several SREJs outstanding) and of
//! per-frame processing with separate I and S frame times.

use super::config::{Llc2Config, Variant};
use super::station::Llc2;
use super::tests::{at, delivered, drain, sender};
use crate::engine::SimTime;
use crate::protocol::{Frame, FrameKind, Layer};

fn at_us(us: u64) -> SimTime {
    SimTime(us * 1_000_000)
}

fn sups(fs: &[Frame]) -> Vec<(FrameKind, u32)> {
    fs.iter().map(|f| (f.kind, f.nr)).collect()
}

fn multi(window: u32) -> Llc2Config {
    Llc2Config { variant: Variant::MultiSrej, window, ..Llc2Config::default() }
}

#[test]
fn test_multi_srej_asks_for_every_gap_at_once_and_its_srej_acknowledges_nothing() {
    // I 1 and I 3 lost. SREJ (one outstanding) would ask for 3 only after 1 is recovered;
    // multi-SREJ asks for 3 as soon as 4 arrives, with SREJ(1) still outstanding.
    let c = multi(8);
    let (mut a, mut b) = (sender(&c, 5), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    assert_eq!(w.iter().map(|f| f.ns).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
    b.handle_receive(at(1), &w[0]);
    assert_eq!(sups(&drain(&mut b, at(1))), vec![(FrameKind::RR, 1)]);
    b.handle_receive(at(2), &w[2]);
    assert_eq!(sups(&drain(&mut b, at(2))), vec![(FrameKind::SREJ, 1)]);
    b.handle_receive(at(3), &w[4]);
    let srej3 = drain(&mut b, at(3));
    assert_eq!(sups(&srej3), vec![(FrameKind::SREJ, 3)], "a second SREJ while SREJ(1) is outstanding");
    assert_eq!(delivered(&mut b), vec![0]);
    // The sender: RR(1) acknowledges 0; SREJ(1) and SREJ(3) acknowledge nothing (V(A)
    // stays 1) and bring back exactly frames 1 and 3.
    a.handle_receive(at(4), &Frame::supervisory(FrameKind::RR, 1, false, 32));
    a.handle_receive(at(4), &Frame::supervisory(FrameKind::SREJ, 1, false, 32));
    a.handle_receive(at(4), &srej3[0]);
    assert_eq!(a.state(), (5, 1, 0), "V(S), V(A), V(R)");
    let again = drain(&mut a, at(4));
    assert_eq!(again.iter().map(|f| f.ns).collect::<Vec<_>>(), vec![1, 3]);
    // 1 fills the first gap (1, 2 delivered; 4 still held, so the condition stays);
    // 3 the second (3, 4 delivered).
    b.handle_receive(at(5), &again[0]);
    assert_eq!(delivered(&mut b), vec![1, 2]);
    assert_eq!(sups(&drain(&mut b, at(5))), vec![(FrameKind::RR, 3)]);
    b.handle_receive(at(6), &again[1]);
    assert_eq!(delivered(&mut b), vec![3, 4]);
    assert_eq!(sups(&drain(&mut b, at(6))), vec![(FrameKind::RR, 5)]);
}

#[test]
fn test_multi_srej_reject_timer_asks_again_for_every_frame_still_missing() {
    let c = Llc2Config { reject_timer_s: 0.05, ..multi(8) };
    let (mut a, mut b) = (sender(&c, 4), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    // 0 and 2 lost: 1 → SREJ(0), 3 → SREJ(2).
    b.handle_receive(at(1), &w[1]);
    b.handle_receive(at(1), &w[3]);
    assert_eq!(sups(&drain(&mut b, at(1))), vec![(FrameKind::SREJ, 0), (FrameKind::SREJ, 2)]);
    // Both SREJs lost: at the reject timer both gaps are asked for again, not only V(R).
    assert_eq!(b.poll_timeout(), Some(at(51)));
    b.handle_timeout(at(51));
    assert_eq!(sups(&drain(&mut b, at(51))), vec![(FrameKind::SREJ, 0), (FrameKind::SREJ, 2)]);
    // 2 arrives before the asked-for 0: held, and no SREJ is owed for it any more.
    b.handle_receive(at(52), &w[2]);
    assert!(drain(&mut b, at(52)).is_empty());
    b.handle_receive(at(53), &w[0]);
    assert_eq!(delivered(&mut b), vec![0, 1, 2, 3]);
    assert_eq!(sups(&drain(&mut b, at(53))), vec![(FrameKind::RR, 4)]);
}

#[test]
fn test_processing_i_and_s_frames_take_their_own_times_in_arrival_order() {
    // I frames 2 ms, S frames 0.5 ms: I 0, RR(0), I 1 arriving at 1 ms take effect at 3,
    // 3.5 and 5.5 ms — each waits behind the frames before it.
    let c = Llc2Config { processing_s: 0.002, s_processing_s: Some(0.0005), ..multi(8) };
    let (mut a, mut b) = (sender(&Llc2Config::default(), 2), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    b.handle_receive(at(1), &w[0]);
    b.handle_receive(at(1), &Frame::supervisory(FrameKind::RR, 0, false, 32));
    b.handle_receive(at(1), &w[1]);
    assert_eq!(b.poll_timeout(), Some(at(3)));
    b.handle_timeout(at(3));
    assert_eq!(delivered(&mut b), vec![0]);
    assert_eq!(b.poll_timeout(), Some(at_us(3500)), "the RR: 0.5 ms behind the I frame");
    b.handle_timeout(at_us(3500));
    assert_eq!(b.poll_timeout(), Some(at_us(5500)), "I 1: 2 ms behind the RR");
    b.handle_timeout(at_us(5499));
    assert!(delivered(&mut b).is_empty());
    b.handle_timeout(at_us(5500));
    assert_eq!(delivered(&mut b), vec![1]);
}

#[test]
fn test_processing_an_s_frame_with_no_time_does_not_overtake_queued_i_frames() {
    let c = Llc2Config { processing_s: 0.002, s_processing_s: Some(0.0), ..Llc2Config::default() };
    let (mut a, mut b) = (sender(&Llc2Config::default(), 1), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    b.handle_receive(at(1), &w[0]);
    // A poll (RR command, P = 1) behind the I frame: answered only after it, at 3 ms.
    b.handle_receive(at(1), &Frame { command: true, ..Frame::supervisory(FrameKind::RR, 0, true, 32) });
    assert!(drain(&mut b, at(1)).is_empty());
    b.handle_timeout(at(3));
    assert_eq!(delivered(&mut b), vec![0]);
    let out = drain(&mut b, at(3));
    assert_eq!(out.iter().map(|f| (f.kind, f.nr, f.pf)).collect::<Vec<_>>(), vec![(FrameKind::RR, 1, true)]);
}

#[test]
fn test_processing_saturated_station_completes_n_i_frames_in_n_times_the_i_time() {
    // Closed form of a saturated processor: N I frames arriving together at t take effect
    // at t + j·p_I (j = 1..N), so it delivers 1/p_I frames per second; with the S frame
    // time unset, S frames take p_I too.
    let (n, p_ms) = (10u64, 2u64);
    let c = Llc2Config { processing_s: p_ms as f64 / 1e3, window: 12, ..Llc2Config::default() };
    let (mut a, mut b) = (sender(&Llc2Config { window: 12, ..Llc2Config::default() }, n), Llc2::new(&c));
    let w = drain(&mut a, at(0));
    for f in &w {
        b.handle_receive(at(1), f);
    }
    b.handle_receive(at(1), &Frame::supervisory(FrameKind::RR, 0, false, 32));
    b.handle_timeout(SimTime(at(1 + n * p_ms).0 - 1));
    assert_eq!(delivered(&mut b).len() as u64, n - 1);
    b.handle_timeout(at(1 + n * p_ms));
    assert_eq!(delivered(&mut b), vec![n - 1]);
    assert_eq!(b.poll_timeout().filter(|&t| t <= at(1 + (n + 1) * p_ms)), Some(at(1 + (n + 1) * p_ms)), "the RR: p_I");
}
