//! The receive side's parts alone, frame numbers in / decisions out: the out-of-sequence
//! store per variant (SREJ's window of slots; Gopal & Rom's FIFO buffers, m − 1 runs
//! besides the in-sequence stream), multi-SREJ's asks (each gap once, again on the
//! reject timer, none for a frame that came meanwhile or left the window), and the
//! per-frame processor (Bux & Grillo: one frame at a time, in arrival order).

use super::asks::Asks;
use super::processor::Processor;
use super::store::{Placed, Store};
use crate::engine::{Duration, SimTime};
use crate::protocol::{Frame, FrameKind, Modulus, Sdu};

const M: Modulus = Modulus(128);

fn p(id: u64) -> Sdu {
    Sdu { id, bits: 100 + id as u32, flow: 0, born: SimTime::ZERO }
}

#[test]
fn gopal_rom_fifo_a_frame_after_a_runs_last_joins_it_another_starts_a_run_while_a_buffer_is_free() {
    // m = 3 buffers: one for the in-sequence stream, two runs may wait.
    let mut s = Store::fifos(3);
    assert_eq!(s.insert(M, 5, p(5)), Placed::Stored);
    assert_eq!(s.insert(M, 6, p(6)), Placed::Stored, "follows 5: joins its run");
    assert_eq!(s.runs(), 1);
    assert_eq!(s.insert(M, 9, p(9)), Placed::Stored, "a second run, the second buffer");
    assert_eq!(s.runs(), 2);
    assert_eq!(s.insert(M, 12, p(12)), Placed::Discarded, "exactly m − 1 runs wait: no buffer free");
    assert_eq!(s.insert(M, 8, p(8)), Placed::Discarded, "precedes a run: not its continuation");
    assert_eq!(s.insert(M, 10, p(10)), Placed::Stored, "follows 9");
    assert_eq!((s.insert(M, 6, p(6)), s.insert(M, 9, p(9))), (Placed::Duplicate, Placed::Duplicate));
    assert_eq!(s.runs(), 2);
    assert_eq!(s.bits(), [5, 6, 9, 10].iter().map(|&i| 100 + i).sum::<u64>());
    assert!(!s.holds(5), "only the window store answers multi-SREJ's question");
    // V(R) reaches 5: the run is taken from its front, then freed.
    assert_eq!(s.take(6), None, "6 is not at a run's front");
    assert_eq!(s.take(5), Some(p(5)));
    assert_eq!(s.take(6), Some(p(6)));
    assert_eq!(s.runs(), 1, "an emptied run frees its buffer");
    assert_eq!(s.take(7), None);
    assert_eq!(s.insert(M, 20, p(20)), Placed::Stored, "the freed buffer takes a new run");
    assert_eq!(s.bits(), [9, 10, 20].iter().map(|&i| 100 + i).sum::<u64>());
}

#[test]
fn gopal_rom_fifo_run_continues_across_the_modulus() {
    let mut s = Store::fifos(2);
    assert_eq!(s.insert(M, 127, p(1)), Placed::Stored);
    assert_eq!(s.insert(M, 0, p(2)), Placed::Stored, "0 follows 127 modulo 128");
    assert_eq!(s.runs(), 1);
    assert_eq!((s.take(127), s.take(0)), (Some(p(1)), Some(p(2))));
    assert_eq!(s.runs(), 0);
}

#[test]
fn gopal_rom_fifo_with_one_buffer_keeps_nothing_as_orig() {
    for m in [0, 1] {
        let mut s = Store::fifos(m);
        assert_eq!(s.insert(M, 3, p(3)), Placed::Discarded, "m = {m}");
        assert_eq!((s.runs(), s.bits()), (0, 0));
    }
    let mut s: Store<Sdu> = Store::None;
    assert_eq!(s.insert(M, 3, p(3)), Placed::Discarded);
    assert_eq!((s.take(3), s.holds(3), s.bits(), s.runs()), (None, false, 0, 0));
}

#[test]
fn srej_window_store_keeps_any_slot_once_and_gives_it_back_once() {
    let mut s = Store::window(128);
    assert_eq!(s.insert(M, 3, p(3)), Placed::Stored);
    assert_eq!(s.insert(M, 127, p(7)), Placed::Stored);
    assert_eq!(s.insert(M, 3, p(4)), Placed::Duplicate);
    assert!(s.holds(3) && s.holds(127) && !s.holds(4));
    assert_eq!((s.bits(), s.runs()), (103 + 107, 0));
    assert_eq!(s.take(3), Some(p(3)), "the first copy kept");
    assert_eq!(s.take(3), None);
    assert!(!s.holds(3));
    assert_eq!(s.bits(), 107);
}

#[test]
fn multi_srej_a_frame_above_vr_asks_once_for_every_gap_below_it() {
    let k = 7;
    let mut store = Store::window(128);
    let mut a = Asks::default();
    assert!(a.is_empty());
    // V(R) = 0, frame 3 arrives: 0, 1, 2 are missing.
    store.insert(M, 3, p(3));
    a.gaps_below(M, k, 0, &store, 3);
    // Frame 5: only 4 is new (0..2 asked, 3 held).
    store.insert(M, 5, p(5));
    a.gaps_below(M, k, 0, &store, 5);
    // Frame 4 fills a gap already asked for: nothing new.
    store.insert(M, 4, p(4));
    a.gaps_below(M, k, 0, &store, 4);
    assert!(!a.is_empty());
    let mut asked = vec![];
    while let Some(x) = a.next(M, k, 0, &store) {
        asked.push(x);
    }
    assert_eq!(asked, [0, 1, 2], "4 came meanwhile: no SREJ for it");
    assert!(a.is_empty());
    // The reject timer asks again for every frame still missing below the highest asked.
    a.again(M, 0, &store);
    a.again(M, 0, &store);
    let mut again = vec![];
    while let Some(x) = a.next(M, k, 0, &store) {
        again.push(x);
    }
    assert_eq!(again, [0, 1, 2], "each once, however often the timer runs");
    // V(R) = 2 now (0 and 1 arrived): only 2 is asked again.
    a.again(M, 2, &store);
    assert_eq!((a.next(M, k, 2, &store), a.next(M, k, 2, &store)), (Some(2), None));
}

/// The SREJs `a` sends now, in order.
fn sent(a: &mut Asks, k: u32, vr: u32, store: &Store<Sdu>) -> Vec<u32> {
    std::iter::from_fn(|| a.next(M, k, vr, store)).collect()
}

#[test]
fn multi_srej_no_srej_for_a_frame_k_or_more_beyond_vr() {
    let store: Store<Sdu> = Store::window(128);
    let mut a = Asks::default();
    // V(R) = 0, frame 6 (the last of a window of 7): 0 .. 5 asked for.
    a.gaps_below(M, 7, 0, &store, 6);
    // V(R) moved to 2 before the SREJs left, and k = 3: 5 − 2 = 3 ≥ k is outside.
    assert_eq!(sent(&mut a, 3, 2, &store), [2, 3, 4], "0 and 1 are behind V(R) (126, 127 ahead)");
    let mut a = Asks::default();
    a.gaps_below(M, 7, 0, &store, 6);
    assert_eq!(sent(&mut a, 4, 2, &store), [2, 3, 4, 5], "5 − 2 = 3 < k = 4: still asked");
}

#[test]
fn multi_srej_asked_mark_at_the_window_edge_holds_behind_vr_is_stale() {
    let k = 7;
    let mut store = Store::window(128);
    let mut a = Asks::default();
    // V(R) = 0, frame 6 (the window's last): 0 .. 5 asked; the mark is 7 = V(R) + k.
    store.insert(M, 6, p(6));
    a.gaps_below(M, k, 0, &store, 6);
    assert_eq!(sent(&mut a, k, 0, &store), [0, 1, 2, 3, 4, 5]);
    // Frame 3, below the mark exactly k ahead of V(R): no gap asked twice.
    store.insert(M, 3, p(3));
    a.gaps_below(M, k, 0, &store, 3);
    assert!(a.is_empty());
    // V(R) = 20: the mark (7) is behind it, so frame 22 asks for 20 and 21.
    let store: Store<Sdu> = Store::window(128);
    a.gaps_below(M, k, 20, &store, 22);
    assert_eq!(sent(&mut a, k, 20, &store), [20, 21]);
    // Frame 22 again, or 21: at or below the mark (23), nothing.
    a.gaps_below(M, k, 20, &store, 22);
    a.gaps_below(M, k, 20, &store, 21);
    assert!(a.is_empty());
}

fn frame(kind: FrameKind, ns: u32) -> Frame<Sdu> {
    Frame { kind, ns, nr: 0, pf: false, command: true, bits: 100, msg: None }
}

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

#[test]
fn bux_grillo_processor_takes_frames_one_at_a_time_i_and_s_for_their_own_times() {
    let mut q = Processor::new(Duration::from_secs_f64(0.5), Duration::from_secs_f64(0.125));
    assert_eq!(q.next_done(), None);
    assert!(!q.admit(t(1.0), &frame(FrameKind::I, 1)), "an I frame takes 0.5 s");
    assert_eq!(q.next_done(), Some(t(1.5)));
    // An RR arriving while the I frame is processed waits for it, then takes 0.125 s.
    assert!(!q.admit(t(1.25), &frame(FrameKind::RR, 0)));
    assert_eq!(q.done_by(t(1.4999)), None, "not before its time");
    assert_eq!(q.done_by(t(1.5)).map(|x| (x.0, x.1.kind)), Some((t(1.5), FrameKind::I)), "exactly at it");
    assert_eq!(q.next_done(), Some(t(1.625)));
    assert_eq!(q.done_by(t(1.625)).map(|x| (x.0, x.1.kind)), Some((t(1.625), FrameKind::RR)));
    assert_eq!(q.done_by(t(9.0)), None);
    // Idle again: a frame starts when it arrives, not when the last one ended.
    assert!(!q.admit(t(3.0), &frame(FrameKind::RR, 0)));
    assert_eq!(q.next_done(), Some(t(3.125)));
    // Two frames due by the same instant come out in arrival order.
    assert!(!q.admit(t(3.0), &frame(FrameKind::I, 7)));
    assert_eq!(q.done_by(t(4.0)).map(|x| x.1.kind), Some(FrameKind::RR));
    assert_eq!(q.done_by(t(4.0)).map(|x| (x.0, x.1.ns)), Some((t(3.625), 7)));
}

#[test]
fn bux_grillo_processor_without_processing_time_acts_at_once_unless_frames_wait() {
    let mut q = Processor::new(Duration::ZERO, Duration::from_secs_f64(0.25));
    assert!(q.admit(t(1.0), &frame(FrameKind::I, 1)), "no I-frame time, nothing ahead: at once");
    assert_eq!(q.next_done(), None, "not queued");
    assert!(!q.admit(t(1.0), &frame(FrameKind::RR, 0)), "an S frame takes 0.25 s");
    assert!(!q.admit(t(1.0), &frame(FrameKind::I, 2)), "behind the RR, although it takes no time");
    assert_eq!(q.done_by(t(1.25)).map(|x| x.1.kind), Some(FrameKind::RR));
    assert_eq!(q.done_by(t(1.25)).map(|x| (x.0, x.1.ns)), Some((t(1.25), 2)));
    assert!(q.admit(t(2.0), &frame(FrameKind::I, 3)));
}
