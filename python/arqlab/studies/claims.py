"""Claim helpers over a figure's curves, shared by every study.

A claim is a function ``StudyData -> Outcome``. These build the common ones:

* **Regions** (``FigureData -> list of x``): :func:`every`, :func:`xs_where`,
  :func:`left_of` / :func:`right_of` a curve's optimum, :func:`right_of_latest`.
* **Relations between curves** over a region: :func:`rel` (``relation(a(x), b(x))``,
  ``b`` possibly from another figure), :func:`vs_value` (a curve against a closed form
  or reference value), :func:`gap_vs_value` (``a − b`` against a value),
  :func:`monotone_up`.
* **Departures** from a reference curve: :func:`departure`, :func:`departs_within`,
  :func:`departs_before`, with references :func:`fixed_ref` and :func:`linear_trend`.
* :func:`both` combines named checks (all must hold).

The relations themselves are the verdict rules of :mod:`.verdicts`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .artefacts.curves import FigureData
from .data import StudyData
from .verdicts import Est, Outcome, Verdict, all_of, at_least, conjunction, exceeds, pointwise, relative

Check = Callable[[StudyData], Outcome]

Region = Callable[[FigureData], list[float]]


def base_argmax(fd: FigureData, curve: str) -> float | None:
    """Optimum (x of the largest mean) of ``curve`` in the figure's base data."""
    sub = fd.frame[(fd.frame["curve"] == curve) & (fd.frame["variant"] == "")]
    sub = sub[sub["y"].notna()]
    if sub.empty:
        return None
    return float(sub.loc[sub["y"].idxmax(), "x"])


def left_of(ref: str, factor: float = 0.5) -> Region:
    """x ≤ factor × optimum of ``ref`` (well left of the maximum)."""
    def region(fd: FigureData) -> list[float]:
        xo = base_argmax(fd, ref)
        return [] if xo is None else [x for x in fd.xs(ref) if x <= factor * xo]
    return region


def right_of(ref: str, factor: float = 2.0) -> Region:
    """x ≥ factor × optimum of ``ref`` (well right of the maximum)."""
    def region(fd: FigureData) -> list[float]:
        xo = base_argmax(fd, ref)
        return [] if xo is None else [x for x in fd.xs(ref) if x >= factor * xo]
    return region


def right_of_latest(refs: Sequence[str]) -> Region:
    """x ≥ the largest optimum among ``refs``: right of (or at) every compared curve's maximum.

    "In the region of the optimum and ... longer message lengths" (3.1.3) must not reach into
    a curve's ascending branch, where the same section says ABM is above NRM.
    """
    def region(fd: FigureData) -> list[float]:
        opts = [base_argmax(fd, r) for r in refs]
        if any(o is None for o in opts):
            return []
        xo = max(o for o in opts if o is not None)
        return [x for x in fd.xs(refs[0]) if x >= xo]
    return region


def xs_where(pred: Callable[[float], bool], ref: str) -> Region:
    def region(fd: FigureData) -> list[float]:
        return [x for x in fd.xs(ref) if pred(x)]
    return region


def every(ref: str) -> Region:
    return xs_where(lambda x: True, ref)


Relation = Callable[[Est, Est], Verdict]


def rel(fig: int, a: str, b: str, region: Region, relation: Relation, *,
        combine: Callable[[Iterable[Verdict]], Verdict] = all_of, fig_b: int | None = None) -> Callable[[StudyData], Outcome]:
    """Check ``relation(a(x), b(x))`` over a region (``b`` may come from figure ``fig_b``)."""
    def check(sd: StudyData) -> Outcome:
        fa = sd[fig]
        fb = sd[fig_b] if fig_b is not None else fa
        xs = [x for x in region(fa) if x in set(fa.xs(a)) and x in set(fb.xs(b))]
        return pointwise(xs, lambda x: relation(fa.est(a, x), fb.est(b, x)), combine=combine,
                         describe=lambda x: f"{fa.est(a, x)} vs {fb.est(b, x)}",
                         deviation=lambda x: relative(fa.est(a, x).mean, fb.est(b, x).mean))
    return check


def both(**parts: Callable[[StudyData], Outcome]) -> Callable[[StudyData], Outcome]:
    """Conjunction of several named checks."""
    def check(sd: StudyData) -> Outcome:
        return conjunction({k: f(sd) for k, f in parts.items()})
    return check


def vs_value(fig: int, a: str, region: Region, target: Callable[[FigureData, float], float],
             relation: Callable[[Est, float], Verdict], *,
             combine: Callable[[Iterable[Verdict]], Verdict] = all_of) -> Callable[[StudyData], Outcome]:
    """Check ``relation(a(x), target(x))`` over a region (target: closed form or reference)."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = region(fd)
        return pointwise(xs, lambda x: relation(fd.est(a, x), target(fd, x)), combine=combine,
                         describe=lambda x: f"{fd.est(a, x)} vs {target(fd, x):.4g}",
                         deviation=lambda x: relative(fd.est(a, x).mean, target(fd, x)))
    return check


def gap_vs_value(fig: int, a: str, b: str, region: Region, target: Callable[[FigureData, float], float],
                 relation: Callable[[Est, float], Verdict]) -> Callable[[StudyData], Outcome]:
    """Check ``relation(a(x) − b(x), target(x))``."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = [x for x in region(fd) if x in set(fd.xs(b))]
        return pointwise(xs, lambda x: relation(fd.est(a, x) - fd.est(b, x), target(fd, x)),
                         describe=lambda x: f"gap {fd.est(a, x) - fd.est(b, x)} vs {target(fd, x):.4g}")
    return check


def departure(fd: FigureData, curve: str, ref: Callable[[float], float], tol: float) -> tuple[float | None, float | None, str]:
    """Where ``curve`` leaves a reference curve upward by more than ``tol`` (relative).

    Returns (lo, hi, detail): ``lo`` is the first x at which a departure cannot be ruled out,
    ``hi`` the first x at which it is significant at 95% (None when not reached in the grid).
    """
    lo = hi = None
    parts = []
    for x in fd.xs(curve):
        r = ref(x)
        v = exceeds(fd.est(curve, x), Est(r, 0.0), tol)
        parts.append(f"x={x:g}:{fd.est(curve, x)}/{r:.4g}:{ {Verdict.HOLDS: 'above', Verdict.DOES_NOT_HOLD: 'on', Verdict.INCONCLUSIVE: '?'}[v] }")
        if lo is None and v is not Verdict.DOES_NOT_HOLD:
            lo = x
        if hi is None and v is Verdict.HOLDS:
            hi = x
    return lo, hi, "; ".join(parts)


def departs_within(fig: int, curve: str, ref: Callable[[FigureData], Callable[[float], float]], tol: float,
                   low: float, high: float) -> Callable[[StudyData], Outcome]:
    """The departure of ``curve`` from ``ref`` happens at an x in [low, high]."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        lo, hi, detail = departure(fd, curve, ref(fd), tol)
        if lo is not None and hi is not None and lo >= low and hi <= high:
            v = Verdict.HOLDS
        elif (lo is not None and lo > high) or (hi is not None and hi < low) or (lo is None and fd.xs(curve)):
            v = Verdict.DOES_NOT_HOLD
        else:
            v = Verdict.INCONCLUSIVE
        return Outcome(v, f"departure in [{lo}, {hi}] vs claimed [{low}, {high}]: {detail}")
    return check


def departs_before(fig: int, first: str, second: str, ref_first: Callable[[FigureData], Callable[[float], float]],
                   ref_second: Callable[[FigureData], Callable[[float], float]], tol: float) -> Callable[[StudyData], Outcome]:
    """``first`` leaves its reference at a smaller x than ``second`` leaves its own."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        lo1, hi1, d1 = departure(fd, first, ref_first(fd), tol)
        lo2, hi2, d2 = departure(fd, second, ref_second(fd), tol)
        if hi1 is not None and (lo2 is None or hi1 < lo2):
            v = Verdict.HOLDS
        elif hi2 is not None and (lo1 is None or hi2 <= lo1):
            v = Verdict.DOES_NOT_HOLD
        else:
            v = Verdict.INCONCLUSIVE
        return Outcome(v, f"{first} departs in [{lo1}, {hi1}], {second} in [{lo2}, {hi2}]. {first}: {d1} || {second}: {d2}")
    return check


def linear_trend(curve: str) -> Callable[[FigureData], Callable[[float], float]]:
    """Reference: the straight line through the curve's first two points."""
    def make(fd: FigureData) -> Callable[[float], float]:
        xs = fd.xs(curve)
        if len(xs) < 2:
            return lambda x: float("nan")
        x0, x1 = xs[0], xs[1]
        y0, y1 = fd.est(curve, x0).mean, fd.est(curve, x1).mean
        slope = (y1 - y0) / (x1 - x0)
        return lambda x: y0 + slope * (x - x0)
    return make


def fixed_ref(fn: Callable[[float], float]) -> Callable[[FigureData], Callable[[float], float]]:
    return lambda fd: fn


def monotone_up(fig: int, curve: str, tol: float) -> Callable[[StudyData], Outcome]:
    """Non-decreasing in x (each point ≥ the previous one within ``tol``)."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = fd.xs(curve)
        pairs = list(zip(xs, xs[1:]))
        return pointwise([b for _, b in pairs], lambda xb: at_least(fd.est(curve, xb), fd.est(curve, xs[xs.index(xb) - 1]), tol),
                         describe=lambda xb: f"{fd.est(curve, xb)} after {fd.est(curve, xs[xs.index(xb) - 1])}")
    return check

