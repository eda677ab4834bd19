//! IEEE 802.2 logical link control type 2 (connection mode, modulo 128) with the
//! variants Biersack (1992) compares: ORIG, BG, JAIN, SREJ and multi-FIFO receivers.
//! One model with a variant key, not five copies. See `docs/models/llc2.md`.
//!
//! Why not the HDLC station (`protocol/hdlc`): its rules are ISO 4335's per mode
//! (NRM/ARM/ABM, checkpointing, the Bux 1982 appendix), whereas LLC2's are balanced
//! only, with separate reject and busy timers, N3 and a dynamic working window; what
//! the two share — modular sequence numbers, frame metadata, counters — is shared
//! (`protocol::seq`, `protocol::frame`, `protocol::Counters`).

pub mod asks;
pub mod config;
pub mod processor;
pub mod station;
pub mod store;
pub mod window;
pub mod wire;

pub use config::{Llc2Config, Variant};
pub use station::{Llc2, Llc2Stats};

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_more;
#[cfg(test)]
mod window_tests;
#[cfg(test)]
mod parts_tests;
#[cfg(test)]
mod config_tests;
