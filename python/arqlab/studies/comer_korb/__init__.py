"""Comer & Korb (1984): IP over X.25 with multiple virtual circuits — Figure 3 (throughput
vs open circuits, the burst-model bound and C_max), Figure 2 (throughput vs time of day
with an assumed T_N profile), Figure 1 (the burst mode, from a trace) and, beyond the
paper, Figures 4–7 (LRU vs MLRU vs multi-circuit MLRU when sites compete for circuits).

D. Comer, J. T. Korb, "The Proposed DARPA IP-to-X.25 Interface Standard: Performance
Optimization with Multiple Circuits", Purdue CSD-TR-473.

=========================  ================================================================
:mod:`.params`             the paper's numbers, run settings, assumptions
:mod:`.theory`             closed forms: burst bound (eq. 1–2), T_I, C_max, packet fill
:mod:`.scenarios`          TCP over X.25 transfers and the circuit-management load
:mod:`.figures`            Figures 2–7: curves, closed forms, C_max markers
:mod:`.claims`             §4's bound and four reasons, §5's saturation, §6's manager
:mod:`.timegraph`          Figure 1: the burst mode as a ladder diagram of a trace
=========================  ================================================================

Host ``a`` sends; the transfer's measures are ``flow.a->b``, the TCP and X.25 counters
(both hosts summed) ``transport.flow.a->b``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ..plan import RunRequest, RunSettings
from ..reproduce import Reproduction, StudyPackage, reproduce_study
from ..run import ProgressFn
from ..spec import Metrics
from .claims import all_claim_ids, study_claims
from .figures import FIGURE_BUILDERS, figure, figures
from .params import CITATION, FULL_PRECISION, NAME, QUICK_REPLICATIONS, SOURCE, STUDY_CLAIMS_HEADING, TITLE

__all__ = [
    "CITATION", "FIGURE_BUILDERS", "NAME", "SOURCE", "STUDY", "TITLE", "TRACE_FIGURES", "all_claim_ids", "figure", "figures",
    "reproduce", "settings_for", "study_claims",
]

#: Figures drawn from a trace, not from a sweep (``--figure 1`` draws only it).
TRACE_FIGURES = (1,)


STUDY = StudyPackage(NAME, TITLE, SOURCE, STUDY_CLAIMS_HEADING, figures, study_claims)


def settings_for(quick: bool, seed: int = 1) -> RunSettings:
    """Quick: QUICK_REPLICATIONS fixed replications; full: sequential ±2.5% relative
    precision at 95%."""
    return RunSettings.for_pass(quick, seed, QUICK_REPLICATIONS, FULL_PRECISION)


def reproduce(
    figures: Sequence[int] | None = None,
    quick: bool = False,
    out_dir: str | os.PathLike[str] = "reproduce-comer-korb",
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
    """Reproduce Figures 2–7 (or the chosen ones), check every claim, and draw Figure 1
    from a traced run.

    Writes ``figN.png/.svg/.csv``, ``figN_scenarios/``, ``claims.json``/``claims.md`` and
    ``fig1.svg``/``fig1.png`` into ``out_dir``. All curves share ``seed``.
    """
    swept = None if figures is None else [n for n in figures if n not in TRACE_FIGURES]
    rep = reproduce_study(
        STUDY, figures=swept, quick=quick, out_dir=out_dir, settings=settings_for(quick, seed),
        workers=workers, executor=executor, store=store, progress=progress, runner=runner,
        stream=stream if stream is not None else sys.stdout, quiet=quiet,
    )
    if runner is None and (figures is None or 1 in figures):
        from .timegraph import write_time_graph

        rep.files += write_time_graph(rep.out_dir)
    return rep
