//! An HF packet as the medium and the trace see it: its size, mode and airtime, and
//! its trace line (STANAG 5066 numbers frames modulo 256 on the wire).

use super::*;
use crate::protocol::Pdu;

/// The trace names each kind, numbers a DATA packet by its FSN (seq mod 256) and
/// every packet's acknowledgement by its lower edge mod 256, marks the first packet of
/// a transmission as the command and the last as P/F, and names the client message.
#[test]
fn trace_line_carries_kind_fsn_modulo_256_lower_edge_and_turn_marks() {
    let seg = Segment { sdu: sdu(42, 1600), index: 0, count: 1 };
    let mut f = HfFrame { kind: HfKind::Data, seq: 261, segment: Some(seg), lwe: 515, bits: 1728, info: 1600, first: true, last: false, mode: 5, ..arq("5066").frame(HfKind::Data) };
    f.airtime = Duration::from_secs_f64(0.72);
    let tr = f.trace();
    assert_eq!((tr.kind, tr.ns, tr.nr, tr.command, tr.pf), ("DATA", Some(5), 3, true, false));
    assert_eq!((tr.bits, tr.info_bits, tr.message), (1728, 1600, Some(42)));
    assert_eq!((Pdu::bits(&f), Payload::bits(&f), f.sdu_id()), (1728, 1728, Some(42)));
    assert_eq!((Pdu::mode(&f), Pdu::airtime(&f)), (5, Some(Duration::from_secs_f64(0.72))));
    for (kind, name) in [(HfKind::Ack, "ACK"), (HfKind::Request, "REQ"), (HfKind::Release, "REL")] {
        let c = HfFrame { kind, segment: None, seq: 7, first: false, last: true, ..f };
        let tr = c.trace();
        assert_eq!((tr.kind, tr.ns, tr.nr, tr.command, tr.pf, tr.message), (name, None, 3, false, true, None), "{kind:?}");
        assert_eq!(c.sdu_id(), None);
    }
}
