"""Biersack (1992): IEEE 802.2 LLC type 2 with selective retransmission, over three
token rings bridged to a backbone ring (Figs. 1, 2, 3, 5 and the paper's claims).

E. W. Biersack, "Performance of the IEEE 802.2 Type-2 Logical Link Protocol with
Selective Retransmission", IEEE Trans. Commun. 40 (1992).

``python -m arqlab.studies.biersack [--figure N] [--quick] [--out DIR]`` sweeps the total
offered rate for ORIG, BG, JAIN and SREJ, writes ``figN.csv`` (every point with its 95%
CI) and ``figN.png`` and ``claims.md`` with computed verdicts. Scenario: :mod:`.scenarios`.
"""

from __future__ import annotations

from .scenarios import ASSUMPTIONS, base
from .sweep import FIGURES, Point, claims, run_point, sweep

__all__ = ["ASSUMPTIONS", "FIGURES", "Point", "base", "claims", "run_point", "sweep"]
