"""Issue 29 items 2 and 4: a stalled run is never a quiet "completed 0" with exit 0, and
JSON output carries non-finite values as null, everywhere."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import arqlab
from arqlab.jsonout import dumps, finite_or_none

# A bulk transfer over a duplex link that goes down at 10 s and never comes back up: the
# sender keeps its frames, nothing moves, and the flow stalls. (The finding was
# TCP over X.25 across a lossy network, which `check` now refuses.)
STALLING = """
[run]
duration_s = 3600.0
replications = 2
[stack.link]
kind = "stop_and_wait"
[[medium]]
name = "line"
ends = ["a", "b"]
rate_bps = 48000.0
delay_s = 0.05
outages = [{ from_s = 10.0 }]
[[node]]
name = "a"
stack = "link"
[[node]]
name = "b"
stack = "link"
[[flow]]
from = "a"
to = "b"
traffic = { kind = "bulk", messages = 100000 }
"""


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True, timeout=300)


def test_a_stalled_run_is_a_distinct_result_in_python(tmp_path: Path) -> None:
    path = tmp_path / "stall.toml"
    path.write_text(STALLING)
    r = arqlab.simulate(str(path), store=False)
    assert r.outcome == "stalled"
    assert [rep for rep, _ in r.stalled] == [0, 1]
    assert all("flow.a->b stalled: data pending and no progress" in m for _, m in r.stalled)
    assert r.metrics["run"]["stalled"]["mean"] == 1.0 and r.metrics["run"]["completed"]["mean"] == 0.0
    assert any("stalled" in w for w in r.warnings)
    assert r.to_dict()["outcome"] == "stalled"


def test_a_run_that_completes_is_ok_and_has_no_stall_warning() -> None:
    r = arqlab.simulate("scenarios/comer_korb/fig3.toml", replications=1, store=False)
    assert r.outcome == "ok" and r.stalled == []
    assert r.metrics["run"]["stalled"]["mean"] == 0.0
    assert not any("stalled" in w for w in r.warnings)


def test_run_warns_and_exits_3_when_a_flow_stalls(tmp_path: Path) -> None:
    path = tmp_path / "stall.toml"
    path.write_text(STALLING)
    for extra in ([], ["--json"]):
        p = cli("run", str(path), "--no-store", "--quiet", *extra)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert "Traceback" not in p.stderr
        warnings = [line for line in p.stderr.splitlines() if "stalled" in line]
        assert len(warnings) == 2 and all(w.startswith("arqlab run: warning: replication ") for w in warnings), p.stderr
    assert json.loads(p.stdout)["outcome"] == "stalled"


def test_one_replication_as_json_has_null_half_widths() -> None:
    # Issue 29 item 4: the infinite CI half-width of one replication crashed --json.
    p = cli("run", "scenarios/stop_and_wait.toml", "--no-store", "--quiet", "--replications", "1", "--json",
            "--set", "run.duration_s=50")
    assert p.returncode == 0, p.stderr
    assert "Infinity" not in p.stdout and "NaN" not in p.stdout
    m = json.loads(p.stdout)["metrics"]["a_to_b"]["throughput_efficiency"]
    assert m["ci95_half_width"] is None and m["n"] == 1 and m["mean"] > 0


def test_every_non_finite_value_becomes_null() -> None:
    import numpy as np

    value = {"a": [math.inf, -math.inf, math.nan, 1.5], "b": (np.float64("nan"), np.float32(2.0)), "c": "x"}
    assert finite_or_none(value) == {"a": [None, None, None, 1.5], "b": [None, 2.0], "c": "x"}
    assert json.loads(dumps(value)) == {"a": [None, None, None, 1.5], "b": [None, 2.0], "c": "x"}
