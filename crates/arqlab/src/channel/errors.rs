//! Bit-error models for one direction of a link.
//!
//! Both models are sampled exactly and fast: instead of drawing a random number per
//! bit, they draw the gap to the next bit error (geometric skipping), so a frame of L
//! bits costs one draw per error, not L. With p = 1e-5 and 1000-bit frames that is one
//! draw every ~100 frames.

use crate::engine::{SimTime, Stream};
use rand::Rng;

/// Draws the number of error-free bits before the next error bit: Geometric(p) on
/// {0, 1, 2, …} by inversion, with `ln_q` = ln(1 − p) precomputed.
#[inline]
fn geometric(rng: &mut Stream, ln_q: f64) -> u64 {
    // 1 − U lies in (0, 1], so the log is finite.
    let u: f64 = 1.0 - rng.random::<f64>();
    let g = (u.ln() / ln_q).floor();
    if g >= u64::MAX as f64 {
        u64::MAX
    } else {
        g as u64
    }
}

/// Independent bit errors with probability `p`: a frame of L bits is in error with
/// probability 1 − (1 − p)^L.
#[derive(Clone, Debug)]
pub struct BitErrors {
    ln_q: f64,
    /// Error-free bits before the next error bit.
    gap: u64,
}

impl BitErrors {
    pub fn new(p: f64, rng: &mut Stream) -> BitErrors {
        let ln_q = (-p).ln_1p();
        let mut b = BitErrors { ln_q, gap: 0 };
        b.gap = geometric(rng, ln_q);
        b
    }

    /// Consumes `bits` bits of the error process; true if any of them is in error.
    #[inline]
    pub fn frame_in_error(&mut self, bits: u64, rng: &mut Stream) -> bool {
        if self.gap >= bits {
            self.gap -= bits;
            return false;
        }
        // The error bit sits at offset `gap`; skip past the rest of the frame.
        let mut pos = self.gap; // offset of an error bit within the frame
        loop {
            let next = geometric(rng, self.ln_q);
            let after = pos.saturating_add(1).saturating_add(next);
            if after >= bits {
                self.gap = after - bits;
                return true;
            }
            pos = after;
        }
    }
}

/// Gilbert–Elliott two-state burst model: a Good and a Bad state with bit-error
/// probabilities `good_ber` and `bad_ber` and geometric sojourn times with means
/// `mean_good_bits` and `mean_bad_bits`. The long-run BER is
/// (mean_good·good_ber + mean_bad·bad_ber) / (mean_good + mean_bad).
#[derive(Clone, Debug)]
pub struct GilbertElliott {
    ln_q_err: [f64; 2],
    /// ln(1 − 1/mean_sojourn) per state: the per-bit probability of leaving.
    ln_q_leave: [f64; 2],
    state: usize,
    /// Bits left in the current state.
    left_in_state: u64,
    /// Error-free bits before the next error in the current state.
    gap: u64,
}

impl GilbertElliott {
    pub fn new(good_ber: f64, bad_ber: f64, mean_good_bits: f64, mean_bad_bits: f64, rng: &mut Stream) -> Self {
        let leave = |m: f64| (-(1.0 / m).min(1.0)).ln_1p();
        let mut g = GilbertElliott {
            ln_q_err: [(-good_ber).ln_1p(), (-bad_ber).ln_1p()],
            ln_q_leave: [leave(mean_good_bits), leave(mean_bad_bits)],
            state: 0,
            left_in_state: 0,
            gap: 0,
        };
        // Start in the stationary distribution so there is no initial transient.
        let p_bad = mean_bad_bits / (mean_good_bits + mean_bad_bits);
        g.state = usize::from(rng.random::<f64>() < p_bad);
        g.enter_state(g.state, rng);
        g
    }

    fn enter_state(&mut self, s: usize, rng: &mut Stream) {
        self.state = s;
        // Sojourn ≥ 1 bit: 1 + Geometric(1/mean).
        self.left_in_state = 1 + geometric(rng, self.ln_q_leave[s]);
        self.gap = geometric(rng, self.ln_q_err[s]);
    }

    /// True if the process is in the Bad state now (for tests and traces).
    pub fn is_bad(&self) -> bool {
        self.state == 1
    }

    /// Out of line: keeps the dispatch in `ErrorModel` small enough to inline.
    #[inline(never)]
    pub fn frame_in_error(&mut self, bits: u64, rng: &mut Stream) -> bool {
        let mut remaining = bits;
        let mut error = false;
        while remaining > 0 {
            let span = remaining.min(self.left_in_state);
            if self.gap < span {
                error = true;
                // Errors are memoryless within a state: redraw the gap after this span.
                self.gap = geometric(rng, self.ln_q_err[self.state]);
            } else {
                self.gap -= span;
            }
            remaining -= span;
            self.left_in_state -= span;
            if self.left_in_state == 0 {
                self.enter_state(1 - self.state, rng);
            }
        }
        error
    }
}

/// Independent bit errors whose probability changes with time: a piecewise-constant
/// schedule of bit-error rates (a fading channel's slow variation, a planned outage).
/// A frame is judged with the rate in force when it starts. The gap to the next error
/// is redrawn when the rate changes, which is exact because the process is memoryless.
#[derive(Clone, Debug)]
pub struct Schedule {
    /// (start, ln(1 − p)) per segment, starts increasing, the first at time 0.
    segments: Vec<(SimTime, f64)>,
    current: usize,
    gap: u64,
}

impl Schedule {
    /// `times[i]` is when `bers[i]` takes effect (`times[0]` must be 0).
    pub fn new(times: &[SimTime], bers: &[f64], rng: &mut Stream) -> Schedule {
        let segments: Vec<(SimTime, f64)> = times.iter().zip(bers).map(|(&t, &p)| (t, (-p).ln_1p())).collect();
        let gap = geometric(rng, segments[0].1);
        Schedule { segments, current: 0, gap }
    }

    /// Out of line: keeps the plain models' dispatch small enough to inline.
    #[inline(never)]
    pub fn frame_in_error(&mut self, now: SimTime, bits: u64, rng: &mut Stream) -> bool {
        let mut moved = false;
        while self.current + 1 < self.segments.len() && self.segments[self.current + 1].0 <= now {
            self.current += 1;
            moved = true;
        }
        let ln_q = self.segments[self.current].1;
        if moved {
            self.gap = geometric(rng, ln_q);
        }
        let mut b = BitErrors { ln_q, gap: self.gap };
        let e = b.frame_in_error(bits, rng);
        self.gap = b.gap;
        e
    }
}

/// The `mode` of a frame that has no airtime of its own (a layer that is not
/// modem-aware): it is sent at the lane's rate, and an HF lane judges it by the modem
/// mode of that rate ([`HfErrors::link_mode`]).
pub const AT_LINK_RATE: u8 = u8::MAX;

/// The error model of one lane (enum dispatch: no `dyn` on the hot path). Models may
/// depend on the time a frame starts and on its transmission mode.
#[derive(Clone, Debug)]
pub enum ErrorModel {
    None,
    Bit(BitErrors),
    GilbertElliott(GilbertElliott),
    Schedule(Schedule),
    /// One model per transmission mode (an adaptive modem's data rates); a mode beyond
    /// the table uses its last entry.
    PerMode(Vec<ErrorModel>),
    /// An HF skywave channel and a modem's PER table (boxed: keeps the enum small).
    Hf(Box<HfErrors>),
}

impl ErrorModel {
    /// Called once per frame: always inlined (the plain models' dispatch is small).
    #[inline(always)]
    pub fn frame_in_error(&mut self, now: SimTime, bits: u64, mode: u8, rng: &mut Stream) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Bit(b) => b.frame_in_error(bits, rng),
            ErrorModel::GilbertElliott(g) => g.frame_in_error(bits, rng),
            ErrorModel::Schedule(s) => s.frame_in_error(now, bits, rng),
            ErrorModel::PerMode(models) => per_mode(models, now, bits, mode, rng),
            ErrorModel::Hf(h) => h.frame_in_error(now, bits, mode, rng),
        }
    }
}

/// Packet errors of an HF link: the channel's SNR at the packet's start mapped through
/// the modem's table for the packet's mode (a data rate, or the copies combined).
#[derive(Clone, Debug)]
pub struct HfErrors {
    pub channel: super::hf::HfChannel,
    pub modem: std::sync::Arc<super::modem::ModemTable>,
    /// The mode of the lane's own rate, for frames sent [`AT_LINK_RATE`] (validated to
    /// exist when a layer that is not modem-aware sends on the lane).
    pub link_mode: u8,
}

impl HfErrors {
    #[inline(never)]
    pub fn frame_in_error(&mut self, now: SimTime, bits: u64, mode: u8, rng: &mut Stream) -> bool {
        let snr = self.channel.snr_db(now, rng);
        let mode = if mode == AT_LINK_RATE { self.link_mode } else { mode };
        let p = self.modem.attempt_failure(mode as usize, bits.min(u32::MAX as u64) as u32, snr);
        rng.random::<f64>() < p
    }
}

/// The model of `mode` (out of line: the recursion would stop the dispatch above from
/// being inlined on the hot path).
#[inline(never)]
fn per_mode(models: &mut [ErrorModel], now: SimTime, bits: u64, mode: u8, rng: &mut Stream) -> bool {
    let last = models.len().saturating_sub(1);
    let mode = if mode == AT_LINK_RATE { 0 } else { mode };
    match models.get_mut((mode as usize).min(last)) {
        Some(m) => m.frame_in_error(now, bits, 0, rng),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    fn frame_error_rate(model: &mut ErrorModel, bits: u64, n: u64, rng: &mut Stream) -> f64 {
        (0..n).filter(|_| model.frame_in_error(SimTime::ZERO, bits, 0, rng)).count() as f64 / n as f64
    }

    #[test]
    fn schedule_follows_the_rate_in_force_and_per_mode_picks_the_table() {
        let mut rng = stream(9, 0, "t");
        let t = |s: f64| SimTime::from_secs_f64(s);
        let mut m = ErrorModel::Schedule(Schedule::new(&[t(0.0), t(10.0), t(20.0)], &[0.0, 1e-3, 0.0], &mut rng));
        let n = 100_000;
        let rate = |m: &mut ErrorModel, at: f64, rng: &mut Stream| (0..n).filter(|_| m.frame_in_error(t(at), 500, 0, rng)).count() as f64 / n as f64;
        assert_eq!(rate(&mut m, 5.0, &mut rng), 0.0);
        let want = 1.0 - (1.0f64 - 1e-3).powi(500);
        let got = rate(&mut m, 15.0, &mut rng);
        assert!((got - want).abs() < 4.0 * (want * (1.0 - want) / n as f64).sqrt(), "{got} vs {want}");
        assert_eq!(rate(&mut m, 25.0, &mut rng), 0.0, "back to error free");
        let mut pm = ErrorModel::PerMode(vec![ErrorModel::None, ErrorModel::Bit(BitErrors::new(0.5, &mut rng))]);
        assert!(!(0..100).any(|_| pm.frame_in_error(SimTime::ZERO, 100, 0, &mut rng)));
        assert!((0..100).all(|_| pm.frame_in_error(SimTime::ZERO, 100, 1, &mut rng)));
        assert!((0..100).all(|_| pm.frame_in_error(SimTime::ZERO, 100, 7, &mut rng)), "beyond the table: last entry");
    }

    #[test]
    fn bit_errors_give_the_frame_error_probability() {
        let mut rng = stream(7, 0, "t");
        for (p, bits) in [(1e-5, 1048u64), (1e-4, 1048), (1e-3, 200), (1e-2, 100)] {
            let mut m = ErrorModel::Bit(BitErrors::new(p, &mut rng));
            let n = 400_000;
            let got = frame_error_rate(&mut m, bits, n, &mut rng);
            let want = 1.0 - (1.0 - p).powi(bits as i32);
            let sd = (want * (1.0 - want) / n as f64).sqrt();
            assert!((got - want).abs() < 4.0 * sd, "p={p} L={bits}: got {got}, want {want}");
        }
    }

    #[test]
    fn frames_are_independent_under_bit_errors() {
        // P(both of two consecutive frames in error) = P².
        let mut rng = stream(3, 0, "t");
        let mut m = BitErrors::new(1e-3, &mut rng);
        let (mut both, n) = (0u64, 400_000u64);
        for _ in 0..n {
            let a = m.frame_in_error(500, &mut rng);
            let b = m.frame_in_error(500, &mut rng);
            both += u64::from(a && b);
        }
        let pf = 1.0 - (1.0f64 - 1e-3).powi(500);
        let got = both as f64 / n as f64;
        let sd = (pf * pf * (1.0 - pf * pf) / n as f64).sqrt();
        assert!((got - pf * pf).abs() < 4.0 * sd, "got {got}, want {}", pf * pf);
    }

    #[test]
    fn gilbert_elliott_long_run_ber_and_burstiness() {
        let mut rng = stream(11, 0, "t");
        let (gb, bb, mg, mb) = (1e-6, 1e-2, 50_000.0, 2_000.0);
        let mut m = GilbertElliott::new(gb, bb, mg, mb, &mut rng);
        // Single-bit frames measure the BER directly.
        let n = 4_000_000u64;
        let errs = (0..n).filter(|_| m.frame_in_error(1, &mut rng)).count() as f64;
        let want = (mg * gb + mb * bb) / (mg + mb);
        let got = errs / n as f64;
        assert!((got - want).abs() / want < 0.1, "BER got {got}, want {want}");
        // Burstiness: frame errors cluster, so P(err | previous err) >> P(err).
        let mut prev = false;
        let (mut e, mut ee, mut frames) = (0u64, 0u64, 0u64);
        for _ in 0..200_000 {
            let x = m.frame_in_error(1000, &mut rng);
            e += u64::from(x);
            ee += u64::from(x && prev);
            prev = x;
            frames += 1;
        }
        let p = e as f64 / frames as f64;
        let p_cond = ee as f64 / e as f64;
        assert!(p_cond > 3.0 * p, "P(err|err)={p_cond} vs P(err)={p}");
    }

    #[test]
    fn reciprocal_hf_lanes_keep_each_lanes_packet_error_rate_and_fail_together() {
        // Closed forms over the stationary mid-term X ~ N(0, σ²) at mean SNR s: each lane
        // loses E[PER(s + X)] of its packets under either reading; two packets sent at
        // the same instant on the two lanes both fail with E[PER(s + X)²] when the lanes
        // share X (reciprocal), E[PER(s + X)]² when they fade independently.
        use crate::channel::hf::{HfChannel, HfChannelParams};
        use crate::channel::modem::ModemTable;
        let modem = ModemTable::load("mil-std-188-110b-johnson", "modem", &mut crate::schema::Problems::default()).unwrap();
        let (mode, bits) = (modem.mode_at_rate(300.0).unwrap(), 1728u32);
        let p = HfChannelParams::preset("stable_5").unwrap();
        let (s, sigma) = (p.mean.start_db, p.variation_db);
        // E[f(X)] by the trapezoid rule over ±8σ.
        let expect = |f: &dyn Fn(f64) -> f64| {
            let (n, h) = (4000, 16.0 * sigma / 4000.0);
            (0..=n)
                .map(|k| {
                    let x = -8.0 * sigma + k as f64 * h;
                    let w = if k == 0 || k == n { 0.5 } else { 1.0 };
                    w * h * f(x) * (-0.5 * (x / sigma).powi(2)).exp() / (sigma * std::f64::consts::TAU.sqrt())
                })
                .sum::<f64>()
        };
        let per = |x: f64| modem.per(mode, bits, s + x);
        let (marginal, joint_shared) = (expect(&per), expect(&|x| per(x).powi(2)));
        let joint_independent = marginal * marginal;
        assert!(joint_shared - joint_independent > 0.05, "the closed forms must tell the readings apart");
        let lanes = |channels: [HfChannel; 2]| channels.map(|channel| HfErrors { channel, modem: modem.clone(), link_mode: 0 });
        let (reps, per_rep) = (40u64, 500u32);
        for reciprocal in [false, true] {
            let (mut fail, mut both, mut n) = ([0u64; 2], 0u64, 0u64);
            for r in 0..reps {
                let mut rng = [stream(21, r, "a"), stream(21, r, "b")];
                let [mut a, mut b] = if reciprocal {
                    lanes(HfChannel::reciprocal(&p, stream(21, r, "channel")))
                } else {
                    lanes([HfChannel::new(&p, &mut rng[0]), HfChannel::new(&p, &mut rng[1])])
                };
                // 60 s apart (six time constants): nearly independent samples of X.
                for k in 0..per_rep {
                    let now = SimTime::from_secs_f64(60.0 * k as f64);
                    let ea = a.frame_in_error(now, bits as u64, mode as u8, &mut rng[0]);
                    let eb = b.frame_in_error(now, bits as u64, mode as u8, &mut rng[1]);
                    fail[0] += u64::from(ea);
                    fail[1] += u64::from(eb);
                    both += u64::from(ea && eb);
                    n += 1;
                }
            }
            let nf = n as f64;
            let bound = |q: f64| 4.0 * (q * (1.0 - q) / nf).sqrt();
            for (lane, f) in fail.iter().enumerate() {
                let got = *f as f64 / nf;
                assert!((got - marginal).abs() < bound(marginal), "reciprocal={reciprocal} lane {lane}: PER {got}, closed form {marginal}");
            }
            let want = if reciprocal { joint_shared } else { joint_independent };
            let got = both as f64 / nf;
            assert!((got - want).abs() < bound(want), "reciprocal={reciprocal}: both lost {got}, closed form {want}");
        }
    }

    #[test]
    fn no_errors_model_never_errs() {
        let mut rng = stream(1, 0, "t");
        let mut m = ErrorModel::None;
        assert_eq!(frame_error_rate(&mut m, 10_000, 1000, &mut rng), 0.0);
    }
}
