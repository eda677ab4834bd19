"""Zero-time livelocks (issue 29): a run that stops advancing simulated time ends with a
distinct error — `arqlab.LivelockError` in Python, a one-line error and exit 2 at the
command line — never a hang. The core's detection is tested in Rust
(crates/arqlab/tests/livelock.rs, a deliberately stuck layer); here the core's
`LivelockError` stands in for it where the mapping is tested, and a real scenario (100
links in step with `run.livelock_events = 64`) trips the guard end to end."""

from __future__ import annotations

from typing import Any

import pytest

import arqlab
from arqlab import _core, cli
from arqlab.errors import LivelockError, SimulationError, core_failure
from arqlab.execution.backends import TaskFailed, _failure

MESSAGE = ('simulation failed (scenario "x", seed 1, replication 0): livelock at t=2.0003 s in node "a", layer '
           "go_back_n (1 of 1): its timer stays due at this instant after every timeout (1048576 events in a row "
           "without simulated time advancing; the limit is 1048576)")


def stuck(resolved_json: str, seed: int, replication: int) -> dict[str, Any]:
    raise _core.LivelockError(MESSAGE)


def test_the_core_livelock_is_a_runtime_error_of_its_own() -> None:
    assert issubclass(_core.LivelockError, RuntimeError)
    e = core_failure(_core.LivelockError(MESSAGE))
    assert isinstance(e, LivelockError) and isinstance(e, SimulationError) and str(e) == MESSAGE
    other = core_failure(RuntimeError("simulation failed: invariant violated"))
    assert type(other) is SimulationError


def test_simulate_raises_livelock_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_core, "run_replication", stuck)
    with pytest.raises(arqlab.LivelockError, match=r"livelock at t=2\.0003 s in node \"a\", layer go_back_n"):
        arqlab.simulate("scenarios/go_back_n.toml", replications=1, store=False)


def test_a_worker_livelock_stays_a_livelock_and_other_failures_stay_task_failures() -> None:
    key = ("0123456789abcdef", 1, 3)
    e = _failure(key, _core.LivelockError(MESSAGE))
    assert isinstance(e, LivelockError) and "replication 3 (seed 1, scenario 0123456789ab) failed" in str(e)
    assert type(_failure(key, RuntimeError("boom"))) is TaskFailed


def test_run_reports_a_livelock_in_one_line_and_exits_2(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(_core, "run_replication", stuck)
    assert cli.main(["run", "scenarios/go_back_n.toml", "--no-store", "--quiet", "--replications", "1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("arqlab run: error: "), err
    assert 'livelock at t=2.0003 s in node "a", layer go_back_n' in err[0], err


def in_step(pairs: int, livelock_events: int | None) -> dict[str, Any]:
    """``pairs`` identical go-back-N links in step: every frame of every link ends at the
    same instants (about two events per link each) — a legitimate, busy instant."""
    run: dict[str, Any] = {"duration_s": 1.0, "replications": 1}
    if livelock_events is not None:
        run["livelock_events"] = livelock_events
    return {
        "run": run,
        "stack": {"s": {"kind": "go_back_n"}},
        "medium": [{"name": f"l{i}", "ends": [f"a{i}", f"b{i}"], "rate_bps": 9600.0} for i in range(pairs)],
        "node": [{"name": f"{s}{i}", "stack": "s"} for i in range(pairs) for s in "ab"],
        "flow": [{"from": f"a{i}", "to": f"b{i}", "traffic": {"kind": "saturated"}} for i in range(pairs)],
    }


REAL = r"livelock at t=0\.1091666666\d* s in (medium \"l\d+\" \(lane link\.l\d+\.a\d+->b\d+\) — the medium is at fault|node \"a\d+\", layer go_back_n).*the limit is 64\)"


def test_a_real_livelock_raises_livelock_error_through_simulate() -> None:
    # run.livelock_events = 64: the 100 links' first frame end (t = 1,048 / 9,600 s)
    # holds ~200 events and trips it; the default bound lets the same run finish.
    with pytest.raises(arqlab.LivelockError, match=REAL):
        arqlab.simulate(in_step(100, 64), replications=1, store=False)
    assert arqlab.simulate(in_step(100, None), replications=1, store=False).outcome == "ok"


def test_a_real_livelock_at_the_command_line_is_one_line_and_exit_2(tmp_path: Any) -> None:
    import re
    import subprocess
    import sys

    from test_docs_examples import dump

    path = tmp_path / "in_step.toml"
    path.write_text(dump(in_step(100, 64)), encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "arqlab.cli", "run", str(path), "--no-store", "--quiet"],
                       capture_output=True, text=True, timeout=300)
    err = p.stderr.splitlines()
    assert p.returncode == 2 and len(err) == 1 and err[0].startswith("arqlab run: error: "), (p.returncode, err)
    assert re.search(REAL, err[0]), err[0]


def test_livelock_events_below_its_floor_is_a_clear_error() -> None:
    with pytest.raises(arqlab.ScenarioError, match=r"run\.livelock_events.*63.*>= 64"):
        arqlab.simulate(in_step(1, 63), replications=1, store=False)
