//! Checkpointing against REJ recovery at the P mark (ISO 4335; Bux, Kümmerle & Truong
//! 1982, Appendix A1.3): an F = 1 response to a P makes the sender resend from N(R)
//! only the frames sent up to that P (those after it are still in flight), and a REJ
//! and a checkpoint must never both resend the same frames: a REJ acted on since the
//! last P inhibits the checkpoint for the frames it covers, for that P/F cycle only.
//! Frame in, frame out at each boundary. A child of `tests` (its helpers).

use super::*;

/// An NRM primary that sent 0 (P), 1, 2, 3, got F with N(R) = 1 and then sent 4 (P),
/// 5, 6: the P mark is 5 (frames up to and including 4).
fn primary_with_p_on_4() -> HdlcStation {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    let first: Vec<_> = send(&mut a, SimTime::ZERO, 4).iter().map(|f| (f.ns, f.pf)).collect();
    assert_eq!(first, vec![(0, true), (1, false), (2, false), (3, false)]);
    // N(R) = 1 = the mark of the first P: nothing sent up to that P is missing.
    a.handle_receive(ms(100), &s_frame(FrameKind::RR, 1, true, false));
    let next: Vec<_> = send(&mut a, ms(100), 3).iter().map(|f| (f.ns, f.pf)).collect();
    assert_eq!(next, vec![(4, true), (5, false), (6, false)], "no checkpoint retransmission at N(R) = mark");
    a
}

#[test]
fn test_iso4335_checkpoint_resends_from_nr_when_nr_is_below_the_p_mark() {
    let mut a = primary_with_p_on_4();
    a.handle_receive(ms(200), &s_frame(FrameKind::RR, 4, true, false));
    let again: Vec<_> = send(&mut a, ms(200), 3).iter().map(|f| f.ns).collect();
    assert_eq!(again, vec![4, 5, 6], "N(R) = 4 < mark 5: go back to 4");
    assert_eq!(a.counters().retransmitted_checkpoint, 3);
}

#[test]
fn test_iso4335_checkpoint_leaves_frames_sent_after_the_p_alone_at_nr_equal_to_the_mark() {
    let mut a = primary_with_p_on_4();
    a.handle_receive(ms(200), &s_frame(FrameKind::RR, 5, true, false));
    let f = a.poll_transmit(ms(200), &LINE).unwrap();
    assert_eq!((f.ns, f.pf), (7, true), "5 and 6 were sent after the P: in flight, not resent");
    assert_eq!(a.counters().i_frames_retransmitted, 0);
}

/// A REJ acted on after our P covers the frames it resent: the F = 1 response to that
/// P does not start a second go-back, the REJ retransmission just continues.
#[test]
fn test_iso4335_rej_since_the_p_inhibits_the_checkpoint_for_the_frames_it_resent() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 4); // 0 (P), 1, 2, 3: mark 1
    a.handle_receive(ms(100), &s_frame(FrameKind::REJ, 0, false, false));
    let rej: Vec<_> = send(&mut a, ms(100), 2).iter().map(|f| f.ns).collect();
    assert_eq!(rej, vec![0, 1], "REJ(0): go back to 0");
    a.handle_receive(ms(150), &s_frame(FrameKind::RR, 0, true, false));
    let f = a.poll_transmit(ms(150), &LINE).unwrap();
    assert_eq!(f.ns, 2, "the checkpoint for N(R) = 0 < mark 1 is inhibited: no second go-back");
    assert_eq!((a.counters().retransmitted_reject, a.counters().retransmitted_checkpoint), (3, 0));
}

/// The REJ's cover lasts one P/F cycle: the next P clears it, so an F = 1 for that P
/// with N(R) below its mark goes back, although the old REJ covered the same frames.
#[test]
fn test_iso4335_the_next_p_ends_the_rej_cover_and_its_f_checkpoints_again() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 4);
    a.handle_receive(ms(100), &s_frame(FrameKind::REJ, 0, false, false));
    send(&mut a, ms(100), 4); // 0 .. 3 again
    a.handle_receive(ms(150), &s_frame(FrameKind::RR, 0, true, false)); // F: inhibited
    let p = a.poll_transmit(ms(150), &LINE).unwrap();
    assert_eq!((p.ns, p.pf), (4, true), "new P, mark 5, cover cleared");
    a.handle_receive(ms(250), &s_frame(FrameKind::RR, 0, true, false));
    let again: Vec<_> = send(&mut a, ms(250), 2).iter().map(|f| f.ns).collect();
    assert_eq!(again, vec![0, 1], "N(R) = 0 < mark 5: the checkpoint goes back");
    assert_eq!(a.counters().retransmitted_checkpoint, 2);
}

/// NRM secondary (A1.3): its checkpoint is against its last F and runs on the next P.
/// A REJ received after that F already sent the frames back: the P does not start
/// the go-back again (the frames count as REJ retransmissions, once each).
#[test]
fn test_iso4335_secondary_rej_after_its_f_inhibits_the_checkpoint_on_the_next_p() {
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 4);
    b.handle_receive(ms(10), &s_frame(FrameKind::RR, 0, true, true));
    let resp: Vec<_> = send(&mut b, ms(10), 6).iter().map(|f| (f.kind, f.ns, f.pf)).collect();
    let i = FrameKind::I;
    assert_eq!(resp, vec![(i, 0, false), (i, 1, false), (i, 2, false), (i, 3, false), (FrameKind::RR, 0, true)], "F on an RR: the window is not full");
    // The primary lost 1: its REJ(1) command, then its P with N(R) = 1.
    b.handle_receive(ms(100), &s_frame(FrameKind::REJ, 1, false, true));
    b.handle_receive(ms(101), &s_frame(FrameKind::RR, 1, true, true));
    let again: Vec<_> = send(&mut b, ms(101), 5).iter().map(|f| (f.kind, f.ns, f.pf)).collect();
    assert_eq!(again, vec![(i, 1, false), (i, 2, false), (i, 3, false), (FrameKind::RR, 0, true)]);
    assert_eq!((b.counters().retransmitted_reject, b.counters().retransmitted_checkpoint), (3, 0));
}

/// The converse: without a REJ since the F, the P alone checkpoints from N(R).
#[test]
fn test_iso4335_secondary_p_checkpoints_from_nr_below_its_f_mark() {
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 4);
    b.handle_receive(ms(10), &s_frame(FrameKind::RR, 0, true, true));
    assert_eq!(send(&mut b, ms(10), 6).len(), 5, "0 .. 3, then RR with F");
    b.handle_receive(ms(101), &s_frame(FrameKind::RR, 3, true, true));
    let again: Vec<_> = send(&mut b, ms(101), 3).iter().map(|f| (f.kind, f.ns, f.pf)).collect();
    assert_eq!(again, vec![(FrameKind::I, 3, false), (FrameKind::RR, 0, true)], "N(R) = 3 < F mark 4: frame 3 again");
    assert_eq!(b.counters().retransmitted_checkpoint, 1);
    b.handle_receive(ms(200), &s_frame(FrameKind::RR, 4, true, true));
    let f = b.poll_transmit(ms(200), &LINE).unwrap();
    assert_eq!((f.kind, f.pf), (FrameKind::RR, true), "N(R) = mark: nothing to resend, RR with F");
}

/// A REJ with F = 1 that acknowledges everything sent has nothing to resend, and marks
/// no recovery: when the next frame is lost, the peer's REJ for it goes back at once
/// (it is not mistaken for a REJ crossing a checkpoint retransmission of that frame).
#[test]
fn test_iso4335_rej_with_f_acknowledging_everything_leaves_the_next_rej_effective() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 3); // 0 (P), 1, 2
    a.handle_receive(ms(100), &s_frame(FrameKind::REJ, 3, true, false));
    let next: Vec<_> = send(&mut a, ms(100), 3).iter().map(|f| (f.ns, f.pf)).collect();
    assert_eq!(next, vec![(3, true), (4, false), (5, false)], "nothing to resend");
    // 3 lost, 4 out of sequence: the secondary's REJ(3) without F.
    a.handle_receive(ms(150), &s_frame(FrameKind::REJ, 3, false, false));
    assert_eq!(a.poll_transmit(ms(150), &LINE).map(|f| f.ns), Some(3), "REJ(3): go back to 3");
    assert_eq!(a.counters().retransmitted_reject, 1);
}

/// A single-frame retransmission (SREJ) keeps the command/response role of the station's
/// I frames: a command from a combined station, a response from a secondary (an F on it
/// must read as F, not P).
#[test]
fn test_srej_single_retransmission_is_a_command_from_a_combined_station_and_a_response_from_a_secondary() {
    for (mode, st, command) in [(Mode::Abm, Station::A, true), (Mode::Arm, Station::B, false)] {
        let mut a = station(&srej_cfg(mode, 4), st, 4);
        let first: Vec<_> = send(&mut a, SimTime::ZERO, 4).iter().map(|f| (f.ns, f.command)).collect();
        assert_eq!(first, vec![(0, command), (1, command), (2, command), (3, command)], "{mode:?}");
        a.handle_receive(ms(100), &s_frame(FrameKind::SREJ, 1, false, !command));
        let f = a.poll_transmit(ms(100), &LINE).unwrap();
        assert_eq!((f.kind, f.ns, f.command), (FrameKind::I, 1, command), "{mode:?}: only frame 1, same role");
        assert_eq!(a.counters().retransmitted_reject, 1);
    }
}
