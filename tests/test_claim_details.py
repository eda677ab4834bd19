"""Claim helpers (``arqlab.studies.claims``) beyond their verdicts: the explanation each
prints (a reader checks a verdict against it), references that depend on the figure,
and the boundaries of the departure claims. Complements ``test_claim_helpers.py``."""

from __future__ import annotations

import math

import pandas as pd

from arqlab.studies import claims
from arqlab.studies import framework as fw

H, N, I = fw.Verdict.HOLDS, fw.Verdict.DOES_NOT_HOLD, fw.Verdict.INCONCLUSIVE
Points = list[tuple[float, float, float]]  # (x, y, 95% half-width)


def figure_data(curves: dict[str, Points]) -> fw.FigureData:
    rows = [{"curve": c, "variant": "", "x": x, "y": y, "y_ci95_half_width": h, "n": 10}
            for c, pts in curves.items() for x, y, h in pts]
    return fw.FigureData(None, pd.DataFrame(rows))  # type: ignore[arg-type]


def study(fd: fw.FigureData) -> fw.StudyData:
    return fw.StudyData({9: fd})


def test_regions_of_a_curve_without_a_defined_maximum_are_empty() -> None:
    fd = figure_data({"undefined": [(1.0, math.nan, 0.0), (2.0, math.nan, 0.0)], "a": [(1.0, 1.0, 0.0)]})
    assert claims.left_of("undefined")(fd) == [] and claims.right_of("undefined")(fd) == []


def test_right_of_latest_takes_the_xs_of_the_first_curve() -> None:
    fd = figure_data({"a": [(1.0, 1.0, 0.0), (2.0, 2.0, 0.0), (4.0, 1.0, 0.0)],
                      "b": [(1.0, 2.0, 0.0), (3.0, 1.0, 0.0), (5.0, 0.5, 0.0)]})
    assert claims.right_of_latest(("a", "b"))(fd) == [2.0, 4.0]  # the larger optimum is a's, 2
    assert claims.right_of_latest(("b", "a"))(fd) == [3.0, 5.0]


def test_relations_explain_each_point() -> None:
    fd = figure_data({"a": [(1.0, 2.0, 0.5), (2.0, 4.0, 0.5)], "b": [(1.0, 1.0, 0.0), (2.0, 3.0, 0.0)],
                      "ref": [(1.0, 2.0, 0.0), (2.0, 4.0, 0.0)]})
    out = claims.rel(9, "a", "b", claims.every("a"), fw.exceeds)(study(fd))
    # The deviations (A − B)/|B| come from the compared values, not from the text.
    assert out == fw.Outcome(H, "x=1:ok 2±0.5 vs 1±0; x=2:ok 4±0.5 vs 3±0", deviations=(1.0, 1 / 3))
    # The target may read the figure itself (a reference curve).
    target = lambda f, x: f.est("ref", x).mean  # noqa: E731
    out = claims.vs_value(9, "a", claims.every("a"), target, lambda e, t: fw.approx_value(e, t, 0.5))(study(fd))
    assert out == fw.Outcome(H, "x=1:ok 2±0.5 vs 2; x=2:ok 4±0.5 vs 4", deviations=(0.0, 0.0))
    out = claims.gap_vs_value(9, "a", "b", claims.every("a"), lambda f, x: f.est("ref", x).mean / 2,
                              lambda e, t: fw.approx_value(e, t, 0.5))(study(fd))
    assert out == fw.Outcome(I, "x=1:ok gap 1±0.5 vs 1; x=2:? gap 1±0.5 vs 2")


def test_monotone_up_checks_every_step_and_says_so() -> None:
    fd = figure_data({"c": [(0.0, 2.0, 0.0), (1.0, 1.0, 0.0), (2.0, 3.0, 0.0)]})
    out = claims.monotone_up(9, "c", 0.0)(study(fd))
    assert out == fw.Outcome(N, "x=1:NO 1±0 after 2±0; x=2:ok 3±0 after 1±0")


def test_departure_explains_uncertain_points() -> None:
    ref = lambda x: 1.0  # noqa: E731
    fd = figure_data({"c": [(1.0, 1.0, 0.0), (2.0, 1.5, 1.0), (3.0, 2.0, 0.5)]})
    lo, hi, detail = claims.departure(fd, "c", ref, 0.0)
    assert (lo, hi) == (2.0, 3.0)
    assert detail == "x=1:1±0/1:on; x=2:1.5±1/1:?; x=3:2±0.5/1:above"


def line_then_up(up_from: float, uncertain: tuple[float, ...] = ()) -> Points:
    """On the line y = x (the linear trend of its first two points) up to ``up_from``,
    then twice the line; points in ``uncertain`` are 1.5 × the line ± 1 (cannot tell)."""
    pts = []
    for x in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0):
        if x in uncertain:
            pts.append((x, 1.5 * x, 1.0 * x))
        else:
            pts.append((x, 2.0 * x if x >= up_from else x, 0.0))
    return pts


def within(curve: Points, low: float, high: float) -> fw.Outcome:
    fd = figure_data({"c": curve})
    return claims.departs_within(9, "c", claims.linear_trend("c"), 0.0, low, high)(study(fd))


def test_departs_within_against_a_trend_at_the_boundaries() -> None:
    # Leaves its own linear trend at x = 4, proven there.
    assert within(line_then_up(4.0), 4.0, 6.0).verdict is H  # lo = low
    assert within(line_then_up(4.0), 3.0, 4.0).verdict is H  # hi = high
    out = within(line_then_up(4.0), 3.0, 4.0)
    assert out.detail.startswith("departure in [4.0, 4.0] vs claimed [3.0, 4.0]: x=1:1±0/1:on")
    # Possible from 4 (= high) but proven only at 5: not shown to be later than claimed.
    assert within(line_then_up(5.0, uncertain=(4.0,)), 2.0, 4.0).verdict is I
    # Possible from 3, proven at 4 (= low): not shown to be earlier than claimed.
    assert within(line_then_up(4.0, uncertain=(3.0,)), 4.0, 6.0).verdict is I
    assert within(line_then_up(5.0), 2.0, 4.0).verdict is N and within(line_then_up(3.0), 4.0, 6.0).verdict is N


def test_departs_before_against_trends() -> None:
    fd = figure_data({"early": line_then_up(3.0), "late": line_then_up(5.0), "never": line_then_up(99.0)})
    check = lambda a, b: claims.departs_before(9, a, b, claims.linear_trend(a), claims.linear_trend(b), 0.0)(study(fd))  # noqa: E731
    out = check("early", "late")
    assert out.verdict is H
    assert out.detail.startswith("early departs in [3.0, 3.0], late in [5.0, 5.0]. early: x=1:1±0/1:on")
    assert " || late: x=1:1±0/1:on" in out.detail
    assert check("late", "early").verdict is N
    assert check("never", "late").verdict is N  # the first never leaves, the second does
    assert check("late", "never").verdict is H


def test_linear_trend_needs_two_points_only() -> None:
    line = claims.linear_trend("c")(figure_data({"c": [(1.0, 3.0, 0.0), (3.0, 7.0, 0.0)]}))
    assert line(2.0) == 5.0


def test_the_measured_column_is_computed_from_the_data_not_the_detail() -> None:
    """A detail whose prose says one thing cannot change the measured column: it reads the
    deviations the check computed."""
    from arqlab.studies.data import ClaimResult
    from arqlab.studies.output import measured_of

    r = ClaimResult("c", 9, "s", "a above b", H, "x=1:ok 5±0 vs 1±0 (prose that would parse as +400%)",
                    deviations=(0.1, -0.02))
    assert measured_of(r) == "(A−B)/B -2.0% … +10.0% (2 pts)"
    assert r.to_json()["measured"] == measured_of(r) and r.to_json()["deviations"] == [0.1, -0.02]
    # A check that compares no pair of values falls back to its detail.
    assert measured_of(ClaimResult("c", 9, "s", "x", H, "x=1:ok 5±0 vs 1±0")) == "(A−B)/B +400.0% (1 pt)"
