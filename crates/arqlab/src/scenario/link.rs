//! `[link]`: the full-duplex point-to-point link.

use crate::schema::{Problems, Range, Table};
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
    /// Independent bit errors at a rate that changes at given times.
    Schedule { times_s: Vec<f64>, bit_error_rates: Vec<f64> },
    /// An HF skywave channel (Watterson paths, mid-term lognormal SNR) and a modem's
    /// PER table (`channel::hf`, `channel::modem`).
    Hf(HfDirectionConfig),
}

/// `error_model = "hf"`: the channel's SNR process and the modem table.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HfDirectionConfig {
    /// A built-in modem table name or a TOML file.
    pub modem: String,
    /// Long-term mean SNR at the start (dB).
    pub snr_db: f64,
    /// ... and after the ramp (dB); equal to `snr_db` for a stable channel.
    pub snr_end_db: f64,
    /// Duration of the linear ramp from `snr_db` to `snr_end_db` (s); 0: none.
    pub ramp_s: f64,
    /// Standard deviation of the mid-term lognormal variation (dB).
    pub variation_db: f64,
    pub time_constant_s: f64,
    pub doppler_spread_hz: f64,
    /// "in_table" (the modem table already includes the fading) or "per_packet".
    pub fading: String,
    /// The modem table moved this many dB up the SNR axis (`ModemTable::with_offset`).
    #[serde(skip_serializing_if = "crate::channel::modem::is_zero")]
    pub modem_offset_db: f64,
    #[serde(skip)]
    pub table: Option<std::sync::Arc<crate::channel::modem::ModemTable>>,
}

impl HfDirectionConfig {
    pub fn params(&self) -> crate::channel::hf::HfChannelParams {
        crate::channel::hf::HfChannelParams {
            mean: crate::channel::hf::MeanSnr { start_db: self.snr_db, end_db: self.snr_end_db, ramp_s: self.ramp_s },
            variation_db: self.variation_db,
            time_constant_s: self.time_constant_s,
            doppler_spread_hz: self.doppler_spread_hz,
            per_packet_fading: self.fading == "per_packet",
        }
    }
}

/// The HF presets: Johnson's three channels.
pub const HF_CHANNELS: &[&str] = &["stable_25", "stable_5", "transition"];

fn parse_hf(d: &mut Table, p: &mut Problems) -> DirectionConfig {
    let preset = d.choice("channel", "stable_25", HF_CHANNELS, p);
    let base = crate::channel::hf::HfChannelParams::preset(&preset).unwrap_or_else(|| unreachable!("validated preset"));
    let snr = Range::Closed(-50.0, 100.0);
    let snr_db = d.f64("snr_db", base.mean.start_db, snr, p);
    let snr_end_db = d.f64("snr_end_db", if d.has("snr_db") && !d.has("channel") { snr_db } else { base.mean.end_db }, snr, p);
    let ramp_s = d.f64("ramp_s", base.mean.ramp_s, Range::Closed(0.0, 1e9), p);
    let variation_db = d.f64("variation_db", base.variation_db, Range::Closed(0.0, 100.0), p);
    let time_constant_s = d.f64("time_constant_s", base.time_constant_s, Range::Positive, p);
    let doppler_spread_hz = d.f64("doppler_spread_hz", base.doppler_spread_hz, Range::Positive, p);
    let fading = d.choice("fading", "in_table", &["in_table", "per_packet"], p);
    let modem = match d.raw("modem") {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(v) => {
            p.push(d.path_of("modem"), Some(v), "expected a modem table name or file");
            String::new()
        }
        None => "mil-std-188-110b".to_string(),
    };
    let table = if modem.is_empty() { None } else { crate::channel::modem::ModemTable::load(&modem, &d.path_of("modem"), p) };
    let (modem_offset_db, table) = crate::channel::modem::ModemTable::with_offset(d, table, p);
    DirectionConfig::Hf(HfDirectionConfig { modem, snr_db, snr_end_db, ramp_s, variation_db, time_constant_s, doppler_spread_hz, fading, modem_offset_db, table })
}

/// A number as the user would have written it (9600, not 9600.0).
pub(crate) fn number(x: f64) -> serde_json::Value {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        (x as i64).into()
    } else {
        x.into()
    }
}

/// `reciprocal` of a medium (or `[link]`) whose lanes' error models are `lanes`, named
/// `keys` (`forward`/`reverse`, `a_to_b`/`b_to_a`): both lanes sample one propagation
/// process (`channel::hf`). True only for two `hf` lanes whose propagation keys agree
/// (the modem, the receiver's, may differ); anything else is an error naming the key.
pub fn parse_reciprocal(t: &mut Table, lanes: [&Option<DirectionConfig>; 2], keys: [&str; 2], p: &mut Problems) -> bool {
    if !t.bool("reciprocal", false, p) {
        return false;
    }
    let path = |k: &str| t.path_of(k);
    let hf = |d: &Option<DirectionConfig>| match d {
        Some(DirectionConfig::Hf(h)) => Some(h.clone()),
        _ => None,
    };
    let (Some(a), Some(b)) = (hf(lanes[0]), hf(lanes[1])) else {
        let which = if hf(lanes[0]).is_none() { keys[0] } else { keys[1] };
        p.push(path("reciprocal"), Some(&true.into()), format!("expected false: a reciprocal channel shares one hf channel's fading between the two lanes, and {} is not error_model = \"hf\"", path(which)));
        return false;
    };
    // The propagation keys (the preset `channel` only sets their defaults).
    let fields: [(&str, serde_json::Value, serde_json::Value); 7] = [
        ("snr_db", number(a.snr_db), number(b.snr_db)),
        ("snr_end_db", number(a.snr_end_db), number(b.snr_end_db)),
        ("ramp_s", number(a.ramp_s), number(b.ramp_s)),
        ("variation_db", number(a.variation_db), number(b.variation_db)),
        ("time_constant_s", number(a.time_constant_s), number(b.time_constant_s)),
        ("doppler_spread_hz", number(a.doppler_spread_hz), number(b.doppler_spread_hz)),
        ("fading", a.fading.into(), b.fading.into()),
    ];
    let mut ok = true;
    for (field, want, got) in fields {
        if want != got {
            p.push(format!("{}.{field}", path(keys[1])), Some(&got), format!("expected {want}, as {}.{field}: reciprocal = true makes both lanes one channel", path(keys[0])));
            ok = false;
        }
    }
    ok
}

/// Reads one direction's error model table (`[link.a_to_b]`, a medium's `forward`).
pub fn parse_direction(d: &mut Table, default_ber: f64, p: &mut Problems) -> DirectionConfig {
    let model = d.choice("error_model", "bit", &["none", "bit", "gilbert_elliott", "schedule", "hf"], p);
    match model.as_str() {
        "none" => DirectionConfig::None,
        "hf" => parse_hf(d, p),
        "gilbert_elliott" => DirectionConfig::GilbertElliott {
            good_ber: d.f64("good_ber", 0.0, BER, p),
            bad_ber: d.f64("bad_ber", 0.01, BER, p),
            mean_good_bits: d.f64("mean_good_bits", 1e6, Range::Closed(1.0, 1e15), p),
            mean_bad_bits: d.f64("mean_bad_bits", 1e3, Range::Closed(1.0, 1e15), p),
        },
        "schedule" => {
            let times_s = numbers(d, "times_s", p);
            let bit_error_rates = numbers(d, "bit_error_rates", p);
            if times_s.first() != Some(&0.0) || times_s.windows(2).any(|w| w[1] <= w[0]) {
                p.push(d.path_of("times_s"), None, "expected increasing times in seconds starting at 0");
            } else if times_s.len() != bit_error_rates.len() {
                p.push(d.path_of("bit_error_rates"), None, format!("expected {} rates, one per entry of times_s", times_s.len()));
            } else if let Some(x) = bit_error_rates.iter().find(|x| !(0.0..1.0).contains(*x)) {
                p.push(d.path_of("bit_error_rates"), Some(&(*x).into()), "expected bit-error rates in [0, 1)");
            }
            DirectionConfig::Schedule { times_s, bit_error_rates }
        }
        _ => DirectionConfig::Bit { bit_error_rate: d.f64("bit_error_rate", default_ber, BER, p) },
    }
}

/// A required list of finite numbers.
pub(crate) fn numbers(t: &mut Table, key: &str, p: &mut Problems) -> Vec<f64> {
    let path = t.path_of(key);
    match t.raw(key) {
        Some(serde_json::Value::Array(xs)) if xs.iter().all(|x| x.as_f64().is_some_and(f64::is_finite)) => {
            xs.iter().filter_map(|x| x.as_f64()).collect()
        }
        Some(v) => {
            p.push(path, Some(v), "expected a list of numbers");
            vec![]
        }
        None => {
            p.push(path, None, "missing (expected a list of numbers)");
            vec![]
        }
    }
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
    /// Both directions sample one HF propagation process (`parse_reciprocal`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reciprocal: bool,
}

const BER: Range = Range::HalfOpen(0.0, 1.0);

/// The error model of one direction, if its table (`key`) is given; `bit_error_rate`
/// is the medium's default.
pub fn optional_direction(t: &mut Table, key: &str, bit_error_rate: f64, p: &mut Problems) -> Option<DirectionConfig> {
    if !t.has(key) {
        return None;
    }
    let mut d = t.table(key, p);
    let c = parse_direction(&mut d, bit_error_rate, p);
    d.finish(p);
    Some(c)
}

impl LinkConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> LinkConfig {
        let rate_bps = t.f64("rate_bps", 48_000.0, Range::Closed(1.0, 1e12), p);
        let delay_s = t.f64("delay_s", 0.0, Range::Closed(0.0, 1e6), p);
        let bit_error_rate = t.f64("bit_error_rate", 0.0, BER, p);
        let a_to_b = optional_direction(t, "a_to_b", bit_error_rate, p);
        let b_to_a = optional_direction(t, "b_to_a", bit_error_rate, p);
        let reciprocal = parse_reciprocal(t, [&a_to_b, &b_to_a], ["a_to_b", "b_to_a"], p);
        LinkConfig { rate_bps, delay_s, bit_error_rate, a_to_b, b_to_a, reciprocal }
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
