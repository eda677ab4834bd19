"""The SQLite file: opening it safely (read-write or read-only), the schema, and the
replications table.

The store is only ever appended to, except by the explicit ``gc``. A file that is not an
SQLite database, a database of another program, or a locked database gives an
:class:`~arqlab.errors.ArqlabError` naming the path and leaves the file untouched. A store
opened with ``readonly=True`` (``store ls``/``show``/``export`` and ``report``) works on a
read-only filesystem and never writes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from arqlab.errors import ArqlabError
from arqlab.store.keys import canonical_json, current_version, default_store_path, key_scenario
from arqlab.store.schema import _ADDED_COLUMNS, _SCHEMA, _TABLES, SCHEMA_VERSION

_HASH_PREFIX = re.compile(r"[0-9a-fA-F]{4,64}")

@dataclass
class _Cache:
    scenario_hashes: set[str] = field(default_factory=set)



class StoreBase:
    """An SQLite result store (WAL mode): lifecycle and replications. :class:`arqlab.store.Store`
    adds sweeps, studies, claims and the tidy export."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *, timeout: float = 10.0,
                 readonly: bool = False) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.version = current_version()
        self.readonly = readonly
        self._cache = _Cache()
        if self.path.is_dir():
            raise ArqlabError(f"result store {self.path}: is a directory, expected an SQLite file")
        if readonly:
            self._conn = self._open_readonly(timeout)
            try:
                self._check(existed=True)
            except BaseException:
                self._conn.close()
                raise
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArqlabError(
                f"result store {self.path}: cannot create directory {self.path.parent}: {exc.strerror or exc}"
            ) from None
        existed = self.path.exists() and self.path.stat().st_size > 0
        if existed:
            self._check_header()
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
    def _open_readonly(self, timeout: float) -> sqlite3.Connection:
        """Open without ever writing: ``mode=ro``, and on a read-only filesystem (where a
        WAL database cannot create its shared-memory file) ``immutable=1``."""
        if not self.path.is_file() or self.path.stat().st_size == 0:
            raise ArqlabError(f"result store {self.path}: no such store (nothing has been stored there yet)")
        self._check_header()
        uri = "file:" + urllib.parse.quote(str(self.path.resolve()))
        last: sqlite3.Error | None = None
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                conn = sqlite3.connect(uri + query, uri=True, timeout=timeout, isolation_level=None)
            except sqlite3.Error as exc:
                last = exc
                continue
            try:
                conn.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
                return conn
            except sqlite3.Error as exc:
                conn.close()
                last = exc
        assert last is not None
        raise self._error("cannot open read-only", last) from None

    def _check_header(self) -> None:
        with open(self.path, "rb") as fh:
            header = fh.read(16)
        if header != b"SQLite format 3\x00":
            raise ArqlabError(
                f"result store {self.path}: not an SQLite database (corrupted or another kind of file); "
                "it was left untouched — move it away or pass another --store path"
            )

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
        if self.readonly:
            raise ArqlabError(f"result store {self.path}: {action}: opened read-only")
        with self._guard(action) as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _check(self, existed: bool) -> set[str]:
        """The tables present, after checking this is an arqlab store we can read."""
        with self._guard("cannot open") as conn:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if existed and tables and "arqlab_meta" not in tables:
                raise ArqlabError(
                    f"result store {self.path}: an SQLite database that is not an arqlab result store "
                    f"(tables: {', '.join(sorted(tables))}); it was left untouched"
                )
            if self.readonly and not _TABLES <= tables:
                raise ArqlabError(f"result store {self.path}: not an initialised arqlab result store")
            if "arqlab_meta" in tables:
                row = conn.execute("SELECT value FROM arqlab_meta WHERE key='schema'").fetchone()
                schema = int(row[0]) if row else 0
                if schema > SCHEMA_VERSION:
                    raise ArqlabError(
                        f"result store {self.path}: written by a newer arqlab (store schema {schema}, "
                        f"this arqlab reads up to {SCHEMA_VERSION})"
                    )
        return tables

    def _setup(self, existed: bool) -> None:
        tables = self._check(existed)
        with self._guard("cannot open") as conn:
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
        if any(c not in self._columns(t) for t, cols in _ADDED_COLUMNS.items() for c, _ in cols):
            with self._transaction("cannot upgrade") as conn:  # re-checked under the lock: another writer may have
                for table, cols in _ADDED_COLUMNS.items():
                    for column, definition in cols:
                        if column not in self._columns(table):
                            conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    def _columns(self, table: str) -> set[str]:
        """The columns of ``table`` (a store written before a column was added lacks it)."""
        with self._guard("cannot read") as conn:
            return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
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
        """A full scenario hash from a unique prefix (4 to 64 hex digits; nothing else, so
        no character of the key acts as a pattern)."""
        if not _HASH_PREFIX.fullmatch(key):
            shown = key if len(key) <= 40 else key[:30] + f"… ({len(key)} characters)"
            raise ArqlabError(
                f"store key {shown!r}: expected a scenario hash or a prefix of it "
                "(4 to 64 hex digits 0-9 a-f, as `arqlab store ls` prints)"
            )
        prefix = key.lower()
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT hash FROM scenarios WHERE substr(hash, 1, ?) = ? ORDER BY hash LIMIT 2",
                (len(prefix), prefix),
            ).fetchall()
        if not rows:
            raise ArqlabError(f"store key {key!r}: no scenario with this hash in {self.path}")
        if len(rows) > 1:
            raise ArqlabError(f"store key {key!r}: ambiguous, matches several scenarios; give more characters")
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

