//! Frames in flight over a window, for captures (pcap) and ladder diagrams: each frame
//! sent in [from, to] with when it left, when its last bit reached the peer and whether
//! the peer's FCS check failed; plus the timer expiries of the window. Built from a
//! frame-level trace after the run ([`super::trace`]), never during it, so a run that
//! is captured is the same trajectory as one that is not.
//!
//! Encoders live with their protocols (`protocol/*/wire.rs`); [`ENCODERS`] is where each
//! registers, tried in order on the resolved `[protocol]` table.

use super::trace;
use crate::engine::SimTime;
use crate::protocol::{hdlc, textbook, tp4};
use crate::scenario::Scenario;
use crate::trace::pcap::{self, LinkType, Packet};
use crate::trace::wire::{Family, Wire};
use crate::trace::{TraceFrame, TraceKind, TraceRecord};
use serde::Serialize;
use std::collections::HashMap;

/// Why a capture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// The request cannot be met (window too busy, a frame with no encoding): the
    /// user's to fix, reported in one line.
    #[error("{0}")]
    Input(String),
    /// The simulation failed (a model bug).
    #[error(transparent)]
    Sim(#[from] super::SimError),
}

/// A protocol's encoder constructor: `None` if the `[protocol]` table is not its own.
pub type WireFor = fn(&serde_json::Value) -> Option<Result<Box<dyn Wire>, String>>;

/// Every protocol's encoder. A new model adds its `wire_for` here.
pub const ENCODERS: &[WireFor] = &[hdlc::wire::wire_for, textbook::wire::wire_for, tp4::wire::wire_for, crate::protocol::x25::wire::wire_for, crate::protocol::llc2::wire::wire_for, crate::protocol::hf::wire::wire_for];

/// One frame sent in the window.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Flight {
    /// Frame number on its direction since the start of the run.
    pub seq: u64,
    /// "A" or "B".
    pub sender: &'static str,
    /// Start of transmission (s).
    pub sent_s: f64,
    /// Last bit sent (s).
    pub tx_end_s: f64,
    /// Last bit received at the peer (s).
    pub arrived_s: f64,
    /// The peer's FCS check failed (the channel corrupted the frame).
    pub in_error: bool,
    pub frame: TraceFrame,
}

/// A retransmission-timer expiry in the window.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Expiry {
    pub station: &'static str,
    pub time_s: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Flights {
    pub from_s: f64,
    pub to_s: f64,
    pub flights: Vec<Flight>,
    pub expiries: Vec<Expiry>,
}

/// The frames sent by either station between `from` and `to` of replication
/// `replication`, with their outcomes. Frames still in flight at `to` are followed to
/// their arrival (a second traced run to the last arrival). Fails if the window holds
/// more than `limit` trace events.
pub fn flights(
    sc: &Scenario,
    seed: u64,
    replication: u64,
    from: SimTime,
    to: SimTime,
    limit: usize,
) -> Result<Flights, CaptureError> {
    if !sc.topology.pair {
        return Err(CaptureError::Input(
            "captures and ladder diagrams cover the two-node form ([link], [protocol], [traffic]) for now".into(),
        ));
    }
    let run = |end: SimTime| -> Result<Vec<TraceRecord>, CaptureError> {
        let t = trace(sc, seed, replication, from, end, limit)?;
        if t.dropped > 0 {
            return Err(CaptureError::Input(format!(
                "the window holds more than {limit} trace events; narrow it (--from/--to)"
            )));
        }
        Ok(t.records)
    };
    let mut records = run(to)?;
    let (rate, delay) = (sc.link.rate_bps, sc.link.delay_s);
    let tx = |f: &TraceFrame| f.bits as f64 / rate;
    let last = records
        .iter()
        .filter(|r| r.event == TraceKind::Send)
        .filter_map(|r| r.frame.map(|f| r.time_s + tx(&f) + delay))
        .fold(f64::NEG_INFINITY, f64::max);
    if last > to.as_secs_f64() {
        // Arrivals at the run's last instant come after its end event: run 1 µs more.
        records = run(SimTime::from_secs_f64(last + 1e-6))?;
    }
    // PDUs with their own airtime (an HF modem's) may take longer than bits / rate:
    // run further until every frame sent in the window has arrived.
    let mut end = last.max(to.as_secs_f64());
    for _ in 0..8 {
        let lane = |st: &str, received: bool| usize::from(st == "B") ^ usize::from(received);
        let arrived: std::collections::HashSet<(usize, u64)> =
            records.iter().filter(|r| matches!(r.event, TraceKind::Receive | TraceKind::ReceiveInError)).filter_map(|r| Some((lane(&r.station, true), r.seq?))).collect();
        let missing = records.iter().filter(|r| r.event == TraceKind::Send && r.time_s <= to.as_secs_f64()).filter_map(|r| Some((lane(&r.station, false), r.seq?))).any(|k| !arrived.contains(&k));
        if !missing {
            break;
        }
        end += (end - from.as_secs_f64()).max(1.0);
        records = run(SimTime::from_secs_f64(end))?;
    }
    let side = |s: &str| usize::from(s == "B");
    let name = |s: &str| if s == "B" { "B" } else { "A" };
    let mut arrivals: HashMap<(usize, u64), (f64, bool)> = HashMap::new();
    for r in &records {
        if let (TraceKind::Receive | TraceKind::ReceiveInError, Some(seq)) = (r.event, r.seq) {
            let lane = 1 - side(&r.station);
            arrivals.insert(
                (lane, seq),
                (r.time_s, r.event == TraceKind::ReceiveInError),
            );
        }
    }
    let to_s = to.as_secs_f64();
    let mut out = Flights {
        from_s: from.as_secs_f64(),
        to_s,
        flights: vec![],
        expiries: vec![],
    };
    for r in records.iter().filter(|r| r.time_s <= to_s) {
        match (r.event, r.frame, r.seq) {
            (TraceKind::Send, Some(frame), Some(seq)) => {
                let Some(&(arrived_s, in_error)) = arrivals.get(&(side(&r.station), seq)) else {
                    let msg = format!(
                        "frame {seq} from {} sent at {} s never arrived",
                        r.station, r.time_s
                    );
                    return Err(CaptureError::Input(msg));
                };
                // A PDU with its own airtime (an HF modem's) ends when its arrival says.
                let by_rate = r.time_s + tx(&frame);
                let tx_end_s = if (arrived_s - delay - by_rate).abs() > 1e-9 { arrived_s - delay } else { by_rate };
                out.flights.push(Flight {
                    seq,
                    sender: name(&r.station),
                    sent_s: r.time_s,
                    tx_end_s,
                    arrived_s,
                    in_error,
                    frame,
                });
            }
            (TraceKind::Timeout, _, _) => out.expiries.push(Expiry {
                station: name(&r.station),
                time_s: r.time_s,
            }),
            _ => {}
        }
    }
    Ok(out)
}

/// The encoder registered for `sc`'s protocol.
pub fn encoder(sc: &Scenario) -> Result<Box<dyn Wire>, String> {
    let table = serde_json::to_value(&sc.protocol).map_err(|e| e.to_string())?;
    ENCODERS.iter().find_map(|w| w(&table)).unwrap_or_else(|| {
        // Name the key as the user wrote it: the pair form's [protocol], or the stack.
        let at = match &sc.network {
            Some(net) => format!("stack.{}", net.stack.keys().next().map_or("?", String::as_str)),
            None => "protocol".into(),
        };
        Err(format!("{at}.kind = {}: no frame encoder registered (traces and captures need one)", table["kind"]))
    })
}

/// One capture per observed interface: (interface name, pcap file). A two-station
/// scenario has one interface, "link": the line at station A (the DTE), on which A's
/// frames are sent and B's received; each frame is as its receiver got it (a
/// corrupted frame carries a failing FCS), stamped with its start of transmission.
pub fn pcap(
    flights: &Flights,
    sc: &Scenario,
    link: LinkType,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let wire = encoder(sc)?;
    // A family with one link type gets it whatever was asked (TPDUs go in Ethernet,
    // LLC2 PDUs in token-ring frames, D_PDUs in STANAG 5066 records).
    let link = match wire.family() {
        Family::Cotp => LinkType::Ethernet,
        Family::TokenRing => LinkType::TokenRing,
        Family::S5066 => LinkType::Stanag5066,
        Family::Hdlc => link,
    };
    if !link.carries(wire.family()) {
        return Err(format!(
            "pcap link type {link:?} cannot carry {:?} frames",
            wire.family()
        ));
    }
    let mut packets = Vec::with_capacity(flights.flights.len());
    for f in &flights.flights {
        let sender = usize::from(f.sender == "B");
        let mut bytes = wire.encode(&f.frame, sender)?;
        if f.in_error {
            wire.corrupt(&mut bytes);
        }
        packets.push(Packet {
            time_ns: (f.sent_s * 1e9).round() as u64,
            sent: sender == 0,
            crc_error: f.in_error,
            bytes,
        });
    }
    Ok(vec![("link".to_string(), pcap::write(link, &packets))])
}
