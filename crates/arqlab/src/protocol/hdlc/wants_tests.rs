//! `wants_transmit` and `wants_transmit_now` (the runner's and the X.25 access line's
//! question "may a frame go now?"), one reason at a time: each pending frame must be a
//! reason on its own, since a false answer schedules no transmission. Frame in, answer
//! out, then the frame the answer promised. A child of `tests` (its helpers).

use super::*;

/// ISO 4335 SREJ: a frame queued for a single retransmission by a received SREJ is a
/// reason to transmit on its own. With the window of 4 full and nothing else owed (no
/// acknowledgement, no P/F, no new frame), the station still wants the line, and the
/// frame named by the SREJ goes.
#[test]
fn test_iso4335_srej_single_retransmission_alone_wants_the_line() {
    let mut a = station(&srej_cfg(Mode::Abm, 0), Station::A, 4);
    assert_eq!(send(&mut a, SimTime::ZERO, 4).len(), 4);
    assert!(!a.wants_transmit() && !a.wants_transmit_now(), "window full, nothing owed");
    a.handle_receive(ms(100), &s_frame(FrameKind::SREJ, 1, false, false));
    assert!(a.wants_transmit() && a.wants_transmit_now(), "the SREJ'd frame is owed");
    let f = a.poll_transmit(ms(100), &LINE).unwrap();
    assert_eq!((f.kind, f.ns), (FrameKind::I, 1));
    assert!(!a.wants_transmit() && !a.wants_transmit_now(), "sent: nothing owed");
}

/// Appendix A2 (ARM): the secondary's T1 expiring with frames outstanding queues the
/// oldest for retransmission, and that alone makes it want the line (a secondary never
/// polls, so nothing else would).
#[test]
fn test_a2_arm_secondary_t1_retransmission_alone_wants_the_line() {
    let mut b = station(&cfg(Mode::Arm, 8), Station::B, 3);
    assert_eq!(send(&mut b, SimTime::ZERO, 3).len(), 3);
    assert!(!b.wants_transmit() && !b.wants_transmit_now(), "every frame out, nothing owed");
    let t1 = b.poll_timeout().unwrap();
    b.handle_timeout(t1);
    assert!(b.wants_transmit() && b.wants_transmit_now(), "the oldest frame is owed again");
    let f = b.poll_transmit(t1, &LINE).unwrap();
    assert_eq!((f.kind, f.ns), (FrameKind::I, 0));
    assert!(!b.wants_transmit(), "resent once");
}
