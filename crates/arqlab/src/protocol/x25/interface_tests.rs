//! The IP-to-X.25 interface (RFC 877; Comer & Korb §6.2) frame in, frame out: what
//! `wants` answers against the packet `next_packet` then returns, the channels in use,
//! and `x25_window_blocked_s` tracked only with an interface queue.

use super::interface::Interface;
use super::packet::{Packet, PacketKind};
use super::X25Config;
use crate::engine::{Duration, SimTime};
use crate::protocol::Sdu;

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn sdu(id: u64, octets: u32) -> Sdu {
    Sdu { id, bits: octets * 8, flow: 0, born: SimTime::ZERO }
}

/// One pull, checking that `wants` said beforehand whether it would find a packet.
fn pull(i: &mut Interface<Sdu>, now: SimTime) -> Option<Packet<Sdu>> {
    let wanted = i.wants(now);
    let p = i.next_packet(now);
    assert_eq!(wanted, p.is_some(), "at {now:?}: wants {wanted}, next_packet {:?}", p.as_ref().map(|p| p.kind));
    p
}

/// `wants` is true exactly when a pull finds a packet: a control packet due, a
/// circuit's packet inside its window, or a datagram queued for its site's free
/// circuit (before `assign` has run). A datagram queued behind its site's busy circuit,
/// or for a site whose call is not connected while another site's circuit is free,
/// wants nothing. (Not where `assign` would give a datagram to a free circuit whose
/// window is closed: there `wants` answers true and the pull finds nothing; no caller
/// asks then, `wants` having no caller in the model.)
#[test]
fn test_rfc877_interface_wants_a_pull_exactly_when_a_packet_is_ready() {
    let mut i: Interface<Sdu> = Interface::new(0, &X25Config::default()); // W = 2, one circuit per site
    assert!(pull(&mut i, t(0.0)).is_none(), "nothing at all");
    i.submit(t(0.0), 1, sdu(0, 300)); // 320 octets: 128 + 128 + 64
    assert_eq!(i.circuits_in_use(), 1, "a call placed to site 1");
    let call = pull(&mut i, t(0.0)).expect("CALL REQUEST, due at once");
    assert_eq!(call.kind, PacketKind::CallRequest);
    assert!(pull(&mut i, t(0.0)).is_none(), "the datagram waits for the call to connect");
    i.on_packet(t(0.1), Packet::control(PacketKind::CallAccepted, call.vc, 0, 1, 0, 9), &mut |_| {});
    let p0 = pull(&mut i, t(0.1)).expect("the queued datagram, its circuit now free");
    let p1 = pull(&mut i, t(0.1)).expect("its second packet");
    assert_eq!((p0.ps, p1.ps, p1.m), (0, 1, true));
    assert!(pull(&mut i, t(0.1)).is_none(), "window W = 2 closed");
    i.submit(t(0.2), 1, sdu(1, 100));
    assert!(pull(&mut i, t(0.2)).is_none(), "datagram 1 queued behind its site's busy circuit");
    i.on_packet(t(0.5), Packet::control(PacketKind::Rr, call.vc, 2, 1, 0, 0), &mut |_| {});
    let p2 = pull(&mut i, t(0.5)).expect("P(R) = 2 opens the window: the last packet");
    assert_eq!((p2.ps, p2.m), (2, false));
    let p3 = pull(&mut i, t(0.5)).expect("the circuit, free, takes datagram 1");
    assert_eq!((p3.ps, p3.dgram.map(|d| d.1.id)), (3, Some(1)));
    assert!(pull(&mut i, t(0.5)).is_none(), "nothing queued");
    i.submit(t(0.7), 2, sdu(2, 100));
    assert_eq!(i.circuits_in_use(), 2, "a call placed to site 2");
    assert_eq!(pull(&mut i, t(0.7)).map(|p| p.kind), Some(PacketKind::CallRequest));
    assert!(pull(&mut i, t(0.7)).is_none(), "site 2's datagram waits for its call; site 1's free circuit is not for it");
    let vc2 = i.circuits.iter().flatten().find(|c| c.peer == 2).map(|c| c.vc).expect("site 2's circuit");
    i.on_packet(t(0.8), Packet::control(PacketKind::ClearRequest, vc2, 0, 2, 0, 2), &mut |_| {});
    assert_eq!((i.circuits_in_use(), i.counters.calls_refused, i.counters.datagrams_discarded), (1, 1, 1), "the call refused, its datagram discarded");
    assert!(pull(&mut i, t(0.8)).is_none());
}

/// Without an interface queue `x25_window_blocked_s` is neither reported nor tracked:
/// the spell the queued interface would count (a datagram waiting behind a closed
/// window, 5.2 to 5.9 s) leaves `window_blocked` at zero.
#[test]
fn test_window_blocked_is_not_tracked_without_an_interface_queue() {
    let x = X25Config { window: 2, interface_queue: None, ..X25Config::default() };
    let mut i: Interface<Sdu> = Interface::new(0, &x);
    assert!(!i.reports_window_blocked());
    i.preopen(t(0.0), 1, 1);
    let call = i.next_packet(t(0.0)).expect("CALL REQUEST");
    i.on_packet(t(0.0), Packet::control(PacketKind::CallAccepted, call.vc, 0, 1, 0, 9), &mut |_| {});
    for k in 0..2 {
        i.submit(t(5.0), 1, sdu(k, 400));
    }
    assert!(i.next_packet(t(5.0)).is_some() && i.next_packet(t(5.1)).is_some(), "the window is full");
    assert!(i.next_packet(t(5.2)).is_none() && i.next_packet(t(5.5)).is_none(), "datagram 1 waits");
    i.on_packet(t(5.9), Packet::control(PacketKind::Rr, call.vc, 2, 1, 0, 0), &mut |_| {});
    assert!(i.next_packet(t(5.9)).is_some());
    assert_eq!(i.window_blocked, Duration::ZERO);
}
