#!/usr/bin/env python3
"""Measures revision 6's two corrections of the Comer & Korb study one at a time
(docs/studies/comer-korb.md, "Revision 6"): each reading rebinds the study's parameters
(`robustness.study_params`, as the robustness screen does) and runs the pass in-process
(the scenarios are built in-process while the parameters are rebound), writing its outputs under ``--out/<reading>``.

* ``before``: TCP pulled one datagram at a time, the file written at t = 0 (revisions 1–5);
* ``ifq``: 4.2BSD's interface queue (IFQ_MAXLEN = 50), the file still written at t = 0;
* ``after``: the interface queue and the file written after the call set-up (the study).

Run from the repository root after ``make build``:
``.venv/bin/python tools/comer_korb_revision6.py [--quick] [--out DIR] [--reading NAME ...]``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
from arqlab.studies import comer_korb  # noqa: E402
from arqlab.studies.robustness import study_params  # noqa: E402

READINGS = {
    "before": {"IFQ_MAXLEN": 0, "TRANSFER_START_S": 0.0},
    "ifq": {"IFQ_MAXLEN": 50, "TRANSFER_START_S": 0.0},
    "after": {},
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default="comer-korb-revision6")
    ap.add_argument("--reading", action="append", choices=sorted(READINGS))
    a = ap.parse_args()
    for name in a.reading or list(READINGS):
        print(f"== {name}: {READINGS[name] or 'the study as it stands'}", flush=True)
        with study_params("arqlab.studies.comer_korb", READINGS[name]):
            comer_korb.STUDY.reproduce(quick=a.quick, out_dir=Path(a.out) / name, workers=2, quiet=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
