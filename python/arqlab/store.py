"""The result store: every finished replication, kept in an SQLite database.

A replication is keyed by (canonical scenario hash, seed, replication index, arqlab
version). The canonical hash is the SHA-256 of the resolved scenario serialized with sorted
keys and no whitespace, after removing the stopping-rule fields (``run.replications``,
``run.min_replications``, ``run.max_replications``, ``run.precision_measures`` and, for
independent replications, ``run.precision``): they decide how many replications are run, never what one replication
computes, so asking for 20 replications after 10 reuses the first 10. (``run.precision_measures``
only chooses which measures the precision target applies to, so it is left out too.)

Besides replications the store keeps what the HTML report needs: named sweeps (their grid,
points, result table and optional figure), studies, and claims with verdicts.

The store is only ever appended to, except by the explicit ``gc``. A file that is not an
SQLite database, a database of another program, or a locked database gives an
:class:`~arqlab.errors.ArqlabError` naming the path and leaves the file untouched.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import importlib.metadata
import json
import math
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arqlab.errors import ArqlabError

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_STORE_PATH = Path("arqlab-results") / "store.sqlite"
"""Where the store lives unless ``ARQLAB_STORE`` or an explicit path says otherwise."""

SCHEMA_VERSION = 1
STOPPING_RULE_KEYS: tuple[str, ...] = ("replications", "min_replications", "max_replications", "precision_measures")
"""Keys of ``run`` that never influence a single replication's numbers."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS arqlab_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS scenarios (
    hash TEXT PRIMARY KEY,
    resolved TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS replications (
    hash TEXT NOT NULL REFERENCES scenarios(hash),
    seed INTEGER NOT NULL,
    replication INTEGER NOT NULL,
    version TEXT NOT NULL,
    record TEXT NOT NULL,
    events INTEGER NOT NULL,
    wall_s REAL NOT NULL,
    simulated_s REAL NOT NULL,
    fingerprint TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (hash, seed, replication, version)
);
CREATE TABLE IF NOT EXISTS studies (
    name TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    citation TEXT NOT NULL,
    description TEXT NOT NULL,
    version TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sweeps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    study TEXT NOT NULL,
    name TEXT NOT NULL,
    figure TEXT NOT NULL,
    title TEXT NOT NULL,
    version TEXT NOT NULL,
    seed INTEGER,
    replications INTEGER,
    precision REAL,
    grid TEXT NOT NULL,
    base_scenario TEXT NOT NULL,
    source TEXT NOT NULL,
    points TEXT NOT NULL,
    result_table TEXT NOT NULL,
    measures TEXT NOT NULL,
    plot_png BLOB,
    notes TEXT NOT NULL,
    created REAL NOT NULL,
    UNIQUE (study, name)
);
CREATE TABLE IF NOT EXISTS claims (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    study TEXT NOT NULL,
    figure TEXT NOT NULL,
    position INTEGER NOT NULL,
    claim TEXT NOT NULL,
    verdict TEXT NOT NULL,
    evidence TEXT NOT NULL,
    version TEXT NOT NULL,
    created REAL NOT NULL
);
"""

_TABLES = {"arqlab_meta", "scenarios", "replications", "studies", "sweeps", "claims"}


def current_version() -> str:
    """The version results are recorded under: the package version plus a hash of the
    simulator's source compiled into the extension, so a model change never reuses
    results computed by another model even if the package version was not bumped."""
    import arqlab

    version = getattr(arqlab, "MODEL_VERSION", None) or getattr(arqlab, "__version__", None)
    if isinstance(version, str) and version:
        return version
    try:
        return importlib.metadata.version("arqlab")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


def key_scenario(resolved: Mapping[str, Any]) -> dict[str, Any]:
    """The resolved scenario without its stopping-rule fields (what a replication depends on)."""
    out = copy.deepcopy(dict(resolved))
    run = out.get("run")
    if isinstance(run, dict):
        for key in STOPPING_RULE_KEYS:
            run.pop(key, None)
        if run.get("method", "replications") == "replications":
            run.pop("precision", None)
    return out


def canonical_json(resolved: Mapping[str, Any]) -> str:
    """Sorted-key, whitespace-free JSON of a scenario."""
    return json.dumps(resolved, sort_keys=True, separators=(",", ":"), allow_nan=True)


def canonical_hash(resolved: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the canonical JSON of the scenario's :func:`key_scenario`."""
    return hashlib.sha256(canonical_json(key_scenario(resolved)).encode()).hexdigest()


def default_store_path() -> Path:
    """``$ARQLAB_STORE`` if set, else ``./arqlab-results/store.sqlite``."""
    env = os.environ.get("ARQLAB_STORE")
    return Path(env) if env else DEFAULT_STORE_PATH


def flatten(value: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested dict → {"dotted.key": leaf}; lists stay leaves."""
    out: dict[str, Any] = {}
    for key, item in value.items():
        dotted = f"{prefix}{key}"
        if isinstance(item, Mapping):
            out.update(flatten(item, dotted + "."))
        else:
            out[dotted] = item
    return out


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


@dataclass(frozen=True)
class StudyInfo:
    name: str
    title: str
    citation: str
    description: str
    version: str
    created: float


@dataclass
class _Cache:
    scenario_hashes: set[str] = field(default_factory=set)


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


class Store:
    """An SQLite result store (WAL mode). Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 10.0) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.version = current_version()
        self._cache = _Cache()
        if self.path.is_dir():
            raise ArqlabError(f"result store {self.path}: is a directory, expected an SQLite file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArqlabError(
                f"result store {self.path}: cannot create directory {self.path.parent}: {exc.strerror or exc}"
            ) from None
        existed = self.path.exists() and self.path.stat().st_size > 0
        if existed:
            with open(self.path, "rb") as fh:
                header = fh.read(16)
            if header != b"SQLite format 3\x00":
                raise ArqlabError(
                    f"result store {self.path}: not an SQLite database (corrupted or another kind of file); "
                    "it was left untouched — move it away or pass another --store path"
                )
        try:
            self._conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._error("cannot open", exc) from None
        try:
            self._setup(existed)
        except BaseException:
            self._conn.close()
            raise

    # ----------------------------------------------------------------- lifecycle
    def _error(self, action: str, exc: sqlite3.Error) -> ArqlabError:
        msg = str(exc)
        if "locked" in msg or "busy" in msg:
            return ArqlabError(
                f"result store {self.path}: {action}: the database is locked by another process "
                "(another sweep or tool holds a write lock); try again when it has finished"
            )
        if "not a database" in msg or "malformed" in msg or "corrupt" in msg:
            return ArqlabError(
                f"result store {self.path}: {action}: the database is corrupted ({msg}); "
                "it was left untouched"
            )
        if "readonly" in msg or "unable to open" in msg or "read-only" in msg:
            return ArqlabError(f"result store {self.path}: {action}: not writable ({msg})")
        return ArqlabError(f"result store {self.path}: {action}: {msg}")

    @contextlib.contextmanager
    def _guard(self, action: str) -> Iterator[sqlite3.Connection]:
        try:
            yield self._conn
        except sqlite3.Error as exc:
            raise self._error(action, exc) from None

    @contextlib.contextmanager
    def _transaction(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._guard(action) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _setup(self, existed: bool) -> None:
        with self._guard("cannot open") as conn:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if existed and tables and "arqlab_meta" not in tables:
                raise ArqlabError(
                    f"result store {self.path}: an SQLite database that is not an arqlab result store "
                    f"(tables: {', '.join(sorted(tables))}); it was left untouched"
                )
            if "arqlab_meta" in tables:
                row = conn.execute("SELECT value FROM arqlab_meta WHERE key='schema'").fetchone()
                schema = int(row[0]) if row else 0
                if schema > SCHEMA_VERSION:
                    raise ArqlabError(
                        f"result store {self.path}: written by a newer arqlab (store schema {schema}, "
                        f"this arqlab reads up to {SCHEMA_VERSION})"
                    )
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                raise ArqlabError(f"result store {self.path}: cannot switch to WAL mode (got {mode})")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
        if not _TABLES <= tables:
            with self._transaction("cannot initialise") as conn:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute(
                    "INSERT OR IGNORE INTO arqlab_meta(key, value) VALUES ('schema', ?)",
                    (str(SCHEMA_VERSION),),
                )

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------- replications
    def ensure_scenario(self, resolved: Mapping[str, Any]) -> str:
        """Record the scenario (its key form) and return its canonical hash."""
        key = key_scenario(resolved)
        digest = hashlib.sha256(canonical_json(key).encode()).hexdigest()
        if digest not in self._cache.scenario_hashes:
            with self._transaction("cannot write scenario") as conn:
                conn.execute(
                    "INSERT OR IGNORE INTO scenarios(hash, resolved, created) VALUES (?, ?, ?)",
                    (digest, canonical_json(key), time.time()),
                )
            self._cache.scenario_hashes.add(digest)
        return digest

    def put(
        self,
        resolved: Mapping[str, Any],
        seed: int,
        replication: int,
        record: Mapping[str, Any],
        *,
        version: str | None = None,
    ) -> bool:
        """Commit one finished replication. Returns False if the key was already stored
        (existing rows are never overwritten)."""
        digest = self.ensure_scenario(resolved)
        with self._transaction("cannot write replication") as conn:
            cur = conn.execute(
                "INSERT OR IGNORE INTO replications(hash, seed, replication, version, record, events, "
                "wall_s, simulated_s, fingerprint, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    digest,
                    int(seed),
                    int(replication),
                    version or self.version,
                    json.dumps(record),
                    int(record.get("events", 0)),
                    float(record.get("wall_s", 0.0)),
                    float(record.get("simulated_s", 0.0)),
                    str(record.get("fingerprint", "")),
                    time.time(),
                ),
            )
            return cur.rowcount == 1

    def get(
        self,
        scenario_hash: str,
        seed: int,
        replication: int,
        version: str | None = None,
        *,
        any_version: bool = False,
    ) -> dict[str, Any] | None:
        """The stored record, or None. ``version`` defaults to this arqlab's version; with
        ``any_version`` a record of another version is returned when none of ``version`` exists."""
        wanted = version or self.version
        with self._guard("cannot read") as conn:
            row = conn.execute(
                "SELECT record FROM replications WHERE hash=? AND seed=? AND replication=? AND version=?",
                (scenario_hash, int(seed), int(replication), wanted),
            ).fetchone()
            if row is None and any_version:
                row = conn.execute(
                    "SELECT record FROM replications WHERE hash=? AND seed=? AND replication=? "
                    "ORDER BY created DESC LIMIT 1",
                    (scenario_hash, int(seed), int(replication)),
                ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def scenario(self, scenario_hash: str) -> dict[str, Any] | None:
        with self._guard("cannot read") as conn:
            row = conn.execute("SELECT resolved FROM scenarios WHERE hash=?", (scenario_hash,)).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def count(self, version: str | None = None) -> int:
        """Number of stored replications (of ``version``, or all when None)."""
        with self._guard("cannot read") as conn:
            if version is None:
                row = conn.execute("SELECT COUNT(*) FROM replications").fetchone()
            else:
                row = conn.execute("SELECT COUNT(*) FROM replications WHERE version=?", (version,)).fetchone()
        return int(row[0])

    def ls(self) -> list[dict[str, Any]]:
        """One entry per (scenario hash, seed, version): replication count and time span."""
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT hash, seed, version, COUNT(*), MIN(created), MAX(created), SUM(events), SUM(wall_s) "
                "FROM replications GROUP BY hash, seed, version ORDER BY MIN(created)"
            ).fetchall()
        return [
            {
                "hash": r[0],
                "seed": r[1],
                "version": r[2],
                "replications": r[3],
                "first": r[4],
                "last": r[5],
                "events": r[6],
                "wall_s": r[7],
            }
            for r in rows
        ]

    def resolve_key(self, key: str) -> str:
        """A full scenario hash from a unique prefix (at least 4 hex digits)."""
        if len(key) < 4:
            raise ArqlabError(f"store key {key!r}: give at least 4 characters of a scenario hash")
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT hash FROM scenarios WHERE hash LIKE ? ORDER BY hash", (key.lower() + "%",)
            ).fetchall()
        if not rows:
            raise ArqlabError(f"store key {key!r}: no scenario with this hash in {self.path}")
        if len(rows) > 1:
            raise ArqlabError(f"store key {key!r}: ambiguous, matches {len(rows)} scenarios; give more characters")
        return str(rows[0][0])

    def show(self, key: str) -> dict[str, Any]:
        """Scenario, per-(seed, version) replication counts, and the stored records of one key."""
        digest = self.resolve_key(key)
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT seed, version, replication, record FROM replications WHERE hash=? "
                "ORDER BY version, seed, replication",
                (digest,),
            ).fetchall()
        groups: dict[tuple[int, str], list[dict[str, Any]]] = {}
        for seed, version, _rep, record in rows:
            groups.setdefault((seed, version), []).append(json.loads(record))
        return {
            "hash": digest,
            "scenario": self.scenario(digest),
            "runs": [
                {"seed": seed, "version": version, "records": records}
                for (seed, version), records in groups.items()
            ],
        }

    def records(self) -> Iterator[tuple[str, int, int, str, dict[str, Any], float]]:
        """All stored replications: (hash, seed, replication, version, record, created)."""
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT hash, seed, replication, version, record, created FROM replications "
                "ORDER BY hash, version, seed, replication"
            ).fetchall()
        for h, seed, rep, version, record, created in rows:
            yield h, seed, rep, version, json.loads(record), created

    def tidy(self) -> pd.DataFrame:
        """One row per replication × batch × direction × measure, with flattened scenario columns."""
        import pandas as pd

        scenario_cols: dict[str, dict[str, Any]] = {}
        rows: list[dict[str, Any]] = []
        for h, seed, rep, version, record, created in self.records():
            if h not in scenario_cols:
                scenario_cols[h] = flatten(self.scenario(h) or {})
            for b, batch in enumerate(record.get("batches", [])):
                for direction, measures in batch.items():
                    for measure, value in measures.items():
                        rows.append(
                            {
                                "scenario_hash": h,
                                "seed": seed,
                                "replication": rep,
                                "batch": b,
                                "version": version,
                                "direction": direction,
                                "measure": measure,
                                "value": float(value),
                                "events": int(record.get("events", 0)),
                                "simulated_s": float(record.get("simulated_s", 0.0)),
                                "wall_s": float(record.get("wall_s", 0.0)),
                                "fingerprint": str(record.get("fingerprint", "")),
                                "created": created,
                            }
                        )
        base = pd.DataFrame(
            rows,
            columns=[
                "scenario_hash", "seed", "replication", "batch", "version", "direction", "measure",
                "value", "events", "simulated_s", "wall_s", "fingerprint", "created",
            ],
        )
        keys = sorted({k for cols in scenario_cols.values() for k in cols})
        params: dict[str, list[Any]] = {}
        for k in keys:
            per_hash = {h: _param_cell(cols.get(k)) for h, cols in scenario_cols.items()}
            values = [per_hash[h] for h in base["scenario_hash"]]
            params[k] = _uniform_column(values)
        return pd.concat([base, pd.DataFrame(params, index=base.index)], axis=1)

    def export(self, *, parquet: str | os.PathLike[str] | None = None,
               csv: str | os.PathLike[str] | None = None) -> int:
        """Write the tidy table to Parquet and/or CSV; returns the number of rows."""
        if parquet is None and csv is None:
            raise ArqlabError("store export: give a Parquet path, a CSV path, or both")
        df = self.tidy()
        for target, kind in ((parquet, "parquet"), (csv, "csv")):
            if target is None:
                continue
            path = Path(target)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if kind == "parquet":
                    df.to_parquet(path, index=False)
                else:
                    df.to_csv(path, index=False)
            except OSError as exc:
                raise ArqlabError(f"store export: cannot write {path}: {exc.strerror or exc}") from None
        return len(df)

    def gc(self) -> dict[str, int]:
        """Delete replications, sweeps and claims of other arqlab versions and orphan scenarios."""
        with self._transaction("cannot collect garbage") as conn:
            reps = conn.execute("DELETE FROM replications WHERE version != ?", (self.version,)).rowcount
            sweeps = conn.execute("DELETE FROM sweeps WHERE version != ?", (self.version,)).rowcount
            claims = conn.execute("DELETE FROM claims WHERE version != ?", (self.version,)).rowcount
            scen = conn.execute(
                "DELETE FROM scenarios WHERE hash NOT IN (SELECT DISTINCT hash FROM replications)"
            ).rowcount
        self._cache.scenario_hashes.clear()
        with self._guard("cannot compact"):
            self._conn.execute("VACUUM")
        return {"replications": reps, "sweeps": sweeps, "claims": claims, "scenarios": scen}

    # ------------------------------------------------------- sweeps and studies
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
        "partly", "not checked"). Returns how many were recorded."""
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
                    "INSERT INTO claims(study, figure, position, claim, verdict, evidence, version, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (study, figure, i, str(c["claim"]), str(c["verdict"]), str(c.get("evidence", "")),
                     self.version, now),
                )
        return len(items)

    def claims(self, study: str | None = None) -> list[Claim]:
        with self._guard("cannot read") as conn:
            if study is None:
                rows = conn.execute(
                    "SELECT study, figure, claim, verdict, evidence, version, created FROM claims "
                    "ORDER BY study, figure, position"
                ).fetchall()
            else:
                rows = conn.execute(
                    "SELECT study, figure, claim, verdict, evidence, version, created FROM claims "
                    "WHERE study=? ORDER BY figure, position",
                    (study,),
                ).fetchall()
        return [Claim(*r) for r in rows]


def _param_cell(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True)
    return value


def _uniform_column(values: list[Any]) -> list[Any]:
    """Keep a column numeric when every present value is a number; otherwise make it text."""
    present = [v for v in values if v is not None]
    if all(isinstance(v, bool) for v in present):
        return values
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        if any(isinstance(v, float) for v in present):
            return [float(v) if v is not None else math.nan for v in values]
        return values
    return [None if v is None else str(v) for v in values]


def open_store(store: Store | str | os.PathLike[str] | None) -> Store:
    """A :class:`Store` from a Store, a path, or None (the default path)."""
    if isinstance(store, Store):
        return store
    return Store(store)


def record_claims(
    study: str,
    claims: Iterable[Mapping[str, Any]],
    *,
    figure: str = "",
    store: Store | str | os.PathLike[str] | None = None,
) -> int:
    """Record a study's claims with verdicts (see :meth:`Store.record_claims`)."""
    s = open_store(store)
    try:
        return s.record_claims(study, claims, figure=figure)
    finally:
        if s is not store:
            s.close()


def record_study(
    name: str,
    *,
    title: str = "",
    citation: str = "",
    description: str = "",
    store: Store | str | os.PathLike[str] | None = None,
) -> None:
    """Record a study's title and citation (see :meth:`Store.record_study`)."""
    s = open_store(store)
    try:
        s.record_study(name, title=title, citation=citation, description=description)
    finally:
        if s is not store:
            s.close()


# --------------------------------------------------------------------------- CLI
def register_cli(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``arqlab store ls | show KEY | export | gc``."""
    parser = subparsers.add_parser("store", help="inspect, export and clean the result store")
    parser.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or "
                        f"{DEFAULT_STORE_PATH})")
    sub = parser.add_subparsers(dest="store_command", metavar="COMMAND", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--store", metavar="PATH", default=argparse.SUPPRESS, help="result store")
    sub.add_parser("ls", parents=[common], help="list stored scenarios and sweeps")
    show = sub.add_parser("show", parents=[common], help="show one scenario's resolved form and results")
    show.add_argument("key", metavar="KEY", help="scenario hash (a unique prefix of ≥ 4 characters)")
    export = sub.add_parser("export", parents=[common], help="export a tidy table (Parquet and/or CSV)")
    export.add_argument("--parquet", metavar="FILE")
    export.add_argument("--csv", metavar="FILE")
    sub.add_parser("gc", parents=[common], help="delete results of other arqlab versions and orphans")
    parser.set_defaults(handler=store_command)


def _fmt_time(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def store_command(args: argparse.Namespace) -> int:
    """Handler of ``arqlab store``."""
    try:
        with Store(args.store) as store:
            command = args.store_command
            if command == "ls":
                entries = store.ls()
                print(f"store {store.path} (arqlab {store.version})")
                if not entries:
                    print("no replications stored")
                for e in entries:
                    mark = "" if e["version"] == store.version else "  (other version)"
                    print(
                        f"  {e['hash'][:12]}  seed {e['seed']:<6} {e['replications']:>6} reps  "
                        f"v{e['version']}  {_fmt_time(e['last'])}{mark}"
                    )
                sweeps = store.sweeps()
                if sweeps:
                    print("sweeps:")
                    for s in sweeps:
                        where = f"{s.study}/" if s.study else ""
                        print(f"  {where}{s.name}  {len(s.points)} points  v{s.version}  {_fmt_time(s.created)}")
            elif command == "show":
                info = store.show(args.key)
                from arqlab.execution import summarize_point

                print(f"scenario {info['hash']}")
                print(json.dumps(info["scenario"], indent=2, sort_keys=True))
                for run in info["runs"]:
                    records = run["records"]
                    print(f"seed {run['seed']}, arqlab {run['version']}: {len(records)} replications")
                    metrics = summarize_point(records, info["scenario"] or {})
                    for direction, measures in metrics.items():
                        for measure, s in measures.items():
                            print(
                                f"  {direction:<8} {measure:<32} {s['mean']:.6g} ± {s['ci95_half_width']:.3g}"
                                f" (n={s['n']})"
                            )
            elif command == "export":
                if args.parquet is None and args.csv is None:
                    raise ArqlabError("store export: give --parquet FILE and/or --csv FILE")
                n = store.export(parquet=args.parquet, csv=args.csv)
                targets = " and ".join(str(p) for p in (args.parquet, args.csv) if p is not None)
                print(f"exported {n} rows to {targets}")
            elif command == "gc":
                counts = store.gc()
                print(
                    f"deleted {counts['replications']} replications, {counts['sweeps']} sweeps and "
                    f"{counts['claims']} claims of other versions, {counts['scenarios']} orphan scenarios"
                )
    except ArqlabError as exc:
        for line in str(exc).splitlines() or ["error"]:
            print(f"arqlab store: error: {line}", file=sys.stderr)
        return 2
    return 0
