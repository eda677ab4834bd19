//! `modem_offset_db`: one modem table moved along the SNR axis, for the ARQ's rate
//! choice and for the lane's packet errors alike.

use super::*;
use crate::channel::modem::ModemTable;

fn parse(v: serde_json::Value, p: &mut Problems) -> (f64, Option<std::sync::Arc<ModemTable>>) {
    let mut t = crate::schema::Table::root(&v, p);
    let table = ModemTable::load("mil-std-188-110b-johnson", "modem", p);
    let out = ModemTable::with_offset(&mut t, table, p);
    t.finish(p);
    out
}

/// A table moved Δ dB up gives at SNR s + Δ exactly the PER the table gives at s, for
/// every mode and packet size; Δ = 0 is the table itself; a bad Δ names the key.
#[test]
fn a_modem_offset_moves_every_per_curve_along_the_snr_axis() {
    let mut p = Problems::default();
    let (_, base) = parse(serde_json::json!({}), &mut p);
    let base = base.unwrap();
    for d in [-1.5, 0.9, 3.0] {
        let (off, moved) = parse(serde_json::json!({ "modem_offset_db": d }), &mut p);
        assert_eq!(off, d);
        let moved = moved.unwrap();
        for m in base.data_modes() {
            for s in [-3.0, 2.5, 5.0, 7.25, 12.0, 30.0] {
                for bits in [160, 1728] {
                    let (a, b) = (base.per(m, bits, s), moved.per(m, bits, s + d));
                    assert!((a - b).abs() < 1e-12, "mode {m}, {bits} bits, {s} dB, Δ {d}: {a} vs {b}");
                }
            }
        }
    }
    assert!(p.is_empty(), "{p:?}");
    let (off, same) = parse(serde_json::json!({ "modem_offset_db": 0.0 }), &mut p);
    assert_eq!((off, same.as_deref()), (0.0, Some(&*base)));
    let mut bad = Problems::default();
    parse(serde_json::json!({ "modem_offset_db": 99.0 }), &mut bad);
    assert!(bad.0.iter().any(|q| q.to_string().contains("modem_offset_db")), "{bad:?}");
}

/// The ARQ's rate choice reads the moved table: at an initial SNR s with Δ it picks the
/// rate it picks at s − Δ without.
#[test]
fn the_rate_choice_reads_the_moved_table() {
    for (s, d) in [(5.0, 0.9), (12.0, 3.0), (25.0, -2.0)] {
        let mut c = HfArqConfig::of("5066");
        let mut plain = c.clone();
        plain.initial_snr_db = s - d;
        let v = serde_json::json!({ "variant": "5066", "modem": c.modem, "modem_offset_db": d, "initial_snr_db": s });
        let mut p = Problems::default();
        let mut t = crate::schema::Table::root(&v, &mut p);
        c = HfArqConfig::parse(&mut t, &mut p);
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(c.modem_offset_db, d);
        let (a, b) = (HfArq::<Sdu>::new(&c, Station::A), HfArq::<Sdu>::new(&plain, Station::A));
        assert_eq!(a.rate_bps(), b.rate_bps(), "{s} dB with Δ {d}");
    }
}
