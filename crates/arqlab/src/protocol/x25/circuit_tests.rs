//! One virtual circuit frame in, frame out, one rule per test at its boundary: the
//! window (X.25 §4.4.1.1), P(R)'s validity (§4.4.1.2), P(S) within the receive window,
//! RFC 877's complete packet sequence (M bit, the datagram delivered at its last
//! packet), when a circuit is idle enough to clear or free for a datagram, the control
//! packets' due time and sizes, and the acknowledgement timer. A child of `tests` (its
//! helpers).

use super::*;

fn tm() -> Duration {
    Duration::from_secs_f64(5.0)
}

fn rr(pr: u32) -> Packet<Sdu> {
    Packet::control(PacketKind::Rr, 1, pr, 1, 0, 0)
}

fn data(ps: u32, m: bool, index: u32, number: u64) -> Packet<Sdu> {
    Packet { kind: PacketKind::Data, vc: 1, ps, pr: 0, m, src: 1, dst: 0, data_octets: 128, dgram: Some((number, sdu(number, 128))), index }
}

/// Sends `n` one-packet datagrams on `c` at time 0 (its window permitting).
fn send_singles(c: &mut Circuit<Sdu>, n: u32) -> Vec<Packet<Sdu>> {
    (0..n)
        .map(|k| {
            c.take(SimTime::ZERO, u64::from(k), sdu(u64::from(k), 100), 100);
            c.next_packet(SimTime::ZERO).expect("window open")
        })
        .collect()
}

/// §4.4.1.1: with W packets unacknowledged the window is exactly full and nothing more
/// goes; a P(R) acknowledging one opens exactly one slot.
#[test]
fn test_x25_4_4_1_1_window_exactly_full_stops_data_and_one_p_r_opens_one_slot() {
    let mut a = open_circuit(2);
    a.take(SimTime::ZERO, 0, sdu(0, 500), 500);
    let ps: Vec<u32> = (0..2).map(|_| a.next_packet(SimTime::ZERO).unwrap().ps).collect();
    assert_eq!((ps, a.outstanding()), (vec![0, 1], 2));
    assert!(!a.wants(SimTime::ZERO), "W = 2 unacknowledged: the window is full");
    assert!(a.next_packet(SimTime::ZERO).is_none());
    a.on_packet(t(1.0), rr(1), tm(), &mut |_, _| {});
    assert_eq!(a.outstanding(), 1);
    assert!(a.wants(t(1.0)), "one slot open");
    assert_eq!(a.next_packet(t(1.0)).map(|p| p.ps), Some(2));
    assert!(!a.wants(t(1.0)) && a.next_packet(t(1.0)).is_none(), "full again after one packet");
    assert_eq!(a.data_packets_sent, 3);
}

/// §4.4.1.2: a P(R) is valid from the last P(R) received up to and including V(S). One
/// equal to V(S) acknowledges everything; one beyond V(S), or behind the last P(R), is
/// a sequence error and changes nothing.
#[test]
fn test_x25_4_4_1_2_p_r_up_to_v_s_is_valid_beyond_or_behind_is_a_sequence_error() {
    let mut a = open_circuit(3);
    send_singles(&mut a, 2);
    assert_eq!(a.outstanding(), 2);
    a.on_packet(t(1.0), rr(3), tm(), &mut |_, _| {});
    assert_eq!((a.outstanding(), a.sequence_errors), (2, 1), "P(R) = V(S) + 1 is beyond V(S)");
    a.on_packet(t(1.0), rr(1), tm(), &mut |_, _| {});
    assert_eq!((a.outstanding(), a.sequence_errors), (1, 1), "P(R) = 1 acknowledges P(S) = 0");
    a.on_packet(t(1.0), rr(0), tm(), &mut |_, _| {});
    assert_eq!((a.outstanding(), a.sequence_errors), (1, 2), "P(R) behind the last P(R) received");
    a.on_packet(t(1.0), rr(2), tm(), &mut |_, _| {});
    assert_eq!((a.outstanding(), a.sequence_errors), (0, 2), "P(R) = V(S) acknowledges everything");
    a.on_packet(t(1.0), rr(2), tm(), &mut |_, _| {});
    assert_eq!((a.outstanding(), a.sequence_errors), (0, 2), "the same P(R) again is still valid");
}

/// P(S) is taken only inside the receive window: V(R) + W − 1 is held until the gap
/// fills, V(R) + W is outside the window (a sequence error, discarded), and a second copy
/// of a held packet is an error too.
#[test]
fn test_x25_4_4_1_1_p_s_outside_the_receive_window_is_a_sequence_error() {
    let mut b = open_circuit(2);
    let mut got = vec![];
    b.on_packet(t(1.0), data(2, false, 0, 2), tm(), &mut |n, _| got.push(n));
    assert_eq!(b.sequence_errors, 1, "P(S) = V(R) + W is outside the window");
    b.on_packet(t(1.0), data(1, false, 0, 1), tm(), &mut |n, _| got.push(n));
    assert_eq!(b.sequence_errors, 1, "P(S) = V(R) + W − 1 is held");
    b.on_packet(t(1.0), data(1, false, 0, 1), tm(), &mut |n, _| got.push(n));
    assert_eq!(b.sequence_errors, 2, "a second copy of a held packet");
    assert!(got.is_empty());
    b.on_packet(t(1.1), data(0, false, 0, 0), tm(), &mut |n, _| got.push(n));
    assert_eq!(got, vec![0, 1], "the gap filled: both, in P(S) order");
    assert_eq!(b.sequence_errors, 2);
    let ack = b.next_packet(t(1.1)).expect("two accepted of W = 2: P(R) at once");
    assert_eq!((ack.kind, ack.pr), (PacketKind::Rr, 2));
    assert_eq!(b.rr_sent, 1);
}

/// An RR carries P(R) only: it never enters the receive sequence, so a data packet with
/// P(S) = 0 is still the one expected next after it.
#[test]
fn test_x25_rr_packet_carries_p_r_only_and_is_not_received_as_data() {
    let mut b = open_circuit(2);
    let mut got = vec![];
    b.on_packet(t(1.0), rr(0), tm(), &mut |n, _| got.push(n));
    assert!(got.is_empty());
    assert_eq!(b.poll_timeout(t(1.0)), None, "nothing received: no acknowledgement timer");
    b.on_packet(t(1.1), data(0, false, 0, 4), tm(), &mut |n, _| got.push(n));
    assert_eq!((got, b.sequence_errors), (vec![4], 0));
}

/// RFC 877's complete packet sequence: a datagram's packets are numbered from index 0
/// and only the last (M = 0) delivers it; a sequence that does not start at index 0 is
/// counted as a sequence error. A sequence exactly two packets long ends with M = 0.
#[test]
fn test_rfc877_complete_packet_sequence_delivered_at_m_0_and_checked_by_index() {
    let mut a = open_circuit(7);
    a.take(SimTime::ZERO, 3, sdu(3, 256), 256);
    let p: Vec<_> = std::iter::from_fn(|| a.next_packet(SimTime::ZERO)).collect();
    let shape: Vec<_> = p.iter().map(|p| (p.ps, p.m, p.data_octets, p.index)).collect();
    assert_eq!(shape, vec![(0, true, 128, 0), (1, false, 128, 1)], "256 octets: two full packets, the last M = 0");
    assert!(a.free(), "the datagram is all sent: free for the next");
    let mut b = open_circuit(7);
    let mut got = vec![];
    let mut it = p.into_iter();
    b.on_packet(t(1.0), it.next().unwrap(), tm(), &mut |n, _| got.push(n));
    assert!(got.is_empty() && !b.idle(), "half a sequence received: nothing delivered, not idle");
    b.on_packet(t(1.0), it.next().unwrap(), tm(), &mut |n, _| got.push(n));
    assert_eq!((got.clone(), b.sequence_errors), (vec![3], 0));
    b.on_packet(t(2.0), data(2, false, 1, 9), tm(), &mut |n, _| got.push(n));
    assert_eq!(b.sequence_errors, 1, "a datagram's first packet must have index 0");
}

/// Idle (safe to clear, §6.2 never preempts a datagram): open, no datagram being sent,
/// nothing unacknowledged, no sequence half received. Free (can take a datagram): open
/// and no datagram being sent.
#[test]
fn test_circuit_is_idle_only_with_nothing_in_progress_in_either_direction() {
    let mut calling = open_circuit(2);
    calling.state = VcState::Calling;
    assert!(!calling.idle() && !calling.free(), "a call in progress");
    let mut a = open_circuit(2);
    assert!(a.idle() && a.free() && !a.sending());
    a.take(t(1.0), 0, sdu(0, 200), 200);
    assert!(!a.idle() && !a.free() && a.sending(), "a datagram taken");
    a.next_packet(t(1.0)).unwrap();
    assert!(!a.idle() && a.sending(), "part of it sent");
    a.next_packet(t(1.0)).unwrap();
    assert!(a.free() && !a.sending(), "all of it sent");
    assert!(!a.idle(), "but not acknowledged");
    a.on_packet(t(2.0), rr(2), tm(), &mut |_, _| {});
    assert!(a.idle());
    a.state = VcState::Clearing;
    assert!(!a.idle() && !a.free(), "clearing");
}

/// Control packets go at their due time exactly and not a picosecond before, whatever
/// the circuit's state; CALL REQUEST and CALL ACCEPTED carry 9 octets after the header,
/// CLEAR REQUEST 2, CLEAR CONFIRMATION none.
#[test]
fn test_x25_control_packets_go_at_their_due_time_with_their_sizes() {
    for (kind, extra) in [(PacketKind::CallRequest, 9), (PacketKind::CallAccepted, 9), (PacketKind::ClearRequest, 2), (PacketKind::ClearConfirmation, 0)] {
        let mut c = open_circuit(2);
        c.state = VcState::Calling;
        c.control = Some((kind, t(2.0)));
        let before = SimTime(t(2.0).0 - 1);
        assert!(!c.wants(before) && c.next_packet(before).is_none(), "{kind:?} one picosecond before it is due");
        assert_eq!(c.poll_timeout(before), Some(t(2.0)), "a wake-up when it falls due");
        assert!(c.wants(t(2.0)));
        assert_eq!(c.poll_timeout(t(2.0)), None, "due now: it goes on the next pull, no wake-up");
        let p = c.next_packet(t(2.0)).expect("due");
        assert_eq!((p.kind, p.data_octets, p.src, p.dst), (kind, extra, 0, 1));
        assert!(c.control.is_none() && c.next_packet(t(2.0)).is_none(), "sent once; a circuit not open sends no data");
    }
}

/// A circuit not open sends neither data nor RR, even with an RR owed.
#[test]
fn test_x25_clearing_circuit_sends_no_rr() {
    let mut b = open_circuit(2);
    b.on_packet(t(1.0), data(0, false, 0, 0), tm(), &mut |_, _| {});
    b.on_packet(t(1.0), data(1, false, 0, 1), tm(), &mut |_, _| {});
    assert!(b.wants(t(1.0)), "window full: an RR owed");
    b.state = VcState::Clearing;
    assert!(!b.wants(t(1.0)) && b.next_packet(t(1.0)).is_none());
}

/// The wake-up is the earlier of the acknowledgement timer and a control packet's due
/// time, either way round.
#[test]
fn test_x25_poll_timeout_is_the_earlier_of_ack_timer_and_control_due() {
    for (control_at, expected) in [(3.0, 3.0), (9.0, 6.0)] {
        let mut b = open_circuit(2);
        b.on_packet(t(1.0), data(0, false, 0, 0), tm(), &mut |_, _| {});
        b.control = Some((PacketKind::ClearRequest, t(control_at)));
        assert_eq!(b.poll_timeout(t(1.0)), Some(t(expected)));
    }
}

/// The acknowledgement timer (Comer & Korb §4's "extremely long time") fires at its
/// deadline and not before, and once: the RR it causes stops it, and P(R) piggybacked
/// on a data packet stops it too.
#[test]
fn test_x25_ack_timer_fires_at_its_deadline_once_and_a_piggybacked_p_r_stops_it() {
    let mut b = open_circuit(2);
    b.on_packet(t(1.0), data(0, false, 0, 0), tm(), &mut |_, _| {});
    assert!(!b.handle_timeout(SimTime(t(6.0).0 - 1)) && !b.wants(t(6.0)), "not yet");
    assert!(b.handle_timeout(t(6.0)), "at the deadline");
    assert_eq!(b.next_packet(t(6.0)).map(|p| (p.kind, p.pr)), Some((PacketKind::Rr, 1)));
    assert!(!b.handle_timeout(t(20.0)), "stopped by its RR");
    assert_eq!(b.poll_timeout(t(20.0)), None);
    b.on_packet(t(21.0), data(1, false, 0, 1), tm(), &mut |_, _| {});
    b.take(t(21.0), 5, sdu(5, 10), 10);
    let d = b.next_packet(t(21.0)).unwrap();
    assert_eq!((d.kind, d.pr), (PacketKind::Data, 2), "P(R) on the data packet");
    assert!(!b.handle_timeout(t(30.0)) && b.poll_timeout(t(30.0)).is_none(), "stopped by the piggybacked P(R)");
    assert_eq!((b.rr_sent, b.data_packets_sent), (1, 1));
}

/// RFC 877's complete packet sequence when the datagram is not a multiple of the packet
/// size: full packets (M = 1), then the remainder in the last (M = 0); the receiver
/// takes the sequence whole.
#[test]
fn test_rfc877_last_packet_of_a_sequence_carries_the_remainder() {
    let mut a = open_circuit(7);
    a.take(SimTime::ZERO, 4, sdu(4, 300), 300);
    let p: Vec<_> = std::iter::from_fn(|| a.next_packet(SimTime::ZERO)).collect();
    let shape: Vec<_> = p.iter().map(|p| (p.m, p.data_octets, p.index)).collect();
    assert_eq!(shape, vec![(true, 128, 0), (true, 128, 1), (false, 44, 2)], "300 = 128 + 128 + 44");
    let mut b = open_circuit(7);
    let mut got = vec![];
    for q in p {
        b.on_packet(t(1.0), q, tm(), &mut |n, _| got.push(n));
    }
    assert_eq!((got, b.sequence_errors), (vec![4], 0));
}
