"""The study framework: figures, curves, claims and verdicts, shared by every paper.

A *study* reproduces the figures of one paper. Each :class:`Figure` has a base scenario,
an x-axis (a function from an x value to scenario overrides), a set of :class:`Curve`
objects (each curve = base scenario + overrides, read on one direction and one measure),
optional closed forms drawn over it, the :class:`Assumption` s made where the paper is
silent, optional :class:`Sensitivity` variants, and the paper's :class:`Claim` s about it.

Running a figure builds one scenario per (curve, x) point, de-duplicates identical runs
(two curves read from one simulation, e.g. both directions of a two-way run), hands them
to :func:`simulate_runs` -- the single place where the simulator is called -- and turns
the results into a tidy frame (:class:`FigureData`). Claims are functions of that data
returning a :class:`Verdict` computed from the 95% confidence intervals; nothing is
hard-coded.

Verdict rules (``A`` and ``B`` are estimates ``mean ± h``; ``D = A − B`` has
half-width ``sqrt(h_A² + h_B²)``, which is conservative when the curves share random
numbers and are therefore positively correlated):

* ``at_least(A, B, tol)`` -- "A ≥ B": holds if ``D.lo ≥ −tol·s``, does not hold if
  ``D.hi < −tol·s``, otherwise inconclusive (``s`` = mean magnitude of A and B).
* ``exceeds(A, B, margin)`` -- "A > B" (by a relative margin): holds if
  ``D.lo > margin·|B|``, does not hold if ``D.hi ≤ margin·|B|``, else inconclusive.
* ``approx(A, B, tol)`` -- "A ≈ B": holds if the whole CI of ``D`` lies within
  ``±tol·s``, does not hold if the whole CI lies outside it, else inconclusive.
* Point verdicts are combined with :func:`all_of` (any failure fails, all holding holds)
  or :func:`any_of`.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol, TextIO

import numpy as np
import pandas as pd

Scenario = dict[str, Any]
Metrics = dict[str, dict[str, dict[str, float]]]
ProgressFn = Callable[[int, int, str], None]

DIRECTIONS = ("a_to_b", "b_to_a")


# --------------------------------------------------------------------------- verdicts


class Verdict(str, Enum):
    """Outcome of checking one claim against simulated data."""

    HOLDS = "holds"
    DOES_NOT_HOLD = "does not hold"
    INCONCLUSIVE = "inconclusive"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Outcome:
    """A verdict with a one-line explanation of the numbers behind it."""

    verdict: Verdict
    detail: str = ""


@dataclass(frozen=True)
class Est:
    """A point estimate with its 95% confidence half-width."""

    mean: float
    half: float
    n: int = 0

    @property
    def lo(self) -> float:
        return self.mean - self.half

    @property
    def hi(self) -> float:
        return self.mean + self.half

    @property
    def valid(self) -> bool:
        return math.isfinite(self.mean) and math.isfinite(self.half) and self.half >= 0

    def __sub__(self, other: Est) -> Est:
        return Est(self.mean - other.mean, math.hypot(self.half, other.half), min(self.n, other.n))

    def scaled(self, factor: float) -> Est:
        return Est(self.mean * factor, abs(self.half * factor), self.n)

    def __str__(self) -> str:
        return f"{self.mean:.4g}±{self.half:.2g}"


def _scale(a: Est, b: Est) -> float:
    return (abs(a.mean) + abs(b.mean)) / 2.0


def at_least(a: Est, b: Est, tol: float = 0.0) -> Verdict:
    """A ≥ B, allowing A to fall short of B by ``tol`` (relative)."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    d = a - b
    slack = tol * _scale(a, b)
    if d.lo >= -slack:
        return Verdict.HOLDS
    if d.hi < -slack:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def at_most(a: Est, b: Est, tol: float = 0.0) -> Verdict:
    """A ≤ B, allowing A to exceed B by ``tol`` (relative)."""
    return at_least(b, a, tol)


def _above(d: Est, threshold: float) -> Verdict:
    """D > threshold, significant at 95%: holds if its whole interval is above."""
    if d.lo > threshold:
        return Verdict.HOLDS
    if d.hi <= threshold:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def exceeds(a: Est, b: Est, margin: float = 0.0) -> Verdict:
    """A > B·(1 + margin): strict, significant at 95%."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    return _above(a - b, margin * abs(b.mean))


def below(a: Est, b: Est, margin: float = 0.0) -> Verdict:
    """A < B·(1 − margin): strict, significant at 95%."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    return _above(b - a, margin * abs(b.mean))


def approx(a: Est, b: Est, tol: float) -> Verdict:
    """A ≈ B within a relative tolerance ``tol`` (equivalence test on the CI of A − B)."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    d = a - b
    band = tol * _scale(a, b)
    if abs(d.mean) + d.half <= band:
        return Verdict.HOLDS
    if abs(d.mean) - d.half > band:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def approx_value(a: Est, target: float, tol: float) -> Verdict:
    """A ≈ a known value (closed form) within relative tolerance ``tol`` of the value."""
    if not a.valid or not math.isfinite(target):
        return Verdict.INCONCLUSIVE
    band = tol * abs(target)
    dev = abs(a.mean - target)
    if dev + a.half <= band:
        return Verdict.HOLDS
    if dev - a.half > band:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def within(a: Est, low: float, high: float) -> Verdict:
    """low ≤ A ≤ high, with the whole CI inside (holds) or outside (does not hold)."""
    if not a.valid:
        return Verdict.INCONCLUSIVE
    if a.lo >= low and a.hi <= high:
        return Verdict.HOLDS
    if a.hi < low or a.lo > high:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def all_of(verdicts: Iterable[Verdict]) -> Verdict:
    """Conjunction: any failure fails; all holding holds; otherwise inconclusive.

    An empty set is inconclusive (there was nothing to check).
    """
    vs = list(verdicts)
    if not vs:
        return Verdict.INCONCLUSIVE
    if any(v is Verdict.DOES_NOT_HOLD for v in vs):
        return Verdict.DOES_NOT_HOLD
    if all(v is Verdict.HOLDS for v in vs):
        return Verdict.HOLDS
    return Verdict.INCONCLUSIVE


def any_of(verdicts: Iterable[Verdict]) -> Verdict:
    """Disjunction: any holding holds; all failing fails; otherwise inconclusive."""
    vs = list(verdicts)
    if not vs:
        return Verdict.INCONCLUSIVE
    if any(v is Verdict.HOLDS for v in vs):
        return Verdict.HOLDS
    if all(v is Verdict.DOES_NOT_HOLD for v in vs):
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def pointwise(
    xs: Iterable[float],
    check: Callable[[float], Verdict],
    *,
    combine: Callable[[Iterable[Verdict]], Verdict] = all_of,
    describe: Callable[[float], str] | None = None,
) -> Outcome:
    """Apply ``check`` at each x and combine; the detail lists every x with its verdict."""
    parts: list[str] = []
    verdicts: list[Verdict] = []
    for x in xs:
        v = check(x)
        verdicts.append(v)
        tag = {Verdict.HOLDS: "ok", Verdict.DOES_NOT_HOLD: "NO", Verdict.INCONCLUSIVE: "?"}[v]
        extra = f" {describe(x)}" if describe else ""
        parts.append(f"x={x:g}:{tag}{extra}")
    if not verdicts:
        return Outcome(Verdict.INCONCLUSIVE, "no points in the region the claim is about")
    return Outcome(combine(verdicts), "; ".join(parts))


def conjunction(outcomes: Mapping[str, Outcome]) -> Outcome:
    """Combine named sub-outcomes with :func:`all_of`."""
    verdict = all_of(o.verdict for o in outcomes.values())
    detail = " | ".join(f"{k}: {o.verdict} ({o.detail})" for k, o in outcomes.items())
    return Outcome(verdict, detail)


# --------------------------------------------------------------------------- specs


@dataclass(frozen=True)
class Assumption:
    """A parameter the paper does not state, the value chosen and why."""

    parameter: str
    value: str
    justification: str


@dataclass(frozen=True)
class Curve:
    """One plotted line: the figure's base scenario + ``overrides``, read on ``direction``.

    ``measure`` defaults to the figure's. ``params`` are study-specific knobs read by the
    figure's ``derive`` function (e.g. a timeout multiplier). ``xs`` restricts the x grid.
    ``plot=False`` curves are run and checked but not drawn (e.g. the second direction of
    a symmetric mode). ``extension`` marks curves that are not in the paper (drawn dotted).
    """

    key: str
    label: str
    direction: str
    overrides: Mapping[str, Any] = field(default_factory=dict)
    style: Mapping[str, Any] = field(default_factory=dict)
    measure: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    xs: tuple[float, ...] | None = None
    quick_xs: tuple[float, ...] | None = None
    plot: bool = True
    extension: bool = False


@dataclass(frozen=True)
class Sensitivity:
    """A variant of some curves with changed parameters, to show how claims depend on them."""

    name: str
    description: str
    curves: tuple[str, ...]
    overrides: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    xs: tuple[float, ...] | None = None
    quick_xs: tuple[float, ...] | None = None


@dataclass(frozen=True)
class ClosedForm:
    """An exact or bounding formula drawn over the figure, y as a function of x."""

    label: str
    fn: Callable[[float], float]
    style: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Claim:
    """One statement of the paper, with a computed verdict.

    ``check`` receives a :class:`StudyData` and returns an :class:`Outcome`. ``needs``
    lists the figures whose data it reads; ``sensitivity`` names variants (of the claim's
    own figure) under which the claim is re-evaluated.
    """

    id: str
    section: str
    statement: str
    check: Callable[[StudyData], Outcome]
    needs: tuple[int, ...] = ()
    sensitivity: tuple[str, ...] = ()
    figure: int | None = None


@dataclass(frozen=True)
class Figure:
    """A figure of the paper: axes, curves, x grid, assumptions, reference values, claims."""

    number: int
    title: str
    base: Scenario
    x_label: str
    y_label: str
    measure: str
    xs: tuple[float, ...]
    quick_xs: tuple[float, ...]
    x_overrides: Callable[[float], dict[str, Any]]
    curves: tuple[Curve, ...]
    derive: Callable[[Scenario, Curve, Mapping[str, Any], bool, float], dict[str, Any]] | None = None
    normalize: Callable[[Scenario, Curve], float] | None = None
    x_scale: str = "linear"
    y_scale: str = "linear"
    y_limits: tuple[float | None, float | None] | None = None
    closed_forms: tuple[ClosedForm, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    published: tuple[str, ...] = ()
    sensitivities: tuple[Sensitivity, ...] = ()
    claims: tuple[Claim, ...] = ()
    caption: str = ""

    def curve(self, key: str) -> Curve:
        for c in self.curves:
            if c.key == key:
                return c
        raise KeyError(f"figure {self.number} has no curve {key!r}")


# --------------------------------------------------------------------------- scenarios


def set_dotted(tree: dict[str, Any], key: str, value: Any) -> None:
    """Set ``a.b.c`` in a nested dict, creating tables as needed."""
    parts = key.split(".")
    node = tree
    for p in parts[:-1]:
        nxt = node.get(p)
        if not isinstance(nxt, dict):
            nxt = {}
            node[p] = nxt
        node = nxt
    node[parts[-1]] = copy.deepcopy(value)


def get_dotted(tree: Mapping[str, Any], key: str, default: Any = None) -> Any:
    from arqlab.scenario import get_path

    try:
        return get_path(tree, key)
    except KeyError:
        return default


def apply_overrides(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> Scenario:
    """A deep copy of ``base`` with dotted-key ``overrides`` applied in order."""
    out = copy.deepcopy(dict(base))
    for k, v in overrides.items():
        set_dotted(out, k, v)
    return out


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=float)


def run_key(scenario: Mapping[str, Any], seed: int, replications: int | None, precision: float | None) -> str:
    payload = canonical_json({"scenario": scenario, "seed": seed, "replications": replications, "precision": precision})
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError("TOML cannot hold nan/inf")
        r = repr(v)
        return r if any(c in r for c in ".en") else r + ".0"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def _toml_key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def to_toml(tree: Mapping[str, Any], header: str = "") -> str:
    """Serialize a nested dict of scalars/lists to TOML (tables for nested dicts)."""
    lines: list[str] = [f"# {ln}" if ln else "#" for ln in header.splitlines()]

    def emit(node: Mapping[str, Any], path: list[str]) -> None:
        scalars = [(k, v) for k, v in node.items() if not isinstance(v, Mapping)]
        tables = [(k, v) for k, v in node.items() if isinstance(v, Mapping)]
        if path and (scalars or not tables):
            lines.append("")
            lines.append("[" + ".".join(_toml_key(p) for p in path) + "]")
        for k, v in scalars:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
        for k, v in tables:
            emit(v, path + [k])

    emit(tree, [])
    return "\n".join(lines).lstrip("\n") + "\n"


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class RunRequest:
    """One simulation: a resolved scenario dict, seed and precision settings."""

    key: str
    scenario: Scenario
    seed: int
    replications: int | None
    precision: float | None
    label: str = ""


@dataclass(frozen=True)
class Point:
    """One (figure, curve, variant, x) point and the run that feeds it."""

    figure: int
    curve: str
    variant: str
    x: float
    run: str
    direction: str
    measure: str
    norm: float


@dataclass(frozen=True)
class RunSettings:
    """How every point of a reproduction is run."""

    quick: bool
    seed: int = 1
    replications: int | None = None
    precision: float | None = None


def _simulate_one(req: RunRequest) -> Metrics:
    """Run one request with ``arqlab.simulate`` (top level so process pools can pickle it)."""
    import arqlab

    result = arqlab.simulate(req.scenario, seed=req.seed, replications=req.replications, precision=req.precision)
    return _plain_metrics(result.metrics)


def _plain_metrics(metrics: Mapping[str, Any]) -> Metrics:
    out: Metrics = {}
    for direction, measures in metrics.items():
        if not isinstance(measures, Mapping):
            continue
        out[direction] = {}
        for name, stat in measures.items():
            if isinstance(stat, Mapping):
                out[direction][name] = {
                    "mean": float(stat.get("mean", float("nan"))),
                    "ci95_half_width": float(stat.get("ci95_half_width", float("nan"))),
                    "n": float(stat.get("n", 0)),
                }
    return out


def simulate_runs(
    runs: Sequence[RunRequest],
    *,
    workers: int | None = None,
    executor: Any = None,
    store: Any = None,
    progress: ProgressFn | None = None,
    runner: Callable[[RunRequest], Metrics] | None = None,
) -> dict[str, Metrics]:
    """Run every request and return ``{run key: metrics}``. The one place that simulates.

    All runs go through the shared execution layer (:func:`arqlab.execution.run_points_detailed`)
    in one batch: replications are the tasks, so both cores (or a whole Dask cluster) stay
    busy to the end, and every finished replication is read from and written to the
    result store — an interrupted reproduction resumes, a re-run costs nothing.

    * ``store``: None (the default store), a path or ``Store``, or False for none.
    * ``executor``: None (a local pool of ``workers``; ``workers=1`` in this process),
      "serial", "local", or a Dask scheduler address "tcp://host:port".

    ``runner`` replaces the per-run simulation function (tests use it to run the framework
    without the compiled core); it is called in this process.
    """
    total = len(runs)
    results: dict[str, Metrics] = {}

    def tick(i: int, req: RunRequest) -> None:
        if progress is not None:
            progress(i, total, req.label or req.key)

    if runner is not None:
        for i, req in enumerate(runs, 1):
            results[req.key] = runner(req)
            tick(i, req)
        return results
    from arqlab import scenario as scenario_mod
    from arqlab.execution import PointSpec, run_points_detailed
    from arqlab.results import summarize

    if executor is None:
        executor = "serial" if workers == 1 else "local"
    specs = [
        PointSpec(resolved=scenario_mod.load(req.scenario), seed=req.seed, replications=req.replications, precision=req.precision)
        for req in runs
    ]
    outcomes = run_points_detailed(specs, executor=executor, workers=workers, store=store)
    for i, (req, spec, outcome) in enumerate(zip(runs, specs, outcomes), 1):
        batch_means = spec.resolved["run"]["method"] == "batch_means"
        results[req.key] = _plain_metrics(summarize(outcome.records, batch_means))
        tick(i, req)
    return results


def _curve_xs(figure: Figure, curve: Curve, quick: bool) -> tuple[float, ...]:
    if quick:
        return curve.quick_xs or figure.quick_xs
    return curve.xs or figure.xs


def _variant_xs(figure: Figure, sens: Sensitivity, curve: Curve, quick: bool) -> tuple[float, ...]:
    if quick and sens.quick_xs is not None:
        return sens.quick_xs
    if not quick and sens.xs is not None:
        return sens.xs
    return _curve_xs(figure, curve, quick)


def curve_scenario(figure: Figure, curve: Curve, extra: Mapping[str, Any] | None = None) -> Scenario:
    """The figure's base scenario with the curve's overrides (and ``extra``) applied."""
    scn = apply_overrides(figure.base, curve.overrides)
    if extra:
        scn = apply_overrides(scn, extra)
    return scn


def point_overrides(
    figure: Figure, curve: Curve, x: float, quick: bool, params: Mapping[str, Any], extra: Mapping[str, Any]
) -> dict[str, Any]:
    """Every override of one point on top of the figure's base, in application order."""
    ov: dict[str, Any] = dict(curve.overrides)
    ov.update(extra)
    ov.update(figure.x_overrides(x))
    if figure.derive is not None:
        scn = apply_overrides(figure.base, ov)
        ov.update(figure.derive(scn, curve, params, quick, x))
    return ov


def plan_figure(figure: Figure, settings: RunSettings) -> tuple[list[Point], dict[str, RunRequest], list[dict[str, Any]]]:
    """Points, the de-duplicated runs feeding them, and a per-point override log."""
    points: list[Point] = []
    runs: dict[str, RunRequest] = {}
    log: list[dict[str, Any]] = []
    variants: list[tuple[str, Curve, Mapping[str, Any], Mapping[str, Any], tuple[float, ...]]] = []
    for c in figure.curves:
        variants.append(("", c, c.params, {}, _curve_xs(figure, c, settings.quick)))
    for s in figure.sensitivities:
        for key in s.curves:
            c = figure.curve(key)
            params = {**c.params, **s.params}
            variants.append((s.name, c, params, s.overrides, _variant_xs(figure, s, c, settings.quick)))
    for variant, c, vparams, extra, xs in variants:
        for x in xs:
            ov = point_overrides(figure, c, x, settings.quick, vparams, extra)
            scn = apply_overrides(figure.base, ov)
            key = run_key(scn, settings.seed, settings.replications, settings.precision)
            label = f"fig{figure.number}/{c.key}{'@' + variant if variant else ''}/x={x:g}"
            runs.setdefault(key, RunRequest(key, scn, settings.seed, settings.replications, settings.precision, label))
            norm = figure.normalize(scn, c) if figure.normalize else 1.0
            measure = c.measure or figure.measure
            points.append(Point(figure.number, c.key, variant, float(x), key, c.direction, measure, float(norm)))
            log.append({"curve": c.key, "variant": variant, "x": float(x), "run": key, "overrides": ov})
    return points, runs, log


POINT_COLUMNS = [
    "figure", "curve", "label", "variant", "x", "direction", "measure", "mean", "ci95_half_width", "n",
    "norm", "y", "y_ci95_half_width", "rel_half_width", "run",
    # Filled by check_capacity for points that missed the precision target.
    "capacity", "capacity_ci95_half_width", "steady_state",
]


def tabulate(figure: Figure, points: Sequence[Point], metrics: Mapping[str, Metrics]) -> pd.DataFrame:
    """The tidy per-point frame of a figure (one row per curve × variant × x)."""
    rows = []
    for p in points:
        stat = metrics.get(p.run, {}).get(p.direction, {}).get(p.measure, {})
        mean = float(stat.get("mean", float("nan")))
        half = float(stat.get("ci95_half_width", float("nan")))
        n = int(stat.get("n", 0) or 0)
        norm = p.norm if p.norm else 1.0
        rows.append({
            "figure": p.figure, "curve": p.curve, "label": figure.curve(p.curve).label, "variant": p.variant,
            "x": p.x, "direction": p.direction, "measure": p.measure, "mean": mean, "ci95_half_width": half,
            "n": n, "norm": norm, "y": mean / norm, "y_ci95_half_width": half / norm,
            "rel_half_width": half / abs(mean) if mean else float("nan"), "run": p.run,
            "capacity": float("nan"), "capacity_ci95_half_width": float("nan"), "steady_state": "",
        })
    return pd.DataFrame(rows, columns=POINT_COLUMNS)


# --------------------------------------------------------------------------- data access


class FigureData:
    """Tidy results of one figure, with estimates looked up by curve and x (in plot units)."""

    def __init__(self, figure: Figure, frame: pd.DataFrame, variant: str = "") -> None:
        self.figure = figure
        self.frame = frame
        self.variant = variant
        base = frame[frame["variant"] == ""]
        if variant:
            sub = frame[frame["variant"] == variant]
            replaced = set(sub["curve"])
            base = pd.concat([base[~base["curve"].isin(replaced)], sub], ignore_index=True)
        self._view = base
        self._index: dict[tuple[str, float], Est] = {}
        for row in base.itertuples(index=False):
            self._index[(str(row.curve), float(row.x))] = Est(float(row.y), float(row.y_ci95_half_width), int(row.n))

    def has(self, curve: str) -> bool:
        return any(k[0] == curve for k in self._index)

    def xs(self, curve: str) -> list[float]:
        return sorted(x for (c, x) in self._index if c == curve)

    def common_xs(self, *curves: str) -> list[float]:
        sets = [set(self.xs(c)) for c in curves]
        return sorted(set.intersection(*sets)) if sets else []

    def est(self, curve: str, x: float) -> Est:
        return self._index.get((curve, float(x)), Est(float("nan"), float("nan"), 0))

    def argmax(self, curve: str) -> float | None:
        xs = self.xs(curve)
        if not xs:
            return None
        vals = [self.est(curve, x).mean for x in xs]
        finite = [(v, x) for v, x in zip(vals, xs) if math.isfinite(v)]
        return max(finite)[1] if finite else None

    def variants(self) -> list[str]:
        return sorted(v for v in set(self.frame["variant"]) if v)

    def with_variant(self, variant: str) -> FigureData:
        return FigureData(self.figure, self.frame, variant)


class StudyData:
    """Results of all figures run so far, keyed by figure number."""

    def __init__(self, figures: Mapping[int, FigureData]) -> None:
        self.figures = dict(figures)

    def __getitem__(self, number: int) -> FigureData:
        return self.figures[number]

    def __contains__(self, number: int) -> bool:
        return number in self.figures

    def with_variant(self, number: int, variant: str) -> StudyData:
        figs = dict(self.figures)
        figs[number] = figs[number].with_variant(variant)
        return StudyData(figs)


@dataclass
class ClaimResult:
    id: str
    figure: int | None
    section: str
    statement: str
    verdict: Verdict
    detail: str
    sensitivity: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["verdict"] = self.verdict.value
        return d


def evaluate_claim(claim: Claim, data: StudyData) -> ClaimResult | None:
    """Evaluate a claim (and its sensitivity variants); None if a needed figure was not run."""
    needs = set(claim.needs) | ({claim.figure} if claim.figure is not None else set())
    if any(n not in data for n in needs):
        return None
    try:
        out = claim.check(data)
    except (KeyError, ValueError, ZeroDivisionError) as exc:  # data missing for a curve
        out = Outcome(Verdict.INCONCLUSIVE, f"could not evaluate: {exc}")
    res = ClaimResult(claim.id, claim.figure, claim.section, claim.statement, out.verdict, out.detail)
    if claim.figure is not None:
        available = data[claim.figure].variants()
        for name in claim.sensitivity:
            if name not in available:
                continue
            try:
                sout = claim.check(data.with_variant(claim.figure, name))
            except (KeyError, ValueError, ZeroDivisionError) as exc:
                sout = Outcome(Verdict.INCONCLUSIVE, f"could not evaluate: {exc}")
            res.sensitivity.append({"variant": name, "verdict": sout.verdict.value, "detail": sout.detail})
    return res


# --------------------------------------------------------------------------- outputs


def _plot_style(curve: Curve) -> dict[str, Any]:
    style: dict[str, Any] = {"linewidth": 1.4, "marker": "o", "markersize": 3.5, "capsize": 2}
    if curve.extension:
        style.update({"linestyle": ":", "marker": "^"})
    style.update(curve.style)
    return style


def write_plot(figure: Figure, frame: pd.DataFrame, out_dir: Path, *, quick: bool) -> list[Path]:
    """Draw the figure in the paper's axes: curves with 95% CI bars, closed forms, notes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(12.0, 6.6))
    for c in figure.curves:
        if not c.plot:
            continue
        sub = frame[(frame["curve"] == c.key) & (frame["variant"] == "")].sort_values("x")
        if sub.empty:
            continue
        ax.errorbar(sub["x"], sub["y"], yerr=sub["y_ci95_half_width"].fillna(0.0), label=c.label, **_plot_style(c))
    markers = ["x", "+", "1", "2", "3", "4"]
    for i, s in enumerate(figure.sensitivities):
        labelled = False
        for key in s.curves:
            c = figure.curve(key)
            if not c.plot:
                continue
            sub = frame[(frame["curve"] == key) & (frame["variant"] == s.name)].sort_values("x")
            if sub.empty:
                continue
            st = _plot_style(c)
            st.update({"linestyle": "none", "marker": markers[i % len(markers)], "alpha": 0.8, "markersize": 7})
            label = None if labelled else f"sensitivity '{s.name}': {s.description} (curve colours as above)"
            labelled = True
            ax.errorbar(sub["x"], sub["y"], yerr=sub["y_ci95_half_width"].fillna(0.0), label=label, **st)
    xs_all = sorted(set(frame["x"])) if not frame.empty else list(figure.xs)
    if xs_all:
        lo, hi = min(xs_all), max(xs_all)
        grid = np.geomspace(max(lo, 1e-12), hi, 200) if figure.x_scale == "log" else np.linspace(lo, hi, 200)
        for cf in figure.closed_forms:
            ys = np.array([cf.fn(float(x)) for x in grid], dtype=float)
            st = {"color": "0.45", "linewidth": 1.0, "linestyle": (0, (6, 2, 1, 2))}
            st.update(cf.style)
            ax.plot(grid, ys, label=cf.label, **st)
    ax.set_xscale(figure.x_scale)
    ax.set_yscale(figure.y_scale)
    if figure.y_limits is not None:
        ax.set_ylim(*figure.y_limits)
    ax.set_xlabel(figure.x_label)
    ax.set_ylabel(figure.y_label)
    mode = "quick (low precision)" if quick else "full precision"
    ax.set_title(f"Fig. {figure.number}. {figure.title}\n[arqlab reproduction, {mode}; bars: 95% CI]", fontsize=9.5)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6.5, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.subplots_adjust(right=0.62)
    notes = [figure.caption] if figure.caption else []
    notes += [f"Assumed {a.parameter} = {a.value}" for a in figure.assumptions]
    if notes:
        fig.text(0.01, 0.005, "\n".join(notes), fontsize=6.5, va="bottom", ha="left", wrap=True)
        fig.subplots_adjust(bottom=0.1 + 0.022 * len(notes))
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"fig{figure.number}.png", out_dir / f"fig{figure.number}.svg"]
    fig.savefig(paths[0], dpi=130)
    fig.savefig(paths[1])
    plt.close(fig)
    return paths


def write_scenarios(figure: Figure, log: Sequence[Mapping[str, Any]], out_dir: Path, settings: RunSettings) -> Path:
    """``figN_scenarios/``: each curve's base scenario (TOML) and its per-point overrides."""
    d = out_dir / f"fig{figure.number}_scenarios"
    d.mkdir(parents=True, exist_ok=True)
    variants: list[tuple[str, Curve, Mapping[str, Any]]] = [("", c, {}) for c in figure.curves]
    variants += [(s.name, figure.curve(k), s.overrides) for s in figure.sensitivities for k in s.curves]
    for variant, c, extra in variants:
        name = c.key + (f"@{variant}" if variant else "")
        header = (
            f"Bux, Kuemmerle & Truong (1982), Fig. {figure.number}: {figure.title}\n"
            f"Curve: {c.label} (direction {c.direction}, measure {c.measure or figure.measure})"
            + (f"\nSensitivity variant {variant}" if variant else "")
            + f"\nBase scenario of the curve; every point adds the overrides in {name}.points.toml\n"
            f"(x axis: {figure.x_label}). Run with seed {settings.seed}"
            + (f", {settings.replications} replications" if settings.replications else "")
            + (f", sequential precision {settings.precision}" if settings.precision else "") + "."
        )
        (d / f"{name}.toml").write_text(to_toml(curve_scenario(figure, c, extra), header))
        pts = [e for e in log if e["curve"] == c.key and e["variant"] == variant]
        lines = [f"# Per-point overrides (dotted scenario keys) of {name}, Fig. {figure.number}", ""]
        for e in pts:
            lines.append("[[points]]")
            lines.append(f"x = {_toml_value(float(e['x']))}")
            lines.append(f"run = {_toml_value(e['run'])}")
            lines.append("[points.overrides]")
            for k, v in e["overrides"].items():
                lines.append(f"{json.dumps(k)} = {_toml_value(v)}")
            lines.append("")
        (d / f"{name}.points.toml").write_text("\n".join(lines))
    return d


def write_claims(results: Sequence[ClaimResult], out_dir: Path, *, title: str, quick: bool) -> tuple[Path, Path]:
    """``claims.json`` and ``claims.md`` with every evaluated claim and its verdict."""
    out_dir.mkdir(parents=True, exist_ok=True)
    jpath, mpath = out_dir / "claims.json", out_dir / "claims.md"
    payload = {
        "study": title,
        "mode": "quick" if quick else "full",
        "counts": {v.value: sum(r.verdict is v for r in results) for v in Verdict},
        "claims": [r.to_json() for r in results],
    }
    jpath.write_text(json.dumps(payload, indent=2) + "\n")
    lines = [f"# Claims: {title} ({'quick' if quick else 'full'} run)", "",
             "| id | section | statement | verdict | sensitivity |", "|---|---|---|---|---|"]
    for r in results:
        sens = "; ".join(f"{s['variant']}: {s['verdict']}" for s in r.sensitivity) or ""
        stmt = r.statement.replace("|", "\\|")
        lines.append(f"| `{r.id}` | {r.section} | {stmt} | **{r.verdict.value}** | {sens} |")
    lines += ["", "## Details", ""]
    for r in results:
        lines.append(f"- `{r.id}` — {r.verdict.value}: {r.detail}")
        for s in r.sensitivity:
            lines.append(f"  - under `{s['variant']}`: {s['verdict']}: {s['detail']}")
    mpath.write_text("\n".join(lines) + "\n")
    return jpath, mpath


def print_claims(header: str, results: Sequence[ClaimResult], stream: TextIO | None = None) -> None:
    out = stream or sys.stdout
    print(header, file=out)
    for r in results:
        print(f"  [{r.verdict.value:>13}] {r.id}: {r.statement}", file=out)
        for s in r.sensitivity:
            print(f"  {'':>15}   under {s['variant']}: {s['verdict']}", file=out)


# --------------------------------------------------------------------------- capacity


CAPACITY_REPLICATIONS = 10
from arqlab.steady import SHORTFALL, has_steady_state  # noqa: E402  (the rule `arqlab run` shares)


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


# --------------------------------------------------------------------------- studies


class Study(Protocol):
    """What a study module provides (``arqlab.studies.bux1982`` is one)."""

    NAME: str
    TITLE: str

    def figures(self) -> list[Figure]: ...

    def study_claims(self) -> list[Claim]: ...


@dataclass
class Reproduction:
    """Everything a reproduction produced."""

    out_dir: Path
    data: StudyData
    claims: list[ClaimResult]
    files: list[Path]
    skipped_claims: list[str]


def reproduce_study(
    study: Study,
    *,
    figures: Sequence[int] | None = None,
    quick: bool = False,
    out_dir: str | os.PathLike[str] = ".",
    settings: RunSettings,
    workers: int | None = None,
    executor: Any = None,
    store: Any = None,
    progress: ProgressFn | None = None,
    runner: Callable[[RunRequest], Metrics] | None = None,
    stream: TextIO | None = None,
    quiet: bool = False,
) -> Reproduction:
    """Run the chosen figures of a study, write every output and print the claims."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    all_figs = {f.number: f for f in study.figures()}
    wanted = list(all_figs) if figures is None else list(figures)
    unknown = [n for n in wanted if n not in all_figs]
    if unknown:
        raise ValueError(f"{study.NAME} has no figure {unknown[0]} (figures: {', '.join(map(str, sorted(all_figs)))})")
    plans = {n: plan_figure(all_figs[n], settings) for n in wanted}
    runs: dict[str, RunRequest] = {}
    for _, rmap, _ in plans.values():
        for k, r in rmap.items():
            runs.setdefault(k, r)
    metrics = simulate_runs(list(runs.values()), workers=workers, executor=executor, store=store,
                            progress=progress, runner=runner)
    frames = {n: tabulate(all_figs[n], plans[n][0], metrics) for n in wanted}
    check_capacity(frames, runs, metrics, settings.precision,
                   lambda reqs: simulate_runs(reqs, workers=workers, executor=executor, store=store, runner=runner))
    files: list[Path] = []
    fdata: dict[int, FigureData] = {}
    for n in wanted:
        fig = all_figs[n]
        _, _, log = plans[n]
        frame = frames[n]
        csv = out / f"fig{n}.csv"
        frame.to_csv(csv, index=False)
        files.append(csv)
        files += write_plot(fig, frame, out, quick=quick)
        files.append(write_scenarios(fig, log, out, settings))
        fdata[n] = FigureData(fig, frame)
    data = StudyData(fdata)
    results: list[ClaimResult] = []
    skipped: list[str] = []
    for n in wanted:
        fig_results: list[ClaimResult] = []
        for claim in all_figs[n].claims:
            res = evaluate_claim(claim, data)
            if res is None:
                skipped.append(claim.id)
            else:
                fig_results.append(res)
        results += fig_results
        if not quiet:
            print_claims(f"Fig. {n}: {all_figs[n].title}", fig_results, stream)
    tail: list[ClaimResult] = []
    for claim in study.study_claims():
        res = evaluate_claim(claim, data)
        if res is None:
            skipped.append(claim.id)
        else:
            tail.append(res)
    results += tail
    if not quiet:
        if tail:
            print_claims("Conclusions and appendix A2", tail, stream)
        if skipped:
            print(f"Not evaluated (need figures that were not run): {', '.join(skipped)}", file=stream or sys.stdout)
    # The lines --quiet keeps.
    counts = {v: sum(r.verdict is v for r in results) for v in Verdict}
    print("Verdicts: " + ", ".join(f"{counts[v]} {v.value}" for v in Verdict) + f"; outputs in {out}",
          file=stream or sys.stdout)
    unsteady = [
        point_name(n, row)
        for n, fd in sorted(fdata.items())
        for row in fd.frame.itertuples(index=False)
        if row.steady_state == "no"
    ]
    if unsteady:
        print(f"No steady state (the link carried more than the precision target less than offered; "
              f"the mean grows with the run): "
              f"{len(unsteady)} points: " + "; ".join(unsteady), file=stream or sys.stdout)
    if settings.precision is not None:
        short = [
            short_point_note(n, row)
            for n, fd in sorted(fdata.items())
            for row in fd.frame.itertuples(index=False)
            if row.rel_half_width > settings.precision
        ]
        total = sum(len(fd.frame) for fd in fdata.values())
        unstable = sum(
            int(((fd.frame["steady_state"] == "no") & (fd.frame["rel_half_width"] > settings.precision)).sum())
            for fd in fdata.values()
        )
        if short:
            stable = f" ({len(short) - unstable} of them with a steady state)" if unstable else ""
            print(f"Precision: {total - len(short)} of {total} points within ±{100 * settings.precision:g}%; "
                  f"at the replication cap{stable}: " + "; ".join(short), file=stream or sys.stdout)
        else:
            print(f"Precision: all {total} points within ±{100 * settings.precision:g}%", file=stream or sys.stdout)
    files += list(write_claims(results, out, title=study.TITLE, quick=quick))
    return Reproduction(out, data, results, files, skipped)
