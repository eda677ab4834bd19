"""What a newcomer trips over (issue 16): quick start-up, help for every option, output
that says what was run, a useful `store ls`, and the polish items of item 12."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

from arqlab import cli, demo
from arqlab.store import Store
from arqlab.sweep import sweep
from arqlab.testing import fake_run_replication

SCENARIO = "scenarios/go_back_n.toml"
QUICK = ["--set", "run.duration_s=30", "--set", "run.warmup_s=1"]
HEAVY = ("pandas", "matplotlib", "rich", "numpy", "pyarrow", "jinja2")


def run_cli(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True,
                          timeout=300, **kw)  # type: ignore[call-overload]


# ------------------------------------------------------------------ start-up
def test_quick_commands_import_nothing_heavy() -> None:
    # The deterministic half of the start-up benchmark (benches/test_startup.py).
    script = ("import sys\nfrom arqlab import cli\ntry:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
              f"print('HEAVY', [m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)\n")
    for argv in (["--version"], ["--help"], ["check", SCENARIO]):
        p = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, timeout=60)
        assert p.stderr.strip().splitlines()[-1] == "HEAVY []", argv


# ------------------------------------------------------------------ help
def _parsers(parser: argparse.ArgumentParser, path: str = "arqlab") -> list[tuple[str, argparse.ArgumentParser]]:
    out = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _parsers(sub, f"{path} {name}")
    return out


def test_every_option_has_help_text() -> None:
    missing = []
    for path, parser in _parsers(cli.build_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if action.option_strings and not action.help:
                missing.append(f"{path} {'/'.join(action.option_strings)}")
    assert missing == []


def test_listed_help_matches_each_command() -> None:
    full = cli.build_parser()
    lazy = cli.build_parser(None)
    helps = []
    for parser in (full, lazy):
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps.append({a.dest: a.help for a in sub._choices_actions})
    assert helps[0] == helps[1]


def test_reproduce_help_is_written_for_users() -> None:
    p = run_cli("reproduce", "--help")
    assert p.returncode == 0
    assert "``" not in p.stdout and ":func:" not in p.stdout and "register_cli" not in p.stdout
    assert "claims" in p.stdout


# ------------------------------------------------------------------ what was run
def test_run_shows_the_overrides_under_the_title() -> None:
    p = run_cli("run", SCENARIO, "--set", "link.bit_error_rate=1e-4", "--replications", "2", "--no-store", *QUICK)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "p_bit = 1e-5" in lines[0]  # the file's title …
    assert lines[1].strip().startswith("with link.bit_error_rate=0.0001")  # … and what was changed


def test_json_scenario_shows_the_replications_run() -> None:
    p = run_cli("run", SCENARIO, "--replications", "3", "--json", "--no-store", *QUICK)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["replications"] == 3 and out["scenario"]["run"]["replications"] == 3


def test_wall_time_agrees_between_summary_and_final_line() -> None:
    p = run_cli("run", SCENARIO, "--replications", "4", "--workers", "2", "--no-store", *QUICK)
    assert p.returncode == 0, p.stderr
    summary = float(re.search(r"([\d.]+) s wall", p.stderr).group(1))  # type: ignore[union-attr]
    final = float(re.search(r"in ([\d.]+) wall s", p.stdout).group(1))  # type: ignore[union-attr]
    assert f"{final:.1f}" == f"{summary:.1f}"


def test_run_warns_when_there_is_no_steady_state() -> None:
    p = run_cli("run", "scenarios/hdlc_abm_poisson.toml", "--set", "traffic.a.load=0.99", "--set",
                "link.bit_error_rate=1e-4", "--replications", "2", "--no-store", "--set", "run.duration_s=200",
                "--set", "run.warmup_s=10")
    assert p.returncode == 0, p.stderr
    assert "arqlab run: warning: no steady state in a_to_b: offered load 0.99" in p.stderr
    p = run_cli("run", "scenarios/hdlc_abm_poisson.toml", "--replications", "2", "--no-store",
                "--set", "run.duration_s=200", "--set", "run.warmup_s=10")
    assert p.returncode == 0 and "steady state" not in p.stderr


def test_reproduce_writes_no_progress_lines_when_not_a_terminal(tmp_path: Path) -> None:
    p = run_cli("reproduce", "bux1982", "--quick", "--figure", "2", "--no-store", "--out", str(tmp_path / "r"))
    assert p.returncode == 0, p.stderr
    assert "\r" not in p.stderr and "runs done" not in p.stderr


# ------------------------------------------------------------------ store ls, demo, README
def test_store_ls_shows_kind_title_points_replications_and_date(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        sweep(SCENARIO, {"link.delay_s": [0.01, 0.1]}, replications=3, executor="serial", store=store,
              runner=fake_run_replication, name="delay sweep")
        sweep(SCENARIO, {"protocol.window": [3]}, replications=2, executor="serial", store=store,
              runner=fake_run_replication, name="fig 4", study="bux1982", figure="4")
    p = run_cli("store", "--store", str(path), "ls")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[1].split() == ["KIND", "KEY", "TITLE", "POINTS", "REPLICATIONS", "DATE"]
    sweep_line = next(line for line in lines if line.startswith("sweep"))
    assert "delay sweep" in sweep_line and re.search(r"\b2\s+6\s+\d{4}-\d\d-\d\d", sweep_line)
    assert any(line.startswith("study") and "bux1982/fig 4" in line for line in lines)


def test_demo_table_header_is_not_cut() -> None:
    rows = [{"protocol.kind": k, "traffic.a.length.mean_bits": x, "mean": 0.5, "ci95_half_width": 0.01,
             "closed_form": 0.5} for k in demo.KINDS for x in demo.LENGTHS]
    header = demo.table(pd.DataFrame(rows)).splitlines()[0]
    for k in demo.KINDS:
        assert demo.LABELS[k] in header


def test_readme_writes_outputs_under_the_ignored_results_folder() -> None:
    readme = Path("README.md").read_text(encoding="utf-8")
    outs = re.findall(r"--out (\S+)", readme)
    assert outs and all(o.startswith("arqlab-results/") for o in outs), outs
    assert "/arqlab-results/" in Path(".gitignore").read_text().splitlines()


def test_readme_says_how_to_reach_arqlab_before_the_first_command() -> None:
    # Issue 29 item 11: after `make demo`, `arqlab` is in .venv/bin, not on PATH; the README
    # must say so before it first shows an `arqlab` command.
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    first = re.search(r"^arqlab (run|check|sweep|reproduce|trace|ladder|report|store) ", text, re.M)
    assert first is not None
    before = text[: first.start()]
    assert "source .venv/bin/activate" in before and ".venv/bin/arqlab" in before and "PATH" in before
