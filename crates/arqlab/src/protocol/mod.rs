//! Protocol layers: sans-IO state machines behind one interface ([`Layer`]), composed
//! statically into a node's stack ([`Stacked`]), multiplexed over connections ([`mux`]).
//!
//! A layer never sees the event queue or a clock. The runner feeds it inputs with the
//! current time through `handle_*` and pulls outputs through `poll_*`; after any input it
//! drains `poll_event` (deliveries, acknowledgements), asks `poll_transmit` if the medium
//! grants a transmission, and re-reads `poll_timeout`.

pub mod any;
pub mod composed;
pub mod datagram;
pub mod deep;
pub mod frame;
pub mod hdlc;
pub mod hf;
pub mod ip;
pub mod ip_header;
pub mod layer;
pub mod llc2;
pub mod mux;
pub mod netwindow;
pub mod registry;
pub mod seq;
pub mod service;
pub mod stacked;
pub mod tcp;
#[cfg(test)]
pub mod testpair;
pub mod textbook;
pub mod tp4;
pub mod x25;

pub use frame::{Frame, FrameKind};
pub use layer::{Event, Grant, Layer, Payload, Pdu, Sdu, Service};
pub use seq::Modulus;
pub use stacked::Stacked;

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

            /// Field-wise sum (a multiplexing layer's connections together).
            pub fn plus(&self, other: &Counters) -> Counters {
                Counters { $($name: self.$name + other.$name,)* }
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
    /// Error-free I frames received (in sequence, stored, discarded or duplicate);
    /// kept by LLC2 only (zero elsewhere).
    i_frames_received,
    /// Sum of the sender's working window over the I frames it sent (its mean per I
    /// frame = this / `i_frames_sent`); LLC2 only.
    window_sum,
    /// Times the working window was cut to 1 (BG, JAIN); LLC2 only.
    window_cuts,
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
