//! Unit tests, frame in → frame out at explicit times, one per rule of Appendix A1/A2,
//! and property tests on a small lossy two-station harness.

use super::*;
use crate::engine::{Duration, SimTime};
use crate::protocol::{Event, Frame, FrameKind, Grant, Layer, Sdu, Station};
use std::collections::VecDeque;

const LINE: Grant = Grant::line(48_000.0);

fn ms(x: u64) -> SimTime {
    SimTime(x * 1_000_000_000)
}

fn msg(id: u64) -> Sdu {
    Sdu {
        id,
        bits: 1000,
        flow: 0,
        born: SimTime::ZERO,
    }
}

fn cfg(mode: Mode, modulus: u32) -> HdlcConfig {
    HdlcConfig::defaults(mode, modulus)
}

fn station(c: &HdlcConfig, s: Station, messages: u64) -> HdlcStation {
    let mut st = HdlcStation::new(c, s);
    for i in 0..messages {
        st.handle_submit(SimTime::ZERO, msg(i));
    }
    st
}

/// An I frame as the peer would send it.
fn i_frame(ns: u32, nr: u32, pf: bool, command: bool) -> Frame {
    Frame {
        command,
        ..Frame::information(ns, nr, pf, msg(ns as u64), 48)
    }
}

fn s_frame(kind: FrameKind, nr: u32, pf: bool, command: bool) -> Frame {
    Frame {
        command,
        ..Frame::supervisory(kind, nr, pf, 48)
    }
}

/// (kind, N(S), N(R), P/F) of a frame, for compact assertions.
fn brief(f: &Frame) -> (FrameKind, u32, u32, bool) {
    (f.kind, f.ns, f.nr, f.pf)
}

fn events(st: &mut HdlcStation) -> (Vec<u64>, Vec<u64>) {
    let (mut delivered, mut acked) = (vec![], vec![]);
    while let Some(e) = st.poll_event() {
        match e {
            Event::Delivered(m) => delivered.push(m.id),
            Event::Acknowledged(m) => acked.push(m.id),
        }
    }
    (delivered, acked)
}

/// Sends `n` frames in a row (the line being idle each time) and returns them.
fn send(st: &mut HdlcStation, now: SimTime, n: usize) -> Vec<Frame> {
    (0..n)
        .filter_map(|_| st.poll_transmit(now, &LINE))
        .collect()
}

/// Lets T1 of station `a` (nothing received, V(R) = 0) run out and checks that the
/// timer-recovery poll RR(0), P = 1 goes next; returns the expiry time.
fn expire_t1_and_poll(a: &mut HdlcStation) -> SimTime {
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    assert_eq!(
        brief(&a.poll_transmit(t1, &LINE).unwrap()),
        (FrameKind::RR, 0, 0, true)
    );
    t1
}

/// A combined (ABM) station with frames 0..n sent.
fn abm_outstanding(n: usize) -> HdlcStation {
    let mut a = station(&cfg(Mode::Abm, 8), Station::A, 10);
    assert_eq!(send(&mut a, SimTime::ZERO, n).len(), n);
    a
}

// ---- Options of issue 14: supervisory poll, LAPB timer recovery, T2 at k --------------

#[test]
fn test_nrm_supervisory_poll_goes_ahead_of_the_i_frames() {
    let mut c = cfg(Mode::Nrm, 8);
    c.poll = Poll::Supervisory;
    let mut a = station(&c, Station::A, 10);
    let fs = send(&mut a, SimTime::ZERO, 4);
    assert_eq!(
        fs.iter().map(brief).collect::<Vec<_>>(),
        vec![
            (FrameKind::RR, 0, 0, true),
            (FrameKind::I, 0, 0, false),
            (FrameKind::I, 1, 0, false),
            (FrameKind::I, 2, 0, false),
        ],
        "one RR with P = 1, then I frames that never carry P"
    );
    assert!(fs[0].command && fs[0].bits == 48);
    // F = 1 answers the poll, acknowledging frame 0 only: no checkpoint (frames 0..2 were
    // sent after the P) and the next poll goes out at once, ahead of frame 3.
    a.handle_receive(ms(1), &s_frame(FrameKind::RR, 1, true, false));
    let fs = send(&mut a, ms(1), 2);
    assert_eq!(
        fs.iter().map(brief).collect::<Vec<_>>(),
        vec![(FrameKind::RR, 0, 0, true), (FrameKind::I, 3, 0, false)]
    );
    assert_eq!(a.counters().i_frames_retransmitted, 0);
}

#[test]
fn test_nrm_supervisory_poll_rej_with_f_goes_back_only_for_frames_before_the_p() {
    let mut c = cfg(Mode::Nrm, 8);
    c.poll = Poll::Supervisory;
    // REJ F = 1 naming a frame sent after the P: an ordinary REJ, one go-back (cause REJ).
    let mut a = station(&c, Station::A, 10);
    send(&mut a, SimTime::ZERO, 4); // RR P, I0, I1, I2
    a.handle_receive(ms(1), &s_frame(FrameKind::REJ, 1, true, false));
    let f = a.poll_transmit(ms(1), &LINE).unwrap();
    assert_eq!(
        brief(&f),
        (FrameKind::RR, 0, 0, true),
        "the next poll first"
    );
    let f = a.poll_transmit(ms(1), &LINE).unwrap();
    assert_eq!(brief(&f), (FrameKind::I, 1, 0, false));
    assert_eq!(a.counters().retransmitted_reject, 1);
    assert_eq!(a.counters().retransmitted_checkpoint, 0);
    // REJ F = 1 naming a frame sent before the P: the checkpoint go-back.
    let mut a = station(&c, Station::A, 10);
    send(&mut a, SimTime::ZERO, 3); // RR P, I0, I1
    a.handle_receive(ms(1), &s_frame(FrameKind::RR, 0, true, false)); // F: no checkpoint (nothing before P)
    send(&mut a, ms(1), 2); // RR P (mark: V(S) = 2), I2
    a.handle_receive(ms(2), &s_frame(FrameKind::REJ, 1, true, false));
    let fs = send(&mut a, ms(2), 2);
    assert_eq!(brief(&fs[1]), (FrameKind::I, 1, 0, false));
    assert_eq!(a.counters().retransmitted_checkpoint, 1);
}

#[test]
fn test_abm_lapb_timer_recovery_stops_new_i_frames_until_the_f_response() {
    for (recovery, new_frames_during_recovery) in
        [(TimerRecovery::Continue, 2), (TimerRecovery::Lapb, 0)]
    {
        let mut c = cfg(Mode::Abm, 8);
        c.timer_recovery = Some(recovery);
        let mut a = station(&c, Station::A, 10);
        send(&mut a, SimTime::ZERO, 3);
        let t1 = expire_t1_and_poll(&mut a);
        let fs = send(&mut a, t1, 2);
        assert_eq!(fs.len(), new_frames_during_recovery, "{recovery:?}");
        // The F = 1 response ends timer recovery: checkpoint go-back from N(R) = 1.
        a.handle_receive(t1 + Duration(1), &s_frame(FrameKind::RR, 1, true, false));
        let f = a.poll_transmit(t1 + Duration(1), &LINE).unwrap();
        assert_eq!(brief(&f), (FrameKind::I, 1, 0, false), "{recovery:?}");
    }
}

#[test]
fn test_t2_ends_when_k_frames_are_unacknowledged() {
    // T2 holds an acknowledgement for a piggyback; once k = 2 in-sequence frames are
    // unacknowledged the peer's window is full, so the RR goes at once.
    let mut c = cfg(Mode::Abm, 8);
    c.window = 2;
    c.t2_s = 0.5;
    let mut b = station(&c, Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    assert!(b.poll_transmit(ms(1), &LINE).is_none(), "T2 running");
    b.handle_receive(ms(2), &i_frame(1, 0, false, true));
    let f = b.poll_transmit(ms(2), &LINE).unwrap();
    assert_eq!(brief(&f), (FrameKind::RR, 0, 2, false));
    b.handle_receive(ms(3), &i_frame(2, 0, false, true));
    assert!(
        b.poll_transmit(ms(3), &LINE).is_none(),
        "the count restarts with the RR"
    );
}

// ---- ABM ------------------------------------------------------------------------------

#[test]
fn test_abm_idle_submit_sends_commands_without_p_up_to_window() {
    let mut a = station(&cfg(Mode::Abm, 8), Station::A, 10);
    let fs = send(&mut a, SimTime::ZERO, 8);
    assert_eq!(
        fs.len(),
        7,
        "k = M−1 = 7 outstanding, then the modulus rule stops I frames"
    );
    for (i, f) in fs.iter().enumerate() {
        assert_eq!(
            brief(f),
            (FrameKind::I, i as u32, 0, false),
            "P only after a timeout in ABM"
        );
        assert!(f.command, "ABM I frames are commands");
    }
    assert_eq!(a.outstanding(), 7);
    // Timer started when the first frame's last bit left: 1048 bits at 48 kbit/s + T1.
    assert_eq!(
        a.poll_timeout(),
        Some(SimTime::ZERO + Duration::transmission(1048, 48_000.0) + Duration::from_secs_f64(1.0))
    );
}

#[test]
fn test_abm_window_full_mod8_rr_reopens() {
    let mut a = abm_outstanding(7);
    assert!(a.poll_transmit(ms(10), &LINE).is_none());
    a.handle_receive(ms(200), &s_frame(FrameKind::RR, 2, false, false));
    assert_eq!(events(&mut a).1, vec![0, 1]);
    assert_eq!(
        a.poll_timeout(),
        Some(ms(200) + Duration::from_secs_f64(1.0)),
        "restarted by a new acknowledgement"
    );
    let fs = send(&mut a, ms(200), 3);
    assert_eq!(
        fs.iter().map(|f| f.ns).collect::<Vec<_>>(),
        vec![7, 0],
        "N(S) wraps modulo 8; 7 outstanding again"
    );
    assert_eq!(fs.len(), 2);
}

#[test]
fn test_abm_window_full_mod128() {
    let mut a = station(&cfg(Mode::Abm, 128), Station::A, 300);
    let fs = send(&mut a, SimTime::ZERO, 300);
    assert_eq!(fs.len(), 127);
    assert_eq!(fs[126].ns, 126);
    assert_eq!(
        fs[0].bits,
        1000 + 56,
        "extended control field: 56 overhead bits"
    );
    a.handle_receive(ms(500), &s_frame(FrameKind::RR, 100, false, false));
    let fs = send(&mut a, ms(500), 200);
    assert_eq!(fs.len(), 100);
    assert_eq!((fs[0].ns, fs[1].ns, fs[99].ns), (127, 0, 98));
}

#[test]
fn test_abm_receiver_out_of_sequence_sends_rej_once() {
    let mut b = station(&cfg(Mode::Abm, 8), Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    assert_eq!(
        brief(&b.poll_transmit(ms(1), &LINE).unwrap()),
        (FrameKind::RR, 0, 1, false)
    );
    // Frame 1 lost; 2 and 3 arrive: one REJ(1), a response, then silence.
    b.handle_receive(ms(2), &i_frame(2, 0, false, true));
    b.handle_receive(ms(3), &i_frame(3, 0, false, true));
    let f = b.poll_transmit(ms(3), &LINE).unwrap();
    assert_eq!(brief(&f), (FrameKind::REJ, 0, 1, false));
    assert!(!f.command);
    assert!(b.reject_condition());
    b.handle_receive(ms(4), &i_frame(4, 0, false, true));
    assert!(
        b.poll_transmit(ms(4), &LINE).is_none(),
        "no second REJ for the same gap"
    );
    assert_eq!(b.counters().rejects_sent, 1);
    assert_eq!(b.counters().out_of_sequence_discarded, 3);
    // The requested frame clears the condition; a new gap gets a new REJ.
    b.handle_receive(ms(5), &i_frame(1, 0, false, true));
    assert!(!b.reject_condition());
    assert_eq!(
        brief(&b.poll_transmit(ms(5), &LINE).unwrap()),
        (FrameKind::RR, 0, 2, false)
    );
    b.handle_receive(ms(6), &i_frame(3, 0, false, true));
    assert_eq!(
        brief(&b.poll_transmit(ms(6), &LINE).unwrap()),
        (FrameKind::REJ, 0, 2, false)
    );
    assert_eq!(events(&mut b).0, vec![0, 1]);
}

#[test]
fn test_abm_outstanding_rej_goes_back_to_nr() {
    let mut a = abm_outstanding(5);
    a.handle_receive(ms(100), &s_frame(FrameKind::REJ, 2, false, false));
    assert_eq!(events(&mut a).1, vec![0, 1]);
    let fs = send(&mut a, ms(100), 4);
    assert_eq!(
        fs.iter().map(|f| f.ns).collect::<Vec<_>>(),
        vec![2, 3, 4, 5],
        "2..4 again, then new frame 5"
    );
    assert_eq!(a.counters().retransmitted_reject, 3);
}

#[test]
fn test_abm_rej_condition_retransmitted_frame_lost_waits_for_timeout() {
    // Receiver side: the retransmission of 1 is lost, 2 (retransmitted) arrives: the
    // reject condition still exists, so no REJ is repeated (A1.3).
    let mut b = station(&cfg(Mode::Abm, 8), Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    b.handle_receive(ms(2), &i_frame(2, 0, false, true));
    send(&mut b, ms(2), 2);
    b.handle_receive(ms(3), &i_frame(2, 0, false, true));
    assert!(
        b.poll_transmit(ms(3), &LINE).is_none(),
        "REJ recovery is not repeated"
    );
    // Sender side: only the timer recovers; on expiry it polls with RR command P=1.
    let mut a = abm_outstanding(3);
    a.handle_receive(ms(100), &s_frame(FrameKind::REJ, 1, false, false));
    send(&mut a, ms(100), 2); // 1 and 2 again; the copy of 1 is lost
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(SimTime(t1.0 - 1));
    assert_eq!(a.counters().timeouts, 0, "an early wake-up is harmless");
    a.handle_timeout(t1);
    a.handle_timeout(t1);
    assert_eq!(a.counters().timeouts, 1, "idempotent");
    let f = a.poll_transmit(t1, &LINE).unwrap();
    assert_eq!(brief(&f), (FrameKind::RR, 0, 0, true));
    assert!(f.command && a.p_outstanding());
    // The F=1 response says N(R)=1: checkpoint retransmission from 1, counted as timeout.
    a.handle_receive(
        t1 + Duration::from_secs_f64(0.1),
        &s_frame(FrameKind::RR, 1, true, false),
    );
    assert!(!a.p_outstanding());
    let fs = send(&mut a, t1 + Duration::from_secs_f64(0.1), 2);
    assert_eq!(
        fs.iter().map(|f| (f.ns, f.pf)).collect::<Vec<_>>(),
        vec![(1, false), (2, false)]
    );
    assert_eq!(a.counters().retransmitted_timeout, 2);
}

#[test]
fn test_abm_rej_lost_recovered_by_timeout_poll() {
    // The REJ never arrives: the sender's timer expires, it polls, the F response with
    // N(R) = 2 makes it go back.
    let mut a = abm_outstanding(4);
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    assert_eq!(
        brief(&a.poll_transmit(t1, &LINE).unwrap()),
        (FrameKind::RR, 0, 0, true)
    );
    a.handle_receive(
        t1 + Duration::from_secs_f64(0.1),
        &s_frame(FrameKind::REJ, 2, true, false),
    );
    let fs = send(&mut a, t1 + Duration::from_secs_f64(0.1), 3);
    assert_eq!(fs.iter().map(|f| f.ns).collect::<Vec<_>>(), vec![2, 3, 4]);
    assert_eq!(
        a.counters().retransmitted_timeout,
        2,
        "one go-back for a REJ with F=1"
    );
    assert_eq!(a.counters().retransmitted_reject, 0);
}

#[test]
fn test_abm_command_with_p_is_answered_by_response_with_f() {
    let mut b = station(&cfg(Mode::Abm, 8), Station::B, 3);
    b.handle_receive(ms(1), &s_frame(FrameKind::RR, 0, true, true));
    let f = b.poll_transmit(ms(1), &LINE).unwrap();
    assert_eq!(brief(&f), (FrameKind::RR, 0, 0, true));
    assert!(!f.command, "F in a response, before any queued I frame");
    assert_eq!(b.poll_transmit(ms(2), &LINE).unwrap().kind, FrameKind::I);
    // A P never triggers retransmission in ABM: checkpointing on F only.
    let mut a = abm_outstanding(3);
    a.handle_receive(ms(100), &s_frame(FrameKind::RR, 0, true, true));
    assert_eq!(
        brief(&a.poll_transmit(ms(100), &LINE).unwrap()),
        (FrameKind::RR, 0, 0, true)
    );
    assert!(
        a.poll_transmit(ms(100), &LINE).is_some_and(|f| f.ns == 3),
        "new frame, not a go-back"
    );
}

#[test]
fn test_abm_p_cycle_rej_already_retransmitted_inhibits_checkpoint() {
    let mut a = abm_outstanding(4);
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    a.poll_transmit(t1, &LINE); // RR P=1
    a.handle_receive(t1 + Duration(1), &s_frame(FrameKind::REJ, 1, false, false));
    send(&mut a, t1 + Duration(1), 3); // 1, 2, 3 again
                                       // The F=1 response was sent before the retransmitted 1 arrived: N(R) = 1.
    a.handle_receive(t1 + Duration(2), &s_frame(FrameKind::RR, 1, true, false));
    let f = a.poll_transmit(t1 + Duration(2), &LINE).unwrap();
    assert_eq!(
        f.ns, 4,
        "no checkpoint retransmission: the REJ already caused it"
    );
    assert_eq!(
        a.counters().retransmitted_checkpoint + a.counters().retransmitted_timeout,
        0
    );
}

#[test]
fn test_abm_f_sent_for_peer_poll_keeps_rej_cover_of_own_poll() {
    // As above, but between the REJ and the F for our P we answer the peer's own P
    // with an F. That F belongs to the peer's checkpoint cycle, not to ours: the REJ
    // still covers frames 1..3, so the F for our poll must not send them again (it did,
    // and the duplicates drew REJs that drew go-backs: a cycle that kept the Fig. 9
    // ABM link at half throughput for a minute at load 0.7).
    let mut a = abm_outstanding(4);
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    a.poll_transmit(t1, &LINE); // RR P=1
    a.handle_receive(t1 + Duration(1), &s_frame(FrameKind::REJ, 1, false, false));
    send(&mut a, t1 + Duration(1), 2); // 1, 2 again
    a.handle_receive(t1 + Duration(2), &s_frame(FrameKind::RR, 1, true, true)); // peer's P
    let f = a.poll_transmit(t1 + Duration(2), &LINE).unwrap();
    assert_eq!(
        (f.kind, f.pf, f.command),
        (FrameKind::RR, true, false),
        "our F"
    );
    a.handle_receive(t1 + Duration(3), &s_frame(FrameKind::RR, 1, true, false)); // F for our P
    let fs = send(&mut a, t1 + Duration(3), 2);
    assert_eq!(
        fs.iter().map(|f| f.ns).collect::<Vec<_>>(),
        vec![3, 4],
        "the REJ retransmission goes on; no second go-back"
    );
    assert_eq!(
        a.counters().i_frames_retransmitted,
        3,
        "1, 2 and 3 once each"
    );
}

#[test]
fn test_abm_rej_for_frame_a_checkpoint_already_resent_is_inhibited() {
    // The converse order: the F for our timeout poll arrives first (N(R) = 1) and the
    // checkpoint retransmission starts at 1; then the peer's REJ(1), sent before that
    // retransmission reached it, arrives. Retransmission from 1 has already begun, so
    // the REJ is not acted on again (ISO 4335, REJ recovery).
    let mut a = abm_outstanding(4);
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    a.poll_transmit(t1, &LINE); // RR P=1
    a.handle_receive(t1 + Duration(1), &s_frame(FrameKind::RR, 1, true, false));
    send(&mut a, t1 + Duration(1), 2); // 1, 2 again
    a.handle_receive(t1 + Duration(2), &s_frame(FrameKind::REJ, 1, false, false));
    let fs = send(&mut a, t1 + Duration(2), 2);
    assert_eq!(fs.iter().map(|f| f.ns).collect::<Vec<_>>(), vec![3, 4]);
    assert_eq!(a.counters().retransmitted_reject, 0);
    // A REJ for a later frame is a new gap and is acted on.
    a.handle_receive(t1 + Duration(3), &s_frame(FrameKind::REJ, 3, false, false));
    assert_eq!(a.poll_transmit(t1 + Duration(3), &LINE).unwrap().ns, 3);
}

#[test]
fn test_abm_invalid_nr_is_ignored_and_counted() {
    let mut a = abm_outstanding(2);
    a.handle_receive(ms(5), &s_frame(FrameKind::RR, 5, false, false));
    a.handle_receive(ms(5), &s_frame(FrameKind::REJ, 9, false, false));
    a.handle_receive(ms(5), &s_frame(FrameKind::SREJ, 4, false, false));
    assert_eq!(a.invalid_nr_received(), 3);
    assert_eq!(a.unacknowledged(), 10);
    assert_eq!(a.poll_transmit(ms(5), &LINE).unwrap().ns, 2);
}

#[test]
fn test_abm_corrupted_frame_is_only_counted() {
    let mut b = station(&cfg(Mode::Abm, 8), Station::B, 0);
    b.handle_receive_in_error(ms(1), &i_frame(0, 0, true, true));
    assert!(b.poll_transmit(ms(1), &LINE).is_none());
    assert_eq!(b.counters().frames_in_error_received, 1);
    assert_eq!(b.vr(), 0);
}

#[test]
fn test_abm_t2_delays_rr_for_piggyback() {
    let mut c = cfg(Mode::Abm, 8);
    c.t2_s = 0.01;
    let mut b = station(&c, Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    assert!(
        b.poll_transmit(ms(1), &LINE).is_none(),
        "waits T2 for an I frame"
    );
    assert_eq!(b.poll_timeout(), Some(ms(11)));
    b.handle_timeout(ms(11));
    assert_eq!(
        brief(&b.poll_transmit(ms(11), &LINE).unwrap()),
        (FrameKind::RR, 0, 1, false)
    );
    assert_eq!(b.poll_timeout(), None);
}

// ---- NRM ------------------------------------------------------------------------------

#[test]
fn test_nrm_primary_polls_as_often_as_possible() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 3);
    let fs = send(&mut a, SimTime::ZERO, 3);
    assert_eq!(
        fs.iter()
            .map(|f| (f.ns, f.pf, f.command))
            .collect::<Vec<_>>(),
        vec![(0, true, true), (1, false, true), (2, false, true)]
    );
    // Annex B timer: started when the P frame has left.
    assert_eq!(
        a.poll_timeout(),
        Some(SimTime::ZERO + Duration::transmission(1048, 48_000.0) + Duration::from_secs_f64(1.0))
    );
    assert!(
        a.poll_transmit(ms(30), &LINE).is_none(),
        "one P outstanding, nothing else to send"
    );
    // F=0 restarts the timer, F=1 stops it; then the next poll goes out at once.
    a.handle_receive(ms(100), &s_frame(FrameKind::RR, 1, false, false));
    assert_eq!(a.poll_timeout(), Some(ms(1100)));
    a.handle_receive(ms(110), &s_frame(FrameKind::RR, 3, true, false));
    assert_eq!(a.poll_timeout(), None);
    assert_eq!(events(&mut a).1, vec![0, 1, 2]);
    let f = a.poll_transmit(ms(110), &LINE).unwrap();
    assert_eq!(
        brief(&f),
        (FrameKind::RR, 0, 0, true),
        "supervisory poll when no I frame can carry P"
    );
}

#[test]
fn test_nrm_polling_cycle_secondary_waits_for_p_and_ends_with_f() {
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 2);
    assert!(
        b.poll_transmit(SimTime::ZERO, &LINE).is_none(),
        "NRM secondary: no transmission without P"
    );
    b.handle_receive(ms(50), &s_frame(FrameKind::RR, 0, true, true));
    assert!(b.polled());
    let fs = send(&mut b, ms(50), 4);
    // Two I frames, then (nothing left) an RR with F=1 ends the response.
    assert_eq!(
        fs.iter().map(brief).collect::<Vec<_>>(),
        vec![
            (FrameKind::I, 0, 0, false),
            (FrameKind::I, 1, 0, false),
            (FrameKind::RR, 0, 0, true),
        ]
    );
    assert!(
        fs.iter().all(|f| !f.command),
        "the secondary sends responses"
    );
    assert!(!b.polled());
    b.handle_submit(ms(60), msg(2));
    assert!(
        b.poll_transmit(ms(60), &LINE).is_none(),
        "after F the secondary waits for the next P"
    );
}

#[test]
fn test_nrm_secondary_window_full_sets_f_in_last_i_frame() {
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 20);
    b.handle_receive(ms(50), &i_frame(0, 0, true, true));
    let fs = send(&mut b, ms(50), 10);
    assert_eq!(fs.len(), 7);
    assert!(fs[..6].iter().all(|f| !f.pf));
    assert_eq!(
        brief(&fs[6]),
        (FrameKind::I, 6, 1, true),
        "F in the 7th I frame: M−1 outstanding"
    );
    assert_eq!(fs[0].nr, 1, "N(R) acknowledges the polling I frame");
}

#[test]
fn test_nrm_secondary_checkpoint_retransmission_on_p() {
    // The collapse mechanism of Fig. 3: REJ recovery failed, the secondary fills its
    // window, sets F, and only the next P makes it retransmit.
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 20);
    b.handle_receive(ms(50), &s_frame(FrameKind::RR, 0, true, true));
    assert_eq!(
        send(&mut b, ms(50), 5).len(),
        5,
        "0..4, the response goes on"
    );
    // The primary lost 2 and rejects it (its REJ is a command without P).
    b.handle_receive(ms(100), &s_frame(FrameKind::REJ, 2, false, true));
    let fs = send(&mut b, ms(100), 8);
    assert_eq!(
        fs.iter().map(|f| (f.ns, f.pf)).collect::<Vec<_>>(),
        vec![
            (2, false),
            (3, false),
            (4, false),
            (5, false),
            (6, false),
            (7, false),
            (0, true)
        ],
        "2..4 again, new frames up to 7 outstanding, F in the last"
    );
    assert!(b.poll_transmit(ms(101), &LINE).is_none());
    // The retransmitted 2 was lost too: nothing more happens until the next P, N(R) = 2.
    b.handle_receive(ms(300), &s_frame(FrameKind::RR, 2, true, true));
    let fs = send(&mut b, ms(300), 8);
    assert_eq!(
        fs.iter().map(|f| f.ns).collect::<Vec<_>>(),
        vec![2, 3, 4, 5, 6, 7, 0]
    );
    assert!(fs[6].pf);
    assert_eq!(
        (
            b.counters().retransmitted_reject,
            b.counters().retransmitted_checkpoint
        ),
        (3, 7)
    );
}

#[test]
fn test_nrm_primary_checkpoint_retransmission_on_f() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    let fs = send(&mut a, SimTime::ZERO, 4); // 0 (P), 1, 2, 3
    assert!(fs[0].pf);
    // The F=1 response reports N(R) = 1: everything sent up to the P frame arrived.
    a.handle_receive(ms(120), &s_frame(FrameKind::RR, 1, true, false));
    let f = a.poll_transmit(ms(120), &LINE).unwrap();
    assert_eq!(
        (f.ns, f.pf),
        (4, true),
        "no retransmission; the next frame carries the next P"
    );
    // Frames 1..4 sent before this P; the F says N(R) = 2: go back to 2.
    a.handle_receive(ms(240), &s_frame(FrameKind::RR, 2, true, false));
    let fs = send(&mut a, ms(240), 3);
    assert_eq!(
        fs.iter().map(|f| (f.ns, f.pf)).collect::<Vec<_>>(),
        vec![(2, true), (3, false), (4, false)]
    );
    assert_eq!(a.counters().retransmitted_checkpoint, 3);
}

#[test]
fn test_nrm_primary_rej_with_f_is_one_checkpoint_retransmission() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 3);
    a.handle_receive(ms(120), &s_frame(FrameKind::REJ, 0, true, false));
    let fs = send(&mut a, ms(120), 4);
    assert_eq!(
        fs.iter().map(|f| f.ns).collect::<Vec<_>>(),
        vec![0, 1, 2, 3]
    );
    assert_eq!(
        (
            a.counters().retransmitted_checkpoint,
            a.counters().retransmitted_reject
        ),
        (3, 0)
    );
}

#[test]
fn test_nrm_primary_timeout_queries_with_supervisory_p() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 2);
    send(&mut a, SimTime::ZERO, 2); // 0 with P (lost), 1
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    let f = a.poll_transmit(t1, &LINE).unwrap();
    assert_eq!(brief(&f), (FrameKind::RR, 0, 0, true));
    assert_eq!(
        a.poll_timeout(),
        Some(t1 + Duration::transmission(48, 48_000.0) + Duration::from_secs_f64(1.0))
    );
    // The response says nothing arrived: everything goes again, counted as timeout.
    a.handle_receive(
        t1 + Duration::from_secs_f64(0.1),
        &s_frame(FrameKind::RR, 0, true, false),
    );
    let fs = send(&mut a, t1 + Duration::from_secs_f64(0.1), 3);
    assert_eq!(
        fs.iter().map(|f| (f.ns, f.pf)).collect::<Vec<_>>(),
        vec![(0, true), (1, false)]
    );
    assert_eq!(a.counters().retransmitted_timeout, 2);
}

#[test]
fn test_nrm_primary_window_full_withholds_acknowledgements() {
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    send(&mut a, SimTime::ZERO, 7); // 7 outstanding, P on frame 0
    a.handle_receive(ms(100), &i_frame(0, 0, false, false));
    assert_eq!(events(&mut a).0, vec![0]);
    assert!(
        a.poll_transmit(ms(100), &LINE).is_none(),
        "M−1 outstanding: no RR (Section 3.1.3)"
    );
    a.handle_receive(ms(110), &i_frame(2, 0, false, false));
    assert!(
        a.poll_transmit(ms(110), &LINE).is_none(),
        "REJ deferred too"
    );
    // The secondary's F ends the wait; the poll carries the deferred REJ.
    a.handle_receive(ms(120), &i_frame(3, 0, true, false));
    let f = a.poll_transmit(ms(120), &LINE).unwrap();
    assert_eq!(
        brief(&f),
        (FrameKind::I, 0, 1, true),
        "checkpoint: frame 0 again, with P"
    );
    // Without the strategy the RR goes out at once.
    let mut c = cfg(Mode::Nrm, 8);
    c.withhold_ack_at_window = Some(false);
    let mut a = station(&c, Station::A, 10);
    send(&mut a, SimTime::ZERO, 7);
    a.handle_receive(ms(100), &i_frame(0, 0, false, false));
    assert_eq!(
        brief(&a.poll_transmit(ms(100), &LINE).unwrap()),
        (FrameKind::RR, 0, 1, false)
    );
}

#[test]
fn test_nrm_secondary_rej_sent_only_when_polled() {
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, true, true));
    assert_eq!(
        brief(&b.poll_transmit(ms(1), &LINE).unwrap()),
        (FrameKind::RR, 0, 1, true)
    );
    b.handle_receive(ms(2), &i_frame(2, 0, false, true));
    assert!(
        b.poll_transmit(ms(2), &LINE).is_none(),
        "the REJ waits for a P"
    );
    b.handle_receive(ms(3), &i_frame(3, 0, true, true));
    assert_eq!(
        brief(&b.poll_transmit(ms(3), &LINE).unwrap()),
        (FrameKind::REJ, 0, 1, true),
        "REJ ends the response"
    );
    assert!(b.poll_transmit(ms(3), &LINE).is_none());
}

#[test]
fn test_nrm_secondary_pending_rej_is_void_once_the_gap_is_filled() {
    // Frame 1 lost, 2 arrives: a REJ(1) is due but waits for a P. The primary's
    // checkpoint retransmission brings 1 (with P) before the REJ could go: the gap is
    // filled, so no REJ is sent — a REJ(2) now would ask for frames that the same
    // checkpoint retransmission is already resending, and the duplicates would draw
    // more REJs.
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    b.handle_receive(ms(2), &i_frame(2, 0, false, true));
    assert!(b.reject_condition());
    b.handle_receive(ms(3), &i_frame(1, 0, true, true));
    assert!(!b.reject_condition());
    assert_eq!(
        brief(&b.poll_transmit(ms(3), &LINE).unwrap()),
        (FrameKind::RR, 0, 2, true),
        "F response is an RR, not a REJ"
    );
    b.handle_receive(ms(4), &i_frame(2, 0, true, true));
    assert_eq!(
        brief(&b.poll_transmit(ms(4), &LINE).unwrap()),
        (FrameKind::RR, 0, 3, true)
    );
    assert_eq!(b.counters().rejects_sent, 0);
    assert_eq!(events(&mut b).0, vec![0, 1, 2]);
}

#[test]
fn test_nrm_poll_idle_sets_p_only_when_no_i_frame_can_go() {
    let mut c = cfg(Mode::Nrm, 8);
    c.poll = Poll::Idle;
    let mut a = station(&c, Station::A, 10);
    let fs = send(&mut a, SimTime::ZERO, 8);
    assert!(fs[..7].iter().all(|f| f.kind == FrameKind::I && !f.pf));
    assert_eq!(brief(&fs[7]), (FrameKind::RR, 0, 0, true));
}

// ---- ARM ------------------------------------------------------------------------------

#[test]
fn test_arm_secondary_transmits_without_p_and_its_timer_resends_the_oldest() {
    let mut b = station(&cfg(Mode::Arm, 8), Station::B, 3);
    let fs = send(&mut b, SimTime::ZERO, 3);
    assert_eq!(
        fs.iter()
            .map(|f| (f.ns, f.pf, f.command))
            .collect::<Vec<_>>(),
        vec![(0, false, false), (1, false, false), (2, false, false)]
    );
    b.handle_receive(ms(100), &s_frame(FrameKind::RR, 1, false, true));
    let t1 = b.poll_timeout().unwrap();
    assert_eq!(t1, ms(1100));
    b.handle_timeout(t1);
    let f = b.poll_transmit(t1, &LINE).unwrap();
    assert_eq!(
        (f.ns, f.pf),
        (1, false),
        "only the unacknowledged frame with the least N(S)"
    );
    assert!(
        b.poll_transmit(t1, &LINE).is_none(),
        "V(S) unchanged: 1 and 2 were sent"
    );
    assert_eq!(b.counters().retransmitted_timeout, 1);
}

#[test]
fn test_arm_secondary_answers_p_with_f_and_checkpoints_on_p() {
    let mut b = station(&cfg(Mode::Arm, 8), Station::B, 5);
    b.handle_receive(ms(1), &s_frame(FrameKind::RR, 0, true, true));
    let f = b.poll_transmit(ms(1), &LINE).unwrap();
    assert_eq!(
        brief(&f),
        (FrameKind::I, 0, 0, true),
        "F on the next frame, an I frame response"
    );
    send(&mut b, ms(2), 2); // 1, 2
                            // The next P says N(R) = 0: frame 0 (sent up to the last F) is retransmitted.
    b.handle_receive(ms(200), &s_frame(FrameKind::RR, 0, true, true));
    let fs = send(&mut b, ms(200), 4);
    assert_eq!(
        fs.iter().map(|f| (f.ns, f.pf)).collect::<Vec<_>>(),
        vec![(0, true), (1, false), (2, false), (3, false)]
    );
    assert_eq!(b.counters().retransmitted_checkpoint, 3);
}

#[test]
fn test_arm_primary_behaves_as_combined_station() {
    let mut a = station(&cfg(Mode::Arm, 8), Station::A, 3);
    let fs = send(&mut a, SimTime::ZERO, 3);
    assert!(
        fs.iter().all(|f| f.command && !f.pf),
        "P only after a timeout"
    );
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    assert_eq!(
        brief(&a.poll_transmit(t1, &LINE).unwrap()),
        (FrameKind::RR, 0, 0, true)
    );
}

// ---- SREJ and RNR ---------------------------------------------------------------------

fn srej_cfg(mode: Mode, buffer: u32) -> HdlcConfig {
    let mut c = cfg(mode, 8);
    c.reject = Reject::Srej;
    c.window = 4;
    c.receive_buffer_frames = buffer;
    c
}

#[test]
fn test_srej_receiver_holds_and_requests_each_missing_frame_once() {
    let mut b = station(&srej_cfg(Mode::Abm, 0), Station::B, 0);
    b.handle_receive(ms(1), &i_frame(0, 0, false, true));
    b.poll_transmit(ms(1), &LINE);
    // 1 and 2 lost, 3 arrives: SREJ(1), SREJ(2); 3 is held.
    b.handle_receive(ms(2), &i_frame(3, 0, false, true));
    let fs = send(&mut b, ms(2), 3);
    assert_eq!(
        fs.iter().map(brief).collect::<Vec<_>>(),
        vec![
            (FrameKind::SREJ, 0, 1, false),
            (FrameKind::SREJ, 0, 2, false)
        ]
    );
    assert_eq!(b.receive_buffer_bits(), 1000);
    b.handle_receive(ms(3), &i_frame(3, 0, false, true));
    assert!(
        b.poll_transmit(ms(3), &LINE).is_none(),
        "a duplicate of a held frame: no new SREJ"
    );
    b.handle_receive(ms(4), &i_frame(1, 0, false, true));
    b.handle_receive(ms(5), &i_frame(2, 0, false, true));
    assert_eq!(events(&mut b).0, vec![0, 1, 2, 3]);
    assert_eq!(
        brief(&b.poll_transmit(ms(5), &LINE).unwrap()),
        (FrameKind::RR, 0, 4, false)
    );
    assert_eq!(b.receive_buffer_bits(), 0);
}

#[test]
fn test_srej_sender_retransmits_only_the_requested_frame() {
    let mut a = station(&srej_cfg(Mode::Abm, 0), Station::A, 10);
    send(&mut a, SimTime::ZERO, 4);
    a.handle_receive(ms(100), &s_frame(FrameKind::SREJ, 1, false, false));
    assert!(events(&mut a).1.is_empty(), "SREJ acknowledges nothing");
    let f = a.poll_transmit(ms(100), &LINE).unwrap();
    assert_eq!(f.ns, 1);
    assert!(
        a.poll_transmit(ms(100), &LINE).is_none(),
        "window of 4 still full"
    );
    a.handle_receive(ms(200), &s_frame(FrameKind::RR, 4, false, false));
    assert_eq!(a.poll_transmit(ms(200), &LINE).unwrap().ns, 4);
    assert_eq!(a.counters().retransmitted_reject, 1);
}

#[test]
fn test_srej_buffer_limit_sends_rnr_and_rr_when_cleared() {
    let mut b = station(&srej_cfg(Mode::Abm, 2), Station::B, 0);
    b.handle_receive(ms(2), &i_frame(2, 0, false, true));
    b.handle_receive(ms(3), &i_frame(3, 0, false, true));
    assert!(b.own_busy());
    let fs = send(&mut b, ms(3), 4);
    assert_eq!(
        fs.iter().map(|f| f.kind).collect::<Vec<_>>(),
        vec![FrameKind::SREJ, FrameKind::SREJ, FrameKind::RNR]
    );
    b.handle_receive(ms(4), &i_frame(0, 0, false, true));
    b.handle_receive(ms(5), &i_frame(1, 0, false, true));
    assert!(!b.own_busy());
    assert_eq!(
        brief(&b.poll_transmit(ms(5), &LINE).unwrap()),
        (FrameKind::RR, 0, 4, false)
    );
    // Sender side: RNR stops new I frames; the frame at V(A) may still be recovered.
    let mut a = station(&srej_cfg(Mode::Abm, 2), Station::A, 10);
    send(&mut a, SimTime::ZERO, 3);
    a.handle_receive(ms(100), &s_frame(FrameKind::RNR, 0, false, false));
    assert!(a.peer_busy());
    assert!(a.poll_transmit(ms(100), &LINE).is_none());
    a.handle_receive(ms(101), &s_frame(FrameKind::SREJ, 0, false, false));
    assert_eq!(a.poll_transmit(ms(101), &LINE).unwrap().ns, 0);
    a.handle_receive(ms(200), &s_frame(FrameKind::RR, 3, false, false));
    assert!(!a.peer_busy());
    assert_eq!(a.poll_transmit(ms(200), &LINE).unwrap().ns, 3);
}

#[test]
fn test_nrm_secondary_rnr_at_buffer_limit_in_response() {
    let mut b = station(&srej_cfg(Mode::Nrm, 1), Station::B, 0);
    b.handle_receive(ms(2), &i_frame(1, 0, true, true));
    assert!(b.own_busy());
    let fs = send(&mut b, ms(2), 3);
    assert_eq!(
        fs.iter().map(brief).collect::<Vec<_>>(),
        vec![(FrameKind::SREJ, 0, 0, false), (FrameKind::RNR, 0, 0, true)]
    );
}

/// `Layer::wants_transmit` (false: the runner skips the wake-up when the line frees, the
/// X.25 access line the frame choice): false for an idle ABM station (P only on T1,
/// nothing queued or owed), true as soon as an I frame, an acknowledgement or an F is
/// due, and false for an NRM secondary not polled even with frames queued.
#[test]
fn test_wants_transmit_is_false_only_when_no_frame_can_go() {
    let mut a = station(&cfg(Mode::Abm, 8), Station::A, 0);
    assert!(!a.wants_transmit(), "idle ABM station");
    assert!(a.poll_transmit(ms(0), &LINE).is_none());
    a.handle_submit(ms(0), msg(0));
    assert!(a.wants_transmit(), "an I frame is queued");
    assert_eq!(send(&mut a, ms(0), 1).len(), 1);
    assert!(!a.wants_transmit(), "the frame is out, nothing else owed");
    a.handle_receive(ms(1), &i_frame(0, 0, false, true));
    assert!(a.wants_transmit(), "an acknowledgement is owed (T2 = 0)");
    assert_eq!(brief(&a.poll_transmit(ms(1), &LINE).unwrap()), (FrameKind::RR, 0, 1, false));
    assert!(!a.wants_transmit());
    a.handle_receive(ms(2), &s_frame(FrameKind::RR, 0, true, true));
    assert!(a.wants_transmit(), "a P was received: the F response is owed");
    assert!(a.wants_transmit_now(), "an F owes nothing to T2");
    let mut b = station(&cfg(Mode::Nrm, 8), Station::B, 3);
    assert!(!b.wants_transmit(), "an NRM secondary waits for the poll");
    b.handle_receive(ms(0), &s_frame(FrameKind::RR, 0, true, true));
    assert!(b.wants_transmit(), "polled, with frames queued");
}

/// X.25 §2.4.8.2 (T2): an acknowledgement held back for T2 is owed but not sendable, so
/// `wants_transmit_now` (the X.25 access line's question) is false until T2 runs out —
/// one picosecond before it, nothing goes — and true at its expiry, when the RR goes;
/// `wants_transmit` (the runner's hint) stays true throughout.
#[test]
fn test_t2_held_acknowledgement_is_not_wanted_now_until_t2_expires() {
    let mut c = cfg(Mode::Abm, 8);
    c.t2_s = 0.01;
    let mut a = station(&c, Station::A, 0);
    a.handle_receive(ms(1), &i_frame(0, 0, false, true));
    assert!(a.wants_transmit(), "an acknowledgement is owed");
    assert!(!a.wants_transmit_now(), "held back for T2");
    let before = SimTime(ms(11).0 - 1);
    a.handle_timeout(before);
    assert!(!a.wants_transmit_now() && a.poll_transmit(before, &LINE).is_none(), "T2 has not run out");
    assert_eq!(a.poll_timeout(), Some(ms(11)), "T2 runs out 10 ms after the I frame");
    a.handle_timeout(ms(11));
    assert!(a.wants_transmit_now(), "T2 ran out");
    assert_eq!(brief(&a.poll_transmit(ms(11), &LINE).unwrap()), (FrameKind::RR, 0, 1, false));
    assert!(!a.wants_transmit_now() && !a.wants_transmit());
}

/// `without_acknowledged_events` (X.25's access line): an N(R) frees the acknowledged
/// frames as before (V(A) moves, the window reopens) and reports nothing upward.
#[test]
fn test_abm_without_acknowledged_events_frees_frames_silently() {
    let mut a = abm_outstanding(3);
    let mut q = abm_outstanding(3).without_acknowledged_events();
    for st in [&mut a, &mut q] {
        st.handle_receive(ms(1), &s_frame(FrameKind::RR, 2, false, false));
    }
    assert_eq!(events(&mut a), (vec![], vec![0, 1]));
    assert_eq!(events(&mut q), (vec![], vec![]), "no Acknowledged events");
    assert_eq!((q.va(), q.outstanding(), q.unacknowledged()), (2, 1, 8));
    assert_eq!((q.va(), q.outstanding(), q.unacknowledged()), (a.va(), a.outstanding(), a.unacknowledged()));
    let (fa, fq) = (send(&mut a, ms(1), 9), send(&mut q, ms(1), 9));
    assert_eq!(fq.iter().map(brief).collect::<Vec<_>>(), fa.iter().map(brief).collect::<Vec<_>>(), "the same frames follow");
}

// ---- A lossy two-station harness for property tests ------------------------------------

/// Two stations on a full-duplex line with delay; frames are lost by `lose`.
struct Harness {
    st: [HdlcStation; 2],
    busy_until: [SimTime; 2],
    flight: [VecDeque<(SimTime, Frame, bool)>; 2],
    delay: Duration,
    now: SimTime,
    /// Messages of station s delivered (at the peer), in delivery order.
    delivered: [Vec<u64>; 2],
    /// Messages of station s acknowledged, in order.
    acked: [Vec<u64>; 2],
    frames: u64,
}

impl Harness {
    fn new(c: &HdlcConfig, delay_s: f64, messages: [u64; 2], bits: u32) -> Harness {
        let mut st = [
            HdlcStation::new(c, Station::A),
            HdlcStation::new(c, Station::B),
        ];
        for (s, &n) in messages.iter().enumerate() {
            for id in 0..n {
                st[s].handle_submit(
                    SimTime::ZERO,
                    Sdu {
                        id,
                        bits: bits + (id as u32 * 37) % 500,
                        flow: 0,
                        born: SimTime::ZERO,
                    },
                );
            }
        }
        Harness {
            st,
            busy_until: [SimTime::ZERO; 2],
            flight: [VecDeque::new(), VecDeque::new()],
            delay: Duration::from_secs_f64(delay_s),
            now: SimTime::ZERO,
            delivered: [vec![], vec![]],
            acked: [vec![], vec![]],
            frames: 0,
        }
    }

    fn drain(&mut self, s: usize) {
        while let Some(e) = self.st[s].poll_event() {
            match e {
                Event::Delivered(m) => self.delivered[1 - s].push(m.id),
                Event::Acknowledged(m) => self.acked[s].push(m.id),
            }
        }
    }

    /// Runs until `end`; `lose(direction, now)` decides whether a frame is corrupted.
    fn run(&mut self, end: SimTime, lose: &mut dyn FnMut(usize, SimTime) -> bool) {
        loop {
            for s in 0..2 {
                self.drain(s);
                if self.busy_until[s] <= self.now {
                    // `wants_transmit` and `wants_transmit_now` are false only when nothing
                    // could go (every run of the harness, so every property test, checks it).
                    let may = self.st[s].wants_transmit();
                    let now_too = self.st[s].wants_transmit_now();
                    if let Some(f) = self.st[s].poll_transmit(self.now, &LINE) {
                        assert!(may, "station {s} at {:?}: wants_transmit() was false, yet {f:?} went", self.now);
                        assert!(now_too, "station {s} at {:?}: wants_transmit_now() was false, yet {f:?} went", self.now);
                        let done = self.now + Duration::transmission(f.bits as u64, LINE.rate_bps);
                        self.busy_until[s] = done;
                        let err = lose(s, self.now);
                        self.flight[s].push_back((done + self.delay, f, err));
                        self.frames += 1;
                    }
                }
            }
            let mut next = SimTime::MAX;
            for s in 0..2 {
                if self.busy_until[s] > self.now {
                    next = next.min(self.busy_until[s]);
                }
                if let Some(&(t, _, _)) = self.flight[s].front() {
                    next = next.min(t);
                }
                if let Some(t) = self.st[s].poll_timeout() {
                    next = next.min(t.max(self.now));
                }
            }
            if next > end {
                self.now = end;
                return;
            }
            self.now = next;
            for s in 0..2 {
                while self.flight[s]
                    .front()
                    .is_some_and(|&(t, _, _)| t <= self.now)
                {
                    if let Some((_, f, err)) = self.flight[s].pop_front() {
                        if err {
                            self.st[1 - s].handle_receive_in_error(self.now, &f);
                        } else {
                            self.st[1 - s].handle_receive(self.now, &f);
                        }
                    }
                }
                if self.st[s].poll_timeout().is_some_and(|t| t <= self.now) {
                    self.st[s].handle_timeout(self.now);
                }
            }
        }
    }
}

/// A small deterministic generator for loss patterns (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn assert_complete(h: &mut Harness, messages: [u64; 2], what: &str) {
    h.drain(0);
    h.drain(1);
    for (s, &n) in messages.iter().enumerate() {
        let want: Vec<u64> = (0..n).collect();
        assert_eq!(
            h.delivered[s], want,
            "{what}: delivery of station {s}'s messages"
        );
        assert_eq!(
            h.acked[s], want,
            "{what}: acknowledgement of station {s}'s messages"
        );
        assert_eq!(h.st[s].unacknowledged(), 0, "{what}");
        let c = h.st[s].counters();
        assert_eq!(
            c.i_frames_retransmitted,
            c.retransmitted_reject + c.retransmitted_checkpoint + c.retransmitted_timeout
        );
        assert_eq!(
            c.i_frames_sent,
            n + c.i_frames_retransmitted,
            "{what}: each message sent once new"
        );
        assert_eq!(c.frames_sent, c.i_frames_sent + c.s_frames_sent);
        assert_eq!(
            h.st[s].invalid_nr_received(),
            0,
            "{what}: a correct peer never sends an invalid N(R)"
        );
    }
}

#[test]
fn test_error_free_saturated_two_way_all_modes_deliver_everything() {
    for mode in [Mode::Nrm, Mode::Abm, Mode::Arm] {
        for modulus in [8, 128] {
            let c = cfg(mode, modulus);
            let mut h = Harness::new(&c, 0.05, [300, 300], 800);
            h.run(SimTime::from_secs_f64(60.0), &mut |_, _| false);
            assert_complete(&mut h, [300, 300], &format!("{mode:?} mod {modulus}"));
            for s in 0..2 {
                assert_eq!(
                    h.st[s].counters().i_frames_retransmitted,
                    0,
                    "{mode:?}: no spurious retransmission"
                );
            }
        }
    }
}

/// Two deliberate losses in the NRM secondary→primary direction with modulus 128: the
/// REJ recovery fails (the retransmission is lost too), and the error is recovered only
/// when the secondary has 127 frames outstanding, sets F and is polled (Section 3.1.2).
#[test]
fn test_nrm_mod128_failed_rej_recovery_waits_for_window_full() {
    let c = cfg(Mode::Nrm, 128);
    let mut h = Harness::new(&c, 0.05, [0, 400], 3000);
    let mut i_frames_b = 0;
    h.run(SimTime::from_secs_f64(600.0), &mut |dir, _| {
        if dir == 1 {
            i_frames_b += 1;
            // Lose B's 20th frame, then the first frame after the REJ comes back.
            return i_frames_b == 20 || i_frames_b == 24;
        }
        false
    });
    assert_complete(&mut h, [0, 400], "nrm mod 128");
    let c = h.st[1].counters();
    assert_eq!(
        c.retransmitted_checkpoint, 127,
        "everything outstanding went again after the P"
    );
    assert_eq!(
        h.st[0].counters().rejects_sent,
        1,
        "REJ recovery is not repeated"
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    pub(super) fn config(
        mode: u8,
        modulus: bool,
        reject: u8,
        window: u32,
        alt: u8,
        t1_s: f64,
        buffer: u32,
    ) -> HdlcConfig {
        let mode = [Mode::Nrm, Mode::Abm, Mode::Arm][mode as usize % 3];
        let modulus = if modulus { 128 } else { 8 };
        let mut c = HdlcConfig::defaults(mode, modulus);
        c.reject = [Reject::Rej, Reject::Srej, Reject::None][reject as usize % 3];
        let limit = if c.reject == Reject::Srej {
            modulus / 2
        } else {
            modulus - 1
        };
        c.window = 1 + window % limit;
        c.t1_s = t1_s;
        if c.reject == Reject::Srej {
            c.receive_buffer_frames = buffer % (c.window + 1);
        }
        // Alternative strategies, one bit each.
        if alt & 1 != 0 {
            c.t1_action = T1Action::GoBack;
        }
        if alt & 2 != 0 {
            c.poll = if mode == Mode::Nrm {
                Poll::Idle
            } else {
                Poll::Asap
            };
        }
        if alt & 4 != 0 {
            c.withhold_ack_at_window = c.withhold_ack_at_window.map(|_| false);
            c.secondary_t1_action = c.secondary_t1_action.map(|_| SecondaryT1Action::GoBack);
        }
        if alt & 8 != 0 {
            c.t2_s = t1_s / 4.0;
        }
        if c.reject == Reject::None && mode == Mode::Arm {
            c.secondary_t1_action = Some(SecondaryT1Action::GoBack);
        }
        c
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

        /// Random frame errors (independent, or in bursts) for a while, then none:
        /// every message is delivered exactly once and in order, and acknowledged,
        /// within a bounded time after the errors stop (no deadlock).
        #[test]
        fn prop_exactly_once_in_order_no_deadlock(
            mode in 0u8..3, modulus in any::<bool>(), reject in 0u8..3, window in 0u32..200,
            alt in 0u8..16, t1_s in 0.3f64..2.0, buffer in 0u32..8,
            two_way in any::<bool>(), reverse in any::<bool>(), n in 1u64..80,
            p_loss in 0.0f64..0.5, burst in any::<bool>(), seed in any::<u64>(),
            delay_s in 0.0f64..0.3, bits in 100u32..3000,
        ) {
            let c = config(mode, modulus, reject, window, alt, t1_s, buffer);
            let messages = if two_way { [n, n / 2 + 1] } else if reverse { [0, n] } else { [n, 0] };
            exactly_once_in_order_no_deadlock(&c, messages, p_loss, burst, seed, delay_s, bits);
        }

        /// The same with the options of issue 14 on: NRM's poll on a supervisory
        /// command, ABM's and ARM's LAPB timer recovery.
        #[test]
        fn prop_exactly_once_with_supervisory_poll_and_lapb_timer_recovery(
            mode in 0u8..3, modulus in any::<bool>(), reject in 0u8..3, window in 0u32..200,
            alt in 0u8..16, t1_s in 0.3f64..2.0, buffer in 0u32..8,
            two_way in any::<bool>(), reverse in any::<bool>(), n in 1u64..80,
            p_loss in 0.0f64..0.5, burst in any::<bool>(), seed in any::<u64>(),
            delay_s in 0.0f64..0.3, bits in 100u32..3000,
        ) {
            let mut c = config(mode, modulus, reject, window, alt, t1_s, buffer);
            if c.mode == Mode::Nrm {
                c.poll = Poll::Supervisory;
            } else {
                c.timer_recovery = Some(TimerRecovery::Lapb);
            }
            let messages = if two_way { [n, n / 2 + 1] } else if reverse { [0, n] } else { [n, 0] };
            exactly_once_in_order_no_deadlock(&c, messages, p_loss, burst, seed, delay_s, bits);
        }
    }

    /// Random frame errors (independent, or in bursts) for 30 s, then none: every
    /// message is delivered exactly once and in order, and acknowledged, within a
    /// bounded time after the errors stop (no deadlock, and no recovery that costs a
    /// whole T1 per message).
    pub(super) fn exactly_once_in_order_no_deadlock(
        c: &HdlcConfig,
        messages: [u64; 2],
        p_loss: f64,
        burst: bool,
        seed: u64,
        delay_s: f64,
        bits: u32,
    ) {
        let mut h = Harness::new(c, delay_s, messages, bits);
        let errors_end = SimTime::from_secs_f64(30.0);
        let mut rng = Rng(seed);
        let mut bad = false;
        h.run(errors_end, &mut |_, _| {
            if burst {
                // Gilbert-like: lose everything while in the bad state.
                if rng.next() < if bad { 0.3 } else { p_loss / 5.0 } {
                    bad = !bad;
                }
                bad
            } else {
                rng.next() < p_loss
            }
        });
        // After the errors stop: at most a few timer periods plus every frame's
        // round trip, with margin.
        let t1_s = c.t1_s;
        let frame_s = (bits as f64 + 600.0) / LINE.rate_bps;
        let round = frame_s + 2.0 * delay_s + 0.01;
        let mut bound =
            10.0 * t1_s + (messages[0] + messages[1] + 2 * c.window as u64) as f64 * round * 2.0;
        if c.secondary_t1_action == Some(SecondaryT1Action::Oldest) {
            // A2's literal rule resends one frame per expiry: once the secondary has
            // nothing new to send (no later frame exposes the gap to a REJ), each
            // outstanding frame may cost a whole T1.
            bound += c.window as f64 * (t1_s + c.t2_s + round);
        }
        h.run(errors_end + Duration::from_secs_f64(bound), &mut |_, _| {
            false
        });
        assert_complete(&mut h, messages, &format!("{c:?}"));
    }
}

/// The shrunk case of `prop_exactly_once_in_order_no_deadlock` (also in
/// `tests.proptest-regressions`): ABM, modulus 8, window 1, T2 = T1/4, zero delay,
/// 53 messages one way, 42% frame loss for 30 s.
#[test]
fn test_abm_window_1_heavy_loss_recovers_without_a_t1_per_message() {
    let c = properties::config(1, false, 0, 7, 8, 1.9269359121265766, 0);
    properties::exactly_once_in_order_no_deadlock(
        &c,
        [53, 0],
        0.4158516916421947,
        false,
        1919049774868810017,
        0.0,
        100,
    );
}

#[test]
fn test_abm_repoll_keeps_checkpoint_mark_of_first_timeout_poll() {
    // A spurious timeout: the acknowledgement is merely late (behind a long peer frame).
    // T1 runs out again before the F response to the first poll arrives, so a second
    // P goes out while the first is outstanding (timer recovery, A1.2(2)). Frames 3..4
    // are sent in between. The F answering the first poll carries N(R) = 3: everything
    // sent before that poll arrived. Frames 3 and 4 are still in flight, not lost; the
    // checkpoint must refer to the poll that started the recovery (X.25 §2.4.5.9: the
    // mark x is V(S) at the first expiry), not to the re-poll, or they are resent for
    // nothing and the duplicates start a REJ cascade on an error-free channel.
    let mut a = abm_outstanding(3);
    let t1 = expire_t1_and_poll(&mut a);
    let fs = send(&mut a, t1, 2);
    assert_eq!(fs.iter().map(|f| f.ns).collect::<Vec<_>>(), vec![3, 4]);
    let t1b = a.poll_timeout().unwrap();
    a.handle_timeout(t1b);
    assert_eq!(
        brief(&a.poll_transmit(t1b, &LINE).unwrap()),
        (FrameKind::RR, 0, 0, true)
    );
    a.handle_receive(t1b + Duration(1), &s_frame(FrameKind::RR, 3, true, false));
    let f = a.poll_transmit(t1b + Duration(1), &LINE).unwrap();
    assert_eq!(
        f.ns, 5,
        "no go-back: frames 3 and 4 were sent after the poll answered"
    );
    assert_eq!(a.counters().i_frames_retransmitted, 0);
}

#[test]
fn test_nrm_primary_repoll_keeps_checkpoint_mark_of_first_poll() {
    // The same for the NRM primary (Annex B timer): a response longer than T1 makes the
    // primary poll again; the F ending the first response acknowledges all frames sent
    // before the first P and must not send back frames sent after it.
    let mut a = station(&cfg(Mode::Nrm, 8), Station::A, 10);
    let f0 = a.poll_transmit(SimTime::ZERO, &LINE).unwrap();
    assert_eq!(brief(&f0), (FrameKind::I, 0, 0, true));
    let fs = send(&mut a, SimTime::ZERO, 2);
    assert_eq!(
        fs.iter().map(|f| (f.ns, f.pf)).collect::<Vec<_>>(),
        vec![(1, false), (2, false)]
    );
    let t1 = a.poll_timeout().unwrap();
    a.handle_timeout(t1);
    assert_eq!(
        brief(&a.poll_transmit(t1, &LINE).unwrap()),
        (FrameKind::RR, 0, 0, true)
    );
    // F of the first response: N(R) = 1 acknowledges frame 0, the one sent with the first P.
    a.handle_receive(t1 + Duration(1), &s_frame(FrameKind::RR, 1, true, false));
    let f = a.poll_transmit(t1 + Duration(1), &LINE).unwrap();
    assert_eq!(
        f.ns, 3,
        "frames 1 and 2 were sent after the first P: no go-back"
    );
    assert_eq!(a.counters().i_frames_retransmitted, 0);
}

/// Shrunk case of `prop_exactly_once_with_supervisory_poll_and_lapb_timer_recovery`:
/// T1 expired just before the RR acknowledging the last outstanding frame arrived, and
/// the poll was lost. The timer then stopped (nothing outstanding) while timer recovery
/// still barred new I frames: a deadlock, until T1 was kept running in timer recovery.
#[test]
fn test_abm_lapb_timer_recovery_keeps_t1_running_after_everything_is_acknowledged() {
    let mut c = properties::config(1, false, 1, 0, 0, 0.3, 0);
    c.timer_recovery = Some(TimerRecovery::Lapb);
    properties::exactly_once_in_order_no_deadlock(
        &c,
        [24, 0],
        0.4955701606906543,
        false,
        0,
        0.07454223357693177,
        100,
    );
}

/// Checkpointing against REJ recovery at the P mark (uses the helpers above).
#[path = "checkpoint_tests.rs"]
mod checkpoint_tests;

#[path = "receive_tests.rs"]
mod receive_tests;

#[path = "station_tests.rs"]
mod station_tests;

#[path = "wants_tests.rs"]
mod wants_tests;
