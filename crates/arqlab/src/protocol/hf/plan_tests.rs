//! Planning a transmission, rule by rule at its boundaries, frame in / frame out: the
//! send window exactly full, `max_transmission_s` exactly reached, what each of the
//! eight variants sends first, which transmissions solicit a response, the simplex
//! direction handed over, and the counters of what was sent.

use super::*;

/// 5066 with 1672 + 128 = 1800-bit packets: 0.75 s each at 2400 bit/s, exact in binary.
fn exact(max_tx: f64, window: u32) -> HfArq {
    let mut c = HfArqConfig::of("5066");
    c.segment_bits = 1672;
    c.max_transmission_s = max_tx;
    c.window = window;
    let a = HfArq::new(&c, Station::A);
    assert_eq!(a.rate_bps(), 2400.0, "the rate the airtimes below assume");
    a
}

fn seqs<P>(fs: &[HfFrame<P>]) -> Vec<u64> {
    fs.iter().map(|f| f.seq).collect()
}

/// STANAG 5066 selective repeat: at most W packets outstanding. With W = 4 and six
/// SDUs queued, exactly four are segmented into the window and sent; the other two wait
/// in the queue until the acknowledgement slides the window.
#[test]
fn stanag_5066_send_window_exactly_full_takes_no_further_packet() {
    let (mut a, mut b) = (exact(120.0, 4), exact(120.0, 4));
    for i in 0..6 {
        a.handle_submit(SimTime::ZERO, sdu(i, 1672));
    }
    let fs = burst(&mut a, SimTime::ZERO);
    assert_eq!(seqs(&fs), vec![0, 1, 2, 3], "the window of 4, full");
    assert_eq!((a.backlog(), a.unacknowledged()), (2, 6), "two SDUs still queued, four in the window");
    feed(&mut b, &fs, t(10.0), &[]);
    feed(&mut a, &burst(&mut b, t(11.0)), t(12.0), &[]);
    assert_eq!(events(&mut a).1, vec![0, 1, 2, 3]);
    assert_eq!(seqs(&burst(&mut a, t(13.0))), vec![4, 5], "the window slid: the last two");
    assert_eq!((a.backlog(), a.unacknowledged()), (0, 2));
}

/// `max_transmission_s` bounds a transmission's data part: a packet that ends exactly
/// at the limit goes, one that would end beyond it waits; the first packet always goes
/// (a transmission carries at least one packet, however long).
#[test]
fn max_transmission_s_exactly_reached_admits_the_packet_beyond_it_does_not() {
    for (max_tx, want) in [(2.25, 3usize), (2.2499, 2), (0.75, 1), (0.5, 1), (120.0, 5)] {
        let mut a = exact(max_tx, 128);
        for i in 0..5 {
            a.handle_submit(SimTime::ZERO, sdu(i, 1672));
        }
        let fs = burst(&mut a, SimTime::ZERO);
        assert_eq!(fs.len(), want, "max_transmission_s = {max_tx}: 0.75 s per packet");
        assert!(fs.iter().all(|f| f.kind == HfKind::Data && f.bits == 1800 && f.info == 1672));
    }
}

/// `max_packets` bounds a selective-repeat transmission exactly: 3 of 5 ready go.
#[test]
fn max_packets_exactly_reached_ends_the_transmission() {
    let mut c = HfArqConfig::of("5066");
    c.max_packets = 3;
    let mut a = HfArq::<Sdu>::new(&c, Station::A);
    for i in 0..5 {
        a.handle_submit(SimTime::ZERO, sdu(i, 1600));
    }
    assert_eq!(a.saturation_depth(), 3, "enough SDUs to fill a transmission");
    assert_eq!(seqs(&burst(&mut a, SimTime::ZERO)), vec![0, 1, 2]);
}

/// Johnson's eight combinations, a station idle with two SDUs: duplex variants send
/// data at once (HDL-1d behind its control packet, the only one that has it); simplex
/// ones first ask for the data direction with a REQUEST (request flag set).
#[test]
fn each_variant_opens_with_data_or_a_request_and_only_hdl_1d_with_a_control_packet() {
    use HfKind::{Ack, Data, Request};
    for (variant, want) in [
        ("5066", vec![Data, Data]),
        ("5066-1s", vec![Request]),
        ("hdl", vec![Request]),
        ("hdl-1d", vec![Ack, Data]),
        ("all-three", vec![Data, Data]),
        ("sw-external-duplex", vec![Data]),
        ("sr-external-simplex", vec![Request]),
        ("sw-integrated-simplex", vec![Request]),
    ] {
        let mut a = arq(variant);
        a.handle_submit(SimTime::ZERO, sdu(0, 800));
        a.handle_submit(SimTime::ZERO, sdu(1, 800));
        assert!(a.wants_transmit(), "{variant}: idle with data");
        let fs = burst(&mut a, SimTime::ZERO);
        assert!(!a.wants_transmit(), "{variant}: waiting for the response");
        assert_eq!(kinds(&fs), want, "{variant}");
        assert_eq!(fs.iter().any(|f| f.request), want == [Request], "{variant}: only a REQUEST asks for the direction");
        assert!(a.poll_timeout().is_some(), "{variant}: data or a REQUEST solicits a response");
    }
}

/// HDL-1d: a transmission that already starts with its acknowledgement gets no second
/// control packet in front.
#[test]
fn hdl_1d_response_already_led_by_its_ack_gets_no_second_control_packet() {
    let (mut a, mut b) = (arq("hdl-1d"), arq("hdl-1d"));
    a.handle_submit(SimTime::ZERO, sdu(0, 800));
    feed(&mut b, &burst(&mut a, SimTime::ZERO), t(5.0), &[]);
    assert_eq!(kinds(&burst(&mut b, t(6.0))), vec![HfKind::Ack]);
    b.handle_submit(t(7.0), sdu(9, 800));
    a.handle_submit(t(7.0), sdu(1, 800));
    feed(&mut b, &burst(&mut a, t(7.0)), t(12.0), &[]);
    let r = burst(&mut b, t(13.0));
    assert_eq!(kinds(&r), vec![HfKind::Ack, HfKind::Data], "the acknowledgement, then B's data");
    assert_eq!(b.counters().s_frames_sent, 2, "one control packet per transmission");
}

/// Duplex: an acknowledgement never asks for a data direction, and one without data
/// solicits nothing — the receiver does not wait for an answer to it.
#[test]
fn duplex_ack_asks_for_no_direction_and_an_ack_alone_solicits_no_response() {
    let (mut a, mut b) = (arq("5066"), arq("5066"));
    a.handle_submit(SimTime::ZERO, sdu(0, 800));
    feed(&mut b, &burst(&mut a, SimTime::ZERO), t(5.0), &[]);
    let r = burst(&mut b, t(6.0));
    assert_eq!(kinds(&r), vec![HfKind::Ack]);
    assert!(!r[0].request);
    assert_eq!(b.poll_timeout(), None, "an acknowledgement alone: no wait");
    assert!(!b.wants_transmit(), "nothing owed, nothing to send");
    b.handle_submit(t(7.0), sdu(9, 800));
    a.handle_submit(t(7.0), sdu(1, 800));
    feed(&mut a, &r, t(8.0), &[]);
    feed(&mut b, &burst(&mut a, t(9.0)), t(14.0), &[]);
    let r = burst(&mut b, t(15.0));
    assert_eq!(kinds(&r), vec![HfKind::Ack, HfKind::Data]);
    assert!(!r[0].request, "duplex: B may send its data without the direction");
    assert!(b.poll_timeout().is_some(), "with data: B waits for the answer");
}

/// Simplex: a station that does not hold the data direction hands it to the peer that
/// asks, even with data of its own (it asks back later); the holder keeps it while it
/// has data to send, and releases it once it has none.
#[test]
fn simplex_station_without_the_direction_releases_it_to_the_asker_even_with_data() {
    for variant in ["5066-1s", "sr-external-simplex", "hdl"] {
        let (mut a, mut b) = (arq(variant), arq(variant));
        a.handle_submit(SimTime::ZERO, sdu(0, 800));
        b.handle_submit(SimTime::ZERO, sdu(9, 800));
        let req = burst(&mut a, SimTime::ZERO);
        assert_eq!(kinds(&req), vec![HfKind::Request], "{variant}");
        feed(&mut b, &req, t(5.0), &[]);
        let rel = burst(&mut b, t(6.0));
        assert_eq!(kinds(&rel), vec![HfKind::Release], "{variant}: B does not hold it: it releases");
        assert!(!b.holds_direction());
        feed(&mut a, &rel, t(10.0), &[]);
        assert!(a.holds_direction(), "{variant}");
        let d = burst(&mut a, t(11.0));
        assert_eq!(kinds(&d), vec![HfKind::Data], "{variant}");
        feed(&mut b, &d, t(20.0), &[]);
        let ack = burst(&mut b, t(21.0));
        assert_eq!(kinds(&ack), vec![HfKind::Ack], "{variant}: an acknowledgement, never with data");
        assert!(ack[0].request, "{variant}: ... asking for the direction for B's SDU");
        feed(&mut a, &ack, t(25.0), &[]);
        assert_eq!(kinds(&burst(&mut a, t(26.0))), vec![HfKind::Release], "{variant}: A has nothing left");
        assert!(!a.holds_direction());
    }
}

/// A lost response steps the estimate down (Johnson) only when the transmission it
/// answered carried data: an unanswered REQUEST says nothing about the data rate.
#[test]
fn response_timeout_steps_the_estimate_down_only_after_data() {
    for (variant, data) in [("5066", true), ("sr-external-simplex", false)] {
        let mut c = HfArqConfig::of(variant);
        c.initial_snr_db = 10.0;
        let mut a = HfArq::<Sdu>::new(&c, Station::A);
        a.handle_submit(SimTime::ZERO, sdu(0, 800));
        burst(&mut a, SimTime::ZERO);
        let d = a.poll_timeout().unwrap();
        a.handle_timeout(d);
        assert_eq!(a.counters().timeouts, 1);
        assert_eq!(a.snr_est, if data { 8.0 } else { 10.0 }, "{variant}");
        assert!(a.wants_transmit(), "{variant}: it may transmit again");
    }
}

/// The counters of what a station sent: every data packet (`i_frames_sent`), the new
/// ones apart (`hf_packets_new`), resends by cause, and every packet without data
/// (`s_frames_sent`); `frames_sent` counts every packet that left.
#[test]
fn counters_count_data_packets_new_and_resent_and_control_packets() {
    let (mut a, mut b) = (arq("5066"), arq("5066"));
    for i in 0..3 {
        a.handle_submit(SimTime::ZERO, sdu(i, 1600));
    }
    let fs = burst(&mut a, SimTime::ZERO);
    let measure = |a: &HfArq, name: &str| a.extra_measures().iter().find(|m| m.0 == name).map(|m| m.1);
    assert_eq!((a.counters().i_frames_sent, a.counters().s_frames_sent, a.counters().frames_sent), (3, 0, 3));
    assert_eq!(measure(&a, "hf_packets_new"), Some(3.0));
    feed(&mut b, &fs, t(10.0), &[1]);
    let ack = burst(&mut b, t(11.0));
    assert_eq!((b.counters().s_frames_sent, b.counters().i_frames_sent, b.counters().frames_sent), (1, 0, 1));
    feed(&mut a, &ack, t(12.0), &[]);
    a.handle_submit(t(12.0), sdu(3, 1600));
    let again = burst(&mut a, t(13.0));
    assert_eq!(seqs(&again), vec![1, 3]);
    let c = a.counters();
    assert_eq!((c.i_frames_sent, c.i_frames_retransmitted, c.retransmitted_timeout, c.frames_sent), (5, 1, 0, 5));
    assert_eq!(measure(&a, "hf_packets_sent"), Some(5.0));
    assert_eq!(measure(&a, "hf_packets_new"), Some(4.0), "packet 1's second copy is not new");
    assert_eq!(measure(&a, "hf_duplicates_filtered"), Some(0.0));
}

/// The layer's view of the station: SDUs waiting (`backlog`), SDUs not yet acknowledged
/// (a partly segmented one counted once, at the head of the queue), `progress` = packets
/// acknowledged + packets received in order, bits held out of order, in-order service.
#[test]
fn layer_measures_count_sdus_not_segments_and_progress_both_ways() {
    let mut c = HfArqConfig::of("5066");
    c.window = 2;
    let mut a = HfArq::<Sdu>::new(&c, Station::A);
    assert_eq!(a.service(), Service::InOrder);
    a.handle_submit(SimTime::ZERO, sdu(0, 1600 * 3));
    a.handle_submit(SimTime::ZERO, sdu(1, 800));
    assert_eq!((a.backlog(), a.unacknowledged()), (2, 2));
    assert_eq!(burst(&mut a, SimTime::ZERO).len(), 2, "two of SDU 0's three segments");
    assert_eq!((a.backlog(), a.unacknowledged()), (2, 2), "SDU 0 still at the head of the queue, counted once");

    let (mut a, mut b) = (arq("5066"), arq("5066"));
    for i in 0..4 {
        a.handle_submit(SimTime::ZERO, sdu(i, 1600));
    }
    b.handle_submit(SimTime::ZERO, sdu(7, 1600));
    feed(&mut b, &burst(&mut a, SimTime::ZERO), t(10.0), &[0]);
    assert_eq!((b.progress(), b.receive_buffer_bits()), (0, 3 * 1600), "0 lost: 1 .. 3 held");
    let r = burst(&mut b, t(11.0));
    assert_eq!(kinds(&r), vec![HfKind::Ack, HfKind::Data]);
    feed(&mut a, &r, t(20.0), &[]);
    assert_eq!(a.progress(), 1, "none of A's acknowledged in order (0 missing), B's packet 0 received");
    let again = burst(&mut a, t(21.0));
    assert_eq!(kinds(&again), vec![HfKind::Ack, HfKind::Data]);
    feed(&mut b, &again, t(30.0), &[]);
    assert_eq!((b.progress(), b.receive_buffer_bits()), (1 + 4, 0), "B's packet 0 acknowledged, A's 0 .. 3 received");
}

/// A station transmits when it owes a response, even while it waits for the answer to
/// its own transmission: on a duplex link both stations may key up at once, and B's
/// one-packet transmission, arriving during A's, is answered as soon as A's ends.
#[test]
fn a_station_owing_a_response_answers_even_while_its_own_wait_runs() {
    let (mut a, mut b) = (arq("5066"), arq("5066"));
    a.handle_submit(SimTime::ZERO, sdu(0, 1600));
    a.handle_submit(SimTime::ZERO, sdu(1, 1600));
    b.handle_submit(SimTime::ZERO, sdu(9, 1600));
    let a0 = a.poll_transmit(SimTime::ZERO, &G).unwrap();
    assert!(!a0.last);
    let fb = burst(&mut b, SimTime::ZERO);
    assert_eq!(kinds(&fb), vec![HfKind::Data]);
    feed(&mut a, &fb, t(0.5), &[]);
    let a1 = a.poll_transmit(t(1.32), &G).unwrap();
    assert!(a1.last);
    assert!(a.poll_timeout().is_some(), "A's wait for an answer runs");
    assert!(a.wants_transmit(), "... but A owes B a response");
    let r = burst(&mut a, t(2.5));
    assert_eq!((r[0].kind, r[0].lwe), (HfKind::Ack, 1), "A acknowledges B's packet 0 at once");
}

/// Johnson's duplicate filter compares with the SDUs queued and those *unacknowledged*
/// in the window: a packet acknowledged above a gap (still in the window, waiting for
/// the gap) no longer blocks a new copy; an unacknowledged one does.
#[test]
fn duplicate_filter_ignores_a_packet_acknowledged_above_a_gap() {
    let cfg = HfArqConfig::of("5066");
    let (mut a, mut b) = (HfArq::<Segmentish>::new(&cfg, Station::A), HfArq::<Segmentish>::new(&cfg, Station::B));
    a.handle_submit(SimTime::ZERO, Segmentish { id: 0, key: 1 });
    a.handle_submit(SimTime::ZERO, Segmentish { id: 1, key: 2 });
    let fs = burst(&mut a, SimTime::ZERO);
    feed(&mut b, &fs, t(3.0), &[0]);
    let ack = burst(&mut b, t(4.0));
    assert_eq!((ack[0].lwe, ack[0].bitmap), (0, 0b1));
    feed(&mut a, &ack, t(5.0), &[]);
    assert_eq!(a.unacknowledged(), 2, "packet 1 acknowledged, held in the window behind 0");
    a.handle_submit(t(5.0), Segmentish { id: 2, key: 2 });
    assert_eq!(a.backlog(), 1, "key 2 is acknowledged: a new copy is accepted");
    a.handle_submit(t(5.0), Segmentish { id: 3, key: 1 });
    assert_eq!(a.backlog(), 1, "key 1 is not: dropped");
}
