//! The sender's working window (IEEE 802.2 dynamic window as Biersack states it):
//! fixed at k (ORIG, SREJ, multi-FIFO); or cut to 1 on a REJ (the paper's only signal;
//! also on a T1 expiry if `t1_resets_window`, a sensitivity) — then grown by one after `n` RRs (Bux–Grillo) or after as many
//! RRs as the current working window (Jain), up to k.

use super::config::{Llc2Config, Variant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    Fixed,
    BuxGrillo { n: u32 },
    Jain,
}

#[derive(Clone, Debug)]
pub struct Window {
    policy: Policy,
    k: u32,
    current: u32,
    /// RRs received since the last change.
    rrs: u32,
    t1_resets: bool,
}

impl Window {
    pub fn new(c: &Llc2Config) -> Window {
        let policy = match c.variant {
            Variant::Bg => Policy::BuxGrillo { n: c.n },
            Variant::Jain => Policy::Jain,
            _ => Policy::Fixed,
        };
        Window { policy, k: c.window, current: c.window, rrs: 0, t1_resets: c.t1_resets_window }
    }

    pub fn current(&self) -> u32 {
        self.current
    }

    /// An RR was received.
    pub fn on_rr(&mut self) {
        let step = match self.policy {
            Policy::Fixed => return,
            Policy::BuxGrillo { n } => n,
            Policy::Jain => self.current,
        };
        if self.current < self.k {
            self.rrs += 1;
            if self.rrs >= step {
                self.current += 1;
                self.rrs = 0;
            }
        }
    }

    /// A REJ was received. Returns true if the window was cut.
    pub fn on_congestion(&mut self) -> bool {
        if self.policy == Policy::Fixed {
            return false;
        }
        self.current = 1;
        self.rrs = 0;
        true
    }

    /// T1 expired. Returns true if the window was cut.
    pub fn on_timeout(&mut self) -> bool {
        self.t1_resets && self.on_congestion()
    }
}
