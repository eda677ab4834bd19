"""Where a study's full pass spends its CPU, measured on a sample of its runs.

    python -m arqlab.studies.cost STUDY [--every K] [--figure N ...] [--sequential] [--csv PATH]

The full pass is planned exactly as ``arqlab reproduce STUDY`` plans it (identical
scenarios across figures are one run, attributed to the first figure that asks for it).
Every K-th run of each (figure, variant) stratum is then simulated serially in this
process, without the result store, and timed with ``time.process_time``:

* the *pilot* (default): the first round the full pass computes anyway
  (``run.min_replications`` replications); the replications the precision target needs
  are estimated from it (:func:`replications_needed`), as in Law & Kelton's two-stage
  procedure. Rare long excursions a pilot of ten does not see make this an underestimate
  where they drive the variance (the NRM modulus-128 runs): ``--sequential`` measures them.
* ``--sequential``: the full pass's own rule (replications added until the target holds),
  so n is the one the pass uses, not an estimate; the CPU is the run's whole cost.

Per stratum it prints the runs and how many were sampled, CPU and events per replication,
simulated seconds per replication, n (mean, largest, the share of runs at the minimum),
and the stratum's CPU extrapolated to all its runs (sampled CPU per run × runs).
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from .plan import RunRequest, plan_figure
from .student_t import t95


@dataclass(frozen=True)
class PlannedRun:
    """A distinct run of a pass, the first figure that asks for it, and every figure that does."""

    request: RunRequest
    figure: int
    variant: str
    figures: tuple[int, ...]


@dataclass
class RunCost:
    """What one sampled run cost."""

    figure: int
    variant: str
    label: str
    replications: int
    """Replications simulated (the pilot's, or the sequential rule's n)."""
    min_n: int
    cpu_per_rep: float
    events_per_rep: float
    simulated_s_per_rep: float
    warmup_fraction: float
    n: int
    """Replications the target needs: estimated from the pilot, or the sequential rule's."""
    worst_rel_half_width: float
    """Of the watched measures, after the replications run."""

    @property
    def cpu(self) -> float:
        return self.n * self.cpu_per_rep


def _variant(label: str) -> str:
    return label.split("@", 1)[1].split("/", 1)[0] if "@" in label else ""


def plan_runs(study: Any, quick: bool = False, figures: Sequence[int] | None = None) -> list[PlannedRun]:
    """The distinct runs of a pass, in the order the pass submits them."""
    settings = study.settings_for(quick)
    owner: dict[str, tuple[RunRequest, int]] = {}
    users: dict[str, list[int]] = {}
    for fig in study.figures():
        if figures is not None and fig.number not in figures:
            continue
        _, runs, _ = plan_figure(fig, settings)
        for key, req in runs.items():
            owner.setdefault(key, (req, fig.number))
            users.setdefault(key, []).append(fig.number)
    return [PlannedRun(req, n, _variant(req.label), tuple(users[k])) for k, (req, n) in owner.items()]


def replications_needed(ivs: Sequence[tuple[float, float, int]], precision: float, min_n: int, max_n: int) -> int:
    """The smallest n ≥ ``min_n`` (at most ``max_n``) at which every (mean, 95% half-width
    from n0 replications, n0) would have a half-width t(n−1)·s/√n ≤ precision·|mean|, with
    s the pilot's standard deviation. A measure without a mean needs ``max_n``."""
    need = min_n
    for mean, half, n0 in ivs:
        if not (math.isfinite(mean) and math.isfinite(half)) or n0 < 2 or mean == 0:
            return max_n
        s = half * math.sqrt(n0) / t95(n0 - 1)
        n = max(min_n, math.ceil((1.96 * s / (precision * abs(mean))) ** 2))
        while n > min_n and t95(n - 2) * s / math.sqrt(n - 1) <= precision * abs(mean):
            n -= 1  # the normal quantile's n can be one or two high at small n; never low
        while n < max_n and t95(n - 1) * s / math.sqrt(n) > precision * abs(mean):
            n += 1
        need = max(need, min(n, max_n))
    return need


def measure_run(planned: PlannedRun, sequential: bool) -> RunCost:
    """Simulate one run serially (pilot or the sequential rule) and time it."""
    from arqlab import scenario as scenario_mod
    from arqlab.execution import PointSpec, run_points_detailed
    from arqlab.results import watched_intervals

    req = planned.request
    resolved = scenario_mod.load(req.scenario)
    run = resolved["run"]
    min_n, max_n = int(run["min_replications"]), int(run["max_replications"])
    if req.precision is None or not sequential:
        spec = PointSpec(resolved=resolved, seed=req.seed, replications=req.replications or min_n)
    else:
        spec = PointSpec(resolved=resolved, seed=req.seed, precision=req.precision)
    t0 = time.process_time()
    (outcome,) = run_points_detailed([spec], executor="serial", store=False)
    cpu = time.process_time() - t0
    reps = outcome.n
    ivs = [(float(m), float(h), n) for m, h, n in watched_intervals(outcome.metrics, resolved)]
    worst = max((h / abs(m) if m else math.inf for m, h, _ in ivs), default=0.0)
    if req.precision is None or sequential:
        n = reps
    else:
        n = replications_needed(ivs, req.precision, min_n, max_n)
    duration = float(run["duration_s"])
    return RunCost(planned.figure, planned.variant, req.label, reps, min_n, cpu / reps, outcome.summary.events / reps,
                   outcome.summary.simulated_s / reps, float(run.get("warmup_s", 0.0)) / duration if duration else 0.0,
                   n, worst)


def sample(runs: Sequence[PlannedRun], every: int) -> dict[tuple[int, str], tuple[int, list[PlannedRun]]]:
    """Every ``every``-th run of each (figure, variant) stratum, from its first: {stratum: (runs, sampled)}."""
    strata: dict[tuple[int, str], list[PlannedRun]] = {}
    for r in runs:
        strata.setdefault((r.figure, r.variant), []).append(r)
    return {k: (len(v), v[::every]) for k, v in sorted(strata.items())}


def print_table(costs: Mapping[tuple[int, str], tuple[int, Sequence[RunCost]]], stream: TextIO) -> float:
    """One row per stratum and the total; returns the extrapolated total CPU seconds."""
    print(f"{'fig':>3} {'variant':12} {'runs':>5} {'sampled':>7} {'CPU ms/rep':>10} {'k ev/rep':>8} "
          f"{'sim s/rep':>9} {'n mean':>7} {'n max':>6} {'at min':>6} {'CPU s':>8}", file=stream)
    total = 0.0
    rows = []
    for (fig, variant), (n_runs, cs) in costs.items():
        if not cs:
            continue
        k = len(cs)
        est = sum(c.cpu for c in cs) * n_runs / k
        total += est
        rows.append((fig, variant, n_runs, k, est, cs))
    for fig, variant, n_runs, k, est, cs in rows:
        share = sum(c.n <= c.min_n for c in cs) / k
        print(f"{fig:>3} {variant or 'base':12} {n_runs:>5} {k:>7} {1e3 * sum(c.cpu_per_rep for c in cs) / k:>10.1f} "
              f"{sum(c.events_per_rep for c in cs) / k / 1e3:>8.0f} {sum(c.simulated_s_per_rep for c in cs) / k:>9.0f} "
              f"{sum(c.n for c in cs) / k:>7.1f} {max(c.n for c in cs):>6} {share:>6.0%} {est:>8.1f}", file=stream)
    print(f"total: {total:.0f} CPU s extrapolated ({total / 60:.1f} CPU-minutes)", file=stream)
    return total


def main(argv: list[str] | None = None) -> int:
    from arqlab.studies import STUDIES, get_study

    ap = argparse.ArgumentParser(prog="python -m arqlab.studies.cost", description=__doc__.splitlines()[0])
    ap.add_argument("study", help=f"one of {', '.join(sorted(STUDIES))}")
    ap.add_argument("--every", type=int, default=3, help="sample every K-th run of each stratum (default 3)")
    ap.add_argument("--figure", type=int, action="append", default=None, help="only figure N (repeatable)")
    ap.add_argument("--sequential", action="store_true", help="run the full pass's sequential rule, not a pilot")
    ap.add_argument("--csv", default=None, help="write every sampled run's costs to this CSV")
    args = ap.parse_args(argv)
    if args.study not in STUDIES:
        ap.error(f"unknown study {args.study!r} (expected one of: {', '.join(sorted(STUDIES))})")
    if args.every < 1:
        ap.error(f"--every must be at least 1 (got {args.every})")
    study = get_study(args.study)
    runs = plan_runs(study, figures=args.figure)
    shared = sum(len(r.figures) > 1 for r in runs)
    print(f"{args.study} full pass: {len(runs)} distinct runs ({shared} serve more than one figure); "
          f"sampling every {args.every}th run per stratum, {'sequential rule' if args.sequential else 'pilot'}",
          file=sys.stdout)
    costs: dict[tuple[int, str], tuple[int, list[RunCost]]] = {}
    every: list[RunCost] = []
    for stratum, (n_runs, picked) in sample(runs, args.every).items():
        got = [measure_run(r, args.sequential) for r in picked]
        costs[stratum] = (n_runs, got)
        every += got
        print(f"  fig {stratum[0]} {stratum[1] or 'base'}: {len(got)} runs measured", file=sys.stderr, flush=True)
    print_table(costs, sys.stdout)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=[*asdict(every[0]), "cpu"] if every else ["figure"])
            w.writeheader()
            for c in every:
                w.writerow({**asdict(c), "cpu": c.cpu})
    return 0


if __name__ == "__main__":
    sys.exit(main())
