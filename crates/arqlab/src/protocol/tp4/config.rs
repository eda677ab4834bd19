//! `[protocol] kind = "tp4"`: the parameters of the class 4 data transfer phase, named
//! after the rows of Colella, Aronoff & Mills, Tables 2 and 3, with the ISO 8073 facts
//! and the modelling choices the paper leaves open as further keys.

use super::tpdu::{Format, Headers, TpduKind};
use crate::schema::{Problems, Range, Table};
use serde::Serialize;

/// The expedited data discipline of the sender.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Expedited {
    /// ISO 8073: no new DT while an ED submitted by the user is unacknowledged.
    Iso,
    /// NBS: a DT whose data the user submitted before ED k may be sent while ED k is
    /// unacknowledged; data submitted after ED k waits for its EA.
    Nbs,
}

/// The acknowledgement discipline of the receiver.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Acknowledgement {
    /// One AK per DT received, cumulative (YR-TU-NR) only.
    OneForOne,
    /// As one-for-one, and an AK for a DT received beyond a gap names that DT.
    Selective,
}

/// What the expedited ratio counts as one normal request.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ExpeditedUnit {
    /// An ED after every `expedited_every` TSDUs.
    Tsdu,
    /// An ED after every `expedited_every` DT-sized pieces of user data.
    Dt,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Tp4Config {
    /// Maximum DT TPDU size in octets ("DT TPDU size").
    pub dt_size_octets: u32,
    /// ISO 8073's TPDU size counts the header: user data per DT = size − header.
    /// False: `dt_size_octets` is the user data per DT.
    pub dt_size_includes_header: bool,
    /// Window in octets ("window size"), converted to a credit of whole DTs.
    pub window_octets: u32,
    pub send_buffer_octets: u32,
    pub receive_buffer_octets: u32,
    /// Retransmission timer per DT (and per ED), from the end of its transmission.
    pub retransmission_timer_s: f64,
    /// Window timer: an AK is repeated when none was sent for this long.
    pub window_timer_s: f64,
    /// Maximum acknowledgement delay; absent = infinite (an AK goes at once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_ack_delay_s: Option<f64>,
    pub expedited: Expedited,
    pub acknowledgement: Acknowledgement,
    /// An ED request after every this many normal units; 0 = no expedited data.
    pub expedited_every: u32,
    pub expedited_unit: ExpeditedUnit,
    /// User data of an ED (ISO 8073: at most 16 octets).
    pub ed_data_octets: u32,
    pub format: Format,
    /// Every TPDU carries the 4-octet checksum parameter.
    pub checksum: bool,
}

pub const EXPEDITED: &[&str] = &["iso", "nbs"];
pub const ACKNOWLEDGEMENT: &[&str] = &["one_for_one", "selective"];

impl Tp4Config {
    pub fn parse(t: &mut Table, p: &mut Problems) -> Tp4Config {
        let dt_size_octets = t.u64("dt_size_octets", 1024, 16, 65_536, p) as u32;
        let dt_size_includes_header = t.bool("dt_size_includes_header", true, p);
        let window_octets = t.u64("window_octets", 12_288, 1, 1 << 30, p) as u32;
        let send_buffer_octets = t.u64("send_buffer_octets", 32_768, 1, 1 << 30, p) as u32;
        let receive_buffer_octets = t.u64("receive_buffer_octets", 32_768, 1, 1 << 30, p) as u32;
        let retransmission_timer_s = t.f64("retransmission_timer_s", 2.0, Range::Closed(1e-6, 1e6), p);
        let window_timer_s = t.f64("window_timer_s", 6.0, Range::Closed(1e-6, 1e6), p);
        let max_ack_delay_s = t.opt_f64("max_ack_delay_s", Range::Closed(0.0, 1e6), p);
        let expedited = match t.choice("expedited", "nbs", EXPEDITED, p).as_str() {
            "iso" => Expedited::Iso,
            _ => Expedited::Nbs,
        };
        let acknowledgement = match t.choice("acknowledgement", "one_for_one", ACKNOWLEDGEMENT, p).as_str() {
            "selective" => Acknowledgement::Selective,
            _ => Acknowledgement::OneForOne,
        };
        let expedited_every = t.u64("expedited_every", 0, 0, 1 << 30, p) as u32;
        let expedited_unit = match t.choice("expedited_unit", "tsdu", &["tsdu", "dt"], p).as_str() {
            "dt" => ExpeditedUnit::Dt,
            _ => ExpeditedUnit::Tsdu,
        };
        let ed_data_octets = t.u64("ed_data_octets", 16, 1, 16, p) as u32;
        let format = match t.choice("format", "extended", &["normal", "extended"], p).as_str() {
            "normal" => Format::Normal,
            _ => Format::Extended,
        };
        let checksum = t.bool("checksum", true, p);
        let c = Tp4Config {
            dt_size_octets,
            dt_size_includes_header,
            window_octets,
            send_buffer_octets,
            receive_buffer_octets,
            retransmission_timer_s,
            window_timer_s,
            max_ack_delay_s,
            expedited,
            acknowledgement,
            expedited_every,
            expedited_unit,
            ed_data_octets,
            format,
            checksum,
        };
        let header = c.headers().octets(TpduKind::Dt, false);
        if c.dt_size_includes_header && dt_size_octets <= header {
            p.push(t.path_of("dt_size_octets"), Some(&dt_size_octets.into()), format!("expected more than the DT header ({header} octets)"));
        }
        if window_octets < dt_size_octets {
            p.push(t.path_of("window_octets"), Some(&window_octets.into()), format!("expected at least dt_size_octets ({dt_size_octets}): the window must hold one DT"));
        }
        for (key, v) in [("send_buffer_octets", send_buffer_octets), ("receive_buffer_octets", receive_buffer_octets)] {
            if v < dt_size_octets {
                p.push(t.path_of(key), Some(&v.into()), format!("expected at least dt_size_octets ({dt_size_octets})"));
            }
        }
        c
    }

    pub fn headers(&self) -> Headers {
        Headers { format: self.format, checksum: self.checksum }
    }

    /// User data octets carried by a full DT.
    pub fn dt_user_octets(&self) -> u32 {
        if self.dt_size_includes_header {
            self.dt_size_octets.saturating_sub(self.headers().octets(TpduKind::Dt, false)).max(1)
        } else {
            self.dt_size_octets
        }
    }

    /// The window in DTs: ⌊window_octets / dt_size_octets⌋, at least 1.
    pub fn window_tpdus(&self) -> u32 {
        (self.window_octets / self.dt_size_octets).max(1)
    }
}

#[cfg(test)]
pub(crate) fn table2() -> Tp4Config {
    let mut p = Problems::default();
    let v = serde_json::json!({});
    let mut t = Table::root(&v, &mut p);
    let c = Tp4Config::parse(&mut t, &mut p);
    assert!(p.is_empty());
    c
}
