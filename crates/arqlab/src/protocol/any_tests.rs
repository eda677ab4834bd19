//! `AnyLayer::poll_transmit_into` (the runner's path: the PDU built in the lane's slot)
//! against `poll_transmit` (a returned PDU), for every registered kind.

use super::*;
use crate::schema::{Problems, Table};
use crate::protocol::registry::PROTOCOL_KINDS;
use crate::protocol::testpair::Pair;
use crate::protocol::FrameKind;

/// A layer whose `poll_transmit` goes through the inner layer's `poll_transmit_into`
/// with one slot that outlives each PDU, as a lane's does: it first holds a PDU of
/// another header family, then the previous PDU.
struct ViaSlot {
    layer: AnyLayer<Sdu>,
    slot: AnyPdu<Sdu>,
}

impl Layer for ViaSlot {
    const HOLDS_RECEIVED: bool = true;
    type Sdu = Sdu;
    type Pdu = AnyPdu<Sdu>;
    fn service(&self) -> Service {
        self.layer.service()
    }
    fn handle_submit(&mut self, now: SimTime, sdu: Sdu) {
        self.layer.handle_submit(now, sdu)
    }
    fn handle_receive(&mut self, now: SimTime, pdu: &AnyPdu<Sdu>) {
        self.layer.handle_receive(now, pdu)
    }
    fn handle_receive_in_error(&mut self, now: SimTime, pdu: &AnyPdu<Sdu>) {
        self.layer.handle_receive_in_error(now, pdu)
    }
    fn handle_timeout(&mut self, now: SimTime) {
        self.layer.handle_timeout(now)
    }
    fn poll_transmit(&mut self, now: SimTime, grant: &Grant) -> Option<AnyPdu<Sdu>> {
        self.layer.poll_transmit_into(now, grant, &mut self.slot).then(|| self.slot.clone())
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        self.layer.poll_timeout()
    }
    fn poll_event(&mut self) -> Option<Event<Sdu>> {
        self.layer.poll_event()
    }
    fn accepts(&self) -> bool {
        self.layer.accepts()
    }
    fn wants_transmit(&self) -> bool {
        self.layer.wants_transmit()
    }
    fn backlog(&self) -> usize {
        self.layer.backlog()
    }
    fn unacknowledged(&self) -> usize {
        self.layer.unacknowledged()
    }
    fn counters(&self) -> Counters {
        self.layer.counters()
    }
}

/// The default configuration of `kind` (every field defaulted).
fn config(kind: &str) -> ProtocolConfig {
    let v = serde_json::json!({ "kind": kind });
    let mut p = Problems::default();
    let mut t = Table::root(&v, &mut p);
    let c = ProtocolConfig::parse(&mut t, &mut p);
    assert!(p.is_empty(), "{kind}: {p:?}");
    c
}

/// End `me` of a two-node link running `cfg` (node 0 opens, flow 0 goes 0 → 1).
fn end(cfg: &ProtocolConfig, me: u32) -> AnyLayer<Sdu> {
    let peer = 1 - me;
    let station = if me == 0 { Station::A } else { Station::B };
    let routes = [peer];
    let ctx = Ctx { active_open: me == 0, routes: &routes, sites: &routes, ..Ctx::link(me, peer, station) };
    AnyLayer::new(cfg, &ctx)
}

/// Every PDU put on the line (end, index, PDU) and every event at each end, of 40
/// messages from node 0 to node 1 over a line that, if `lossy`, corrupts one PDU in 16
/// in each direction (by a hash of its index: a period would lock onto a window's).
fn transfer<L: Layer<Sdu = Sdu, Pdu = AnyPdu<Sdu>>>(a: L, b: L, lossy: bool) -> (Vec<String>, [Vec<String>; 2]) {
    let mut pair = Pair::new(a, b, 64_000.0, 0.01);
    for id in 0..40 {
        pair.ends[0].handle_submit(SimTime::ZERO, Sdu { id, bits: 800 + 8 * id as u32, flow: 0, born: SimTime::ZERO });
    }
    let mut sent = vec![];
    pair.run(SimTime::ZERO + Duration::from_secs_f64(600.0), |s, i, pdu| {
        sent.push(format!("{s} {i} {pdu:?}"));
        lossy && (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60 == 0
    });
    let events = pair.events.map(|e| e.iter().map(|x| format!("{x:?}")).collect());
    (sent, events)
}

#[test]
fn test_poll_transmit_into_builds_what_poll_transmit_returns_for_every_kind() {
    let stale = Frame::supervisory(FrameKind::RR, 5, true, 123);
    for kind in PROTOCOL_KINDS {
        let cfg = config(kind);
        // The lane's first slot holds a PDU of another family.
        let other = if matches!(cfg, ProtocolConfig::Tcp(_)) { AnyPdu::Frame(stale) } else { AnyPdu::Segment(stale) };
        let via = |me| ViaSlot { layer: end(&cfg, me), slot: other };
        // An X.25 network delivers every packet (the packet level does not recover a loss).
        let lossy = !matches!(cfg, ProtocolConfig::X25(_));
        let (sent, events) = transfer(end(&cfg, 0), end(&cfg, 1), lossy);
        let (sent_into, events_into) = transfer(via(0), via(1), lossy);
        let delivered = events[1].iter().filter(|e| e.contains("Delivered")).count();
        assert!(delivered >= 10 && sent.len() > delivered, "{kind}: a transfer ({delivered} delivered, {} PDUs)", sent.len());
        assert_eq!(sent, sent_into, "{kind}: the PDUs on the line");
        assert_eq!(events, events_into, "{kind}: the events at both ends");
    }
}
