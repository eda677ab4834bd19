//! Rule tests of the HF channel model (`hf.rs`), each named after the documented rule it
//! guards: the exact Ornstein–Uhlenbeck update and its stream use, SNR_dB(t) = mean(t) +
//! X(t), a path's gain as the sum of sinusoids, the two paths' power gain, and the
//! Box–Muller normal.
use super::*;
use crate::engine::stream;

fn at(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

/// "Draws one normal only if time moved": a second sample at the same instant returns
/// the same X and leaves the stream as it was, so the next step is the one a channel
/// sampled once at that instant takes.
#[test]
fn mid_term_x_draws_nothing_when_sampled_again_at_the_same_instant() {
    let (mut once, mut twice) = (stream(9, 0, "x"), stream(9, 0, "x"));
    let mut a = MidTerm::new(4.0, 10.0, &mut once);
    let mut b = MidTerm::new(4.0, 10.0, &mut twice);
    // At time 0 (the start) and at 1.7 s, after a step.
    for t in [0.0, 1.7] {
        let x = a.sample(at(t), &mut once);
        assert_eq!(b.sample(at(t), &mut twice), x);
        assert_eq!(b.sample(at(t), &mut twice), x, "t = {t} s: X changed without time moving");
        assert_eq!(once.clone().random::<u64>(), twice.clone().random::<u64>(), "t = {t} s: a draw was spent");
    }
    assert_eq!(a.sample(at(3.1), &mut once), b.sample(at(3.1), &mut twice));
}

/// σ = 0: X stays 0 and the lane's stream (its packet-error draws) is never touched.
#[test]
fn mid_term_x_without_variation_is_zero_and_draws_nothing() {
    let mut rng = stream(9, 1, "x");
    let mut m = MidTerm::new(0.0, 10.0, &mut rng);
    let after_new = rng.clone();
    for t in [0.5, 1.0, 7.25, 100.0] {
        assert_eq!(m.sample(at(t), &mut rng), 0.0);
    }
    assert_eq!(rng.random::<u64>(), after_new.clone().random::<u64>(), "a zero variation spent draws of the lane's stream");
}

/// The exact update X ← ρX + σ√(1−ρ²)·Z, ρ = exp(−Δ/T), checked step by step against
/// the normals the same stream gives, over unequal and repeated intervals (the cached
/// step must follow the interval).
#[test]
fn mid_term_x_follows_the_exact_ornstein_uhlenbeck_step() {
    let (sigma, tau) = (4.0, 10.0);
    let mut rng = stream(9, 2, "x");
    let mut mirror = rng.clone();
    let mut m = MidTerm::new(sigma, tau, &mut rng);
    let mut x = sigma * normal(&mut mirror);
    let mut last = 0.0;
    for t in [1.5, 2.0, 3.5, 4.0, 5.5, 15.5, 25.5] {
        let rho = (-(t - last) / tau).exp();
        x = rho * x + sigma * (1.0 - rho * rho).sqrt() * normal(&mut mirror);
        last = t;
        let got = m.sample(at(t), &mut rng);
        assert!((got - x).abs() < 1e-12, "t = {t} s: X = {got}, want {x}");
    }
}

/// SNR_dB(t) = mean(t) + X(t): the channel's SNR minus the long-term mean is the
/// mid-term X drawn from the same stream (no per-packet fading).
#[test]
fn snr_is_the_long_term_mean_plus_the_mid_term_variation() {
    let p = HfChannelParams::preset("transition").unwrap();
    let mut rng = stream(9, 3, "lane");
    let mut mirror = rng.clone();
    let mut ch = HfChannel::new(&p, &mut rng);
    let mut x = MidTerm::new(p.variation_db, p.time_constant_s, &mut mirror);
    for t in [0.0, 10.0, 900.0, 1800.0, 4000.0] {
        let want = p.mean.at(t) + x.sample(at(t), &mut mirror);
        assert_eq!(ch.snr_db(at(t), &mut rng), want, "t = {t} s");
    }
}

/// A path's gain is g(t) = N^−1/2 Σ_n exp(j(2πf_n t + φ_n)), the sum of sinusoids,
/// and |g(t)|² its power.
#[test]
fn path_gain_is_the_normalised_sum_of_sinusoids() {
    let mut rng = stream(9, 4, "path");
    let path = RayleighPath::new(1.0, &mut rng);
    assert_eq!(path.terms.len(), SINUSOIDS);
    let norm = 1.0 / (SINUSOIDS as f64).sqrt();
    for t in [0.0, 0.37, 12.5] {
        let (re, im) = path.terms.iter().fold((0.0, 0.0), |(re, im), &(w, phi)| (re + (w * t + phi).cos(), im + (w * t + phi).sin()));
        let (a, b) = path.gain(t);
        assert!((a - re * norm).abs() < 1e-12 && (b - im * norm).abs() < 1e-12, "t = {t}: g = ({a}, {b}), want ({}, {})", re * norm, im * norm);
        assert!((path.power(t) - (a * a + b * b)).abs() < 1e-12, "t = {t}: power is not |g|²");
    }
}

/// Per-packet fading: SNR + 10·log10((|g1|² + |g2|²)/2), the two equal-power paths
/// sharing the mean power, at the packet's start time.
#[test]
fn per_packet_fading_adds_the_two_paths_mean_power_gain_in_db() {
    let mut p = HfChannelParams::preset("stable_25").unwrap();
    p.variation_db = 0.0;
    p.per_packet_fading = true;
    let mut rng = stream(9, 5, "lane");
    let mut mirror = rng.clone();
    let mut ch = HfChannel::new(&p, &mut rng);
    MidTerm::new(0.0, p.time_constant_s, &mut mirror);
    let (a, b) = (RayleighPath::new(1.0, &mut mirror), RayleighPath::new(1.0, &mut mirror));
    for t in [0.0, 0.8, 3.0, 41.0] {
        let want = 25.0 + 10.0 * ((a.power(t) + b.power(t)) / 2.0).log10();
        let got = ch.snr_db(at(t), &mut rng);
        assert!((got - want).abs() < 1e-9, "t = {t} s: {got} dB, want {want}");
    }
}

/// Box–Muller: the normal's distribution function at −2, −1, 0, 1, 2 over 200 000
/// draws, each within 5 standard errors.
#[test]
fn normal_has_the_standard_normal_distribution() {
    let mut rng = stream(9, 6, "normal");
    let n = 200_000;
    let zs: Vec<f64> = (0..n).map(|_| normal(&mut rng)).collect();
    // Φ(z) for z = −2, −1, 0, 1, 2.
    for (z, phi) in [(-2.0, 0.022750131948179), (-1.0, 0.158655253931457), (0.0, 0.5), (1.0, 0.841344746068543), (2.0, 0.977249868051821)] {
        let got = zs.iter().filter(|&&x| x < z).count() as f64 / n as f64;
        let se = (phi * (1.0 - phi) / n as f64).sqrt();
        assert!((got - phi).abs() < 5.0 * se, "P(Z < {z}) = {got}, want {phi}");
    }
}
