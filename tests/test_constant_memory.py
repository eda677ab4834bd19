"""Requests of any size run at constant memory: replications are folded into running
summaries in replication order, and records are kept only for small requests."""

from __future__ import annotations

import math
import random
import tracemalloc
from typing import Any

import pytest

import arqlab
from arqlab import _core
from arqlab.execution import PointSpec, run_points_detailed
from arqlab.execution import scheduler as scheduler_mod
from arqlab.results import RecordsNotKept, RunningSummary, observations
from arqlab.testing import fake_run_replication
from test_execution import GBN, expected, scenario


def random_records(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        value = lambda: rng.choice([None, math.nan, math.inf]) if rng.random() < 0.1 else rng.lognormvariate(0, 2)  # noqa: E731
        batch = {"a_to_b": {"x": value(), "y": value()}, "b_to_a": {"x": value()}}
        out.append({"batches": [batch], "events": rng.randrange(1000), "simulated_s": rng.random(), "wall_s": 0.5})
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 7, 300])
def test_running_summary_is_exactly_the_interval_over_the_list(n: int) -> None:
    records = random_records(n, seed=n)
    summary = RunningSummary()
    for rec in records:
        summary.add(rec)
    got = summary.metrics()
    want = {}
    for (direction, name), xs in observations(records).items():
        mean, hw, k = _core.interval(xs, False)
        want.setdefault(direction, {})[name] = {"mean": mean, "ci95_half_width": hw, "n": k}
    # Bit for bit (NaN where the list gives NaN), and in the same order.
    assert list(got) == list(want) and all(list(got[d]) == list(want[d]) for d in want)
    for d in want:
        for m in want[d]:
            for k in ("mean", "ci95_half_width", "n"):
                a, b = got[d][m][k], want[d][m][k]
                assert a == b or (math.isnan(a) and math.isnan(b)), (d, m, k, a, b)
    assert summary.n == n and summary.events == sum(r["events"] for r in records)
    assert summary.simulated_s == sum(r["simulated_s"] for r in records)


def peak_bytes(n: int, keep: bool, duplicates: int = 1) -> int:
    points = [PointSpec(scenario(), seed=5, replications=n) for _ in range(duplicates)]
    tracemalloc.start()
    try:
        outcomes = run_points_detailed(points, executor="serial", store=False, runner=fake_run_replication,
                                       keep_records=keep)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [o.n for o in outcomes] == [n] * duplicates
    return peak


def test_memory_does_not_grow_with_the_number_of_replications() -> None:
    # Two identical points share every record (computed once): the memo must not hold
    # them all either.
    small, large = peak_bytes(400, keep=False, duplicates=2), peak_bytes(2400, keep=False, duplicates=2)
    assert large < 1.3 * small, (small, large)
    # The check can fail: keeping the records grows with the count.
    kept_small, kept_large = peak_bytes(400, keep=True), peak_bytes(2400, keep=True)
    assert kept_large > 3 * kept_small, (kept_small, kept_large)


def test_summaries_without_records_equal_those_with_them() -> None:
    point = PointSpec(scenario(), seed=3, replications=50)
    (kept,) = run_points_detailed([point], executor="serial", store=False, runner=fake_run_replication)
    (lean,) = run_points_detailed([point], executor="serial", store=False, runner=fake_run_replication,
                                  keep_records=False)
    assert kept.records == expected(point.resolved, 3, 50)
    assert lean.kept_records is None and lean.metrics == kept.metrics and lean.n == 50
    with pytest.raises(RecordsNotKept, match="records of 50 replications were not kept"):
        _ = lean.records


def test_large_requests_keep_no_records_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduler_mod, "KEEP_RECORDS_UP_TO", 5)
    small = arqlab.simulate(GBN, replications=5, overrides={"run.duration_s": 20, "run.warmup_s": 2})
    large = arqlab.simulate(GBN, replications=6, overrides={"run.duration_s": 20, "run.warmup_s": 2})
    assert len(small.records) == 5
    assert large.replications == 6 and large.events > small.events > 0
    with pytest.raises(RecordsNotKept, match="arqlab store export"):
        _ = large.records
    # What a user reads from a large result is all there without the records.
    assert large.to_dict()["replications"] == 6 and large.metrics["a_to_b"]["throughput_efficiency"]["n"] == 6
