"""The main job (`make demo`): throughput efficiency vs message length for stop-and-wait,
go-back-N and selective repeat at p_bit = 1e-5, 48 kbit/s, t_p = 50 ms, run as a sweep,
under the textbook assumptions (immediate NAK, error-free feedback),
saved as CSV and a PNG with the closed-form curves overlaid, plus a short table.

    python -m arqlab.demo [--out DIR] [--workers N] [--quick]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterable, Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from . import scenario, theory  # noqa: E402
from .errors import ArqlabError  # noqa: E402
from .outputs import replaced_atomically  # noqa: E402

SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "demo.toml"
KINDS = ["stop_and_wait", "go_back_n", "selective_repeat"]
LENGTHS = [100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600]
LABELS = {"stop_and_wait": "stop-and-wait", "go_back_n": "go-back-N (W=7)", "selective_repeat": "selective repeat (W=64)"}


def closed_form(base: dict[str, object], kind: str, lengths: Iterable[float]) -> list[float]:
    sc = scenario.load(base, {"protocol.kind": kind})
    nak = bool(sc["protocol"]["nak_corrupted"])
    return [theory.efficiency(kind, theory.Params.from_scenario(sc, l=float(x)), nak=nak) for x in lengths]


def run(out: Path, workers: int | None, quick: bool) -> pd.DataFrame:
    from .sweep import sweep

    base = scenario.read(SCENARIO)[0]
    overrides = {"run.duration_s": 200.0, "run.replications": 3} if quick else {}
    base = scenario.apply_overrides(base, overrides)
    df = sweep(
        base,
        grid={"protocol.kind": KINDS, "traffic.a.length.mean_bits": LENGTHS},
        workers=workers,
        name="demo",
    )
    out.mkdir(parents=True, exist_ok=True)
    eff = df[(df.direction == "a_to_b") & (df.measure == "throughput_efficiency")].copy()
    eff["closed_form"] = [
        closed_form(base, k, [x])[0] for k, x in zip(eff["protocol.kind"], eff["traffic.a.length.mean_bits"])
    ]
    with replaced_atomically(out / "demo.csv", "--out") as tmp:  # never a half-written file
        eff.to_csv(tmp, index=False)

    fig, ax = plt.subplots(figsize=(7.5, 5.8))
    xs = np.geomspace(min(LENGTHS), max(LENGTHS), 200)
    for i, kind in enumerate(KINDS):
        sub = eff[eff["protocol.kind"] == kind].sort_values("traffic.a.length.mean_bits")
        color = f"C{i}"
        ax.errorbar(sub["traffic.a.length.mean_bits"], sub["mean"], yerr=sub["ci95_half_width"], fmt="o", color=color,
                    capsize=3, label=f"{LABELS[kind]} (simulated, 95% CI)")
        ax.plot(xs, closed_form(base, kind, xs), "-", color=color, alpha=0.6, label=f"{LABELS[kind]} (closed form)")
    ax.set_xscale("log")
    ax.set_xlabel("message length l (information bits per frame)")
    ax.set_ylabel("throughput efficiency (information bits / capacity)")
    ax.set_title("Textbook ARQ, 48 kbit/s, $t_p$ = 50 ms, $p_{bit}$ = 1e-5 (A→B), immediate NAK")
    ax.set_ylim(0, 1)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    fig.tight_layout()
    with replaced_atomically(out / "demo.png", "--out") as tmp:
        fig.savefig(tmp, dpi=130, format="png")
    plt.close(fig)
    return eff


def table(eff: pd.DataFrame) -> str:
    """The demo's table: one row per length, one column per protocol, each column as
    wide as its widest cell or its full label (never cut)."""
    cells: dict[str, list[str]] = {}
    for k in KINDS:
        for x in LENGTHS:
            row = eff[(eff["protocol.kind"] == k) & (eff["traffic.a.length.mean_bits"] == x)].iloc[0]
            cells.setdefault(k, []).append(f"{row['mean']:.3f}±{row['ci95_half_width']:.3f} (th {row['closed_form']:.3f})")
    widths = {k: max(len(LABELS[k]), *(len(c) for c in cells[k])) for k in KINDS}
    lines = [f"{'length':>8}  " + "  ".join(f"{LABELS[k]:>{widths[k]}}" for k in KINDS)]
    for i, x in enumerate(LENGTHS):
        lines.append(f"{x:>8}  " + "  ".join(f"{cells[k][i]:>{widths[k]}}" for k in KINDS))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arqlab.demo", description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("demo-out"), help="output folder (default demo-out)")
    ap.add_argument("--workers", type=int, help="local worker processes (default: CPU count)")
    ap.add_argument("--quick", action="store_true", help="shorter runs (for tests)")
    args = ap.parse_args(argv)
    try:
        eff = run(args.out, args.workers, args.quick)
    except ArqlabError as e:
        print(f"arqlab demo: {e}", file=sys.stderr)
        return 2
    print("Throughput efficiency (a→b), simulated mean ± 95% CI, closed form in brackets:")
    print(table(eff))
    print(f"wrote {args.out / 'demo.csv'} and {args.out / 'demo.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
