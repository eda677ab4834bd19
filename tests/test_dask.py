"""Dask distributed execution: same numbers as the local pool, survives a dying worker."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from arqlab.errors import ArqlabError
from arqlab.progress import Progress
from arqlab.sweep import sweep
from arqlab.testing import fake_run_replication, slow_fake_run_replication, stored_replications

pytest.importorskip("distributed", reason="Dask is an optional extra: pip install 'arqlab[dask]'")

GBN = Path(__file__).resolve().parent.parent / "scenarios" / "go_back_n.toml"
SHORT: dict[str, Any] = {"run.duration_s": 30.0, "run.warmup_s": 5.0, "run.replications": 4,
                         "run.min_replications": 3, "run.max_replications": 40}
GRID: dict[str, list[Any]] = {"traffic.a.length.mean_bits": [500, 1000, 2000], "link.delay_s": [0.01, 0.1]}
START_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"dask scheduler exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"dask scheduler did not listen on {port} within {timeout} s")


@dataclass
class Cluster:
    address: str
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)


def _spawn(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env["ARQLAB_FAKE_DELAY_S"] = "0.1"
    with open(log, "wb") as fh:
        return subprocess.Popen([sys.executable, "-m", "dask", *args], env=env, stdout=fh,
                                stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    log = tmp_path / "scheduler.log"
    scheduler = _spawn(["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"], log)
    c = Cluster(address=address, scheduler=scheduler, logs=[log])
    try:
        wait_for_port(port, scheduler, START_TIMEOUT_S)
        for i in range(2):
            wlog = tmp_path / f"worker{i}.log"
            c.logs.append(wlog)
            c.workers.append(_spawn(["worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                     "--host", "127.0.0.1", "--name", f"w{i}"], wlog))
        from distributed import Client

        with Client(address, timeout=START_TIMEOUT_S, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT_S)
        yield c
    finally:
        for w in c.workers:
            _stop(w)
        _stop(scheduler)


def test_dask_matches_local_bit_for_bit(cluster: Cluster, tmp_path: Path) -> None:
    local = sweep(GBN, GRID, overrides=SHORT, workers=2, store=False, runner=fake_run_replication)
    progress = Progress(quiet=True)
    remote = sweep(GBN, GRID, overrides=SHORT, executor=cluster.address, store=tmp_path / "s.sqlite",
                   runner=fake_run_replication, progress=progress)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    assert progress.summary is not None and progress.summary.computed == 24
    seq_local = sweep(GBN, {"link.delay_s": [0.01, 0.1]}, overrides=SHORT, precision=0.03, workers=2, store=False,
                      runner=fake_run_replication)
    seq_remote = sweep(GBN, {"link.delay_s": [0.01, 0.1]}, overrides=SHORT, precision=0.03, executor=cluster.address,
                       store=False, runner=fake_run_replication)
    pd.testing.assert_frame_equal(seq_local, seq_remote, check_exact=True)
    # the real simulator, too
    core_local = sweep(GBN, GRID, overrides=SHORT, workers=2, store=False)
    core_remote = sweep(GBN, GRID, overrides=SHORT, executor=cluster.address, store=False)
    pd.testing.assert_frame_equal(core_local, core_remote, check_exact=True)


_stored = stored_replications


def test_sweep_survives_a_dying_worker(cluster: Cluster, tmp_path: Path) -> None:
    import threading

    store = tmp_path / "s.sqlite"
    overrides = {**SHORT, "run.replications": 10}
    grid = {"link.delay_s": [0.01, 0.1, 0.2]}
    killed = threading.Event()

    def killer() -> None:
        deadline = time.monotonic() + 60
        while _stored(store) < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        os.killpg(cluster.workers[0].pid, signal.SIGKILL)
        killed.set()

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    progress = Progress(quiet=True)
    remote = sweep(GBN, grid, overrides=overrides, executor=cluster.address, store=store,
                   runner=slow_fake_run_replication,
                   progress=progress)
    thread.join(timeout=60)
    assert killed.is_set()
    assert cluster.workers[0].wait(timeout=10) == -signal.SIGKILL
    assert progress.summary is not None and progress.summary.computed == 30
    local = sweep(GBN, grid, overrides=overrides, executor="serial", store=False, runner=fake_run_replication)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)


def test_unreachable_scheduler_is_a_clear_error(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    sweep(GBN, {"link.delay_s": [0.01]}, overrides=SHORT, executor="serial", store=store, runner=fake_run_replication)
    address = f"tcp://127.0.0.1:{free_port()}"
    t0 = time.monotonic()
    with pytest.raises(ArqlabError, match=f"--dask '{address}': nothing listens there"):
        sweep(GBN, {"link.delay_s": [0.01, 0.1]}, overrides=SHORT, executor=address, store=store, runner=fake_run_replication)
    assert time.monotonic() - t0 < 5  # refused at once, not after the client's 8 s timeout
    assert _stored(store) == 4
