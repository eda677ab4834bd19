//! The shipped compositions in `scenarios/compose/`: stacks composed from registered
//! layers (any order their declared services allow), each against a closed form or a
//! bound, plus the invariants the runner checks on every delivery (no message lost,
//! duplicated or reordered on an in-order service; counters balance).

use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::{replicate, run_experiment, Experiment};
use std::path::Path;

fn load(file: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose").join(file);
    let v = toml_to_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn run(sc: &Scenario) -> Experiment {
    run_experiment(sc, 11, None, None).unwrap_or_else(|e| panic!("{e}"))
}

fn mean(x: &Experiment, scope: &str, m: &str) -> f64 {
    x.metrics[scope][m].mean
}

#[test]
fn stop_and_wait_over_datagrams_matches_its_closed_form() {
    let sc = load("stop_and_wait_over_datagram.toml");
    let x = run(&sc);
    let (l, h, a, d, r, tau) = (1000.0, 48.0, 48.0, 24.0, 9600.0, 0.01);
    let cycle = (l + h + d) / r + (a + d) / r + 2.0 * tau;
    let want = (l / r) / cycle;
    let got = x.metrics["flow.a->b"]["throughput_efficiency"];
    // Deterministic and error free: every cycle is the same, only the window edges
    // (a cycle cut at the start and the end of the measured time) differ.
    assert!((got.mean - want).abs() < 2.0 * cycle / 190.0, "efficiency {} vs closed form {want}", got.mean);
}

#[test]
fn tp4_over_x25_delivers_every_tsdu_within_its_bound() {
    let sc = load("tp4_over_x25.toml");
    let rep = replicate(&sc, 3, 0).unwrap();
    let acc = rep.accounting["flow.a->b"];
    assert_eq!((acc.issued, acc.delivered, acc.acknowledged), (40, 40, 40), "every TSDU delivered and acknowledged");
    // Lower bound: the data alone at the X.25 access line rate plus one transit delay.
    let x25 = match &sc.network.as_ref().unwrap().stack["ts"].layers[1] {
        arqlab::scenario::ProtocolConfig::X25(c) => c.clone(),
        _ => unreachable!(),
    };
    let bound = 40.0 * 8192.0 / x25.access_rate_bps + 0.235;
    let done = rep.batches[0]["run"].get("completion_time_s").unwrap();
    assert!(done >= bound, "completion {done} s below the bound {bound} s");
    assert_eq!(rep.batches[0]["flow.a->b"].get("frames_retransmitted").unwrap(), 0.0, "error free: no TPDU sent twice");
}

#[test]
fn tp4_over_the_hf_arq_delivers_every_tsdu_below_the_line_rate() {
    let sc = load("tp4_over_hf_arq.toml");
    let rep = replicate(&sc, 3, 0).unwrap();
    let acc = rep.accounting["flow.a->b"];
    assert_eq!((acc.issued, acc.delivered, acc.acknowledged), (10, 10, 10));
    let done = rep.batches[0]["run"].get("completion_time_s").unwrap();
    assert!(done >= 10.0 * 8192.0 / 2400.0, "completion {done} s: faster than the line");
}

#[test]
fn tcp_over_llc2_with_a_third_host_carries_both_connections() {
    let sc = load("tcp_llc2_three_hosts.toml");
    let x = run(&sc);
    for flow in ["flow.a->b", "flow.a->c"] {
        let offered = 0.1 * 4e6;
        let got = mean(&x, flow, "throughput_bps");
        // Poisson load far below capacity: what is offered is carried (within noise).
        assert!((got - offered).abs() < 0.1 * offered, "{flow}: {got} bit/s for {offered} offered");
    }
    let a = replicate(&sc, 5, 0).unwrap();
    let b = replicate(&sc, 5, 0).unwrap();
    assert_eq!((a.fingerprint, a.events), (b.fingerprint, b.events), "same scenario and seed, same trajectory");
}

#[test]
fn store_and_forward_latency_through_k_routers_is_the_sum_of_the_hops() {
    let sc = load("store_and_forward_three_routers.toml");
    let rep = replicate(&sc, 1, 0).unwrap();
    let bits = 1000.0 + 48.0;
    let hops = [(9600.0, 0.001), (19200.0, 0.002), (4800.0, 0.003), (64000.0, 0.004)];
    let forwarding = [0.0005, 0.001, 0.002];
    let want: f64 = hops.iter().map(|(r, d)| bits / r + d).sum::<f64>() + forwarding.iter().sum::<f64>();
    let got = rep.batches[0]["flow.a->b"].get("transfer_time_s").unwrap();
    // Exact up to the picosecond rounding of each of the 11 steps.
    assert!((got - want).abs() <= 11e-12, "transfer time {got} s vs the sum of the hops {want} s");
    assert_eq!(rep.accounting["flow.a->b"].delivered, 1);
}

#[test]
fn an_smtp_dialogue_across_three_hops_completes_no_faster_than_its_path() {
    let sc = load("smtp_three_hops.toml");
    let rep = replicate(&sc, 1, 0).unwrap();
    let flow = &rep.batches[0]["flow.client->server"];
    assert_eq!(flow.get("sessions_completed"), Some(1.0), "{:?}", flow);
    // Each step of the script is released by the delivery of the previous one: at
    // least one crossing of the path (three 50 ms hops) per step.
    let steps = arqlab::traffic::dialogue::smtp(1000, 1).len() as f64;
    let latency = flow.get("session_latency_s").unwrap();
    assert!(latency >= steps * 0.15, "session latency {latency} s for {steps} steps of at least 0.15 s");
    assert!(latency < steps * 0.15 + 30.0, "session latency {latency} s: stalled");
}

/// SMTP/TCP/IP/LLC2 is a three-layer stack (`tcp`, `ip`, `llc2`) under a dialogue flow:
/// the application is the traffic, not a layer. Composition (b)'s path — LLC2 on the rings, IP
/// routers, the HF ARQ on the radio — carries a whole SMTP session, each step released
/// by the previous one's delivery, each no faster than a crossing of the radio.
#[test]
fn smtp_over_tcp_ip_llc2_runs_as_a_three_layer_stack_across_routers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose/tcp_over_hf_between_lans.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("{ kind = \"tcp\", mss_octets = 536, receive_window_octets = 4096 }", "{ kind = \"tcp\", connection_setup = true, mss_octets = 536 }")
        .replace("traffic = { kind = \"saturated\", length = { dist = \"constant\", mean_bits = 4288 } }", "traffic = { kind = \"dialogue\", script = \"smtp\" }")
        .replace("warmup_s = 200.0", "warmup_s = 0.0");
    let sc = Scenario::from_value(&toml_to_json(&text).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    assert!(sc.topology.nodes.iter().all(|n| n.stack.len() == 3));
    let rep = replicate(&sc, 1, 0).unwrap();
    let flow = &rep.batches[0]["flow.a->b"];
    assert!(flow.get("sessions_completed").unwrap() >= 1.0, "{flow:?}");
    let steps = arqlab::traffic::dialogue::smtp(1000, 1).len() as f64;
    let latency = flow.get("session_latency_s").unwrap();
    assert!(latency >= steps * 0.005, "session latency {latency} s for {steps} steps, each crossing the 5 ms radio");
}

/// The store-and-forward recurrence of a train of frames through hops: each router's
/// output port sends in the order frames become ready (fully received plus its
/// forwarding time), one at a time. `frames[h]` lists the frames (bits) leaving hop h's
/// sender, `from[h][j]` the frame of hop h-1 each came from. Returns the last arrival.
fn tandem(frames: &[Vec<f64>], from: &[Vec<usize>], hops: &[(f64, f64)], forwarding: &[f64]) -> f64 {
    let mut arrivals: Vec<f64> = vec![];
    for (h, bits) in frames.iter().enumerate() {
        let (rate, delay) = hops[h];
        let mut free = 0.0_f64;
        let mut next = vec![];
        for (j, b) in bits.iter().enumerate() {
            let ready = if h == 0 { 0.0 } else { arrivals[from[h][j]] + forwarding[h - 1] };
            let start = ready.max(free);
            free = start + b / rate;
            next.push(free + delay);
        }
        arrivals = next;
    }
    arrivals.into_iter().fold(0.0, f64::max)
}

#[test]
fn rfc791_ip_through_two_routers_fragments_to_each_mtu_and_reassembles_exactly_once() {
    use arqlab::protocol::ip::fragment::fragment_count;
    let sc = load("ip_fragmenting_routers.toml");
    let rep = replicate(&sc, 1, 0).unwrap();
    let acc = rep.accounting["flow.a->b"];
    assert_eq!((acc.issued, acc.delivered), (1, 1), "the message delivered once");
    // Fragment counts: the closed form at each MTU.
    assert_eq!((fragment_count(1000, 1500), fragment_count(1000, 576)), (1, 2));
    assert_eq!((fragment_count(552, 296), fragment_count(448, 296)), (3, 2));
    let ip = |scope: &str, m: &str| rep.batches[0][scope].get(m).unwrap_or_else(|| panic!("{scope} has no {m}"));
    assert_eq!((ip("ip.r1", "fragmented"), ip("ip.r1", "fragments_created")), (1.0, 2.0));
    assert_eq!((ip("ip.r2", "datagrams_in"), ip("ip.r2", "fragmented"), ip("ip.r2", "fragments_created")), (2.0, 2.0, 5.0));
    let t = &rep.batches[0]["transport.flow.a->b"];
    assert_eq!((t.get("ip_datagrams_sent"), t.get("ip_reassembled"), t.get("ip_reassembly_timeouts")), (Some(1.0), Some(1.0), Some(0.0)));
    // Delivery time: the fragments' store-and-forward recurrence, exact to the
    // picosecond rounding of each of its steps.
    let octets = |data: &[f64]| data.iter().map(|d| (20.0 + d) * 8.0).collect::<Vec<f64>>();
    let frames = [octets(&[1000.0]), octets(&[552.0, 448.0]), octets(&[272.0, 272.0, 8.0, 272.0, 176.0])];
    let from = [vec![], vec![0, 0], vec![0, 0, 0, 1, 1]];
    let want = tandem(&frames, &from, &[(9600.0, 0.001), (19200.0, 0.002), (4800.0, 0.003)], &[0.0005, 0.001]);
    let got = rep.batches[0]["flow.a->b"].get("transfer_time_s").unwrap();
    assert!((got - want).abs() <= 30e-12, "transfer time {got} s vs the recurrence {want} s");
}

#[test]
fn rfc791_a_datagram_whose_ttl_reaches_0_at_a_router_is_destroyed_and_counted() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose/ip_fragmenting_routers.toml");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("ttl = 64"));
    let sc = Scenario::from_value(&toml_to_json(&text.replace("ttl = 64", "ttl = 2")).unwrap()).unwrap();
    let rep = replicate(&sc, 1, 0).unwrap();
    let acc = rep.accounting["flow.a->b"];
    let ip = |scope: &str, m: &str| rep.batches[0][scope].get(m).unwrap();
    // TTL 2: r1 forwards it with TTL 1, r2 would send it on with 0 and destroys it.
    assert_eq!((ip("ip.r1", "ttl_expired"), ip("ip.r1", "datagrams_out")), (0.0, 1.0));
    assert_eq!((ip("ip.r2", "datagrams_in"), ip("ip.r2", "ttl_expired"), ip("ip.r2", "datagrams_out")), (2.0, 2.0, 0.0), "both fragments of r1");
    // Every message delivered once or counted as dropped: here none delivered.
    assert_eq!((acc.issued, acc.delivered), (1, 0));
    let t = &rep.batches[0]["transport.flow.a->b"];
    assert_eq!(t.get("ip_datagrams_delivered"), Some(0.0));
}

/// Loads a shipped composition with `from` replaced by `to` in its text.
fn load_with(file: &str, from: &str, to: &str) -> Scenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose").join(file);
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    Scenario::from_value(&toml_to_json(&text.replace(from, to)).unwrap()).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn tcp_ip_between_two_token_rings_is_limited_by_the_line_or_the_window() {
    // Error free: throughput = min(window / RTT, the line's share for user data).
    let (line, mss, hdr, ack) = (9600.0, 536.0 * 8.0, 40.0 * 8.0, 40.0 * 8.0); // TCP + IP headers: 20 + 20 octets
    let ring = 4e6;
    let (f, d) = (0.001, 0.05);
    let share = line * mss / (mss + hdr);
    let data_path = 2.0 * (mss + hdr) / ring + 2.0 * f + (mss + hdr) / line + d;
    let ack_path = 2.0 * ack / ring + 2.0 * f + ack / line + d;
    // The shipped window (4096 octets) is far above the line's share × RTT: line-bound.
    let sc = load("tcp_ip_two_rings.toml");
    assert!(4096.0 * 8.0 / (data_path + ack_path) > 5.0 * share);
    let rep = replicate(&sc, 1, 0).unwrap();
    let got = rep.batches[0]["flow.a->b"].get("throughput_bps").unwrap();
    assert!((got - share).abs() < 0.002 * share, "throughput {got} bit/s vs the line's share {share} bit/s");
    // Nothing lost, nothing fragmented (576-octet datagrams fit every MTU), all routed.
    let ip = |scope: &str, m: &str| rep.batches[0][scope].get(m).unwrap();
    for g in ["ip.g1", "ip.g2"] {
        assert_eq!(ip(g, "datagrams_in"), ip(g, "datagrams_out"), "{g}");
        assert_eq!((ip(g, "ttl_expired"), ip(g, "unroutable"), ip(g, "fragmented")), (0.0, 0.0, 0.0), "{g}");
    }
    assert_eq!(rep.batches[0]["transport.flow.a->b"].get("tcp_segments_retransmitted"), Some(0.0));
    // A one-segment window: each segment waits for its ACK, which the receiver holds for
    // the delayed-ACK timer (no second segment arrives): W / (data + 0.2 s + ACK path),
    // plus the token's wait on each ring (microseconds at 4 Mbit/s).
    let one = load_with("tcp_ip_two_rings.toml", "receive_window_octets = 4096", "receive_window_octets = 536");
    let rep = replicate(&one, 1, 0).unwrap();
    let got = rep.batches[0]["flow.a->b"].get("throughput_bps").unwrap();
    let want = mss / (data_path + 0.2 + ack_path);
    // A message more or less in the 270 s measured (the cycle cut at the window edges).
    let edge = mss / 270.0;
    assert!(got <= want + edge && got > want - edge - 0.001 * want, "one-segment window: {got} bit/s vs W / RTT = {want} bit/s");
    let again = replicate(&one, 1, 0).unwrap();
    assert_eq!((again.fingerprint, again.events), (rep.fingerprint, rep.events), "deterministic");
}

/// Hosts h0..h{n-1} on router r0, sink s on router r1, r0–r1 a slow line with a small
/// drop-tail buffer; each host sends `messages` datagrams of `bits` to s.
fn fan_in(n: usize, messages: u32, bits: u32, line_mtu: u32, buffer_octets: u32) -> Scenario {
    let mut t = format!(
        "[run]\nduration_s = 600.0\n[stack.ip]\nkind = \"ip\"\nreassembly_timeout_s = 5.0\n\
         [[relay]]\nname = \"r0\"\nkind = \"ip_router\"\nbuffer_octets = {buffer_octets}\n[[relay]]\nname = \"r1\"\nkind = \"ip_router\"\n\
         [[medium]]\nname = \"line\"\nends = [\"r0\", \"r1\"]\nrate_bps = 64000.0\ndelay_s = 0.01\nmtu_octets = {line_mtu}\n\
         [[medium]]\nname = \"ls\"\nends = [\"s\", \"r1\"]\nrate_bps = 1e6\n[[node]]\nname = \"s\"\nstack = \"ip\"\n"
    );
    for h in 0..n {
        t.push_str(&format!(
            "[[node]]\nname = \"h{h}\"\nstack = \"ip\"\n[[medium]]\nname = \"l{h}\"\nends = [\"h{h}\", \"r0\"]\nrate_bps = 1e6\n\
             [[flow]]\nfrom = \"h{h}\"\nto = \"s\"\ntraffic = {{ kind = \"bulk\", messages = {messages}, length = {{ dist = \"constant\", mean_bits = {bits} }} }}\n"
        ));
    }
    Scenario::from_toml(&t).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_datagram_through_ip_routers_is_delivered_once_or_counted_as_dropped() {
    // Datagrams that fit the line's MTU: each is one frame, so each is delivered or dropped whole.
    let sc = fan_in(8, 30, 4000, 1500, 3000);
    let rep = replicate(&sc, 2, 0).unwrap();
    let b = &rep.batches[0];
    let (mut issued, mut delivered) = (0, 0);
    for (name, a) in &rep.accounting {
        assert!(a.delivered <= a.issued, "{name}: delivered more than issued");
        issued += a.issued;
        delivered += a.delivered;
    }
    let dropped = b["node.r0.line"].get("frames_dropped").unwrap();
    assert!(dropped > 0.0, "the small buffer drops");
    assert_eq!(issued, 8 * 30);
    assert_eq!(issued as f64, delivered as f64 + dropped, "delivered once or dropped at the queue: nothing else is lost");
    for r in ["ip.r0", "ip.r1"] {
        let ip = |m: &str| b[r].get(m).unwrap();
        assert_eq!(ip("datagrams_in"), ip("ttl_expired") + ip("unroutable") + ip("datagrams_out"), "{r} balances");
    }
    // Datagrams cut in two at the line, a buffer that never overflows: each reassembled once.
    let sc = fan_in(8, 30, 8000, 576, 1_000_000);
    let rep = replicate(&sc, 2, 0).unwrap();
    let b = &rep.batches[0];
    assert_eq!(b["ip.r0"].get("fragmented"), Some(240.0));
    assert_eq!(b["ip.r0"].get("fragments_created"), Some(480.0), "⌈1000 / 552⌉ = 2 each");
    let delivered: u64 = rep.accounting.values().map(|a| a.delivered).sum();
    assert_eq!(delivered, 240);
}

/// Composition (b): TCP/IP from a token ring across a half-duplex HF radio to another
/// ring, error free, the routers terminating LLC2 on the rings and the HF ARQ on the
/// radio. Bound: throughput ≤ min(window / RTT, the HF hop's effective rate for these
/// datagrams) — the latter measured with the HF ARQ alone on the same radio carrying
/// saturated 576-octet SDUs (1881.6 bit/s), × 536/576. What the model should achieve:
/// every second the radio carries g1's data carries TCP's datagrams at the HF ARQ's own
/// rate per second of airtime (alone: 1881.6 / 0.887 = 2121 bit/s; composed: 1694.7 /
/// 0.820 = 2066 bit/s, 97.4 %: the rest is g1's acknowledgements of g2's TCP ACKs and
/// 6 segments re-sent after the start-up timeouts). Both failures this guards would
/// halve it: a router's HF ARQ not bound to the line's rate (its modem chose rates
/// from its whole 75–4800 bit/s table: 92.9 bit/s, 26 TCP timeouts) and a segment that
/// crosses the radio twice. The rest of the gap to the HF rate is the radio's other
/// use: g2's acknowledgements and TCP ACKs hold it 12.7 % of the time, plus a 0.5 s
/// turnaround each way per cycle. Measured: 1577.0 bit/s.
#[test]
fn tcp_over_an_hf_arq_link_between_two_lans_carries_each_segment_across_the_radio_once() {
    let sc = load("tcp_over_hf_between_lans.toml");
    let rep = replicate(&sc, 1, 0).unwrap();
    let got = rep.batches[0]["flow.a->b"].get("throughput_bps").unwrap();
    let alone = "[run]\nduration_s = 2000.0\nwarmup_s = 200.0\n[stack.hf]\nkind = \"hf_arq\"\n\
        [[medium]]\nname = \"hf\"\nkind = \"half_duplex_radio\"\nturnaround_s = 0.5\npreamble_s = 0.0\n\
        ends = [\"g1\", \"g2\"]\nrate_bps = 2400.0\ndelay_s = 0.005\n\
        [[node]]\nname = \"g1\"\nstack = \"hf\"\n[[node]]\nname = \"g2\"\nstack = \"hf\"\n\
        [[flow]]\nfrom = \"g1\"\nto = \"g2\"\ntraffic = { kind = \"saturated\", length = { dist = \"constant\", mean_bits = 4608 } }\n";
    let hf = Scenario::from_value(&toml_to_json(alone).unwrap()).unwrap();
    let hf_rep = replicate(&hf, 1, 0).unwrap();
    let hf_alone = hf_rep.batches[0]["flow.g1->g2"].get("throughput_bps").unwrap();
    let hf_rate = hf_alone * 536.0 / 576.0;
    let window = 4096.0 * 8.0 / (2.0 * 576.0 * 8.0 / 2400.0); // W / (the HF line's time for a segment and its ACK at least)
    let bound = hf_rate.min(window);
    assert!(got > 0.0 && got <= bound, "throughput {got} bit/s vs min(window / RTT, HF rate) = {bound} bit/s (HF alone {hf_alone})");
    let busy = |r: &arqlab::sim::Replication, lane: &str| r.batches[0][lane].get("utilisation").unwrap();
    let (fwd, rev) = (busy(&rep, "link.hf.g1->g2"), busy(&rep, "link.hf.g2->g1"));
    assert!(fwd + rev <= 1.0 + 1e-9, "a half-duplex radio: one side at a time ({fwd} + {rev})");
    let per_airtime = got * 576.0 / 536.0 / fwd;
    let alone_per_airtime = hf_alone / busy(&hf_rep, "link.hf.g1->g2");
    assert!(
        per_airtime >= 0.95 * alone_per_airtime,
        "the radio's data airtime carries {per_airtime} bit/s of datagrams, the HF ARQ alone {alone_per_airtime}: segments cross more than once"
    );
    let tcp = |m: &str| rep.batches[0]["transport.flow.a->b"].get(m).unwrap();
    assert!(tcp("tcp_segments_retransmitted") <= 0.02 * tcp("tcp_segments_sent"), "TCP re-sent {} of {}", tcp("tcp_segments_retransmitted"), tcp("tcp_segments_sent"));
    // Every segment delivered once in order (the runner checks it); the routers lose nothing.
    for g in ["ip.g1", "ip.g2"] {
        let ip = |m: &str| rep.batches[0][g].get(m).unwrap();
        assert_eq!(ip("datagrams_in"), ip("datagrams_out"), "{g}");
        assert_eq!((ip("ttl_expired"), ip("unroutable")), (0.0, 0.0), "{g}");
    }
    let again = replicate(&sc, 1, 0).unwrap();
    assert_eq!((again.fingerprint, again.events), (rep.fingerprint, rep.events), "deterministic");
}

#[test]
fn internet_1984_tcp_through_x25_gateways_is_limited_by_the_access_line_share() {
    // Error free, a 4096-octet window far above share × RTT: the bottleneck is the
    // gateways' 9600 bit/s LAPB access line. RFC 877: a 576-octet datagram (536 of TCP
    // data + 40 of headers) is one packet sequence of 128 + 128 + 128 + 128 + 64 octets,
    // each packet with a 3-octet header in a LAPB I frame of 48 bits of overhead.
    let (line, mss, dgram) = (9600.0, 536.0, 576.0);
    let packets = (dgram / 128.0_f64).ceil();
    let share = line * mss / (dgram + packets * (3.0 + 6.0));
    let sc = load("internet_1984.toml");
    let rep = replicate(&sc, 1, 0).unwrap();
    let b = &rep.batches[0];
    let got = b["flow.a->b"].get("throughput_bps").unwrap();
    // LAPB's own acknowledgements of the reverse direction's frames (TCP ACKs, X.25 RR
    // packets) share the line: at most 1 % below the data-only share, never above.
    assert!(got <= share && got > 0.99 * share, "throughput {got} bit/s vs the access line's share {share} bit/s");
    // No datagram lost: each gateway forwards all it receives, nothing fragmented or
    // dropped; what a sent and b has not got is in flight (at most a window's worth).
    let m = |scope: &str, k: &str| b[scope].get(k).unwrap();
    for g in ["ip.g1", "ip.g2"] {
        assert_eq!(m(g, "datagrams_in"), m(g, "datagrams_out"), "{g}");
        assert_eq!((m(g, "ttl_expired"), m(g, "unroutable"), m(g, "fragmented")), (0.0, 0.0, 0.0), "{g}");
    }
    assert_eq!((m("node.g1.x25net", "frames_dropped"), m("node.g2.x25net", "frames_dropped")), (0.0, 0.0));
    let t = "transport.flow.a->b";
    let in_flight = m(t, "ip_datagrams_sent") - m(t, "ip_datagrams_delivered");
    assert!((0.0..=(4096.0 / mss).ceil()).contains(&in_flight), "{in_flight} datagrams neither delivered nor in a window");
    for (name, a) in &rep.accounting {
        assert_eq!(a.delivered, a.acknowledged, "{name}: every delivered message acknowledged");
    }
    let again = replicate(&sc, 1, 0).unwrap();
    assert_eq!((again.fingerprint, again.events), (rep.fingerprint, rep.events), "deterministic");
}
