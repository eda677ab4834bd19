//! Stacks of any depth (`protocol::deep`): more than three layers run as a chain whose
//! payload type is the same at every depth. Guarded here: a chain gives the nested
//! stacks' trajectories bit for bit (every shipped composition, depths 1 to 3); four-
//! and five-layer stacks meet their closed forms with the runner's invariants (no
//! message lost, duplicated or reordered, counters balance) and are deterministic;
//! hosts of any depth work through an IP router with link stacks. (Nodes of different
//! depths in one run: `scenario::compose` tests.)

use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::{replicate, replicate_on, Path as RunPath, Replication};
use std::path::Path;

fn text(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose").join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn parse(text: &str) -> Scenario {
    let v = toml_to_json(text).unwrap();
    Scenario::from_value(&v).unwrap_or_else(|e| panic!("{e}"))
}

/// What a replication produced except its wall time, floats as exact bits.
fn record(r: &Replication) -> Vec<String> {
    let mut out = vec![format!("fingerprint {} events {} simulated {:016x}", r.fingerprint, r.events, r.simulated_s.to_bits())];
    for (w, batch) in r.batches.iter().enumerate() {
        for (scope, set) in batch {
            out.extend(set.iter().map(|(m, x)| format!("{w} {scope} {m} {:016x}", x.to_bits())));
        }
    }
    out.extend(r.accounting.iter().map(|(d, a)| format!("{d} {a:?}")));
    out
}

fn depth(sc: &Scenario) -> usize {
    sc.topology.nodes.iter().map(|n| n.stack.len()).max().unwrap_or(0)
}

/// The chain reproduces the nested composed stacks bit for bit: every shipped
/// composition (depths 1 to 3, routers with and without link stacks, X.25 gateways, the
/// HF ARQ, TP4, TCP, dialogues) run both ways gives the same fingerprint, event count,
/// measures of every scope and accounting. (`tests/golden.rs` holds every pinned case
/// to the same.)
#[test]
fn a_chain_gives_the_nested_stacks_trajectory_bit_for_bit() {
    let mut files: Vec<_> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/compose")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    files.sort();
    let mut depths = vec![];
    for file in files.iter().filter(|f| f.ends_with(".toml")) {
        let mut v = toml_to_json(&text(file)).unwrap();
        // Long enough to leave the warm-up; shorter than the shipped runs.
        let run = v["run"].as_object_mut().unwrap();
        let warmup = run.get("warmup_s").and_then(|x| x.as_f64()).unwrap_or(0.0);
        let duration = run["duration_s"].as_f64().unwrap().min(warmup + 60.0);
        run.insert("duration_s".into(), duration.into());
        let sc = Scenario::from_value(&v).unwrap_or_else(|e| panic!("{file}: {e}"));
        let d = depth(&sc);
        if d > 3 {
            continue; // no nested stack to compare with
        }
        depths.push(d);
        let nested = replicate_on(&sc, 5, 0, RunPath::Composed).unwrap_or_else(|e| panic!("{file}: {e}"));
        let chain = replicate_on(&sc, 5, 0, RunPath::Chain).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(nested.events > 0, "{file}: ran");
        assert_eq!(record(&nested), record(&chain), "{file} (depth {d}): the chain differs from the nested stack");
    }
    for d in 1..=3 {
        assert!(depths.contains(&d), "a shipped composition of depth {d} was compared ({depths:?})");
    }
}

/// Bulk TCP over IP in IP over a framing layer, error free: every layer adds its header
/// and nothing else goes the data's way, so the throughput is the line's share for user
/// data, R × 8·MSS / (8·MSS + 160 (TCP) + k × 160 (IP) + 48), for k = 2 (four layers)
/// and k = 3 (five). The runner checks every delivery (in order, once); the accounting
/// balances; no segment is sent twice; two runs are the same trajectory.
#[test]
fn four_and_five_layer_bulk_transfers_carry_the_lines_share_for_user_data() {
    let five = text("tcp_five_layers.toml");
    let four = five.replacen("  { kind = \"ip\" },\n", "", 1);
    for (layers, t) in [(5usize, five), (4, four)] {
        let sc = parse(&t);
        assert_eq!(depth(&sc), layers);
        let rep = replicate(&sc, 7, 0).unwrap();
        let ip_layers = layers as f64 - 2.0;
        let (r, data) = (64_000.0, 536.0 * 8.0);
        let want = r * data / (data + 160.0 + ip_layers * 160.0 + 48.0);
        let flow = &rep.batches[0]["flow.a->b"];
        let got = flow.get("throughput_bps").unwrap();
        // The measured 100 s cut at most a segment at each edge.
        let edge = 2.0 * data / 100.0;
        assert!((got - want).abs() <= edge, "{layers} layers: {got} bit/s vs the line's share {want} bit/s (± {edge})");
        let acc = rep.accounting["flow.a->b"];
        assert_eq!(acc.issued, acc.acknowledged + acc.unacknowledged, "{layers} layers: {acc:?}");
        assert!(acc.acknowledged <= acc.delivered && acc.delivered <= acc.issued, "{layers} layers: {acc:?}");
        // What is not delivered is in flight: at most the receive window's segments.
        assert!(acc.issued - acc.delivered <= 8192 / 536 + 2, "{layers} layers: {acc:?}");
        assert_eq!(flow.get("frames_retransmitted"), Some(0.0), "{layers} layers: error free, nothing sent twice");
        let again = replicate(&sc, 7, 0).unwrap();
        assert_eq!(record(&rep), record(&again), "{layers} layers: deterministic");
        let other = replicate(&sc, 8, 0).unwrap();
        assert_eq!(other.accounting["flow.a->b"].delivered, acc.delivered, "{layers} layers: error free, the seed changes nothing delivered");
    }
}

/// One 1000-bit message through an IP router with go-back-N interfaces from hosts
/// with k end-to-end go-back-N layers above IP (k = 0..3: stacks of 2 to 5 layers;
/// IP at layers[k], the router's depth hook): the transfer time is exactly the per-hop
/// store and forward of the I-frame, Σ (⌈(L + 48k) / 8⌉·8 + 160 + 48) / R_i + Σ d_i + f
/// (each go-back-N layer adds 48 bits; IP rounds to octets and adds 160).
#[test]
fn store_and_forward_through_a_router_is_exact_under_any_number_of_layers() {
    for k in 0..=3usize {
        let upper = "  { kind = \"go_back_n\", window = 7, modulus = 8, timeout_s = 5.0 },\n".repeat(k);
        let t = text("ip_over_arq_links.toml").replace("[stack.host]\nlayers = [\n", &format!("[stack.host]\nlayers = [\n{upper}"));
        let sc = parse(&t);
        assert_eq!(depth(&sc), k + 2);
        let rep = replicate(&sc, 1, 0).unwrap();
        let frame = ((1000.0 + 48.0 * k as f64) / 8.0).ceil() * 8.0 + 160.0 + 48.0;
        let want = frame / 9600.0 + 0.005 + 0.001 + frame / 19200.0 + 0.010;
        let got = rep.batches[0]["flow.a->b"].get("transfer_time_s").unwrap();
        assert!((got - want).abs() <= 5e-12, "k = {k}: transfer time {got} s vs the per-hop sum {want} s");
        let acc = rep.accounting["flow.a->b"];
        // Acknowledged end to end by the top go-back-N layer (IP alone acknowledges nothing).
        assert_eq!((acc.issued, acc.delivered, acc.acknowledged), (1, 1, u64::from(k > 0)), "k = {k}: delivered once");
        let ip = &rep.batches[0]["ip.r"];
        // One datagram a → b, plus one per end-to-end acknowledgement layer b → a.
        assert_eq!(ip.get("datagrams_in"), ip.get("datagrams_out"), "k = {k}: the router forwards all it receives");
    }
}

/// An SMTP dialogue over SMTP/TCP/IP/LLC2/MAC — the four layers `tcp`, `ip`, `llc2` and
/// a 48-bit MAC framing (`datagram`) under a `dialogue` flow — across the three hops
/// and two layer-2 relays of `smtp_three_hops.toml`: the session completes, each of the
/// script's steps released by the previous one's delivery, so no faster than one
/// crossing of the path (3 × 50 ms) per step; deterministic.
#[test]
fn an_smtp_dialogue_over_tcp_ip_llc2_and_a_mac_framing_completes_across_three_hops() {
    let t = text("smtp_three_hops.toml").replace(
        "  { kind = \"datagram\", overhead_bits = 48 },\n",
        "  { kind = \"ip\" },\n  { kind = \"llc2\" },\n  { kind = \"datagram\", overhead_bits = 48 },\n",
    );
    let sc = parse(&t);
    assert_eq!(depth(&sc), 4);
    let rep = replicate(&sc, 1, 0).unwrap();
    let flow = &rep.batches[0]["flow.client->server"];
    assert_eq!(flow.get("sessions_completed"), Some(1.0), "{flow:?}");
    let steps = arqlab::traffic::dialogue::smtp(1000, 1).len() as f64;
    let latency = flow.get("session_latency_s").unwrap();
    assert!(latency >= steps * 0.15, "session latency {latency} s for {steps} steps of at least 0.15 s");
    assert!(latency < steps * 0.15 + 30.0, "session latency {latency} s: stalled");
    for (d, acc) in &rep.accounting {
        assert_eq!(acc.issued, acc.delivered, "{d}: every message of the dialogue delivered once ({acc:?})");
    }
    assert_eq!(record(&rep), record(&replicate(&sc, 1, 0).unwrap()), "deterministic");
}

/// TP4 on top of a four-layer chain (TP4/IP/LLC2/framing, a to b on one 64 kbit/s line
/// of 235 ms, error free, 40 TSDUs of 1024 octets): every TSDU delivered and
/// acknowledged once, in order (the runner checks each delivery), no TPDU sent twice —
/// the flow reports TP4's own counters, as over one layer — no sooner than the data at
/// the line rate plus one propagation delay; deterministic.
#[test]
fn tp4_on_top_of_a_four_layer_chain_delivers_every_tsdu_once_and_reports_its_own_counters() {
    let t = text("tp4_over_x25.toml")
        .replace("  { kind = \"x25\", preopen_circuits = 1 },\n", "  { kind = \"ip\" },\n  { kind = \"llc2\" },\n  { kind = \"datagram\", overhead_bits = 48 },\n")
        .replace("rate_bps = 1e9", "rate_bps = 64000.0");
    let sc = parse(&t);
    assert_eq!(depth(&sc), 4);
    let rep = replicate(&sc, 3, 0).unwrap();
    let acc = rep.accounting["flow.a->b"];
    assert_eq!((acc.issued, acc.delivered, acc.acknowledged), (40, 40, 40), "{acc:?}");
    let flow = &rep.batches[0]["flow.a->b"];
    assert_eq!(flow.get("frames_retransmitted"), Some(0.0), "error free: no TPDU sent twice");
    let done = rep.batches[0]["run"].get("completion_time_s").unwrap();
    let bound = 40.0 * 8192.0 / 64_000.0 + 0.235;
    assert!(done >= bound, "completion {done} s below the bound {bound} s");
    assert!(rep.batches[0].contains_key("transport.flow.a->b"), "TP4's own measures: {:?}", rep.batches[0].keys().collect::<Vec<_>>());
    assert_eq!(record(&rep), record(&replicate(&sc, 3, 0).unwrap()), "deterministic");
}

/// A router with link stacks cuts a chain's datagrams (boxed, `Nested`) as it cuts the
/// nested stacks' (RFC 791, copy on write of the header it changes): the shipped
/// router scenario with an MTU of 96 octets on the second hop and one go-back-N layer
/// above `ip` (three layers, so both runners apply), nested and as a chain, gives the
/// same trajectory bit for bit, the datagram fragmented once into two and delivered.
#[test]
fn a_router_fragments_a_chains_datagrams_as_the_nested_stacks_ones() {
    let upper = "  { kind = \"go_back_n\", window = 7, modulus = 8, timeout_s = 5.0 },\n";
    let t = text("ip_over_arq_links.toml")
        .replace("[stack.host]\nlayers = [\n", &format!("[stack.host]\nlayers = [\n{upper}"))
        .replace("rate_bps = 19200.0\n", "rate_bps = 19200.0\nmtu_octets = 96\n");
    let sc = parse(&t);
    let nested = replicate_on(&sc, 1, 0, RunPath::Composed).unwrap();
    let chain = replicate_on(&sc, 1, 0, RunPath::Chain).unwrap();
    assert_eq!(record(&nested), record(&chain));
    let ip = &chain.batches[0]["ip.r"];
    assert_eq!((ip.get("fragmented"), ip.get("fragments_created")), (Some(1.0), Some(2.0)), "{ip:?}");
    let acc = chain.accounting["flow.a->b"];
    assert_eq!((acc.issued, acc.delivered, acc.acknowledged), (1, 1, 1));
}
