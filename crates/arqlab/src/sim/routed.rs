//! The runner's steps for IP routers whose interfaces run link stacks
//! (`sim::link_router`): a frame received on a port, a timer, a port's lane freed.
//! After each, every port whose lane grants a transmission is asked for a frame (a
//! datagram delivered on one port is usually queued on another), a port that still
//! wants to send is woken when its lane frees, the router's earliest deadline is
//! scheduled (one pending wake as for a node; stale wakes are harmless), and the
//! port and IP counters are copied into the relay's scopes.

use super::lanes::{gate, ready_at, transmit, Medium, Target};
use super::runner::record_relay;
use super::state::{Ev, Sim, Step, ARRIVAL, TIMER, TX_END};
use crate::engine::SimTime;
use crate::protocol::{Grant, Layer, Sdu};
use crate::trace::TraceKind;

impl<L: Layer<Sdu = Sdu>> Sim<L> {
    /// True if relay `r` is a router with link stacks.
    #[inline]
    pub(super) fn is_link_router(&self, r: usize) -> bool {
        self.routers.get(r).is_some_and(Option::is_some)
    }

    pub(super) fn router_arrival(&mut self, l: usize, r: usize, k: usize, now: SimTime) -> Step {
        // The sender: on a token ring, the station whose lane this is (a node, or a relay
        // addressed after the nodes); a line's far end needs no name.
        let from = match self.lanes[l].medium {
            Medium::Ring(g, pos) => match self.rings[g as usize].stations[pos as usize] {
                Target::Node(n) => n,
                Target::Port(o, _) => self.nodes.len() as u32 + o,
                Target::Ring(_) => u32::MAX,
            },
            _ => u32::MAX,
        };
        if let Some(w) = self.lanes[l].dir.take_arrival() {
            if let Some(slot) = self.routers[r].as_mut() {
                slot.ifaces.receive(now, k, from, &w.frame, w.in_error);
            }
            if self.trace.is_some() {
                let kind = if w.in_error { TraceKind::ReceiveInError } else { TraceKind::Receive };
                record_relay(&mut self.trace, now, self.nodes.len() + r, l as u32, kind, &w.frame, 0);
            }
        }
        self.after_router(r, now)
    }

    pub(super) fn router_timer(&mut self, r: usize, now: SimTime) -> Step {
        if let Some(slot) = self.routers[r].as_mut() {
            slot.wakes.pop();
            slot.ifaces.handle_timeout(now);
        }
        self.after_router(r, now)
    }

    pub(super) fn router_port_free(&mut self, r: usize, k: usize, now: SimTime) -> Step {
        self.relays[r].ports[k].wake = false;
        self.after_router(r, now)
    }

    fn after_router(&mut self, r: usize, now: SimTime) -> Step {
        let Sim { q, lanes, radios, rings, relays, routers, trace, relay_port0, nodes, .. } = self;
        let Some(slot) = routers[r].as_mut() else { return Ok(()) };
        let relay = &mut relays[r];
        for k in 0..relay.ports.len() {
            let l = relay.ports[k].lane as usize;
            let lane = &mut lanes[l];
            let mut busy = true;
            if let Some(lead) = gate(lane, radios, rings, now) {
                let grant = Grant { rate_bps: lane.dir.rate_bps, lead, mtu_bits: u32::MAX };
                match slot.ifaces.poll_transmit(now, k, &grant) {
                    Some((f, to)) => {
                        if trace.is_some() {
                            record_relay(trace, now, nodes.len() + r, l as u32, TraceKind::Send, &f, 0);
                        }
                        lane.dir.stage(&f);
                        let tx = transmit(lane, radios, rings, now, lead, to);
                        q.schedule(tx.arrival, Ev::new(ARRIVAL, l))?;
                    }
                    None => busy = false,
                }
            }
            let port = &mut relay.ports[k];
            if busy && !port.wake && slot.ifaces.wants_transmit(k) {
                port.wake = true;
                q.schedule(ready_at(lane, radios, rings, now), Ev::new(TX_END, relay_port0[r] as usize + k))?;
            }
            let (counters, held) = slot.ifaces.port(k);
            port.counters = counters;
            if held != port.buffered_bits {
                port.buffered_bits = held;
                port.occupancy.update(now.as_secs_f64(), held as f64 / 8.0);
            }
        }
        if let Some(ip) = relay.ip.as_mut() {
            ip.counters = slot.ifaces.ip_counters();
        }
        if let Some(d) = slot.ifaces.poll_timeout() {
            let at = d.max(now);
            if slot.wakes.last().is_none_or(|&w| at < w) {
                q.schedule(at, Ev::new(TIMER, nodes.len() + r))?;
                slot.wakes.push(at);
            }
        }
        Ok(())
    }
}
