"""Scenario trees: dotted-key overrides, the canonical run key, and TOML output.

A study builds every point's scenario as its figure's base plus dotted-key overrides
(``traffic.a.load = 0.5``); :func:`run_key` names a run by the hash of its canonical
JSON, so identical runs of different curves are simulated once.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from collections.abc import Mapping
from typing import Any

from .spec import Scenario

def set_dotted(tree: dict[str, Any], key: str, value: Any) -> None:
    """Set ``a.b.c`` in a nested dict, creating tables as needed."""
    parts = key.split(".")
    node = tree
    for p in parts[:-1]:
        nxt = node.get(p)
        if not isinstance(nxt, dict):
            nxt = {}
            node[p] = nxt
        node = nxt
    node[parts[-1]] = copy.deepcopy(value)


def get_dotted(tree: Mapping[str, Any], key: str, default: Any = None) -> Any:
    from arqlab.scenario import get_path

    try:
        return get_path(tree, key)
    except KeyError:
        return default


def apply_overrides(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> Scenario:
    """A deep copy of ``base`` with dotted-key ``overrides`` applied in order."""
    out = copy.deepcopy(dict(base))
    for k, v in overrides.items():
        set_dotted(out, k, v)
    return out


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=float)


def run_key(scenario: Mapping[str, Any], seed: int, replications: int | None, precision: float | None) -> str:
    payload = canonical_json({"scenario": scenario, "seed": seed, "replications": replications, "precision": precision})
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError("TOML cannot hold nan/inf")
        r = repr(v)
        return r if any(c in r for c in ".en") else r + ".0"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def toml_key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def to_toml(tree: Mapping[str, Any], header: str = "") -> str:
    """Serialize a nested dict of scalars/lists to TOML (tables for nested dicts)."""
    lines: list[str] = [f"# {ln}" if ln else "#" for ln in header.splitlines()]

    def emit(node: Mapping[str, Any], path: list[str]) -> None:
        scalars = [(k, v) for k, v in node.items() if not isinstance(v, Mapping)]
        tables = [(k, v) for k, v in node.items() if isinstance(v, Mapping)]
        if path and (scalars or not tables):
            lines.append("")
            lines.append("[" + ".".join(toml_key(p) for p in path) + "]")
        for k, v in scalars:
            lines.append(f"{toml_key(k)} = {toml_value(v)}")
        for k, v in tables:
            emit(v, path + [k])

    emit(tree, [])
    return "\n".join(lines).lstrip("\n") + "\n"

