"""What the HTML report needs besides replications: named sweeps (grid, points, result
table, optional figure), studies, and claims with verdicts."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arqlab.errors import ArqlabError
from arqlab.store.db import StoreBase

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class SweepInfo:
    """One named sweep (or study figure) as recorded for the report."""

    id: int
    study: str
    name: str
    figure: str
    title: str
    version: str
    seed: int | None
    replications: int | None
    precision: float | None
    grid: list[tuple[str, list[Any]]]
    base_scenario: dict[str, Any]
    source: str
    points: list[dict[str, Any]]
    columns: list[str]
    rows: list[list[Any]]
    measures: list[str]
    plot_png: bytes | None
    notes: str
    created: float

    def table(self) -> pd.DataFrame:
        """The sweep's result table as a DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=self.columns)


@dataclass(frozen=True)
class Claim:
    """A claim of a study with its verdict and the evidence behind it."""

    study: str
    figure: str
    claim: str
    verdict: str
    evidence: str
    version: str
    created: float
    #: Whose statement it is ("paper", "extrapolation", "inference", "model check"; "" if not said).
    origin: str = ""
    #: The measured deviation behind the verdict, in one short cell ("" if not given).
    measured: str = ""


@dataclass(frozen=True)
class StudyInfo:
    name: str
    title: str
    citation: str
    description: str
    version: str
    created: float


def _json_value(value: Any) -> Any:
    """A table cell as a JSON-safe value (pandas NA → None, numpy scalars → Python)."""
    if value is None:
        return None
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Mapping):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    item = getattr(value, "item", None)
    if callable(item):
        result = item()
        if isinstance(result, (bool, int, float, str)):
            return result
    try:
        import pandas as pd

        if pd.isna(value):
            return None
    except (TypeError, ValueError):
        pass
    return str(value)




class CatalogStore(StoreBase):
    """Sweeps, studies and claims (see :class:`arqlab.store.Store`)."""

    def record_sweep(
        self,
        name: str,
        table: pd.DataFrame,
        *,
        grid: Sequence[tuple[str, Sequence[Any]]] | Mapping[str, Sequence[Any]] = (),
        study: str = "",
        figure: str = "",
        title: str = "",
        base_scenario: Mapping[str, Any] | None = None,
        source: str = "",
        points: Sequence[Mapping[str, Any]] = (),
        seed: int | None = None,
        replications: int | None = None,
        precision: float | None = None,
        measures: Sequence[str] = (),
        plot_png: bytes | None = None,
        notes: str = "",
    ) -> int:
        """Record (or replace, by study and name) a sweep or study figure for the report.

        ``table`` is the tidy result table (as returned by :func:`arqlab.sweep.sweep`, or any
        table a study builds, e.g. with reference values). ``plot_png`` is an optional
        ready-made figure; without it the report draws one from the table."""
        grid_items = list(grid.items()) if isinstance(grid, Mapping) else list(grid)
        payload = {
            "columns": [str(c) for c in table.columns],
            "rows": [[_json_value(v) for v in row] for row in table.itertuples(index=False, name=None)],
        }
        with self._transaction("cannot record sweep") as conn:
            conn.execute("DELETE FROM sweeps WHERE study=? AND name=?", (study, name))
            cur = conn.execute(
                "INSERT INTO sweeps(study, name, figure, title, version, seed, replications, precision, grid, "
                "base_scenario, source, points, result_table, measures, plot_png, notes, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    study,
                    name,
                    figure,
                    title,
                    self.version,
                    seed,
                    replications,
                    precision,
                    json.dumps([[k, [_json_value(v) for v in vs]] for k, vs in grid_items]),
                    json.dumps(dict(base_scenario or {}), sort_keys=True),
                    source,
                    json.dumps([{k: _json_value(v) for k, v in p.items()} for p in points]),
                    json.dumps(payload),
                    json.dumps(list(measures)),
                    plot_png,
                    notes,
                    time.time(),
                ),
            )
            return int(cur.lastrowid or 0)

    def sweeps(self) -> list[SweepInfo]:
        """All recorded sweeps, oldest first."""
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT id, study, name, figure, title, version, seed, replications, precision, grid, "
                "base_scenario, source, points, result_table, measures, plot_png, notes, created "
                "FROM sweeps ORDER BY study, figure, created"
            ).fetchall()
        out: list[SweepInfo] = []
        for r in rows:
            table = json.loads(r[13])
            out.append(
                SweepInfo(
                    id=r[0], study=r[1], name=r[2], figure=r[3], title=r[4], version=r[5], seed=r[6],
                    replications=r[7], precision=r[8],
                    grid=[(str(k), list(v)) for k, v in json.loads(r[9])],
                    base_scenario=json.loads(r[10]), source=r[11], points=json.loads(r[12]),
                    columns=list(table["columns"]), rows=[list(x) for x in table["rows"]],
                    measures=list(json.loads(r[14])), plot_png=r[15], notes=r[16], created=r[17],
                )
            )
        return out

    def record_study(self, name: str, *, title: str = "", citation: str = "", description: str = "") -> None:
        """Record (or update) a study's title, citation and description for the report."""
        with self._transaction("cannot record study") as conn:
            conn.execute(
                "INSERT INTO studies(name, title, citation, description, version, created) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO UPDATE SET title=excluded.title, "
                "citation=excluded.citation, description=excluded.description, version=excluded.version, "
                "created=excluded.created",
                (name, title or name, citation, description, self.version, time.time()),
            )

    def studies(self) -> list[StudyInfo]:
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT name, title, citation, description, version, created FROM studies ORDER BY name"
            ).fetchall()
        return [StudyInfo(*r) for r in rows]

    def record_claims(self, study: str, claims: Iterable[Mapping[str, Any]], *, figure: str = "") -> int:
        """Replace the claims of (study, figure) with ``claims``: mappings with keys
        ``claim``, ``verdict`` and ``evidence`` (verdicts such as "agrees", "disagrees",
        "partly", "not checked"), and optionally ``origin`` (whose statement: "paper",
        "extrapolation", "inference") and ``measured`` (the deviation behind the verdict).
        Returns how many were recorded."""
        items = list(claims)
        problems = []
        for i, c in enumerate(items):
            missing = [k for k in ("claim", "verdict") if not str(c.get(k, "")).strip()]
            if missing:
                problems.append(f"claims[{i}]: missing {', '.join(missing)}")
        if problems:
            raise ArqlabError("; ".join(problems))
        now = time.time()
        with self._transaction("cannot record claims") as conn:
            conn.execute("DELETE FROM claims WHERE study=? AND figure=?", (study, figure))
            for i, c in enumerate(items):
                conn.execute(
                    "INSERT INTO claims(study, figure, position, claim, verdict, evidence, version, created, "
                    "origin, measured) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (study, figure, i, str(c["claim"]), str(c["verdict"]), str(c.get("evidence", "")),
                     self.version, now, str(c.get("origin", "")), str(c.get("measured", ""))),
                )
        return len(items)

    def claims(self, study: str | None = None) -> list[Claim]:
        # A store written before origin/measured existed, opened read-only, reads them as "".
        added = [c if c in self._columns("claims") else "''" for c in ("origin", "measured")]
        cols = "study, figure, claim, verdict, evidence, version, created, " + ", ".join(added)
        with self._guard("cannot read") as conn:
            if study is None:
                rows = conn.execute(f"SELECT {cols} FROM claims ORDER BY study, figure, position").fetchall()
            else:
                rows = conn.execute(f"SELECT {cols} FROM claims WHERE study=? ORDER BY figure, position",
                                    (study,)).fetchall()
        return [Claim(*r) for r in rows]


