"""Biersack (1992) internet configuration as an arqlab topology, built from one flat
parameter dict (the paper's values and the assumptions of :mod:`.params`, a curve's and a
sensitivity variant's parameters, and the figure's x value).

Three local 4 Mbit/s token rings of 12 stations, each joined by a bridge to a 4 Mbit/s
backbone ring; "internet traffic only": station ``i`` of ring ``r`` sends to station
``i`` of ring ``r + 1 (mod 3)``; Poisson message arrivals; the x-axis is the total
offered data rate (user bits per second, all 36 stations together).

Figures pass everything through :func:`derive`, which rewrites the ``stack``,
``medium``, ``relay``, ``node``, ``flow`` and ``run`` tables whole (they hold lists).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec import Curve, Scenario
from . import params as P
from .params import (
    FULL_DURATION_S,
    FULL_MAX_REPLICATIONS,
    FULL_MIN_REPLICATIONS,
    FULL_WARMUP_S,
    KNEE_MBPS,
    KNEE_REPLICATIONS,
    ORIG_COLLAPSE_MBPS,
    OVERLOAD_MBPS,
    QUICK_DURATION_S,
    QUICK_REPLICATIONS,
    QUICK_WARMUP_S,
    RATE_BPS,
    RINGS,
    STATIONS,
)

POOLED = "flow.*"  # all 36 connections: throughput, delay
LLC2 = "llc2.*"  # network efficiency, out-of-sequence fraction, working window
BRIDGES = "node.*"  # every bridge output port: losses

def defaults() -> dict[str, Any]:
    """Every parameter a point may set, with the study's values read from :mod:`.params`
    when called (so a robustness run that sets ``param:T1_S`` reaches every scenario)."""
    return {
        "variant": "srej",
        "offered_mbps": 2.0,
        "length": P.LENGTH_MIX,
        "window": P.WINDOW,
        "n": P.N_BG,
        "fifo_buffers": 2,
        "rej_after_discard": False,
        "t1_s": P.T1_S,
        "reject_timer_s": P.REJECT_TIMER_S,
        "t1_resets_window": P.T1_RESETS_WINDOW,
        "buffer_octets": P.BUFFER_OCTETS,
        "forwarding_time_s": P.FORWARDING_TIME_S,
        "single_processor": P.SINGLE_PROCESSOR,
        "processing_s": P.PROCESSING_S,
        "s_processing_s": P.S_PROCESSING_S,
        "holding_time_s": P.HOLDING_TIME_S,
        "propagation_s": P.PROPAGATION_S,
    }


def station(r: int, i: int) -> str:
    return f"r{r + 1}s{i + 1:02d}"


def tables(p: Mapping[str, Any]) -> dict[str, Any]:
    """The ``stack``, ``medium``, ``relay``, ``node`` and ``flow`` tables of one point."""
    load = p["offered_mbps"] * 1e6 / (RINGS * STATIONS) / RATE_BPS
    llc2 = {"kind": "llc2", "variant": p["variant"], "window": p["window"], "n": p["n"], "t1_s": p["t1_s"],
            "reject_timer_s": p["reject_timer_s"], "t1_resets_window": p["t1_resets_window"]}
    if p["variant"] == "multi_fifo":
        llc2["fifo_buffers"] = p["fifo_buffers"]
        if p["rej_after_discard"]:
            llc2["rej_after_discard"] = True
    if p["processing_s"]:
        llc2["processing_s"] = p["processing_s"]
    if p["s_processing_s"] is not None:
        llc2["s_processing_s"] = p["s_processing_s"]
    ring = {"kind": "token_ring", "rate_bps": RATE_BPS, "propagation_s": p["propagation_s"]}
    if p["holding_time_s"]:
        ring["holding_time_s"] = p["holding_time_s"]
    bridge: dict[str, Any] = {"kind": "store_and_forward", "buffer_octets": p["buffer_octets"],
                              "forwarding_time_s": p["forwarding_time_s"]}
    if p["single_processor"]:
        bridge["single_processor"] = True
    media = [{"name": "backbone", **ring, "ends": [f"bridge{r + 1}" for r in range(RINGS)]}]
    media += [{"name": f"ring{r + 1}", **ring, "ends": [station(r, i) for i in range(STATIONS)] + [f"bridge{r + 1}"]}
              for r in range(RINGS)]
    return {
        "stack": {"llc2": llc2},
        "medium": media,
        "relay": [{"name": f"bridge{r + 1}", **bridge} for r in range(RINGS)],
        "node": [{"name": station(r, i), "stack": "llc2"} for r in range(RINGS) for i in range(STATIONS)],
        "flow": [{"from": station(r, i), "to": station((r + 1) % RINGS, i),
                  "traffic": {"kind": "poisson", "load": load, "length": p["length"]}}
                 for r in range(RINGS) for i in range(STATIONS)],
    }


def run_table(quick: bool, offered_mbps: float, variant: str = "srej") -> dict[str, Any]:
    """Quick: fixed replications of short runs. Full: the sequential ±2.5% rule on the
    pooled throughput and (where it has a steady state: below overload, and for ORIG
    below its collapse) mean delay."""
    if quick:
        return {"duration_s": QUICK_DURATION_S, "warmup_s": QUICK_WARMUP_S, "replications": QUICK_REPLICATIONS}
    watched = [f"{POOLED}.throughput_bps"]
    if offered_mbps < (ORIG_COLLAPSE_MBPS if variant == "orig" else KNEE_MBPS):
        watched.append(f"{POOLED}.transfer_time_s")
    least = KNEE_REPLICATIONS if KNEE_MBPS <= offered_mbps < OVERLOAD_MBPS else FULL_MIN_REPLICATIONS
    return {"duration_s": FULL_DURATION_S, "warmup_s": FULL_WARMUP_S, "replications": least,
            "min_replications": least, "max_replications": FULL_MAX_REPLICATIONS, "precision_measures": watched}


def params_for(*layers: Mapping[str, Any]) -> dict[str, Any]:
    p = defaults()
    for m in layers:
        p.update(m)
    return p


def scenario(*layers: Mapping[str, Any], quick: bool = True) -> Scenario:
    """A whole scenario dict (the figures' base)."""
    p = params_for(*layers)
    return {"title": f"Biersack (1992): LLC2 {p['variant']} over bridged token rings",
            "run": run_table(quick, p["offered_mbps"], p["variant"]), **tables(p)}


def derive(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """x is the total offered rate in Mbit/s (Figs. 1-3, 5)."""
    p = params_for(params, {"offered_mbps": x})
    return {**tables(p), "run": run_table(quick, x, p["variant"])}


def derive_fifos(offered_mbps: float) -> Any:
    """x is the number of FIFO buffers (the multi-FIFO figure), at a fixed offered rate."""
    def d(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
        p = params_for({"offered_mbps": offered_mbps}, params)
        if p["variant"] == "multi_fifo":
            p["fifo_buffers"] = int(x)
        return {**tables(p), "run": run_table(quick, offered_mbps, p["variant"])}
    return d


def derive_window(offered_mbps: float) -> Any:
    """x is the window size k, at a fixed offered rate."""
    def d(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
        p = params_for({"offered_mbps": offered_mbps}, params, {"window": int(x)})
        return {**tables(p), "run": run_table(quick, offered_mbps, p["variant"])}
    return d


def base(variant: str = "srej", offered_bps: float = 2e6, *, duration_s: float = 60.0, warmup_s: float = 5.0,
         replications: int = 5, **keys: Any) -> Scenario:
    """One point as a scenario dict (``arqlab.simulate`` takes it); ``keys`` override
    :func:`defaults` (``window``, ``t1_s``, ``buffer_octets``, ``fifo_buffers``, ...)."""
    p = params_for(keys, {"variant": variant, "offered_mbps": offered_bps / 1e6})
    return {"title": f"Biersack (1992): LLC2 {variant} over bridged token rings, {offered_bps / 1e6:g} Mbit/s offered",
            "run": {"duration_s": duration_s, "warmup_s": warmup_s, "replications": replications}, **tables(p)}


def write_base(path: str) -> None:
    """Regenerates the shipped ``scenarios/biersack/base.toml``."""
    import tomli_w

    with open(path, "wb") as f:
        f.write(b"# Generated by arqlab.studies.biersack.scenarios.write_base(); see docs/studies/biersack.md.\n")
        f.write(tomli_w.dumps(base()).encode())


if __name__ == "__main__":
    import sys

    write_base(sys.argv[1] if len(sys.argv) > 1 else "scenarios/biersack/base.toml")
