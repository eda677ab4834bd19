"""Global sensitivity analysis (arqlab.gsa): the SALib designs against responses whose
indices are known exactly, the spec's errors, and `arqlab sensitivity` on stop-and-wait
against the closed form's indices over the same design."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from arqlab.errors import ScenarioError
from arqlab.gsa import DesignError, Factor, analyse, parse_spec, plan_for_budget, sample, share_interval, values
from arqlab.theory import Params, stop_and_wait

ROOT = Path(__file__).resolve().parents[1]
LINEAR = (Factor("a", "x.a", 0.0, 1.0), Factor("b", "x.b", 0.0, 1.0), Factor("c", "x.c", 0.0, 1.0))


def _linear(unit: np.ndarray) -> np.ndarray:
    return 3.0 * unit[:, 0] - 1.0 * unit[:, 1] + 0.0 * unit[:, 2]


def _index(ix, name: str, index: str) -> float:
    return float(ix[(ix["input"] == name) & (ix["index"] == index)]["value"].iloc[0])


def test_morris_elementary_effects_of_a_linear_response_are_its_coefficients() -> None:
    plan = plan_for_budget(3, 40, "morris")
    unit = sample(LINEAR, plan, seed=3)
    ix = analyse(LINEAR, plan, unit, _linear(unit), seed=3)
    # Each elementary effect of y = 3a − b is exactly the coefficient: μ = coefficient,
    # μ* = |coefficient|, σ = 0.
    assert _index(ix, "a", "mu") == pytest.approx(3.0) and _index(ix, "b", "mu") == pytest.approx(-1.0)
    assert _index(ix, "a", "mu_star") == pytest.approx(3.0) and _index(ix, "c", "mu_star") == pytest.approx(0.0)
    assert _index(ix, "a", "sigma") == pytest.approx(0.0, abs=1e-9)


def test_sobol_first_order_shares_of_a_linear_response_are_the_squared_coefficients() -> None:
    plan = plan_for_budget(3, 256 * 5, "sobol")
    assert plan.size == 256
    unit = sample(LINEAR, plan, seed=5)
    ix = analyse(LINEAR, plan, unit, _linear(unit), seed=5)
    # Var(3a − b) ∝ 9 + 1: S1 = ST = 0.9 for a, 0.1 for b, 0 for c (no interactions).
    for name, share in (("a", 0.9), ("b", 0.1), ("c", 0.0)):
        for index in ("S1", "ST"):
            row = ix[(ix["input"] == name) & (ix["index"] == index)].iloc[0]
            assert row["value"] == pytest.approx(share, abs=0.05)
            assert row["ci95_low"] <= share + 0.02 and row["ci95_high"] >= share - 0.02


def test_budget_picks_sobol_only_when_it_buys_a_base_sample_of_sixteen() -> None:
    assert plan_for_budget(4, 95).method == "morris" and plan_for_budget(4, 95).size == 19
    assert plan_for_budget(4, 96) == plan_for_budget(4, 96, "sobol")
    assert plan_for_budget(4, 96).size == 16 and plan_for_budget(4, 96).points(4) == 96
    assert plan_for_budget(4, 48, "sobol").size == 8  # asked for: the largest power of two that fits
    with pytest.raises(DesignError, match="budget = 9: Morris over 4 inputs needs at least 10"):
        plan_for_budget(4, 9)
    with pytest.raises(DesignError, match="method = 'fast'"):
        plan_for_budget(4, 100, "fast")


def test_levels_and_log_ranges_map_the_unit_interval() -> None:
    f = Factor("mode", "protocol.kind", levels=("x", "y", "z"))
    assert [f.value(u) for u in (0.0, 0.33, 0.34, 0.99, 1.0)] == ["x", "x", "y", "z", "z"]
    g = Factor("p", "link.bit_error_rate", 1e-6, 1e-4, log=True)
    assert g.value(0.5) == pytest.approx(1e-5)
    with pytest.raises(DesignError, match="log-scaled range needs low > 0"):
        Factor("p", "k", 0.0, 1.0, log=True)
    with pytest.raises(DesignError, match="expected finite low < high"):
        Factor("p", "k", 2.0, 1.0)


def test_share_interval_is_wilson() -> None:
    p, lo, hi = share_interval(10, 10)
    assert p == 1.0 and hi == pytest.approx(1.0) and 0.69 < lo < 0.73  # Wilson: 0.722 for 10 of 10
    p, lo, hi = share_interval(0, 20)
    assert p == 0.0 and lo == pytest.approx(0.0) and 0.15 < hi < 0.17


def test_spec_errors_name_the_field_the_value_and_what_is_expected() -> None:
    with pytest.raises(ScenarioError) as e:
        parse_spec({"method": "fast", "budget": 1, "inputs": {
            "t_p": {"key": "link.delay_s", "low": 0.2, "high": 0.1},
            "p": {"key": "", "low": 0, "high": 1},
            "v": {"key": "link.rate_bps", "low": "x", "high": 2},
            "w": {"key": "protocol.window", "levels": [1, 2], "typo": 1}}})
    text = "\n".join(e.value.problems)
    assert "method = 'fast': expected \"morris\" or \"sobol\"" in text
    assert "budget = 1: expected a whole number >= 2" in text
    assert "inputs.t_p: low = 0.2, high = 0.1: expected finite low < high" in text
    assert "inputs.p.key = '': expected a dotted scenario key" in text
    assert "inputs.v.low = 'x': expected a number" in text
    assert "inputs.w.typo: unknown key" in text


# ----------------------------------------------------------- stop-and-wait, simulated

SAW_SPEC = {
    "seed": 7,
    "inputs": {
        "t_p": {"key": "link.delay_s", "low": 0.005, "high": 0.1},
        "rate": {"key": "link.rate_bps", "low": 4800.0, "high": 19200.0, "log": True},
        "p": {"key": "link.bit_error_rate", "low": 1e-6, "high": 2e-4, "log": True},
    },
}


def _saw_closed_form(row: dict[str, float]) -> float:
    # scenarios/stop_and_wait.toml: l = 1000, h = ack = 48, T_o = 0.3 s, both directions at p.
    return stop_and_wait(Params(l=1000, h=48, ack=48, v=row["rate"], tp=row["t_p"], p=row["p"], p_ack=row["p"],
                                timeout=0.3))


def test_stop_and_wait_sensitivities_match_the_closed_form() -> None:
    """Morris indices of the simulated efficiency over (t_p, rate, p) have the closed
    form's signs (all three lower it) and ranking, and μ* within 5% of the closed form's
    over the same design."""
    import arqlab

    result = arqlab.sensitivity(ROOT / "scenarios" / "stop_and_wait.toml", SAW_SPEC, "a_to_b.throughput_efficiency",
                                method="morris", budget=24, replications=3,
                                overrides={"run.duration_s": 400.0, "run.warmup_s": 5.0})
    assert result.plan.method == "morris" and len(result.points) == 24
    factors = tuple(Factor(n, t["key"], t["low"], t["high"], log=t.get("log", False))
                    for n, t in SAW_SPEC["inputs"].items())
    unit = sample(factors, result.plan, 7)
    exact = analyse(factors, result.plan, unit, [_saw_closed_form(r) for r in values(factors, unit)], 7)
    sim = result.indices
    for name in ("t_p", "rate", "p"):
        assert _index(exact, name, "mu") < 0 and _index(sim, name, "mu") < 0, name
        assert _index(sim, name, "mu_star") == pytest.approx(_index(exact, name, "mu_star"), rel=0.05), name

    def ranking(ix) -> list[str]:
        return ix[ix["index"] == "mu_star"].sort_values("value", ascending=False)["input"].tolist()

    assert ranking(sim) == ranking(exact)
    assert math.isfinite(float(result.points["a_to_b.throughput_efficiency"].min()))


def test_sensitivity_cli_writes_tidy_tables_and_a_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from arqlab.cli import main

    spec = tmp_path / "spec.toml"
    spec.write_text('budget = 8\nreplications = 2\n[inputs.t_p]\nkey = "link.delay_s"\nlow = 0.005\nhigh = 0.1\n'
                    '[inputs.p]\nkey = "link.bit_error_rate"\nlow = 1e-6\nhigh = 1e-4\nlog = true\n')
    rc = main(["sensitivity", str(ROOT / "scenarios" / "stop_and_wait.toml"), str(spec), "--measure",
               "a_to_b.throughput_efficiency", "--set", "run.duration_s=200", "--no-store", "--out", str(tmp_path / "o")])
    assert rc == 0
    out = capsys.readouterr().out
    assert "morris over 2 inputs, 6 evaluations, response a_to_b.throughput_efficiency" in out
    for name in ("indices.csv", "points.csv", "sensitivity.png", "sensitivity.svg"):
        assert (tmp_path / "o" / name).exists()
    import pandas as pd

    ix = pd.read_csv(tmp_path / "o" / "indices.csv")
    assert list(ix.columns) == ["method", "response", "input", "index", "value", "ci95_low", "ci95_high"]
    assert set(ix["index"]) == {"mu", "mu_star", "sigma"}


def test_sensitivity_cli_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from arqlab.cli import main

    spec = tmp_path / "spec.toml"
    spec.write_text('[inputs.t_p]\nkey = "link.delay_s"\nlow = -1\nhigh = 0.1\nlog = true\n')
    scn = str(ROOT / "scenarios" / "stop_and_wait.toml")
    assert main(["sensitivity", scn, str(spec), "--measure", "throughput_efficiency"]) == 2
    err = capsys.readouterr().err
    assert "inputs.t_p: low = -1.0: a log-scaled range needs low > 0" in err and "Traceback" not in err
    spec.write_text('[inputs.t_p]\nkey = "link.delay_s"\nlow = 0.01\nhigh = 0.1\n')
    assert main(["sensitivity", scn, str(spec), "--measure", "nonsense", "--budget", "4", "--no-store",
                 "--set", "run.duration_s=50", "--replications", "1"]) == 2
    assert "--measure 'nonsense': no direction of the scenario reports it" in capsys.readouterr().err
    assert main(["sensitivity", scn, str(tmp_path / "missing.toml"), "--measure", "x"]) == 2
    assert "cannot read the sensitivity spec" in capsys.readouterr().err


# ----------------------------------------------- the explicit (multi-node) form, simulated

TANDEM_SPEC = {
    "seed": 11,
    "inputs": {
        "d2": {"key": "medium.l2.delay_s", "low": 0.005, "high": 0.1},
        "load": {"key": "flow.a->b.traffic.load", "low": 0.2, "high": 0.55},
    },
}


def _tandem_closed_form(row: dict[str, float]) -> float:
    # scenarios/topologies/tandem.toml: M/D/1 sojourn on l1 + one transmission on l2 + both
    # propagation delays (l2 has l1's rate, so it never queues; crates/arqlab/tests/topologies.rs).
    rate, l, h, d1 = 9600.0, 1000.0, 48.0, 0.005
    s = (l + h) / rate
    rho = row["load"] * rate / l * s
    return rho * s / (2.0 * (1.0 - rho)) + 2.0 * s + d1 + row["d2"]


def _explicit_form(method: str, budget: int, source: object) -> tuple[object, object]:
    """The simulated indices of the tandem's end-to-end delay and the closed form's over
    the same design."""
    import arqlab

    result = arqlab.sensitivity(source, TANDEM_SPEC, "flow.a->b.transfer_time_s", method=method, budget=budget,
                                replications=2, overrides={"run.duration_s": 1500.0})
    factors = tuple(Factor(n, t["key"], t["low"], t["high"]) for n, t in TANDEM_SPEC["inputs"].items())
    unit = sample(factors, result.plan, 11)
    exact = analyse(factors, result.plan, unit, [_tandem_closed_form(r) for r in values(factors, unit)], 11)
    return result, exact


def test_morris_on_the_explicit_form_matches_the_tandem_closed_form() -> None:
    """`run --set` key paths of the explicit form (a named medium, a flow) as inputs, a
    flow's measure as the response: both inputs raise the delay (μ > 0), d2 exactly one
    for one (μ = μ* = its range, σ = 0 in the closed form), and the simulated μ* match
    the closed form's."""
    result, exact = _explicit_form("morris", 12, ROOT / "scenarios" / "topologies" / "tandem.toml")
    assert _index(exact, "d2", "mu") == pytest.approx(0.095)
    for name, rel in (("d2", 0.02), ("load", 0.10)):
        assert _index(result.indices, name, "mu") > 0, name
        assert _index(result.indices, name, "mu_star") == pytest.approx(_index(exact, name, "mu_star"), rel=rel), name


def test_sobol_on_the_explicit_form_as_a_dict_ranks_the_inputs_as_the_closed_form() -> None:
    """The Python API takes either form as a dict too. The delay is additive in d2 and
    load, so each input's total index equals its first-order one; d2's range dominates,
    as in the closed form over the same Saltelli sample."""
    import tomllib

    scn = tomllib.loads((ROOT / "scenarios" / "topologies" / "tandem.toml").read_text())
    result, exact = _explicit_form("sobol", 256, scn)
    assert result.plan.method == "sobol" and len(result.points) == 256
    for ix in (exact, result.indices):
        assert _index(ix, "d2", "ST") > _index(ix, "load", "ST") > 0.05
    for name in ("d2", "load"):
        assert _index(result.indices, name, "ST") == pytest.approx(_index(exact, name, "ST"), abs=0.05), name
        assert _index(result.indices, name, "S1") == pytest.approx(_index(exact, name, "S1"), abs=0.1), name


def test_sensitivity_cli_on_the_explicit_form_writes_tidy_tables_and_a_plot(tmp_path: Path) -> None:
    """`arqlab sensitivity` on a multi-node scenario: named-medium and flow key paths in the
    spec and in --set, the same tidy CSVs and μ*–σ plot as for the short form."""
    import pandas as pd

    from arqlab.cli import main

    spec = tmp_path / "spec.toml"
    spec.write_text('budget = 6\nreplications = 1\n[inputs.d2]\nkey = "medium.l2.delay_s"\nlow = 0.005\nhigh = 0.1\n'
                    '[inputs.load]\nkey = "flow.a->b.traffic.load"\nlow = 0.2\nhigh = 0.5\n')
    rc = main(["sensitivity", str(ROOT / "scenarios" / "topologies" / "tandem.toml"), str(spec), "--measure",
               "flow.a->b.transfer_time_s", "--set", "run.duration_s=300", "--set", "medium.l1.delay_s=0.01",
               "--no-store", "--out", str(tmp_path / "o")])
    assert rc == 0
    for name in ("indices.csv", "points.csv", "sensitivity.png", "sensitivity.svg"):
        assert (tmp_path / "o" / name).stat().st_size > 0
    points = pd.read_csv(tmp_path / "o" / "points.csv")
    assert {"d2", "load", "flow.a->b.transfer_time_s", "replications"} <= set(points.columns) and len(points) == 6
    ix = pd.read_csv(tmp_path / "o" / "indices.csv")
    assert set(ix["input"]) == {"d2", "load"} and (ix[ix["index"] == "mu"]["value"] > 0).all()
