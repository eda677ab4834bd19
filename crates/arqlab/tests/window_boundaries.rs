//! Measurement windows are half-open, [b_k, b_k+1): what happens exactly at a boundary
//! counts in the window that boundary opens — at t = 0 too — and what happens exactly at
//! the end of the run counts in none. Every measure is checked at a boundary, on
//! error-free links whose instants are exact in integer picoseconds:
//! stop-and-wait at 1 Mbit/s with 1000-bit messages, 48 header bits, 48-bit
//! acknowledgements and t_p = 50 ms sends one frame every
//!     c = t_f + t_p + t_ack + t_p = 1048 µs + 50 ms + 48 µs + 50 ms = 101.096 ms,
//! at t = k·c, and delivers it at k·c + t_f + t_p.

use arqlab::scenario::Scenario;
use arqlab::sim::{replicate, Replication};

const C: f64 = 0.101_096;
const T_F: f64 = 0.001_048;
const T_P: f64 = 0.05;

fn pair(run: &str, traffic: &str) -> Scenario {
    let text = format!(
        "[run]\n{run}\n[link]\nrate_bps = 1e6\ndelay_s = {T_P}\nbit_error_rate = 0.0\n\
         [protocol]\nkind = \"stop_and_wait\"\noverhead_bits = 48\nack_bits = 48\ntimeout_s = 5.0\n\
         [traffic.a]\n{traffic}\nlength = {{ dist = \"constant\", mean_bits = 1000 }}\n"
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn get(r: &Replication, window: usize, scope: &str, measure: &str) -> f64 {
    let set = r.batches[window].get(scope).unwrap_or_else(|| panic!("no scope {scope}: {:?}", r.batches[window].keys()));
    set.get(measure).unwrap_or_else(|| panic!("no {scope}.{measure}"))
}

#[test]
fn bulk_transfer_counts_the_frame_that_starts_at_time_zero() {
    // Issue 29 item 1: 5 messages delivered, 4 frames and 4192 bits reported.
    let r = replicate(&pair("duration_s = 100.0\nwarmup_s = 0.0", "kind = \"bulk\"\nmessages = 5"), 1, 0).unwrap();
    let done = get(&r, 0, "run", "completion_time_s");
    // The last acknowledgement arrives one cycle after the fifth frame starts.
    assert!((done - 5.0 * C).abs() < 1e-9, "{done}");
    assert_eq!(get(&r, 0, "a_to_b", "messages_delivered"), 5.0);
    assert_eq!(get(&r, 0, "a_to_b", "frames_sent"), 5.0);
    assert_eq!(get(&r, 0, "b_to_a", "frames_sent"), 5.0, "the acknowledgements");
    let bps = get(&r, 0, "a_to_b", "throughput_bps");
    assert!((bps * done - 5000.0).abs() < 1e-6, "{bps} bit/s over {done} s");
    assert_eq!(get(&r, 0, "a_to_b", "network_efficiency"), 1.0, "5 delivered / 5 on the line");
    // Every message is timed, the one born at 0 too. A bulk source hands the layer its
    // next message when the layer accepts one — stop-and-wait holds one waiting behind
    // the one in flight — so the first waits t_f + t_p, each later one a cycle more.
    let mean = (T_F + T_P + 4.0 * (C + T_F + T_P)) / 5.0;
    let t = get(&r, 0, "a_to_b", "transfer_time_s");
    assert!((t - mean).abs() < 1e-9, "{t} vs {mean}");
}

#[test]
fn a_window_opening_at_zero_counts_everything_from_the_start() {
    let r = replicate(&pair(&format!("duration_s = {}\nwarmup_s = 0.0", 10.0 * C), "kind = \"saturated\""), 1, 0).unwrap();
    // Frames start at 0, c, …, 9c; the one at 10c is at the end and not counted.
    assert_eq!(get(&r, 0, "a_to_b", "frames_sent"), 10.0);
    assert_eq!(get(&r, 0, "b_to_a", "frames_sent"), 10.0);
    assert_eq!(get(&r, 0, "a_to_b", "messages_delivered"), 10.0);
}

#[test]
fn a_frame_that_starts_at_a_boundary_counts_in_the_window_it_opens() {
    // Boundaries at 3c (end of warm-up), 8c and 13c (the end): two batches.
    let run = format!("duration_s = {}\nwarmup_s = {}\nmethod = \"batch_means\"\nbatches = 2", 13.0 * C, 3.0 * C);
    let r = replicate(&pair(&run, "kind = \"saturated\""), 1, 0).unwrap();
    assert_eq!(r.batches.len(), 2);
    for w in 0..2 {
        // Frames 3..=7, then 8..=12: each boundary's frame opens its window.
        assert_eq!(get(&r, w, "a_to_b", "frames_sent"), 5.0, "window {w}");
        assert_eq!(get(&r, w, "b_to_a", "frames_sent"), 5.0, "window {w}");
        assert_eq!(get(&r, w, "a_to_b", "messages_delivered"), 5.0, "window {w}");
        let bps = get(&r, w, "a_to_b", "throughput_bps");
        assert!((bps * 5.0 * C - 5000.0).abs() < 1e-6, "window {w}: {bps}");
        assert_eq!(get(&r, w, "a_to_b", "network_efficiency"), 1.0);
    }
}

/// The same stop-and-wait cycle on an explicit duplex link named `l`.
fn explicit(run: &str) -> Scenario {
    let text = format!(
        "[run]\n{run}\n[stack.saw]\nkind = \"stop_and_wait\"\noverhead_bits = 48\nack_bits = 48\ntimeout_s = 5.0\n\
         [[medium]]\nname = \"l\"\nends = [\"a\", \"b\"]\nrate_bps = 1e6\ndelay_s = {T_P}\n\
         [[node]]\nname = \"a\"\nstack = \"saw\"\n[[node]]\nname = \"b\"\nstack = \"saw\"\n\
         [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"saturated\", length = {{ dist = \"constant\", mean_bits = 1000 }} }}\n"
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn lane_measures_count_the_frames_that_start_at_a_boundary() {
    for (warmup, k) in [(0.0, 0.0), (2.0 * C, 2.0)] {
        let r = replicate(&explicit(&format!("duration_s = {}\nwarmup_s = {warmup}", 12.0 * C)), 1, 0).unwrap();
        let n = 12.0 - k;
        assert_eq!(get(&r, 0, "flow.a->b", "frames_sent"), n, "warm-up {warmup}");
        assert_eq!(get(&r, 0, "link.l.a->b", "frames_transmitted"), n, "warm-up {warmup}");
        assert_eq!(get(&r, 0, "link.l.a->b", "bits_transmitted"), n * 1048.0, "warm-up {warmup}");
        assert_eq!(get(&r, 0, "link.l.b->a", "frames_transmitted"), n, "warm-up {warmup}");
        let u = get(&r, 0, "link.l.a->b", "utilisation");
        assert!((u - T_F / C).abs() < 1e-9, "warm-up {warmup}: {u}");
    }
}
