//! The three-way handshake's and close's edge cases (RFC 9293 §3.5, §3.6, §3.10.7),
//! frame in / frame out: what a state does with a segment that is not the one it waits
//! for, and RFC 6298 §5.7's RTO of 3 s only after a timer expiry.

use super::endpoint::State;
use super::*;
use crate::engine::SimTime;
use crate::protocol::{Frame, FrameKind, Layer, Sdu};

use super::close_tests::{cfg, t, G, H};

fn drain(a: &mut Tcp, now: SimTime) -> Vec<Frame<Sdu>> {
    std::iter::from_fn(|| a.poll_transmit(now, &G)).collect()
}

fn feed(to: &mut Tcp, fs: &[Frame<Sdu>], now: SimTime) {
    for f in fs {
        to.handle_receive(now, f);
    }
}

#[test]
fn test_rfc9293_3_10_7_2_listen_ignores_a_syn_ack_and_an_ack() {
    let mut b = Tcp::open(&cfg(), false);
    let syn_ack = Frame { kind: FrameKind::I, ns: 0, nr: 1, pf: true, command: true, bits: H, msg: None };
    b.handle_receive(t(0.1), &syn_ack);
    b.handle_receive(t(0.1), &Frame::supervisory(FrameKind::RR, 1, false, H));
    assert_eq!(b.state(), State::Listen);
    assert!(!b.wants_transmit());
    assert!(drain(&mut b, t(0.1)).is_empty(), "no SYN-ACK, no ACK from a listener");
    assert_eq!(b.poll_timeout(), None);
}

#[test]
fn test_rfc9293_syn_received_only_the_ack_of_iss_plus_1_establishes() {
    let (mut a, mut b) = (Tcp::open(&cfg(), true), Tcp::open(&cfg(), false));
    feed(&mut b, &drain(&mut a, t(0.0)), t(0.1));
    let syn_ack = drain(&mut b, t(0.1));
    assert_eq!((syn_ack[0].ns, syn_ack[0].nr), (0, 1));
    // An ACK of something else (here of nothing: N(R) = ISS) leaves it in SYN-RECEIVED.
    b.handle_receive(t(0.2), &Frame::supervisory(FrameKind::RR, 0, false, H));
    b.handle_receive(t(0.2), &Frame::supervisory(FrameKind::RR, 2, false, H));
    assert_eq!(b.state(), State::SynReceived);
    assert!(drain(&mut b, t(0.2)).is_empty());
    feed(&mut a, &syn_ack, t(0.2));
    let ack = drain(&mut a, t(0.2));
    assert_eq!((ack.len(), ack[0].kind, ack[0].nr), (1, FrameKind::RR, 1));
    feed(&mut b, &ack, t(0.3));
    assert_eq!(b.state(), State::Established);
    assert_eq!(b.srtt_s(), Some(0.2), "the SYN-ACK's round trip, 0.1 s to 0.3 s");
}

/// A SYN-ACK sent again only because the SYN came again (no timer expired) is a
/// retransmission (no RTT sample, Karn), but RFC 6298 §5.7's 3 s is for a timeout: the
/// RTO stays the initial one.
#[test]
fn test_rfc6298_5_7_rto_of_3_s_only_after_a_handshake_timeout_not_after_a_repeat() {
    let (mut a, mut b) = (Tcp::open(&cfg(), true), Tcp::open(&cfg(), false));
    let syn = drain(&mut a, t(0.0));
    feed(&mut b, &syn, t(0.1));
    let _lost = drain(&mut b, t(0.1));
    // The SYN again (say a copy the network duplicated) before either timer expires.
    feed(&mut b, &syn, t(0.5));
    let sa2 = drain(&mut b, t(0.5));
    assert_eq!(b.counters().timeouts, 0);
    assert_eq!(b.counters().retransmitted_timeout, 1, "the second SYN-ACK is a copy");
    feed(&mut a, &sa2, t(0.6));
    feed(&mut b, &drain(&mut a, t(0.6)), t(0.7));
    assert_eq!(b.state(), State::Established);
    assert_eq!((b.srtt_s(), b.rto_s()), (None, 1.0), "no sample, no timeout: the initial RTO");
    assert_eq!(a.srtt_s(), Some(0.6), "the SYN, sent once, is timed");
}

/// LAST-ACK: the peer's FIN again (our ACK of it was lost) is acknowledged again, and
/// starts no TIME-WAIT (that belongs to the end that closed first).
#[test]
fn test_rfc9293_last_ack_repeated_fin_acknowledged_again_without_time_wait() {
    let (mut a, mut b) = (Tcp::open(&cfg(), true), Tcp::open(&cfg(), false));
    feed(&mut b, &drain(&mut a, t(0.0)), t(0.1));
    feed(&mut a, &drain(&mut b, t(0.1)), t(0.2));
    feed(&mut b, &drain(&mut a, t(0.2)), t(0.3));
    b.handle_close(t(1.0));
    let fin_b = drain(&mut b, t(1.0));
    feed(&mut a, &fin_b, t(1.1));
    a.handle_close(t(1.1));
    let out = drain(&mut a, t(1.1));
    assert_eq!((out.len(), a.state()), (1, State::LastAck), "the FIN carrying the ACK");
    let rto = a.poll_timeout().expect("the FIN's RTO");
    feed(&mut a, &fin_b, t(1.5));
    let again = drain(&mut a, t(1.5));
    assert_eq!((again.len(), again[0].kind, again[0].nr), (1, FrameKind::RR, 2));
    assert_eq!(a.state(), State::LastAck);
    assert_eq!(a.poll_timeout(), Some(rto), "only the FIN's timer, no 2·MSL");
    // The ACK of our FIN: CLOSED, with no timer left.
    feed(&mut b, &out, t(1.6));
    assert_eq!(b.state(), State::TimeWait);
    feed(&mut a, &drain(&mut b, t(1.6)), t(1.7));
    assert_eq!(a.state(), State::Closed);
    assert_eq!(a.poll_timeout(), None);
}

/// TIME-WAIT restarts 2·MSL on a copy of the peer's FIN only, not on a FIN of another
/// sequence number.
#[test]
fn test_rfc9293_time_wait_restarts_only_on_the_peers_fin_again() {
    let (mut a, mut b) = (Tcp::open(&cfg(), true), Tcp::open(&cfg(), false));
    feed(&mut b, &drain(&mut a, t(0.0)), t(0.1));
    feed(&mut a, &drain(&mut b, t(0.1)), t(0.2));
    feed(&mut b, &drain(&mut a, t(0.2)), t(0.3));
    b.handle_close(t(1.0));
    feed(&mut a, &drain(&mut b, t(1.0)), t(1.1));
    a.handle_close(t(1.1));
    let fin_a = drain(&mut a, t(1.1));
    feed(&mut b, &fin_a, t(1.2));
    assert_eq!(b.state(), State::TimeWait);
    drain(&mut b, t(1.2));
    let end = b.poll_timeout().unwrap();
    // A FIN two sequence numbers on (no such FIN was sent): acknowledged, no restart.
    let odd = Frame { ns: fin_a[0].ns + 2, ..fin_a[0] };
    feed(&mut b, &[odd], t(5.0));
    assert_eq!(drain(&mut b, t(5.0)).len(), 1);
    assert_eq!(b.poll_timeout(), Some(end));
    feed(&mut b, &fin_a, t(6.0));
    drain(&mut b, t(6.0));
    assert!((b.poll_timeout().unwrap().as_secs_f64() - 246.0).abs() < 1e-9);
}
