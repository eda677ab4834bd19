//! Connection close (RFC 9293 §3.6) and a new connection per session, frame in / frame
//! out: each test names the state and the event, as RFC 9293's state diagram.

use super::endpoint::State;
use super::*;
use crate::engine::SimTime;
use crate::protocol::{Event, Frame, FrameKind, Grant, Layer, Sdu};

// The set-up shared by the connection tests (`host_tests`, `handshake_tests`).
pub(super) const G: Grant = Grant::line(1e6);
pub(super) const H: u32 = 160;

pub(super) fn cfg() -> TcpConfig {
    TcpConfig { connection_setup: true, mss_octets: 100, receive_window_octets: 6400, ..TcpConfig::default() }
}

pub(super) fn sdu(id: u64, octets: u32) -> Sdu {
    Sdu { id, bits: octets * 8, flow: 0, born: SimTime::ZERO }
}

pub(super) fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn drain<L: Layer<Pdu = Frame<Sdu>>>(a: &mut L, now: SimTime) -> Vec<Frame<Sdu>> {
    std::iter::from_fn(|| a.poll_transmit(now, &G)).collect()
}

/// Hands every frame to `to` at `now`.
fn feed<L: Layer<Pdu = Frame<Sdu>>>(to: &mut L, fs: &[Frame<Sdu>], now: SimTime) {
    for f in fs {
        to.handle_receive(now, f);
    }
}

fn is_fin(f: &Frame<Sdu>) -> bool {
    f.kind == FrameKind::I && !f.command && f.bits == H
}

/// Client (active) and server (passive) through the handshake at t = 0..0.2 s.
fn socket_established() -> (Tcp, Tcp) {
    let (mut a, mut b) = (Tcp::open(&cfg(), true), Tcp::open(&cfg(), false));
    let syn = drain(&mut a, t(0.0));
    feed(&mut b, &syn, t(0.05));
    let syn_ack = drain(&mut b, t(0.05));
    feed(&mut a, &syn_ack, t(0.1));
    let ack = drain(&mut a, t(0.1));
    feed(&mut b, &ack, t(0.15));
    assert_eq!((a.state(), b.state()), (State::Established, State::Established));
    (a, b)
}

#[test]
fn test_established_close_sends_fin_after_the_data_then_fin_wait_1() {
    let (_, mut b) = socket_established();
    b.handle_submit(t(1.0), sdu(0, 44));
    b.handle_close(t(1.0));
    let fs = drain(&mut b, t(1.0));
    assert_eq!(fs.len(), 2, "the 221 segment, then the FIN: {fs:?}");
    assert_eq!((fs[0].ns, fs[0].bits), (1, H + 44 * 8));
    assert!(is_fin(&fs[1]), "header-only I frame without the command (SYN) bit");
    assert_eq!(fs[1].ns, 45, "the FIN takes the sequence number after the last octet");
    assert_eq!(b.state(), State::FinWait1);
    assert!(b.poll_timeout().is_some(), "the FIN is timed like data");
}

#[test]
fn test_close_wait_last_ack_closed_and_fin_wait_2_time_wait_closed() {
    let (mut a, mut b) = socket_established();
    b.handle_submit(t(1.0), sdu(0, 44));
    b.handle_close(t(1.0));
    let fs = drain(&mut b, t(1.0));
    feed(&mut a, &fs, t(1.1));
    // Established + FIN -> CLOSE-WAIT: the 221 is delivered, FIN + data acknowledged.
    assert_eq!(a.state(), State::CloseWait);
    assert_eq!(a.poll_event(), Some(Event::Delivered(sdu(0, 44))));
    a.handle_close(t(1.1));
    let r = drain(&mut a, t(1.1));
    assert_eq!(r.len(), 1, "the client's FIN carries the ACK of the server's: {r:?}");
    assert!(is_fin(&r[0]));
    assert_eq!((r[0].ns, r[0].nr), (1, 46), "FIN at 1 (no client data), ACK of 44 octets and the FIN");
    assert_eq!(a.state(), State::LastAck);
    feed(&mut b, &r, t(1.2));
    // FIN-WAIT-1 + ACK of our FIN and the peer's FIN -> FIN-WAIT-2 -> TIME-WAIT.
    assert_eq!(b.state(), State::TimeWait);
    let last = drain(&mut b, t(1.2));
    assert_eq!(last.len(), 1);
    assert_eq!((last[0].kind, last[0].nr), (FrameKind::RR, 2), "the last ACK");
    feed(&mut a, &last, t(1.3));
    assert_eq!(a.state(), State::Closed, "LAST-ACK + ACK of our FIN -> CLOSED");
    assert_eq!(a.poll_timeout(), None);
    // 2·MSL = 240 s.
    let tw = b.poll_timeout().unwrap();
    assert!((tw.as_secs_f64() - 241.2).abs() < 1e-9, "{tw:?}");
    b.handle_timeout(tw);
    assert_eq!(b.state(), State::Closed);
}

#[test]
fn test_fin_wait_1_fin_lost_is_sent_again_on_timeout() {
    let (_, mut b) = socket_established();
    b.handle_close(t(1.0));
    let fs = drain(&mut b, t(1.0));
    assert!(fs.len() == 1 && is_fin(&fs[0]));
    let rto = b.poll_timeout().unwrap();
    b.handle_timeout(rto);
    let again = drain(&mut b, rto);
    assert_eq!(again, fs, "the same FIN");
    assert_eq!((b.counters().retransmitted_timeout, b.counters().timeouts), (1, 1));
    assert_eq!(b.state(), State::FinWait1);
}

/// Found by the Johnson study (an external-modem SMTP session, replication 15 of the
/// transition channel with 1.2 s of sync acquisition): every octet acknowledged, the FIN
/// lost, and duplicate ACKs of the last octet — the fast retransmit must send the FIN
/// again, not look for a data segment past the last octet (it panicked).
#[test]
fn test_fin_wait_1_duplicate_acks_of_every_octet_retransmit_the_fin() {
    let (mut a, mut b) = socket_established();
    b.handle_submit(t(1.0), sdu(0, 44));
    b.handle_close(t(1.0));
    let fs = drain(&mut b, t(1.0));
    assert!(fs.len() == 2 && is_fin(&fs[1]));
    feed(&mut a, &fs[..1], t(1.1)); // the FIN is lost
    let due = a.poll_timeout().expect("the delayed ACK");
    a.handle_timeout(due);
    let ack = drain(&mut a, due);
    assert_eq!((ack.len(), ack[0].kind, ack[0].nr), (1, FrameKind::RR, 45), "the ACK of the 44 octets");
    feed(&mut b, &ack, t(1.4));
    assert!(drain(&mut b, t(1.4)).is_empty(), "the FIN is still timed, nothing to send");
    // Three duplicates of that ACK (re-sent by a link that lost its acknowledgement).
    for k in 0..3 {
        feed(&mut b, &ack, t(1.5 + 0.1 * k as f64));
    }
    let again = drain(&mut b, t(1.8));
    assert_eq!(again, fs[1..], "the same FIN, once");
    assert_eq!((b.counters().retransmitted_reject, b.state()), (1, State::FinWait1));
}

#[test]
fn test_time_wait_repeated_fin_is_acknowledged_again() {
    let (mut a, mut b) = socket_established();
    b.handle_close(t(1.0));
    let fin_b = drain(&mut b, t(1.0));
    feed(&mut a, &fin_b, t(1.1));
    a.handle_close(t(1.1));
    let fin_a = drain(&mut a, t(1.1));
    feed(&mut b, &fin_a, t(1.2));
    assert_eq!(b.state(), State::TimeWait);
    drain(&mut b, t(1.2));
    // The last ACK was lost: the client's FIN comes again.
    feed(&mut b, &fin_a, t(5.0));
    let ack = drain(&mut b, t(5.0));
    assert_eq!((ack.len(), ack[0].kind, ack[0].nr), (1, FrameKind::RR, 2));
    assert!((b.poll_timeout().unwrap().as_secs_f64() - 245.0).abs() < 1e-9, "TIME-WAIT restarts");
}

#[test]
fn test_out_of_order_fin_waits_for_the_data_before_it() {
    let (mut a, mut b) = socket_established();
    b.handle_submit(t(1.0), sdu(0, 44));
    b.handle_close(t(1.0));
    let fs = drain(&mut b, t(1.0));
    feed(&mut a, &fs[1..], t(1.1));
    assert_eq!(a.state(), State::Established, "the FIN is beyond RCV.NXT: not taken");
    feed(&mut a, &fs[..1], t(1.2));
    assert_eq!(a.state(), State::Established);
    feed(&mut a, &fs[1..], t(1.3));
    assert_eq!(a.state(), State::CloseWait);
}

#[test]
fn test_without_connection_setup_close_is_ignored() {
    let mut a = Tcp::open(&TcpConfig::default(), true);
    a.handle_submit(t(0.0), sdu(0, 10));
    a.handle_close(t(0.0));
    let fs = drain(&mut a, t(0.0));
    assert_eq!(fs.len(), 1, "no FIN: the connection lives for the run");
    assert_eq!(a.state(), State::Established);
}

/// Johnson's sessions: the server closes after 221, the client closes on reading it
/// and opens the next connection at once; its SYN (ISS 2^24) meets the server's old
/// connection in TIME-WAIT or LAST-ACK and opens a new one there, which takes the
/// server's next greeting (submitted before the SYN arrived).
#[test]
fn test_host_time_wait_does_not_block_the_next_connection() {
    let (mut c, mut s) = (TcpHost::open(&cfg(), true), TcpHost::open(&cfg(), false));
    let syn = drain(&mut c, t(0.0));
    feed(&mut s, &syn, t(0.1));
    feed(&mut c, &drain(&mut s, t(0.1)), t(0.2));
    feed(&mut s, &drain(&mut c, t(0.2)), t(0.3));
    // Session 1: the 221, and the server closes.
    s.handle_submit(t(1.0), sdu(0, 44));
    s.handle_close(t(1.0));
    let fs = drain(&mut s, t(1.0));
    feed(&mut c, &fs, t(1.1));
    assert_eq!(c.poll_event(), Some(Event::Delivered(sdu(0, 44))));
    // The session ends: close, connect; the next greeting is written at the server.
    c.handle_close(t(1.1));
    c.handle_connect(t(1.1));
    s.handle_submit(t(1.1), sdu(1, 46));
    assert_eq!(s.connections().len(), 2, "the greeting waits in a new, listening connection");
    assert!(drain(&mut s, t(1.1)).is_empty(), "nothing to send before the SYN");
    let out = drain(&mut c, t(1.1));
    assert_eq!(out.len(), 2, "the old connection's FIN, then the new SYN: {out:?}");
    assert!(is_fin(&out[0]));
    assert!(out[1].command && !out[1].pf && out[1].ns == 1 << 24, "SYN with ISS 2^24: {:?}", out[1]);
    feed(&mut s, &out, t(1.2));
    assert_eq!(s.connections()[0].state(), State::TimeWait);
    assert_eq!(s.current().state(), State::SynReceived);
    let back = drain(&mut s, t(1.2));
    assert_eq!(back.len(), 2, "the old connection's last ACK, then the SYN-ACK: {back:?}");
    assert_eq!(back[0].kind, FrameKind::RR);
    assert!(back[1].command && back[1].pf && back[1].nr == (1 << 24) + 1);
    feed(&mut c, &back, t(1.3));
    assert_eq!(c.connections().len(), 1, "the old client connection is closed and forgotten");
    assert_eq!(c.current().state(), State::Established);
    // The ACK of the SYN-ACK establishes the server's connection; the greeting goes.
    feed(&mut s, &drain(&mut c, t(1.3)), t(1.4));
    let g = drain(&mut s, t(1.4));
    assert_eq!((g.len(), g[0].ns, g[0].bits), (1, (1 << 24) + 1, H + 46 * 8));
    feed(&mut c, &g, t(1.5));
    assert_eq!(c.poll_event(), Some(Event::Delivered(sdu(1, 46))));
    let m = |h: &TcpHost, k: &str| h.extra_measures().iter().find(|x| x.0 == k).map(|x| x.1);
    assert_eq!((m(&c, "tcp_connections"), m(&s, "tcp_connections")), (Some(2.0), Some(2.0)));
}

/// RFC 9040 §4 temporal sharing (RFC 2140; 4.4BSD's route metrics), `rtt_cache`: the
/// next connection's SYN is timed with the RTO of the previous connection's SRTT and
/// RTTVAR (0.8 s measured on the first SYN: RTO 0.8 + 4·0.4 = 2.4 s); without the cache
/// it starts from RFC 6298 §2.1's initial RTO (1 s).
#[test]
fn test_host_rtt_cache_seeds_the_next_connections_rto_rfc9040() {
    for cache in [false, true] {
        let cfg = TcpConfig { rtt_cache: cache, ..cfg() };
        let (mut c, mut s) = (TcpHost::open(&cfg, true), TcpHost::open(&cfg, false));
        let syn = drain(&mut c, t(0.0));
        feed(&mut s, &syn, t(0.4));
        feed(&mut c, &drain(&mut s, t(0.4)), t(0.8));
        feed(&mut s, &drain(&mut c, t(0.8)), t(1.2));
        assert_eq!(c.current().srtt_s(), Some(0.8), "the SYN's round trip, sent once");
        c.handle_close(t(2.0));
        c.handle_connect(t(2.0));
        let out = drain(&mut c, t(2.0));
        let syn2 = out.iter().find(|f| f.command && !f.pf).expect("the new SYN");
        assert_eq!(syn2.ns, 1 << 24);
        let new = c.current();
        let (rto, srtt) = if cache { (0.8 + 4.0 * 0.4, Some(0.8)) } else { (1.0, None) };
        assert!((new.rto_s() - rto).abs() < 1e-12, "cache {cache}: RTO {}", new.rto_s());
        assert_eq!(new.srtt_s(), srtt);
        assert_eq!(new.poll_timeout(), Some(t(2.0) + crate::engine::Duration::from_secs_f64(new.rto_s())));
    }
}

fn measure(a: &Tcp, k: &str) -> Option<f64> {
    a.extra_measures().iter().find(|x| x.0 == k).map(|x| x.1)
}

/// RFC 9293 §3.6, simultaneous close (its Figure 13): the FINs cross, each end goes
/// FIN-WAIT-1 → CLOSING on the peer's FIN, and CLOSING → TIME-WAIT on the ACK of its own.
#[test]
fn test_rfc9293_3_6_simultaneous_close_fin_wait_1_closing_time_wait() {
    let (mut a, mut b) = socket_established();
    a.handle_close(t(1.0));
    b.handle_close(t(1.0));
    let (fa, fb) = (drain(&mut a, t(1.0)), drain(&mut b, t(1.0)));
    assert!(fa.len() == 1 && is_fin(&fa[0]) && fb.len() == 1 && is_fin(&fb[0]));
    assert_eq!((fa[0].nr, fb[0].nr), (1, 1), "neither FIN acknowledges the other");
    assert_eq!((a.state(), b.state()), (State::FinWait1, State::FinWait1));
    feed(&mut a, &fb, t(1.1));
    feed(&mut b, &fa, t(1.1));
    assert_eq!((a.state(), b.state()), (State::Closing, State::Closing));
    let (aa, ab) = (drain(&mut a, t(1.1)), drain(&mut b, t(1.1)));
    assert_eq!((aa.len(), aa[0].kind, aa[0].nr), (1, FrameKind::RR, 2), "the ACK of the peer's FIN, at once");
    assert_eq!((ab.len(), ab[0].kind, ab[0].nr), (1, FrameKind::RR, 2));
    feed(&mut a, &ab, t(1.25));
    assert_eq!(a.state(), State::TimeWait);
    assert_eq!(a.poll_timeout(), Some(t(241.25)), "2·MSL from the ACK of our FIN");
    feed(&mut b, &aa, t(1.5));
    assert_eq!(b.state(), State::TimeWait);
    assert_eq!(b.poll_timeout(), Some(t(241.5)));
    a.handle_timeout(t(241.2));
    assert_eq!(a.state(), State::TimeWait, "not before 2·MSL");
    a.handle_timeout(t(241.25));
    assert_eq!(a.state(), State::Closed, "exactly at it");
}

/// FIN-WAIT-1 + the ACK of our FIN alone → FIN-WAIT-2, which waits for the peer's FIN
/// however long it takes (no timer), then TIME-WAIT.
#[test]
fn test_fin_wait_1_ack_of_the_fin_alone_fin_wait_2_until_the_peers_fin() {
    let (mut a, mut b) = socket_established();
    b.handle_close(t(1.0));
    feed(&mut a, &drain(&mut b, t(1.0)), t(1.1));
    assert_eq!(a.state(), State::CloseWait);
    let ack = drain(&mut a, t(1.1));
    assert_eq!((ack.len(), ack[0].kind, ack[0].nr), (1, FrameKind::RR, 2));
    feed(&mut b, &ack, t(1.2));
    assert_eq!(b.state(), State::FinWait2);
    assert_eq!(b.poll_timeout(), None, "nothing outstanding, no timer in FIN-WAIT-2");
    // A's data in CLOSE-WAIT is still delivered; its FIN much later ends FIN-WAIT-2.
    a.handle_submit(t(50.0), sdu(3, 20));
    feed(&mut b, &drain(&mut a, t(50.0)), t(50.1));
    assert_eq!((b.state(), b.poll_event()), (State::FinWait2, Some(Event::Delivered(sdu(3, 20)))));
    a.handle_close(t(60.0));
    let fin = drain(&mut a, t(60.0));
    assert_eq!((fin.len(), a.state()), (1, State::LastAck));
    assert!(is_fin(&fin[0]) && fin[0].ns == 21, "after the 20 octets: {:?}", fin[0]);
    feed(&mut b, &fin, t(60.1));
    assert_eq!(b.state(), State::TimeWait);
    let last = drain(&mut b, t(60.1));
    assert_eq!((last.len(), last[0].kind, last[0].nr), (1, FrameKind::RR, 22), "RCV.NXT: the peer's 20 octets and its FIN, + ISS + 1");
    let tw = b.poll_timeout().unwrap();
    assert!((tw.as_secs_f64() - 300.1).abs() < 1e-9, "{tw:?}");
}

/// A FIN or SYN sent again is a segment retransmitted (Comer & Korb's count), a first
/// one is not.
#[test]
fn test_fin_and_syn_copies_count_as_segments_retransmitted() {
    let (mut a, mut b) = (Tcp::open(&cfg(), true), Tcp::open(&cfg(), false));
    let syn = drain(&mut a, t(0.0));
    assert_eq!((measure(&a, "tcp_all_segments_sent"), measure(&a, "tcp_segments_retransmitted")), (Some(1.0), Some(0.0)));
    a.handle_timeout(t(1.0));
    assert_eq!(drain(&mut a, t(1.0)), syn);
    assert_eq!((measure(&a, "tcp_all_segments_sent"), measure(&a, "tcp_segments_retransmitted")), (Some(2.0), Some(1.0)));
    assert_eq!((measure(&a, "tcp_timeouts"), measure(&a, "tcp_segments_sent")), (Some(1.0), Some(0.0)));
    feed(&mut b, &syn, t(1.1));
    feed(&mut a, &drain(&mut b, t(1.1)), t(1.2));
    feed(&mut b, &drain(&mut a, t(1.2)), t(1.3));
    b.handle_close(t(2.0));
    let fin = drain(&mut b, t(2.0));
    assert_eq!(measure(&b, "tcp_segments_retransmitted"), Some(0.0), "the first FIN is not a copy");
    let rto = b.poll_timeout().unwrap();
    b.handle_timeout(rto);
    assert_eq!(drain(&mut b, rto), fin);
    assert_eq!(measure(&b, "tcp_segments_retransmitted"), Some(1.0));
    assert_eq!(measure(&b, "tcp_octets_retransmitted"), Some(0.0), "a FIN carries no octet");
    assert_eq!(b.counters().frames_sent, 3, "SYN-ACK, FIN, FIN");
}
