"""Zero-time livelocks (issue 29): a run that stops advancing simulated time ends with a
distinct error — `arqlab.LivelockError` in Python, a one-line error and exit 2 at the
command line — never a hang. The core's detection is tested in Rust
(crates/arqlab/tests/livelock.rs, a deliberately stuck layer); here the core's
`LivelockError` stands in for it, raised where the real one would be."""

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
