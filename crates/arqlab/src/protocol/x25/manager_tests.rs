//! The circuit manager frame in, frame out, one test per line of Comer & Korb's §6.2
//! pseudo-code (`enqueue_datagram`, `select_and_close_circuit`): datagrams go in
//! through `submit` (and CALL REQUESTs from the peer through `on_packet`), CALL and
//! CLEAR REQUEST packets come out of `next_packet`. Then two hosts with asymmetric
//! C_max, the paper's warning: "one site may keep opening additional virtual circuits
//! while the other keeps closing them".

use super::circuit::{Circuit, VcState};
use super::interface::{Interface, InterfaceCounters};
use super::*;
use crate::engine::SimTime;
use crate::protocol::testpair::Pair;
use crate::protocol::{Layer, Sdu};

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn sdu(id: u64) -> Sdu {
    Sdu { id, bits: 8 * 400, flow: 0, born: SimTime::ZERO }
}

/// multi-MLRU, C_max 2, T_open 1 s, T_min 10 s, no reserved channels.
fn cfg(channels: u32) -> X25Config {
    X25Config { policy: PolicyKind::MultiMlru, channels, k_reserved: 0, c_max: 2, t_min_s: 10.0, t_open_s: 1.0, ..X25Config::default() }
}

/// Call placed at `at` to `site` and connected at once (CALL REQUEST out, CALL
/// ACCEPTED in); returns its channel.
fn connect(i: &mut Interface<Sdu>, site: u32, at: f64) -> usize {
    i.preopen(t(at), site, 1);
    let call = i.next_packet(t(at)).expect("CALL REQUEST out");
    assert_eq!((call.kind, call.dst), (PacketKind::CallRequest, site));
    let acc = Packet::control(PacketKind::CallAccepted, call.vc, 0, site, i.me, 9);
    i.on_packet(t(at), acc, &mut |_| {});
    i.circuits.iter().position(|c| c.as_ref().is_some_and(|c| c.vc == call.vc)).expect("connected")
}

/// A circuit that arrived from `site` (its call), open since `opened`, last used at `used`.
fn incoming(i: &mut Interface<Sdu>, slot: usize, site: u32, opened: f64, used: f64) {
    let mut c = Circuit::new(1000 + slot as u32, i.me, site, false, 2, 8, 128, t(opened));
    c.state = VcState::Open;
    c.last_used = t(used);
    i.set_circuit(slot, Some(c));
}

/// Every packet the interface sends at `now`, as (kind, destination).
fn out(i: &mut Interface<Sdu>, now: f64) -> Vec<(PacketKind, u32)> {
    std::iter::from_fn(|| i.next_packet(t(now))).filter(|p| p.kind != PacketKind::Data).map(|p| (p.kind, p.dst)).collect()
}

/// Keeps the circuit in `slot` busy with a datagram in progress.
fn busy(i: &mut Interface<Sdu>, slot: usize, now: f64) {
    i.circuit_mut(slot).expect("open").take(t(now), 99, sdu(99), 400);
}

#[test]
fn test_enqueue_datagram_no_circuit_open_to_x25addr_places_a_call() {
    let mut i = Interface::new(0, &cfg(4));
    i.submit(t(0.0), 7, sdu(0));
    assert_eq!(out(&mut i, 0.0), vec![(PacketKind::CallRequest, 7)]);
    assert_eq!(i.counters.calls_placed, 1);
}

/// "the queue contains more than one datagram" is tested before "place datagram on
/// queue": the third datagram waiting behind a busy circuit opens the second circuit,
/// not the second datagram.
#[test]
fn test_enqueue_datagram_queue_test_comes_before_place_datagram_on_queue() {
    let mut i = Interface::new(0, &cfg(4));
    let s = connect(&mut i, 1, 0.0);
    busy(&mut i, s, 5.0);
    i.submit(t(5.0), 1, sdu(1));
    i.submit(t(5.0), 1, sdu(2));
    assert_eq!(i.counters.calls_placed, 1, "queue held 0, then 1 datagram: not more than one");
    i.submit(t(5.0), 1, sdu(3));
    assert_eq!(i.counters.calls_placed, 2, "queue held 2 (> 1) before this one was placed");
    assert_eq!(out(&mut i, 5.0), vec![(PacketKind::CallRequest, 1)]);
}

#[test]
fn test_enqueue_datagram_less_than_c_max_open_to_x25addr() {
    let mut i = Interface::new(0, &cfg(4));
    let (a, b) = (connect(&mut i, 1, 0.0), connect(&mut i, 1, 2.0));
    busy(&mut i, a, 5.0);
    busy(&mut i, b, 5.0);
    for k in 0..5 {
        i.submit(t(5.0), 1, sdu(k));
    }
    assert_eq!(i.counters.calls_placed, 2, "C_max = 2 circuits open: no third");
    assert_eq!(out(&mut i, 5.0), vec![]);
}

#[test]
fn test_enqueue_datagram_last_open_more_than_t_open_ago() {
    let mut i = Interface::new(0, &cfg(4));
    let s = connect(&mut i, 1, 0.0);
    busy(&mut i, s, 0.5);
    for k in 0..4 {
        i.submit(t(0.5), 1, sdu(k));
    }
    assert_eq!(i.counters.calls_placed, 1, "the last open was 0.5 s ago, T_open = 1 s");
    i.submit(t(1.0), 1, sdu(4));
    assert_eq!(i.counters.calls_placed, 1, "exactly T_open ago is not more than T_open");
    i.submit(t(1.01), 1, sdu(5));
    assert_eq!(i.counters.calls_placed, 2);
}

/// "if all channels are in use: select_and_close_circuit, open_x25_circuit": a CLEAR
/// REQUEST for the victim leaves, then the CALL REQUEST.
#[test]
fn test_enqueue_datagram_all_channels_in_use_closes_then_opens() {
    let mut i = Interface::new(0, &cfg(2));
    connect(&mut i, 1, 0.0);
    connect(&mut i, 2, 1.0);
    out(&mut i, 1.0);
    i.submit(t(20.0), 3, sdu(0));
    assert_eq!(out(&mut i, 20.0), vec![(PacketKind::ClearRequest, 1), (PacketKind::CallRequest, 3)]);
    assert_eq!((i.counters.circuits_closed, i.counters.calls_placed), (1, 3));
}

/// Rule 1 ranges over every site with more than C_max circuits: site 1's LRU circuit
/// is too young, so site 2's (older than T_min) is closed — not the LRU circuit of all
/// (site 3's, idle longest), and not nothing.
#[test]
fn test_select_and_close_circuit_any_crowded_site_whose_lru_is_older_than_t_min() {
    let mut i = Interface::new(0, &cfg(7));
    incoming(&mut i, 0, 3, 0.0, 1.0); // site 3: one circuit, idle since 1 s
    incoming(&mut i, 1, 1, 25.0, 26.0); // site 1: three circuits, the LRU one open 5 s
    incoming(&mut i, 2, 1, 0.0, 27.0);
    incoming(&mut i, 3, 1, 0.0, 28.0);
    incoming(&mut i, 4, 2, 0.0, 5.0); // site 2: three circuits, its LRU open 30 s
    incoming(&mut i, 5, 2, 0.0, 6.0);
    incoming(&mut i, 6, 2, 0.0, 7.0);
    assert_eq!(manager::select_victim(&i.circuits, &cfg(7).policy(), t(30.0)), Some(4));
    i.submit(t(30.0), 4, sdu(0));
    assert_eq!(out(&mut i, 30.0), vec![(PacketKind::ClearRequest, 2), (PacketKind::CallRequest, 4)]);
    // Of two crowded sites both eligible, the less recently used LRU circuit goes.
    let mut j = Interface::new(0, &cfg(7));
    for (slot, (site, used)) in [(1, 9.0), (1, 9.5), (1, 9.6), (2, 8.0), (2, 9.7), (2, 9.8), (3, 1.0)].into_iter().enumerate() {
        incoming(&mut j, slot, site, 0.0, used);
    }
    assert_eq!(manager::select_victim(&j.circuits, &cfg(7).policy(), t(30.0)), Some(3));
}

#[test]
fn test_select_and_close_circuit_else_the_lru_circuit_if_older_than_t_min() {
    let mut i = Interface::new(0, &cfg(3));
    incoming(&mut i, 0, 1, 0.0, 3.0);
    incoming(&mut i, 1, 2, 0.0, 2.0);
    incoming(&mut i, 2, 3, 15.0, 1.0); // idle longest, but open only 5 s
    assert_eq!(manager::select_victim(&i.circuits, &cfg(3).policy(), t(20.0)), None, "the LRU circuit is younger than T_min");
    i.circuit_mut(2).expect("open").opened_at = t(5.0);
    assert_eq!(manager::select_victim(&i.circuits, &cfg(3).policy(), t(20.0)), Some(2));
}

/// "else fail": open_x25_circuit fails too and the site's waiting datagrams go.
#[test]
fn test_select_and_close_circuit_else_fail_discards_the_sites_datagrams() {
    let mut i = Interface::new(0, &cfg(2));
    incoming(&mut i, 0, 1, 0.0, 1.0);
    incoming(&mut i, 1, 2, 0.0, 2.0);
    i.submit(t(5.0), 3, sdu(0));
    assert_eq!(out(&mut i, 5.0), vec![], "no CLEAR, no CALL");
    assert_eq!((i.counters.calls_placed, i.counters.datagrams_discarded), (0, 1));
}

/// Host a sends a steady stream to host b (2 channels, C_max 1). With a's C_max 3,
/// a's third call finds b's channels full; once a's circuits are older than T_min, b
/// closes one of them (site a is crowded by b's C_max) to accept it, and a, whose
/// queue keeps growing, calls again after T_open: a keeps opening, b keeps closing.
/// With a's C_max set to b's (the paper's remedy, "limit multiple circuits on a
/// per-site basis") nothing is refused or closed.
fn two_sided(a_c_max: u32) -> (InterfaceCounters, InterfaceCounters, usize, u64) {
    let a_cfg = X25Config { policy: PolicyKind::MultiMlru, c_max: a_c_max, channels: 16, k_reserved: 0, t_open_s: 1.0, t_min_s: 5.0, ..X25Config::default() };
    let b_cfg = X25Config { c_max: 1, channels: 2, ..a_cfg.clone() };
    let a = X25Host::new(0, &a_cfg, vec![1], 1, &[]);
    let b = X25Host::new(1, &b_cfg, vec![0], 0, &[]);
    let mut p = Pair::new(a, b, 1e12, 0.235);
    let n = 1200u64;
    for k in 0..n {
        // 492-octet datagrams every 0.25 s (15.7 kbit/s): more than the circuits carry.
        let at = t(0.25 * k as f64);
        p.run(at, |_, _, _| false);
        p.now = p.now.max(at);
        p.ends[0].handle_submit(at, Sdu { id: k, bits: 8 * 472, flow: 0, born: at });
    }
    p.run(t(1e4), |_, _, _| false);
    let got = p.delivered(1).len();
    (p.ends[0].iface.counters, p.ends[1].iface.counters, got, n)
}

#[test]
fn test_two_hosts_with_asymmetric_c_max_one_keeps_opening_the_other_keeps_closing() {
    let (a, b, got, n) = two_sided(3);
    assert!(b.circuits_closed >= 10, "b closes a's extra circuits again and again: {b:?}");
    assert_eq!(b.crowded_site_closes, b.circuits_closed, "every close of b's is rule 1's (site a crowded)");
    assert!(a.calls_placed > 2 * b.circuits_closed && a.calls_refused > 0, "a calls again after each close or refusal: {a:?}");
    assert_eq!(got as u64 + a.datagrams_discarded + b.datagrams_discarded, n, "every datagram delivered or counted as lost");
    let (a, b, got, n) = two_sided(1);
    assert_eq!((a.calls_placed, a.calls_refused, b.circuits_closed), (1, 0, 0), "C_max matched: one call, kept");
    assert_eq!(got as u64, n);
}

/// Both hosts sending, C_max asymmetric (§6: "more than C_max circuits may be opened if
/// the destination chooses to do so"), frame by frame. b (C_max 1, three channels) holds
/// a's three circuits; b's datagram to a rides on them (no call: b has more than its
/// C_max open to a), and b's datagram to site 2, with every channel in use, makes b's
/// own `enqueue_datagram` call `select_and_close_circuit`, whose rule 1 closes site a's
/// LRU circuit: CLEAR REQUEST to a, then CALL REQUEST to 2. a, its queue growing past
/// one datagram T_open after its last call, calls b again; b, full, closes another of
/// a's circuits to accept it (the incoming-call rule). a keeps opening, b keeps closing.
#[test]
fn test_two_sided_asymmetric_c_max_b_closes_by_rule_1_and_a_calls_again() {
    let b_cfg = X25Config { c_max: 1, ..cfg(3) };
    let mut b = Interface::new(1, &b_cfg);
    for (slot, used) in [(0, 3.0), (1, 2.0), (2, 4.0)] {
        incoming(&mut b, slot, 0, 0.0, used);
    }
    b.submit(t(20.0), 0, sdu(0));
    assert_eq!(out(&mut b, 20.0), vec![], "b to a: over a's circuits, no call");
    b.submit(t(20.0), 2, sdu(1));
    assert_eq!(out(&mut b, 20.0), vec![(PacketKind::ClearRequest, 0), (PacketKind::CallRequest, 2)]);
    assert!(b.circuits[1].as_ref().is_some_and(|c| c.peer == 2), "a's LRU circuit (slot 1) gave its channel to site 2");
    let k = b.counters;
    assert_eq!((k.close_rule_1, k.close_rule_2, k.closes_for_calls_in, k.crowded_site_closes), (1, 0, 0, 1));
    assert_eq!(k.extra_circuit_calls, 0, "b's call to 2 is its first to that site");

    // a (C_max 3): three circuits to b, two busy; b's CLEAR takes the idle one.
    let a_cfg = X25Config { c_max: 3, channels: 16, ..cfg(16) };
    let mut a = Interface::new(0, &a_cfg);
    let slots: Vec<usize> = [0.0, 2.0, 4.0].iter().map(|&at| connect(&mut a, 1, at)).collect();
    out(&mut a, 4.0);
    busy(&mut a, slots[1], 19.0);
    busy(&mut a, slots[2], 19.0);
    let vc = a.circuits[slots[0]].as_ref().expect("open").vc;
    a.on_packet(t(20.0), Packet::control(PacketKind::ClearRequest, vc, 0, 1, 0, 2), &mut |_| {});
    for k in 0..3 {
        a.submit(t(20.0), 1, sdu(10 + k));
    }
    assert_eq!(out(&mut a, 20.0), vec![(PacketKind::CallRequest, 1)], "a calls b again");
    let call_vc = a.circuits.iter().flatten().find(|c| c.state == VcState::Calling).expect("the new call").vc;
    assert_eq!((a.counters.calls_placed, a.counters.extra_circuit_calls, a.counters.datagrams_discarded), (4, 1, 0),
               "three pre-opened, one more by enqueue_datagram to a site with circuits open; nothing lost");

    // b, every channel in use (two of a's, one to site 2), accepts a's call by closing
    // a's LRU circuit again: rule 1, for an incoming call.
    b.circuit_mut(1).expect("site 2").state = VcState::Open;
    b.on_packet(t(20.5), Packet::control(PacketKind::CallRequest, call_vc, 0, 0, 1, 9), &mut |_| {});
    assert_eq!(out(&mut b, 20.5).first(), Some(&(PacketKind::ClearRequest, 0)));
    let k = b.counters;
    assert_eq!((k.close_rule_1, k.closes_for_calls_in, k.crowded_site_closes, k.circuits_closed), (1, 1, 2, 2));
}

/// With C_max matched (a opens one circuit to b), b's datagram to a new site, every
/// channel in use, closes by rule 2 (the LRU circuit of all) and never by rule 1.
#[test]
fn test_two_sided_matched_c_max_b_closes_by_rule_2_only() {
    let b_cfg = X25Config { c_max: 1, ..cfg(3) };
    let mut b = Interface::new(1, &b_cfg);
    for (slot, site, used) in [(0, 0, 3.0), (1, 3, 2.0), (2, 4, 4.0)] {
        incoming(&mut b, slot, site, 0.0, used);
    }
    b.submit(t(20.0), 2, sdu(1));
    assert_eq!(out(&mut b, 20.0), vec![(PacketKind::ClearRequest, 3), (PacketKind::CallRequest, 2)]);
    let k = b.counters;
    assert_eq!((k.close_rule_1, k.close_rule_2, k.closes_for_calls_in, k.crowded_site_closes), (0, 1, 0, 0));
}

/// Figures 4–7's setting: one host places every call and the sites never call in. Its
/// own calls never give a site more than C_max circuits (`enqueue_datagram` opens only
/// while fewer than C_max are open), so rule 1 of `select_and_close_circuit` cannot
/// fire there and every close is rule 2's — the paper's setting, not a defect. Rule 1
/// needs a site that called in (the unit test above, and the two-host test).
#[test]
fn test_select_and_close_circuit_rule_1_never_fires_when_only_this_host_calls() {
    for policy in [PolicyKind::Mlru, PolicyKind::MultiMlru] {
        let x = X25Config { policy, channels: 4, k_reserved: 0, c_max: 3, t_min_s: 2.0, t_open_s: 0.5, ..X25Config::default() };
        let mut i = Interface::new(0, &x);
        let mut id = 0;
        for k in 0..400u32 {
            let now = 0.25 * f64::from(k);
            // Three datagrams at once to one of 8 sites (the third finds two queued, but
            // the call placed for the first is younger than T_open, so here the queue
            // test never opens a second circuit: `extra_circuit_calls` stays 0).
            for _ in 0..3 {
                i.submit(t(now), 1 + k % 8, sdu(id));
                id += 1;
            }
            while let Some(p) = i.next_packet(t(now)) {
                let reply = match p.kind {
                    PacketKind::CallRequest => Packet::control(PacketKind::CallAccepted, p.vc, 0, p.dst, 0, 9),
                    PacketKind::Data => Packet::control(PacketKind::Rr, p.vc, (p.ps + 1) % 8, p.dst, 0, 0),
                    _ => continue,
                };
                i.on_packet(t(now), reply, &mut |_| {});
            }
            assert!(i.circuits.iter().flatten().all(|c| i.circuits.iter().flatten().filter(|o| o.peer == c.peer).count() <= 3));
        }
        assert!(i.counters.circuits_closed > 50, "{policy:?}: the sites crowd the channels: {:?}", i.counters);
        let k = i.counters;
        assert_eq!((k.crowded_site_closes, k.close_rule_1), (0, 0), "{policy:?}: rule 1 never fires");
        assert_eq!(k.close_rule_2 + k.closes_for_calls_in, k.circuits_closed, "{policy:?}: every close counted by its rule");
        if policy == PolicyKind::Mlru {
            assert_eq!(k.extra_circuit_calls, 0, "MLRU (C_max 1) never calls a site with a circuit open");
        }
    }
}

fn victim(i: &Interface<Sdu>, policy: &manager::Policy, now: f64) -> Option<usize> {
    manager::select_victim(&i.circuits, policy, t(now))
}

/// "open for longer than Tmin" in rule 2: a circuit open exactly T_min (10 s) is not
/// closed; a microsecond more and it is.
#[test]
fn test_select_and_close_circuit_rule_2_open_exactly_t_min_is_not_longer_than_t_min() {
    let mut i = Interface::new(0, &cfg(2));
    incoming(&mut i, 0, 1, 10.0, 11.0);
    incoming(&mut i, 1, 2, 0.0, 12.0);
    let p = cfg(2).policy();
    assert_eq!(victim(&i, &p, 20.0), None, "the LRU circuit is open exactly T_min; rule 2 does not look past it");
    assert_eq!(victim(&i, &p, 20.000001), Some(0));
}

/// "a site with more than Cmax open circuits such that its LRU circuit has been open
/// for longer than Tmin", both boundaries: C_max (2) circuits is not crowded, and a
/// crowded site's LRU circuit open exactly T_min is not taken by rule 1 (rule 2 then
/// closes the LRU circuit of all, from another site).
#[test]
fn test_select_and_close_circuit_rule_1_more_than_c_max_and_longer_than_t_min() {
    let p = cfg(4).policy();
    // Site 1 with exactly C_max circuits: not crowded, so rule 2's LRU (site 2's) goes.
    let mut i = Interface::new(0, &cfg(4));
    incoming(&mut i, 0, 1, 0.0, 5.0);
    incoming(&mut i, 1, 1, 0.0, 6.0);
    incoming(&mut i, 2, 2, 0.0, 1.0);
    assert_eq!(victim(&i, &p, 30.0), Some(2));
    // A third circuit makes site 1 crowded: its LRU circuit goes, not the LRU of all.
    incoming(&mut i, 3, 1, 0.0, 7.0);
    assert_eq!(victim(&i, &p, 30.0), Some(0));
    // Site 1's LRU circuit open exactly T_min: rule 1 passes, rule 2 takes slot 2.
    i.circuit_mut(0).expect("open").opened_at = t(20.0);
    assert_eq!(victim(&i, &p, 30.0), Some(2));
    assert_eq!(victim(&i, &p, 30.000001), Some(0));
}

/// Rule 1 closes a crowded site's *LRU* circuit: not another of its circuits even if
/// that one alone is older than T_min (the site's LRU circuit is too young, so rule 1
/// does not fire for this site at all).
#[test]
fn test_select_and_close_circuit_rule_1_only_the_sites_lru_circuit_is_a_candidate() {
    let p = cfg(4).policy();
    let mut i = Interface::new(0, &cfg(4));
    incoming(&mut i, 0, 1, 25.0, 26.0); // site 1's LRU, open 5 s
    incoming(&mut i, 1, 1, 0.0, 27.0); // open 30 s, but not the LRU
    incoming(&mut i, 2, 1, 0.0, 28.0);
    incoming(&mut i, 3, 2, 25.0, 1.0); // idle longest, open 5 s
    assert_eq!(victim(&i, &p, 30.0), None, "neither rule finds an old-enough candidate");
    assert_eq!(i.circuits.iter().flatten().filter(|c| c.peer == 1).count(), 3);
}

/// A circuit being cleared no longer counts among its site's open circuits, and one
/// with a datagram in progress is never a candidate (it is not preempted).
#[test]
fn test_select_and_close_circuit_clearing_circuits_do_not_count_and_busy_ones_are_kept() {
    let p = cfg(4).policy();
    let mut i = Interface::new(0, &cfg(4));
    incoming(&mut i, 0, 1, 0.0, 5.0);
    incoming(&mut i, 1, 1, 0.0, 6.0);
    incoming(&mut i, 2, 1, 0.0, 7.0);
    incoming(&mut i, 3, 2, 0.0, 1.0);
    assert_eq!(victim(&i, &p, 30.0), Some(0), "site 1 crowded (3 > C_max 2)");
    i.circuit_mut(2).expect("open").state = VcState::Clearing;
    assert_eq!(victim(&i, &p, 30.0), Some(3), "two open and one clearing: not crowded");
    busy(&mut i, 3, 30.0);
    assert_eq!(victim(&i, &p, 30.0), Some(0), "the busy LRU circuit is skipped");
}

/// Two idle circuits last used at the same instant: the lower VC number is the LRU
/// one (a deterministic tie-break).
#[test]
fn test_select_and_close_circuit_ties_in_last_use_go_to_the_lower_vc() {
    let p = cfg(3).policy();
    let mut i = Interface::new(0, &cfg(3));
    incoming(&mut i, 0, 1, 0.0, 4.0);
    incoming(&mut i, 1, 2, 0.0, 3.0);
    incoming(&mut i, 2, 3, 0.0, 3.0);
    // incoming() numbers the VCs 1000 + slot: slot 1 has the lower VC.
    assert_eq!(victim(&i, &p, 30.0), Some(1));
    i.circuit_mut(1).expect("open").vc = 2000;
    assert_eq!(victim(&i, &p, 30.0), Some(2));
}

/// LRU and MLRU are multi-MLRU with C_max = 1 (and LRU with T_min = 0, K = 0):
/// LRU closes the LRU circuit however young; MLRU keeps T_min, and counts a site with
/// two circuits as crowded where multi-MLRU (C_max 2) does not.
#[test]
fn test_policy_lru_ignores_t_min_and_mlru_has_c_max_one() {
    let with = |kind| manager::Policy { kind, ..cfg(3).policy() };
    assert_eq!(with(PolicyKind::Lru).effective(), (1, crate::engine::Duration::ZERO, 0));
    assert_eq!(with(PolicyKind::Mlru).effective(), (1, crate::engine::Duration::from_secs_f64(10.0), 0));
    assert_eq!(with(PolicyKind::MultiMlru).effective(), (2, crate::engine::Duration::from_secs_f64(10.0), 0));
    let mut i = Interface::new(0, &cfg(3));
    for (slot, used) in [(0, 29.5), (1, 29.6), (2, 29.7)] {
        incoming(&mut i, slot, 1 + slot as u32, 29.0, used);
    }
    assert_eq!(victim(&i, &with(PolicyKind::Lru), 30.0), Some(0), "LRU: open 1 s is old enough");
    assert_eq!(victim(&i, &with(PolicyKind::Mlru), 30.0), None, "MLRU: open 1 s < T_min");
    // Site 2 gets a second circuit, open 30 s: crowded for C_max 1, not for C_max 2.
    incoming(&mut i, 2, 2, 0.0, 29.7);
    i.circuit_mut(1).expect("open").opened_at = t(0.0);
    assert_eq!(victim(&i, &with(PolicyKind::Mlru), 30.0), Some(1), "rule 1: site 2's LRU, though slot 0 is idle longer");
    assert_eq!(victim(&i, &with(PolicyKind::MultiMlru), 30.0), None, "not crowded, and rule 2's LRU (slot 0) is 1 s old");
}

/// `enqueue_datagram`'s open rule, on `Policy::wants_open` directly: no circuit open
/// always opens; otherwise only with more than one queued, fewer than C_max open and
/// the last open more than T_open ago (or none).
#[test]
fn test_enqueue_datagram_open_rule_boundaries() {
    let p = cfg(4).policy(); // C_max 2, T_open 1 s
    assert!(p.wants_open(t(0.0), 1, 0, 0, Some(t(0.0))));
    assert!(!p.wants_open(t(5.0), 1, 1, 1, None), "one queued is not more than one");
    assert!(p.wants_open(t(5.0), 1, 1, 2, None), "no earlier open: no T_open wait");
    assert!(!p.wants_open(t(5.0), 1, 2, 9, None), "C_max open");
    assert!(!p.wants_open(t(5.0), 1, 1, 2, Some(t(4.0))), "exactly T_open ago");
    assert!(p.wants_open(t(5.0), 1, 1, 2, Some(t(3.999999))));
    let lru = manager::Policy { kind: PolicyKind::Lru, ..p };
    assert!(!lru.wants_open(t(5.0), 1, 1, 9, None), "LRU: one circuit per site");
}

/// §6's gateway, one site allowed more circuits than the others (`site_c_max`): site 1
/// at C_max 3 opens a second and a third circuit, T_open apart, while site 2, at the
/// host's C_max 1, keeps one circuit however long its queue; select_and_close_circuit's
/// rule 1 reads each site's own C_max; LRU and MLRU keep one circuit per site.
#[test]
fn test_site_c_max_lets_one_site_open_more_circuits_than_the_others() {
    let c = X25Config { c_max: 1, site_c_max_nodes: vec![(1, 3)], ..cfg(8) };
    let p = c.policy();
    assert_eq!((p.c_max_to(1), p.c_max_to(2)), (3, 1));
    assert!(p.wants_open(t(5.0), 1, 2, 2, None), "site 1: 2 open, below its C_max 3");
    assert!(!p.wants_open(t(5.0), 1, 3, 9, None), "site 1: its C_max open");
    assert!(!p.wants_open(t(5.0), 2, 1, 9, None), "site 2: the host's C_max 1 open");
    for kind in [PolicyKind::Lru, PolicyKind::Mlru] {
        assert_eq!(manager::Policy { kind, ..p.clone() }.c_max_to(1), 1, "{kind:?}: one circuit per site");
    }
    let mut i = Interface::new(0, &c);
    let mut id = 0;
    let mut send = |i: &mut Interface<Sdu>, at: f64, site: u32, n: usize| {
        for _ in 0..n {
            i.submit(t(at), site, sdu(id));
            id += 1;
        }
    };
    send(&mut i, 0.0, 1, 3);
    send(&mut i, 0.0, 2, 3);
    assert_eq!((i.counters.calls_placed, i.counters.extra_circuit_calls), (2, 0), "one call per site");
    for (at, calls, extra) in [(1.5, 3, 1), (3.0, 4, 2), (4.5, 4, 2)] {
        send(&mut i, at, 1, 1);
        send(&mut i, at, 2, 1);
        assert_eq!((i.counters.calls_placed, i.counters.extra_circuit_calls), (calls, extra), "t = {at}: site 1 up to 3, site 2 never a second");
    }
    // Two circuits from site 2, open 30 s: crowded at its C_max 1; two from site 1 are
    // not at its 3, though one of them is the least recently used of all.
    let mut j = Interface::new(0, &c);
    incoming(&mut j, 0, 1, 0.0, 29.0);
    incoming(&mut j, 1, 1, 0.0, 29.1);
    incoming(&mut j, 2, 2, 0.0, 29.5);
    incoming(&mut j, 3, 2, 0.0, 29.6);
    assert_eq!(victim(&j, &c.policy(), 30.0), Some(2), "rule 1: site 2's LRU circuit, site 1 under its C_max");
    let same = X25Config { c_max: 1, ..cfg(8) };
    assert_eq!(victim(&j, &same.policy(), 30.0), Some(0), "both sites at C_max 1: rule 1 takes site 1's, the LRU one");
}

/// T_min in every manager path (uses the helpers above).
#[path = "t_min_tests.rs"]
mod t_min_tests;
