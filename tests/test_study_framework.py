"""The study framework: verdict logic, outputs, run de-duplication, CLI errors.

These tests need no compiled core: they drive the framework with a synthetic runner.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from arqlab.studies import framework as fw  # noqa: E402
from arqlab.studies import handler, main, register_cli  # noqa: E402

H, N, I = fw.Verdict.HOLDS, fw.Verdict.DOES_NOT_HOLD, fw.Verdict.INCONCLUSIVE


def E(mean: float, half: float) -> fw.Est:
    return fw.Est(mean, half, 10)


# ----------------------------------------------------------------------------- verdicts


@pytest.mark.parametrize(
    ("a", "b", "tol", "expected"),
    [
        (E(1.0, 0.01), E(0.9, 0.01), 0.0, H),  # clearly above
        (E(0.9, 0.01), E(1.0, 0.01), 0.0, N),  # clearly below
        (E(1.0, 0.05), E(1.0, 0.05), 0.0, I),  # equal, CI straddles
        (E(0.99, 0.001), E(1.0, 0.001), 0.02, H),  # short by 1%, within 2% slack
        (E(0.95, 0.001), E(1.0, 0.001), 0.02, N),  # short by 5%, beyond slack
    ],
)
def test_at_least(a: fw.Est, b: fw.Est, tol: float, expected: fw.Verdict) -> None:
    assert fw.at_least(a, b, tol) is expected


def test_at_most_mirrors_at_least() -> None:
    assert fw.at_most(E(0.9, 0.01), E(1.0, 0.01)) is H
    assert fw.at_most(E(1.1, 0.01), E(1.0, 0.01)) is N


@pytest.mark.parametrize(
    ("a", "b", "margin", "expected"),
    [
        (E(1.2, 0.05), E(1.0, 0.05), 0.0, H),
        (E(1.0, 0.05), E(1.0, 0.05), 0.0, I),
        (E(0.8, 0.05), E(1.0, 0.05), 0.0, N),
        (E(1.2, 0.01), E(1.0, 0.01), 0.5, N),  # 20% above, claim needs 50%
        (E(1.7, 0.01), E(1.0, 0.01), 0.5, H),
    ],
)
def test_exceeds(a: fw.Est, b: fw.Est, margin: float, expected: fw.Verdict) -> None:
    assert fw.exceeds(a, b, margin) is expected


def test_below_is_strict_and_signed() -> None:
    assert fw.below(E(0.5, 0.01), E(1.0, 0.01)) is H
    assert fw.below(E(1.0, 0.01), E(0.5, 0.01)) is N
    assert fw.below(E(1.0, 0.1), E(1.05, 0.1)) is I
    assert fw.below(E(0.8, 0.01), E(1.0, 0.01), 0.25) is N  # 20% below, claim needs 25%


@pytest.mark.parametrize(
    ("a", "b", "tol", "expected"),
    [
        (E(1.00, 0.01), E(1.01, 0.01), 0.05, H),  # |D| + h = 0.024 < 0.05
        (E(1.00, 0.01), E(1.30, 0.01), 0.05, N),  # 26% apart
        (E(1.00, 0.10), E(1.05, 0.10), 0.05, I),  # too noisy to tell
    ],
)
def test_approx(a: fw.Est, b: fw.Est, tol: float, expected: fw.Verdict) -> None:
    assert fw.approx(a, b, tol) is expected


def test_approx_value_and_within() -> None:
    assert fw.approx_value(E(2.0, 0.02), 2.05, 0.05) is H
    assert fw.approx_value(E(2.5, 0.02), 2.0, 0.05) is N
    assert fw.approx_value(E(2.1, 0.2), 2.0, 0.05) is I
    assert fw.within(E(1.0, 0.1), 0.5, 2.0) is H
    assert fw.within(E(3.0, 0.1), 0.5, 2.0) is N
    assert fw.within(E(1.95, 0.1), 0.5, 2.0) is I


def test_invalid_estimates_are_inconclusive() -> None:
    nan = fw.Est(float("nan"), float("nan"), 0)
    for fn in (fw.at_least, fw.exceeds, fw.below):
        assert fn(nan, E(1.0, 0.1)) is I
    assert fw.approx(nan, E(1.0, 0.1), 0.05) is I
    assert fw.approx_value(E(1.0, float("inf")), 1.0, 0.05) is I


def test_combinators() -> None:
    assert fw.all_of([H, H]) is H
    assert fw.all_of([H, I]) is I
    assert fw.all_of([H, I, N]) is N
    assert fw.all_of([]) is I
    assert fw.any_of([N, H]) is H
    assert fw.any_of([N, N]) is N
    assert fw.any_of([N, I]) is I
    out = fw.pointwise([1.0, 2.0], lambda x: H if x < 2 else N)
    assert out.verdict is N and "x=2:NO" in out.detail
    assert fw.pointwise([], lambda x: H).verdict is I


def test_difference_half_width_combines_in_quadrature() -> None:
    d = E(3.0, 0.3) - E(1.0, 0.4)
    assert d.mean == pytest.approx(2.0)
    assert d.half == pytest.approx(0.5)


# ----------------------------------------------------------------------------- scenarios, TOML


def test_overrides_and_toml_round_trip() -> None:
    base = {"link": {"rate_bps": 48000.0, "delay_s": 0.05}, "protocol": {"kind": "hdlc"}}
    scn = fw.apply_overrides(base, {"link.delay_s": 0.35, "traffic.a.length.mean_bits": 800, "protocol.window": 7})
    assert base["link"]["delay_s"] == 0.05  # base untouched
    assert fw.get_dotted(scn, "traffic.a.length.mean_bits") == 800
    text = fw.to_toml(scn, "a header\nsecond line")
    assert text.startswith("# a header\n# second line")
    assert tomllib.loads(text) == scn
    tricky = {"run": {"precision_measures": ["a_to_b.transfer_time_s"], "x": 1e-05, "flag": True, "s": 'q"uote'}}
    assert tomllib.loads(fw.to_toml(tricky)) == tricky


# ----------------------------------------------------------------------------- a synthetic study


def _runner_factory(calls: list[str]) -> Any:
    """Synthetic simulator: throughput = offset + slope·x per mode; CI ±1%."""
    def runner(req: fw.RunRequest) -> fw.Metrics:
        calls.append(req.key)
        x = float(fw.get_dotted(req.scenario, "traffic.a.length.mean_bits"))
        mode = fw.get_dotted(req.scenario, "protocol.mode")
        a = {"fast": 0.5 + x / 10000.0, "slow": 0.3 + x / 10000.0}[mode]
        b = a * 1.001  # the other direction is (nearly) the same
        return {
            "a_to_b": {"throughput_efficiency": {"mean": a, "ci95_half_width": 0.01 * a, "n": 5}},
            "b_to_a": {"throughput_efficiency": {"mean": b, "ci95_half_width": 0.01 * b, "n": 5}},
        }
    return runner


def _toy_figure() -> fw.Figure:
    base = {"link": {"rate_bps": 1000.0}, "protocol": {"mode": "fast"},
            "traffic": {"a": {"kind": "saturated", "length": {"mean_bits": 100}}}}
    curves = (
        fw.Curve("fast_ab", "fast A→B", "a_to_b", {"protocol.mode": "fast"}),
        fw.Curve("fast_ba", "fast B→A", "b_to_a", {"protocol.mode": "fast"}, plot=False),
        fw.Curve("slow_ab", "slow A→B", "a_to_b", {"protocol.mode": "slow"}),
    )
    claims = (
        fw.Claim("toy.fast_above_slow", "1", "fast is above slow",
                 lambda sd: fw.pointwise(sd[1].xs("fast_ab"), lambda x: fw.exceeds(sd[1].est("fast_ab", x), sd[1].est("slow_ab", x))),
                 figure=1, sensitivity=("slowfast",)),
        fw.Claim("toy.slow_above_fast", "1", "slow is above fast (false)",
                 lambda sd: fw.pointwise(sd[1].xs("fast_ab"), lambda x: fw.exceeds(sd[1].est("slow_ab", x), sd[1].est("fast_ab", x))),
                 figure=1),
        fw.Claim("toy.symmetric", "1", "both directions equal",
                 lambda sd: fw.pointwise(sd[1].xs("fast_ab"), lambda x: fw.approx(sd[1].est("fast_ab", x), sd[1].est("fast_ba", x), 0.05)),
                 figure=1),
    )
    sens = (fw.Sensitivity("slowfast", "slow curve run in fast mode", ("slow_ab",), {"protocol.mode": "fast"}, quick_xs=(100.0,)),)
    return fw.Figure(
        1, "Toy", base, "length", "efficiency", "throughput_efficiency", (100.0, 1000.0, 2000.0), (100.0, 1000.0),
        lambda x: {"traffic.a.length.mean_bits": int(x)}, curves,
        closed_forms=(fw.ClosedForm("line", lambda x: 0.5 + x / 10000.0),),
        assumptions=(fw.Assumption("p", "0", "toy"),), sensitivities=sens, claims=claims,
    )


class _ToyStudy:
    NAME = "toy"
    TITLE = "Toy study"
    SOURCE = "Toy (2024)"
    STUDY_CLAIMS_HEADING = "Toy conclusions"

    @staticmethod
    def figures() -> list[fw.Figure]:
        return [_toy_figure()]

    @staticmethod
    def study_claims() -> list[fw.Claim]:
        return [fw.Claim("toy.needs_missing", "x", "needs figure 9", lambda sd: fw.Outcome(H), needs=(9,))]


def test_reproduce_study_outputs_and_verdicts(tmp_path: Path) -> None:
    calls: list[str] = []
    stream = io.StringIO()
    rep = fw.reproduce_study(_ToyStudy(), quick=True, out_dir=tmp_path, settings=fw.RunSettings(quick=True, replications=3),
                             runner=_runner_factory(calls), stream=stream)
    # fast_ab and fast_ba share one run per x; slow_ab its own; the sensitivity duplicates fast at x=100
    assert len(calls) == len(set(calls)) == 4
    for name in ("fig1.png", "fig1.svg", "fig1.csv", "claims.json", "claims.md"):
        assert (tmp_path / name).stat().st_size > 0
    scen = tmp_path / "fig1_scenarios"
    assert tomllib.loads((scen / "slow_ab.toml").read_text())["protocol"]["mode"] == "slow"
    pts = tomllib.loads((scen / "slow_ab.points.toml").read_text())["points"]
    assert [p["x"] for p in pts] == [100.0, 1000.0]
    assert (scen / "slow_ab@slowfast.toml").exists()
    import pandas as pd

    csv = pd.read_csv(tmp_path / "fig1.csv")
    assert {"x", "mean", "ci95_half_width", "n", "y", "y_ci95_half_width", "variant"} <= set(csv.columns)
    assert len(csv) == 3 * 2 + 1
    verdicts = {r.id: r.verdict for r in rep.claims}
    assert verdicts == {"toy.fast_above_slow": H, "toy.slow_above_fast": N, "toy.symmetric": H}
    fast = next(r for r in rep.claims if r.id == "toy.fast_above_slow")
    # under the variant slow == fast at x=100 and differs at 1000 → not a clean 'holds'
    assert fast.sensitivity and fast.sensitivity[0]["variant"] == "slowfast"
    assert fast.sensitivity[0]["verdict"] in ("inconclusive", "does not hold")
    assert rep.skipped_claims == ["toy.needs_missing"]
    payload = json.loads((tmp_path / "claims.json").read_text())
    assert payload["counts"]["holds"] == 2 and payload["mode"] == "quick"
    printed = stream.getvalue()
    assert "[        holds] toy.fast_above_slow" in printed and "Not evaluated" in printed


def test_study_package_settings_trace_figures_and_extras(tmp_path: Path) -> None:
    """A package's reproduce()/settings_for() come from StudyPackage: trace figures are
    not swept, an Extra runs when its figure is chosen (or all are), one that simulates is
    skipped under a substituted runner, and each receives the pass's settings."""
    seen: list[tuple[str, Any, bool]] = []

    def extra(tag: str) -> Callable[[fw.Reproduction, fw.PassInfo], list[Path]]:
        def write(rep: fw.Reproduction, info: fw.PassInfo) -> list[Path]:
            seen.append((tag, info.figures, info.quick))
            path = rep.out_dir / f"{tag}.txt"
            path.write_text(tag)
            return [path]
        return write

    toy = _ToyStudy()
    pkg = fw.StudyPackage(toy.NAME, toy.TITLE, toy.SOURCE, toy.STUDY_CLAIMS_HEADING, toy.figures, toy.study_claims,
                          quick_replications=3, full_precision=0.01, trace_figures=(5,),
                          extras=(fw.Extra(extra("always"), simulates=False), fw.Extra(extra("fig5"), figure=5,
                                                                                       simulates=False),
                                  fw.Extra(extra("traced"), figure=5)))
    assert pkg.settings_for(True, seed=4) == fw.RunSettings(quick=True, seed=4, replications=3)
    assert pkg.settings_for(False).precision == 0.01
    assert pkg.default_out_dir == "reproduce-toy"
    calls: list[str] = []
    rep = pkg.reproduce(figures=[1], quick=True, out_dir=tmp_path / "a", runner=_runner_factory(calls),
                        stream=io.StringIO())
    assert seen == [("always", [1], True)] and calls and rep.files[-1].name == "always.txt"
    seen.clear()
    rep = pkg.reproduce(figures=[5], quick=True, out_dir=tmp_path / "b", runner=_runner_factory([]),
                        stream=io.StringIO())
    assert seen == [("always", [5], True), ("fig5", [5], True)]  # "traced" simulates: skipped
    assert list(rep.data.figures) == []  # figure 5 is a trace figure: nothing swept


def test_full_pass_reports_points_short_of_the_precision_target(tmp_path: Path) -> None:
    # The toy runner's intervals are ±1%: within a 2.5% target, short of a 0.5% one.
    # Full mode: 3 x values × 3 curves plus the sensitivity variant's 3 points.
    for target, expected in ((0.025, "Precision: all 12 points within ±2.5%"),
                             (0.005, "Precision: 0 of 12 points within ±0.5%; at the replication cap: fig1 fast_ab x=100 (±1.0%, n=5)")):
        stream = io.StringIO()
        fw.reproduce_study(_ToyStudy(), out_dir=tmp_path / str(target), settings=fw.RunSettings(quick=False, precision=target),
                           runner=_runner_factory([]), stream=stream, quiet=True)
        assert expected in stream.getvalue(), stream.getvalue()


def test_unknown_figure_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no figure 7"):
        fw.reproduce_study(_ToyStudy(), figures=[7], out_dir=tmp_path, settings=fw.RunSettings(quick=True),
                           runner=_runner_factory([]))


def test_simulate_runs_goes_through_the_store_and_reuses_it(tmp_path: Path) -> None:
    pytest.importorskip("arqlab._core")
    from arqlab.store import Store

    sc = {
        "run": {"duration_s": 30.0, "warmup_s": 1.0},
        "link": {"rate_bps": 48000.0, "delay_s": 0.01, "bit_error_rate": 1e-5},
        "protocol": {"kind": "hdlc", "mode": "abm"},
        "traffic": {"a": {"kind": "saturated", "length": {"dist": "constant", "mean_bits": 1000}}},
    }
    reqs = [fw.RunRequest("r1", sc, 1, 3, None), fw.RunRequest("r2", {**sc, "link": {**sc["link"], "delay_s": 0.05}}, 1, 3, None)]
    path = tmp_path / "store.sqlite"
    first = fw.simulate_runs(reqs, workers=1, store=path)
    with Store(path) as st:
        assert st.count() == 6
    again = fw.simulate_runs(reqs, workers=1, store=path)
    # As JSON text: undefined measures are NaN, which is not equal to itself.
    assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True)
    assert first["r1"]["a_to_b"]["throughput_efficiency"]["n"] == 3
    # Each run's replications, kept for the claims that pair runs or count replications:
    # their t-interval is the summary's, and the store gives the same values again.
    observed: dict[str, fw.Observations] = {}
    cost: dict[str, tuple[int, int]] = {}
    fw.simulate_runs(reqs, workers=1, store=path, observed=observed, cost=cost)
    # A run's cost is its replications and the events they simulated, as stored.
    import sqlite3

    with sqlite3.connect(path) as db:
        stored_events = db.execute("SELECT SUM(events) FROM replications").fetchone()[0]
    assert cost["r1"][0] == cost["r2"][0] == 3
    assert 0 < cost["r1"][1] and cost["r1"][1] + cost["r2"][1] == stored_events
    values = observed["r1"][("a_to_b", "throughput_efficiency")]
    stat = first["r1"]["a_to_b"]["throughput_efficiency"]
    e = fw.t_interval(values)
    assert len(values) == 3 and len(set(values)) == 3
    assert (e.mean, e.half) == (pytest.approx(stat["mean"], rel=1e-12), pytest.approx(stat["ci95_half_width"], rel=1e-9))


def test_the_cost_line_counts_each_run_once_under_the_first_figure() -> None:
    from arqlab.studies.reproduce import cost_line

    cost = {"a": (10, 1_000_000), "b": (20, 3_000_000), "c": (5, 500_000)}
    line = cost_line({2: ["a", "b", "a"], 3: ["b", "c"]}, cost)
    assert line is not None
    assert "Fig. 2 2 runs, 30 replications, 4.0 M events; Fig. 3 1 runs, 5 replications, 0.5 M events" in line
    assert line.endswith("in all 3 runs, 35 replications, 4.5 M events")
    assert cost_line({2: ["a"]}, {}) is None, "a substituted runner reports no cost"


def test_figure_data_replications_are_the_runs_observations_in_plot_units() -> None:
    """A point's replications come from its run's observations (divided by the point's
    norm, replication 0 first, NaN kept in place so that two runs pair by position);
    without them a point with CI 0 is n equal values, and any other point has none."""
    import pandas as pd

    from arqlab.studies.spec import Curve, Figure

    fig = Figure(1, "t", {}, "x", "y", "m", (1.0,), (1.0,), lambda x: {}, (Curve("c", "c", "d"), Curve("k", "k", "d")))
    frame = pd.DataFrame([
        {"curve": "c", "variant": "", "x": 1.0, "y": 2.0, "y_ci95_half_width": 1.0, "n": 3, "run": "r", "direction": "d",
         "measure": "m", "norm": 2.0},
        {"curve": "c", "variant": "", "x": 2.0, "y": 5.0, "y_ci95_half_width": 0.0, "n": 4, "run": "s", "direction": "d",
         "measure": "m", "norm": 1.0},
        {"curve": "k", "variant": "", "x": 1.0, "y": 5.0, "y_ci95_half_width": 1.0, "n": 4, "run": "s", "direction": "d",
         "measure": "m", "norm": 1.0},
    ])
    fd = fw.FigureData(fig, frame, observed={"r": {("d", "m"): (2.0, float("nan"), 6.0, 8.0)}})
    got = fd.replications("c", 1.0)
    assert got is not None and got[0] == 1.0 and math.isnan(got[1]) and got[2] == 3.0 and len(got) == 3, got
    assert fd.replications("c", 2.0) == (5.0,) * 4, "CI 0: every replication is the mean"
    assert fd.replications("k", 1.0) is None, "a spread and no observations: unknown"
    assert fd.replications("c", 9.0) is None
    assert str(fd.with_variant("").replications("c", 1.0)) == str(got), "a variant view keeps the observations"


def test_t_interval_and_paired_differences() -> None:
    """The t-interval of a list (Student's t at n − 1 degrees of freedom), NaN dropped;
    paired(A, B) is that of A − B pair by pair over the shorter list."""
    e = fw.t_interval([1.0, 2.0, 3.0, float("nan")])
    assert (e.mean, e.n) == (2.0, 3) and e.half == pytest.approx(4.302652729911275 * 1.0 / math.sqrt(3))
    assert fw.t_interval([4.0, 4.0]) == fw.Est(4.0, 0.0, 2)
    one = fw.t_interval([4.0])
    assert one.mean == 4.0 and math.isnan(one.half) and not one.valid
    assert math.isnan(fw.t_interval([]).mean)
    d = fw.paired([10.0, 20.0, 31.0, 99.0], [9.0, 19.0, 29.0])
    assert (d.mean, d.n) == (pytest.approx(4 / 3), 3) and d.half == pytest.approx(4.302652729911275 * math.sqrt(1 / 3) / math.sqrt(3))
    assert fw.paired([1.0, float("nan"), 3.0], [0.0, 0.0, 2.0]) == fw.Est(1.0, 0.0, 2)


def testplain_metrics_tolerates_partial_results() -> None:
    m = fw.plain_metrics({"a_to_b": {"throughput_efficiency": {"mean": 0.5, "ci95_half_width": 0.01, "n": 3}}, "junk": 3})
    assert m == {"a_to_b": {"throughput_efficiency": {"mean": 0.5, "ci95_half_width": 0.01, "n": 3.0}}}


def test_run_key_is_deterministic_and_sensitive() -> None:
    k1 = fw.run_key({"a": 1, "b": 2}, 1, 3, None)
    assert k1 == fw.run_key({"b": 2, "a": 1}, 1, 3, None)
    assert k1 != fw.run_key({"a": 1, "b": 2}, 2, 3, None)
    assert not math.isnan(float(int(k1, 16)))


# ----------------------------------------------------------------------------- CLI


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nosuchpaper"], "unknown study 'nosuchpaper'"),
        (["bux1982", "--figure", "1"], "has no figure 1"),
        (["bux1982", "--figure", "12"], "has no figure 12"),
        (["bux1982", "--figure", "two"], "expects a figure number"),
        (["bux1982", "--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_cli_bad_input_exits_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_register_cli_adds_reproduce() -> None:
    parser = argparse.ArgumentParser(prog="arqlab")
    sub = parser.add_subparsers(dest="command")
    register_cli(sub)
    args = parser.parse_args(["reproduce", "bux1982", "--figure", "7", "--figure", "9", "--quick", "--out", "d",
                              "--workers", "2", "--store", "s.db", "--quiet"])
    assert args.handler is handler
    assert args.figures == ["7", "9"] and args.quick and args.out == "d" and args.workers == 2
    assert args.store == "s.db" and args.quiet and args.dask is None


def _poisson_point(key: str, load: float, carried: float, rel_half_width: float) -> tuple[fw.RunRequest, dict[str, Any]]:
    scn = {"traffic": {"a": {"kind": "poisson", "load": load, "length": {"mean_bits": 800}},
                       "b": {"kind": "poisson", "load": load, "length": {"mean_bits": 800}}},
           "run": {"duration_s": 100.0, "precision": 0.025, "max_replications": 2000}}
    req = fw.RunRequest(key, scn, 1, None, 0.025, key)
    row = {"curve": key, "variant": "", "x": load, "direction": "a_to_b", "run": key, "rel_half_width": rel_half_width,
           "capacity": float("nan"), "capacity_ci95_half_width": float("nan"), "steady_state": "", "n": 2000}
    return req, {"a_to_b": {"throughput_efficiency": {"mean": carried, "ci95_half_width": 0.001, "n": 10}}} | {"row": row}


def test_check_capacity_marks_points_without_a_steady_state() -> None:
    import pandas as pd

    cases = {
        "stable": _poisson_point("stable", 0.5, 0.5, 0.01),  # carried = offered, precise
        "overloaded": _poisson_point("overloaded", 0.7, 0.46, 0.01),  # carried 34% short
        "warmup": _poisson_point("warmup", 0.8, 0.797, 0.01),  # 0.25% short: not flagged
        "at_capacity": _poisson_point("at_capacity", 0.8, 0.7995, 0.04),  # missed the target
        "near_capacity": _poisson_point("near_capacity", 0.7, 0.6995, 0.04),  # missed, below capacity
    }
    runs = {k: req for k, (req, _) in cases.items()}
    metrics = {k: {"a_to_b": m["a_to_b"]} for k, (_, m) in cases.items()}
    frame = pd.DataFrame([m["row"] for _, m in cases.values()])
    asked: list[fw.RunRequest] = []

    def simulate(reqs: list[fw.RunRequest]) -> dict[str, fw.Metrics]:
        asked.extend(reqs)
        # The saturated counterpart carries 0.8005 ± 0.002 whatever the load.
        return {r.key: {"a_to_b": {"throughput_efficiency": {"mean": 0.8005, "ci95_half_width": 0.002, "n": 10}}} for r in reqs}

    fw.check_capacity({1: frame}, runs, metrics, 0.025, simulate)
    state = dict(zip(frame.curve, frame.steady_state))
    assert state == {"stable": "yes", "overloaded": "no", "warmup": "yes", "at_capacity": "no", "near_capacity": "yes"}
    # Only the two points short of the target need a capacity, and they share one saturated
    # run: without the load their scenarios are the same.
    assert [r.label for r in asked] == ["capacity of at_capacity"]
    sat = asked[0].scenario
    assert sat["traffic"]["a"]["kind"] == sat["traffic"]["b"]["kind"] == "saturated" and "load" not in sat["traffic"]["a"]
    assert sat["run"]["replications"] == fw.CAPACITY_REPLICATIONS and "precision" not in sat["run"]
    assert runs["at_capacity"].scenario["traffic"]["a"]["kind"] == "poisson", "the original run is not modified"
    cap = frame.set_index("curve").loc["at_capacity"]
    assert cap.capacity == 0.8005 and cap.capacity_ci95_half_width == 0.002
    row = next(frame[frame.curve == "at_capacity"].itertuples(index=False))
    assert fw.short_point_note(1, row) == "fig1 at_capacity x=0.8 (±4.0%, n=2000; capacity 0.8005 ± 0.0020, at or beyond capacity: no steady state)"
