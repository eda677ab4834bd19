//! Johnson's two e-mail workloads over the HF ARQ protocols: SMTP over TCP (with
//! connection set-up) over `hf_arq`, and HMTP directly over `hf_arq`. The runner checks
//! exactly-once in-order delivery of every write of both directions at each delivery;
//! these tests add that every session completes with the script's octets, that TCP's
//! retransmissions meet the duplicate filter, and determinism.

use arqlab::scenario::Scenario;
use arqlab::sim::{replicate, run_experiment};

const VARIANTS: [&str; 4] = ["5066", "5066-1s", "hdl", "hdl-1d"];

/// The study's scenario: variant over the 5 dB channel, `sessions` back to back.
fn scenario(variant: &str, script: &str, sessions: u32) -> Scenario {
    scenario_with(variant, script, &format!("sessions = {sessions}"), 36000.0)
}

/// The same with the dialogue's keys `dialogue` and the run length `duration_s`.
fn scenario_with(variant: &str, script: &str, dialogue: &str, duration_s: f64) -> Scenario {
    let integrated = variant.starts_with("hdl");
    let (rate, turnaround, modem) = if integrated { (4800.0, 0.5, "mil-std-188-141b-appc") } else { (2400.0, 1.1, "mil-std-188-110b") };
    let arq = format!("{{ kind = \"hf_arq\", variant = \"{variant}\", initial_snr_db = 5.0 }}");
    let stack = if script == "smtp" {
        format!("layers = [{{ kind = \"tcp\", connection_setup = true }}, {arq}]")
    } else {
        format!("layers = [{arq}]")
    };
    let lane = format!("{{ error_model = \"hf\", channel = \"stable_5\", modem = \"{modem}\" }}");
    let text = format!(
        "[run]\nduration_s = {duration_s}\nwarmup_s = 0.0\nreplications = 2\n[stack.s]\n{stack}\n\
         [[medium]]\nname = \"hf\"\nkind = \"half_duplex_radio\"\nends = [\"client\", \"server\"]\nrate_bps = {rate}\n\
         delay_s = 0.01\nturnaround_s = {turnaround}\npreamble_s = 0.0\nforward = {lane}\nreverse = {lane}\n\
         [[node]]\nname = \"client\"\nstack = \"s\"\n[[node]]\nname = \"server\"\nstack = \"s\"\n\
         [[flow]]\nfrom = \"client\"\nto = \"server\"\ntraffic = {{ kind = \"dialogue\", script = \"{script}\", {dialogue} }}\n"
    );
    Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{variant} {script}: {e}"))
}

/// Octets of the SMTP script per direction (client, server): 13 lines with CRLF and
/// the 5,000-octet body, as docs/models/dialogue.md lists them.
fn script_octets() -> [u64; 2] {
    use arqlab::traffic::dialogue::{line_octets, SMTP_LINES};
    let mut o = [0, 0];
    for &(side, line) in SMTP_LINES {
        o[side.dir()] += line.map_or(5000, |l| u64::from(line_octets(l)));
    }
    o
}

#[test]
fn both_workloads_deliver_every_octet_once_in_order_over_the_four_protocols_at_5_db() {
    let octets = script_octets();
    for variant in VARIANTS {
        for script in ["smtp", "hmtp"] {
            let x = run_experiment(&scenario(variant, script, 3), 5, Some(2), None).unwrap_or_else(|e| panic!("{variant} {script}: {e}"));
            for r in &x.records {
                assert_eq!(r.batches[0]["flow.client->server"].get("sessions_completed"), Some(3.0), "{variant} {script}");
                for (k, scope) in ["flow.client->server", "flow.server->client"].into_iter().enumerate() {
                    let a = r.accounting[scope];
                    assert_eq!(a.issued, a.delivered, "{variant} {script} {scope}: {a:?}");
                    let bits = r.batches[0][scope].get("throughput_bps").unwrap() * r.simulated_s;
                    assert!((bits - (3 * octets[k] * 8) as f64).abs() < 1e-6 * bits, "{variant} {script} {scope}: {bits} bits");
                }
            }
            let m = &x.metrics["flow.client->server"];
            let (lat, thr) = (m["session_latency_s"].mean, m["message_throughput_bps"].mean);
            assert!(lat > 0.0 && lat.is_finite(), "{variant} {script}: {lat}");
            // Mean of per-replication throughputs, each 40,000 bits over that replication's mean latency.
            assert!(thr > 0.0 && thr <= 40_000.0 / lat * 2.0, "{variant} {script}: {thr} bit/s vs {lat} s");
            let sent = x.metrics["transport.flow.client->server"]["hf_packets_sent"].mean;
            let new = x.metrics["transport.flow.client->server"]["hf_packets_new"].mean;
            assert!(sent > new, "{variant} {script}: at 5 dB packets are lost and sent again ({sent} for {new})");
        }
    }
}

#[test]
fn tcp_retransmissions_meet_the_duplicate_filter() {
    // At 5 dB the ARQ holds a segment longer than TCP's RTO: TCP sends it again while
    // the first copy is still queued or unacknowledged, and the filter drops the copy.
    let x = run_experiment(&scenario("hdl", "smtp", 3), 5, Some(2), None).unwrap();
    let t = &x.metrics["transport.flow.client->server"];
    assert!(t["tcp_segments_retransmitted"].mean > 0.0);
    assert!(t["hf_duplicates_filtered"].mean > 0.0, "{:?}", t["hf_duplicates_filtered"]);
    assert!(t["hf_duplicates_filtered"].mean <= t["tcp_segments_retransmitted"].mean + 1e-9);
}

#[test]
fn same_seed_same_sessions() {
    for script in ["smtp", "hmtp"] {
        let sc = scenario("5066", script, 2);
        let (a, b) = (replicate(&sc, 9, 1).unwrap(), replicate(&sc, 9, 1).unwrap());
        assert_eq!(a.fingerprint, b.fingerprint, "{script}");
        assert_eq!(serde_json::to_string(&a.batches).unwrap(), serde_json::to_string(&b.batches).unwrap(), "{script}");
        let c = replicate(&sc, 10, 1).unwrap();
        assert_ne!(a.fingerprint, c.fingerprint, "{script}: another seed, another channel");
    }
}

#[test]
fn hf_arq_fits_under_any_layer_that_needs_messages_and_only_on_a_medium() {
    let text = |stack: &str| format!(
        "[run]\nduration_s = 60.0\n[stack.s]\n{stack}\n[[medium]]\nname = \"hf\"\nkind = \"half_duplex_radio\"\nends = [\"a\", \"b\"]\nrate_bps = 4800.0\n\
         [[node]]\nname = \"a\"\nstack = \"s\"\n[[node]]\nname = \"b\"\nstack = \"s\"\n[[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"poisson\", load = 0.1 }}\n"
    );
    let err = Scenario::from_toml(&text("layers = [{ kind = \"hf_arq\" }, { kind = \"datagram\" }]")).err().expect("accepted").problems();
    assert_eq!(err, vec!["stack.s.layers[0].kind = \"hf_arq\": hf_arq over datagram (layers[1]): hf_arq needs frames on a medium below it, but the layer below offers best-effort datagrams"]);
    assert!(Scenario::from_toml(&text("layers = [{ kind = \"go_back_n\" }, { kind = \"hf_arq\" }]")).is_ok(), "a link over the HF ARQ's reliable messages");
    let err = Scenario::from_toml(&text("layers = [{ kind = \"tcp\" }, { kind = \"hf_arq\" }]")).err().map(|e| e.problems()).unwrap_or_default();
    assert!(err.iter().all(|p| !p.contains("hf_arq")), "{err:?}");
}

#[test]
fn the_filter_key_names_a_tcp_segment_by_sequence_number_length_and_syn() {
    use arqlab::protocol::{Frame, FrameKind, Payload, Sdu};
    let seg = |ns: u32, nr: u32, bits: u32, command: bool| Frame::<Sdu> { kind: FrameKind::I, ns, nr, pf: false, command, bits, msg: None };
    // A retransmission carries a newer acknowledgement: still the same segment.
    assert_eq!(seg(537, 10, 4448, false).filter_key(), seg(537, 99, 4448, false).filter_key());
    assert!(seg(537, 10, 4448, false).filter_key().is_some());
    assert_ne!(seg(537, 10, 4448, false).filter_key(), seg(1073, 10, 4448, false).filter_key(), "another sequence number");
    assert_ne!(seg(537, 10, 4448, false).filter_key(), seg(537, 10, 2000, false).filter_key(), "another length");
    assert_ne!(seg(0, 0, 160, true).filter_key(), seg(0, 0, 160, false).filter_key(), "a SYN is not a data segment");
    // ACKs are never filtered: a newer ACK must not be dropped for an older one.
    assert_eq!(Frame::<Sdu>::supervisory(FrameKind::RR, 5, false, 160).filter_key(), None);
    let sdu = Sdu { id: 0, bits: 8, flow: 0, born: arqlab::engine::SimTime::ZERO };
    assert_eq!(sdu.filter_key(), None, "plain traffic-source SDUs never match");
}

#[test]
fn sessions_started_before_start_until_run_to_completion_and_the_cut_one_is_counted() {
    // HMTP over HDL at 5 dB: sessions last ~100–200 s. Run A starts sessions for 600 s
    // and ends when the one in progress then completes (the 10 h cap is not reached);
    // run B stops at 600 s sharp and leaves that session out of the mean.
    let a = scenario_with("hdl", "hmtp", "sessions = 100000, start_until_s = 600.0", 36000.0);
    let b = scenario_with("hdl", "hmtp", "sessions = 100000", 600.0);
    for seed in 1..=3 {
        let (ra, rb) = (replicate(&a, seed, 0).unwrap(), replicate(&b, seed, 0).unwrap());
        let (fa, fb) = (&ra.batches[0]["flow.client->server"], &rb.batches[0]["flow.client->server"]);
        assert!(ra.simulated_s > 600.0 && ra.simulated_s < 600.0 + 2000.0, "{}", ra.simulated_s);
        assert_eq!(ra.batches[0]["run"].get("completed"), Some(1.0));
        assert_eq!(ra.batches[0]["run"].get("completion_time_s"), Some(ra.simulated_s));
        assert_eq!((fa.get("sessions_censored"), fb.get("sessions_censored")), (Some(0.0), Some(1.0)));
        assert_eq!(rb.simulated_s, 600.0);
        // Same seed, same trajectory up to 600 s: A completes B's sessions and the cut one.
        assert_eq!(fa.get("sessions_completed").unwrap(), fb.get("sessions_completed").unwrap() + 1.0, "seed {seed}");
        let (la, lb) = (fa.get("session_latency_s").unwrap(), fb.get("session_latency_s").unwrap());
        assert!(la.is_finite() && lb.is_finite());
    }
}

/// The latency of one error-free SMTP session over TCP over the HF ARQ layer `arq`
/// (lanes without errors; TCP with MSS and window above the body, an RTO no exchange
/// reaches, no delayed ACK), with radio turnaround `tau`.
fn error_free_session(arq: &str, tau: f64) -> f64 {
    let text = format!(
        "[run]\nduration_s = 36000.0\nwarmup_s = 0.0\nreplications = 1\n[stack.s]\n\
         layers = [{{ kind = \"tcp\", connection_setup = true, mss_octets = 6000, receive_window_octets = 8000, \
         initial_rto_s = 3000.0, min_rto_s = 3000.0, max_rto_s = 3600.0, delayed_ack_s = 0.0 }}, {arq}]\n\
         [[medium]]\nname = \"hf\"\nkind = \"half_duplex_radio\"\nends = [\"client\", \"server\"]\nrate_bps = 4800.0\n\
         delay_s = 0.01\nturnaround_s = {tau}\npreamble_s = 0.0\n\
         [[node]]\nname = \"client\"\nstack = \"s\"\n[[node]]\nname = \"server\"\nstack = \"s\"\n\
         [[flow]]\nfrom = \"client\"\nto = \"server\"\ntraffic = {{ kind = \"dialogue\", script = \"smtp\" }}\n"
    );
    let sc = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    let r = replicate(&sc, 1, 0).unwrap_or_else(|e| panic!("{e}"));
    let m = &r.batches[0]["flow.client->server"];
    assert_eq!(m.get("frames_in_error"), Some(0.0));
    m.get("session_latency_s").unwrap()
}

/// Closed form of an error-free SMTP session over TCP over 5066 (selective repeat,
/// duplex, external 110B modem at 4800 bit/s: preamble 0.6 s, data rounded up to whole
/// 0.6 s interleaver blocks; turnaround τ = 1.1 s, t_p = 10 ms). TCP with MSS and
/// window above the body (every write one segment) and an RTO no exchange reaches;
/// no delayed ACK. Each transmission answers the previous one (an HF ACK of 160 bits
/// first when it carried data), then carries what TCP has ready, one HF packet per
/// 200 octets of a segment (+128 header bits). The 18 transmissions: SYN; SYN-ACK;
/// TCP's ACK; the 13 lines in turn — but the 5,020-octet body segment is 26 packets,
/// over the 24-packet transmission, so the body takes two client transmissions around
/// an ACK-only one; the last is the 221, followed by the server's FIN. The session ends
/// when the 221's packet arrives.
#[test]
fn error_free_smtp_over_tcp_over_5066_is_the_sum_of_its_transmissions() {
    use arqlab::traffic::dialogue::{line_octets, Side, SMTP_LINES};
    let (tau, tp, rate, pre, block) = (1.1, 0.01, 4800.0, 0.6, 0.6);
    let (hf_ack, hf_header, tcp_header, seg) = (160u64, 128u64, 160u64, 1600u64);
    // The HF packets of one TCP segment of `octets` data octets.
    let packets = |octets: u64| -> Vec<u64> {
        let bits = tcp_header + 8 * octets;
        (0..bits.div_ceil(seg)).map(|i| (bits - i * seg).min(seg) + hf_header).collect()
    };
    let lines: Vec<u64> = SMTP_LINES.iter().map(|&(_, l)| l.map_or(5000, |l| u64::from(line_octets(l)))).collect();
    assert_eq!(SMTP_LINES[9], (Side::Client, None));
    // (sender is the client, packets); the first of each answering transmission an ACK.
    let mut tx: Vec<Vec<u64>> = vec![packets(0), [vec![hf_ack], packets(0)].concat(), [vec![hf_ack], packets(0)].concat()];
    for (i, &o) in lines.iter().enumerate() {
        let p = packets(o);
        if i == 9 {
            assert_eq!(p.len(), 26, "5,020 octets in 200-octet packets");
            tx.push([vec![hf_ack], p[..24].to_vec()].concat());
            tx.push(vec![hf_ack]);
            tx.push(p[24..].to_vec());
        } else if i == 12 {
            tx.push([vec![hf_ack], p, packets(0)].concat());
        } else {
            tx.push([vec![hf_ack], p].concat());
        }
    }
    assert_eq!(tx.len(), 18);
    let duration = |bits: u64| pre + ((bits as f64 / rate / block) - 1e-9).ceil().max(1.0) * block;
    let mut start = 0.0;
    for t in &tx[..tx.len() - 1] {
        start += duration(t.iter().sum()) + tp + tau;
    }
    // The 221 packet is the second of the last transmission (after the HF ACK).
    let last = &tx[tx.len() - 1];
    let want = start + pre + (last[0] + last[1]) as f64 / rate + tp;

    let got = error_free_session("{ kind = \"hf_arq\", variant = \"5066\", initial_snr_db = 40.0, modem = \"mil-std-188-110b\" }", 1.1);
    assert!((got - want).abs() < 1e-6, "simulated {got} s, closed form {want} s");
    assert!(want > 18.0 * (pre + block + tau), "18 transmissions: {want} s");
}

/// Closed form of an error-free SMTP session over TCP over HDL (selective repeat,
/// simplex, the 141B burst modem: a BW2 transmission of k data packets lasts 0.64 +
/// 0.4·n s with n the smallest of 3, 6, 12, 24 that holds them; an acknowledgement,
/// REQUEST or RELEASE is a 1.30667 s BW1 burst; τ = 0.5 s, t_p = 10 ms). TCP as in the
/// 5066 case. Simplex: nobody holds the data direction at first, so the client asks
/// (REQUEST), the server hands it over (RELEASE) and the SYN goes; from then on every
/// TCP segment the other side sends costs three transmissions — the receiver's ACK
/// with the request flag, the holder's RELEASE, the data: 12 transmissions to the 220,
/// then 3 per line; the body's 5,020 octets are 22 packets in one 24-slot burst; the
/// last transmission is the 221 and the server's FIN, and the session ends when the
/// 221 (the first slot) arrives.
#[test]
fn error_free_smtp_over_tcp_over_hdl_is_the_sum_of_its_transmissions() {
    use arqlab::traffic::dialogue::{line_octets, SMTP_LINES};
    let (tau, tp, pre, slot, bw1) = (0.5, 0.01, 0.64, 0.4, 0.66667);
    let (tcp_header, seg) = (160u64, 1864u64);
    let data = |packets: u64| pre + slot * [3u64, 6, 12, 24].into_iter().find(|&n| n >= packets).unwrap() as f64;
    let control = pre + bw1;
    let packets = |octets: u64| (tcp_header + 8 * octets).div_ceil(seg);
    // REQ, REL, SYN; ACK+req, REL, SYN-ACK; ACK+req, REL, TCP's ACK; ACK+req, REL, 220.
    let mut tx = vec![control, control, data(1), control, control, data(1), control, control, data(1), control, control];
    let lines: Vec<u64> = SMTP_LINES.iter().map(|&(_, l)| l.map_or(5000, |l| u64::from(line_octets(l)))).collect();
    assert_eq!(packets(5000), 22);
    for (i, &o) in lines.iter().enumerate() {
        if i > 0 {
            tx.extend([control, control]);
        }
        // The 221 is followed by the server's FIN in the same burst.
        tx.push(data(packets(o) + u64::from(i == 12)));
    }
    assert_eq!(tx.len(), 48);
    let start: f64 = tx[..47].iter().map(|d| d + tp + tau).sum();
    let want = start + pre + slot + tp;

    let got = error_free_session("{ kind = \"hf_arq\", variant = \"hdl\", initial_snr_db = 40.0 }", 0.5);
    assert!((got - want).abs() < 1e-6, "simulated {got} s, closed form {want} s");
}
