"""Curves whose x is itself a measured value with a CI.

Some papers plot one measure against another: throughput against the *measured* offered
load, delay against the measured utilization, goodput against the measured frame-error
rate. Both coordinates of a point are estimates, so a point is a cross of two 95% CIs
and two curves measured at different x can only be compared through interpolation.

* :class:`MeasuredXCurve` holds the points (with the nominal setting behind each, e.g.
  the configured load), tabulates them and draws them with horizontal and vertical bars.
* :meth:`MeasuredXCurve.y_at` interpolates y at a given x with a CI that accounts for
  the uncertainty of both coordinates.
* Claim helpers: :func:`xy_relation` checks a relation between a point's own x and y
  (e.g. carried ≈ offered) over the points whose x CI lies in a region;
  :func:`curves_relation` compares two curves at common x values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..verdicts import Est, Outcome, Verdict, all_of

MEASURED_X_COLUMNS = ["curve", "label", "nominal", "x", "x_ci95_half_width", "x_n", "y", "y_ci95_half_width", "y_n"]

_TAGS = {Verdict.HOLDS: "ok", Verdict.DOES_NOT_HOLD: "NO", Verdict.INCONCLUSIVE: "?", Verdict.NOT_EXERCISED: "-", Verdict.NOT_APPLICABLE: "-"}
_NAN = Est(math.nan, math.nan, 0)


@dataclass(frozen=True)
class MeasuredXCurve:
    """Points (x ± h_x, y ± h_y), sorted by the mean of x — or, with ``join="nominal"``,
    by the nominal setting (e.g. the offered load), so that a curve whose measured x turns
    back (throughput falling under overload) is drawn as it was traversed."""

    key: str
    label: str
    x: tuple[Est, ...]
    y: tuple[Est, ...]
    nominal: tuple[float, ...] = ()
    style: Mapping[str, Any] = field(default_factory=dict)
    join: str = "x"

    def __post_init__(self) -> None:
        if len(self.x) != len(self.y):
            raise ValueError(f"curve {self.key}: {len(self.x)} x estimates but {len(self.y)} y estimates")
        if self.nominal and len(self.nominal) != len(self.x):
            raise ValueError(f"curve {self.key}: {len(self.nominal)} nominal values for {len(self.x)} points")
        nominal = self.nominal or tuple(math.nan for _ in self.x)
        if self.join not in ("x", "nominal") or (self.join == "nominal" and not self.nominal):
            raise ValueError(f"curve {self.key}: join {self.join!r} (expected 'x', or 'nominal' with nominal values)")
        by = (lambda i: nominal[i]) if self.join == "nominal" else (lambda i: self.x[i].mean)
        order = sorted(range(len(self.x)), key=by)
        object.__setattr__(self, "x", tuple(self.x[i] for i in order))
        object.__setattr__(self, "y", tuple(self.y[i] for i in order))
        object.__setattr__(self, "nominal", tuple(nominal[i] for i in order))

    def points(self) -> list[tuple[Est, Est]]:
        return list(zip(self.x, self.y))

    def where_x(self, low: float = -math.inf, high: float = math.inf) -> list[int]:
        """Indices of the points whose whole x CI lies in [low, high] (surely in the region)."""
        return [i for i, x in enumerate(self.x) if x.valid and x.lo >= low and x.hi <= high]

    def y_at(self, x0: float) -> Est:
        """y interpolated linearly at ``x0`` between the two points that bracket it.

        With weight w = (x0 − x₁)/(x₂ − x₁) and slope m, the half-width is the first-order
        propagation of all four half-widths, added linearly:
        ``(1−w)·h_y1 + w·h_y2 + |m|·((1−w)·h_x1 + w·h_x2)``; the linear sum bounds the
        interval whatever the correlation between the inputs (x and y of a point come
        from the same runs). Outside the measured range the result is NaN.
        """
        if self.join != "x":
            return dataclasses.replace(self, join="x").y_at(x0)
        xs = [x.mean for x in self.x]
        if not xs or not xs[0] <= x0 <= xs[-1]:
            return _NAN
        if len(xs) == 1:
            return self.y[0]
        j = max(1, next(k for k, v in enumerate(xs) if v >= x0))
        x1, x2, y1, y2 = self.x[j - 1], self.x[j], self.y[j - 1], self.y[j]
        if x2.mean == x1.mean:  # two points at the same x: their average
            w, slope = 0.5, 0.0
        else:
            w = (x0 - x1.mean) / (x2.mean - x1.mean)
            slope = (y2.mean - y1.mean) / (x2.mean - x1.mean)
        mean = (1 - w) * y1.mean + w * y2.mean
        half = (1 - w) * y1.half + w * y2.half + abs(slope) * ((1 - w) * x1.half + w * x2.half)
        return Est(mean, half, min(y1.n, y2.n))

    def to_frame(self) -> pd.DataFrame:
        """One row per point: nominal setting, x and y with their CIs and counts."""
        rows = [{"curve": self.key, "label": self.label, "nominal": nom, "x": x.mean, "x_ci95_half_width": x.half,
                 "x_n": x.n, "y": y.mean, "y_ci95_half_width": y.half, "y_n": y.n}
                for nom, x, y in zip(self.nominal, self.x, self.y)]
        return pd.DataFrame(rows, columns=MEASURED_X_COLUMNS)

    def plot(self, ax: Any) -> None:
        """The points with horizontal (x) and vertical (y) 95% CI bars, joined by a line."""
        style: dict[str, Any] = {"marker": "o", "markersize": 3.5, "capsize": 2, "linewidth": 1.2}
        style.update(self.style)
        ax.errorbar([x.mean for x in self.x], [y.mean for y in self.y],
                    xerr=[x.half if math.isfinite(x.half) else 0.0 for x in self.x],
                    yerr=[y.half if math.isfinite(y.half) else 0.0 for y in self.y], label=self.label, **style)


def measured_x_from_frame(frame: pd.DataFrame) -> list[MeasuredXCurve]:
    """Rebuild curves from a frame written by :meth:`MeasuredXCurve.to_frame` (one or several)."""
    out = []
    for key, sub in frame.groupby("curve", sort=False):
        out.append(MeasuredXCurve(
            str(key), str(sub["label"].iloc[0]),
            tuple(Est(float(r.x), float(r.x_ci95_half_width), int(r.x_n)) for r in sub.itertuples(index=False)),
            tuple(Est(float(r.y), float(r.y_ci95_half_width), int(r.y_n)) for r in sub.itertuples(index=False)),
            tuple(float(v) for v in sub["nominal"]),
        ))
    return out


def xy_relation(curve: MeasuredXCurve, relation: Callable[[Est, Est], Verdict], *,
                low: float = -math.inf, high: float = math.inf) -> Outcome:
    """``relation(x, y)`` at every point whose x CI lies within [low, high], combined with
    :func:`~arqlab.studies.verdicts.all_of` (e.g. ``lambda x, y: approx(y, x, 0.05)``: the
    link carries what is offered)."""
    idx = curve.where_x(low, high)
    if not idx:
        return Outcome(Verdict.INCONCLUSIVE, f"no point of {curve.key} has its x CI within [{low:g}, {high:g}]")
    verdicts = [relation(curve.x[i], curve.y[i]) for i in idx]
    detail = "; ".join(f"x={curve.x[i]}:{_TAGS[v]} y={curve.y[i]}" for i, v in zip(idx, verdicts))
    return Outcome(all_of(verdicts), detail)


def curves_relation(a: MeasuredXCurve, b: MeasuredXCurve, relation: Callable[[Est, Est], Verdict],
                    at: Sequence[float]) -> Outcome:
    """``relation(a.y_at(x), b.y_at(x))`` at each x of ``at`` (e.g. the throughput of two
    protocol variants at the same measured offered load), combined with ``all_of``."""
    if not at:
        return Outcome(Verdict.INCONCLUSIVE, "no x values to compare at")
    parts: list[str] = []
    verdicts: list[Verdict] = []
    for x in at:
        ea, eb = a.y_at(x), b.y_at(x)
        v = relation(ea, eb)
        verdicts.append(v)
        parts.append(f"x={x:g}:{_TAGS[v]} {ea} vs {eb}")
    return Outcome(all_of(verdicts), "; ".join(parts))
