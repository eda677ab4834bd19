"""Claim robustness (arqlab.studies.robustness) on a synthetic study whose answer is
known: no compiled core, a runner that computes y from the scenario."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from arqlab.studies.plan import RunRequest
from arqlab.studies.robustness import (
    FAILS_ROBUSTLY,
    HOLDS_AT_STUDY_VALUES,
    HOLDS_ROBUSTLY,
    label,
    robustness,
    study_params,
)
from arqlab.studies.robustness_output import SECTION, write_robustness
from arqlab.studies.verdicts import Verdict

# A study with one figure: y(x) = GAIN·x + link.delay_s. Claims: "y(1) > 0" (holds for
# every GAIN in [0.5, 2]), "y(1) > 1.5" (holds where GAIN + delay > 1.5, about 40% of the
# space), "y(1) > 10" (never; labelled a model check, counted apart). GAIN is read through a param: input, delay through a key path.
PARAMS = '''
from arqlab.studies.spec import UncertainInput
GAIN = 1.0
UNCERTAIN_INPUTS = (
    UncertainInput("gain", "param:GAIN", GAIN, "synthetic", low=0.5, high=2.0),
    UncertainInput("delay", "link.delay_s", 0.1, "synthetic", low=0.0, high=0.2),
)
'''
INIT = '''
from arqlab.studies.reproduce import StudyPackage
from arqlab.studies.spec import Claim, Curve, Figure
from arqlab.studies.verdicts import Est, Outcome, Verdict
from .params import GAIN


def _above(threshold):
    def check(sd):
        e = sd[1].est("y", 1.0)
        return Outcome(Verdict.HOLDS if e.mean > threshold else Verdict.DOES_NOT_HOLD, f"y(1) = {e}")
    return check


def figures():
    base = {"run": {"replications": 2}, "link": {"delay_s": 0.1}, "gain": GAIN}
    claims = (Claim("toy.positive", "t", "y(1) > 0", _above(0.0), figure=1),
              Claim("toy.above_1_5", "t", "y(1) > 1.5", _above(1.5), figure=1),
              Claim("toy.above_10", "t", "y(1) > 10", _above(10.0), figure=1, origin="model check"))
    return [Figure(1, "toy", base, "x", "y", "m", (1.0,), (1.0,), lambda x: {"x": x},
                   (Curve("y", "y", "d"),), claims=claims)]


STUDY = StudyPackage("toy", "Toy", "toy", "Study", figures, lambda: [], quick_replications=2, full_precision=0.1)
'''


@pytest.fixture()
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    pkg = tmp_path / "toystudy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(INIT))
    (pkg / "params.py").write_text(textwrap.dedent(PARAMS))
    monkeypatch.syspath_prepend(str(tmp_path))
    for m in [m for m in sys.modules if m.startswith("toystudy")]:
        del sys.modules[m]
    return importlib.import_module("toystudy")


def runner(req: RunRequest) -> dict[str, Any]:
    y = req.scenario["gain"] * req.scenario["x"] + req.scenario["link"]["delay_s"]
    return {"d": {"m": {"mean": y, "ci95_half_width": 0.0, "n": 2}}}


def test_labels_follow_the_verdict_at_the_study_values_and_the_share() -> None:
    assert label(Verdict.HOLDS, 0.95) == HOLDS_ROBUSTLY
    assert label(Verdict.HOLDS, 0.5) == HOLDS_AT_STUDY_VALUES
    assert label(Verdict.DOES_NOT_HOLD, 0.05) == FAILS_ROBUSTLY
    assert label(Verdict.DOES_NOT_HOLD, 0.5) == "fails at the study's values only"
    assert label(Verdict.INCONCLUSIVE, 1.0) == "inconclusive at the study's values"


def test_study_params_rebinds_every_copy_and_restores_it(toy: Any) -> None:
    with study_params("toystudy", {"GAIN": 3.0}):
        assert toy.GAIN == 3.0 and sys.modules["toystudy.params"].GAIN == 3.0
    assert toy.GAIN == 1.0 and sys.modules["toystudy.params"].GAIN == 1.0
    with pytest.raises(ValueError, match="param:GAINS: toystudy.params has no GAINS"):
        with study_params("toystudy", {"GAINS": 3.0}):
            pass


@pytest.mark.parametrize("method", ["morris", "sobol"])
def test_robustness_measures_the_share_and_names_the_input_that_flips(toy: Any, method: str, tmp_path: Path) -> None:
    rep = toy.STUDY.reproduce(quick=True, out_dir=tmp_path / "out", runner=runner, quiet=True, stream=None)
    rob = robustness(toy, budget=64 if method == "sobol" else 30, method=method, nominal=rep.claims, runner=runner)
    s = rob.summary.set_index("claim")
    assert s.loc["toy.positive", "share_holds"] == 1.0 and s.loc["toy.positive", "label"] == HOLDS_ROBUSTLY
    assert s.loc["toy.positive", "flipped_by"] == "none"
    assert s.loc["toy.above_10", "share_holds"] == 0.0 and s.loc["toy.above_10", "label"] == FAILS_ROBUSTLY
    # y(1) = gain + delay > 1.5: the exact share over the uniform box is about 0.40; at
    # the study's values (1.0 + 0.1) it does not hold.
    share = float(s.loc["toy.above_1_5", "share_holds"])
    assert 0.2 < share < 0.6 and s.loc["toy.above_1_5", "label"] == "fails at the study's values only"
    assert s.loc["toy.above_1_5", "share_ci95_low"] < share < s.loc["toy.above_1_5", "share_ci95_high"]
    assert s.loc["toy.above_1_5", "flipped_by"].startswith("gain (")
    # One run per distinct (gain, delay): both the parameter and the key path reached the
    # scenario (Morris trajectories revisit grid points; those share their run).
    assert rob.runs == len(rob.design[["gain", "delay"]].drop_duplicates())
    files = write_robustness(rob, tmp_path / "out")
    md = (tmp_path / "out" / "claims.md").read_text()
    assert md.count(SECTION) == 1 and "| `toy.above_1_5` |" in md
    # A check of the model against itself is labelled so and counted apart from the paper's.
    assert "| `toy.above_10` | model check |" in md
    assert ("Labels: paper: 1 holds robustly, 1 fails at the study's values only; model check: 1 fails robustly."
            in md), md
    write_robustness(rob, tmp_path / "out")  # a re-run replaces the section
    assert (tmp_path / "out" / "claims.md").read_text().count(SECTION) == 1
    assert any(f.name == "toy.above_1_5.png" for f in files)


def test_a_study_without_inputs_is_an_error(toy: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules["toystudy.params"], "UNCERTAIN_INPUTS", ())
    with pytest.raises(ValueError, match="declares no uncertain inputs"):
        robustness(toy, budget=10, runner=runner)


def test_a_design_point_the_model_rejects_is_named_with_its_inputs() -> None:
    """Issue 28 item 4: a plausible range that admits an invalid combination (Comer &
    Korb's T_N and spread gave a negative transit delay) must say which design point and
    which inputs, not only the scenario field."""
    import tomllib

    from arqlab.errors import ScenarioError
    from arqlab.studies.robustness import PointPlan, _invalid_point
    from arqlab.studies.spec import UncertainInput

    root = Path(__file__).resolve().parents[1]
    good = tomllib.loads((root / "scenarios/go_back_n.toml").read_text())
    bad = {**good, "link": {**good["link"], "delay_s": -0.01}}
    inputs = (UncertainInput("delay", "link.delay_s", 0.05, "synthetic", low=-0.01, high=0.1),)

    def pp(scn: dict[str, Any], delay: float) -> PointPlan:
        return PointPlan({"delay": delay}, {}, {}, {"k": RunRequest("k", scn, 1, 1, None)})

    assert _invalid_point("toy", inputs, [pp(good, 0.05)]) is None
    err = _invalid_point("toy", inputs, [pp(good, 0.05), pp(bad, -0.01)])
    assert isinstance(err, ScenarioError)
    assert "toy --robustness: design point 1 (delay = -0.01)" in str(err)
    assert any("link.delay_s" in p and "-0.01" in p for p in err.problems), err.problems


def test_the_robustness_summary_is_in_the_store_and_the_html_report(toy: Any, tmp_path: Path) -> None:
    """Issue 28 §1: "a section in claims.md and in the HTML report; results in the store"."""
    from arqlab.report import build_report
    from arqlab.studies.robustness_output import publish_robustness

    rep = toy.STUDY.reproduce(quick=True, out_dir=tmp_path / "out", runner=runner, quiet=True, stream=None)
    rob = robustness(toy, budget=30, method="morris", nominal=rep.claims, runner=runner)
    store = tmp_path / "store.sqlite"
    publish_robustness(rob, toy.STUDY, tmp_path / "out", store)
    build_report(store, tmp_path / "report")
    page = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "report").glob("*.html"))
    assert "Robustness of the claims to the unstated inputs" in page
    assert "toy.above_1_5" in page and "fails at the study&#39;s values only" in page.replace("'", "&#39;")
