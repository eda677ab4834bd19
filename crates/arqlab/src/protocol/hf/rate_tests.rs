//! Rate adaptation of the external modem (`protocol::hf::rate`), frame in / frame out:
//! the SNR estimate's staircase at its boundaries (exactly half of a burst lost, none
//! lost, the table's edges) and the rate chosen from it.

use super::*;

/// A 5066 sender (selective repeat, external 110B modem) whose estimate starts at
/// `snr` dB, with `n` packets of its first burst lost at the receiver as listed.
fn after_burst(snr: f64, per_packet: bool, n: u64, lost: &[usize]) -> HfArq {
    let mut c = HfArqConfig::of("5066");
    c.initial_snr_db = snr;
    if per_packet {
        c.rate_adaptation = "per_packet".into();
    }
    let (mut a, mut b) = (HfArq::new(&c, Station::A), HfArq::new(&c, Station::B));
    for i in 0..n {
        a.handle_submit(SimTime::ZERO, sdu(i, 1600));
    }
    let fs = burst(&mut a, SimTime::ZERO);
    assert_eq!(fs.len() as u64, n, "one burst carries all {n} packets");
    feed(&mut b, &fs, t(20.0), lost);
    let ack = burst(&mut b, t(21.0));
    assert_eq!(kinds(&ack)[0], HfKind::Ack);
    feed(&mut a, &ack[..1], t(30.0), &[]);
    a
}

/// Johnson: the estimate steps down (2 dB) when *more than* half of a transmission's
/// packets were lost: 3 of 4 steps down, exactly 2 of 4 does not.
#[test]
fn rate_adaptation_burst_steps_down_only_when_more_than_half_are_lost() {
    assert_eq!(after_burst(10.0, false, 4, &[0, 1, 2]).snr_est, 8.0);
    assert_eq!(after_burst(10.0, false, 4, &[1, 3]).snr_est, 10.0, "exactly half lost: no step");
    assert_eq!(after_burst(10.0, false, 2, &[0]).snr_est, 10.0, "one of two: no step");
    assert_eq!(after_burst(10.0, false, 2, &[0, 1]).snr_est, 8.0);
}

/// Johnson: the estimate steps up (1 dB) only when no packet was lost.
#[test]
fn rate_adaptation_burst_steps_up_only_when_none_is_lost() {
    assert_eq!(after_burst(10.0, false, 4, &[]).snr_est, 11.0);
    assert_eq!(after_burst(10.0, false, 4, &[2]).snr_est, 10.0, "one lost of four: no step");
}

/// `rate_adaptation = "per_packet"`: one step of (up · received − down · lost) / sent.
#[test]
fn rate_adaptation_per_packet_steps_by_the_mean_of_the_packets_steps() {
    assert_eq!(after_burst(10.0, true, 4, &[]).snr_est, 11.0);
    assert_eq!(after_burst(10.0, true, 4, &[0]).snr_est, 10.0 + (3.0 - 2.0) / 4.0);
    assert_eq!(after_burst(10.0, true, 4, &[0, 1]).snr_est, 10.0 + (2.0 - 4.0) / 4.0);
    assert_eq!(after_burst(10.0, true, 4, &[0, 1, 2, 3]).snr_est, 8.0);
}

/// The estimate stays within the table's SNR range (no step beyond either edge).
#[test]
fn rate_adaptation_estimate_is_clamped_to_the_tables_snr_range() {
    let a = after_burst(10.0, false, 1, &[]);
    let (lo, hi) = (a.table.snr_db[0], *a.table.snr_db.last().unwrap());
    assert_eq!(after_burst(hi - 0.5, false, 1, &[]).snr_est, hi);
    assert_eq!(after_burst(lo + 1.0, false, 1, &[0]).snr_est, lo);
}

/// The rate follows the estimate: the highest rate whose PER at the estimate is at
/// most `target_per`; at exactly the target the rate is still allowed (≤).
#[test]
fn rate_choice_is_the_highest_rate_meeting_the_target_per_at_the_boundary() {
    let mut c = HfArqConfig::of("5066");
    c.initial_snr_db = 10.0;
    let a = HfArq::<Sdu>::new(&c, Station::A);
    let bits = a.segment_bits + a.header_bits;
    let chosen = a.data_modes[a.rate];
    let per = a.table.per(chosen, bits, a.snr_est);
    assert!(per <= a.target_per);
    // A faster mode exists that misses the target at 10 dB.
    let faster: Vec<usize> = a.data_modes.iter().copied().filter(|&m| a.table.modes[m].bps > a.rate_bps()).collect();
    assert!(faster.iter().all(|&m| a.table.per(m, bits, 10.0) > a.target_per));
    // With the target set to exactly the chosen mode's PER, that mode still qualifies;
    // just below it, it does not.
    c.target_per = per;
    assert_eq!(HfArq::<Sdu>::new(&c, Station::A).rate_bps(), a.rate_bps());
    c.target_per = per * (1.0 - 1e-9);
    assert!(HfArq::<Sdu>::new(&c, Station::A).rate_bps() < a.rate_bps());
}

/// The PER is looked up for a *full* packet: segment plus header bits. A table whose
/// first row (PER 0 everywhere) covers packets up to the segment alone, and whose
/// second row is the shipped table's PER for a full packet, must give the shipped choice.
#[test]
fn rate_choice_looks_the_per_up_for_segment_plus_header_bits() {
    let mut c = HfArqConfig::of("5066");
    c.initial_snr_db = 10.0;
    let mut a = HfArq::<Sdu>::new(&c, Station::A);
    let shipped = a.rate_bps();
    let full = a.segment_bits + a.header_bits;
    assert!(a.table.snr_db.contains(&10.0), "10 dB is a grid point: the rows below are exact there");
    let mut table = (*a.table).clone();
    for (i, m) in table.modes.iter_mut().enumerate() {
        let row = a.table.snr_db.iter().map(|&s| a.table.per(i, full, s)).collect();
        m.packet_bits = vec![a.segment_bits, full];
        m.per = vec![vec![0.0; a.table.snr_db.len()], row];
    }
    a.table = Arc::new(table);
    // The choice at this estimate is remembered from `new`: computed again here.
    a.rate_memo.clear();
    a.choose_rate();
    assert_eq!(a.rate_bps(), shipped, "the full packet falls in the second row");
    assert!(a.table.modes.iter().any(|m| m.bps > shipped), "a faster mode would pass the first row");
}
