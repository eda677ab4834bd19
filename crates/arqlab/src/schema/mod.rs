//! The shapes of what goes in and comes out: the validating field walker every
//! configuration parser uses ([`fields`]) and the names of the measures a run reports
//! ([`measures`]). Depends on nothing else in the crate, so every layer above it
//! (protocols, traffic, scenarios, the runner) can use it without import cycles.

pub mod fields;
pub mod file;
pub mod measures;

pub use fields::{show, Problem, Problems, Range, Table};
pub use measures::{Measures, MEASURES};
