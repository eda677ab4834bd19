//! Rule tests of the dialogue workload (`dialogue.rs`), each named after the rule of
//! `docs/models/dialogue.md` it guards: the built-in scripts read by name, the message
//! bits and octets per direction, steps released together, each step complete only when
//! every write is delivered, the session count and `start_until_s` at its boundary, the
//! measurement window, censoring, and the `[[step]]` keys and their errors.
use super::*;
use crate::schema::{Problems, Table};
use serde_json::json;

fn t(s: f64) -> SimTime {
    SimTime::from_secs_f64(s)
}

fn builtin(script: &str, sessions: u64, until: Option<f64>) -> DialogueConfig {
    DialogueConfig { script: script.into(), sessions, start_until_s: until, message_octets: Some(100), message_writes: Some(2), step: vec![] }
}

fn step(from: Side, writes_octets: &[u32], after: &[usize], message: bool) -> Step {
    Step { from, writes_octets: writes_octets.to_vec(), after: after.to_vec(), message }
}

fn custom(steps: Vec<Step>, sessions: u64) -> DialogueConfig {
    DialogueConfig { script: "custom".into(), sessions, start_until_s: None, message_octets: None, message_writes: None, step: steps }
}

/// Reads a `kind = "dialogue"` traffic table; returns the config and the problems as text.
fn parse(v: serde_json::Value) -> (DialogueConfig, Vec<String>) {
    let mut p = Problems::default();
    let mut table = Table::root(&v, &mut p);
    let cfg = DialogueConfig::parse(&mut table, &mut p);
    (cfg, p.0.iter().map(ToString::to_string).collect())
}

#[test]
fn test_builtin_scripts_are_read_by_name_with_the_body_as_the_message() {
    for (name, steps) in [("smtp", smtp(100, 2)), ("hmtp", hmtp(100, 2))] {
        let c = builtin(name, 1, None);
        assert_eq!(c.steps(), steps, "{name}");
        assert_eq!(c.message_bits(), 800, "{name}: the body's 100 octets");
        // Server: 46 + 25 + 38 + 44 + 50 + 35 + 44; client: 27 + 35 + 37 + 6 + 100 + 6.
        assert_eq!(c.octets(), [211, 282], "{name}: octets per direction, client → server first");
    }
}

#[test]
fn test_custom_message_bits_count_only_the_steps_marked_message() {
    let c = custom(vec![step(Side::Client, &[10, 5], &[], true), step(Side::Server, &[7], &[0], false), step(Side::Client, &[2], &[1], true)], 1);
    assert_eq!(c.message_bits(), 8 * (10 + 5 + 2));
    assert_eq!(c.octets(), [17, 7]);
}

/// Two steps of one direction released by the same delivery take consecutive SDU ids,
/// and a step waiting for both is released only when every write of each is delivered,
/// in whatever order they arrive.
#[test]
fn test_steps_released_together_take_consecutive_ids_and_complete_independently() {
    let c = custom(
        vec![step(Side::Server, &[3], &[], false), step(Side::Client, &[4, 5], &[0], false), step(Side::Client, &[6], &[0], false), step(Side::Server, &[1], &[1, 2], false)],
        1,
    );
    let mut d = Dialogue::new(&c);
    assert_eq!(d.start([10, 20]), vec![(1, 24)]);
    d.transmitted(t(1.0));
    let p = d.delivered(1, 20, t(2.0), [10, 21]);
    assert_eq!(p.writes, vec![(0, 32), (0, 40), (0, 48)], "steps 1 and 2 both wait only for step 0");
    // Step 2's single write is SDU 12 (after step 1's 10 and 11).
    assert_eq!(d.delivered(0, 12, t(3.0), [13, 21]), Progress::default(), "step 3 still waits for step 1");
    assert_eq!(d.delivered(0, 10, t(3.5), [13, 21]), Progress::default());
    let p = d.delivered(0, 11, t(4.0), [13, 21]);
    assert_eq!(p, Progress { writes: vec![(1, 8)], server_closes: true, ..Progress::default() }, "step 1 complete: step 3 (the server's last) goes");
    let p = d.delivered(1, 21, t(6.0), [13, 22]);
    assert_eq!(p, Progress { session_ended: true, done: true, ..Progress::default() });
    assert_eq!(d.measures()[0], ("session_latency_s", 5.0));
}

/// A delivery the dialogue did not issue, or one for a step already complete, changes
/// nothing.
#[test]
fn test_a_delivery_not_issued_or_already_counted_changes_nothing() {
    let c = custom(vec![step(Side::Server, &[3, 3], &[], false), step(Side::Client, &[4], &[0], false)], 1);
    let mut d = Dialogue::new(&c);
    d.start([0, 0]);
    assert_eq!(d.delivered(0, 0, t(1.0), [0, 2]), Progress::default(), "no client SDU was issued");
    assert_eq!(d.delivered(1, 0, t(1.0), [0, 2]), Progress::default(), "step 0 still lacks SDU 1");
    let p = d.delivered(1, 1, t(2.0), [0, 2]);
    assert_eq!(p.writes, vec![(0, 32)]);
    // Deliveries are counted per step (the transport delivers each SDU once), so a
    // step already complete takes no more.
    for id in [1, 0] {
        assert_eq!(d.delivered(1, id, t(2.5), [1, 2]), Progress::default(), "SDU {id} of the completed step 0");
    }
    assert_eq!(d.delivered(0, 0, t(3.0), [1, 2]), Progress { session_ended: true, done: true, ..Progress::default() }, "step 1 completes the session");
}

/// Runs one session of a two-step script (server 1 octet, then client 1 octet) from
/// `from` to `to` seconds; returns the delivery's progress.
fn session(d: &mut Dialogue, n: u64, from: f64, to: f64) -> Progress {
    d.transmitted(t(from));
    d.delivered(1, n, t((from + to) / 2.0), [n, n + 1]);
    d.delivered(0, n, t(to), [n + 1, n + 1])
}

fn two_steps(sessions: u64, until: Option<f64>) -> Dialogue {
    let mut c = custom(vec![step(Side::Server, &[1], &[], false), step(Side::Client, &[1], &[0], true)], sessions);
    c.start_until_s = until;
    let mut d = Dialogue::new(&c);
    d.start([0, 0]);
    d
}

/// `sessions` sessions run back to back, the run ends after the last; the latency is
/// the mean over the sessions completed in the window.
#[test]
fn test_sessions_run_back_to_back_and_the_run_ends_after_the_last() {
    let mut d = two_steps(3, None);
    let p = session(&mut d, 0, 0.0, 4.0);
    assert_eq!(p, Progress { writes: vec![(1, 8)], session_ended: true, done: false, server_closes: true }, "the server's only step is its last");
    assert!(!session(&mut d, 1, 4.0, 6.0).done, "two of three sessions");
    let p = session(&mut d, 2, 6.0, 9.0);
    assert_eq!(p, Progress { session_ended: true, done: true, ..Progress::default() }, "the third session is the last");
    assert_eq!(&d.measures()[..3], &[("session_latency_s", 3.0), ("message_throughput_bps", 8.0 / 3.0), ("sessions_completed", 3.0)]);
    assert_eq!(d.measures()[3], ("sessions_censored", 0.0));
}

/// "No session starts at or after `start_until_s`": a session ending exactly then is
/// the last; one ending just before starts the next.
#[test]
fn test_start_until_no_session_starts_at_the_limit() {
    let mut d = two_steps(100, Some(4.0));
    assert!(session(&mut d, 0, 0.0, 4.0).done, "ended at exactly start_until_s");
    let mut d = two_steps(100, Some(4.0));
    let p = session(&mut d, 0, 0.0, 3.999);
    assert!(p.session_ended && !p.done && p.writes == vec![(1, 8)], "ended before the limit: the next starts");
}

/// `open` starts the measurement window: sessions completed before it are not counted.
#[test]
fn test_window_opening_forgets_the_sessions_completed_before_it() {
    let mut d = two_steps(3, None);
    session(&mut d, 0, 0.0, 4.0);
    d.open();
    let m = d.measures();
    assert!(m[0].1.is_nan() && m[1].1.is_nan(), "no session completed in the window: {m:?}");
    assert_eq!(m[2], ("sessions_completed", 0.0));
    assert_eq!(m[3], ("sessions_censored", 1.0), "the second session is in progress");
    session(&mut d, 1, 4.0, 5.0);
    assert_eq!(&d.measures()[..3], &[("session_latency_s", 1.0), ("message_throughput_bps", 8.0), ("sessions_completed", 1.0)]);
}

#[test]
fn test_a_dialogue_not_started_is_not_censored() {
    let c = custom(vec![step(Side::Server, &[1], &[], false)], 1);
    let d = Dialogue::new(&c);
    assert_eq!(d.measures()[3], ("sessions_censored", 0.0));
}

#[test]
fn test_builtin_script_keys_and_their_defaults() {
    let (c, problems) = parse(json!({ "script": "smtp" }));
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!((c.message_octets, c.message_writes, c.sessions, c.start_until_s), (Some(MESSAGE_OCTETS), Some(1), 1, None));
    assert_eq!(c.steps(), smtp(MESSAGE_OCTETS, 1));
    let (_, problems) = parse(json!({ "script": "hmtp", "step": [{ "from": "client", "octets": 3 }] }));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("step = [") && problems[0].ends_with("]: not allowed with script = \"hmtp\" (built in); use script = \"custom\""), "{problems:?}");
    let (_, problems) = parse(json!({ "script": "custom", "message_octets": 5, "step": [{ "from": "client", "octets": 3 }] }));
    assert_eq!(problems, vec!["message_octets = 5: only allowed with script = \"smtp\" or \"hmtp\""]);
}

#[test]
fn test_custom_steps_read_lines_octets_with_writes_and_writes_octets() {
    let (c, problems) = parse(json!({ "script": "custom", "step": [
        { "from": "server", "lines": ["220 hi"] },
        { "from": "client", "octets": 10, "writes": 3, "message": true },
        { "from": "client", "writes_octets": [4, 5], "after": [0, 1] },
    ] }));
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(
        c.step,
        vec![step(Side::Server, &[8], &[], false), step(Side::Client, &[4, 3, 3], &[0], true), step(Side::Client, &[4, 5], &[0, 1], false)],
        "a line is its characters + CRLF; a step waits for the previous one unless `after` says otherwise"
    );
}

#[test]
fn test_custom_step_errors_name_the_field_the_value_and_what_was_expected() {
    let (_, problems) = parse(json!({ "script": "custom", "step": [
        { "from": "server", "lines": ["220 hi"], "octets": 3 },
        { "from": "client", "lines": ["HELO"], "writes": 2 },
        { "from": "client", "writes_octets": [0, 3], "after": [0, 2] },
    ] }));
    assert_eq!(
        problems,
        vec![
            "step[0]: expected exactly one of lines, octets (with writes) or writes_octets (got lines, octets)",
            "step[0].octets = 3: unknown key",
            "step[1].writes = 2: only allowed with octets",
            "step[2].writes_octets[0] = 0: expected a whole number from 1",
            "step[2].after = 2: expected indices of earlier steps (0 to 1)",
        ]
    );
    let (_, problems) = parse(json!({ "script": "custom", "step": [{ "from": "client" }] }));
    assert_eq!(problems, vec!["step[0]: expected exactly one of lines, octets (with writes) or writes_octets (got none)"]);
}

/// `split`: `octets` in `writes` writes differing by at most one octet, the longer ones
/// first, at the boundaries (no remainder, one write, one octet per write).
#[test]
fn test_split_gives_equal_writes_the_first_ones_one_octet_longer() {
    assert_eq!(split(6, 3), vec![2, 2, 2], "no remainder: all equal");
    assert_eq!(split(7, 3), vec![3, 2, 2]);
    assert_eq!(split(8, 3), vec![3, 3, 2]);
    assert_eq!(split(5, 1), vec![5]);
    assert_eq!(split(4, 4), vec![1, 1, 1, 1]);
}

/// A custom script needs at least one `[[step]]`.
#[test]
fn test_custom_script_without_steps_is_reported() {
    let (c, problems) = parse(json!({ "script": "custom" }));
    assert_eq!(problems, vec!["step: expected at least one [[...step]] table (from, lines or octets, after, message), or script = \"smtp\" / \"hmtp\""]);
    assert!(c.step.is_empty());
}

/// A step's `from` is "client" or "server"; any other string is named with what was
/// expected, and a missing `from` is reported once (as missing).
#[test]
fn test_step_from_is_client_or_server_each_error_reported_once() {
    let (c, problems) = parse(json!({ "script": "custom", "step": [{ "from": "peer", "octets": 1 }, { "octets": 2 }, { "from": "server", "octets": 3 }] }));
    assert_eq!(
        problems,
        vec!["step[0].from = \"peer\": expected \"client\" (the flow's from node) or \"server\" (its to node)", "step[1].from: missing (expected a string)"]
    );
    assert_eq!(c.step.iter().map(|s| s.from).collect::<Vec<_>>(), vec![Side::Client, Side::Client, Side::Server]);
}

/// Empty `lines` or `writes_octets` lists are reported: a step sends at least one write.
#[test]
fn test_step_with_no_write_is_reported() {
    let (_, problems) = parse(json!({ "script": "custom", "step": [{ "from": "client", "lines": [] }, { "from": "server", "writes_octets": [] }] }));
    assert_eq!(
        problems,
        vec![
            "step[0].lines: expected a non-empty list of lines (each sent as its characters + CRLF)",
            "step[1].writes_octets: expected a non-empty list of octet counts",
        ]
    );
}

/// `writes_octets` and `after` are lists of whole numbers: anything else is reported
/// with the value, each bad entry with its index.
#[test]
fn test_step_integer_lists_must_be_lists_of_whole_numbers() {
    let (c, problems) = parse(json!({ "script": "custom", "step": [{ "from": "client", "writes_octets": 5 }, { "from": "server", "octets": 1, "after": [-1, 0] }] }));
    assert_eq!(
        problems,
        vec![
            "step[0].writes_octets = 5: expected a list of whole numbers",
            "step[0].writes_octets: expected a non-empty list of octet counts",
            "step[1].after[0] = -1: expected a whole number from 0",
        ]
    );
    assert_eq!(c.step[1].after, vec![0], "the good entries are kept");
}

/// A step may wait only for earlier steps: `after` naming the step itself is an error.
#[test]
fn test_step_after_itself_is_reported() {
    let (_, problems) = parse(json!({ "script": "custom", "step": [{ "from": "client", "octets": 1 }, { "from": "server", "octets": 1, "after": [1] }] }));
    assert_eq!(problems, vec!["step[1].after = 1: expected indices of earlier steps (0 to 0)"]);
    let (c, problems) = parse(json!({ "script": "custom", "step": [{ "from": "client", "octets": 1 }, { "from": "server", "octets": 1, "after": [0] }, { "from": "client", "octets": 1, "after": [] }] }));
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!(c.step.iter().map(|s| s.after.clone()).collect::<Vec<_>>(), vec![vec![], vec![0], vec![]], "an empty `after`: released at the start");
}

/// `writes` (with `octets`) and the built-ins' `message_writes` are at most the octets
/// they split: one octet per write at the limit, an error beyond it.
#[test]
fn test_writes_are_at_most_the_octets_they_split() {
    let (c, problems) = parse(json!({ "script": "custom", "step": [{ "from": "client", "octets": 3, "writes": 3 }] }));
    assert_eq!((c.step[0].writes_octets.clone(), problems), (vec![1, 1, 1], Vec::<String>::new()));
    let (_, problems) = parse(json!({ "script": "custom", "step": [{ "from": "client", "octets": 3, "writes": 4 }] }));
    assert_eq!(problems, vec!["step[0].writes = 4: expected a whole number in [1, 3]"]);
    let (c, problems) = parse(json!({ "script": "hmtp", "message_octets": 3, "message_writes": 3, "sessions": 2, "start_until_s": 60 }));
    assert_eq!(problems, Vec::<String>::new());
    assert_eq!((c.message_octets, c.message_writes, c.sessions, c.start_until_s), (Some(3), Some(3), 2, Some(60.0)));
    assert_eq!(c.message_bits(), 24);
    let (_, problems) = parse(json!({ "script": "smtp", "message_octets": 3, "message_writes": 4 }));
    assert_eq!(problems, vec!["message_writes = 4: expected a whole number in [1, 3]"]);
}

/// A delivery of an SDU id below the first one the dialogue issued in its direction is
/// not the dialogue's.
#[test]
fn test_a_delivery_below_the_first_id_issued_changes_nothing() {
    let c = custom(vec![step(Side::Server, &[1], &[], false), step(Side::Client, &[1], &[0], false)], 1);
    let mut d = Dialogue::new(&c);
    assert_eq!(d.start([5, 7]), vec![(1, 8)]);
    assert_eq!(d.delivered(1, 6, t(1.0), [5, 8]), Progress::default(), "SDU 6 is not the dialogue's (its step 0 is 7)");
    assert_eq!(d.delivered(1, 7, t(1.0), [5, 8]).writes, vec![(0, 8)]);
}
