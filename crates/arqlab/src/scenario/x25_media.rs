//! X.25 needs a reliable network below it. The model's X.25 hosts have no RESET or
//! RESTART procedure and no LAPB on the trunk: a packet lost between the DCEs would
//! stall its virtual circuit for ever (P(S) never acknowledged, the window shut), and
//! TCP above could not recover it. A real X.25 network is reliable between its DCEs
//! (LAPB on every access line, reliable trunks), so a lossy medium or a drop-tail
//! buffer under an `x25` stack is refused here, naming the field, instead of running
//! into a silent stall.

use super::link::DirectionConfig;
use super::{ProtocolConfig, Scenario};
use crate::schema::Problems;

const WHY: &str = "expected 0 under \"x25\": its network is modelled reliable between the DCEs (LAPB access lines inside the host, no RESET/RESTART), so a lost packet would stall its virtual circuit for ever";

fn lossy(d: &DirectionConfig) -> bool {
    match d {
        DirectionConfig::None => false,
        DirectionConfig::Bit { bit_error_rate } => *bit_error_rate > 0.0,
        DirectionConfig::GilbertElliott { good_ber, bad_ber, .. } => *good_ber > 0.0 || *bad_ber > 0.0,
        DirectionConfig::Schedule { bit_error_rates, .. } => bit_error_rates.iter().any(|&b| b > 0.0),
        DirectionConfig::Hf(_) => true,
    }
}

/// Reports every lossy medium direction and every finite relay buffer of a scenario
/// whose stacks include `x25`.
pub fn check(sc: &Scenario, p: &mut Problems) {
    match &sc.network {
        None => {
            if !matches!(sc.protocol, ProtocolConfig::X25(_)) {
                return;
            }
            for (i, key) in [(0, "a_to_b"), (1, "b_to_a")] {
                if lossy(&sc.link.direction(i)) {
                    let own = if i == 0 { &sc.link.a_to_b } else { &sc.link.b_to_a };
                    let path = if own.is_some() { format!("link.{key}") } else { "link.bit_error_rate".into() };
                    p.push(path, Some(&sc.link.bit_error_rate.into()), WHY);
                    return;
                }
            }
        }
        Some(net) => {
            if !net.stack.values().flat_map(|s| &s.layers).any(|l| matches!(l, ProtocolConfig::X25(_))) {
                return;
            }
            for (m, c) in net.medium.iter().enumerate() {
                if !c.outages.is_empty() {
                    p.push(format!("medium[{m}].outages"), None, "expected none under \"x25\": a packet on the line when the medium goes down is lost, and would stall its virtual circuit for ever (no RESET/RESTART modelled)");
                }
                for (i, key) in [(0, "forward"), (1, "reverse")] {
                    if lossy(&c.lane_errors(i)) {
                        let own = if i == 0 { &c.forward } else { &c.reverse };
                        let path = if own.is_some() { format!("medium[{m}].{key}") } else { format!("medium[{m}].bit_error_rate") };
                        p.push(path, Some(&c.bit_error_rate.into()), WHY);
                        break;
                    }
                }
            }
            for (r, c) in net.relay.iter().enumerate() {
                if let Some(b) = c.buffer_octets {
                    p.push(format!("relay[{r}].buffer_octets"), Some(&b.into()), "expected none (unlimited) under \"x25\": a packet dropped by a full buffer would stall its circuit (no RESET/RESTART modelled)");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::Scenario;

    fn problems(text: &str) -> Vec<String> {
        Scenario::from_toml(text).err().map(|e| e.problems()).unwrap_or_default()
    }

    const PAIR: &str = "[run]\nduration_s = 10.0\n[protocol]\nkind = \"x25\"\n[traffic.a]\nkind = \"saturated\"\n";

    #[test]
    fn test_x25_over_a_lossy_link_is_refused_naming_the_field() {
        assert!(problems(&format!("{PAIR}[link]\nbit_error_rate = 0.0\n")).is_empty());
        let p = problems(&format!("{PAIR}[link]\nbit_error_rate = 1e-5\n"));
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("link.bit_error_rate") && p[0].contains("0.00001") && p[0].contains("stall"), "{p:?}");
        let p = problems(&format!("{PAIR}[link]\nb_to_a = {{ error_model = \"gilbert_elliott\", good_ber = 0.0, bad_ber = 0.01, mean_good_bits = 1e6, mean_bad_bits = 100 }}\n"));
        assert!(p.iter().any(|x| x.contains("link.b_to_a")), "{p:?}");
    }

    #[test]
    fn test_x25_in_the_explicit_form_refuses_lossy_media_and_finite_buffers() {
        let net = |ber: f64, buffer: &str| {
            format!(
                "[run]\nduration_s = 10.0\n[stack.h]\nlayers = [{{ kind = \"x25\" }}]\n[[relay]]\nname = \"net\"\n{buffer}\n\
                 [[medium]]\nname = \"m0\"\nends = [\"a\", \"net\"]\nrate_bps = 1e9\n[[medium]]\nname = \"m1\"\nends = [\"b\", \"net\"]\nrate_bps = 1e9\nbit_error_rate = {ber:e}\n\
                 [[node]]\nname = \"a\"\nstack = \"h\"\n[[node]]\nname = \"b\"\nstack = \"h\"\n\
                 [[flow]]\nfrom = \"a\"\nto = \"b\"\ntraffic = {{ kind = \"poisson\", load = 0.1 }}\n"
            )
        };
        assert!(problems(&net(0.0, "")).is_empty(), "{:?}", problems(&net(0.0, "")));
        let p = problems(&net(1e-6, ""));
        assert!(p.len() == 1 && p[0].starts_with("medium[1].bit_error_rate"), "{p:?}");
        let p = problems(&net(0.0, "buffer_octets = 4000"));
        assert!(p.len() == 1 && p[0].starts_with("relay[0].buffer_octets"), "{p:?}");
        let down = net(0.0, "").replace("bit_error_rate = 0e0\n", "outages = [{ from_s = 5.0, to_s = 6.0 }]\n");
        let p = problems(&down);
        assert!(p.len() == 1 && p[0].starts_with("medium[1].outages: expected none under \"x25\"") && p[0].contains("lost"), "{p:?}");
    }
}
