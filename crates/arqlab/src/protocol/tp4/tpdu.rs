//! TPDUs of the class 4 data transfer phase as metadata (no bytes on the hot path): DT,
//! AK, ED and EA, with their lengths from ISO 8073 §13 (normal or extended format,
//! optional checksum parameter) and the selective-acknowledgement parameter of
//! Colella, Aronoff & Mills (Figure 3).

use crate::protocol::layer::{Payload, Pdu, Sdu};
use crate::trace::TraceFrame;
use serde::Serialize;

/// TPDU types of the data transfer phase (ISO 8073 §13.1: DT F, ED 1, AK 6, EA 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TpduKind {
    Dt,
    Ak,
    Ed,
    Ea,
}

impl TpduKind {
    pub fn name(self) -> &'static str {
        match self {
            TpduKind::Dt => "DT",
            TpduKind::Ak => "AK",
            TpduKind::Ed => "ED",
            TpduKind::Ea => "EA",
        }
    }

    /// The TPDU code (high nibble of the second octet).
    pub fn code(self) -> u8 {
        match self {
            TpduKind::Dt => 0xF,
            TpduKind::Ak => 0x6,
            TpduKind::Ed => 0x1,
            TpduKind::Ea => 0x2,
        }
    }
}

/// Header format: normal (7-bit TPDU-NR, credit in the AK code octet) or extended
/// (31-bit TPDU-NR, 16-bit credit), ISO 8073 §13.7–13.10. The paper's AK (Figure 3)
/// is the extended one.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    Normal,
    Extended,
}

/// Octets of the fixed part (LI included) and of the checksum parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headers {
    pub format: Format,
    pub checksum: bool,
}

/// Octets of the selective-acknowledgement parameter (code, length 4, TPDU-NR).
pub const SACK_PARAMETER_OCTETS: u32 = 6;
/// Octets of the checksum parameter (code 0xC3, length 2, two check octets).
pub const CHECKSUM_PARAMETER_OCTETS: u32 = 4;

impl Headers {
    /// Header octets (LI through the variable part) of a TPDU of `kind`.
    pub fn octets(&self, kind: TpduKind, selective: bool) -> u32 {
        let fixed = match (self.format, kind) {
            (Format::Normal, _) => 5,
            (Format::Extended, TpduKind::Ak) => 10,
            (Format::Extended, _) => 8,
        };
        let sack = if selective { SACK_PARAMETER_OCTETS } else { 0 };
        let check = if self.checksum { CHECKSUM_PARAMETER_OCTETS } else { 0 };
        fixed + sack + check
    }
}

/// One TPDU. DTs carry the TSDU they are a segment of (a `Copy` handle for delay
/// measurement and delivery) and the number of EDs the user had submitted before the
/// segment's data (the NBS "most recent expedited sequence number" mark).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tpdu {
    pub kind: TpduKind,
    /// DT: TPDU-NR; AK: YR-TU-NR (next expected); ED/EA: ED-TPDU-NR.
    pub nr: u64,
    /// DT: end of TSDU.
    pub eot: bool,
    /// AK: credit (TPDUs from YR-TU-NR).
    pub credit: u32,
    /// AK: the out-of-sequence TPDU-NR selectively acknowledged.
    pub sack: Option<u64>,
    /// Length of the whole TPDU in octets.
    pub octets: u32,
    /// User data octets (DT, ED).
    pub user_octets: u32,
    /// DT: the TSDU.
    pub tsdu: Option<Sdu>,
    /// DT: EDs submitted before this segment's data (0 = none).
    pub epoch: u32,
}

impl Tpdu {
    pub fn control(kind: TpduKind, nr: u64, octets: u32) -> Tpdu {
        Tpdu { kind, nr, eot: false, credit: 0, sack: None, octets, user_octets: 0, tsdu: None, epoch: 0 }
    }
}

impl Payload for Tpdu {
    #[inline]
    fn bits(&self) -> u32 {
        self.octets * 8
    }
    fn sdu_id(&self) -> Option<u64> {
        self.tsdu.map(|s| s.id)
    }
    fn trace_inner(&self) -> Option<TraceFrame> {
        Some(self.trace())
    }
}

impl Pdu for Tpdu {
    #[inline]
    fn bits(&self) -> u32 {
        self.octets * 8
    }
    /// DT and ED: `ns` = TPDU-NR / ED-TPDU-NR, `pf` = EOT. AK: `nr` = YR-TU-NR, `ns` =
    /// the selectively acknowledged TPDU-NR (if any), `command` = the selective
    /// parameter is present. EA: `nr` = ED-TPDU-NR. Numbers are shown modulo 2^31.
    fn trace(&self) -> TraceFrame {
        let m = |x: u64| (x & 0x7FFF_FFFF) as u32;
        let (ns, nr) = match self.kind {
            TpduKind::Dt | TpduKind::Ed => (Some(m(self.nr)), 0),
            TpduKind::Ak => (self.sack.map(m), m(self.nr)),
            TpduKind::Ea => (None, m(self.nr)),
        };
        TraceFrame {
            kind: self.kind.name(),
            ns,
            nr,
            pf: self.eot,
            command: self.sack.is_some(),
            bits: self.octets * 8,
            info_bits: self.user_octets * 8,
            message: self.tsdu.map(|s| s.id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_lengths_follow_iso_8073_and_figure_3() {
        let ext = Headers { format: Format::Extended, checksum: false };
        // Figure 3: the normal AK is 10 octets, the selective one 16.
        assert_eq!(ext.octets(TpduKind::Ak, false), 10);
        assert_eq!(ext.octets(TpduKind::Ak, true), 16);
        assert_eq!(ext.octets(TpduKind::Dt, false), 8);
        let chk = Headers { format: Format::Extended, checksum: true };
        assert_eq!(chk.octets(TpduKind::Dt, false), 12);
        let normal = Headers { format: Format::Normal, checksum: true };
        assert_eq!(normal.octets(TpduKind::Ea, false), 9);
    }
}
