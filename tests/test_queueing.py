"""Transfer times against queueing theory: Poisson arrivals, error-free link, window not
limiting. Transfer time = waiting + frame time + t_p, with the waiting time of M/D/1
(constant lengths) or M/G/1 by Pollaczek–Khinchine (exponential lengths)."""

from __future__ import annotations

from typing import Any

import pytest

import arqlab
from arqlab import theory

RATE, H, TP = 48000.0, 48, 0.005


def scenario(dist: str, mean_bits: int, load: float) -> dict[str, Any]:
    return {
        "run": {"duration_s": 3000.0, "warmup_s": 50.0, "replications": 10},
        "link": {"rate_bps": RATE, "delay_s": TP},
        "protocol": {"kind": "selective_repeat", "window": 64, "modulus": 128, "overhead_bits": H, "ack_bits": 48},
        "traffic": {"a": {"kind": "poisson", "load": load, "length": {"dist": dist, "mean_bits": mean_bits}}},
    }


def check(m: dict[str, float], expected: float, what: str) -> None:
    tol = m["ci95_half_width"] + 0.01 * expected
    assert abs(m["mean"] - expected) <= tol, f"{what}: simulated {m['mean']:.6f} ± {m['ci95_half_width']:.6f}, theory {expected:.6f}"


@pytest.mark.parametrize("load", [0.2, 0.5, 0.8])
def test_constant_lengths_give_md1(load: float) -> None:
    l = 1000
    r = arqlab.simulate(scenario("constant", l, load))
    tf = (l + H) / RATE
    rho = load * (l + H) / l  # server utilisation: useful load plus overhead
    check(r.metrics["a_to_b"]["transfer_time_s"], theory.md1_transfer_time(rho, tf, TP), f"M/D/1 at useful load {load}")
    check(r.metrics["a_to_b"]["throughput_efficiency"], load, "carried load")


@pytest.mark.parametrize("load", [0.3, 0.6])
def test_exponential_lengths_give_pollaczek_khinchine(load: float) -> None:
    l = 1000
    r = arqlab.simulate(scenario("exponential", l, load))
    lam = load * RATE / l
    es = (l + H) / RATE
    es2 = (l * l + (l + H) ** 2) / RATE**2  # Var(l) = l² for the exponential
    check(r.metrics["a_to_b"]["transfer_time_s"], theory.mg1_transfer_time(lam, es, es2, TP), f"M/G/1 at useful load {load}")


def test_buffer_holding_time_adds_the_acknowledgement_loop() -> None:
    # Buffer holding = transfer + t_p + ack frame time (the RR is sent on delivery).
    l, load = 1000, 0.4
    r = arqlab.simulate(scenario("constant", l, load))
    t = r.metrics["a_to_b"]
    check(t["buffer_holding_time_s"], t["transfer_time_s"]["mean"] + TP + 48 / RATE, "buffer holding time")
