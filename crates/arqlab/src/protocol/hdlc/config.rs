//! Scenario keys of the HDLC model (`[protocol] kind = "hdlc"`).
//!
//! Every strategy the paper leaves open is a named key whose default is the paper's
//! choice (Bux, Kümmerle & Truong 1982, Appendix A1/A2, Section 3.1.3). Mode-specific keys
//! are `Option`s that are present only in their mode, so the resolved configuration
//! serializes back to a table that parses to itself.

use crate::schema::{Problems, Range, Table};
use serde::Serialize;

/// HDLC operational mode. In NRM and ARM station A is the primary, B the secondary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Normal Response Mode: the secondary transmits only after a P bit.
    Nrm,
    /// Asynchronous Balanced Mode: two combined stations.
    Abm,
    /// Asynchronous Response Mode: unbalanced, the secondary transmits at will.
    Arm,
}

/// How a receiver reports a sequence error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// One REJ per gap (go-back-N), the paper's procedure.
    Rej,
    /// One SREJ per missing frame; out-of-sequence frames are held for resequencing.
    Srej,
    /// No reject: sequence errors are left to checkpointing and the timer.
    None,
}

/// When a primary (NRM, ARM) or combined station (ABM) sets the P bit, besides timer
/// recovery, which always sends one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Poll {
    /// On the next command whenever no P is outstanding ("poll as often as possible",
    /// the paper's NRM strategy).
    Asap,
    /// Only on a supervisory command when no I frame can be sent (window full or nothing
    /// queued) and no P is outstanding.
    Idle,
    /// Only after the timer expires (the paper's ABM strategy; not allowed in NRM, where
    /// the secondary could never transmit).
    Timeout,
    /// NRM only: whenever no P is outstanding, a short supervisory command (RR, or REJ
    /// when one is due) with P = 1 goes ahead of the I frames, which never carry P. A P
    /// is acted on only once its frame has arrived whole, so a P on a 48-bit frame reaches
    /// the secondary earlier than one riding on a long I frame, and its loss is rarer.
    Supervisory,
}

/// What a primary (ARM) or combined station (ABM) does with new I frames between the
/// expiry of T1 and the F = 1 response to its poll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimerRecovery {
    /// Keeps sending new I frames while the window allows (the paper is silent; the
    /// model's original behaviour).
    Continue,
    /// The LAPB timer-recovery condition (X.25 §2.4.5.9, ISO 7776): no new I frames
    /// until the F = 1 response; retransmissions the station already owes still go.
    Lapb,
}

/// What a primary or combined station does when its timer T1 expires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum T1Action {
    /// Query the peer's status with a supervisory command with P = 1 (ISO 4335 Annex B,
    /// the paper's rule for NRM and ABM); the F = 1 response triggers checkpoint
    /// retransmission.
    Poll,
    /// Go back to V(A) and retransmit, the first frame carrying P = 1 (the LAPB
    /// alternative of X.25 §2.4.5.9).
    GoBack,
}

/// What an ARM secondary does when its timer expires.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SecondaryT1Action {
    /// Retransmit only the unacknowledged I frame with the least N(S) (Appendix A2).
    Oldest,
    /// Go back to V(A) and retransmit every unacknowledged I frame.
    GoBack,
}

/// Parameters of the HDLC model. Field names are the scenario keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HdlcConfig {
    pub mode: Mode,
    /// Sequence-number modulus M: 8 (basic) or 128 (extended control field).
    pub modulus: u32,
    /// Maximum number k of outstanding I frames, 1..=M−1 (1..=M/2 with SREJ).
    pub window: u32,
    /// Non-information bits of an I frame: flags, address, control, FCS.
    pub overhead_bits: u32,
    /// Length of a supervisory frame (RR, RNR, REJ, SREJ) in bits.
    pub s_frame_bits: u32,
    /// Timer T1 in seconds.
    pub t1_s: f64,
    /// Acknowledgement delay T2 in seconds: how long a received I frame may wait for an
    /// outgoing I frame to piggyback its acknowledgement before an RR is sent.
    pub t2_s: f64,
    pub reject: Reject,
    /// Out-of-sequence I frames a station can hold (SREJ only; 0 = unlimited). At the
    /// limit the station is busy and sends RNR.
    pub receive_buffer_frames: u32,
    pub poll: Poll,
    pub t1_action: T1Action,
    /// NRM only: the primary sends no acknowledgement-only frames (and defers REJ) while
    /// its send window is full (Section 3.1.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub withhold_ack_at_window: Option<bool>,
    /// ARM only: the secondary's action on timer expiry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary_t1_action: Option<SecondaryT1Action>,
    /// ABM and ARM only: new I frames during timer recovery.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer_recovery: Option<TimerRecovery>,
}

/// T1 default. The paper gives no value; it calls timer recovery a "relatively short
/// delay" next to NRM's wait until M−1 frames are outstanding. T1 must exceed the longest I frame (10⁴ bits: 0.21 s at 48 kbit/s) + 2 t_p (0.1 s) +
/// an RR + a peer I frame delaying the acknowledgement (0.21 s) ≈ 0.52 s; 1 s is about
/// twice that, in line with public networks' 0.5–1 s (docs/references.md#hdlc-and-lapb).
pub const DEFAULT_T1_S: f64 = 1.0;

impl HdlcConfig {
    /// The defaults of `mode` with modulus `modulus` (8 or 128), as an empty `[protocol]`
    /// table with these two keys would resolve.
    pub fn defaults(mode: Mode, modulus: u32) -> HdlcConfig {
        let overhead_bits = if modulus == 128 { 56 } else { 48 };
        HdlcConfig {
            mode,
            modulus,
            window: modulus.max(2) - 1,
            overhead_bits,
            s_frame_bits: overhead_bits,
            t1_s: DEFAULT_T1_S,
            t2_s: 0.0,
            reject: Reject::Rej,
            receive_buffer_frames: 0,
            poll: if mode == Mode::Nrm {
                Poll::Asap
            } else {
                Poll::Timeout
            },
            t1_action: T1Action::Poll,
            withhold_ack_at_window: (mode == Mode::Nrm).then_some(true),
            secondary_t1_action: (mode == Mode::Arm).then_some(SecondaryT1Action::Oldest),
            timer_recovery: (mode != Mode::Nrm).then_some(TimerRecovery::Continue),
        }
    }
}

/// Reads the HDLC keys of the `[protocol]` table (`kind` is read by the caller, unknown
/// keys are reported by the caller's `finish`).
pub fn parse(t: &mut Table, p: &mut Problems) -> HdlcConfig {
    let mode = match t.choice("mode", "abm", &["nrm", "abm", "arm"], p).as_str() {
        "nrm" => Mode::Nrm,
        "arm" => Mode::Arm,
        _ => Mode::Abm,
    };
    let modulus = match t.raw("modulus") {
        None => 8,
        Some(v) => match v.as_u64() {
            Some(m @ (8 | 128)) => m as u32,
            _ => {
                p.push(t.path_of("modulus"), Some(v), "expected 8 or 128");
                8
            }
        },
    };
    let d = HdlcConfig::defaults(mode, modulus);

    let reject = match t
        .choice("reject", "rej", &["rej", "srej", "none"], p)
        .as_str()
    {
        "srej" => Reject::Srej,
        "none" => Reject::None,
        _ => Reject::Rej,
    };
    // Go-back-N needs k ≤ M−1; a resequencing (SREJ) receiver needs k ≤ M/2 to tell a
    // new frame from an old duplicate.
    let (limit, why) = if reject == Reject::Srej {
        (modulus / 2, "modulus/2 with reject = \"srej\"")
    } else {
        (modulus - 1, "modulus - 1")
    };
    let window = t.u64("window", limit as u64, 1, u64::MAX, p);
    let window = if window > limit as u64 {
        p.push(
            t.path_of("window"),
            Some(&window.into()),
            format!("expected a window in [1, {limit}] ({why} for modulus {modulus})"),
        );
        limit
    } else {
        window as u32
    };
    let overhead_bits = t.u64("overhead_bits", d.overhead_bits as u64, 1, 1 << 20, p) as u32;
    let s_frame_bits = t.u64("s_frame_bits", overhead_bits as u64, 1, 1 << 20, p) as u32;
    let t1_s = t.f64("t1_s", DEFAULT_T1_S, Range::Closed(1e-9, 1e6), p);
    let t2_s = t.f64("t2_s", 0.0, Range::Closed(0.0, 1e6), p);
    if t2_s >= t1_s {
        p.push(
            t.path_of("t2_s"),
            Some(&t2_s.into()),
            format!("expected t2_s < t1_s ({t1_s})"),
        );
    }
    let receive_buffer_frames = t.u64("receive_buffer_frames", 0, 0, modulus as u64, p) as u32;
    if receive_buffer_frames > 0 && reject != Reject::Srej {
        p.push(
            t.path_of("receive_buffer_frames"),
            Some(&receive_buffer_frames.into()),
            "only with reject = \"srej\" (an in-sequence receiver delivers at once and holds nothing)",
        );
    }
    let poll = match t
        .choice(
            "poll",
            default_name(d.poll),
            &["asap", "idle", "timeout", "supervisory"],
            p,
        )
        .as_str()
    {
        "asap" => Poll::Asap,
        "idle" => Poll::Idle,
        "supervisory" => Poll::Supervisory,
        _ => Poll::Timeout,
    };
    match (mode, poll) {
        (Mode::Nrm, Poll::Timeout) => p.push(
            t.path_of("poll"),
            Some(&"timeout".into()),
            "expected \"asap\", \"idle\" or \"supervisory\" with mode = \"nrm\" (the secondary transmits only when polled)",
        ),
        (Mode::Abm | Mode::Arm, Poll::Idle | Poll::Supervisory) => p.push(
            t.path_of("poll"),
            Some(&default_name(poll).into()),
            "expected \"timeout\" or \"asap\" with an asynchronous mode",
        ),
        _ => {}
    }
    let t1_action = match t
        .choice("t1_action", "poll", &["poll", "go_back"], p)
        .as_str()
    {
        "go_back" => T1Action::GoBack,
        _ => T1Action::Poll,
    };
    let withhold_ack_at_window = if mode == Mode::Nrm {
        Some(t.bool("withhold_ack_at_window", true, p))
    } else {
        only_in(t, p, "withhold_ack_at_window", "nrm", mode);
        None
    };
    let secondary_t1_action = if mode == Mode::Arm {
        // Without any reject, resending only the oldest frame never recovers the frames
        // the primary discarded after it: each would cost a whole T1, for ever.
        let default = if reject == Reject::None {
            "go_back"
        } else {
            "oldest"
        };
        let action = t.choice("secondary_t1_action", default, &["oldest", "go_back"], p);
        if action == "oldest" && reject == Reject::None {
            p.push(
                t.path_of("secondary_t1_action"),
                Some(&"oldest".into()),
                "expected \"go_back\" with reject = \"none\" (resending only the oldest frame cannot recover the frames discarded after it)",
            );
        }
        Some(if action == "go_back" {
            SecondaryT1Action::GoBack
        } else {
            SecondaryT1Action::Oldest
        })
    } else {
        only_in(t, p, "secondary_t1_action", "arm", mode);
        None
    };
    let timer_recovery = if mode == Mode::Nrm {
        only_in(t, p, "timer_recovery", "abm\" or \"arm", mode);
        None
    } else {
        Some(
            match t
                .choice("timer_recovery", "continue", &["continue", "lapb"], p)
                .as_str()
            {
                "lapb" => TimerRecovery::Lapb,
                _ => TimerRecovery::Continue,
            },
        )
    };
    HdlcConfig {
        mode,
        modulus,
        window,
        overhead_bits,
        s_frame_bits,
        t1_s,
        t2_s,
        reject,
        receive_buffer_frames,
        poll,
        t1_action,
        withhold_ack_at_window,
        secondary_t1_action,
        timer_recovery,
    }
}

fn default_name(poll: Poll) -> &'static str {
    match poll {
        Poll::Asap => "asap",
        Poll::Idle => "idle",
        Poll::Timeout => "timeout",
        Poll::Supervisory => "supervisory",
    }
}

/// Reports a mode-specific key given with another mode (and marks it read).
fn only_in(t: &mut Table, p: &mut Problems, key: &str, wanted: &str, mode: Mode) {
    if let Some(v) = t.raw(key) {
        let have = match mode {
            Mode::Nrm => "nrm",
            Mode::Abm => "abm",
            Mode::Arm => "arm",
        };
        p.push(
            t.path_of(key),
            Some(v),
            format!("only with mode = \"{wanted}\" (mode is \"{have}\")"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn parse_value(v: &Value) -> (HdlcConfig, Vec<String>) {
        let mut p = Problems::default();
        let root = json!({ "protocol": v });
        let mut r = Table::root(&root, &mut p);
        let mut t = r.table("protocol", &mut p);
        let c = parse(&mut t, &mut p);
        t.finish(&mut p);
        (c, p.0.iter().map(|x| x.to_string()).collect())
    }

    #[test]
    fn defaults_follow_the_paper() {
        let (c, problems) = parse_value(&json!({}));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(c, HdlcConfig::defaults(Mode::Abm, 8));
        assert_eq!(
            (c.window, c.overhead_bits, c.s_frame_bits, c.poll),
            (7, 48, 48, Poll::Timeout)
        );
        let (c, _) = parse_value(&json!({"mode": "nrm", "modulus": 128}));
        assert_eq!(
            (c.window, c.overhead_bits, c.poll, c.withhold_ack_at_window),
            (127, 56, Poll::Asap, Some(true))
        );
        let (c, _) = parse_value(&json!({"mode": "arm"}));
        assert_eq!(c.secondary_t1_action, Some(SecondaryT1Action::Oldest));
        let (c, _) = parse_value(&json!({"mode": "arm", "reject": "none"}));
        assert_eq!(c.secondary_t1_action, Some(SecondaryT1Action::GoBack));
        let (_, problems) =
            parse_value(&json!({"mode": "arm", "reject": "none", "secondary_t1_action": "oldest"}));
        assert_eq!(problems.len(), 1);
        let (c, _) = parse_value(&json!({"reject": "srej", "modulus": 128}));
        assert_eq!(c.window, 64);
    }

    #[test]
    fn resolved_config_parses_back_to_itself() {
        for v in [
            json!({"mode": "nrm"}),
            json!({"mode": "arm", "modulus": 128, "reject": "srej", "receive_buffer_frames": 4}),
            json!({"mode": "abm", "poll": "asap", "t1_action": "go_back", "t2_s": 0.1}),
        ] {
            let (c, problems) = parse_value(&v);
            assert!(problems.is_empty(), "{problems:?}");
            let back = serde_json::to_value(&c).unwrap();
            let (c2, problems) = parse_value(&back);
            assert!(problems.is_empty(), "{problems:?}");
            assert_eq!(c, c2);
        }
    }

    #[test]
    fn bad_input_gets_clear_problems() {
        let (_, problems) = parse_value(&json!({
            "mode": "xyz", "modulus": 16, "window": 9, "reject": "maybe", "bogus": 1
        }));
        assert_eq!(
            problems,
            vec![
                "protocol.mode = \"xyz\": expected one of \"nrm\", \"abm\", \"arm\"",
                "protocol.modulus = 16: expected 8 or 128",
                "protocol.reject = \"maybe\": expected one of \"rej\", \"srej\", \"none\"",
                "protocol.window = 9: expected a window in [1, 7] (modulus - 1 for modulus 8)",
                "protocol.bogus = 1: unknown key",
            ]
        );
        let (_, problems) = parse_value(&json!({
            "mode": "abm", "withhold_ack_at_window": false, "secondary_t1_action": "oldest",
            "receive_buffer_frames": 3
        }));
        assert_eq!(
            problems,
            vec![
                "protocol.receive_buffer_frames = 3: only with reject = \"srej\" (an in-sequence receiver delivers at once and holds nothing)",
                "protocol.withhold_ack_at_window = false: only with mode = \"nrm\" (mode is \"abm\")",
                "protocol.secondary_t1_action = \"oldest\": only with mode = \"arm\" (mode is \"abm\")",
            ]
        );
        let (_, problems) =
            parse_value(&json!({"mode": "nrm", "poll": "timeout", "reject": "srej", "window": 5}));
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("protocol.window = 5: expected a window in [1, 4]"));
        assert!(problems[1].starts_with("protocol.poll = \"timeout\""));
    }
}
