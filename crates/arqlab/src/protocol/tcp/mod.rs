//! TCP as a reusable sans-IO layer in three flavours (`flavour`): Reno congestion
//! control (RFC 5681), NewReno (RFC 6582) and 4.2BSD's (no congestion window, 2·SRTT in
//! 500 ms ticks, no Karn rule); the RFC 6298
//! retransmission timer with Karn's rule and exponential back-off, delayed ACKs
//! (RFC 1122), MSS and a fixed receive window as parameters, and reassembly of
//! out-of-order segments (segments that overtake each other on parallel X.25 virtual
//! circuits, or over a relay with random delays). See `docs/models/tcp.md`.

pub mod bsd42;
pub mod config;
pub mod endpoint;
pub mod flavour;
pub mod host;
pub mod newreno;
pub mod receiver;
pub mod reno;
pub mod rto;
pub mod wire;

pub use config::TcpConfig;
pub use endpoint::Tcp;
pub use host::TcpHost;
pub use reno::Reno;
pub use rto::RtoEstimator;

#[cfg(test)]
mod flavour_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod close_tests;
#[cfg(test)]
mod congestion_tests;
#[cfg(test)]
mod receiver_tests;
#[cfg(test)]
mod host_tests;
#[cfg(test)]
mod config_tests;
#[cfg(test)]
mod handshake_tests;
