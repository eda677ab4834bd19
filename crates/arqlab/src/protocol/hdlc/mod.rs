//! HDLC information transfer in NRM, ABM and ARM, as simulated by Bux, Kümmerle & Truong
//! (1982), Appendix A1 (NRM, ABM) and A2 (ARM). See `docs/models/hdlc.md`.

pub mod config;
mod receive;
mod send;
pub mod station;
pub mod wire;

pub use config::{
    parse, HdlcConfig, Mode, Poll, Reject, SecondaryT1Action, T1Action, TimerRecovery, DEFAULT_T1_S,
};
pub use station::{HdlcStation, Role};

#[cfg(test)]
mod tests;
