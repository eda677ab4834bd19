//! The acknowledgement timer T1 of ISO 8802-2 type 2 (LLC2), frame in / frame out:
//! started by the first I frame, restarted by an acknowledgement of new frames,
//! stopped when nothing is outstanding (and no poll awaits its F), expiring at its
//! deadline and not before, and N2 counting expiries in a row.

use super::*;

const T1: f64 = 0.5;

fn t1() -> Duration {
    Duration::from_secs_f64(T1)
}

fn four_sent() -> Llc2 {
    let c = Llc2Config { t1_s: T1, ..cfg(Variant::Orig, 7) };
    let mut a = sender(&c, 4);
    assert_eq!(drain(&mut a, at(0)).len(), 4);
    a
}

/// An RR acknowledging new frames restarts T1 from its arrival; one acknowledging
/// nothing new leaves it alone; one acknowledging everything stops it.
#[test]
fn test_t1_restarts_on_an_acknowledgement_of_new_frames_and_stops_when_none_is_outstanding() {
    let mut a = four_sent();
    let first = a.poll_timeout().unwrap();
    assert_eq!(first, at(0) + G.transmission(8032) + t1(), "T1 from the end of the first I frame");
    a.handle_receive(at(100), &rr(2));
    assert_eq!(a.poll_timeout(), Some(at(100) + t1()), "restarted by N(R) = 2");
    a.handle_receive(at(200), &rr(2));
    assert_eq!(a.poll_timeout(), Some(at(100) + t1()), "N(R) = 2 again: nothing new, no restart");
    a.handle_receive(at(300), &rr(4));
    assert_eq!(a.poll_timeout(), None, "nothing outstanding: T1 stopped");
    assert_eq!(acknowledged(&mut a), vec![0, 1, 2, 3]);
}

/// A later I frame does not restart a running T1 (it runs for the oldest frame).
#[test]
fn test_t1_is_not_restarted_by_sending_another_i_frame() {
    let c = Llc2Config { t1_s: T1, ..cfg(Variant::Orig, 7) };
    let mut a = sender(&c, 1);
    drain(&mut a, at(0));
    let first = a.poll_timeout().unwrap();
    a.handle_submit(at(100), Sdu { id: 1, bits: 8000, flow: 0, born: at(100) });
    assert_eq!(drain(&mut a, at(100)).len(), 1);
    assert_eq!(a.poll_timeout(), Some(first));
}

/// T1 expires at its deadline, not a picosecond before: only then the poll.
#[test]
fn test_t1_expires_at_its_deadline_and_not_before() {
    let mut a = four_sent();
    let d = a.poll_timeout().unwrap();
    a.handle_timeout(SimTime(d.0 - 1));
    assert_eq!(a.counters().timeouts, 0);
    assert!(drain(&mut a, SimTime(d.0 - 1)).is_empty(), "no poll yet");
    a.handle_timeout(d);
    assert_eq!(a.counters().timeouts, 1);
    assert_eq!(sup(&one(&mut a, d)), (FrameKind::RR, 0, true));
    assert_eq!(a.poll_timeout(), Some(d + t1()), "T1 restarted for the poll");
}

/// While a poll awaits its F response T1 keeps running, even once every frame is
/// acknowledged (by a frame without F); the F response stops it.
#[test]
fn test_t1_runs_while_a_poll_awaits_its_f_response() {
    let mut a = four_sent();
    let d = a.poll_timeout().unwrap();
    a.handle_timeout(d);
    one(&mut a, d);
    let later = d + Duration::from_secs_f64(0.1);
    a.handle_receive(later, &rr(4));
    assert_eq!(a.poll_timeout(), Some(later + t1()), "awaiting F: T1 restarted, not stopped");
    a.handle_receive(later, &Frame { pf: true, ..rr(4) });
    assert_eq!(a.poll_timeout(), None, "F received, nothing outstanding");
}

/// N2: T1 expiries beyond N2 in a row are counted once N2 is exceeded (then the
/// count starts again); an acknowledgement resets the run.
#[test]
fn test_n2_counts_t1_expiries_beyond_n2_in_a_row() {
    let c = Llc2Config { t1_s: T1, n2: 2, ..cfg(Variant::Orig, 7) };
    let mut a = sender(&c, 4);
    drain(&mut a, at(0));
    fn expire(a: &mut Llc2) -> SimTime {
        let d = a.poll_timeout().unwrap();
        a.handle_timeout(d);
        drain(a, d);
        d
    }
    expire(&mut a);
    expire(&mut a);
    assert_eq!(a.stats().n2_exceeded, 0, "N2 = 2 expiries: not exceeded");
    let d = expire(&mut a);
    assert_eq!(a.stats().n2_exceeded, 1, "the third in a row exceeds N2");
    // An acknowledgement of new frames resets the run.
    a.handle_receive(d, &Frame { pf: true, command: false, ..rr(1) });
    expire(&mut a);
    expire(&mut a);
    assert_eq!(a.stats().n2_exceeded, 1, "two more after the acknowledgement");
    expire(&mut a);
    assert_eq!(a.stats().n2_exceeded, 2);
}
