"""Deterministic stand-ins for ``arqlab._core.run_replication``, for tests only.

They live in the package (not under ``tests/``) so that process-pool workers and Dask
workers can import them by name. Each returns a record with the same shape as the real
core: ``batches`` (one per replication, or ``run.batches`` under batch means), ``events``,
``simulated_s``, ``wall_s``, ``fingerprint`` and ``warmup_s``. The numbers are a pure
function of (resolved scenario JSON, seed, replication).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from typing import Any

MEASURES: tuple[str, ...] = (
    "throughput_efficiency",
    "transfer_time_s",
    "frames_sent",
    "frames_retransmitted",
)


def _numbers(value: Any) -> list[float]:
    """All numbers in a nested JSON value, in key order."""
    if isinstance(value, bool):
        return [float(value)]
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, dict):
        out: list[float] = []
        for key in sorted(value):
            if key != "run":
                out.extend(_numbers(value[key]))
        return out
    if isinstance(value, list):
        out = []
        for item in value:
            out.extend(_numbers(item))
        return out
    return []


def _base_level(resolved: dict[str, Any]) -> float:
    """A smooth, scenario-dependent level in (0.2, 0.9)."""
    total = sum(float(abs(x) ** 0.25) for x in _numbers(resolved))
    return 0.2 + 0.7 * ((total * 0.6180339887) % 1.0)


def _stream(resolved_json: str, seed: int, replication: int, name: str) -> random.Random:
    digest = hashlib.sha256(f"{resolved_json}|{seed}|{replication}|{name}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def fake_run_replication(resolved_json: str, seed: int, replication: int) -> dict[str, Any]:
    """A fast deterministic fake replication."""
    resolved = json.loads(resolved_json)
    run = resolved.get("run", {}) if isinstance(resolved.get("run"), dict) else {}
    method = run.get("method", "replications")
    n_batches = int(run.get("batches", 10)) if method == "batch_means" else 1
    level = _base_level(resolved)
    batches: list[dict[str, dict[str, float]]] = []
    for b in range(n_batches):
        batch: dict[str, dict[str, float]] = {}
        for direction, scale in (("a_to_b", 1.0), ("b_to_a", 0.5)):
            rng = _stream(resolved_json, seed, replication, f"{direction}/{b}")
            eff = min(0.999, max(0.0, scale * level + rng.gauss(0.0, 0.03)))
            sent = float(1000 + rng.randrange(0, 200))
            batch[direction] = {
                "throughput_efficiency": eff,
                "transfer_time_s": 0.1 / (0.05 + eff) * (1.0 + rng.gauss(0.0, 0.05)),
                "frames_sent": sent,
                "frames_retransmitted": float(rng.randrange(0, 50)),
            }
        batches.append(batch)
    fp = hashlib.sha256(f"{resolved_json}|{seed}|{replication}|fp".encode()).hexdigest()[:16]
    return {
        "batches": batches,
        "events": 10_000 + replication,
        "simulated_s": float(run.get("duration_s", 100.0)),
        "wall_s": 0.001,
        "fingerprint": fp,
        "warmup_s": 0.0,
    }


def slow_fake_run_replication(resolved_json: str, seed: int, replication: int) -> dict[str, Any]:
    """The fake replication after sleeping ``ARQLAB_FAKE_DELAY_S`` seconds (default 0.2)."""
    delay = float(os.environ.get("ARQLAB_FAKE_DELAY_S", "0.2"))
    time.sleep(delay)
    record = fake_run_replication(resolved_json, seed, replication)
    record["wall_s"] = delay
    return record


def failing_run_replication(resolved_json: str, seed: int, replication: int) -> dict[str, Any]:
    """Fails on replication 2 (to test error propagation); otherwise the fake."""
    if replication == 2:
        raise RuntimeError("simulated core failure")
    return fake_run_replication(resolved_json, seed, replication)


def stored_replications(path: Any) -> int:
    """Replications in the result store at ``path`` (0 before it exists), read without a
    lock: tests poll it while another process writes (the SIGKILL/resume tests)."""
    import sqlite3
    from pathlib import Path

    if not Path(path).exists():
        return 0
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM replications").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def kill_when_stored(argv: list[str], env: dict[str, str], store: Any, at_least: int, timeout: float) -> int:
    """Starts ``argv`` in a new session, SIGKILLs its whole process group once the store
    holds ``at_least`` replications, and returns how many it kept. Fails (AssertionError)
    if the process ends first, is not killed by the signal, or makes no progress within
    ``timeout`` seconds."""
    import signal
    import subprocess

    proc = subprocess.Popen(argv, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + timeout
        while stored_replications(store) < at_least:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, f"no progress: fewer than {at_least} replications stored"
            time.sleep(0.01)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    return stored_replications(store)
