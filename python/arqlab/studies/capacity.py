"""Capacity checks: which Poisson points of a study have a steady state.

A point whose offered load the link cannot carry has no steady state: its queue grows
through the run and its mean delay only says how long the run was. :func:`check_capacity`
marks such points in the figure frames (column ``steady_state``), measuring the
saturated capacity of the points that missed their precision target;
:func:`point_name` and :func:`short_point_note` name points in the summary lines.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import pandas as pd

from arqlab.steady import SHORTFALL, has_steady_state  # the rule `arqlab run` shares

from .overrides import get_dotted, run_key
from .plan import RunRequest
from .spec import Metrics

CAPACITY_REPLICATIONS = 10


def capacity_request(req: RunRequest, side: str) -> RunRequest | None:
    """The saturated counterpart of a Poisson run: the same scenario with every Poisson
    source made saturated (same lengths, same run length), 10 replications. Its throughput
    efficiency is the capacity the offered load is compared with; None if `side` is not
    a Poisson source."""
    if get_dotted(req.scenario, f"traffic.{side}.kind") != "poisson":
        return None
    scn = copy.deepcopy(dict(req.scenario))
    for s in ("a", "b"):
        src = scn.get("traffic", {}).get(s)
        if isinstance(src, dict) and src.get("kind") == "poisson":
            src["kind"] = "saturated"
            src.pop("load", None)
    run = scn.setdefault("run", {})
    for k in ("precision", "precision_measures", "min_replications", "max_replications"):
        run.pop(k, None)
    run["replications"] = CAPACITY_REPLICATIONS
    key = "capacity:" + run_key(scn, req.seed, CAPACITY_REPLICATIONS, None)
    return RunRequest(key, scn, req.seed, CAPACITY_REPLICATIONS, None, f"capacity of {req.label}")


def check_capacity(
    frames: Mapping[int, pd.DataFrame],
    runs: Mapping[str, RunRequest],
    metrics: Mapping[str, Metrics],
    precision: float | None,
    simulate: Callable[[list[RunRequest]], dict[str, Metrics]],
) -> None:
    """Marks which Poisson points have a steady state (column `steady_state`).

    * Every Poisson point: "no" if the link carried less than was offered by more than
      the precision asked of the study (`SHORTFALL` without one): (offered − carried
      − CI half-width) / offered > precision. The queue grew through the run, and its
      mean transfer time only says how long the run was. (Smaller shortfalls, significant
      only because n is large, come from the warm-up ending before an almost saturated
      queue has reached its steady backlog.)
    * A point that missed the precision target (`precision`) also gets the capacity of
      its direction measured (saturated throughput under the same scenario, columns
      `capacity`, `capacity_ci95_half_width`): "no" if the offered load is within the
      capacity's CI or above it — no number of replications reaches a target there.
    """
    wanted: dict[str, RunRequest] = {}
    todo: list[tuple[pd.DataFrame, Any, str, str]] = []
    for frame in frames.values():
        for idx, row in frame.iterrows():
            if row.run not in runs:
                continue
            side = "a" if row.direction == "a_to_b" else "b"
            scn = runs[row.run].scenario
            if get_dotted(scn, f"traffic.{side}.kind") != "poisson":
                continue
            offered = float(get_dotted(scn, f"traffic.{side}.load", float("nan")))
            carried = metrics.get(row.run, {}).get(row.direction, {}).get("throughput_efficiency", {})
            steady = has_steady_state(offered, float(carried.get("mean", float("nan"))),
                                      float(carried.get("ci95_half_width", float("nan"))), precision)
            frame.loc[idx, "steady_state"] = "yes" if steady else "no"
            if precision is None or not row.rel_half_width > precision:
                continue
            cap = capacity_request(runs[row.run], side)
            if cap is not None:
                wanted.setdefault(cap.key, cap)
                todo.append((frame, idx, cap.key, side))
    if not wanted:
        return
    metrics = simulate(list(wanted.values()))
    for frame, idx, key, side in todo:
        row = frame.loc[idx]
        stat = metrics.get(key, {}).get(row.direction, {}).get("throughput_efficiency", {})
        c, h = float(stat.get("mean", float("nan"))), float(stat.get("ci95_half_width", float("nan")))
        load = float(get_dotted(runs[row.run].scenario, f"traffic.{side}.load", float("nan")))
        frame.loc[idx, "capacity"] = c
        frame.loc[idx, "capacity_ci95_half_width"] = h
        if load >= c - h:
            frame.loc[idx, "steady_state"] = "no"


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

