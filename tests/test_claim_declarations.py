"""Each study's claim declarations against what its claims do (issue 31: a declaration
mutated must be caught, not only a check). A claim's ``figure`` and ``needs`` are the
figures without which it is not evaluated: given only those, its check must run (a
wrong or missing figure reads data that is not there). Every sensitivity variant a
claim names must be a variant of its figure that varies the curves it reads. In
Colella's study every paper claim of a figure is re-evaluated under every variant that
applies to it and the model checks (closed forms of the model itself) under none; in
Johnson's, every claim of Figures 1 and 3. Planned points with synthetic values; no
simulation runs."""

from __future__ import annotations

import dataclasses
import importlib
from functools import cache
from types import ModuleType

import pytest

from arqlab.studies import framework as fw
from arqlab.studies.artefacts.curves import FigureData
from arqlab.studies.data import StudyData, inapplicable_variants
from arqlab.studies.plan import tabulate
from arqlab.studies.spec import Claim, Figure

STUDIES = ("bux1982", "colella", "johnson", "comer_korb", "biersack")


def study(name: str) -> ModuleType:
    return importlib.import_module(f"arqlab.studies.{name}")


@cache
def planned(name: str) -> tuple[dict[int, Figure], dict[int, object]]:
    """Every figure of the study and its quick plan's points, each with a finite value
    (1 + i/16 for the i-th point: the checks that fit effects need finite, unequal
    observations)."""
    figures = {f.number: f for f in study(name).figures()}
    frames = {}
    for n, f in figures.items():
        points, _, _ = fw.plan_figure(f, fw.RunSettings(quick=True))
        frame = tabulate(f, points, {})
        frame["y"] = [1.0 + i / 16 for i in range(len(frame))]
        frame["y_ci95_half_width"] = 0.0
        frame["n"] = 5
        frames[n] = frame
    return figures, frames


def data(name: str, numbers: set[int]) -> StudyData:
    figures, frames = planned(name)
    return StudyData({n: FigureData(figures[n], frames[n]) for n in numbers})  # type: ignore[arg-type]


def claims(name: str) -> list[Claim]:
    return [c for f in study(name).figures() for c in f.claims] + list(study(name).study_claims())


def declared(c: Claim) -> set[int]:
    return set(c.needs) | ({c.figure} if c.figure is not None else set())


@pytest.mark.parametrize("name", STUDIES)
def test_every_claim_runs_on_exactly_the_figures_it_declares(name: str) -> None:
    figures, _ = planned(name)
    for c in claims(name):
        assert declared(c), f"{c.id}: neither a figure nor needs"
        assert declared(c) <= set(figures), f"{c.id}: declares {sorted(declared(c))}, the study has {sorted(figures)}"
        c.check(data(name, declared(c)))  # a figure read but not declared is a KeyError


@pytest.mark.parametrize("name", STUDIES)
def test_every_sensitivity_variant_is_one_of_the_claims_figure_and_varies_what_it_reads(name: str) -> None:
    figures, _ = planned(name)
    for c in claims(name):
        assert c.figure is not None or not c.sensitivity, f"{c.id}: variants without a figure"
        assert len(set(c.sensitivity)) == len(c.sensitivity), c.id
    assert inapplicable_variants(claims(name), figures, data(name, set(figures))) == []


def applicable(name: str, c: Claim) -> set[str]:
    """The variants of the claim's figure that vary every curve it reads."""
    figures, _ = planned(name)
    sd = data(name, set(figures))
    assert c.figure is not None
    return {v.name for v in figures[c.figure].sensitivities
            if not inapplicable_variants([dataclasses.replace(c, sensitivity=(v.name,))], figures, sd)}


def test_colella_paper_claims_under_every_applicable_variant_model_checks_under_none() -> None:
    figure_claims = [c for f in study("colella").figures() for c in f.claims]
    assert {c.origin for c in figure_claims} == {"paper", "model check"}
    for c in figure_claims:
        assert c.id.startswith(f"fig{c.figure}."), f"{c.id} is declared on Fig. {c.figure}"
        want = applicable("colella", c) if c.origin == "paper" else set()
        assert set(c.sensitivity) == want, c.id
    assert all(c.figure is None and c.id.startswith(("abstract.",)) for c in study("colella").study_claims())


def test_johnson_figure_1_and_3_claims_under_every_applicable_variant_figure_2_under_some() -> None:
    by_figure: dict[int, list[Claim]] = {}
    for f in study("johnson").figures():
        for c in f.claims:
            assert c.figure == f.number, c.id
            by_figure.setdefault(f.number, []).append(c)
    assert sorted(by_figure) == [1, 2, 3]
    for n in (1, 3):
        for c in by_figure[n]:
            assert set(c.sensitivity) == applicable("johnson", c), c.id
    for c in by_figure[2]:
        assert c.sensitivity and set(c.sensitivity) < applicable("johnson", c), c.id
        # Fig. 2's variants are those every figure has.
        assert all(v in (s.name for s in f.sensitivities) for v in c.sensitivity for f in study("johnson").figures())


@pytest.mark.parametrize("name", STUDIES)
def test_every_claim_states_its_sentence_and_names_its_section(name: str) -> None:
    """claims.md prints each claim's section and statement beside its verdict: neither
    may be missing or blank."""
    for c in claims(name):
        assert isinstance(c.section, str) and c.section.strip(), f"{c.id}: section {c.section!r}"
        assert isinstance(c.statement, str) and c.statement.strip(), f"{c.id}: statement {c.statement!r}"


def test_biersack_claims_under_every_applicable_variant_except_figure_6s_own() -> None:
    """Fig. 6's variants are the data its claims read (the ranking per variant, the T1
    steps); every other figure's claims are re-evaluated under every variant that
    applies to them (Fig. 7: the REJ after a discard)."""
    for f in study("biersack").figures():
        for c in f.claims:
            assert c.figure == f.number, c.id
            if f.number != 6:
                assert set(c.sensitivity) == applicable("biersack", c), c.id


ORIGINS = ("paper", "extrapolation", "inference", "model check")  # spec.Claim.origin's docstring


@pytest.mark.parametrize("name", STUDIES)
def test_every_claims_origin_is_one_the_tables_count_and_an_inference_says_so(name: str) -> None:
    """Only "paper" claims count as the paper's, the others are counted apart: an origin
    outside the four is counted nowhere. A statement that opens "Inference" is the
    reproduction's own reading, and an inference's statement says it is."""
    for c in claims(name):
        assert c.origin in ORIGINS, f"{c.id}: origin {c.origin!r}"
        assert (c.origin == "inference") == c.statement.startswith("Inference"), f"{c.id}: {c.origin}"
