"""The two statuses beside holds / does not hold / inconclusive: *not exercised* and
*not applicable* (python/arqlab/studies/verdicts.py). Neither is a verdict on the claim
(`settled` is false), tallies show them only when counted, the report draws them grey,
and the robustness screen labels them and counts them as no verdict."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from arqlab.report import verdict_class  # noqa: E402
from arqlab.studies import robustness  # noqa: E402
from arqlab.studies.verdicts import Verdict, tally  # noqa: E402


def test_only_holds_and_does_not_hold_are_settled() -> None:
    assert [v for v in Verdict if v.settled] == [Verdict.HOLDS, Verdict.DOES_NOT_HOLD]
    assert Verdict("not exercised") is Verdict.NOT_EXERCISED
    assert Verdict("not applicable") is Verdict.NOT_APPLICABLE


def test_tally_shows_the_new_statuses_only_when_counted() -> None:
    classic = [Verdict.HOLDS, Verdict.HOLDS, Verdict.INCONCLUSIVE]
    assert tally(classic) == {"holds": 2, "does not hold": 0, "inconclusive": 1}
    assert list(tally(classic)) == ["holds", "does not hold", "inconclusive"]
    mixed = [*classic, Verdict.NOT_EXERCISED, "not applicable", Verdict.NOT_APPLICABLE]
    assert tally(mixed) == {"holds": 2, "does not hold": 0, "inconclusive": 1, "not exercised": 1, "not applicable": 2}


def test_statuses_are_grey_in_the_report_and_labelled_in_the_robustness_screen() -> None:
    assert verdict_class("not exercised") == verdict_class("not applicable") == "v-other"
    assert verdict_class("does not hold") == "v-bad" and verdict_class("inconclusive") == "v-mixed"
    assert robustness.label(Verdict.NOT_EXERCISED, 0.0) == "not exercised at the study's values"
    assert robustness.label(Verdict.NOT_APPLICABLE, 1.0) == "not applicable at the study's values"
    assert robustness.label(Verdict.INCONCLUSIVE, 0.5) == robustness.INCONCLUSIVE_AT_STUDY_VALUES
