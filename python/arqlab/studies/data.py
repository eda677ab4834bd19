"""A reproduction's results as claims see them, and claim evaluation."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .artefacts.curves import FigureData
from .spec import Claim
from .verdicts import Outcome, Verdict


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
    #: The measured value computed by the claim from the data ("" if it gives none).
    measured: str = ""

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["verdict"] = self.verdict.value
        if self.origin == "paper":
            del d["origin"]
        if not self.measured:
            del d["measured"]
        return d


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
                      origin=claim.origin, measured=out.measured)
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
                                    **({"measured": sout.measured} if sout.measured else {})})
    return res

