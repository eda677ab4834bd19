"""Verdicts: estimates with 95% confidence intervals, and the rules that turn them into
*holds* / *does not hold* / *inconclusive* — and two statuses a claim's own check gives
when the data cannot speak to it at all, with its reason: *not exercised* (the claim's
mechanism never ran: its counter is zero, so more replications would not settle it) and
*not applicable* (the measure the claim is judged by does not apply under this reading).
Neither counts as holding or failing; tallies show them only when some claim has one.

Every claim of every study ends in one of these rules; nothing is hard-coded.
``A`` and ``B`` are estimates ``mean ± h``; ``D = A − B`` has half-width
``sqrt(h_A² + h_B²)``, which is conservative when the curves share random numbers and
are therefore positively correlated:

* ``at_least(A, B, tol)`` -- "A ≥ B": holds if ``D.lo ≥ −tol·s``, does not hold if
  ``D.hi < −tol·s``, otherwise inconclusive (``s`` = mean magnitude of A and B).
* ``exceeds(A, B, margin)`` -- "A > B" (by a relative margin): holds if
  ``D.lo > margin·|B|``, does not hold if ``D.hi ≤ margin·|B|``, else inconclusive.
* ``approx(A, B, tol)`` -- "A ≈ B": holds if the whole CI of ``D`` lies within
  ``±tol·s``, does not hold if the whole CI lies outside it, else inconclusive.
* ``significant(E, negligible)`` -- "E ≠ 0" (an effect): holds if the CI excludes
  ``[−negligible, negligible]``, does not hold if it lies inside it.
* Point verdicts are combined with :func:`all_of` (any failure fails, all holding holds)
  or :func:`any_of`; :func:`pointwise` applies a check along a grid and says where it
  failed.
* ``paired(A_values, B_values)`` -- the per-replication differences of two runs of one
  seed (common random numbers) and their t-interval: much tighter than ``A − B``'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from .student_t import t_quantile

class Verdict(str, Enum):
    """Outcome of checking one claim against simulated data."""

    HOLDS = "holds"
    DOES_NOT_HOLD = "does not hold"
    INCONCLUSIVE = "inconclusive"
    NOT_EXERCISED = "not exercised"
    NOT_APPLICABLE = "not applicable"

    def __str__(self) -> str:
        return self.value

    @property
    def settled(self) -> bool:
        """True for a verdict on the claim (holds, does not hold); the three others
        say only why there is none."""
        return self in (Verdict.HOLDS, Verdict.DOES_NOT_HOLD)


#: The statuses every tally shows; the others appear only when counted.
ALWAYS_TALLIED = (Verdict.HOLDS, Verdict.DOES_NOT_HOLD, Verdict.INCONCLUSIVE)


def tally(verdicts: Iterable[Verdict | str]) -> dict[str, int]:
    """Counts by verdict value: holds, does not hold and inconclusive always (in that
    order), not exercised and not applicable when some verdict has them."""
    values = [Verdict(v).value for v in verdicts]
    return {v.value: values.count(v.value) for v in Verdict if v in ALWAYS_TALLIED or v.value in values}


@dataclass(frozen=True)
class Outcome:
    """A verdict with a one-line explanation of the numbers behind it, the measured value
    for the claims table when the check states one (``measured``), and the relative
    deviations (A − B)/|B| of the compared points, computed from the data where the
    comparison is made (:func:`pointwise` with ``deviation``): the claims table's
    "measured" column reads these, never the prose of ``detail``."""

    verdict: Verdict
    detail: str = ""
    measured: str = ""
    deviations: tuple[float, ...] = ()


@dataclass(frozen=True)
class Est:
    """A point estimate with its 95% confidence half-width."""

    mean: float
    half: float
    n: int = 0

    @property
    def lo(self) -> float:
        return self.mean - self.half

    @property
    def hi(self) -> float:
        return self.mean + self.half

    @property
    def valid(self) -> bool:
        return math.isfinite(self.mean) and math.isfinite(self.half) and self.half >= 0

    def __sub__(self, other: Est) -> Est:
        return Est(self.mean - other.mean, math.hypot(self.half, other.half), min(self.n, other.n))

    def scaled(self, factor: float) -> Est:
        return Est(self.mean * factor, abs(self.half * factor), self.n)

    def __str__(self) -> str:
        return f"{self.mean:.4g}±{self.half:.2g}"


def t_interval(values: Iterable[float]) -> Est:
    """The mean of ``values`` (NaN dropped) with its 95 % Student-t half-width,
    t(0.975, n − 1)·s/√n (NaN for fewer than two values)."""
    xs = [v for v in values if math.isfinite(v)]
    n = len(xs)
    if n == 0:
        return Est(math.nan, math.nan, 0)
    mean = sum(xs) / n
    if n < 2:
        return Est(mean, math.nan, n)
    var = sum((v - mean) ** 2 for v in xs) / (n - 1)
    return Est(mean, t_quantile(n - 1, 0.975) * math.sqrt(var / n), n)


def paired(a: Iterable[float], b: Iterable[float]) -> Est:
    """A − B replication by replication (the two runs share their seed, so replication
    r of each sees the same random numbers): the t-interval of the differences of the
    first min(n_A, n_B) pairs, a pair with a NaN dropped."""
    return t_interval(x - y for x, y in zip(a, b))


def _scale(a: Est, b: Est) -> float:
    return (abs(a.mean) + abs(b.mean)) / 2.0


def at_least(a: Est, b: Est, tol: float = 0.0) -> Verdict:
    """A ≥ B, allowing A to fall short of B by ``tol`` (relative)."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    d = a - b
    slack = tol * _scale(a, b)
    if d.lo >= -slack:
        return Verdict.HOLDS
    if d.hi < -slack:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def at_most(a: Est, b: Est, tol: float = 0.0) -> Verdict:
    """A ≤ B, allowing A to exceed B by ``tol`` (relative)."""
    return at_least(b, a, tol)


def _above(d: Est, threshold: float) -> Verdict:
    """D > threshold, significant at 95%: holds if its whole interval is above."""
    if d.lo > threshold:
        return Verdict.HOLDS
    if d.hi <= threshold:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def exceeds(a: Est, b: Est, margin: float = 0.0) -> Verdict:
    """A > B·(1 + margin): strict, significant at 95%."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    return _above(a - b, margin * abs(b.mean))


def below(a: Est, b: Est, margin: float = 0.0) -> Verdict:
    """A < B·(1 − margin): strict, significant at 95%."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    return _above(b - a, margin * abs(b.mean))


def approx(a: Est, b: Est, tol: float) -> Verdict:
    """A ≈ B within a relative tolerance ``tol`` (equivalence test on the CI of A − B)."""
    if not (a.valid and b.valid):
        return Verdict.INCONCLUSIVE
    d = a - b
    band = tol * _scale(a, b)
    if abs(d.mean) + d.half <= band:
        return Verdict.HOLDS
    if abs(d.mean) - d.half > band:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def approx_value(a: Est, target: float, tol: float) -> Verdict:
    """A ≈ a known value (closed form) within relative tolerance ``tol`` of the value."""
    if not a.valid or not math.isfinite(target):
        return Verdict.INCONCLUSIVE
    band = tol * abs(target)
    dev = abs(a.mean - target)
    if dev + a.half <= band:
        return Verdict.HOLDS
    if dev - a.half > band:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def within(a: Est, low: float, high: float) -> Verdict:
    """low ≤ A ≤ high, with the whole CI inside (holds) or outside (does not hold)."""
    if not a.valid:
        return Verdict.INCONCLUSIVE
    if a.lo >= low and a.hi <= high:
        return Verdict.HOLDS
    if a.hi < low or a.lo > high:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def all_of(verdicts: Iterable[Verdict]) -> Verdict:
    """Conjunction: any failure fails; all holding holds; otherwise inconclusive.

    An empty set is inconclusive (there was nothing to check).
    """
    vs = list(verdicts)
    if not vs:
        return Verdict.INCONCLUSIVE
    if any(v is Verdict.DOES_NOT_HOLD for v in vs):
        return Verdict.DOES_NOT_HOLD
    if all(v is Verdict.HOLDS for v in vs):
        return Verdict.HOLDS
    return Verdict.INCONCLUSIVE


def any_of(verdicts: Iterable[Verdict]) -> Verdict:
    """Disjunction: any holding holds; all failing fails; otherwise inconclusive."""
    vs = list(verdicts)
    if not vs:
        return Verdict.INCONCLUSIVE
    if any(v is Verdict.HOLDS for v in vs):
        return Verdict.HOLDS
    if all(v is Verdict.DOES_NOT_HOLD for v in vs):
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE


def pointwise(
    xs: Iterable[float],
    check: Callable[[float], Verdict],
    *,
    combine: Callable[[Iterable[Verdict]], Verdict] = all_of,
    describe: Callable[[float], str] | None = None,
    deviation: Callable[[float], float] | None = None,
) -> Outcome:
    """Apply ``check`` at each x and combine; the detail lists every x with its verdict.
    ``deviation(x)``: the compared point's (A − B)/|B|, kept in :attr:`Outcome.deviations`."""
    parts: list[str] = []
    verdicts: list[Verdict] = []
    devs: list[float] = []
    for x in xs:
        v = check(x)
        verdicts.append(v)
        tag = {Verdict.HOLDS: "ok", Verdict.DOES_NOT_HOLD: "NO", Verdict.INCONCLUSIVE: "?"}[v]
        extra = f" {describe(x)}" if describe else ""
        parts.append(f"x={x:g}:{tag}{extra}")
        if deviation is not None:
            d = deviation(x)
            if math.isfinite(d):
                devs.append(d)
    if not verdicts:
        return Outcome(Verdict.INCONCLUSIVE, "no points in the region the claim is about")
    return Outcome(combine(verdicts), "; ".join(parts), deviations=tuple(devs))


def relative(a: float, b: float) -> float:
    """(a − b)/|b|, NaN when b is 0 or either is not finite."""
    return (a - b) / abs(b) if b and math.isfinite(a) and math.isfinite(b) else float("nan")


def conjunction(outcomes: Mapping[str, Outcome]) -> Outcome:
    """Combine named sub-outcomes with :func:`all_of`."""
    verdict = all_of(o.verdict for o in outcomes.values())
    detail = " | ".join(f"{k}: {o.verdict} ({o.detail})" for k, o in outcomes.items())
    return Outcome(verdict, detail, deviations=tuple(d for o in outcomes.values() for d in o.deviations))



def significant(e: Est, negligible: float = 0.0) -> Verdict:
    """E ≠ 0 beyond a negligible band ``±negligible`` (absolute), at 95%.

    Holds if the whole CI is outside the band, does not hold if the whole CI is inside
    it (the effect is negligible), else inconclusive. With ``negligible = 0`` an effect
    can be shown to exist but not to be absent (short of a CI that is exactly {0}).
    """
    if not e.valid:
        return Verdict.INCONCLUSIVE
    if e.lo > negligible or e.hi < -negligible:
        return Verdict.HOLDS
    if e.lo >= -negligible and e.hi <= negligible:
        return Verdict.DOES_NOT_HOLD
    return Verdict.INCONCLUSIVE
