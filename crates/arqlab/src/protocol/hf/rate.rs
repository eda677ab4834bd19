//! The external modem's data rate: the highest rate whose tabulated PER at the
//! sender's SNR estimate meets the target, and the estimate's steps on each outcome.

use super::HfArq;
use crate::protocol::Payload;

impl<P: Payload> HfArq<P> {
    /// Highest rate whose PER for a full packet at the SNR estimate ≤ target (else the
    /// first mode). Between modes of equal rate the later in the table wins; a table
    /// need not be in rate order (110B lists its App. C modes after 4800 uncoded).
    pub(super) fn choose_rate(&mut self) {
        if self.integrated {
            return;
        }
        let bits = self.segment_bits + self.header_bits;
        let bps = |r: usize| self.table.modes[self.data_modes[r]].bps;
        self.rate = (0..self.data_modes.len())
            .filter(|&r| self.table.per(self.data_modes[r], bits, self.snr_est) <= self.target_per)
            .max_by(|&a, &b| bps(a).total_cmp(&bps(b)).then(a.cmp(&b)))
            .unwrap_or(0);
    }

    pub(super) fn adapt(&mut self, delta_db: f64) {
        let s = &self.table.snr_db;
        self.snr_est = (self.snr_est + delta_db).clamp(s[0], s[s.len() - 1]);
        self.choose_rate();
    }
}
