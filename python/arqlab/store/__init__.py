"""The result store: every finished replication, kept in an SQLite database.

A replication is keyed by (canonical scenario hash, seed, replication index, arqlab
version) — see :mod:`arqlab.store.keys`. Besides replications the store keeps what the
HTML report needs: named sweeps, studies and claims (:mod:`arqlab.store.catalog`), and it
exports one tidy table (:mod:`arqlab.store.tidy`). Opening, the schema and the
replications table are :mod:`arqlab.store.db`; ``arqlab store …`` is :mod:`arqlab.store.cli`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from arqlab.store.catalog import CatalogStore, Claim, StudyInfo, SweepInfo
from arqlab.store.db import SCHEMA_VERSION
from arqlab.store.keys import (
    DEFAULT_STORE_PATH,
    STOPPING_RULE_KEYS,
    canonical_hash,
    canonical_json,
    current_version,
    default_store_path,
    flatten,
    key_scenario,
)
from arqlab.store.tidy import TidyStore

__all__ = [
    "DEFAULT_STORE_PATH", "SCHEMA_VERSION", "STOPPING_RULE_KEYS", "Claim", "Store", "StudyInfo", "SweepInfo",
    "canonical_hash", "canonical_json", "current_version", "default_store_path", "flatten", "key_scenario",
    "open_store", "record_claims", "record_study",
]


class Store(CatalogStore, TidyStore):
    """An SQLite result store (WAL mode). Use as a context manager or call :meth:`close`.
    ``readonly=True`` opens it without ever writing (works on a read-only filesystem)."""


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
