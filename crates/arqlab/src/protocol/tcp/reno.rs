//! Reno congestion control (RFC 5681 §3): slow start, congestion avoidance, fast
//! retransmit and fast recovery, in octets.

/// The congestion state of a sender.
#[derive(Clone, Debug, PartialEq)]
pub struct Reno {
    pub mss: u32,
    /// cwnd, octets.
    pub cwnd: u64,
    /// ssthresh, octets (initially "arbitrarily high", §3.1).
    pub ssthresh: u64,
    /// Consecutive duplicate ACKs.
    pub dupacks: u32,
    /// In fast recovery (after a fast retransmit, until a new ACK, §3.2 step 6).
    pub in_recovery: bool,
}

impl Reno {
    pub fn new(mss: u32, initial_segments: u32) -> Self {
        Reno { mss, cwnd: u64::from(mss) * u64::from(initial_segments), ssthresh: u64::MAX, dupacks: 0, in_recovery: false }
    }

    /// An ACK acknowledged `acked` new octets.
    pub fn on_new_ack(&mut self, acked: u64) {
        self.dupacks = 0;
        if self.in_recovery {
            // §3.2 step 6: deflate the window.
            self.in_recovery = false;
            self.cwnd = self.ssthresh;
            return;
        }
        let mss = u64::from(self.mss);
        if self.cwnd < self.ssthresh {
            // §3.1 eq. (2): slow start, cwnd += min(N, SMSS).
            self.cwnd += acked.min(mss);
        } else {
            // §3.1 eq. (3): congestion avoidance, about one SMSS per RTT.
            self.cwnd += (mss * mss / self.cwnd).max(1);
        }
    }

    /// A duplicate ACK with `flight` octets outstanding. Returns true if it is the one
    /// that triggers a fast retransmit.
    pub fn on_dupack(&mut self, flight: u64, threshold: u32) -> bool {
        self.dupacks += 1;
        let mss = u64::from(self.mss);
        if self.in_recovery {
            // §3.2 step 5: inflate by one segment per further duplicate.
            self.cwnd += mss;
            false
        } else if self.dupacks == threshold {
            // §3.2 steps 2–3: ssthresh by eq. (4), cwnd = ssthresh + 3·SMSS.
            self.ssthresh = (flight / 2).max(2 * mss);
            self.cwnd = self.ssthresh + u64::from(threshold) * mss;
            self.in_recovery = true;
            true
        } else {
            false
        }
    }

    /// The retransmission timer expired with `flight` octets outstanding (§3.1 eq. (4),
    /// cwnd = loss window = 1 SMSS).
    pub fn on_timeout(&mut self, flight: u64) {
        let mss = u64::from(self.mss);
        self.ssthresh = (flight / 2).max(2 * mss);
        self.cwnd = mss;
        self.dupacks = 0;
        self.in_recovery = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_cwnd_slow_start_doubles_per_round_then_grows_linearly() {
        let mut r = Reno::new(100, 1);
        r.ssthresh = 800;
        let mut per_round = vec![];
        for _ in 0..6 {
            let segs = r.cwnd / 100;
            for _ in 0..segs {
                r.on_new_ack(100);
            }
            per_round.push(r.cwnd);
        }
        // 1 → 2 → 4 → 8 segments (slow start up to ssthresh), then +1 segment per round
        // (8 acks of 100·100/cwnd ≈ 12 octets each: 800 → 899 → 996 …).
        assert_eq!(&per_round[..3], &[200, 400, 800]);
        assert!(per_round[3] > 880 && per_round[3] < 900, "{per_round:?}");
        assert!(per_round[4] - per_round[3] < 100 && per_round[4] - per_round[3] > 80);
    }

    #[test]
    fn test_fast_retransmit_on_third_dupack_then_recovery_and_deflation() {
        let mut r = Reno::new(100, 10);
        assert!(!r.on_dupack(1000, 3));
        assert!(!r.on_dupack(1000, 3));
        assert!(r.on_dupack(1000, 3), "the third duplicate triggers");
        assert_eq!((r.ssthresh, r.cwnd), (500, 800));
        assert!(!r.on_dupack(1000, 3));
        assert_eq!(r.cwnd, 900, "inflated by one SMSS");
        r.on_new_ack(1000);
        assert_eq!((r.cwnd, r.in_recovery), (500, false), "deflated to ssthresh");
    }

    #[test]
    fn test_timeout_sets_loss_window_and_halves_flight() {
        let mut r = Reno::new(100, 10);
        r.on_timeout(150);
        assert_eq!((r.cwnd, r.ssthresh), (100, 200), "ssthresh at least 2 SMSS");
    }
}
