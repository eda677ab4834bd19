"""``arqlab reproduce STUDY --dry-run``: what a pass would simulate, without simulating.

The command's options are checked exactly as for a real pass (the handler has done that
before it gets here), then each swept figure is planned with the pass's settings and the
plan is printed: points and runs per figure, the figures drawn from a trace, and for
``--robustness`` the design (method, design points, each one quick pass). A full pass
with a precision target runs each point until its interval is narrow enough, so its run
count is the first round's (each run then draws at least the minimum replications).
Nothing is written and nothing is read from or stored in the result store.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from .plan import RunSettings, plan_figure


def settings_line(settings: RunSettings) -> str:
    if settings.precision is not None:
        return f"full: ±{settings.precision:.1%} relative precision at 95% (replications until reached)"
    return f"{'quick' if settings.quick else 'full'}: {settings.replications} replications per run"


def print_plan(study: ModuleType, figures: Sequence[int] | None, tables: Sequence[int] | None, quick: bool,
               out: str, design: tuple[str, int] | None, sink: TextIO) -> int:
    """Print the plan of ``arqlab reproduce``'s pass; the number of distinct runs."""
    table_figures: dict[int, Sequence[int]] = getattr(study, "TABLE_FIGURES", {})
    traced = tuple(getattr(study, "TRACE_FIGURES", ()))
    chosen: list[int] | None = None
    if figures is not None or tables is not None:
        chosen = sorted({*(figures or []), *(f for t in (tables or []) for f in table_figures[t])})
    all_figs = {f.number: f for f in study.figures()}
    swept = [n for n in (chosen if chosen is not None else sorted(all_figs)) if n in all_figs]
    settings = study.settings_for(quick)
    print(f"arqlab reproduce {study.NAME} --dry-run: nothing simulated, nothing written", file=sink)
    print(f"  pass: {settings_line(settings)}", file=sink)
    runs: set[str] = set()
    for n in swept:
        points, rmap, _ = plan_figure(all_figs[n], settings)
        runs.update(rmap)
        print(f"  Fig. {n}: {len(points)} points, {len(rmap)} runs", file=sink)
    for n in traced:
        if chosen is None or n in chosen:
            print(f"  Fig. {n}: drawn from a trace", file=sink)
    if tables:
        print(f"  tables: {', '.join(map(str, tables))}", file=sink)
    print(f"  total: {len(runs)} distinct runs; outputs to {out}", file=sink)
    if design is not None:
        method, n_points = design
        print(f"  robustness: {method}, {n_points} design points, each a quick pass", file=sink)
    return len(runs)
