//! `kind = "hf_arq"`: the three features and the named protocols they make.

use crate::channel::modem::ModemTable;
use crate::schema::{Problems, Range, Table};
use serde::Serialize;
use std::sync::Arc;

/// Johnson's designations and the other four combinations of the 2^3 design, as
/// (name, selective repeat, integrated modem, duplex client data).
pub const VARIANTS: &[(&str, bool, bool, bool)] = &[
    ("5066", true, false, true),
    ("5066-1s", false, false, false),
    ("hdl", true, true, false),
    ("hdl-1d", false, true, true),
    ("all-three", true, true, true),
    ("sw-external-duplex", false, false, true),
    ("sr-external-simplex", true, false, false),
    ("sw-integrated-simplex", false, true, false),
];

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HfArqConfig {
    /// The named combination of the three features.
    pub variant: String,
    /// Selective repeat (several packets per transmission) vs stop-and-wait.
    pub selective_repeat: bool,
    /// The code-combining 141B burst modem integrated with the ARQ vs an external 110B.
    pub integrated_modem: bool,
    /// Client data both ways in every transmission (DATA-ACK) vs one direction at a time.
    pub duplex: bool,
    /// The modem table (built-in name or file).
    pub modem: String,
    /// ... moved this many dB up the SNR axis (`ModemTable::with_offset`): the rate
    /// choice's knowledge of the modem, as the lane's `modem_offset_db` is its errors'.
    #[serde(skip_serializing_if = "crate::channel::modem::is_zero")]
    pub modem_offset_db: f64,
    /// The SNR the external modem's first data rate is chosen for (dB).
    pub initial_snr_db: f64,
    /// Highest PER the rate choice accepts for a full packet at the SNR estimate.
    pub target_per: f64,
    /// The SNR estimate rises by this much after a transmission without loss (dB) ...
    pub snr_step_up_db: f64,
    /// ... and falls by this much after one that lost more than half its packets, went
    /// unanswered or whose acknowledgement was lost (dB).
    pub snr_step_down_db: f64,
    /// "burst": one step per transmission (up if nothing was lost, down if more than
    /// half was); "per_packet": (up · received − down · lost) / packets sent.
    pub rate_adaptation: String,
    /// Client bits per packet (a D_PDU's data segment; 233 octets in a BW2 slot).
    pub segment_bits: u32,
    /// Header and CRC bits of a data packet.
    pub header_bits: u32,
    /// Length of an acknowledgement / control packet.
    pub ack_bits: u32,
    /// External modem: the rate of a transmission without data (an acknowledgement,
    /// REQUEST or RELEASE): "data", the current data rate, or "lowest", the table's
    /// lowest data rate — its most robust (Johnson: a stop-and-wait acknowledgement "can
    /// be encoded very robustly").
    pub ack_rate: String,
    /// The slots of a BW2 burst beyond its data packets (the burst is padded to 3, 6, 12
    /// or 24): "empty" carries nothing in them; "repeat" fills them with further copies
    /// of the burst's packets in order, which the receiver code-combines (MIL-STD-188-141B
    /// App. C / STANAG 4538 HDL: a short datagram's frame is completed by reinserting data
    /// packets); "repeat_first_only" fills them with copies of the burst's first sends
    /// only (a burst of retransmissions is padded with nothing: refilling retransmissions
    /// too is claimed later as an enhancement, US 11,552,747). Only the integrated modem
    /// with selective repeat sends BW2 bursts.
    pub fill_slots: String,
    /// Packets outstanding at most (FSN modulo 256: at most 128).
    pub window: u32,
    /// Data packets per transmission at most (selective repeat).
    pub max_packets: u32,
    /// A transmission's data part lasts at most this long (at least one packet).
    pub max_transmission_s: f64,
    /// How long after the end of a transmission that solicits a response the sender
    /// waits for the peer to start answering before it transmits again.
    pub response_timeout_s: f64,
    /// Drop a submitted segment already queued or in transmission (Johnson's filter).
    pub filter_duplicates: bool,
    #[serde(skip)]
    pub table: Option<Arc<ModemTable>>,
    /// Set when the stack is wired onto a plain link (no `hf` error model): the modem
    /// then sends at the link's rate only (the data modes of this rate), since nothing
    /// else on the link could carry another rate.
    #[serde(skip)]
    pub link_bps: Option<f64>,
}

impl HfArqConfig {
    pub fn parse(t: &mut Table, p: &mut Problems) -> HfArqConfig {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.0).collect();
        let variant = t.choice("variant", "5066", &names, p);
        let &(_, sr, im, dx) = VARIANTS.iter().find(|v| v.0 == variant).unwrap_or(&VARIANTS[0]);
        let selective_repeat = t.bool("selective_repeat", sr, p);
        let integrated_modem = t.bool("integrated_modem", im, p);
        let duplex = t.bool("duplex", dx, p);
        if (selective_repeat, integrated_modem, duplex) != (sr, im, dx) {
            // The booleans win; the variant must say which combination it is.
            if let Some(v) = VARIANTS.iter().find(|v| (v.1, v.2, v.3) == (selective_repeat, integrated_modem, duplex)) {
                p.push(t.path_of("variant"), Some(&variant.clone().into()), format!("the features given are variant \"{}\"; name it (or drop the feature keys)", v.0));
            }
        }
        let default_modem = if integrated_modem { "mil-std-188-141b-appc" } else { "mil-std-188-110b" };
        let modem = match t.raw("modem") {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => {
                p.push(t.path_of("modem"), Some(v), "expected a modem table name or file");
                default_modem.to_string()
            }
            None => default_modem.to_string(),
        };
        let table = ModemTable::load(&modem, &t.path_of("modem"), p);
        let (modem_offset_db, table) = ModemTable::with_offset(t, table, p);
        if let Some(tb) = &table {
            if integrated_modem && (!tb.combining || tb.control_mode().is_none()) {
                p.push(t.path_of("modem"), Some(&modem.clone().into()), "an integrated modem needs a code-combining table with a control mode (e.g. \"mil-std-188-141b-appc\")");
            }
            if !integrated_modem && tb.combining {
                p.push(t.path_of("modem"), Some(&modem.clone().into()), "an external modem needs a table of data rates without code combining (e.g. \"mil-std-188-110b\")");
            }
        }
        let initial_snr_db = t.f64("initial_snr_db", 25.0, Range::Closed(-50.0, 100.0), p);
        let target_per = t.f64("target_per", 0.1, Range::Open(0.0, 1.0), p);
        let snr_step_up_db = t.f64("snr_step_up_db", 1.0, Range::Closed(0.0, 20.0), p);
        let snr_step_down_db = t.f64("snr_step_down_db", 2.0, Range::Closed(0.0, 20.0), p);
        let rate_adaptation = t.choice("rate_adaptation", "burst", &["burst", "per_packet"], p);
        let default_seg = if integrated_modem { 233 * 8 } else { 200 * 8 };
        let segment_bits = t.u64("segment_bits", default_seg, 8, 1023 * 8, p) as u32;
        let header_bits = t.u64("header_bits", if integrated_modem { 17 } else { 128 }, 0, 1 << 16, p) as u32;
        let ack_bits = t.u64("ack_bits", if integrated_modem { 64 } else { 160 }, 1, 1 << 16, p) as u32;
        let ack_rate = t.choice("ack_rate", "data", &["data", "lowest"], p);
        if integrated_modem && ack_rate != "data" {
            p.push(t.path_of("ack_rate"), Some(&ack_rate.clone().into()), "expected \"data\": an integrated modem sends its control packets in its own robust burst (BW1), not at a data rate");
        }
        let fill_slots = t.choice("fill_slots", "empty", &["empty", "repeat", "repeat_first_only"], p);
        if fill_slots != "empty" && !(integrated_modem && selective_repeat) {
            p.push(t.path_of("fill_slots"), Some(&fill_slots.clone().into()), "expected \"empty\": only the integrated modem with selective repeat sends slotted BW2 bursts (hdl, all-three)");
        }
        let window = t.u64("window", if selective_repeat { 128 } else { 1 }, 1, 128, p) as u32;
        if !selective_repeat && window != 1 {
            p.push(t.path_of("window"), Some(&window.into()), "stop-and-wait has window = 1 by definition");
        }
        let max_packets = t.u64("max_packets", if selective_repeat { 24 } else { 1 }, 1, 128, p) as u32;
        if !selective_repeat && max_packets != 1 {
            p.push(t.path_of("max_packets"), Some(&max_packets.into()), "stop-and-wait sends one data packet per transmission");
        }
        let max_transmission_s = t.f64("max_transmission_s", 120.0, Range::Positive, p);
        let response_timeout_s = t.f64("response_timeout_s", 5.0, Range::Positive, p);
        let filter_duplicates = t.bool("filter_duplicates", true, p);
        HfArqConfig {
            variant,
            selective_repeat,
            integrated_modem,
            duplex,
            modem,
            modem_offset_db,
            initial_snr_db,
            target_per,
            snr_step_up_db,
            snr_step_down_db,
            rate_adaptation,
            segment_bits,
            header_bits,
            ack_bits,
            ack_rate,
            fill_slots,
            window: if selective_repeat { window } else { 1 },
            max_packets: if selective_repeat { max_packets } else { 1 },
            max_transmission_s,
            response_timeout_s,
            filter_duplicates,
            table,
            link_bps: None,
        }
    }

    /// A configuration of `variant` with its defaults (tests, examples).
    pub fn of(variant: &str) -> HfArqConfig {
        let v = serde_json::json!({ "variant": variant });
        let mut p = Problems::default();
        let mut t = Table::root(&v, &mut p);
        let c = HfArqConfig::parse(&mut t, &mut p);
        t.finish(&mut p);
        assert!(p.is_empty(), "{p:?}");
        c
    }
}
