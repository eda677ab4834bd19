//! The cheaper forms of per-packet work (`reception::mark_acked`, the remembered rate
//! of `rate::choose_rate`) against the plain definitions they replace, at their
//! boundaries: the lower edge at, below and above the send window, bitmap bits
//! outside the window, and SNR estimates revisited along a staircase.

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
