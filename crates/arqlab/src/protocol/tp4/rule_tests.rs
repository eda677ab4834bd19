//! ISO 8073 class 4 rules frame in, frame out, each at its boundary: the credit (the
//! upper window edge YR-TU-NR + CDT, a credit limited by the receive buffer, the DT
//! expected next taken even at credit 0), AK validity, the send buffer's admission, the
//! retransmission timer against acknowledgements (cumulative and selective), the
//! selective AK's TPDU-NR, the window timer's restart, the maximum acknowledgement
//! delay at its deadline, and expedited data (EA matching, the ED timer at its
//! deadline, delivery in sequence). A child of `tests` (its helpers).

use super::*;

fn plain(f: impl FnOnce(&mut Tp4Config)) -> Tp4Config {
    cfg(|c| {
        c.dt_size_includes_header = false; // 1024 user octets per DT
        f(c);
    })
}

fn nrs(ts: &[Tpdu]) -> Vec<u64> {
    ts.iter().map(|t| t.nr).collect()
}

fn dt(nr: u64, user_octets: u32, eot: bool, tsdu: Sdu) -> Tpdu {
    Tpdu { kind: TpduKind::Dt, nr, eot, credit: 0, sack: None, octets: user_octets + 10, user_octets, tsdu: Some(tsdu), epoch: 0 }
}

fn ps_before(t: SimTime) -> SimTime {
    SimTime(t.0 - 1)
}

/// §12.2.3.8 (AK): the peer may send YR-TU-NR … YR-TU-NR + CDT − 1. An AK(1, CDT 2)
/// opens DTs 1 and 2, not 3.
#[test]
fn test_iso8073_credit_opens_yr_tu_nr_up_to_yr_tu_nr_plus_cdt_minus_one() {
    let mut a = Tp4::new(&plain(|_| {}));
    a.handle_submit(SimTime::ZERO, tsdu(0, 20 * 1024));
    assert_eq!(drain(&mut a, SimTime::ZERO).len(), 12, "the initial credit: a full window");
    a.handle_receive(at(0.5), &ak(1, 12, None));
    assert_eq!(nrs(&drain(&mut a, at(0.5))), vec![12]);
    a.handle_receive(at(0.6), &ak(11, 2, None));
    assert!(drain(&mut a, at(0.6)).is_empty(), "YR-TU-NR + CDT = 13: DT 13 may not go");
    a.handle_receive(at(0.7), &ak(12, 2, None));
    assert_eq!(nrs(&drain(&mut a, at(0.7))), vec![13]);
}

/// An AK whose YR-TU-NR is beyond every DT sent acknowledges nothing and changes no
/// credit; YR-TU-NR equal to the next DT never sent acknowledges them all.
#[test]
fn test_iso8073_ak_beyond_the_dts_sent_is_ignored_and_up_to_them_is_valid() {
    let mut a = Tp4::new(&plain(|_| {}));
    a.handle_submit(SimTime::ZERO, tsdu(0, 2048));
    a.handle_submit(SimTime::ZERO, tsdu(1, 20 * 1024));
    assert_eq!(drain(&mut a, SimTime::ZERO).len(), 12);
    a.handle_receive(at(0.5), &ak(13, 12, None));
    assert!(events(&mut a).is_empty(), "YR-TU-NR 13 > 12 DTs sent: not from this connection");
    assert!(drain(&mut a, at(0.5)).is_empty(), "and no credit taken from it");
    assert_eq!(a.send_buffer_octets(), 22 * 1024);
    a.handle_receive(at(0.6), &ak(12, 1, None));
    assert_eq!(a.send_buffer_octets(), 10 * 1024, "YR-TU-NR = 12 acknowledges DTs 0-11");
    assert_eq!(events(&mut a), vec![Event::Acknowledged(tsdu(0, 2048))]);
    assert_eq!(nrs(&drain(&mut a, at(0.6))), vec![12]);
}

/// The send buffer takes a TSDU while it fits, up to exactly its size; one octet more
/// waits. A TSDU larger than the whole buffer is taken when the buffer is empty (else the
/// user would wait forever).
#[test]
fn test_send_buffer_admits_up_to_its_size_exactly_and_an_oversized_tsdu_when_empty() {
    let mut a = Tp4::new(&plain(|c| c.send_buffer_octets = 4096));
    a.handle_submit(SimTime::ZERO, tsdu(0, 3000));
    a.handle_submit(SimTime::ZERO, tsdu(1, 1096));
    assert_eq!((a.backlog(), a.send_buffer_octets()), (0, 4096), "3000 + 1096 = 4096 fits exactly");
    a.handle_submit(SimTime::ZERO, tsdu(2, 1));
    assert_eq!(a.backlog(), 1, "one octet more waits");
    assert_eq!(a.unacknowledged(), 3, "two TSDUs in the buffer (five DTs) and one waiting");
    let mut b = Tp4::new(&plain(|c| c.send_buffer_octets = 4096));
    b.handle_submit(SimTime::ZERO, tsdu(0, 9000));
    assert_eq!((b.backlog(), b.send_buffer_octets()), (0, 9000), "an empty buffer takes any TSDU");
    b.handle_submit(SimTime::ZERO, tsdu(1, 1));
    assert_eq!((b.backlog(), b.unacknowledged()), (1, 2));
}

/// A DT whose retransmission timer has expired but which is acknowledged before it goes
/// again is not sent again: cumulatively (the AK covers it) or selectively (the AK names
/// it beyond a gap).
#[test]
fn test_iso8073_dt_acknowledged_after_its_timer_expired_is_not_retransmitted() {
    let sel = plain(|c| c.acknowledgement = Acknowledgement::Selective);
    for sack in [false, true] {
        let mut a = Tp4::new(&sel);
        a.handle_submit(SimTime::ZERO, tsdu(0, 3 * 1024));
        assert_eq!(drain(&mut a, SimTime::ZERO).len(), 3);
        a.handle_timeout(at(3.0));
        assert_eq!(a.counters().timeouts, 3, "all three timers expired");
        let k = if sack { ak(0, 12, Some(2)) } else { ak(3, 12, None) };
        a.handle_receive(at(3.0), &k);
        let again = nrs(&drain(&mut a, at(3.0)));
        if sack {
            assert_eq!(again, vec![0, 1], "DT 2 is selectively acknowledged: not resent");
        } else {
            assert!(again.is_empty() && !a.wants_transmit(), "everything acknowledged: nothing resent");
        }
    }
}

/// A selective AK frees only a DT sent and not yet acknowledged, once: one naming a DT
/// never sent is ignored, and the same one twice frees it once.
#[test]
fn test_iso8073_selective_ak_names_only_a_dt_sent_and_frees_it_once() {
    let mut a = Tp4::new(&plain(|c| {
        c.acknowledgement = Acknowledgement::Selective;
        c.window_octets = 3 * 1024;
    }));
    a.handle_submit(SimTime::ZERO, tsdu(0, 5 * 1024));
    assert_eq!(drain(&mut a, SimTime::ZERO).len(), 3);
    a.handle_receive(at(0.5), &ak(0, 3, Some(3)));
    assert_eq!(a.send_buffer_octets(), 5 * 1024, "DT 3 was never sent");
    a.handle_receive(at(0.5), &ak(0, 3, Some(2)));
    assert_eq!(a.send_buffer_octets(), 4 * 1024, "DT 2, the last one sent");
    a.handle_receive(at(0.6), &ak(0, 3, Some(2)));
    assert_eq!(a.send_buffer_octets(), 4 * 1024, "named again: freed once");
    a.handle_receive(at(0.7), &ak(3, 3, None));
    assert_eq!(a.send_buffer_octets(), 2 * 1024);
}

/// The credit offered is the window less what the receive buffer cannot hold beyond the
/// incomplete TSDU in it: ⌊(buffer − partial TSDU) / DT size⌋, at most the window.
#[test]
fn test_iso8073_credit_is_limited_by_the_receive_buffer() {
    let mut b = Tp4::new(&plain(|c| c.receive_buffer_octets = 4 * 1024 + 1000));
    let t = tsdu(0, 3 * 1024);
    b.handle_receive(at(0.1), &dt(0, 1024, false, t));
    b.handle_receive(at(0.2), &dt(1, 1024, false, t));
    let aks = drain(&mut b, at(0.2));
    assert_eq!(aks.iter().map(|a| (a.nr, a.credit)).collect::<Vec<_>>(), vec![(2, 2), (2, 2)], "(5096 − 2048) / 1024 = 2");
    let mut w = Tp4::new(&plain(|c| c.window_octets = 2 * 1024));
    w.handle_receive(at(0.1), &dt(0, 1024, true, tsdu(0, 1024)));
    assert_eq!(drain(&mut w, at(0.1))[0].credit, 2, "the window bounds a large buffer's credit");
}

/// The DT expected next is taken even when the credit is 0 (the receive buffer full of
/// the incomplete TSDU): it is inside every credit offered. A DT beyond a gap is held
/// while the buffer has room for it, up to exactly the buffer's size, and discarded one
/// octet beyond.
#[test]
fn test_iso8073_dt_expected_next_is_taken_at_credit_0_and_held_dts_fill_the_buffer_exactly() {
    let mut b = Tp4::new(&plain(|c| c.receive_buffer_octets = 2048));
    let t = tsdu(0, 3 * 1024);
    b.handle_receive(at(0.1), &dt(0, 1024, false, t));
    b.handle_receive(at(0.2), &dt(1, 1024, false, t));
    assert_eq!(drain(&mut b, at(0.2)).last().map(|a| (a.nr, a.credit)), Some((2, 0)), "buffer full: credit 0");
    b.handle_receive(at(0.3), &dt(2, 1024, true, t));
    assert!(matches!(events(&mut b)[..], [Event::Delivered(s)] if s.id == 0), "DT 2 taken at credit 0");
    assert_eq!(b.counters().out_of_sequence_discarded, 0);
    // DTs beyond a gap, larger than the DT size the credit counts in (a peer's larger DTs).
    let mut h = Tp4::new(&plain(|c| c.receive_buffer_octets = 4096));
    h.handle_receive(at(0.1), &dt(1, 3000, true, tsdu(1, 3000)));
    h.handle_receive(at(0.1), &dt(2, 1096, true, tsdu(2, 1096)));
    assert_eq!((h.counters().out_of_sequence_discarded, h.receive_buffer_bits()), (0, 4096 * 8), "held up to the buffer exactly");
    h.handle_receive(at(0.1), &dt(3, 1, true, tsdu(3, 1)));
    assert_eq!(h.counters().out_of_sequence_discarded, 1, "one octet beyond the buffer");
}

/// The DT expected next with the credit 0 is taken, but one beyond it is discarded even
/// with room in the buffer (CDT 0: nothing beyond YR-TU-NR).
#[test]
fn test_iso8073_credit_0_takes_nothing_beyond_yr_tu_nr() {
    let mut b = Tp4::new(&plain(|c| c.receive_buffer_octets = 1024 + 1000));
    let t = tsdu(0, 3 * 1024);
    b.handle_receive(at(0.1), &dt(0, 1024, false, t));
    assert_eq!(drain(&mut b, at(0.1))[0].credit, 0, "(2024 − 1024) / 1024 = 0");
    b.handle_receive(at(0.2), &dt(2, 500, true, t));
    assert_eq!((b.counters().out_of_sequence_discarded, b.tp4_counters().dt_held), (1, 0));
}

/// Selective acknowledgement: an AK names the DT beyond the gap only while it is still
/// beyond it (the gap filled before the AK left: plain AK); a duplicate of a held DT is
/// named again, a duplicate of one already in sequence is not.
#[test]
fn test_iso8073_selective_ak_names_a_dt_only_while_it_is_beyond_the_gap() {
    let sel = plain(|c| c.acknowledgement = Acknowledgement::Selective);
    let mut b = Tp4::new(&sel);
    let t = tsdu(0, 3 * 1024);
    b.handle_receive(at(0.1), &dt(0, 1024, false, t));
    b.handle_receive(at(0.1), &dt(2, 1024, true, t));
    b.handle_receive(at(0.1), &dt(1, 1024, false, t));
    let aks: Vec<_> = drain(&mut b, at(0.1)).iter().map(|a| (a.nr, a.sack, a.octets)).collect();
    assert_eq!(aks, vec![(3, None, 14); 3], "the gap filled before the AKs left");
    assert_eq!(b.tp4_counters().selective_ak_sent, 0);
    let mut d = Tp4::new(&sel);
    d.handle_receive(at(0.1), &dt(0, 1024, false, t));
    d.handle_receive(at(0.1), &dt(2, 1024, true, t));
    d.handle_receive(at(0.2), &dt(2, 1024, true, t));
    d.handle_receive(at(0.2), &dt(0, 1024, false, t));
    let aks: Vec<_> = drain(&mut d, at(0.2)).iter().map(|a| (a.nr, a.sack)).collect();
    assert_eq!(aks, vec![(1, None), (1, Some(2)), (1, Some(2)), (1, None)], "held DT 2 again named; DT 0 again not");
    assert_eq!((d.counters().duplicates_discarded, d.tp4_counters().selective_ak_sent, d.tp4_counters().ak_sent), (2, 2, 4));
}

/// The window timer: an AK repeated when none went for the window time, at its
/// deadline; it restarts when it expires (before the AK it causes leaves) and on every AK
/// sent; and it adds no AK when one is already owed.
#[test]
fn test_iso8073_window_timer_restarts_on_expiry_and_adds_no_ak_when_one_is_owed() {
    let mut b = Tp4::new(&plain(|_| {}));
    b.handle_receive(at(1.0), &dt(0, 100, true, tsdu(0, 100)));
    assert_eq!(drain(&mut b, at(1.0)).len(), 1);
    assert_eq!(b.poll_timeout(), Some(at(7.0)), "restarted by the AK sent at 1 s");
    b.handle_timeout(ps_before(at(7.0)));
    assert!(!b.wants_transmit() && b.counters().timeouts == 0, "not before its deadline");
    b.handle_timeout(at(7.0));
    assert_eq!(b.counters().timeouts, 1);
    assert_eq!(b.poll_timeout(), Some(at(13.0)), "restarted when it expired");
    assert_eq!(drain(&mut b, at(7.0)).iter().map(|a| (a.kind, a.nr)).collect::<Vec<_>>(), vec![(TpduKind::Ak, 1)]);
    // A DT arrives just as the timer runs out: its own AK is owed, so none is added.
    b.handle_receive(at(13.0), &dt(1, 100, true, tsdu(1, 100)));
    b.handle_timeout(at(13.0));
    assert_eq!(b.counters().timeouts, 1, "an AK is owed: the timer adds none");
    assert_eq!(drain(&mut b, at(13.0)).len(), 1);
}

/// The maximum acknowledgement delay: the AKs owed leave as one at the deadline, not a
/// picosecond before, and the deadline runs from the first DT owed.
#[test]
fn test_iso8073_max_ack_delay_sends_one_ak_at_its_deadline_from_the_first_dt() {
    let mut b = Tp4::new(&plain(|c| c.max_ack_delay_s = Some(0.5)));
    b.handle_receive(at(1.0), &dt(0, 100, true, tsdu(0, 100)));
    b.handle_receive(at(1.2), &dt(1, 100, true, tsdu(1, 100)));
    let due = at(1.0) + Duration::from_secs_f64(0.5);
    assert_eq!(b.poll_timeout(), Some(due));
    assert!(drain(&mut b, ps_before(due)).is_empty(), "one picosecond early");
    assert_eq!(drain(&mut b, due).iter().map(|a| (a.kind, a.nr)).collect::<Vec<_>>(), vec![(TpduKind::Ak, 2)]);
    assert_eq!(b.poll_timeout(), Some(due + Duration::from_secs_f64(6.0)), "only the window timer is left");
}

/// One ED outstanding: an EA counts only for the ED outstanding (its number); an EA for
/// another number is ignored and the ED's timer keeps running. The ED's timer expires at
/// its deadline, not before.
#[test]
fn test_iso8073_ea_must_match_the_outstanding_ed_and_the_ed_timer_fires_at_its_deadline() {
    let mut a = Tp4::new(&plain(|c| {
        c.expedited = Expedited::Iso;
        c.expedited_every = 1;
    }));
    a.handle_submit(SimTime::ZERO, tsdu(0, 100));
    let ed = drain(&mut a, SimTime::ZERO);
    assert_eq!(kinds(&ed), vec![(TpduKind::Ed, 1)]);
    let due = SimTime::ZERO + G.transmission(ed[0].octets * 8) + Duration::from_secs_f64(2.0);
    assert_eq!(a.poll_timeout(), Some(due));
    a.handle_receive(at(0.5), &Tpdu::control(TpduKind::Ea, 2, 12));
    assert_eq!(a.poll_timeout(), Some(due), "EA 2 is not ED 1's");
    assert!(drain(&mut a, at(0.5)).is_empty(), "ISO: no new DT while ED 1 is unacknowledged");
    a.handle_timeout(ps_before(due));
    assert!(drain(&mut a, ps_before(due)).is_empty() && a.counters().timeouts == 0);
    a.handle_timeout(due);
    assert_eq!(a.counters().timeouts, 1);
    assert_eq!(kinds(&drain(&mut a, due)), vec![(TpduKind::Ed, 1)], "resent with its own number");
    a.handle_receive(at(2.5), &Tpdu::control(TpduKind::Ea, 1, 12));
    let dts = drain(&mut a, at(2.5));
    assert_eq!(kinds(&dts), vec![(TpduKind::Dt, 0)]);
    assert_eq!(a.poll_timeout(), Some(at(2.5) + G.transmission(dts[0].octets * 8) + Duration::from_secs_f64(2.0)), "only the DT's timer");
}

/// EDs are delivered once, in ED-TPDU-NR order: an ED beyond the next expected is
/// neither delivered nor answered; a DT carrying data submitted after an ED not yet
/// delivered is an expedited-order violation, after it is not.
#[test]
fn test_iso8073_ed_delivered_in_sequence_and_data_after_an_ed_follows_it() {
    let mut b = Tp4::new(&plain(|_| {}));
    let ed = |nr| Tpdu { user_octets: 16, ..Tpdu::control(TpduKind::Ed, nr, 21) };
    b.handle_receive(at(0.1), &ed(2));
    assert!(drain(&mut b, at(0.1)).is_empty(), "ED 2 before ED 1: no EA");
    assert_eq!(b.tp4_counters().ed_delivered, 0);
    let late = Tpdu { epoch: 1, ..dt(0, 100, true, tsdu(0, 100)) };
    b.handle_receive(at(0.2), &late);
    assert_eq!(b.tp4_counters().expedited_order_violations, 1, "data after ED 1 delivered before it");
    b.handle_receive(at(0.3), &ed(1));
    assert_eq!(b.tp4_counters().ed_delivered, 1);
    let ok = Tpdu { epoch: 1, ..dt(1, 100, true, tsdu(1, 100)) };
    b.handle_receive(at(0.4), &ok);
    assert_eq!(b.tp4_counters().expedited_order_violations, 1, "after ED 1: in order");
    assert_eq!(b.tp4_counters().tsdu_integrity_violations, 0);
    let short = dt(2, 99, true, tsdu(2, 100));
    b.handle_receive(at(0.5), &short);
    assert_eq!(b.tp4_counters().tsdu_integrity_violations, 1, "99 octets of a 100-octet TSDU");
}

/// §13.8 (ED): an ED TPDU is its header (the extended fixed part, 8 octets, and the checksum
/// parameter, 4) plus its user data, at most 16 octets.
#[test]
fn test_iso8073_ed_tpdu_is_its_header_plus_its_user_data() {
    for (ed_data, octets) in [(16, 8 + 4 + 16), (1, 8 + 4 + 1)] {
        let mut a = Tp4::new(&plain(|c| {
            c.expedited = Expedited::Iso;
            c.expedited_every = 1;
            c.ed_data_octets = ed_data;
        }));
        a.handle_submit(SimTime::ZERO, tsdu(0, 100));
        let ed = drain(&mut a, SimTime::ZERO);
        assert_eq!(ed.iter().map(|t| (t.kind, t.octets, t.user_octets)).collect::<Vec<_>>(), vec![(TpduKind::Ed, octets, ed_data)]);
        assert_eq!(a.tp4_counters().ed_sent, 1);
    }
}

/// A TSDU's delay runs from the moment the send buffer accepts it (the T-DATA request
/// completes then): at its submission when it fits, at the AK that frees room when it
/// had to wait.
#[test]
fn test_send_buffer_tsdu_is_timed_from_its_admission() {
    let mut a = Tp4::new(&plain(|c| c.send_buffer_octets = 2048));
    a.handle_submit(at(0.2), tsdu(0, 2048));
    a.handle_submit(at(0.3), tsdu(1, 100));
    assert_eq!(a.backlog(), 1, "the buffer is full: TSDU 1 waits");
    assert_eq!(drain(&mut a, at(0.3)).len(), 2);
    a.handle_receive(at(1.0), &ak(2, 12, None));
    let acked = events(&mut a);
    assert!(matches!(acked[..], [Event::Acknowledged(s)] if s.id == 0 && s.born == at(0.2)), "accepted at once, at 0.2 s: {acked:?}");
    let dt = drain(&mut a, at(1.0));
    assert_eq!(dt.iter().map(|t| (t.nr, t.tsdu.map(|s| (s.id, s.born)))).collect::<Vec<_>>(), vec![(2, Some((1, at(1.0))))], "waited until the AK at 1 s");
}

/// Every DT transmission counts as an I-frame and a DT sent, a retransmission in both
/// and in the retransmission counters; every AK as an S-frame.
#[test]
fn test_tp4_counts_every_dt_and_ak_sent_with_retransmissions_apart() {
    let mut a = Tp4::new(&plain(|_| {}));
    a.handle_submit(SimTime::ZERO, tsdu(0, 2048));
    let dts = drain(&mut a, SimTime::ZERO);
    a.handle_timeout(at(3.0));
    assert_eq!(nrs(&drain(&mut a, at(3.0))), vec![0, 1]);
    let (c, x) = (a.counters(), a.tp4_counters());
    assert_eq!((c.i_frames_sent, x.dt_sent, c.i_frames_retransmitted, x.dt_retransmitted), (4, 4, 2, 2));
    let mut b = Tp4::new(&plain(|_| {}));
    for t in &dts {
        b.handle_receive(at(0.1), t);
    }
    assert_eq!(drain(&mut b, at(0.1)).len(), 2);
    assert_eq!((b.counters().s_frames_sent, b.tp4_counters().ak_sent, b.counters().i_frames_sent), (2, 2, 0));
}

/// The entity asks to transmit exactly when a TPDU may go: a new DT inside the credit, a
/// DT whose retransmission timer expired (whatever the credit), an ED ready (first copy
/// or resend); not a new DT beyond the upper window edge, nor one under ISO while an ED
/// is unacknowledged. The engine pulls only an entity that wants to (`drain` above pulls
/// regardless, so this is checked here).
#[test]
fn test_iso8073_wants_transmit_exactly_when_a_dt_or_ed_may_go() {
    let mut a = Tp4::new(&plain(|c| c.window_octets = 2 * 1024));
    assert!(!a.wants_transmit(), "nothing submitted");
    a.handle_submit(SimTime::ZERO, tsdu(0, 3 * 1024));
    assert!(a.wants_transmit(), "DT 0 inside the credit");
    assert_eq!(nrs(&drain(&mut a, SimTime::ZERO)), vec![0, 1]);
    assert!(!a.wants_transmit(), "DT 2 beyond YR-TU-NR + CDT − 1 = 1");
    a.handle_timeout(at(3.0));
    assert!(a.wants_transmit(), "DTs 0 and 1 to go again, beyond no credit");
    assert_eq!(nrs(&drain(&mut a, at(3.0))), vec![0, 1]);
    assert!(!a.wants_transmit(), "DT 2 still beyond the window");
    a.handle_receive(at(3.5), &ak(2, 2, None));
    assert!(a.wants_transmit(), "AK(2, CDT 2): DT 2 inside the credit");
    let mut e = Tp4::new(&plain(|c| {
        c.expedited = Expedited::Iso;
        c.expedited_every = 1;
    }));
    e.handle_submit(SimTime::ZERO, tsdu(0, 100));
    assert!(e.wants_transmit(), "ED 1 ready");
    assert_eq!(kinds(&drain(&mut e, SimTime::ZERO)), vec![(TpduKind::Ed, 1)]);
    assert!(!e.wants_transmit(), "ISO: DT 0 waits for ED 1's EA");
    e.handle_timeout(at(3.0));
    assert!(e.wants_transmit(), "ED 1's timer expired: to be sent again");
}

/// Every EA sent is counted, one per ED received in sequence or repeated (the repeat is
/// answered again, and delivered once).
#[test]
fn test_iso8073_ea_answers_every_copy_of_a_delivered_ed_and_is_counted() {
    let mut b = Tp4::new(&plain(|_| {}));
    let ed = |nr| Tpdu { user_octets: 16, ..Tpdu::control(TpduKind::Ed, nr, 28) };
    b.handle_receive(at(0.1), &ed(1));
    b.handle_receive(at(0.2), &ed(1));
    assert_eq!(kinds(&drain(&mut b, at(0.2))), vec![(TpduKind::Ea, 1), (TpduKind::Ea, 1)]);
    assert_eq!((b.tp4_counters().ea_sent, b.tp4_counters().ed_delivered), (2, 1));
}
