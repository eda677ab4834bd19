"""Global sensitivity of one measure of a user scenario: :func:`sensitivity`.

Each evaluation of the design is the scenario with the inputs' values set at their key
paths (exactly as ``arqlab run --set`` sets them), simulated with the same master seed
(common random numbers: two evaluations differ by their inputs, not by their luck), and
read as the mean of the measure over its replications.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .. import scenario as scenario_mod
from ..errors import ScenarioError
from .design import Factor, Plan, analyse, plan_for_budget, sample, values
from .spec import SensitivitySpec, load_spec


@dataclass
class SensitivityResult:
    """A finished analysis: the tidy indices (:func:`~.design.analyse`), one row per
    evaluation (the inputs' values and the response), the plan and the inputs."""

    indices: pd.DataFrame
    points: pd.DataFrame
    plan: Plan
    factors: tuple[Factor, ...]
    response: str
    seed: int

    def write(self, out_dir: str | os.PathLike[str]) -> list[Path]:
        """``indices.csv``, ``points.csv`` and the plot (PNG, SVG) into ``out_dir``."""
        from .plot import write_plot

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        files = [out / "indices.csv", out / "points.csv"]
        self.indices.to_csv(files[0], index=False)
        self.points.to_csv(files[1], index=False)
        return files + write_plot(self.indices, out / "sensitivity", title=self.response)


def response_of(metrics: Mapping[str, Mapping[str, Mapping[str, float]]], measure: str) -> tuple[str, str]:
    """(direction, measure) named by ``measure``: ``DIRECTION.MEASURE`` (``a_to_b.throughput_efficiency``,
    ``flow.a->b.transfer_time_s``) or a bare measure that exactly one direction reports."""
    direction, _, name = measure.rpartition(".")
    if direction:
        if direction in metrics and name in metrics[direction]:
            return direction, name
        raise ScenarioError([f"--measure {measure!r}: the scenario reports no measure {name!r} on direction "
                             f"{direction!r} (directions: {', '.join(sorted(metrics))})"])
    having = sorted(d for d, ms in metrics.items() if measure in ms)
    if len(having) == 1:
        return having[0], measure
    if not having:
        raise ScenarioError([f"--measure {measure!r}: no direction of the scenario reports it "
                             f"(directions: {', '.join(sorted(metrics))})"])
    raise ScenarioError([f"--measure {measure!r}: reported by several directions ({', '.join(having)}); "
                         f"name one, e.g. {having[0]}.{measure}"])


def sensitivity(
    scenario: scenario_mod.Source,
    spec: str | os.PathLike[str] | Mapping[str, Any] | SensitivitySpec,
    measure: str,
    *,
    method: str | None = None,
    budget: int | None = None,
    seed: int | None = None,
    replications: int | None = None,
    overrides: Mapping[str, Any] | None = None,
    store: Any = False,
    executor: str | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SensitivityResult:
    """Morris screening or Sobol' indices of ``measure`` over the inputs of ``spec``.

    ``scenario``: a TOML path, TOML text or dict (either scenario form); ``overrides``: fixed
    ``--set`` values under every evaluation. ``method``/``budget``/``seed``/``replications``
    override the spec's. ``store``: False (default) keeps nothing; None the default result
    store, or a path — with a store an interrupted analysis resumes and a re-run reads
    every evaluation back. Returns a :class:`SensitivityResult`.
    """
    sp = load_spec(spec)
    the_seed = sp.seed if seed is None else seed
    reps = replications if replications is not None else sp.replications
    plan = plan_for_budget(len(sp.factors), budget if budget is not None else sp.default_budget,
                           method if method is not None else sp.method)
    unit = sample(sp.factors, plan, the_seed)
    rows = values(sp.factors, unit)
    fixed = dict(overrides or {})
    # Every evaluation's scenario is resolved (and so validated) before anything runs.
    resolved = [scenario_mod.load(scenario, {**fixed, **{f.target: row[f.name] for f in sp.factors}})
                for row in rows]
    from ..execution import PointSpec, run_points_detailed

    specs = [PointSpec(resolved=r, seed=the_seed, replications=reps) for r in resolved]
    backend = executor or ("serial" if workers in (None, 1) else "local")
    # The first evaluation alone, so a measure the scenario does not report is an error
    # before the others run.
    outcomes = run_points_detailed(specs[:1], executor=backend, workers=workers, store=store)
    direction, name = response_of(outcomes[0].metrics, measure)
    outcomes += run_points_detailed(specs[1:], executor=backend, workers=workers, store=store)
    label = f"{direction}.{name}"
    ys: list[float] = []
    table: list[dict[str, Any]] = []
    for i, (row, out) in enumerate(zip(rows, outcomes)):
        stat = out.metrics.get(direction, {}).get(name, {})
        y = float(stat.get("mean", float("nan")))
        ys.append(y)
        table.append({"evaluation": i, **row, label: y,
                      f"{label}_ci95_half_width": float(stat.get("ci95_half_width", float("nan"))),
                      "replications": out.n})
        if progress is not None:
            progress(i + 1, len(rows))
    indices = analyse(sp.factors, plan, unit, ys, the_seed, response=label)
    return SensitivityResult(indices, pd.DataFrame(table), plan, sp.factors, label, the_seed)


def summary(result: SensitivityResult) -> list[str]:
    """The indices as text lines, the most influential input first."""
    ix = result.indices
    lead = "mu_star" if result.plan.method == "morris" else "ST"
    order = (ix[ix["index"] == lead].sort_values("value", ascending=False)["input"].tolist())
    cols: Sequence[str] = ("mu", "mu_star", "sigma") if result.plan.method == "morris" else ("S1", "ST")
    lines = [f"{result.plan.method} over {len(result.factors)} inputs, {len(result.points)} evaluations, "
             f"response {result.response}"]
    for name in order:
        cells = []
        for c in cols:
            r = ix[(ix["input"] == name) & (ix["index"] == c)].iloc[0]
            ci = "" if pd.isna(r["ci95_low"]) else f" [{r['ci95_low']:.3g}, {r['ci95_high']:.3g}]"
            cells.append(f"{c} {r['value']:.4g}{ci}")
        lines.append(f"  {name}: " + ", ".join(cells))
    return lines
