//! T_min in every path of the circuit manager (Comer & Korb §6.2, "open for longer than
//! Tmin"), each at its boundary: MLRU's rule 1 (C_max = 1) and rule 2, T_min = 0 (LRU's,
//! or configured) letting a circuit opened this instant go, and `enqueue_datagram`
//! through `submit` when every channel is in use. A child of `manager_tests` (its
//! helpers); multi-MLRU's rules 1 and 2 are at their boundaries there.

use super::*;

fn mlru(channels: u32) -> manager::Policy {
    manager::Policy { kind: PolicyKind::Mlru, ..cfg(channels).policy() }
}

/// MLRU, rule 1 with C_max = 1: a site with two circuits is crowded, but its LRU circuit
/// open exactly T_min (10 s) is not taken; rule 2 then closes the LRU circuit of all.
#[test]
fn test_select_and_close_circuit_mlru_rule_1_t_min_boundary() {
    let mut i = Interface::new(0, &cfg(4));
    incoming(&mut i, 0, 1, 20.0, 21.0); // site 1's LRU circuit
    incoming(&mut i, 1, 1, 0.0, 22.0);
    incoming(&mut i, 2, 2, 0.0, 1.0); // the LRU circuit of all
    assert_eq!(victim(&i, &mlru(4), 30.0), Some(2), "site 1's LRU open exactly T_min: rule 2");
    assert_eq!(victim(&i, &mlru(4), 30.000001), Some(0), "longer than T_min: rule 1");
}

/// MLRU, rule 2: the LRU circuit open exactly T_min is not closed (and rule 2 does not
/// look past it to an older one); a microsecond later it is.
#[test]
fn test_select_and_close_circuit_mlru_rule_2_t_min_boundary() {
    let mut i = Interface::new(0, &cfg(4));
    incoming(&mut i, 0, 1, 20.0, 21.0);
    incoming(&mut i, 1, 2, 0.0, 22.0);
    assert_eq!(victim(&i, &mlru(4), 30.0), None);
    assert_eq!(victim(&i, &mlru(4), 30.000001), Some(0));
}

/// T_min = 0 means no minimum: a circuit opened at this very instant may be closed
/// (under LRU, and under multi-MLRU configured with T_min = 0), while any T_min > 0
/// keeps it.
#[test]
fn test_select_and_close_circuit_t_min_zero_lets_a_circuit_opened_now_go() {
    let mut i = Interface::new(0, &cfg(4));
    incoming(&mut i, 0, 1, 30.0, 30.0);
    let lru = manager::Policy { kind: PolicyKind::Lru, ..cfg(4).policy() };
    assert_eq!(victim(&i, &lru, 30.0), Some(0), "LRU");
    assert_eq!(victim(&i, &X25Config { t_min_s: 0.0, ..cfg(4) }.policy(), 30.0), Some(0), "T_min = 0");
    assert_eq!(victim(&i, &X25Config { t_min_s: 1e-6, ..cfg(4) }.policy(), 30.0), None, "T_min = 1 µs");
    assert_eq!(victim(&i, &mlru(4), 30.0), None, "MLRU, T_min = 10 s");
}

/// `enqueue_datagram` with every channel in use: while the LRU circuit is open exactly
/// T_min, select_and_close_circuit fails, nothing is sent and the datagram (no circuit
/// to its site) is discarded; a microsecond later the LRU circuit is cleared and the
/// call placed.
#[test]
fn test_enqueue_datagram_all_channels_in_use_waits_for_t_min() {
    let mut i = Interface::new(0, &cfg(2));
    connect(&mut i, 1, 0.0);
    connect(&mut i, 2, 1.0);
    out(&mut i, 1.0);
    i.submit(t(10.0), 3, sdu(0));
    assert_eq!(out(&mut i, 10.0), vec![]);
    assert_eq!((i.counters.circuits_closed, i.counters.datagrams_discarded), (0, 1));
    i.submit(t(10.000001), 3, sdu(1));
    assert_eq!(out(&mut i, 10.000001), vec![(PacketKind::ClearRequest, 1), (PacketKind::CallRequest, 3)]);
    assert_eq!((i.counters.circuits_closed, i.counters.datagrams_discarded), (1, 1));
}
