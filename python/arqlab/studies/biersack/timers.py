"""Every claim under other timers: the study's swept figures and claims run again with
T1 = reject timer set to each of :data:`T1_LEVELS` (the paper gives no value), one
table of verdicts per claim (``timers.md``, ``timers.csv``).

``python -m arqlab.studies.biersack.timers [--quick] [--out DIR] [--workers N] [--store PATH]``
(the replications go to the result store, so an interrupted table resumes and the level at
the study's T1 reuses a full pass's runs).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..reproduce import reproduce_study
from . import params as P

#: T1 = reject timer values (s): a short T1 (about 3x the longest loss-free round trip
#: under overload, :mod:`.roundtrip`), the usual implementation default, and a long one.
T1_LEVELS = (0.3, 1.0, 2.0)
#: The swept figures (Fig. 4 is a trace with its own timers).
FIGURES = (1, 2, 3, 5, 6, 7, 8)


@contextlib.contextmanager
def timers(t1_s: float) -> Iterator[None]:
    """The study's T1 and reject timer set to ``t1_s`` inside the block."""
    saved = (P.T1_S, P.REJECT_TIMER_S)
    P.T1_S = P.REJECT_TIMER_S = t1_s
    try:
        yield
    finally:
        P.T1_S, P.REJECT_TIMER_S = saved


def timer_table(levels: Sequence[float] = T1_LEVELS, *, quick: bool = True, out_dir: str | Path = "reproduce-biersack-timers",
                figures: Sequence[int] = FIGURES, workers: int | None = None, store: Any = None,
                runner: Callable[..., Any] | None = None) -> pd.DataFrame:
    """Runs ``figures`` once per T1 level (the study's own value included when it is
    among them) and returns one row per claim and level: verdict and the numbers."""
    from . import STUDY

    out = Path(out_dir)
    rows = []
    for t1 in levels:
        with timers(t1):
            rep = reproduce_study(STUDY, figures=list(figures), quick=quick, out_dir=out / f"t1_{t1:g}",
                                  settings=STUDY.settings_for(quick), workers=workers, store=store, runner=runner,
                                  stream=io.StringIO(), quiet=True)
        rows += [{"claim": r.id, "t1_s": t1, "verdict": r.verdict.value, "detail": r.detail} for r in rep.claims]
    frame = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    frame.to_csv(out / "timers.csv", index=False)
    (out / "timers.md").write_text(markdown(frame, quick))
    return frame


def markdown(frame: pd.DataFrame, quick: bool) -> str:
    """Claims down, T1 levels across: the verdict in each cell, the numbers below."""
    levels = sorted(frame["t1_s"].unique())
    head = "| claim | " + " | ".join(f"T1 = {t:g} s" for t in levels) + " |"
    lines = [f"# Biersack (1992): every claim under T1 = reject timer in {', '.join(f'{t:g}' for t in levels)} s"
             f" ({'quick' if quick else 'full'} pass)", "", head, "|---" * (len(levels) + 1) + "|"]
    for claim, g in frame.groupby("claim", sort=False):
        cells = {row.t1_s: row.verdict for row in g.itertuples()}
        lines.append(f"| {claim} | " + " | ".join(str(cells.get(t, "")) for t in levels) + " |")
    lines += ["", "## Numbers", ""]
    for row in frame.itertuples():
        lines.append(f"- `{row.claim}`, T1 = {row.t1_s:g} s: {row.verdict} — {row.detail}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arqlab.studies.biersack.timers", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="3 replications of 15 s per point")
    ap.add_argument("--out", default="reproduce-biersack-timers")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--t1", type=float, action="append", help=f"a T1 level in seconds (default {T1_LEVELS})")
    ap.add_argument("--store", metavar="PATH", help="result store (default: the default store)")
    a = ap.parse_args(argv)
    frame = timer_table(a.t1 or T1_LEVELS, quick=a.quick, out_dir=a.out, workers=a.workers, store=a.store)
    print(markdown(frame, a.quick).split("## Numbers")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
