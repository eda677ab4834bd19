"""The pilot test of a sequential point: directions without a steady state stop early.

A point with a relative precision target runs ``run.min_replications`` replications
first (the *pilot*). A Poisson-loaded direction whose offered load the link cannot carry
has no steady state: its queue grows through the run, so its mean transfer time says how
long the run was, and near or at the capacity its replication means scatter so widely
that the target is out of reach however many replications are added (Bux's Fig. 7
NRM P→S at load 0.8 under the `poll_asap` reading ran to the 2 000 cap). After the pilot,
if the target is not met, each Poisson direction is tested (:mod:`arqlab.steady`):

1. *shortfall*: it carried less than offered by more than the target
   (:func:`~arqlab.steady.shortfall_verdicts`);
2. *capacity*: for the directions still far from the target, the saturated counterpart
   of the scenario runs (10 replications, :func:`~arqlab.steady.saturated_counterpart`),
   and a direction whose offered load is at or above its capacity's lower 95 % bound has
   no steady state (:func:`~arqlab.steady.capacity_verdicts`). "Far": a relative
   half-width above √((n₀ + 10)/n₀) × the target after the n₀ pilot replications, i.e.
   more than n₀ + 10 replications needed (a half-width shrinks as 1/√n), so the capacity
   run can pay for itself; a direction nearer the target just runs on.

A direction found without a steady state leaves the watched measures; the point goes on
for the others and stops when they meet the target (or at once if none is left).
Stable directions are never stopped early, so their precision is what it was.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import math

from arqlab.results import Metrics, watched_measures
from arqlab.steady import (
    CAPACITY_REPLICATIONS,
    Unsteady,
    capacity_verdicts,
    poisson_sources,
    saturated_counterpart,
    shortfall_verdicts,
)


def _direction(measure: str) -> str:
    return measure.rsplit(".", 1)[0]  # scopes have dots (flow.a->b), measures none


class SteadyWatch:
    """The pilot test of one point with a precision target (module docstring)."""

    def __init__(self, resolved: Mapping[str, Any], precision: float) -> None:
        self.resolved = resolved
        self.precision = precision
        self.watched = watched_measures(resolved)
        self.poisson = set(poisson_sources(resolved))
        self.unsteady: dict[str, Unsteady] = {}
        self.capacity: Metrics | None = None
        self.tested = False
        self.awaiting: list[str] = []
        """Directions waiting for the capacity run."""

    @property
    def applies(self) -> bool:
        """Only points with a watched Poisson direction are tested."""
        return any(_direction(m) in self.poisson for m in self.watched)

    @property
    def remaining(self) -> list[str]:
        """The watched measures of directions not found without a steady state."""
        return [m for m in self.watched if _direction(m) not in self.unsteady]

    def check_scenario(self) -> dict[str, Any]:
        """The scenario the sequential rule checks: the remaining measures, the target."""
        check = copy.deepcopy(dict(self.resolved))
        run = check.setdefault("run", {})
        run["precision"] = float(self.precision)
        run["precision_measures"] = self.remaining
        return check

    def _far(self, metrics: Metrics) -> list[str]:
        """Poisson directions with a remaining watched measure far from the target
        (module docstring): more than n₀ + 10 replications needed."""
        out: list[str] = []
        for m in self.remaining:
            d, name = _direction(m), m.rsplit(".", 1)[1]
            stat = metrics.get(d, {}).get(name, {})
            mean, hw, n0 = (float(stat.get(k, math.nan)) for k in ("mean", "ci95_half_width", "n"))
            bound = self.precision * math.sqrt((n0 + CAPACITY_REPLICATIONS) / n0) if n0 > 0 else 0.0
            far = not (mean != 0 and abs(hw / mean) <= bound)  # NaN counts as far
            if d in self.poisson and far and d not in out:
                out.append(d)
        return out

    def after_pilot(self, metrics: Metrics) -> dict[str, Any] | None:
        """Test 1 on the pilot; returns the capacity scenario to run when test 2 is
        needed (some Poisson direction still far from the target), else None."""
        self.tested = True
        self.unsteady.update(shortfall_verdicts(self.resolved, metrics, self.precision))
        self.awaiting = self._far(metrics)
        return saturated_counterpart(self.resolved) if self.awaiting else None

    def with_capacity(self, metrics: Metrics, capacity: Metrics) -> None:
        """Test 2, once the capacity run has finished."""
        self.capacity = capacity
        self.unsteady.update(capacity_verdicts(self.resolved, metrics, capacity, self.awaiting))
        self.awaiting = []
