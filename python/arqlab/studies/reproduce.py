"""Reproducing a study: plan every figure, simulate, tabulate, check capacity, write the
outputs, evaluate the claims and print the summary.

A study is anything that satisfies :class:`Study` (a package such as
``arqlab.studies.bux1982`` exposes its figures and study-level claims through one).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from arqlab.outputs import replaced_atomically

from .artefacts.curves import FigureData
from .capacity import check_capacity, point_name, short_point_note
from .data import ClaimResult, StudyData, StudyDefinitionError, evaluate_claim, inapplicable_variants
from .output import counts_by_origin, print_claims, quick_footer, write_claims, write_plot, write_scenarios
from .plan import Point, RunRequest, RunSettings, plan_figure, tabulate
from .run import ProgressFn, simulate_runs
from .spec import Claim, Figure, Metrics, Observations
from .verdicts import tally


class Study(Protocol):
    """What a study provides (``arqlab.studies.bux1982`` is one).

    ``SOURCE`` is the short ASCII citation that heads its scenario files;
    ``STUDY_CLAIMS_HEADING`` heads the printed claims that draw on several figures.
    """

    NAME: str
    TITLE: str
    SOURCE: str
    STUDY_CLAIMS_HEADING: str

    def figures(self) -> list[Figure]: ...

    def study_claims(self) -> list[Claim]: ...


@dataclass
class Reproduction:
    """Everything a reproduction produced."""

    out_dir: Path
    data: StudyData
    claims: list[ClaimResult]
    files: list[Path]
    skipped_claims: list[str]


def _evaluate(claims: Sequence[Claim], data: StudyData, skipped: list[str]) -> list[ClaimResult]:
    """Evaluate claims; the ids of those whose figures were not run go to ``skipped``."""
    out: list[ClaimResult] = []
    for claim in claims:
        res = evaluate_claim(claim, data)
        if res is None:
            skipped.append(claim.id)
        else:
            out.append(res)
    return out


def _print_summary(results: Sequence[ClaimResult], fdata: dict[int, FigureData], out: Path,
                   precision: float | None, stream: TextIO) -> None:
    """The lines --quiet keeps: verdict counts, points without a steady state, precision."""
    by_origin = counts_by_origin(results)
    if set(by_origin) <= {"paper"}:
        counts = tally(r.verdict for r in results)
        print("Verdicts: " + ", ".join(f"{n} {v}" for v, n in counts.items()) + f"; outputs in {out}", file=stream)
    else:
        print("Verdicts: " + "; ".join(f"{o}: " + ", ".join(f"{n} {v}" for v, n in c.items())
                                       for o, c in by_origin.items()) + f"; outputs in {out}", file=stream)
    unsteady = [
        point_name(n, row)
        for n, fd in sorted(fdata.items())
        for row in fd.frame.itertuples(index=False)
        if row.steady_state == "no"
    ]
    if unsteady:
        print(f"No steady state (the link carried more than the precision target less than offered; "
              f"the mean grows with the run): "
              f"{len(unsteady)} points: " + "; ".join(unsteady), file=stream)
    if precision is None:
        return
    # A sensitivity with its own target is held to that one.
    targets = {n: {s.name: s.precision for s in fd.figure.sensitivities if s.precision is not None} for n, fd in fdata.items()}
    short: list[str] = []
    unstable = 0
    for n, fd in sorted(fdata.items()):
        for row in fd.frame.itertuples(index=False):
            if row.rel_half_width > targets[n].get(str(row.variant), precision):
                short.append(short_point_note(n, row))
                unstable += row.steady_state == "no"
    total = sum(len(fd.frame) for fd in fdata.values())
    others = "".join(f", sensitivity rows with their own target within ±{100 * p:g}%" for p in sorted({p for t in targets.values() for p in t.values()}))
    if short:
        stable = f" ({len(short) - unstable} of them with a steady state)" if unstable else ""
        print(f"Precision: {total - len(short)} of {total} points within ±{100 * precision:g}%{others}; "
              f"at the replication cap{stable}: " + "; ".join(short), file=stream)
    else:
        print(f"Precision: all {total} points within ±{100 * precision:g}%{others}", file=stream)


def cost_line(figure_runs: Mapping[int, Sequence[str]], cost: Mapping[str, tuple[int, int]]) -> str | None:
    """Where a pass's simulation went, per figure: distinct runs, replications used and
    events simulated (a run shared by figures counted under the first that asks for it).
    ``figure_runs``: each figure's run keys, in pass order; ``cost``: ``{run key:
    (replications, events)}`` from :func:`~.run.simulate_runs`. None without costs (a
    substituted runner)."""
    if not cost:
        return None
    seen: set[str] = set()
    parts: list[str] = []
    total = [0, 0, 0]
    for n, keys in figure_runs.items():
        mine = [k for k in dict.fromkeys(keys) if k not in seen and k in cost]
        seen.update(mine)
        reps = sum(cost[k][0] for k in mine)
        events = sum(cost[k][1] for k in mine)
        total = [total[0] + len(mine), total[1] + reps, total[2] + events]
        parts.append(f"Fig. {n} {len(mine):,} runs, {reps:,} replications, {events / 1e6:,.1f} M events")
    return ("Simulated per figure (a run shared by figures under the first): " + "; ".join(parts)
            + f"; in all {total[0]:,} runs, {total[1]:,} replications, {total[2] / 1e6:,.1f} M events")


def check_variants(figures: Mapping[int, Figure], wanted: Sequence[int], points: Mapping[int, Sequence[Point]],
                   study_claims: Sequence[Claim]) -> None:
    """Plan time: every sensitivity variant a claim names must vary every curve the claim
    reads (:func:`~.data.inapplicable_variants`, on the planned points without values);
    otherwise a :class:`~.data.StudyDefinitionError` lists each offending pair before
    anything runs."""
    dry = StudyData({n: FigureData(figures[n], tabulate(figures[n], points[n], {})) for n in wanted})
    claims = [c for n in wanted for c in figures[n].claims] + list(study_claims)
    problems = inapplicable_variants([c for c in claims if c.figure is not None and c.figure in dry], figures, dry)
    if problems:
        raise StudyDefinitionError("\n".join(problems))


def reproduce_study(
    study: Study,
    *,
    figures: Sequence[int] | None = None,
    quick: bool = False,
    out_dir: str | os.PathLike[str] = ".",
    settings: RunSettings,
    workers: int | None = None,
    executor: Any = None,
    store: Any = None,
    progress: ProgressFn | None = None,
    runner: Callable[[RunRequest], Metrics] | None = None,
    stream: TextIO | None = None,
    quiet: bool = False,
) -> Reproduction:
    """Run the chosen figures of a study, write every output and print the claims."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sink = stream or sys.stdout
    all_figs = {f.number: f for f in study.figures()}
    wanted = list(all_figs) if figures is None else list(figures)
    unknown = [n for n in wanted if n not in all_figs]
    if unknown:
        raise ValueError(f"{study.NAME} has no figure {unknown[0]} (figures: {', '.join(map(str, sorted(all_figs)))})")
    plans = {n: plan_figure(all_figs[n], settings) for n in wanted}
    check_variants(all_figs, wanted, {n: p[0] for n, p in plans.items()}, study.study_claims())
    runs: dict[str, RunRequest] = {}
    for _, rmap, _ in plans.values():
        for k, r in rmap.items():
            runs.setdefault(k, r)
    observed: dict[str, Observations] = {}
    cost: dict[str, tuple[int, int]] = {}
    metrics = simulate_runs(list(runs.values()), workers=workers, executor=executor, store=store,
                            progress=progress, runner=runner, observed=observed, cost=cost)
    frames = {n: tabulate(all_figs[n], plans[n][0], metrics) for n in wanted}
    check_capacity(frames, runs, metrics, settings.precision,
                   lambda reqs: simulate_runs(reqs, workers=workers, executor=executor, store=store, runner=runner))
    files: list[Path] = []
    fdata: dict[int, FigureData] = {}
    for n in wanted:
        fig = all_figs[n]
        frame = frames[n]
        csv = out / f"fig{n}.csv"
        with replaced_atomically(csv, "--out") as tmp:
            frame.to_csv(tmp, index=False)
        files.append(csv)
        footer = quick_footer(settings, list(plans[n][1].values()), frame) if quick else ""
        files += write_plot(fig, frame, out, quick=quick, footer=footer)
        files.append(write_scenarios(fig, plans[n][2], out, settings, source=study.SOURCE))
        fdata[n] = FigureData(fig, frame, observed=observed)
    data = StudyData(fdata)
    coequal = tuple(dict.fromkeys(s.name for n in wanted for s in all_figs[n].sensitivities if s.coequal))
    results: list[ClaimResult] = []
    skipped: list[str] = []
    for n in wanted:
        fig_results = _evaluate(all_figs[n].claims, data, skipped)
        results += fig_results
        if not quiet:
            print_claims(f"Fig. {n}: {all_figs[n].title}", fig_results, sink, coequal)
    tail = _evaluate(study.study_claims(), data, skipped)
    results += tail
    if not quiet:
        if tail:
            print_claims(study.STUDY_CLAIMS_HEADING, tail, sink, coequal)
        if skipped:
            print(f"Not evaluated (need figures that were not run): {', '.join(skipped)}", file=sink)
    _print_summary(results, fdata, out, settings.precision, sink)
    spent = cost_line({n: list(plans[n][1]) for n in wanted}, cost)
    if spent is not None:
        print(spent, file=sink)
    files += list(write_claims(results, out, title=study.TITLE, quick=quick, coequal=coequal))
    return Reproduction(out, data, results, files, skipped)


@dataclass(frozen=True)
class PassInfo:
    """What an :class:`Extra` knows of the pass it runs in."""

    figures: Sequence[int] | None
    quick: bool
    seed: int
    stream: TextIO


@dataclass(frozen=True)
class Extra:
    """An output a study adds after its swept figures and claims: a figure drawn from a
    trace, a redrawing of some figures, a measurement. ``write`` returns the files it wrote.

    ``figure``: it runs when that figure is chosen (or all are); None: on every pass.
    ``simulates``: it runs the simulator itself, so it is skipped when a test substitutes
    the runner (``reproduce(runner=...)``).
    """

    write: Callable[[Reproduction, PassInfo], list[Path]]
    figure: int | None = None
    simulates: bool = True

    def wanted(self, figures: Sequence[int] | None, substituted_runner: bool) -> bool:
        if self.simulates and substituted_runner:
            return False
        return self.figure is None or figures is None or self.figure in figures


@dataclass
class StudyPackage:
    """A study package as a :class:`Study`, with its run settings and extras: the one
    object a package's ``__init__`` builds, exporting ``STUDY.reproduce`` as
    ``reproduce`` and ``STUDY.settings_for`` as ``settings_for``.

    ``trace_figures``: figure numbers drawn by an :class:`Extra` rather than swept (``arqlab
    reproduce --figure N`` accepts them; they are not passed to :func:`reproduce_study`).
    ``out_dir``: default output folder (``reproduce-NAME`` when empty).
    """

    NAME: str
    TITLE: str
    SOURCE: str
    STUDY_CLAIMS_HEADING: str
    figures: Callable[[], list[Figure]]
    study_claims: Callable[[], list[Claim]]
    quick_replications: int
    #: The full pass: sequential relative precision at 95%, or (None) a fixed
    #: ``full_replications`` replications per point.
    full_precision: float | None
    full_replications: int | None = None
    out_dir: str = ""
    trace_figures: tuple[int, ...] = ()
    extras: tuple[Extra, ...] = ()

    def settings_for(self, quick: bool, seed: int = 1) -> RunSettings:
        """Quick: ``quick_replications`` fixed replications; full: sequential precision
        ``full_precision`` (relative half-width at 95%) or ``full_replications`` fixed ones."""
        if self.full_precision is None:
            return RunSettings(quick=quick, seed=seed, replications=self.quick_replications if quick else self.full_replications,
                               precision=None)
        return RunSettings.for_pass(quick, seed, self.quick_replications, self.full_precision)

    def reproduce(
        self,
        figures: Sequence[int] | None = None,
        quick: bool = False,
        out_dir: str | os.PathLike[str] | None = None,
        workers: int | None = None,
        executor: Any = None,
        store: Any = None,
        progress: ProgressFn | None = None,
        *,
        seed: int = 1,
        runner: Callable[[RunRequest], Metrics] | None = None,
        stream: TextIO | None = None,
        quiet: bool = False,
    ) -> Reproduction:
        """Reproduce the study's figures (or the chosen ones), check every claim, then run
        its extras.

        Writes ``figN.png/.svg/.csv``, ``figN_scenarios/`` and ``claims.json``/``claims.md``
        (and whatever the extras draw) into ``out_dir`` and prints each figure's claims with
        their verdicts. All curves share ``seed`` (common random numbers).
        """
        sink = stream if stream is not None else sys.stdout
        swept = None if figures is None else [n for n in figures if n not in self.trace_figures]
        rep = reproduce_study(
            self, figures=swept, quick=quick, out_dir=out_dir if out_dir is not None else self.default_out_dir,
            settings=self.settings_for(quick, seed), workers=workers, executor=executor, store=store,
            progress=progress, runner=runner, stream=sink, quiet=quiet,
        )
        info = PassInfo(figures, quick, seed, sink)
        for extra in self.extras:
            if extra.wanted(figures, runner is not None):
                rep.files += extra.write(rep, info)
        return rep

    @property
    def default_out_dir(self) -> str:
        return self.out_dir or f"reproduce-{self.NAME}"
