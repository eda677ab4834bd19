//! The measures of one flow (direction) over one measurement window, declared once: the
//! struct, the list of names and name-based access cannot drift apart. Names follow
//! docs/architecture.md (snake_case, unit suffix).

use serde::Serialize;

/// Declares the measures once: the struct, the list of names and name-based access
/// cannot drift apart.
macro_rules! measures {
    ($($(#[doc = $doc:literal])* $name:ident),* $(,)?) => {
        /// The measures of one direction over one window (names from docs/architecture.md). Counts
        /// are over the window; times in seconds; NaN where undefined (nothing timed).
        #[derive(Clone, Debug, Default, Serialize, PartialEq)]
        pub struct Measures {
            $($(#[doc = $doc])* pub $name: f64,)*
        }

        /// Every measure name, in declaration order.
        pub const MEASURES: &[&str] = &[$(stringify!($name)),*];

        impl Measures {
            /// (name, value) pairs in declaration order.
            pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> {
                [$((stringify!($name), self.$name)),*].into_iter()
            }

            /// The value of the measure called `name`.
            pub fn get(&self, name: &str) -> Option<f64> {
                match name {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

measures! {
    /// Information bits delivered / (rate × window length): the link rate in the pair
    /// form, the bottleneck rate along the flow's path in a topology (`scenario::validate::bottleneck_bps`).
    throughput_efficiency,
    /// Information bits delivered per second.
    throughput_bps,
    /// Mean time from message arrival at the sender to in-order delivery.
    transfer_time_s,
    /// 95th percentile of the transfer time (log histogram, relative error ≤ 2^-8).
    transfer_time_p95_s,
    /// Mean time from message arrival to its positive acknowledgement at the sender.
    buffer_holding_time_s,
    /// Messages delivered in the window.
    messages_delivered,
    /// Frames of any kind sent by the sender of this direction.
    frames_sent,
    /// I frames sent again, all causes.
    frames_retransmitted,
    /// … because of a reject (REJ/SREJ).
    retransmitted_reject,
    /// … because of P/F checkpointing.
    retransmitted_checkpoint,
    /// … because a timer expired.
    retransmitted_timeout,
    /// Frames corrupted on this direction.
    frames_in_error,
    /// Error-free I frames discarded by the receiver as out of sequence.
    out_of_sequence_discarded,
    /// Rejects (REJ, SREJ, NAK) sent by the receiver of this direction.
    rejects_sent,
    /// Timer expiries at the sender.
    timeouts,
    /// Time-average of the receiver's resequencing buffer (octets).
    receive_buffer_octets_mean,
    /// Maximum of the receiver's resequencing buffer (octets).
    receive_buffer_octets_max,
    /// Messages delivered / frames transmitted on this direction.
    network_efficiency,
}

