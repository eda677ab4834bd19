//! Tests of the dialogue scripts and their step release (`dialogue.rs`).
use super::*;

#[test]
fn test_smtp_lines_are_the_papers_with_crlf() {
    let s = smtp(MESSAGE_OCTETS, 1);
    assert_eq!(s.len(), 13);
    let o: Vec<u32> = s.iter().map(|x| x.writes_octets.iter().sum()).collect();
    // "220 server.goodguys.gov ESMTP Sendmail ready" is 44 characters, + CRLF.
    assert_eq!(o, vec![46, 27, 25, 35, 38, 37, 44, 6, 50, 5000, 35, 6, 44]);
    assert_eq!(s.iter().filter(|x| x.from == Side::Client).count(), 6);
    assert!(s.iter().enumerate().all(|(i, x)| x.after == if i == 0 { vec![] } else { vec![i - 1] }));
}

/// Johnson: "all of the client messages are sent in one transmission following the
/// 220 message from the server. All of the remaining server messages are then sent
/// in a single final transmission."
#[test]
fn test_hmtp_sends_each_batch_as_one_write_of_the_same_octets() {
    let (s, h) = (smtp(5000, 1), hmtp(5000, 1));
    let total = |v: &[Step], side| v.iter().filter(|x| x.from == side).flat_map(|x| x.writes_octets.iter()).sum::<u32>();
    assert_eq!(h.len(), 3);
    assert_eq!(h[0].writes_octets, vec![46]);
    // 27 + 35 + 37 + 6 + 5000 + 6 client octets: 22 packets of 233 octets, not 27.
    assert_eq!(h[1].writes_octets, vec![5111]);
    assert_eq!(h[2].writes_octets, vec![25 + 38 + 44 + 50 + 35 + 44]);
    assert_eq!(total(&h, Side::Client), total(&s, Side::Client));
    assert_eq!(total(&h, Side::Server), total(&s, Side::Server));
    assert_eq!((h[1].after.clone(), h[2].after.clone()), (vec![0], vec![1]));
    // message_writes splits the client batch in equal writes.
    assert_eq!(hmtp(5000, 2)[1].writes_octets, vec![2556, 2555]);
}

#[test]
fn test_steps_released_on_full_delivery_and_session_latency_from_first_transmission() {
    let cfg = DialogueConfig { script: "hmtp".into(), sessions: 2, start_until_s: None, message_octets: Some(10), message_writes: Some(2), step: vec![] };
    let mut d = Dialogue::new(&cfg);
    let w0 = d.start([0, 0]);
    assert_eq!(w0, vec![(1, 46 * 8)]);
    d.transmitted(SimTime::from_secs_f64(1.0));
    let w1 = d.delivered(1, 0, SimTime::from_secs_f64(2.0), [0, 1]).writes;
    assert_eq!(w1.iter().map(|w| w.1 / 8).collect::<Vec<_>>(), vec![61, 60], "121 client octets in two writes");
    assert_eq!(d.delivered(0, 0, SimTime::from_secs_f64(3.0), [2, 1]), Progress::default(), "the batch is not complete");
    let p = d.delivered(0, 1, SimTime::from_secs_f64(3.0), [2, 1]);
    assert_eq!(p, Progress { writes: vec![(1, 8 * 236)], server_closes: true, ..Progress::default() }, "the server's last step: it closes after it");
    let p = d.delivered(1, 1, SimTime::from_secs_f64(5.0), [2, 2]);
    assert_eq!(p, Progress { writes: vec![(1, 46 * 8)], session_ended: true, ..Progress::default() }, "session 2 starts at once, on a new connection");
    assert_eq!(d.measures()[0], ("session_latency_s", 4.0));
    assert_eq!(d.measures()[1].1, 80.0 / 4.0, "10 message octets / 4 s");
}

/// Runs the first session of an HMTP dialogue to completion at t = 5 s.
fn first_session(d: &mut Dialogue) -> Progress {
    d.start([0, 0]);
    d.transmitted(SimTime::from_secs_f64(1.0));
    d.delivered(1, 0, SimTime::from_secs_f64(2.0), [0, 1]);
    for id in 0..2 {
        d.delivered(0, id, SimTime::from_secs_f64(3.0), [2, 1]);
    }
    d.delivered(1, 1, SimTime::from_secs_f64(5.0), [2, 2])
}

#[test]
fn test_start_until_ends_with_the_session_in_progress_and_censoring_is_counted() {
    let cfg = |until: Option<f64>| DialogueConfig { script: "hmtp".into(), sessions: 100, start_until_s: until, message_octets: Some(10), message_writes: Some(2), step: vec![] };
    // The session in progress at 4.5 s runs to its end (5 s); no other starts.
    let mut d = Dialogue::new(&cfg(Some(4.5)));
    let p = first_session(&mut d);
    assert_eq!(p, Progress { session_ended: true, done: true, ..Progress::default() });
    assert_eq!(&d.measures()[2..], &[("sessions_completed", 1.0), ("sessions_censored", 0.0)]);
    // Before the limit the next session starts, and is censored if the window closes.
    for until in [Some(6.0), None] {
        let mut d = Dialogue::new(&cfg(until));
        let p = first_session(&mut d);
        assert!(!p.done && p.session_ended && p.writes == vec![(1, 46 * 8)]);
        assert_eq!(&d.measures()[2..], &[("sessions_completed", 1.0), ("sessions_censored", 1.0)]);
    }
}
