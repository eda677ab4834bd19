//! Channels: the full-duplex point-to-point link and its bit-error models.

pub mod errors;
pub mod link;

pub use errors::{BitErrors, ErrorModel, GilbertElliott};
pub use link::{Direction, DirectionCounters, Transmission};
