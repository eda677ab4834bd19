"""The verdict rules (``arqlab.studies.verdicts``) at their boundaries, on numbers chosen
to be exact in binary: where an interval touches a threshold decides between holds,
does not hold and inconclusive, so each rule's strict and non-strict comparisons are
pinned, as are the explanations claims print."""

from __future__ import annotations

import math

import pytest

from arqlab.studies.verdicts import (
    Est,
    Outcome,
    Verdict,
    all_of,
    any_of,
    approx,
    approx_value,
    at_least,
    at_most,
    below,
    conjunction,
    exceeds,
    pointwise,
    significant,
    within,
)

H, N, Q = Verdict.HOLDS, Verdict.DOES_NOT_HOLD, Verdict.INCONCLUSIVE
EXACT = Est(1.0, 0.0, 5)  # a known value: no uncertainty
BROKEN = Est(2.0, -1.0, 5)  # a negative half-width: not a valid interval


def test_est_arithmetic() -> None:
    a, b = Est(5.0, 3.0, 7), Est(2.0, 4.0, 9)
    d = a - b
    assert (d.mean, d.half, d.n) == (3.0, 5.0, 7)  # hypot(3, 4) = 5; the smaller n
    s = a.scaled(-2.0)
    assert (s.mean, s.half, s.n) == (-10.0, 6.0, 7)
    assert (a.lo, a.hi) == (2.0, 8.0)
    assert a.valid and not BROKEN.valid and not Est(math.nan, 1.0).valid and not Est(1.0, math.inf).valid
    assert str(Est(1.23456, 0.0123)) == "1.235±0.012"


def test_at_least_boundaries() -> None:
    # D = A − B with B exact, so D's half-width is A's; scale = (|A| + |B|)/2.
    assert at_least(Est(1.5, 0.5), EXACT) is H  # D.lo = 0 ≥ 0
    assert at_least(Est(0.5, 0.5), EXACT) is Q  # D.hi = 0: not below
    assert at_least(Est(0.25, 0.5), EXACT) is N  # D.hi = −0.25 < 0
    assert at_least(Est(0.25, 0.25), EXACT) is N  # D.hi = −0.5 < 0
    # tol = 0.5 of the mean magnitude (3 + 1)/2 = 2: a slack of 1.
    assert at_least(Est(3.0, 3.0), EXACT, tol=0.5) is H  # D.lo = −1 ≥ −1
    assert at_least(Est(-3.0, 1.0), EXACT, tol=0.5) is N  # D.hi = −3 < −1
    assert at_least(Est(-3.0, 3.0), EXACT, tol=0.5) is Q  # D.hi = −1: not below −1
    assert at_least(Est(-3.0, 2.5), EXACT, tol=0.5) is N  # D.hi = −1.5
    assert at_least(BROKEN, EXACT) is Q and at_least(EXACT, BROKEN) is Q
    assert at_most(EXACT, Est(3.0, 3.0), tol=0.5) is H and at_most(EXACT, Est(3.0, 3.0)) is Q


def test_exceeds_and_below_boundaries() -> None:
    assert exceeds(Est(2.0, 1.0), EXACT) is Q  # D.lo = 0: not above 0
    assert exceeds(Est(2.5, 1.0), EXACT) is H
    assert exceeds(Est(0.5, 0.5), EXACT) is N  # D.hi = 0 ≤ 0
    b = Est(4.0, 0.0)  # margin 0.25 of |B| = 1
    assert exceeds(Est(6.0, 1.0), b, margin=0.25) is Q  # D.lo = 1: not above 1
    assert exceeds(Est(5.0, 0.0), b, margin=0.25) is N  # D = 1 exactly: not above 1
    assert below(Est(2.0, 1.0), b, margin=0.25) is Q  # B − A = 2 ± 1: lo = 1, not above 1
    assert below(Est(2.0, 0.5), b, margin=0.25) is H
    assert below(Est(3.0, 0.0), b, margin=0.25) is N  # B − A = 1 = 0.25·4
    assert exceeds(BROKEN, EXACT) is Q and below(BROKEN, EXACT) is Q


def test_approx_boundaries() -> None:
    # A = 3, B = 1: scale (3 + 1)/2 = 2, so tol 1 is a band of 2 and tol 0.5 one of 1.
    a = Est(3.0, 0.0)
    assert approx(Est(2.0, 0.0), Est(2.0, 0.0), tol=0.0) is H  # equal and exact: 0 ≤ 0
    assert approx(a, EXACT, tol=1.0) is H  # |D| + h = 2 ≤ 2
    assert approx(a, EXACT, tol=0.5) is N  # |D| − h = 2 > 1
    assert approx(Est(3.0, 1.0), EXACT, tol=0.5) is Q  # |D| − h = 1: not beyond 1
    assert approx(Est(1.0, -0.5), EXACT, tol=0.5) is Q  # an invalid interval decides nothing
    assert approx(BROKEN, EXACT, tol=10.0) is Q


def test_approx_value_boundaries() -> None:
    assert approx_value(Est(5.0, 1.0), 4.0, 0.5) is H  # dev 1 + 1 = 2 ≤ 2
    assert approx_value(Est(7.0, 1.0), 4.0, 0.5) is Q  # dev 3 − 1 = 2: not beyond 2
    assert approx_value(Est(7.5, 1.0), 4.0, 0.5) is N
    assert approx_value(Est(5.5, 1.0), 4.0, 0.5) is Q
    assert approx_value(Est(4.0, -1.0), 4.0, 0.5) is Q  # an invalid interval decides nothing
    assert approx_value(Est(4.0, 0.0), math.inf, 0.5) is Q


def test_within_boundaries() -> None:
    assert within(Est(2.0, 1.0), 1.0, 3.0) is H  # touching both ends is inside
    assert within(Est(0.5, 0.5), 1.0, 3.0) is Q  # hi = low: touching, not outside
    assert within(Est(3.5, 0.5), 1.0, 3.0) is Q  # lo = high
    assert within(Est(0.25, 0.5), 1.0, 3.0) is N and within(Est(4.0, 0.5), 1.0, 3.0) is N
    assert within(BROKEN, -10.0, 10.0) is Q


def test_significant_boundaries() -> None:
    assert significant(Est(1.0, 0.5), 0.5) is Q  # lo = 0.5: on the band's edge
    assert significant(Est(1.0, 0.25), 0.5) is H and significant(Est(-1.0, 0.25), 0.5) is H
    assert significant(Est(-1.0, 0.5), 0.5) is Q
    assert significant(Est(0.0, 0.5), 0.5) is N  # the whole CI inside [−0.5, 0.5]
    assert significant(Est(0.25, 0.25), 0.5) is N and significant(Est(0.25, 0.5), 0.5) is Q
    assert significant(Est(0.0, 0.0)) is N  # exactly zero, exactly known
    assert significant(Est(0.5, 0.25)) is H  # by default no band: any CI clear of 0
    assert significant(BROKEN, 0.0) is Q


def test_pointwise_and_conjunction_explain_themselves() -> None:
    verdicts = {1.0: H, 2.0: Q, 3.0: N}
    out = pointwise([1.0, 2.0], verdicts.__getitem__, describe=lambda x: f"[{x:g}]")
    assert out == Outcome(Q, "x=1:ok [1]; x=2:? [2]")
    assert pointwise([3.0], verdicts.__getitem__) == Outcome(N, "x=3:NO")
    assert pointwise([], verdicts.__getitem__) == Outcome(Q, "no points in the region the claim is about")
    both = conjunction({"low": Outcome(H, "a"), "high": Outcome(Q, "b")})
    assert both == Outcome(Q, "low: holds (a) | high: inconclusive (b)")


@pytest.mark.parametrize("rule", [at_least, exceeds, below, approx])
def test_invalid_inputs_are_inconclusive(rule: object) -> None:
    for a, b in ((BROKEN, EXACT), (EXACT, BROKEN), (Est(math.nan, 0.0), EXACT)):
        args = (a, b, 0.5) if rule is approx else (a, b)
        assert rule(*args) is Q  # type: ignore[operator]


def test_below_has_no_margin_by_default() -> None:
    # B − A = 0.5 exactly, |B| = 4: below at margin 0, not at any margin ≥ 1/8.
    assert below(Est(3.5, 0.0), Est(4.0, 0.0)) is H
    assert below(Est(3.5, 0.0), Est(4.0, 0.0), margin=0.125) is N
    assert exceeds(Est(4.5, 0.0), Est(4.0, 0.0)) is H


@pytest.mark.parametrize(("verdicts", "expected"), [
    ([], Q),          # nothing to check
    ([H], H), ([N, H], H), ([Q, H, N], H),  # any holding holds
    ([N], N), ([N, N], N),  # all failing fails
    ([N, Q], Q), ([Q], Q),  # neither
])
def test_any_of_is_the_disjunction(verdicts: list[Verdict], expected: Verdict) -> None:
    assert any_of(iter(verdicts)) is expected  # an iterator: read once


@pytest.mark.parametrize(("verdicts", "expected"), [
    ([], Q), ([H], H), ([H, H], H), ([H, N], N), ([Q, N], N), ([H, Q], Q),
])
def test_all_of_is_the_conjunction(verdicts: list[Verdict], expected: Verdict) -> None:
    assert all_of(iter(verdicts)) is expected
