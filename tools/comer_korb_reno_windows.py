#!/usr/bin/env python3
"""Reno's Fig. 3 under each receive window (docs/studies/comer-korb.md, "Revision 13"):
the study's quick pass of Fig. 3 with ``TCP_FLAVOUR = "reno"`` and
``RECEIVE_WINDOW_OCTETS`` at each given window (every other input at the study's
value), each Fig. 3 claim scored as the study scores it. Prints, per window, the
throughput, the interface's busy share and the share of its idle time datagrams
waited for P(R) at every C, then each claim's verdict and measured value.

Run from the repository root after ``make build``:
``.venv/bin/python tools/comer_korb_reno_windows.py [--windows 2048 4096 8192] [--workers N]``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
from arqlab.studies import comer_korb  # noqa: E402
from arqlab.studies.artefacts.curves import FigureData  # noqa: E402
from arqlab.studies.comer_korb import claims as cl  # noqa: E402
from arqlab.studies.comer_korb import saturation as sat  # noqa: E402
from arqlab.studies.plan import tabulate  # noqa: E402
from arqlab.studies.robustness import evaluate_point, plan_point, study_params, uncertain_inputs  # noqa: E402
from arqlab.studies.run import simulate_runs  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--windows", type=int, nargs="+", default=[2048, 4096, 8192])
    ap.add_argument("--workers", type=int, default=1)
    a = ap.parse_args()
    study, inputs = comer_korb.STUDY, uncertain_inputs(comer_korb)
    settings = study.settings_for(True, 1)
    for w in a.windows:
        row = {u.name: u.value for u in inputs}
        # Reno is a later TCP and 4096/8192 larger windows than a 1983 sender had, neither
        # a declared input's level (revision 14): set them apart.
        apart = {"TCP_FLAVOUR": "reno", "RECEIVE_WINDOW_OCTETS": w}
        with study_params(comer_korb.__name__, apart):
            pp = plan_point(study, comer_korb.__name__, inputs, row, [3], settings)
        observed: dict = {}
        metrics = simulate_runs(list(pp.runs.values()), workers=a.workers, observed=observed)
        fd = FigureData(pp.figures[3], tabulate(pp.figures[3], pp.points[3], metrics), observed=observed)
        print(f"== Reno, receive window {w} octets", flush=True)
        for x in fd.xs("tcp"):
            print(f"C = {x:g}: {fd.est('tcp', x).mean:.0f} bit/s, interface busy "
                  f"{100 * sat.interface_busy_share(fd, 'tcp', x).mean:.1f}%, waiting for P(R) "
                  f"{100 * cl.blocked_share(fd, 'tcp', x).mean:.1f}% of the idle time", flush=True)
        k, best = sat.knee(fd, "tcp")
        print(f"knee at C = {k} (best {best:.0f}); {sat.knee_sensitivity(fd, 'tcp')}", flush=True)
        with study_params(comer_korb.__name__, apart):
            results = evaluate_point(study, comer_korb.__name__, inputs, pp, metrics, observed)
        for r in results:
            if r.figure == 3:
                print(f"{r.id}: {r.verdict.value}; {r.value}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
