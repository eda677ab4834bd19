"""Has a Poisson-loaded run a steady state? The check ``reproduce`` applies to every
Poisson point, shared by ``arqlab run``, and the pilot test that stops a sequential point
without one.

A Poisson source offers a useful load ρ (a fraction of the line rate). If the link
carried less than ρ by more than a tolerance — (ρ − carried − CI half-width) / ρ above
``tolerance`` — the queue grew through the run: there is no steady state, and the mean
transfer time only says how long the run was (its memory grows with the run, too).

A load just at a link's capacity carries (almost) all of it while the queue still grows
(as the square root of the run length, a reflected random walk): the shortfall test
misses it, but its per-replication means scatter so widely that a relative precision
target is out of reach. :func:`pilot_verdicts` tests such a point after its first round
of replications (the *pilot*) against the link's *capacity*, the throughput of the same
scenario with saturated sources (:func:`saturated_counterpart`): an offered load at or
above the capacity's lower 95 % bound has no steady state.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
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


def _sources(scenario: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
    """(source key, direction, source table) of every source, in either scenario form."""
    if "flow" in scenario:  # the explicit form: one source per flow
        return [(f"flow[{i}].traffic", f"flow.{f['from']}->{f['to']}", f.get("traffic", {}))
                for i, f in enumerate(scenario["flow"])]
    return [(f"traffic.{side}", d, scenario.get("traffic", {}).get(side, {}))
            for side, d in (("a", "a_to_b"), ("b", "b_to_a"))]


def poisson_sources(scenario: Mapping[str, Any]) -> dict[str, tuple[str, float]]:
    """direction → (source key, offered load) of every Poisson source."""
    return {direction: (key, float(source.get("load", math.nan)))
            for key, direction, source in _sources(scenario)
            if isinstance(source, Mapping) and source.get("kind") == "poisson"}


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
    for direction, (key, offered) in poisson_sources(scenario).items():
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


CAPACITY_REPLICATIONS = 10
"""Replications of a capacity run (saturated throughput is precise: ±0.2 % in Bux's)."""


def saturated_counterpart(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The scenario with every Poisson source saturated (same lengths, same run length)
    and ``CAPACITY_REPLICATIONS`` fixed replications: each direction's throughput
    efficiency under it is the capacity its offered load is compared with."""
    scn = copy.deepcopy(dict(scenario))
    for _key, _direction, source in _sources(scn):
        if isinstance(source, dict) and source.get("kind") == "poisson":
            source["kind"] = "saturated"
            source.pop("load", None)
    run = scn.setdefault("run", {})
    for k in ("precision", "precision_measures", "min_replications", "max_replications"):
        run.pop(k, None)
    run["replications"] = CAPACITY_REPLICATIONS
    return scn


@dataclass(frozen=True)
class Unsteady:
    """Why a direction has no steady state: its offered load against what the link
    carried (the shortfall test) or against its capacity (the capacity test)."""

    direction: str
    offered: float
    carried: float
    carried_half_width: float
    capacity: float = math.nan
    capacity_half_width: float = math.nan

    @property
    def test(self) -> str:
        return "capacity" if math.isfinite(self.capacity) else "shortfall"

    def __str__(self) -> str:
        if self.test == "capacity":
            return (f"offered {self.offered:g} at or above the capacity {self.capacity:.4f} ± "
                    f"{self.capacity_half_width:.4f}")
        return f"carried {self.carried:.4f} ± {self.carried_half_width:.2g} of {self.offered:g} offered"


def _stat(metrics: Mapping[str, Any], direction: str, measure: str) -> tuple[float, float]:
    m = metrics.get(direction, {}).get(measure, {})
    return float(m.get("mean", math.nan)), float(m.get("ci95_half_width", math.nan))


def shortfall_verdicts(scenario: Mapping[str, Any], metrics: Mapping[str, Any],
                       tolerance: float | None) -> dict[str, Unsteady]:
    """The Poisson directions that carried less than offered by more than ``tolerance``
    (:func:`has_steady_state`)."""
    out: dict[str, Unsteady] = {}
    for direction, (_key, offered) in poisson_sources(scenario).items():
        carried, hw = _stat(metrics, direction, "throughput_efficiency")
        if math.isfinite(offered) and offered > 0 and not has_steady_state(offered, carried, hw, tolerance):
            out[direction] = Unsteady(direction, offered, carried, hw)
        # NaN (no carried measure, or one replication) is no verdict: `not NaN > tol`.
    return out


def capacity_verdicts(scenario: Mapping[str, Any], metrics: Mapping[str, Any], capacity: Mapping[str, Any],
                      directions: Iterable[str]) -> dict[str, Unsteady]:
    """Of ``directions`` (Poisson directions that missed their precision target), those
    whose offered load is at or above the lower 95 % bound of their capacity (throughput
    efficiency of :func:`saturated_counterpart`): no number of replications reaches a
    relative target there, the queue does not settle."""
    loads = poisson_sources(scenario)
    out: dict[str, Unsteady] = {}
    for direction in directions:
        offered = loads.get(direction, ("", math.nan))[1]
        cap, cap_hw = _stat(capacity, direction, "throughput_efficiency")
        if math.isfinite(offered) and math.isfinite(cap) and offered >= cap - (cap_hw if math.isfinite(cap_hw) else 0.0):
            carried, hw = _stat(metrics, direction, "throughput_efficiency")
            out[direction] = Unsteady(direction, offered, carried, hw, cap, cap_hw)
    return out
