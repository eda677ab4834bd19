//! The receiving half alone, segment in / acknowledgement decision out, at the
//! boundaries of RFC 1122 §4.2.3.2 (delayed ACK, every second full segment), RFC 5681
//! §4.2 (an out-of-order segment or one filling a gap is acknowledged at once) and RFC
//! 9293 §3.10.7.4 (a segment is acceptable up to the receive window's right edge).

use super::receiver::{Arrival, Receiver};
use crate::engine::{Duration, SimTime};
use crate::protocol::Sdu;

const WINDOW: u64 = 1000;
/// 200 ms (picoseconds).
const DELAY: Duration = Duration(200_000_000_000);

fn t(ms: u64) -> SimTime {
    SimTime(ms * 1_000_000_000)
}

fn sdu(id: u64) -> Option<Sdu> {
    Some(Sdu { id, bits: 800, flow: 0, born: SimTime::ZERO })
}

/// Octets [seq, end) ending SDU `id` arrive at `ms`; the SDUs delivered by it.
fn seg(r: &mut Receiver, ms: u64, seq: u64, end: u64, id: u64) -> (Arrival, Vec<u64>) {
    seg_with(r, ms, seq, end, id, DELAY)
}

fn seg_with(r: &mut Receiver, ms: u64, seq: u64, end: u64, id: u64, delay: Duration) -> (Arrival, Vec<u64>) {
    let mut out = vec![];
    let a = r.on_segment(t(ms), seq, end, sdu(id), WINDOW, delay, &mut |s| out.push(s.id));
    (a, out)
}

/// RFC 1122 §4.2.3.2: one in-order segment is acknowledged after the delay, not at
/// once; the timer runs from the first segment owed and fires at its deadline, not
/// before; the next segment after the ACK is delayed again.
#[test]
fn test_rfc1122_4_2_3_2_one_segment_is_acknowledged_at_the_delay_deadline() {
    let mut r = Receiver::default();
    assert_eq!(seg(&mut r, 10, 0, 100, 0), (Arrival::InOrder, vec![0]));
    assert_eq!((r.ack_now, r.ack_due), (false, Some(t(210))));
    r.handle_timeout(t(209));
    assert_eq!((r.ack_now, r.ack_due), (false, Some(t(210))), "not before the deadline");
    r.handle_timeout(t(210));
    assert_eq!((r.ack_now, r.ack_due), (true, None), "at the deadline");
    r.ack_sent();
    assert_eq!(seg(&mut r, 300, 100, 200, 1), (Arrival::InOrder, vec![1]));
    assert_eq!((r.ack_now, r.ack_due), (false, Some(t(500))), "the count restarted at the ACK");
}

/// RFC 1122 §4.2.3.2: "an ACK should be generated for at least every second full-sized
/// segment": the second in-order segment since the last ACK is acknowledged at once.
#[test]
fn test_rfc1122_4_2_3_2_the_second_segment_is_acknowledged_at_once() {
    let mut r = Receiver::default();
    seg(&mut r, 0, 0, 100, 0);
    assert!(!r.ack_now);
    seg(&mut r, 50, 100, 200, 1);
    assert!(r.ack_now, "the second segment since the last ACK");
    assert_eq!(r.rcv_nxt, 200);
}

/// A delay of zero disables the delayed ACK: every in-order segment is acknowledged at
/// once, and no timer is set.
#[test]
fn test_rfc1122_4_2_3_2_no_delay_acknowledges_every_segment_at_once() {
    let mut r = Receiver::default();
    assert_eq!(seg_with(&mut r, 0, 0, 100, 0, Duration::ZERO).0, Arrival::InOrder);
    assert_eq!((r.ack_now, r.ack_due), (true, None));
}

/// RFC 5681 §4.2: a segment above RCV.NXT is held and acknowledged at once (a duplicate
/// ACK); the segment filling the gap is acknowledged at once too, and the held segments
/// it makes contiguous are delivered in order, each once; one beyond another gap stays.
#[test]
fn test_rfc5681_4_2_out_of_order_and_gap_filling_segments_are_acknowledged_at_once() {
    let mut r = Receiver::default();
    assert_eq!(seg(&mut r, 0, 200, 300, 2), (Arrival::OutOfOrder, vec![]));
    assert_eq!((r.ack_now, r.ack_due, r.held_octets()), (true, None, 100));
    // A second copy of the held segment is held once.
    seg(&mut r, 1, 200, 300, 2);
    assert_eq!(r.held_octets(), 100);
    seg(&mut r, 2, 100, 200, 1);
    seg(&mut r, 2, 400, 450, 4);
    assert_eq!(r.held_octets(), 250);
    r.ack_sent();
    // Filling the gap with one (first) segment: acknowledged at once, not delayed.
    assert_eq!(seg(&mut r, 3, 0, 100, 0), (Arrival::InOrder, vec![0, 1, 2]));
    assert_eq!((r.rcv_nxt, r.held_octets(), r.ack_now, r.ack_due), (300, 50, true, None));
}

/// A held segment that the in-order data has already covered (ending at or below the
/// new RCV.NXT, exactly at it included) is dropped without a second delivery; one that
/// extends past RCV.NXT moves it on.
#[test]
fn test_rfc9293_3_10_7_4_held_segments_covered_by_in_order_data_are_not_delivered_again() {
    let mut r = Receiver::default();
    seg(&mut r, 0, 100, 200, 7);
    seg(&mut r, 0, 150, 300, 8);
    // [0, 200) arrives as one segment (a retransmission that coalesced data).
    assert_eq!(seg(&mut r, 1, 0, 200, 1), (Arrival::InOrder, vec![1, 8]));
    assert_eq!((r.rcv_nxt, r.held_octets()), (300, 0));
}

/// RFC 9293 §3.10.7.4: a segment is acceptable if it ends within RCV.NXT + RCV.WND:
/// exactly at the right edge it is held, one octet beyond it is dropped (and an ACK
/// goes at once). RCV.NXT is 100 here: the edge moves with it.
#[test]
fn test_rfc9293_3_10_7_4_a_segment_ending_at_the_window_edge_is_held_one_beyond_is_not() {
    let mut r = Receiver::default();
    seg(&mut r, 0, 0, 100, 0);
    r.ack_sent();
    let edge = 100 + WINDOW;
    assert_eq!(seg(&mut r, 0, 600, edge, 1).0, Arrival::OutOfOrder);
    assert_eq!(r.held_octets(), edge - 600);
    r.ack_sent();
    assert_eq!(seg(&mut r, 0, edge, edge + 1, 2), (Arrival::OutOfWindow, vec![]));
    assert!(r.ack_now);
    assert_eq!(r.held_octets(), edge - 600, "not held");
}

/// A segment ending at or below RCV.NXT is a duplicate: acknowledged at once, nothing
/// delivered; one ending a single octet beyond RCV.NXT is in order.
#[test]
fn test_rfc9293_3_10_7_4_a_segment_ending_at_rcv_nxt_is_a_duplicate() {
    let mut r = Receiver::default();
    seg_with(&mut r, 0, 0, 100, 0, Duration::ZERO);
    r.ack_sent();
    assert_eq!(seg(&mut r, 1, 0, 100, 0), (Arrival::Duplicate, vec![]));
    assert!(r.ack_now);
    r.ack_sent();
    assert_eq!(seg(&mut r, 2, 50, 101, 1), (Arrival::InOrder, vec![1]));
    assert_eq!(r.rcv_nxt, 101);
}
