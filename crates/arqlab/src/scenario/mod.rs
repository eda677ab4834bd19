//! Scenarios as data: a TOML file or a dict, validated into typed configuration with
//! every problem reported at once (dotted path, value, what is allowed).

pub mod fields;

pub use fields::{Problem, Problems, Range, Table};
