"""Has a Poisson-loaded run a steady state? The check ``reproduce`` applies to every
Poisson point, shared by ``arqlab run``.

A Poisson source offers a useful load ρ (a fraction of the line rate). If the link
carried less than ρ by more than a tolerance — (ρ − carried − CI half-width) / ρ above
``tolerance`` — the queue grew through the run: there is no steady state, and the mean
transfer time only says how long the run was (its memory grows with the run, too).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

SHORTFALL = 0.025
"""Default tolerance: a relative shortfall of carried against offered load above this
marks a point without a steady state (``reproduce`` uses its precision target instead,
when it has one)."""


def shortfall(offered: float, carried_mean: float, carried_half_width: float) -> float:
    """(offered − carried − half-width) / offered (NaN, i.e. no verdict, without a half-width)."""
    return (offered - (carried_mean + carried_half_width)) / offered


def has_steady_state(offered: float, carried_mean: float, carried_half_width: float,
                     tolerance: float | None = None) -> bool:
    """False when the link carried less than offered by more than ``tolerance``."""
    return not shortfall(offered, carried_mean, carried_half_width) > (tolerance or SHORTFALL)


MIN_MESSAGES = 30
"""Below this many messages delivered per replication, a shortfall says nothing about
the load (the run is too short, or the load too small, to judge)."""


def _mean(metrics: Mapping[str, Any], direction: str, measure: str) -> float:
    value = metrics.get(direction, {}).get(measure, {}).get("mean")
    return float(value) if isinstance(value, (int, float)) else math.nan


def _window_s(scenario: Mapping[str, Any]) -> float:
    """The measured window of a fixed warm-up run (NaN with MSER-5: it varies)."""
    run = scenario.get("run", {})
    if run.get("warmup", "fixed") != "fixed":
        return math.nan
    return float(run.get("duration_s", math.nan)) - float(run.get("warmup_s", 0.0))


def warnings(scenario: Mapping[str, Any], metrics: Mapping[str, Any], tolerance: float | None = None) -> list[str]:
    """One warning per Poisson-loaded direction without a steady state."""
    out: list[str] = []
    if "flow" in scenario:  # the explicit form: one source per flow
        sources = [(f"flow[{i}].traffic", f"flow.{f['from']}->{f['to']}", f.get("traffic", {}))
                   for i, f in enumerate(scenario["flow"])]
    else:
        sources = [(f"traffic.{side}", d, scenario.get("traffic", {}).get(side, {}))
                   for side, d in (("a", "a_to_b"), ("b", "b_to_a"))]
    for key, direction, source in sources:
        if not isinstance(source, Mapping) or source.get("kind") != "poisson":
            continue
        offered = float(source.get("load", math.nan))
        carried = metrics.get(direction, {}).get("throughput_efficiency")
        if not carried or not math.isfinite(offered) or offered <= 0:
            continue
        mean, hw = float(carried["mean"]), float(carried["ci95_half_width"])
        hw = hw if math.isfinite(hw) else 0.0  # one replication: judge the point estimate
        if not math.isfinite(mean) or has_steady_state(offered, mean, hw, tolerance):
            continue
        delivered = _mean(metrics, direction, "messages_delivered")
        if not delivered >= MIN_MESSAGES:
            out.append(
                f"too few messages in {direction} to judge a steady state ({delivered:g} delivered per replication "
                f"at offered load {offered:g}): lengthen run.duration_s"
            )
            continue
        # In a steady state the carried load counts the messages of the warm-up delivered
        # in the window and misses those in transit when it closes: about
        # (mean transfer time − warm-up) / window of the offered load is missing.
        transfer, window = _mean(metrics, direction, "transfer_time_s"), _window_s(scenario)
        warmup = float(scenario.get("run", {}).get("warmup_s", 0.0))
        in_transit = max(0.0, transfer - warmup) / window if transfer >= 0 and window > 0 else 0.0
        if not shortfall(offered, mean, hw) - in_transit > (tolerance or SHORTFALL):
            out.append(
                f"{direction} carried {mean:.4g} of an offered load of {offered:g}: the difference is the messages "
                f"still in transit when the window closed (mean transfer time {transfer:.4g} s against a "
                f"{window:g} s window), not an overload: lengthen run.duration_s to measure the carried load"
            )
        else:
            out.append(
                f"no steady state in {direction}: offered load {offered:g}, carried {mean:.4g} ± "
                f"{hw:.2g} — the queue grew through the run, so transfer and "
                "holding times measure the run's length, not the protocol (and memory grows with "
                f"run.duration_s); lower {key}.load below the link's capacity"
            )
    return out
