#!/usr/bin/env python3
"""Which declared inputs move `fig3.over_10pct_retransmitted` (docs/studies/comer-korb.md,
"Revision 7"): one input at a time from the study's values, each at every level (or its
low and high) of ``params.UNCERTAIN_INPUTS``, the claim scored as the study scores it on
the one-circuit transfers of the constant, random and bursty T_N curves (the quick
pass's 3 replications, or ``--replications``). Prints one row per input level: the share
of segments sent again per curve (mean ± 95 % half-width), the lower-bound count of
transfers above 10 % and the verdict.

Run from the repository root after ``make build``:
``.venv/bin/python tools/comer_korb_over10.py [--replications N]``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
import arqlab  # noqa: E402
from arqlab.studies import framework as fw  # noqa: E402
from arqlab.studies.artefacts.curves import FigureData  # noqa: E402
from arqlab.studies.comer_korb import claims as cl  # noqa: E402
from arqlab.studies.comer_korb import figure, params  # noqa: E402
from arqlab.studies.data import StudyData  # noqa: E402
from arqlab.studies.robustness import study_params  # noqa: E402

CURVES = ("tcp", "random", "bursty")
MEASURE = "tcp_segments_retransmitted"


def score(reps: int) -> tuple[str, str]:
    """The claim at the current parameters: (verdict, detail)."""
    f = figure(3)
    rows = []
    for c in CURVES:
        curve = f.curve(f"{c}.{MEASURE}")
        scn = fw.apply_overrides(f.base, fw.point_overrides(f, curve, 1.0, True, curve.params, {}))
        scn["run"]["replications"] = reps
        m = arqlab.simulate(scn, replications=reps, store=False).metrics[curve.direction][MEASURE]
        rows.append({"curve": curve.key, "variant": "", "x": 1.0, "y": m["mean"], "y_ci95_half_width": m.get("ci95_half_width", 0.0),
                     "n": reps})
    out = cl._over_10pct(StudyData({3: FigureData(f, pd.DataFrame(rows))}))
    return str(out.verdict), out.detail


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replications", type=int, default=params.QUICK_REPLICATIONS)
    a = ap.parse_args()
    print(f"study's values: {score(a.replications)}", flush=True)
    for u in params.UNCERTAIN_INPUTS:
        name = u.target.removeprefix("param:")
        for v in u.levels or (u.low, u.high):
            with study_params("arqlab.studies.comer_korb", {name: v}):
                verdict, detail = score(a.replications)
            print(f"{u.name} = {v}: {verdict}; {detail}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
