"""Global sensitivity designs through SALib: the inputs (:class:`Factor`), the sample of a
method (Morris elementary effects or Sobol' indices on Saltelli's sampling scheme) and the
analysis of a response over it, as a tidy frame.

SALib samples the unit hypercube; :meth:`Factor.value` maps a unit coordinate to the
input's value (linear or log-scaled range, or one of a discrete set of levels, each
level an equal share of [0, 1)). The sample is seeded, so a design is the same on every
run: its points are simulated through the result store, which is what makes an
interrupted analysis resume and a re-run cost nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

METHODS = ("morris", "sobol")
#: Morris grid levels (p): SALib's default; the step is p / (2(p − 1)) of the range.
MORRIS_LEVELS = 4
#: Δ, the Morris step on the unit interval (SALib's: p / (2(p − 1))).
MORRIS_STEP = MORRIS_LEVELS / (2 * (MORRIS_LEVELS - 1))
#: Bootstrap resamples behind every confidence interval of an index.
RESAMPLES = 1000
CONFIDENCE = 0.95
#: The smallest Sobol' base sample chosen without --method (a power of two: Sobol' sequences
#: balance only there; fewer points leave the bootstrap CIs of a 0/1 response too wide to read).
SOBOL_MIN_BASE = 16


class DesignError(ValueError):
    """A design that cannot be built; the message names the field, the value and what is allowed."""


@dataclass(frozen=True)
class Factor:
    """One input of a sensitivity design: a continuous range (``log``: sampled on a log
    scale) or a discrete set of ``levels``. ``target`` says where the value goes (a
    ``run --set`` key path, or ``param:NAME`` for a study parameter)."""

    name: str
    target: str
    low: float | None = None
    high: float | None = None
    levels: tuple[Any, ...] = ()
    log: bool = False

    def __post_init__(self) -> None:
        where = f"input {self.name!r}"
        if self.levels:
            if self.low is not None or self.high is not None:
                raise DesignError(f"{where}: give low/high or levels, not both")
            if len(self.levels) < 2:
                raise DesignError(f"{where}: levels = {list(self.levels)!r}: expected at least two levels")
            return
        if self.low is None or self.high is None:
            raise DesignError(f"{where}: expected low and high (a range) or levels (a set)")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise DesignError(f"{where}: low = {self.low!r}, high = {self.high!r}: expected finite low < high")
        if self.log and self.low <= 0:
            raise DesignError(f"{where}: low = {self.low!r}: a log-scaled range needs low > 0")

    @property
    def discrete(self) -> bool:
        return bool(self.levels)

    def value(self, u: float) -> Any:
        """The input's value at unit coordinate ``u`` ∈ [0, 1]."""
        u = min(max(float(u), 0.0), 1.0)
        if self.levels:
            return self.levels[min(int(u * len(self.levels)), len(self.levels) - 1)]
        assert self.low is not None and self.high is not None
        if self.log:
            return float(10 ** (math.log10(self.low) + u * (math.log10(self.high) - math.log10(self.low))))
        return float(self.low + u * (self.high - self.low))

    def describe(self) -> str:
        if self.levels:
            return "{" + ", ".join(map(str, self.levels)) + "}"
        return f"[{self.low:g}, {self.high:g}]" + (" (log)" if self.log else "")


def problem(factors: Sequence[Factor]) -> dict[str, Any]:
    """The SALib problem: every input on the unit interval (mapped by :meth:`Factor.value`)."""
    names = [f.name for f in factors]
    if len(set(names)) != len(names):
        raise DesignError(f"inputs: duplicate names in {names!r}")
    if not factors:
        raise DesignError("inputs: expected at least one input")
    return {"num_vars": len(factors), "names": names, "bounds": [[0.0, 1.0]] * len(factors)}


@dataclass(frozen=True)
class Plan:
    """A sampling plan: ``method`` and its size (Morris trajectories or the Sobol' base sample)."""

    method: str
    size: int

    def points(self, k: int) -> int:
        """Model evaluations of this plan over ``k`` inputs."""
        return self.size * (k + 1) if self.method == "morris" else self.size * (k + 2)


def plan_for_budget(k: int, budget: int, method: str | None = None) -> Plan:
    """The largest plan within ``budget`` evaluations over ``k`` inputs. Without a
    ``method``: Sobol' when the budget buys a base sample of :data:`SOBOL_MIN_BASE` or more
    (N·(k + 2) evaluations, N a power of two), else Morris with ⌊budget/(k + 1)⌋ ≥ 2
    trajectories."""
    if method is not None and method not in METHODS:
        raise DesignError(f"method = {method!r}: expected one of {', '.join(METHODS)}")
    sobol_base = 2 ** int(math.log2(budget // (k + 2))) if budget // (k + 2) >= 1 else 0
    if method == "sobol" or (method is None and sobol_base >= SOBOL_MIN_BASE):
        if sobol_base < 2:
            raise DesignError(f"budget = {budget}: Sobol' over {k} inputs needs at least {2 * (k + 2)} evaluations")
        return Plan("sobol", sobol_base)
    trajectories = budget // (k + 1)
    if trajectories < 2:
        raise DesignError(f"budget = {budget}: Morris over {k} inputs needs at least {2 * (k + 1)} evaluations "
                          "(two trajectories)")
    return Plan("morris", trajectories)


def sample(factors: Sequence[Factor], plan: Plan, seed: int) -> np.ndarray:
    """The unit-hypercube sample of ``plan`` (rows = evaluations), seeded."""
    prob = problem(factors)
    if plan.method == "morris":
        from SALib.sample import morris

        return np.asarray(morris.sample(prob, plan.size, num_levels=MORRIS_LEVELS, seed=seed))
    from SALib.sample import sobol

    return np.asarray(sobol.sample(prob, plan.size, calc_second_order=False, seed=seed))


def values(factors: Sequence[Factor], unit: np.ndarray) -> list[dict[str, Any]]:
    """Each row of a unit sample as ``{input name: value}``."""
    return [{f.name: f.value(u) for f, u in zip(factors, row)} for row in unit]


INDEX_COLUMNS = ["method", "response", "input", "index", "value", "ci95_low", "ci95_high"]


def analyse(factors: Sequence[Factor], plan: Plan, unit: np.ndarray, y: Sequence[float], seed: int,
            response: str = "") -> pd.DataFrame:
    """The indices of response ``y`` over the sample, tidy: one row per (input, index).

    Morris: μ (signed mean effect), μ* (mean absolute effect, with SALib's bootstrap CI)
    and σ (spread of the effects: interactions or non-linearity). Sobol': S1 (first-order)
    and ST (total-order), each with SALib's bootstrap CI. Effects are per unit of the
    input's (log-)range, so inputs of different units compare.
    """
    prob = problem(factors)
    yy = np.asarray(y, dtype=float)
    if yy.shape[0] != unit.shape[0] or not np.all(np.isfinite(yy)):
        bad = int(np.sum(~np.isfinite(yy))) if yy.shape[0] == unit.shape[0] else yy.shape[0]
        raise DesignError(f"response {response!r}: {bad} of {unit.shape[0]} evaluations missing or not finite")
    rows: list[dict[str, Any]] = []

    def add(name: str, index: str, value: float, half: float | None) -> None:
        lo = hi = float("nan")
        if half is not None and math.isfinite(half):
            lo, hi = value - half, value + half
        rows.append({"method": plan.method, "response": response, "input": name, "index": index,
                     "value": float(value), "ci95_low": lo, "ci95_high": hi})

    if plan.method == "morris":
        from SALib.analyze import morris

        si = morris.analyze(prob, unit, yy, num_resamples=RESAMPLES, conf_level=CONFIDENCE,
                            num_levels=MORRIS_LEVELS, seed=seed)
        for i, f in enumerate(factors):
            add(f.name, "mu", float(si["mu"][i]), None)
            add(f.name, "mu_star", float(si["mu_star"][i]), float(si["mu_star_conf"][i]))
            add(f.name, "sigma", float(si["sigma"][i]), None)
    else:
        from SALib.analyze import sobol

        if float(np.var(yy)) == 0.0:
            # A constant response has no variance to apportion: every index is 0.
            for f in factors:
                add(f.name, "S1", 0.0, 0.0)
                add(f.name, "ST", 0.0, 0.0)
        else:
            si = sobol.analyze(prob, yy, calc_second_order=False, num_resamples=RESAMPLES, conf_level=CONFIDENCE,
                               seed=seed)
            for i, f in enumerate(factors):
                add(f.name, "S1", float(si["S1"][i]), float(si["S1_conf"][i]))
                add(f.name, "ST", float(si["ST"][i]), float(si["ST_conf"][i]))
    return pd.DataFrame(rows, columns=INDEX_COLUMNS)


def share_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float, float]:
    """A share and its 95% Wilson score interval (sound at 0 and 1, unlike the normal one)."""
    if n <= 0:
        return float("nan"), float("nan"), float("nan")
    p = successes / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)
