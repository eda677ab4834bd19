//! One registration per protocol: its `kind` name, configuration type, how its table
//! parses, and the services it declares ([`super::service`]). The macro generates the
//! configuration enum `ProtocolConfig` (a scenario's `[protocol]` table or one layer of
//! a `[stack.*]`), the list of kinds and the dispatch on them; the layer each builds is
//! in [`super::any::AnyLayer::new`]. Each line also names the protocol's capture
//! encoder (`wire`: its frames as bytes, `trace::wire`), so captures and traces work
//! for every stack it appears in. Adding a protocol: its own folder, its docs page,
//! one line here and one arm there.

use super::service::{Declared, ServiceKind, ANY_BELOW, MEDIUM, PACKETS};
use crate::schema::{Problems, Table};
use crate::trace::wire::Wire;
use serde::Serialize;

macro_rules! registry {
    ($( $(#[doc = $doc:literal])* $variant:ident($cfg:ty) = $kind:literal, parse: $parse:expr, declares: $declares:expr, wire: $wire:expr; )*) => {
        /// The configuration of one protocol (one layer of a stack).
        #[derive(Clone, Debug, Serialize, PartialEq)]
        #[serde(tag = "kind", rename_all = "snake_case")]
        pub enum ProtocolConfig {
            $( $(#[doc = $doc])* $variant($cfg), )*
        }

        /// Every registered `kind`, in registration order.
        pub const PROTOCOL_KINDS: &[&str] = &[$($kind),*];

        impl ProtocolConfig {
            /// Reads a protocol table (`kind` defaults to "go_back_n"); unknown keys are
            /// reported by the caller's `finish`.
            pub fn parse(t: &mut Table, p: &mut Problems) -> ProtocolConfig {
                let kind = t.choice("kind", "go_back_n", PROTOCOL_KINDS, p);
                $( if kind == $kind {
                    let parse: fn(&str, &mut Table, &mut Problems) -> $cfg = $parse;
                    return ProtocolConfig::$variant(parse(&kind, t, p));
                } )*
                unreachable!("`choice` returns one of PROTOCOL_KINDS")
            }

            pub fn kind(&self) -> &'static str {
                match self { $( ProtocolConfig::$variant(_) => $kind, )* }
            }

            /// What the protocol offers above and needs below.
            pub fn declared(&self) -> Declared {
                match self { $( ProtocolConfig::$variant(_) => $declares, )* }
            }

            /// The capture encoder of this layer's frames, given the layers `above` it in
            /// its stack, top first (a link layer writes the PDUs of some transports it
            /// carries as real bytes: TCP's as IPv4/TCP, IP datagrams with their whole
            /// header chain). Errors say why frames cannot be encoded.
            pub fn wire(&self, above: &[ProtocolConfig]) -> Result<Box<dyn Wire>, String> {
                match self { $( ProtocolConfig::$variant(c) => {
                    let wire: fn(&$cfg, &[ProtocolConfig]) -> Result<Box<dyn Wire>, String> = $wire;
                    wire(c, above)
                } )* }
            }
        }
    };
}

use super::datagram::DatagramConfig;
use super::hdlc::HdlcConfig;
use super::hf::HfArqConfig;
use super::ip::IpConfig;
use super::llc2::Llc2Config;
use super::netwindow::NetWindowConfig;
use super::tcp::TcpConfig;
use super::textbook::TextbookConfig;
use super::tp4::Tp4Config;
use super::x25::X25Config;
use ServiceKind::{ByteStream, Datagrams, Messages};

impl ProtocolConfig {
    /// The depth of the interface queue the layer above pushes into (x25's
    /// `interface_queue`, 4.2BSD's IFQ_MAXLEN); None: the layer above is pulled.
    pub fn interface_queue(&self) -> Option<u32> {
        match self {
            ProtocolConfig::X25(c) => c.interface_queue,
            _ => None,
        }
    }
}

const ARQ: Declared = Declared::link(Messages, ANY_BELOW);

/// The encoder constructors written against a resolved table (`serde_json`): `None`
/// there means the table is not theirs, which the registration rules out.
fn by_table<C: Serialize>(kind: &str, cfg: &C, wire_for: fn(&serde_json::Value) -> Option<Result<Box<dyn Wire>, String>>) -> Result<Box<dyn Wire>, String> {
    let mut table = serde_json::to_value(cfg).map_err(|e| e.to_string())?;
    table["kind"] = kind.into();
    wire_for(&table).unwrap_or_else(|| Err(format!("kind = {kind:?}: its encoder refused its own table")))
}

/// A layer with no header format of its own (`datagram`, `network_window`): its frames
/// are written as the PDUs they carry, by the encoder of the layer above; alone (the
/// users' messages), as opaque octets of the frame's length (`trace::wire::Opaque`).
fn through<C>(_: &C, above: &[ProtocolConfig]) -> Result<Box<dyn Wire>, String> {
    match above.split_last() {
        Some((a, rest)) => Ok(Box::new(crate::trace::wire::Through(a.wire(rest)?))),
        None => Ok(Box::new(crate::trace::wire::Opaque)),
    }
}

/// The TCP encoder, when TCP is the layer right above a link layer that carries its
/// segments.
fn tcp_above(above: &[ProtocolConfig]) -> Option<super::tcp::wire::TcpWire> {
    match above.last() {
        Some(ProtocolConfig::Tcp(c)) => Some(super::tcp::wire::TcpWire::new(c)),
        _ => None,
    }
}

/// The TCP encoder, when the layers above are TCP over one or more IP layers (the
/// segments inside the innermost datagram of IP in IP, or of an RFC 877 circuit).
fn tcp_over_ip(above: &[ProtocolConfig]) -> Option<super::tcp::wire::TcpWire> {
    match above.split_first() {
        Some((ProtocolConfig::Tcp(c), ips)) if !ips.is_empty() && ips.iter().all(|l| matches!(l, ProtocolConfig::Ip(_))) => Some(super::tcp::wire::TcpWire::new(c)),
        _ => None,
    }
}

/// The IP encoder of the datagrams a link layer carries, when IP is the layer above it.
fn ip_above(above: &[ProtocolConfig]) -> Option<Box<dyn Wire>> {
    match above.last() {
        Some(ProtocolConfig::Ip(_)) => Some(Box::new(super::ip::wire::IpWire { tcp: tcp_over_ip(above) })),
        _ => None,
    }
}

registry! {
    StopAndWait(TextbookConfig) = "stop_and_wait", parse: TextbookConfig::parse, declares: ARQ, wire: |c, _| by_table("stop_and_wait", c, super::textbook::wire::wire_for);
    GoBackN(TextbookConfig) = "go_back_n", parse: TextbookConfig::parse, declares: ARQ, wire: |c, _| by_table("go_back_n", c, super::textbook::wire::wire_for);
    SelectiveRepeat(TextbookConfig) = "selective_repeat", parse: TextbookConfig::parse, declares: ARQ, wire: |c, _| by_table("selective_repeat", c, super::textbook::wire::wire_for);
    /// HDLC NRM / ABM / ARM (Bux, Kümmerle & Truong 1982): station addresses and flags
    /// on a line.
    Hdlc(HdlcConfig) = "hdlc", parse: |_, t, p| super::hdlc::parse(t, p), declares: Declared::link(Messages, MEDIUM), wire: |c, _| by_table("hdlc", c, super::hdlc::wire::wire_for);
    /// Best effort: one frame per SDU, no recovery.
    Datagram(DatagramConfig) = "datagram", parse: |_, t, p| DatagramConfig::parse(t, p), declares: Declared::link(Datagrams, MEDIUM), wire: through;
    /// ISO 8073 class 4 transport, data transfer phase (Colella, Aronoff & Mills), over
    /// a subnetwork of any kind (or alone on a medium, as the paper's model does).
    Tp4(Tp4Config) = "tp4", parse: |_, t, p| Tp4Config::parse(t, p), declares: Declared { top_only: true, transport: true, ..ARQ }, wire: |c, _| by_table("tp4", c, super::tp4::wire::wire_for);
    /// A window of packets in transit over the subnetwork (`protocol::netwindow`).
    NetworkWindow(NetWindowConfig) = "network_window", parse: |_, t, p| NetWindowConfig::parse(t, p), declares: Declared::link(Datagrams, ANY_BELOW), wire: through;
    /// IEEE 802.2 LLC type 2 and its variants (Biersack 1992).
    Llc2(Llc2Config) = "llc2", parse: |_, t, p| Llc2Config::parse(t, p), declares: ARQ, wire: |_, above| Ok(Box::new(super::llc2::wire::Llc2Wire { ip: tcp_above(above) }));
    /// TCP Reno over a packet service (a link protocol, or IP over X.25).
    Tcp(TcpConfig) = "tcp", parse: |_, t, p| TcpConfig::parse(t, p), declares: Declared { top_only: true, ..Declared::link(ByteStream, PACKETS) }, wire: |c, _| Ok(Box::new(super::tcp::wire::TcpWire::new(c)));
    /// An X.25 host: IP-to-X.25 interface (RFC 877), packet level and LAPB access line;
    /// it opens circuits to every site it sends to.
    X25(X25Config) = "x25", parse: |_, t, p| X25Config::parse(t, p), declares: Declared { addresses_peers: true, ..Declared::link(Datagrams, MEDIUM) }, wire: |c, above| Ok(Box::new(super::x25::wire::X25Wire { packet_octets: c.packet_octets, ip: tcp_above(above), datagrams: ip_above(above) }));
    /// HF radio ARQ: STANAG 5066, 3G HDL and their variants (Johnson); picks a modem
    /// mode per packet.
    HfArq(HfArqConfig) = "hf_arq", parse: |_, t, p| HfArqConfig::parse(t, p), declares: Declared { modem_aware: true, ..Declared::link(Messages, MEDIUM) }, wire: |c, _| by_table("hf_arq", c, super::hf::wire::wire_for);
    /// IP (RFC 791): datagrams to any node, forwarded by `ip_router` relays (TTL, MTU,
    /// fragmentation), reassembled at the destination.
    Ip(IpConfig) = "ip", parse: |_, t, p| IpConfig::parse(t, p), declares: Declared { addresses_peers: true, ..Declared::link(Datagrams, ANY_BELOW) }, wire: |_, above| Ok(Box::new(super::ip::wire::IpWire { tcp: tcp_above(above).or_else(|| tcp_over_ip(above)) }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_registered_once_and_declares_a_lower_service() {
        for (i, k) in PROTOCOL_KINDS.iter().enumerate() {
            assert!(!PROTOCOL_KINDS[..i].contains(k), "{k} twice");
        }
        let v = serde_json::json!({"kind": "tcp"});
        let mut p = Problems::default();
        let mut t = Table::root(&v, &mut p);
        let c = ProtocolConfig::parse(&mut t, &mut p);
        assert_eq!((c.kind(), c.declared().offers, c.declared().top_only), ("tcp", ByteStream, true));
        assert!(p.is_empty());
    }

    fn layer(kind: &str) -> ProtocolConfig {
        let v = serde_json::json!({ "kind": kind });
        let mut p = Problems::default();
        let mut t = Table::root(&v, &mut p);
        ProtocolConfig::parse(&mut t, &mut p)
    }

    /// Each registration names its capture encoder: a link protocol gets its own byte
    /// format, a layer without one (datagram) writes what it carries with the encoder
    /// of the layer above, and a top-only transport alone on a medium has none.
    #[test]
    fn registration_names_the_capture_encoder_of_every_kind() {
        use crate::trace::wire::Family;
        let family = |k: &str, above: Option<&str>| layer(k).wire(&above.map(layer).into_iter().collect::<Vec<_>>()).map(|w| w.family());
        assert_eq!(family("hdlc", None).unwrap(), Family::Hdlc);
        assert_eq!(family("go_back_n", None).unwrap(), Family::Hdlc);
        assert_eq!(family("llc2", Some("tcp")).unwrap(), Family::TokenRing);
        assert_eq!(family("x25", None).unwrap(), Family::Hdlc);
        assert_eq!(family("x25", Some("tcp")).unwrap(), Family::LapbEther, "X.25 carrying IP: LAPB over Ethernet");
        assert_eq!(family("x25", Some("ip")).unwrap(), Family::LapbEther, "an RFC 877 interface");
        assert_eq!(family("tp4", None).unwrap(), Family::Cotp);
        assert_eq!(family("hf_arq", None).unwrap(), Family::S5066);
        assert_eq!(family("datagram", Some("stop_and_wait")).unwrap(), Family::Hdlc, "through to the layer above");
        assert_eq!(family("datagram", Some("tcp")).unwrap(), Family::Ipv4, "TCP over datagrams: IPv4 packets");
        for k in ["datagram", "network_window"] {
            assert_eq!(family(k, None).unwrap(), Family::Opaque, "{k} alone: the users' messages, opaque");
        }
        assert_eq!(family("ip", None).unwrap(), Family::Ipv4);
        assert_eq!(family("ip", Some("tcp")).unwrap(), Family::Ipv4);
        // A framing under IP in IP writes the top IP layer's datagrams through, and
        // that layer finds TCP above the other IP layers.
        let stack = [layer("tcp"), layer("ip"), layer("ip")];
        assert_eq!(layer("datagram").wire(&stack).unwrap().family(), Family::Ipv4);
    }
}
