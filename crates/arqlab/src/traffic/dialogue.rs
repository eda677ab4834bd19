//! The dialogue workload: a scripted exchange between the two ends of a flow (the
//! *client*, the flow's `from` node, and the *server*, its `to` node). A script is a
//! list of steps; each step is sent by one side as one or more application writes
//! (SDUs) and is released when the steps it waits for (by default the previous one)
//! have been completely delivered to their receivers. The session ends when every
//! step is delivered; `sessions` sessions run back to back, each on its own transport
//! connection (the server closes after its last step — SMTP's "221 … closing
//! connection" —, the client closes when the session ends and opens the next
//! connection; over TCP with connection set-up: FIN, then a new SYN), and the run ends
//! after the last (a terminating run). With
//! `start_until_s`, no session starts at or after that time: the run ends when the
//! session in progress then has completed (Johnson's runs of "at least an hour" whose
//! every session is averaged), or at `run.duration_s`, a cap.
//!
//! Built-in scripts from Johnson (the e-mail session of the HF ARQ study): `smtp`,
//! the SMTP dialogue exactly as the paper lists it, one step per line (each line a
//! write of its characters + CRLF) and the message body as one step; `hmtp`, the same
//! octets in three steps: the 220 greeting, then every client line and the body as one
//! batch (one write by default), then every remaining server reply as one write. See
//! `docs/models/dialogue.md`.
//!
//! Measures (added to the scope of the client → server flow): `session_latency_s`,
//! from the session's first transmission (the first SYN with TCP connection set-up) to
//! the delivery of its last step, averaged over the sessions completed in the window;
//! `message_throughput_bps` = message bits / that mean; `sessions_completed`;
//! `sessions_censored`, 1 if a session was still in progress when the window closed
//! (its latency is in no mean: with back-to-back sessions and a fixed run length this
//! leaves out the session the end of the run cuts, the longer ones more often).

use crate::engine::SimTime;
use crate::schema::{Problems, Range, Table};
use serde::Serialize;
use serde_json::Value;

/// Which end of the flow sends a step.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Client,
    Server,
}

impl Side {
    /// The direction index: 0 client → server, 1 server → client.
    pub fn dir(self) -> usize {
        match self {
            Side::Client => 0,
            Side::Server => 1,
        }
    }
}

/// One step of a script.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Step {
    pub from: Side,
    /// Octets of each application write, in order.
    pub writes_octets: Vec<u32>,
    /// The steps (0-based) whose delivery releases this one; empty: released at the
    /// start of the session.
    pub after: Vec<usize>,
    /// Counted in the message bits of `message_throughput_bps`.
    pub message: bool,
}

/// Johnson's SMTP dialogue, as the paper lists it (server replies and client commands,
/// in order); `None` is the message body.
pub const SMTP_LINES: &[(Side, Option<&str>)] = &[
    (Side::Server, Some("220 server.goodguys.gov ESMTP Sendmail ready")),
    (Side::Client, Some("HELO myhost.mycompany.com")),
    (Side::Server, Some("250 server.goodguys.gov")),
    (Side::Client, Some("MAIL From: <myname@mycompany.com>")),
    (Side::Server, Some("250 <myname@mycompany.com> Sender ok")),
    (Side::Client, Some("RCPT To:< recipient@somewhere.mil >")),
    (Side::Server, Some("250 <recipient@somewhere.mil> Recipient ok")),
    (Side::Client, Some("DATA")),
    (Side::Server, Some("354 Enter mail, end with \".\" on a line by itself")),
    (Side::Client, None),
    (Side::Server, Some("250 Message accepted for delivery")),
    (Side::Client, Some("QUIT")),
    (Side::Server, Some("221 server.goodguys.gov closing connection")),
];

/// The paper's message body, octets.
pub const MESSAGE_OCTETS: u32 = 5000;

/// Octets of a line as written: its characters and CRLF.
pub fn line_octets(line: &str) -> u32 {
    line.len() as u32 + 2
}

/// The writes of Johnson's dialogue with a body of `body` octets in `body_writes`
/// writes: (side, octets, is the body).
fn smtp_writes(body: u32, body_writes: u32) -> Vec<(Side, Vec<u32>, bool)> {
    SMTP_LINES
        .iter()
        .map(|&(side, line)| match line {
            Some(l) => (side, vec![line_octets(l)], false),
            None => (side, split(body, body_writes), true),
        })
        .collect()
}

/// `octets` in `writes` writes as equal as can be (the first ones one octet longer).
pub fn split(octets: u32, writes: u32) -> Vec<u32> {
    let (q, r) = (octets / writes, octets % writes);
    (0..writes).map(|i| q + u32::from(i < r)).collect()
}

/// The SMTP script: one step per line, each released by the previous one.
pub fn smtp(body: u32, body_writes: u32) -> Vec<Step> {
    smtp_writes(body, body_writes)
        .into_iter()
        .enumerate()
        .map(|(i, (from, writes_octets, message))| Step { from, writes_octets, after: if i == 0 { vec![] } else { vec![i - 1] }, message })
        .collect()
}

/// The HMTP script: the greeting, then every client line and the body as one batch
/// ("all of the client messages are sent in one transmission following the 220
/// message"), then every remaining server reply as one write ("a single final
/// transmission"). The client batch is `batch_writes` writes of equal size (1: one
/// write, so the ARQ segments the batch as a whole and no line ends in a half-empty
/// packet). (The message bits are the body's, see [`DialogueConfig::message_bits`].)
pub fn hmtp(body: u32, batch_writes: u32) -> Vec<Step> {
    let w = smtp_writes(body, 1);
    let (greeting, rest) = w.split_first().expect("the script starts with the greeting");
    let octets = |side: Side| rest.iter().filter(|x| x.0 == side).flat_map(|x| x.1.iter()).sum::<u32>();
    let client = octets(Side::Client);
    vec![
        Step { from: greeting.0, writes_octets: greeting.1.clone(), after: vec![], message: false },
        Step { from: Side::Client, writes_octets: split(client, batch_writes.min(client)), after: vec![0], message: false },
        Step { from: Side::Server, writes_octets: vec![octets(Side::Server)], after: vec![1], message: false },
    ]
}

/// Scenario keys of a `kind = "dialogue"` traffic table.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DialogueConfig {
    /// "smtp", "hmtp" (built in, Johnson's lines) or "custom" (`step` tables).
    pub script: String,
    /// Sessions run back to back.
    pub sessions: u64,
    /// No session starts at or after this time (s); the run ends when the last one
    /// started has completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_until_s: Option<f64>,
    /// Built-in scripts: octets of the message body and the writes it is sent as.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_octets: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_writes: Option<u32>,
    /// Custom scripts: the steps, in the resolved form (octets of each write).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub step: Vec<Step>,
}

const SCRIPTS: &[&str] = &["custom", "smtp", "hmtp"];

impl DialogueConfig {
    /// The steps of the script.
    pub fn steps(&self) -> Vec<Step> {
        let (body, writes) = (self.message_octets.unwrap_or(MESSAGE_OCTETS), self.message_writes.unwrap_or(1));
        match self.script.as_str() {
            "smtp" => smtp(body, writes),
            "hmtp" => hmtp(body, writes),
            _ => self.step.clone(),
        }
    }

    /// The message bits of a session: the body of a built-in script, the steps marked
    /// `message` of a custom one.
    pub fn message_bits(&self) -> u64 {
        match self.script.as_str() {
            "smtp" | "hmtp" => 8 * u64::from(self.message_octets.unwrap_or(MESSAGE_OCTETS)),
            _ => self.step.iter().filter(|s| s.message).flat_map(|s| s.writes_octets.iter()).map(|&o| 8 * u64::from(o)).sum(),
        }
    }

    /// Octets the script sends per session, per direction (client → server first).
    pub fn octets(&self) -> [u64; 2] {
        let mut o = [0; 2];
        for s in self.steps() {
            o[s.from.dir()] += s.writes_octets.iter().map(|&x| u64::from(x)).sum::<u64>();
        }
        o
    }

    /// Reads the dialogue keys of a traffic table whose kind is "dialogue".
    pub fn parse(t: &mut Table, p: &mut Problems) -> DialogueConfig {
        let script = t.choice("script", "custom", SCRIPTS, p);
        let sessions = t.u64("sessions", 1, 1, 1_000_000, p);
        let start_until_s = t.opt_f64("start_until_s", Range::Positive, p);
        let builtin = script != "custom";
        let (mut message_octets, mut message_writes) = (None, None);
        if builtin {
            let o = t.u64("message_octets", u64::from(MESSAGE_OCTETS), 1, 100_000_000, p) as u32;
            message_octets = Some(o);
            message_writes = Some(t.u64("message_writes", 1, 1, u64::from(o), p) as u32);
            if t.has("step") {
                let v = t.raw("step").cloned();
                p.push(t.path_of("step"), v.as_ref(), format!("not allowed with script = \"{script}\" (built in); use script = \"custom\""));
            }
            return DialogueConfig { script, sessions, start_until_s, message_octets, message_writes, step: vec![] };
        }
        for key in ["message_octets", "message_writes"] {
            if t.has(key) {
                let v = t.raw(key).cloned();
                p.push(t.path_of(key), v.as_ref(), "only allowed with script = \"smtp\" or \"hmtp\"");
            }
        }
        let mut steps = vec![];
        let tables = t.tables("step", p);
        if tables.is_empty() {
            p.push(t.path_of("step"), None, "expected at least one [[...step]] table (from, lines or octets, after, message), or script = \"smtp\" / \"hmtp\"");
        }
        for (i, mut s) in tables.into_iter().enumerate() {
            steps.push(parse_step(&mut s, i, p));
            s.finish(p);
        }
        DialogueConfig { script, sessions, start_until_s, message_octets, message_writes, step: steps }
    }
}

fn parse_step(s: &mut Table, i: usize, p: &mut Problems) -> Step {
    let from = match s.string("from", p).as_str() {
        "client" => Side::Client,
        "server" => Side::Server,
        "" => Side::Client,
        other => {
            p.push(s.path_of("from"), Some(&other.into()), "expected \"client\" (the flow's from node) or \"server\" (its to node)");
            Side::Client
        }
    };
    let given: Vec<&str> = ["lines", "octets", "writes_octets"].into_iter().filter(|k| s.has(k)).collect();
    if given.len() != 1 {
        p.push(s.path(), None, format!("expected exactly one of lines, octets (with writes) or writes_octets (got {})", if given.is_empty() { "none".into() } else { given.join(", ") }));
    }
    let mut writes_octets = vec![];
    if s.has("lines") {
        let lines = s.strings("lines", p);
        if lines.is_empty() {
            p.push(s.path_of("lines"), None, "expected a non-empty list of lines (each sent as its characters + CRLF)");
        }
        writes_octets = lines.iter().map(|l| line_octets(l)).collect();
    } else if s.has("octets") {
        let o = s.u64("octets", 1, 1, 100_000_000, p) as u32;
        let w = s.u64("writes", 1, 1, u64::from(o), p) as u32;
        writes_octets = split(o, w.min(o));
    } else if s.has("writes_octets") {
        writes_octets = integers(s, "writes_octets", 1, 100_000_000, p).into_iter().map(|x| x as u32).collect();
        if writes_octets.is_empty() {
            p.push(s.path_of("writes_octets"), None, "expected a non-empty list of octet counts");
        }
    }
    if s.has("writes") && !s.has("octets") {
        let v = s.raw("writes").cloned();
        p.push(s.path_of("writes"), v.as_ref(), "only allowed with octets");
    }
    let after = if s.has("after") {
        let a: Vec<usize> = integers(s, "after", 0, u64::MAX, p).into_iter().map(|x| x as usize).collect();
        if let Some(&bad) = a.iter().find(|&&x| x >= i) {
            p.push(s.path_of("after"), Some(&(bad as u64).into()), format!("expected indices of earlier steps (0 to {})", i as i64 - 1));
        }
        a
    } else if i == 0 {
        vec![]
    } else {
        vec![i - 1]
    };
    let message = s.bool("message", false, p);
    Step { from, writes_octets, after, message }
}

/// A list of whole numbers in [lo, hi]; each bad entry reported with its index.
fn integers(t: &mut Table, key: &str, lo: u64, hi: u64, p: &mut Problems) -> Vec<u64> {
    let path = t.path_of(key);
    match t.raw(key) {
        Some(Value::Array(xs)) => xs
            .iter()
            .enumerate()
            .filter_map(|(i, x)| match x.as_u64() {
                Some(v) if (lo..=hi).contains(&v) => Some(v),
                _ => {
                    p.push(format!("{path}[{i}]"), Some(x), format!("expected a whole number from {lo}"));
                    None
                }
            })
            .collect(),
        Some(v) => {
            p.push(path, Some(v), "expected a list of whole numbers");
            vec![]
        }
        None => vec![],
    }
}

/// A dialogue being run: which steps are out, how much of each has been delivered,
/// and the sessions' latencies.
#[derive(Clone, Debug)]
pub struct Dialogue {
    steps: Vec<Step>,
    sessions_left: u64,
    /// No session starts at or after this time.
    start_until: Option<SimTime>,
    /// Per step: writes not yet delivered in this session (`None`: not released).
    pending: Vec<Option<usize>>,
    /// Per direction: (first SDU id, step) of every released step, in id order.
    issued: [Vec<(u64, usize)>; 2],
    /// Start of the current session (its first transmission), once known.
    started: Option<SimTime>,
    message_bits: u64,
    /// Latencies of the sessions completed in the window: sum and count.
    window_sum: f64,
    window_n: u64,
    /// The server's last step (after it the server closes its connection).
    last_server_step: Option<usize>,
}

/// One SDU to submit: its direction and length in bits.
pub type Write = (usize, u32);

/// What a delivery did to the dialogue.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// Writes released now (of this session, or the first of the next one).
    pub writes: Vec<Write>,
    /// A session ended: the client closes its connection, and opens the next one
    /// (before the next session's writes) unless `done`.
    pub session_ended: bool,
    /// The last session ended: the run may end.
    pub done: bool,
    /// The server's last step of the session is among `writes`: it closes its
    /// connection after them.
    pub server_closes: bool,
}

impl Dialogue {
    pub fn new(cfg: &DialogueConfig) -> Dialogue {
        let steps = cfg.steps();
        let message_bits = cfg.message_bits();
        let start_until = cfg.start_until_s.map(SimTime::from_secs_f64);
        let last_server_step = steps.iter().rposition(|s| s.from == Side::Server);
        Dialogue { pending: vec![None; steps.len()], steps, sessions_left: cfg.sessions, start_until, issued: [vec![], vec![]], started: None, message_bits, window_sum: 0.0, window_n: 0, last_server_step }
    }

    /// The first session's writes, released at the start of the run (`next_id`: the
    /// next SDU id of each direction).
    pub fn start(&mut self, next_id: [u64; 2]) -> Vec<Write> {
        self.release(next_id).writes
    }

    /// Steps whose predecessors are all delivered, released now.
    fn release(&mut self, mut next_id: [u64; 2]) -> Progress {
        let mut out = Progress::default();
        for i in 0..self.steps.len() {
            let ready = self.pending[i].is_none() && self.steps[i].after.iter().all(|&j| self.pending[j] == Some(0));
            if ready {
                let s = &self.steps[i];
                let d = s.from.dir();
                self.pending[i] = Some(s.writes_octets.len());
                self.issued[d].push((next_id[d], i));
                next_id[d] += s.writes_octets.len() as u64;
                out.writes.extend(s.writes_octets.iter().map(|&o| (d, 8 * o)));
                out.server_closes |= Some(i) == self.last_server_step;
            }
        }
        out
    }

    /// A frame of the dialogue's ends started at `now`: the first one starts the session.
    #[inline]
    pub fn transmitted(&mut self, now: SimTime) {
        if self.started.is_none() {
            self.started = Some(now);
        }
    }

    /// SDU `id` of direction `dir` was delivered at `now`: the writes it releases and
    /// the connection events it brings.
    pub fn delivered(&mut self, dir: usize, id: u64, now: SimTime, next_id: [u64; 2]) -> Progress {
        let k = self.issued[dir].partition_point(|&(first, _)| first <= id);
        let Some(&(_, step)) = k.checked_sub(1).and_then(|k| self.issued[dir].get(k)) else { return Progress::default() };
        match self.pending[step].as_mut() {
            Some(n) if *n > 0 => *n -= 1,
            _ => return Progress::default(),
        }
        if self.pending[step] != Some(0) {
            return Progress::default();
        }
        if self.pending.iter().all(|&x| x == Some(0)) {
            let start = self.started.unwrap_or(now);
            self.window_sum += (now - start).as_secs_f64();
            self.window_n += 1;
            self.sessions_left -= 1;
            if self.sessions_left == 0 || self.start_until.is_some_and(|t| now >= t) {
                return Progress { session_ended: true, done: true, ..Progress::default() };
            }
            // The next session starts now, on a new connection.
            self.pending.iter_mut().for_each(|x| *x = None);
            self.started = Some(now);
            return Progress { session_ended: true, ..self.release(next_id) };
        }
        self.release(next_id)
    }

    /// A measurement window opens: sessions completed before it are not counted.
    pub fn open(&mut self) {
        self.window_sum = 0.0;
        self.window_n = 0;
    }

    /// The window's measures.
    pub fn measures(&self) -> [(&'static str, f64); 4] {
        let mean = if self.window_n > 0 { self.window_sum / self.window_n as f64 } else { f64::NAN };
        let in_progress = self.pending.iter().any(Option::is_some) && !self.pending.iter().all(|&x| x == Some(0));
        [
            ("session_latency_s", mean),
            ("message_throughput_bps", self.message_bits as f64 / mean),
            ("sessions_completed", self.window_n as f64),
            ("sessions_censored", f64::from(u8::from(in_progress))),
        ]
    }
}

/// Names of the measures a dialogue adds to its flow's scope.
pub const DIALOGUE_MEASURES: &[&str] = &["session_latency_s", "message_throughput_bps", "sessions_completed", "sessions_censored"];

#[cfg(test)]
#[path = "dialogue_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "dialogue_rule_tests.rs"]
mod rule_tests;
