//! `Layer::progress`, the stall watch's progress inside an SDU, frame in / frame out:
//! it moves when a piece of an SDU (an HF ARQ segment, TCP octets) is accepted in order
//! or acknowledged, before the whole SDU is delivered or acknowledged, and not on a
//! piece beyond a gap or a duplicate. (TP4's DTs and EDs: `protocol::tp4::tests`.)

use arqlab::engine::SimTime;
use arqlab::protocol::hf::{HfArq, HfArqConfig, HfFrame, HfKind};
use arqlab::protocol::tcp::{Tcp, TcpConfig};
use arqlab::protocol::{Event, Frame, FrameKind, Grant, Layer, Sdu, Station};

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn sdu(id: u64, bits: u32) -> Sdu {
    Sdu { id, bits, flow: 0, born: SimTime::ZERO }
}

/// What `e`'s progress moved by when it received `pdu` at `s` seconds, and whether that
/// delivered or acknowledged a whole SDU.
fn step<L: Layer>(e: &mut L, s: f64, pdu: &L::Pdu) -> (u64, bool) {
    let before = e.progress();
    e.handle_receive(t(s), pdu);
    let whole = e.poll_event().is_some();
    (e.progress() - before, whole)
}

#[test]
fn hf_arq_progress_moves_per_segment_received_in_order_and_acknowledged() {
    // STANAG 5066 (selective repeat): one SDU of 5 segments in one transmission.
    let c = HfArqConfig::of("5066");
    let (mut a, mut b) = (HfArq::<Sdu>::new(&c, Station::A), HfArq::<Sdu>::new(&c, Station::B));
    a.handle_submit(SimTime::ZERO, sdu(0, 5 * c.segment_bits));
    let g = Grant::line(2400.0);
    let data: Vec<HfFrame<Sdu>> = std::iter::from_fn(|| a.poll_transmit(SimTime::ZERO, &g)).take_while(|f| f.kind == HfKind::Data).collect();
    assert_eq!(data.len(), 5);
    assert_eq!(step(&mut b, 1.0, &data[0]), (1, false), "segment 0 in order");
    assert_eq!(step(&mut b, 1.1, &data[2]), (0, false), "segment 2 beyond the gap");
    assert_eq!(step(&mut b, 1.2, &data[0]), (0, false), "segment 0 again");
    assert_eq!(step(&mut b, 1.3, &data[1]), (2, false), "segment 1 fills the gap: 1 -> 3");
    assert_eq!((step(&mut b, 1.4, &data[3]), step(&mut b, 1.5, &data[4])), ((1, false), (1, true)), "the last segment delivers the SDU");
    // An acknowledgement of the first three segments (lower edge 3) moves the sender by 3.
    let mut ack = data[0];
    (ack.kind, ack.lwe, ack.bitmap) = (HfKind::Ack, 3, 0);
    assert_eq!(step(&mut a, 2.0, &ack), (3, false), "three segments acknowledged, not the SDU");
    assert_eq!(step(&mut a, 2.1, &ack), (0, false), "the same acknowledgement again");
}

#[test]
fn tcp_progress_moves_per_octet_received_in_order_and_acknowledged() {
    let c = TcpConfig { mss_octets: 100, receive_window_octets: 6400, initial_window_segments: 4, ..TcpConfig::default() };
    let (mut a, mut b) = (Tcp::new(&c), Tcp::new(&c));
    a.handle_submit(SimTime::ZERO, sdu(0, 8 * 300));
    let g = Grant::line(1e6);
    let segs: Vec<Frame<Sdu>> = std::iter::from_fn(|| a.poll_transmit(SimTime::ZERO, &g)).collect();
    assert_eq!(segs.len(), 3, "one SDU of three segments");
    assert_eq!(step(&mut b, 0.1, &segs[0]), (100, false), "the first 100 octets in order");
    assert_eq!((step(&mut b, 0.2, &segs[2]), step(&mut b, 0.3, &segs[0])), ((0, false), (0, false)), "beyond the gap; a duplicate");
    assert_eq!(step(&mut b, 0.4, &segs[1]), (200, true), "the gap filled: RCV.NXT 100 -> 300, the SDU delivered");
    let ack = |n| Frame::<Sdu>::supervisory(FrameKind::RR, n, false, 160);
    assert_eq!(step(&mut a, 0.5, &ack(100)), (100, false), "SND.UNA 0 -> 100, not the SDU");
    assert_eq!(step(&mut a, 0.6, &ack(100)), (0, false), "a duplicate ACK");
    assert_eq!(step(&mut a, 0.7, &ack(300)), (200, true));
    assert!(matches!(a.poll_event(), None | Some(Event::Acknowledged(_))));
}
