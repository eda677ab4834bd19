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

from pathlib import Path

from ..reproduce import Extra, PassInfo, Reproduction, StudyPackage
from .claims import study_claims
from .figures import FIGURE_BUILDERS, all_claim_ids, figure, figures
from .params import CITATION, FULL_PRECISION, NAME, QUICK_REPLICATIONS, SOURCE, STUDY_CLAIMS_HEADING, TITLE

__all__ = [
    "CITATION", "FIGURE_BUILDERS", "NAME", "SOURCE", "STUDY", "TITLE", "all_claim_ids", "figure", "figures", "reproduce",
    "settings_for", "study_claims",
]


def _time_graphs(rep: Reproduction, _: PassInfo) -> list[Path]:
    """Figures 1–2 (ISO and NBS expedited data) from a traced run, with Figure 4."""
    from .timegraph import write_time_graphs

    return write_time_graphs(rep.out_dir)


STUDY = StudyPackage(NAME, TITLE, SOURCE, STUDY_CLAIMS_HEADING, figures, study_claims,
                     quick_replications=QUICK_REPLICATIONS, full_precision=FULL_PRECISION,
                     extras=(Extra(_time_graphs, figure=4),))
#: Figures 4–9 (or the chosen ones) with every claim checked, and the time graphs of
#: Figures 1–2 with Figure 4; see :meth:`StudyPackage.reproduce`.
reproduce = STUDY.reproduce
settings_for = STUDY.settings_for
