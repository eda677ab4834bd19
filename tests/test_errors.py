"""Every documented bad-input case gives its message (dotted path, value, what is
allowed) and exit code 2 — never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import arqlab
from arqlab.errors import ScenarioError

GOOD = Path("scenarios/go_back_n.toml").read_text()


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True)


CASES = [
    ({"link.rate_bps": -5}, "link.rate_bps = -5: expected a number in [1, 1000000000000]"),
    ({"link.bit_error_rate": 1.0}, "link.bit_error_rate = 1.0: expected a number in [0, 1)"),
    ({"link.bit_error_rate": -0.1}, "link.bit_error_rate = -0.1: expected a number in [0, 1)"),
    ({"protocol.window": 8}, "protocol.window = 8: expected a window in [1, 7] (modulus - 1 for modulus 8)"),
    ({"protocol.kind": "xyz"}, 'protocol.kind = "xyz": expected one of "stop_and_wait", "go_back_n", "selective_repeat", "hdlc", "datagram", "tp4", "network_window", "llc2", "tcp", "x25", "hf_arq", "ip"'),
    ({"protocol.window": "seven"}, 'protocol.window = "seven": expected a whole number in [1, 1048576]'),
    ({"traffic.a.kind": "poisson", "traffic.a.load": 1.0}, "traffic.a.load = 1.0: expected a number in (0, 1)"),
    ({"traffic.a.kind": "poisson", "traffic.a.initial_backlog": -3}, "traffic.a.initial_backlog = -3: expected a whole number in [0, 10000000]"),
    ({"traffic.a.kind": "saturated", "traffic.a.initial_backlog": 10}, 'traffic.a.initial_backlog = 10: only allowed with kind = "poisson" (kind is "saturated")'),
    ({"traffic.a.length.dist": "gamma"}, 'traffic.a.length.dist = "gamma": expected one of "constant", "exponential", "uniform", "empirical"'),
    ({"link.speed_bps": 3}, "link.speed_bps = 3: unknown key"),
    ({"run.warmup_s": 5000.0}, "run.warmup_s = 5000.0: expected a warm-up shorter than run.duration_s (2000)"),
    ({"traffic.a.kind": "none"}, 'traffic: expected traffic at station a or b (traffic.a.kind or traffic.b.kind other than "none")'),
]


HDLC = "scenarios/hdlc_nrm.toml"
HDLC_CASES = [
    ({"protocol.mode": "xyz"}, 'protocol.mode = "xyz": expected one of "nrm", "abm", "arm"'),
    ({"protocol.modulus": 16}, "protocol.modulus = 16: expected 8 or 128"),
    ({"protocol.mode": "abm", "protocol.secondary_t1_action": "oldest"}, 'protocol.secondary_t1_action = "oldest": only with mode = "arm" (mode is "abm")'),
    ({"protocol.mode": "nrm", "protocol.timer_recovery": "lapb"}, 'protocol.timer_recovery = "lapb": only with mode = "abm" or "arm" (mode is "nrm")'),
    ({"protocol.mode": "abm", "protocol.poll": "supervisory"}, 'protocol.poll = "supervisory": expected "timeout" or "asap" with an asynchronous mode'),
]


@pytest.mark.parametrize("overrides,message", HDLC_CASES)
def test_hdlc_bad_input(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ScenarioError) as e:
        arqlab.load_scenario(HDLC, overrides)
    assert message in e.value.problems


def test_every_example_scenario_is_valid_and_runs() -> None:
    for path in sorted(Path("scenarios").glob("*.toml")):
        r = arqlab.simulate(path, replications=1, overrides={"run.duration_s": 20.0, "run.warmup_s": 1.0})
        sc = r.scenario
        for side, direction in (("a", "a_to_b"), ("b", "b_to_a")):
            acc = r.records[0]["accounting"][direction]
            assert acc["issued"] == acc["acknowledged"] + acc["unacknowledged"], (path, direction, acc)
            m = r.metrics[direction]
            if sc["traffic"][side]["kind"] == "none":
                assert acc["issued"] == 0 and m["messages_delivered"]["mean"] == 0, (path, direction)
            else:
                # Every loaded direction carries traffic, and no more than the link can.
                assert m["messages_delivered"]["mean"] >= 5, (path, direction, acc)
                assert 0 < m["throughput_efficiency"]["mean"] <= 1, (path, direction)


@pytest.mark.parametrize("overrides,message", CASES)
def test_api_reports_the_problem(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ScenarioError) as e:
        arqlab.load_scenario("scenarios/go_back_n.toml", overrides)
    assert message in e.value.problems


def test_all_problems_at_once_on_the_command_line() -> None:
    p = cli("run", "scenarios/go_back_n.toml", "--set", "link.rate_bps=-5", "--set", "protocol.window=9", "--set", "bogus.x=1")
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 3, p.stderr
    assert any("link.rate_bps = -5" in x for x in lines)
    assert any("protocol.window = 9" in x for x in lines)
    assert any("bogus = {…}: unknown key" in x for x in lines)


def test_missing_file() -> None:
    p = cli("run", "no/such/file.toml")
    assert p.returncode == 2 and "scenario file not found: no/such/file.toml" in p.stderr
    with pytest.raises(ScenarioError, match="scenario file not found"):
        arqlab.simulate(Path("no/such/file.toml"))


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text("[link]\nrate_bps = 48000\ndelay_s = = 0.05\n")
    p = cli("check", str(f))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "TOML syntax error: line 3" in p.stderr


def test_bad_set_syntax() -> None:
    p = cli("run", "scenarios/go_back_n.toml", "--set", "novalue")
    assert p.returncode == 2 and "expected key=value" in p.stderr


def test_api_argument_checks() -> None:
    with pytest.raises(ScenarioError, match="replications = 0"):
        arqlab.simulate("scenarios/go_back_n.toml", replications=0)
    with pytest.raises(ScenarioError, match="precision = 2"):
        arqlab.simulate("scenarios/go_back_n.toml", precision=2)


def test_dict_scenarios_and_toml_strings_are_accepted() -> None:
    r1 = arqlab.load_scenario(GOOD)
    r2 = arqlab.load_scenario(arqlab.load_scenario(GOOD))
    assert r1 == r2, "the resolved scenario is a fixed point"


def test_check_prints_the_resolved_scenario() -> None:
    p = cli("check", "scenarios/go_back_n.toml")
    assert p.returncode == 0
    assert "nak_corrupted = false" in p.stdout and "[traffic.b]" in p.stdout


def test_version() -> None:
    p = cli("--version")
    assert p.returncode == 0 and p.stdout.strip() == f"arqlab {arqlab.__version__} (model {arqlab.MODEL_VERSION})"


def test_help_works_for_every_command() -> None:
    assert cli("--help").returncode == 0
    for command in ("run", "check", "sweep", "store", "report", "reproduce"):
        p = cli(command, "--help")
        assert p.returncode == 0, (command, p.stderr)


def test_json_output_is_strict_json() -> None:
    import json

    p = cli("run", "scenarios/go_back_n.toml", "--json", "--no-store", "--replications", "2", "--set", "run.duration_s=50")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    assert out["metrics"]["b_to_a"]["transfer_time_s"]["mean"] is None  # undefined: no traffic b→a


def test_replications_and_precision_together_are_refused() -> None:
    with pytest.raises(ScenarioError, match="either replications or precision"):
        arqlab.simulate("scenarios/go_back_n.toml", replications=5, precision=0.05)


def test_huge_window_is_an_error_not_a_truncation() -> None:
    with pytest.raises(ScenarioError, match="protocol.window = 4294967297"):
        arqlab.load_scenario("scenarios/go_back_n.toml", {"protocol.window": 4294967297})


def test_a_closed_pipe_is_not_a_traceback() -> None:
    p = subprocess.Popen(
        [sys.executable, "-m", "arqlab.cli", "run", "scenarios/go_back_n.toml", "--json", "--no-store", "--replications", "2",
         "--set", "run.duration_s=50"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert p.stdout is not None and p.stderr is not None
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    p.stderr.close()
    p.wait(timeout=60)
    assert "Traceback" not in err, err
