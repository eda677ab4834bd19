//! The cheaper forms of per-packet work (`reception::mark_acked`, the remembered rate
//! of `rate::choose_rate`, `poll_transmit_into`, the airtimes of a planned turn)
//! against the plain definitions they replace, at their boundaries: the lower edge at,
//! below and above the send window, bitmap bits outside the window, SNR estimates
//! revisited along a staircase, a stale slot, packets of one size next to another's.

use super::*;

/// The definition: a packet is acknowledged if it is below the lower edge, or above
/// it with its bitmap bit set (bit j: packet lwe + 1 + j).
fn covered(seq: u64, lwe: u64, bitmap: u128) -> bool {
    seq < lwe || (seq > lwe && seq - lwe - 1 < BITMAP && bitmap >> (seq - lwe - 1) & 1 == 1)
}

/// A 5066 sender with `n` packets in its window starting at `base`, some already acked.
fn window(base: u64, n: u64, acked: &[u64]) -> HfArq {
    let mut a = arq("5066");
    a.base = base;
    for i in 0..n {
        let seg = Segment { sdu: sdu(i, 8), index: 0, count: 1 };
        a.slots.push_back(Slot { seg, bits: 8, acked: acked.contains(&(base + i)), sent: 1 });
    }
    a
}

fn ack(lwe: u64, bitmap: u128) -> HfFrame<Sdu> {
    HfFrame { lwe, bitmap, ..arq("5066").frame(HfKind::Ack) }
}

/// STANAG 5066 selective ACK: every packet below the lower edge and every packet above
/// it whose bit is set is acknowledged, no other; the lower edge itself never is.
#[test]
fn test_an_ack_covers_the_packets_below_its_lower_edge_and_those_its_bitmap_names() {
    let mut rng = crate::engine::stream(5, 0, "hf.ack");
    use rand::Rng;
    // Lower edges below, at, inside and past the window; bitmaps empty, full, sparse.
    for base in [0u64, 7, 300] {
        for n in [0u64, 1, 5, 128] {
            for lwe in [0, base.saturating_sub(3), base, base + 1, base + n / 2, base + n, base + n + 2, base + 200] {
                for bitmap in [0u128, u128::MAX, 1, 1 << 127, rng.random::<u128>(), rng.random::<u128>() & rng.random::<u128>()] {
                    let before = [base + 1, base + n / 3];
                    let mut a = window(base, n, &before);
                    a.mark_acked(&ack(lwe, bitmap));
                    for (i, s) in a.slots.iter().enumerate() {
                        let seq = base + i as u64;
                        let want = before.contains(&seq) || covered(seq, lwe, bitmap);
                        assert_eq!(s.acked, want, "base {base} n {n} lwe {lwe} bitmap {bitmap:#x}: packet {seq}");
                    }
                }
            }
        }
    }
}

/// Johnson's rate choice: the highest rate whose PER at the estimate meets the target.
/// The remembered choice equals the computed one at every estimate, on first visits and
/// revisits, across the table's clamped ends.
#[test]
fn test_the_remembered_rate_is_the_rate_chosen_at_each_estimate() {
    let mut a = arq("5066");
    let mut rng = crate::engine::stream(9, 0, "hf.rate");
    use rand::Rng;
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let delta = if rng.random::<f64>() < 0.4 { -a.step_down } else { a.step_up };
        a.adapt(delta);
        seen.insert(a.snr_est.to_bits());
        assert_eq!(a.rate, a.rate_for(a.snr_est), "at {} dB", a.snr_est);
    }
    let s = &a.table.snr_db;
    assert!(seen.contains(&s[0].to_bits()) || seen.contains(&s[s.len() - 1].to_bits()), "the walk reached a clamped end");
    assert!(a.rate_memo.len() == seen.len().min(64), "each estimate computed once: {} of {}", a.rate_memo.len(), seen.len());
    // Different rates were chosen along the way (the memo is not one value).
    let rates: std::collections::BTreeSet<usize> = a.rate_memo.iter().map(|x| x.1).collect();
    assert!(rates.len() > 1, "{rates:?}");
}

/// Variants covering the three ways a turn is built: selective repeat on the external
/// modem (5066), stop-and-wait (5066-1s), and the integrated modem's padded, filled
/// BW2 bursts (HDL).
const BUILDS: [&str; 3] = ["5066", "5066-1s", "hdl"];

/// A station of `variant` with SDUs of mixed lengths queued (segments of several sizes).
fn loaded(variant: &str) -> HfArq {
    let mut a = arq(variant);
    for (i, bits) in [1600, 1600, 800, 1600, 40, 3000].into_iter().enumerate() {
        a.handle_submit(SimTime::ZERO, sdu(i as u64, bits));
    }
    a
}

/// `poll_transmit_into` (the runner's call: the packet goes into the medium's slot) is
/// `poll_transmit` without the returned copy: the same packets, whatever the slot held
/// before, and the same wait for a response from the end of the last one.
#[test]
fn test_poll_transmit_into_sends_what_poll_transmit_sends_and_starts_the_same_wait() {
    for variant in BUILDS {
        let (mut a, mut b) = (loaded(variant), loaded(variant));
        let returned = burst(&mut a, SimTime::ZERO);
        // A stale slot: another station's acknowledgement, every field set.
        let mut slot = HfFrame { lwe: 99, bitmap: u128::MAX, request: true, first: true, last: false, airtime: t(7.0) - SimTime::ZERO, ..arq(variant).frame(HfKind::Ack) };
        let mut built = vec![];
        let mut at = SimTime::ZERO;
        while b.poll_transmit_into(at, &G, &mut slot) {
            at += slot.airtime;
            built.push(slot.clone());
            if slot.last {
                break;
            }
        }
        assert!(!returned.is_empty(), "{variant}: a turn is sent");
        assert_eq!(built, returned, "{variant}: the same packets");
        assert_eq!(b.poll_timeout(), a.poll_timeout(), "{variant}: the same response wait");
        assert_eq!(b.counters(), a.counters(), "{variant}");
        assert!(!b.poll_transmit_into(at, &G, &mut slot) && a.poll_transmit(at, &G).is_none(), "{variant}: both wait for the response");
    }
}

/// The definition `plan` keeps while reusing the last packet's conversion to a
/// `Duration`: each packet's airtime is its own size's in its mode; the first adds the
/// mode's preamble, the last the padding to whole interleaver blocks (and, for BW2, to
/// the burst's slot count) — with packets of one size next to packets of another.
#[test]
fn test_each_packet_has_its_own_sizes_airtime_the_first_adds_the_preamble_the_last_the_padding() {
    for variant in BUILDS {
        let mut a = loaded(variant);
        let fs = burst(&mut a, SimTime::ZERO);
        let mode = a.framing_mode();
        let (tab, integrated_sr) = (a.table.clone(), a.integrated && a.sr);
        let own: Vec<f64> = fs.iter().map(|f| tab.airtime_s(f.mode as usize, f.bits)).collect();
        let data_s: f64 = own.iter().sum();
        let mut pad = tab.rounded_s(mode, data_s) - data_s;
        let data = fs.iter().filter(|f| f.kind == HfKind::Data).count() as u32;
        if integrated_sr && data > 0 {
            pad += f64::from(tab.burst_slots(data) - data) * tab.airtime_s(mode, 0);
        }
        let sizes: std::collections::BTreeSet<u32> = fs.iter().map(|f| f.bits).collect();
        assert!(fs.len() == 1 || sizes.len() > 1 || integrated_sr, "{variant}: packets of several sizes {sizes:?}");
        for (k, (f, &t)) in fs.iter().zip(&own).enumerate() {
            let mut want = Duration::from_secs_f64(t);
            if k + 1 == fs.len() {
                want = want + Duration::from_secs_f64(pad.max(0.0));
            }
            if k == 0 {
                want = want + Duration::from_secs_f64(tab.preamble_s(mode));
            }
            assert_eq!(f.airtime, want, "{variant}: packet {k} of {} ({} bits)", fs.len(), f.bits);
        }
    }
}
