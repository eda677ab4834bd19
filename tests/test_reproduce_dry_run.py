"""``arqlab reproduce STUDY --dry-run``: the options are checked as for a real pass, the
plan (figures, points, runs, the robustness design) is printed, and nothing is simulated
or written — what the documentation test runs for a robustness pass."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from arqlab.gsa.design import plan_for_budget
from arqlab.studies import get_study
from arqlab.studies.plan import plan_figure
from arqlab.studies.robustness import uncertain_inputs


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", "reproduce", *args], capture_output=True, text=True,
                          timeout=300)


def test_a_dry_run_prints_the_plan_of_the_pass_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    started = time.monotonic()
    p = cli("comer-korb", "--quick", "--dry-run", "--figure", "2", "--figure", "1", "--out", str(out), "--store",
            str(tmp_path / "s.sqlite"))
    assert p.returncode == 0, p.stderr
    assert time.monotonic() - started < 60, "planned, not simulated"
    study = get_study("comer-korb")
    (fig2,) = [f for f in study.figures() if f.number == 2]
    points, runs, _ = plan_figure(fig2, study.settings_for(True))
    assert p.stdout.splitlines() == [
        "arqlab reproduce comer-korb --dry-run: nothing simulated, nothing written",
        f"  pass: quick: {study.settings_for(True).replications} replications per run",
        f"  Fig. 2: {len(points)} points, {len(runs)} runs",
        "  Fig. 1: drawn from a trace",
        f"  total: {len(runs)} distinct runs; outputs to {out}",
    ]
    assert list(tmp_path.iterdir()) == [], "no output folder, no store"


def test_a_dry_run_of_a_robustness_pass_names_the_design_and_checks_its_budget() -> None:
    k = len(uncertain_inputs(get_study("colella")))
    p = cli("colella", "--robustness", "--figure", "4", "--dry-run")
    assert p.returncode == 0, p.stderr
    plan = plan_for_budget(k, 40)
    assert p.stdout.splitlines()[-1] == f"  robustness: {plan.method}, {plan.points(k)} design points, each a quick pass"
    bad = cli("colella", "--robustness", "--budget", "3", "--dry-run")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip() == (f"arqlab reproduce: error: budget = 3: Morris over {k} inputs needs at least "
                                  f"{2 * (k + 1)} evaluations (two trajectories)")


def test_a_dry_run_refuses_what_a_pass_refuses(tmp_path: Path) -> None:
    existing = tmp_path / "f"
    existing.write_text("keep")
    for args, message in ((["bux1982", "--figure", "99"], "bux1982 has no figure 99"),
                          (["johnson", "--table", "11"], "johnson has no table 11"),
                          (["bux1982", "--budget", "5"], "--budget and --method apply to --robustness only"),
                          (["johnson", "--out", str(existing)], f"--out {existing}: exists and is not a directory")):
        p = cli(*args, "--dry-run")
        assert p.returncode == 2 and message in p.stderr, (args, p.stderr)
    assert existing.read_text() == "keep"
