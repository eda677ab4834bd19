//! The dynamic window's upper bound (IEEE 802.2 as Biersack states it: "increase the
//! working window by one ... up to the maximum window size k"), at the boundary.

use super::config::{Llc2Config, Variant};
use super::window::Window;

/// After a cut to 1, RRs grow the working window to exactly k and never past it, under
/// Bux–Grillo (one step per n RRs) and Jain (one per working-window's worth of RRs).
#[test]
fn test_dynamic_window_grows_to_k_and_no_further() {
    for (variant, n, rrs_to_k) in [(Variant::Bg, 1, 2), (Variant::Bg, 2, 4), (Variant::Jain, 1, 3)] {
        let mut w = Window::new(&Llc2Config { variant, window: 3, n, ..Llc2Config::default() });
        assert_eq!(w.current(), 3, "{variant:?}: starts at k");
        assert!(w.on_congestion());
        assert_eq!(w.current(), 1);
        let mut seen = vec![];
        for _ in 0..rrs_to_k + 6 {
            w.on_rr();
            seen.push(w.current());
        }
        assert_eq!(seen[rrs_to_k - 1], 3, "{variant:?}: k reached after {rrs_to_k} RRs: {seen:?}");
        assert!(seen.iter().all(|&c| c <= 3), "{variant:?}: never above k: {seen:?}");
        assert_eq!(seen[..rrs_to_k - 1].iter().filter(|&&c| c == 3).count(), 0, "{variant:?}: {seen:?}");
    }
}
