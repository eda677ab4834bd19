//! X.25 tests: the packet level frame by frame, the circuit manager's rules, and two
//! hosts across a network of constant transit delay against the burst model.

use super::circuit::{Circuit, VcState};
use super::interface::Interface;
use super::manager::select_victim;
use super::*;
use crate::engine::{Duration, SimTime};
use crate::protocol::testpair::Pair;
use crate::protocol::{Event, Layer, Sdu};

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn sdu(id: u64, octets: u32) -> Sdu {
    Sdu { id, bits: octets * 8, flow: 0, born: SimTime::ZERO }
}

fn open_circuit(w: u32) -> Circuit<Sdu> {
    let mut c = Circuit::new(1, 0, 1, true, w, 8, 128, SimTime::ZERO);
    c.state = VcState::Open;
    c
}

#[test]
fn test_circuit_window_bounds_a_packet_sequence_and_m_bits_mark_it() {
    let mut a = open_circuit(2);
    a.take(SimTime::ZERO, 7, sdu(0, 300), 300);
    let p0 = a.next_packet(SimTime::ZERO).unwrap();
    let p1 = a.next_packet(SimTime::ZERO).unwrap();
    assert!(a.next_packet(SimTime::ZERO).is_none(), "window W = 2 is full");
    assert_eq!((p0.ps, p0.m, p0.data_octets, p0.index), (0, true, 128, 0));
    assert_eq!((p1.ps, p1.m, p1.data_octets, p1.index), (1, true, 128, 1));
    let mut b = open_circuit(2);
    let mut got = vec![];
    b.on_packet(t(1.0), p0, Duration::from_secs_f64(5.0), &mut |n, _| got.push(n));
    assert!(!b.wants(t(1.0)), "one packet: the receiver waits");
    assert_eq!(b.poll_timeout(t(1.0)), Some(t(6.0)), "the long acknowledgement timer");
    b.on_packet(t(1.1), p1, Duration::from_secs_f64(5.0), &mut |n, _| got.push(n));
    let rr = b.next_packet(t(1.1)).unwrap();
    assert_eq!((rr.kind, rr.pr), (PacketKind::Rr, 2), "window full: P(R) at once");
    a.on_packet(t(1.2), rr, Duration::from_secs_f64(5.0), &mut |_, _| {});
    let p2 = a.next_packet(t(1.2)).unwrap();
    assert_eq!((p2.ps, p2.m, p2.data_octets), (2, false, 44), "the last packet of the sequence");
    assert!(a.free());
    b.on_packet(t(1.5), p2, Duration::from_secs_f64(5.0), &mut |n, _| got.push(n));
    assert_eq!(got, vec![7], "one datagram, delivered at its last packet");
    b.handle_timeout(t(6.5));
    assert_eq!(b.next_packet(t(6.5)).unwrap().pr, 3, "after the timer");
}

#[test]
fn test_circuit_piggybacks_pr_and_resequences_overtaking_packets() {
    let mut a = open_circuit(3);
    a.take(SimTime::ZERO, 1, sdu(0, 200), 200);
    let p0 = a.next_packet(SimTime::ZERO).unwrap();
    let p1 = a.next_packet(SimTime::ZERO).unwrap();
    let mut b = open_circuit(3);
    let mut got = vec![];
    let tm = Duration::from_secs_f64(5.0);
    b.on_packet(t(1.0), p1, tm, &mut |n, _| got.push(n));
    assert!(got.is_empty());
    b.on_packet(t(1.1), p0, tm, &mut |n, _| got.push(n));
    assert_eq!(got, vec![1]);
    assert_eq!(b.sequence_errors, 0);
    b.take(t(1.2), 9, sdu(1, 10), 10);
    let d = b.next_packet(t(1.2)).unwrap();
    assert_eq!((d.kind, d.pr), (PacketKind::Data, 2), "P(R) rides on data");
    assert!(!b.wants(t(1.2)));
}

fn cfg(policy: PolicyKind) -> X25Config {
    X25Config { policy, channels: 3, k_reserved: 1, t_min_s: 10.0, c_max: 2, t_open_s: 1.0, ..X25Config::default() }
}

fn opened(i: &mut Interface<Sdu>, vc_site: &[(u32, f64, f64)]) {
    for (k, &(site, at, used)) in vc_site.iter().enumerate() {
        let mut c = Circuit::new(k as u32, 0, site, true, 2, 8, 128, t(at));
        c.state = VcState::Open;
        c.last_used = t(used);
        i.set_circuit(k, Some(c));
    }
}

#[test]
fn test_manager_lru_closes_the_least_recently_used_even_if_just_opened() {
    let mut i = Interface::new(0, &cfg(PolicyKind::Lru));
    opened(&mut i, &[(1, 0.0, 5.0), (2, 4.9, 4.95), (3, 1.0, 6.0)]);
    assert_eq!(select_victim(&i.circuits, &cfg(PolicyKind::Lru).policy(), t(5.0)), Some(1));
    i.submit(t(5.0), 4, sdu(0, 100));
    assert_eq!(i.counters.circuits_closed, 1);
    assert_eq!(i.counters.short_lived_closes, 1, "open 0.1 s: thrashing");
    assert_eq!(i.counters.calls_placed, 1);
}

#[test]
fn test_manager_mlru_keeps_young_circuits_reserves_k_and_discards_when_it_fails() {
    let c = cfg(PolicyKind::Mlru);
    let mut i = Interface::new(0, &c);
    opened(&mut i, &[(1, 0.0, 1.0), (2, 4.0, 4.0)]);
    // Two of three channels in use, K = 1 reserved: an open must first close one.
    assert_eq!(select_victim(&i.circuits, &c.policy(), t(5.0)), None, "both open < T_min");
    i.submit(t(5.0), 3, sdu(0, 100));
    assert_eq!((i.counters.calls_placed, i.counters.datagrams_discarded), (0, 1));
    assert_eq!(select_victim(&i.circuits, &c.policy(), t(10.5)), Some(0), "the LRU one, open > T_min");
    i.submit(t(10.5), 3, sdu(1, 100));
    assert_eq!((i.counters.calls_placed, i.counters.circuits_closed), (1, 1));
}

#[test]
fn test_manager_multi_mlru_opens_up_to_c_max_spaced_by_t_open_and_prefers_crowded_sites() {
    let mut c = cfg(PolicyKind::MultiMlru);
    c.channels = 8;
    let p = c.policy();
    assert!(p.wants_open(t(0.0), 1, 0, 0, None), "no circuit: open");
    assert!(!p.wants_open(t(5.0), 1, 1, 1, Some(t(0.0))), "one datagram queued before this one: not yet");
    assert!(p.wants_open(t(5.0), 1, 1, 2, Some(t(0.0))), "queue > 1, open < C_max, T_open passed");
    assert!(!p.wants_open(t(0.5), 1, 1, 2, Some(t(0.0))), "within T_open");
    assert!(!p.wants_open(t(5.0), 1, 2, 5, Some(t(0.0))), "C_max reached");
    let mut i = Interface::new(0, &c);
    // Site 1 has 3 circuits (> C_max = 2, e.g. incoming), site 2 one older, idle longer.
    opened(&mut i, &[(2, 0.0, 0.5), (1, 0.0, 2.0), (1, 0.0, 3.0), (1, 0.0, 4.0)]);
    assert_eq!(select_victim(&i.circuits, &p, t(20.0)), Some(1), "the crowded site's LRU circuit first");
    i.set_circuit(2, None);
    i.set_circuit(3, None);
    assert_eq!(select_victim(&i.circuits, &p, t(20.0)), Some(0), "then the global LRU");
}

#[test]
fn test_interface_small_datagrams_first_and_round_robin_over_a_sites_circuits() {
    let mut c = X25Config { policy: PolicyKind::MultiMlru, c_max: 2, ip_header_bits: 0, ..X25Config::default() };
    c.small_datagram_octets = 64;
    let mut i: Interface<Sdu> = Interface::new(0, &c);
    opened(&mut i, &[(1, 0.0, 0.0), (1, 0.0, 0.0)]);
    i.submit(t(1.0), 1, sdu(0, 500));
    i.submit(t(1.0), 1, sdu(1, 500));
    i.submit(t(1.0), 1, sdu(2, 20));
    let pk: Vec<_> = std::iter::from_fn(|| i.next_packet(t(1.0))).map(|p| (p.vc, p.dgram.unwrap().1.id)).collect();
    // The small datagram goes first (circuit 0), the first large one to circuit 1,
    // whose burst leaves contiguous; circuit 0, freed, takes the second large one.
    assert_eq!(pk, vec![(0, 2), (1, 0), (1, 0), (0, 1)]);
    assert_eq!(i.queued(), 0);
}

/// Comer & Korb §6.2 (RFC 877's interface): queued datagrams go round robin to the
/// site's free circuits. One pass of the round robin moves past each circuit it
/// serves, so three datagrams on three free circuits take two passes; the third must
/// not wait for a circuit to finish (`assign` is skipped only after a pass that gave
/// out nothing).
#[test]
fn test_interface_gives_every_free_circuit_a_waiting_datagram() {
    let c = X25Config { policy: PolicyKind::MultiMlru, c_max: 3, ip_header_bits: 0, ..X25Config::default() };
    let mut i: Interface<Sdu> = Interface::new(0, &c);
    opened(&mut i, &[(1, 0.0, 0.0), (1, 0.0, 0.0), (1, 0.0, 0.0)]);
    for id in 0..3 {
        i.submit(t(1.0), 1, sdu(id, 500)); // four packets each; window W = 2
    }
    let pk: Vec<_> = std::iter::from_fn(|| i.next_packet(t(1.0))).map(|p| (p.vc, p.dgram.unwrap().1.id)).collect();
    assert_eq!(i.queued(), 0, "every datagram on a circuit: {pk:?}");
    let mut per_circuit: Vec<_> = pk.iter().map(|&(vc, id)| (vc, id, pk.iter().filter(|x| x.0 == vc).count())).collect();
    per_circuit.dedup();
    assert_eq!(per_circuit, vec![(0, 0, 2), (1, 2, 2), (2, 1, 2)], "each circuit sends its window of its own datagram");
}

#[test]
fn test_bad_input_is_reported_with_its_field() {
    use crate::schema::{Problems, Table};
    use serde_json::json;
    for (v, field) in [(json!({"window": 8}), "window"), (json!({"c_max": 0}), "c_max"), (json!({"t_min_s": -1.0}), "t_min_s"), (json!({"policy": "fifo"}), "policy"), (json!({"policy": "multi_mlru", "site_c_max": {"f1": 0}}), "site_c_max.f1"), (json!({"policy": "multi_mlru", "site_c_max": {"f1": "3"}}), "site_c_max.f1"), (json!({"policy": "mlru", "site_c_max": {"f1": 3}}), "site_c_max")] {
        let text = v.to_string();
        let mut p = Problems::default();
        let mut tb = Table::root(&v, &mut p);
        let _ = X25Config::parse(&mut tb, &mut p);
        assert!(p.0.iter().any(|x| x.path.ends_with(field)), "{text}: {:?}", p.0);
    }
}

/// Two hosts, `c` circuits pre-opened from 0 to 1, a backlog of one-packet datagrams,
/// a network of constant transit delay T_N. Returns the steady-state data rate at
/// host 1 and the burst-model prediction.
pub(crate) fn saturated(w: u32, c: u32, t_n: f64) -> (f64, f64) {
    let cfg = X25Config { window: w, preopen_circuits: c, ip_header_bits: 0, policy: PolicyKind::MultiMlru, c_max: c, ..X25Config::default() };
    let a = X25Host::new(0, &cfg, vec![1], 1, &[1]);
    let b = X25Host::new(1, &cfg, vec![0], 0, &[]);
    let mut p = Pair::new(a, b, 1e12, t_n);
    let n = 600;
    for k in 0..n {
        p.ends[0].handle_submit(SimTime::ZERO, sdu(k, 128));
    }
    p.run(t(1e5), |_, _, _| false);
    let got = p.delivered(1);
    let mut ids: Vec<u64> = got.iter().map(|x| x.1.id).collect();
    ids.sort();
    assert_eq!(ids, (0..n).collect::<Vec<_>>(), "every datagram exactly once");
    let (t0, t1) = (got[200].0.as_secs_f64(), got[500].0.as_secs_f64());
    let measured = 300.0 * 1024.0 / (t1 - t0);
    (measured, burst_model(w, c, t_n, &cfg))
}

/// The burst model with this stack's own T_p and frame-level delays: a burst of W
/// frames leaves, the last crosses the network and the far access line, the P(R)
/// comes back as a 3-octet packet over both access lines and the network.
pub(crate) fn burst_model(w: u32, c: u32, t_n: f64, cfg: &X25Config) -> f64 {
    let r = cfg.access_rate_bps;
    let t_p = f64::from(8 * (cfg.packet_octets + 3) + cfg.lapb_overhead_bits) / r;
    let t_rr = f64::from(8 * 3 + cfg.lapb_overhead_bits) / r;
    let cycle = f64::from(w) * t_p + t_p + 2.0 * t_n + 2.0 * t_rr;
    let per_circuit = f64::from(w) * 8.0 * f64::from(cfg.packet_octets) / cycle;
    (f64::from(c) * per_circuit).min(8.0 * f64::from(cfg.packet_octets) / t_p)
}

#[test]
fn test_single_circuit_saturated_throughput_is_the_burst_model_exactly() {
    for w in [2, 3] {
        let (m, model) = saturated(w, 1, 0.235);
        assert!((m - model).abs() / model < 1e-6, "W = {w}: measured {m}, model {model}");
    }
}

#[test]
fn test_saturated_throughput_is_min_of_c_bursts_and_the_line_for_c_1_to_5() {
    for w in [2, 3] {
        for c in 1..=5 {
            let (m, model) = saturated(w, c, 0.235);
            assert!((m - model).abs() / model < 1e-6, "W = {w}, C = {c}: measured {m}, model {model}");
        }
    }
}

#[test]
fn test_host_events_are_deliveries_only() {
    let cfg = X25Config { preopen_circuits: 1, ..X25Config::default() };
    let a: X25Host<Sdu> = X25Host::new(0, &cfg, vec![1], 1, &[1]);
    let b = X25Host::new(1, &cfg, vec![0], 0, &[]);
    let mut p = Pair::new(a, b, 1e12, 0.1);
    p.ends[0].handle_submit(SimTime::ZERO, sdu(0, 400));
    p.run(t(100.0), |_, _, _| false);
    assert!(p.events[1].iter().all(|e| matches!(e.1, Event::Delivered(_))));
    assert_eq!(p.delivered(1).len(), 1);
    assert_eq!(p.ends[0].iface.counters.calls_placed, 1);
    assert_eq!(p.ends[1].iface.counters.calls_received, 1);
}

/// `x25_line_busy_s`: the busier direction of the access line, busy exactly for the bits
/// of the frames it sent at the line's rate. Twenty 100-octet datagrams (+ 20 octets of
/// IP header, + 3 of packet header, + 6 of LAPB framing: 1032-bit I frames) and LAPB's
/// 48-bit supervisory frames, at 9600 bit/s, counted after the call set-up.
#[test]
fn test_line_busy_is_the_frames_bits_over_the_rate_closed_form() {
    let x = X25Config { window: 2, preopen_circuits: 1, ..X25Config::default() };
    let a: X25Host<Sdu> = X25Host::new(0, &x, vec![1], 1, &[1]);
    let b: X25Host<Sdu> = X25Host::new(1, &x, vec![0], 0, &[]);
    let mut p = Pair::new(a, b, 1e12, 0.235);
    p.run(t(5.0), |_, _, _| false);
    let (busy0, c0) = (p.ends[0].line.counters(), p.ends[0].line.dte.counters());
    let start = p.now;
    for i in 0..20 {
        p.ends[0].handle_submit(start, Sdu { id: i, bits: 800, flow: 0, born: start });
    }
    p.run(t(100.0), |_, _, _| false);
    assert_eq!(p.delivered(1).len(), 20);
    let (busy, c) = (p.ends[0].line.counters(), p.ends[0].line.dte.counters());
    let (i_frames, s_frames) = (c.i_frames_sent - c0.i_frames_sent, c.s_frames_sent - c0.s_frames_sent);
    assert_eq!(i_frames, 20, "one I frame per datagram, none sent again");
    let want = (i_frames as f64 * 1032.0 + s_frames as f64 * 48.0) / 9600.0;
    let up = (busy.up_busy_ps - busy0.up_busy_ps) as f64 * 1e-12;
    assert!((up - want).abs() < 1e-9, "up busy {up} s vs closed form {want} s ({s_frames} S frames)");
    // The measure: the busier direction of the whole run (set-up included), in seconds.
    let m = p.ends[0].extra_measures().into_iter().find(|&(k, _)| k == "x25_line_busy_s").map(|(_, v)| v);
    assert_eq!(m, Some(busy.up_busy_ps.max(busy.down_busy_ps) as f64 * 1e-12));
    assert!(busy.up_busy_ps > busy.down_busy_ps, "the sender's busier direction is towards the network");
}

/// `x25_interface_busy_s` (host processing h > 0): the sending side's busy time, the
/// union of the up direction's frames and each packet's processing. At the sender every
/// packet handed to LAPB is processed for h while the line is free of its own frames
/// (the next is pulled only after the last has gone), so the union is the up line's
/// busy time plus h per processed packet, less at most LAPB's own S frames sent during
/// a processing (48 bits each). The receiver, whose incoming line is busier, reports
/// 0, though it processed its RR packets: the two ends sum to the sender's interface.
/// Without processing the measure is not reported.
#[test]
fn test_interface_busy_is_the_senders_line_and_processing_union() {
    let h = 0.015;
    let x = X25Config { window: 2, preopen_circuits: 1, host_processing_s: h, ..X25Config::default() };
    let a: X25Host<Sdu> = X25Host::new(0, &x, vec![1], 1, &[1]);
    let b: X25Host<Sdu> = X25Host::new(1, &x, vec![0], 0, &[]);
    let mut p = Pair::new(a, b, 1e12, 0.235);
    p.run(t(5.0), |_, _, _| false);
    let start = p.now;
    for i in 0..20 {
        p.ends[0].handle_submit(start, Sdu { id: i, bits: 800, flow: 0, born: start });
    }
    p.run(t(100.0), |_, _, _| false);
    assert_eq!(p.delivered(1).len(), 20);
    let measure = |e: &X25Host<Sdu>| e.extra_measures().into_iter().find(|&(k, _)| k == "x25_interface_busy_s").map(|(_, v)| v);
    let (line, ic, dte) = (p.ends[0].line.counters(), &p.ends[0].iface.counters, p.ends[0].line.dte.counters());
    let processed = (ic.data_packets_sent + ic.rr_packets_sent + ic.calls_placed + ic.calls_received) as f64;
    let (up, sending) = (line.up_busy_ps as f64 * 1e-12, line.sending_busy_ps as f64 * 1e-12);
    let s_frames = dte.s_frames_sent as f64 * 48.0 / 9600.0;
    assert!(sending <= up + processed * h + 1e-9, "{sending} s over the sum {} s", up + processed * h);
    assert!(sending >= up + processed * h - s_frames - 1e-9, "{sending} s: more overlap than the S frames' {s_frames} s");
    assert_eq!(measure(&p.ends[0]), Some(sending));
    let rb = p.ends[1].line.counters();
    assert!(rb.sending_busy_ps > 0 && rb.sending_busy_ps < rb.down_busy_ps, "the receiver sends less than it receives");
    assert_eq!(measure(&p.ends[1]), Some(0.0), "a receiving end adds nothing");
    // No processing: no measure, and the sending side is the up line.
    let y = X25Config { window: 2, preopen_circuits: 1, ..X25Config::default() };
    let c: X25Host<Sdu> = X25Host::new(0, &y, vec![1], 1, &[1]);
    assert_eq!(measure(&c), None);
    assert_eq!(c.line.counters().sending_busy_ps, c.line.counters().up_busy_ps);
}

/// The interface's quiet spell (`next_packet` answering at once after a pull found
/// nothing) ends exactly when a control packet falls due: CALL ACCEPTED, due
/// `call_setup_s` after the CALL REQUEST, goes at that instant and not a picosecond
/// before.
#[test]
fn test_quiet_spell_ends_when_call_accepted_falls_due() {
    let cfg = X25Config { call_setup_s: 0.5, ..X25Config::default() };
    let mut b: Interface<Sdu> = Interface::new(1, &cfg);
    b.on_packet(t(1.0), Packet::control(PacketKind::CallRequest, 7, 0, 0, 1, 9), &mut |_| {});
    assert!(b.next_packet(t(1.0)).is_none(), "CALL ACCEPTED waits for the call set-up time");
    assert!(b.next_packet(SimTime(t(1.5).0 - 1)).is_none(), "still quiet one picosecond before it is due");
    let p = b.next_packet(t(1.5)).expect("CALL ACCEPTED at its due time");
    assert_eq!((p.kind, p.vc, p.dst), (PacketKind::CallAccepted, 7, 0));
    assert!(b.next_packet(t(1.5)).is_none());
}

/// Every input ends a quiet spell: a datagram submitted, or an RR opening a closed
/// window, is sent at the same instant by the next pull.
#[test]
fn test_quiet_spell_ends_on_every_input() {
    let cfg = X25Config { window: 1, ..X25Config::default() };
    let mut a: Interface<Sdu> = Interface::new(0, &cfg);
    a.preopen(t(0.0), 1, 1);
    let call = a.next_packet(t(0.0)).expect("CALL REQUEST");
    a.on_packet(t(0.1), Packet::control(PacketKind::CallAccepted, call.vc, 0, 1, 0, 9), &mut |_| {});
    assert!(a.next_packet(t(0.1)).is_none(), "nothing to send: quiet");
    a.submit(t(0.1), 1, sdu(0, 100));
    let d = a.next_packet(t(0.1)).expect("the datagram submitted in the quiet spell");
    assert_eq!((d.kind, d.ps, d.m), (PacketKind::Data, 0, false));
    a.submit(t(0.2), 1, sdu(1, 100));
    assert!(a.next_packet(t(0.2)).is_none(), "window 1 closed: quiet");
    assert!(a.next_packet(t(9.0)).is_none(), "and stays quiet while nothing comes in");
    a.on_packet(t(9.0), Packet::control(PacketKind::Rr, call.vc, 1, 1, 0, 0), &mut |_| {});
    let d = a.next_packet(t(9.0)).expect("the RR opened the window");
    assert_eq!((d.kind, d.ps), (PacketKind::Data, 1));
}

/// A quiet spell survives wake-ups that fire no circuit timer (the host's access line
/// wakes it far more often) and ends when the acknowledgement timer fires: the RR
/// goes at the timer's instant, not before.
#[test]
fn test_quiet_spell_ends_when_the_ack_timer_fires() {
    let cfg = X25Config { window: 2, ack_timer_s: 2.0, ..X25Config::default() };
    let mut b: Interface<Sdu> = Interface::new(1, &cfg);
    b.on_packet(t(0.0), Packet::control(PacketKind::CallRequest, 7, 0, 0, 1, 9), &mut |_| {});
    assert_eq!(b.next_packet(t(0.0)).map(|p| p.kind), Some(PacketKind::CallAccepted));
    let data = Packet { kind: PacketKind::Data, vc: 7, ps: 0, pr: 0, m: false, src: 0, dst: 1, data_octets: 100, dgram: Some((0, sdu(0, 100))), index: 0 };
    let mut got = vec![];
    b.on_packet(t(1.0), data, &mut |p| got.push(p.id));
    assert_eq!(got, vec![0], "the datagram is delivered");
    assert!(b.next_packet(t(1.0)).is_none(), "one of W = 2 unacknowledged: P(R) waits for the timer");
    b.handle_timeout(t(2.5));
    assert!(b.next_packet(t(2.5)).is_none(), "a wake-up before the deadline fires nothing");
    b.handle_timeout(t(3.0));
    let rr = b.next_packet(t(3.0)).expect("RR when the acknowledgement timer fires");
    assert_eq!((rr.kind, rr.pr), (PacketKind::Rr, 1));
}

/// `poll_timeout` remembers its answer between inputs that move no circuit's deadline,
/// and `handle_timeout` skips the circuits while that answer is after now (most
/// wake-ups are the access line's). Every input that moves a deadline shows at once:
/// a data packet starting the acknowledgement timer, the timer firing, the RR sent.
#[test]
fn test_interface_deadline_follows_every_input_that_moves_it() {
    let cfg = X25Config { window: 2, ack_timer_s: 2.0, call_setup_s: 0.5, ..X25Config::default() };
    let mut b: Interface<Sdu> = Interface::new(1, &cfg);
    b.on_packet(t(0.0), Packet::control(PacketKind::CallRequest, 7, 0, 0, 1, 9), &mut |_| {});
    assert_eq!(b.poll_timeout(), Some(t(0.5)), "CALL ACCEPTED falls due");
    assert_eq!(b.next_packet(t(0.5)).map(|p| p.kind), Some(PacketKind::CallAccepted));
    assert_eq!(b.poll_timeout(), None, "nothing pending");
    assert_eq!(b.poll_timeout(), None, "asked again, the same");
    let data = Packet { kind: PacketKind::Data, vc: 7, ps: 0, pr: 0, m: false, src: 0, dst: 1, data_octets: 100, dgram: Some((0, sdu(0, 100))), index: 0 };
    b.on_packet(t(1.0), data, &mut |_| {});
    assert_eq!(b.poll_timeout(), Some(t(3.0)), "the data packet started the acknowledgement timer");
    b.handle_timeout(t(2.5));
    assert_eq!(b.poll_timeout(), Some(t(3.0)), "a wake-up before the deadline moves nothing");
    b.handle_timeout(t(3.0));
    assert_eq!(b.poll_timeout(), None, "the timer fired");
    assert_eq!(b.next_packet(t(3.0)).map(|p| (p.kind, p.pr)), Some((PacketKind::Rr, 1)), "and its RR goes");
    assert_eq!(b.poll_timeout(), None);
}

/// The receiver's rule of the burst model (Comer & Korb §4: P(R) goes back "when the
/// window is full … or after an extremely long time elapses") at the timer's boundary,
/// W = 2, one-packet datagrams (terminal traffic) sent one per round-robin visit. A
/// second packet arriving before the timer fills the window: RR at once for both, and
/// the sender's next visit finds the whole window open. One arriving just after finds
/// the first already acknowledged by the timer and starts a timer of its own: the
/// sender always has one packet unacknowledged and one window slot per visit. This is
/// the lock of `ext6.multi_slows_other_sites` at N = 16 (docs/studies/comer-korb.md).
#[test]
fn test_receiver_rule_window_full_or_timer_at_the_timer_boundary() {
    let tm = Duration::from_secs_f64(2.0);
    for (arrives, locked) in [(2.299, false), (2.301, true)] {
        let (mut a, mut b) = (open_circuit(2), open_circuit(2));
        let mut got = vec![];
        a.take(t(0.0), 0, sdu(0, 40), 40);
        let p0 = a.next_packet(t(0.0)).unwrap();
        b.on_packet(t(0.3), p0, tm, &mut |n, _| got.push(n));
        assert_eq!(b.poll_timeout(t(0.3)), Some(t(2.3)), "a lone packet waits for the timer");
        // The next visit, 2 s after the first: P(R) for p0 is still at the receiver.
        a.take(t(2.0), 1, sdu(1, 40), 40);
        let p1 = a.next_packet(t(2.0)).unwrap();
        assert_eq!(a.outstanding(), 2, "p0 unacknowledged: p1 takes the last window slot");
        a.take(t(2.0), 2, sdu(2, 40), 40);
        assert!(!a.wants(t(2.0)), "window closed: p2 waits for an RR");
        let fired = b.handle_timeout(t(arrives));
        let rr_timer = b.next_packet(t(arrives));
        b.on_packet(t(arrives), p1, tm, &mut |n, _| got.push(n));
        let rr_now = b.next_packet(t(arrives));
        assert_eq!(got, vec![0, 1]);
        if locked {
            assert!(fired, "the timer ran out at 2.3 s, before p1");
            assert_eq!(rr_timer.map(|p| (p.kind, p.pr)), Some((PacketKind::Rr, 1)), "the timer's RR covers p0 only");
            assert!(rr_now.is_none(), "p1 is alone again: no RR");
            assert_eq!(b.poll_timeout(t(arrives)), Some(t(arrives + 2.0)), "p1 waits for a timer of its own");
            a.on_packet(t(arrives + 0.3), rr_timer.unwrap(), tm, &mut |_, _| {});
            assert_eq!(a.outstanding(), 1, "p1 still unacknowledged: one slot for the next visit");
        } else {
            assert!(!fired && rr_timer.is_none(), "the timer has not run out");
            assert_eq!(rr_now.map(|p| (p.kind, p.pr)), Some((PacketKind::Rr, 2)), "window full: RR at once for both");
            assert_eq!(b.poll_timeout(t(arrives)), None, "nothing left to acknowledge");
            a.on_packet(t(arrives + 0.3), rr_now.unwrap(), tm, &mut |_, _| {});
            assert_eq!(a.outstanding(), 0, "the whole window open for the next visit");
        }
        assert!(a.wants(t(arrives + 0.3)), "p2 goes once the RR is in");
    }
}

#[path = "circuit_tests.rs"]
mod circuit_tests;
