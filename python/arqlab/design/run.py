"""Running a design: every run is a point of the shared execution layer.

Run i is the base scenario with the design's overrides for run i. All runs go to
:func:`arqlab.execution.run_points_detailed` at once (the store is read first, the missing
replications are computed on the chosen executor), with one seed for every run: common
random numbers, as in a sweep, so an effect is not masked by different random streams.
Replication j of every run is replication j of that seed, wherever it is computed.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from arqlab import scenario as scenario_mod
from arqlab.design.algebra import Design, DesignError
from arqlab.design.analysis import analyse
from arqlab.errors import ArqlabError
from arqlab.limits import check_seed
from arqlab.results import is_batch_means, observations

if TYPE_CHECKING:
    import pandas as pd

    from arqlab.execution import Runner
    from arqlab.progress import Progress
    from arqlab.store import Store


@dataclass(frozen=True)
class DesignResult:
    """A design's runs and their analysis."""

    design: Design
    response: str
    observations: list[list[float]]
    runs: pd.DataFrame
    effects: pd.DataFrame


def _run_label(design: Design, run: int) -> str:
    return f"run {run} ({', '.join(f'{k}={v}' for k, v in design.level_names(run).items())})"


def choose_direction(resolved: Mapping[str, Any], metrics: Mapping[str, Mapping[str, Any]], measure: str,
                     direction: str | None) -> str:
    """``direction`` if given and present; else the one active flow that has ``measure``,
    else the one scope of any kind that has it."""
    having = [d for d, measures in metrics.items() if measure in measures]
    if direction is not None:
        if direction not in having:
            raise DesignError([f"response.direction = {direction!r}: no {measure} there "
                               f"(directions with it: {', '.join(having) or 'none'})"])
        return direction
    active = [d for d, on in scenario_mod.flows(resolved) if on and d in having]
    candidates = active or having
    if len(candidates) != 1:
        raise DesignError([f"response.direction: {measure} is measured in {', '.join(candidates) or 'no direction'}; "
                           "name one"])
    return candidates[0]


def run_design(
    design: Design,
    scenario: str | os.PathLike[str] | Mapping[str, Any],
    *,
    measure: str,
    direction: str | None = None,
    replications: int | None = None,
    seed: int = 1,
    log: bool = False,
    confidence: float = 0.95,
    overrides: Mapping[str, Any] | None = None,
    executor: str | None = None,
    workers: int | None = None,
    store: Store | str | os.PathLike[str] | None | Literal[False] = None,
    progress: Progress | bool | None = None,
    reuse_any_version: bool = False,
    runner: Runner | None = None,
) -> DesignResult:
    """Run every run of ``design`` over ``scenario`` and analyse ``measure`` (see
    :func:`arqlab.design.analyse`). ``replications``: per run (default the scenario's
    ``run.replications``); the analysis needs the same count in every run, so precision
    targets do not apply. ``store``, ``executor``, ``workers``: as :func:`arqlab.sweep`."""
    import pandas as pd

    from arqlab import MEASURES
    from arqlab.execution import PointSpec, run_points_detailed
    from arqlab.progress import Progress

    check_seed(seed)
    problems: list[str] = []
    if measure not in MEASURES:
        problems.append(f"response.measure = {measure!r}: not a measure (measures: {', '.join(MEASURES)})")
    if replications is not None and (isinstance(replications, bool) or not isinstance(replications, int)
                                     or replications < 1):
        problems.append(f"replications = {replications!r}: expected a whole number >= 1")
    if problems:
        raise DesignError(problems)
    source = scenario if isinstance(scenario, Mapping) else str(scenario)
    base_overrides = dict(overrides or {})
    specs = []
    for i in range(design.n_runs):
        try:
            resolved = scenario_mod.load(source, {**base_overrides, **design.overrides(i)})
        except ArqlabError as exc:
            details = getattr(exc, "problems", None) or [str(exc)]
            problems.extend(f"{_run_label(design, i)}: {p}" for p in details)
            continue
        if is_batch_means(resolved):
            problems.append(f"{_run_label(design, i)}: run.method = 'batch_means' gives one replication; "
                            "a design needs independent replications (use run.method = 'replications')")
            continue
        n = replications if replications is not None else int(resolved["run"]["replications"])
        specs.append(PointSpec(resolved=resolved, seed=seed, replications=n))
    if problems:
        raise DesignError(problems)
    prog = Progress() if progress is True else None if progress is None or progress is False else progress
    outcomes = run_points_detailed(specs, executor=executor, workers=workers, store=store, progress=prog,
                                   reuse_any_version=reuse_any_version, runner=runner, keep_records=True)
    chosen = choose_direction(specs[0].resolved, outcomes[0].metrics, measure, direction)
    obs: list[list[float]] = []
    rows = []
    for i, outcome in enumerate(outcomes):
        values = observations(outcome.records).get((chosen, measure), [])
        bad = [j for j, y in enumerate(values) if not math.isfinite(y)]
        if len(values) != outcome.n or bad:
            problems.append(f"{_run_label(design, i)}: {chosen}.{measure} is undefined in replication(s) "
                            f"{bad or 'all'}; choose a measure every run defines")
        obs.append(values)
        stats = outcome.metrics.get(chosen, {}).get(measure, {})
        rows.append({"run": i, **design.level_names(i), "mean": stats.get("mean", math.nan),
                     "ci95_half_width": stats.get("ci95_half_width", math.nan), "n": outcome.n,
                     "scenario_hash": outcome.scenario_hash})
    if problems:
        raise DesignError(problems)
    response = f"{chosen}.{measure}"
    effects = analyse(design, obs, log=log, confidence=confidence, response=response)
    return DesignResult(design=design, response=response, observations=obs, runs=pd.DataFrame(rows),
                        effects=effects)
