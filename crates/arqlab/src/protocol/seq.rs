//! Modular sequence numbers: N(S), N(R), V(S), V(R), V(A) live in 0..M.

/// A sequence-number modulus (8 or 128 for HDLC; any M ≥ 2 for the textbook protocols).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modulus(pub u32);

impl Modulus {
    #[inline]
    pub fn add(self, a: u32, n: u32) -> u32 {
        // Operands are already reduced on the hot path: one conditional subtraction (a
        // select, not a branch: the wrap is data-dependent), not a division.
        let sum = a + n;
        let s = if sum >= self.0 { sum - self.0 } else { sum };
        if s < self.0 {
            s
        } else {
            sum % self.0
        }
    }
    #[inline]
    pub fn next(self, a: u32) -> u32 {
        self.add(a, 1)
    }
    /// Distance from `from` forward to `to`: (to − from) mod M.
    #[inline]
    pub fn distance(self, from: u32, to: u32) -> u32 {
        // A select for the wrap, as in `add`.
        let d = to.wrapping_sub(from);
        let d = if to < from { d.wrapping_add(self.0) } else { d };
        if d < self.0 {
            d
        } else {
            d % self.0
        }
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

    #[test]
    fn fast_paths_agree_with_the_remainder() {
        for m in [2u32, 7, 8, 128] {
            let md = Modulus(m);
            for a in 0..2 * m {
                for n in 0..2 * m {
                    assert_eq!(md.add(a, n), (a + n) % m, "add({a}, {n}) mod {m}");
                }
                // `from` reduced; `to` up to 2M − 1 also takes the `% M` fallback.
                for b in 0..2 * m {
                    if a < m {
                        assert_eq!(md.distance(a, b), (b + m - a) % m, "distance({a}, {b}) mod {m}");
                    }
                }
            }
        }
    }

    #[test]
    fn fast_paths_agree_with_the_remainder_for_large_moduli() {
        // Up to the largest modulus a scenario may give (2^20), at the edges of the ranges
        // the callers pass (operands reduced, or up to 2M - 1).
        for m in [3 << 18, 1u32 << 20] {
            let md = Modulus(m);
            let edges = [0, 1, 2, m / 2, m - 2, m - 1, m, m + 1, 2 * m - 2, 2 * m - 1];
            for &a in &edges {
                for &n in &edges {
                    assert_eq!(md.add(a, n), (a + n) % m, "add({a}, {n}) mod {m}");
                    if a < m {
                        assert_eq!(md.distance(a, n), (n + m - a) % m, "distance({a}, {n}) mod {m}");
                    }
                }
            }
        }
    }
}
