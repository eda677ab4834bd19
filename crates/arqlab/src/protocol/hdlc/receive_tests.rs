//! The receive side, rule by rule at its boundaries (Bux, Kümmerle & Truong 1982,
//! Appendix A1.3 and A2; ISO 4335 for T2 and SREJ): when the acknowledgement goes, who
//! answers an out-of-sequence frame, what is held, discarded or counted. Frame in, frame
//! out. A child of `tests` (its helpers).

use super::*;

/// ABM, modulus 8, T2 as given, nothing to send: the station under test receives.
fn abm_receiver(t2_s: f64) -> HdlcStation {
    let mut c = cfg(Mode::Abm, 8);
    c.t2_s = t2_s;
    station(&c, Station::B, 0)
}

#[test]
fn test_t2_zero_acknowledges_at_once_and_runs_no_timer() {
    let mut b = abm_receiver(0.0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    assert_eq!(b.poll_timeout(), None, "T2 = 0: no acknowledgement timer");
    assert_eq!(brief(&b.poll_transmit(ms(1), &LINE).unwrap()), (FrameKind::RR, 0, 1, false));
}

#[test]
fn test_t2_runs_from_the_first_unacknowledged_frame_and_is_not_restarted() {
    let mut b = abm_receiver(0.5);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    b.handle_receive(ms(100), &i_frame(1, 0, false, true));
    assert_eq!(
        b.poll_timeout(),
        Some(ms(1) + Duration::from_secs_f64(0.5)),
        "the second frame leaves T2 as the first one started it"
    );
    assert!(b.poll_transmit(ms(100), &LINE).is_none(), "T2 running");
    b.handle_timeout(ms(1) + Duration::from_secs_f64(0.5));
    assert_eq!(
        brief(&b.poll_transmit(ms(600), &LINE).unwrap()),
        (FrameKind::RR, 0, 2, false)
    );
    assert_eq!(b.poll_timeout(), None, "the RR ends T2");
}

/// I frames are commands, except a secondary's (the peer of station A outside ABM).
fn peer_sends_commands(mode: Mode, s: Station) -> bool {
    mode == Mode::Abm || s == Station::B
}

/// The station of `mode`/`station` after receiving I(0) (acknowledged) and then I(2)
/// (frame 1 lost), with `reject` recovery; returns the frames it sends then.
fn after_a_gap(mode: Mode, s: Station, reject: Reject) -> (HdlcStation, Vec<Frame>) {
    let mut c = cfg(mode, 8);
    c.reject = reject;
    if mode == Mode::Arm {
        c.secondary_t1_action = Some(SecondaryT1Action::GoBack);
    }
    let mut st = station(&c, s, 0);
    let from_peer = |ns| i_frame(ns, 0, false, peer_sends_commands(mode, s));
    if mode == Mode::Nrm {
        // The NRM primary polls first (nothing queued): its P is then outstanding.
        assert_eq!(brief(&st.poll_transmit(ms(0), &LINE).unwrap()), (FrameKind::RR, 0, 0, true));
    }
    st.handle_receive(ms(1), &from_peer(0));
    assert_eq!(brief(&st.poll_transmit(ms(1), &LINE).unwrap()), (FrameKind::RR, 0, 1, false));
    st.handle_receive(ms(2), &from_peer(2));
    let fs = send(&mut st, ms(2), 3);
    (st, fs)
}

/// The receiving stations of the out-of-sequence tests, and whether each answers an
/// out-of-sequence frame with RR(V(R)) (A2: the ARM primary only).
const STATIONS_AND_WHETHER_THEY_ANSWER: [(Mode, Station, bool); 4] = [
    (Mode::Arm, Station::A, true),
    (Mode::Arm, Station::B, false),
    (Mode::Abm, Station::A, false),
    (Mode::Nrm, Station::A, false),
];

#[test]
fn test_a2_arm_primary_answers_an_out_of_sequence_frame_with_rr_vr_and_no_other_station_does() {
    // Reject = none: each discarded frame is answered only by the ARM primary, whose
    // secondary cannot poll and learns from this RR that its frame arrived (A2).
    for (mode, s, answers) in STATIONS_AND_WHETHER_THEY_ANSWER {
        let (st, fs) = after_a_gap(mode, s, Reject::None);
        let want = if answers { vec![(FrameKind::RR, 0, 1, false)] } else { vec![] };
        assert_eq!(fs.iter().map(brief).collect::<Vec<_>>(), want, "{mode:?} {s:?}");
        assert_eq!(st.counters().out_of_sequence_discarded, 1, "{mode:?} {s:?}");
        assert_eq!(st.vr(), 1);
    }
}

#[test]
fn test_a1_3_one_rej_per_gap_then_only_the_arm_primary_answers_with_rr_vr() {
    for (mode, s, answers) in STATIONS_AND_WHETHER_THEY_ANSWER {
        let (mut st, fs) = after_a_gap(mode, s, Reject::Rej);
        assert_eq!(fs.iter().map(|f| (f.kind, f.nr)).collect::<Vec<_>>(), vec![(FrameKind::REJ, 1)], "{mode:?} {s:?}");
        st.handle_receive(ms(3), &i_frame(3, 0, false, peer_sends_commands(mode, s)));
        let fs = send(&mut st, ms(3), 3);
        let want = if answers { vec![(FrameKind::RR, 0, 1, false)] } else { vec![] };
        assert_eq!(fs.iter().map(brief).collect::<Vec<_>>(), want, "{mode:?} {s:?}: no second REJ");
        assert_eq!(st.counters().out_of_sequence_discarded, 2, "{mode:?} {s:?}");
        assert_eq!(st.counters().rejects_sent, 1);
    }
}

/// ABM, SREJ, window 4 (modulus 8), receive buffer as given; frames 0 and 1 received in
/// sequence and acknowledged: V(R) = 2.
fn srej_receiver_at_vr_2(buffer: u32) -> HdlcStation {
    let mut b = station(&srej_cfg(Mode::Abm, buffer), Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    b.handle_receive(ms(1), &i_frame(1, 0, false, true));
    assert_eq!(brief(&b.poll_transmit(ms(1), &LINE).unwrap()), (FrameKind::RR, 0, 2, false));
    b
}

#[test]
fn test_srej_ns_k_or_more_beyond_vr_is_an_old_duplicate_acknowledged_again() {
    // k = 4 ≤ M/2: N(S) = V(R) + 4 = 6 can only be a copy of frame 6 − 8 < V(R).
    let mut b = srej_receiver_at_vr_2(0);
    b.handle_receive(ms(2), &i_frame(6, 0, false, true));
    assert_eq!(b.counters().duplicates_discarded, 1);
    assert_eq!(b.receive_buffer_bits(), 0, "not held");
    assert_eq!(
        send(&mut b, ms(2), 2).iter().map(brief).collect::<Vec<_>>(),
        vec![(FrameKind::RR, 0, 2, false)],
        "the acknowledgement again, no SREJ"
    );
    // N(S) = V(R) + k − 1 = 5 is new: held, and 2, 3 and 4 requested once each.
    b.handle_receive(ms(3), &i_frame(5, 0, false, true));
    assert_eq!((b.counters().duplicates_discarded, b.receive_buffer_bits()), (1, 1000));
    assert_eq!(
        send(&mut b, ms(3), 4).iter().map(|f| (f.kind, f.nr)).collect::<Vec<_>>(),
        vec![(FrameKind::SREJ, 2), (FrameKind::SREJ, 3), (FrameKind::SREJ, 4)]
    );
}

#[test]
fn test_srej_a_copy_of_a_held_frame_is_counted_as_a_duplicate() {
    let mut b = srej_receiver_at_vr_2(0);
    b.handle_receive(ms(2), &i_frame(4, 0, false, true));
    b.handle_receive(ms(3), &i_frame(4, 0, false, true));
    assert_eq!(b.counters().duplicates_discarded, 1);
    assert_eq!(b.counters().out_of_sequence_discarded, 0);
    assert_eq!(b.receive_buffer_bits(), 1000, "held once");
}

#[test]
fn test_srej_frame_beyond_a_full_buffer_is_discarded_and_counted_and_still_requests_the_gap() {
    // Buffer of 1 frame: 4 is held (busy: RNR); 5 is discarded; 2 and 3 requested once.
    let mut b = srej_receiver_at_vr_2(1);
    b.handle_receive(ms(2), &i_frame(4, 0, false, true));
    assert!(b.own_busy(), "1 frame held of 1");
    b.handle_receive(ms(3), &i_frame(5, 0, false, true));
    assert_eq!(b.counters().out_of_sequence_discarded, 1);
    assert_eq!(b.counters().duplicates_discarded, 0);
    assert_eq!(b.receive_buffer_bits(), 1000, "only frame 4 held");
    assert_eq!(
        send(&mut b, ms(3), 4).iter().map(|f| (f.kind, f.nr)).collect::<Vec<_>>(),
        vec![(FrameKind::SREJ, 2), (FrameKind::SREJ, 3), (FrameKind::RNR, 2)]
    );
    // The gap filled: 2, 3 and the held 4 are delivered, the buffer empties, RR(5).
    b.handle_receive(ms(4), &i_frame(2, 0, false, true));
    b.handle_receive(ms(4), &i_frame(3, 0, false, true));
    assert!(!b.own_busy());
    assert_eq!(events(&mut b).0, vec![0, 1, 2, 3, 4]);
    assert_eq!(brief(&b.poll_transmit(ms(4), &LINE).unwrap()), (FrameKind::RR, 0, 5, false));
}

#[test]
fn test_srej_buffer_limit_counts_frames_held_not_frames_received_in_sequence() {
    // A buffer of 1: frames delivered in sequence are not held, so no RNR.
    let mut b = station(&srej_cfg(Mode::Abm, 1), Station::B, 0);
    for ns in 0..3 {
        b.handle_receive(ms(1), &i_frame(ns, 0, false, true));
    }
    assert!(!b.own_busy());
    assert_eq!(brief(&b.poll_transmit(ms(1), &LINE).unwrap()), (FrameKind::RR, 0, 3, false));
}
