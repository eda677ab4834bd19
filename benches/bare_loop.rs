//! The bare loop: the reference scenario written by hand for this one model, the yardstick
//! the engine is timed against (`make bench-vs-bare`, and the `reference` criterion group).
//!
//! Saturated go-back-N one way (W = 7, 1000 + 48 bits per I frame, 48-bit RR/REJ, one
//! REJ per gap, T1 = 1 s counted from the frame's end), 48 kbit/s each way, t_p = 50 ms,
//! independent bit errors p = 1e-5 both ways: `scenarios/go_back_n.toml`. Nothing a
//! general runner does beyond the model itself: a `std` binary heap of (time, insertion
//! number, event) with payloads inside the events, integer nanoseconds, xoshiro256++
//! seeded by SplitMix64, bit errors drawn as geometric gaps (one logarithm per errored
//! bit), one lazy timer event (a moved deadline is re-armed when the old one fires), and
//! only counters as measures. Events counted = heap pops, lazy re-arms included.
//!
//! `cargo run --release -p arqlab --example bare_loop -- [SIM_SECONDS] [--seed N]`

use std::cmp::Ordering;
use std::collections::BinaryHeap;

const W: u64 = 7;
const INFO_BITS: u64 = 1000;
const I_BITS: u64 = INFO_BITS + 48;
const ACK_BITS: u64 = 48;
const RATE: f64 = 48_000.0;
const P_BIT: f64 = 1e-5;
const TP: u64 = 50_000_000; // 50 ms in ns
const T1: u64 = 1_000_000_000; // 1 s in ns

fn bits_ns(bits: u64) -> u64 {
    (bits as f64 / RATE * 1e9).round() as u64
}

struct Xoshiro256pp([u64; 4]);

impl Xoshiro256pp {
    fn new(seed: u64) -> Self {
        let mut z = seed;
        Self(std::array::from_fn(|_| {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut v = z;
            v = (v ^ (v >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            v = (v ^ (v >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            v ^ (v >> 31)
        }))
    }
    #[inline(always)]
    fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let r = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        r
    }
    /// Uniform in (0, 1].
    #[inline(always)]
    fn open01(&mut self) -> f64 {
        1.0 - (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Independent bit errors: `gap` error-free bits before the next errored one.
struct BitErrors {
    gap: u64,
    inv_ln1mp: f64,
}

impl BitErrors {
    fn new(p: f64, rng: &mut Xoshiro256pp) -> Self {
        let mut b = Self { gap: 0, inv_ln1mp: 1.0 / (-p).ln_1p() };
        b.gap = b.geom(rng);
        b
    }
    /// P(G = k) = (1 - p)^k p.
    #[inline(always)]
    fn geom(&self, rng: &mut Xoshiro256pp) -> u64 {
        (rng.open01().ln() * self.inv_ln1mp) as u64
    }
    /// Whether a frame of `bits` bits has at least one bit in error.
    #[inline(always)]
    fn frame(&mut self, bits: u64, rng: &mut Xoshiro256pp) -> bool {
        if self.gap >= bits {
            self.gap -= bits;
            return false;
        }
        let mut rest = bits - self.gap - 1;
        loop {
            let g = self.geom(rng);
            if g >= rest {
                self.gap = g - rest;
                return true;
            }
            rest -= g + 1;
        }
    }
}

#[derive(Clone, Copy)]
enum Kind {
    TxEnd,
    Frame { seq: u64, bad: bool },
    Ack { rej: bool, nr: u64, bad: bool },
    Timer,
}

struct Ev {
    t: u64,
    id: u64,
    kind: Kind,
}

impl PartialEq for Ev {
    fn eq(&self, o: &Self) -> bool {
        (self.t, self.id) == (o.t, o.id)
    }
}
impl Eq for Ev {}
impl PartialOrd for Ev {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Ev {
    /// Reversed: `BinaryHeap` is a max-heap and the earliest (t, id) must come first.
    #[inline(always)]
    fn cmp(&self, o: &Self) -> Ordering {
        (o.t, o.id).cmp(&(self.t, self.id))
    }
}

/// What a run counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BareCounts {
    pub events: u64,
    pub delivered: u64,
    pub frames_sent: u64,
    pub acks_sent: u64,
    pub rejs: u64,
    pub timeouts: u64,
}

struct Sim {
    heap: BinaryHeap<Ev>,
    now: u64,
    next_id: u64,
    rng: Xoshiro256pp,
    fwd: BitErrors,
    rev: BitErrors,
    t_i: u64,
    t_a: u64,
    // sender: V(A) = base, V(S) = next_seq (not reduced modulo 8: the bare loop needs no wrap)
    base: u64,
    next_seq: u64,
    tx_busy: bool,
    deadline: Option<u64>,
    timer_pending: bool,
    // receiver: V(R), a REJ outstanding, the time the ack lane frees
    vr: u64,
    rej_out: bool,
    ack_free: u64,
    c: BareCounts,
}

impl Sim {
    fn new(seed: u64) -> Self {
        let mut rng = Xoshiro256pp::new(seed);
        let fwd = BitErrors::new(P_BIT, &mut rng);
        let rev = BitErrors::new(P_BIT, &mut rng);
        let mut s = Sim {
            heap: BinaryHeap::with_capacity(64),
            now: 0,
            next_id: 0,
            rng,
            fwd,
            rev,
            t_i: bits_ns(I_BITS),
            t_a: bits_ns(ACK_BITS),
            base: 0,
            next_seq: 0,
            tx_busy: false,
            deadline: None,
            timer_pending: false,
            vr: 0,
            rej_out: false,
            ack_free: 0,
            c: BareCounts::default(),
        };
        s.try_send();
        s
    }

    #[inline(always)]
    fn schedule(&mut self, t: u64, kind: Kind) {
        self.heap.push(Ev { t, id: self.next_id, kind });
        self.next_id += 1;
    }

    #[inline(always)]
    fn start_t1(&mut self) {
        let d = self.now + T1;
        self.deadline = Some(d);
        if !self.timer_pending {
            self.timer_pending = true;
            self.schedule(d, Kind::Timer);
        }
    }

    #[inline(always)]
    fn try_send(&mut self) {
        if self.tx_busy || self.next_seq >= self.base + W {
            return;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        self.tx_busy = true;
        self.c.frames_sent += 1;
        let bad = self.fwd.frame(I_BITS, &mut self.rng);
        if self.deadline.is_none() {
            self.start_t1();
        }
        let end = self.now + self.t_i;
        self.schedule(end, Kind::TxEnd);
        self.schedule(end + TP, Kind::Frame { seq, bad });
    }

    #[inline(always)]
    fn on_timer(&mut self) {
        self.timer_pending = false;
        match self.deadline {
            None => {}
            Some(d) if d > self.now => {
                self.timer_pending = true;
                self.schedule(d, Kind::Timer);
            }
            Some(_) => {
                self.c.timeouts += 1;
                self.deadline = None;
                self.next_seq = self.base;
                self.try_send();
            }
        }
    }

    #[inline(always)]
    fn on_ack(&mut self, rej: bool, nr: u64, bad: bool) {
        if bad {
            return;
        }
        if nr > self.base {
            self.base = nr;
            self.next_seq = self.next_seq.max(nr);
            if nr < self.next_seq {
                self.start_t1();
            } else {
                self.deadline = None;
            }
        }
        if rej {
            self.next_seq = self.base;
            self.deadline = None;
        }
        self.try_send();
    }

    #[inline(always)]
    fn send_ack(&mut self, rej: bool, nr: u64) {
        let start = self.ack_free.max(self.now);
        self.ack_free = start + self.t_a;
        self.c.acks_sent += 1;
        let bad = self.rev.frame(ACK_BITS, &mut self.rng);
        self.schedule(self.ack_free + TP, Kind::Ack { rej, nr, bad });
    }

    #[inline(always)]
    fn on_frame(&mut self, seq: u64, bad: bool) {
        if bad {
            return;
        }
        if seq == self.vr {
            self.vr += 1;
            self.c.delivered += 1;
            self.rej_out = false;
            self.send_ack(false, self.vr);
        } else if !self.rej_out {
            self.rej_out = true;
            self.c.rejs += 1;
            self.send_ack(true, self.vr);
        }
    }

    /// Handles every event before `until` (ns).
    fn run(&mut self, until: u64) {
        while let Some(top) = self.heap.peek() {
            if top.t >= until {
                break;
            }
            let ev = self.heap.pop().expect("peeked");
            self.now = ev.t;
            self.c.events += 1;
            match ev.kind {
                Kind::TxEnd => {
                    self.tx_busy = false;
                    self.try_send();
                }
                Kind::Frame { seq, bad } => self.on_frame(seq, bad),
                Kind::Ack { rej, nr, bad } => self.on_ack(rej, nr, bad),
                Kind::Timer => self.on_timer(),
            }
        }
        self.now = until;
    }
}

/// Simulates `seconds` of the reference scenario with master seed `seed`.
pub fn bare_run(seconds: f64, seed: u64) -> BareCounts {
    let mut sim = Sim::new(seed);
    sim.run((seconds * 1e9) as u64);
    sim.c
}

/// Throughput efficiency: information bits delivered per bit time of the line.
pub fn efficiency(c: &BareCounts, seconds: f64) -> f64 {
    c.delivered as f64 * INFO_BITS as f64 / (RATE * seconds)
}

#[allow(dead_code)] // a module of the criterion benchmark as well as a program
fn main() {
    let mut args = std::env::args().skip(1);
    let (mut seconds, mut seed) = (10_000.0, 1u64);
    while let Some(a) = args.next() {
        let parsed = match a.as_str() {
            "--seed" => args.next().and_then(|s| s.parse().ok()).map(|s| seed = s),
            s => s.parse().ok().filter(|x: &f64| x.is_finite() && *x > 0.0).map(|x| seconds = x),
        };
        if parsed.is_none() {
            eprintln!("bare_loop: usage: bare_loop [SIM_SECONDS > 0] [--seed N] (got {a:?})");
            std::process::exit(2);
        }
    }
    let t0 = std::time::Instant::now();
    let c = bare_run(seconds, seed);
    let wall = t0.elapsed().as_secs_f64();
    println!("events {}", c.events);
    println!("simulated_s {seconds}");
    println!("wall_s {wall:.3}");
    println!("frames_sent {} acks_sent {} rejs {} timeouts {}", c.frames_sent, c.acks_sent, c.rejs, c.timeouts);
    println!("efficiency {:.5}", efficiency(&c, seconds));
}
