//! Output statistics.
