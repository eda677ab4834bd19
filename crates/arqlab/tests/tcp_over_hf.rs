//! TCP directly on the HF ARQ (stack `tcp`, `hf_arq`) on a 2400 bit/s half-duplex HF
//! radio: the saturated source keeps the stack supplied for a whole HF transmission
//! (`Stacked::saturation_depth` / `Composed::saturation_depth`: the lower layer's
//! burst), so TCP hands the HF ARQ every segment its window allows when the ARQ plans
//! a transmission, not one.

use arqlab::engine::SimTime;
use arqlab::scenario::{toml_to_json, Scenario};
use arqlab::sim::{replicate, trace};
use arqlab::trace::TraceKind;

/// TCP (MSS 536, a window of 7 segments: 3752 octets) on the HF ARQ, a → b.
fn tcp_on_hf(flow: &str, to: &str, kind: &str, bits: u32) -> Scenario {
    let text = format!(
        "[run]\nduration_s = 2000.0\nwarmup_s = 200.0\n\
         [stack.s]\nlayers = [{{ kind = \"tcp\", mss_octets = 536, receive_window_octets = 3752 }}, {{ kind = \"hf_arq\" }}]\n\
         [stack.hf]\nkind = \"hf_arq\"\n\
         [[medium]]\nname = \"hf\"\nkind = \"half_duplex_radio\"\nturnaround_s = 0.5\npreamble_s = 0.0\nends = [\"{flow}\", \"{to}\"]\nrate_bps = 2400.0\ndelay_s = 0.005\n\
         [[node]]\nname = \"{flow}\"\nstack = \"{kind}\"\n[[node]]\nname = \"{to}\"\nstack = \"{kind}\"\n\
         [[flow]]\nfrom = \"{flow}\"\nto = \"{to}\"\ntraffic = {{ kind = \"saturated\", length = {{ dist = \"constant\", mean_bits = {bits} }} }}\n"
    );
    Scenario::from_value(&toml_to_json(&text).unwrap()).unwrap_or_else(|e| panic!("{e}"))
}

/// With a window of 7 the HF ARQ's data transmissions carry several segments each
/// (before: one, 4288 bits per 5.21 s cycle, 824 bit/s), and the throughput is bounded
/// by the HF ARQ's own rate for this SDU size, measured alone on the same radio with
/// saturated 536-octet SDUs (its bursts as full as it plans them): TCP adds a 20-octet
/// header to each and the receiver's ACKs take turns on the radio, so TCP gets less,
/// but at least the half of it that one segment per cycle could never reach.
#[test]
fn tcp_on_the_hf_arq_with_a_window_of_7_sends_bursts_of_several_segments() {
    let sc = tcp_on_hf("a", "b", "s", 4288);
    let t = trace(&sc, 1, 0, SimTime::from_secs_f64(200.0), SimTime::from_secs_f64(400.0), 1_000_000).unwrap();
    // Messages (segments) per data transmission of a: the distinct message numbers a
    // sends between two of b's transmissions.
    let mut bursts: Vec<usize> = vec![];
    let mut cur: Vec<u64> = vec![];
    for r in &t.records {
        if !matches!(r.event, TraceKind::Send) {
            continue;
        }
        match (r.station.as_str(), r.frame.as_ref().and_then(|f| f.message)) {
            ("a", Some(m)) if !cur.contains(&m) => cur.push(m),
            ("b", _) if !cur.is_empty() => bursts.push(std::mem::take(&mut cur).len()),
            _ => {}
        }
    }
    let mean = bursts.iter().sum::<usize>() as f64 / bursts.len() as f64;
    assert!(bursts.len() > 10 && mean >= 3.0, "segments per HF transmission: mean {mean} over {} transmissions ({bursts:?})", bursts.len());
    let got = replicate(&sc, 1, 0).unwrap().batches[0]["flow.a->b"].get("throughput_bps").unwrap();
    let alone = replicate(&tcp_on_hf("a", "b", "hf", 4288), 1, 0).unwrap().batches[0]["flow.a->b"].get("throughput_bps").unwrap();
    assert!(got <= alone && got >= 0.5 * alone && got > 2.0 * 824.2, "TCP on the HF ARQ {got} bit/s vs the HF ARQ alone {alone} bit/s");
}
