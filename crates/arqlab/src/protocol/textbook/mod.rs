//! Textbook ARQ protocols: stop-and-wait, go-back-N, selective repeat.
