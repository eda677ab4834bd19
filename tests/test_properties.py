"""Property tests over random configurations: every submitted message is delivered
exactly once, in order, and the counters balance. The runner checks delivery order and
accounting on every run (a violation is a `SimulationError`); these tests drive it
through configurations nobody wrote by hand and assert the balance explicitly."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arqlab

protocols = st.sampled_from(
    [
        {"kind": "stop_and_wait"},
        {"kind": "go_back_n", "window": 7, "modulus": 8},
        {"kind": "go_back_n", "window": 3, "modulus": 8},
        {"kind": "go_back_n", "window": 127, "modulus": 128},
        {"kind": "selective_repeat", "window": 4, "modulus": 8},
        {"kind": "selective_repeat", "window": 64, "modulus": 128},
    ]
)
errors = st.one_of(
    st.just({"error_model": "none"}),
    st.builds(lambda p: {"error_model": "bit", "bit_error_rate": p}, st.sampled_from([1e-5, 1e-4, 1e-3, 5e-3])),
    st.builds(
        lambda bad, good_len: {"error_model": "gilbert_elliott", "good_ber": 1e-6, "bad_ber": bad, "mean_good_bits": good_len, "mean_bad_bits": 2000.0},
        st.sampled_from([1e-3, 1e-2, 0.1]),
        st.sampled_from([2e4, 1e5]),
    ),
)
lengths = st.one_of(
    st.builds(lambda m: {"dist": "constant", "mean_bits": m}, st.sampled_from([8, 200, 1000, 4000])),
    st.builds(lambda m: {"dist": "exponential", "mean_bits": m}, st.sampled_from([100, 1000])),
    st.just({"dist": "uniform", "min_bits": 10, "max_bits": 3000}),
    st.just({"dist": "empirical", "values_bits": [64, 1500], "weights": [3, 1]}),
)
traffic = st.one_of(
    st.just({"kind": "none"}),
    st.builds(lambda l: {"kind": "saturated", "length": l}, lengths),
    st.builds(lambda l, rho: {"kind": "poisson", "load": rho, "length": l}, lengths, st.sampled_from([0.1, 0.5, 0.9])),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    protocol=protocols,
    e_ab=errors,
    e_ba=errors,
    a=traffic,
    b=traffic,
    delay=st.sampled_from([0.0, 0.001, 0.05, 0.27]),
    nak=st.booleans(),
    timeout=st.sampled_from([0.3, 1.0, 3.0]),
    seed=st.integers(1, 2**31),
)
def test_exactly_once_in_order_and_counters_balance(
    protocol: dict[str, Any], e_ab: dict[str, Any], e_ba: dict[str, Any], a: dict[str, Any], b: dict[str, Any],
    delay: float, nak: bool, timeout: float, seed: int,
) -> None:
    if a["kind"] == "none" and b["kind"] == "none":
        a = {"kind": "saturated"}
    sc = {
        "run": {"duration_s": 60.0, "replications": 1},
        "link": {"rate_bps": 64000.0, "delay_s": delay, "a_to_b": e_ab, "b_to_a": e_ba},
        "protocol": {**protocol, "timeout_s": timeout, "nak_corrupted": nak},
        "traffic": {"a": a, "b": b},
    }
    r = arqlab.simulate(sc, seed=seed)
    for direction, acc in r.records[0]["accounting"].items():
        assert acc["issued"] == acc["acknowledged"] + acc["unacknowledged"], direction
        assert acc["acknowledged"] <= acc["delivered"] <= acc["issued"], direction
        # Nothing is stuck for ever: with any traffic, something got through.
        station = "a" if direction == "a_to_b" else "b"
        if sc["traffic"][station]["kind"] == "saturated" and e_ab.get("error_model") == "none" and e_ba.get("error_model") == "none":
            assert acc["delivered"] > 0
