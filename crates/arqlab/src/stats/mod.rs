//! Output statistics: pure estimators, no engine and no I/O.
//!
//! | module | concept | reference |
//! |---|---|---|
//! | [`exact_mean`] | mean of integer ticks (durations in ps) with an exact `u128` sum: the hot-path meter | — |
//! | [`tally`] | running mean/variance/min/max of observations (Welford) | Welford 1962; Chan, Golub & LeVeque 1979 |
//! | [`time_average`] | time-weighted mean of a piecewise-constant quantity (queue lengths, buffer occupancy) | Law & Kelton ch. 1 (time-average number in queue) |
//! | [`quantile`] | fixed-memory log-linear histogram, quantiles within 2⁻⁸ relative error | HdrHistogram (Tene) layout |
//! | [`ci`] | Student-t confidence intervals (never z) | Law & Kelton ch. 9 |
//! | [`batch_means`](mod@batch_means) | batch means within one long run, lag-1 check, batch coarsening | Law & Kelton ch. 9 (steady state) |
//! | [`mser`](mod@mser) | MSER-5 warm-up (initial-transient) detection | White 1997 |
//! | [`sequential`] | sequential relative-precision stopping rule | Law & Kelton ch. 9 |
//! | [`paired`] | paired-t comparison of two variants under common random numbers | Law & Kelton ch. 10; Jain 1991 ch. 13 |
//!
//! Conventions: nothing here panics on empty or degenerate input. An undefined statistic
//! is `NaN` (the mean of nothing, the variance of one value), `∞` where that is the honest
//! answer (the half-width from one replication), or `None` (a quantile of an empty
//! histogram). Result structs derive `serde::Serialize`.

pub mod batch_means;
pub mod ci;
pub mod exact_mean;
pub mod mser;
pub mod paired;
pub mod quantile;
pub mod sequential;
pub mod tally;
pub mod time_average;

pub use batch_means::{batch_means, coarsen, form_batches, lag1_autocorrelation, select_batches};
pub use ci::{t_quantile, Interval};
pub use exact_mean::ExactMean;
pub use mser::{mser, mser5, MserResult};
pub use paired::{paired_difference, relative, LengthMismatch};
pub use quantile::LogHistogram;
pub use sequential::{Precision, Status};
pub use tally::{student_t, Tally};
pub use time_average::TimeAverage;
