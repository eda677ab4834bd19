//! TCP's scenario keys (`config.rs`): each cross-field rule at its boundary, refused with
//! the field and what was expected; the resolved form writes only what differs from
//! the defaults it leaves out.

use super::*;
use crate::schema::{Problems, Table};
use serde_json::json;

fn problems(v: serde_json::Value) -> Vec<String> {
    let mut p = Problems::default();
    let mut tb = Table::root(&v, &mut p);
    TcpConfig::parse(&mut tb, &mut p);
    p.0.iter().map(|x| x.to_string()).collect()
}

fn parsed(v: serde_json::Value) -> TcpConfig {
    let mut p = Problems::default();
    let mut tb = Table::root(&v, &mut p);
    let c = TcpConfig::parse(&mut tb, &mut p);
    assert!(p.is_empty(), "{:?}", p.0);
    c
}

#[test]
fn test_receive_window_exactly_one_mss_accepted_one_octet_less_refused() {
    assert_eq!(parsed(json!({"mss_octets": 100, "receive_window_octets": 100})).receive_window_octets, 100);
    assert_eq!(problems(json!({"mss_octets": 100, "receive_window_octets": 99})),
               vec!["receive_window_octets: at least mss_octets (100)"]);
    // 4.2BSD's 2048-octet default against a larger MSS.
    assert_eq!(problems(json!({"flavour": "bsd42", "mss_octets": 2049})), vec!["receive_window_octets: at least mss_octets (2049)"]);
    assert!(problems(json!({"flavour": "bsd42", "mss_octets": 2048})).is_empty());
}

#[test]
fn test_rfc6298_max_rto_exactly_the_min_accepted_below_it_refused() {
    let c = parsed(json!({"min_rto_s": 2.0, "max_rto_s": 2.0}));
    assert_eq!((c.min_rto_s, c.max_rto_s), (2.0, 2.0));
    assert_eq!(problems(json!({"min_rto_s": 2.0, "max_rto_s": 1.5})), vec!["max_rto_s: at least min_rto_s (2)"]);
    // 4.2BSD's TCPTV_MAX (30 s) is its default maximum, and the minimum still bounds it.
    assert_eq!(parsed(json!({"flavour": "bsd42"})).max_rto_s, 30.0);
    assert_eq!(problems(json!({"flavour": "bsd42", "min_rto_s": 31.0})), vec!["max_rto_s: at least min_rto_s (31)"]);
}

#[test]
fn test_rtt_cache_refused_with_bsd42_only() {
    assert_eq!(problems(json!({"flavour": "bsd42", "rtt_cache": true})),
               vec!["rtt_cache: expected no rtt_cache with flavour = \"bsd42\" (4.2BSD kept no per-path RTT)"]);
    assert!(problems(json!({"flavour": "bsd42", "rtt_cache": false})).is_empty());
    for f in ["reno", "newreno"] {
        assert!(parsed(json!({"flavour": f, "rtt_cache": true})).rtt_cache, "{f}");
    }
}

#[test]
fn test_bsd42_tick_phase_zero_and_the_default_timing_are_accepted_with_any_flavour() {
    // The defaults written back by the resolved form must parse under every flavour.
    for f in ["reno", "newreno", "bsd42"] {
        assert!(problems(json!({"flavour": f, "bsd42_tick_phase_s": 0.0, "bsd42_timing": "tcp_input", "bsd42_random_tick_phase": false, "rto": "rfc6298"})).is_empty(), "{f}");
    }
    assert_eq!(problems(json!({"flavour": "newreno", "bsd42_tick_phase_s": 0.1})),
               vec!["bsd42_tick_phase_s: only with flavour = \"bsd42\" (flavour is \"newreno\")"]);
}

#[test]
fn test_resolved_form_leaves_out_exactly_the_defaults_it_may() {
    let keys = |c: &TcpConfig| -> Vec<String> {
        serde_json::to_value(c).unwrap().as_object().unwrap().keys().cloned().collect()
    };
    let d = keys(&TcpConfig::default());
    for k in ["flavour", "bsd42_timing", "bsd42_tick_phase_s", "bsd42_random_tick_phase", "connection_setup", "rtt_cache"] {
        assert!(!d.iter().any(|x| x == k), "{k} left out at its default: {d:?}");
    }
    assert!(d.iter().any(|x| x == "rto") && d.iter().any(|x| x == "mss_octets"));
    let c = parsed(json!({"flavour": "bsd42", "bsd42_timing": "tcp_output", "bsd42_tick_phase_s": 0.25, "connection_setup": true}));
    let v = serde_json::to_value(&c).unwrap();
    assert_eq!((v["flavour"].as_str(), v["bsd42_timing"].as_str(), v["bsd42_tick_phase_s"].as_f64()), (Some("bsd42"), Some("tcp_output"), Some(0.25)));
    assert_eq!(v["connection_setup"].as_bool(), Some(true));
    let n = serde_json::to_value(parsed(json!({"flavour": "newreno", "rtt_cache": true}))).unwrap();
    assert_eq!((n["flavour"].as_str(), n["rtt_cache"].as_bool()), (Some("newreno"), Some(true)));
    // Round trip: the resolved form parses back to the same configuration.
    assert_eq!(parsed(v), c);
}
