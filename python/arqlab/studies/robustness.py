"""Claim robustness: how each verdict of a study moves over the plausible values of the
inputs the paper leaves unstated (the study's ``params.UNCERTAIN_INPUTS``).

A global design (Morris screening, or Sobol' indices when the budget allows; SALib through
:mod:`arqlab.gsa.design`) draws points of the inputs' plausible space; at each point the
study's quick pass is planned with those inputs, simulated (every run through the result
store: an interrupted pass resumes, a re-run reads everything back) and every claim is
evaluated. Per claim the response is 1 where it holds and 0 where it does not (or is
inconclusive), so

* the **share** of the space where it holds is the response's mean over the design
  points (Wilson 95% interval over the points; Morris points lie on a grid along
  trajectories, so the interval is indicative there),
* the inputs that **flip** it are those with an effect on the response (Morris μ*, σ;
  Sobol' S1, ST; bootstrap CIs from SALib),
* its **label** combines the share with the verdict at the study's own values
  (:func:`label`).

An input's ``target`` is a ``run --set`` key path (set in every run's scenario) or
``param:NAME``: the study's parameter ``NAME``, rebound for the time a point is planned
and its claims evaluated in every module of the study's package that imported it
(:func:`study_params`), so a study's builders must read such parameters when they run, not
fold them into values computed at import.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ScenarioError
from ..gsa.design import MORRIS_STEP, Factor, Plan, analyse, plan_for_budget, sample, share_interval, values
from .artefacts.curves import FigureData
from .data import ClaimResult, StudyData, evaluate_claim
from .overrides import apply_overrides, run_key
from .plan import Point, RunRequest, RunSettings, plan_figure, tabulate
from .run import ProgressFn, simulate_runs
from .spec import Claim, Figure, Observations, UncertainInput
from .verdicts import Verdict

#: A claim "holds robustly" when it holds at the study's values and on at least this
#: share of the plausible space; it "fails robustly" when it fails there and holds on at
#: most 1 − ROBUST_SHARE of it.
ROBUST_SHARE = 0.9
#: An input "flips" a claim when its effect on the 0/1 response is at least this: the
#: share of its Morris steps that change the verdict (μ*·Δ: an elementary effect of a
#: flip is ±1/Δ), or its Sobol' ST.
FLIP_EFFECT = 0.1

HOLDS_ROBUSTLY = "holds robustly"
HOLDS_AT_STUDY_VALUES = "holds at the study's values only"
FAILS_ROBUSTLY = "fails robustly"
FAILS_AT_STUDY_VALUES = "fails at the study's values only"
INCONCLUSIVE_AT_STUDY_VALUES = "inconclusive at the study's values"


def label(nominal: Verdict, share: float) -> str:
    """The robustness label of a claim from its verdict at the study's values and the share
    of the plausible space where it holds."""
    if nominal is Verdict.HOLDS:
        return HOLDS_ROBUSTLY if share >= ROBUST_SHARE else HOLDS_AT_STUDY_VALUES
    if nominal is Verdict.DOES_NOT_HOLD:
        return FAILS_ROBUSTLY if share <= 1.0 - ROBUST_SHARE else FAILS_AT_STUDY_VALUES
    if nominal is Verdict.INCONCLUSIVE:
        return INCONCLUSIVE_AT_STUDY_VALUES
    return f"{nominal.value} at the study's values"


def factor_of(u: UncertainInput) -> Factor:
    return Factor(u.name, u.target, u.low, u.high, tuple(u.levels), u.log)


def uncertain_inputs(package: ModuleType) -> tuple[UncertainInput, ...]:
    """The study's declared inputs (``<package>.params.UNCERTAIN_INPUTS``), or ()."""
    try:
        params = importlib.import_module(f"{package.__name__}.params")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(params, "UNCERTAIN_INPUTS", ()))


@contextlib.contextmanager
def study_params(package: str, assignments: Mapping[str, Any]) -> Iterator[None]:
    """Rebind study parameters for the duration: ``NAME`` in ``<package>.params`` and in
    every loaded module of the package that bound the same object by name (``from .params
    import NAME``). A name the params module lacks is an error (a typo must not be a no-op)."""
    params = importlib.import_module(f"{package}.params")
    saved: list[tuple[ModuleType, str, Any]] = []
    try:
        for name, value in assignments.items():
            if not hasattr(params, name):
                raise ValueError(f"uncertain input target param:{name}: {package}.params has no {name}")
            original = getattr(params, name)
            for mod_name, mod in list(sys.modules.items()):
                if mod is None or not (mod_name == package or mod_name.startswith(package + ".")):
                    continue
                if name in vars(mod) and vars(mod)[name] is original:
                    saved.append((mod, name, original))
                    setattr(mod, name, value)
        yield
    finally:
        for mod, name, original in reversed(saved):
            setattr(mod, name, original)


def split_targets(inputs: Sequence[UncertainInput], row: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(study parameters, scenario key paths) of one design point."""
    params = {u.target.removeprefix("param:"): row[u.name] for u in inputs if u.target.startswith("param:")}
    keys = {u.target: row[u.name] for u in inputs if not u.target.startswith("param:")}
    return params, keys


@dataclass
class PointPlan:
    """One design point planned: its figures, their points and the runs that feed them."""

    row: dict[str, Any]
    figures: dict[int, Figure]
    points: dict[int, list[Point]]
    runs: dict[str, RunRequest]


def plan_point(study: Any, package: str, inputs: Sequence[UncertainInput], row: Mapping[str, Any],
               wanted: Sequence[int] | None, settings: RunSettings) -> PointPlan:
    """Plan the study's figures with the inputs at ``row``: parameters rebound while the
    figures are built, key paths set in every run's scenario (a new run key). The
    one-at-a-time sensitivity variants are left out: the design replaces them (and they
    would double the runs)."""
    params, keys = split_targets(inputs, row)
    with study_params(package, params):
        figs = {f.number: dataclasses.replace(f, sensitivities=()) for f in study.figures()
                if wanted is None or f.number in wanted}
        planned = {n: plan_figure(f, settings) for n, f in figs.items()}
    points: dict[int, list[Point]] = {}
    runs: dict[str, RunRequest] = {}
    for n, (pts, rmap, _) in planned.items():
        rekey: dict[str, str] = {}
        for k, r in rmap.items():
            if keys:
                scn = apply_overrides(r.scenario, keys)
                new = run_key(scn, r.seed, r.replications, r.precision)
                r = dataclasses.replace(r, key=new, scenario=scn)
            rekey[k] = r.key
            runs.setdefault(r.key, r)
        points[n] = [dataclasses.replace(p, run=rekey[p.run]) for p in pts]
    return PointPlan(dict(row), figs, points, runs)


def evaluate_point(study: Any, package: str, inputs: Sequence[UncertainInput], pp: PointPlan,
                   metrics: Mapping[str, Any], observed: Mapping[str, Observations] | None = None) -> list[ClaimResult]:
    """Every claim of the planned figures (and the study's own) on a point's results
    (``observed``: the runs' per-replication observations, :class:`FigureData`)."""
    params, _ = split_targets(inputs, pp.row)
    with study_params(package, params):
        data = StudyData({n: FigureData(f, tabulate(f, pp.points[n], metrics), observed=observed)
                          for n, f in pp.figures.items()})
        claims: list[Claim] = [c for f in pp.figures.values() for c in f.claims] + list(study.study_claims())
        return [r for c in claims if (r := evaluate_claim(c, data)) is not None]


def _invalid_point(name: str, inputs: Sequence[UncertainInput], plans: Sequence[PointPlan]) -> ScenarioError | None:
    """The first design point whose scenarios the model rejects, as an error naming the
    point's inputs and the problems (only on the error path: validating every run twice
    would cost as much as planning). None if no single point is at fault."""
    from arqlab import scenario as scenario_mod

    for i, pp in enumerate(plans):
        for r in pp.runs.values():
            try:
                scenario_mod.load(r.scenario)
            except ScenarioError as e:
                at = ", ".join(f"{u.name} = {pp.row[u.name]!r}" for u in inputs)
                return ScenarioError([f"{name} --robustness: design point {i} ({at}) gives a scenario the model "
                                      f"rejects; narrow the plausible ranges in params.UNCERTAIN_INPUTS so that "
                                      f"every combination is valid", *e.problems])
    return None


@dataclass
class Robustness:
    """The result of a robustness pass: the design (one row per point, the inputs' values
    and each claim's verdict), the indices per claim (tidy) and the summary per claim."""

    plan: Plan
    inputs: tuple[UncertainInput, ...]
    design: pd.DataFrame
    indices: pd.DataFrame
    summary: pd.DataFrame
    runs: int


SUMMARY_COLUMNS = ["claim", "origin", "statement", "verdict_at_study_values", "share_holds", "share_ci95_low",
                   "share_ci95_high", "share_inconclusive", "label", "flipped_by", "points"]


def _summary_row(claim: ClaimResult, holds: np.ndarray, inconclusive: np.ndarray, ix: pd.DataFrame,
                 method: str) -> dict[str, Any]:
    share, lo, hi = share_interval(int(holds.sum()), len(holds))
    lead = "mu_star" if method == "morris" else "ST"
    eff = ix[ix["index"] == lead].sort_values("value", ascending=False)
    if method == "morris":
        flips = [f"{r.input} (flips {100 * r.value * MORRIS_STEP:.0f}% of its steps)" for r in eff.itertuples()
                 if r.value * MORRIS_STEP >= FLIP_EFFECT]
    else:
        flips = [f"{r.input} (ST {r.value:.2f})" for r in eff.itertuples() if r.value >= FLIP_EFFECT]
    return {"claim": claim.id, "origin": claim.origin, "statement": claim.statement,
            "verdict_at_study_values": claim.verdict.value, "share_holds": share, "share_ci95_low": lo,
            "share_ci95_high": hi, "share_inconclusive": float(inconclusive.mean()) if len(inconclusive) else float("nan"),
            "label": label(claim.verdict, share), "flipped_by": "; ".join(flips) or "none", "points": len(holds)}


def robustness(
    package: ModuleType,
    *,
    budget: int,
    method: str | None = None,
    seed: int = 1,
    figures: Sequence[int] | None = None,
    nominal: Sequence[ClaimResult] = (),
    workers: int | None = None,
    executor: Any = None,
    store: Any = None,
    progress: ProgressFn | None = None,
    runner: Any = None,
) -> Robustness:
    """Run the robustness design of a study package (``arqlab.studies.colella``, say)
    within ``budget`` design points, and analyse every claim. ``nominal``: the claims'
    results at the study's values (the quick pass); each claim's label reads them."""
    study = package.STUDY
    inputs = uncertain_inputs(package)
    if not inputs:
        raise ValueError(f"{study.NAME} declares no uncertain inputs (params.UNCERTAIN_INPUTS); "
                         "nothing to analyse")
    factors = tuple(factor_of(u) for u in inputs)
    plan = plan_for_budget(len(factors), budget, method)
    unit = sample(factors, plan, seed)
    rows = values(factors, unit)
    settings = study.settings_for(True, seed)
    plans = [plan_point(study, package.__name__, inputs, row, figures, settings) for row in rows]
    runs: dict[str, RunRequest] = {}
    for pp in plans:
        for k, r in pp.runs.items():
            runs.setdefault(k, r)
    try:
        observed: dict[str, Observations] = {}
        metrics = simulate_runs(list(runs.values()), workers=workers, executor=executor, store=store,
                                progress=progress, runner=runner, observed=observed)
    except ScenarioError as e:
        raise _invalid_point(study.NAME, inputs, plans) or e from None
    results = [evaluate_point(study, package.__name__, inputs, pp, metrics, observed) for pp in plans]
    claim_ids = [r.id for r in results[0]]
    table = pd.DataFrame([{**pp.row, **{r.id: r.verdict.value for r in res}} for pp, res in zip(plans, results)])
    by_id = {r.id: r for r in nominal}
    index_frames, summary_rows = [], []
    for cid in claim_ids:
        verdicts = table[cid].to_numpy()
        holds = (verdicts == Verdict.HOLDS.value).astype(float)
        ix = analyse(factors, plan, unit, holds, seed, response=cid)
        ix.insert(0, "claim", cid)
        index_frames.append(ix)
        claim = by_id.get(cid) or next(r for r in results[0] if r.id == cid)
        # No verdict at a point: inconclusive, not exercised or not applicable there.
        unsettled = np.isin(verdicts, [v.value for v in Verdict if not v.settled])
        summary_rows.append(_summary_row(claim, holds, unsettled, ix, plan.method))
    indices = pd.concat(index_frames, ignore_index=True) if index_frames else pd.DataFrame()
    return Robustness(plan, inputs, table, indices, pd.DataFrame(summary_rows, columns=SUMMARY_COLUMNS), len(runs))
