"""A reproduction's results as claims see them, and claim evaluation."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ArqlabError
from .artefacts.curves import FigureData
from .spec import Claim, Figure
from .verdicts import Outcome, Verdict


class StudyDefinitionError(ArqlabError, ValueError):
    """A study whose declarations contradict each other (a claim's sensitivity variant
    that does not vary the curves the claim reads): found at plan time, before any run."""


class StudyData:
    """Results of all figures run so far, keyed by figure number."""

    def __init__(self, figures: Mapping[int, FigureData]) -> None:
        self.figures = dict(figures)

    def __getitem__(self, number: int) -> FigureData:
        return self.figures[number]

    def __contains__(self, number: int) -> bool:
        return number in self.figures

    def with_variant(self, number: int, variant: str) -> StudyData:
        figs = dict(self.figures)
        figs[number] = figs[number].with_variant(variant)
        return StudyData(figs)


@dataclass
class ClaimResult:
    """One evaluated claim: its verdict, the numbers behind it, and its sensitivity variants."""

    id: str
    figure: int | None
    section: str
    statement: str
    verdict: Verdict
    detail: str
    sensitivity: list[dict[str, str]] = field(default_factory=list)
    origin: str = "paper"
    #: The measured value the claim's check states from the data (:attr:`Outcome.measured`).
    value: str = ""
    #: (A − B)/|B| of every compared point, from the data (:attr:`Outcome.deviations`).
    deviations: tuple[float, ...] = ()

    @property
    def measured(self) -> str:
        """The value behind the verdict in one cell, computed from the data: the check's
        own (:attr:`value`), else the range of the compared points' deviations
        (:func:`deviation_range`); "" when the claim gives neither."""
        return self.value or deviation_range(self.deviations)

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["deviations"] = list(self.deviations)
        d["measured"] = self.measured
        del d["value"]  # (carried by "measured")
        d["verdict"] = self.verdict.value
        if self.origin == "paper":
            del d["origin"]
        if not self.measured:
            del d["measured"]
        return d


def deviation_range(devs: Sequence[float]) -> str:
    """``(A−B)/B +1.2%`` or ``(A−B)/B −3.0% … +4.5% (n pts)`` of computed deviations."""
    if not devs:
        return ""
    lo, hi = min(devs), max(devs)
    if len(devs) == 1:
        return f"(A−B)/B {100 * lo:+.1f}% (1 pt)"
    return f"(A−B)/B {100 * lo:+.1f}% … {100 * hi:+.1f}% ({len(devs)} pts)"


def curves_read(claim: Claim, data: StudyData) -> set[str]:
    """The curves of the claim's own figure that its check looks up on ``data`` (recorded
    by :class:`FigureData`; a check that fails on missing values still records what it
    reached)."""
    assert claim.figure is not None
    figs = {n: FigureData(fd.figure, fd.frame, fd.variant, fd.observed) for n, fd in data.figures.items()}
    try:
        claim.check(StudyData(figs))
    except (KeyError, ValueError, ZeroDivisionError, TypeError, StopIteration):
        pass
    return figs[claim.figure].read


def inapplicable_variants(claims: Sequence[Claim], figures: Mapping[int, Figure], data: StudyData) -> list[str]:
    """Every (claim, sensitivity variant) pair where the claim reads a curve that the
    variant does not vary although it is read from the same simulations as a curve the
    variant does vary (another measure or direction of those runs, say): the variant
    changes those runs, so under it the claim would read that curve's default data and
    report it as the variant's. A curve on runs of its own that the variant leaves alone
    is a fixed reference and fine. Also a variant that is not one of the claim's figure.
    ``data`` holds the planned points (values may be missing); one message per pair."""
    problems = []
    for claim in claims:
        if claim.figure is None or not claim.sensitivity:
            continue
        fig = figures[claim.figure]
        frame = data[claim.figure].frame
        base = frame[frame["variant"] == ""]
        by_name = {s.name: s for s in fig.sensitivities}
        read = curves_read(claim, data)
        for name in claim.sensitivity:
            sens = by_name.get(name)
            if sens is None:
                problems.append(f"claim {claim.id}: sensitivity variant {name!r} is not a variant of figure "
                                f"{claim.figure} (variants: {', '.join(by_name) or 'none'})")
                continue
            varied_runs = set(base[base["curve"].isin(sens.curves)]["run"])
            stale = sorted(c for c in read - set(sens.curves)
                           if not varied_runs.isdisjoint(base[base["curve"] == c]["run"]))
            if stale:
                problems.append(f"claim {claim.id}: sensitivity variant {name!r} does not vary the curves "
                                f"{', '.join(stale)} that the claim reads, although they come from the runs the "
                                f"variant changes; the claim would read their default data under it (add them to "
                                f"the variant)")
    return problems


def evaluate_claim(claim: Claim, data: StudyData) -> ClaimResult | None:
    """Evaluate a claim (and its sensitivity variants); None if a needed figure was not run."""
    needs = set(claim.needs) | ({claim.figure} if claim.figure is not None else set())
    if any(n not in data for n in needs):
        return None
    try:
        out = claim.check(data)
    except (KeyError, ValueError, ZeroDivisionError) as exc:  # data missing for a curve
        out = Outcome(Verdict.INCONCLUSIVE, f"could not evaluate: {exc}")
    res = ClaimResult(claim.id, claim.figure, claim.section, claim.statement, out.verdict, out.detail,
                      origin=claim.origin, value=out.measured, deviations=out.deviations)
    if claim.figure is not None:
        available = data[claim.figure].variants()
        for name in claim.sensitivity:
            if name not in available:
                continue
            try:
                sout = claim.check(data.with_variant(claim.figure, name))
            except (KeyError, ValueError, ZeroDivisionError) as exc:
                sout = Outcome(Verdict.INCONCLUSIVE, f"could not evaluate: {exc}")
            res.sensitivity.append({"variant": name, "verdict": sout.verdict.value, "detail": sout.detail,
                                    "measured": sout.measured or deviation_range(sout.deviations)})
    return res

