"""The store's SQLite schema (append-only tables; ``arqlab_meta.schema`` is its version)."""

from __future__ import annotations

SCHEMA_VERSION = 1

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
    created REAL NOT NULL,
    origin TEXT NOT NULL DEFAULT '',
    measured TEXT NOT NULL DEFAULT ''
);
"""

_TABLES = {"arqlab_meta", "scenarios", "replications", "studies", "sweeps", "claims"}

# Columns added after schema 1 shipped, with their definitions: a writable open adds the
# missing ones (old readers ignore them; readers of an old store read them as empty).
_ADDED_COLUMNS = {
    "claims": (("origin", "TEXT NOT NULL DEFAULT ''"), ("measured", "TEXT NOT NULL DEFAULT ''")),
}
