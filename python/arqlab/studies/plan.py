"""Planning: from a figure's specification to the points it plots and the runs that feed them.

Each (curve, sensitivity variant, x) is a :class:`Point`; its scenario is the figure's
base with the curve's, the variant's and the x value's overrides, then whatever the
figure's ``derive`` computes from that scenario (timeouts, run lengths). Identical
scenarios are one :class:`RunRequest` (two curves read from one simulation, e.g. both
directions of a two-way run). :func:`tabulate` turns the simulated metrics into the
figure's tidy per-point frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from .overrides import apply_overrides, run_key
from .spec import Curve, Figure, Metrics, Scenario, Sensitivity


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

    @classmethod
    def for_pass(cls, quick: bool, seed: int, quick_replications: int, full_precision: float) -> RunSettings:
        """Quick: ``quick_replications`` fixed replications; full: sequential relative
        precision ``full_precision`` at 95%."""
        if quick:
            return cls(quick=True, seed=seed, replications=quick_replications, precision=None)
        return cls(quick=False, seed=seed, replications=None, precision=full_precision)


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
    variants: list[tuple[str, Curve, Mapping[str, Any], Mapping[str, Any], tuple[float, ...], float | None]] = []
    for c in figure.curves:
        variants.append(("", c, c.params, {}, _curve_xs(figure, c, settings.quick), settings.precision))
    for s in figure.sensitivities:
        precision = settings.precision if settings.precision is None or s.precision is None else s.precision
        for key in s.curves:
            c = figure.curve(key)
            params = {**c.params, **s.params}
            variants.append((s.name, c, params, s.overrides, _variant_xs(figure, s, c, settings.quick), precision))
    for variant, c, vparams, extra, xs, precision in variants:
        for x in xs:
            ov = point_overrides(figure, c, x, settings.quick, vparams, extra)
            scn = apply_overrides(figure.base, ov)
            key = run_key(scn, settings.seed, settings.replications, settings.precision)
            if key not in runs:
                # Not a base point's scenario: the variant's own target.
                key = run_key(scn, settings.seed, settings.replications, precision)
            label = f"fig{figure.number}/{c.key}{'@' + variant if variant else ''}/x={x:g}"
            runs.setdefault(key, RunRequest(key, scn, settings.seed, settings.replications, precision, label))
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
