//! The zero-time livelock guard (`sim::livelock`): a layer whose deadline stays due at
//! one instant makes the runner wake its node at that instant for ever; the run must end
//! with a `Livelock` error naming the instant, the node and the layer — never hang.

mod common;

use arqlab::engine::SimTime;
use arqlab::protocol::textbook::{GoBackN, TextbookConfig};
use arqlab::protocol::{Frame, Layer, Sdu, Stacked};
use arqlab::scenario::Scenario;
use arqlab::sim::interrupt::CHECK_EVERY;
use arqlab::sim::livelock::{limit, Livelock, Site, LIVELOCK_EVENTS_MIN};
use arqlab::sim::runner::{run, SimError, Windows};
use common::{saturated, scenario, Hook, Hooked, NONE};

fn cfg() -> TextbookConfig {
    TextbookConfig { window: 7, modulus: 8, overhead_bits: 48, ack_bits: 48, timeout_s: 0.5, reject: true, nak_corrupted: false }
}

/// A hook that makes a real entity, from its first input at or after `from`, report a
/// deadline at that instant for ever and ignore its timeouts: the shape of the X.25 bug
/// that made a run spin at one instant (every wake at the same time).
struct Stuck {
    from: SimTime,
    at: Option<SimTime>,
}

impl<P: Layer> Hook<P> for Stuck {
    fn input(&mut self, now: SimTime) {
        if now >= self.from && self.at.is_none() {
            self.at = Some(now);
        }
    }
    fn pass_timeout(&self) -> bool {
        self.at.is_none()
    }
    fn deadline(&self, inner: Option<SimTime>) -> Option<SimTime> {
        self.at.or(inner)
    }
}

/// A go-back-N entity stuck from `from`.
fn stuck(from: SimTime) -> Hooked<GoBackN<Sdu>, Stuck> {
    Hooked { inner: GoBackN::new(&cfg()), hook: Stuck { from, at: None } }
}

const NEVER: SimTime = SimTime(u64::MAX);

/// 100 s of saturated a→b go-back-N; station a gets stuck from `from`.
fn run_stuck(from: SimTime) -> Result<arqlab::sim::runner::RunOutput, SimError> {
    let sc = scenario(0.05, &saturated(1000), NONE);
    let w = Windows::equal(SimTime::ZERO, SimTime::from_secs_f64(100.0), 1);
    run(&sc, 1, 0, &w, None, |n, _| stuck(if n.index == 0 { from } else { NEVER }))
}

fn livelock(r: Result<arqlab::sim::runner::RunOutput, SimError>) -> Livelock {
    match r {
        Err(SimError::Livelock(l)) => l,
        Err(e) => panic!("expected a livelock, got {e}"),
        Ok(out) => panic!("expected a livelock, the run ended at {:?} after {} events", out.simulated, out.events),
    }
}

#[test]
fn a_deadline_that_stays_due_ends_the_run_as_a_livelock_naming_the_node_and_layer() {
    let l = livelock(run_stuck(SimTime::from_secs_f64(2.0)));
    // Stuck at its first input at or after 2 s (a frame's arrival or a timer).
    assert!(l.at >= SimTime::from_secs_f64(2.0) && l.at < SimTime::from_secs_f64(2.6), "{l:?}");
    assert_eq!(l.site, Site::Timer { node: 0, layer: Some(0) });
    // Found within two check intervals after the limit (two nodes, two lanes, one flow:
    // the minimum bound applies).
    assert_eq!(l.limit, LIVELOCK_EVENTS_MIN);
    assert!(l.events >= l.limit && l.events < l.limit + 2 * CHECK_EVERY, "{l:?}");
    let m = SimError::Livelock(l.clone()).to_string();
    assert!(m.starts_with(&format!("livelock at t={} s in node \"a\", layer go_back_n (1 of 1):", l.at.as_secs_f64())), "{m}");
    assert!(m.contains("events in a row without simulated time advancing"), "{m}");
}

#[test]
fn the_same_entity_unstuck_runs_to_its_end() {
    let out = run_stuck(NEVER).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.simulated, SimTime::from_secs_f64(100.0));
    assert!(out.accounting[0].1.delivered > 1000, "{:?}", out.accounting);
}

/// TP4 over HDLC between a and b, over medium l.
fn two_layers() -> Scenario {
    Scenario::from_toml(
        "[stack.h]\nlayers = [{ kind = \"tp4\" }, { kind = \"hdlc\" }]\n\
         [[medium]]\nname = \"l\"\nends = [\"a\", \"b\"]\nrate_bps = 9600.0\n\
         [[node]]\nname = \"a\"\nstack = \"h\"\n[[node]]\nname = \"b\"\nstack = \"h\"\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"saturated\" }\n",
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_stuck_lower_layer_is_named_as_the_second_layer() {
    // Stacked::due_layer: the upper layer first, then the lower one, counted from the top.
    let t = SimTime::from_secs_f64(1.0);
    let upper: GoBackN<Sdu> = GoBackN::new(&cfg());
    let lower: Hooked<GoBackN<Frame<Sdu>>, Stuck> = Hooked { inner: GoBackN::new(&cfg()), hook: Stuck { from: SimTime::ZERO, at: Some(t) } };
    let stack = Stacked::new(upper, lower);
    assert_eq!(stack.due_layer(t), Some(1));
    assert_eq!(stack.due_layer(SimTime(t.0 - 1)), None, "not yet due");
    let sc = two_layers();
    let l = Livelock { at: t, events: 1 << 21, limit: limit(5), site: Site::Timer { node: 1, layer: Some(1) }, place: String::new() }.named(&sc);
    assert!(l.to_string().starts_with("livelock at t=1 s in node \"b\", layer hdlc (2 of 2): its timer stays due"), "{l}");
    let l = Livelock { site: Site::Arrival { lane: 1 }, ..l }.named(&sc);
    assert!(l.place.starts_with("medium \"l\" (lane link.l.b->a) — the medium is at fault"), "{}", l.place);
}

/// Whatever element the runner was handling, the message says the time and a node with
/// its layer — or the medium, stated as at fault, when a lane is.
#[test]
fn a_livelock_message_names_the_time_the_node_and_its_layer_or_the_medium_at_fault() {
    let sc = two_layers();
    let at = SimTime::from_secs_f64(2.5);
    let named = |site| Livelock { at, events: 1 << 20, limit: 1 << 20, site, place: String::new() }.named(&sc).to_string();
    for (site, place) in [
        (Site::Timer { node: 0, layer: Some(0) }, "node \"a\", layer tp4 (1 of 2): its timer stays due"),
        (Site::Timer { node: 1, layer: None }, "node \"b\", no layer's timer due (layers tp4, hdlc)"),
        (Site::Transmit { node: 0 }, "node \"a\", layer hdlc (2 of 2, on the lane): it is woken to transmit"),
        (Site::Arrival { lane: 0 }, "medium \"l\" (lane link.l.a->b) — the medium is at fault: frames keep arriving at this instant, delivering to node \"b\", layer hdlc (2 of 2, on the lane)"),
        (Site::Message { flow: 0 }, "node \"a\", layer tp4 (1 of 2, the top): flow flow.a->b's source keeps submitting"),
    ] {
        let m = named(site);
        assert!(m.starts_with(&format!("livelock at t=2.5 s in {place}")), "{site:?}: {m}");
    }
}

/// `pairs` identical go-back-N links, a saturated flow on each: every link's frames end
/// at the same instants, so each of them holds about two events per link (the sender's
/// transmission end, the receiver's arrival) — a legitimate instant with many events.
fn in_step(pairs: usize, livelock_events: Option<u64>) -> Scenario {
    let mut t = String::from("[run]\nduration_s = 1.0\nreplications = 1\n");
    if let Some(n) = livelock_events {
        t += &format!("livelock_events = {n}\n");
    }
    t += "[stack.s]\nkind = \"go_back_n\"\n";
    for i in 0..pairs {
        t += &format!(
            "[[medium]]\nname = \"l{i}\"\nends = [\"a{i}\", \"b{i}\"]\nrate_bps = 9600.0\n\
             [[node]]\nname = \"a{i}\"\nstack = \"s\"\n[[node]]\nname = \"b{i}\"\nstack = \"s\"\n\
             [[flow]]\nfrom = \"a{i}\"\nto = \"b{i}\"\ntraffic = {{ kind = \"saturated\" }}\n"
        );
    }
    Scenario::from_toml(&t).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn run_livelock_events_lowers_the_bound_and_many_events_at_one_instant_trip_it() {
    // 100 links in step: ~200 events at each frame end. The default bound (2^20) lets
    // the run finish; a bound of 64 (checked every 32 events) ends it at the first
    // such instant, naming it.
    let done = arqlab::sim::replicate(&in_step(100, None), 1, 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(done.simulated_s, 1.0);
    let l = match arqlab::sim::replicate(&in_step(100, Some(64)), 1, 0) {
        Err(SimError::Livelock(l)) => l,
        other => panic!("expected a livelock, got {:?}", other.map(|r| r.simulated_s)),
    };
    assert_eq!(l.limit, 64);
    assert!(l.events >= 64 && l.events < 64 + 2 * 32, "{l:?}");
    // The first frame end: 1,048 bits (1,000 + 48 of overhead) at 9,600 bit/s (to the
    // picosecond), where the element being handled is a frame's arrival or a sender.
    assert!((l.at.as_secs_f64() - 1048.0 / 9600.0).abs() < 1e-11, "{l:?}");
    assert!(matches!(l.site, Site::Arrival { .. } | Site::Transmit { .. }), "{l:?}");
    let m = SimError::Livelock(l).to_string();
    assert!(m.starts_with("livelock at t=0.1091666666") && m.contains("the limit is 64)"), "{m}");
    assert!(m.contains(" in medium \"l") || m.contains(" in node \"a"), "{m}");
    // One link holds a few events per instant: a bound of 64 never trips.
    let one = arqlab::sim::replicate(&in_step(1, Some(64)), 1, 0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(one.simulated_s, 1.0);
}

#[test]
fn run_livelock_events_below_its_floor_is_refused_naming_the_field() {
    let e = Scenario::from_toml("[run]\nlivelock_events = 63\n").map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("run.livelock_events") && e.contains("63") && e.contains(">= 64"), "{e}");
    for bad in ["-1", "1.5", "\"many\""] {
        let e = Scenario::from_toml(&format!("[run]\nlivelock_events = {bad}\n")).map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("run.livelock_events"), "{bad}: {e}");
    }
}
