//! The token ring (`channel::token_ring`) alone, against closed forms:
//! - one saturated station: a frame every max(t_f, L) + t_token + L;
//! - N symmetric Poisson stations with one frame per token: a symmetric 1-limited
//!   polling system, whose mean waiting time is known exactly (Takagi 1986,
//!   *Analysis of Polling Systems*, MIT Press, §5 "limited service", symmetric case;
//!   also Bux 1981, "Local-area subnetworks: a performance comparison", IEEE Trans.
//!   Commun. COM-29, for the token ring):
//!   W = [N λ b⁽²⁾ + r (N + ρ)] / [2 (1 − ρ − N λ r)]
//!   with λ each station's arrival rate, b the service time (capture to token issued),
//!   r the walk time from one station to the next (the ring latency L over N: the
//!   symmetric-queue average does not depend on how L is split) and ρ = N λ b.

use arqlab::scenario::Scenario;
use arqlab::sim::{run_experiment, Experiment};

const BIT: f64 = 0.25e-6;

fn ring(stations: usize, propagation_s: f64, flows: &str) -> String {
    let ends: Vec<String> = (0..stations).map(|i| format!("\"s{i}\"")).collect();
    let nodes: String = (0..stations).map(|i| format!("[[node]]\nname = \"s{i}\"\nstack = \"d\"\n")).collect();
    format!(
        "[run]\nduration_s = 60.0\nwarmup_s = 2.0\nreplications = 4\n[stack.d]\nkind = \"datagram\"\noverhead_bits = 0\n\
         [[medium]]\nname = \"ring\"\nkind = \"token_ring\"\nends = [{}]\npropagation_s = {propagation_s}\n{nodes}{flows}",
        ends.join(", ")
    )
}

fn run(text: &str) -> Experiment {
    let sc = Scenario::from_toml(text).unwrap_or_else(|e| panic!("{e}"));
    run_experiment(&sc, 7, None, None).unwrap_or_else(|e| panic!("{e}"))
}

fn saturated_throughput(bits: f64, propagation_s: f64) -> (f64, f64) {
    let flows = format!(
        "[[flow]]\nfrom = \"s0\"\nto = \"s2\"\ntraffic = {{ kind = \"saturated\", length = {{ dist = \"constant\", mean_bits = {bits} }} }}\n\
         [[flow]]\nfrom = \"s1\"\nto = \"s3\"\ntraffic = {{ kind = \"none\" }}\n"
    );
    let x = run(&ring(4, propagation_s, &flows));
    let got = x.metrics["flow.s0->s2"]["throughput_bps"].mean;
    let latency = (4.0 + 24.0) * BIT + propagation_s;
    let frame = (168.0 + bits) * BIT;
    (got, bits / (frame.max(latency) + 24.0 * BIT + latency))
}

#[test]
fn one_saturated_station_sends_a_frame_per_token_revolution() {
    // Frames longer than the ring latency, then shorter (a long ring).
    for (bits, prop) in [(4000.0, 5e-6), (8000.0, 0.0), (400.0, 1e-3)] {
        let (got, want) = saturated_throughput(bits, prop);
        // Deterministic: only the frame cut by each window's edges differs.
        assert!((got - want).abs() / want < 2e-3, "{bits} bits, {prop} s: {got} vs {want}");
    }
}

#[test]
fn symmetric_poisson_stations_wait_as_a_one_limited_polling_system() {
    let n = 8usize;
    let bits = 2000.0;
    let prop = 5e-6;
    let latency = (n as f64 + 24.0) * BIT + prop;
    let t_f = (168.0 + bits) * BIT;
    let b = t_f.max(latency) + 24.0 * BIT;
    for rho in [0.3, 0.7] {
        let lambda = rho / (n as f64 * b);
        let load = lambda * bits / 4e6;
        let flows: String = (0..n)
            .map(|i| format!("[[flow]]\nfrom = \"s{i}\"\nto = \"s{}\"\ntraffic = {{ kind = \"poisson\", load = {load}, length = {{ dist = \"constant\", mean_bits = {bits} }} }}\n", (i + 1) % n))
            .collect();
        let x = run(&ring(n, prop, &flows).replace("replications = 4", "replications = 6"));
        let r = latency / n as f64;
        let w = (n as f64 * lambda * b * b + r * (n as f64 + rho)) / (2.0 * (1.0 - rho - n as f64 * lambda * r));
        // Delivery: wait, transmit, then one hop downstream (L/N on average over stations).
        let want = w + t_f + latency / n as f64;
        let iv = x.metrics["flow.*"]["transfer_time_s"];
        assert!((iv.mean - want).abs() <= iv.half_width, "ρ = {rho}: simulated {} ± {} vs Takagi {want}", iv.mean, iv.half_width);
        assert!(iv.half_width < 0.03 * want, "precise enough to discriminate: ±{}", iv.half_width);
    }
}

/// Saturated stations with a token holding time H (IEEE 802.5: 10 ms): the holder sends
/// k = ⌈H / t_f⌉ frames back to back (it may start one while less than H has passed since
/// capture), then the ring is busy for the last frame's max(t_f, L) and the token.
/// With N saturated stations one cycle is N·((k − 1)·t_f + max(t_f, L) + t_token) + L
/// (the token's walks add up to one revolution), carrying N·k frames.
#[test]
fn saturated_stations_with_a_holding_time_send_k_frames_per_token() {
    for (n, bits, holding_s) in [(1usize, 4000.0, 0.01), (4, 8000.0, 0.01), (4, 400.0, 0.002)] {
        let stations = n.max(4);
        let flows: String = (0..stations)
            .map(|i| {
                let traffic = if i < n { format!("{{ kind = \"saturated\", length = {{ dist = \"constant\", mean_bits = {bits} }} }}") } else { "{ kind = \"none\" }".into() };
                format!("[[flow]]\nfrom = \"s{i}\"\nto = \"s{}\"\ntraffic = {traffic}\n", (i + 2) % stations)
            })
            .collect();
        let text = ring(stations, 5e-6, &flows).replace("kind = \"token_ring\"", &format!("kind = \"token_ring\"\nholding_time_s = {holding_s}"));
        assert!(text.contains("holding_time_s"), "the holding time reaches the ring");
        let x = run(&text);
        let latency = (stations as f64 + 24.0) * BIT + 5e-6;
        let t_f = (168.0 + bits) * BIT;
        let k = (holding_s / t_f).ceil();
        let cycle = n as f64 * ((k - 1.0) * t_f + t_f.max(latency) + 24.0 * BIT) + latency;
        let want = n as f64 * k * bits / cycle;
        let got = x.metrics["flow.*"]["throughput_bps"].mean;
        assert!((got - want).abs() / want < 2e-3, "N = {n}, {bits} bits, H = {holding_s} s (k = {k}): {got} vs {want}");
        // One frame per token would give less: the holding time is what is tested.
        let one = n as f64 * bits / (n as f64 * (t_f.max(latency) + 24.0 * BIT) + latency);
        assert!(want > one * 1.0005, "k = {k} must beat one frame per token ({one})");
    }
}
