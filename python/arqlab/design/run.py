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
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from arqlab import scenario as scenario_mod
from arqlab.design.algebra import Design, DesignError
from arqlab.design.analysis import analyse
from arqlab.errors import ArqlabError
from arqlab.execution import PointOutcome, PointSpec, run_points_detailed
from arqlab.limits import check_seed
from arqlab.results import is_batch_means, observations
from arqlab.store import Store, open_store

if TYPE_CHECKING:
    import pandas as pd

    from arqlab.execution import Runner
    from arqlab.progress import Progress


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


def choose_direction(resolved: Mapping[str, Any], metrics: Mapping[str, Collection[str]], measure: str,
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
    if not candidates:
        known = sorted({m for measures in metrics.values() for m in measures})
        raise DesignError([f"response.measure = {measure!r}: not measured in any scope of this scenario "
                           f"(its measures: {', '.join(known)})"])
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
    name: str | None = None,
) -> DesignResult:
    """Run every run of ``design`` over ``scenario`` and analyse ``measure`` (see
    :func:`arqlab.design.analyse`). ``replications``: per run (default the scenario's
    ``run.replications``); the analysis needs the same count in every run, so precision
    targets do not apply. ``store``, ``executor``, ``workers``: as :func:`arqlab.sweep`;
    with a store the effects table is also recorded under ``name`` for ``arqlab report``."""
    from arqlab.progress import Progress
    from arqlab.results import MEASURE_NAME

    check_seed(seed)
    problems: list[str] = []
    if not MEASURE_NAME.match(str(measure)):
        problems.append(f"response.measure = {measure!r}: expected a measure name such as transfer_time_s "
                        "or loss_ratio (lower case, digits and '_')")
    if replications is not None and (isinstance(replications, bool) or not isinstance(replications, int)
                                     or replications < 1):
        problems.append(f"replications = {replications!r}: expected a whole number >= 1")
    if problems:
        raise DesignError(problems)
    specs = resolve_runs(design, scenario, overrides, replications, seed)
    # The response is checked against the scopes of the first run before anything runs.
    from arqlab.results import catalogue

    choose_direction(specs[0].resolved, catalogue(specs[0].resolved), measure, direction)
    prog = Progress() if progress is True else None if progress is None or progress is False else progress
    own_store = store is not False and not isinstance(store, Store)
    the_store = None if store is False else open_store(store)
    try:
        outcomes = run_points_detailed(specs, executor=executor, workers=workers,
                                       store=False if the_store is None else the_store, progress=prog,
                                       reuse_any_version=reuse_any_version, runner=runner, keep_records=True)
        result = _analysed(design, specs, outcomes, measure, direction, log, confidence)
        if the_store is not None:
            _record(the_store, result, scenario, name, specs, outcomes, seed)
        return result
    finally:
        if own_store and the_store is not None:
            the_store.close()


def resolve_runs(design: Design, scenario: str | os.PathLike[str] | Mapping[str, Any],
                 overrides: Mapping[str, Any] | None, replications: int | None, seed: int = 1) -> list[PointSpec]:
    """Each run's resolved scenario as a point; every problem is named with its run."""
    source = scenario if isinstance(scenario, Mapping) else str(scenario)
    base_overrides = dict(overrides or {})
    problems: list[str] = []
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
    return specs


def _analysed(design: Design, specs: list[PointSpec], outcomes: list[PointOutcome], measure: str,
              direction: str | None, log: bool, confidence: float) -> DesignResult:
    import pandas as pd

    problems: list[str] = []
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


def _record(store: Store, result: DesignResult, scenario: str | os.PathLike[str] | Mapping[str, Any],
            name: str | None, specs: list[PointSpec], outcomes: list[PointOutcome], seed: int) -> None:
    """The effects table in the store's catalogue, where ``arqlab report`` shows it."""
    d = result.design
    stem = "scenario" if isinstance(scenario, Mapping) or "\n" in str(scenario) else Path(str(scenario)).stem
    label = name or f"{stem}: design {' × '.join(f.title for f in d.factors)}"
    relation = " = ".join(d.defining_relation())
    store.record_sweep(
        label, result.effects, grid=[(f"{f.name} ({f.title})", list(f.level_names)) for f in d.factors],
        title=label, base_scenario=specs[0].resolved,
        source="" if isinstance(scenario, Mapping) or "\n" in str(scenario) else str(scenario),
        points=[{"params": d.level_names(i), "hash": o.scenario_hash, "n": o.n, "precision_reached": None}
                for i, o in enumerate(outcomes)],
        seed=seed, replications=outcomes[0].n if outcomes else None,
        notes=f"{len(d.factors)} factors, {d.n_runs} runs, response {result.response}"
              + (f", defining relation {relation}" if d.p else "") + f", transform {result.effects['transform'].iloc[0]}",
    )
