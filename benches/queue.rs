//! Criterion micro-benchmark of the event queue's storage: the hold model (pop the
//! earliest key, push one at that time plus a random increment, so the pending count
//! stays fixed) at 10, 100 and 3,300 pending events — a two-node link, a study model
//! (LLC2 and TP4 hold about 95 and 150), 1,000 independent links. Keys are the queue's
//! (time << 64 | insertion number << 24 | code); increments are exponential with mean
//! 1 ms in picoseconds, plus a tenth of them at 0 (ties at the current time).
//!
//! - `std_binary`: `std::collections::BinaryHeap<Reverse<u128>>`, what `EventQueue` uses;
//! - `binary_branch_free`: a binary heap popped bottom-up with the smaller child chosen
//!   without a branch;
//! - `quad`: a 4-ary heap, popped the same way, the least of four children chosen by
//!   selects;
//! - `calendar`: a calendar queue (buckets of one "day" each, resized with the pending
//!   count), the structure for large pending sets the engine has not used;
//! - `event_queue`: the whole `EventQueue` (calendar check, error checks).
//!
//! The two heaps won here at 100 and 3,300 pending (and tied at 10) but lost in every
//! model's run (docs/engine.md, "The event queue"): a run's pending events are far from
//! the hold model's random increments, and `std`'s sift is already branch-free. The
//! calendar queue lost here at every size (its buckets are a second level of memory).
//! They stay here, checked to pop exactly as `std` does, so the choice can be
//! re-measured.
//!
//! `cargo bench -p arqlab --bench queue`; throughput is hold operations (one pop and
//! one push) per CPU-second.

mod cpu_time;

use arqlab::engine::{EventQueue, SimTime};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use cpu_time::CpuTime;
use rand::{Rng, SeedableRng};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Hold operations per iteration.
const OPS: u64 = 100_000;

/// The increments of one iteration, drawn once (the bench times the queue, not the draws).
fn increments() -> Vec<u64> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
    (0..OPS)
        .map(|_| if rng.random_bool(0.1) { 0 } else { (-(1.0 - rng.random::<f64>()).ln() * 1e9) as u64 })
        .collect()
}

fn key(t: u64, seq: u64) -> u128 {
    (u128::from(t) << 64) | (u128::from(seq) << 24) | 5
}

const D: usize = 4;
/// Sentinel slots past the last key: enough for the children of any node that has one.
const PAD: usize = D - 1;

/// A 4-ary min-heap of distinct keys; `PAD` slots of `u128::MAX` past the last key
/// stand in for missing children.
struct QuadHeap {
    /// `len` keys in heap order, then `PAD` slots of `u128::MAX`.
    keys: Vec<u128>,
    len: usize,
}

impl QuadHeap {
    fn with_capacity(n: usize) -> Self {
        let mut keys = Vec::with_capacity(n + PAD + 1);
        keys.resize(PAD, u128::MAX);
        QuadHeap { keys, len: 0 }
    }

    /// Adds `key`, which no key in the heap equals. (A key of `u128::MAX` is fine: the
    /// first child of a node is always a key, and padding never compares less.)
    #[inline]
    fn push(&mut self, key: u128) {
        self.keys.push(u128::MAX);
        let i = self.len;
        self.len += 1;
        self.lift(i, key);
    }

    /// Removes and returns the least key.
    #[inline]
    fn pop(&mut self) -> Option<u128> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let n = self.len;
        let keys = &mut self.keys[..];
        let top = keys[0];
        let last = std::mem::replace(&mut keys[n], u128::MAX);
        self.keys.pop();
        if n == 0 {
            return Some(top);
        }
        let keys = &mut self.keys[..];
        // The hole goes down along the least children to a node without children.
        let mut hole = 0;
        loop {
            let c = D * hole + 1;
            if c >= n {
                break;
            }
            // Values travel with their indices (selects, not reloads at a fresh index).
            let k: &[u128; D] = keys[c..c + D].try_into().expect("padded");
            let (a, ka) = if k[1] < k[0] { (c + 1, k[1]) } else { (c, k[0]) };
            let (b, kb) = if k[3] < k[2] { (c + 3, k[3]) } else { (c + 2, k[2]) };
            let (m, km) = if kb < ka { (b, kb) } else { (a, ka) };
            keys[hole] = km;
            hole = m;
        }
        self.lift(hole, last);
        Some(top)
    }

    /// Puts `key` in the hole at `i`, moving larger ancestors down.
    #[inline]
    fn lift(&mut self, mut i: usize, key: u128) {
        let keys = &mut self.keys[..];
        while i > 0 {
            let p = (i - 1) / D;
            let pk = keys[p];
            if pk < key {
                break;
            }
            keys[i] = pk;
            i = p;
        }
        keys[i] = key;
    }
}

/// A binary min-heap popped bottom-up with the smaller child chosen without a branch;
/// `u128::MAX` pads one slot past the last key.
struct Binary(Vec<u128>, usize);

impl Binary {
    fn push(&mut self, key: u128) {
        self.0.push(u128::MAX);
        let mut i = self.1;
        self.1 += 1;
        while i > 0 && self.0[(i - 1) / 2] > key {
            self.0[i] = self.0[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        self.0[i] = key;
    }
    fn pop(&mut self) -> Option<u128> {
        let n = self.1.checked_sub(1)?;
        self.1 = n;
        let (top, last) = (self.0[0], std::mem::replace(&mut self.0[n], u128::MAX));
        self.0.pop();
        let mut hole = 0;
        while 2 * hole + 1 < n {
            let c = 2 * hole + 1;
            let m = c + usize::from(self.0[c + 1] < self.0[c]);
            self.0[hole] = self.0[m];
            hole = m;
        }
        let mut i = hole;
        while i > 0 && self.0[(i - 1) / 2] > last {
            self.0[i] = self.0[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        self.0[i] = last;
        Some(top)
    }
}

/// The storage under test: push a key, pop the least.
trait Heap {
    fn new(pending: usize) -> Self;
    fn push(&mut self, key: u128);
    fn pop(&mut self) -> Option<u128>;
}

impl Heap for BinaryHeap<Reverse<u128>> {
    fn new(pending: usize) -> Self {
        BinaryHeap::with_capacity(pending)
    }
    fn push(&mut self, key: u128) {
        BinaryHeap::push(self, Reverse(key));
    }
    fn pop(&mut self) -> Option<u128> {
        BinaryHeap::pop(self).map(|Reverse(k)| k)
    }
}

impl Heap for Binary {
    fn new(pending: usize) -> Self {
        let mut v = Vec::with_capacity(pending + 2);
        v.push(u128::MAX);
        Binary(v, 0)
    }
    fn push(&mut self, key: u128) {
        Binary::push(self, key);
    }
    fn pop(&mut self) -> Option<u128> {
        Binary::pop(self)
    }
}

impl Heap for QuadHeap {
    fn new(pending: usize) -> Self {
        QuadHeap::with_capacity(pending)
    }
    fn push(&mut self, key: u128) {
        QuadHeap::push(self, key);
    }
    fn pop(&mut self) -> Option<u128> {
        QuadHeap::pop(self)
    }
}

/// A calendar queue (R. Brown, CACM 1988): `nb` buckets (a power of two), each a
/// "day" of `1 << shift` picoseconds, the calendar wrapping around every `nb` days;
/// a bucket keeps its keys sorted (`VecDeque`, least first), so ties pop in key
/// (insertion) order. A pop looks at the current day's bucket and moves on a day at a
/// time; after a whole year without an event due it jumps to the least head. The
/// bucket count follows the pending count (doubled above 2 per bucket, halved below
/// 1/2) and the day length is re-estimated then from the mean gap between the keys.
struct CalendarQueue {
    buckets: Vec<std::collections::VecDeque<u128>>,
    shift: u32,
    /// The day being served (time >> shift) and the number of keys held.
    day: u64,
    len: usize,
}

impl CalendarQueue {
    fn with_buckets(nb: usize, shift: u32, day: u64) -> Self {
        CalendarQueue { buckets: (0..nb).map(|_| std::collections::VecDeque::new()).collect(), shift, day, len: 0 }
    }

    #[inline]
    fn insert(&mut self, key: u128) {
        let t = (key >> 64) as u64;
        let mask = self.buckets.len() - 1;
        let b = &mut self.buckets[(t >> self.shift) as usize & mask];
        // Usually the latest of its bucket: a short search from the back.
        let mut i = b.len();
        while i > 0 && b[i - 1] > key {
            i -= 1;
        }
        b.insert(i, key);
        self.len += 1;
    }

    /// Rebuilds with `nb` buckets and a day length from the keys' mean gap.
    #[cold]
    fn resize(&mut self, nb: usize) {
        let keys: Vec<u128> = self.buckets.iter_mut().flat_map(|b| b.drain(..)).collect();
        let (lo, hi) = keys.iter().fold((u64::MAX, 0), |(lo, hi), &k| ((lo).min((k >> 64) as u64), hi.max((k >> 64) as u64)));
        // A day of about three mean gaps (Brown's rule of thumb), a power of two.
        let gap = if keys.len() > 1 { (hi - lo) / keys.len() as u64 } else { 1 };
        let shift = (3 * gap.max(1)).ilog2();
        let now = self.day << self.shift;
        *self = CalendarQueue::with_buckets(nb, shift, now >> shift);
        keys.into_iter().for_each(|k| self.insert(k));
    }
}

impl Heap for CalendarQueue {
    fn new(pending: usize) -> Self {
        let _ = pending;
        CalendarQueue::with_buckets(2, 30, 0)
    }
    fn push(&mut self, key: u128) {
        self.insert(key);
        if self.len > 2 * self.buckets.len() {
            self.resize(2 * self.buckets.len());
        }
    }
    fn pop(&mut self) -> Option<u128> {
        if self.len == 0 {
            return None;
        }
        let mask = self.buckets.len() - 1;
        for _ in 0..self.buckets.len() {
            let b = &mut self.buckets[self.day as usize & mask];
            if let Some(&k) = b.front() {
                if ((k >> 64) as u64) >> self.shift <= self.day {
                    b.pop_front();
                    self.len -= 1;
                    if self.len < self.buckets.len() / 2 && self.buckets.len() > 2 {
                        self.resize(self.buckets.len() / 2);
                    }
                    return Some(k);
                }
            }
            self.day += 1;
        }
        // A year without an event: jump to the least head.
        let k = self.buckets.iter().filter_map(|b| b.front().copied()).min().expect("len > 0");
        self.day = ((k >> 64) as u64) >> self.shift;
        self.pop()
    }
}

/// The hold model on `H` from `pending` events: the keys popped, folded into one number.
fn hold_run<H: Heap>(pending: u64, inc: &[u64]) -> u128 {
    let mut h = H::new(pending as usize);
    (0..pending).for_each(|i| h.push(key(inc[i as usize], i)));
    let (mut seq, mut sum) = (pending, 0u128);
    for &d in inc {
        let k = h.pop().expect("pending");
        sum = sum.wrapping_mul(31).wrapping_add(k);
        h.push(key((k >> 64) as u64 + d, seq));
        seq += 1;
    }
    sum
}

fn hold(c: &mut Criterion<CpuTime>) {
    let inc = increments();
    let mut g = c.benchmark_group("queue_hold");
    g.throughput(Throughput::Elements(OPS));
    for pending in [10u64, 100, 3_300] {
        // The alternatives pop exactly the keys std pops, in the same order.
        let want = hold_run::<BinaryHeap<Reverse<u128>>>(pending, &inc);
        assert_eq!(hold_run::<Binary>(pending, &inc), want, "binary_branch_free at {pending}");
        assert_eq!(hold_run::<QuadHeap>(pending, &inc), want, "quad at {pending}");
        assert_eq!(hold_run::<CalendarQueue>(pending, &inc), want, "calendar at {pending}");
        g.bench_function(BenchmarkId::new("std_binary", pending), |b| b.iter(|| hold_run::<BinaryHeap<Reverse<u128>>>(pending, &inc)));
        g.bench_function(BenchmarkId::new("binary_branch_free", pending), |b| b.iter(|| hold_run::<Binary>(pending, &inc)));
        g.bench_function(BenchmarkId::new("quad", pending), |b| b.iter(|| hold_run::<QuadHeap>(pending, &inc)));
        g.bench_function(BenchmarkId::new("calendar", pending), |b| b.iter(|| hold_run::<CalendarQueue>(pending, &inc)));
        g.bench_function(BenchmarkId::new("event_queue", pending), |b| {
            b.iter(|| {
                let mut q = EventQueue::<u32>::with_calendar(vec![(SimTime(u64::MAX), 0)]).expect("calendar");
                (0..pending).for_each(|i| q.schedule(SimTime(inc[i as usize]), 5).expect("schedules"));
                for &d in &inc {
                    let (t, e) = q.pop().expect("pending");
                    q.schedule(SimTime(t.0 + d), e).expect("schedules");
                }
                q.len()
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime).sample_size(20);
    targets = hold
}
criterion_main!(benches);
