//! Rules of the HF ARQ at their boundaries, frame in / frame out: the receive ring
//! wrapping past 256, the selective-repeat window's upper edge, the rate adaptation's
//! outcomes (a lost response, an acknowledgement of our own that did not arrive).

use super::*;

/// Data packet `seq` carrying SDU `seq` (one segment of 8 bits), alone in its
/// transmission.
fn data(seq: u64) -> HfFrame<Sdu> {
    let seg = Segment { sdu: sdu(seq, 8), index: 0, count: 1 };
    HfFrame { seq, segment: Some(seg), first: true, last: true, bits: 8, info: 8, ..arq("5066").frame(HfKind::Data) }
}

fn receive(b: &mut HfArq, seqs: impl IntoIterator<Item = u64>) {
    for s in seqs {
        b.handle_receive(SimTime::ZERO, &data(s));
    }
}

/// STANAG 5066 selective repeat: the receive window is the lower edge and the 128
/// packets above it, whatever the sequence numbers; the ring of 256 slots holding it
/// wraps at 256. Packets 256 .. 379 take the slots 0 .. 123 that 0 .. 123 left, a
/// packet exactly at the window's upper edge (lower edge + 128) is held, one beyond it
/// is not, and a copy of an old packet sharing a held packet's slot is a duplicate.
#[test]
fn selective_repeat_receive_window_wraps_the_ring_past_256() {
    let mut b = arq("5066");
    receive(&mut b, 0..251);
    assert_eq!(events(&mut b).0, (0..251).collect::<Vec<_>>());
    assert_eq!(b.rx_base, 251);
    // 251 lost; 252 .. 379 (the lower edge + 1 .. + 128) arrive, 380 is beyond the window.
    receive(&mut b, 252..=380);
    assert!(events(&mut b).0.is_empty(), "nothing in order beyond the gap at 251");
    assert_eq!(b.receive_buffer_bits(), 128 * 8, "the 128 packets up to the upper edge held, 380 not");
    let ack = b.frame(HfKind::Ack);
    assert_eq!((ack.lwe, ack.bitmap), (251, u128::MAX), "lower edge 251, all 128 above it");
    // Packet 5 (slot 5, as 261's) and 261 again: duplicates, the held 261 kept.
    let dups = b.counters().duplicates_discarded;
    receive(&mut b, [5, 261]);
    assert_eq!(b.counters().duplicates_discarded, dups + 2);
    receive(&mut b, [251]);
    assert_eq!(events(&mut b).0, (251..380).collect::<Vec<_>>(), "251 .. 379 in order, each once");
    assert_eq!((b.rx_base, b.receive_buffer_bits()), (380, 0));
    let ack = b.frame(HfKind::Ack);
    assert_eq!((ack.lwe, ack.bitmap), (380, 0));
    // 380 was dropped, not held. Now 382 and 384 above a gap at 380 (bits 1 and 3);
    // 380 comes and the bitmap slides with the lower edge (bits 0 and 2 above 381).
    receive(&mut b, [382, 384]);
    assert_eq!(b.frame(HfKind::Ack).bitmap, 0b1010);
    receive(&mut b, [380]);
    assert_eq!(events(&mut b).0, vec![380]);
    let ack = b.frame(HfKind::Ack);
    assert_eq!((ack.lwe, ack.bitmap), (381, 0b101));
    receive(&mut b, 381..600);
    assert_eq!(events(&mut b).0, (381..600).collect::<Vec<_>>(), "beyond the next wrap too");
}

/// Stop-and-wait: the receive window is the lower edge alone; a packet above it is
/// dropped, not held (window 1).
#[test]
fn stop_and_wait_receive_window_is_the_lower_edge_alone() {
    let mut b = arq("5066-1s");
    receive(&mut b, [1]);
    assert_eq!((b.receive_buffer_bits(), b.frame(HfKind::Ack).bitmap), (0, 0), "packet 1 above the lower edge 0: dropped");
    receive(&mut b, [0, 1]);
    assert_eq!(events(&mut b).0, vec![0, 1]);
}

/// Johnson's staircase counts the losses of the *last* transmission by sequence number,
/// wherever the send window starts: after a first burst was acknowledged (the window
/// slid to 4), a second burst of four with three lost steps down, one with none lost
/// steps up.
#[test]
fn rate_adaptation_counts_the_losses_of_a_burst_sent_after_the_window_slid() {
    for (lost, want) in [(&[0usize, 1, 2][..], 11.0 - 2.0), (&[][..], 12.0)] {
        let mut c = HfArqConfig::of("5066");
        c.initial_snr_db = 10.0;
        c.max_packets = 4;
        let (mut a, mut b) = (HfArq::new(&c, Station::A), HfArq::new(&c, Station::B));
        for i in 0..8 {
            a.handle_submit(SimTime::ZERO, sdu(i, 1600));
        }
        let fs = burst(&mut a, SimTime::ZERO);
        assert_eq!(fs.iter().map(|f| f.seq).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        feed(&mut b, &fs, t(20.0), &[]);
        feed(&mut a, &burst(&mut b, t(21.0)), t(30.0), &[]);
        assert_eq!((a.base, a.snr_est), (4, 11.0), "all four acknowledged: one step up");
        let fs = burst(&mut a, t(31.0));
        assert_eq!(fs.iter().map(|f| f.seq).collect::<Vec<_>>(), vec![4, 5, 6, 7]);
        feed(&mut b, &fs, t(50.0), lost);
        let ack = burst(&mut b, t(51.0));
        feed(&mut a, &ack[..1], t(60.0), &[]);
        assert_eq!(a.snr_est, want, "lost {lost:?} of packets 4 .. 7");
    }
}

/// A packet that fails its CRC still shows a transmission arrived: a DATA or REQUEST
/// packet in error makes the receiver owe a response (the sender waits for one), an
/// ACK or RELEASE in error does not (neither asks for an answer).
#[test]
fn a_data_or_request_packet_in_error_is_owed_a_response_an_ack_or_release_is_not() {
    for (kind, owed) in [(HfKind::Data, true), (HfKind::Request, true), (HfKind::Ack, false), (HfKind::Release, false)] {
        let mut b = arq("5066-1s");
        let f = HfFrame { kind, ..data(0) };
        b.handle_receive_in_error(SimTime::ZERO, &f);
        assert_eq!(b.wants_transmit(), owed, "{kind:?} in error");
        assert_eq!(b.counters().frames_in_error_received, 1);
    }
}

/// Johnson: a transmission whose data packets were all ones the receiver already had
/// means its acknowledgement did not arrive: the receiver's estimate steps down 2 dB
/// (as for a lost response); a transmission with one new packet does not.
#[test]
fn rate_adaptation_steps_down_when_the_peer_resends_only_packets_already_received() {
    let mut c = HfArqConfig::of("5066");
    c.initial_snr_db = 10.0;
    let mut b = HfArq::<Sdu>::new(&c, Station::B);
    receive(&mut b, [0]);
    assert_eq!(b.snr_est, 10.0, "a new packet: no step");
    receive(&mut b, [0]);
    assert_eq!(b.snr_est, 8.0, "only a duplicate: one step down");
}
