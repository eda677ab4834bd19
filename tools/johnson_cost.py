#!/usr/bin/env python3
"""Where the CPU of Johnson's full pass goes (docs/studies/johnson.md, "Seventh reading",
item 3): plans the full pass exactly as ``arqlab reproduce johnson`` does, runs every
run request in this process, one after another, into the result store STORE, and writes
per run its label (figure/curve@variant/x), replications and process CPU seconds to
OUT.csv, then prints the totals: the study's own cells vs the sensitivity rows, per
figure, and the costliest runs. ``arqlab reproduce johnson --store STORE`` afterwards reads
every replication back from the store (the claims and tables of the same pass).

Run from the repository root after ``make build``:
``.venv/bin/python tools/johnson_cost.py STORE OUT.csv [NAME=VALUE ...]`` (a params.NAME
rebound for the pass, as in tools/johnson_readings.py).
"""
from __future__ import annotations

import ast
import csv
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from arqlab import scenario as scenario_mod  # noqa: E402
from arqlab.execution import PointSpec, run_points_detailed  # noqa: E402
from arqlab.store import Store  # noqa: E402
from arqlab.studies import johnson  # noqa: E402
from arqlab.studies.plan import plan_figure  # noqa: E402
from arqlab.studies.robustness import study_params  # noqa: E402


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    store, out = Store(argv[0]), Path(argv[1])
    rebound = {k: ast.literal_eval(v) for k, v in (a.split("=", 1) for a in argv[2:])}
    rows: list[dict[str, object]] = []
    with study_params("arqlab.studies.johnson", rebound):
        settings = johnson.settings_for(False, 1)
        runs = {}
        for fig in johnson.figures():
            for key, req in plan_figure(fig, settings)[1].items():
                runs.setdefault(key, req)
        for req in runs.values():
            spec = PointSpec(resolved=scenario_mod.load(req.scenario), seed=req.seed, replications=req.replications,
                             precision=req.precision)
            t0 = time.process_time()
            (outcome,) = run_points_detailed([spec], executor="serial", store=store)
            cpu = time.process_time() - t0
            fig, curve, x = req.label.split("/")
            rows.append({"figure": fig, "curve": curve.split("@")[0], "variant": curve.partition("@")[2],
                         "x": x.removeprefix("x="), "precision": req.precision, "n": outcome.summary.n,
                         "cpu_s": round(cpu, 3)})
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    total = sum(float(r["cpu_s"]) for r in rows)  # type: ignore[arg-type]

    def line(name: str, sel: list[dict[str, object]]) -> None:
        cpu = sum(float(r["cpu_s"]) for r in sel)  # type: ignore[arg-type]
        n = sum(int(r["n"]) for r in sel)  # type: ignore[call-overload]
        print(f"| {name} | {len(sel)} | {n} | {cpu:.1f} | {100 * cpu / total:.0f} % |")

    print("| runs | count | replications | CPU (s) | share |\n|---|---|---|---|---|")
    line("all", rows)
    line("study cells", [r for r in rows if not r["variant"]])
    line("sensitivity rows", [r for r in rows if r["variant"]])
    for fig in sorted({str(r["figure"]) for r in rows}):
        line(f"{fig}, study cells", [r for r in rows if r["figure"] == fig and not r["variant"]])
    print("\nCostliest runs:\n\n| run | replications | CPU (s) |\n|---|---|---|")
    for r in sorted(rows, key=lambda r: -float(r["cpu_s"]))[:15]:  # type: ignore[arg-type]
        print(f"| {r['figure']}/{r['curve']}{'@' + str(r['variant']) if r['variant'] else ''}/x={r['x']} | {r['n']} | {r['cpu_s']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
