//! Modular sequence numbers: N(S), N(R), V(S), V(R), V(A) live in 0..M.

/// A sequence-number modulus (8 or 128 for HDLC; any M ≥ 2 for the textbook protocols).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modulus(pub u32);

impl Modulus {
    #[inline]
    pub fn add(self, a: u32, n: u32) -> u32 {
        (a + n) % self.0
    }
    #[inline]
    pub fn next(self, a: u32) -> u32 {
        self.add(a, 1)
    }
    /// Distance from `from` forward to `to`: (to − from) mod M.
    #[inline]
    pub fn distance(self, from: u32, to: u32) -> u32 {
        (to + self.0 - from) % self.0
    }
    /// True if `x` lies in the half-open window [lo, lo + len) modulo M.
    #[inline]
    pub fn in_window(self, lo: u32, len: u32, x: u32) -> bool {
        self.distance(lo, x) < len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_arithmetic() {
        let m = Modulus(8);
        assert_eq!(m.next(7), 0);
        assert_eq!(m.distance(6, 1), 3);
        assert!(m.in_window(6, 3, 0));
        assert!(!m.in_window(6, 3, 1));
        // N(R) valid iff V(A) <= N(R) <= V(S): distance(V(A), N(R)) <= distance(V(A), V(S))
        assert!(m.distance(6, 7) <= m.distance(6, 1));
    }
}
