"""Capacity checks: which Poisson points of a study have a steady state.

A point whose offered load the link cannot carry has no steady state: its queue grows
through the run and its mean delay only says how long the run was. :func:`check_capacity`
marks such points in the figure frames (column ``steady_state``, the test and numbers in
``unsteady``), measuring the saturated capacity of the points that missed their precision
target unless the run's pilot test already did (:mod:`arqlab.execution.steady_watch`),
and blanks their plotted value (``y``): there is no steady-state mean to plot or to judge
a claim by. :func:`point_name` and :func:`short_point_note` name points in the summary
lines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from arqlab.steady import (  # the rules `arqlab run` and the scheduler's pilot test share
    CAPACITY_REPLICATIONS,
    SHORTFALL,
    Unsteady,
    capacity_verdicts,
    saturated_counterpart,
    shortfall_verdicts,
)

from .overrides import get_dotted, run_key
from .plan import RunRequest
from .run import SteadyReport
from .spec import Metrics

__all__ = ["CAPACITY_REPLICATIONS", "SHORTFALL", "capacity_request", "check_capacity", "point_name", "short_point_note"]


def capacity_request(req: RunRequest, side: str) -> RunRequest | None:
    """The saturated counterpart of a Poisson run: the same scenario with every Poisson
    source made saturated (same lengths, same run length), 10 replications. Its throughput
    efficiency is the capacity the offered load is compared with; None if `side` is not
    a Poisson source."""
    if get_dotted(req.scenario, f"traffic.{side}.kind") != "poisson":
        return None
    scn = saturated_counterpart(req.scenario)
    key = "capacity:" + run_key(scn, req.seed, CAPACITY_REPLICATIONS, None)
    return RunRequest(key, scn, req.seed, CAPACITY_REPLICATIONS, None, f"capacity of {req.label}")


def check_capacity(
    frames: Mapping[int, pd.DataFrame],
    runs: Mapping[str, RunRequest],
    metrics: Mapping[str, Metrics],
    precision: float | None,
    simulate: Callable[[list[RunRequest]], dict[str, Metrics]],
    steady: Mapping[str, SteadyReport] | None = None,
) -> None:
    """Marks which Poisson points have a steady state (column `steady_state`).

    * A direction the run's pilot test found without one (``steady``, by run key;
      :mod:`arqlab.execution.steady_watch`): "no", with that test's numbers.
    * Every Poisson point: "no" if the link carried less than was offered by more than
      the precision asked of the study (`SHORTFALL` without one): (offered − carried
      − CI half-width) / offered > precision. The queue grew through the run, and its
      mean transfer time only says how long the run was. (Smaller shortfalls, significant
      only because n is large, come from the warm-up ending before an almost saturated
      queue has reached its steady backlog.)
    * A point that missed the precision target (`precision`) also gets the capacity of
      its direction (saturated throughput under the same scenario, columns `capacity`,
      `capacity_ci95_half_width`; the pilot test's when it measured one, else measured
      here): "no" if the offered load is within the capacity's CI or above it — no
      number of replications reaches a target there.

    A point marked "no" gets the test and its numbers in `unsteady` and no plotted value
    (`y`, `y_ci95_half_width` NaN; the run's raw `mean` stays, it depends on the run length).
    """
    steady = steady or {}
    wanted: dict[str, RunRequest] = {}
    todo: list[tuple[pd.DataFrame, Any, str]] = []
    for frame in frames.values():
        for idx, row in frame.iterrows():
            if row.run not in runs:
                continue
            side = "a" if row.direction == "a_to_b" else "b"
            scn = runs[row.run].scenario
            if get_dotted(scn, f"traffic.{side}.kind") != "poisson":
                continue
            report = steady.get(row.run, SteadyReport())
            found = report.unsteady.get(row.direction) or shortfall_verdicts(
                scn, metrics.get(row.run, {}), precision).get(row.direction)
            _mark(frame, idx, found)
            if found is not None or precision is None or not row.rel_half_width > precision:
                continue
            if row.direction in report.capacity:
                _capacity(frame, idx, scn, metrics.get(row.run, {}), report.capacity)
                continue
            cap = capacity_request(runs[row.run], side)
            if cap is not None:
                wanted.setdefault(cap.key, cap)
                todo.append((frame, idx, cap.key))
    if not wanted:
        return
    measured = simulate(list(wanted.values()))
    for frame, idx, key in todo:
        run = frame.loc[idx, "run"]
        _capacity(frame, idx, runs[run].scenario, metrics.get(run, {}), measured.get(key, {}))


def _capacity(frame: pd.DataFrame, idx: Any, scn: Mapping[str, Any], metrics: Metrics, capacity: Metrics) -> None:
    """The capacity test of one row: its capacity columns, and "no" if it fails."""
    direction = frame.loc[idx, "direction"]
    stat = capacity.get(direction, {}).get("throughput_efficiency", {})
    frame.loc[idx, "capacity"] = float(stat.get("mean", float("nan")))
    frame.loc[idx, "capacity_ci95_half_width"] = float(stat.get("ci95_half_width", float("nan")))
    _mark(frame, idx, capacity_verdicts(scn, metrics, capacity, [direction]).get(direction))


def _mark(frame: pd.DataFrame, idx: Any, found: Unsteady | None) -> None:
    """"yes", or "no" with the test's numbers in `unsteady` and no plotted value."""
    if found is None:
        frame.loc[idx, "steady_state"] = "yes"
        return
    if found.test == "capacity":
        frame.loc[idx, "capacity"] = found.capacity
        frame.loc[idx, "capacity_ci95_half_width"] = found.capacity_half_width
    frame.loc[idx, "steady_state"] = "no"
    frame.loc[idx, "unsteady"] = f"{found.test}: {found}"
    frame.loc[idx, "y"] = frame.loc[idx, "y_ci95_half_width"] = float("nan")


def point_name(n: int, row: Any) -> str:
    """A point as the summary lines name it: `fig7 abm_p1e5@t1x3 x=0.8`."""
    variant = "@" + row.variant if isinstance(row.variant, str) and row.variant else ""
    return f"fig{n} {row.curve}{variant} x={row.x:g}"


def short_point_note(n: int, row: Any) -> str:
    """How the precision line names a point that missed the target."""
    note = f"{point_name(n, row)} (±{100 * row.rel_half_width:.1f}%, n={int(row.n)}"
    cap = getattr(row, "capacity", float("nan"))
    if cap == cap:  # measured
        verdict = "at or beyond capacity: no steady state" if row.steady_state == "no" else "below capacity"
        note += f"; capacity {cap:.4f} ± {row.capacity_ci95_half_width:.4f}, {verdict}"
    return note + ")"

