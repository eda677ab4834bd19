"""The scheduler: every point's replications over one backend, store first.

Every replication is looked up in the result store first and every computed one is
committed to it as soon as it arrives, so an interrupted run loses only the replications
in flight and a re-run computes only what is missing. Replications are submitted lazily:
at most ``backend.capacity`` are submitted and unfinished at any time, so the memory of a
request does not grow with the number of replications asked for.

Sequential precision (Law & Kelton's sequential procedure): a point with a precision
target runs ``run.min_replications`` first and adds rounds until the 95% half-widths meet
the target or ``run.max_replications`` is reached. The number used is the *smallest* n ≥
min at which the target holds on replications 0..n-1 (checked for every n, not only at
round ends), so it does not depend on round sizes or worker counts. Replications computed
beyond it stay in the store but are not used.
"""

from __future__ import annotations

import copy
import json
import math
import os
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from arqlab.errors import ArqlabError
from arqlab.execution.backends import Backend, Record, Runner, Task, TaskKey, make_backend
from arqlab.limits import MAX_INDEX, check_seed
from arqlab.progress import Progress
from arqlab.results import summarize_point
from arqlab.store import Store, canonical_hash, open_store


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
    """Replications 0..scheduled-1 are wanted."""
    cursor: int = 0
    """Replications 0..cursor-1 are looked up, submitted or waited for."""
    next_check: int = 0
    final_n: int | None = None
    reached: bool | None = None


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
    check_seed(spec.seed)
    if spec.replications is not None and spec.precision is not None:
        raise ArqlabError("give either replications or precision, not both")
    if spec.replications is not None and (isinstance(spec.replications, bool) or spec.replications < 1):
        raise ArqlabError(f"replications = {spec.replications!r}: expected an integer ≥ 1")
    if spec.replications is not None and spec.replications > MAX_INDEX + 1:
        raise ArqlabError(f"replications = {spec.replications}: out of range, expected a whole number in [1, 2^63]")
    if spec.precision is not None and not (isinstance(spec.precision, (int, float)) and 0 < spec.precision < 1):
        raise ArqlabError(f"precision = {spec.precision!r}: expected a number in (0, 1) (e.g. 0.025 for ±2.5%)")
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
        self.open: deque[_Point] = deque()
        """Points with wanted replications not yet looked up (cursor < scheduled)."""
        self.in_flight = 0

    def request(self, point: _Point, upto: int) -> None:
        """Make replications 0..upto-1 wanted by the point (looked up and submitted lazily)."""
        if upto > point.scheduled:
            self.progress.add_total(upto - point.scheduled)
            if point.cursor == point.scheduled:
                self.open.append(point)
            point.scheduled = upto
        self.dirty.append(point)

    def _take(self, point: _Point) -> None:
        """Look up the point's next wanted replication: memo, another point, store, or submit."""
        rep = point.cursor
        point.cursor += 1
        key = (point.hash, point.spec.seed, rep)
        if key in self.memo:
            point.records[rep] = self.memo[key]
            self.progress.add_total(-1)  # counted once, by the point that asked first
            self.dirty.append(point)
            return
        if key in self.waiting:
            self.waiting[key].append(point)
            self.progress.add_total(-1)
            return
        stored = None
        if self.store is not None:
            stored = self.store.get(point.hash, point.spec.seed, rep, any_version=self.reuse_any_version)
        if stored is not None:
            self.memo[key] = stored
            point.records[rep] = stored
            self.progress.advance(stored, reused=True)
            self.dirty.append(point)
            return
        self.waiting[key] = [point]
        self.in_flight += 1
        self.backend.submit(Task(key=key, resolved_json=point.resolved_json))

    def fill(self) -> None:
        """Submit wanted replications until the backend holds ``capacity`` of them."""
        while self.open and self.in_flight < self.backend.capacity:
            point = self.open[0]
            if point.cursor < point.scheduled:
                self._take(point)
            if point.cursor >= point.scheduled:
                self.open.popleft()  # before settle(), which may want more and re-open it
            self.settle()

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
        self.fill()
        while self.waiting:
            key, record = self.backend.wait_one()
            self.in_flight -= 1
            if key not in self.waiting:
                continue
            if self.store is not None:
                _h, seed, rep = key
                owner = self.waiting[key][0]
                self.store.put(owner.spec.resolved, seed, rep, record)
            self.deliver(key, record)
            self.settle()
            self.fill()


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
        failed = True
        try:
            prog.start(0, points=len(planned))
            scheduler = _Scheduler(planned, backend, the_store, prog, reuse_any_version)
            try:
                scheduler.run()
            finally:
                prog.finish()
            failed = False
        finally:
            backend.close(abort=failed)
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
