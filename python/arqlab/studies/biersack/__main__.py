"""``python -m arqlab.studies.biersack [--figure N] [--quick] [--out DIR]``."""

from __future__ import annotations

import argparse
import csv
import os
import sys

from .sweep import FIGURES, claims, sweep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arqlab.studies.biersack", description=__doc__)
    ap.add_argument("--figure", type=int, action="append", default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default="reproduce-biersack")
    a = ap.parse_args(argv)
    figs = a.figure or sorted(FIGURES)
    bad = [f for f in figs if f not in FIGURES]
    if bad:
        print(f"biersack: error: no figure {bad[0]} (figures: {', '.join(map(str, sorted(FIGURES)))}; Fig. 4 is a trace)", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    points = sweep(a.quick)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    for n in figs:
        xk, yk, title = FIGURES[n]
        with open(os.path.join(a.out, f"fig{n}.csv"), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["variant", "offered_mbps", xk, f"{xk}_ci95", yk, f"{yk}_ci95"])
            for p in points:
                x = (p.offered_mbps, 0.0) if xk == "offered_mbps" else p.values[xk]
                w.writerow([p.variant, p.offered_mbps, *x, *p.values[yk]])
        fig, ax = plt.subplots(figsize=(5, 3.5))
        for v in sorted({p.variant for p in points}):
            ps = [p for p in points if p.variant == v]
            xs = [p.offered_mbps if xk == "offered_mbps" else p.values[xk][0] for p in ps]
            ax.errorbar(xs, [p.values[yk][0] for p in ps], yerr=[p.values[yk][1] for p in ps], marker="o", ms=3, label=v.upper())
        ax.set(title=f"Fig. {n}: {title}", xlabel=xk, ylabel=yk)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(a.out, f"fig{n}.png"))
        plt.close(fig)
    events = sum(p.events for p in points)
    wall = sum(p.wall_s for p in points)
    lines = ["# Biersack (1992): claims", ""] + [f"- **{c}**: {v} — {e}" for c, v, e in claims(points)]
    lines += ["", f"{events} events in {wall:.1f} s of simulation: {events / wall:.3g} events/s"]
    with open(os.path.join(a.out, "claims.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
