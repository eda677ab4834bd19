//! RFC 791 fragmentation and reassembly (§3.2, "Fragmentation and Reassembly" and the
//! example procedures in §3.2). A datagram longer than an interface's MTU is cut into
//! fragments whose data, all but the last, is the largest multiple of 8 octets that fits
//! (NFB = ⌊(MTU − IHL·4) / 8⌋ blocks); each carries its offset in 8-octet units and MF
//! set, except the last, which keeps the original's MF (a fragment cut again). The
//! destination collects the fragments of one (source, identification) until every
//! octet from 0 to the end marked by the MF = 0 fragment has arrived, or its timer
//! expires and the partial datagram is discarded.

use super::{IpHeader, IpPacket, HEADER_OCTETS};
use crate::engine::{Duration, SimTime};
use std::collections::BTreeMap;

/// Cuts `pkt` to fit `mtu_octets` (total length, header included), handing the
/// fragments to `emit` in offset order (straight into the caller's queue, no scratch
/// buffer); a datagram that fits is handed on unchanged.
/// `mtu_octets` ≥ `MIN_MTU_OCTETS` (validated at load).
pub fn fragment<P: Clone>(pkt: &IpPacket<P>, mtu_octets: u32, mut emit: impl FnMut(IpPacket<P>)) {
    if pkt.hdr.total_octets <= mtu_octets {
        emit(pkt.clone());
        return;
    }
    let nfb = (mtu_octets - HEADER_OCTETS) / 8;
    let mut left = pkt.hdr.data_octets();
    let mut offset8 = pkt.hdr.offset8;
    while left > 0 {
        let take = left.min(nfb * 8);
        left -= take;
        let hdr = IpHeader { offset8, mf: left > 0 || pkt.hdr.mf, total_octets: HEADER_OCTETS + take, ..pkt.hdr };
        emit(IpPacket { hdr, msg: pkt.msg.clone(), framing_bits: pkt.framing_bits });
        offset8 += take / 8;
    }
}

/// The number of fragments a datagram of `data_octets` becomes at `mtu_octets`: 1 if
/// it fits (20 + data ≤ MTU), else ⌈data / (8·⌊(MTU − 20) / 8⌋)⌉.
pub fn fragment_count(data_octets: u32, mtu_octets: u32) -> u32 {
    if HEADER_OCTETS + data_octets <= mtu_octets {
        return 1;
    }
    data_octets.div_ceil((mtu_octets - HEADER_OCTETS) / 8 * 8)
}

/// Reassembly counters (RFC 791's "reassembly resources" made observable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReassemblyCounters {
    /// Fragments received (error free, for this host).
    pub fragments_received: u64,
    /// Datagrams completed from fragments.
    pub reassembled: u64,
    /// Fragments whose octets had all arrived already (a duplicate), ignored.
    pub duplicate_fragments: u64,
    /// Partial datagrams discarded when their timer expired.
    pub timeouts: u64,
    /// Fragments discarded with them.
    pub fragments_discarded: u64,
}

/// One datagram being reassembled.
#[derive(Clone, Debug)]
struct Partial<P> {
    msg: P,
    /// Received data as (offset8, octets), kept sorted and merged.
    have: Vec<(u32, u32)>,
    /// Data length, known once the MF = 0 fragment has arrived.
    total: Option<u32>,
    fragments: u64,
    deadline: SimTime,
}

impl<P> Partial<P> {
    /// Adds a fragment's range; false if every octet of it was already here.
    fn add(&mut self, offset8: u32, octets: u32) -> bool {
        let (lo, hi) = (offset8 * 8, offset8 * 8 + octets);
        let covered = self.have.iter().any(|&(s, n)| s * 8 <= lo && hi <= s * 8 + n);
        if covered {
            return false;
        }
        self.have.push((offset8, octets));
        self.have.sort_unstable();
        // Merge ranges that touch or overlap.
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(self.have.len());
        for &(s, n) in &self.have {
            match merged.last_mut() {
                Some((ms, mn)) if *ms * 8 + *mn >= s * 8 => *mn = (*mn).max(s * 8 + n - *ms * 8),
                _ => merged.push((s, n)),
            }
        }
        self.have = merged;
        true
    }

    fn complete(&self) -> bool {
        self.total.is_some_and(|t| self.have.first().is_some_and(|&(s, n)| s == 0 && n >= t))
    }
}

/// Reassembly at a destination: partial datagrams keyed by (source, identification).
#[derive(Clone, Debug)]
pub struct Reassembly<P> {
    timeout: Duration,
    pending: BTreeMap<(u32, u32), Partial<P>>,
    pub counters: ReassemblyCounters,
}

impl<P: Clone> Reassembly<P> {
    pub fn new(timeout: Duration) -> Self {
        Reassembly { timeout, pending: BTreeMap::new(), counters: ReassemblyCounters::default() }
    }

    /// A datagram or fragment for this host arrived at `now`: the upper PDU if it is
    /// now whole (an unfragmented datagram is whole at once).
    pub fn receive(&mut self, now: SimTime, pkt: &IpPacket<P>) -> Option<P> {
        let h = &pkt.hdr;
        if h.offset8 == 0 && !h.mf {
            return Some(pkt.msg.clone());
        }
        self.counters.fragments_received += 1;
        let deadline = now + self.timeout;
        let part = self.pending.entry((h.src, h.id)).or_insert_with(|| Partial { msg: pkt.msg.clone(), have: vec![], total: None, fragments: 0, deadline });
        if !part.add(h.offset8, h.data_octets()) {
            self.counters.duplicate_fragments += 1;
            return None;
        }
        part.fragments += 1;
        if !h.mf {
            part.total = Some(h.offset8 * 8 + h.data_octets());
        }
        if !part.complete() {
            return None;
        }
        self.counters.reassembled += 1;
        self.pending.remove(&(h.src, h.id)).map(|p| p.msg)
    }

    /// The earliest reassembly deadline.
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.pending.values().map(|p| p.deadline).min()
    }

    /// Discards every partial datagram whose timer has expired by `now`.
    pub fn expire(&mut self, now: SimTime) {
        let c = &mut self.counters;
        self.pending.retain(|_, p| {
            let keep = p.deadline > now;
            if !keep {
                c.timeouts += 1;
                c.fragments_discarded += p.fragments;
            }
            keep
        });
    }

    /// Partial datagrams held.
    pub fn held(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datagram(data_octets: u32) -> IpPacket<u32> {
        let hdr = IpHeader { src: 0, dst: 1, id: 7, offset8: 0, mf: false, ttl: 64, total_octets: HEADER_OCTETS + data_octets };
        IpPacket { hdr, msg: 42, framing_bits: 0 }
    }

    fn cut(p: &IpPacket<u32>, mtu: u32) -> Vec<IpPacket<u32>> {
        let mut out = vec![];
        fragment(p, mtu, |f| out.push(f));
        out
    }

    #[test]
    fn rfc791_a_datagram_that_fits_the_mtu_is_not_fragmented() {
        let p = datagram(556);
        assert_eq!(cut(&p, 576), vec![p], "576 octets exactly fits an MTU of 576");
    }

    #[test]
    fn rfc791_fragments_carry_nfb_times_8_octets_offsets_in_8_octet_units_and_mf() {
        // 1480 data octets at MTU 576: NFB = (576 - 20) / 8 = 69 blocks = 552 octets.
        let f = cut(&datagram(1480), 576);
        let got: Vec<(u32, bool, u32)> = f.iter().map(|p| (p.hdr.offset8, p.hdr.mf, p.hdr.total_octets)).collect();
        assert_eq!(got, vec![(0, true, 572), (69, true, 572), (138, false, 20 + 1480 - 2 * 552)]);
        assert!(f.iter().all(|p| p.hdr.id == 7 && p.hdr.ttl == 64 && p.msg == 42));
        assert_eq!(f.len() as u32, fragment_count(1480, 576));
    }

    #[test]
    fn rfc791_an_mtu_not_a_multiple_of_8_after_the_header_rounds_the_data_down() {
        // MTU 99: 79 octets would fit, but only 72 (9 blocks) are a multiple of 8.
        let f = cut(&datagram(200), 99);
        assert!(f[..f.len() - 1].iter().all(|p| p.hdr.data_octets() == 72));
        assert_eq!(f.len(), 3);
        assert_eq!(f.iter().map(|p| p.hdr.data_octets()).sum::<u32>(), 200);
    }

    #[test]
    fn rfc791_a_fragment_cut_again_keeps_its_offsets_and_its_mf() {
        let first = cut(&datagram(1480), 1000)[0]; // offset 0, MF set, 976 octets
        assert!(first.hdr.mf && first.hdr.data_octets() == 976);
        let again = cut(&first, 300); // 35 blocks = 280 octets each
        let got: Vec<(u32, bool)> = again.iter().map(|p| (p.hdr.offset8, p.hdr.mf)).collect();
        assert_eq!(got, vec![(0, true), (35, true), (70, true), (105, true)], "the last keeps MF = 1: more follow");
        assert_eq!(again.iter().map(|p| p.hdr.data_octets()).sum::<u32>(), 976);
    }

    #[test]
    fn fragment_count_is_the_closed_form_for_every_size_and_mtu() {
        for mtu in [68, 69, 100, 296, 576, 1006, 1500] {
            for data in [1, 7, 8, 47, 48, 49, 500, 1480, 4000, 9000] {
                let f = cut(&datagram(data), mtu);
                let per = (mtu - 20) / 8 * 8;
                let want = if 20 + data <= mtu { 1 } else { data.div_ceil(per) };
                assert_eq!(f.len() as u32, want, "data {data} at MTU {mtu}");
                assert_eq!(fragment_count(data, mtu), want);
                assert!(f.iter().all(|p| p.hdr.total_octets <= mtu));
                assert_eq!(f.iter().map(|p| p.hdr.data_octets()).sum::<u32>(), data, "no octet lost or doubled");
            }
        }
    }

    #[test]
    fn rfc791_reassembly_delivers_once_when_every_octet_is_in_whatever_the_order() {
        let f = cut(&datagram(1480), 576);
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]] {
            let mut r = Reassembly::new(Duration::from_secs_f64(15.0));
            let got: Vec<Option<u32>> = order.iter().map(|&i| r.receive(SimTime(i as u64), &f[i])).collect();
            assert_eq!(got[..2], [None, None], "order {order:?}");
            assert_eq!(got[2], Some(42));
            assert_eq!((r.counters.reassembled, r.counters.fragments_received, r.held()), (1, 3, 0));
        }
    }

    #[test]
    fn rfc791_a_duplicate_fragment_is_counted_and_does_not_complete_twice() {
        let f = cut(&datagram(1480), 576);
        let mut r = Reassembly::new(Duration::from_secs_f64(15.0));
        assert_eq!(r.receive(SimTime(0), &f[0]), None);
        assert_eq!(r.receive(SimTime(1), &f[0]), None);
        assert_eq!(r.counters.duplicate_fragments, 1);
        assert_eq!((r.receive(SimTime(2), &f[2]), r.receive(SimTime(3), &f[1])), (None, Some(42)));
        // A straggler copy after completion opens a new partial datagram that times out.
        assert_eq!(r.receive(SimTime(4), &f[1]), None);
        r.expire(SimTime(4) + Duration::from_secs_f64(15.0));
        assert_eq!((r.counters.timeouts, r.counters.fragments_discarded, r.held()), (1, 1, 0));
    }

    #[test]
    fn rfc791_reassembly_timer_discards_a_partial_datagram_at_its_deadline_not_before() {
        let f = cut(&datagram(1480), 576);
        let t = Duration::from_secs_f64(15.0);
        let mut r = Reassembly::new(t);
        r.receive(SimTime(10), &f[0]);
        r.receive(SimTime(20), &f[2]);
        assert_eq!(r.next_deadline(), Some(SimTime(10) + t), "the timer starts with the first fragment");
        r.expire(SimTime((SimTime(10) + t).0 - 1));
        assert_eq!(r.held(), 1);
        r.expire(SimTime(10) + t);
        assert_eq!((r.held(), r.counters.timeouts, r.counters.fragments_discarded), (0, 1, 2));
        assert_eq!(r.next_deadline(), None);
        // The missing fragment arriving late starts a new partial datagram: nothing delivered.
        assert_eq!(r.receive(SimTime(10) + t, &f[1]), None);
    }

    #[test]
    fn rfc791_fragments_of_different_sources_with_one_id_do_not_mix() {
        let a = cut(&datagram(1480), 576);
        let mut b = cut(&datagram(1480), 576);
        for p in &mut b {
            p.hdr.src = 5;
            p.msg = 99;
        }
        let mut r = Reassembly::new(Duration::from_secs_f64(15.0));
        let got: Vec<Option<u32>> = [a[0], b[0], a[1], b[1], b[2], a[2]].iter().map(|p| r.receive(SimTime(0), p)).collect();
        assert_eq!(got, vec![None, None, None, None, Some(99), Some(42)]);
    }
}
