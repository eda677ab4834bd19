//! The HF skywave channel (Watterson model, ITU-R F.1487 / CCIR 520 "poor": two
//! equal-power paths 2 ms apart, each Rayleigh fading with a Gaussian Doppler spectrum
//! of 1 Hz spread) under a "mid-term" lognormal SNR variation around a long-term mean
//! (Johnson's Walnut Street model): SNR_dB(t) = mean(t) + X(t), X an Ornstein–Uhlenbeck
//! process with standard deviation σ and time constant T.
//!
//! Nothing is simulated per symbol: the channel is sampled when a packet starts.
//! - X is Markov, so the update over any elapsed interval Δ is exact:
//!   X ← ρX + σ√(1−ρ²)·Z with ρ = exp(−Δ/T); X starts in its stationary law.
//! - A path's complex gain g(t) has autocorrelation exp(−2π²σ_f²τ²) (σ_f = spread/2,
//!   the Watterson convention: the spread is twice the spectrum's standard deviation).
//!   That process is not Markov; it is sampled at arbitrary times exactly as a sum of
//!   N sinusoids with Gaussian-distributed Doppler shifts and uniform phases (the
//!   Monte-Carlo sum-of-sinusoids method): E[g(t)g*(t+τ)] = E[e^{j2πfτ}] is exactly the
//!   target autocorrelation, and g is Gaussian (|g| Rayleigh) as N grows.
//!
//! The modem tables (MIL-STD figures) are specified *on* this fading channel, so the
//! packet error rate is looked up at the mid-term SNR by default and the fast fading is
//! inside the table; `per_packet` fading instead scales the SNR by the two paths' power
//! gain at the packet's start, for tables measured on a non-fading channel.
//!
//! A *reciprocal* medium's two lanes sample one propagation process (one mid-term X and,
//! with per-packet fading, one pair of paths): a single-frequency skywave link's two
//! directions ride the same ionospheric paths, while the noise at each receiver — the
//! packet-error draw against the table — stays the lane's own. The shared X draws from
//! its own stream, so neither lane's error draws depend on when the other transmits, and
//! two lanes sampling at the same instant read the same X in either order.

use crate::engine::{Duration, SimTime, Stream};
use rand::Rng;
use std::cell::RefCell;
use std::rc::Rc;

/// A standard normal variate (Box–Muller; one of the pair is used, so the stream
/// consumption per draw is fixed: two uniforms).
#[inline]
pub fn normal(rng: &mut Stream) -> f64 {
    let u1: f64 = 1.0 - rng.random::<f64>(); // (0, 1]
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The long-term mean SNR: `start_db` until `ramp_start_s`, then linear to `end_db`
/// over `ramp_s`, then `end_db` (a stable channel has start = end).
#[derive(Clone, Debug, PartialEq)]
pub struct MeanSnr {
    pub start_db: f64,
    pub end_db: f64,
    pub ramp_s: f64,
}

impl MeanSnr {
    #[inline]
    pub fn at(&self, t_s: f64) -> f64 {
        if self.ramp_s <= 0.0 {
            return self.start_db;
        }
        self.start_db + (self.end_db - self.start_db) * (t_s / self.ramp_s).clamp(0.0, 1.0)
    }
}

/// The mid-term variation X(t) in dB: Ornstein–Uhlenbeck, sampled exactly.
#[derive(Clone, Debug)]
pub struct MidTerm {
    sigma_db: f64,
    tau_s: f64,
    x: f64,
    at: SimTime,
    /// The last step's interval and its (ρ, σ√(1−ρ²)): the packets of a burst are
    /// sampled at equal intervals, so most steps reuse them instead of an exp and a sqrt.
    step: (Duration, f64, f64),
}

impl MidTerm {
    pub fn new(sigma_db: f64, tau_s: f64, rng: &mut Stream) -> MidTerm {
        MidTerm { sigma_db, tau_s, x: sigma_db * normal(rng), at: SimTime::ZERO, step: (Duration::ZERO, 1.0, 0.0) }
    }

    /// X at `now` (≥ the previous sample time); draws one normal only if time moved.
    pub fn sample(&mut self, now: SimTime, rng: &mut Stream) -> f64 {
        if now > self.at && self.sigma_db > 0.0 {
            let dt = now - self.at;
            if dt != self.step.0 {
                let rho = (-dt.as_secs_f64() / self.tau_s).exp();
                self.step = (dt, rho, self.sigma_db * (1.0 - rho * rho).max(0.0).sqrt());
            }
            let (_, rho, scale) = self.step;
            self.x = rho * self.x + scale * normal(rng);
        }
        self.at = self.at.max(now);
        self.x
    }
}

/// Sinusoids per quadrature path gain.
pub const SINUSOIDS: usize = 32;

/// One path's complex gain g(t), E|g|² = 1, Gaussian Doppler spectrum.
#[derive(Clone, Debug)]
pub struct RayleighPath {
    /// (angular Doppler frequency 2πf_n, phase φ_n) per sinusoid.
    terms: Vec<(f64, f64)>,
}

impl RayleighPath {
    /// `spread_hz` is the Watterson two-sigma Doppler spread.
    pub fn new(spread_hz: f64, rng: &mut Stream) -> RayleighPath {
        let sigma_f = spread_hz / 2.0;
        let terms = (0..SINUSOIDS)
            .map(|_| (std::f64::consts::TAU * sigma_f * normal(rng), std::f64::consts::TAU * rng.random::<f64>()))
            .collect();
        RayleighPath { terms }
    }

    /// (re, im) of g(t).
    pub fn gain(&self, t_s: f64) -> (f64, f64) {
        let norm = (1.0 / SINUSOIDS as f64).sqrt();
        let (mut re, mut im) = (0.0, 0.0);
        for &(w, phi) in &self.terms {
            let (s, c) = (w * t_s + phi).sin_cos();
            re += c;
            im += s;
        }
        (re * norm, im * norm)
    }

    /// |g(t)|².
    pub fn power(&self, t_s: f64) -> f64 {
        let (re, im) = self.gain(t_s);
        re * re + im * im
    }
}

/// Parameters of one lane's HF channel.
#[derive(Clone, Debug, PartialEq)]
pub struct HfChannelParams {
    pub mean: MeanSnr,
    /// Standard deviation of the mid-term lognormal variation (dB).
    pub variation_db: f64,
    pub time_constant_s: f64,
    pub doppler_spread_hz: f64,
    /// Scale the SNR by the two paths' power gain at each packet (tables measured on a
    /// non-fading channel); off: the table includes the fading.
    pub per_packet_fading: bool,
}

impl HfChannelParams {
    /// Johnson's three channels: "stable_25", "stable_5", "transition" (25 → 5 dB over
    /// one hour, 30 dB variation); 10 s time constant, 1 Hz Doppler spread.
    pub fn preset(name: &str) -> Option<HfChannelParams> {
        let (start_db, end_db, ramp_s, variation_db) = match name {
            "stable_25" => (25.0, 25.0, 0.0, 4.0),
            "stable_5" => (5.0, 5.0, 0.0, 4.0),
            "transition" => (25.0, 5.0, 3600.0, 30.0),
            _ => return None,
        };
        Some(HfChannelParams { mean: MeanSnr { start_db, end_db, ramp_s }, variation_db, time_constant_s: 10.0, doppler_spread_hz: 1.0, per_packet_fading: false })
    }
}

/// A lane's mid-term variation: its own (drawn from the lane's stream), or the one
/// both lanes of a reciprocal medium share (drawn from the medium's stream).
#[derive(Clone, Debug)]
enum Mid {
    Own(MidTerm),
    Shared(Rc<RefCell<(MidTerm, Stream)>>),
}

/// The sampled channel of one lane.
#[derive(Clone, Debug)]
pub struct HfChannel {
    mean: MeanSnr,
    mid: Mid,
    /// The two Watterson paths (only sampled with per-packet fading).
    paths: Option<[RayleighPath; 2]>,
}

fn paths(p: &HfChannelParams, rng: &mut Stream) -> Option<[RayleighPath; 2]> {
    p.per_packet_fading.then(|| [RayleighPath::new(p.doppler_spread_hz, rng), RayleighPath::new(p.doppler_spread_hz, rng)])
}

impl HfChannel {
    /// A lane with its own propagation, drawn from the lane's stream `rng`.
    pub fn new(p: &HfChannelParams, rng: &mut Stream) -> HfChannel {
        let mid = Mid::Own(MidTerm::new(p.variation_db, p.time_constant_s, rng));
        HfChannel { mean: p.mean.clone(), mid, paths: paths(p, rng) }
    }

    /// The two lanes of a reciprocal medium: one mid-term process and one pair of paths
    /// (a path's gain is a function of time, so each lane holds a copy), drawn from the
    /// medium's own stream `rng`, which the shared process keeps.
    pub fn reciprocal(p: &HfChannelParams, mut rng: Stream) -> [HfChannel; 2] {
        let mid = MidTerm::new(p.variation_db, p.time_constant_s, &mut rng);
        let paths = paths(p, &mut rng);
        let shared = Rc::new(RefCell::new((mid, rng)));
        [0, 1].map(|_| HfChannel { mean: p.mean.clone(), mid: Mid::Shared(Rc::clone(&shared)), paths: paths.clone() })
    }

    /// The SNR (dB) a packet starting at `now` sees; `rng` is the lane's stream.
    pub fn snr_db(&mut self, now: SimTime, rng: &mut Stream) -> f64 {
        let t = now.as_secs_f64();
        let x = match &mut self.mid {
            Mid::Own(m) => m.sample(now, rng),
            Mid::Shared(s) => {
                let (m, own) = &mut *s.borrow_mut();
                m.sample(now, own)
            }
        };
        let snr = self.mean.at(t) + x;
        match &self.paths {
            // Two equal-power paths share the mean power: gain (|g1|² + |g2|²)/2.
            Some([a, b]) => snr + 10.0 * ((a.power(t) + b.power(t)) / 2.0).max(1e-12).log10(),
            None => snr,
        }
    }
}

#[cfg(test)]
#[path = "hf_rule_tests.rs"]
mod rule_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    /// Mean, variance and lag-Δ autocorrelation of X sampled every `dt` seconds, with
    /// batch-means CIs (the samples are correlated).
    fn moments(xs: &[f64], lag: usize) -> (f64, f64, f64) {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        let v = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n;
        let c = xs.windows(lag + 1).map(|w| (w[0] - m) * (w[lag] - m)).sum::<f64>() / (n - lag as f64);
        (m, v, c / v)
    }

    #[test]
    fn mid_term_snr_has_the_mean_variance_and_time_constant() {
        let p = HfChannelParams::preset("stable_5").unwrap();
        // Independent replications give the CI without modelling the correlation.
        let (reps, per_rep) = (40, 4000);
        let (mut ms, mut vs, mut rs) = (vec![], vec![], vec![]);
        for r in 0..reps {
            let mut rng = stream(5, r, "hf");
            let mut ch = HfChannel::new(&p, &mut rng);
            // Irregular sampling times: the exact update must not depend on the grid.
            let mut t = 0.0;
            let xs: Vec<f64> = (0..per_rep)
                .map(|k| {
                    t += if k % 2 == 0 { 1.5 } else { 0.5 };
                    ch.snr_db(SimTime::from_secs_f64(t), &mut rng)
                })
                .collect();
            // Lag of 10 samples = 10 s: the autocorrelation should be e^{-1}.
            let (m, v, r10) = moments(&xs, 10);
            ms.push(m);
            vs.push(v);
            rs.push(r10);
        }
        let ci = |xs: &[f64]| {
            let n = xs.len() as f64;
            let m = xs.iter().sum::<f64>() / n;
            let s = (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            (m, 2.7 * s / n.sqrt()) // t_{0.995, 39}
        };
        let (m, hm) = ci(&ms);
        assert!((m - 5.0).abs() < hm, "mean {m} ± {hm}");
        let (v, hv) = ci(&vs);
        // Finite-sample variance about the sample mean is biased low by about
        // 2T/span (≈ 0.6 % here); well inside the CI.
        assert!((v - 16.0).abs() < hv + 16.0 * 0.01, "variance {v} ± {hv}");
        let (r, hr) = ci(&rs);
        assert!((r - (-1.0f64).exp()).abs() < hr + 0.01, "lag-10 s autocorrelation {r} ± {hr}, want e^-1");
    }

    #[test]
    fn reciprocal_lanes_read_one_snr_at_the_same_instant_in_either_order() {
        // Johnson's channel read as one process: both lanes of a reciprocal medium see
        // the same SNR at the same time, whichever samples first, and the shared
        // process never draws from a lane's own stream (that stays the receiver's noise).
        let mut p = HfChannelParams::preset("stable_5").unwrap();
        p.per_packet_fading = true; // the paths are shared too
        let times = [0.0, 0.0, 1.7, 4.2, 4.2, 30.0, 30.5, 90.0];
        let run = |lane1_first: bool| {
            let [mut a, mut b] = HfChannel::reciprocal(&p, stream(7, 0, "medium.hf.channel"));
            let (mut ra, mut rb) = (stream(7, 0, "a"), stream(7, 0, "b"));
            let mut seen = vec![];
            for &t in &times {
                let now = SimTime::from_secs_f64(t);
                let (x, y) = if lane1_first {
                    let y = b.snr_db(now, &mut rb);
                    (a.snr_db(now, &mut ra), y)
                } else {
                    let x = a.snr_db(now, &mut ra);
                    (x, b.snr_db(now, &mut rb))
                };
                assert_eq!(x, y, "t = {t} s: the two lanes of one channel disagree");
                seen.push(x);
            }
            // The lanes' streams are untouched: their next draws are a fresh stream's first.
            assert_eq!(ra.random::<u64>(), stream(7, 0, "a").random::<u64>());
            assert_eq!(rb.random::<u64>(), stream(7, 0, "b").random::<u64>());
            seen
        };
        assert_eq!(run(false), run(true), "the shared process depends on the sample instants, not on which lane samples");
        let seen = run(false);
        assert!(seen.windows(2).any(|w| w[0] != w[1]), "the shared SNR varies");
        // Independent lanes (the default) do not agree.
        let (mut ra, mut rb) = (stream(7, 0, "a"), stream(7, 0, "b"));
        let (mut a, mut b) = (HfChannel::new(&p, &mut ra), HfChannel::new(&p, &mut rb));
        let now = SimTime::from_secs_f64(1.7);
        assert_ne!(a.snr_db(now, &mut ra), b.snr_db(now, &mut rb));
    }

    #[test]
    fn transition_mean_falls_linearly_then_stays() {
        let m = HfChannelParams::preset("transition").unwrap().mean;
        assert_eq!(m.at(0.0), 25.0);
        assert_eq!(m.at(1800.0), 15.0);
        assert_eq!(m.at(3600.0), 5.0);
        assert_eq!(m.at(7200.0), 5.0);
        assert_eq!(HfChannelParams::preset("stable_25").unwrap().mean.at(99.0), 25.0);
    }

    #[test]
    fn each_path_fades_rayleigh_with_the_gaussian_doppler_autocorrelation() {
        // Across many independent paths: |g|² is exponential with mean 1 (Rayleigh
        // amplitude): P(|g|² > x) = e^{-x}; and E[g(t) g*(t+τ)] = exp(-2π²σ_f²τ²).
        let n = 20_000;
        let mut rng = stream(3, 0, "paths");
        let (mut p1, mut tail, mut corr) = (0.0, [0usize; 3], 0.0);
        let tau = 0.3;
        let sigma_f = 0.5;
        for _ in 0..n {
            let path = RayleighPath::new(1.0, &mut rng);
            let t0 = 100.0 * rng.random::<f64>();
            let (a, b) = path.gain(t0);
            let (c, d) = path.gain(t0 + tau);
            let pw = a * a + b * b;
            p1 += pw;
            for (k, x) in [0.5, 1.0, 2.0].iter().enumerate() {
                tail[k] += usize::from(pw > *x);
            }
            corr += a * c + b * d; // Re[g(t) g*(t+τ)]
        }
        let nf = n as f64;
        assert!((p1 / nf - 1.0).abs() < 4.0 / nf.sqrt(), "E|g|² = {}", p1 / nf);
        for (k, x) in [0.5f64, 1.0, 2.0].iter().enumerate() {
            let want = (-x).exp();
            let got = tail[k] as f64 / nf;
            assert!((got - want).abs() < 4.0 * (want * (1.0 - want) / nf).sqrt() + 0.005, "P(|g|²>{x}) = {got}, want {want}");
        }
        let want = (-2.0 * std::f64::consts::PI.powi(2) * sigma_f * sigma_f * tau * tau).exp();
        // Var of Re[g g*] ≤ E|g|⁴ = 2: the sd of the mean is ≤ √(2/n).
        assert!((corr / nf - want).abs() < 4.0 * (2.0 / nf).sqrt(), "autocorrelation {} vs {want}", corr / nf);
    }

    #[test]
    fn per_packet_fading_lowers_the_mean_snr_in_db() {
        // E[10 log10 of (|g1|²+|g2|²)/2] for two independent exponentials (a
        // Gamma(2, 1/2)) is 10/ln10 · (ψ(2) − ln 2) = −0.5167 dB.
        let mut p = HfChannelParams::preset("stable_25").unwrap();
        p.variation_db = 0.0;
        p.per_packet_fading = true;
        let want = 10.0 / std::f64::consts::LN_10 * ((1.0 - 0.5772156649) - std::f64::consts::LN_2);
        let n = 20_000;
        let mut sum = 0.0;
        for r in 0..n {
            let mut rng = stream(4, r, "f");
            let mut ch = HfChannel::new(&p, &mut rng);
            sum += ch.snr_db(SimTime::from_secs_f64(3.0), &mut rng) - 25.0;
        }
        // sd of 10log10(Gamma(2)/2) ≈ 3.4 dB.
        assert!((sum / n as f64 - want).abs() < 4.0 * 3.4 / (n as f64).sqrt(), "{} vs {want}", sum / n as f64);
    }
}
