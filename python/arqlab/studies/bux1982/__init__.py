"""Bux, Kümmerle & Truong (1982): HDLC NRM vs ABM (and ARM), Figures 2–11.

W. Bux, K. Kümmerle, H.L. Truong, "Data Link-Control Performance: Results Comparing HDLC
Operational Modes", Computer Networks 6 (1982) 37–51.

Every figure is a :class:`~arqlab.studies.spec.Figure`: the paper's axes, curve set and
x grid, the parameters the paper states, the ones it does not (with the value chosen and
why), closed forms drawn over the data, sensitivity variants, and one
:class:`~arqlab.studies.spec.Claim` per statement of Sections 3.1–3.2, the Conclusions
(1)–(6) and the ARM conjectures of Appendix A2.

=========================  ================================================================
:mod:`.params`             published parameters, run settings, plot conventions, assumptions
:mod:`.theory`             closed forms: throughput bounds, M/D/1 and M/G/1, the T1 rule
:mod:`.scenarios`          the base link, per-point run settings, the paper's curve sets
:mod:`.figures`            Figs. 2–6 (:mod:`.figures_throughput`), 7–11 (:mod:`.figures_delay`)
:mod:`.claims`             Conclusions (1)–(6), drawing on several figures
=========================  ================================================================

Conventions: station A is the NRM/ARM primary, B the secondary, so direction ``a_to_b``
is primary→secondary (P→S) and ``b_to_a`` secondary→primary (S→P). Transfer and buffer
holding times are divided by the I-frame transmission time T_I = (l + h)/v (mean l for
exponential lengths), as the paper plots them.
"""

from __future__ import annotations

from ..reproduce import StudyPackage
from .claims import all_claim_ids, study_claims
from .figures import FIGURE_BUILDERS, figure, figures
from .params import (
    CITATION,
    FULL_PRECISION,
    LENGTHS,
    LENGTHS_QUICK,
    LOADS,
    LOADS_800,
    LOADS_800_QUICK,
    LOADS_QUICK,
    NAME,
    QUICK_REPLICATIONS,
    SOURCE,
    STUDY_CLAIMS_HEADING,
    TITLE,
    TP_RATIOS,
    TP_RATIOS_QUICK,
)
from .scenarios import base_scenario, derive_run, frame_time, overhead_bits, s_frame_bits, side_of
from .theory import (
    block_error_to_pbit,
    channel_bound,
    ideal_transfer,
    md1_transfer_over_ti,
    mg1_exp_transfer_over_ti,
    ack_delay_bound,
    t1_rule,
    t1_rule_previous,
    window_bound,
)

__all__ = [
    "CITATION", "FIGURE_BUILDERS", "FULL_PRECISION", "LENGTHS", "LENGTHS_QUICK", "LOADS", "LOADS_800",
    "LOADS_800_QUICK", "LOADS_QUICK", "NAME", "QUICK_REPLICATIONS", "SOURCE", "STUDY", "STUDY_CLAIMS_HEADING", "TITLE",
    "TP_RATIOS", "TP_RATIOS_QUICK", "all_claim_ids", "base_scenario", "block_error_to_pbit", "channel_bound",
    "derive_run", "figure", "figures", "frame_time", "ideal_transfer", "md1_transfer_over_ti",
    "mg1_exp_transfer_over_ti", "overhead_bits", "reproduce", "s_frame_bits", "settings_for", "side_of",
    "study_claims", "t1_rule", "t1_rule_previous", "ack_delay_bound", "window_bound",
]


STUDY = StudyPackage(NAME, TITLE, SOURCE, STUDY_CLAIMS_HEADING, figures, study_claims,
                     quick_replications=QUICK_REPLICATIONS, full_precision=FULL_PRECISION)
#: Figures 2–11 (or the chosen ones) with every claim checked; see :meth:`StudyPackage.reproduce`.
reproduce = STUDY.reproduce
settings_for = STUDY.settings_for
