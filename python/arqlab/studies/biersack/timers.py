"""Every claim under other timers: the study's swept figures and claims run again with
T1 set to each of :data:`T1_LEVELS` (the paper gives no value; the reject timer keeps
its own value, :data:`.params.REJECT_TIMER_S`), one table of verdicts per claim
(``timers.md``, ``timers.csv``) — :func:`.levels.level_table` for ``T1_S``.

``python -m arqlab.studies.biersack.timers [--quick] [--out DIR] [--workers N] [--store PATH]``
(the replications go to the result store, so an interrupted table resumes and the level at
the study's T1 reuses a full pass's runs).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .levels import FIGURES, level_table, markdown

#: T1 values (s): a short T1 (about 2x the longest loss-free round trip under overload,
#: :mod:`.roundtrip`), the usual implementation default, and a long one.
T1_LEVELS = (0.3, 1.0, 2.0)


def _column(t1: Any) -> str:
    return f"T1 = {t1:g} s"


def timer_table(levels: Sequence[float] = T1_LEVELS, *, quick: bool = True, out_dir: str | Path = "reproduce-biersack-timers",
                figures: Sequence[int] = FIGURES, workers: int | None = None, store: Any = None,
                runner: Callable[..., Any] | None = None) -> pd.DataFrame:
    """Runs ``figures`` once per T1 level and returns one row per claim and level
    (``level`` in seconds): verdict and the numbers."""
    return level_table("T1_S", levels, quick=quick, out_dir=out_dir, figures=figures, workers=workers, store=store,
                       runner=runner, name="timers", column=_column)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arqlab.studies.biersack.timers", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="3 replications of 15 s per point")
    ap.add_argument("--out", default="reproduce-biersack-timers")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--t1", type=float, action="append", help=f"a T1 level in seconds (default {T1_LEVELS})")
    ap.add_argument("--store", metavar="PATH", help="result store (default: the default store)")
    a = ap.parse_args(argv)
    frame = timer_table(a.t1 or T1_LEVELS, quick=a.quick, out_dir=a.out, workers=a.workers, store=a.store)
    print(markdown(frame, "T1_S", a.quick, _column).split("## Numbers")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
