//! arqlab — a deterministic discrete-event simulator for ARQ, data-link and transport
//! protocols, with first-class output statistics.
//!
//! Layout: [`engine`] (time, event queue, random streams), [`stats`] (estimators and
//! confidence intervals), [`channel`] (links and error models), [`protocol`] (sans-IO
//! entities), [`traffic`] (sources), [`scenario`] (validated configuration), [`sim`]
//! (wiring a scenario into a run, replications and stopping rules), [`trace`] (frame-level
//! traces of a window of one run).

pub mod channel;
pub mod engine;
pub mod protocol;
pub mod scenario;
pub mod schema;
pub mod sim;
pub mod stats;
pub mod trace;
pub mod traffic;
