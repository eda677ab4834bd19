//! Criterion micro-benchmark of the event queue's storage: the hold model (pop the
//! earliest key, push one at that time plus a random increment, so the pending count
//! stays fixed) at 10, 100 and 3,300 pending events — a two-node link, a study model
//! (LLC2 and TP4 hold about 95 and 150), 1,000 independent links. Keys are the queue's
//! (time << 64 | insertion number << 24 | code); increments are exponential with mean
//! 1 ms in picoseconds, plus a tenth of them at 0 (ties at the current time).
//!
//! - `std_binary`: `std::collections::BinaryHeap<Reverse<u128>>` (the queue until 2026-11);
//! - `binary_branch_free`: a binary heap with the same bottom-up pop and branch-free
//!   child choice as the 4-ary one (below), to separate the two changes;
//! - `quad`: `arqlab::engine::heap::QuadHeap`, the 4-ary heap the queue uses;
//! - `event_queue`: the whole `EventQueue` (calendar check, error checks) on `quad`.
//!
//! `cargo bench -p arqlab --bench queue`; throughput is hold operations (one pop and
//! one push) per CPU-second.

mod cpu_time;

use arqlab::engine::heap::QuadHeap;
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

fn hold(c: &mut Criterion<CpuTime>) {
    let inc = increments();
    let mut g = c.benchmark_group("queue_hold");
    g.throughput(Throughput::Elements(OPS));
    for pending in [10u64, 100, 3_300] {
        g.bench_function(BenchmarkId::new("std_binary", pending), |b| {
            b.iter(|| {
                let mut h: BinaryHeap<Reverse<u128>> = (0..pending).map(|i| Reverse(key(inc[i as usize], i))).collect();
                let mut seq = pending;
                for &d in &inc {
                    let Reverse(k) = h.pop().expect("pending");
                    h.push(Reverse(key((k >> 64) as u64 + d, seq)));
                    seq += 1;
                }
                h.len()
            })
        });
        g.bench_function(BenchmarkId::new("binary_branch_free", pending), |b| {
            b.iter(|| {
                let mut h = Binary(vec![u128::MAX], 0);
                (0..pending).for_each(|i| h.push(key(inc[i as usize], i)));
                let mut seq = pending;
                for &d in &inc {
                    let k = h.pop().expect("pending");
                    h.push(key((k >> 64) as u64 + d, seq));
                    seq += 1;
                }
                h.1
            })
        });
        g.bench_function(BenchmarkId::new("quad", pending), |b| {
            b.iter(|| {
                let mut h = QuadHeap::with_capacity(pending as usize);
                (0..pending).for_each(|i| h.push(key(inc[i as usize], i)));
                let mut seq = pending;
                for &d in &inc {
                    let k = h.pop().expect("pending");
                    h.push(key((k >> 64) as u64 + d, seq));
                    seq += 1;
                }
                h.len()
            })
        });
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
