//! Media and relays: lanes (one direction of a medium, with its error model), the
//! half-duplex radio gate, and store-and-forward relays.

pub mod errors;
pub mod link;
pub mod radio;
pub mod relay;

pub use errors::{BitErrors, ErrorModel, GilbertElliott, Schedule};
pub use link::{Direction, DirectionCounters, InFlight, Transmission};
pub use radio::Radio;
pub use relay::{Admission, Forwarding, PortCounters, Relay};
