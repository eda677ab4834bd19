"""Sweeps: tidy output, grid errors, CLI, and resume after SIGKILL."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from arqlab.errors import ArqlabError
from arqlab.progress import Progress
from arqlab.store import Store
from arqlab.sweep import GridError, grid_points, sweep
from arqlab.sweep_cli import parse_grid, parse_value, register_cli, sweep_command
from arqlab.testing import fake_run_replication, kill_when_stored, stored_replications

GBN = Path(__file__).resolve().parent.parent / "scenarios" / "go_back_n.toml"
SHORT: dict[str, Any] = {"run.duration_s": 30.0, "run.warmup_s": 5.0, "run.replications": 3}
GRID: dict[str, list[Any]] = {"traffic.a.length.mean_bits": [500, 1000, 2000], "link.bit_error_rate": [1e-5, 1e-4]}


def subprocess_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.update(extra)
    return env


def test_tidy_table(tmp_path: Path) -> None:
    df = sweep(GBN, GRID, overrides=SHORT, seed=2, executor="serial", store=tmp_path / "s.sqlite", runner=fake_run_replication)
    assert list(df.columns) == [*GRID, "direction", "measure", "mean", "ci95_half_width", "n",
                                "precision_reached", "scenario_hash"]
    n_measures = df["measure"].nunique()
    assert len(df) == 6 * 2 * n_measures
    firsts = df.drop_duplicates("scenario_hash")
    assert firsts[list(GRID)].values.tolist() == [[500, 1e-5], [500, 1e-4], [1000, 1e-5], [1000, 1e-4],
                                                  [2000, 1e-5], [2000, 1e-4]]
    assert (df["n"] == 3).all()
    assert df["precision_reached"].isna().all()
    with Store(tmp_path / "s.sqlite") as store:
        (info,) = store.sweeps()
        assert info.name == "go_back_n: traffic.a.length.mean_bits × link.bit_error_rate"
        assert len(info.points) == 6 and info.seed == 2
        pd.testing.assert_frame_equal(info.table().drop(columns="precision_reached"),
                                      df.drop(columns="precision_reached"), check_dtype=False)


def test_results_do_not_depend_on_executor(tmp_path: Path) -> None:
    a = sweep(GBN, GRID, overrides=SHORT, executor="serial", store=False, runner=fake_run_replication)
    b = sweep(GBN, GRID, overrides=SHORT, workers=2, store=tmp_path / "s.sqlite", runner=fake_run_replication)
    c = sweep(GBN, GRID, overrides=SHORT, workers=2, store=tmp_path / "s.sqlite", runner=fake_run_replication)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    pd.testing.assert_frame_equal(a, c, check_exact=True)


def test_sequential_precision_column() -> None:
    df = sweep(GBN, {"link.delay_s": [0.01, 0.5]}, overrides={**SHORT, "run.min_replications": 5}, precision=0.05, executor="serial", store=False,
               runner=fake_run_replication)
    assert df["precision_reached"].notna().all()
    assert (df["n"] >= 5).all()


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ({"traffic.a.length.mean_bitz": [1, 2]},
         "grid key 'traffic.a.length.mean_bitz' is not in the resolved scenario "
         "(did you mean 'traffic.a.length.mean_bits'?)"),
        ({}, "grid is empty"),
        ({"link.delay_s": []}, "grid key 'link.delay_s': the list of values is empty"),
        ({"link.delay_s": "0.1"}, "grid key 'link.delay_s': values must be a list"),
    ],
)
def test_grid_errors(grid: dict[str, Any], message: str) -> None:
    with pytest.raises(GridError) as info:
        sweep(GBN, grid, overrides=SHORT, store=False, runner=fake_run_replication)
    assert message in info.value.problems[0]
    assert isinstance(info.value, ArqlabError)


def test_invalid_value_names_the_point() -> None:
    with pytest.raises(GridError) as info:
        sweep(GBN, {"link.rate_bps": [9600, -5]}, overrides=SHORT, store=False, runner=fake_run_replication)
    (problem,) = info.value.problems
    assert problem.startswith("grid point link.rate_bps=-5: ")
    assert "link.rate_bps" in problem and "-5" in problem


def test_grid_points_order() -> None:
    assert grid_points({"a": [1, 2], "b": ["x", "y"]}) == [
        {"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]


@pytest.mark.parametrize(
    ("text", "value"),
    [("3", 3), ("-2", -2), ("1e-5", 1e-5), ("0.5", 0.5), ("true", True), ("false", False),
     ("go_back_n", "go_back_n"), ("'7'", "7"), ('"x y"', "x y"), (" 12 ", 12)],
)
def test_parse_value(text: str, value: Any) -> None:
    parsed = parse_value(text)
    assert parsed == value and type(parsed) is type(value)


def test_parse_grid() -> None:
    assert parse_grid(["a.b=1,2.5,x", "c=true"]) == {"a.b": [1, 2.5, "x"], "c": [True]}
    with pytest.raises(GridError, match="expected KEY=VALUE"):
        parse_grid(["nonsense"])


def _args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="arqlab")
    register_cli(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_cli_writes_csv_plot_and_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = GBN
    args = _args(["sweep", str(scenario), "--grid", "traffic.a.length.mean_bits=500,1000",
                  "--grid", "link.bit_error_rate=1e-5,1e-4", "--set", "link.delay_s=0.1",
                  "--set", "run.duration_s=30", "--replications", "3",
                  "--workers", "1", "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "out"),
                  "--plot", str(tmp_path / "out" / "plot.png"), "--quiet"])
    assert args.handler is sweep_command
    assert sweep_command(args, runner=fake_run_replication) == 0
    df = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert len(df) > 0 and set(df["traffic.a.length.mean_bits"]) == {500, 1000}
    assert json.loads((tmp_path / "out" / "scenario.json").read_text())["link"]["delay_s"] == 0.1
    assert (tmp_path / "out" / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    captured = capsys.readouterr()
    assert captured.err == ""
    header = captured.out.splitlines()[0].split()
    assert header[:4] == ["traffic.a.length.mean_bits", "link.bit_error_rate", "direction", "measure"]


def test_cli_bad_input_is_exit_2_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = GBN
    args = _args(["sweep", str(scenario), "--grid", "traffic.a.length.mean_bitz=1,2", "--grid", "link.delay_s=",
                  "--store", str(tmp_path / "s.sqlite")])
    assert sweep_command(args, runner=fake_run_replication) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "arqlab sweep: error: grid key 'traffic.a.length.mean_bitz' is not in the resolved scenario "
        "(did you mean 'traffic.a.length.mean_bits'?)",
        "arqlab sweep: error: grid key 'link.delay_s': the list of values is empty",
    ]
    args = _args(["sweep", str(scenario), "--store", str(tmp_path / "s.sqlite")])
    assert sweep_command(args, runner=fake_run_replication) == 2
    assert "no --grid given" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("")
    args = _args(["sweep", str(scenario), "--grid", "link.delay_s=0.1", "--store", str(blocker / "s.sqlite")])
    assert sweep_command(args, runner=fake_run_replication) == 2
    assert "cannot create directory" in capsys.readouterr().err


RESUME_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from arqlab.progress import Progress
    from arqlab.sweep import sweep
    from arqlab.testing import slow_fake_run_replication
    scenario, grid, overrides, store, out, runner = sys.argv[1:]
    progress = Progress(quiet=True)
    df = sweep(scenario, json.loads(grid), overrides=json.loads(overrides), workers=2, store=store,
               progress=progress, runner=slow_fake_run_replication if runner == "fake" else None)
    df.to_pickle(out)
    s = progress.summary
    print(json.dumps({"computed": s.computed, "reused": s.reused}))
    """
)


_stored = stored_replications


@pytest.mark.parametrize("runner", ["fake", "core"])
def test_resume_after_sigkill(tmp_path: Path, runner: str) -> None:
    """SIGKILL a sweep mid-way; the re-run computes only what is missing and gives the
    numbers of an uninterrupted run. "fake" sleeps 0.15 s per replication; "core" is the
    real simulator with replications long enough (~0.1 s) to be caught in flight."""
    duration = 30.0 if runner == "fake" else 8000.0
    overrides = {"run.duration_s": duration, "run.warmup_s": 5.0, "run.replications": 6}
    grid = {"link.delay_s": [0.01, 0.1, 0.2, 0.5]}
    total = 24
    store = tmp_path / "s.sqlite"
    argv = [sys.executable, "-c", RESUME_SCRIPT, str(GBN), json.dumps(grid), json.dumps(overrides), str(store)]
    env = subprocess_env(ARQLAB_FAKE_DELAY_S="0.15")
    kept = kill_when_stored([*argv, str(tmp_path / "first.pkl"), runner], env, store, 6, 60)
    assert 6 <= kept < total

    done = subprocess.run([*argv, str(tmp_path / "resumed.pkl"), runner], env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert counts == {"computed": total - kept, "reused": kept}
    assert _stored(store) == total

    uninterrupted = sweep(GBN, grid, overrides=overrides, executor="serial", store=False,
                          runner=fake_run_replication if runner == "fake" else None, progress=Progress(quiet=True))
    resumed = pd.read_pickle(tmp_path / "resumed.pkl")
    pd.testing.assert_frame_equal(resumed, uninterrupted, check_exact=True)


def test_real_core_is_identical_across_executors_and_reruns(tmp_path: Path) -> None:
    grid = {"protocol.window": [1, 7], "link.bit_error_rate": [1e-5, 1e-4]}
    serial = sweep(GBN, grid, overrides=SHORT, executor="serial", store=False)
    pooled = sweep(GBN, grid, overrides=SHORT, workers=2, store=tmp_path / "s.sqlite")
    progress = Progress(quiet=True)
    again = sweep(GBN, grid, overrides=SHORT, workers=2, store=tmp_path / "s.sqlite", progress=progress)
    pd.testing.assert_frame_equal(serial, pooled, check_exact=True)
    pd.testing.assert_frame_equal(serial, again, check_exact=True)
    assert progress.summary is not None and (progress.summary.computed, progress.summary.reused) == (0, 12)
    eff = serial[(serial["measure"] == "throughput_efficiency") & (serial["direction"] == "a_to_b")]
    assert eff["mean"].between(0.05, 1.0).all()


def test_sweep_plots_error_rates_on_a_log_axis(tmp_path: Path) -> None:
    """Issue 29 item 13: `sweep --plot` offers log axes and uses one for error rates."""
    import matplotlib

    matplotlib.use("Agg")
    from unittest import mock

    from arqlab.sweep import log_axis_suits, plot_sweep

    assert log_axis_suits("link.bit_error_rate", [1e-6, 1e-5, 1e-4])
    assert not log_axis_suits("link.bit_error_rate", [0.0, 1e-4]), "zero has no place on a log axis"
    assert not log_axis_suits("link.bit_error_rate", [1e-5, 5e-5]), "less than a decade"
    assert not log_axis_suits("traffic.a.length.mean_bits", [100, 10000])
    df = pd.DataFrame({"link.bit_error_rate": [1e-6, 1e-4], "direction": ["a_to_b"] * 2,
                       "measure": ["throughput_efficiency"] * 2, "mean": [0.9, 0.5], "ci95_half_width": [0.01, 0.02],
                       "n": [3, 3]})
    scales = []
    import matplotlib.axes

    real = matplotlib.axes.Axes.set_xscale
    with mock.patch.object(matplotlib.axes.Axes, "set_xscale", autospec=True,
                           side_effect=lambda ax, s, **kw: (scales.append(s), real(ax, s, **kw))):
        plot_sweep(df, ["link.bit_error_rate"], tmp_path / "p.png")
        plot_sweep(df, ["link.bit_error_rate"], tmp_path / "q.png", logx=False)
    assert scales == ["log"]
    assert (tmp_path / "p.png").stat().st_size > 0
