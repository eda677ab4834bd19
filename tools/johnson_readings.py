#!/usr/bin/env python3
"""Runs the Johnson reproduction with some of the study's parameters rebound (a reading
of the paper the study does not take by default, e.g. ``RECIPROCAL_CHANNEL=True``), and
compares two reproductions cell by cell (docs/studies/johnson.md, "Fourth reading").

``run OUT [NAME=VALUE ...] [-- reproduce options]``: ``arqlab reproduce johnson --no-store
--quiet --out OUT`` with each ``params.NAME`` rebound for the pass (values as Python
literals: True, 1.2, "lowest"); prints the CPU time of the pass, workers included.

``compare BASE OTHER``: every cell of Tables 1-2 whose value moved by a second or more,
every share of Tables 3-10 that moved by a point or more, the Figure 3 long-message rates
of both, and every claim whose verdict moved, as Markdown tables.

Run from the repository root after ``make build``:
``.venv/bin/python tools/johnson_readings.py run DIR RECIPROCAL_CHANNEL=True``.
"""
from __future__ import annotations

import ast
import json
import resource
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

from arqlab.studies import main as reproduce  # noqa: E402
from arqlab.studies.robustness import study_params  # noqa: E402


def cpu_s() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(out: str, args: list[str]) -> int:
    extra = args[args.index("--") + 1:] if "--" in args else []
    assignments = {k: ast.literal_eval(v) for k, v in (a.split("=", 1) for a in (args[:args.index("--")] if "--" in args else args))}
    before = cpu_s()
    with study_params("arqlab.studies.johnson", assignments):
        rc = reproduce(["johnson", "--no-store", "--quiet", "--out", out, *extra])
    print(f"{assignments or 'the study as it is'}: {cpu_s() - before:.1f} s CPU (workers included), exit {rc}")
    return int(rc or 0)


def _verdicts(d: Path) -> dict[str, tuple[str, str]]:
    claims = json.loads((d / "claims.json").read_text())["claims"]
    return {c["id"]: (c["verdict"], c["detail"]) for c in claims}


def _fig3(d: Path) -> pd.DataFrame:
    """The long-message rates of Figure 3 (the study's own cells, no variant)."""
    f = pd.read_csv(d / "fig3.csv")
    return f[(f["variant"].isna()) & ~f["curve"].str.contains(".", regex=False)]


def compare(base: Path, other: Path) -> None:
    keys = ["table", "row", "column"]
    m = pd.read_csv(base / "tables.csv").merge(pd.read_csv(other / "tables.csv"), on=keys, suffixes=("_base", "_other"))
    print("| table | row | column | published | base | other | moved |\n|---|---|---|---|---|---|---|")
    for _, r in m.iterrows():
        x, y = r["ours_base"], r["ours_other"]
        latency = r["table"] in (1, 2)
        if (latency and round(x) != round(y)) or (not latency and round(x) != round(y)):
            pub = "" if pd.isna(r["published_base"]) else f"{r['published_base']:g}"
            sign = lambda s: "" if pd.isna(s) else f" {s}"  # noqa: E731
            unit = "" if latency else " %"
            print(f"| {r['table']} | {r['row']} | {r['column']} | {pub} | {x:.0f}{unit}{sign(r.get('ours_sign_base'))} | "
                  f"{y:.0f}{unit}{sign(r.get('ours_sign_other'))} | {y - x:+.0f} |")
    f = _fig3(base).merge(_fig3(other), on=["curve", "x"], suffixes=("_base", "_other"))
    print("\n| Figure 3 (bit/s) | channel | base | other |\n|---|---|---|---|")
    for _, r in f.iterrows():
        print(f"| {r['curve']} | {r['x']:g} | {r['y_base']:.1f} ± {r['y_ci95_half_width_base']:.1f} | "
              f"{r['y_other']:.1f} ± {r['y_ci95_half_width_other']:.1f} |")
    va, vb = _verdicts(base), _verdicts(other)
    print("\n| claim | base | other |\n|---|---|---|")
    for cid in va:
        if va[cid][0] != vb.get(cid, ("?", ""))[0]:
            print(f"| `{cid}` | {va[cid][0]}: {va[cid][1]} | {vb[cid][0]}: {vb[cid][1]} |")
    for name, d in (("base", base), ("other", other)):
        counts = json.loads((d / "claims.json").read_text())["counts"]
        print(f"{name}: {counts}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "run":
        sys.exit(run(sys.argv[2], sys.argv[3:]))
    if len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
        sys.exit(0)
    sys.exit(__doc__)
