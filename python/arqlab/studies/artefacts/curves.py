"""Curves of a figure: the artefact every figure of a study produces.

:class:`FigureData` is a figure's tidy per-point frame (one row per curve × variant × x,
see :data:`~arqlab.studies.plan.POINT_COLUMNS`) with estimates looked up by curve and x
in plot units; claims read it through :meth:`FigureData.est`. :func:`draw_curves` draws
it in the paper's axes: each curve with 95% CI bars, sensitivity variants as markers,
and the figure's closed forms.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from collections.abc import Mapping

from ..spec import Curve, Figure, Observations
from ..verdicts import Est


def _missing(base: pd.DataFrame, sub: pd.DataFrame) -> pd.DataFrame:
    """The base rows whose (curve, x) the variant ``sub`` lacks, with y and its interval
    NaN: a point the variant did not run reads as missing, not as the base's value."""
    have = set(zip(sub["curve"], sub["x"].astype(float)))
    rows = base[[(c, float(x)) not in have for c, x in zip(base["curve"], base["x"])]].copy()
    rows["y"] = rows["y_ci95_half_width"] = float("nan")
    return rows


class FigureData:
    """Tidy results of one figure, with estimates looked up by curve and x (in plot units).

    ``observed``: the runs' per-replication observations (``{run key: {(direction,
    measure): values}}``, :func:`~arqlab.studies.run.simulate_runs`), for the claims that
    pair runs replication by replication or count replications (:meth:`replications`)."""

    def __init__(self, figure: Figure, frame: pd.DataFrame, variant: str = "",
                 observed: Mapping[str, Observations] | None = None) -> None:
        self.figure = figure
        self.frame = frame
        self.variant = variant
        self.observed: Mapping[str, Observations] = observed or {}
        base = frame[frame["variant"] == ""]
        if variant:
            sub = frame[frame["variant"] == variant]
            replaced = set(sub["curve"])
            if any(s.name == variant and s.on_base_xs for s in figure.sensitivities):
                sub = pd.concat([sub, _missing(base[base["curve"].isin(replaced)], sub)], ignore_index=True)
            base = pd.concat([base[~base["curve"].isin(replaced)], sub], ignore_index=True)
        self._view = base
        #: Curves a claim has looked up (:func:`~arqlab.studies.data.inapplicable_variants`
        #: records them to find the curves a claim reads).
        self.read: set[str] = set()
        self._index: dict[tuple[str, float], Est] = {}
        #: (curve, x) -> (run key, direction, measure, norm): where a point's replications are.
        self._source: dict[tuple[str, float], tuple[str, str, str, float]] = {}
        for row in base.itertuples(index=False):
            self._index[(str(row.curve), float(row.x))] = Est(float(row.y), float(row.y_ci95_half_width), int(row.n))
            run = getattr(row, "run", None)
            if isinstance(run, str):
                norm = float(getattr(row, "norm", 1.0) or 1.0)
                self._source[(str(row.curve), float(row.x))] = (run, str(row.direction), str(row.measure), norm)

    def has(self, curve: str) -> bool:
        self.read.add(curve)
        return any(k[0] == curve for k in self._index)

    def xs(self, curve: str) -> list[float]:
        self.read.add(curve)
        return sorted(x for (c, x) in self._index if c == curve)

    def common_xs(self, *curves: str) -> list[float]:
        sets = [set(self.xs(c)) for c in curves]
        return sorted(set.intersection(*sets)) if sets else []

    def est(self, curve: str, x: float) -> Est:
        self.read.add(curve)
        return self._index.get((curve, float(x)), Est(float("nan"), float("nan"), 0))

    def replications(self, curve: str, x: float) -> tuple[float, ...] | None:
        """The point's per-replication values in plot units (NaN where a replication has
        none), replication 0 first, so two points of one seed pair by position (common
        random numbers). Where the runs' observations were not kept, a point whose CI is 0 with n replications is n equal
        values (a zero spread says every replication is the mean); else None."""
        e = self.est(curve, x)
        src = self._source.get((curve, float(x)))
        if src is not None:
            run, direction, measure, norm = src
            values = self.observed.get(run, {}).get((direction, measure))
            if values is not None:
                return tuple(v / norm for v in values[:e.n])
        if e.valid and e.half == 0.0 and e.n > 0:
            return (e.mean,) * e.n
        return None

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
        return FigureData(self.figure, self.frame, variant, self.observed)

    def to_frame(self) -> pd.DataFrame:
        """The tidy per-point frame (every variant)."""
        return self.frame

    def plot(self, ax: Any) -> None:
        """Draw the figure's curves, variants and closed forms on a matplotlib axis."""
        draw_curves(ax, self.figure, self.frame)


def _plot_style(curve: Curve) -> dict[str, Any]:
    style: dict[str, Any] = {"linewidth": 1.4, "marker": "o", "markersize": 3.5, "capsize": 2}
    if curve.extension:
        style.update({"linestyle": ":", "marker": "^"})
    style.update(curve.style)
    return style


def _unsteady(sub: pd.DataFrame) -> pd.Series:
    if "steady_state" not in sub.columns:
        return pd.Series(False, index=sub.index)
    return sub["steady_state"] == "no"


def _mark_unsteady(ax: Any, figure: Figure, frame: pd.DataFrame, rows: list[tuple[Curve, pd.DataFrame]]) -> None:
    """Points without a steady state: hollow triangles at the top of a y range fitted to the
    steady points (so they cannot squash it), labelled once."""
    base = frame[frame["variant"] == ""]
    steady = base[~_unsteady(base)]
    ys = (steady["y"] + steady["y_ci95_half_width"].fillna(0.0)).dropna()
    if figure.y_limits is None and not ys.empty:
        lo, hi = ax.get_ylim()
        top = float(ys.max()) * (1.6 if figure.y_scale == "log" else 1.12)
        ax.set_ylim(lo, top)
    top = ax.get_ylim()[1]
    lo_x, hi_x = ax.get_xlim()
    first = True
    for i, (c, sub) in enumerate(rows):
        st = _plot_style(c)
        # Side by side, so that curves without a steady state at the same x all show.
        shift = (i - (len(rows) - 1) / 2) * 0.012
        xs = sub["x"] * (1 + shift) if figure.x_scale == "log" else sub["x"] + shift * (hi_x - lo_x)
        ax.plot(xs, [top] * len(sub), linestyle="none", marker="^", markersize=9, markerfacecolor="none",
                markeredgecolor=st.get("color", "black"), clip_on=False,
                label="no steady state (mean grows with the run; value in the CSV)" if first else None)
        first = False


def draw_curves(ax: Any, figure: Figure, frame: pd.DataFrame) -> None:
    """Curves with 95% CI bars, sensitivity variants, closed forms, scales and axis labels."""
    unsteady_rows: list[tuple[Curve, pd.DataFrame]] = []
    for c in figure.curves:
        if not c.plot:
            continue
        sub = frame[(frame["curve"] == c.key) & (frame["variant"] == "")].sort_values("x")
        if sub.empty:
            continue
        # A point without a steady state has no mean to plot (it grows with the run): it is
        # drawn apart, at the top edge, and the line and the y range keep to the others.
        off = _unsteady(sub)
        steady = sub[~off]
        if off.any():
            unsteady_rows.append((c, sub[off]))
        ax.errorbar(steady["x"], steady["y"], yerr=steady["y_ci95_half_width"].fillna(0.0), label=c.label,
                    **_plot_style(c))
    # One distinct marker per sensitivity (a figure may have a dozen), each nudged along x
    # so that variants at the same x do not hide one another.
    markers = ["x", "+", "1", "D", "s", "v", "^", "P", "*", "h", "<", ">", "p", "d", "X"]
    xs_span = (frame["x"].max() - frame["x"].min()) if not frame.empty else 0.0
    nudge = 0.006 * (xs_span or 1.0)
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
            if s.coequal:
                # A reading as good as the study's: a line of its own, not a marker.
                st.update({"linestyle": (0, (4, 2)), "marker": markers[i % len(markers)], "alpha": 0.9})
                ax.errorbar(sub["x"], sub["y"], yerr=sub["y_ci95_half_width"].fillna(0.0),
                            label=f"{c.label} — reading '{s.name}': {s.description}", **st)
                continue
            st.update({"linestyle": "none", "marker": markers[i % len(markers)], "alpha": 0.8, "markersize": 7,
                       "markerfacecolor": "none"})
            label = None if labelled else f"sensitivity '{s.name}': {s.description} (curve colours as above)"
            labelled = True
            shift = (i - (len(figure.sensitivities) - 1) / 2)
            xs = sub["x"] * (1 + 0.01 * shift) if figure.x_scale == "log" else sub["x"] + shift * nudge
            ax.errorbar(xs, sub["y"], yerr=sub["y_ci95_half_width"].fillna(0.0), label=label, **st)
    xs_all = sorted(set(frame["x"])) if not frame.empty else list(figure.xs)
    if xs_all:
        lo, hi = min(xs_all), max(xs_all)
        grid = np.geomspace(max(lo, 1e-12), hi, 200) if figure.x_scale == "log" else np.linspace(lo, hi, 200)
        for cf in figure.closed_forms:
            ys = np.array([cf.fn(float(x)) for x in grid], dtype=float)
            st = {"color": "0.45", "linewidth": 1.0, "linestyle": (0, (6, 2, 1, 2))}
            st.update(cf.style)
            ax.plot(grid, ys, label=cf.label, **st)
    for m in figure.markers:
        ax.axvline(m.x, label=m.label, **{"color": "0.3", "linewidth": 1.0, "linestyle": ":", **m.style})
    ax.set_xscale(figure.x_scale)
    ax.set_yscale(figure.y_scale)
    if figure.x_ticks:
        ax.set_xticks([x for x, _ in figure.x_ticks], [label for _, label in figure.x_ticks])
    elif figure.sensitivities and 0 < frame["x"].nunique() <= 3:
        # Nudged sensitivity markers around one or a few x: tick only the real values.
        ticks = sorted(set(frame["x"]))
        ax.set_xticks(ticks, [f"{x:g}" for x in ticks])
    if figure.y_limits is not None:
        ax.set_ylim(*figure.y_limits)
    if unsteady_rows:
        _mark_unsteady(ax, figure, frame, unsteady_rows)
    ax.set_xlabel(figure.x_label)
    ax.set_ylabel(figure.y_label)
