"""Tables: rows × columns of estimates with 95% CIs, next to the published values.

Many papers report their results as a table (e.g. throughput per protocol variant and
channel); a study reproduces it as a :class:`Table` whose cells are
:class:`~arqlab.studies.verdicts.Est` and whose published values, where the paper gives
one, sit beside them. :meth:`Table.agreement` is the claim "the reproduction matches the
paper within a relative tolerance" cell by cell.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..verdicts import Est, Outcome, Verdict, all_of, approx_value

Cell = tuple[str, str]

TABLE_COLUMNS = ["table", "row", "column", "mean", "ci95_half_width", "n", "published", "rel_diff"]

_TAGS = {Verdict.HOLDS: "ok", Verdict.DOES_NOT_HOLD: "NO", Verdict.INCONCLUSIVE: "?"}


@dataclass(frozen=True)
class Table:
    """A results table: ``cells[(row, column)]`` estimates, ``published[(row, column)]`` values.

    Every key must name a declared row and column; a cell may be missing (not simulated)
    and a published value may be missing (the paper gives none).
    """

    name: str
    title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: Mapping[Cell, Est]
    published: Mapping[Cell, float] = field(default_factory=dict)
    unit: str = ""

    def __post_init__(self) -> None:
        for what, keys in (("cells", self.cells), ("published", self.published)):
            for row, column in keys:
                if row not in self.rows:
                    raise ValueError(f"table {self.name}: {what} row {row!r} is not one of {list(self.rows)}")
                if column not in self.columns:
                    raise ValueError(f"table {self.name}: {what} column {column!r} is not one of {list(self.columns)}")

    def est(self, row: str, column: str) -> Est:
        """The cell's estimate (NaN when the cell was not simulated)."""
        return self.cells.get((row, column), Est(math.nan, math.nan, 0))

    def reference(self, row: str, column: str) -> float:
        """The published value of a cell (NaN when the paper gives none)."""
        return float(self.published.get((row, column), math.nan))

    def to_frame(self) -> pd.DataFrame:
        """Tidy: one row per cell, in row-major order; ``rel_diff`` = (mean − published)/|published|."""
        out = []
        for row in self.rows:
            for column in self.columns:
                e, ref = self.est(row, column), self.reference(row, column)
                rel = (e.mean - ref) / abs(ref) if math.isfinite(ref) and ref != 0 else math.nan
                out.append({"table": self.name, "row": row, "column": column, "mean": e.mean,
                            "ci95_half_width": e.half, "n": e.n, "published": ref, "rel_diff": rel})
        return pd.DataFrame(out, columns=TABLE_COLUMNS)

    def to_markdown(self, digits: int = 4) -> str:
        """The table as the paper lays it out: ``mean ± h (published)`` in every cell."""
        def cell(row: str, column: str) -> str:
            e, ref = self.est(row, column), self.reference(row, column)
            text = f"{e.mean:.{digits}g} ± {e.half:.2g}" if math.isfinite(e.mean) else "—"
            return text + (f" ({ref:.{digits}g})" if math.isfinite(ref) else "")

        head = f"| {self.unit} | " + " | ".join(self.columns) + " |"
        lines = [head, "|" + "---|" * (len(self.columns) + 1)]
        lines += [f"| {row} | " + " | ".join(cell(row, c) for c in self.columns) + " |" for row in self.rows]
        return "\n".join(lines) + "\n"

    def agreement(self, tol: float, relation: Callable[[Est, float], Verdict] | None = None) -> Outcome:
        """Every cell with a published value agrees with it: ``relation(est, published)``,
        by default :func:`~arqlab.studies.verdicts.approx_value` within ``tol`` (relative)."""
        check = relation or (lambda e, ref: approx_value(e, ref, tol))
        verdicts: list[Verdict] = []
        parts: list[str] = []
        for row in self.rows:
            for column in self.columns:
                ref = self.reference(row, column)
                if not math.isfinite(ref):
                    continue
                v = check(self.est(row, column), ref)
                verdicts.append(v)
                parts.append(f"{row}/{column}:{_TAGS[v]} {self.est(row, column)} vs {ref:.4g}")
        if not verdicts:
            return Outcome(Verdict.INCONCLUSIVE, f"table {self.name} has no published values")
        return Outcome(all_of(verdicts), "; ".join(parts))

    def plot(self, ax: Any) -> None:
        """Grouped bars (one group per row, one bar per column) with 95% CI bars;
        published values as black horizontal ticks over their bars."""
        width = 0.8 / max(len(self.columns), 1)
        base = np.arange(len(self.rows), dtype=float)
        for j, column in enumerate(self.columns):
            pos = base - 0.4 + width * (j + 0.5)
            ests = [self.est(r, column) for r in self.rows]
            ax.bar(pos, [e.mean for e in ests], width, yerr=[e.half if math.isfinite(e.half) else 0.0 for e in ests],
                   capsize=2, label=column, alpha=0.85)
            refs = [self.reference(r, column) for r in self.rows]
            ax.scatter(pos, refs, marker="_", s=300, color="black", zorder=3,
                       label="published" if j == 0 else None)
        ax.set_xticks(base)
        ax.set_xticklabels(list(self.rows))
        ax.set_ylabel(self.unit)
        ax.set_title(self.title, fontsize=9.5)
        ax.legend(fontsize=7)


def table_from_frame(name: str, title: str, frame: pd.DataFrame, *, unit: str = "") -> Table:
    """Rebuild a :class:`Table` from its tidy frame (e.g. a CSV written by :meth:`Table.to_frame`)."""
    rows = tuple(dict.fromkeys(str(r) for r in frame["row"]))
    columns = tuple(dict.fromkeys(str(c) for c in frame["column"]))
    cells: dict[Cell, Est] = {}
    published: dict[Cell, float] = {}
    for rec in frame.itertuples(index=False):
        key = (str(rec.row), str(rec.column))
        if math.isfinite(float(rec.mean)):
            cells[key] = Est(float(rec.mean), float(rec.ci95_half_width), int(rec.n))
        if math.isfinite(float(rec.published)):
            published[key] = float(rec.published)
    return Table(name, title, rows, columns, cells, published, unit)

