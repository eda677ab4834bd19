//! LLC2's scenario keys (`config.rs`): each variant name to its variant and what it
//! implies (Biersack's dynamic window for BG and JAIN, selective retransmission for
//! SREJ and the multi-buffer receivers), and the modulo-128 window limit at its boundary.

use super::config::{Llc2Config, Variant};
use crate::schema::{Problems, Table};
use serde_json::json;

fn parse(v: serde_json::Value) -> (Llc2Config, Vec<String>) {
    let mut p = Problems::default();
    let mut tb = Table::root(&v, &mut p);
    let c = Llc2Config::parse(&mut tb, &mut p);
    (c, p.0.iter().map(|x| x.to_string()).collect())
}

#[test]
fn biersack_variant_names_their_window_rule_and_their_recovery() {
    let expect = [
        ("orig", Variant::Orig, false, false),
        ("bg", Variant::Bg, true, false),
        ("jain", Variant::Jain, true, false),
        ("srej", Variant::Srej, false, true),
        ("multi_fifo", Variant::MultiFifo, false, true),
        ("multi_srej", Variant::MultiSrej, false, true),
    ];
    for (name, v, dynamic, selective) in expect {
        let (c, p) = parse(json!({ "variant": name }));
        assert!(p.is_empty(), "{name}: {p:?}");
        assert_eq!(c.variant, v, "{name}");
        assert_eq!((v.dynamic_window(), v.selective()), (dynamic, selective), "{name}");
        assert_eq!(serde_json::to_value(c.variant).unwrap(), json!(name), "written back as named");
    }
    assert_eq!(parse(json!({})).0.variant, Variant::Orig);
}

#[test]
fn selective_retransmission_window_exactly_64_accepted_65_refused_modulo_128() {
    for name in ["srej", "multi_fifo", "multi_srej"] {
        assert!(parse(json!({ "variant": name, "window": 64 })).1.is_empty(), "{name}");
        assert_eq!(parse(json!({ "variant": name, "window": 65 })).1,
                   vec!["window = 65: expected a whole number in [1, 64] with selective retransmission (modulo 128)"], "{name}");
    }
    for name in ["orig", "bg", "jain"] {
        let (c, p) = parse(json!({ "variant": name, "window": 127 }));
        assert!(p.is_empty(), "{name}: go-back-N may use 127");
        assert_eq!(c.window, 127);
    }
}
