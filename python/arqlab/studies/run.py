"""Running: the one place where a study calls the simulator."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arqlab.results import observations, warn_stalls

from .plan import RunRequest
from .spec import Metrics, Observations

ProgressFn = Callable[[int, int, str], None]


def plain_metrics(metrics: Mapping[str, Any]) -> Metrics:
    """``{direction: {measure: {mean, ci95_half_width, n}}}`` as floats, skipping anything
    that is not a direction's table of measures."""
    out: Metrics = {}
    for direction, measures in metrics.items():
        if not isinstance(measures, Mapping):
            continue
        out[direction] = {}
        for name, stat in measures.items():
            if isinstance(stat, Mapping):
                out[direction][name] = {
                    "mean": float(stat.get("mean", float("nan"))),
                    "ci95_half_width": float(stat.get("ci95_half_width", float("nan"))),
                    "n": float(stat.get("n", 0)),
                }
    return out


def simulate_runs(
    runs: Sequence[RunRequest],
    *,
    workers: int | None = None,
    executor: Any = None,
    store: Any = None,
    progress: ProgressFn | None = None,
    runner: Callable[[RunRequest], Metrics] | None = None,
    observed: dict[str, Observations] | None = None,
    cost: dict[str, tuple[int, int]] | None = None,
) -> dict[str, Metrics]:
    """Run every request and return ``{run key: metrics}``. The one place that simulates.

    All runs go through the shared execution layer (:func:`arqlab.execution.run_points_detailed`)
    in one batch: replications are the tasks, so both cores (or a whole Dask cluster) stay
    busy to the end, and every finished replication is read from and written to the
    result store — an interrupted reproduction resumes, a re-run costs nothing.

    * ``store``: None (the default store), a path or ``Store``, or False for none.
    * ``executor``: None (a local pool of ``workers``; ``workers=1`` in this process),
      "serial", "local", or a Dask scheduler address "tcp://host:port".

    ``runner`` replaces the per-run simulation function (tests use it to run the framework
    without the compiled core); it is called in this process.

    ``observed``: when given, filled with each run's per-replication observations
    (``{run key: {(direction, measure): values}}``) for the runs whose records the
    execution layer kept (every run of up to ``results.KEEP_RECORDS_UP_TO``
    replications; a substituted ``runner`` gives none).

    ``cost``: when given, filled with each run's replications used and the events they
    simulated, ``{run key: (replications, events)}`` (a substituted ``runner`` gives none):
    events are what a run costs, the same on any machine and load.
    """
    total = len(runs)
    results: dict[str, Metrics] = {}

    def tick(i: int, req: RunRequest) -> None:
        if progress is not None:
            progress(i, total, req.label or req.key)

    if runner is not None:
        for i, req in enumerate(runs, 1):
            results[req.key] = runner(req)
            tick(i, req)
        return results
    from arqlab import scenario as scenario_mod
    from arqlab.execution import PointSpec, run_points_detailed

    if executor is None:
        executor = "serial" if workers == 1 else "local"
    specs = [
        PointSpec(resolved=scenario_mod.load(req.scenario), seed=req.seed, replications=req.replications, precision=req.precision)
        for req in runs
    ]
    outcomes = run_points_detailed(specs, executor=executor, workers=workers, store=store)
    for i, (req, spec, outcome) in enumerate(zip(runs, specs, outcomes), 1):
        results[req.key] = plain_metrics(outcome.metrics)
        if cost is not None:
            cost[req.key] = (outcome.n, outcome.summary.events)
        if observed is not None and outcome.kept_records is not None:
            observed[req.key] = {k: tuple(v) for k, v in observations(outcome.kept_records).items()}
        warn_stalls(req.label or req.key, outcome.summary.stalls)
        tick(i, req)
    return results

