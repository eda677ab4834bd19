//! An endpoint's connections one after another (`TcpHost`), frame in / frame out: what
//! the host reports is the sum over its connections, the live ones and those it has
//! forgotten; segments are routed by the sequence space they name (RFC 9293 §3.4.1's
//! new incarnation above the old sequence space); the application's connection is
//! never forgotten.

use super::endpoint::State;
use super::*;
use crate::engine::SimTime;
use crate::protocol::{Event, Frame, FrameKind, Layer, Sdu};

use super::close_tests::{cfg, sdu, t, G, H};

/// Everything `h` sends at `now`, also appended to `log`.
fn out(h: &mut TcpHost, now: SimTime, log: &mut Vec<Frame<Sdu>>) -> Vec<Frame<Sdu>> {
    let fs: Vec<_> = std::iter::from_fn(|| h.poll_transmit(now, &G)).collect();
    log.extend(fs.iter().cloned());
    fs
}

fn feed(h: &mut TcpHost, fs: &[Frame<Sdu>], now: SimTime) {
    for f in fs {
        h.handle_receive(now, f);
    }
}

fn measure(h: &TcpHost, k: &str) -> Option<f64> {
    h.extra_measures().iter().find(|x| x.0 == k).map(|x| x.1)
}

fn is_data(f: &Frame<Sdu>) -> bool {
    f.kind == FrameKind::I && f.bits > H
}

/// Two sessions as Johnson's SMTP: session 1's 221 and close, the client's new SYN, the
/// server's greeting on the new connection. Returns client, server and what each sent.
#[allow(clippy::type_complexity)]
fn two_sessions() -> (TcpHost, TcpHost, Vec<Frame<Sdu>>, Vec<Frame<Sdu>>) {
    let (mut c, mut s) = (TcpHost::open(&cfg(), true), TcpHost::open(&cfg(), false));
    let (mut lc, mut ls) = (vec![], vec![]);
    let syn = out(&mut c, t(0.0), &mut lc);
    feed(&mut s, &syn, t(0.1));
    feed(&mut c, &out(&mut s, t(0.1), &mut ls), t(0.2));
    feed(&mut s, &out(&mut c, t(0.2), &mut lc), t(0.3));
    s.handle_submit(t(1.0), sdu(0, 44));
    s.handle_close(t(1.0));
    feed(&mut c, &out(&mut s, t(1.0), &mut ls), t(1.1));
    c.handle_close(t(1.1));
    c.handle_connect(t(1.1));
    s.handle_submit(t(1.1), sdu(1, 46));
    feed(&mut s, &out(&mut c, t(1.1), &mut lc), t(1.2));
    feed(&mut c, &out(&mut s, t(1.2), &mut ls), t(1.3));
    feed(&mut s, &out(&mut c, t(1.3), &mut lc), t(1.4));
    feed(&mut c, &out(&mut s, t(1.4), &mut ls), t(1.5));
    assert_eq!(c.connections().len(), 1, "the client's first connection closed and was forgotten");
    assert_eq!(s.connections().len(), 2, "the server's first connection is in TIME-WAIT");
    assert_eq!(s.connections()[0].state(), State::TimeWait);
    (c, s, lc, ls)
}

#[test]
fn test_host_counts_every_segment_of_its_live_and_forgotten_connections() {
    let (c, s, lc, ls) = two_sessions();
    for (h, log) in [(&c, &lc), (&s, &ls)] {
        let k = h.counters();
        let data = log.iter().filter(|f| is_data(f)).count() as u64;
        let acks = log.iter().filter(|f| f.kind == FrameKind::RR).count() as u64;
        assert_eq!(k.frames_sent, log.len() as u64, "every segment sent, SYNs and FINs too: {log:?}");
        assert_eq!((k.i_frames_sent, k.s_frames_sent), (data, acks));
        assert_eq!(measure(h, "tcp_all_segments_sent"), Some(log.len() as f64));
        assert_eq!(measure(h, "tcp_segments_sent"), Some(data as f64));
        assert_eq!(measure(h, "tcp_segments_retransmitted"), Some(0.0));
        assert_eq!(measure(h, "tcp_connections"), Some(2.0));
    }
    // The client: SYN, ACK; FIN (with the ACK of the 221); SYN, ACK of the SYN-ACK.
    assert_eq!((c.counters().frames_sent, c.counters().s_frames_sent), (5, 2));
    // The server: SYN-ACK, 221, FIN; last ACK, SYN-ACK, greeting.
    assert_eq!((s.counters().frames_sent, s.counters().i_frames_sent), (6, 2));
    // Each measure once, summed by name (not one connection's, not one entry per connection).
    let names: Vec<_> = c.extra_measures().iter().map(|x| x.0).collect();
    let mut unique = names.clone();
    unique.dedup();
    assert_eq!(names, unique);
}

#[test]
fn test_host_backlog_unacknowledged_and_receive_buffer_sum_over_its_connections() {
    let (mut c, mut s, mut lc, mut ls) = two_sessions();
    // The greeting is acknowledged (the client's delayed ACK): an empty flight, and
    // slow start has grown cwnd from 100 octets by the 46 acknowledged (RFC 5681 eq. 2).
    let due = c.poll_timeout().expect("the delayed ACK of the greeting");
    c.handle_timeout(due);
    feed(&mut s, &out(&mut c, due, &mut lc), due);
    assert_eq!((s.backlog(), s.unacknowledged()), (0, 0));
    assert_eq!(s.current().cwnd(), 146);
    for k in 0..5 {
        s.handle_submit(t(2.0), sdu(10 + k, 50));
    }
    let sent = out(&mut s, t(2.0), &mut ls);
    assert_eq!(sent.len(), 2, "cwnd 146 octets: two 50-octet segments");
    assert_eq!(s.backlog(), 3, "three SDUs not begun");
    assert_eq!(s.unacknowledged(), 5);
    // Only the second arrives: the client holds 50 octets out of order.
    assert!(!c.wants_transmit());
    feed(&mut c, &sent[1..], t(2.1));
    assert_eq!(c.receive_buffer_bits(), 8 * 50);
    assert_eq!(c.counters().out_of_sequence_discarded, 1);
    assert!(c.wants_transmit(), "out-of-order data is acknowledged at once (RFC 5681 §4.2)");
    let dup = out(&mut c, t(2.1), &mut lc);
    assert_eq!((dup.len(), dup[0].kind), (1, FrameKind::RR), "a duplicate ACK: {dup:?}");
    assert!(!c.wants_transmit());
}

#[test]
fn test_host_wakes_at_the_earliest_deadline_of_its_connections_and_wants_to_send_if_any_does() {
    let (_, mut s, _, mut ls) = two_sessions();
    // Connection 0: TIME-WAIT since 1.2 s, 2·MSL = 240 s; connection 1: the greeting's
    // retransmission timer (sent at 1.4 s).
    let tw = s.connections()[0].poll_timeout().expect("TIME-WAIT");
    assert!((tw.as_secs_f64() - 241.2).abs() < 1e-9, "{tw:?}");
    let rto = s.connections()[1].poll_timeout().expect("the greeting's RTO");
    assert!(rto < tw);
    assert_eq!(s.poll_timeout(), Some(rto));
    assert!(!s.wants_transmit());
    // Only the old connection has something to send: the host wants to transmit.
    let fin = Frame { kind: FrameKind::I, ns: 1, nr: 46, pf: false, command: false, bits: H, msg: None };
    s.handle_receive(t(1.6), &fin);
    assert!(s.connections()[0].wants_transmit(), "TIME-WAIT acknowledges a repeated FIN");
    assert!(!s.connections()[1].wants_transmit());
    assert!(s.wants_transmit());
    let ack = out(&mut s, t(1.6), &mut ls);
    assert_eq!((ack.len(), ack[0].kind, ack[0].nr), (1, FrameKind::RR, 2), "RCV.NXT: the FIN's 1 + ISS 0 + 1");
    // The repeated FIN restarted 2·MSL; the host wakes at whichever comes first.
    let tw2 = s.connections()[0].poll_timeout().unwrap();
    assert!((tw2.as_secs_f64() - 241.6).abs() < 1e-9, "{tw2:?}");
    assert_eq!(s.poll_timeout(), Some(rto.min(tw2)));
    // After the greeting is acknowledged, TIME-WAIT's end is the only deadline.
    let greeting_ack = Frame::supervisory(FrameKind::RR, (1 << 24) + 1 + 46, false, H);
    s.handle_receive(t(1.7), &greeting_ack);
    assert_eq!(s.connections()[1].poll_timeout(), None);
    assert_eq!(s.poll_timeout(), Some(tw2));
    s.handle_timeout(tw2);
    assert_eq!(s.connections().len(), 1, "the TIME-WAIT connection is forgotten at its end");
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn test_host_segment_of_no_known_sequence_space_is_dropped_once_two_connections_live() {
    let (_, mut s, _, mut ls) = two_sessions();
    while s.poll_event().is_some() {}
    let before = (s.counters(), s.extra_measures(), s.progress());
    // A data segment and an ACK naming the sequence space of connection 7.
    let stray = Frame { kind: FrameKind::I, ns: (7 << 24) + 1, nr: (7 << 24) + 1, pf: true, command: false, bits: H + 80, msg: Some(sdu(9, 10)) };
    s.handle_receive(t(1.6), &stray);
    s.handle_receive(t(1.6), &Frame::supervisory(FrameKind::RR, (7 << 24) + 1, false, H));
    assert_eq!((s.counters(), s.extra_measures(), s.progress()), before);
    assert!(out(&mut s, t(1.6), &mut ls).is_empty());
    assert_eq!(s.poll_event(), None);
    assert_eq!(s.connections().len(), 2);
}

#[test]
fn test_host_progress_counts_connections_opened_and_octets_moved() {
    let (mut c, s, _, _) = two_sessions();
    // Client: 2 connections opened; the live one has received the 46-octet greeting
    // and sent nothing (SND.UNA 0).
    assert_eq!(c.progress(), 2 + 46);
    // Server: 2 opened; connection 0 sent 44 octets and received none (its FIN and
    // the peer's each took one sequence number beyond the data: SND.UNA 45, RCV.NXT 1);
    // connection 1 has the greeting unacknowledged.
    assert_eq!(s.connections()[0].snd_una() + s.connections()[0].rcv_nxt(), 46);
    assert_eq!(s.progress(), 2 + 46);
    // An in-error segment is counted by the application's connection, and moves nothing.
    let junk = Frame::supervisory(FrameKind::RR, 0, false, H);
    c.handle_receive_in_error(t(2.0), &junk);
    assert_eq!(c.counters().frames_in_error_received, 1);
    assert_eq!(c.progress(), 48);
}

#[test]
fn test_host_keeps_the_applications_connection_once_closed() {
    // The server closes first; the client answers with its own FIN (LAST-ACK) and the
    // server's ACK closes the client's only connection: it stays, CLOSED.
    let (mut c, mut s) = (TcpHost::open(&cfg(), true), TcpHost::open(&cfg(), false));
    let mut log = vec![];
    let syn = out(&mut c, t(0.0), &mut log);
    feed(&mut s, &syn, t(0.1));
    feed(&mut c, &out(&mut s, t(0.1), &mut log), t(0.2));
    feed(&mut s, &out(&mut c, t(0.2), &mut log), t(0.3));
    s.handle_close(t(1.0));
    feed(&mut c, &out(&mut s, t(1.0), &mut log), t(1.1));
    c.handle_close(t(1.1));
    feed(&mut s, &out(&mut c, t(1.1), &mut log), t(1.2));
    feed(&mut c, &out(&mut s, t(1.2), &mut log), t(1.3));
    assert_eq!(c.connections().len(), 1);
    assert_eq!(c.current().state(), State::Closed);
    assert_eq!(c.poll_timeout(), None);
    assert!(!c.wants_transmit());
}

#[test]
fn test_host_without_connection_setup_connect_opens_nothing() {
    let cfg = TcpConfig::default();
    let (mut a, mut b) = (TcpHost::open(&cfg, true), TcpHost::open(&cfg, false));
    a.handle_close(t(0.0));
    a.handle_connect(t(0.0));
    assert_eq!(a.connections().len(), 1);
    assert_eq!(measure(&a, "tcp_connections"), Some(1.0));
    a.handle_submit(t(0.0), sdu(0, 30));
    let mut log = vec![];
    let d = out(&mut a, t(0.0), &mut log);
    assert_eq!((d.len(), d[0].ns, d[0].bits), (1, 0, H + 30 * 8));
    feed(&mut b, &d, t(0.1));
    assert_eq!(b.poll_event(), Some(Event::Delivered(sdu(0, 30))));
}

/// A listening host takes the first SYN into its listening connection whatever the
/// SYN's ISS (RFC 9293 §3.10.7.2: LISTEN learns IRS from the SYN); a host whose own
/// connection opened actively makes a new passive connection for a SYN of a new ISS.
#[test]
fn test_host_first_syn_of_any_iss_goes_to_the_listener_a_new_iss_beside_an_active_connection() {
    let syn = |iss: u32| Frame { kind: FrameKind::I, ns: iss, nr: 0, pf: false, command: true, bits: H, msg: None };
    let mut log = vec![];
    let mut s = TcpHost::open(&cfg(), false);
    s.handle_receive(t(0.1), &syn(3 << 24));
    assert_eq!(s.connections().len(), 1, "the listener itself takes it");
    assert_eq!((s.current().state(), s.current().iss()), (State::SynReceived, 3 << 24));
    let sa = out(&mut s, t(0.1), &mut log);
    assert!(sa.len() == 1 && sa[0].command && sa[0].pf && sa[0].nr == (3 << 24) + 1, "{sa:?}");
    let mut c = TcpHost::open(&cfg(), true);
    assert_eq!(c.current().state(), State::SynSent);
    c.handle_receive(t(0.1), &syn(5 << 24));
    assert_eq!(c.connections().len(), 2);
    assert_eq!(c.connections()[0].state(), State::SynSent, "its own connection untouched");
    assert_eq!((c.current().state(), c.current().iss()), (State::SynReceived, 5 << 24));
}

/// Only a SYN (an I frame with the command bit, no ACK flag) is routed by its N(S): a
/// data segment whose N(S) has left its connection's first sequence space (a transfer
/// beyond 16 MiB) goes to the connection its N(R) names, never to a new one.
#[test]
fn test_host_routes_data_by_its_acknowledgement_even_beyond_one_sequence_space() {
    let mut s = TcpHost::open(&cfg(), false);
    let mut c = TcpHost::open(&cfg(), true);
    let mut log = vec![];
    feed(&mut s, &out(&mut c, t(0.0), &mut log), t(0.1));
    feed(&mut c, &out(&mut s, t(0.1), &mut log), t(0.2));
    feed(&mut s, &out(&mut c, t(0.2), &mut log), t(0.3));
    // Mid-SDU (no PSH) and a FIN, both numbered in the next space, acknowledging ISS + 1.
    let far = (1u32 << 24) + 7;
    let data = Frame { kind: FrameKind::I, ns: far, nr: 1, pf: false, command: false, bits: H + 80, msg: None };
    let fin = Frame { bits: H, ..data };
    s.handle_receive(t(1.0), &data);
    s.handle_receive(t(1.0), &fin);
    assert_eq!(s.connections().len(), 1, "no new connection");
    assert_eq!(s.current().state(), State::Established);
    assert_eq!(s.counters().duplicates_discarded, 1, "the data, far outside the window, dropped by the connection");
}
