//! Configuration shared by the textbook protocols.

use crate::schema::{Problems, Range, Table};
use serde::Serialize;

/// Parameters of stop-and-wait, go-back-N and selective repeat.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TextbookConfig {
    /// Send window W (frames outstanding at most).
    pub window: u32,
    /// Sequence-number modulus M.
    pub modulus: u32,
    /// Non-information bits of a data frame (header, FCS, flags).
    pub overhead_bits: u32,
    /// Length of an acknowledgement / reject frame in bits.
    pub ack_bits: u32,
    /// Retransmission timeout, counted from the end of a frame's transmission.
    pub timeout_s: f64,
    /// Go-back-N: send one REJ per gap; selective repeat: one SREJ per missing frame.
    pub reject: bool,
    /// The textbook assumption: the receiver recognises a corrupted frame (its header
    /// survived) and asks for it at once — REJ(V(R)) for the expected frame in
    /// go-back-N and stop-and-wait, SREJ(N(S)) in selective repeat — every time, not
    /// once per gap. Off: corrupted frames are discarded silently, as in HDLC.
    pub nak_corrupted: bool,
}

impl TextbookConfig {
    /// Reads the keys of `kind` ("stop_and_wait" | "go_back_n" | "selective_repeat").
    pub fn parse(kind: &str, t: &mut Table, p: &mut Problems) -> TextbookConfig {
        let overhead_bits = t.u64("overhead_bits", 48, 0, 1 << 20, p) as u32;
        let ack_bits = t.u64("ack_bits", 48, 1, 1 << 20, p) as u32;
        let timeout_s = t.f64("timeout_s", 1.0, Range::Positive, p);
        let nak_corrupted = t.bool("nak_corrupted", false, p);
        if kind == "stop_and_wait" {
            // Fixed by definition; accepted only with these values (the resolved
            // scenario states them), so the resolved scenario parses back to itself.
            let fixed = [("window", serde_json::json!(1)), ("modulus", serde_json::json!(2)), ("reject", serde_json::json!(false))];
            for (key, value) in fixed {
                if let Some(v) = t.raw(key).cloned() {
                    if v.as_f64() != value.as_f64() || v.as_bool() != value.as_bool() {
                        p.push(t.path_of(key), Some(&v), format!("stop_and_wait has {key} = {value} by definition (W = 1, M = 2, no reject)"));
                    }
                }
            }
            return TextbookConfig { window: 1, modulus: 2, overhead_bits, ack_bits, timeout_s, reject: false, nak_corrupted };
        }
        let modulus = t.u64("modulus", if kind == "selective_repeat" { 128 } else { 8 }, 2, 1 << 20, p) as u32;
        let default_w = if kind == "selective_repeat" { modulus / 2 } else { modulus - 1 };
        let window = t.u64("window", default_w as u64, 1, 1 << 20, p) as u32;
        let limit = if kind == "selective_repeat" { modulus / 2 } else { modulus - 1 };
        if window > limit {
            let what = if kind == "selective_repeat" { "modulus/2" } else { "modulus - 1" };
            p.push(
                t.path_of("window"),
                Some(&window.into()),
                format!("expected a window in [1, {limit}] ({what} for modulus {modulus})"),
            );
        }
        let reject = t.bool("reject", true, p);
        TextbookConfig { window: window.min(limit).max(1), modulus, overhead_bits, ack_bits, timeout_s, reject, nak_corrupted }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(kind: &str, v: serde_json::Value) -> (TextbookConfig, Vec<String>) {
        let mut p = Problems::default();
        let mut t = Table::root(&v, &mut p);
        let c = TextbookConfig::parse(kind, &mut t, &mut p);
        (c, p.0.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn default_windows_are_the_largest_the_modulus_allows() {
        // Selective repeat: W ≤ M/2 (a new frame must not alias an old one in the
        // receive window); go-back-N: W ≤ M − 1.
        for (kind, modulus, window) in [("selective_repeat", 128, 64), ("selective_repeat", 8, 4), ("go_back_n", 8, 7), ("go_back_n", 128, 127)] {
            let (c, problems) = parse(kind, json!({ "modulus": modulus }));
            assert!(problems.is_empty(), "{problems:?}");
            assert_eq!((c.modulus, c.window), (modulus, window), "{kind}");
        }
    }

    #[test]
    fn a_window_above_the_limit_is_reported() {
        let (_, problems) = parse("selective_repeat", json!({ "modulus": 128, "window": 65 }));
        assert_eq!(problems, ["window = 65: expected a window in [1, 64] (modulus/2 for modulus 128)"]);
        let (c, problems) = parse("selective_repeat", json!({ "modulus": 128, "window": 64 }));
        assert!(problems.is_empty() && c.window == 64, "{problems:?}");
        let (_, problems) = parse("go_back_n", json!({ "modulus": 8, "window": 8 }));
        assert_eq!(problems, ["window = 8: expected a window in [1, 7] (modulus - 1 for modulus 8)"]);
    }
}
