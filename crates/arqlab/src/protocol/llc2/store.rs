//! The receiver's memory for out-of-sequence I frames, per variant:
//! - none (ORIG, BG, JAIN): every out-of-sequence frame is discarded;
//! - a window of slots (SREJ): any frame in [V(R)+1, V(R)+k−1] is kept;
//! - FIFO buffers (Gopal & Rom 1990): runs of adjacent frames, each in its own FIFO.
//!   A frame that extends a run (follows its last frame) joins it; any other starts a
//!   new run if a buffer is free and is discarded otherwise. With m buffers, one holds
//!   the in-sequence stream, so m − 1 runs can wait: m = 1 keeps nothing (ORIG's
//!   discard), m ≥ k keeps everything (SREJ).

use crate::protocol::{Modulus, Payload};
use std::collections::VecDeque;

/// What became of an out-of-sequence frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placed {
    Stored,
    /// Already held.
    Duplicate,
    /// No room: the frame is discarded.
    Discarded,
}

pub enum Store<P> {
    None,
    Window(Vec<Option<P>>),
    Fifos { runs: Vec<VecDeque<(u32, P)>>, limit: usize },
}

impl<P: Payload> Store<P> {
    pub fn window(modulus: u32) -> Store<P> {
        Store::Window(vec![None; modulus as usize])
    }

    pub fn fifos(buffers: u32) -> Store<P> {
        Store::Fifos { runs: vec![], limit: buffers.saturating_sub(1) as usize }
    }

    /// Offers frame `ns` (out of sequence, inside the receive window).
    pub fn insert(&mut self, m: Modulus, ns: u32, p: P) -> Placed {
        match self {
            Store::None => Placed::Discarded,
            Store::Window(slots) => match slots[ns as usize] {
                Some(_) => Placed::Duplicate,
                None => {
                    slots[ns as usize] = Some(p);
                    Placed::Stored
                }
            },
            Store::Fifos { runs, limit } => {
                if runs.iter().any(|r| r.iter().any(|&(x, _)| x == ns)) {
                    return Placed::Duplicate;
                }
                if let Some(r) = runs.iter_mut().find(|r| r.back().is_some_and(|&(x, _)| m.next(x) == ns)) {
                    r.push_back((ns, p));
                    Placed::Stored
                } else if runs.len() < *limit {
                    runs.push(VecDeque::from([(ns, p)]));
                    Placed::Stored
                } else {
                    Placed::Discarded
                }
            }
        }
    }

    /// Removes and returns the held frame `vr` (the next expected), if any.
    pub fn take(&mut self, vr: u32) -> Option<P> {
        match self {
            Store::None => None,
            Store::Window(slots) => slots[vr as usize].take(),
            Store::Fifos { runs, .. } => {
                let i = runs.iter().position(|r| r.front().is_some_and(|&(x, _)| x == vr))?;
                let (_, p) = runs[i].pop_front()?;
                if runs[i].is_empty() {
                    runs.swap_remove(i);
                }
                Some(p)
            }
        }
    }

    /// Whether frame `ns` is held (the window store only; multi-SREJ asks for the rest).
    pub fn holds(&self, ns: u32) -> bool {
        matches!(self, Store::Window(slots) if slots[ns as usize].is_some())
    }

    /// Information bits held.
    pub fn bits(&self) -> u64 {
        match self {
            Store::None => 0,
            Store::Window(slots) => slots.iter().flatten().map(|p| p.bits() as u64).sum(),
            Store::Fifos { runs, .. } => runs.iter().flatten().map(|(_, p)| p.bits() as u64).sum(),
        }
    }

    /// FIFO buffers in use besides the in-sequence one (0 for the other stores).
    pub fn runs(&self) -> usize {
        match self {
            Store::Fifos { runs, .. } => runs.len(),
            _ => 0,
        }
    }
}
