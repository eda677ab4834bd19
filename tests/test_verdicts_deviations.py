"""The relative deviations behind the claims table's "measured" column (issue 31):
``relative`` at each edge of its domain, and the deviations :func:`pointwise` and
:func:`conjunction` carry (non-finite ones dropped, none invented)."""

from __future__ import annotations

import math

import pytest

from arqlab.studies.verdicts import Outcome, Verdict, conjunction, pointwise, relative

H, N = Verdict.HOLDS, Verdict.DOES_NOT_HOLD


@pytest.mark.parametrize(("a", "b", "expected"), [
    (3.0, 2.0, 0.5),      # above: positive
    (1.0, 2.0, -0.5),     # below: negative (the direction of the ratio)
    (1.0, -2.0, 1.5),     # divided by |B|: (1 + 2)/2, not (1 + 2)/(−2)
    (-3.0, -2.0, -0.5),   # (−3 + 2)/2
    (2.0, 2.0, 0.0),
])
def test_relative_is_a_minus_b_over_abs_b(a: float, b: float, expected: float) -> None:
    assert relative(a, b) == expected


@pytest.mark.parametrize(("a", "b"), [(1.0, 0.0), (0.0, 0.0), (math.inf, 1.0), (1.0, math.inf),
                                      (math.nan, 1.0), (1.0, math.nan), (-math.inf, 2.0)])
def test_relative_is_nan_where_undefined(a: float, b: float) -> None:
    assert math.isnan(relative(a, b))


def test_relative_is_defined_with_only_a_at_zero_or_tiny_b() -> None:
    assert relative(0.0, 2.0) == -1.0
    assert relative(1.0, 1e-300) == (1.0 - 1e-300) / 1e-300


def test_pointwise_keeps_the_finite_deviations_in_order() -> None:
    devs = {1.0: 0.25, 2.0: math.nan, 3.0: -0.5, 4.0: math.inf}
    out = pointwise([1.0, 2.0, 3.0, 4.0], lambda x: H, deviation=devs.__getitem__)
    assert out.deviations == (0.25, -0.5)
    assert out.verdict is H and out.detail == "x=1:ok; x=2:ok; x=3:ok; x=4:ok"
    assert pointwise([1.0], lambda x: N).deviations == ()  # none asked, none given


def test_conjunction_carries_every_part_s_deviations() -> None:
    out = conjunction({"low": Outcome(H, "a", deviations=(0.1,)), "high": Outcome(H, "b", deviations=(-0.2, 0.3))})
    assert out.verdict is H and out.deviations == (0.1, -0.2, 0.3)
    assert out.detail == "low: holds (a) | high: holds (b)"
