//! Frame-level traces: what each station sent and received, and when, over a window of
//! one replication. For debugging a model and for explaining a result (why did this
//! replication's transfer time jump?), not for the hot path: a run without a trace pays
//! one `Option` test per frame.
//!
//! Records are kept in memory up to a limit; the run itself is the same trajectory as
//! the untraced replication (same scenario, seed and replication number).

pub mod pcap;
pub mod wire;

use crate::engine::SimTime;
use serde::Serialize;

/// A frame as a trace shows it: the protocol-independent header fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TraceFrame {
    /// I, RR, RNR, REJ or SREJ.
    pub kind: &'static str,
    /// N(S) (I frames only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ns: Option<u32>,
    /// N(R).
    pub nr: u32,
    /// The P/F bit.
    pub pf: bool,
    /// Command (true) or response (false).
    pub command: bool,
    /// Length on the line.
    pub bits: u32,
    /// Information-field bits (the message carried; 0 for S frames). For encoders
    /// (`trace::wire`): `bits - info_bits` is the protocol's overhead.
    pub info_bits: u32,
    /// Id of the message carried (I frames only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<u64>,
}

/// What a frame carries besides its own header: the PDU of the layer above (a TCP
/// segment in an LLC2 frame or an X.25 data packet), and where the carrier puts it. For
/// encoders that write the carried PDU as real bytes (`protocol::tcp::wire`); captures'
/// flights show it beside the frame. Never read by a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Carried {
    /// The header fields of the PDU of the layer above, as its own layer's trace shows
    /// them (a TCP segment: I with `command` = SYN, RR = a pure ACK; N(S) = sequence
    /// number, N(R) = acknowledgement); absent in a carrier's control PDUs (an X.25 RR).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pdu: Option<TraceFrame>,
    /// Place of this piece in the carried PDU when the carrier splits it (an X.25 data
    /// packet's index in its datagram, from 0); 0 when carried whole.
    pub piece: u32,
    /// The carrier's circuit (an X.25 packet's virtual circuit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub circuit: Option<u32>,
    /// The IP header fields the trace's frame leaves out, when the carrier is an IP
    /// datagram or fragment (`protocol::ip`): its ends and its TTL as it left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ip: Option<IpEnds>,
    /// A multiplexed PDU's connection id and the node it is addressed to
    /// (`protocol::mux::Tagged`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conn: Option<(u32, u32)>,
    /// The whole header chain of the IP datagrams inside this PDU, outermost first
    /// (IP in IP, RFC 2003: the datagram of the IP layer above, then the one inside it;
    /// the datagram an X.25 packet carries, RFC 877): each one's trace fields (as
    /// `IpPacket::trace` fills them: N(S) = fragment offset in 8-octet units, N(R) =
    /// identification, P/F = MF, information = its data) and its ends. `pdu` is then
    /// what the innermost datagram carries. Empty for every other PDU.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inner: Vec<(TraceFrame, IpEnds)>,
}

impl Carried {
    /// This PDU's description with the IP datagram it carries put at the head of the
    /// chain: `datagram` is that datagram's trace fields and its own description
    /// (`Payload::as_datagram`), whose `ip` becomes the first entry of `inner`, whose
    /// chain follows, and whose carried PDU becomes this one's `pdu`.
    pub fn carrying(mut self, datagram: Option<(TraceFrame, Carried)>) -> Carried {
        if let Some((f, Carried { pdu, ip: Some(ends), inner, .. })) = datagram {
            self.inner = std::iter::once((f, ends)).chain(inner).collect();
            self.pdu = pdu;
        }
        self
    }

    /// The first datagram of the chain as a PDU of its own: its trace fields and its
    /// description (its ends as `ip`, the rest of the chain as `inner`) — what an IP
    /// encoder writes for a frame of a layer with no header of its own that carries it.
    pub fn first_datagram(&self) -> Option<(TraceFrame, Carried)> {
        let ((f, ends), rest) = self.inner.split_first()?;
        Some((*f, Carried { pdu: self.pdu, ip: Some(*ends), inner: rest.to_vec(), piece: f.ns.unwrap_or(0), ..Carried::default() }))
    }
}

/// The source and destination nodes and the TTL of an IP datagram, for captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct IpEnds {
    pub src: u32,
    pub dst: u32,
    pub ttl: u32,
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceKind {
    /// The station started transmitting the frame.
    Send,
    /// The frame arrived with a correct FCS.
    Receive,
    /// The frame arrived with a failed FCS (its contents are not acted on).
    ReceiveInError,
    /// The station's retransmission timer expired.
    Timeout,
}

/// One line of a trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceRecord {
    /// Seconds since the start of the run.
    pub time_s: f64,
    /// The node (or relay) that sent, received or timed out: "A" or "B" in the pair
    /// form, its name in an explicit topology.
    pub station: String,
    pub event: TraceKind,
    /// The lane the frame was sent or received on (`link.<medium>.<from>-><to>`, a
    /// ring's `ring.<medium>.<station>`): explicit topologies only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lane: Option<String>,
    /// Frame number on its lane, counted from 0 at the start of the run (frames events
    /// only): a `Send` and the `Receive`/`ReceiveInError` of the same frame share it,
    /// which pairs them across the window (a lane is FIFO and loses no frame). In the
    /// pair form a station's lane is its direction of the link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<TraceFrame>,
    /// The PDU of the layer above that the frame carries, if it is one (not a user SDU).
    /// For captures (`sim::capture::Flight` shows it); left out of the trace's JSON, so
    /// traces and their pinned trajectories keep one shape.
    #[serde(skip)]
    pub carried: Option<Carried>,
    /// Messages queued at the station, never yet sent, after the event.
    pub queued: usize,
    /// Messages submitted to the station and not yet acknowledged, after the event.
    pub unacknowledged: usize,
}

/// Collects records between `from` and `to` (inclusive), at most `limit` of them.
#[derive(Clone, Debug)]
pub struct Tracer {
    pub from: SimTime,
    pub to: SimTime,
    pub limit: usize,
    pub records: Vec<TraceRecord>,
    /// Records dropped because the limit was reached.
    pub dropped: u64,
    /// Frames started on each lane so far (whole run, not only the window).
    sent: Vec<u64>,
    /// Frames arrived from each lane so far (whole run).
    arrived: Vec<u64>,
    /// Node names by index, then relay names.
    names: Vec<String>,
    /// Lane scope names (empty in the pair form: no `lane` in its records).
    lanes: Vec<String>,
}

impl Tracer {
    pub fn new(from: SimTime, to: SimTime, limit: usize) -> Tracer {
        Tracer {
            from,
            to,
            limit,
            records: Vec::new(),
            dropped: 0,
            sent: vec![0; 2],
            arrived: vec![0; 2],
            names: vec!["A".into(), "B".into()],
            lanes: vec![],
        }
    }

    /// Names the nodes and relays (in that order) and the lanes of an explicit topology;
    /// the pair form keeps "A" and "B" and its two unnamed lanes.
    pub fn set_names(&mut self, names: Vec<String>, lanes: Vec<String>) {
        self.sent.resize(lanes.len(), 0);
        self.arrived.resize(lanes.len(), 0);
        self.names = names;
        self.lanes = lanes;
    }

    /// True if an event at `now` belongs in the trace.
    #[inline]
    pub fn covers(&self, now: SimTime) -> bool {
        self.from <= now && now <= self.to
    }

    /// Records an event of `station` (a node, or `nodes + r` for relay r); frame events
    /// name the `lane` the frame was sent or received on.
    #[allow(clippy::too_many_arguments)]
    pub fn push(
        &mut self,
        now: SimTime,
        station: usize,
        lane: Option<u32>,
        event: TraceKind,
        frame: Option<(TraceFrame, Option<Carried>)>,
        queued: usize,
        unacknowledged: usize,
    ) {
        // Frames are numbered over the whole run, so count before the window test.
        let seq = match (event, lane) {
            (TraceKind::Send, Some(l)) => Some(bump(&mut self.sent[l as usize])),
            (TraceKind::Receive | TraceKind::ReceiveInError, Some(l)) => Some(bump(&mut self.arrived[l as usize])),
            _ => None,
        };
        if !self.covers(now) {
            return;
        }
        if self.records.len() >= self.limit {
            self.dropped += 1;
            return;
        }
        let station = self.names.get(station).cloned().unwrap_or_else(|| station.to_string());
        let lane = lane.and_then(|l| self.lanes.get(l as usize).cloned());
        self.records.push(TraceRecord {
            time_s: now.as_secs_f64(),
            station,
            event,
            lane,
            seq,
            frame: frame.as_ref().map(|f| f.0),
            carried: frame.and_then(|f| f.1),
            queued,
            unacknowledged,
        });
    }
}

/// Returns `*n` and increments it.
fn bump(n: &mut u64) -> u64 {
    let v = *n;
    *n += 1;
    v
}
