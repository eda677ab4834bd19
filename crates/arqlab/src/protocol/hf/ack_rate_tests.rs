//! The robust acknowledgement of an external modem (`ack_rate`), frame in / frame out.

use super::*;

/// `ack_rate = "lowest"` (Johnson: a stop-and-wait acknowledgement "can be encoded very
/// robustly"): an external modem's transmission without data — the REQUEST, the
/// RELEASE, the acknowledgement — goes at the table's lowest rate in that rate's
/// framing; data goes at the current rate, and a duplex acknowledgement riding with
/// data at the data rate (one waveform per transmission).
#[test]
fn ack_rate_lowest_sends_a_transmission_without_data_at_the_lowest_rate() {
    let rate = |a: &HfArq, f: &HfFrame<Sdu>| a.table.modes[f.mode as usize].bps;
    let total = |fs: &[HfFrame<Sdu>]| fs.iter().map(|f| f.airtime.as_secs_f64()).sum::<f64>();
    let mut c = HfArqConfig::of("5066-1s");
    let (mut a, mut b) = (HfArq::new(&c, Station::A), HfArq::new(&c, Station::B));
    c.ack_rate = "lowest".into();
    let (mut ra, mut rb) = (HfArq::new(&c, Station::A), HfArq::new(&c, Station::B));
    // The same exchange with and without the robust rate: REQUEST, RELEASE, data, ACK.
    let mut airtimes = vec![];
    for (a, b) in [(&mut a, &mut b), (&mut ra, &mut rb)] {
        a.handle_submit(SimTime::ZERO, sdu(0, 1600));
        let req = burst(a, SimTime::ZERO);
        feed(b, &req, t(4.0), &[]);
        let rel = burst(b, t(5.0));
        feed(a, &rel, t(9.0), &[]);
        let d = burst(a, t(10.0));
        feed(b, &d, t(13.0), &[]);
        let ack = burst(b, t(14.0));
        assert_eq!(kinds(&ack), vec![HfKind::Ack]);
        assert_eq!(rate(a, &d[0]), 2400.0, "data at the rate chosen for 25 dB either way");
        airtimes.push([&req, &rel, &d, &ack].map(|fs| (rate(a, &fs[0]), total(fs))));
    }
    // 160 bits: at 2400 bit/s one 0.6 s block behind the 0.6 s preamble; at 75 bit/s
    // 2.13 s of data, four blocks. The data packet (1728 bits at 2400: two blocks) is
    // the same in both.
    let at_data = (2400.0, 0.6 + 0.6);
    let robust = (75.0, 0.6 + 4.0 * 0.6);
    let d = (2400.0, 0.6 + 2.0 * 0.6);
    for (got, want) in airtimes.iter().zip([[at_data, at_data, d, at_data], [robust, robust, d, robust]]) {
        for ((r, s), (wr, ws)) in got.iter().zip(want) {
            assert!(*r == wr && (s - ws).abs() < 1e-9, "{got:?} vs {want:?}");
        }
    }
    // Duplex 5066: an ACK with data rides at the data rate; an ACK alone goes robust.
    let mut c = HfArqConfig::of("5066");
    c.ack_rate = "lowest".into();
    let (mut a, mut b) = (HfArq::<Sdu>::new(&c, Station::A), HfArq::<Sdu>::new(&c, Station::B));
    a.handle_submit(SimTime::ZERO, sdu(0, 800));
    a.handle_submit(SimTime::ZERO, sdu(1, 800));
    let d = burst(&mut a, SimTime::ZERO);
    b.handle_submit(t(1.0), sdu(100, 800));
    feed(&mut b, &d, t(3.0), &[]);
    let r = burst(&mut b, t(4.0));
    assert_eq!(kinds(&r), vec![HfKind::Ack, HfKind::Data]);
    assert!(r.iter().all(|f| rate(&b, f) == 2400.0));
    feed(&mut a, &r, t(8.0), &[]);
    let ack = burst(&mut a, t(9.0));
    assert_eq!((kinds(&ack), rate(&a, &ack[0])), (vec![HfKind::Ack], 75.0));
    // An integrated modem's control packets are BW1 already: the key is refused.
    let v = serde_json::json!({ "variant": "hdl", "ack_rate": "lowest" });
    let mut p = Problems::default();
    let mut tb = crate::schema::Table::root(&v, &mut p);
    HfArqConfig::parse(&mut tb, &mut p);
    assert!(format!("{p:?}").contains("ack_rate") && format!("{p:?}").contains("BW1"), "{p:?}");
}
