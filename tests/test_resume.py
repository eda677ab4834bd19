"""A study reproduction killed with SIGKILL mid-run resumes from the result store: the
re-run computes only the replications the store lacks, and its figures, claims and
robustness table are identical to an uninterrupted run's (issue 28, "results in the
store (resume after kill -9, reuse on re-run)"). The sweep's own SIGKILL test is in
tests/test_sweep.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arqlab.testing import kill_when_stored, stored_replications


pytestmark = pytest.mark.slow


def subprocess_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


_stored = stored_replications


def _reproduce(out: Path, store: Path | None, *extra: str) -> list[str]:
    where = ["--store", str(store)] if store else ["--no-store"]
    return [sys.executable, "-m", "arqlab.cli", "reproduce", "colella", "--quick", "--figure", "4", "--workers", "2",
            "--quiet", "--out", str(out), *where, *extra]


def _outputs(out: Path, names: tuple[str, ...]) -> dict[str, bytes]:
    return {n: (out / n).read_bytes() for n in names}


@pytest.mark.parametrize("extra,names,first_pass", [
    ((), ("fig4.csv", "claims.json"), False),
    (("--robustness", "--budget", "10"), ("fig4.csv", "claims.json", "robustness/summary.csv", "robustness/indices.csv"), True),
])
def test_reproduce_killed_mid_run_resumes_from_the_store(tmp_path: Path, extra: tuple[str, ...],
                                                         names: tuple[str, ...], first_pass: bool) -> None:
    # The uninterrupted reference, without a store.
    ref = subprocess.run(_reproduce(tmp_path / "ref", None, *extra), env=subprocess_env(), capture_output=True,
                         text=True, timeout=900)
    assert ref.returncode == 0, ref.stderr
    store = tmp_path / "s.sqlite"
    # The quick pass of Figure 4 stores 210 replications; the robustness case is killed
    # in its design, after the quick pass (first_pass) has stored all of them.
    at_least = 260 if first_pass else 30
    kept = kill_when_stored(_reproduce(tmp_path / "out", store, *extra), subprocess_env(), store, at_least, 300)
    assert kept >= at_least
    again = subprocess.run(_reproduce(tmp_path / "out", store, *extra), env=subprocess_env(), capture_output=True,
                           text=True, timeout=900)
    assert again.returncode == 0, again.stderr
    total = _stored(store)
    assert total > kept, "the kill came after the last replication: nothing was left to resume"
    # Nothing lost, nothing computed twice: a third run finds every replication stored.
    third = subprocess.run(_reproduce(tmp_path / "third", store, *extra), env=subprocess_env(), capture_output=True,
                           text=True, timeout=900)
    assert third.returncode == 0, third.stderr
    assert _stored(store) == total
    assert _outputs(tmp_path / "out", names) == _outputs(tmp_path / "ref", names)
    assert _outputs(tmp_path / "third", names) == _outputs(tmp_path / "ref", names)
