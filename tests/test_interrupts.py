"""Big requests, Ctrl-C, SIGTERM and SIGKILL (issue 16, items 1–3).

- A request for a billion replications is legal: it starts computing at once and its
  memory does not grow with the number asked for (lazy, bounded submission).
- Ctrl-C stops even one long replication within about a second (the core checks a flag
  every 2^16 events), keeps finished replications, and exits with 130.
- Killing the parent (SIGKILL or SIGTERM) never leaves worker processes computing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import arqlab
from arqlab import _core
from arqlab.store import Store

SCENARIO = "scenarios/go_back_n.toml"
LONG = ["--set", "run.duration_s=1.5e7"]  # one replication: minutes of computing


def arqlab_cli(*args: str, **kw: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "arqlab.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)  # type: ignore[call-overload]


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def stored(path: Path) -> int:
    try:
        with Store(path, readonly=True) as s:
            return s.count()
    except arqlab.ArqlabError:  # not created yet
        return 0


def wait_until(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return bool(predicate())


def test_a_billion_replications_start_at_once_and_submit_lazily() -> None:
    # The scheduler must not build a billion tasks first: the runner is reached at once,
    # and the memory traced after 2000 replications is that of 2000 records.
    script = textwrap.dedent("""
        import tracemalloc
        from arqlab import scenario
        from arqlab.execution import PointSpec, run_points
        from arqlab.testing import fake_run_replication
        calls = 0
        def runner(j, s, r):
            global calls
            calls += 1
            if calls == 2000:
                raise KeyboardInterrupt
            return fake_run_replication(j, s, r)
        resolved = scenario.load("scenarios/go_back_n.toml")
        tracemalloc.start()
        try:
            run_points([PointSpec(resolved, replications=10**9)], executor="serial", store=False, runner=runner)
        except KeyboardInterrupt:
            pass
        print(calls, tracemalloc.get_traced_memory()[1])
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    calls, peak = map(int, p.stdout.split())
    assert calls == 2000
    assert peak < 20e6, f"peak traced memory {peak / 1e6:.1f} MB after 2000 replications"


def test_a_billion_replications_on_the_command_line_at_flat_memory() -> None:
    # (run.duration_s=500: each finished replication keeps its record, ~6.6 KB; see the docstring)
    proc = arqlab_cli("run", SCENARIO, "--replications", "1000000000", "--set", "run.duration_s=500",
                      "--no-store")
    try:
        assert wait_until(lambda: rss_mb(proc.pid) > 0, 30)
        time.sleep(6.0)  # imports done, computing
        first = rss_mb(proc.pid)
        time.sleep(4.0)
        growth = rss_mb(proc.pid) - first
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert growth < 40, f"RSS grew {growth:.0f} MB in 4 s"
    finally:
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


def test_ctrl_c_stops_one_long_replication_within_a_second() -> None:
    proc = arqlab_cli("run", SCENARIO, "--replications", "1", "--no-store", *LONG)
    time.sleep(8.0)  # well into the replication (imports take a few seconds here)
    assert proc.poll() is None
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 2.0
    assert proc.returncode == 130, err
    assert "run: interrupted" in err and "Traceback" not in err


def test_the_core_stops_a_replication_on_request() -> None:
    resolved = arqlab.load_scenario(SCENARIO, {"run.duration_s": 1.5e7})
    timer = threading.Timer(0.5, _core.request_interrupt)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt, match="interrupted"):
            _core.run_replication(arqlab.scenario.canonical_json(resolved), 1, 0)
    finally:
        _core.clear_interrupt()
        timer.cancel()
    assert time.monotonic() - t0 < 2.0
    assert not _core.interrupt_requested()


def test_ctrl_c_in_process_raises_keyboard_interrupt_at_once() -> None:
    # SIGINT to this process while the main thread waits for a long replication.
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        arqlab.simulate(SCENARIO, replications=1, overrides={"run.duration_s": 1.5e7})
    assert time.monotonic() - t0 < 2.0
    assert not _core.interrupt_requested()


def test_ctrl_c_with_workers_and_a_store_keeps_finished_replications(tmp_path: Path) -> None:
    # 20 short replications finish, then both workers are deep in long ones.
    store = tmp_path / "s.sqlite"
    proc = arqlab_cli("sweep", SCENARIO, "--grid", "run.duration_s=100,1.5e7", "--replications", "20",
                      "--workers", "2", "--store", str(store), "--set", "run.warmup_s=1")
    try:
        assert wait_until(lambda: stored(store) >= 20, 90)
        time.sleep(2.0)
        workers = children(proc.pid)
        assert workers
    finally:
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
    assert time.monotonic() - t0 < 5.0, "computation went on after Ctrl-C"
    assert proc.returncode == 130, err
    assert "sweep: interrupted" in err and "Traceback" not in err
    assert stored(store) == 20
    assert wait_until(lambda: not any(alive(w) for w in workers), 5)


@pytest.mark.parametrize("sig,code", [(signal.SIGKILL, -9), (signal.SIGTERM, 143)])
def test_workers_exit_with_their_parent(sig: signal.Signals, code: int, tmp_path: Path) -> None:
    proc = arqlab_cli("run", SCENARIO, "--replications", "4", "--workers", "2", "--no-store", *LONG)
    try:
        assert wait_until(lambda: len(children(proc.pid)) >= 2, 60)
        time.sleep(3.0)  # the workers are computing
        workers = children(proc.pid)
        proc.send_signal(sig)
        proc.communicate(timeout=30)
        assert proc.returncode == code
        assert wait_until(lambda: not any(alive(w) for w in workers), 5), "workers outlived their parent"
    finally:
        if proc.poll() is None:
            proc.kill()
