"""A quick-mode figure says so on its face (issue 29 item 13): its footer states the quick
settings actually used (seed, replications and run length per point, x points per curve),
and a full-precision figure carries no such footer."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import matplotlib
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from arqlab.studies import framework as fw  # noqa: E402
from arqlab.studies.output import quick_footer  # noqa: E402
from test_study_framework import _runner_factory, _ToyStudy  # noqa: E402


def _req(key: str, duration: float | None) -> fw.RunRequest:
    scenario = {"run": {"duration_s": duration}} if duration is not None else {}
    return fw.RunRequest(key, scenario, 1, 3, None)


def _frame(points: dict[str, int]) -> pd.DataFrame:
    rows = [{"curve": c, "variant": "", "x": float(i)} for c, n in points.items() for i in range(n)]
    return pd.DataFrame(rows)


def test_footer_states_seed_replications_run_length_and_points() -> None:
    settings = fw.RunSettings(quick=True, seed=7, replications=3)
    text = quick_footer(settings, [_req("a", 15.0), _req("b", 15.0)], _frame({"x": 4, "y": 4}))
    assert text.startswith("QUICK PASS, low precision:")
    assert "seed 7" in text and "3 replication(s) per point" in text
    assert "runs of 15 simulated s" in text and "4 x point(s) per curve" in text


def test_footer_gives_ranges_when_points_differ() -> None:
    settings = fw.RunSettings(quick=True, seed=1, replications=5)
    text = quick_footer(settings, [_req("a", 10.0), _req("b", 60.0), _req("c", None)], _frame({"x": 2, "y": 5}))
    assert "runs of 10-60 simulated s" in text and "2-5 x point(s) per curve" in text


def _svg_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_a_quick_reproduction_draws_its_settings_and_a_full_one_does_not(tmp_path: Path) -> None:
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # text stays text in the SVG
        fw.reproduce_study(_ToyStudy(), quick=True, out_dir=tmp_path / "q", runner=_runner_factory([]),
                           settings=fw.RunSettings(quick=True, seed=2, replications=3), stream=io.StringIO())
        fw.reproduce_study(_ToyStudy(), quick=False, out_dir=tmp_path / "f", runner=_runner_factory([]),
                           settings=fw.RunSettings(quick=False, precision=0.025), stream=io.StringIO(), quiet=True)
    quick, full = _svg_text(tmp_path / "q" / "fig1.svg"), _svg_text(tmp_path / "f" / "fig1.svg")
    assert "QUICK PASS" in quick and "seed 2, 3 replication(s) per point" in quick
    # the toy figure's quick grid: 2 x values per curve, the sensitivity variant 1
    assert "1-2 x point(s) per curve" in quick
    assert "QUICK PASS" not in full
