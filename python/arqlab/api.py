"""`arqlab.simulate`: run one scenario, with replications or a precision target."""

from __future__ import annotations

import numbers
from typing import Any, Mapping

from . import _core, scenario
from .errors import ScenarioError, core_failure
from .interrupt import call_interruptibly
from .limits import check_replication_index, check_seed
from .results import Result, is_batch_means

Record = dict[str, Any]


def run_replication(resolved: Mapping[str, Any], seed: int, replication: int) -> Record:
    """One replication, entirely in Rust with the GIL released (Ctrl-C stops it)."""
    check_seed(seed)
    check_replication_index(replication)
    try:
        record: Record = call_interruptibly(_core.run_replication, scenario.canonical_json(resolved), int(seed),
                                            int(replication))
    except RuntimeError as e:
        raise core_failure(e) from None
    return record


def simulate(
    source: scenario.Source,
    *,
    seed: int = 1,
    replications: int | None = None,
    precision: float | None = None,
    overrides: Mapping[str, Any] | None = None,
    store: Any = False,
    executor: str | None = None,
    workers: int | None = None,
    reuse_any_version: bool = False,
    progress: Any = None,
) -> Result:
    """Simulates a scenario (a TOML path, a TOML string or a dict).

    - `replications`: how many independent replications (default `run.replications`).
    - `precision`: a relative half-width target γ (e.g. 0.025): replications are added
      after `run.min_replications` until every watched measure's 95% half-width is
      within γ/(1+γ) of its mean, or `run.max_replications` is reached
      (`Result.precision_reached` says which). The answer is the smallest such n.
    - `overrides`: dotted keys, e.g. `{"link.bit_error_rate": 1e-5}`.
    - `store`: False (default) computes in this process and keeps nothing; None uses the
      default result store (`$ARQLAB_STORE` or `./arqlab-results/store.sqlite`); a path
      or `arqlab.store.Store` uses that store. With a store, replications already stored
      for this scenario, seed and model version are reused, not recomputed.
    - `executor`: None/"serial" in process, "local" a process pool of `workers`, or a
      Dask scheduler address "tcp://host:port".

    Replication r always uses the random streams of (seed, r), so results do not depend
    on how or where replications are executed.
    """
    check_seed(seed)
    resolved = scenario.load(source, overrides)
    errors: list[str] = []
    if replications is not None:
        if isinstance(replications, bool) or not isinstance(replications, numbers.Integral) or replications < 1:
            errors.append(f"replications = {replications!r}: expected a whole number >= 1")
        else:
            replications = int(replications)
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, numbers.Real)):
        errors.append(f"precision = {precision!r}: expected a number in (0, 1)")
        precision = None
    if precision is not None and not 0.0 < float(precision) < 1.0:
        errors.append(f"precision = {precision}: expected a number in (0, 1)")
    if precision is not None and replications is not None:
        errors.append("give either replications or precision, not both")
    if errors:
        raise ScenarioError(errors)
    batch_means = is_batch_means(resolved)
    if batch_means:
        replications, precision = 1, None
    return _simulate_with(resolved, seed, replications, precision, store, executor or "serial", workers,
                          reuse_any_version, progress)


def _simulate_with(
    resolved: dict[str, Any], seed: int, replications: int | None, precision: float | None,
    store: Any, executor: str | None, workers: int | None, reuse_any_version: bool, progress: Any,
) -> Result:
    """`simulate` through the shared execution layer: the one implementation of the
    sequential rule, the store and the executors (serial by default)."""
    from .execution import PointSpec, run_points_detailed

    spec = PointSpec(resolved=resolved, seed=seed, replications=replications, precision=precision)
    (outcome,) = run_points_detailed(
        [spec], executor=executor, workers=workers, store=store, progress=progress, reuse_any_version=reuse_any_version
    )
    return Result(
        metrics=outcome.metrics,
        scenario=resolved,
        seed=seed,
        summary=outcome.summary,
        kept_records=outcome.kept_records,
        precision_reached=outcome.precision_reached,
    )


def compare(
    a: scenario.Source,
    b: scenario.Source,
    *,
    seed: int = 1,
    replications: int | None = None,
    overrides_a: Mapping[str, Any] | None = None,
    overrides_b: Mapping[str, Any] | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """Paired comparison of two variants under common random numbers.

    Both run replications 0..n−1 with the same seed, so replication r of each sees the
    same arrivals and the same channel. Returns direction → measure →
    {mean (a − b), ci95_half_width, n}: a much tighter interval than comparing two
    independent intervals.
    """
    sa, sb = scenario.load(a, overrides_a), scenario.load(b, overrides_b)
    # Before anything runs: two scenarios without a flow in common have nothing to pair.
    flows_a, flows_b = ({d for d, _ in scenario.flows(s)} for s in (sa, sb))
    if not flows_a & flows_b:
        raise ScenarioError([f"compare: the scenarios have no flow in common (a: {', '.join(sorted(flows_a))}; "
                             f"b: {', '.join(sorted(flows_b))}): there is nothing to pair"])
    ra = simulate(sa, seed=seed, replications=replications)
    rb = simulate(sb, seed=seed, replications=ra.replications)
    if ra.replications != rb.replications:
        raise ScenarioError([f"compare: variants ran {ra.replications} and {rb.replications} replications; pairing needs equal counts"])
    out: dict[str, dict[str, dict[str, float]]] = {}
    from .results import observations

    oa, ob = observations(ra.records), observations(rb.records)
    for key in sorted(oa.keys() & ob.keys()):
        xs, ys = oa[key], ob[key]
        pairs = [(x, y) for x, y in zip(xs, ys) if x == x and y == y]  # drop NaN pairs
        if len(pairs) < 2:
            continue
        mean, hw, n = _core.paired_interval([p[0] for p in pairs], [p[1] for p in pairs])
        out.setdefault(key[0], {})[key[1]] = {"mean": mean, "ci95_half_width": hw, "n": n}
    return out
