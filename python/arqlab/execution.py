"""Running replications: the one place where ``_core.run_replication`` is called.

A *task* is one replication: (resolved scenario, seed, replication index). Tasks run
in-process (``"serial"``), on a local process pool (``"local"``, the default) or on a Dask
distributed cluster (an address such as ``"tcp://10.0.0.5:8786"``). A replication is a pure
function of its task, so results are identical whatever the executor or the worker count.

:func:`run_points` runs many points at once over one pool. Every replication is looked up
in the result store first and every computed one is committed to it as soon as it arrives,
so an interrupted run loses only the replications in flight and a re-run computes only what
is missing.

Sequential precision (Law & Kelton's sequential procedure): a point with a precision
target runs ``run.min_replications`` first and adds rounds until the 95% half-widths meet
the target or ``run.max_replications`` is reached. The number used is the *smallest* n ≥
min at which the target holds on replications 0..n-1 (checked for every n, not only at
round ends), so it does not depend on round sizes or worker counts. Replications computed
beyond it stay in the store but are not used.
"""

from __future__ import annotations

import concurrent.futures
import copy
import hashlib
import json
import math
import multiprocessing
import os
import queue
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from arqlab.errors import ArqlabError, SimulationError
from arqlab.progress import Progress
from arqlab.store import Store, canonical_hash, current_version, open_store

Runner = Callable[[str, int, int], dict[str, Any]]
"""``(resolved_json, seed, replication) -> record``, like ``_core.run_replication``."""

Record = dict[str, Any]
TaskKey = tuple[str, int, int]
"""(canonical scenario hash, seed, replication)."""

DASK_CONNECT_TIMEOUT_S = 8.0
DASK_RETRIES = 3


@dataclass(frozen=True)
class PointSpec:
    """One point of a sweep: a resolved scenario, a seed and a stopping rule.

    ``replications`` fixes the count; ``precision`` asks for sequential precision with the
    scenario's ``run.min_replications``/``run.max_replications``. With neither, the
    scenario's ``run.precision`` (if set) or ``run.replications`` decides."""

    resolved: dict[str, Any]
    seed: int = 1
    replications: int | None = None
    precision: float | None = None


@dataclass
class PointOutcome:
    """The replications used for a point (0..n-1) and whether its precision was reached
    (None when no precision was asked for)."""

    records: list[Record]
    precision_reached: bool | None
    scenario_hash: str


def _default_runner() -> Runner:
    try:
        from arqlab import _core
    except ImportError as exc:
        raise ArqlabError(f"the simulation core (arqlab._core) is not built: {exc}") from None
    runner: Runner = _core.run_replication
    return runner


def run_task(resolved_json: str, seed: int, replication: int, runner: Runner | None = None) -> Record:
    """Run one replication (in whatever process this is called)."""
    fn = runner if runner is not None else _default_runner()
    return fn(resolved_json, seed, replication)


@dataclass(frozen=True)
class Task:
    key: TaskKey
    resolved_json: str


class Backend(Protocol):
    """Submits tasks and hands back finished ones, one at a time."""

    def submit(self, task: Task) -> None: ...

    def wait_one(self) -> tuple[TaskKey, Record]: ...

    def close(self) -> None: ...


class TaskFailed(SimulationError):
    """A replication raised; the message names scenario hash, seed and replication.
    A simulation failure (exit code 1), like `SimulationError` from an in-process run."""


def _failure(key: TaskKey, exc: BaseException) -> TaskFailed:
    h, seed, rep = key
    return TaskFailed(f"replication {rep} (seed {seed}, scenario {h[:12]}) failed: {type(exc).__name__}: {exc}")


class SerialBackend:
    """Runs each task in this process when its result is asked for."""

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

    def close(self) -> None:
        self._queue.clear()


class LocalBackend:
    """A ``concurrent.futures.ProcessPoolExecutor`` (spawned workers)."""

    def __init__(self, runner: Runner | None, workers: int) -> None:
        self._runner = runner
        self._pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn")
        )
        self._done: queue.SimpleQueue[tuple[TaskKey, concurrent.futures.Future[Record]]] = queue.SimpleQueue()

    def submit(self, task: Task) -> None:
        _h, seed, rep = task.key
        fut = self._pool.submit(run_task, task.resolved_json, seed, rep, self._runner)
        key = task.key
        fut.add_done_callback(lambda f: self._done.put((key, f)))

    def wait_one(self) -> tuple[TaskKey, Record]:
        key, fut = self._done.get()
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

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskBackend:
    """Tasks on a Dask distributed scheduler, one replication per task, deterministic keys."""

    def __init__(self, runner: Runner | None, address: str, *, connect_timeout: float = DASK_CONNECT_TIMEOUT_S,
                 retries: int = DASK_RETRIES) -> None:
        try:
            import distributed as distributed_module
        except ImportError:
            raise ArqlabError(
                f"executor {address!r} needs Dask: pip install 'arqlab[dask]' (dask and distributed)"
            ) from None
        distributed: Any = distributed_module  # untyped library
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

    def close(self) -> None:
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


@dataclass
class _Point:
    index: int
    spec: PointSpec
    hash: str
    resolved_json: str
    fixed_n: int | None
    min_n: int
    max_n: int
    check_scenario: dict[str, Any] | None
    records: dict[int, Record] = field(default_factory=dict)
    scheduled: int = 0
    next_check: int = 0
    final_n: int | None = None
    reached: bool | None = None


def summarize_point(records: Sequence[Record], resolved: dict[str, Any]) -> dict[str, Any]:
    """``results.summarize`` of a point's records (batch means when the scenario says so)."""
    from arqlab import results

    run = resolved.get("run")
    if isinstance(run, dict) and run.get("method") == "batch_means":
        return dict(results.summarize(records, batch_means=True))
    return dict(results.summarize(records))


def _int_setting(run: dict[str, Any], key: str, default: int) -> int:
    value = run.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ArqlabError(f"run.{key} = {value!r}: expected an integer ≥ 1")
    return value


def _plan(index: int, spec: PointSpec) -> _Point:
    resolved = spec.resolved
    run = resolved.get("run", {})
    if not isinstance(run, dict):
        run = {}
    if spec.replications is not None and spec.precision is not None:
        raise ArqlabError("give either replications or precision, not both")
    if spec.replications is not None and (isinstance(spec.replications, bool) or spec.replications < 1):
        raise ArqlabError(f"replications = {spec.replications!r}: expected an integer ≥ 1")
    if spec.precision is not None and not (isinstance(spec.precision, (int, float)) and spec.precision > 0):
        raise ArqlabError(f"precision = {spec.precision!r}: expected a number > 0 (e.g. 0.025 for ±2.5%)")
    precision = spec.precision
    if precision is None and spec.replications is None and run.get("precision") is not None:
        precision = float(run["precision"])
    fixed_n: int | None = None
    check: dict[str, Any] | None = None
    min_n = max_n = 0
    if run.get("method") == "batch_means":
        # Batch means is one long run: its batches are the observations.
        fixed_n = 1
    elif spec.replications is not None:
        fixed_n = int(spec.replications)
    elif precision is None:
        fixed_n = _int_setting(run, "replications", 1)
    else:
        min_n = _int_setting(run, "min_replications", 2)
        max_n = _int_setting(run, "max_replications", max(min_n, 1000))
        if max_n < min_n:
            raise ArqlabError(f"run.max_replications = {max_n} is below run.min_replications = {min_n}")
        check = copy.deepcopy(resolved)
        check.setdefault("run", {})["precision"] = float(precision)
    return _Point(
        index=index,
        spec=spec,
        hash=canonical_hash(resolved),
        resolved_json=json.dumps(resolved, sort_keys=True),
        fixed_n=fixed_n,
        min_n=min_n,
        max_n=max_n,
        check_scenario=check,
    )


class _Scheduler:
    def __init__(self, points: list[_Point], backend: Backend, store: Store | None, progress: Progress,
                 reuse_any_version: bool) -> None:
        self.points = points
        self.backend = backend
        self.store = store
        self.progress = progress
        self.reuse_any_version = reuse_any_version
        self.memo: dict[TaskKey, Record] = {}
        self.waiting: dict[TaskKey, list[_Point]] = {}
        self.dirty: deque[_Point] = deque()

    def request(self, point: _Point, upto: int) -> None:
        """Make replications point.scheduled..upto-1 available to the point."""
        start = point.scheduled
        point.scheduled = max(upto, point.scheduled)
        new_keys = 0
        for rep in range(start, upto):
            key = (point.hash, point.spec.seed, rep)
            if key in self.memo:
                point.records[rep] = self.memo[key]
                continue
            if key in self.waiting:
                self.waiting[key].append(point)
                continue
            new_keys += 1
            self.progress.add_total(1)
            stored = None
            if self.store is not None:
                stored = self.store.get(point.hash, point.spec.seed, rep, any_version=self.reuse_any_version)
            if stored is not None:
                self.memo[key] = stored
                point.records[rep] = stored
                self.progress.advance(stored, reused=True)
                continue
            self.waiting[key] = [point]
            self.backend.submit(Task(key=key, resolved_json=point.resolved_json))
        self.dirty.append(point)

    def deliver(self, key: TaskKey, record: Record) -> None:
        self.memo[key] = record
        for point in self.waiting.pop(key, []):
            point.records[key[2]] = record
            self.dirty.append(point)
        self.progress.advance(record, reused=False)

    def update(self, point: _Point) -> None:
        if point.final_n is not None:
            return
        if point.fixed_n is not None:
            if len(point.records) >= point.fixed_n:
                point.final_n = point.fixed_n
            return
        from arqlab import results

        prefix = 0
        while prefix in point.records:
            prefix += 1
        assert point.check_scenario is not None
        ordered = [point.records[i] for i in range(prefix)]
        for n in range(max(point.next_check, point.min_n), prefix + 1):
            if results.precision_reached(summarize_point(ordered[:n], point.check_scenario), point.check_scenario):
                point.final_n = n
                point.reached = True
                return
        point.next_check = max(point.next_check, prefix + 1, point.min_n)
        if prefix >= point.max_n:
            point.final_n = point.max_n
            point.reached = False
            return
        if prefix == point.scheduled:
            grow = max(1, math.ceil(prefix / 2))
            self.request(point, min(point.max_n, prefix + grow))

    def settle(self) -> None:
        while self.dirty:
            self.update(self.dirty.popleft())

    def run(self) -> None:
        for point in self.points:
            self.request(point, point.fixed_n if point.fixed_n is not None else point.min_n)
            self.settle()
        while self.waiting:
            key, record = self.backend.wait_one()
            if key not in self.waiting:
                continue
            if self.store is not None:
                h, seed, rep = key
                owner = self.waiting[key][0]
                self.store.put(owner.spec.resolved, seed, rep, record)
            self.deliver(key, record)
            self.settle()


def run_points_detailed(
    points: Sequence[PointSpec],
    *,
    executor: str | None = None,
    workers: int | None = None,
    store: Store | str | os.PathLike[str] | None | Literal[False] = None,
    progress: Progress | None = None,
    reuse_any_version: bool = False,
    runner: Runner | None = None,
) -> list[PointOutcome]:
    """Like :func:`run_points`, with each point's precision verdict and scenario hash."""
    planned = [_plan(i, spec) for i, spec in enumerate(points)]
    own_store = store is not False and not isinstance(store, Store)
    the_store = None if store is False else open_store(store)
    prog = progress if progress is not None else Progress(quiet=True)
    try:
        backend = make_backend(executor, workers, runner)
        try:
            prog.start(0, points=len(planned))
            scheduler = _Scheduler(planned, backend, the_store, prog, reuse_any_version)
            try:
                scheduler.run()
            finally:
                prog.finish()
        finally:
            backend.close()
    finally:
        if own_store and the_store is not None:
            the_store.close()
    out: list[PointOutcome] = []
    for p in planned:
        assert p.final_n is not None
        out.append(
            PointOutcome(
                records=[p.records[i] for i in range(p.final_n)],
                precision_reached=p.reached,
                scenario_hash=p.hash,
            )
        )
    return out


def run_points(
    points: Sequence[PointSpec],
    *,
    executor: str | None = None,
    workers: int | None = None,
    store: Store | str | os.PathLike[str] | None | Literal[False] = None,
    progress: Progress | None = None,
    reuse_any_version: bool = False,
    runner: Runner | None = None,
) -> list[list[Record]]:
    """Run every point's replications on one executor; return each point's records
    (replications 0..n-1, in order).

    ``executor``: None/"local" (process pool of ``workers``, default CPU count), "serial",
    or a Dask scheduler address "tcp://HOST:PORT". ``store``: a :class:`Store`, a path,
    None for the default store, or False for no store. ``runner`` replaces
    ``_core.run_replication`` (tests; must be importable by name for pools and Dask)."""
    outcomes = run_points_detailed(
        points,
        executor=executor,
        workers=workers,
        store=store,
        progress=progress,
        reuse_any_version=reuse_any_version,
        runner=runner,
    )
    return [o.records for o in outcomes]
