//! Frame-in/frame-out tests of the TP4 entity, one rule each, driven at explicit times.

use super::config::table2;
use super::*;
use crate::engine::{Duration, SimTime};

const G: Grant = Grant::line(64_000.0);

fn at(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn tsdu(id: u64, octets: u32) -> Sdu {
    Sdu { id, bits: octets * 8, flow: 0, born: SimTime::ZERO }
}

/// Everything `e` sends now (until it has nothing more).
fn drain(e: &mut Tp4, now: SimTime) -> Vec<Tpdu> {
    std::iter::from_fn(|| e.poll_transmit(now, &G)).collect()
}

fn events(e: &mut Tp4) -> Vec<Event<Sdu>> {
    std::iter::from_fn(|| e.poll_event()).collect()
}

fn ak(nr: u64, credit: u32, sack: Option<u64>) -> Tpdu {
    let mut t = Tpdu::control(TpduKind::Ak, nr, 10);
    t.credit = credit;
    t.sack = sack;
    t
}

fn cfg(f: impl FnOnce(&mut Tp4Config)) -> Tp4Config {
    let mut c = table2();
    f(&mut c);
    c
}

#[test]
fn test_segmentation_puts_eot_on_the_last_dt_and_counts_headers() {
    let mut a = Tp4::new(&table2());
    a.handle_submit(SimTime::ZERO, tsdu(0, 10_240));
    let dts = drain(&mut a, SimTime::ZERO);
    // 1024-octet TPDUs with a 12-octet header carry 1012 octets: 10 full DTs + 120.
    assert_eq!(dts.len(), 11);
    assert!(dts[..10].iter().all(|t| t.kind == TpduKind::Dt && !t.eot && t.octets == 1024 && t.user_octets == 1012));
    assert_eq!((dts[10].eot, dts[10].user_octets, dts[10].octets), (true, 120, 132));
    assert_eq!(dts.iter().map(|t| t.nr).collect::<Vec<_>>(), (0..11).collect::<Vec<_>>());
    let plain = cfg(|c| c.dt_size_includes_header = false);
    let mut b = Tp4::new(&plain);
    b.handle_submit(SimTime::ZERO, tsdu(0, 10_240));
    assert_eq!(drain(&mut b, SimTime::ZERO).len(), 10, "1024 user octets per DT");
}

#[test]
fn test_credit_limits_new_dts_and_an_ak_opens_the_window() {
    let mut a = Tp4::new(&table2()); // 12K window of 1024-octet DTs: 12 DTs
    for i in 0..3 {
        a.handle_submit(SimTime::ZERO, tsdu(i, 10_240));
    }
    assert_eq!(drain(&mut a, SimTime::ZERO).len(), 12);
    assert!(!a.wants_transmit(), "window closed");
    a.handle_receive(at(0.5), &ak(3, 12, None));
    let more = drain(&mut a, at(0.5));
    assert_eq!(more.iter().map(|t| t.nr).collect::<Vec<_>>(), vec![12, 13, 14]);
    // A credit of zero stops the sender entirely.
    a.handle_receive(at(0.6), &ak(15, 0, None));
    assert!(drain(&mut a, at(0.6)).is_empty());
}

#[test]
fn test_full_send_buffer_blocks_the_user_until_data_is_acknowledged() {
    let mut a = Tp4::new(&cfg(|c| c.dt_size_includes_header = false));
    for i in 0..4 {
        a.handle_submit(SimTime::ZERO, tsdu(i, 10_240));
    }
    // 32K holds three 10240-octet TSDUs; the fourth waits outside.
    assert_eq!((a.backlog(), a.send_buffer_octets()), (1, 30_720));
    let _ = drain(&mut a, SimTime::ZERO);
    a.handle_receive(at(1.0), &ak(7, 12, None));
    assert_eq!(a.backlog(), 1, "7 DTs acknowledged free 7168 octets: not room for 10240");
    a.handle_receive(at(1.1), &ak(8, 12, None));
    assert_eq!((a.backlog(), a.send_buffer_octets()), (0, 32_768), "8 DTs free enough");
    assert!(events(&mut a).is_empty(), "TSDU 0 is not yet wholly acknowledged");
    a.handle_receive(at(1.2), &ak(10, 12, None));
    assert_eq!(events(&mut a), vec![Event::Acknowledged(tsdu(0, 10_240))]);
}

#[test]
fn test_retransmission_timer_resends_only_its_own_dt() {
    let c = cfg(|c| c.dt_size_includes_header = false);
    let mut a = Tp4::new(&c);
    a.handle_submit(SimTime::ZERO, tsdu(0, 2048));
    let t0 = SimTime::ZERO;
    let first = a.poll_transmit(t0, &G).unwrap();
    let t1 = t0 + G.transmission(first.octets * 8);
    let second = a.poll_transmit(t1, &G).unwrap();
    assert_eq!((first.nr, second.nr), (0, 1));
    a.handle_receive(at(0.6), &ak(1, 12, None));
    // DT 0's timer was stopped by the AK; DT 1's expires 2 s after its last bit.
    let due = t1 + G.transmission(second.octets * 8) + Duration::from_secs_f64(2.0);
    assert_eq!(a.poll_timeout(), Some(due.min(at(0.6) + Duration::from_secs_f64(6.0))));
    let early = SimTime(due.0 - 1_000_000_000);
    a.handle_timeout(early);
    assert!(drain(&mut a, early).is_empty(), "a stale wake-up does nothing");
    a.handle_timeout(due);
    let again = drain(&mut a, due);
    assert_eq!(again.iter().map(|t| (t.nr, t.eot)).collect::<Vec<_>>(), vec![(1, true)]);
    assert_eq!(a.counters().i_frames_retransmitted, 1);
    assert_eq!(a.tp4_counters().dt_retransmitted, 1);
}

#[test]
fn test_one_for_one_sends_an_ak_per_dt_and_delivers_whole_tsdus_in_order() {
    let c = cfg(|c| c.dt_size_includes_header = false);
    let (mut a, mut b) = (Tp4::new(&c), Tp4::new(&c));
    a.handle_submit(SimTime::ZERO, tsdu(0, 2048));
    a.handle_submit(SimTime::ZERO, tsdu(1, 1024));
    let dts = drain(&mut a, SimTime::ZERO);
    assert_eq!(dts.len(), 3);
    b.handle_receive(at(0.3), &dts[0]);
    assert!(events(&mut b).is_empty(), "half a TSDU is not delivered");
    assert_eq!(b.receive_buffer_bits(), 1024 * 8, "the incomplete TSDU is held");
    b.handle_receive(at(0.31), &dts[2]); // beyond a gap: held, not delivered
    b.handle_receive(at(0.32), &dts[2]); // a duplicate: still acknowledged
    b.handle_receive(at(0.33), &dts[1]);
    assert_eq!(events(&mut b).iter().map(|e| if let Event::Delivered(s) = e { s.id } else { 99 }).collect::<Vec<_>>(), vec![0, 1]);
    let aks = drain(&mut b, at(0.33));
    assert_eq!(aks.iter().map(|t| (t.kind, t.nr, t.sack)).collect::<Vec<_>>(), vec![(TpduKind::Ak, 3, None); 4], "one AK per DT, fields fixed when sent");
    assert_eq!(aks[0].octets, 14, "extended AK (10) + checksum (4)");
    assert_eq!(b.receive_buffer_bits(), 0);
}

#[test]
fn test_selective_ak_names_the_dt_beyond_the_gap_and_it_is_not_resent() {
    let c = cfg(|c| {
        c.dt_size_includes_header = false;
        c.acknowledgement = Acknowledgement::Selective;
    });
    let (mut a, mut b) = (Tp4::new(&c), Tp4::new(&c));
    a.handle_submit(SimTime::ZERO, tsdu(0, 3072));
    let dts = drain(&mut a, SimTime::ZERO);
    b.handle_receive(at(0.3), &dts[0]);
    b.handle_receive(at(0.31), &dts[2]); // DT 1 lost
    let aks = drain(&mut b, at(0.31));
    assert_eq!(aks.iter().map(|t| (t.nr, t.sack, t.octets)).collect::<Vec<_>>(), vec![(1, None, 14), (1, Some(2), 20)]);
    assert_eq!(b.receive_buffer_bits(), 2 * 1024 * 8, "DT 0 (TSDU incomplete) and DT 2 held");
    for t in &aks {
        a.handle_receive(at(0.6), t);
    }
    assert_eq!(a.send_buffer_octets(), 1024, "only DT 1 is still buffered");
    // Both remaining timers would expire by 3 s; only DT 1 is sent again.
    a.handle_timeout(at(3.0));
    assert_eq!(drain(&mut a, at(3.0)).iter().map(|t| t.nr).collect::<Vec<_>>(), vec![1]);
    // One-for-one would resend DT 2 as well.
    let c1 = cfg(|c| c.dt_size_includes_header = false);
    let mut o = Tp4::new(&c1);
    o.handle_submit(SimTime::ZERO, tsdu(0, 3072));
    let _ = drain(&mut o, SimTime::ZERO);
    o.handle_receive(at(0.6), &ak(1, 12, None));
    o.handle_timeout(at(3.0));
    assert_eq!(drain(&mut o, at(3.0)).iter().map(|t| t.nr).collect::<Vec<_>>(), vec![1, 2]);
}

#[test]
fn test_window_timer_repeats_an_ak_when_idle() {
    let c = table2();
    let (mut a, mut b) = (Tp4::new(&c), Tp4::new(&c));
    a.handle_submit(SimTime::ZERO, tsdu(0, 500));
    let dt = drain(&mut a, SimTime::ZERO).remove(0);
    b.handle_receive(at(0.3), &dt);
    assert_eq!(drain(&mut b, at(0.3)).len(), 1);
    assert_eq!(b.poll_timeout(), Some(at(6.3)));
    b.handle_timeout(at(6.3));
    let again = drain(&mut b, at(6.3));
    assert_eq!(again.iter().map(|t| (t.kind, t.nr)).collect::<Vec<_>>(), vec![(TpduKind::Ak, 1)]);
    assert_eq!(b.poll_timeout(), Some(at(12.3)));
}

#[test]
fn test_max_ack_delay_coalesces_the_aks_owed() {
    let c = cfg(|c| c.max_ack_delay_s = Some(0.1));
    let (mut a, mut b) = (Tp4::new(&c), Tp4::new(&c));
    a.handle_submit(SimTime::ZERO, tsdu(0, 3000));
    for t in drain(&mut a, SimTime::ZERO) {
        b.handle_receive(at(0.3), &t);
    }
    assert!(drain(&mut b, at(0.3)).is_empty(), "held up to the maximum delay");
    assert_eq!(b.poll_timeout(), Some(at(0.4)));
    b.handle_timeout(at(0.4));
    assert_eq!(drain(&mut b, at(0.4)).iter().map(|t| t.nr).collect::<Vec<_>>(), vec![3]);
}

/// Sender with an ED after every TSDU; two TSDUs of 2 DTs each.
fn expedited(d: Expedited) -> Tp4 {
    let c = cfg(|c| {
        c.dt_size_includes_header = false;
        c.expedited = d;
        c.expedited_every = 1;
    });
    let mut a = Tp4::new(&c);
    a.handle_submit(SimTime::ZERO, tsdu(0, 2048));
    a.handle_submit(SimTime::ZERO, tsdu(1, 2048));
    a
}

fn kinds(ts: &[Tpdu]) -> Vec<(TpduKind, u64)> {
    ts.iter().map(|t| (t.kind, t.nr)).collect()
}

#[test]
fn test_iso_expedited_goes_first_and_blocks_new_data_until_its_ea() {
    let mut a = expedited(Expedited::Iso);
    // ED 1 (after TSDU 0) goes to the front; then nothing new: ED 2 is queued too.
    assert_eq!(kinds(&drain(&mut a, SimTime::ZERO)), vec![(TpduKind::Ed, 1)]);
    a.handle_receive(at(0.6), &Tpdu::control(TpduKind::Ea, 1, 12));
    assert_eq!(kinds(&drain(&mut a, at(0.6))), vec![(TpduKind::Ed, 2)], "one ED outstanding at most");
    a.handle_receive(at(1.2), &Tpdu::control(TpduKind::Ea, 2, 12));
    assert_eq!(kinds(&drain(&mut a, at(1.2))), vec![(TpduKind::Dt, 0), (TpduKind::Dt, 1), (TpduKind::Dt, 2), (TpduKind::Dt, 3)]);
}

/// `Layer::progress` (the stall watch's progress inside a TSDU) moves on every DT
/// accepted in sequence, DT acknowledged, ED delivered and ED acknowledged, before any
/// whole TSDU does, and on nothing else (a DT beyond a gap, a duplicate).
#[test]
fn test_progress_moves_on_each_dt_in_sequence_ak_ed_and_ea_not_on_gaps_or_duplicates() {
    let mut a = expedited(Expedited::Iso);
    let mut b = expedited(Expedited::Iso);
    let step = |e: &mut Tp4, t: f64, tpdu: &Tpdu| {
        let before = e.progress();
        e.handle_receive(at(t), tpdu);
        e.progress() - before
    };
    assert_eq!((a.progress(), b.progress()), (0, 0));
    let ed1 = drain(&mut a, SimTime::ZERO)[0];
    assert_eq!((step(&mut b, 0.3, &ed1), step(&mut b, 0.31, &ed1)), (1, 0), "ED delivered, then its duplicate");
    let ea = |nr| Tpdu::control(TpduKind::Ea, nr, 12);
    assert_eq!((step(&mut a, 0.6, &ea(1)), step(&mut a, 0.61, &ea(1))), (1, 0), "ED acknowledged, then the EA again");
    let ed2 = drain(&mut a, at(0.6))[0];
    assert_eq!((step(&mut b, 0.9, &ed2), step(&mut a, 1.2, &ea(2))), (1, 1));
    let dts = drain(&mut a, at(1.2));
    assert_eq!(kinds(&dts), vec![(TpduKind::Dt, 0), (TpduKind::Dt, 1), (TpduKind::Dt, 2), (TpduKind::Dt, 3)]);
    let _ = events(&mut b);
    assert_eq!(step(&mut b, 1.5, &dts[0]), 1, "DT 0 in sequence");
    assert_eq!((step(&mut b, 1.51, &dts[2]), step(&mut b, 1.52, &dts[0])), (0, 0), "DT 2 beyond the gap, DT 0 again");
    assert!(events(&mut b).is_empty(), "no TSDU yet: only the DTs moved");
    assert_eq!(step(&mut b, 1.53, &dts[1]), 2, "DT 1 fills the gap: YR-TU-NR 1 -> 3");
    assert!(matches!(events(&mut b)[..], [Event::Delivered(t)] if t.id == 0));
    assert_eq!((step(&mut a, 1.8, &ak(1, 12, None)), step(&mut a, 1.81, &ak(1, 12, None))), (1, 0), "DT 0 acknowledged, then the AK again");
    assert!(events(&mut a).is_empty(), "TSDU 0 is not acknowledged whole yet");
}

#[test]
fn test_iso_allows_retransmissions_while_an_ed_is_outstanding() {
    let c = cfg(|c| {
        c.dt_size_includes_header = false;
        c.expedited = Expedited::Iso;
        c.expedited_every = 2;
    });
    let mut a = Tp4::new(&c);
    a.handle_submit(SimTime::ZERO, tsdu(0, 1024));
    assert_eq!(kinds(&drain(&mut a, SimTime::ZERO)), vec![(TpduKind::Dt, 0)]);
    a.handle_submit(at(0.5), tsdu(1, 1024)); // the user follows it with an ED
    assert_eq!(kinds(&drain(&mut a, at(0.5))), vec![(TpduKind::Ed, 1)]);
    a.handle_timeout(at(2.2));
    assert_eq!(kinds(&drain(&mut a, at(2.2))), vec![(TpduKind::Dt, 0)], "DT 0 again, DT 1 still held");
}

#[test]
fn test_nbs_sends_data_submitted_before_the_ed_while_awaiting_its_ea() {
    let mut a = expedited(Expedited::Nbs);
    // ED 1 first, then TSDU 0 (submitted before ED 1); TSDU 1 came after ED 1.
    assert_eq!(kinds(&drain(&mut a, SimTime::ZERO)), vec![(TpduKind::Ed, 1), (TpduKind::Dt, 0), (TpduKind::Dt, 1)]);
    a.handle_receive(at(0.6), &Tpdu::control(TpduKind::Ea, 1, 12));
    // ED 2 may go now, and TSDU 1 (before ED 2) with it.
    assert_eq!(kinds(&drain(&mut a, at(0.6))), vec![(TpduKind::Ed, 2), (TpduKind::Dt, 2), (TpduKind::Dt, 3)]);
}

#[test]
fn test_ed_is_resent_on_its_timer_and_delivered_once() {
    let mut a = expedited(Expedited::Iso);
    let mut b = Tp4::new(&table2());
    let ed = drain(&mut a, SimTime::ZERO).remove(0);
    b.handle_receive(at(0.3), &ed);
    let ea = drain(&mut b, at(0.3));
    assert_eq!(kinds(&ea), vec![(TpduKind::Ea, 1)]);
    // The EA is lost: the ED's timer expires and it goes again; B answers, delivers once.
    a.handle_timeout(at(2.1));
    let again = drain(&mut a, at(2.1));
    assert_eq!(kinds(&again), vec![(TpduKind::Ed, 1)]);
    b.handle_receive(at(2.4), &again[0]);
    assert_eq!(kinds(&drain(&mut b, at(2.4))), vec![(TpduKind::Ea, 1)]);
    assert_eq!((b.tp4_counters().ed_delivered, a.tp4_counters().ed_retransmitted), (1, 1));
}

#[test]
fn test_expedited_unit_dt_places_an_ed_after_every_k_dts() {
    let c = cfg(|c| {
        c.dt_size_includes_header = false;
        c.expedited = Expedited::Nbs;
        c.expedited_every = 3;
        c.expedited_unit = ExpeditedUnit::Dt;
    });
    let mut a = Tp4::new(&c);
    a.handle_submit(SimTime::ZERO, tsdu(0, 7 * 1024));
    // EDs after DTs 2 and 5: ED 1 goes first, then the three DTs submitted before it.
    assert_eq!(kinds(&drain(&mut a, SimTime::ZERO)), vec![(TpduKind::Ed, 1), (TpduKind::Dt, 0), (TpduKind::Dt, 1), (TpduKind::Dt, 2)]);
}

#[test]
fn test_send_memory_is_the_time_average_of_unacknowledged_user_octets() {
    // One 3072-octet TSDU (3 DTs of 1024 user octets) held from 0; an AK at 1 s frees
    // DT 0, an AK at 2 s the rest: ∫ = 3072·1 + 2048·1 over 2 s.
    let mut a = Tp4::new(&cfg(|c| c.dt_size_includes_header = false));
    assert_eq!(a.send_memory(), (0.0, 0.0), "nothing before any input");
    a.handle_submit(SimTime::ZERO, tsdu(0, 3072));
    let _ = drain(&mut a, SimTime::ZERO);
    a.handle_receive(at(1.0), &ak(1, 12, None));
    a.handle_receive(at(2.0), &ak(3, 12, None));
    assert_eq!(a.send_buffer_octets(), 0);
    assert_eq!(a.send_memory(), ((3072.0 + 2048.0) / 2.0, 3072.0));
    let m = a.extra_measures();
    assert_eq!(&m[m.len() - 2..], &[("send_buffer_octets_mean", 2560.0), ("send_buffer_octets_max", 3072.0)]);
    assert_eq!(m.iter().map(|p| p.0).collect::<Vec<_>>(), TRANSPORT_MEASURES, "names listed once, in order");
}

#[test]
fn test_send_memory_frees_a_selectively_acknowledged_dt_at_once() {
    // ISO 8073 selective AK (Colella): the DT beyond the gap leaves the send buffer
    // when its SACK arrives, one-for-one keeps it until the gap is filled.
    let sel = cfg(|c| {
        c.dt_size_includes_header = false;
        c.acknowledgement = Acknowledgement::Selective;
    });
    let one = cfg(|c| c.dt_size_includes_header = false);
    let mut means = Vec::new();
    for c in [&sel, &one] {
        let mut a = Tp4::new(c);
        a.handle_submit(SimTime::ZERO, tsdu(0, 3072));
        let _ = drain(&mut a, SimTime::ZERO);
        let sack = if c.acknowledgement == Acknowledgement::Selective { Some(2) } else { None };
        a.handle_receive(at(1.0), &ak(1, 12, sack)); // DT 1 lost
        a.handle_receive(at(2.0), &ak(3, 12, None));
        means.push(a.send_memory().0);
    }
    assert_eq!(means, vec![(3072.0 + 1024.0) / 2.0, (3072.0 + 2048.0) / 2.0]);
}

/// DTs beyond a gap are held only inside the credit (YR-TU-NR + credit − 1 is the last
/// one taken, the next is discarded), a duplicate of a held DT is discarded, and as each
/// gap fills the held DTs join the stream in sequence.
#[test]
fn test_dts_beyond_a_gap_are_held_up_to_the_credit_edge_and_delivered_in_sequence() {
    let c = cfg(|c| c.dt_size_includes_header = false); // window 12 DTs
    // A sender whose window is wider than the receiver's credit, to reach past its edge.
    let mut a = Tp4::new(&cfg(|c| {
        c.dt_size_includes_header = false;
        c.window_octets = 16 * 1024;
    }));
    let mut b = Tp4::new(&c);
    for i in 0..14 {
        a.handle_submit(SimTime::ZERO, tsdu(i, 1024));
    }
    let dts = drain(&mut a, SimTime::ZERO);
    assert_eq!(dts.len(), 14);
    let ids = |b: &mut Tp4| events(b).iter().map(|e| if let Event::Delivered(s) = e { s.id } else { 99 }).collect::<Vec<_>>();
    b.handle_receive(at(0.3), &dts[0]);
    assert_eq!(ids(&mut b), vec![0]);
    // YR-TU-NR = 1 and the credit is 12: DT 12 is the last inside it, DT 13 is beyond.
    b.handle_receive(at(0.31), &dts[13]);
    assert_eq!(b.counters().out_of_sequence_discarded, 1, "DT 13 is beyond the credit");
    for (k, n) in [12, 5, 3, 3].into_iter().enumerate() {
        b.handle_receive(at(0.32 + k as f64 * 0.001), &dts[n]);
    }
    assert_eq!(b.counters().duplicates_discarded, 1, "the second DT 3 is a duplicate");
    assert_eq!(b.tp4_counters().dt_held, 3);
    assert_eq!(b.receive_buffer_bits(), 3 * 1024 * 8, "DTs 3, 5 and 12 held");
    assert!(ids(&mut b).is_empty(), "nothing beyond the gap is delivered");
    b.handle_receive(at(0.4), &dts[1]);
    assert_eq!(ids(&mut b), vec![1]);
    b.handle_receive(at(0.41), &dts[2]);
    assert_eq!(ids(&mut b), vec![2, 3], "DT 2 fills the gap before the held DT 3");
    b.handle_receive(at(0.42), &dts[4]);
    assert_eq!(ids(&mut b), vec![4, 5]);
    for (k, t) in dts[6..12].iter().enumerate() {
        b.handle_receive(at(0.43 + k as f64 * 0.001), t);
    }
    assert_eq!(ids(&mut b), (6..13).collect::<Vec<_>>(), "DT 11 releases the held DT 12");
    assert_eq!(b.receive_buffer_bits(), 0);
    b.handle_receive(at(0.5), &dts[13]);
    assert_eq!(ids(&mut b), vec![13], "DT 13 is inside the credit now");
    assert_eq!(b.counters().duplicates_discarded, 1);
}

/// ISO 8073's association of TPDUs with transport connections: a node with two peers runs
/// one TP4 connection to each behind the multiplexing layer; each TPDU leaves tagged with
/// its connection and addressed to that connection's peer, is delivered to the state
/// machine of that connection only, and an AK releases credit on its own connection only.
#[test]
fn test_connection_per_peer_tpdus_associated_with_their_connection() {
    use crate::protocol::mux::{Connection, Mux, Tagged};
    let c = table2();
    let conn = |id, peer| Connection { id, peer, layer: Tp4::new(&c) };
    // Hub 0: connection 7 to node 1 carries flow 0, connection 9 to node 2 flow 1.
    let mut hub = Mux::new(vec![conn(7, 1), conn(9, 2)], vec![(0, 0), (1, 1)]);
    let mut n1 = Mux::new(vec![conn(7, 0)], vec![(0, 0)]);
    let mut n2 = Mux::new(vec![conn(9, 0)], vec![(1, 0)]);
    hub.handle_submit(at(0.0), Sdu { flow: 0, ..tsdu(1, 100) });
    hub.handle_submit(at(0.0), Sdu { flow: 1, ..tsdu(2, 100) });
    let dts: Vec<Tagged<Tpdu>> = std::iter::from_fn(|| hub.poll_transmit(at(0.0), &G)).collect();
    assert_eq!(dts.iter().map(|t| (t.conn, t.dst, t.pdu.kind, t.pdu.nr)).collect::<Vec<_>>(), vec![(7, 1, TpduKind::Dt, 0), (9, 2, TpduKind::Dt, 0)]);
    // A TPDU of a connection the receiver does not have is discarded, not delivered.
    n1.handle_receive(at(0.1), &dts[1]);
    assert!(std::iter::from_fn(|| n1.poll_event()).next().is_none());
    n1.handle_receive(at(0.1), &dts[0]);
    n2.handle_receive(at(0.1), &dts[1]);
    let delivered = |m: &mut Mux<Tp4>| std::iter::from_fn(|| m.poll_event()).filter_map(|e| if let Event::Delivered(s) = e { Some((s.id, s.flow)) } else { None }).collect::<Vec<_>>();
    assert_eq!((delivered(&mut n1), delivered(&mut n2)), (vec![(1, 0)], vec![(2, 1)]));
    // Only connection 9's AK reaches the hub: flow 1 is acknowledged, flow 0 still waits.
    let ak = n2.poll_transmit(at(0.2), &G).unwrap();
    assert_eq!((ak.conn, ak.dst, ak.pdu.kind, ak.pdu.nr), (9, 0, TpduKind::Ak, 1));
    hub.handle_receive(at(0.3), &ak);
    let acked: Vec<_> = std::iter::from_fn(|| hub.poll_event()).collect();
    assert!(matches!(acked[..], [Event::Acknowledged(s)] if s.id == 2));
    assert_eq!((hub.unacknowledged_of(0), hub.unacknowledged_of(1)), (1, 0));
    // Each flow reports its own connection's TPDU counts (`transport.<flow>`).
    let count = |m: &Mux<Tp4>, flow, k: &str| m.extra_measures_of(flow).iter().find(|x| x.0 == k).unwrap().1;
    assert_eq!((count(&hub, 0, "dt_sent"), count(&hub, 1, "dt_sent")), (1.0, 1.0));
    assert_eq!((count(&n1, 0, "ak_sent"), count(&n2, 1, "ak_sent")), (0.0, 1.0));
}

#[path = "rule_tests.rs"]
mod rule_tests;
