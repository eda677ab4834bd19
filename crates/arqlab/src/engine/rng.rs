//! Named random streams.
//!
//! Every random source (a channel direction's errors, a traffic source's arrivals and
//! lengths) owns a generator seeded from (master seed, replication, stream name).
//! Adding a stream never shifts another, and two protocol variants run with the same
//! seed see the same arrivals and the same channel: common random numbers.
//!
//! The seed is derived with FNV-1a over the name followed by SplitMix64 finalisers — a
//! fixed algorithm (unlike `std`'s `DefaultHasher`), so streams are identical on every
//! machine and Rust version.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

pub type Stream = Xoshiro256PlusPlus;

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The 64-bit seed of stream `name` in replication `replication` of a run with `master`.
pub fn stream_seed(master: u64, replication: u64, name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    splitmix64(splitmix64(splitmix64(master) ^ replication) ^ h)
}

/// A generator for stream `name`.
pub fn stream(master: u64, replication: u64, name: &str) -> Stream {
    Stream::seed_from_u64(stream_seed(master, replication, name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_are_independent_of_each_other_and_stable() {
        let mut a = stream(1, 0, "link.a_to_b.errors");
        let mut b = stream(1, 0, "traffic.a.arrivals");
        let xa: u64 = a.random();
        let xb: u64 = b.random();
        assert_ne!(xa, xb);
        // Same name, seed, replication: same sequence.
        let mut a2 = stream(1, 0, "link.a_to_b.errors");
        assert_eq!(xa, a2.random::<u64>());
        // The derivation is a fixed function (stored results depend on it). Expected
        // values computed independently from the documented algorithm (FNV-1a over the
        // name, SplitMix64 finalisers) in Python, not read from this code.
        assert_eq!(stream_seed(1, 0, "x"), 0xba1a_46ff_f368_eb73);
        assert_eq!(stream_seed(7, 3, "link.a_to_b.errors"), 0xa5c9_3950_9711_746f);
        assert_ne!(stream_seed(1, 0, "x"), stream_seed(1, 1, "x"));
        assert_ne!(stream_seed(1, 0, "x"), stream_seed(2, 0, "x"));
    }
}
