//! Outages of a duplex link: windows of time in which the medium carries nothing, in
//! either direction (a line that goes down: carrier lost, a cable cut). During an
//! outage no transmission starts on the medium — a station keeps its frames until the
//! medium is up again — and a frame on the line when the medium goes down (still being
//! sent or propagating) is lost: it arrives in error. An outage without an end lasts to
//! the end of the run. Written on a `[[medium]]` as
//! `outages = [{ from_s = 100.0, to_s = 160.0 }, { from_s = 900.0 }]`.

use crate::engine::SimTime;
use crate::schema::{Problems, Range, Table};
use serde::Serialize;

/// One outage: the medium is down in [`from_s`, `to_s`) (`to_s` absent: for ever).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Outage {
    pub from_s: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_s: Option<f64>,
}

/// Largest time an outage may name (the longest run, `run.duration_s`).
const LATEST_S: f64 = 1.5e7;

/// A medium's `outages`: in increasing order and disjoint; only on a duplex link
/// (`duplex`: the medium is one).
pub fn parse(t: &mut Table, duplex: bool, p: &mut Problems) -> Vec<Outage> {
    if !t.has("outages") {
        return vec![];
    }
    let path = t.path_of("outages");
    let mut out: Vec<Outage> = Vec::new();
    for mut o in t.tables("outages", p) {
        let from_s = o.f64("from_s", 0.0, Range::Closed(0.0, LATEST_S), p);
        let to_s = o.opt_f64("to_s", Range::Closed(0.0, LATEST_S), p);
        if let Some(to) = to_s.filter(|&to| to <= from_s) {
            p.push(o.path_of("to_s"), Some(&to.into()), format!("expected a time after from_s = {from_s}"));
        }
        if let Some(prev) = out.last() {
            match prev.to_s {
                None => p.push(o.path_of("from_s"), Some(&from_s.into()), "expected no outage after one without an end (to_s absent: down for ever)"),
                Some(end) if from_s < end => p.push(o.path_of("from_s"), Some(&from_s.into()), format!("expected a time at or after the previous outage's to_s = {end} (outages in increasing order, disjoint)")),
                _ => {}
            }
        }
        o.finish(p);
        out.push(Outage { from_s, to_s });
    }
    if !out.is_empty() && !duplex {
        p.push(path, None, "expected outages only on a duplex_link medium");
    }
    out
}

/// The outages as picosecond windows [from, to) (`to` = `SimTime(u64::MAX)`: for ever).
pub fn windows(outages: &[Outage]) -> Box<[(SimTime, SimTime)]> {
    outages.iter().map(|o| (SimTime::from_secs_f64(o.from_s), o.to_s.map_or(SimTime(u64::MAX), SimTime::from_secs_f64))).collect()
}

/// Down at `now`: the end of the outage it falls in.
#[inline]
pub fn down_until(windows: &[(SimTime, SimTime)], now: SimTime) -> Option<SimTime> {
    windows.iter().find(|&&(from, to)| from <= now && now < to).map(|&(_, to)| to)
}

/// The first time at or after `t` when the medium is up.
pub fn up_at(windows: &[(SimTime, SimTime)], mut t: SimTime) -> SimTime {
    // Windows are sorted and disjoint (they may touch): one pass.
    for &(from, to) in windows {
        if from <= t && t < to {
            t = to;
        }
    }
    t
}

/// A frame on the line from `start` until `arrival` is cut by an outage beginning
/// after it started and before it has arrived.
#[inline]
pub fn cuts(windows: &[(SimTime, SimTime)], start: SimTime, arrival: SimTime) -> bool {
    windows.iter().any(|&(from, _)| start < from && from < arrival)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    const S: u64 = 1_000_000_000_000;

    fn w() -> Box<[(SimTime, SimTime)]> {
        windows(&[Outage { from_s: 10.0, to_s: Some(20.0) }, Outage { from_s: 20.0, to_s: Some(25.0) }, Outage { from_s: 50.0, to_s: None }])
    }

    #[test]
    fn test_outage_windows_are_half_open_and_the_last_may_last_for_ever() {
        let w = w();
        assert_eq!(down_until(&w, SimTime(10 * S - 1)), None, "up just before from_s");
        assert_eq!(down_until(&w, SimTime(10 * S)), Some(SimTime(20 * S)), "down at from_s");
        assert_eq!(down_until(&w, SimTime(25 * S)), None, "up again at to_s");
        assert_eq!(down_until(&w, SimTime(1_000 * S)), Some(SimTime(u64::MAX)));
        assert_eq!(up_at(&w, SimTime(12 * S)), SimTime(25 * S), "touching outages are one");
        assert_eq!(up_at(&w, SimTime(30 * S)), SimTime(30 * S));
        assert_eq!(up_at(&w, SimTime(50 * S)), SimTime(u64::MAX));
    }

    #[test]
    fn test_a_frame_on_the_line_when_the_medium_goes_down_is_cut() {
        let w = w();
        assert!(cuts(&w, SimTime(9 * S), SimTime(10 * S + 1)), "arrives after the outage began");
        assert!(!cuts(&w, SimTime(9 * S), SimTime(10 * S)), "arrived as it began");
        assert!(!cuts(&w, SimTime(25 * S), SimTime(49 * S)), "between outages");
        assert!(cuts(&w, SimTime(49 * S), SimTime(51 * S)));
    }

    fn problems(outages: &str, kind: &str) -> Vec<String> {
        let text = format!(
            "[stack.s]\nkind = \"go_back_n\"\n[[medium]]\nname = \"l\"\n{kind}ends = [\"a\", \"b\"]\noutages = {outages}\n\
             [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n\
             [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"saturated\" }}\n"
        );
        Scenario::from_toml(&text).err().map(|e| e.problems()).unwrap_or_default()
    }

    #[test]
    fn test_outages_are_validated_naming_the_field() {
        assert_eq!(problems("[{ from_s = 1.0, to_s = 2.0 }, { from_s = 2.0 }]", ""), Vec::<String>::new());
        assert_eq!(problems("[{ from_s = 3.0, to_s = 2.0 }]", ""), vec!["medium[0].outages[0].to_s = 2.0: expected a time after from_s = 3"]);
        assert_eq!(
            problems("[{ from_s = 1.0, to_s = 5.0 }, { from_s = 4.0 }]", ""),
            vec!["medium[0].outages[1].from_s = 4.0: expected a time at or after the previous outage's to_s = 5 (outages in increasing order, disjoint)"]
        );
        assert_eq!(problems("[{ from_s = 1.0 }, { from_s = 4.0 }]", ""), vec!["medium[0].outages[1].from_s = 4.0: expected no outage after one without an end (to_s absent: down for ever)"]);
        assert_eq!(problems("[{ from_s = -1.0 }]", ""), vec!["medium[0].outages[0].from_s = -1.0: expected a number in [0, 15000000]"]);
        assert_eq!(problems("[{ from_s = 1.0, until = 2.0 }]", "").len(), 1);
        let radio = problems("[{ from_s = 1.0 }]", "kind = \"half_duplex_radio\"\n");
        assert_eq!(radio, vec!["medium[0].outages: expected outages only on a duplex_link medium"]);
    }
}
