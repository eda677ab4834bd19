"""Running replications: executors agree, the store is read first, sequential precision."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from arqlab import results
from arqlab import scenario as arqlab_scenario
from arqlab.errors import ArqlabError
from arqlab.execution import PointSpec, TaskFailed, run_points, run_points_detailed
from arqlab.progress import Progress
from arqlab.store import Store, canonical_hash
from arqlab.testing import failing_run_replication, fake_run_replication


GBN = Path(__file__).resolve().parent.parent / "scenarios" / "go_back_n.toml"


def scenario(window: int = 7, **run: Any) -> dict[str, Any]:
    """The go-back-N reference scenario, resolved, short, with a small replication budget."""
    settings = {"duration_s": 30.0, "warmup_s": 5.0, "replications": 4, "min_replications": 3,
                "max_replications": 40, **run}
    return arqlab_scenario.load(GBN, {"protocol.window": window, **{f"run.{k}": v for k, v in settings.items()}})


def expected(resolved: dict[str, Any], seed: int, n: int) -> list[dict[str, Any]]:
    text = json.dumps(resolved, sort_keys=True)
    return [fake_run_replication(text, seed, rep) for rep in range(n)]


def test_fixed_replications_serial_and_pool_agree(tmp_path: Path) -> None:
    points = [PointSpec(scenario(w), seed=3) for w in (1, 3, 7)] + [PointSpec(scenario(2), seed=3, replications=6)]
    serial = run_points(points, executor="serial", store=False, runner=fake_run_replication)
    pooled = run_points(points, workers=2, store=tmp_path / "s.sqlite", runner=fake_run_replication)
    assert serial == pooled
    assert [len(r) for r in serial] == [4, 4, 4, 6]
    assert serial[0] == expected(scenario(1), 3, 4)
    with Store(tmp_path / "s.sqlite") as store:
        assert store.count() == 18


def test_store_is_read_first(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    points = [PointSpec(scenario(w)) for w in (1, 2)]
    run_points(points[:1], executor="serial", store=path, runner=fake_run_replication)
    progress = Progress(stream=io.StringIO())
    again = run_points(points, executor="serial", store=path, runner=fake_run_replication, progress=progress)
    assert progress.summary is not None
    assert (progress.summary.computed, progress.summary.reused) == (4, 4)
    assert again[0] == expected(scenario(1), 1, 4)
    progress = Progress(stream=io.StringIO())
    run_points(points, executor="serial", store=path, runner=failing_run_replication, progress=progress)
    assert progress.summary is not None and progress.summary.computed == 0


def test_other_versions_need_explicit_reuse(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    resolved = scenario()
    with Store(path) as store:
        for rep, rec in enumerate(expected(resolved, 1, 4)):
            store.put(resolved, 1, rep, rec, version="0.0.0-old")
    progress = Progress(stream=io.StringIO())
    run_points([PointSpec(resolved)], executor="serial", store=path, runner=fake_run_replication,
               progress=progress, reuse_any_version=True)
    assert progress.summary is not None and progress.summary.reused == 4
    progress = Progress(stream=io.StringIO())
    run_points([PointSpec(resolved)], executor="serial", store=path, runner=fake_run_replication, progress=progress)
    assert progress.summary is not None and progress.summary.computed == 4


def test_identical_points_are_computed_once(tmp_path: Path) -> None:
    progress = Progress(stream=io.StringIO())
    out = run_points([PointSpec(scenario()), PointSpec(scenario(), replications=6)], executor="serial",
                     store=False, runner=fake_run_replication, progress=progress)
    assert out[0] == out[1][:4]
    assert progress.summary is not None and progress.summary.computed == 6


def smallest_n(resolved: dict[str, Any], precision: float, seed: int) -> tuple[int, bool]:
    run = resolved["run"]
    records = expected(resolved, seed, run["max_replications"])
    check = json.loads(json.dumps(resolved))
    check["run"]["precision"] = precision
    for n in range(run["min_replications"], run["max_replications"] + 1):
        if results.precision_reached(results.summarize(records[:n]), check):
            return n, True
    return run["max_replications"], False


@pytest.mark.parametrize("precision", [0.2, 0.08, 0.03, 0.001])
def test_sequential_precision_is_independent_of_workers(tmp_path: Path, precision: float) -> None:
    points = [PointSpec(scenario(w), seed=11, precision=precision) for w in (1, 4, 7)]
    one = run_points_detailed(points, executor="serial", store=False, runner=fake_run_replication)
    two = run_points_detailed(points, workers=2, store=tmp_path / "s.sqlite", runner=fake_run_replication)
    # Pre-filled store (other round boundaries) must not change the answer either.
    three = run_points_detailed(points, workers=2, store=tmp_path / "s.sqlite", runner=fake_run_replication)
    for point, a, b, c in zip(points, one, two, three):
        n, reached = smallest_n(point.resolved, precision, 11)
        assert len(a.records) == n and a.precision_reached is reached
        assert a.records == b.records == c.records
        assert a.precision_reached == b.precision_reached == c.precision_reached
        assert a.records == expected(point.resolved, 11, n)


@pytest.mark.parametrize("precision", [0.08, 0.03])
def test_sequential_precision_computes_no_replication_past_the_decided_n(precision: float) -> None:
    """Law & Kelton's sequential rule stops at the smallest n that meets the target; the
    rest of the round it was in is not run (serial: exactly n computed; a pool of two
    workers, 4 in flight: at most those in flight beyond n)."""
    resolved = scenario(precision=precision)
    n, reached = smallest_n(resolved, precision, 1)
    assert reached and n > resolved["run"]["min_replications"], "the target is met mid-round"
    for kwargs, slack in (({"executor": "serial"}, 0), ({"workers": 2}, 3)):
        progress = Progress(stream=io.StringIO())
        (outcome,) = run_points_detailed([PointSpec(resolved)], store=False, runner=fake_run_replication,
                                         progress=progress, **kwargs)
        assert len(outcome.records) == n and outcome.precision_reached
        assert progress.summary is not None and n <= progress.summary.computed <= n + slack, (kwargs, n)


def test_precision_from_the_scenario() -> None:
    resolved = scenario(precision=0.05)
    (outcome,) = run_points_detailed([PointSpec(resolved)], executor="serial", store=False,
                                     runner=fake_run_replication)
    n, reached = smallest_n(resolved, 0.05, 1)
    assert (len(outcome.records), outcome.precision_reached) == (n, reached)
    (fixed,) = run_points_detailed([PointSpec(resolved, replications=2)], executor="serial", store=False,
                                   runner=fake_run_replication)
    assert len(fixed.records) == 2 and fixed.precision_reached is None


def test_failure_names_the_replication_and_keeps_finished_ones(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with pytest.raises(TaskFailed, match=r"replication 2 \(seed 1, scenario [0-9a-f]{12}\) failed: "
                                         "RuntimeError: simulated core failure"):
        run_points([PointSpec(scenario())], executor="serial", store=path, runner=failing_run_replication)
    with Store(path) as store:
        assert store.count() == 2
        assert store.get(canonical_hash(scenario()), 1, 1) is not None
    with pytest.raises(TaskFailed, match="simulated core failure"):
        run_points([PointSpec(scenario())], workers=2, store=False, runner=failing_run_replication)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"executor": "cluster"}, "executor = 'cluster'"),
        ({"workers": 0}, "workers = 0"),
    ],
)
def test_bad_executor_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ArqlabError, match=message):
        run_points([PointSpec(scenario())], store=False, runner=fake_run_replication, **kwargs)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (PointSpec(scenario(), replications=0), "replications = 0"),
        (PointSpec(scenario(), precision=-0.1), "precision = -0.1"),
        (PointSpec(scenario(), replications=3, precision=0.1), "either replications or precision"),
        (PointSpec({"run": {"min_replications": 5, "max_replications": 2}}, precision=0.1),
         "below run.min_replications"),
    ],
)
def test_bad_point_specs(spec: PointSpec, message: str) -> None:
    with pytest.raises(ArqlabError, match=message):
        run_points([spec], executor="serial", store=False, runner=fake_run_replication)
