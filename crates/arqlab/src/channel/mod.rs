//! Media and relays: lanes (one direction of a medium, with its error model), the
//! half-duplex radio gate, the token ring, and store-and-forward relays.

pub mod errors;
pub mod hf;
pub mod ip_router;
pub mod link;
pub mod modem;
pub mod radio;
pub mod relay;
pub mod token_ring;

pub use errors::{BitErrors, ErrorModel, GilbertElliott, HfErrors, Schedule};
pub use link::{Direction, DirectionCounters, InFlight, Transmission};
pub use ip_router::{IpForwarding, IpRouterCounters};
pub use radio::Radio;
pub use relay::{Admission, DelayProfile, Forwarding, PortCounters, Relay};
pub use token_ring::{RingCounters, RingParams, TokenRing};
