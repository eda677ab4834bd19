"""Every claim at other values of one unstated input: the study's figures and claims run
again with a :mod:`.params` attribute set to each level (the window k, T1, the token
holding time, ...), one table of verdicts per claim (``<name>.md``, ``<name>.csv``).

``python -m arqlab.studies.biersack.levels --param WINDOW --level 4 --level 7 ...
[--quick] [--figure N ...] [--out DIR] [--workers N] [--store PATH]`` (the replications go
to the result store, so an interrupted table resumes and the level at the study's value
reuses a full pass's runs). :mod:`.timers` is this table for T1.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import sys
from unittest import mock
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..reproduce import reproduce_study
from . import params as P

#: The swept figures whose points read the study's defaults (Fig. 4 is a trace with its
#: own settings; Fig. 7 fixes w = 10 and 20, Fig. 8 sweeps k itself).
FIGURES = (1, 2, 3, 5, 6, 7, 8)


@contextlib.contextmanager
def setting(param: str, value: Any) -> Iterator[None]:
    """The study's ``params.<param>`` set to ``value`` inside the block (every scenario
    built there reads it, :func:`.scenarios.defaults`)."""
    if not hasattr(P, param):
        raise ValueError(f"param: {param!r} is not an input of arqlab.studies.biersack.params")
    with mock.patch.object(P, param, value):
        yield


def label(param: str, value: Any) -> str:
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def level_table(param: str, levels: Sequence[Any], *, quick: bool = True, out_dir: str | Path = "reproduce-biersack-levels",
                figures: Sequence[int] = FIGURES, workers: int | None = None, store: Any = None,
                runner: Callable[..., Any] | None = None, name: str | None = None,
                column: Callable[[Any], str] | None = None) -> pd.DataFrame:
    """Runs ``figures`` once per level of ``params.<param>`` and returns one row per claim
    and level (``level``: the value; verdict and the numbers); writes ``<name>.csv/.md``."""
    from . import STUDY

    name = name or param.lower()
    out = Path(out_dir)
    rows = []
    for v in levels:
        with setting(param, v):
            rep = reproduce_study(STUDY, figures=list(figures), quick=quick, out_dir=out / f"{name}_{label(param, v)}",
                                  settings=STUDY.settings_for(quick), workers=workers, store=store, runner=runner,
                                  stream=io.StringIO(), quiet=True)
        rows += [{"claim": r.id, "level": v, "label": label(param, v), "verdict": r.verdict.value, "detail": r.detail}
                 for r in rep.claims]
    frame = pd.DataFrame(rows)
    out.mkdir(parents=True, exist_ok=True)
    frame.to_csv(out / f"{name}.csv", index=False)
    (out / f"{name}.md").write_text(markdown(frame, param, quick, column))
    return frame


def markdown(frame: pd.DataFrame, param: str, quick: bool, column: Callable[[Any], str] | None = None) -> str:
    """Claims down, levels across (headed ``column(level)``, default ``PARAM = level``):
    the verdict in each cell, the numbers below."""
    # Levels by their label (a None level reads back from pandas as NaN).
    first = frame.drop_duplicates("label")
    levels, names = list(first["label"]), dict(zip(first["label"], first["level"]))
    cols = [column(names[v]) if column else f"{param} = {v}" for v in levels]
    lines = [f"# Biersack (1992): every claim under {param} in {', '.join(levels)}"
             f" ({'quick' if quick else 'full'} pass)", "", "| claim | " + " | ".join(cols) + " |",
             "|---" * (len(levels) + 1) + "|"]
    for claim, g in frame.groupby("claim", sort=False):
        cells = {row.label: row.verdict for row in g.itertuples()}
        lines.append(f"| {claim} | " + " | ".join(str(cells.get(v, "")) for v in levels) + " |")
    lines += ["", "## Numbers", ""]
    for row in frame.itertuples():
        lines.append(f"- `{row.claim}`, {param} = {row.label}: {row.verdict} — {row.detail}")
    return "\n".join(lines) + "\n"


def parse_level(text: str) -> Any:
    """A level as Python reads it (``4``, ``0.3``, ``None``, ``True``)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise argparse.ArgumentTypeError(f"--level: {text!r} is not a number, None, True or False") from None


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arqlab.studies.biersack.levels", description=__doc__)
    ap.add_argument("--param", required=True, help="an attribute of arqlab.studies.biersack.params (WINDOW, T1_S, ...)")
    ap.add_argument("--level", type=parse_level, action="append", required=True, help="one value (repeat)")
    ap.add_argument("--figure", type=int, action="append", help=f"a figure to run (default {FIGURES})")
    ap.add_argument("--quick", action="store_true", help="3 replications of 15 s per point")
    ap.add_argument("--out", default="reproduce-biersack-levels")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--store", metavar="PATH", help="result store (default: the default store)")
    a = ap.parse_args(argv)
    if not hasattr(P, a.param):
        ap.error(f"--param: {a.param!r} is not an input of arqlab.studies.biersack.params")
    frame = level_table(a.param, a.level, quick=a.quick, out_dir=a.out, figures=a.figure or FIGURES,
                        workers=a.workers, store=a.store)
    print(markdown(frame, a.param, a.quick).split("## Numbers")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
