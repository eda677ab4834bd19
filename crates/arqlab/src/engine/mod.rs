//! The discrete-event engine: integer time, the future event list, random streams.

pub mod queue;
pub mod rng;
pub mod time;

pub use queue::{EventCode, EventQueue, ScheduleError};
pub use rng::{stream, stream_seed, Stream};
pub use time::{Duration, SimTime, PS_PER_S};
