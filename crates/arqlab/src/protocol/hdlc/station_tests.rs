//! The station's reaction to a received frame and to its timers, rule by rule at the
//! boundaries (Bux, Kümmerle & Truong 1982, Appendix A1 and A2, Annex B; ISO 4335 for
//! SREJ and checkpointing): T1 restart and stop, the busy condition, SREJ's N(R), the
//! ARM secondary's timer. Frame in, frame out. A child of `tests` (its helpers).

use super::*;

/// T1 of the defaults.
fn t1_s() -> Duration {
    Duration::from_secs_f64(DEFAULT_T1_S)
}

#[test]
fn test_state_variables_vs_va_and_backlog_follow_the_frames_sent_and_acknowledged() {
    let mut a = station(&cfg(Mode::Abm, 8), Station::A, 10);
    assert_eq!((a.vs(), a.va(), a.backlog()), (0, 0, 10));
    send(&mut a, SimTime::ZERO, 7);
    assert_eq!((a.vs(), a.va(), a.outstanding(), a.backlog()), (7, 0, 7, 3));
    a.handle_receive(ms(100), &s_frame(FrameKind::RR, 5, false, false));
    assert_eq!((a.vs(), a.va(), a.outstanding()), (7, 5, 2));
    send(&mut a, ms(100), 2);
    assert_eq!((a.vs(), a.va(), a.backlog()), (1, 5, 1), "V(S) wraps modulo 8");
    for (mode, s, role) in [
        (Mode::Abm, Station::B, Role::Combined),
        (Mode::Nrm, Station::A, Role::Primary),
        (Mode::Arm, Station::B, Role::Secondary),
    ] {
        assert_eq!(HdlcStation::<Sdu>::new(&cfg(mode, 8), s).role(), role);
    }
}

/// Annex B: the NRM primary's timer stops on F = 1 and restarts on every error-free
/// frame received with F = 0, whatever it acknowledges.
#[test]
fn test_annex_b_nrm_primary_t1_restarts_on_each_frame_without_f_and_stops_on_f() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 3); // 0 (P), 1, 2
    a.handle_receive(ms(300), &i_frame(0, 0, false, false));
    assert_eq!(a.poll_timeout(), Some(ms(300) + t1_s()), "restarted by a frame acknowledging nothing");
    a.handle_receive(ms(400), &s_frame(FrameKind::RR, 3, true, false));
    assert_eq!(a.poll_timeout(), None, "stopped by F = 1");
}

/// A1.3 and A2: the ABM and ARM stations' timer restarts only on a new acknowledgement;
/// a frame that acknowledges nothing (here RR(V(A)) without F) leaves it alone.
#[test]
fn test_a1_3_t1_is_not_restarted_by_a_frame_that_acknowledges_nothing() {
    for (mode, command) in [(Mode::Abm, false), (Mode::Arm, false)] {
        let mut a = station(&cfg(mode, 8), Station::A, 10);
        send(&mut a, SimTime::ZERO, 3);
        let t1 = a.poll_timeout().unwrap();
        a.handle_receive(ms(500), &s_frame(FrameKind::RR, 0, false, command));
        assert_eq!(a.poll_timeout(), Some(t1), "{mode:?}");
        a.handle_receive(ms(600), &s_frame(FrameKind::RR, 1, false, command));
        assert_eq!(a.poll_timeout(), Some(ms(600) + t1_s()), "{mode:?}: restarted by the acknowledgement of 0");
    }
}

/// RNR (A1.3): the busy condition ends with RR or REJ, or once everything sent is
/// acknowledged by any frame but an RNR; an I frame acknowledging only part does not end
/// it.
#[test]
fn test_rnr_busy_ends_with_everything_acknowledged_not_with_an_i_frame_acknowledging_part() {
    let mut a = station(&cfg(Mode::Abm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 3);
    a.handle_receive(ms(100), &s_frame(FrameKind::RNR, 1, false, false));
    assert!(a.peer_busy());
    a.handle_receive(ms(110), &i_frame(0, 2, false, true));
    assert!(a.peer_busy(), "frame 2 still outstanding");
    assert!(a.poll_transmit(ms(110), &LINE).is_some_and(|f| f.kind == FrameKind::RR), "only the acknowledgement goes");
    a.handle_receive(ms(120), &i_frame(1, 3, false, true));
    assert!(!a.peer_busy(), "everything acknowledged: the peer holds nothing of ours");
    // An RNR that acknowledges everything is still busy.
    let mut a = station(&cfg(Mode::Abm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 3);
    a.handle_receive(ms(100), &s_frame(FrameKind::RNR, 3, false, false));
    assert!(a.peer_busy());
    assert!(a.poll_transmit(ms(100), &LINE).is_none(), "no new I frame to a busy peer");
}

/// The timer under RNR: kept (and restarted by the acknowledgement) when an RNR
/// acknowledges everything, not restarted by a further RNR acknowledging nothing, stopped
/// by the RR that ends the busy condition; an RNR to an idle primary or combined station
/// starts it (a lost RR would otherwise leave it waiting for ever), not to a secondary.
#[test]
fn test_t1_runs_while_the_peer_is_busy_and_stops_when_the_busy_condition_ends() {
    let mut a = station(&cfg(Mode::Abm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 2);
    a.handle_receive(ms(100), &s_frame(FrameKind::RNR, 2, false, false));
    assert_eq!(a.poll_timeout(), Some(ms(100) + t1_s()), "nothing outstanding, but the peer is busy");
    a.handle_receive(ms(300), &s_frame(FrameKind::RNR, 2, false, false));
    assert_eq!(a.poll_timeout(), Some(ms(100) + t1_s()), "not restarted");
    a.handle_receive(ms(400), &s_frame(FrameKind::RR, 2, false, false));
    assert_eq!(a.poll_timeout(), None);
    for (mode, s, starts) in [(Mode::Abm, Station::A, true), (Mode::Arm, Station::A, true), (Mode::Arm, Station::B, false)] {
        let mut st = station(&cfg(mode, 8), s, 0);
        st.handle_receive(ms(5), &s_frame(FrameKind::RNR, 0, false, s == Station::B));
        assert!(st.peer_busy());
        assert_eq!(st.poll_timeout(), starts.then(|| ms(5) + t1_s()), "{mode:?} {s:?}");
    }
}

/// ISO 4335 SREJ: N(R) names a frame sent and not acknowledged, V(A) ≤ N(R) < V(S); at
/// N(R) = V(S), or a value outside the modulus, the frame is invalid (counted, ignored).
#[test]
fn test_srej_nr_must_name_a_frame_sent_v_s_and_beyond_the_modulus_are_invalid() {
    let mut a = station(&srej_cfg(Mode::Abm, 0), Station::A, 10);
    send(&mut a, SimTime::ZERO, 3); // 0, 1, 2: V(S) = 3
    a.handle_receive(ms(100), &s_frame(FrameKind::SREJ, 3, false, false));
    a.handle_receive(ms(100), &s_frame(FrameKind::SREJ, 8, false, false));
    assert_eq!(a.invalid_nr_received(), 2);
    a.handle_receive(ms(100), &s_frame(FrameKind::SREJ, 2, false, false));
    assert_eq!(a.invalid_nr_received(), 2, "N(R) = V(S) − 1 is valid");
    let fs: Vec<_> = send(&mut a, ms(100), 3).iter().map(|f| f.ns).collect();
    assert_eq!(fs, vec![2, 3], "frame 2 again, then the new frame 3 (window 4)");
    assert_eq!(a.counters().retransmitted_reject, 1);
}

#[test]
fn test_srej_repeated_for_a_frame_already_queued_resends_it_once() {
    let mut a = station(&srej_cfg(Mode::Abm, 0), Station::A, 10);
    send(&mut a, SimTime::ZERO, 4);
    for t in [100, 101] {
        a.handle_receive(ms(t), &s_frame(FrameKind::SREJ, 1, false, false));
    }
    let fs: Vec<_> = send(&mut a, ms(101), 3).iter().map(|f| f.ns).collect();
    assert_eq!(fs, vec![1], "once; the window of 4 is full");
    assert_eq!(a.counters().retransmitted_reject, 1);
}

/// `poll = "supervisory"`: a REJ with F = 1 is the checkpoint response only if a frame
/// sent before the P is unacknowledged (N(R) below the P mark); at N(R) = the mark it
/// concerns frames sent after the P and is an ordinary REJ.
#[test]
fn test_nrm_supervisory_poll_rej_with_f_at_the_p_mark_is_an_ordinary_rej() {
    let mut c = cfg(Mode::Nrm, 8);
    c.poll = Poll::Supervisory;
    let mut a = station(&c, Station::A, 10);
    send(&mut a, SimTime::ZERO, 3); // RR P, I0, I1
    a.handle_receive(ms(1), &s_frame(FrameKind::RR, 0, true, false));
    send(&mut a, ms(1), 2); // RR P (mark: V(S) = 2), I2
    a.handle_receive(ms(2), &s_frame(FrameKind::REJ, 2, true, false));
    let fs: Vec<_> = send(&mut a, ms(2), 2).iter().map(brief).collect();
    assert_eq!(fs, vec![(FrameKind::RR, 0, 0, true), (FrameKind::I, 2, 0, false)]);
    assert_eq!((a.counters().retransmitted_reject, a.counters().retransmitted_checkpoint), (1, 0));
}

/// ISO 4335: the REJ's cover is every frame it sent back, V(A) up to V(S) − 1 when it
/// arrived: an F = 1 with N(R) at the last of them (below the P mark) starts no
/// checkpoint, and the REJ retransmission goes on with new frames.
#[test]
fn test_iso4335_rej_cover_reaches_the_last_frame_the_rej_resent() {
    let mut a = abm_outstanding(4); // 0 .. 3
    let t1 = expire_t1_and_poll(&mut a); // P mark 4
    a.handle_receive(t1 + Duration(1), &s_frame(FrameKind::REJ, 1, false, false)); // cover 1 .. 3
    let rej: Vec<_> = send(&mut a, t1 + Duration(1), 3).iter().map(|f| f.ns).collect();
    assert_eq!(rej, vec![1, 2, 3]);
    a.handle_receive(t1 + Duration(2), &s_frame(FrameKind::RR, 3, true, false));
    assert_eq!(a.poll_transmit(t1 + Duration(2), &LINE).map(|f| f.ns), Some(4), "no checkpoint from 3");
    assert_eq!(a.counters().i_frames_retransmitted, 3);
}

/// A2: the ARM secondary's T1 resends the oldest unacknowledged frame, so with nothing
/// outstanding (T1 kept by a busy primary) its expiry resends nothing, then or later.
#[test]
fn test_a2_arm_secondary_t1_expiring_with_nothing_outstanding_resends_nothing() {
    let mut b = station(&cfg(Mode::Arm, 8), Station::B, 2);
    send(&mut b, SimTime::ZERO, 1);
    b.handle_receive(ms(100), &s_frame(FrameKind::RNR, 1, false, true));
    let t1 = b.poll_timeout().unwrap();
    assert_eq!(t1, ms(100) + t1_s(), "kept while the primary is busy");
    b.handle_timeout(t1);
    assert_eq!(b.counters().timeouts, 1);
    b.handle_receive(t1 + Duration(1), &s_frame(FrameKind::RR, 1, false, true));
    let fs: Vec<_> = send(&mut b, t1 + Duration(1), 3).iter().map(|f| f.ns).collect();
    assert_eq!(fs, vec![1], "the new frame once, no retransmission");
    assert_eq!(b.counters().i_frames_retransmitted, 0);
}

/// A2 with SREJ: the secondary's T1 queues the oldest frame for resending unless it is
/// already queued (by an SREJ), and whatever else is queued.
#[test]
fn test_a2_arm_secondary_t1_queues_the_oldest_frame_once_beside_srej_requests() {
    for (srej, want) in [(0, vec![0]), (1, vec![1, 0])] {
        let mut b = station(&srej_cfg(Mode::Arm, 0), Station::B, 3);
        send(&mut b, SimTime::ZERO, 3);
        b.handle_receive(ms(100), &s_frame(FrameKind::SREJ, srej, false, true));
        let t1 = b.poll_timeout().unwrap();
        b.handle_timeout(t1);
        let fs: Vec<_> = send(&mut b, t1, 4).iter().map(|f| f.ns).collect();
        assert_eq!(fs, want, "SREJ({srej})");
        assert_eq!(b.counters().retransmitted_reject, 1, "SREJ({srej})");
        assert_eq!(b.counters().retransmitted_timeout as usize, want.len() - 1, "SREJ({srej})");
    }
}

/// A1.3: a combined station checkpoints on the F answering its own P only. A P received
/// after it has sent an F of its own (so its F mark is ahead of V(A)) is answered by F
/// and resends nothing; in NRM and ARM the secondary's checkpoint on P is against that
/// F mark (`test_nrm_secondary_checkpoint_retransmission_on_p`).
#[test]
fn test_a1_3_abm_p_received_after_our_own_f_is_answered_and_resends_nothing() {
    let mut a = abm_outstanding(3); // 0, 1, 2: V(S) = 3
    a.handle_receive(ms(100), &s_frame(FrameKind::RR, 0, true, true));
    assert_eq!(brief(&a.poll_transmit(ms(100), &LINE).unwrap()), (FrameKind::RR, 0, 0, true), "F, mark 3");
    a.handle_receive(ms(200), &s_frame(FrameKind::RR, 1, true, true));
    let fs: Vec<_> = send(&mut a, ms(200), 2).iter().map(|f| (f.kind, f.ns)).collect();
    assert_eq!(fs, vec![(FrameKind::RR, 0), (FrameKind::I, 3)], "the F, then a new frame");
    assert_eq!(a.counters().i_frames_retransmitted, 0);
}

/// A1.3 (NRM secondary): the checkpoint on P needs the P frame's N(R) to be valid; a P
/// whose N(R) acknowledges frames never sent is counted as invalid and answered without
/// a retransmission, while the next P with a valid N(R) checkpoints against the F mark.
#[test]
fn test_nrm_secondary_p_with_an_invalid_nr_starts_no_checkpoint() {
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 3);
    b.handle_receive(ms(1), &s_frame(FrameKind::RR, 0, true, true));
    let fs: Vec<_> = send(&mut b, ms(1), 5).iter().map(brief).collect();
    let response = vec![
        (FrameKind::I, 0, 0, false),
        (FrameKind::I, 1, 0, false),
        (FrameKind::I, 2, 0, false),
        (FrameKind::RR, 0, 0, true),
    ];
    assert_eq!(fs, response, "the response ends with RR F: F mark 3");
    b.handle_receive(ms(100), &s_frame(FrameKind::RR, 5, true, true));
    assert_eq!(b.invalid_nr_received(), 1);
    let fs: Vec<_> = send(&mut b, ms(100), 4).iter().map(brief).collect();
    assert_eq!(fs, vec![(FrameKind::RR, 0, 0, true)], "polled: the F alone");
    b.handle_receive(ms(200), &s_frame(FrameKind::RR, 0, true, true));
    let fs: Vec<_> = send(&mut b, ms(200), 5).iter().map(brief).collect();
    assert_eq!(fs, response, "a valid P: checkpoint from V(A)");
    assert_eq!(b.counters().retransmitted_checkpoint, 3);
}

/// `receive_owned` (X.25's access line hands frames over by value) acts on a frame as
/// `handle_receive` does: an I frame's payload is delivered, its N(R) acknowledges; an
/// S frame's N(R) acknowledges and delivers nothing.
#[test]
fn test_receive_owned_acts_on_a_frame_as_handle_receive_does() {
    let (mut a, mut b) = (abm_outstanding(2), abm_outstanding(2));
    let f = i_frame(0, 1, false, true);
    a.handle_receive(ms(1), &f);
    b.receive_owned(ms(1), f);
    for st in [&mut a, &mut b] {
        assert_eq!(events(st), (vec![0], vec![0]), "delivered 0, acknowledged 0");
        assert_eq!((st.vr(), st.va(), st.outstanding()), (1, 1, 1));
    }
    b.receive_owned(ms(2), s_frame(FrameKind::RR, 2, false, false));
    assert_eq!(events(&mut b), (vec![], vec![1]));
    assert_eq!((b.vr(), b.va(), b.outstanding()), (1, 2, 0));
}

/// `wants_transmit` for an NRM primary polling as often as possible: idle with no P out,
/// the poll is due (true); once the P is out and nothing else is owed, false until the
/// F comes back.
#[test]
fn test_wants_transmit_nrm_primary_polls_when_idle_and_waits_while_its_p_is_out() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 0);
    assert!(!a.p_outstanding());
    assert!(a.wants_transmit(), "idle, no P outstanding: a poll is due");
    assert_eq!(brief(&a.poll_transmit(ms(0), &LINE).unwrap()), (FrameKind::RR, 0, 0, true));
    assert!(a.p_outstanding());
    assert!(!a.wants_transmit(), "the P is out, nothing else owed");
    assert!(a.poll_transmit(ms(0), &LINE).is_none());
    a.handle_receive(ms(1), &s_frame(FrameKind::RR, 0, true, false));
    assert!(!a.p_outstanding());
    assert!(a.wants_transmit(), "the F is back: the next poll is due");
}
