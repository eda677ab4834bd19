//! Frame-in/frame-out tests of the textbook selective repeat (`selective_repeat.rs`).
use super::*;

const LINE: Grant = Grant::line(48_000.0);

fn entity() -> SelectiveRepeat {
    entity_nak(false)
}
fn entity_nak(nak_corrupted: bool) -> SelectiveRepeat {
    let cfg = TextbookConfig {
        window: 4,
        modulus: 8,
        overhead_bits: 48,
        ack_bits: 48,
        timeout_s: 1.0,
        reject: true,
        nak_corrupted,
    };
    SelectiveRepeat::new(&cfg)
}
fn replies(e: &mut SelectiveRepeat, now: SimTime) -> Vec<(FrameKind, u32, u32)> {
    std::iter::from_fn(|| e.poll_transmit(now, &LINE)).map(|f| (f.kind, f.ns, f.nr)).collect()
}
fn msg(id: u64) -> Sdu {
    Sdu { id, bits: 1000, flow: 0, born: SimTime::ZERO }
}

#[test]
fn test_outstanding_srej_retransmits_only_that_frame() {
    let mut s = entity();
    for i in 0..6 {
        s.handle_submit(SimTime::ZERO, msg(i));
    }
    for k in 0..4 {
        assert_eq!(s.poll_transmit(SimTime::ZERO, &LINE).unwrap().ns, k);
    }
    assert!(s.poll_transmit(SimTime::ZERO, &LINE).is_none(), "window of 4");
    assert_eq!((s.backlog(), s.unacknowledged()), (2, 6), "2 never sent; 6 not yet acknowledged");
    // Frame 1 arrived (individual ack, N(S) = 1), frame 0 did not (cumulative N(R) = 0).
    let mut rr1 = Frame::supervisory(FrameKind::RR, 0, false, 48);
    rr1.ns = 1;
    s.handle_receive(SimTime(1), &rr1);
    s.handle_receive(SimTime(1), &Frame::supervisory(FrameKind::SREJ, 0, false, 48));
    let f = s.poll_transmit(SimTime(1), &LINE).unwrap();
    assert_eq!((f.ns, f.msg.unwrap().id), (0, 0));
    assert!(s.poll_transmit(SimTime(1), &LINE).is_none(), "frame 0 still holds the window");
    assert!(!s.wants_transmit(), "the copy is sent: nothing pending");
    let mut rr0 = Frame::supervisory(FrameKind::RR, 2, false, 48);
    rr0.ns = 0;
    s.handle_receive(SimTime(2), &rr0);
    let acked: Vec<u64> = std::iter::from_fn(|| s.poll_event())
        .filter_map(|e| if let Event::Acknowledged(m) = e { Some(m.id) } else { None })
        .collect();
    assert_eq!(acked, vec![0, 1]);
    assert_eq!(s.poll_transmit(SimTime(2), &LINE).unwrap().ns, 4);
    assert_eq!(s.poll_transmit(SimTime(2), &LINE).unwrap().ns, 5);
    assert_eq!(s.counters().retransmitted_reject, 1);
    let c = s.counters();
    assert_eq!((c.frames_sent, c.i_frames_sent, c.i_frames_retransmitted), (7, 7, 1), "4 + 1 copy + 2");
}

#[test]
fn test_receiver_buffers_out_of_order_and_delivers_in_order() {
    let mut r = entity();
    r.handle_receive(SimTime(1), &Frame::information(1, 0, false, msg(1), 48));
    r.handle_receive(SimTime(2), &Frame::information(2, 0, false, msg(2), 48));
    assert!(r.poll_event().is_none());
    assert_eq!(r.receive_buffer_bits(), 2000);
    let replies: Vec<(FrameKind, u32, u32)> =
        std::iter::from_fn(|| r.poll_transmit(SimTime(2), &LINE)).map(|f| (f.kind, f.ns, f.nr)).collect();
    // (kind, N(S) acknowledged, N(R)): SREJ for the gap, RRs for 1 and 2 with V(R) = 0.
    assert_eq!(replies, vec![(FrameKind::SREJ, 0, 0), (FrameKind::RR, 1, 0), (FrameKind::RR, 2, 0)]);
    r.handle_receive(SimTime(3), &Frame::information(0, 0, false, msg(0), 48));
    let delivered: Vec<u64> = std::iter::from_fn(|| r.poll_event())
        .filter_map(|e| if let Event::Delivered(m) = e { Some(m.id) } else { None })
        .collect();
    assert_eq!(delivered, vec![0, 1, 2]);
    assert_eq!(r.receive_buffer_bits(), 0);
}

#[test]
fn test_outstanding_cumulative_nr_covers_a_lost_rr() {
    let mut s = entity();
    for i in 0..3 {
        s.handle_submit(SimTime::ZERO, msg(i));
        s.poll_transmit(SimTime::ZERO, &LINE);
    }
    // The RR for frame 0 was lost; the RR for frame 1 says N(R) = 2.
    let mut rr = Frame::supervisory(FrameKind::RR, 2, false, 48);
    rr.ns = 1;
    s.handle_receive(SimTime(1), &rr);
    assert_eq!(s.unacknowledged(), 1);
}

#[test]
fn test_outstanding_timeout_retransmits_the_expired_frame() {
    let mut s = entity();
    s.handle_submit(SimTime::ZERO, msg(0));
    s.poll_transmit(SimTime::ZERO, &LINE);
    let d = s.poll_timeout().unwrap();
    s.handle_timeout(d);
    s.handle_timeout(d);
    assert_eq!(s.counters().timeouts, 1);
    assert_eq!(s.poll_transmit(d, &LINE).unwrap().ns, 0);
    assert_eq!(s.counters().retransmitted_timeout, 1);
}

#[test]
fn test_receiver_counts_duplicates_and_holds_only_undelivered_bits() {
    let mut r = entity();
    r.handle_receive(SimTime(1), &Frame::information(1, 0, false, msg(1), 48));
    r.handle_receive(SimTime(2), &Frame::information(3, 0, false, msg(3), 48));
    assert_eq!(r.receive_buffer_bits(), 2000);
    r.handle_receive(SimTime(3), &Frame::information(1, 0, false, msg(1), 48)); // in the window, held
    r.handle_receive(SimTime(4), &Frame::information(0, 0, false, msg(0), 48)); // delivers 0, 1
    assert_eq!(r.receive_buffer_bits(), 1000, "frame 3 still waits for 2");
    r.handle_receive(SimTime(5), &Frame::information(1, 0, false, msg(1), 48)); // behind V(R) = 2
    // (kind, N(S), N(R)): one SREJ per missing frame, an RR for every frame received.
    let expected = vec![
        (FrameKind::SREJ, 0, 0),
        (FrameKind::RR, 1, 0),
        (FrameKind::SREJ, 0, 2),
        (FrameKind::RR, 3, 0),
        (FrameKind::RR, 1, 0),
        (FrameKind::RR, 0, 2),
        (FrameKind::RR, 1, 2),
    ];
    assert_eq!(replies(&mut r, SimTime(5)), expected);
    let c = r.counters();
    assert_eq!((c.duplicates_discarded, c.rejects_sent, c.frames_sent, c.s_frames_sent), (2, 2, 7, 7));
}

#[test]
fn test_receiver_nak_corrupted_srejs_each_corrupted_copy_of_a_missing_frame() {
    let mut r = entity_nak(true);
    r.handle_receive(SimTime(1), &Frame::information(1, 0, false, msg(1), 48));
    assert_eq!(replies(&mut r, SimTime(1)), vec![(FrameKind::SREJ, 0, 0), (FrameKind::RR, 1, 0)]);
    let corrupted = |ns| Frame::information(ns, 0, false, msg(u64::from(ns)), 48);
    r.handle_receive_in_error(SimTime(2), &corrupted(0));
    r.handle_receive_in_error(SimTime(3), &corrupted(0));
    assert_eq!(replies(&mut r, SimTime(3)), vec![(FrameKind::SREJ, 0, 0); 2], "every corrupted copy of frame 0");
    r.handle_receive_in_error(SimTime(4), &corrupted(1)); // already held
    r.handle_receive_in_error(SimTime(5), &corrupted(4)); // V(R) + W: outside the window
    r.handle_receive_in_error(SimTime(6), &Frame::supervisory(FrameKind::RR, 0, false, 48));
    assert!(replies(&mut r, SimTime(6)).is_empty());
    let c = r.counters();
    assert_eq!((c.frames_in_error_received, c.rejects_sent), (5, 3));
    // Without the textbook assumption a corrupted frame is discarded silently.
    let mut quiet = entity();
    quiet.handle_receive_in_error(SimTime(1), &corrupted(0));
    assert!(replies(&mut quiet, SimTime(1)).is_empty());
    assert_eq!(quiet.counters().frames_in_error_received, 1);
}

#[test]
fn test_outstanding_srej_for_an_acknowledged_frame_is_ignored() {
    let mut s = entity();
    for i in 0..4 {
        s.handle_submit(SimTime::ZERO, msg(i));
        s.poll_transmit(SimTime::ZERO, &LINE);
    }
    let mut rr1 = Frame::supervisory(FrameKind::RR, 0, false, 48);
    rr1.ns = 1;
    s.handle_receive(SimTime(1), &rr1);
    // A stale SREJ(1) (sent before frame 1 arrived) must not resend an acknowledged frame.
    s.handle_receive(SimTime(2), &Frame::supervisory(FrameKind::SREJ, 1, false, 48));
    assert!(!s.wants_transmit());
    assert!(s.poll_transmit(SimTime(2), &LINE).is_none());
    // SREJ(0), then frame 0's RR arrives before the copy was sent: nothing left to send.
    s.handle_receive(SimTime(3), &Frame::supervisory(FrameKind::SREJ, 0, false, 48));
    assert!(s.wants_transmit());
    let mut rr0 = Frame::supervisory(FrameKind::RR, 2, false, 48);
    rr0.ns = 0;
    s.handle_receive(SimTime(4), &rr0);
    assert!(!s.wants_transmit(), "the acknowledgement cancels the pending copy");
    assert!(s.poll_transmit(SimTime(4), &LINE).is_none());
    assert_eq!(s.counters().i_frames_retransmitted, 0);
}
