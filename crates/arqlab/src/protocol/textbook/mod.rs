//! Textbook ARQ protocols — the validation baselines later models are checked against:
//! stop-and-wait (go-back-N with W = 1, M = 2, no reject), go-back-N and selective repeat.
//! See `docs/models/textbook.md` for assumptions and the closed forms they match.

pub mod config;
pub mod go_back_n;
pub mod selective_repeat;
pub mod wire;

pub use config::TextbookConfig;
pub use go_back_n::GoBackN;
pub use selective_repeat::SelectiveRepeat;
