"""The Bux claim logic on synthetic data with known answers: every helper the claims are
built from, each verdict (holds / does not hold / inconclusive) of a departure claim for
curves built to leave M/D/1 at a load of 0.2 or 0.5, and the full verdict list of a
synthetic reproduction, pinned.

The helpers are imported from where they live today (`studies.framework` for verdict
primitives, `studies.bux1982` for the region and relation builders)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from arqlab.studies import bux1982 as bux
from arqlab.studies import claims
from arqlab.studies.bux1982 import figures_delay, figures_throughput
from arqlab.studies.bux1982 import params as bux_params
from arqlab.studies import framework as fw

H, N, I = fw.Verdict.HOLDS, fw.Verdict.DOES_NOT_HOLD, fw.Verdict.INCONCLUSIVE
Points = list[tuple[float, float, float]]  # (x, y, 95% half-width)


def figure_data(curves: dict[str, Points], variants: dict[str, dict[str, Points]] | None = None) -> fw.FigureData:
    rows = []
    for variant, cs in {"": curves, **(variants or {})}.items():
        for curve, pts in cs.items():
            for x, y, half in pts:
                rows.append({"curve": curve, "variant": variant, "x": x, "y": y, "y_ci95_half_width": half, "n": 10})
    return fw.FigureData(None, pd.DataFrame(rows))  # type: ignore[arg-type]


def study(fd: fw.FigureData, number: int = 9) -> fw.StudyData:
    return fw.StudyData({number: fd})


XS = [100.0, 200.0, 500.0, 1000.0, 2000.0, 4000.0]


def peaked(peak_at: float, half: float = 0.001) -> Points:
    """A curve rising to 0.9 at ``peak_at`` and falling after it."""
    return [(x, 0.9 - 0.1 * abs(XS.index(x) - XS.index(peak_at)), half) for x in XS]


# ----------------------------------------------------------------------------- regions


def test_regions_are_relative_to_the_base_optimum() -> None:
    fd = figure_data({"a": peaked(1000.0), "b": peaked(500.0)},
                     variants={"v": {"a": [(x, 1.0 if x == 100.0 else 0.1, 0.0) for x in XS]}})
    assert claims.base_argmax(fd, "a") == 1000.0  # the variant's maximum at 100 is ignored
    assert claims.left_of("a")(fd) == [100.0, 200.0, 500.0]
    assert claims.left_of("a", 0.2)(fd) == [100.0, 200.0]
    assert claims.right_of("a")(fd) == [2000.0, 4000.0]
    assert claims.right_of("a", 4.0)(fd) == [4000.0]
    assert claims.right_of_latest(("b", "a"))(fd) == [1000.0, 2000.0, 4000.0]
    assert claims.right_of_latest(("a", "missing"))(fd) == []
    assert claims.left_of("missing")(fd) == [] and claims.right_of("missing")(fd) == []
    assert claims.xs_where(lambda x: 200 <= x <= 1000, "a")(fd) == [200.0, 500.0, 1000.0]
    assert claims.every("b")(fd) == XS


def test_base_argmax_skips_undefined_points() -> None:
    fd = figure_data({"a": [(1.0, float("nan"), 0.0), (2.0, 0.5, 0.0), (3.0, 0.7, 0.0), (4.0, 0.6, 0.0)]})
    assert claims.base_argmax(fd, "a") == 3.0
    assert claims.base_argmax(figure_data({"a": [(1.0, float("nan"), 0.0)]}), "a") is None


# ----------------------------------------------------------------------------- relations


def test_rel_checks_the_relation_over_the_region() -> None:
    a = [(x, 0.8, 0.01) for x in XS]
    above = figure_data({"a": a, "b": [(x, 0.7, 0.01) for x in XS]})
    assert claims.rel(9, "a", "b", claims.every("a"), fw.exceeds)(study(above)).verdict is H
    # One point the other way fails the whole region …
    mixed = figure_data({"a": a, "b": [(x, 0.9 if x == 4000.0 else 0.7, 0.01) for x in XS]})
    out = claims.rel(9, "a", "b", claims.every("a"), fw.exceeds)(study(mixed))
    assert out.verdict is N and "x=4000:NO" in out.detail and "x=100:ok" in out.detail
    # … unless the region leaves it out, or the combination is "any".
    assert claims.rel(9, "a", "b", claims.xs_where(lambda x: x < 4000, "a"), fw.exceeds)(study(mixed)).verdict is H
    assert claims.rel(9, "b", "a", claims.every("a"), fw.exceeds, combine=fw.any_of)(study(mixed)).verdict is H
    # Overlapping intervals: inconclusive.
    close = figure_data({"a": a, "b": [(x, 0.79, 0.01) for x in XS]})
    assert claims.rel(9, "a", "b", claims.every("a"), fw.exceeds)(study(close)).verdict is I
    # Only x present in both curves count; none at all is inconclusive.
    sparse = figure_data({"a": a, "b": [(100.0, 0.7, 0.01)]})
    out = claims.rel(9, "a", "b", claims.every("a"), fw.exceeds)(study(sparse))
    assert out.verdict is H and out.detail.count("x=") == 1
    assert claims.rel(9, "a", "c", claims.every("a"), fw.exceeds)(study(sparse)).verdict is I


def test_rel_across_figures_and_both() -> None:
    sd = fw.StudyData({2: figure_data({"a": [(1.0, 0.8, 0.0)]}), 3: figure_data({"a": [(1.0, 0.5, 0.0)]})})
    assert claims.rel(2, "a", "a", claims.every("a"), fw.exceeds, fig_b=3)(sd).verdict is H
    assert claims.rel(3, "a", "a", claims.every("a"), fw.exceeds, fig_b=2)(sd).verdict is N
    yes = claims.rel(2, "a", "a", claims.every("a"), fw.exceeds, fig_b=3)
    no = claims.rel(3, "a", "a", claims.every("a"), fw.exceeds, fig_b=2)
    assert claims.both(x=yes, y=yes)(sd).verdict is H
    out = claims.both(x=yes, y=no)(sd)
    assert out.verdict is N and out.detail.startswith("x: holds") and "y: does not hold" in out.detail


def test_vs_value_and_gap_vs_value() -> None:
    fd = figure_data({"a": [(1.0, 2.0, 0.01), (2.0, 4.1, 0.01)], "b": [(1.0, 1.0, 0.01), (2.0, 2.0, 0.01)]})
    target = lambda fd, x: 2.0 * x  # noqa: E731
    assert claims.vs_value(9, "a", claims.every("a"), target, lambda e, t: fw.approx_value(e, t, 0.1))(study(fd)).verdict is H
    assert claims.vs_value(9, "a", claims.every("a"), target, lambda e, t: fw.approx_value(e, t, 0.01))(study(fd)).verdict is N
    gap = lambda fd, x: x  # noqa: E731  a − b = 1.0 and 2.1
    assert claims.gap_vs_value(9, "a", "b", claims.every("a"), gap, lambda e, t: fw.approx_value(e, t, 0.1))(study(fd)).verdict is H
    assert claims.gap_vs_value(9, "a", "b", claims.every("a"), gap, lambda e, t: fw.approx_value(e, t, 0.01))(study(fd)).verdict is N


# ----------------------------------------------------------------------------- departure from M/D/1

LOADS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]


def md1(x: float) -> float:
    """M/D/1 transfer time in service times (no propagation): 1 + ρ/(2(1 − ρ))."""
    return 1.0 + x / (2.0 * (1.0 - x))


def leaving_at(x0: float, factor: float = 1.3, half: float = 0.005) -> Points:
    """On M/D/1 below ``x0``, ``factor`` × M/D/1 from it on (relative half-width ``half``)."""
    return [(x, md1(x) * (factor if x >= x0 - 1e-9 else 1.0), half * md1(x)) for x in LOADS]


def within(curve: Points, low: float = 0.15, high: float = 0.3) -> fw.Outcome:
    check = claims.departs_within(9, "c", claims.fixed_ref(md1), bux_params.TOL_CLOSED_FORM, low, high)
    return check(study(figure_data({"c": curve})))


def test_departure_finds_the_first_possible_and_the_first_significant_x() -> None:
    fd = figure_data({"c": leaving_at(0.2)})
    lo, hi, detail = claims.departure(fd, "c", md1, bux_params.TOL_CLOSED_FORM)
    assert (lo, hi) == (0.2, 0.2)
    assert "x=0.1:" in detail and detail.split("; ")[0].endswith(":on") and detail.split("; ")[1].endswith(":above")
    # An uncertain point first: the departure cannot be ruled out there, it is proven later.
    curve = leaving_at(0.4)
    curve[2] = (0.3, md1(0.3) * 1.06, 0.03 * md1(0.3))  # 6% ± 3% against a 5% tolerance
    lo, hi, _ = claims.departure(figure_data({"c": curve}), "c", md1, bux_params.TOL_CLOSED_FORM)
    assert (lo, hi) == (0.3, 0.4)
    lo, hi, _ = claims.departure(figure_data({"c": leaving_at(9.0)}), "c", md1, bux_params.TOL_CLOSED_FORM)
    assert (lo, hi) == (None, None)
    # Below the reference is not a departure (upward only).
    lo, hi, _ = claims.departure(figure_data({"c": leaving_at(0.2, factor=0.7)}), "c", md1, bux_params.TOL_CLOSED_FORM)
    assert (lo, hi) == (None, None)


def test_departs_within_each_verdict() -> None:
    assert within(leaving_at(0.2)).verdict is H  # leaves M/D/1 at 0.2: claimed [0.15, 0.3]
    assert within(leaving_at(0.5)).verdict is N  # leaves at 0.5: later than claimed
    assert within(leaving_at(0.5), low=0.41, high=1.0).verdict is H
    assert within(leaving_at(0.2), low=0.41, high=1.0).verdict is N  # earlier than claimed
    assert within(leaving_at(9.0)).verdict is N  # never leaves
    # Possible from 0.2, proven only at 0.5: cannot tell whether it is inside [0.15, 0.3].
    vague = leaving_at(0.5)
    vague[1:4] = [(x, md1(x) * 1.06, 0.03 * md1(x)) for x in (0.2, 0.3, 0.4)]
    out = within(vague)
    assert out.verdict is I and "departure in [0.2, 0.5]" in out.detail
    # No points of the curve at all: nothing to decide.
    empty = claims.departs_within(9, "c", claims.fixed_ref(md1), bux_params.TOL_CLOSED_FORM, 0.15, 0.3)
    assert empty(study(figure_data({"other": leaving_at(0.2)}))).verdict is I


def test_departs_before() -> None:
    sd = study(figure_data({"early": leaving_at(0.2), "late": leaving_at(0.5)}))
    check = lambda a, b: claims.departs_before(9, a, b, claims.fixed_ref(md1), claims.fixed_ref(md1), bux_params.TOL_CLOSED_FORM)(sd).verdict  # noqa: E731
    assert check("early", "late") is H
    assert check("late", "early") is N
    assert check("early", "early") is N
    sd2 = study(figure_data({"a": leaving_at(0.3), "b": [(x, md1(x) * 1.06, 0.03 * md1(x)) for x in LOADS]}))
    assert claims.departs_before(9, "a", "b", claims.fixed_ref(md1), claims.fixed_ref(md1), bux_params.TOL_CLOSED_FORM)(sd2).verdict is I


def test_linear_trend_is_the_line_through_the_first_two_points() -> None:
    fd = figure_data({"c": [(1.0, 3.0, 0.0), (3.0, 7.0, 0.0), (5.0, 50.0, 0.0)]})
    line = claims.linear_trend("c")(fd)
    assert (line(1.0), line(3.0), line(5.0), line(0.0)) == (3.0, 7.0, 11.0, 1.0)
    assert math.isnan(claims.linear_trend("c")(figure_data({"c": [(1.0, 3.0, 0.0)]}))(2.0))


# ----------------------------------------------------------------------------- shapes


def test_monotone_up() -> None:
    def verdict(ys: list[float], half: float = 0.001, tol: float = 0.0) -> fw.Verdict:
        fd = figure_data({"c": [(float(i), y, half) for i, y in enumerate(ys)]})
        return claims.monotone_up(9, "c", tol)(study(fd)).verdict

    assert verdict([1.0, 1.5, 2.0, 3.0]) is H
    assert verdict([1.0, 2.0, 1.5, 3.0]) is N
    assert verdict([1.0, 2.0, 1.99, 3.0], tol=0.02) is H  # a dip within the tolerance
    assert verdict([1.0, 2.0, 1.99, 3.0], half=0.01) is I  # a dip within the noise
    assert verdict([1.0]) is I  # nothing to compare


def test_interior_maximum() -> None:
    def outcome(ys: list[float], half: float = 0.001) -> fw.Outcome:
        return figures_throughput._interior_max(figure_data({"c": [(float(i), y, half) for i, y in enumerate(ys)]}), "c")

    assert outcome([0.5, 0.8, 0.9, 0.7]).verdict is H
    assert outcome([0.5, 0.9, 0.899]).verdict is I  # the end is within the noise of the peak
    assert outcome([0.5, 0.9]).verdict is I and "fewer than 3" in outcome([0.5, 0.9]).detail
    # Highest at an end: never "holds".
    assert outcome([0.5, 0.8, 0.9, 0.95]).verdict is not H
    assert outcome([0.95, 0.8, 0.9, 0.7]).verdict is not H


def test_interior_maximum_at_an_end_is_refuted() -> None:
    def verdict(ys: list[float], half: float = 0.001) -> fw.Verdict:
        fd = figure_data({"c": [(float(i), y, half) for i, y in enumerate(ys)]})
        return figures_throughput._interior_max(fd, "c").verdict

    assert verdict([0.5, 0.8, 0.9, 0.95]) is N  # rising to the right end
    assert verdict([0.95, 0.8, 0.9, 0.7]) is N  # falling from the left end
    assert verdict([0.5, 0.8, 0.949, 0.95]) is I  # the end is within the noise of an interior point
    assert verdict([0.5, 0.8, 0.9, 0.95], half=0.05) is I  # all within the noise


def test_steep_rise_against_the_reference() -> None:
    fd = figure_data({"c": [(0.3, md1(0.3), 0.001), (0.5, md1(0.3) + 3 * (md1(0.5) - md1(0.3)), 0.001)]})
    assert figures_delay._steep(fd, "c", 0.3, 0.5, md1, 2.0).verdict is H
    assert figures_delay._steep(fd, "c", 0.3, 0.5, md1, 4.0).verdict is N
    assert figures_delay._steep(fd, "c", 0.3, 0.7, md1, 2.0).verdict is I
