//! Rule tests of the TCP flavours, frame by frame: 4.2BSD (no congestion window, RTO
//! in 500 ms ticks, go-back-N over the whole window, no Karn rule, duplicate ACKs
//! ignored) and NewReno (a partial acknowledgement retransmits the next hole at once).

use super::*;
use crate::engine::SimTime;
use crate::protocol::{Frame, FrameKind, Grant, Layer, Sdu};
use crate::schema::{Problems, Table};
use serde_json::json;

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

const G: Grant = Grant::line(1e6);

fn ack(n: u64) -> Frame<Sdu> {
    Frame::supervisory(FrameKind::RR, n as u32, false, 160)
}

/// A parsed configuration (the flavour's defaults applied), MSS 100.
fn parsed(v: serde_json::Value) -> TcpConfig {
    let mut p = Problems::default();
    let mut tb = Table::root(&v, &mut p);
    let c = TcpConfig::parse(&mut tb, &mut p);
    assert!(p.is_empty(), "{:?}", p.0);
    c
}

/// A sender of `flavour` with `n` 100-octet segments queued and a receive window of
/// `wnd` segments.
fn sender(flavour: &str, n: u64, wnd: u32, iw: u32) -> Tcp {
    let c = parsed(json!({"flavour": flavour, "mss_octets": 100, "receive_window_octets": 100 * wnd, "initial_window_segments": iw}));
    let mut a = Tcp::new(&c);
    for i in 0..n {
        a.handle_submit(SimTime::ZERO, Sdu { id: i, bits: 800, flow: 0, born: SimTime::ZERO });
    }
    a
}

fn seqs(a: &mut Tcp, now: SimTime) -> Vec<u32> {
    std::iter::from_fn(|| a.poll_transmit(now, &G)).map(|f| f.ns).collect()
}

#[test]
fn test_bsd42_defaults_and_rto_key_refused() {
    let c = parsed(json!({"flavour": "bsd42"}));
    assert_eq!((c.initial_rto_s, c.min_rto_s, c.max_rto_s), (1.0, 1.0, 30.0), "t_srtt = 0: TCPTV_MIN");
    let r = parsed(json!({}));
    assert_eq!((r.flavour.as_str(), r.initial_rto_s, r.max_rto_s), ("reno", 1.0, 60.0), "Reno's defaults unchanged");
    let v = json!({"flavour": "bsd42", "rto": "rfc793"});
    let mut p = Problems::default();
    let mut tb = Table::root(&v, &mut p);
    let _ = TcpConfig::parse(&mut tb, &mut p);
    assert!(p.0.iter().any(|x| x.path.ends_with("rto")), "{:?}", p.0);
    let v = json!({"flavour": "tahoe"});
    let mut p = Problems::default();
    let mut tb = Table::root(&v, &mut p);
    let _ = TcpConfig::parse(&mut tb, &mut p);
    assert!(p.0.iter().any(|x| x.path.ends_with("flavour")), "{:?}", p.0);
}

/// No congestion window: the whole receive window leaves at once (Reno: one segment).
#[test]
fn test_bsd42_no_cwnd_sends_the_receive_window_at_once() {
    assert_eq!(seqs(&mut sender("bsd42", 10, 4, 1), t(0.0)), vec![0, 100, 200, 300]);
    assert_eq!(seqs(&mut sender("reno", 10, 4, 1), t(0.0)), vec![0]);
}

/// 4.2BSD's SRTT starts at 0, so the first RTO is TCPTV_MIN, 1 s, on the tick; a timeout
/// goes back to SND.UNA and sends the whole window again (no loss window); the n-th
/// expiry sets SRTT (clamped to 1 s) × tcp_backoff[n − 1] = 1, 1.2, 1.4, 1.7 …
#[test]
fn test_bsd42_first_rto_is_tcptv_min_and_a_timeout_goes_back_over_the_whole_window() {
    let mut a = sender("bsd42", 10, 4, 1);
    seqs(&mut a, t(0.2));
    assert_eq!(a.poll_timeout(), Some(t(1.0)), "2 ticks after 0.2 s: the tick at 1.0 s");
    a.handle_timeout(t(1.0));
    assert_eq!(a.snd_nxt(), 0);
    assert_eq!(seqs(&mut a, t(1.0)), vec![0, 100, 200, 300], "go back N over the window");
    let mut deadlines = vec![a.poll_timeout().unwrap()];
    for _ in 0..3 {
        let d = a.poll_timeout().unwrap();
        a.handle_timeout(d);
        deadlines.push(a.poll_timeout().unwrap());
    }
    // 2 × {1, 1.2, 1.4, 1.7} ticks = 2, 2, 2, 3 ticks.
    assert_eq!(deadlines, vec![t(2.0), t(3.0), t(4.0), t(5.5)]);
    assert_eq!(a.counters().timeouts, 4);
}

/// 4.2BSD's back-off with a measured SRTT of 4 ticks: β·SRTT = 8 ticks after the ACK, then
/// 4 × {1, 1.2, 1.4, 1.7, 2, 3, 5, 8, 16, 32} ticks truncated, at most TCPTV_MAX (60).
#[test]
fn test_bsd42_backoff_sequence_is_srtt_times_tcp_backoff() {
    let mut a = sender("bsd42", 10, 4, 1);
    seqs(&mut a, t(0.0));
    a.handle_receive(t(0.1), &ack(100));
    a.handle_receive(t(1.6), &ack(200));
    assert_eq!(a.srtt_s(), Some(2.0), "ticks 0 → 3: a 4-tick sample, taken as SRTT");
    let mut at = t(1.5);
    let mut gaps = vec![];
    for _ in 0..11 {
        let d = a.poll_timeout().unwrap();
        gaps.push((d.0 - at.0) / bsd42::TICK.0);
        at = d;
        a.handle_timeout(d);
    }
    assert_eq!(gaps, vec![8, 4, 4, 5, 6, 8, 12, 20, 32, 60, 60]);
}

/// 4.2BSD's tcp_output never starts a timing (its "not a retransmission" test follows
/// snd_max's update); tcp_input starts one (t_rtt = 1) at each ACK that advances SND.UNA
/// with data outstanding, and the next advancing ACK ends it. The first sample replaces
/// SRTT; the next is smoothed with α = 0.9.
#[test]
fn test_bsd42_tcp_output_never_times_tcp_input_times_between_advancing_acks() {
    let mut a = sender("bsd42", 10, 4, 1);
    assert_eq!(seqs(&mut a, t(0.2)), vec![0, 100, 200, 300]);
    assert_eq!(a.timing(), None, "tcp_output times nothing");
    a.handle_receive(t(1.3), &ack(100));
    assert_eq!((a.timing(), a.srtt_s()), (Some((100, t(1.3))), None), "t_rtt = 1 at the advancing ACK");
    assert_eq!(seqs(&mut a, t(1.3)), vec![400]);
    assert_eq!(a.timing(), Some((100, t(1.3))), "new data is not timed");
    // ACK 200 at 1.6 s: 1 + ticks(1.6) − ticks(1.3) = 2 ticks since the previous ACK.
    a.handle_receive(t(1.6), &ack(200));
    assert_eq!(a.srtt_s(), Some(1.0), "the first sample replaces SRTT (0)");
    assert_eq!(a.rto_s(), 2.0, "β·SRTT");
    assert_eq!(a.timing(), Some((200, t(1.6))));
    // ACK 300 at 2.4 s: 1 + 4 − 3 = 2 ticks again; SRTT = 0.9·2 + 0.1·2 = 2 ticks.
    a.handle_receive(t(2.4), &ack(300));
    assert!((a.srtt_s().unwrap() - 1.0).abs() < 1e-6, "{:?}", a.srtt_s());
    // Everything acknowledged: the count ends with a sample, none restarts; new data is not timed.
    a.handle_receive(t(3.7), &ack(500));
    // ticks(3.7) = 7, ticks(2.4) = 4: a 4-tick sample, SRTT = 0.9·2 + 0.1·4 ticks.
    assert!((a.srtt_s().unwrap() - 0.5 * (0.9 * 2.0 + 0.1 * 4.0)).abs() < 1e-6, "{:?}", a.srtt_s());
    assert_eq!(a.timing(), None, "ACK = SND.MAX: timer off, nothing timed");
    assert_eq!(seqs(&mut a, t(3.8)), vec![500, 600, 700, 800]);
    assert_eq!(a.timing(), None);
    // Reno, the same frames: one segment timed at a time, a fresh one after each sample.
    let mut r = sender("reno", 10, 4, 4);
    assert_eq!(seqs(&mut r, t(0.2)), vec![0, 100, 200, 300]);
    assert_eq!(r.timing(), Some((100, t(0.2))), "Reno times the first new segment");
    r.handle_receive(t(1.3), &ack(100));
    assert_eq!(r.timing(), None, "Reno: no restart at the ACK");
    seqs(&mut r, t(1.3));
    assert_eq!(r.timing().map(|(_, at)| at), Some(t(1.3)), "Reno times the next new segment");
}

/// A 4.2BSD sender with one segment in flight never has data outstanding after an ACK:
/// no timing ever starts, SRTT stays 0 and the RTO stays at TCPTV_MIN.
#[test]
fn test_bsd42_one_segment_at_a_time_never_samples() {
    let mut a = sender("bsd42", 10, 1, 1);
    for k in 0..5u64 {
        let at = 2.0 * k as f64;
        assert_eq!(seqs(&mut a, t(at)), vec![100 * k as u32]);
        a.handle_receive(t(at + 1.2), &ack(100 * (k + 1)));
    }
    assert_eq!((a.srtt_s(), a.rto_s(), a.timing()), (None, 1.0, None));
}

/// No Karn rule: a timing that runs across a timeout and the go-back ends at the next
/// advancing ACK, so the sample includes the timeout.
#[test]
fn test_bsd42_no_karn_samples_across_a_timeout() {
    let mut a = sender("bsd42", 10, 4, 1);
    seqs(&mut a, t(0.2));
    a.handle_receive(t(1.3), &ack(100));
    assert_eq!(a.poll_timeout(), Some(t(2.0)), "SRTT 0: 2 ticks after the ACK's tick");
    a.handle_timeout(t(2.0));
    assert_eq!(seqs(&mut a, t(2.0)), vec![100, 200, 300, 400]);
    assert_eq!(a.timing(), Some((100, t(1.3))), "still timed from the ACK at 1.3 s");
    a.handle_receive(t(2.2), &ack(200));
    // ticks 2 → 4: 3 ticks, the timeout included.
    assert_eq!(a.srtt_s(), Some(1.5));
    // Reno, the same events: Karn drops the sample.
    let mut r = sender("reno", 10, 4, 1);
    seqs(&mut r, t(0.2));
    r.handle_timeout(t(1.2));
    seqs(&mut r, t(1.2));
    r.handle_receive(t(1.3), &ack(100));
    assert_eq!(r.srtt_s(), None);
}

#[test]
fn test_bsd42_ignores_duplicate_acks() {
    let mut a = sender("bsd42", 10, 8, 1);
    seqs(&mut a, t(0.0));
    a.handle_receive(t(0.5), &ack(100));
    seqs(&mut a, t(0.5));
    for k in 0..5 {
        a.handle_receive(t(0.6 + 0.01 * k as f64), &ack(100));
    }
    assert_eq!(seqs(&mut a, t(0.7)), Vec::<u32>::new(), "no fast retransmit");
    assert_eq!(a.fast_retransmits, 0);
}

/// Segments 0–7 sent, 100 and 300 lost: the third duplicate ACK retransmits 100; the
/// ACK of 300 (partial: recover is 800) retransmits 300 at once under NewReno. Reno
/// leaves fast recovery at that ACK and sends no retransmission.
#[test]
fn test_newreno_partial_ack_retransmits_the_next_hole_at_once() {
    for (flavour, want) in [("newreno", vec![300u32]), ("reno", vec![])] {
        let mut a = sender(flavour, 20, 64, 8);
        assert_eq!(seqs(&mut a, t(0.0)).len(), 8);
        a.handle_receive(t(0.10), &ack(100));
        let _ = seqs(&mut a, t(0.10));
        for k in 0..3 {
            a.handle_receive(t(0.11 + 0.001 * k as f64), &ack(100));
        }
        let fr = seqs(&mut a, t(0.12));
        assert_eq!(fr.first(), Some(&100), "{flavour}: fast retransmit of 100: {fr:?}");
        // More duplicates (segments 400… arriving) inflate; then the retransmitted 100
        // fills the first hole: ACK 300, below recover.
        for k in 0..4 {
            a.handle_receive(t(0.13 + 0.001 * k as f64), &ack(100));
        }
        let _ = seqs(&mut a, t(0.14));
        a.handle_receive(t(0.2), &ack(300));
        let out: Vec<u32> = seqs(&mut a, t(0.2)).into_iter().filter(|&s| s < 900).collect();
        assert_eq!(out, want, "{flavour}: after the partial ACK");
    }
}

/// 4.2BSD `tcp_input`: an advancing ACK also sets t_rxtshift = 0, so the timer restarted
/// by it runs β·SRTT without the back-off of earlier expiries.
#[test]
fn test_bsd42_advancing_ack_resets_the_backoff() {
    let mut a = sender("bsd42", 10, 4, 1);
    seqs(&mut a, t(0.0));
    for d in [1.0, 2.0, 3.0, 4.0] {
        assert_eq!(a.poll_timeout(), Some(t(d)));
        a.handle_timeout(t(d));
    }
    assert_eq!(a.poll_timeout(), Some(t(5.5)), "4th expiry: 2 × 1.7 = 3 ticks");
    a.handle_receive(t(5.6), &ack(100));
    assert_eq!(a.srtt_s(), None, "nothing was timed");
    assert_eq!(a.poll_timeout(), Some(t(6.5)), "2 ticks (β·0 → TCPTV_MIN), no back-off, after the ACK");
}

/// 4.2BSD advertises its socket buffer, tcp_recvspace = 2048 octets; Reno keeps 4096.
#[test]
fn test_bsd42_default_receive_window_is_2048_octets() {
    assert_eq!(parsed(json!({"flavour": "bsd42"})).receive_window_octets, 2048);
    assert_eq!(parsed(json!({"flavour": "reno"})).receive_window_octets, 4096);
    assert_eq!(parsed(json!({"flavour": "bsd42", "receive_window_octets": 4096})).receive_window_octets, 4096);
    // 100-octet segments: 20 fit in 2048 octets.
    let c = parsed(json!({"flavour": "bsd42", "mss_octets": 100}));
    let mut a = Tcp::new(&c);
    for i in 0..30 {
        a.handle_submit(SimTime::ZERO, Sdu { id: i, bits: 800, flow: 0, born: SimTime::ZERO });
    }
    assert_eq!(seqs(&mut a, t(0.0)).len(), 20);
}

/// 4.2BSD's 6.2 sources (83/11/04) time from `tcp_output`: a new segment sent while
/// nothing is timed starts the count (`t_rtt = 1; t_rtseq = startseq`), the first ACK
/// past its first octet ends it (`SEQ_GT(ti_ack, t_rtseq)`), and an advancing ACK no
/// longer restarts it; still no Karn rule, the first sample still replaces SRTT.
#[test]
fn test_bsd42_6_2_tcp_output_times_a_new_segment_to_the_ack_past_its_start() {
    let c = parsed(json!({"flavour": "bsd42", "bsd42_timing": "tcp_output", "mss_octets": 100, "receive_window_octets": 400}));
    let mut a = Tcp::new(&c);
    for i in 0..10 {
        a.handle_submit(SimTime::ZERO, Sdu { id: i, bits: 800, flow: 0, born: SimTime::ZERO });
    }
    assert_eq!(seqs(&mut a, t(0.2)), vec![0, 100, 200, 300]);
    assert_eq!(a.timing(), Some((1, t(0.2))), "the first new segment, until an ACK past octet 0");
    // ACK 100 at 1.3 s: 1 + ticks(1.3) − ticks(0.2) = 3 ticks = 1.5 s replaces SRTT.
    a.handle_receive(t(1.3), &ack(100));
    assert_eq!((a.srtt_s(), a.rto_s()), (Some(1.5), 3.0));
    assert_eq!(a.timing(), None, "no restart at the ACK (6.1's tcp_input rule is gone)");
    assert_eq!(seqs(&mut a, t(1.3)), vec![400]);
    assert_eq!(a.timing(), Some((401, t(1.3))), "the next new segment is timed from its send");
    // A timeout and go-back: 4.2BSD keeps timing (no Karn), the copy of 400 included.
    a.handle_timeout(a.poll_timeout().unwrap());
    assert_eq!(a.timing(), Some((401, t(1.3))));
    // 6.1 (the default) with the same frames times nothing from tcp_output.
    let mut b = sender("bsd42", 10, 4, 1);
    seqs(&mut b, t(0.2));
    assert_eq!(b.timing(), None);
}

/// `bsd42_timing` belongs to 4.2BSD: with another flavour it is refused with its field.
#[test]
fn test_bsd42_timing_is_refused_with_another_flavour() {
    let v = json!({"flavour": "reno", "bsd42_timing": "tcp_output"});
    let mut p = Problems::default();
    let mut tb = Table::root(&v, &mut p);
    TcpConfig::parse(&mut tb, &mut p);
    assert_eq!(p.0.iter().map(|x| x.to_string()).collect::<Vec<_>>(), vec!["bsd42_timing: only with flavour = \"bsd42\" (flavour is \"reno\")"]);
}

/// The tick phase belongs to 4.2BSD too: either field with another flavour is refused
/// with its field, and a phase outside [0, 0.5 s) is refused with its value.
#[test]
fn test_bsd42_tick_phase_is_refused_with_another_flavour_or_out_of_range() {
    let problems = |v: serde_json::Value| {
        let mut p = Problems::default();
        let mut tb = Table::root(&v, &mut p);
        TcpConfig::parse(&mut tb, &mut p);
        p.0.iter().map(|x| x.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(problems(json!({"flavour": "reno", "bsd42_tick_phase_s": 0.2})),
               vec!["bsd42_tick_phase_s: only with flavour = \"bsd42\" (flavour is \"reno\")"]);
    assert_eq!(problems(json!({"flavour": "newreno", "bsd42_random_tick_phase": true})),
               vec!["bsd42_random_tick_phase: only with flavour = \"bsd42\" (flavour is \"newreno\")"]);
    assert!(problems(json!({"flavour": "bsd42", "bsd42_tick_phase_s": 0.499})).is_empty());
    let over = problems(json!({"flavour": "bsd42", "bsd42_tick_phase_s": 0.5}));
    assert_eq!(over.len(), 1);
    assert!(over[0].starts_with("bsd42_tick_phase_s"), "{over:?}");
}

/// The random phase is drawn per node and replication from its own stream: the same
/// seed, node and replication give the same phase, in [0, 0.5 s); another replication
/// or node another; without the switch the configuration is itself.
#[test]
fn test_bsd42_random_tick_phase_is_drawn_per_node_and_replication() {
    let fixed = parsed(json!({"flavour": "bsd42", "bsd42_tick_phase_s": 0.2}));
    assert_eq!(fixed.for_replication(0, 7, 3).bsd42_tick_phase_s, 0.2);
    let random = parsed(json!({"flavour": "bsd42", "bsd42_random_tick_phase": true}));
    let phase = |me: u32, rep: u64| random.for_replication(me, 7, rep).bsd42_tick_phase_s;
    let phases: Vec<f64> = (0..64).map(|r| phase(0, r)).collect();
    assert!(phases.iter().all(|&x| (0.0..0.5).contains(&x)), "{phases:?}");
    assert_eq!(phase(0, 3), phases[3], "deterministic per seed, node and replication");
    assert_ne!(phase(0, 3), phase(1, 3), "each node its own stream");
    assert_ne!(phases[0], phases[1]);
    // Uniform over the half second: both halves drawn (64 draws, each half 2^-64 to miss).
    assert!(phases.iter().any(|&x| x < 0.25) && phases.iter().any(|&x| x >= 0.25));
    assert!(!random.for_replication(0, 7, 3).bsd42_random_tick_phase, "the drawn phase is fixed");
}

/// `rto = "rfc793"` with Reno: RFC 793 §3.7's RTO = β·SRTT with β = 2 (the first sample R
/// taken as SRTT), not RFC 6298's SRTT + 4·RTTVAR = 3R; the default stays RFC 6298.
#[test]
fn test_rfc793_rto_is_beta_2_times_srtt_for_reno_and_rfc6298_by_default() {
    let rto_after_one_sample = |v: serde_json::Value| {
        let mut a = Tcp::new(&parsed(v));
        a.handle_submit(SimTime::ZERO, Sdu { id: 0, bits: 800, flow: 0, born: SimTime::ZERO });
        assert_eq!(seqs(&mut a, t(0.0)), vec![0]);
        a.handle_receive(t(1.5), &ack(100));
        assert_eq!(a.srtt_s(), Some(1.5));
        a.rto_s()
    };
    assert_eq!(rto_after_one_sample(json!({"mss_octets": 100, "rto": "rfc793"})), 3.0, "2 · 1.5 s");
    assert_eq!(rto_after_one_sample(json!({"mss_octets": 100})), 4.5, "1.5 + 4 · 0.75 s");
    assert_eq!(rto_after_one_sample(json!({"mss_octets": 100, "flavour": "newreno", "rto": "rfc793"})), 3.0);
}
