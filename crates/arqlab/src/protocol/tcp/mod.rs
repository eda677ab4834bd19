//! TCP as a reusable sans-IO layer: Reno congestion control (RFC 5681), the RFC 6298
//! retransmission timer with Karn's rule and exponential back-off, delayed ACKs
//! (RFC 1122), MSS and a fixed receive window as parameters, and reassembly of
//! out-of-order segments (segments that overtake each other on parallel X.25 virtual
//! circuits, or over a relay with random delays). See `docs/models/tcp.md`.

pub mod config;
pub mod endpoint;
pub mod host;
pub mod receiver;
pub mod reno;
pub mod rto;

pub use config::TcpConfig;
pub use endpoint::Tcp;
pub use host::TcpHost;
pub use reno::Reno;
pub use rto::RtoEstimator;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod close_tests;
