"""Biersack (1992): IEEE 802.2 type-2 LLC with selective retransmission over three token
rings bridged to a backbone ring — Figs. 1, 2, 3, 5, Fig. 4 from a trace, and two
extension figures for what Sections IV and V state without one.

E. W. Biersack, "Performance of the IEEE 802.2 Type-2 Logical Link Protocol with
Selective Retransmission", IEEE Trans. Commun. 40 (1992).

=========================  ================================================================
:mod:`.params`             stated values, run settings, assumptions where the paper is silent
:mod:`.scenarios`          the 36-station scenario of one point
:mod:`.figures`            Figs. 1-3, 5 (vs offered rate), 6 (ranking sensitivity), 7 (multi-FIFO)
:mod:`.claims`             the claims of Sections II-IV
:mod:`.timegraph`          Fig. 4: SREJ recovery with w = 5 as a sequence diagram of a trace
:mod:`.levels`             every claim at other values of one unstated input (window, token holding, ...)
:mod:`.timers`             every claim under T1 = 0.3, 1 and 2 s
:mod:`.roundtrip`          the loss-free round trip T1 has to cover, measured from a trace
=========================  ================================================================

The pooled measures of all 36 connections are ``flow.*`` (throughput, delay), ``llc2.*``
(network efficiency, out-of-sequence fraction, working window) and ``node.*`` (bridge
losses). The paper draws Figs. 2, 3 and 5 against the measured throughput:
``figN.png`` is drawn that way (both coordinates with 95% CIs, :func:`vs_throughput`),
``figN_offered.png`` against the offered rate.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from ..artefacts import FigureData, MeasuredXCurve
from ..output import write_artefact
from ..reproduce import Extra, PassInfo, Reproduction, StudyPackage
from .claims import study_claims
from .figures import FIGURE_BUILDERS, all_claim_ids, figure, figures
from .params import CITATION, FULL_PRECISION, NAME, QUICK_REPLICATIONS, SOURCE, STUDY_CLAIMS_HEADING, TITLE
from .scenarios import base

__all__ = [
    "CITATION", "FIGURE_BUILDERS", "NAME", "SOURCE", "STUDY", "TITLE", "TRACE_FIGURES", "all_claim_ids", "base", "figure", "figures",
    "reproduce", "settings_for", "study_claims", "vs_throughput",
]


class VsThroughput:
    """Fig. 2, 3 or 5 as the paper draws it: each variant's y against its own measured
    throughput, both with 95% CIs, points joined in offered-load order (an
    :class:`~arqlab.studies.artefacts.Artefact`)."""

    def __init__(self, fd: FigureData) -> None:
        self.fd = fd
        self.curves: list[MeasuredXCurve] = []
        for c in fd.figure.curves:
            if not c.plot or not fd.has(f"{c.key}_tp"):
                continue
            xs = fd.xs(c.key)
            # Joined in offered-load order: under overload ORIG's and JAIN's throughput falls
            # back, and sorting by it would zig-zag between loads.
            self.curves.append(MeasuredXCurve(c.key, c.label, tuple(fd.est(f"{c.key}_tp", x) for x in xs),
                                              tuple(fd.est(c.key, x) for x in xs), tuple(xs), c.style, join="nominal"))

    def to_frame(self) -> pd.DataFrame:
        return pd.concat([c.to_frame() for c in self.curves], ignore_index=True)

    def plot(self, ax: Any) -> None:
        for c in self.curves:
            c.plot(ax)
        ax.set_xlabel("throughput (Mbit/s)")
        ax.set_ylabel(self.fd.figure.y_label)
        ax.set_yscale(self.fd.figure.y_scale)
        if self.fd.figure.y_limits is not None:
            ax.set_ylim(*self.fd.figure.y_limits)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)


def vs_throughput(rep: Reproduction, quick: bool) -> list[Path]:
    """Redraw Figs. 2, 3 and 5 against the measured throughput (the paper's axes) as
    ``figN.png/.svg`` (points in ``figN_vs_throughput.csv``); the framework's drawing
    against the offered rate becomes ``figN_offered.png/.svg``."""
    files: list[Path] = []
    mode = "quick (low precision)" if quick else "full precision"
    out = rep.out_dir
    for n in (2, 3, 5):
        if n not in rep.data:
            continue
        fd = rep.data[n]
        for suffix in (".png", ".svg"):
            if (out / f"fig{n}{suffix}").exists():
                files.append((out / f"fig{n}{suffix}").replace(out / f"fig{n}_offered{suffix}"))
        written = write_artefact(VsThroughput(fd), out, f"fig{n}_vs_throughput",
                                 title=f"Fig. {n}. {fd.figure.title} [arqlab reproduction, {mode}; bars: 95% CI]")
        files += [p if p.suffix == ".csv" else p.replace(out / f"fig{n}{p.suffix}") for p in written]
    return files


def _redraw_vs_throughput(rep: Reproduction, info: PassInfo) -> list[Path]:
    return vs_throughput(rep, info.quick)


def _speed(rep: Reproduction, info: PassInfo) -> list[Path]:
    """The simulator's speed on the 36-station model (with Fig. 1), printed and appended
    to ``claims.md``."""
    from .speed import events_per_second

    line = events_per_second()
    print(line, file=info.stream)
    with open(rep.out_dir / "claims.md", "a") as fh:
        fh.write(f"\n## Speed\n\n{line}\n")
    return []


def _fig4(rep: Reproduction, _: PassInfo) -> list[Path]:
    """Fig. 4 (SREJ recovery with w = 5) from a traced run."""
    from .timegraph import write_fig4

    return write_fig4(rep.out_dir)


STUDY = StudyPackage(NAME, TITLE, SOURCE, STUDY_CLAIMS_HEADING, figures, study_claims,
                     quick_replications=QUICK_REPLICATIONS, full_precision=FULL_PRECISION, trace_figures=(4,),
                     extras=(Extra(_redraw_vs_throughput, simulates=False), Extra(_speed, figure=1),
                             Extra(_fig4, figure=4)))
#: Figures drawn from a trace rather than from simulated points (``--figure 4``).
TRACE_FIGURES = STUDY.trace_figures
#: Figs. 1-3, 5-7 (or the chosen ones) with every claim checked, Figs. 2, 3, 5 redrawn
#: against the measured throughput, the simulator's speed (with Fig. 1) and Fig. 4 from a
#: trace (with Fig. 4); see :meth:`StudyPackage.reproduce`.
reproduce = STUDY.reproduce
settings_for = STUDY.settings_for
