//! `[link]`: the full-duplex point-to-point link.

use super::fields::{Problems, Range, Table};
use serde::Serialize;

/// One direction's error model (`[link.a_to_b]` / `[link.b_to_a]`).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(tag = "error_model", rename_all = "snake_case")]
pub enum DirectionConfig {
    None,
    /// Independent bit errors.
    Bit { bit_error_rate: f64 },
    /// Gilbert–Elliott two-state bursts.
    GilbertElliott { good_ber: f64, bad_ber: f64, mean_good_bits: f64, mean_bad_bits: f64 },
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LinkConfig {
    /// Transmission rate v of each direction (bit/s).
    pub rate_bps: f64,
    /// One-way delay t_p: processing plus propagation (s).
    pub delay_s: f64,
    /// Independent bit-error probability for every direction without its own table.
    pub bit_error_rate: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_to_b: Option<DirectionConfig>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_to_a: Option<DirectionConfig>,
}

const BER: Range = Range::HalfOpen(0.0, 1.0);

impl LinkConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> LinkConfig {
        let rate_bps = t.f64("rate_bps", 48_000.0, Range::Closed(1.0, 1e12), p);
        let delay_s = t.f64("delay_s", 0.0, Range::Closed(0.0, 1e6), p);
        let bit_error_rate = t.f64("bit_error_rate", 0.0, BER, p);
        let mut dir = |key: &str| {
            if !t.has(key) {
                return None;
            }
            let mut d = t.table(key, p);
            let model = d.choice("error_model", "bit", &["none", "bit", "gilbert_elliott"], p);
            let c = match model.as_str() {
                "none" => DirectionConfig::None,
                "gilbert_elliott" => DirectionConfig::GilbertElliott {
                    good_ber: d.f64("good_ber", 0.0, BER, p),
                    bad_ber: d.f64("bad_ber", 0.01, BER, p),
                    mean_good_bits: d.f64("mean_good_bits", 1e6, Range::Closed(1.0, 1e15), p),
                    mean_bad_bits: d.f64("mean_bad_bits", 1e3, Range::Closed(1.0, 1e15), p),
                },
                _ => DirectionConfig::Bit { bit_error_rate: d.f64("bit_error_rate", bit_error_rate, BER, p) },
            };
            d.finish(p);
            Some(c)
        };
        let a_to_b = dir("a_to_b");
        let b_to_a = dir("b_to_a");
        LinkConfig { rate_bps, delay_s, bit_error_rate, a_to_b, b_to_a }
    }

    /// The error model of direction 0 (a→b) or 1 (b→a).
    pub fn direction(&self, i: usize) -> DirectionConfig {
        let own = if i == 0 { &self.a_to_b } else { &self.b_to_a };
        match own {
            Some(c) => c.clone(),
            None if self.bit_error_rate > 0.0 => DirectionConfig::Bit { bit_error_rate: self.bit_error_rate },
            None => DirectionConfig::None,
        }
    }
}
