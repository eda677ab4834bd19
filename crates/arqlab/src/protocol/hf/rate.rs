//! The external modem's data rate: the highest rate whose tabulated PER at the
//! sender's SNR estimate meets the target, and the estimate's steps on each outcome.

use super::HfArq;
use crate::protocol::Payload;

/// SNR estimates whose rate is remembered (a staircase of +1 / −2 dB steps between
/// clamped ends visits a few dozen values at most; later values are computed each time).
const RATE_MEMO: usize = 64;

impl<P: Payload> HfArq<P> {
    /// Highest rate whose PER for a full packet at the SNR estimate ≤ target (else the
    /// first mode). Between modes of equal rate the later in the table wins; a table
    /// need not be in rate order (110B lists its App. C modes after 4800 uncoded).
    pub(super) fn choose_rate(&mut self) {
        if self.integrated {
            return;
        }
        // The choice depends on the estimate alone (the table, modes, packet size and
        // target are fixed), and the estimate moves in steps among a few values: each
        // value's choice is computed once (a PER per mode) and remembered.
        let key = self.snr_est.to_bits();
        if let Some(&(_, rate)) = self.rate_memo.iter().find(|&&(k, _)| k == key) {
            self.rate = rate;
            return;
        }
        self.rate = self.rate_for(self.snr_est);
        if self.rate_memo.len() < RATE_MEMO {
            self.rate_memo.push((key, self.rate));
        }
    }

    /// The rate `choose_rate` picks at SNR estimate `snr` (computed, not remembered).
    pub(super) fn rate_for(&self, snr: f64) -> usize {
        let bits = self.segment_bits + self.header_bits;
        let bps = |r: usize| self.table.modes[self.data_modes[r]].bps;
        (0..self.data_modes.len())
            .filter(|&r| self.table.per(self.data_modes[r], bits, snr) <= self.target_per)
            .max_by(|&a, &b| bps(a).total_cmp(&bps(b)).then(a.cmp(&b)))
            .unwrap_or(0)
    }

    pub(super) fn adapt(&mut self, delta_db: f64) {
        let s = &self.table.snr_db;
        self.snr_est = (self.snr_est + delta_db).clamp(s[0], s[s.len() - 1]);
        self.choose_rate();
    }
}
