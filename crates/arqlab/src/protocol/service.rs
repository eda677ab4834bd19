//! Declared services: what each registered protocol offers the layer above and needs
//! from the layer below, checked once when a stack is built (`scenario::compose`).
//!
//! ```text
//!   users' messages
//!        ▲ offers: byte stream | reliable messages | datagrams
//!   ┌────┴─────┐
//!   │  layer   │   role: top only (its SDUs are the users' messages)?
//!   └────┬─────┘         addresses several peers itself (a network interface)?
//!        ▼ needs: one of {medium, datagrams, reliable messages}
//! ```
//!
//! Two neighbours fit when the lower one offers a service the upper one needs; the
//! lowest layer must be able to send on a medium. Modem awareness is declared for the
//! error models that depend on the transmission mode (an HF channel).

use std::fmt;

/// A service between two layers (or between the lowest layer and the medium).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServiceKind {
    /// Frames on a medium: the lowest layer's lower face.
    Medium,
    /// Best-effort datagrams: may be lost (or reordered), never duplicated.
    Datagrams,
    /// Reliable, in-order messages (an ARQ link or transport).
    Messages,
    /// A reliable, in-order byte stream (TCP); carries the users' messages.
    ByteStream,
}

impl fmt::Display for ServiceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ServiceKind::Medium => "frames on a medium",
            ServiceKind::Datagrams => "best-effort datagrams",
            ServiceKind::Messages => "reliable in-order messages",
            ServiceKind::ByteStream => "a byte stream",
        })
    }
}

/// What a protocol declares about itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declared {
    /// The service given to the layer above.
    pub offers: ServiceKind,
    /// The services it can run over, any one of them.
    pub needs: &'static [ServiceKind],
    /// Its SDUs are the users' messages: it can only be the top layer.
    pub top_only: bool,
    /// It addresses several peers itself (an X.25 host's circuits): no per-peer
    /// multiplexer is put over a stack that holds it.
    pub addresses_peers: bool,
    /// It picks a transmission mode per frame (an adaptive HF modem): error models that
    /// depend on the mode judge its frames by that mode.
    pub modem_aware: bool,
    /// A transport over a subnetwork: a stack topped by it reports the transport's
    /// counters (the subnetwork's are its own business) and only the transport's extra
    /// measures.
    pub transport: bool,
}

/// Runs over any frame service: a medium, datagrams, or another ARQ link.
pub const ANY_BELOW: &[ServiceKind] = &[ServiceKind::Medium, ServiceKind::Datagrams, ServiceKind::Messages];
/// Sends on a medium only.
pub const MEDIUM: &[ServiceKind] = &[ServiceKind::Medium];
/// Runs over a packet service (datagrams or a reliable link), never on a bare medium.
pub const PACKETS: &[ServiceKind] = &[ServiceKind::Datagrams, ServiceKind::Messages];

impl Declared {
    /// A link layer: offers `offers`, runs over `needs`, no special role.
    pub const fn link(offers: ServiceKind, needs: &'static [ServiceKind]) -> Declared {
        Declared { offers, needs, top_only: false, addresses_peers: false, modem_aware: false, transport: false }
    }

    /// Why `self` cannot sit directly over `lower`, if it cannot.
    pub fn misfit_over(&self, lower: &Declared) -> Option<String> {
        if self.needs.contains(&lower.offers) {
            return None;
        }
        Some(format!("needs {} below it, but the layer below offers {}", alternatives(self.needs), lower.offers))
    }

    /// Why `self` cannot be the lowest layer (sending on a medium), if it cannot.
    pub fn misfit_on_medium(&self) -> Option<String> {
        if self.needs.contains(&ServiceKind::Medium) {
            return None;
        }
        Some(format!("needs {} below it, not a medium (put a link layer under it)", alternatives(self.needs)))
    }
}

/// "a or b or c".
pub fn alternatives(s: &[ServiceKind]) -> String {
    s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_fits_over_a_service_it_needs_and_only_that() {
        let arq = Declared::link(ServiceKind::Messages, ANY_BELOW);
        let dgram = Declared::link(ServiceKind::Datagrams, MEDIUM);
        let tcp = Declared { top_only: true, ..Declared::link(ServiceKind::ByteStream, PACKETS) };
        assert_eq!(arq.misfit_over(&dgram), None);
        assert_eq!(tcp.misfit_over(&arq), None);
        assert_eq!(dgram.misfit_over(&arq).unwrap(), "needs frames on a medium below it, but the layer below offers reliable in-order messages");
        assert_eq!(arq.misfit_over(&tcp).unwrap(), "needs frames on a medium or best-effort datagrams or reliable in-order messages below it, but the layer below offers a byte stream");
        assert_eq!(arq.misfit_on_medium(), None);
        assert!(tcp.misfit_on_medium().unwrap().starts_with("needs best-effort datagrams or reliable in-order messages below it, not a medium"));
    }
}
