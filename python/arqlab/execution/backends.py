"""Where replications run: in this process, on a local process pool, or on Dask.

A *task* is one replication: (resolved scenario, seed, replication index). A backend
takes tasks with :meth:`Backend.submit` and hands finished ones back one at a time with
:meth:`Backend.wait_one`; the scheduler keeps at most :attr:`Backend.capacity` tasks
submitted and unfinished, so a request for a billion replications costs constant memory.
A replication is a pure function of its task, so results do not depend on the backend.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import multiprocessing
import os
import queue
import socket
import urllib.parse
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from arqlab.errors import ArqlabError, LivelockError, SimulationError, core_failure
from arqlab.execution.workers import init_worker
from arqlab.interrupt import call_interruptibly

Runner = Callable[[str, int, int], dict[str, Any]]
"""``(resolved_json, seed, replication) -> record``, like ``_core.run_replication``."""

Record = dict[str, Any]
TaskKey = tuple[str, int, int]
"""(canonical scenario hash, seed, replication)."""

DASK_CONNECT_TIMEOUT_S = 8.0
DASK_RETRIES = 3
DASK_SCHEMES = ("tcp", "tls", "inproc", "ucx", "ws", "wss")
DASK_IN_FLIGHT = 4096
"""Tasks kept submitted to a Dask cluster at once (enough to keep a large cluster busy)."""


def _default_runner() -> Runner:
    try:
        from arqlab import _core
    except ImportError as exc:
        raise ArqlabError(f"the simulation core (arqlab._core) is not built: {exc}") from None
    runner: Runner = _core.run_replication
    return runner


def run_task(resolved_json: str, seed: int, replication: int, runner: Runner | None = None) -> Record:
    """Run one replication (in whatever process this is called), interruptible by Ctrl-C."""
    fn = runner if runner is not None else _default_runner()
    return call_interruptibly(fn, resolved_json, seed, replication)


@dataclass(frozen=True)
class Task:
    key: TaskKey
    resolved_json: str


class Backend(Protocol):
    """Submits tasks and hands back finished ones, one at a time."""

    capacity: int
    """How many tasks the scheduler keeps submitted and unfinished."""

    def submit(self, task: Task) -> None: ...

    def wait_one(self) -> tuple[TaskKey, Record]: ...

    def close(self, abort: bool = False) -> None:
        """Release the workers; ``abort`` (after an error or Ctrl-C) stops running tasks."""


class TaskFailed(SimulationError):
    """A replication raised; the message names scenario hash, seed and replication.
    A simulation failure (exit code 1), like `SimulationError` from an in-process run."""


def _failure(key: TaskKey, exc: BaseException) -> SimulationError:
    h, seed, rep = key
    message = f"replication {rep} (seed {seed}, scenario {h[:12]}) failed: {type(exc).__name__}: {exc}"
    failure = core_failure(exc, message)
    return failure if isinstance(failure, LivelockError) else TaskFailed(message)


class SerialBackend:
    """Runs each task in this process when its result is asked for."""

    capacity = 1

    def __init__(self, runner: Runner | None) -> None:
        self._runner = runner
        self._queue: deque[Task] = deque()

    def submit(self, task: Task) -> None:
        self._queue.append(task)

    def wait_one(self) -> tuple[TaskKey, Record]:
        task = self._queue.popleft()
        _h, seed, rep = task.key
        try:
            return task.key, run_task(task.resolved_json, seed, rep, self._runner)
        except ArqlabError:
            raise
        except Exception as exc:
            raise _failure(task.key, exc) from exc

    def close(self, abort: bool = False) -> None:
        self._queue.clear()


class LocalBackend:
    """A ``concurrent.futures.ProcessPoolExecutor`` of spawned workers that exit with
    this process (see :mod:`arqlab.execution.workers`)."""

    def __init__(self, runner: Runner | None, workers: int) -> None:
        self._runner = runner
        self.capacity = 2 * workers
        self._pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=init_worker, initargs=(os.getpid(),),
        )
        self._done: queue.SimpleQueue[tuple[TaskKey, concurrent.futures.Future[Record]]] = queue.SimpleQueue()

    def submit(self, task: Task) -> None:
        _h, seed, rep = task.key
        fut = self._pool.submit(run_task, task.resolved_json, seed, rep, self._runner)
        key = task.key
        fut.add_done_callback(lambda f: self._done.put((key, f)))

    def wait_one(self) -> tuple[TaskKey, Record]:
        while True:
            try:
                key, fut = self._done.get(timeout=0.1)  # a timed wait: Ctrl-C is seen at once
                break
            except queue.Empty:
                continue
        try:
            return key, fut.result()
        except concurrent.futures.process.BrokenProcessPool as exc:
            raise ArqlabError(
                f"a local worker process died ({exc}); finished replications are kept. Worker processes are "
                "started with 'spawn': a script that runs a sweep needs an `if __name__ == \"__main__\":` guard"
            ) from exc
        except ArqlabError:
            raise
        except Exception as exc:
            raise _failure(key, exc) from exc

    def close(self, abort: bool = False) -> None:
        if abort:
            # Running tasks would otherwise finish first (minutes for a long replication).
            for proc in list(getattr(self._pool, "_processes", {}).values()):
                proc.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


def check_dask_address(address: str) -> str:
    """``scheme://host:port`` with a Dask scheme and a host that resolves, or an
    :class:`ArqlabError` at once (not after a connection timeout)."""
    parsed = urllib.parse.urlsplit(address)
    if parsed.scheme not in DASK_SCHEMES:
        raise ArqlabError(
            f"--dask {address!r}: expected a Dask scheduler address such as tcp://HOST:PORT "
            f"(schemes: {', '.join(DASK_SCHEMES)})"
        )
    if parsed.scheme in ("tcp", "tls", "ws", "wss"):
        try:
            port = parsed.port
        except ValueError:
            port = None
        if not parsed.hostname or port is None:
            raise ArqlabError(f"--dask {address!r}: expected {parsed.scheme}://HOST:PORT with a port number")
        try:
            socket.getaddrinfo(parsed.hostname, port)
        except (OSError, UnicodeError) as exc:
            raise ArqlabError(f"--dask {address!r}: cannot resolve host {parsed.hostname!r} ({exc})") from None
        if parsed.scheme == "tcp":
            try:
                socket.create_connection((parsed.hostname, port), timeout=1.0).close()
            except ConnectionRefusedError:
                raise ArqlabError(f"--dask {address!r}: nothing listens there (connection refused)") from None
            except OSError:
                pass  # slow or filtered: the client's own timeout decides
    return address


class DaskBackend:
    """Tasks on a Dask distributed scheduler, one replication per task, deterministic keys."""

    capacity = DASK_IN_FLIGHT

    def __init__(self, runner: Runner | None, address: str, *, connect_timeout: float = DASK_CONNECT_TIMEOUT_S,
                 retries: int = DASK_RETRIES) -> None:
        check_dask_address(address)
        try:
            import distributed as distributed_module
        except ImportError:
            raise ArqlabError(
                f"executor {address!r} needs Dask: pip install 'arqlab[dask]' (dask and distributed)"
            ) from None
        distributed: Any = distributed_module  # untyped library
        from arqlab.store import current_version

        self._runner = runner
        self._retries = retries
        runner_name = "core" if runner is None else f"{runner.__module__}.{runner.__qualname__}"
        self._salt = f"{current_version()}|{runner_name}"
        try:
            self._client = distributed.Client(address, timeout=connect_timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ArqlabError(
                f"cannot reach the Dask scheduler at {address} within {connect_timeout:g} s ({exc})"
            ) from None
        self._address = address
        self._ac = distributed.as_completed(loop=self._client.loop, raise_errors=False)
        self._futures: dict[str, tuple[TaskKey, Any]] = {}

    def _dask_key(self, key: TaskKey) -> str:
        h, seed, rep = key
        token = hashlib.sha256(f"{self._salt}|{h}|{seed}|{rep}".encode()).hexdigest()[:16]
        return f"arqlab-rep-{h[:12]}-s{seed}-r{rep}-{token}"

    def submit(self, task: Task) -> None:
        _h, seed, rep = task.key
        dkey = self._dask_key(task.key)
        fut = self._client.submit(
            run_task, task.resolved_json, seed, rep, self._runner, key=dkey, pure=True, retries=self._retries
        )
        self._futures[dkey] = (task.key, fut)
        self._ac.add(fut)

    def wait_one(self) -> tuple[TaskKey, Record]:
        fut = next(self._ac)
        key, _ = self._futures.pop(fut.key)
        try:
            record: Record = fut.result()
        except Exception as exc:
            if isinstance(exc, (concurrent.futures.CancelledError, OSError)):
                raise ArqlabError(
                    f"lost the Dask scheduler at {self._address} ({exc}); finished replications are kept"
                ) from exc
            raise _failure(key, exc) from exc
        fut.release()
        return key, record

    def close(self, abort: bool = False) -> None:
        for _key, fut in self._futures.values():
            fut.cancel()
        self._futures.clear()
        self._client.close()


def make_backend(executor: str | None, workers: int | None, runner: Runner | None) -> Backend:
    """``None``/``"local"`` → process pool (``workers`` default: CPU count; 1 → in-process),
    ``"serial"`` → in-process, ``"tcp://…"`` (any ``scheme://``) → Dask distributed."""
    if workers is not None and workers < 1:
        raise ArqlabError(f"workers = {workers}: expected an integer ≥ 1")
    if executor is None or executor == "local":
        n = workers if workers is not None else (os.cpu_count() or 1)
        return SerialBackend(runner) if n == 1 else LocalBackend(runner, n)
    if executor == "serial":
        return SerialBackend(runner)
    if "://" in executor:
        return DaskBackend(runner, executor)
    raise ArqlabError(
        f"executor = {executor!r}: expected 'local', 'serial' or a Dask scheduler address such as tcp://HOST:PORT"
    )
