"""Colella, Aronoff & Mills (NBS): ISO vs NBS expedited data and one-for-one vs selective
acknowledgement in ISO class 4 transport over a satellite subnetwork, Figures 4–8
(and Figure 9, the window sensitivity behind "selective needs about twice the window").

R. Colella, R. Aronoff, K. Mills, "Performance Improvements for ISO Transport",
National Bureau of Standards.

=========================  ================================================================
:mod:`.params`             Tables 2 and 3, run settings, assumptions where the paper is silent
:mod:`.theory`             closed forms: error-free transfer time, ISO idle per ED
:mod:`.scenarios`          the explicit-form scenario of one point (TP4 over a window-4 network)
:mod:`.figures`            Figures 4–9: curves, sensitivities, closed forms
:mod:`.claims`             the claims of the results sections, abstract and conclusions
:mod:`.timegraph`          Figures 1–2: ISO and NBS expedited data as sequence diagrams of a trace
=========================  ================================================================

Node ``a`` sends, ``b`` acknowledges; the flow's measures are ``flow.a->b``, TP4's own
TPDU counts ``transport.flow.a->b``. Per-octet delay is the TSDU transfer time divided
by its 10240 octets (constant), plotted in ms per octet.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ..plan import RunRequest, RunSettings
from ..reproduce import Reproduction, reproduce_study
from ..run import ProgressFn
from ..spec import Claim, Figure, Metrics
from .claims import all_claim_ids, study_claims
from .figures import FIGURE_BUILDERS, figure, figures
from .params import CITATION, FULL_PRECISION, NAME, QUICK_REPLICATIONS, SOURCE, STUDY_CLAIMS_HEADING, TITLE

__all__ = [
    "CITATION", "FIGURE_BUILDERS", "NAME", "SOURCE", "TITLE", "all_claim_ids", "figure", "figures", "reproduce",
    "settings_for", "study_claims",
]


class _StudyModule:
    """This package as a :class:`~arqlab.studies.reproduce.Study`."""

    NAME = NAME
    TITLE = TITLE
    SOURCE = SOURCE
    STUDY_CLAIMS_HEADING = STUDY_CLAIMS_HEADING

    @staticmethod
    def figures() -> list[Figure]:
        return figures()

    @staticmethod
    def study_claims() -> list[Claim]:
        return study_claims()


def settings_for(quick: bool, seed: int = 1) -> RunSettings:
    """Quick: QUICK_REPLICATIONS fixed replications; full: sequential ±2.5% relative
    precision at 95%."""
    return RunSettings.for_pass(quick, seed, QUICK_REPLICATIONS, FULL_PRECISION)


def reproduce(
    figures: Sequence[int] | None = None,
    quick: bool = False,
    out_dir: str | os.PathLike[str] = "reproduce-colella",
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
    """Reproduce Figures 4–9 (or the chosen ones), check every claim, and draw the time
    graphs of Figures 1–2 from a traced run.

    Writes ``figN.png/.svg/.csv``, ``figN_scenarios/``, ``claims.json``/``claims.md`` and
    ``fig1``/``fig2`` time graphs into ``out_dir``. All curves share ``seed``.
    """
    rep = reproduce_study(
        _StudyModule(), figures=figures, quick=quick, out_dir=out_dir, settings=settings_for(quick, seed),
        workers=workers, executor=executor, store=store, progress=progress, runner=runner,
        stream=stream if stream is not None else sys.stdout, quiet=quiet,
    )
    if runner is None and (figures is None or 4 in figures):
        from .timegraph import write_time_graphs

        rep.files += write_time_graphs(rep.out_dir)
    return rep
