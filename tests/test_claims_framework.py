"""The claims framework cannot be wrong silently: a sensitivity variant that leaves a
curve the claim reads at its default data, although the variant changes that curve's
runs, is an error at plan time (issue 28, section 2)."""

from __future__ import annotations

import dataclasses

import pytest

from arqlab.studies import STUDIES, get_study
from arqlab.studies.data import StudyDefinitionError
from arqlab.studies.plan import plan_figure
from arqlab.studies.reproduce import check_variants


def _check(study, figures) -> None:  # type: ignore[no-untyped-def]
    settings = study.STUDY.settings_for(True)
    figs = {f.number: f for f in figures}
    plans = {n: plan_figure(f, settings) for n, f in figs.items()}
    check_variants(figs, list(figs), {n: p[0] for n, p in plans.items()}, [])


def test_colella_retransmission_claim_with_variants_that_skip_its_curves_is_a_plan_time_error() -> None:
    """Before issue 28 Figure 6's retransmission curves were added after its variants were
    defined, so "the gain comes from fewer retransmissions" printed the default numbers
    under every variant."""
    colella = get_study("colella")
    from arqlab.studies.colella.figures import _ack_sensitivities, fig6

    stale = dataclasses.replace(fig6(), sensitivities=_ack_sensitivities())
    with pytest.raises(StudyDefinitionError) as e:
        _check(colella, [stale])
    text = str(e.value)
    assert "claim fig6.fewer_retransmissions: sensitivity variant 'delay0.135' does not vary the curves " \
           "one_for_one_retx, selective_retx" in text
    assert "t1_1s" in text and "fig6.selective_better" not in text
    _check(colella, [fig6()])  # as the study defines it now: every read curve varied


def test_a_variant_unknown_to_the_claims_figure_is_a_plan_time_error() -> None:
    colella = get_study("colella")
    from arqlab.studies.colella.figures import fig7

    f = fig7()
    claim = dataclasses.replace(f.claims[0], sensitivity=("per_tsdu",))
    with pytest.raises(StudyDefinitionError, match="'per_tsdu' is not a variant of figure 7"):
        _check(colella, [dataclasses.replace(f, claims=(claim,))])


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_every_study_passes_the_plan_time_check(name: str) -> None:
    study = get_study(name)
    _check(study, study.STUDY.figures())


def test_reproduce_cli_reports_the_plan_time_error_with_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    import importlib

    from arqlab.cli import main

    cf = importlib.import_module("arqlab.studies.colella.figures")  # the package exports figures() under that name

    good = cf.fig6
    monkeypatch.setitem(cf.FIGURE_BUILDERS, 6, lambda: dataclasses.replace(good(), sensitivities=cf._ack_sensitivities()))
    rc = main(["reproduce", "colella", "--quick", "--figure", "6", "--no-store", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert rc == 2 and "fig6.fewer_retransmissions" in err and "Traceback" not in err


@pytest.mark.parametrize("on_base_xs,verdict", [(False, "holds"), (True, "inconclusive")])
def test_a_variant_scored_on_the_base_x_points_cannot_drop_a_point(on_base_xs: bool, verdict: str) -> None:
    """Issue 28 (Bux): a variant that ran only some x points was scored on those, so the
    point where the claim fails under it simply dropped out ("holds"). Scored on the
    base's x points, the point it did not run reads as missing: inconclusive, never holds."""
    import pandas as pd

    from arqlab.studies.artefacts.curves import FigureData
    from arqlab.studies.claims import every, rel
    from arqlab.studies.data import StudyData, evaluate_claim
    from arqlab.studies.spec import Claim, Curve, Figure, Sensitivity
    from arqlab.studies.verdicts import exceeds

    claim = Claim("t.a_above_b", "t", "a > b at every x", rel(1, "a", "b", every("a"), exceeds), figure=1,
                  sensitivity=("v",))
    fig = Figure(1, "t", {}, "x", "y", "m", (1.0, 2.0, 3.0), (1.0, 2.0, 3.0), lambda x: {},
                 (Curve("a", "a", "d"), Curve("b", "b", "d")), claims=(claim,),
                 sensitivities=(Sensitivity("v", "v", ("a",), xs=(1.0, 2.0), quick_xs=(1.0, 2.0), on_base_xs=on_base_xs),))
    rows = [("a", "", x, 2.0) for x in (1.0, 2.0, 3.0)] + [("b", "", x, 1.0) for x in (1.0, 2.0, 3.0)] \
        + [("a", "v", x, 2.0) for x in (1.0, 2.0)]  # under v, a would fall below b at x = 3: not run
    frame = pd.DataFrame([{"curve": c, "variant": v, "x": x, "y": y, "y_ci95_half_width": 0.01, "n": 5}
                          for c, v, x, y in rows])
    res = evaluate_claim(claim, StudyData({1: FigureData(fig, frame)}))
    assert res is not None and res.verdict.value == "holds"
    assert res.sensitivity[0]["verdict"] == verdict, res.sensitivity[0]["detail"]


def test_model_checks_are_labelled_and_counted_apart_from_the_papers_claims(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 28, section 2: a claim that checks the model against itself (its own closed
    form) is labelled `model check` and does not enter the paper's verdict counts."""
    import json

    from arqlab.studies.data import ClaimResult
    from arqlab.studies.output import write_claims
    from arqlab.studies.verdicts import Verdict

    results = [ClaimResult("p.holds", 1, "s", "a paper claim", Verdict.HOLDS, ""),
               ClaimResult("p.fails", 1, "s", "another", Verdict.DOES_NOT_HOLD, ""),
               ClaimResult("m.bound", 1, "s", "arqlab: the model on its own bound", Verdict.DOES_NOT_HOLD, "",
                           origin="model check")]
    jpath, mpath = write_claims(results, tmp_path, title="t", quick=True)
    payload = json.loads(jpath.read_text())
    assert payload["counts"] == {"holds": 1, "does not hold": 1, "inconclusive": 0}
    assert payload["counts_by_origin"]["model check"] == {"holds": 0, "does not hold": 1, "inconclusive": 0}
    md = mpath.read_text()
    assert "| `m.bound` | model check |" in md
    assert "paper: 1 holds, 1 does not hold, 0 inconclusive; model check: 0 holds, 1 does not hold" in md
