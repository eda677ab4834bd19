//! A 4-ary min-heap of distinct `u128` keys: the event queue's storage.
//!
//! Chosen by measurement (`benches/queue.rs`, the hold model at 10, 100 and 3,300
//! pending events, and the models' runs; see docs/engine.md, "The event queue").
//! The profile of a run with many interleaved elements put most of the queue's time in
//! the mispredicted branch of a binary heap's sift-down (which child is smaller): the
//! event times of independent elements interleave at random. Here a pop moves the hole
//! left by the root down to a leaf along the least children, choosing each without a
//! branch (three comparisons, two pairs and their winners), then lifts the last key
//! into it (Floyd's bottom-up method: the last key is usually large and rarely climbs).
//! Four children per node halve the levels, and the four sit side by side (64 bytes).
//! The storage keeps `PAD` slots of `u128::MAX` past the last key, so the last node's
//! missing children read as "never least" and the loop has no partial-node case.
//! Keys are distinct (the queue puts an insertion number in each), so the pop order is
//! the keys' order whatever the heap's shape.

/// Children per node.
const D: usize = 4;
/// Sentinel slots past the last key: enough for the children of any node that has one.
const PAD: usize = D - 1;

#[derive(Clone, Debug)]
pub struct QuadHeap {
    /// `len` keys in heap order, then `PAD` slots of `u128::MAX`.
    keys: Vec<u128>,
    len: usize,
}

impl Default for QuadHeap {
    fn default() -> Self {
        Self::with_capacity(0)
    }
}

impl QuadHeap {
    pub fn with_capacity(n: usize) -> Self {
        let mut keys = Vec::with_capacity(n + PAD + 1);
        keys.resize(PAD, u128::MAX);
        QuadHeap { keys, len: 0 }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The least key.
    #[inline]
    pub fn peek(&self) -> Option<u128> {
        (self.len > 0).then(|| self.keys[0])
    }

    /// Adds `key`, which no key in the heap equals. (A key of `u128::MAX` is fine: the
    /// first child of a node is always a key, and padding never compares less.)
    #[inline]
    pub fn push(&mut self, key: u128) {
        self.keys.push(u128::MAX);
        let i = self.len;
        self.len += 1;
        self.lift(i, key);
    }

    /// Removes and returns the least key.
    #[inline]
    pub fn pop(&mut self) -> Option<u128> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Pushes and pops interleaved at random: every pop is the least key an ordered set
    /// of the same keys holds, at every size from 0 to a few thousand (every shape of
    /// the last, partly filled level).
    #[test]
    fn pops_the_least_key_like_an_ordered_set() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let mut h = QuadHeap::with_capacity(4);
        let mut model = std::collections::BTreeSet::new();
        for step in 0..200_000u32 {
            let grow = (step / 20_000) % 2 == 0;
            if rng.random_bool(if grow { 0.55 } else { 0.45 }) {
                let k = (rng.random_range(0..1_000u128) << 64) | u128::from(step);
                h.push(k);
                model.insert(k);
            } else {
                assert_eq!(h.pop(), model.pop_first(), "step {step}");
            }
            assert_eq!(h.len(), model.len());
            assert_eq!(h.peek(), model.first().copied());
        }
    }

    #[test]
    fn drains_in_order_from_every_size() {
        for n in 0..40u128 {
            let mut h = QuadHeap::default();
            // Descending pushes: every push climbs to the root.
            for k in (0..n).rev() {
                h.push(k * 7 % 41);
            }
            let mut want: Vec<u128> = (0..n).map(|k| k * 7 % 41).collect();
            want.sort_unstable();
            let got: Vec<u128> = std::iter::from_fn(|| h.pop()).collect();
            assert_eq!(got, want, "n = {n}");
            assert!(h.is_empty() && h.peek().is_none());
        }
    }
}
