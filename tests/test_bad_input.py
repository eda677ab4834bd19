"""The bad-input catalogue, continued (issue 16): every class an adversarial pass found
ends as one line naming the value and what is allowed, exit 2, never a traceback, and
nothing computed first."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

import arqlab
from arqlab.errors import ArqlabError, ScenarioError
from arqlab.store import Store, canonical_hash
from arqlab.testing import fake_run_replication

SCENARIO = "scenarios/go_back_n.toml"
QUICK = ["--set", "run.duration_s=20", "--set", "run.warmup_s=1"]


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def one_error(p: subprocess.CompletedProcess[str], command: str) -> str:
    """The single error line of a failed command, checked for the common style."""
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(f"arqlab {command}: error: "), lines[0]
    return lines[0]


# ---------------------------------------------------------------- item 4: seeds, replication numbers
@pytest.mark.parametrize("seed", ["-1", str(2**64), str(2**70)])
def test_out_of_range_seed_is_bad_input(seed: str) -> None:
    line = one_error(cli("run", SCENARIO, "--seed", seed, "--no-store", *QUICK), "run")
    assert f"seed = {seed}: out of range, expected a whole number in [0, 2^63 - 1]" in line


def test_out_of_range_seed_in_sweep_and_trace() -> None:
    line = one_error(cli("sweep", SCENARIO, "--grid", "protocol.window=3", "--seed", "-1", "--no-store"), "sweep")
    assert "seed = -1: out of range" in line
    line = one_error(cli("trace", SCENARIO, "--from", "0", "--to", "1", "--replication", "99999999999999999999"),
                     "trace")
    assert "replication = 99999999999999999999: out of range, expected a whole number in [0, 2^63 - 1]" in line


def test_out_of_range_seed_in_python() -> None:
    with pytest.raises(ArqlabError, match=r"seed = -1: out of range"):
        arqlab.simulate(SCENARIO, seed=-1, replications=1)
    with pytest.raises(ArqlabError, match=r"seed = 18446744073709551616: out of range"):
        arqlab.simulate(SCENARIO, seed=2**64, replications=1)
    with pytest.raises(ArqlabError, match=r"replications = 9223372036854775809: out of range"):
        arqlab.simulate(SCENARIO, replications=2**63 + 1)


# ---------------------------------------------------------------- item 5: NaN and infinity
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_non_finite_set_names_the_field(value: str) -> None:
    line = one_error(cli("run", SCENARIO, "--set", f"link.bit_error_rate={value}", "--no-store"), "run")
    assert f"link.bit_error_rate = {value}: expected a finite number" in line


def test_non_finite_grid_and_python_overrides_name_the_field() -> None:
    line = one_error(cli("sweep", SCENARIO, "--grid", "link.delay_s=0.1,inf", "--no-store"), "sweep")
    assert "link.delay_s = inf: expected a finite number" in line
    with pytest.raises(ScenarioError) as e:
        arqlab.load_scenario(SCENARIO, {"traffic.a.length.mean_bits": float("nan")})
    assert e.value.problems == ["traffic.a.length.mean_bits = nan: expected a finite number"]


def test_non_finite_in_a_toml_file_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(Path(SCENARIO).read_text().replace("delay_s = 0.05", "delay_s = inf"))
    with pytest.raises(ScenarioError) as e:
        arqlab.load_scenario(path)
    assert e.value.problems == ["link.delay_s = inf: expected a finite number"]


# ---------------------------------------------------------------- item 7: unbounded reads
def test_a_device_is_not_read() -> None:
    t0 = time.monotonic()
    line = one_error(cli("check", "/dev/zero", timeout=60), "check")
    assert "/dev/zero is not a regular file" in line
    assert time.monotonic() - t0 < 30


def test_a_huge_scenario_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with open(big, "wb") as fh:
        fh.truncate(2_000_000_000)  # sparse: 2 GB that would be read whole
    line = one_error(cli("check", str(big)), "check")
    assert "is 2,000,000,000 bytes: expected a TOML file of at most 1,000,000 bytes" in line


# ---------------------------------------------------------------- item 9: check outputs first
def test_sweep_checks_measure_and_outputs_before_running(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    many = ["--grid", "protocol.window=1,2,3,4,5,6,7", "--replications", "50", "--no-store",
            "--set", "run.duration_s=2000"]
    for extra, expected in [
        (["--measure", "nosuch"], "--measure nosuch: not a measure"),
        (["--out", str(blocker / "out")], "--out"),
        (["--plot", str(blocker / "p.png")], "--plot"),
        (["--plot", str(tmp_path / "p.jpg")], "expected a file name ending in .png, .svg or .pdf"),
    ]:
        t0 = time.monotonic()
        line = one_error(cli("sweep", SCENARIO, *many, *extra), "sweep")
        assert expected in line
        assert time.monotonic() - t0 < 30, "the sweep ran before the check"


def test_plot_honours_the_extension(tmp_path: Path) -> None:
    from arqlab.sweep import sweep, plot_sweep

    df = sweep(SCENARIO, {"protocol.window": [1, 2]}, replications=2, store=False, executor="serial",
               runner=fake_run_replication)
    plot_sweep(df, ["protocol.window"], tmp_path / "p.svg")
    plot_sweep(df, ["protocol.window"], tmp_path / "p.png")
    assert (tmp_path / "p.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "p.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_dask_address_fails_at_once() -> None:
    for address in ["http://nope", "tcp://no-such-host.invalid:8786", "tcp://localhost", "tcp://127.0.0.1:9"]:
        t0 = time.monotonic()
        line = one_error(cli("run", SCENARIO, "--dask", address, "--no-store", *QUICK), "run")
        assert f"--dask {address!r}" in line
        assert time.monotonic() - t0 < 15


# ---------------------------------------------------------------- item 11: store keys
@pytest.mark.parametrize("key", ["%%%%", "____", "ab%", "abcd' OR 1=1 --"])
def test_store_key_is_a_hash_prefix_only(key: str, tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    resolved = arqlab.load_scenario(SCENARIO)
    with Store(path) as s:
        s.put(resolved, 1, 0, fake_run_replication(arqlab.scenario.canonical_json(resolved), 1, 0))
    line = one_error(cli("store", "--store", str(path), "show", key), "store")
    assert "expected a scenario hash or a prefix of it (4 to 64 hex digits" in line
    h = canonical_hash(resolved)
    p = cli("store", "--store", str(path), "show", h[:6].upper())
    assert p.returncode == 0 and h in p.stdout


# ---------------------------------------------------------------- item 13: one message per problem
def test_one_message_for_a_bad_weight() -> None:
    with pytest.raises(ScenarioError) as e:
        arqlab.load_scenario(SCENARIO, {"traffic.a.length": {"dist": "empirical", "values_bits": [100, 200],
                                                              "weights": [-1, 2]}})
    assert e.value.problems == ["traffic.a.length.weights[0] = -1: expected a number >= 0"]


def test_no_complaint_about_a_default_the_user_never_wrote() -> None:
    with pytest.raises(ScenarioError) as e:
        arqlab.load_scenario(SCENARIO, {"traffic.a.length": {"dist": "uniform", "min_bits": 2000}})
    assert e.value.problems == [
        "traffic.a.length.min_bits = 2000.0: is above the default max_bits (1000): give max_bits as well"]
    with pytest.raises(ScenarioError) as e:
        arqlab.load_scenario(SCENARIO, {"traffic.a.length": {"dist": "uniform", "min_bits": 2000, "max_bits": 1500}})
    assert e.value.problems == ["traffic.a.length.max_bits = 1500.0: expected a number >= min_bits (2000)"]


def test_long_values_are_shortened() -> None:
    long = "x" * 100_000
    p = cli("run", SCENARIO, "--set", f"protocol.kind={long}", "--no-store")
    line = one_error(p, "run")
    assert len(line) < 300 and "(100002 characters)" in line
    line = one_error(cli("sweep", SCENARIO, "--grid", "protocol.window=3", "--measure", long, "--no-store"), "sweep")
    assert "(100000 characters)" in line and long not in line


def test_one_error_prefix_style_across_commands(tmp_path: Path) -> None:
    one_error(cli("run", "no/such.toml"), "run")
    one_error(cli("check", "no/such.toml"), "check")
    one_error(cli("trace", "no/such.toml", "--from", "0", "--to", "1"), "trace")
    one_error(cli("sweep", "no/such.toml", "--grid", "protocol.window=3", "--no-store"), "sweep")
    one_error(cli("store", "--store", str(tmp_path / "none.sqlite"), "ls"), "store")
    one_error(cli("report", "--store", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "r")), "report")
    one_error(cli("reproduce", "nosuch"), "reproduce")


# ---------------------------------------------------------------- text that reaches a terminal
def test_control_characters_never_reach_the_terminal(tmp_path: Path) -> None:
    path = tmp_path / "esc.toml"
    text = Path(SCENARIO).read_text()
    text = text.replace('title = "Go-back-N', 'title = "\\u001b[2J\\u001b[31mowned Go-back-N')
    path.write_text(text)
    p = cli("run", str(path), "--replications", "1", "--no-store", *QUICK)
    assert p.returncode == 0, p.stderr
    assert "\x1b" not in p.stdout and "\\x1b[2J\\x1b[31mowned" in p.stdout
    p = cli("run", str(path), "--set", "protocol.kind=\x1b[31mred", "--no-store")
    assert "\x1b" not in p.stderr
    p = cli("run", str(path), "--set", "link.delay_s=\x1b[31m", "--set", "title=\x1b]0;pwned\x07", "--no-store",
            "--replications", "1", *QUICK)
    assert "\x1b" not in p.stdout + p.stderr and "\x07" not in p.stdout + p.stderr


def test_non_finite_trace_window_and_precision() -> None:
    line = one_error(cli("trace", SCENARIO, "--from", "0", "--to", "inf", timeout=60), "trace")
    assert "trace window [0.0, inf]: expected finite times in seconds" in line
    line = one_error(cli("sweep", SCENARIO, "--grid", "protocol.window=1", "--precision", "inf", "--no-store",
                         timeout=60), "sweep")
    assert "precision = inf: expected a number in (0, 1)" in line
