"""Analysis of a 2^k r or 2^(k−p) r design (Jain 1991, ch. 17–19).

With N = 2^(k−p) runs of r replications each, run means ȳ_i and the sign-table column x
of an effect, the effect is q = Σ x_i ȳ_i / N (§17.4, §18.2). Its sum of squares is
SS = N r q² and the total variation SST = Σ_ij (y_ij − ȳ)² splits into the effects' SS and
the error SSE = Σ_ij (y_ij − ȳ_i)² (§17.5, §18.4); an effect "explains" 100·SS/SST percent.
With r > 1 the error variance s_e² = SSE / (N(r−1)) gives every effect the standard
deviation s_e/√(Nr) and the interval q ± t[1−α/2; N(r−1)] · s_e/√(Nr) (§18.5). ``log``
analyses log10 y: the multiplicative model of §18.7, for responses whose effects scale
with their level (a time that doubles rather than grows by a constant).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from arqlab.design.algebra import Design, DesignError
from arqlab.studies.student_t import t_quantile

if TYPE_CHECKING:
    import pandas as pd

EFFECT_COLUMNS: tuple[str, ...] = (
    "response", "transform", "effect", "label", "order", "aliases", "q", "sign", "sum_of_squares",
    "variation_pct", "ci_low", "ci_high", "significant",
)


def _checked(design: Design, observations: Sequence[Sequence[float]], log: bool,
             confidence: float) -> list[list[float]]:
    problems: list[str] = []
    if len(observations) != design.n_runs:
        raise DesignError([f"observations: {len(observations)} runs given, the design has {design.n_runs}"])
    counts = {len(run) for run in observations}
    if len(counts) != 1 or 0 in counts:
        raise DesignError([f"observations: every run needs the same number (≥ 1) of replications, "
                           f"got {[len(run) for run in observations]}"])
    if not 0.0 < confidence < 1.0:
        problems.append(f"confidence = {confidence!r}: expected a number in (0, 1)")
    ys: list[list[float]] = []
    for i, run in enumerate(observations):
        row = []
        for j, value in enumerate(run):
            y = float(value)
            if not math.isfinite(y):
                problems.append(f"observations[{i}][{j}] = {y}: expected a finite number")
            elif log and y <= 0.0:
                problems.append(f"observations[{i}][{j}] = {y}: the log transform needs positive values")
            row.append(math.log10(y) if log and math.isfinite(y) and y > 0.0 else y)
        ys.append(row)
    if problems:
        raise DesignError(problems)
    return ys


def _sign(q: float) -> str:
    return "+" if q > 0 else "-" if q < 0 else "0"


def analyse(design: Design, observations: Sequence[Sequence[float]], *, log: bool = False,
            confidence: float = 0.95, response: str = "") -> pd.DataFrame:
    """The effects table of ``design`` for ``observations[i]`` = the replications of run i
    (in :meth:`Design.runs` order): one row for the mean ``I``, one per estimable effect,
    and one for ``error`` when there are replications. Columns: :data:`EFFECT_COLUMNS`."""
    import pandas as pd

    ys = _checked(design, observations, log, confidence)
    n, r = design.n_runs, len(ys[0])
    means = [math.fsum(run) / r for run in ys]
    sse = math.fsum((y - m) ** 2 for run, m in zip(ys, means) for y in run)
    dof = n * (r - 1)
    s_q = math.sqrt(sse / dof) / math.sqrt(n * r) if dof > 0 else math.nan
    half = t_quantile(dof, 1.0 - (1.0 - confidence) / 2.0) * s_q if dof > 0 else math.nan
    effects = ["I", *design.effects()]
    qs = {e: math.fsum(x * m for x, m in zip(design.column(e), means)) / n for e in effects}
    ss = {e: n * r * q * q for e, q in qs.items()}
    sst = math.fsum(v for e, v in ss.items() if e != "I") + sse
    rows: list[dict[str, Any]] = []
    for e in effects:
        q = qs[e]
        rows.append(dict(
            effect=e, label=design.label(e), order=len(e) if e != "I" else 0,
            aliases="; ".join(design.aliases(e)),  # for I: the defining relation's words
            q=q, sign=_sign(q), sum_of_squares=ss[e],
            variation_pct=100.0 * ss[e] / sst if e != "I" and sst > 0 else math.nan,
            ci_low=q - half, ci_high=q + half,
            significant=None if dof == 0 else not (q - half <= 0.0 <= q + half),
        ))
    if dof > 0:
        # The error has no order, estimate, interval or significance: those cells stay
        # missing (NaN / <NA>) in the table.
        rows.append(dict(effect="error", label="error", aliases="", sign="",
                         sum_of_squares=sse, variation_pct=100.0 * sse / sst if sst > 0 else math.nan))
    table = pd.DataFrame(rows)
    table["transform"] = "log10" if log else "none"
    table["response"] = response  # (the column order is EFFECT_COLUMNS', set below)
    table["order"] = table["order"].astype("Int64")
    table["significant"] = table["significant"].astype("boolean")
    table = table[list(EFFECT_COLUMNS)].copy()
    table.attrs.update(replications=r, runs=n, error_dof=dof, confidence=confidence,
                       s_e=math.sqrt(sse / dof) if dof > 0 else math.nan, sst=sst)
    return table
