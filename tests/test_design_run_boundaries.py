"""Running a design (``arqlab.design.run``) on the fast fake runner (issue 31): which
scope the response is read from, each run's scenario, seed and replications, the
problems named per run, and what is recorded in the store for the report. No simulation
runs: ``arqlab.testing.fake_run_replication`` answers every replication."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from arqlab.design import DesignError, load_design, run_design
from arqlab.design.run import choose_direction, resolve_runs
from arqlab.store import Store
from arqlab.testing import fake_run_replication

ROOT = Path(__file__).resolve().parents[1]
GBN = ROOT / "scenarios" / "go_back_n.toml"
ONE = 'replications = 2\n[response]\nmeasure = "transfer_time_s"\n[factors.A]\nkey = "protocol.window"\nlevels = [2, 7]\n'
TWO = ONE + '[factors.B]\nlabel = "Errors"\nkey = "link.bit_error_rate"\nlevels = [1e-6, 1e-5]\n'


def fake(**kw: Any) -> Any:
    return run_design(load_design(kw.pop("text", ONE)).design, kw.pop("scenario", GBN),
                      measure=kw.pop("measure", "transfer_time_s"), executor="serial",
                      runner=kw.pop("runner", fake_run_replication), **{"store": False, "replications": 2, **kw})


def resolved(a: str = "bulk", b: str = "none") -> dict[str, Any]:
    return {"traffic": {"a": {"kind": a}, "b": {"kind": b}}}


BOTH = {"a_to_b": {"m", "n"}, "b_to_a": {"m"}}


def test_choose_direction_takes_a_named_direction_that_has_the_measure() -> None:
    assert choose_direction(resolved(), BOTH, "m", "b_to_a") == "b_to_a"
    with pytest.raises(DesignError) as info:
        choose_direction(resolved(), BOTH, "n", "b_to_a")
    assert info.value.problems == ["response.direction = 'b_to_a': no n there (directions with it: a_to_b)"]
    with pytest.raises(DesignError) as info:
        choose_direction(resolved(), BOTH, "z", "b_to_a")
    assert info.value.problems == ["response.direction = 'b_to_a': no z there (directions with it: none)"]


def test_a_named_direction_without_the_measure_lists_every_direction_that_has_it() -> None:
    scopes = {"a_to_b": {"m"}, "b_to_a": {"m"}, "link.l1": {"u"}}
    with pytest.raises(DesignError) as info:
        choose_direction(resolved(), scopes, "m", "link.l1")
    assert info.value.problems == ["response.direction = 'link.l1': no m there (directions with it: a_to_b, b_to_a)"]


def test_choose_direction_prefers_the_one_active_flow_then_the_one_scope() -> None:
    assert choose_direction(resolved("bulk", "none"), BOTH, "m", None) == "a_to_b"
    assert choose_direction(resolved("none", "bulk"), BOTH, "m", None) == "b_to_a"
    # the active flow lacks the measure: the one scope that has it
    assert choose_direction(resolved("none", "bulk"), BOTH, "n", None) == "a_to_b"
    assert choose_direction(resolved("none", "none"), BOTH, "n", None) == "a_to_b"


def test_choose_direction_names_every_candidate_when_it_cannot_choose() -> None:
    with pytest.raises(DesignError) as info:
        choose_direction(resolved("bulk", "bulk"), BOTH, "m", None)
    assert info.value.problems == ["response.direction: m is measured in a_to_b, b_to_a; name one"]
    with pytest.raises(DesignError) as info:
        choose_direction(resolved("none", "none"), BOTH, "m", None)
    assert info.value.problems == ["response.direction: m is measured in a_to_b, b_to_a; name one"]
    with pytest.raises(DesignError) as info:
        choose_direction(resolved(), {"x": {"q", "p"}, "y": {"p", "o"}}, "m", None)
    assert info.value.problems == ["response.measure = 'm': not measured in any scope of this scenario "
                                   "(its measures: o, p, q)"]


def test_the_runs_and_the_analysis_of_the_fake_runner_s_numbers() -> None:
    res = fake()
    assert res.response == "a_to_b.transfer_time_s"
    assert [len(o) for o in res.observations] == [2, 2] and all(math.isfinite(y) for o in res.observations for y in o)
    runs = res.runs
    assert list(runs.columns) == ["run", "A", "mean", "ci95_half_width", "n", "scenario_hash"]
    assert list(runs["run"]) == [0, 1] and list(runs["A"]) == ["2", "7"] and list(runs["n"]) == [2, 2]
    assert list(runs["mean"]) == pytest.approx([sum(o) / 2 for o in res.observations])
    assert all(h > 0 for h in runs["ci95_half_width"]) and runs["scenario_hash"].nunique() == 2
    a = res.effects.set_index("effect").loc["A"]
    assert a["q"] == pytest.approx((runs["mean"][1] - runs["mean"][0]) / 2)
    assert res.effects.attrs["replications"] == 2 and set(res.effects["response"]) == {"a_to_b.transfer_time_s"}
    assert list(fake(log=True).effects["transform"])[0] == "log10"
    assert fake(confidence=0.5).effects.attrs["confidence"] == 0.5
    # same seed, same numbers; another seed, others
    assert fake().observations == res.observations and fake(seed=2).observations != res.observations


@pytest.mark.parametrize(("kw", "expected"), [
    (dict(measure="Bad", replications=0),
     ["response.measure = 'Bad': expected a measure name such as transfer_time_s or loss_ratio "
      "(lower case, digits and '_')", "replications = 0: expected a whole number >= 1"]),
    (dict(replications=True), ["replications = True: expected a whole number >= 1"]),
    (dict(replications=2.0), ["replications = 2.0: expected a whole number >= 1"]),
])
def test_bad_arguments_are_named_before_anything_runs(kw: dict[str, Any], expected: list[str]) -> None:
    with pytest.raises(DesignError) as info:
        fake(**kw)
    assert info.value.problems == expected


def test_one_replication_per_run_is_accepted_and_gives_no_interval() -> None:
    res = fake(replications=1)
    assert [len(o) for o in res.observations] == [1, 1] and res.effects.attrs["error_dof"] == 0


def test_a_measure_no_scope_has_is_refused_before_running() -> None:
    def refuse(*args: Any) -> dict[str, Any]:
        raise AssertionError("ran")

    with pytest.raises(DesignError) as info:
        fake(measure="goodput", runner=refuse)
    (problem,) = info.value.problems
    assert problem.startswith("response.measure = 'goodput': not measured in any scope of this scenario (its measures: ")
    listed = problem.split("(its measures: ")[1].rstrip(")").split(", ")
    assert listed == sorted(listed) and "transfer_time_s" in listed


def _nan_in_run_1(resolved_json: str, seed: int, replication: int) -> dict[str, Any]:
    out = fake_run_replication(resolved_json, seed, replication)
    if json.loads(resolved_json)["protocol"]["window"] == 7 and replication == 1:
        for batch in out["batches"]:
            batch["a_to_b"]["transfer_time_s"] = math.nan
    return out


def test_a_measure_undefined_in_a_replication_is_named_with_its_run() -> None:
    with pytest.raises(DesignError) as info:
        fake(runner=_nan_in_run_1)
    assert info.value.problems == ["run 1 (A=7): a_to_b.transfer_time_s is undefined in replication(s) [1]; "
                                   "choose a measure every run defines"]


def test_each_run_is_the_base_with_its_levels_and_the_same_seed() -> None:
    d = load_design(TWO).design
    specs = resolve_runs(d, GBN, {"protocol.window": 3, "link.rate_bps": 19200.0}, None, seed=5)
    assert [s.resolved["protocol"]["window"] for s in specs] == [2, 7, 2, 7]  # the design's level wins
    assert [s.resolved["link"]["bit_error_rate"] for s in specs] == [1e-6, 1e-6, 1e-5, 1e-5]
    assert {s.resolved["link"]["rate_bps"] for s in specs} == {19200.0}
    assert {s.seed for s in specs} == {5} and {s.replications for s in specs} == {10}  # the scenario's
    assert {s.replications for s in resolve_runs(d, GBN, None, 3)} == {3}
    assert {s.seed for s in resolve_runs(d, GBN, None, 3)} == {1}


def test_a_batch_means_scenario_is_refused_for_every_run() -> None:
    d = load_design(ONE).design
    with pytest.raises(DesignError) as info:
        resolve_runs(d, GBN, {"run.method": "batch_means"}, None)
    assert info.value.problems == [
        f"run {i} (A={w}): run.method = 'batch_means' gives one replication; a design needs independent "
        "replications (use run.method = 'replications')" for i, w in ((0, 2), (1, 7))]


def test_the_effects_table_is_recorded_for_the_report(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    res = fake(text=TWO, store=store, seed=3)
    with Store(store, readonly=True) as s:
        (info,) = s.sweeps()
    assert info.name == info.title == "go_back_n: design protocol.window × Errors"
    assert info.notes == "2 factors, 4 runs, response a_to_b.transfer_time_s, transform none"
    assert info.grid == [("A (protocol.window)", ["2", "7"]), ("B (Errors)", ["1e-06", "1e-05"])]
    assert [p["params"] for p in info.points] == [res.design.level_names(i) for i in range(4)]
    assert [p["hash"] for p in info.points] == list(res.runs["scenario_hash"])
    assert {p["n"] for p in info.points} == {2} and info.seed == 3 and info.replications == 2
    assert info.source == str(GBN)


def test_a_fraction_s_record_names_its_relation_and_a_scenario_table_is_unnamed(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    text = TWO.replace("replications = 2", 'replications = 2\ngenerators = ["C=-AB"]') + \
        '[factors.C]\nkey = "link.rate_bps"\nlevels = [9600.0, 19200.0]\n'
    from arqlab import scenario

    base = scenario.read(GBN)[0]
    fake(text=text, store=store, scenario=base, log=True, name="mine")
    fake(text=ONE, store=store, scenario=base)
    with Store(store, readonly=True) as s:
        named, unnamed = sorted(s.sweeps(), key=lambda w: w.name != "mine")
    assert named.name == "mine"
    assert named.notes == ("3 factors, 4 runs, response a_to_b.transfer_time_s, defining relation I = -ABC, "
                           "transform log10")
    assert unnamed.name == "scenario: design protocol.window" and unnamed.source == ""


def test_a_scenario_given_as_text_is_recorded_as_unnamed_with_run_0_as_its_base(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    res = fake(text=TWO, store=store, scenario=GBN.read_text())
    with Store(store, readonly=True) as s:
        (info,) = s.sweeps()
    assert info.name == "scenario: design protocol.window × Errors" and info.source == ""
    # the base recorded is run 0's resolved scenario (window 2, the lower error rate)
    base = resolve_runs(res.design, GBN, None, 2)[0].resolved
    assert info.base_scenario == json.loads(json.dumps(base))
    assert info.base_scenario["protocol"]["window"] == 2
    assert [sorted(p) for p in info.points] == [["hash", "n", "params", "precision_reached"]] * 4
    assert {p["precision_reached"] for p in info.points} == {None}


def test_a_named_direction_is_the_one_analysed_even_when_another_flow_is_the_active_one() -> None:
    # go_back_n.toml: only A sends, so without a direction a_to_b is read; b_to_a is asked for.
    res = fake(direction="b_to_a")
    assert res.response == "b_to_a.transfer_time_s" and set(res.effects["response"]) == {"b_to_a.transfer_time_s"}
    assert res.observations != fake().observations


def test_the_scope_is_chosen_from_run_0_whose_flows_may_differ_from_the_other_runs() -> None:
    # A switches B's traffic on: run 0 has one active flow, run 1 two; run 0's one is read.
    text = ('replications = 2\n[response]\nmeasure = "transfer_time_s"\n'
            '[factors.A]\nkey = "traffic.b.kind"\nlevels = ["none", "saturated"]\n')
    res = fake(text=text)
    assert res.response == "a_to_b.transfer_time_s" and list(res.runs["A"]) == ["none", "saturated"]


def _without_in_run_1(drop: str) -> Any:
    """The fake runner, with run 1 (window 7) lacking ``drop``: a scope, or a scope's measure."""
    def run(resolved_json: str, seed: int, replication: int) -> dict[str, Any]:
        out = fake_run_replication(resolved_json, seed, replication)
        if json.loads(resolved_json)["protocol"]["window"] == 7:
            for batch in out["batches"]:
                if drop == "a_to_b":
                    del batch["a_to_b"]
                else:
                    del batch["a_to_b"][drop]
        return out
    return run


@pytest.mark.parametrize("drop", ["a_to_b", "transfer_time_s"])
def test_a_run_without_the_response_at_all_is_named_with_all_its_replications(drop: str) -> None:
    # Run 0 has a_to_b.transfer_time_s, so it is the response; run 1 never measured it (the
    # scope or the measure absent), while b_to_a has it in both runs: it is still refused.
    with pytest.raises(DesignError) as info:
        fake(runner=_without_in_run_1(drop))
    assert info.value.problems == ["run 1 (A=7): a_to_b.transfer_time_s is undefined in replication(s) all; "
                                   "choose a measure every run defines"]


@pytest.fixture
def passed(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What run_design hands the execution layer: the points and its keyword arguments."""
    import arqlab.design.run as design_run

    seen: dict[str, Any] = {}
    real = design_run.run_points_detailed

    def spy(specs: Any, **kw: Any) -> Any:
        seen.update(kw, specs=specs)
        return real(specs, **kw)

    monkeypatch.setattr(design_run, "run_points_detailed", spy)
    return seen


def test_the_base_overrides_reach_every_run_and_other_versions_are_reused_only_when_asked(
        passed: dict[str, Any]) -> None:
    fake(text=TWO, overrides={"link.rate_bps": 19200.0})
    assert [s.resolved["link"]["rate_bps"] for s in passed["specs"]] == [19200.0] * 4
    assert passed["reuse_any_version"] is False  # the default: results of this version only
    assert passed["keep_records"] is True  # the analysis reads every replication's record
    assert passed["workers"] is None
    fake(text=ONE, workers=1)
    assert passed["workers"] == 1
    fake(text=TWO, reuse_any_version=True)
    assert passed["reuse_any_version"] is True
    assert {s.resolved["link"]["rate_bps"] for s in passed["specs"]} != {19200.0}


def test_progress_true_makes_a_bar_none_and_false_none_and_a_given_one_is_used(passed: dict[str, Any]) -> None:
    from arqlab.progress import Progress

    fake(progress=True)
    assert isinstance(passed["progress"], Progress)
    for off in (None, False):
        fake(progress=off)
        assert passed["progress"] is None
    mine = Progress(quiet=True)
    fake(progress=mine)
    assert passed["progress"] is mine


def _refuse(*args: Any) -> dict[str, Any]:
    raise AssertionError("ran")


def test_a_named_direction_without_the_measure_is_refused_before_anything_runs() -> None:
    with pytest.raises(DesignError) as info:
        fake(direction="no_such_scope", runner=_refuse)
    assert info.value.problems[0].startswith("response.direction = 'no_such_scope': no transfer_time_s there "
                                             "(directions with it: a_to_b, b_to_a")


def test_the_response_is_checked_against_run_0_s_scopes_before_anything_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import arqlab.results as results

    asked: list[int] = []
    real = results.catalogue

    def spy(resolved: Any) -> Any:
        asked.append(resolved["protocol"]["window"])
        return real(resolved)

    monkeypatch.setattr(results, "catalogue", spy)
    fake(text=TWO)
    assert asked == [2]  # run 0: window 2 (run 1 has window 7)


def test_a_store_opened_from_a_path_is_closed_and_a_given_store_is_left_open(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import arqlab.design.run as design_run
    from arqlab.errors import ArqlabError

    opened: list[Store] = []
    real = design_run.open_store

    def spy(store: Any) -> Store:
        opened.append(real(store))
        return opened[-1]

    monkeypatch.setattr(design_run, "open_store", spy)
    fake(store=tmp_path / "s.sqlite")
    with pytest.raises(ArqlabError, match="closed database"):  # run_design opened it, so it closed it
        opened[0].sweeps()
    with Store(tmp_path / "mine.sqlite") as mine:
        fake(store=mine)
        assert len(mine.sweeps()) == 1  # the caller's store is still open


def test_a_rerun_on_the_same_store_reads_every_replication_from_it(tmp_path: Path) -> None:
    first = fake(store=tmp_path / "s.sqlite")
    again = fake(store=tmp_path / "s.sqlite", runner=_refuse)  # nothing is computed again
    assert again.observations == first.observations


def test_a_run_whose_scenario_does_not_load_is_named_with_the_scenario_s_problem() -> None:
    d = load_design(ONE.replace("levels = [2, 7]", "levels = [2, 0]")).design
    with pytest.raises(DesignError) as info:
        resolve_runs(d, GBN, None, 2)
    from arqlab import scenario
    from arqlab.errors import ScenarioError

    with pytest.raises(ScenarioError) as own:
        scenario.load(str(GBN), {"protocol.window": 0})
    assert own.value.problems and str(own.value) != own.value.problems[0]
    # each of the scenario's own problems, prefixed by the run (not the exception's text)
    assert info.value.problems == [f"run 1 (A=0): {p}" for p in own.value.problems]
    assert info.value.problems[0].startswith("run 1 (A=0): protocol.window")


def test_every_run_whose_scenario_does_not_load_is_named() -> None:
    d = load_design(ONE.replace("levels = [2, 7]", "levels = [0, -1]")).design
    with pytest.raises(DesignError) as info:
        resolve_runs(d, GBN, None, 2)
    assert [p.split(":")[0] for p in info.value.problems] == ["run 0 (A=0)", "run 1 (A=-1)"]
