//! The reordering hazard of small sequence spaces. A relay with a random transit delay
//! lets frames overtake each other. Go-back-N, selective repeat, stop-and-wait, HDLC and
//! LLC2 number their frames modulo M and tolerate reordering only while no frame (or
//! acknowledgement) is delayed past the reuse of its sequence number: once it is, an old
//! frame is taken for a new one and in-order delivery breaks (the run stops with
//! "acknowledged before delivered"). Their sequence numbers are reused after at least M
//! frames, so the hazard is decided conservatively: the path's delay spread (the most a
//! later frame can gain on an earlier one) must be below M × the transmission time of
//! the shortest possible frame (header only) at the path's fastest rate. An exponential
//! delay has an unbounded spread. TP4, TCP and X.25 are not checked here (TP4 and TCP
//! have large sequence spaces; X.25's network side is in order by contract).

use super::topology::{DelayConfig, End, Topology};
use super::ProtocolConfig;
use crate::schema::Problems;

/// The most a later frame can gain on an earlier one in this delay (`INFINITY`: no bound).
fn spread_s(d: &DelayConfig) -> f64 {
    match d {
        DelayConfig::Constant { .. } => 0.0,
        DelayConfig::Exponential { .. } => f64::INFINITY,
        DelayConfig::Uniform { min_s, max_s } => max_s - min_s,
        DelayConfig::Profile { shape, .. } if shape == "exponential" => f64::INFINITY,
        // A step down of the mean lets frames that arrive after it overtake earlier ones.
        DelayConfig::Profile { means_s, .. } => means_s.iter().copied().fold(f64::NEG_INFINITY, f64::max) - means_s.iter().copied().fold(f64::INFINITY, f64::min),
    }
}

/// (protocol kind, modulus, header bits) of a layer with a small sequence space.
fn sequence_space(c: &ProtocolConfig) -> Option<(&'static str, u32, u32)> {
    match c {
        ProtocolConfig::StopAndWait(t) | ProtocolConfig::GoBackN(t) | ProtocolConfig::SelectiveRepeat(t) => Some((c.kind(), t.modulus, t.overhead_bits)),
        ProtocolConfig::Hdlc(h) => Some(("hdlc", h.modulus, h.overhead_bits)),
        ProtocolConfig::Llc2(l) => Some(("llc2", 128, l.header_bits)),
        _ => None,
    }
}

/// Adds a problem for every flow whose path can reorder beyond its sequence space.
pub fn check(topo: &Topology, p: &mut Problems) {
    if topo.relays.iter().all(|r| spread_s(&r.config.delay()) == 0.0) {
        return;
    }
    for f in &topo.flows {
        let Some((kind, modulus, header)) = topo.nodes[f.src as usize].stack.iter().filter_map(sequence_space).min_by_key(|s| s.1) else {
            continue;
        };
        // Walk the path: lane by lane, through each relay's route to the destination.
        let (mut lane, mut spread, mut rate, mut worst) = (topo.nodes[f.src as usize].lane, 0.0, 0.0_f64, None);
        for _ in 0..=topo.relays.len() {
            if lane as usize >= 2 * topo.media.len() {
                break; // a token ring: no relay delay on it
            }
            rate = rate.max(topo.lane_rate(lane));
            let End::Relay(r) = topo.lane_target(lane) else { break };
            let relay = &topo.relays[r as usize];
            let s = spread_s(&relay.config.delay());
            if s > 0.0 && worst.is_none_or(|(w, _)| s > w) {
                worst = Some((s, r));
            }
            spread += s;
            match relay.routes.get(f.dst as usize).copied().flatten() {
                Some(k) => lane = relay.lanes[k],
                None => break,
            }
        }
        let tolerated = modulus as f64 * header as f64 / rate;
        if let (Some((_, r)), true) = (worst, spread >= tolerated) {
            let name = &topo.relays[r as usize].config.name;
            let how = if spread.is_finite() { format!("by up to {spread:.6} s") } else { "without bound".into() };
            p.push(
                format!("relay.{name}.transit_delay"),
                None,
                format!(
                    "a delay that reorders frames {how} on the path of {} ({kind}, modulus {modulus}): a frame delayed past the reuse of its sequence number is taken for a new one and in-order delivery breaks; \
                     expected a reordering below modulus x the shortest frame's transmission time ({tolerated:.6} s): a constant delay, a narrower uniform one, or a large sequence space end to end (tp4)",
                    f.scope
                ),
            );
        }
    }
}
