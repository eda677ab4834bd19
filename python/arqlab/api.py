"""`arqlab.simulate`: run one scenario, with replications or a precision target."""

from __future__ import annotations

from typing import Any, Mapping

from . import _core, scenario
from .errors import SimulationError
from .results import Result, is_batch_means, stopping_n, summarize

Record = dict[str, Any]


def run_replication(resolved: Mapping[str, Any], seed: int, replication: int) -> Record:
    """One replication, entirely in Rust with the GIL released."""
    try:
        record: Record = _core.run_replication(scenario.canonical_json(resolved), int(seed), int(replication))
    except RuntimeError as e:
        raise SimulationError(str(e)) from None
    return record


def simulate(
    source: scenario.Source,
    *,
    seed: int = 1,
    replications: int | None = None,
    precision: float | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Result:
    """Simulates a scenario (a TOML path, a TOML string or a dict).

    - `replications`: how many independent replications (default `run.replications`).
    - `precision`: a relative half-width target γ (e.g. 0.025): replications are added
      after `run.min_replications` until every watched measure's 95% half-width is
      within γ/(1+γ) of its mean, or `run.max_replications` is reached
      (`Result.precision_reached` says which).
    - `overrides`: dotted keys, e.g. `{"link.bit_error_rate": 1e-5}`.

    Replication r always uses the random streams of (seed, r), so results do not depend
    on how replications are executed.
    """
    resolved = scenario.load(source, overrides)
    if replications is not None and int(replications) < 1:
        from .errors import ScenarioError

        raise ScenarioError([f"replications = {replications}: expected a whole number >= 1"])
    batch_means = is_batch_means(resolved)
    gamma = precision if precision is not None else resolved["run"].get("precision")
    if precision is not None and not 0.0 < float(precision) < 1.0:
        from .errors import ScenarioError

        raise ScenarioError([f"precision = {precision}: expected a number in (0, 1)"])
    records: list[Record] = []
    reached: bool | None = None
    if batch_means:
        records.append(run_replication(resolved, seed, 0))
    elif gamma is None:
        n = int(replications if replications is not None else resolved["run"]["replications"])
        records = [run_replication(resolved, seed, r) for r in range(n)]
    else:
        cap = int(resolved["run"]["max_replications"])
        while True:
            records.append(run_replication(resolved, seed, len(records)))
            if len(records) < int(resolved["run"]["min_replications"]):
                continue
            n, ok = stopping_n(records, resolved, float(gamma))
            if ok or n >= cap:
                records, reached = records[:n], ok
                break
    return Result(
        metrics=summarize(records, batch_means),
        scenario=resolved,
        seed=seed,
        records=records,
        precision_reached=reached,
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
    ra = simulate(a, seed=seed, replications=replications, overrides=overrides_a)
    rb = simulate(b, seed=seed, replications=replications or ra.replications, overrides=overrides_b)
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
