//! Frame-in/frame-out tests of the IEEE 802.2 type 2 (§7, connection-mode) rules the
//! station implements, each at its boundary: N(R) validity, P/F, REJ and SREJ recovery,
//! the busy condition (RNR), the reject timer, T2 and N3, N2, the window k and the
//! counters the measures read.

use super::*;
use crate::protocol::Service;

const T1: f64 = 0.5;

fn cmd(kind: FrameKind, nr: u32, p: bool) -> Frame {
    Frame { command: true, ..Frame::supervisory(kind, nr, p, 32) }
}

fn resp(kind: FrameKind, nr: u32, f: bool) -> Frame {
    Frame::supervisory(kind, nr, f, 32)
}

/// A sender of `messages` 8000-bit SDUs that has sent its first window at 0.
fn sent(c: &Llc2Config, messages: u64) -> (Llc2, Vec<Frame>) {
    let mut a = sender(c, messages);
    let w = drain(&mut a, at(0));
    (a, w)
}

/// Expires T1 and takes the poll it sends.
fn poll(a: &mut Llc2) -> SimTime {
    let d = a.poll_timeout().unwrap();
    a.handle_timeout(d);
    let p = one(a, d);
    assert_eq!((sup(&p), p.command), ((FrameKind::RR, a.state().2, true), true), "the poll: RR command, P = 1, N(R) = V(R)");
    d
}

/// An N(R) outside [V(A), V(S)] is invalid: the frame carrying it acknowledges nothing,
/// and neither goes back (REJ), grows the working window (RR) nor changes the busy
/// condition (RR, RNR).
#[test]
fn test_802_2_invalid_nr_frame_is_ignored_whatever_its_kind() {
    let c = Llc2Config { t1_s: T1, n: 1, ..cfg(Variant::Bg, 4) };
    let (mut a, w) = sent(&c, 8);
    assert_eq!(ns(&w), vec![0, 1, 2, 3]);
    let t1 = a.poll_timeout();
    // N(R) = 5 is one past V(S) = 4.
    a.handle_receive(at(10), &resp(FrameKind::RR, 5, false));
    a.handle_receive(at(10), &resp(FrameKind::REJ, 5, false));
    assert_eq!(a.state(), (4, 0, 0), "V(S), V(A) unchanged");
    assert!(acknowledged(&mut a).is_empty());
    assert_eq!((a.working_window(), a.counters().window_cuts), (4, 0), "the invalid REJ cut nothing");
    assert_eq!(a.poll_timeout(), t1, "T1 neither restarted nor stopped");
    // A valid REJ(0) cuts to 1; RRs with an invalid N(R) then do not grow it (n = 1).
    a.handle_receive(at(11), &resp(FrameKind::REJ, 0, false));
    assert_eq!(a.working_window(), 1);
    assert_eq!(ns(&drain(&mut a, at(11))), vec![0]);
    a.handle_receive(at(12), &resp(FrameKind::RR, 6, false));
    assert_eq!(a.working_window(), 1, "an invalid RR is no RR for the dynamic window");
    // N(R) = V(S) is valid (everything acknowledged): it grows the window.
    a.handle_receive(at(13), &resp(FrameKind::RR, 4, false));
    assert_eq!((a.state(), a.working_window()), ((4, 4, 0), 2));
    // An RNR with an invalid N(R) does not make the peer busy.
    a.handle_receive(at(14), &resp(FrameKind::RNR, 9, false));
    assert_eq!(ns(&drain(&mut a, at(14))), vec![4, 5], "not busy: the working window of 2 goes");
}

/// An RR with an invalid N(R) does not end the busy condition an RNR set.
#[test]
fn test_802_2_invalid_nr_rr_does_not_clear_the_busy_condition() {
    let c = Llc2Config { t1_s: 10.0, busy_timer_s: 0.2, ..cfg(Variant::Orig, 4) };
    let (mut a, _) = sent(&c, 8);
    a.handle_receive(at(1), &resp(FrameKind::RNR, 2, false));
    a.handle_receive(at(2), &resp(FrameKind::RR, 7, false));
    assert!(drain(&mut a, at(2)).is_empty() && !a.wants_transmit(), "still busy");
    assert_eq!(a.poll_timeout(), Some(at(201)), "the busy timer still runs");
}

/// SREJ (one outstanding): its N(R) is the frame asked for and acknowledges every frame
/// before it (multi-SREJ's acknowledges nothing: `tests_more.rs`).
#[test]
fn test_802_2_srej_nr_acknowledges_the_frames_before_it() {
    let c = cfg(Variant::Srej, 5);
    let (mut a, w) = sent(&c, 5);
    assert_eq!(w.len(), 5);
    a.handle_receive(at(1), &resp(FrameKind::SREJ, 2, false));
    assert_eq!(acknowledged(&mut a), vec![0, 1]);
    assert_eq!(a.state(), (5, 2, 0));
    assert_eq!(ns(&drain(&mut a, at(1))), vec![2], "only the frame asked for");
    assert_eq!((a.counters().retransmitted_reject, a.counters().i_frames_retransmitted), (1, 1));
}

/// A command with P = 1 is answered at once by a response with F = 1 carrying V(R); a
/// response with F = 1, or a command with P = 0, is answered by nothing.
#[test]
fn test_802_2_p_is_answered_by_f_and_nothing_else_is() {
    let c = cfg(Variant::Orig, 4);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &resp(FrameKind::RR, 0, true));
    assert!(!b.wants_transmit() && drain(&mut b, at(1)).is_empty(), "an F response asks for nothing");
    b.handle_receive(at(1), &cmd(FrameKind::RR, 0, false));
    assert!(!b.wants_transmit() && drain(&mut b, at(1)).is_empty(), "a command without P asks for nothing");
    b.handle_receive(at(2), &cmd(FrameKind::RR, 0, true));
    assert!(b.wants_transmit());
    let f = one(&mut b, at(2));
    assert_eq!((sup(&f), f.command), ((FrameKind::RR, 0, true), false));
    assert_eq!((b.counters().frames_sent, b.counters().s_frames_sent), (1, 1));
}

/// An F response that is a REJ recovers from its N(R) as a REJ does: the frames sent
/// again count as reject recovery, not checkpoint, and T1 restarts from the F.
#[test]
fn test_802_2_rej_with_f_recovers_as_a_rej_after_a_poll() {
    let c = Llc2Config { t1_s: T1, ..cfg(Variant::Orig, 4) };
    let (mut a, _) = sent(&c, 4);
    let d = poll(&mut a);
    let t = d + Duration::from_secs_f64(0.01);
    a.handle_receive(t, &resp(FrameKind::REJ, 1, true));
    assert_eq!(acknowledged(&mut a), vec![0]);
    assert_eq!(a.poll_timeout(), Some(t + Duration::from_secs_f64(T1)), "T1 restarted by the F response, frames outstanding");
    assert_eq!(ns(&drain(&mut a, t)), vec![1, 2, 3], "no queue left: the go-back alone");
    let r = a.counters();
    assert_eq!((r.retransmitted_reject, r.retransmitted_checkpoint), (3, 0));
}

/// An F response (RR) whose N(R) acknowledges nothing new ends the poll cycle: the run
/// of T1 expiries counted against N2 starts again.
#[test]
fn test_802_2_n2_run_restarts_at_an_f_response_acknowledging_nothing_new() {
    let c = Llc2Config { t1_s: T1, n2: 2, ..cfg(Variant::Orig, 4) };
    let (mut a, _) = sent(&c, 4);
    poll(&mut a);
    let d = poll(&mut a);
    a.handle_receive(d, &resp(FrameKind::RR, 0, true));
    assert_eq!(ns(&drain(&mut a, d)), vec![0, 1, 2, 3], "checkpoint: go back to N(R) = 0");
    assert_eq!(a.counters().retransmitted_checkpoint, 4);
    poll(&mut a);
    poll(&mut a);
    assert_eq!(a.stats().n2_exceeded, 0, "two expiries since the F: N2 = 2 not exceeded");
    poll(&mut a);
    assert_eq!(a.stats().n2_exceeded, 1);
}

/// Once N2 is exceeded the count starts again: without any acknowledgement, expiries
/// N2 + 1 and 2·(N2 + 1) are the ones counted.
#[test]
fn test_802_2_n2_count_restarts_after_it_is_exceeded() {
    let c = Llc2Config { t1_s: T1, n2: 2, ..cfg(Variant::Orig, 4) };
    let (mut a, _) = sent(&c, 4);
    let mut seen = vec![];
    for _ in 0..6 {
        poll(&mut a);
        seen.push(a.stats().n2_exceeded);
    }
    assert_eq!(seen, vec![0, 0, 1, 1, 1, 2]);
    assert_eq!(a.counters().timeouts, 6);
}

/// An F = 1 response when no poll is outstanding is an ordinary acknowledgement: no
/// checkpoint go-back.
#[test]
fn test_802_2_unsolicited_f_is_no_checkpoint() {
    let c = cfg(Variant::Orig, 4);
    let (mut a, _) = sent(&c, 6);
    a.handle_receive(at(1), &resp(FrameKind::RR, 2, true));
    assert_eq!(ns(&drain(&mut a, at(1))), vec![4, 5], "new frames only, no go-back to 2");
    assert_eq!(a.counters().i_frames_retransmitted, 0);
}

/// Go-back after a REJ with nothing left to submit: the frames sent again come from the
/// unacknowledged store (the queue is empty).
#[test]
fn test_802_2_rej_goes_back_with_an_empty_queue() {
    let c = cfg(Variant::Orig, 7);
    let (mut a, _) = sent(&c, 4);
    assert_eq!((a.backlog(), a.unacknowledged()), (0, 4));
    assert!(!a.wants_transmit(), "all sent, the window not full, nothing queued");
    a.handle_receive(at(1), &resp(FrameKind::REJ, 0, false));
    assert!(a.wants_transmit());
    assert_eq!(ns(&drain(&mut a, at(1))), vec![0, 1, 2, 3]);
    assert!(!a.wants_transmit());
    assert_eq!(a.counters().retransmitted_reject, 4);
}

/// A go-back a REJ started is still REJ recovery when a poll overtakes it: the F
/// response that finds it under way (N(R) = V(A), nothing sent again yet) does not
/// count its frames again as checkpoint recovery.
#[test]
fn test_802_2_go_back_under_way_at_the_f_response_keeps_its_cause() {
    let c = Llc2Config { t1_s: T1, ..cfg(Variant::Orig, 4) };
    let (mut a, _) = sent(&c, 4);
    let d = a.poll_timeout().unwrap();
    a.handle_receive(d, &resp(FrameKind::REJ, 0, false));
    a.handle_timeout(d);
    let p = one(&mut a, d);
    assert_eq!(sup(&p), (FrameKind::RR, 0, true), "the poll goes before the go-back, and alone");
    a.handle_receive(d, &resp(FrameKind::RR, 0, true));
    assert_eq!(ns(&drain(&mut a, d)), vec![0, 1, 2, 3]);
    let r = a.counters();
    assert_eq!((r.retransmitted_reject, r.retransmitted_checkpoint), (4, 0));
}

/// Backlog: SDUs not yet sent; unacknowledged: those plus the frames outstanding.
#[test]
fn test_802_2_backlog_and_unacknowledged_count_the_queue_and_the_window() {
    let c = cfg(Variant::Orig, 4);
    let (mut a, _) = sent(&c, 7);
    assert_eq!((a.backlog(), a.unacknowledged()), (3, 7));
    a.handle_receive(at(1), &rr(2));
    assert_eq!((a.backlog(), a.unacknowledged()), (3, 5));
    drain(&mut a, at(1));
    assert_eq!((a.backlog(), a.unacknowledged()), (1, 5));
    assert_eq!(a.service(), Service::InOrder);
}

/// RNR: a second RNR does not restart the busy timer; while the peer stays busy the
/// timer polls every `busy_timer_s`; a REJ ends the busy condition (I frames resume, and
/// the busy timer's expiry then polls no more).
#[test]
fn test_802_2_busy_timer_runs_from_the_first_rnr_and_polls_while_busy() {
    let c = Llc2Config { t1_s: 10.0, busy_timer_s: 0.2, ..cfg(Variant::Orig, 4) };
    let (mut a, _) = sent(&c, 8);
    a.handle_receive(at(1), &resp(FrameKind::RNR, 1, false));
    a.handle_receive(at(50), &resp(FrameKind::RNR, 2, false));
    assert_eq!(a.poll_timeout(), Some(at(201)), "from the first RNR");
    a.handle_timeout(at(201));
    assert_eq!(sup(&one(&mut a, at(201))), (FrameKind::RR, 0, true));
    // Still busy (RNR with F): polled again one busy period later.
    a.handle_receive(at(202), &resp(FrameKind::RNR, 2, true));
    assert!(drain(&mut a, at(202)).is_empty());
    assert_eq!(a.poll_timeout(), Some(at(401)));
    a.handle_timeout(at(401));
    assert_eq!(sup(&one(&mut a, at(401))), (FrameKind::RR, 0, true));
    // The peer, no longer busy, rejects: go back to 2 at once.
    a.handle_receive(at(402), &resp(FrameKind::REJ, 2, true));
    assert_eq!(ns(&drain(&mut a, at(402))), vec![2, 3, 4, 5]);
    a.handle_timeout(at(601));
    assert!(drain(&mut a, at(601)).is_empty(), "not busy: the busy timer polls no more");
}

/// I frames carry N(R): one received acknowledges the sender's frames, and one sent
/// carries V(R) and takes the place of the RR owed (T2 stops).
#[test]
fn test_802_2_i_frames_piggyback_the_acknowledgement_both_ways() {
    let c = Llc2Config { n3: 3, ack_delay_s: 0.05, ..cfg(Variant::Orig, 4) };
    let (mut a, w) = sent(&c, 2);
    let mut b = sender(&c, 1);
    b.handle_receive(at(1), &w[0]);
    assert_eq!(b.poll_timeout(), Some(at(51)), "T2 for the one frame received");
    let i = one(&mut b, at(2));
    assert_eq!((i.kind, i.ns, i.nr, i.command), (FrameKind::I, 0, 1, true));
    assert_eq!(b.poll_timeout(), Some(at(2) + G.transmission(8032) + Duration::from_secs_f64(1.0)), "T1 only: no RR owed");
    b.handle_timeout(at(51));
    assert!(drain(&mut b, at(51)).is_empty(), "the I frame was the acknowledgement");
    a.handle_receive(at(3), &i);
    let events: Vec<_> = std::iter::from_fn(|| a.poll_event()).map(|e| match e {
        Event::Delivered(s) => (false, s.id),
        Event::Acknowledged(s) => (true, s.id),
    }).collect();
    assert_eq!(events, vec![(false, 0), (true, 0)], "b's SDU 0 delivered, a's frame 0 acknowledged");
    assert_eq!(a.state(), (2, 1, 1));
    assert_eq!(a.counters().i_frames_received, 1);
}

/// T2 runs from the first frame owed an acknowledgement, is not restarted by the next,
/// and expires at its deadline, not before.
#[test]
fn test_802_2_t2_runs_from_the_first_frame_owed_and_expires_at_its_deadline() {
    let c = Llc2Config { n3: 3, ack_delay_s: 0.05, ..cfg(Variant::Orig, 4) };
    let (_, w) = sent(&c, 2);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[0]);
    b.handle_receive(at(20), &w[1]);
    let d = at(51);
    assert_eq!(b.poll_timeout(), Some(d));
    b.handle_timeout(SimTime(d.0 - 1));
    assert!(!b.wants_transmit() && drain(&mut b, d).is_empty(), "not before T2");
    b.handle_timeout(d);
    assert_eq!(sup(&one(&mut b, d)), (FrameKind::RR, 2, false));
    assert_eq!(b.poll_timeout(), None);
}

/// A frame outside the receive window (a duplicate of a delivered one) is discarded and
/// answered with RR(V(R)) at once, even when N3 would wait for more frames.
#[test]
fn test_802_2_duplicate_is_answered_with_rr_at_once() {
    let c = Llc2Config { n3: 3, ack_delay_s: 0.05, ..cfg(Variant::Orig, 4) };
    let (_, w) = sent(&c, 2);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[0]);
    b.handle_receive(at(1), &w[1]);
    b.handle_receive(at(2), &w[0]);
    assert_eq!(b.counters().duplicates_discarded, 1);
    assert!(b.wants_transmit());
    assert_eq!(sup(&one(&mut b, at(2))), (FrameKind::RR, 2, false));
}

/// N3 counts every frame delivered, those taken from the store included: with N3 = 3, a
/// retransmitted frame that releases two stored ones is acknowledged at once.
#[test]
fn test_802_2_n3_counts_the_frames_the_store_releases() {
    let c = Llc2Config { n3: 3, ack_delay_s: 0.05, ..cfg(Variant::Srej, 4) };
    let (_, w) = sent(&c, 3);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[1]);
    b.handle_receive(at(1), &w[2]);
    assert_eq!(sup(&one(&mut b, at(1))), (FrameKind::SREJ, 0, false));
    assert_eq!(b.receive_buffer_bits(), 16000);
    b.handle_receive(at(2), &w[0]);
    assert_eq!(delivered(&mut b), vec![0, 1, 2]);
    assert_eq!(b.receive_buffer_bits(), 0);
    assert!(b.wants_transmit(), "three frames delivered: N3 reached");
    assert_eq!(sup(&one(&mut b, at(2))), (FrameKind::RR, 3, false));
}

/// The receive buffer holds the bits of the frames still stored: a retransmission that
/// releases one of two stored frames leaves the other's bits.
#[test]
fn test_802_2_receive_buffer_holds_the_bits_of_the_frames_still_stored() {
    let c = cfg(Variant::Srej, 4);
    let (_, w) = sent(&c, 4);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[1]);
    b.handle_receive(at(1), &w[3]);
    assert_eq!(b.receive_buffer_bits(), 16000);
    b.handle_receive(at(2), &w[0]);
    assert_eq!(delivered(&mut b), vec![0, 1]);
    assert_eq!(b.receive_buffer_bits(), 8000, "3 is still held");
    b.handle_receive(at(3), &w[2]);
    assert_eq!(delivered(&mut b), vec![2, 3]);
    assert_eq!(b.receive_buffer_bits(), 0);
}

/// SREJ: a second copy of a stored frame is a duplicate, counted and held once.
#[test]
fn test_802_2_srej_second_copy_of_a_stored_frame_is_held_once() {
    let c = cfg(Variant::Srej, 4);
    let (_, w) = sent(&c, 3);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[2]);
    b.handle_receive(at(1), &w[2]);
    assert_eq!((b.stats().out_of_sequence_stored, b.counters().duplicates_discarded), (1, 1));
    assert_eq!(b.receive_buffer_bits(), 8000);
    assert_eq!(b.counters().i_frames_received, 2);
    assert_eq!(drain(&mut b, at(1)).iter().map(sup).collect::<Vec<_>>(), vec![(FrameKind::SREJ, 0, false)]);
}

/// The reject timer: a REJ not answered within `reject_timer_s` is sent again (once per
/// expiry); once the frame asked for has come, the timer is stopped and nothing is sent.
#[test]
fn test_802_2_reject_timer_resends_an_unanswered_rej_and_stops_when_answered() {
    let c = Llc2Config { reject_timer_s: 0.05, ..cfg(Variant::Orig, 4) };
    let (_, w) = sent(&c, 3);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[1]);
    assert_eq!(sup(&one(&mut b, at(1))), (FrameKind::REJ, 0, false));
    assert_eq!(b.poll_timeout(), Some(at(51)));
    b.handle_timeout(SimTime(at(51).0 - 1));
    assert!(drain(&mut b, at(51)).is_empty(), "not before the reject timer");
    b.handle_timeout(at(51));
    assert_eq!(sup(&one(&mut b, at(51))), (FrameKind::REJ, 0, false), "sent again");
    assert_eq!(b.counters().rejects_sent, 2);
    assert_eq!(b.poll_timeout(), Some(at(101)));
    // The go-back arrives: 0 delivered; the condition is cleared with the timer.
    b.handle_receive(at(60), &w[0]);
    assert_eq!(sup(&one(&mut b, at(60))), (FrameKind::RR, 1, false));
    assert_eq!(b.poll_timeout(), None, "reject timer stopped");
    b.handle_timeout(at(101));
    assert!(drain(&mut b, at(101)).is_empty());
    assert_eq!(b.counters().rejects_sent, 2);
}

/// Multi-SREJ: once every gap is filled (nothing held) the reject condition ends and the
/// reject timer asks for nothing; while a frame is still held it stays.
#[test]
fn test_802_2_multi_srej_condition_ends_when_nothing_is_held() {
    let c = Llc2Config { reject_timer_s: 0.05, ..cfg(Variant::MultiSrej, 8) };
    let (_, w) = sent(&c, 4);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[1]);
    b.handle_receive(at(1), &w[3]);
    assert_eq!(drain(&mut b, at(1)).iter().map(sup).collect::<Vec<_>>(), vec![(FrameKind::SREJ, 0, false), (FrameKind::SREJ, 2, false)]);
    b.handle_receive(at(2), &w[0]);
    assert_eq!(delivered(&mut b), vec![0, 1]);
    assert_eq!(sup(&one(&mut b, at(2))), (FrameKind::RR, 2, false));
    assert_eq!(b.poll_timeout(), Some(at(51)), "3 still held: the condition stays");
    b.handle_receive(at(3), &w[2]);
    assert_eq!(delivered(&mut b), vec![2, 3]);
    assert_eq!(sup(&one(&mut b, at(3))), (FrameKind::RR, 4, false));
    assert_eq!(b.poll_timeout(), None, "nothing held: the condition and its timer end");
    b.handle_timeout(at(51));
    assert!(!b.wants_transmit() && drain(&mut b, at(51)).is_empty(), "no SREJ for frames not sent yet");
}

/// Multi-SREJ sender: an SREJ for a frame not outstanding is ignored; two for the same
/// frame before it goes bring it once; frames asked for and then acknowledged are not
/// sent again (nothing is owed: no reason to want the line).
#[test]
fn test_802_2_srej_requests_are_for_outstanding_frames_each_once() {
    let c = cfg(Variant::MultiSrej, 4);
    let (mut a, _) = sent(&c, 4);
    a.handle_receive(at(1), &resp(FrameKind::SREJ, 4, false));
    assert!(!a.wants_transmit(), "SREJ(V(S)): no such frame outstanding");
    a.handle_receive(at(1), &resp(FrameKind::SREJ, 1, false));
    a.handle_receive(at(1), &resp(FrameKind::SREJ, 1, false));
    assert_eq!(ns(&drain(&mut a, at(1))), vec![1], "asked twice, sent once");
    a.handle_receive(at(2), &resp(FrameKind::SREJ, 1, false));
    a.handle_receive(at(2), &resp(FrameKind::SREJ, 3, false));
    a.handle_receive(at(3), &rr(4));
    assert_eq!(acknowledged(&mut a), vec![0, 1, 2, 3]);
    assert!(!a.wants_transmit(), "both acknowledged before they went");
    assert!(drain(&mut a, at(3)).is_empty());
    assert_eq!(a.counters().i_frames_retransmitted, 1);
}

/// Multi-SREJ sender: of two frames asked for, the one an RR then acknowledges is
/// dropped and the other still goes.
#[test]
fn test_802_2_srej_request_below_the_new_va_is_dropped_the_other_kept() {
    let c = cfg(Variant::MultiSrej, 4);
    let (mut a, _) = sent(&c, 6);
    a.handle_receive(at(1), &resp(FrameKind::SREJ, 1, false));
    a.handle_receive(at(1), &resp(FrameKind::SREJ, 3, false));
    a.handle_receive(at(2), &rr(2));
    assert_eq!(ns(&drain(&mut a, at(2))), vec![3, 4, 5]);
    assert_eq!(a.counters().retransmitted_reject, 1);
}

/// wants_transmit is true for each reason to send on its own: an F owed, a REJ owed, an
/// SREJ owed (multi-SREJ), a poll owed, an RR owed (N3), a frame asked for, a new frame.
#[test]
fn test_802_2_each_reason_to_send_alone_wants_the_line() {
    let base = Llc2Config { t1_s: T1, ..cfg(Variant::Orig, 2) };
    // An F owed.
    let mut b = Llc2::new(&base);
    b.handle_receive(at(1), &cmd(FrameKind::RR, 0, true));
    assert!(b.wants_transmit(), "F owed");
    // A REJ owed (N3 = 2, so no RR owed for the in-sequence frame).
    let c = Llc2Config { n3: 2, ..base.clone() };
    let (_, w) = sent(&c, 2);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[1]);
    assert!(b.wants_transmit(), "REJ owed");
    // An SREJ owed (multi-SREJ).
    let c = Llc2Config { n3: 2, ..cfg(Variant::MultiSrej, 2) };
    let (_, w) = sent(&c, 2);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[1]);
    assert!(b.wants_transmit(), "SREJ owed");
    // A poll owed: T1 expired with the window full.
    let (mut a, _) = sent(&base, 2);
    assert!(!a.wants_transmit());
    a.handle_timeout(a.poll_timeout().unwrap());
    assert!(a.wants_transmit(), "poll owed");
    // An RR owed (N3 = 1).
    let (_, w) = sent(&base, 1);
    let mut b = Llc2::new(&base);
    b.handle_receive(at(1), &w[0]);
    assert!(b.wants_transmit(), "RR owed");
    // A single frame asked for, the window full and nothing queued.
    let c = cfg(Variant::Srej, 2);
    let (mut a, _) = sent(&c, 2);
    assert!(!a.wants_transmit());
    a.handle_receive(at(1), &resp(FrameKind::SREJ, 1, false));
    assert!(a.wants_transmit(), "SREJ(1) to answer");
    // A new frame.
    let a = sender(&base, 1);
    assert!(a.wants_transmit(), "an SDU queued, the window open");
}

/// The counters the measures read: each PDU counted once per kind, the working window
/// summed per I frame, the frames received in error.
#[test]
fn test_802_2_counters_count_each_pdu_once() {
    let c = Llc2Config { t1_s: T1, n: 1, ..cfg(Variant::Bg, 3) };
    let (mut a, w) = sent(&c, 5);
    assert_eq!(w.len(), 3);
    let r = a.counters();
    assert_eq!((r.frames_sent, r.i_frames_sent, r.s_frames_sent, r.window_sum), (3, 3, 0, 9));
    a.handle_receive(at(1), &resp(FrameKind::REJ, 1, false));
    drain(&mut a, at(1)); // I 1 at working window 1
    a.handle_receive_in_error(at(1), &w[0]);
    let d = poll(&mut a);
    let r = a.counters();
    assert_eq!((r.frames_sent, r.i_frames_sent, r.s_frames_sent, r.window_sum), (5, 4, 1, 10));
    assert_eq!((r.window_cuts, r.timeouts, r.frames_in_error_received, r.rejects_sent), (1, 1, 1, 0));
    // A multi-SREJ receiver's SREJs count as S frames and rejects.
    let c = cfg(Variant::MultiSrej, 4);
    let (_, w) = sent(&c, 4);
    let mut b = Llc2::new(&c);
    b.handle_receive(d, &w[3]);
    assert_eq!(drain(&mut b, d).len(), 3);
    let r = b.counters();
    assert_eq!((r.frames_sent, r.s_frames_sent, r.rejects_sent, r.i_frames_received), (3, 3, 3, 1));
}

/// The T1 expiry of a BG sender with `t1_resets_window` counts as a window cut.
#[test]
fn test_802_2_t1_expiry_cut_is_counted_as_a_window_cut() {
    let c = Llc2Config { t1_s: T1, t1_resets_window: true, ..cfg(Variant::Jain, 4) };
    let (mut a, _) = sent(&c, 4);
    poll(&mut a);
    assert_eq!((a.working_window(), a.counters().window_cuts), (1, 1));
    // ORIG's fixed window is never cut, by a REJ or by T1.
    let c = Llc2Config { t1_s: T1, t1_resets_window: true, ..cfg(Variant::Orig, 4) };
    let (mut a, _) = sent(&c, 4);
    poll(&mut a);
    a.handle_receive(at(600), &resp(FrameKind::REJ, 0, true));
    assert_eq!((a.working_window(), a.counters().window_cuts), (4, 0));
}

/// The next timer is the earliest of those running: T1, T2, the reject timer, the busy
/// timer and the processor, whichever it is.
#[test]
fn test_802_2_next_timeout_is_the_earliest_timer_running() {
    // Reject timer (50 ms) before T1 (1 s).
    let c = Llc2Config { reject_timer_s: 0.05, ..cfg(Variant::Orig, 4) };
    let (_, w) = sent(&c, 3);
    let mut b = sender(&c, 1);
    drain(&mut b, at(0));
    b.handle_receive(at(1), &w[1]);
    drain(&mut b, at(1));
    assert_eq!(b.poll_timeout(), Some(at(51)), "reject timer before T1");
    // T1 before the reject timer.
    let c = Llc2Config { reject_timer_s: 5.0, t1_s: 0.2, ..cfg(Variant::Orig, 4) };
    let (_, w) = sent(&c, 3);
    let mut b = sender(&c, 1);
    drain(&mut b, at(0));
    b.handle_receive(at(1), &w[1]);
    drain(&mut b, at(1));
    assert_eq!(b.poll_timeout(), Some(at(0) + G.transmission(8032) + Duration::from_secs_f64(0.2)), "T1 before the reject timer");
    // T2 (n3 = 2) before the busy timer, then the busy timer before T2.
    for (t2, busy, want) in [(0.05, 0.3, 51), (0.3, 0.05, 51)] {
        let c = Llc2Config { n3: 2, ack_delay_s: t2, busy_timer_s: busy, ..cfg(Variant::Orig, 4) };
        let (_, w) = sent(&c, 1);
        let mut b = Llc2::new(&c);
        b.handle_receive(at(1), &w[0]);
        b.handle_receive(at(1), &resp(FrameKind::RNR, 0, false));
        assert_eq!(b.poll_timeout(), Some(at(want)), "T2 {t2}, busy {busy}");
    }
    // The processor before T2.
    let c = Llc2Config { n3: 2, ack_delay_s: 0.05, processing_s: 0.002, ..cfg(Variant::Orig, 4) };
    let (_, w) = sent(&c, 2);
    let mut b = Llc2::new(&c);
    b.handle_receive(at(1), &w[0]);
    b.handle_receive(at(1), &w[1]);
    b.handle_timeout(at(3));
    assert_eq!(b.poll_timeout(), Some(at(5)), "processor (5 ms) before T2 (53 ms)");
}
