//! NewReno's fast recovery (RFC 6582 §3.2): Reno's slow start, congestion avoidance and
//! fast retransmit, but a *partial* acknowledgement during fast recovery retransmits the
//! next hole at once instead of ending the recovery, and `recover` (the highest offset
//! sent when the recovery or a timeout began) keeps duplicate ACKs of data sent before
//! it from starting another.

use super::Reno;

#[derive(Clone, Debug, PartialEq)]
pub struct NewReno {
    pub reno: Reno,
    /// `recover` (§3.2 step 1): the offset after the last octet sent when fast recovery
    /// or the last timeout began; `None` before either (the ISS: any ACK covers it).
    pub recover: Option<u64>,
}

impl NewReno {
    pub fn new(mss: u32, initial_segments: u32) -> Self {
        NewReno { reno: Reno::new(mss, initial_segments), recover: None }
    }

    /// An ACK for `ack` acknowledged `acked` new octets. Returns true for a partial
    /// acknowledgement: the segment at `ack` is to be retransmitted now (§3.2 step 3).
    pub fn on_new_ack(&mut self, acked: u64, ack: u64) -> bool {
        let r = &mut self.reno;
        if !r.in_recovery {
            r.on_new_ack(acked);
            return false;
        }
        r.dupacks = 0;
        if self.recover.is_some_and(|rec| ack < rec) {
            // Partial ACK: deflate by the octets acknowledged, add back one SMSS if at
            // least one was, stay in fast recovery.
            let mss = u64::from(r.mss);
            r.cwnd = r.cwnd.saturating_sub(acked).max(mss);
            if acked >= mss {
                r.cwnd += mss;
            }
            return true;
        }
        // Full ACK (§3.2 step 3, option 2: cwnd = ssthresh, as ns-3 does).
        r.in_recovery = false;
        r.cwnd = r.ssthresh;
        false
    }

    /// A duplicate ACK for `ack` with `flight` octets outstanding and `snd_max` the
    /// highest offset sent. Returns true if it starts a fast retransmit: the third
    /// duplicate, and only if `ack` covers `recover` (§3.2 step 2).
    pub fn on_dupack(&mut self, flight: u64, threshold: u32, ack: u64, snd_max: u64) -> bool {
        let r = &mut self.reno;
        if !r.in_recovery && r.dupacks + 1 == threshold && self.recover.is_some_and(|rec| ack < rec) {
            r.dupacks += 1;
            return false;
        }
        let fast = r.on_dupack(flight, threshold);
        if fast {
            self.recover = Some(snd_max);
        }
        fast
    }

    /// Timeout: Reno's loss window, and `recover` = the highest offset sent (§4.1).
    pub fn on_timeout(&mut self, flight: u64, snd_max: u64) {
        self.reno.on_timeout(flight);
        self.recover = Some(snd_max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6582 §3.2 step 3: a partial ACK retransmits, deflates by the octets acked,
    /// adds back one SMSS, and keeps fast recovery; the full ACK ends it at ssthresh.
    #[test]
    fn test_newreno_partial_ack_retransmits_and_deflates_full_ack_exits() {
        let mut n = NewReno::new(100, 10);
        for _ in 0..2 {
            assert!(!n.on_dupack(1000, 3, 0, 1000));
        }
        assert!(n.on_dupack(1000, 3, 0, 1000), "third duplicate: fast retransmit");
        assert_eq!((n.reno.ssthresh, n.reno.cwnd, n.recover), (500, 800, Some(1000)));
        assert!(!n.on_dupack(1000, 3, 0, 1000));
        assert_eq!(n.reno.cwnd, 900, "inflation as Reno");
        assert!(n.on_new_ack(300, 300), "ACK 300 < recover 1000: partial");
        assert_eq!((n.reno.cwnd, n.reno.in_recovery), (900 - 300 + 100, true));
        assert!(n.on_new_ack(50, 350), "partial again");
        assert_eq!(n.reno.cwnd, 650, "less than one SMSS acked: nothing added back");
        assert!(!n.on_new_ack(650, 1000), "ACK reaches recover: full");
        assert_eq!((n.reno.cwnd, n.reno.in_recovery), (500, false));
    }

    /// §3.2 step 2: duplicates of data sent before `recover` start no second recovery.
    #[test]
    fn test_newreno_no_fast_retransmit_before_recover_is_covered() {
        let mut n = NewReno::new(100, 10);
        n.on_timeout(1000, 1000);
        assert_eq!((n.reno.cwnd, n.recover), (100, Some(1000)));
        for _ in 0..5 {
            assert!(!n.on_dupack(400, 3, 600, 1000), "ACK 600 < recover 1000");
        }
        assert_eq!(n.reno.ssthresh, 500, "ssthresh not reset");
        n.reno.dupacks = 0;
        assert!(!n.on_dupack(400, 3, 1000, 1400));
        assert!(!n.on_dupack(400, 3, 1000, 1400));
        assert!(n.on_dupack(400, 3, 1000, 1400), "ACK covers recover: fast retransmit");
        assert_eq!(n.recover, Some(1400));
    }

    #[test]
    fn test_newreno_outside_recovery_is_reno() {
        let (mut n, mut r) = (NewReno::new(100, 1), Reno::new(100, 1));
        for k in 1..20 {
            assert!(!n.on_new_ack(100, 100 * k));
            r.on_new_ack(100);
            assert_eq!(n.reno, r);
        }
    }
}
