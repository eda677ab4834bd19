"""Johnson, HF radio ARQ protocol features under Internet-style (SMTP over TCP) and
wireless-friendly (HMTP) e-mail: Tables 1–8, Figures 1–2 and the claims of Sections 4–5,
and beyond the paper the full 2^3 design of the three features.

=========================  ================================================================
:mod:`.published`          the paper's tables, claims and protocol features
:mod:`.params`             run settings; protocols and channels as scenario keys
:mod:`.scenarios`          SMTP/TCP, HMTP and long-message scenarios on the HF radio
:mod:`.figures`            Figures 1–2 (message throughput) and 3 (long messages)
:mod:`.tables`             Tables 1–2 (latency) and 3–10 (effects, ``arqlab.design``)
:mod:`.claims`             the paper's claims as checks
=========================  ================================================================

The dialogue's measures are ``flow.client->server``; the TCP and HF ARQ counters
``transport.flow.client->server``.
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
from .params import FULL_PRECISION, NAME, QUICK_REPLICATIONS, SOURCE, STUDY_CLAIMS_HEADING, TITLE
from .published import CITATION
from .tables import TABLE_FIGURES, replication_values, write_tables

__all__ = [
    "CITATION", "FIGURE_BUILDERS", "NAME", "SOURCE", "STUDY", "TABLE_FIGURES", "TITLE", "all_claim_ids", "figure",
    "figures", "reproduce", "settings_for", "study_claims",
]

# Quick: fixed replications of one simulated hour each; full: each cell to ±2.5 % (the
# sequential rule, params.FULL_PRECISION). The package keeps its own `reproduce`: tables
# are chosen beside figures and written after the claims.
STUDY = StudyPackage(NAME, TITLE, SOURCE, STUDY_CLAIMS_HEADING, figures, study_claims,
                     quick_replications=QUICK_REPLICATIONS, full_precision=FULL_PRECISION)
settings_for = STUDY.settings_for


def reproduce(
    figures: Sequence[int] | None = None,
    quick: bool = False,
    out_dir: str | os.PathLike[str] = "reproduce-johnson",
    workers: int | None = None,
    executor: Any = None,
    store: Any = None,
    progress: ProgressFn | None = None,
    *,
    tables: Sequence[int] | None = None,
    seed: int = 1,
    runner: Callable[[RunRequest], Metrics] | None = None,
    stream: TextIO | None = None,
    quiet: bool = False,
) -> Reproduction:
    """Reproduce Figures 1–3 and Tables 1–10 (or the chosen ones: ``tables`` adds the
    figures they need), check every claim, write ``tables.md``/``tables.csv`` beside the
    figures' outputs."""
    wanted_tables = sorted(TABLE_FIGURES) if figures is None and tables is None else sorted(tables or [])
    figs: list[int] | None = None
    if figures is not None or tables is not None:
        figs = sorted({*(figures or []), *(f for t in wanted_tables for f in TABLE_FIGURES[t])})
    rep = reproduce_study(
        STUDY, figures=figs, quick=quick, out_dir=out_dir, settings=settings_for(quick, seed),
        workers=workers, executor=executor, store=store, progress=progress, runner=runner,
        stream=stream if stream is not None else sys.stdout, quiet=quiet,
    )
    if figures is not None and tables is None:
        wanted_tables = [t for t, need in TABLE_FIGURES.items() if all(f in rep.data for f in need)]
    if not wanted_tables:
        return rep
    reps = None
    if runner is None:
        # The effects' CIs and the single-run ranges need every replication (a test
        # runner gives only means).
        reps = replication_values([rep.data[n].figure for n in (1, 2) if n in rep.data], settings_for(quick, seed),
                                  workers=workers, executor=executor, store=store)
    rep.files += write_tables(rep.data, wanted_tables, rep.out_dir, reps)
    if not quiet:
        print(f"Tables {', '.join(map(str, wanted_tables))}: {rep.out_dir / 'tables.md'}", file=stream or sys.stdout)
    return rep
