"""A point without a steady state in a study's outputs (issue 30): the CSV says
"no" with the test and its numbers and has no plotted value, the claims read it as
"unstable" (inconclusive), and the summary counts it apart from the precision target."""

from __future__ import annotations

import io
import math
import sys
from pathlib import Path
from typing import Any

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from arqlab.steady import Unsteady  # noqa: E402
from arqlab.studies import bux1982 as bux  # noqa: E402
from arqlab.studies import framework as fw  # noqa: E402
from arqlab.studies.reproduce import _print_summary  # noqa: E402
from arqlab.studies.run import SteadyReport  # noqa: E402
from arqlab.studies.verdicts import Est, Verdict, at_least  # noqa: E402


def _point(key: str, load: float, rel_half_width: float) -> tuple[fw.RunRequest, dict[str, Any]]:
    scn = {"traffic": {"a": {"kind": "poisson", "load": load, "length": {"mean_bits": 800}},
                       "b": {"kind": "poisson", "load": load, "length": {"mean_bits": 800}}},
           "run": {"duration_s": 100.0, "precision": 0.025, "max_replications": 2000}}
    row = {"curve": key, "variant": "", "x": load, "direction": "a_to_b", "run": key, "mean": 9.0, "y": 3.0,
           "y_ci95_half_width": 0.1, "ci95_half_width": 0.3, "rel_half_width": rel_half_width, "n": 10,
           "capacity": math.nan, "capacity_ci95_half_width": math.nan, "steady_state": "", "unsteady": ""}
    return fw.RunRequest(key, scn, 1, None, 0.025, key), row


def test_check_capacity_takes_the_pilot_findings_and_blanks_the_value() -> None:
    """The pilot test's verdicts (SteadyReport) mark their rows "no" with the test's
    numbers, and the capacity the pilot measured serves a row short of the target: nothing
    is simulated again. A row marked "no" keeps its raw mean but has no y."""
    (stopped, r1), (short, r2), (fine, r3) = _point("stopped", 0.8, 0.48), _point("short", 0.7, 0.04), \
        _point("fine", 0.5, 0.01)
    runs = {"stopped": stopped, "short": short, "fine": fine}
    metrics = {"stopped": {"a_to_b": {"throughput_efficiency": {"mean": 0.7999, "ci95_half_width": 0.001, "n": 10}}},
               "short": {"a_to_b": {"throughput_efficiency": {"mean": 0.7, "ci95_half_width": 0.001, "n": 10}}},
               "fine": {"a_to_b": {"throughput_efficiency": {"mean": 0.5, "ci95_half_width": 0.001, "n": 10}}}}
    cap = {"a_to_b": {"throughput_efficiency": {"mean": 0.7913, "ci95_half_width": 0.0021, "n": 10}}}
    steady = {"stopped": SteadyReport({"a_to_b": Unsteady("a_to_b", 0.8, 0.7999, 0.001, 0.7913, 0.0021)}, cap),
              "short": SteadyReport({}, cap)}
    frame = pd.DataFrame([r1, r2, r3])
    asked: list[fw.RunRequest] = []

    def simulate(reqs: list[fw.RunRequest]) -> dict[str, fw.Metrics]:
        asked.extend(reqs)
        return {}

    fw.check_capacity({1: frame}, runs, metrics, 0.025, simulate, steady)
    assert asked == []  # every capacity came from the pilot test
    rows = frame.set_index("curve")
    assert list(rows.steady_state) == ["no", "yes", "yes"]
    assert rows.loc["stopped", "unsteady"] == "capacity: offered 0.8 at or above the capacity 0.7913 ± 0.0021"
    assert math.isnan(rows.loc["stopped", "y"]) and math.isnan(rows.loc["stopped", "y_ci95_half_width"])
    assert rows.loc["stopped", "mean"] == 9.0, "the raw mean stays (it depends on the run length)"
    assert rows.loc["stopped", "capacity"] == 0.7913
    assert rows.loc["short", "capacity"] == 0.7913 and rows.loc["short", "y"] == 3.0 and rows.loc["short", "unsteady"] == ""
    assert rows.loc["fine", "y"] == 3.0


def test_an_unstable_point_reads_as_unstable_and_makes_a_claim_inconclusive() -> None:
    """'Error-free ABM equals M/D/1' over every load: with one load unstable, the claim
    cannot hold there (no mean) and is inconclusive, not holds."""
    fig = bux.figure(7)
    settings = fw.RunSettings(quick=True)
    frame = fw.tabulate(fig, fw.plan_figure(fig, settings)[0], {}).assign(n=10, norm=1.0)
    ideal = bux.ideal_transfer(5000, "constant")
    frame["y"] = [ideal(x) for x in frame["x"]]
    frame["y_ci95_half_width"] = 1e-6
    claim = next(c for c in fig.claims if c.id == "fig7.errfree_abm_md1")
    data = fw.StudyData({7: fw.FigureData(fig, frame)})
    res = fw.evaluate_claim(claim, data)
    assert res is not None and res.verdict is Verdict.HOLDS
    top = frame[(frame.curve == "abm_p0") & (frame.variant == "")].x.max()
    at = (frame.curve == "abm_p0") & (frame.x == top)
    frame.loc[at, "steady_state"] = "no"
    frame.loc[at, ["y", "y_ci95_half_width"]] = math.nan
    fd = fw.FigureData(fig, frame)
    assert fd.est("abm_p0", top).unstable and str(fd.est("abm_p0", top)) == "unstable"
    res = fw.evaluate_claim(claim, fw.StudyData({7: fd}))
    assert res is not None and res.verdict is Verdict.INCONCLUSIVE and "unstable" in res.detail


def test_est_unstable_has_no_verdict() -> None:
    u = Est(math.nan, math.nan, 10, unstable=True)
    assert not u.valid and at_least(u, Est(1.0, 0.01)) is Verdict.INCONCLUSIVE


def test_summary_counts_unstable_points_apart_from_the_precision_target() -> None:
    fig = bux.figure(7)
    rows = [{"figure": 7, "curve": "abm_p0", "variant": "", "x": x, "y": 1.0, "y_ci95_half_width": 0.01,
             "rel_half_width": r, "steady_state": s, "n": 10,
             "capacity": math.nan, "capacity_ci95_half_width": math.nan}
            for x, r, s in ((0.5, 0.01, "yes"), (0.8, 0.48, "no"))]
    out = io.StringIO()
    _print_summary([], {7: fw.FigureData(fig, pd.DataFrame(rows))}, Path("o"), 0.025, out)
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("Unstable (no steady state") and lines[1].endswith("1 points: fig7 abm_p0 x=0.8")
    assert lines[2] == "Precision: all 1 points with a steady state within ±2.5%"
