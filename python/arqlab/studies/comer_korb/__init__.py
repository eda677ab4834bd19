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

from pathlib import Path

from ..reproduce import Extra, PassInfo, Reproduction, StudyPackage
from .claims import study_claims
from .figures import FIGURE_BUILDERS, all_claim_ids, figure, figures
from .params import CITATION, FULL_PRECISION, NAME, QUICK_REPLICATIONS, SOURCE, STUDY_CLAIMS_HEADING, TITLE

__all__ = [
    "CITATION", "FIGURE_BUILDERS", "NAME", "SOURCE", "STUDY", "TITLE", "TRACE_FIGURES", "all_claim_ids", "figure", "figures",
    "reproduce", "settings_for", "study_claims",
]

def _figure1(rep: Reproduction, _: PassInfo) -> list[Path]:
    """Figure 1 (the burst mode) from a traced run."""
    from .timegraph import write_time_graph

    return write_time_graph(rep.out_dir)


STUDY = StudyPackage(NAME, TITLE, SOURCE, STUDY_CLAIMS_HEADING, figures, study_claims,
                     quick_replications=QUICK_REPLICATIONS, full_precision=FULL_PRECISION,
                     trace_figures=(1,), extras=(Extra(_figure1, figure=1),))
#: Figures drawn from a trace, not from a sweep (``--figure 1`` draws only it).
TRACE_FIGURES = STUDY.trace_figures
#: Figures 2–7 (or the chosen ones) with every claim checked, and Figure 1 from a trace;
#: see :meth:`StudyPackage.reproduce`.
reproduce = STUDY.reproduce
settings_for = STUDY.settings_for
