//! The runner's safety net: a protocol that loses, duplicates or reorders a message, or
//! has it acknowledged without delivering it, must make the run fail with an error that
//! names the fault. The faults are injected into a real go-back-N entity's event stream
//! (`common::faulty`), on an error-free link, so everything else is correct.

mod common;

use arqlab::engine::SimTime;
use arqlab::protocol::textbook::{GoBackN, SelectiveRepeat, TextbookConfig};
use arqlab::protocol::{Layer, Sdu, Station};
use arqlab::sim::measure::OrderViolation;
use arqlab::sim::runner::{run, RunOutput, SimError, Windows};
use common::{acc, faulty, saturated, scenario, Fault, NONE};


fn cfg(window: u32, modulus: u32) -> TextbookConfig {
    TextbookConfig { window, modulus, overhead_bits: 48, ack_bits: 48, timeout_s: 0.5, reject: true, nak_corrupted: false }
}

/// 20 s of saturated a→b traffic; `fault` at station B (the receiver) or A (the sender).
fn run_with<P: Layer<Sdu = Sdu>>(at: Station, fault: Fault, make: impl Fn() -> P) -> Result<RunOutput, SimError> {
    let sc = scenario(0.05, &saturated(1000), NONE);
    let w = Windows::equal(SimTime::ZERO, SimTime::from_secs_f64(20.0), 1);
    run(&sc, 1, 0, &w, None, |_, s| faulty(make(), if s == at { fault } else { Fault::None }))
}

fn gbn(at: Station, fault: Fault) -> Result<RunOutput, SimError> {
    run_with(at, fault, || GoBackN::new(&cfg(7, 8)))
}

fn order(e: Result<RunOutput, SimError>) -> OrderViolation {
    match e {
        Err(SimError::Order(v)) => v,
        Err(other) => panic!("expected an order violation, got {other}"),
        Ok(out) => panic!("expected an order violation, the run passed: {:?}", out.accounting),
    }
}

fn balance(e: Result<RunOutput, SimError>) -> String {
    match e {
        Err(SimError::Balance(m)) => m,
        Err(other) => panic!("expected a balance error, got {other}"),
        Ok(out) => panic!("expected a balance error, the run passed: {:?}", out.accounting),
    }
}

#[test]
fn the_unfaulted_wrapper_passes() {
    let out = gbn(Station::B, Fault::None).unwrap_or_else(|e| panic!("{e}"));
    let (issued, delivered, acked, _) = acc(&out, 0);
    assert!(delivered > 500 && acked <= delivered && delivered <= issued, "{:?}", out.accounting);
}

#[test]
fn a_skipped_delivery_is_an_order_violation() {
    let v = order(gbn(Station::B, Fault::SkipDelivery(5)));
    assert_eq!((v.direction.as_str(), v.expected, v.got), ("a_to_b", 5, 6));
    let v = order(run_with(Station::B, Fault::SkipDelivery(0), || SelectiveRepeat::new(&cfg(4, 8))));
    assert_eq!((v.direction.as_str(), v.expected, v.got), ("a_to_b", 0, 1));
}

#[test]
fn a_duplicated_delivery_is_an_order_violation() {
    let v = order(gbn(Station::B, Fault::DuplicateDelivery(7)));
    assert_eq!((v.direction.as_str(), v.expected, v.got), ("a_to_b", 8, 7));
}

#[test]
fn deliveries_out_of_order_are_an_order_violation() {
    let v = order(gbn(Station::B, Fault::SwapDeliveries(3)));
    assert_eq!((v.direction.as_str(), v.expected, v.got), ("a_to_b", 3, 4));
    // The violation is reported when it happens, not at the end of the run.
    assert!(v.at < SimTime::from_secs_f64(1.0), "{v}");
    assert!(v.to_string().contains("message 4 delivered") && v.to_string().contains("3 was expected"), "{v}");
}

#[test]
fn acknowledged_but_never_delivered_is_reported_at_the_first_such_acknowledgement() {
    let v = order(gbn(Station::B, Fault::WithholdDeliveriesFrom(10)));
    assert_eq!((v.direction.as_str(), v.what, v.expected, v.got), ("a_to_b", "acknowledged", 10, 10), "{v}");
    assert!(v.to_string().contains("message 10 acknowledged at") && v.to_string().contains("before it was delivered"), "{v}");
}

#[test]
fn a_lost_acknowledgement_is_a_balance_error() {
    let m = balance(gbn(Station::A, Fault::SkipAck(4)));
    assert!(m.starts_with("a_to_b:"), "{m}");
}

#[test]
fn a_duplicated_acknowledgement_is_a_balance_error() {
    let m = balance(gbn(Station::A, Fault::DuplicateAck(4)));
    assert!(m.starts_with("a_to_b:"), "{m}");
}

/// Acknowledged before delivered, then delivered: the sender frees message 5 while the
/// receiver still holds it. The end-of-run totals balance again once the deliveries are
/// reported, so only the per-acknowledgement check catches it, when it happens.
#[test]
fn acknowledged_before_delivered_is_detected_when_it_happens() {
    let v = order(gbn(Station::B, Fault::DelayDeliveries { k: 5, n: 10 }));
    assert_eq!((v.direction.as_str(), v.what, v.expected, v.got), ("a_to_b", "acknowledged", 5, 5), "{v}");
}
