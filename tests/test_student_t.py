"""Student-t quantiles (``arqlab.studies.student_t``) against independent numbers: printed
tables, the edge cases of the domain, and the known order of the Cornish–Fisher series'
truncation error."""

from __future__ import annotations

import math

import pytest

from arqlab.studies import student_t
from arqlab.studies.student_t import _cornish_fisher, t95, t_quantile, two_sided_probability

# Percentage points of Student's t as printed in the usual tables (e.g. Jain 1991,
# Table A.4; Abramowitz & Stegun Table 26.10), three decimals: (df, p, t).
TABLE = [
    (1, 0.975, 12.706), (2, 0.975, 4.303), (4, 0.975, 2.776), (9, 0.975, 2.262), (30, 0.975, 2.042),
    (120, 0.975, 1.980), (8, 0.95, 1.860), (5, 0.90, 1.476), (30, 0.995, 2.750), (5, 0.75, 0.727),
    (3, 0.60, 0.277),
]


@pytest.mark.parametrize(("df", "p", "t"), TABLE)
def test_quantiles_match_the_printed_tables(df: int, p: float, t: float) -> None:
    assert round(t_quantile(df, p), 3) == t
    assert round(t_quantile(df, 1.0 - p), 3) == -t  # symmetric about 0


def test_two_sided_probability_inverts_the_quantile() -> None:
    for df in (1, 2, 3, 6, 7, 50):  # odd and even degrees of freedom take different series
        for p in (0.6, 0.9, 0.975):
            assert two_sided_probability(t_quantile(df, p), df) == pytest.approx(2 * p - 1, abs=1e-12)
    assert two_sided_probability(1.0, 1) == pytest.approx(0.5)  # Cauchy: P(|T| ≤ 1) = 1/2


def test_domain_edges() -> None:
    assert t_quantile(3, 0.0) == -math.inf and t_quantile(3, 1.0) == math.inf
    for p in (-0.1, 1.5, math.nan):
        assert math.isnan(t_quantile(3, p))
    assert math.isnan(t_quantile(0, 0.9)) and math.isnan(t_quantile(-2, 0.9))
    assert t_quantile(7, 0.5) == 0.0


def test_exact_and_series_meet_at_large_df() -> None:
    """Above LARGE_DF the series replaces the exact inversion; at the switch they agree to
    rounding, so where the switch sits does not show in any interval."""
    assert student_t.LARGE_DF == 1000
    for p in (0.6, 0.975, 0.995):
        assert _cornish_fisher(1000.0, p) == pytest.approx(t_quantile(1000, p), abs=1e-13)
        assert t_quantile(1001, p) < t_quantile(1000, p) < t_quantile(999, p)  # decreasing in df


@pytest.mark.parametrize("p", [0.9, 0.975, 0.995])
def test_cornish_fisher_error_is_of_order_nu_to_the_minus_5(p: float) -> None:
    """A&S 26.7.5 keeps the terms to ν^−4, so its error against the exact quantile is the
    first omitted term, c/ν^5: the scaled error ν^5·(CF − exact) settles to a constant as
    ν doubles. A wrong coefficient in any kept term would leave an error of order ν^−4
    or larger, whose scaled error grows with ν instead."""
    scaled = []
    for nu in (40, 80, 160):
        exact = _exact(nu, p)
        scaled.append((_cornish_fisher(float(nu), p) - exact) * nu ** 5)
    assert scaled[0] < 0  # the series falls short of the exact quantile in this range
    assert scaled[1] == pytest.approx(scaled[0], rel=0.03)
    assert scaled[2] == pytest.approx(scaled[1], rel=0.03)


def _exact(df: int, p: float) -> float:
    """The exact inversion, even above LARGE_DF (to judge the series)."""
    target = 2 * p - 1
    lo, hi = 0.0, 64.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if two_sided_probability(mid, df) < target:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def test_t95_is_the_0975_quantile() -> None:
    assert t95(4) == t_quantile(4, 0.975) and round(t95(4), 3) == 2.776
