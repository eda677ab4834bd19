//! The interface queue between TCP and the IP-to-X.25 interface (`interface_queue`,
//! 4.2BSD's IFQ_MAXLEN): `tcp_output` sends every segment the window allows at once
//! into the queue, and `ip_output` drops a datagram that finds the queue full. Without
//! the key TCP is pulled: asked for one segment whenever no datagram waits.

use super::*;
use crate::engine::{Duration, SimTime};
use crate::protocol::tcp::{Tcp, TcpConfig};
use crate::protocol::testpair::Pair;
use crate::protocol::{Frame, Layer, Sdu, Stacked};

type Host = Stacked<Tcp, X25Host<Frame<Sdu>>>;

const MSS: u32 = 452;

/// Two 4.2BSD hosts over `c` pre-opened circuits (W = 2, 9600 bit/s, T_N = 235 ms),
/// receive window `rwnd` octets, the sender's interface queue `ifq`; run through the
/// call set-up, then `n` full segments offered. Returns the pair and the offer time.
fn pair(c: u32, rwnd: u32, ifq: Option<u32>, n: u32) -> (Pair<Host>, SimTime) {
    pair_rto(c, rwnd, ifq, n, 1.0)
}

/// [`pair`] with 4.2BSD's RTO before the first sample `rto` (1 s, its own).
fn pair_rto(c: u32, rwnd: u32, ifq: Option<u32>, n: u32, rto: f64) -> (Pair<Host>, SimTime) {
    let x = X25Config { preopen_circuits: c, policy: PolicyKind::MultiMlru, c_max: c, interface_queue: ifq, ..X25Config::default() };
    let tc = TcpConfig { mss_octets: MSS, receive_window_octets: rwnd, flavour: "bsd42".into(), initial_rto_s: rto, max_rto_s: rto.max(30.0), ..TcpConfig::default() };
    let a = Stacked::new(Tcp::new(&tc), X25Host::new(0, &x, vec![], 1, &[1])).with_interface_queue(ifq);
    let b = Stacked::new(Tcp::new(&tc), X25Host::new(1, &x, vec![], 0, &[])).with_interface_queue(ifq);
    let mut p = Pair::new(a, b, 1e12, 0.235);
    p.run(SimTime::from_secs_f64(5.0), |_, _, _| false);
    let start = p.now;
    for k in 0..n {
        p.ends[0].handle_submit(start, Sdu { id: u64::from(k), bits: 8 * MSS, flow: 0, born: start });
    }
    (p, start)
}

/// Data segments TCP has sent (first transmissions and again).
fn tcp_sent(h: &Host) -> u64 {
    h.upper.counters().i_frames_sent
}

/// Datagrams the X.25 interface has taken: given to a circuit or waiting for one.
fn x25_taken(h: &Host) -> u64 {
    h.lower.iface.counters.datagrams_sent + h.lower.backlog() as u64
}

/// 4.2BSD `tcp_output`: with a queue of 50 the window's worth of segments (2048 octets:
/// four of 452) goes into the interface at the instant the data is offered; pulled,
/// only the one a free circuit takes.
#[test]
fn test_ifq_tcp_output_queues_the_windows_segments_at_once() {
    let just_after = |p: &mut Pair<Host>, start: SimTime| p.run(start + Duration::from_secs_f64(1e-6), |_, _, _| false);
    let (mut p, start) = pair(1, 2048, Some(50), 20);
    just_after(&mut p, start);
    assert_eq!(tcp_sent(&p.ends[0]), 4, "the window: 4 × 452 ≤ 2048 < 5 × 452");
    assert_eq!(x25_taken(&p.ends[0]), 4);
    assert_eq!((p.ends[0].lower.iface.counters.datagrams_sent, p.ends[0].lower.backlog()), (1, 3), "one on the circuit, three queued");
    assert_eq!(p.ends[0].ifq_drops, 0);
    let (mut q, start) = pair(1, 2048, None, 20);
    just_after(&mut q, start);
    assert_eq!(tcp_sent(&q.ends[0]), 1, "pulled: the one segment the free circuit takes");
    assert_eq!(q.ends[0].lower.backlog(), 0);
}

/// `ip_output` on IF_QFULL: a segment that finds `interface_queue` datagrams waiting is
/// dropped and counted; TCP counted it sent and sends it again at its timeout. Counters
/// balance (TCP's segments = datagrams the interface took + drops) and the file arrives
/// whole, in order.
#[test]
fn test_ifq_full_queue_drops_with_a_counter_and_tcp_recovers() {
    let (mut p, start) = pair(1, 2048, Some(1), 20);
    p.run(start + Duration::from_secs_f64(1e-6), |_, _, _| false);
    // Segment 1 on the circuit, segment 2 waits, 3 and 4 find the queue full.
    assert_eq!((tcp_sent(&p.ends[0]), x25_taken(&p.ends[0]), p.ends[0].ifq_drops), (4, 2, 2));
    p.run(SimTime::from_secs_f64(1e5), |_, _, _| false);
    let ids: Vec<u64> = p.delivered(1).iter().map(|x| x.1.id).collect();
    assert_eq!(ids, (0..20).collect::<Vec<_>>(), "every segment once, in order");
    let a = &p.ends[0];
    assert!(a.ifq_drops >= 2 && a.upper.segments_retransmitted >= 2, "drops {} recovered by {} sent again", a.ifq_drops, a.upper.segments_retransmitted);
    assert_eq!(tcp_sent(a), a.lower.iface.counters.datagrams_sent + a.ifq_drops, "TCP's segments = datagrams taken + dropped");
    assert!(a.extra_measures().contains(&("ifq_drops", a.ifq_drops as f64)));
}

/// The pull (no `interface_queue`, the default): TCP is asked for a segment only when
/// no datagram waits, so at most one ever waits and none is dropped; and a queue of
/// depth 1 under a one-segment window and no timeout is the same trajectory to the bit
/// (`tcp_output` then never has more than one segment to hand over). (With timeouts it
/// is not: a segment sent again is pushed behind its first copy, or dropped, where the
/// pull waited for the queue to empty.)
#[test]
fn test_ifq_absent_is_the_pull_and_depth_1_with_a_one_segment_window_is_the_same_trajectory() {
    let (mut p, _) = pair(2, 2048, None, 40);
    let mut most = 0;
    for k in 1..=400 {
        p.run(SimTime::from_secs_f64(5.0 + 0.1 * f64::from(k)), |_, _, _| false);
        most = most.max(p.ends[0].lower.backlog());
    }
    assert_eq!(most, 1, "at most one datagram waits for a circuit");
    assert_eq!(p.ends[0].ifq_drops, 0);
    assert!(!p.ends[0].extra_measures().iter().any(|(k, _)| *k == "ifq_drops"), "no queue, no measure");
    let times = |ifq: Option<u32>| {
        let (mut p, _) = pair_rto(1, MSS, ifq, 30, 60.0);
        p.run(SimTime::from_secs_f64(1e5), |_, _, _| false);
        assert_eq!(p.ends[0].upper.segments_retransmitted, 0, "no timeout");
        p.delivered(1).iter().map(|x| (x.0, x.1.id)).collect::<Vec<_>>()
    };
    let pulled = times(None);
    assert_eq!(pulled.len(), 30);
    assert_eq!(times(Some(1)), pulled);
}

/// The answers kept instead of asking again (the stack's: TCP's `wants_transmit`; the
/// access line's: each LAPB station's `wants_transmit_now`) stay what a fresh question
/// answers, every 5 ms through a transfer with queue drops and TCP timeouts: an input
/// that left a false answer standing would show here (and would hold a frame back).
#[test]
fn test_kept_quiet_answers_match_fresh_ones_through_a_transfer() {
    let (mut p, start) = pair(1, 2048, Some(1), 40);
    let (mut tcp_quiet, mut lapb_quiet) = (0, 0);
    for k in 1..=40_000 {
        p.run(start + Duration::from_secs_f64(0.005 * f64::from(k)), |_, _, _| false);
        for h in &p.ends {
            tcp_quiet += usize::from(h.upper_is_quiet());
            lapb_quiet += h.lower.line.quiet_stations();
        }
    }
    let ids: Vec<u64> = p.delivered(1).iter().map(|x| x.1.id).collect();
    assert_eq!(ids, (0..40).collect::<Vec<_>>(), "every segment once, in order");
    assert!(p.ends[0].ifq_drops > 0 && p.ends[0].upper.segments_retransmitted > 0, "drops and timeouts happened");
    assert!(tcp_quiet > 1000 && lapb_quiet > 1000, "the kept answers were in use: TCP {tcp_quiet}, LAPB {lapb_quiet} checks");
}

/// The interface's kept state (the channels that may send, outside which `search`
/// looks at no circuit; each site's free and datagram-holding circuits, which answer
/// `x25_window_blocked_s`'s question) stays what a fresh count gives, every 5 ms
/// through a transfer over two circuits with datagrams queued behind closed windows,
/// and over one with queue drops and TCP timeouts; both were in use.
#[test]
fn test_kept_circuit_state_matches_a_fresh_count_through_a_transfer() {
    for (c, ifq) in [(2, Some(50)), (1, Some(1))] {
        let (mut p, start) = pair(c, 2048, ifq, 40);
        let (mut skipped, mut blocked) = (0, 0);
        for k in 1..=30_000 {
            p.run(start + Duration::from_secs_f64(0.005 * f64::from(k)), |_, _, _| false);
            for h in &mut p.ends {
                let (outside, sites) = h.lower.iface.check_kept();
                skipped += outside;
                blocked += sites;
            }
        }
        let ids: Vec<u64> = p.delivered(1).iter().map(|x| x.1.id).collect();
        assert_eq!(ids, (0..40).collect::<Vec<_>>(), "{c} circuits: every segment once, in order");
        assert!(skipped > 1000 && blocked > 1000, "{c} circuits: the kept state was in use: {skipped} circuits skipped, {blocked} blocked sites");
    }
}

/// TCP's kept "nothing to send" stands across a wake-up of the stack before TCP's own
/// deadline (most wake-ups are the access line's): TCP's timers act only once due
/// (`Layer::timeouts_wait_for_deadline`). A wake-up at that deadline ends it.
#[test]
fn test_tcp_quiet_stands_across_wake_ups_before_its_deadline() {
    let (mut p, start) = pair(1, 2048, Some(50), 20);
    p.run(start + Duration::from_secs_f64(0.5), |_, _, _| false);
    let now = p.now;
    let a = &mut p.ends[0];
    assert!(a.upper_is_quiet(), "the window's segments are queued: TCP has nothing more to send");
    let due = a.upper.poll_timeout().expect("the retransmission timer runs");
    assert!(due > now, "TCP's deadline {due:?} is ahead of {now:?}");
    a.handle_timeout(now);
    assert!(a.upper_is_quiet(), "a wake-up before TCP's deadline leaves its answer standing");
    a.handle_timeout(due);
    assert!(!a.upper_is_quiet(), "a wake-up at TCP's deadline ends it");
}

/// `x25_window_blocked_s`, frame in, frame out: a spell starts at the first pull that
/// finds nothing to send while a datagram waits and no circuit to its site is free (the
/// one circuit holds the first datagram, its window of W = 2 closed, the second
/// datagram queued), repeated pulls do not restart it, and it ends at the pull after
/// the P(R) that opens the window. A datagram on the circuit behind a closed window
/// waits for the network too (no other circuit could carry it): 6.1 to 7.0 s. A second
/// circuit, free while the first waits for P(R), ends it: the layer above offers
/// nothing for it. Exactly 0.7 + 0.9 s.
#[test]
fn test_window_blocked_counts_datagrams_waiting_with_no_circuit_free_from_the_empty_pull_to_the_next_packet() {
    use super::interface::Interface;
    use super::packet::{Packet, PacketKind};
    let t = SimTime::from_secs_f64;
    let x = X25Config { window: 2, interface_queue: Some(50), ..X25Config::default() };
    let mut i: Interface<Sdu> = Interface::new(0, &x);
    i.preopen(t(0.0), 1, 1);
    let call = i.next_packet(t(0.0)).expect("CALL REQUEST");
    i.on_packet(t(0.0), Packet::control(PacketKind::CallAccepted, call.vc, 0, 1, 0, 9), &mut |_| {});
    assert!(i.next_packet(t(1.0)).is_none(), "nothing waits: not blocked");
    // Two datagrams of 400 + 20 octets: four packets each (128, 128, 128, 36).
    for k in 0..2 {
        i.submit(t(5.0), 1, Sdu { id: k, bits: 8 * 400, flow: 0, born: t(5.0) });
    }
    let rr = |vc: u32, pr: u32| Packet::control(PacketKind::Rr, vc, pr, 1, 0, 0);
    assert!(i.next_packet(t(5.0)).is_some() && i.next_packet(t(5.1)).is_some(), "two packets: the window is full");
    assert!(i.next_packet(t(5.2)).is_none(), "the spell starts: datagram 1 waits, the window is closed");
    assert!(i.next_packet(t(5.5)).is_none(), "the same spell");
    assert_eq!(i.window_blocked, Duration::ZERO, "an open spell is not counted yet");
    i.on_packet(t(5.9), rr(call.vc, 2), &mut |_| {});
    assert!(i.next_packet(t(5.9)).is_some(), "P(R) = 2 opens the window: packet 3");
    assert_eq!(i.window_blocked, Duration::from_secs_f64(0.7), "5.2 to 5.9 s");
    assert!(i.next_packet(t(6.0)).is_some(), "packet 4, the datagram's last: the circuit takes datagram 1");
    assert!(i.next_packet(t(6.1)).is_none(), "datagram 1 on the circuit behind its closed window");
    assert_eq!(i.queued(), 0);
    i.on_packet(t(7.0), rr(call.vc, 4), &mut |_| {});
    assert!(i.next_packet(t(7.0)).is_some() && i.next_packet(t(7.1)).is_some());
    assert_eq!(i.window_blocked, Duration::from_secs_f64(1.6), "6.1 to 7.0 s: 0.7 + 0.9");
    // A second circuit opens (free): the circuit behind its window no longer holds the line idle.
    i.preopen(t(7.2), 1, 1);
    let call2 = i.next_packet(t(7.2)).expect("CALL REQUEST");
    assert!(i.next_packet(t(7.3)).is_none(), "datagram 1's last two packets wait, the new call is not connected");
    i.on_packet(t(7.5), Packet::control(PacketKind::CallAccepted, call2.vc, 0, 1, 0, 9), &mut |_| {});
    assert!(i.next_packet(t(7.5)).is_none(), "a circuit free: nothing for it to carry");
    assert_eq!(i.window_blocked, Duration::from_secs_f64(1.8), "7.3 to 7.5 s, then the free circuit ends it");
    assert!(i.next_packet(t(8.0)).is_none());
    assert_eq!(i.window_blocked, Duration::from_secs_f64(1.8), "not blocked while a circuit is free");
}

/// The measure over TCP (4.2BSD, receive window 2048 octets: four segments pushed at
/// once): over one circuit three datagrams wait behind the first, so datagrams wait
/// for P(R) through most of the transfer; over thirteen circuits a circuit is always
/// free for a datagram TCP would send: its window, not the network's delay, leaves the
/// line idle. Reported with an interface queue only.
#[test]
fn test_window_blocked_over_tcp_is_positive_behind_one_circuit_and_zero_with_circuits_to_spare() {
    let blocked = |c: u32| {
        let (mut p, start) = pair(c, 2048, Some(50), 20);
        p.run(start + Duration::from_secs_f64(60.0), |_, _, _| false);
        let m = p.ends[0].extra_measures().into_iter().find(|&(k, _)| k == "x25_window_blocked_s").map(|(_, v)| v);
        assert_eq!(m, Some(p.ends[0].lower.iface.window_blocked.as_secs_f64()));
        m.expect("reported")
    };
    let (one, many) = (blocked(1), blocked(13));
    assert!(one > 10.0, "one circuit: datagrams waited {one} s");
    assert_eq!(many, 0.0, "thirteen circuits: one is always free");
    let (q, _) = pair(1, 2048, None, 20);
    assert!(!q.ends[0].extra_measures().iter().any(|(k, _)| *k == "x25_window_blocked_s"), "no queue, no measure");
}
