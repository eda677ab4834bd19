"""Student-t quantiles for intervals computed in Python (factorial effects).

The simulator's own intervals come from Rust (``arqlab._core.interval``); an effect of a
factorial experiment is a contrast of run means whose degrees of freedom are the pooled
replication ones, so it needs the quantile itself. This follows the core's rule
(``crates/arqlab/src/stats/ci.rs``): the exact t distribution up to 1000 degrees of
freedom, the Cornish–Fisher series (Abramowitz & Stegun 26.7.5) beyond.

The exact CDF is the finite series of Abramowitz & Stegun 26.7.3–26.7.4 for integer
degrees of freedom, inverted by bisection to double precision.
"""

from __future__ import annotations

import math
from statistics import NormalDist

LARGE_DF = 1000


def two_sided_probability(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with ``df`` ≥ 1 degrees of freedom, t ≥ 0."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df - 1, 2):
            term *= (k - 1) / k * c2
            total += term
        return math.sin(theta) * total
    if df == 1:
        return 2.0 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(3, df - 1, 2):
        term *= (k - 1) / k * c2
        total += term
    return 2.0 / math.pi * (theta + math.sin(theta) * total)


def _cornish_fisher(nu: float, p: float) -> float:
    z = NormalDist().inv_cdf(p)
    z2 = z * z
    g1 = z * (z2 + 1.0) / 4.0
    g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0
    g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0
    g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0
    return z + (g1 + (g2 + (g3 + g4 / nu) / nu) / nu) / nu


def t_quantile(df: int, p: float) -> float:
    """The ``p``-quantile of Student's t with ``df`` degrees of freedom.

    ``df = 0`` or ``p`` outside [0, 1] gives NaN; ``p = 0`` and ``p = 1`` give ∓∞.
    """
    if df < 1 or math.isnan(p) or not 0.0 <= p <= 1.0:
        return math.nan
    if p == 0.0:
        return -math.inf
    if p == 1.0:
        return math.inf
    if p == 0.5:
        return 0.0
    if df > LARGE_DF:
        return _cornish_fisher(float(df), p)
    target = abs(2.0 * p - 1.0)
    lo, hi = 0.0, 1.0
    while two_sided_probability(hi, df) < target:
        lo, hi = hi, 2.0 * hi
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if two_sided_probability(mid, df) < target:
            lo = mid
        else:
            hi = mid
    t = 0.5 * (lo + hi)
    return t if p > 0.5 else -t


def t95(df: int) -> float:
    """The two-sided 95% multiplier t(df, 0.975)."""
    return t_quantile(df, 0.975)
