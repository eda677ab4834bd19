//! The fill slots of a BW2 burst (`fill_slots`), frame in / frame out, and the closed
//! form of the copies they combine.

use super::*;

fn hdl(fill: &str) -> HfArq {
    hdl_of(&config(fill))
}

fn config(fill: &str) -> HfArqConfig {
    let mut c = HfArqConfig::of("hdl");
    c.fill_slots = fill.into();
    c
}

fn hdl_of(c: &HfArqConfig) -> HfArq {
    let mut a = HfArq::new(c, Station::A);
    // Simplex: a holds the data direction (the REQUEST / RELEASE exchange is done).
    a.holder = true;
    a
}

/// MIL-STD-188-141B App. C / STANAG 4538 HDL, `fill_slots = "repeat"`: a burst of k
/// packets padded to n ∈ {3, 6, 12, 24} slots carries n − k further copies of its packets,
/// first to last and round again, each in the mode of its copy count; the burst lasts
/// 640 + 400 n ms as with empty slots.
#[test]
fn bw2_fill_slots_repeat_the_bursts_packets_in_order_141b_appc() {
    for (k, n) in [(1u64, 3u64), (2, 3), (4, 6), (7, 12), (13, 24), (24, 24)] {
        let mut a = hdl("repeat");
        a.handle_submit(SimTime::ZERO, sdu(0, 1864 * k as u32));
        let fs = burst(&mut a, SimTime::ZERO);
        assert_eq!(fs.len() as u64, n, "{k} packets fill {n} slots");
        assert!(fs.iter().all(|f| f.kind == HfKind::Data && f.bits == 1881));
        let seqs: Vec<u64> = fs.iter().map(|f| f.seq).collect();
        let want: Vec<u64> = (0..n).map(|j| j % k).collect();
        assert_eq!(seqs, want, "{k} packets, then copies in order");
        for (j, f) in fs.iter().enumerate() {
            let copy = j as u64 / k + 1;
            assert_eq!(a.table.modes[f.mode as usize].copies as u64, copy, "slot {j}: copy {copy} of packet {}", f.seq);
        }
        let total: f64 = fs.iter().map(|f| f.airtime.as_secs_f64()).sum();
        assert!((total - (0.64 + 0.4 * n as f64)).abs() < 1e-9, "{k} packets: {total} s");
        assert_eq!(a.counters().i_frames_sent, n, "every slot is a packet sent");
        assert_eq!(a.packets_new, k, "only the first copies are new");
        assert_eq!(a.counters().i_frames_retransmitted, 0, "fill copies are not retransmissions for a cause");
    }
    // "empty" (the first readings): the same burst carries the k packets only.
    let mut a = hdl("empty");
    a.handle_submit(SimTime::ZERO, sdu(0, 1864));
    assert_eq!(burst(&mut a, SimTime::ZERO).len(), 1);
}

/// A fill copy delivers the packet when its first copy is lost, the receiver keeps
/// one and discards the other copies as duplicates, and the next transmission of a
/// packet continues the copy count (its mode combines with every copy already sent).
#[test]
fn bw2_fill_copies_deliver_once_and_count_toward_code_combining() {
    let (mut a, mut b) = (hdl("repeat"), arq("hdl"));
    a.handle_submit(SimTime::ZERO, sdu(0, 1864));
    a.handle_submit(SimTime::ZERO, sdu(1, 1864));
    let fs = burst(&mut a, SimTime::ZERO);
    assert_eq!(fs.iter().map(|f| f.seq).collect::<Vec<_>>(), vec![0, 1, 0]);
    // Packet 0's first copy and packet 1 lost; packet 0's fill copy arrives.
    feed(&mut b, &fs, t(3.0), &[0, 1]);
    assert_eq!(events(&mut b).0, vec![0], "delivered once, from the fill copy");
    let ack = burst(&mut b, t(4.0));
    assert_eq!(kinds(&ack), vec![HfKind::Ack]);
    feed(&mut a, &ack, t(6.0), &[]);
    // Packet 1 goes again with two fill copies: its copies 2, 3 and 4.
    let again = burst(&mut a, t(7.0));
    assert_eq!(again.iter().map(|f| f.seq).collect::<Vec<_>>(), vec![1, 1, 1]);
    let copies: Vec<u32> = again.iter().map(|f| a.table.modes[f.mode as usize].copies).collect();
    assert_eq!(copies, vec![2, 3, 4]);
    feed(&mut b, &again, t(10.0), &[]);
    assert_eq!(events(&mut b).0, vec![1]);
    assert_eq!(b.counters().duplicates_discarded, 2, "the two later copies of packet 1");
}

/// Closed form: on the channel's draw (`attempt_failure`, the conditional PER_k /
/// PER_{k−1} of copy k), a one-packet burst is lost with PER_1 when its fill slots are
/// empty and with PER_3 — the table's probability that three combined copies fail — when
/// they repeat it. At 19 dB on the standard's table: 1.0 and 0.2916.
#[test]
fn a_one_packet_burst_with_repeated_fill_is_lost_with_the_per_of_three_combined_copies() {
    let snr = 19.0;
    let mut rng = stream(7, 0, "fill");
    for (fill, copies) in [("empty", 1usize), ("repeat", 3)] {
        let c = config(fill);
        let a = hdl_of(&c);
        let tab = a.table.clone();
        let per = tab.per(a.data_modes[copies - 1], 1881, snr);
        let trials = 20_000;
        let mut lost = 0;
        for _ in 0..trials {
            let mut a = hdl_of(&c);
            a.handle_submit(SimTime::ZERO, sdu(0, 1864));
            let fs = burst(&mut a, SimTime::ZERO);
            assert_eq!(fs.len(), copies);
            // The packet is lost if every copy is (the draws of errors.rs, in order).
            if fs.iter().all(|f| rng.random::<f64>() < tab.attempt_failure(f.mode as usize, f.bits, snr)) {
                lost += 1;
            }
        }
        let p = lost as f64 / trials as f64;
        let sd = (per * (1.0 - per) / trials as f64).sqrt();
        assert!((p - per).abs() <= 4.0 * sd + 1e-12, "{fill}: lost {p}, closed form {per} ± {sd}");
    }
}

#[test]
fn fill_slots_repeat_is_an_error_without_bw2_bursts() {
    for variant in ["5066", "hdl-1d", "5066-1s"] {
        let v = serde_json::json!({ "variant": variant, "fill_slots": "repeat" });
        let mut p = crate::schema::Problems::default();
        let mut t = crate::schema::Table::root(&v, &mut p);
        HfArqConfig::parse(&mut t, &mut p);
        let msg = p.0.iter().map(|q| q.to_string()).collect::<Vec<_>>().join("; ");
        assert!(msg.contains("fill_slots") && msg.contains("\"repeat\"") && msg.contains("only the integrated modem with selective repeat"), "{variant}: {msg}");
    }
    let v = serde_json::json!({ "variant": "hdl", "fill_slots": "sometimes" });
    let mut p = crate::schema::Problems::default();
    let mut t = crate::schema::Table::root(&v, &mut p);
    HfArqConfig::parse(&mut t, &mut p);
    assert!(p.0.iter().any(|q| q.to_string().contains("fill_slots")), "{p:?}");
}

/// `fill_slots = "repeat_first_only"` (the standard's TxFrame construction for a first
/// send; refilling retransmissions is claimed later as an enhancement, US 11,552,747):
/// the fill slots repeat the burst's first sends only, and a burst of retransmissions
/// only is padded with nothing. "repeat" repeats every packet of the burst.
#[test]
fn bw2_fill_slots_repeat_first_only_repeats_first_sends_only() {
    for (fill, mixed, retx_only) in [("repeat", vec![1, 2, 1], vec![1, 1, 1]), ("repeat_first_only", vec![1, 2, 2], vec![1])] {
        for with_new in [true, false] {
            let (mut a, mut b) = (hdl(fill), arq("hdl"));
            a.handle_submit(SimTime::ZERO, sdu(0, 1864));
            a.handle_submit(SimTime::ZERO, sdu(1, 1864));
            let fs = burst(&mut a, SimTime::ZERO);
            assert_eq!(fs.iter().map(|f| f.seq).collect::<Vec<_>>(), vec![0, 1, 0], "{fill}: both first sends are repeated");
            feed(&mut b, &fs, t(3.0), &[1]);
            let ack = burst(&mut b, t(4.0));
            feed(&mut a, &ack, t(6.0), &[]);
            if with_new {
                a.handle_submit(t(6.5), sdu(2, 1864));
            }
            let again: Vec<u64> = burst(&mut a, t(7.0)).iter().map(|f| f.seq).collect();
            assert_eq!(again, if with_new { mixed.clone() } else { retx_only.clone() }, "{fill}, new packet: {with_new}");
        }
    }
}
