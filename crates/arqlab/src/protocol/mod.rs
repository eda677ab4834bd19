//! Protocol entities: sans-IO state machines.
//!
//! An entity never sees the event queue or a clock. The simulation feeds it inputs with
//! the current time through `handle_*` and pulls outputs through `poll_*`:
//!
//! 1. `handle_submit` (a message from the upper layer), `handle_frame` (a frame received
//!    without error), `handle_frame_in_error` (a frame whose FCS failed),
//!    `handle_timeout` (the clock reached a deadline given by `poll_timeout`; idempotent,
//!    so a stale wake-up is harmless).
//! 2. After any input the caller drains `poll_event` (deliveries, acknowledgements), asks
//!    `poll_transmit` if the line is idle, and re-reads `poll_timeout`.
//!
//! Pulling matters for ARQ: N(R) and the P/F bit are decided when a frame *starts*
//! transmission, and a go-back-N of W frames leaves one frame at a time.

pub mod frame;
pub mod hdlc;
pub mod seq;
pub mod textbook;

pub use frame::{Frame, FrameKind, LinkFrame, Message};
pub use seq::Modulus;

use crate::engine::SimTime;

/// The two ends of a point-to-point link. In HDLC NRM/ARM, A is the primary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Station {
    A,
    B,
}

impl Station {
    pub fn peer(self) -> Station {
        match self {
            Station::A => Station::B,
            Station::B => Station::A,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    /// The direction in which this station sends: "a_to_b" or "b_to_a".
    pub fn outgoing(self) -> &'static str {
        match self {
            Station::A => "a_to_b",
            Station::B => "b_to_a",
        }
    }
}

/// Something an entity reports to its user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A message from the peer delivered to the upper layer (error free, in order).
    Delivered(Message),
    /// The peer positively acknowledged one of our messages: its buffer is freed.
    Acknowledged(Message),
}

/// Why an I frame was sent again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetransmitCause {
    /// A reject (REJ / NAK / SREJ) from the peer.
    Reject,
    /// P/F checkpointing.
    Checkpoint,
    /// A retransmission timer expired.
    Timeout,
}

/// Declares the counters once: the struct and the field-wise window difference.
macro_rules! counters {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// Plain counters every entity keeps (quinn-style `Copy` stats).
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct Counters {
            $($(#[doc = $doc])* pub $name: u64,)*
        }

        impl Counters {
            /// Field-wise difference `self - earlier` (for measurement windows).
            pub fn since(&self, earlier: &Counters) -> Counters {
                Counters { $($name: self.$name - earlier.$name,)* }
            }
        }
    };
}

counters! {
    /// Frames of any kind handed to the line.
    frames_sent,
    /// Information frames handed to the line (first copies and retransmissions).
    i_frames_sent,
    /// Information frames sent again, all causes.
    i_frames_retransmitted,
    retransmitted_reject,
    retransmitted_checkpoint,
    retransmitted_timeout,
    /// Supervisory / acknowledgement frames sent.
    s_frames_sent,
    /// Rejects (REJ, SREJ, NAK) sent.
    rejects_sent,
    /// Timer expiries acted on.
    timeouts,
    /// Error-free I frames received out of sequence and discarded.
    out_of_sequence_discarded,
    /// Error-free I frames received that were duplicates of delivered ones.
    duplicates_discarded,
    /// Frames received with a failed FCS.
    frames_in_error_received,
}

impl Counters {
    pub fn count_retransmission(&mut self, cause: RetransmitCause) {
        self.i_frames_retransmitted += 1;
        match cause {
            RetransmitCause::Reject => self.retransmitted_reject += 1,
            RetransmitCause::Checkpoint => self.retransmitted_checkpoint += 1,
            RetransmitCause::Timeout => self.retransmitted_timeout += 1,
        }
    }
}

/// A protocol entity at one end of a link.
pub trait Entity {
    /// What this protocol puts on the line.
    type Frame: LinkFrame;

    /// A message from the upper layer, queued without limit.
    fn handle_submit(&mut self, now: SimTime, msg: Message);
    /// A frame received with a correct FCS.
    fn handle_frame(&mut self, now: SimTime, frame: &Self::Frame);
    /// A frame received with a failed FCS. Its contents must not be trusted; HDLC-style
    /// receivers only count it.
    fn handle_frame_in_error(&mut self, now: SimTime, frame: &Self::Frame);
    /// The clock reached (or passed) a deadline. Must be idempotent.
    fn handle_timeout(&mut self, now: SimTime);
    /// The line is idle: the next frame to start transmission now, if any.
    fn poll_transmit(&mut self, now: SimTime) -> Option<Self::Frame>;
    /// The earliest pending deadline.
    fn poll_timeout(&self) -> Option<SimTime>;
    /// The next event for the user, if any.
    fn poll_event(&mut self) -> Option<Event>;
    /// Messages submitted but never yet transmitted (for saturated sources).
    fn backlog(&self) -> usize;
    /// Messages submitted and not yet acknowledged (queued + outstanding).
    fn unacknowledged(&self) -> usize;
    /// Counters since the start of the run.
    fn counters(&self) -> Counters;
    /// True if `poll_transmit` could return a frame now were the line idle. A hint that
    /// lets the engine skip waking an idle station at the end of each transmission; the
    /// default (always true) is correct, just slower.
    fn wants_transmit(&self) -> bool {
        true
    }
    /// Information bits held at the receiver waiting for a gap to fill (selective
    /// retransmission); in-sequence receivers hold nothing.
    fn receive_buffer_bits(&self) -> u64 {
        0
    }
}
