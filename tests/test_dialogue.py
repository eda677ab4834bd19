"""The dialogue workload from Python and the command line: Johnson's SMTP (over TCP with
connection set-up) and HMTP scenario files run to completion and report the session
measures in the client's flow scope; the SMTP script written out as data runs the same
session as the built-in one; bad dialogue keys are one-line errors naming the path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import arqlab
from arqlab.errors import ScenarioError

SMTP = "scenarios/johnson/smtp_tcp_radio.toml"
HMTP = "scenarios/johnson/hmtp_radio.toml"
SCRIPT = "scenarios/johnson/smtp_script.toml"
SCOPE = "flow.client->server"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True)


def test_smtp_and_hmtp_sessions_complete_and_hmtp_is_faster() -> None:
    smtp = arqlab.simulate(SMTP, replications=3, store=False)
    hmtp = arqlab.simulate(HMTP, replications=3, store=False)
    for r in (smtp, hmtp):
        m = r.metrics[SCOPE]
        assert m["sessions_completed"]["mean"] == 1.0
        assert r.metrics["run"]["completed"]["mean"] == 1.0
        lat, thr = m["session_latency_s"]["mean"], m["message_throughput_bps"]["mean"]
        assert 0 < lat < 36_000
        # message throughput = 40,000 bits / latency, replication by replication
        for rec in r.records:
            x = rec["batches"][0][SCOPE]
            assert x["message_throughput_bps"] == pytest.approx(40_000 / x["session_latency_s"], rel=1e-12)
        assert "flow.server->client" in r.metrics, "the reverse direction is measured too"
    # 16 turns of the radio (with the handshake) against 3, each costing τ + preamble
    # (1.6 s): HMTP saves at least the 13 extra turns' 20.8 s here.
    gap = smtp.metrics[SCOPE]["session_latency_s"]["mean"] - hmtp.metrics[SCOPE]["session_latency_s"]["mean"]
    assert gap > 13 * (1.0 + 0.6)


def test_the_written_out_script_is_the_built_in_smtp() -> None:
    a = arqlab.simulate(SMTP, replications=2, store=False)
    b = arqlab.simulate(SCRIPT, replications=2, store=False)
    for rec_a, rec_b in zip(a.records, b.records, strict=True):
        assert rec_a["fingerprint"] == rec_b["fingerprint"]
    assert a.metrics[SCOPE]["session_latency_s"] == b.metrics[SCOPE]["session_latency_s"]


def test_cli_runs_a_dialogue_and_prints_its_measures() -> None:
    r = cli("run", HMTP, "--replications", "2", "--no-store", "--quiet", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["metrics"][SCOPE]["sessions_completed"]["mean"] == 1.0
    r = cli("run", HMTP, "--replications", "2", "--no-store", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "session_latency_s" in r.stdout


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"flow.0.traffic.script": "smtpp"}, 'flow[0].traffic.script = "smtpp": expected one of'),
        ({"flow.0.traffic.sessions": 0}, "flow[0].traffic.sessions = 0"),
        ({"flow.0.traffic.message_octets": 0}, "flow[0].traffic.message_octets = 0"),
    ],
)
def test_bad_dialogue_keys_name_their_path(edit: dict[str, object], message: str) -> None:
    sc = arqlab.scenario.load(HMTP)
    flow = dict(sc["flow"][0])
    traffic = dict(flow["traffic"])
    for key, value in edit.items():
        traffic[key.rsplit(".", 1)[1]] = value
    flow["traffic"] = traffic
    bad = {**sc, "flow": [flow]}
    with pytest.raises(ScenarioError) as e:
        arqlab.simulate(bad, store=False)
    assert any(p.startswith(message) for p in e.value.problems), e.value.problems


def test_cli_bad_dialogue_exits_2_naming_the_field(tmp_path: Path) -> None:
    text = Path(SCRIPT).read_text(encoding="utf-8").replace('lines = ["QUIT"]', 'lines = ["QUIT"]\nafter = [42]')
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    r = cli("check", str(path))
    assert r.returncode == 2
    assert "flow[0].traffic.step[11].after = 42: expected indices of earlier steps (0 to 10)" in r.stderr


def test_the_precision_rule_watches_the_session_latency() -> None:
    from arqlab.results import watched_measures

    assert watched_measures(arqlab.scenario.load(HMTP)) == [f"{SCOPE}.session_latency_s"]
    r = arqlab.simulate(SMTP, precision=0.05, store=False)
    m = r.metrics[SCOPE]["session_latency_s"]
    assert r.precision_reached and m["ci95_half_width"] <= 0.05 / 1.05 * m["mean"] + 1e-12


def test_sweep_over_the_message_size_names_the_session_measure(tmp_path: Path) -> None:
    path = tmp_path / "hmtp_pair.toml"
    path.write_text(
        "[run]\nduration_s = 3600.0\nreplications = 2\n[link]\nrate_bps = 9600.0\ndelay_s = 0.01\n"
        "[protocol]\nkind = \"selective_repeat\"\nwindow = 4\nmodulus = 8\ntimeout_s = 10.0\n"
        "[traffic.a]\nkind = \"dialogue\"\nscript = \"hmtp\"\nmessage_writes = 10\n",
        encoding="utf-8",
    )
    r = cli("sweep", str(path), "--grid", "traffic.a.message_octets=1000,5000", "--measure", "session_latency_s",
            "--no-store", "--quiet")
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith(("1000", "5000"))]
    latency = {int(row[0]): float(row[3]) for row in rows}
    # Error free: 4,000 more body octets at 9,600 bit/s (10 writes of 48 header bits each
    # either way) take 4000·8/9600 s longer.
    assert latency[5000] - latency[1000] == pytest.approx(4000 * 8 / 9600, abs=1e-4)
