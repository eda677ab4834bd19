"""What a stored replication is keyed by: the canonical scenario hash and the model version.

The canonical hash is the SHA-256 of the resolved scenario serialized with sorted keys and
no whitespace, after removing the stopping-rule fields (``run.replications``,
``run.min_replications``, ``run.max_replications``, ``run.precision_measures`` and, for
independent replications, ``run.precision``): they decide how many replications are run,
never what one replication computes, so asking for 20 replications after 10 reuses the
first 10.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DEFAULT_STORE_PATH = Path("arqlab-results") / "store.sqlite"
"""Where the store lives unless ``ARQLAB_STORE`` or an explicit path says otherwise."""

STOPPING_RULE_KEYS: tuple[str, ...] = ("replications", "min_replications", "max_replications", "precision_measures")
"""Keys of ``run`` that never influence a single replication's numbers."""


def current_version() -> str:
    """The version results are recorded under: the package version plus a hash of the
    simulator's source compiled into the extension, so a model change never reuses
    results computed by another model even if the package version was not bumped."""
    from arqlab import _core

    version = getattr(_core, "MODEL_VERSION", None) or getattr(_core, "__version__", None)
    if isinstance(version, str) and version:
        return version
    import importlib.metadata

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


