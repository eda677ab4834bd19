"""``arqlab design`` (``arqlab.design.cli``) line by line (issue 31): the plan it prints
(factors and levels, generators, defining relation and resolution, aliases, sign table),
the effects table (the q column's head under log10, the interval's confidence, "—" for a
missing cell), the header of a run, the CSVs of ``--out`` and the arguments it refuses.
The runs use the fast fake runner, so nothing is simulated."""

from __future__ import annotations

import functools
import io
import math
from pathlib import Path

import pandas as pd
import pytest

import arqlab.design.run as design_run
from arqlab.cli import main
from arqlab.design import analyse, load_design
from arqlab.design.cli import _cell, print_effects, print_plan
from arqlab.testing import fake_run_replication

ROOT = Path(__file__).resolve().parents[1]
GBN = ROOT / "scenarios" / "go_back_n.toml"
FRACTION = """generators = ["C=-AB"]
[response]
measure = "transfer_time_s"
[factors.A]
key = "protocol.window"
levels = [2, 7]
label = "Win"
[factors.B]
levels = [{ "link.bit_error_rate" = 1e-6 }, { "link.bit_error_rate" = 1e-5 }]
level_names = ["lo", "hi"]
[factors.C]
key = "link.rate_bps"
levels = [9600.0, 19200.0]
"""
ONE = '[response]\nmeasure = "transfer_time_s"\n[factors.A]\nkey = "protocol.window"\nlevels = [2, 7]\n'


def printed(fn: object, *args: object) -> list[str]:
    out = io.StringIO()
    fn(*args, out)  # type: ignore[operator]
    return out.getvalue().splitlines()


def test_the_plan_of_a_fraction() -> None:
    assert printed(print_plan, load_design(FRACTION).design) == [
        "2^(3-1) design, 4 runs",
        "  A: Win  low 2 {'protocol.window': 2}  high 7 {'protocol.window': 7}",
        "  B: B  low lo {'link.bit_error_rate': 1e-06}  high hi {'link.bit_error_rate': 1e-05}",
        "  C: link.rate_bps  low 9600.0 {'link.rate_bps': 9600.0}  high 19200.0 {'link.rate_bps': 19200.0}",
        "generators: C=-AB",
        "defining relation: I = -ABC  (resolution 3)",
        "  A = -BC",
        "  B = -AC",
        "  C = -AB",
        "run  I  A  B  C",
        "0    +  -  -  -",
        "1    +  +  -  +",
        "2    +  -  +  +",
        "3    +  +  +  -",
    ]


def test_the_plan_of_a_full_factorial_has_no_relation() -> None:
    assert printed(print_plan, load_design(ONE).design) == [
        "2^1 design, 2 runs",
        "  A: protocol.window  low 2 {'protocol.window': 2}  high 7 {'protocol.window': 7}",
        "run  I  A",
        "0    +  -",
        "1    +  +",
    ]


def test_the_effects_table_with_replications() -> None:
    t = analyse(load_design(ONE).design, [[1.0, 3.0], [5.0, 8.0]], response="r")
    half = t.set_index("effect").loc["A", "ci_high"] - 2.25
    assert printed(print_effects, t) == [
        "effect  label            aliases  q     sign  % variation  95% CI of q",
        "I       mean                      4.25  +     —            " + f"({4.25 - half:.4g}, {4.25 + half:.4g})",
        "A       protocol.window           2.25  +     75.70        " + f"({2.25 - half:.4g}, {2.25 + half:.4g})",
        "error   error                     —           24.30        —",
    ]


def test_the_effects_table_under_log10_and_another_confidence() -> None:
    t = analyse(load_design(ONE).design, [[1.0], [10.0]], log=True, response="r", confidence=0.9)
    assert printed(print_effects, t) == [
        "effect  label            aliases  q (log10)  sign  % variation  90% CI of q",
        "I       mean                      0.5        +     —            —",
        "A       protocol.window           0.5        +     100.00       —",
    ]


def test_a_cell_is_a_dash_only_when_missing() -> None:
    assert (_cell(math.nan), _cell(1.23456), _cell(1.23456, ".2f"), _cell(0.0), _cell(-2.0)) == ("—", "1.235", "1.23",
                                                                                                "0", "-2")


def test_the_default_confidence_heads_the_interval_column() -> None:
    t = analyse(load_design(ONE).design, [[1.0], [10.0]])
    del t.attrs["confidence"]
    assert printed(print_effects, t)[0].split()[-4:] == ["95%", "CI", "of", "q"]
    assert printed(print_effects, t.iloc[0:0].copy())[0].split()[3] == "q"  # no rows: no transform read


@pytest.fixture
def fake_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(design_run, "run_design", functools.partial(design_run.run_design, runner=fake_run_replication))


def test_a_run_prints_its_header_and_writes_both_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        fake_runs: None) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text(FRACTION)
    out = tmp_path / "out"
    args = ["design", str(GBN), str(spec), "--no-store", "--quiet", "--replications", "2"]
    assert main([*args, "--out", str(out), "--log"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2^(3-1) design, 4 runs × 2 replication(s), response a_to_b.transfer_time_s, log10"
    assert lines[1] == "defining relation: I = -ABC  (resolution 3)"
    assert lines[2].split() == ["effect", "label", "aliases", "q", "(log10)", "sign", "%", "variation", "95%", "CI",
                                "of", "q"]
    effects, runs = pd.read_csv(out / "effects.csv"), pd.read_csv(out / "runs.csv")
    assert list(effects["effect"]) == ["I", "A", "B", "C", "error"] and set(effects["transform"]) == {"log10"}
    assert list(runs["B"]) == ["lo", "lo", "hi", "hi"] and list(runs["n"]) == [2, 2, 2, 2]
    spec.write_text(ONE)
    assert main([*args, "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "2^1 design, 2 runs × 2 replication(s), response a_to_b.transfer_time_s"
    assert lines[1].startswith("effect ") and not (tmp_path / "effects.csv").exists()


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """The keyword arguments the command passed to run_design (which runs on the fake runner)."""
    kwargs: dict[str, object] = {}
    real = design_run.run_design

    def spy(*args: object, **kw: object) -> object:
        kwargs.update(kw)
        # recorded as passed; run serially on the fake runner
        return real(*args, **{**kw, "executor": "serial", "workers": None, "runner": fake_run_replication})  # type: ignore[arg-type]

    monkeypatch.setattr(design_run, "run_design", spy)
    return kwargs


def test_the_design_file_s_seed_replications_and_log_are_used(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              seen: dict[str, object]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text("seed = 9\nreplications = 3\nlog = true\n" + ONE)
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet"]) == 0
    assert (seen["seed"], seen["replications"], seen["log"], seen["executor"]) == (9, 3, True, "serial")
    assert capsys.readouterr().out.splitlines()[0].endswith(", log10")
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet", "--seed", "0", "--replications", "2"]) == 0
    assert (seen["seed"], seen["replications"]) == (0, 2)
    spec.write_text(ONE)
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet", "--replications", "2"]) == 0
    assert (seen["seed"], seen["log"], seen["store"]) == (1, False, False)
    capsys.readouterr()


@pytest.mark.parametrize(("extra", "message"), [
    (["--max-runs", "0"], "--max-runs 0: expected a whole number >= 1"),
    (["--dask", "tcp://127.0.0.1:1", "--workers", "2"], "--workers applies to the local pool; with --dask the cluster decides"),
])
def test_refused_arguments_exit_2_and_name_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      extra: list[str], message: str) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text(ONE)
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_max_runs_of_1_on_the_command_line_refuses_a_2_run_design(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text(ONE)
    assert main(["design", str(GBN), str(spec), "--max-runs", "1", "--plan"]) == 2
    assert "more than the limit of 1" in capsys.readouterr().err
    assert main(["design", str(GBN), str(spec), "--max-runs", "2", "--plan"]) == 0
    assert capsys.readouterr().out.startswith("2^1 design, 2 runs\n")


def test_the_plan_checks_every_run_s_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text(ONE.replace("levels = [2, 7]", "levels = [2, 0]"))
    assert main(["design", str(GBN), str(spec), "--plan"]) == 2
    err = capsys.readouterr().err
    assert "run 1 (A=0): protocol.window" in err and "run 0" not in err


def test_the_plan_of_a_quarter_fraction_lists_every_generator_and_alias() -> None:
    # 2^(5-2) with D = AB, E = -AC: I = ABD = -ACE = -BCDE (their product), resolution 3;
    # each effect's aliases are its products with the three words.
    from arqlab.design import Factor, design

    d = design([Factor.on_key(n, f"x.{n.lower()}", 0, 1) for n in "ABCDE"], ["D=AB", "E=-AC"])
    lines = printed(print_plan, d)
    assert lines[:7] == ["2^(5-2) design, 8 runs"] + [f"  {n}: x.{n.lower()}  low 0 {{'x.{n.lower()}': 0}}  high 1 "
                                                       f"{{'x.{n.lower()}': 1}}" for n in "ABCDE"] + [
        "generators: D=AB, E=-AC"]
    assert lines[7:15] == [
        "defining relation: I = ABD = -ACE = -BCDE  (resolution 3)",
        "  A = BD = -CE = -ABCDE",
        "  B = AD = -CDE = -ABCE",
        "  C = -AE = -BDE = ABCD",
        "  D = AB = -BCE = -ACDE",
        "  E = -AC = -BCD = ABDE",
        "  BC = -DE = -ABE = ACD",
        "  BE = -CD = -ABC = ADE",
    ]
    assert lines[15] == "run  I  A  B  C  D  E  BC  BE"
    assert lines[16] == "0    +  -  -  -  +  -  +   +"  # D = AB = +, E = -AC = -


def test_a_cell_in_exponent_form_is_lower_case() -> None:
    assert (_cell(1.5e-7), _cell(2.5e12)) == ("1.5e-07", "2.5e+12")


def test_aliases_are_printed_in_the_effects_table() -> None:
    t = analyse(load_design(FRACTION).design, [[1.0], [2.0], [4.0], [8.0]])
    rows = {line.split()[0]: line.split() for line in printed(print_effects, t)[1:]}
    assert rows["A"][1:3] == ["Win", "-BC"] and rows["C"][1:3] == ["link.rate_bps", "-AB"]
    assert rows["I"][1:3] == ["mean", "-ABC"]  # the mean's aliases: the defining relation


HELP = (
    ("SCENARIO", "the base scenario (TOML)"),
    ("DESIGN", "the design (TOML: factors, generators, response)"),
    ("--set KEY=VALUE", "override a base-scenario value for every run (repeatable)"),
    ("--replications N", "replications per run (overrides the design file)"),
    ("--seed N", "master seed, the same for every run (default 1)"),
    ("--log", "analyse log10 of the response (multiplicative model)"),
    ("--plan", "print the design (sign table, aliases) and stop"),
    ("--max-runs N", "allow designs of up to N runs (default: the file's max_runs, else 4096)"),
    ("--name NAME", "name of the design in the store and report"),
    ("--out DIR", "write DIR/effects.csv and DIR/runs.csv"),
    ("--workers N", "local worker processes"),
    ("--dask tcp://HOST:PORT", "run on this Dask distributed scheduler"),
    ("--store PATH", "result store (default $ARQLAB_STORE or arqlab-results/store.sqlite)"),
    ("--no-store", "do not read or write the result store"),
    ("--reuse-any-version", "reuse stored results of other arqlab versions"),
    ("--quiet", "no progress bar (the table is still printed)"),
)


def test_help_names_every_argument_and_says_what_each_does(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # one line per option
    with pytest.raises(SystemExit):
        main(["design", "--help"])
    lines = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    usage = ("usage: arqlab design [-h] [--set KEY=VALUE] [--replications N] [--seed N] [--log] [--plan] "
             "[--max-runs N] [--name NAME] [--out DIR] [--workers N] [--dask tcp://HOST:PORT] [--store PATH] "
             "[--no-store] [--reuse-any-version] [--quiet] SCENARIO DESIGN")
    assert lines[0] == usage
    text = " ".join(lines)  # a long option's help goes on the next line
    for arg, what in HELP:
        assert f" {arg} {what} " in f"{text} ", arg
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "run a 2^k r or 2^(k-p) factorial design and print its effects" in " ".join(capsys.readouterr().out.split())


def test_every_set_overrides_the_base_of_every_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   seen: dict[str, object]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text(ONE)
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet", "--replications", "2",
                 "--set", "link.rate_bps=19200", "--set", "link.delay_s=0.01"]) == 0
    assert seen["overrides"] == {"link.rate_bps": 19200, "link.delay_s": 0.01}
    capsys.readouterr()


def test_the_response_is_checked_against_the_scenario_with_its_overrides(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # An override that breaks the base scenario: its scopes are unknown, so the response
    # is not judged against them; each run's problem is reported instead.
    spec = tmp_path / "d.toml"
    spec.write_text(ONE.replace("transfer_time_s", "goodput"))
    assert main(["design", str(GBN), str(spec), "--plan"]) == 2
    assert "not a measure of this scenario" in capsys.readouterr().err
    assert main(["design", str(GBN), str(spec), "--plan", "--set", "link.rate_bps=-1"]) == 2
    err = capsys.readouterr().err
    assert "run 0 (A=2): link.rate_bps" in err and "not a measure of this scenario" not in err


def test_the_options_reach_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str], seen: dict[str, object]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text("confidence = 0.9\n" + ONE.replace('measure = "transfer_time_s"',
                                                       'measure = "transfer_time_s"\ndirection = "a_to_b"'))
    store = tmp_path / "s.sqlite"
    assert main(["design", str(GBN), str(spec), "--replications", "2", "--workers", "2", "--name", "mine",
                 "--reuse-any-version", "--store", str(store), "--quiet"]) == 0
    assert (seen["executor"], seen["workers"], seen["name"], seen["reuse_any_version"], seen["store"]) == (
        "local", 2, "mine", True, str(store))
    assert (seen["direction"], seen["confidence"], seen["progress"].quiet) == ("a_to_b", 0.9, True)  # type: ignore[attr-defined]
    assert main(["design", str(GBN), str(spec), "--replications", "2", "--no-store"]) == 0
    assert (seen["executor"], seen["workers"], seen["name"], seen["reuse_any_version"], seen["store"]) == (
        "serial", None, None, False, False)
    assert seen["progress"].quiet is False  # type: ignore[attr-defined]
    capsys.readouterr()


def test_workers_alone_are_accepted_and_the_refusal_names_the_option(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str],
                                                                    seen: dict[str, object]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text(ONE)
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet", "--replications", "2", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["design", str(GBN), str(spec), "--no-store", "--dask", "tcp://127.0.0.1:1", "--workers", "1"]) == 2
    assert capsys.readouterr().err.splitlines()[-1].strip() == (
        "arqlab design: error: --workers applies to the local pool; with --dask the cluster decides")


def test_an_out_that_is_a_file_and_a_malformed_dask_address_are_named(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text(ONE)
    taken = tmp_path / "f"
    taken.write_text("")
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet", "--out", str(taken)]) == 2
    assert capsys.readouterr().err.strip() == f"arqlab design: error: --out {taken}: exists and is not a directory"
    assert main(["design", str(GBN), str(spec), "--no-store", "--quiet", "--dask", "nothing"]) == 2
    assert capsys.readouterr().err.strip() == ("arqlab design: error: --dask 'nothing': expected a Dask scheduler "
                                               "address such as tcp://HOST:PORT (schemes: tcp, tls, inproc, ucx, ws, wss)")
