"""Where a study's CPU goes (arqlab.studies.cost): the plan it samples, the replications a
pilot says the precision target needs, the extrapolation, bad input."""

from __future__ import annotations

import io
import math

import pytest

from arqlab.studies import bux1982
from arqlab.studies.cost import RunCost, main, plan_runs, print_table, replications_needed, sample
from arqlab.studies.student_t import t95


def half_width(s: float, n: int) -> float:
    return t95(n - 1) * s / math.sqrt(n)


@pytest.mark.parametrize("s", [0.01, 0.05, 0.2, 0.7])
def test_the_pilot_gives_the_smallest_n_whose_half_width_meets_the_target(s: float) -> None:
    # Law & Kelton's two-stage estimate: the pilot's standard deviation s held fixed.
    n = replications_needed([(1.0, half_width(s, 10), 10)], 0.025, 10, 2000)
    assert n >= 10
    assert n == 10 or half_width(s, n - 1) > 0.025, "not the smallest"
    assert n == 2000 or half_width(s, n) <= 0.025, "does not meet the target"


def test_the_widest_measure_decides_and_the_cap_holds() -> None:
    narrow, wide = (2.0, half_width(0.01, 10), 10), (-1.0, half_width(0.1, 10), 10)
    both = replications_needed([narrow, wide], 0.025, 10, 2000)
    assert both == replications_needed([wide], 0.025, 10, 2000) > 10
    assert replications_needed([(1.0, half_width(5.0, 10), 10)], 0.025, 10, 2000) == 2000
    assert replications_needed([(1.0, 0.0, 10)], 0.025, 10, 2000) == 10, "no variance: the minimum"
    assert replications_needed([(math.nan, math.nan, 10)], 0.025, 10, 2000) == 2000, "no mean: the cap"


def test_the_plan_is_the_passs_with_shared_runs_once() -> None:
    runs = plan_runs(bux1982)
    keys = [r.request.key for r in runs]
    assert len(keys) == len(set(keys))
    # Figs. 9 and 11 share their error-free runs: attributed to Fig. 9, used by both.
    shared = [r for r in runs if r.figures == (9, 11)]
    assert shared and all(r.figure == 9 for r in shared)
    strata = sample(runs, 3)
    assert sum(n for n, _ in strata.values()) == len(runs)
    assert all(len(picked) == math.ceil(n / 3) for n, picked in strata.values())
    assert {v for _, v in strata} >= {"", "poll_asap", "t1x2"}


def cost(n: int, cpu_per_rep: float, figure: int = 2, variant: str = "") -> RunCost:
    return RunCost(figure, variant, "x", 10, 10, cpu_per_rep, 1e5, 100.0, 0.01, n, 0.02)


def test_a_stratum_is_extrapolated_from_its_sample() -> None:
    out = io.StringIO()
    total = print_table({(2, ""): (6, [cost(10, 0.01), cost(30, 0.01)]), (3, "t1x2"): (1, [cost(10, 0.1)])}, out)
    # Fig. 2: (10 + 30) x 0.01 s over 2 of 6 runs -> 1.2 s; Fig. 3: 10 x 0.1 s.
    assert total == pytest.approx(1.2 + 1.0)
    rows = out.getvalue().splitlines()
    assert rows[1].split()[:4] == ["2", "base", "6", "2"] and rows[1].split()[-2:] == ["50%", "1.2"]
    assert rows[-1].startswith("total: 2 CPU s")


def test_bad_arguments_name_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["nosuchstudy"])
    assert e.value.code == 2 and "unknown study 'nosuchstudy'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["bux1982", "--every", "0"])
    assert e.value.code == 2 and "--every must be at least 1 (got 0)" in capsys.readouterr().err


def test_a_run_is_measured_by_its_pilot_or_by_the_sequential_rule() -> None:
    from arqlab.studies.cost import measure_run

    run = plan_runs(bux1982, figures=[6])[0]
    pilot = measure_run(run, sequential=False)
    assert (pilot.replications, pilot.min_n) == (10, 10) and pilot.n >= 10
    assert pilot.events_per_rep > 0 and pilot.cpu_per_rep > 0 and 0 < pilot.warmup_fraction < 0.01
    full = measure_run(run, sequential=True)
    assert full.n == full.replications >= 10 and full.worst_rel_half_width <= 0.025
    assert full.events_per_rep == pilot.events_per_rep or full.n > 10, "the same first ten replications"
