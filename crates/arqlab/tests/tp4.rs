//! TP4 over a satellite subnetwork, as whole runs: error-free finite transfers against
//! their closed forms (link-, window- and network-window-limited; ISO expedited data
//! costing exactly one round trip per ED), exactly-once in-order intact delivery under
//! random loss, and bad input named by field.

use arqlab::engine::Duration;
use arqlab::scenario::Scenario;
use arqlab::sim::{replicate, Replication};
use proptest::prelude::*;

const C: f64 = 64_000.0;
const D: f64 = 0.27;
/// Network + link header per packet (bits), as in scenarios/colella.
const NET: u64 = 72;

/// One TP4 connection a → b over a window-4 network access on a satellite hop.
/// `tp4` and `net` are extra keys of the two layers.
fn scenario(tp4: &str, net: &str, tsdus: u64, tsdu_octets: u64, ber: f64) -> Scenario {
    let text = format!(
        "[run]\nduration_s = 100000.0\nreplications = 1\n\
         [stack.ts]\nlayers = [{{ kind = \"tp4\"{tp4} }}, {{ kind = \"network_window\", overhead_bits = {NET}{net} }}]\n\
         [[medium]]\nname = \"sat\"\nends = [\"a\", \"b\"]\nrate_bps = {C}\ndelay_s = {D}\nbit_error_rate = {ber}\n\
         [[node]]\nname = \"a\"\nstack = \"ts\"\n[[node]]\nname = \"b\"\nstack = \"ts\"\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"bulk\", messages = {tsdus}, length = {{ dist = \"constant\", mean_bits = {} }} }}\n",
        tsdu_octets * 8
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Seconds on the line for a TPDU of `octets`, in a packet, with the simulator's rounding.
fn tx(octets: u64) -> f64 {
    Duration::transmission(octets * 8 + NET, C).as_secs_f64()
}

fn run(sc: &Scenario, rep: u64) -> Replication {
    replicate(sc, 1, rep).unwrap_or_else(|e| panic!("{e}"))
}

fn get(r: &Replication, scope: &str, m: &str) -> f64 {
    r.batches[0][scope].get(m).unwrap_or_else(|| panic!("{scope}.{m}"))
}

fn completion(r: &Replication) -> f64 {
    assert_eq!(get(r, "run", "completed"), 1.0);
    get(r, "run", "completion_time_s")
}

/// DT of 1024 user octets + 12 header octets (extended format, checksum); AK 14; ED 28; EA 12.
const DT: u64 = 1036;
const AK: u64 = 14;

#[test]
fn link_limited_transfer_streams_then_waits_one_round_trip() {
    // Table 2 with 1024 user octets per DT: the 12-DT window covers the round trip.
    let sc = scenario(", dt_size_includes_header = false", "", 30, 10_240, 0.0);
    let n = 300;
    let r = run(&sc, 0);
    let t = n as f64 * tx(DT) + 2.0 * D + tx(AK);
    assert!((completion(&r) - t).abs() < 1e-9, "{} vs {t}", completion(&r));
    // The closed form: min(link, window / RTT, network window) with header overhead.
    let rtt = tx(DT) + 2.0 * D + tx(AK);
    let link = C * 8192.0 / (DT * 8 + NET) as f64;
    let window = 12.0 * 1024.0 * 8.0 / rtt;
    assert!(link < window);
    let eff = get(&r, "flow.a->b", "throughput_efficiency");
    assert!((eff - 30.0 * 81_920.0 / (t * C)).abs() < 1e-12);
    assert!(eff < link / C && eff > link / C * (1.0 - rtt / t), "{eff} vs the asymptote {}", link / C);
}

/// Completion of `n` equal DTs when at most `w` may be outstanding and a place frees
/// `cycle` after the DT holding it started: DT k starts at ⌊k/w⌋·cycle + (k mod w)·t.
fn windowed(n: u64, w: u64, cycle: f64) -> f64 {
    let k = n - 1;
    (k / w) as f64 * cycle + (k % w) as f64 * tx(DT) + tx(DT) + 2.0 * D + tx(AK)
}

#[test]
fn window_limited_transfers_match_the_closed_form_at_several_windows() {
    let rtt = tx(DT) + 2.0 * D + tx(AK);
    for w in [1u64, 2, 3, 5] {
        assert!(w as f64 * tx(DT) < rtt, "window {w} must bind");
        let sc = scenario(&format!(", dt_size_includes_header = false, window_octets = {}", w * 1024), "", 4, 10_240, 0.0);
        let r = run(&sc, 0);
        let t = windowed(40, w, rtt);
        assert!((completion(&r) - t).abs() < 1e-9, "W = {w}: {} vs {t}", completion(&r));
        // The asymptote W·L/RTT, approached from below by the start-up and tail.
        let eff = get(&r, "flow.a->b", "throughput_efficiency");
        let bound = (w * 1024 * 8) as f64 / rtt / C;
        assert!(eff <= bound && eff > bound * 0.85, "W = {w}: {eff} vs {bound}");
    }
}

#[test]
fn network_window_limits_when_its_acknowledgement_is_slow() {
    // Four packets in transit, each released 0.5 s after its last bit: 4 per (t + 0.5).
    let a = 0.5;
    let sc = scenario(", dt_size_includes_header = false", &format!(", window = 4, ack_delay_s = {a}"), 4, 10_240, 0.0);
    let r = run(&sc, 0);
    let t = windowed(40, 4, tx(DT) + a);
    assert!((completion(&r) - t).abs() < 1e-9, "{} vs {t}", completion(&r));
}

#[test]
fn iso_expedited_data_idles_the_link_one_round_trip_per_ed() {
    // Link-limited as above; an ED (16 octets) after every 5th TSDU: 4 EDs in 20 TSDUs.
    for (d, expected_idle) in [("iso", true), ("nbs", false)] {
        let sc = scenario(&format!(", dt_size_includes_header = false, expedited = \"{d}\", expedited_every = 5"), "", 20, 10_240, 0.0);
        let r = run(&sc, 0);
        let idle = tx(12 + 16) + 2.0 * D + tx(12);
        let ed = if expected_idle { idle } else { tx(28) };
        let t = 200.0 * tx(DT) + 4.0 * ed + 2.0 * D + tx(AK);
        assert!((completion(&r) - t).abs() < 1e-9, "{d}: {} vs {t}", completion(&r));
        let eff = get(&r, "flow.a->b", "throughput_efficiency");
        assert!((eff - 20.0 * 81_920.0 / (C * t)).abs() < 1e-12);
        assert_eq!(get(&r, "transport.flow.a->b", "ea_sent"), 4.0);
        assert_eq!(get(&r, "transport.flow.a->b", "expedited_order_violations"), 0.0);
    }
}

fn check_exactly_once(r: &Replication, tsdus: u64) {
    let a = r.accounting["flow.a->b"];
    assert_eq!((a.issued, a.delivered, a.acknowledged, a.unacknowledged), (tsdus, tsdus, tsdus, 0), "{a:?}");
    assert_eq!(get(r, "transport.flow.a->b", "expedited_order_violations"), 0.0);
    assert_eq!(get(r, "transport.flow.a->b", "tsdu_integrity_violations"), 0.0);
    // Every ED sent is delivered once, except perhaps the last: the transfer may complete
    // while it (and no data after it) is still outstanding.
    let first_copies = get(r, "transport.flow.a->b", "ed_sent") - get(r, "transport.flow.a->b", "ed_retransmitted");
    let delivered = get(r, "transport.flow.a->b", "ed_delivered");
    assert!(delivered <= first_copies && delivered + 1.0 >= first_copies, "{delivered} of {first_copies}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    /// Under random bit errors on both directions (DTs, AKs, EDs and EAs lost), every
    /// TSDU is delivered exactly once, in order (the runner checks each delivery), whole,
    /// and after every ED submitted before it.
    #[test]
    fn every_tsdu_arrives_once_in_order_intact_under_random_loss(
        rep in 0u64..1000,
        ber in prop::sample::select(vec![1e-5, 1e-4, 3e-4]),
        iso in any::<bool>(),
        selective in any::<bool>(),
        every in 0u32..4,
        window in 1u64..12,
    ) {
        let sc = scenario(&lossy_tp4(iso, selective, every, window), "", 4, 1500, ber);
        let r = run(&sc, rep);
        check_exactly_once(&r, 4);
    }
}

/// The proptest's TP4 keys for one case.
fn lossy_tp4(iso: bool, selective: bool, every: u32, window: u64) -> String {
    format!(
        ", dt_size_octets = 128, window_octets = {}, retransmission_timer_s = 0.65, window_timer_s = 2.0, expedited = \"{}\", acknowledgement = \"{}\", expedited_every = {every}, expedited_unit = \"dt\"",
        window * 256,
        if iso { "iso" } else { "nbs" },
        if selective { "selective" } else { "one_for_one" }
    )
}

/// A TSDU of 13 DTs behind 52 EDs (one per DT-sized piece, ISO: no new DT until every
/// ED is acknowledged) delivers its first TSDU after more than 20 window timers, DT by DT
/// and ED by ED: progress inside a TSDU is progress. The stall watch once ended this
/// replication at 40.07 s as "stalled" (52 EDs and 11 DTs delivered, no TSDU); it
/// completes at 61.8 s.
#[test]
fn stall_watch_counts_dts_and_eds_as_progress_iso_expedited_every_dt_rep_807() {
    let mut sc = scenario(&lossy_tp4(true, false, 1, 1), "", 4, 1500, 3e-4);
    let r = run(&sc, 807);
    assert!(r.stalled.is_none(), "{:?}", r.stalled);
    check_exactly_once(&r, 4);
    assert_eq!(get(&r, "transport.flow.a->b", "ed_delivered"), 52.0);
    // Unwatched, the run is the same run (the watch only ends runs) ...
    sc.run.stall_timers = Some(0.0);
    let free = run(&sc, 807);
    assert_eq!((free.fingerprint.as_str(), completion(&free)), (r.fingerprint.as_str(), completion(&r)));
    // ... and no TSDU arrives in its first 20 window timers (40 s).
    sc.run.duration_s = 40.0;
    assert_eq!(run(&sc, 807).accounting["flow.a->b"].delivered, 0);
}

#[test]
fn selective_acknowledgement_retransmits_less_under_errors() {
    let mut totals = [0.0; 2];
    for (i, ack) in ["one_for_one", "selective"].iter().enumerate() {
        let sc = scenario(&format!(", dt_size_octets = 128, window_octets = 20480, retransmission_timer_s = 0.65, window_timer_s = 2.0, acknowledgement = \"{ack}\""), "", 5, 10_240, 1e-4);
        for rep in 0..3 {
            let r = run(&sc, rep);
            check_exactly_once(&r, 5);
            totals[i] += get(&r, "transport.flow.a->b", "dt_retransmitted");
        }
    }
    assert!(totals[1] < totals[0], "{totals:?}");
}

#[test]
fn bad_input_is_named_by_field() {
    let err = |tp4: &str| {
        let text = format!(
            "[run]\nreplications = 1\n[link]\nrate_bps = 64000\n[protocol]\nkind = \"tp4\"\n{tp4}\n[traffic.a]\nkind = \"bulk\"\nmessages = 2\n"
        );
        Scenario::from_toml(&text).unwrap_err().problems()
    };
    assert_eq!(err("window_octets = 512"), vec!["protocol.window_octets = 512: expected at least dt_size_octets (1024): the window must hold one DT"]);
    assert_eq!(err("retransmission_timer_s = -1"), vec!["protocol.retransmission_timer_s = -1: expected a number in [0.000001, 1000000]"]);
    assert_eq!(err("expedited = \"fast\""), vec!["protocol.expedited = \"fast\": expected one of \"iso\", \"nbs\""]);
    assert_eq!(err("acknowledgement = \"go_back\""), vec!["protocol.acknowledgement = \"go_back\": expected one of \"one_for_one\", \"selective\""]);
    let text = "[run]\nreplications = 1\n[stack.s]\nlayers = [{ kind = \"network_window\" }, { kind = \"tp4\" }]\n[[medium]]\nname = \"m\"\nends = [\"a\", \"b\"]\n[[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = { kind = \"bulk\", messages = 2 }\n";
    assert_eq!(Scenario::from_toml(text).unwrap_err().problems(), vec!["stack.s.layers[1].kind = \"tp4\": expected it as the top layer: its SDUs are the users' messages (it is under network_window)"]);
}

#[test]
fn tp4_alone_on_the_medium_runs_in_the_pair_form() {
    let text = "[run]\nreplications = 1\nduration_s = 10000\n[link]\nrate_bps = 64000\ndelay_s = 0.27\n[protocol]\nkind = \"tp4\"\n[traffic.a]\nkind = \"bulk\"\nmessages = 3\nlength = { dist = \"constant\", mean_bits = 81920 }\n";
    let sc = Scenario::from_toml(text).unwrap();
    let r = run(&sc, 0);
    assert_eq!(r.accounting["a_to_b"].delivered, 3);
    assert_eq!(get(&r, "transport.a_to_b", "dt_sent"), 33.0);
}
