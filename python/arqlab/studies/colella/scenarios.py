"""Scenarios of the two experiments, built from one flat parameter dict: the published
values (:mod:`.params`), the curve's and the sensitivity variant's parameters, and the
figure's x value. Figures pass everything through ``derive``, which rewrites the
``stack``, ``medium`` and ``flow`` tables whole (they hold lists).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec import Curve, Scenario
from .params import (
    BUFFER_OCTETS,
    EXP1,
    EXP2,
    EXPEDITED_UNIT,
    FULL_MAX_REPLICATIONS,
    FULL_MIN_REPLICATIONS,
    LINK_BPS,
    NET_ACK_DELAY_S,
    NET_OVERHEAD_BITS,
    NETWORK_WINDOW,
    ONE_WAY_DELAY_S,
    QUICK_REPLICATIONS,
    TSDU_OCTETS,
    TSDUS_AT_1E3,
)

FLOW = "flow.a->b"
TRANSPORT = "transport.flow.a->b"

def common() -> dict[str, Any]:
    """Every parameter a point may set, with the defaults shared by both experiments.

    Built on each call: the unstated parameters are read when a point is planned, so a
    robustness pass that rebinds them (``param:`` inputs) reaches every scenario."""
    return {
        "delay_s": ONE_WAY_DELAY_S,
        "ber": 1e-9,
        "tsdus": 60,
        "tsdu_octets": TSDU_OCTETS,
        "net_window": NETWORK_WINDOW,
        "net_overhead_bits": NET_OVERHEAD_BITS,
        "net_ack_delay_s": NET_ACK_DELAY_S,
        "send_buffer_octets": BUFFER_OCTETS,
        "receive_buffer_octets": BUFFER_OCTETS,
        "expedited": "nbs",
        "expedited_every": 0,
        "expedited_unit": EXPEDITED_UNIT,
        "acknowledgement": "one_for_one",
    }

TP4_KEYS = (
    "dt_size_octets", "window_octets", "send_buffer_octets", "receive_buffer_octets", "retransmission_timer_s",
    "window_timer_s", "expedited", "acknowledgement", "expedited_every", "expedited_unit",
)


def params_for(experiment: int, *layers: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults of experiment 1 or 2 with each mapping of ``layers`` applied in turn."""
    p = {**common(), **(EXP1 if experiment == 1 else EXP2)}
    for m in layers:
        p.update(m)
    return p


def tables(p: Mapping[str, Any]) -> dict[str, Any]:
    """The ``stack``, ``medium`` and ``flow`` tables of one point."""
    tp4 = {"kind": "tp4", **{k: p[k] for k in TP4_KEYS}}
    if "dt_size_includes_header" in p:  # only the 'dt_user1024' variant sets it
        tp4["dt_size_includes_header"] = p["dt_size_includes_header"]
    net = {"kind": "network_window", "window": p["net_window"], "overhead_bits": p["net_overhead_bits"],
           "ack_delay_s": p["net_ack_delay_s"]}
    return {
        "stack": {"ts": {"layers": [tp4, net]}},
        "medium": [{"name": "sat", "ends": ["a", "b"], "rate_bps": LINK_BPS, "delay_s": p["delay_s"],
                    "bit_error_rate": p["ber"]}],
        "flow": [{"from": "a", "to": "b", "traffic": {
            "kind": "bulk", "messages": p["tsdus"],
            "length": {"dist": "constant", "mean_bits": p["tsdu_octets"] * 8}}}],
    }


def run_table(quick: bool, *measures: str) -> dict[str, Any]:
    """Replications (quick) or the sequential rule's bounds and watched measures (full):
    efficiency and every other measure the experiment's figures plot."""
    run: dict[str, Any] = {"duration_s": 1.0e6, "replications": QUICK_REPLICATIONS}
    if not quick:
        watched = sorted({f"{FLOW}.throughput_efficiency", *(f"{FLOW}.{m}" for m in measures)})
        run.update({"min_replications": FULL_MIN_REPLICATIONS, "max_replications": FULL_MAX_REPLICATIONS,
                    "precision_measures": watched})
    return run


def scenario(experiment: int, *layers: Mapping[str, Any], quick: bool = True) -> Scenario:
    """A whole scenario dict (the figures' base)."""
    p = params_for(experiment, *layers)
    return {"title": f"Colella et al. experiment {experiment}", "run": run_table(quick), **tables(p),
            "node": [{"name": "a", "stack": "ts"}, {"name": "b", "stack": "ts"}]}


def every_for(rate: float) -> int:
    """Normal units per ED for an expedited/normal ratio (0: none)."""
    return 0 if rate <= 0 else max(1, round(1.0 / rate))


def tsdus_for(ber: float) -> int:
    """Table 3: 20 TSDUs, 5 at a bit error rate of 1e-3."""
    return TSDUS_AT_1E3 if ber >= 1e-3 else int(EXP2["tsdus"])


def derive_exp1(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Experiment 1: x is the expedited/normal ratio."""
    p = params_for(1, params, {"expedited_every": every_for(x)})
    return {**tables(p), "run": run_table(quick, "transfer_time_s")}


def derive_exp2(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Experiment 2: x is the bit error rate."""
    p = params_for(2, {"tsdus": tsdus_for(x)}, params, {"ber": x})
    return {**tables(p), "run": run_table(quick, "receive_buffer_octets_mean", "receive_buffer_octets_max")}


def derive_window(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """The window sensitivity: x is the window in KiB, at the curve's bit error rate
    (the base scenario's, WINDOW_BER, when the curve sets none)."""
    from .params import WINDOW_BER

    ber = params.get("ber", WINDOW_BER)
    p = params_for(2, {"tsdus": tsdus_for(ber), "ber": ber}, params, {"window_octets": int(x * 1024)})
    return {**tables(p), "run": run_table(quick, "throughput_efficiency")}
