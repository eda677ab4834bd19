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
    assert_eq!((c.initial_rto_s, c.min_rto_s, c.max_rto_s), (6.0, 1.0, 30.0));
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

/// The first RTO is 2 × 3 s = 6 s, on the tick; a timeout goes back to SND.UNA and
/// sends the whole window again (no loss window), the timer doubled.
#[test]
fn test_bsd42_timeout_on_the_tick_goes_back_over_the_whole_window() {
    let mut a = sender("bsd42", 10, 4, 1);
    seqs(&mut a, t(0.2));
    assert_eq!(a.poll_timeout(), Some(t(6.0)), "12 ticks after 0.2 s: the tick at 6.0 s");
    a.handle_timeout(t(6.0));
    assert_eq!(a.snd_nxt(), 0);
    assert_eq!(seqs(&mut a, t(6.0)), vec![0, 100, 200, 300], "go back N over the window");
    assert_eq!(a.poll_timeout(), Some(t(18.0)), "24 ticks: backed off");
    assert_eq!(a.counters().timeouts, 1);
}

/// No Karn rule: the segment stays timed from its first transmission, so the ACK
/// after a timeout yields a sample that includes the timeout.
#[test]
fn test_bsd42_no_karn_samples_the_retransmitted_segment_from_its_first_send() {
    let mut a = sender("bsd42", 10, 4, 1);
    seqs(&mut a, t(0.2));
    assert_eq!(a.timing(), Some((100, t(0.2))));
    a.handle_timeout(t(6.0));
    seqs(&mut a, t(6.0));
    assert_eq!(a.timing(), Some((100, t(0.2))), "still timed from 0.2 s");
    a.handle_receive(t(6.3), &ack(100));
    // 0.2 s (tick 0) → 6.3 s (tick 12): 13 ticks; SRTT = 0.9 × 6 + 0.1 × 13 ticks.
    let srtt = (0.9 * 6.0 + 0.1 * 13.0) * 0.5;
    assert!((a.srtt_s().unwrap() - srtt).abs() < 1e-9, "{:?} vs {srtt}", a.srtt_s());
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

/// 4.2BSD `tcp_input`: an ACK that advances SND.UNA with data outstanding sets t_rtt = 1
/// (t_rtseq kept), so the next advancing ACK samples the time since this one — not the
/// round trip of the next new segment, as Reno's timing of one segment does.
#[test]
fn test_bsd42_tcp_input_restarts_rtt_timing_on_every_advancing_ack() {
    let mut a = sender("bsd42", 10, 4, 1);
    assert_eq!(seqs(&mut a, t(0.2)), vec![0, 100, 200, 300]);
    assert_eq!(a.timing(), Some((100, t(0.2))));
    // ACK 100 at 1.3 s: ticks 0 → 2, a 3-tick sample; timing restarts at 1.3 s.
    a.handle_receive(t(1.3), &ack(100));
    let srtt1 = 0.9 * 6.0 + 0.1 * 3.0;
    assert!((a.srtt_s().unwrap() - 0.5 * srtt1).abs() < 1e-9, "{:?}", a.srtt_s());
    assert_eq!(a.timing(), Some((100, t(1.3))), "t_rtt = 1 at the advancing ACK");
    assert_eq!(seqs(&mut a, t(1.3)), vec![400]);
    assert_eq!(a.timing(), Some((100, t(1.3))), "new data is not timed while t_rtt runs");
    // ACK 200 at 1.6 s: 1 + ticks(1.6) − ticks(1.3) = 2 ticks from the previous ACK.
    a.handle_receive(t(1.6), &ack(200));
    let srtt2 = 0.9 * srtt1 + 0.1 * 2.0;
    assert!((a.srtt_s().unwrap() - 0.5 * srtt2).abs() < 1e-9, "{:?} vs {}", a.srtt_s(), 0.5 * srtt2);
    // Everything acknowledged: the timing stops (t_rtt = 0) and the next new segment is timed.
    a.handle_receive(t(1.7), &ack(500));
    assert_eq!(a.timing(), None, "ACK = SND.MAX: timer off, nothing timed");
    assert_eq!(seqs(&mut a, t(1.8)), vec![500, 600, 700, 800]);
    assert_eq!(a.timing(), Some((600, t(1.8))));
    // Reno, the same frames: one segment timed at a time, a fresh one after each sample.
    let mut r = sender("reno", 10, 4, 4);
    assert_eq!(seqs(&mut r, t(0.2)), vec![0, 100, 200, 300]);
    r.handle_receive(t(1.3), &ack(100));
    assert_eq!(r.timing(), None, "Reno: no restart at the ACK");
    seqs(&mut r, t(1.3));
    assert_eq!(r.timing().map(|(_, at)| at), Some(t(1.3)), "Reno times the next new segment");
}

/// 4.2BSD `tcp_input`: an advancing ACK also sets t_rxtshift = 0, so the timer restarted
/// by it runs β·SRTT without the back-off of earlier expiries.
#[test]
fn test_bsd42_advancing_ack_resets_the_backoff() {
    let mut a = sender("bsd42", 10, 4, 1);
    seqs(&mut a, t(0.0));
    a.handle_timeout(t(6.0));
    seqs(&mut a, t(6.0));
    assert_eq!(a.poll_timeout(), Some(t(18.0)), "backed off: 24 ticks");
    a.handle_receive(t(6.2), &ack(100));
    // SRTT = 0.9 × 6 + 0.1 × 13 ticks = 6.7; RTO = ⌊13.4⌋ = 13 ticks from the tick at 6.0 s.
    assert_eq!(a.rto_s(), 6.5);
    assert_eq!(a.poll_timeout(), Some(t(12.5)), "no back-off after the advancing ACK");
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
