"""``arqlab.results`` on synthetic replication records: how records become observations,
running summaries (counters, MSER warnings, batch means), the precision rule's inputs,
the tidy frame and the JSON form of a result. No simulation: every expected number is
computed here by hand (Student-t from the printed table)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from arqlab.results import (
    KEEP_RECORDS_UP_TO,
    RecordsNotKept,
    Result,
    RunningSummary,
    frame,
    is_batch_means,
    observations,
    precision_reached,
    precision_status,
    summarize,
    summarize_point,
    watched_measures,
)


def record(a: float | None, b: float | None = 1.0, *, events: int = 10, reliable: bool | None = True,
           batches: int = 1) -> dict[str, Any]:
    return {
        "batches": [{"a_to_b": {"throughput_efficiency": a, "transfer_time_s": b}} for _ in range(batches)],
        "events": events, "simulated_s": 2.5, "wall_s": 0.25, "mser_reliable": reliable,
    }


def resolved(**run: Any) -> dict[str, Any]:
    return {"run": {"min_replications": 2, "max_replications": 10, **run},
            "traffic": {"a": {"kind": "saturated"}, "b": {"kind": "none"}}}


def test_observations_keep_order_and_undefined_values() -> None:
    recs = [record(1.0, None), record(3.0, 2.0, batches=2)]
    obs = observations(recs)
    assert list(obs) == [("a_to_b", "throughput_efficiency"), ("a_to_b", "transfer_time_s")]
    assert obs[("a_to_b", "throughput_efficiency")] == [1.0, 3.0, 3.0]  # one per batch
    t = obs[("a_to_b", "transfer_time_s")]
    assert math.isnan(t[0]) and t[1:] == [2.0, 2.0]


def test_summary_is_the_student_t_interval() -> None:
    recs = [record(x) for x in (1.0, 2.0, 3.0, 4.0)]
    m = summarize(recs)["a_to_b"]["throughput_efficiency"]
    s = math.sqrt(sum((x - 2.5) ** 2 for x in (1.0, 2.0, 3.0, 4.0)) / 3)
    assert m["mean"] == pytest.approx(2.5) and m["n"] == 4
    assert m["ci95_half_width"] == pytest.approx(3.182 * s / 2, rel=2e-4)  # t(3) = 3.182
    assert summarize(recs)["a_to_b"]["transfer_time_s"] == {"mean": 1.0, "ci95_half_width": 0.0, "n": 4}


def test_running_summary_counts_and_mser_warnings() -> None:
    s = RunningSummary()
    for i in range(8):
        s.add(record(float(i), events=i + 1, reliable=None if i == 0 else i % 4 != 1 and i < 3))
    assert s.n == 8 and s.events == sum(range(1, 9))
    assert s.simulated_s == pytest.approx(20.0) and s.wall_s == pytest.approx(2.0)
    # reliable=False for i = 1 and i ≥ 3 (6 replications); the first five are listed.
    assert s.unreliable == 6 and s.first_unreliable == [1, 3, 4, 5, 6]
    r = Result(metrics=s.metrics(), scenario=resolved(), seed=3, summary=s, kept_records=None,
               precision_reached=False)
    assert r.warnings == [
        "MSER-5 truncation hit its limit (half the run) in 6 of 8 replication(s) [1, 3, 4, 5, 6]: the warm-up "
        "may not be over; run longer (run.duration_s)",
        "the precision target was not reached before run.max_replications",
    ]
    assert (r.events, r.simulated_s, r.wall_s, r.replications) == (36, 20.0, 2.0, 8)
    with pytest.raises(RecordsNotKept, match=f"records of 8 replications were not kept \\(more than {KEEP_RECORDS_UP_TO}"):
        r.records


def test_batch_means_summarise_the_batches_of_one_replication() -> None:
    rec = {"batches": [{"a_to_b": {"throughput_efficiency": float(x)}} for x in range(1, 41)],
           "events": 1, "simulated_s": 1.0, "wall_s": 0.0}
    assert is_batch_means({"run": {"method": "batch_means"}}) and not is_batch_means({"run": {}})
    m = summarize_point([rec], {"run": {"method": "batch_means"}})["a_to_b"]["throughput_efficiency"]
    plain = summarize_point([rec], {"run": {"method": "replications"}})["a_to_b"]["throughput_efficiency"]
    assert m["mean"] == pytest.approx(20.5) and plain["mean"] == pytest.approx(20.5)
    # Read as independent observations, the 40 values give a narrow interval; batch means
    # merges the correlated neighbours of this ramp into 10 batches (of 4) and widens it.
    assert plain["n"] == 40 and m["n"] == 10
    assert m["ci95_half_width"] > 2 * plain["ci95_half_width"]
    batch = [sum(range(4 * i + 1, 4 * i + 5)) / 4 for i in range(10)]  # 2.5, 6.5, ..., 38.5
    sd = math.sqrt(sum((b - 20.5) ** 2 for b in batch) / 9)
    assert m["ci95_half_width"] == pytest.approx(2.262 * sd / math.sqrt(10), rel=2e-4)  # t(9) = 2.262


def test_watched_measures() -> None:
    assert watched_measures(resolved()) == ["a_to_b.throughput_efficiency", "a_to_b.transfer_time_s"]
    assert watched_measures(resolved(precision_measures=["b_to_a.frames_sent"])) == ["b_to_a.frames_sent"]
    both = resolved()
    both["traffic"]["b"] = {"kind": "poisson"}
    assert len(watched_measures(both)) == 4


def test_precision_status_and_reached() -> None:
    def metrics(half: float, n: int) -> dict[str, dict[str, dict[str, float]]]:
        return {"a_to_b": {"throughput_efficiency": {"mean": 1.0, "ci95_half_width": half, "n": n},
                           "transfer_time_s": {"mean": 2.0, "ci95_half_width": 2 * half, "n": n}}}

    sc = resolved()
    assert precision_status(metrics(0.01, 5), sc, 0.05) == "reached"
    assert precision_status(metrics(0.2, 5), sc, 0.05) == "continue"
    assert precision_status(metrics(0.2, 10), sc, 0.05) == "cap_reached"
    assert precision_status({"a_to_b": {}}, sc, 0.05) == "continue"  # a watched measure not there yet
    explicit = {"run": {"min_replications": 2, "max_replications": 10,
                        "precision_measures": ["flow.a->b.throughput_efficiency"]}}
    flow = {"flow.a->b": {"throughput_efficiency": {"mean": 1.0, "ci95_half_width": 0.01, "n": 5}}}
    assert precision_status(flow, explicit, 0.05) == "reached"  # a scope with dots
    assert precision_reached(metrics(0.2, 5), sc) is True  # no precision asked for
    assert precision_reached(metrics(0.2, 5), resolved(precision=0.05)) is False
    assert precision_reached(metrics(0.01, 5), resolved(precision=0.05)) is True
    assert precision_reached(metrics(0.01, 5), resolved(precision=0.001), precision=0.05) is True


def test_frame_and_json_form() -> None:
    m = {"a_to_b": {"throughput_efficiency": {"mean": 0.5, "ci95_half_width": math.nan, "n": 1}}}
    df = frame(m, {"seed": 7})
    assert list(df.columns) == ["seed", "direction", "measure", "mean", "ci95_half_width", "n"]
    assert df.iloc[0]["seed"] == 7 and df.iloc[0]["measure"] == "throughput_efficiency"
    s = RunningSummary()
    s.add(record(0.5))
    r = Result(metrics=m, scenario={"run": {"replications": 30}, "title": "t"}, seed=7, summary=s,
               kept_records=[record(0.5)])
    out = r.to_dict()
    assert out["metrics"] == {"a_to_b": {"throughput_efficiency": {"mean": 0.5, "ci95_half_width": None, "n": 1}}}
    assert out["scenario"] == {"run": {"replications": 1}, "title": "t"}  # the count actually run
    assert r.scenario["run"]["replications"] == 30  # the result's own scenario is untouched
    assert (out["events"], out["replications"], out["seed"], out["precision_reached"], out["warnings"]) == \
        (10, 1, 7, None, [])
    assert r.records == [record(0.5)] and list(r.to_frame()["measure"]) == ["throughput_efficiency"]


def test_defaults_and_missing_fields() -> None:
    # Replications, not batch means, unless the scenario says so: 40 replications of a
    # ramp stay 40 observations (batch means would merge them into 10).
    ramp = [record(float(x)) for x in range(1, 41)]
    assert summarize(ramp)["a_to_b"]["throughput_efficiency"]["n"] == 40
    s = RunningSummary()
    for r in ramp:
        s.add(r)
    assert s.metrics()["a_to_b"]["throughput_efficiency"]["n"] == 40
    assert not is_batch_means({})  # no run table: the default method
    # Batch means keeps every measure of every batch.
    bm = RunningSummary(batch_means=True)
    bm.add({"batches": [{"a_to_b": {"throughput_efficiency": float(x), "transfer_time_s": 2.0 * x}}
                        for x in range(1, 41)]})
    assert bm.metrics()["a_to_b"]["transfer_time_s"]["mean"] == pytest.approx(41.0)
    # A record without counters adds nothing to them.
    assert (bm.events, bm.simulated_s, bm.wall_s, bm.n) == (0, 0.0, 0.0, 1)


def test_precision_status_without_the_watched_scope() -> None:
    assert precision_status({}, resolved(), 0.05) == "continue"
    # An absent measure counts as no replications at all, not as one.
    one = {"run": {"min_replications": 1, "max_replications": 1},
           "traffic": {"a": {"kind": "saturated"}, "b": {"kind": "none"}}}
    assert precision_status({}, one, 0.05) == "continue"


def test_json_form_details() -> None:
    m = {"a_to_b": {"x": {"mean": 1.0, "ci95_half_width": 0.0, "n": 1}}}
    assert list(frame({}).columns) == ["direction", "measure", "mean", "ci95_half_width", "n"]
    assert frame(m)["direction"].tolist() == ["a_to_b"]
    empty = Result(metrics=m, scenario={"run": {"replications": 30}}, seed=1, summary=RunningSummary())
    out = empty.to_dict()
    assert out["scenario"]["run"]["replications"] == 30  # nothing ran: the file's count stays
    assert (out["simulated_s"], out["wall_s"]) == (0.0, 0.0)
    s = RunningSummary()
    s.add(record(1.0))
    no_run = Result(metrics={"a_to_b": {"x": {"mean": math.nan, "ci95_half_width": 0.0, "n": 0,
                                             "batches": [1.0, math.nan]}}},  # type: ignore[dict-item]
                    scenario={"title": "no run table"}, seed=1, summary=s)
    out = no_run.to_dict()
    assert out["scenario"] == {"title": "no run table"}
    assert (out["simulated_s"], out["wall_s"]) == (2.5, 0.25)
    assert out["metrics"]["a_to_b"]["x"] == {"mean": None, "ci95_half_width": 0.0, "n": 0, "batches": [1.0, None]}
