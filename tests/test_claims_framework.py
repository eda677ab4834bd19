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
