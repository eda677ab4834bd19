"""The steady-state pilot test of a sequential point (issue 30).

After the first round of replications (the pilot), a Poisson direction without a steady
state leaves the watched measures: test 1 (shortfall: carried below offered by more than
the target) and test 2 (capacity: the offered load at or above the lower 95 % bound of
the saturated throughput, measured by 10 replications of the saturated counterpart).
The fake link (`arqlab.testing.queue_fake_run_replication`) is a queue per direction with
capacity 0.8 (A→B) and 0.6 (B→A).
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from arqlab import scenario as arqlab_scenario
from arqlab.execution import PointSpec, run_points_detailed
from arqlab.execution.steady_watch import SteadyWatch
from arqlab.progress import Progress
from arqlab.steady import (
    CAPACITY_REPLICATIONS,
    Unsteady,
    capacity_verdicts,
    saturated_counterpart,
    shortfall_verdicts,
)
from arqlab.store import Store, canonical_hash
from arqlab.testing import queue_fake_run_replication

FIG7 = Path(__file__).resolve().parent.parent / "scenarios" / "bux1982" / "fig7.toml"
PRECISION = 0.05
MIN_N, MAX_N = 10, 60


def poisson(load_a: float, load_b: float, bits_a: int = 1000, bits_b: int = 1000,
            measures: tuple[str, ...] = ("transfer_time_s", "buffer_holding_time_s")) -> dict[str, Any]:
    """Bux's Fig. 7 link, Poisson both ways, both directions' times watched."""
    return arqlab_scenario.load(FIG7, {
        "traffic.a.load": load_a, "traffic.b.load": load_b,
        "traffic.a.length.mean_bits": bits_a, "traffic.b.length.mean_bits": bits_b,
        "run.min_replications": MIN_N, "run.max_replications": MAX_N,
        "run.precision_measures": [f"{d}.{m}" for d in ("a_to_b", "b_to_a") for m in measures],
    })


def run(resolved: dict[str, Any], steady: bool = True, **kw: Any) -> tuple[Any, int]:
    progress = Progress(stream=io.StringIO())
    (out,) = run_points_detailed([PointSpec(resolved, precision=PRECISION, steady_check=steady)],
                                 executor=kw.pop("executor", "serial"), store=kw.pop("store", False),
                                 runner=queue_fake_run_replication, progress=progress, **kw)
    assert progress.summary is not None
    return out, progress.summary.computed + progress.summary.reused


def test_rule_shortfall_boundary() -> None:
    """Test 1: (offered − carried − h)/offered above the tolerance is no steady state;
    exactly at it is still steady."""
    scn = poisson(0.5, 0.5)
    # (0.5 − 0.375 − 0.0625)/0.5 = 0.125 exactly, in binary too.
    at = {"a_to_b": {"throughput_efficiency": {"mean": 0.375, "ci95_half_width": 0.0625}}}
    past = {"a_to_b": {"throughput_efficiency": {"mean": 0.375 - 1e-9, "ci95_half_width": 0.0625}}}
    assert shortfall_verdicts(scn, at, 0.125) == {}
    (found,) = shortfall_verdicts(scn, past, 0.125).values()
    assert found.test == "shortfall" and found.direction == "a_to_b"
    assert str(found) == "carried 0.3750 ± 0.062 of 0.5 offered"


def test_rule_capacity_boundary() -> None:
    """Test 2: an offered load at the capacity's lower 95 % bound has no steady state;
    just below it, it has one. Only the directions asked about are judged."""
    scn = poisson(0.798, 0.798)
    cap = {d: {"throughput_efficiency": {"mean": 0.8, "ci95_half_width": 0.002}} for d in ("a_to_b", "b_to_a")}
    assert set(capacity_verdicts(scn, {}, cap, ["a_to_b"])) == {"a_to_b"}
    below = poisson(0.7979, 0.7979)
    assert capacity_verdicts(below, {}, cap, ["a_to_b", "b_to_a"]) == {}
    found = capacity_verdicts(scn, {}, cap, ["b_to_a"])["b_to_a"]
    assert found.test == "capacity" and str(found) == "offered 0.798 at or above the capacity 0.8000 ± 0.0020"


def test_saturated_counterpart_keeps_the_run_and_drops_the_target() -> None:
    scn = poisson(0.5, 0.3)
    cap = saturated_counterpart(scn)
    assert [cap["traffic"][s]["kind"] for s in "ab"] == ["saturated", "saturated"]
    assert "load" not in cap["traffic"]["a"] and cap["traffic"]["a"]["length"] == scn["traffic"]["a"]["length"]
    assert cap["run"]["duration_s"] == scn["run"]["duration_s"] and cap["run"]["replications"] == CAPACITY_REPLICATIONS
    assert not {"precision", "precision_measures", "min_replications", "max_replications"} & set(cap["run"])
    assert scn["traffic"]["a"]["kind"] == "poisson", "the original is not modified"
    arqlab_scenario.load(cap)  # a valid scenario


def test_pilot_shortfall_stops_an_overloaded_direction_the_other_runs_on() -> None:
    """A→B offered 0.95 of a 0.8 link: stopped at the pilot by test 1; B→A (0.3 of 0.6,
    times spread ±11 %) misses the target at the pilot (±5.3 %) but is near it (under
    √2 × the target: at most 20 replications needed), so it runs on without a capacity run."""
    scn = poisson(0.95, 0.3, bits_b=5500, measures=("transfer_time_s",))
    out, computed = run(scn)
    assert set(out.unsteady) == {"a_to_b"} and out.unsteady["a_to_b"].test == "shortfall"
    assert out.capacity is None
    assert MIN_N < out.n < MAX_N and out.precision_reached
    b = out.metrics["b_to_a"]["transfer_time_s"]
    assert b["ci95_half_width"] <= PRECISION * b["mean"]
    assert computed == out.n


@pytest.mark.parametrize(("rel", "far"), [(PRECISION * math.sqrt(2.0), False), (PRECISION * math.sqrt(2.0) * 1.001, True)])
def test_rule_capacity_run_only_when_far_from_the_target(rel: float, far: bool) -> None:
    """Test 2 runs for a direction whose pilot half-width says it needs more than n₀ + 10
    replications (relative half-width above √((n₀ + 10)/n₀) × the target), not nearer."""
    watch = SteadyWatch(poisson(0.5, 0.5, measures=("transfer_time_s",)), PRECISION)
    steady_b = {"mean": 1.0, "ci95_half_width": 0.01, "n": MIN_N}
    carried = {"mean": 0.5, "ci95_half_width": 0.001, "n": MIN_N}
    metrics = {"a_to_b": {"transfer_time_s": {"mean": 2.0, "ci95_half_width": 2.0 * rel, "n": MIN_N},
                          "throughput_efficiency": carried},
               "b_to_a": {"transfer_time_s": steady_b, "throughput_efficiency": carried}}
    counterpart = watch.after_pilot(metrics)
    assert (counterpart is not None) is far and watch.awaiting == (["a_to_b"] if far else [])
    assert watch.unsteady == {}


def test_pilot_capacity_test_stops_a_direction_at_capacity() -> None:
    """A→B offered exactly its capacity 0.8: it carries it all (no shortfall) but its
    times scatter without a steady state. The capacity run (10 saturated replications)
    stops it at the pilot, instead of running to the cap."""
    scn = poisson(0.8, 0.3)
    out, computed = run(scn)
    assert set(out.unsteady) == {"a_to_b"} and out.unsteady["a_to_b"].test == "capacity"
    assert out.n == MIN_N and computed == MIN_N + CAPACITY_REPLICATIONS
    assert out.capacity is not None and math.isclose(out.capacity["a_to_b"]["throughput_efficiency"]["mean"], 0.8,
                                                     rel_tol=0.01)
    plain, computed_plain = run(scn, steady=False)
    assert plain.n == MAX_N and not plain.precision_reached and computed_plain == MAX_N


def test_both_directions_without_a_steady_state_stop_the_point() -> None:
    out, computed = run(poisson(0.95, 0.9))
    assert set(out.unsteady) == {"a_to_b", "b_to_a"} and out.n == MIN_N and computed == MIN_N
    assert out.precision_reached is False


@pytest.mark.parametrize(("load_a", "bits_a"), [(0.7, 6000), (0.77, 1000)])
def test_a_stable_direction_short_of_the_target_is_never_stopped(load_a: float, bits_a: int) -> None:
    """Below the capacity's CI the point keeps its sequential rule: the same n and the
    same replications as without the test (only the capacity run is extra). At 0.77
    (0.96 of capacity) the fake's times scatter as at capacity, so both run to the cap."""
    scn = poisson(load_a, 0.3, bits_a=bits_a)
    out, computed = run(scn)
    plain, computed_plain = run(scn, steady=False)
    assert out.unsteady == {} and out.capacity is not None
    assert out.n == plain.n > MIN_N and out.metrics == plain.metrics
    assert out.precision_reached == plain.precision_reached
    assert computed == computed_plain + CAPACITY_REPLICATIONS


def test_a_point_meeting_the_target_at_the_pilot_needs_no_test() -> None:
    out, computed = run(poisson(0.3, 0.3))
    assert out.n == MIN_N and out.unsteady == {} and out.capacity is None and computed == MIN_N


def test_pilot_test_is_the_same_serial_pooled_and_from_the_store(tmp_path: Path) -> None:
    """Deterministic whatever runs it; the capacity run's replications go to the store
    and a re-run reuses them all."""
    specs = [PointSpec(poisson(a, b, bits_a=20000), precision=PRECISION, steady_check=True)
             for a, b in ((0.8, 0.3), (0.7, 0.3), (0.95, 0.59), (0.3, 0.3))]
    serial = run_points_detailed(specs, executor="serial", store=False, runner=queue_fake_run_replication)
    path = tmp_path / "s.sqlite"
    pooled = run_points_detailed(specs, workers=2, store=path, runner=queue_fake_run_replication)
    progress = Progress(stream=io.StringIO())
    again = run_points_detailed(specs, workers=2, store=path, runner=queue_fake_run_replication, progress=progress)
    for a, b, c in zip(serial, pooled, again):
        assert a.n == b.n == c.n and a.metrics == b.metrics == c.metrics
        assert a.unsteady == b.unsteady == c.unsteady and a.capacity == b.capacity == c.capacity
    assert progress.summary is not None and progress.summary.computed == 0
    # The four points (each far from the target at its pilot) differ only in their loads: one saturated
    # counterpart, run once for all of them.
    counterparts = {canonical_hash(arqlab_scenario.load(saturated_counterpart(s.resolved)))
                    for s, o in zip(specs, serial) if o.capacity is not None}
    assert len(counterparts) == 1 and sum(o.capacity is not None for o in serial) == 4
    with Store(path) as store:
        assert store.count() >= sum(o.n for o in serial) + CAPACITY_REPLICATIONS


def test_unsteady_reads_as_the_test_and_its_numbers() -> None:
    u = Unsteady("a_to_b", 0.8, 0.7712, 0.0021)
    assert u.test == "shortfall" and str(u) == "carried 0.7712 ± 0.0021 of 0.8 offered"
    assert json.dumps(str(Unsteady("b_to_a", 0.8, 0.8, 0.001, 0.7913, 0.0021))) == \
        '"offered 0.8 at or above the capacity 0.7913 \\u00b1 0.0021"'
