//! A measurement window of the runner: every scope's counters noted when a window
//! opens, and its measures when it closes (flows, dialogues, the run's completion,
//! layers' own counters, pooled flows, lanes, relay ports, IP routers, rings). The event
//! loop (`runner.rs`) calls these at each window boundary; nothing here is on the
//! per-event path.

use super::measure::Measures;
use super::scope::{lane_measures, llc2_measures, port_measures, relays_measures, ring_measures, MeasureSet};
use super::state::{pooled_counters, Sim};
use crate::engine::SimTime;
use crate::protocol::{Layer, Sdu};

impl<L: Layer<Sdu = Sdu>> Sim<L> {
    pub(super) fn open(&mut self, now: SimTime) {
        for d in self.dialogues.iter_mut() {
            d.d.open();
        }
        for (i, f) in self.flows.iter_mut().enumerate() {
            let i = i as u32;
            let (sender, receiver) = (self.nodes[f.src as usize].stack.counters_of(i), self.nodes[f.dst as usize].stack.counters_of(i));
            let line = self.lanes[self.nodes[f.src as usize].lane as usize].dir.counters;
            f.meter.open(now, sender, receiver, line);
        }
        if let Some(p) = self.pooled.as_mut() {
            let (sender, receiver, line, _) = pooled_counters(&self.nodes, &self.flows, &self.lanes);
            p.open(now, sender, receiver, line);
        }
        if self.extra_scopes {
            for l in self.lanes.iter_mut() {
                l.at_open = l.dir.counters;
            }
            for (p, &(r, k)) in self.port_owner.iter().enumerate() {
                let port = &mut self.relays[r as usize].ports[k as usize];
                self.port_at_open[p] = port.counters;
                port.occupancy.reset(now.as_secs_f64());
            }
        }
    }

    pub(super) fn close_flow(&self, i: usize, now: SimTime) -> Measures {
        let f = &self.flows[i];
        let src = &self.nodes[f.src as usize];
        let lane = &self.lanes[src.lane as usize].dir;
        let (sender, receiver) = (src.stack.counters_of(i as u32), self.nodes[f.dst as usize].stack.counters_of(i as u32));
        f.meter.close(now, f.bottleneck_bps, sender, receiver, lane.counters)
    }

    pub(super) fn close(&self, now: SimTime, flows: &[Measures]) -> Vec<(String, MeasureSet)> {
        let mut out: Vec<(String, MeasureSet)> = self.flows.iter().zip(flows).map(|(f, m)| (f.meter.name.clone(), MeasureSet::from(m))).collect();
        // A dialogue's measures join its client → server flow's scope.
        for d in &self.dialogues {
            out[d.flows[0] as usize].1 .0.extend(d.d.measures());
        }
        let stalled = f64::from(u8::from(self.stall.stalled.is_some()));
        if self.terminating {
            let done = self.unfinished == 0;
            let at = if done { now.as_secs_f64() } else { f64::NAN };
            out.push(("run".into(), MeasureSet(vec![("completion_time_s", at), ("completed", f64::from(u8::from(done))), ("stalled", stalled)])));
        } else if stalled > 0.0 {
            out.push(("run".into(), MeasureSet(vec![("stalled", stalled)])));
        }
        // Layers' own whole-run counters (TP4's TPDU counts), both ends of a flow summed.
        for (i, f) in self.flows.iter().enumerate() {
            let (s, r) = (self.nodes[f.src as usize].stack.extra_measures_of(i as u32), self.nodes[f.dst as usize].stack.extra_measures_of(i as u32));
            if !s.is_empty() {
                let sum = s.iter().zip(r.iter().chain(std::iter::repeat(&("", 0.0)))).map(|(&(k, a), &(_, b))| (k, a + b)).collect();
                for (suffix, set) in by_layer(sum) {
                    out.push((format!("transport.{}{suffix}", f.meter.name), MeasureSet(set)));
                }
            }
        }
        if let Some(p) = &self.pooled {
            let (sender, receiver, line, rate) = pooled_counters(&self.nodes, &self.flows, &self.lanes);
            let m = p.close(now, rate, sender, receiver, line);
            out.push((p.name.clone(), MeasureSet::from(&m)));
            if self.llc2_scopes {
                let (s, r) = p.counters_since_open(&sender, &receiver);
                out.push(("llc2.*".into(), llc2_measures(&s, &r, m.messages_delivered)));
            }
        }
        if self.extra_scopes {
            let start = self.flows.first().map_or(now, |f| f.meter.window_start());
            let span = (now - start).as_secs_f64();
            for (l, name) in self.lanes.iter().zip(&self.lane_scopes) {
                out.push((name.clone(), lane_measures(&l.dir.counters, &l.at_open, span)));
            }
            for (p, &(r, k)) in self.port_owner.iter().enumerate() {
                let port = &self.relays[r as usize].ports[k as usize];
                out.push((self.port_scopes[p].clone(), port_measures(port, &self.port_at_open[p], now)));
            }
            // IP routers' whole-run counters (`channel::ip_router`), and their link
            // layers' own (an X.25 interface's calls and circuits, `sim::link_router`).
            for (r, name) in &self.ip_scopes {
                if let Some(ip) = &self.relays[*r].ip {
                    let mut m = ip.counters.pairs();
                    if let Some(Some(slot)) = self.routers.get(*r) {
                        m.extend(slot.ifaces.link_measures());
                    }
                    out.push((name.clone(), MeasureSet(m)));
                }
            }
            if self.llc2_scopes && !self.port_owner.is_empty() {
                let ports: Vec<_> = self.port_owner.iter().map(|&(r, k)| self.relays[r as usize].ports[k as usize].counters).collect();
                out.push(("node.*".into(), relays_measures(&ports, &self.port_at_open)));
            }
            for (name, lanes) in &self.ring_scopes {
                out.push((name.clone(), ring_measures(self.lanes[lanes.clone()].iter().map(|l| (&l.dir.counters, &l.at_open)), span)));
            }
        }
        out
    }
}

/// A stack's measures (top layer first) split so that each layer's names are its own:
/// the first layer of a protocol reports in the flow's `transport` scope, a second
/// layer of the same protocol below it (IP in IP) in the scope suffixed `.ip2` (its
/// protocol, the name's prefix, and its rank from the top), a third in `.ip3`, ...
fn by_layer(sum: Vec<(&'static str, f64)>) -> Vec<(String, Vec<(&'static str, f64)>)> {
    let mut out: Vec<(String, Vec<(&'static str, f64)>)> = vec![(String::new(), vec![])];
    let mut seen: Vec<(&'static str, usize)> = vec![];
    for (k, v) in sum {
        let n = match seen.iter_mut().find(|x| x.0 == k) {
            Some(x) => {
                x.1 += 1;
                x.1
            }
            None => {
                seen.push((k, 1));
                1
            }
        };
        let suffix = if n == 1 { String::new() } else { format!(".{}{n}", k.split('_').next().unwrap_or(k)) };
        match out.iter_mut().find(|x| x.0 == suffix) {
            Some(x) => x.1.push((k, v)),
            None => out.push((suffix, vec![(k, v)])),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    /// IP in IP: the second IP layer's counters leave the flow's scope for `.ip2`, the
    /// third's for `.ip3`; names that occur once stay where they were.
    #[test]
    fn a_second_layer_of_one_protocol_reports_in_its_own_scope_by_rank() {
        let m = vec![("tcp_timeouts", 1.0), ("ip_datagrams_sent", 10.0), ("ip_fragments_sent", 10.0), ("ip_datagrams_sent", 10.0), ("ip_fragments_sent", 20.0), ("ip_datagrams_sent", 20.0)];
        let got = super::by_layer(m);
        assert_eq!(
            got,
            vec![
                (String::new(), vec![("tcp_timeouts", 1.0), ("ip_datagrams_sent", 10.0), ("ip_fragments_sent", 10.0)]),
                (".ip2".to_string(), vec![("ip_datagrams_sent", 10.0), ("ip_fragments_sent", 20.0)]),
                (".ip3".to_string(), vec![("ip_datagrams_sent", 20.0)]),
            ]
        );
    }
}
