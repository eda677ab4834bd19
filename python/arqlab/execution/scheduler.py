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
round ends), so it does not depend on round sizes or worker counts. Once a point's n is
decided the rest of its round is not submitted; only replications already in flight
(at most the backend's capacity) are computed beyond it, and they stay in the store.

Memory is constant in the number of replications: records are folded into a running
summary in replication order as soon as the ones before them have arrived (the few that
arrive early wait, at most the backend's capacity of them), and a record is kept only
while another point of the same request still needs it, or when the request is small
enough (``KEEP_RECORDS_UP_TO``) for its records to be returned.
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
from arqlab.results import KEEP_RECORDS_UP_TO, Metrics, RecordsNotKept, RunningSummary, precision_reached
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
    """The replications used for a point (0..n-1) summarised, their records when the
    request was small enough to keep them, and whether its precision was reached (None
    when no precision was asked for)."""

    summary: RunningSummary
    kept_records: list[Record] | None
    precision_reached: bool | None
    scenario_hash: str

    @property
    def n(self) -> int:
        return self.summary.n

    @property
    def metrics(self) -> Metrics:
        return self.summary.metrics()

    @property
    def records(self) -> list[Record]:
        if self.kept_records is None:
            raise RecordsNotKept(
                f"records of {self.n} replications were not kept (more than {KEEP_RECORDS_UP_TO} are summarised "
                "as they arrive); read them from the result store (arqlab store export)"
            )
        return self.kept_records


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
    summary: RunningSummary
    kept: list[Record] | None
    pending: dict[int, Record] = field(default_factory=dict)
    """Records arrived ahead of replications still missing (not yet folded)."""
    scheduled: int = 0
    """Replications 0..scheduled-1 are wanted."""
    cursor: int = 0
    """Replications 0..cursor-1 are looked up, submitted or waited for."""
    final_n: int | None = None
    reached: bool | None = None


def _int_setting(run: dict[str, Any], key: str, default: int) -> int:
    value = run.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ArqlabError(f"run.{key} = {value!r}: expected an integer ≥ 1")
    return value


def _plan(index: int, spec: PointSpec, keep_records: bool | None) -> _Point:
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
    largest = fixed_n if fixed_n is not None else max_n
    keep = largest <= KEEP_RECORDS_UP_TO if keep_records is None else keep_records
    return _Point(
        index=index,
        spec=spec,
        hash=canonical_hash(resolved),
        resolved_json=json.dumps(resolved, sort_keys=True),
        fixed_n=fixed_n,
        min_n=min_n,
        max_n=max_n,
        check_scenario=check,
        summary=RunningSummary(batch_means=run.get("method") == "batch_means"),
        kept=[] if keep else None,
    )


class _Scheduler:
    def __init__(self, points: list[_Point], backend: Backend, store: Store | None, progress: Progress,
                 reuse_any_version: bool) -> None:
        self.points = points
        self.backend = backend
        self.store = store
        self.progress = progress
        self.reuse_any_version = reuse_any_version
        self.groups: dict[tuple[str, int], list[_Point]] = {}
        """Points of one (scenario, seed): one computation serves them all."""
        for p in points:
            self.groups.setdefault((p.hash, p.spec.seed), []).append(p)
        self.waiting: dict[TaskKey, _Point] = {}
        """Submitted replications and the point that submitted them."""
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
        """Look up the point's next wanted replication: already given to it (computed for
        an identical point), in flight, in the store, or submitted."""
        rep = point.cursor
        point.cursor += 1
        key = (point.hash, point.spec.seed, rep)
        if rep < point.summary.n or rep in point.pending or key in self.waiting:
            self.progress.add_total(-1)  # counted once, by the point that asked first
            return
        stored = None
        if self.store is not None:
            stored = self.store.get(point.hash, point.spec.seed, rep, any_version=self.reuse_any_version)
        if stored is not None:
            self.progress.advance(stored, reused=True)
            self._arrived(key, stored)
            return
        self.waiting[key] = point
        self.in_flight += 1
        self.backend.submit(Task(key=key, resolved_json=point.resolved_json))

    def fill(self) -> None:
        """Submit wanted replications until the backend holds ``capacity`` of them."""
        while self.open and self.in_flight < self.backend.capacity:
            point = self.open[0]
            if point.final_n is not None:
                # Decided (precision reached mid-round): the rest of its round would
                # be computed and never used.
                self.progress.add_total(point.cursor - point.scheduled)
                point.scheduled = point.cursor
            if point.cursor < point.scheduled:
                self._take(point)
            if point.cursor >= point.scheduled:
                self.open.popleft()  # before settle(), which may want more and re-open it
            self.settle()

    def _arrived(self, key: TaskKey, record: Record) -> None:
        """Gives a replication's record to every unfinished point of its (scenario, seed),
        which folds it at once (or keeps it until the ones before it arrive): records
        are never held for points that have not asked yet."""
        for point in self.groups[(key[0], key[1])]:
            if point.final_n is None and key[2] >= point.summary.n:
                point.pending[key[2]] = record
                self.dirty.append(point)

    def deliver(self, key: TaskKey, record: Record) -> None:
        del self.waiting[key]
        self._arrived(key, record)
        self.progress.advance(record, reused=False)

    def update(self, point: _Point) -> None:
        """Folds the point's records that are next in replication order, and decides
        whether it is done (fixed count, precision reached, or the cap) or wants more."""
        while point.final_n is None and point.summary.n in point.pending:
            record = point.pending.pop(point.summary.n)
            point.summary.add(record)
            if point.kept is not None:
                point.kept.append(record)
            n = point.summary.n
            if point.fixed_n is not None:
                if n >= point.fixed_n:
                    point.final_n = point.fixed_n
            elif n >= point.min_n:
                assert point.check_scenario is not None
                if precision_reached(point.summary.metrics(), point.check_scenario):
                    point.final_n, point.reached = n, True
                elif n >= point.max_n:
                    point.final_n, point.reached = point.max_n, False
        if point.final_n is not None:
            point.pending.clear()
            return
        if point.fixed_n is None and point.summary.n == point.scheduled:
            grow = max(1, math.ceil(point.summary.n / 2))
            self.request(point, min(point.max_n, point.summary.n + grow))

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
                self.store.put(self.waiting[key].spec.resolved, seed, rep, record)
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
    keep_records: bool | None = None,
) -> list[PointOutcome]:
    """Like :func:`run_points`, with each point's summary, precision verdict and scenario
    hash. ``keep_records``: None keeps the records of points of at most
    ``KEEP_RECORDS_UP_TO`` replications; True or False decides for every point."""
    planned = [_plan(i, spec, keep_records) for i, spec in enumerate(points)]
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
        assert p.summary.n == p.final_n
        out.append(PointOutcome(summary=p.summary, kept_records=p.kept, precision_reached=p.reached, scenario_hash=p.hash))
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
        keep_records=True,
    )
    return [o.records for o in outcomes]
