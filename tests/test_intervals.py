"""Confidence intervals against independent numbers: hand-computed Student-t quantiles
from a printed table, a `simulate()` half-width recomputed here from its per-replication
values, and the coverage of 1,000 intervals on a measure whose mean is known.

A change of confidence level (95% → 99% widens every interval by a third for n = 10)
loosens every "CI + 1%" tolerance in the validation tests silently; these catch it."""

from __future__ import annotations

import math
import random
import statistics

import pytest

import arqlab
from arqlab import _core

# Two-sided 95% Student-t quantiles t(0.975; df) from a printed table (e.g. Law & Kelton,
# Simulation Modeling and Analysis, Table T.1): independent of statrs.
T975 = {1: 12.706, 4: 2.776, 9: 2.262, 19: 2.093, 29: 2.045}


@pytest.mark.parametrize("values", [[1.0, 2.0, 3.0, 4.0, 5.0], [0.81, 0.79, 0.84, 0.80, 0.83, 0.78, 0.82, 0.85, 0.77, 0.81]])
def test_interval_uses_the_tabulated_t_quantile(values: list[float]) -> None:
    n = len(values)
    mean, half, count = _core.interval(values, False)
    assert count == n
    assert mean == pytest.approx(sum(values) / n, rel=1e-12)
    s = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1))
    # The table has three decimals: agree to 2e-4 relative.
    assert half == pytest.approx(T975[n - 1] * s / math.sqrt(n), rel=2e-4)


def test_interval_by_hand_for_one_to_five() -> None:
    # mean 3, s² = 10/4 = 2.5, half-width = t · √2.5 / √5 = t · √0.5 with the
    # four-decimal t(4) = 2.7764: 1.9632.
    mean, half, n = _core.interval([5.0, 3.0, 1.0, 4.0, 2.0], False)
    assert (mean, n) == (3.0, 5)
    assert half == pytest.approx(1.9632, abs=1e-4)


def test_interval_drops_undefined_values_and_needs_two() -> None:
    mean, half, n = _core.interval([1.0, float("nan"), 3.0], False)
    assert (mean, n) == (2.0, 2)
    assert half == pytest.approx(T975[1] * math.sqrt(2.0) / math.sqrt(2.0), rel=2e-4)
    _, half1, n1 = _core.interval([1.0], False)
    assert n1 == 1 and not math.isfinite(half1)


def test_paired_interval_is_the_interval_of_the_differences() -> None:
    a = [1.0, 2.5, 3.0, 4.5, 5.0]
    b = [0.5, 2.0, 2.0, 4.0, 4.0]
    d = [x - y for x, y in zip(a, b)]
    mean, half, n = _core.paired_interval(a, b)
    assert n == 5 and mean == pytest.approx(statistics.fmean(d))
    assert half == pytest.approx(T975[4] * statistics.stdev(d) / math.sqrt(5), rel=2e-4)


def test_simulate_half_width_recomputed_from_its_replications() -> None:
    r = arqlab.simulate("scenarios/go_back_n.toml", replications=10, overrides={"run.duration_s": 60.0, "run.warmup_s": 5.0})
    xs = [rec["batches"][0]["a_to_b"]["throughput_efficiency"] for rec in r.records]
    assert len(xs) == 10 and max(xs) > min(xs)
    m = r.metrics["a_to_b"]["throughput_efficiency"]
    assert m["n"] == 10
    assert m["mean"] == pytest.approx(statistics.fmean(xs), rel=1e-12)
    assert m["ci95_half_width"] == pytest.approx(T975[9] * statistics.stdev(xs) / math.sqrt(10), rel=2e-4)


@pytest.mark.parametrize("n", [5, 10, 30])
def test_coverage_of_1000_intervals_is_95_percent(n: int) -> None:
    # Normal observations with a known mean: a correct 95% interval covers it in 93–97%
    # of 1,000 trials (±2.9 standard deviations of the binomial count); a 99% interval
    # covers it in ~99%, a z-interval for n = 5 in ~88%.
    rng = random.Random(20260515 + n)
    covered = 0
    for _ in range(1000):
        xs = [rng.gauss(0.7, 0.05) for _ in range(n)]
        mean, half, _ = _core.interval(xs, False)
        covered += abs(mean - 0.7) <= half
    assert 930 <= covered <= 970, covered


def test_batch_means_coverage_with_independent_batches() -> None:
    # Independent batches are not merged (|lag-1| < 0.1 mostly), so coverage is still 95%;
    # when they are merged the interval must still cover at the nominal rate.
    rng = random.Random(7)
    covered = 0
    for _ in range(1000):
        xs = [rng.gauss(1.0, 0.2) for _ in range(40)]
        mean, half, k = _core.interval(xs, True)
        assert 10 <= k <= 40
        covered += abs(mean - 1.0) <= half
    assert 930 <= covered <= 970, covered
