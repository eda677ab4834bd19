"""Loading scenarios: a TOML path, a TOML string or a dict, plus dotted-key overrides.

Validation happens once, in Rust (`arqlab._core.resolve`), which reports every problem
with its dotted path; this module only reads files and applies overrides.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any, Mapping

import tomli_w

from . import _core, keys
from .errors import ScenarioError, shorten

Source = str | os.PathLike[str] | Mapping[str, Any]


def _looks_like_toml(text: str) -> bool:
    return "\n" in text or "=" in text or text.lstrip().startswith("[")


MAX_SCENARIO_BYTES = 1_000_000
"""Scenario files above this size are refused (a scenario is a few kilobytes; a device
or a huge file would otherwise be read whole)."""


def _read_file(path: Path) -> str:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise ScenarioError([f"scenario file not found: {path}"]) from None
    except OSError as e:
        raise ScenarioError([f"cannot read scenario file {path}: {e.strerror or e}"]) from None
    if stat.S_ISDIR(st.st_mode):
        raise ScenarioError([f"scenario path is a directory, expected a TOML file: {path}"])
    if not stat.S_ISREG(st.st_mode):
        raise ScenarioError([f"scenario path {path} is not a regular file (a device, pipe or socket): "
                             "expected a TOML file"])
    if st.st_size > MAX_SCENARIO_BYTES:
        raise ScenarioError([f"scenario file {path} is {st.st_size:,} bytes: expected a TOML file of at most "
                             f"{MAX_SCENARIO_BYTES:,} bytes"])
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_SCENARIO_BYTES + 1)  # the size may have changed since stat
    except OSError as e:
        raise ScenarioError([f"cannot read scenario file {path}: {e.strerror or e}"]) from None
    if len(data) > MAX_SCENARIO_BYTES:
        raise ScenarioError([f"scenario file {path} is larger than {MAX_SCENARIO_BYTES:,} bytes: "
                             "expected a TOML file"])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ScenarioError([f"cannot read scenario file {path}: not UTF-8 text ({e.reason} at byte {e.start})"]) from None


def read(source: Source) -> tuple[dict[str, Any], str | None]:
    """The raw scenario tree and a label for messages (the file name, if any)."""
    if isinstance(source, Mapping):
        return copy.deepcopy(dict(source)), None
    if isinstance(source, os.PathLike) or not _looks_like_toml(str(source)):
        path = Path(source)
        return _parse_toml(_read_file(path), str(path)), str(path)
    return _parse_toml(str(source), None), None


def non_finite(tree: Any, prefix: str = "") -> list[str]:
    """One problem per NaN or infinite number in a scenario tree (JSON and the core have
    no such numbers, so they are named here, with their dotted path)."""
    out: list[str] = []
    if isinstance(tree, Mapping):
        for key, value in tree.items():
            out += non_finite(value, f"{prefix}{key}.")
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            out += non_finite(value, f"{prefix[:-1]}[{i}].")
    elif isinstance(tree, float) and not math.isfinite(tree):
        out.append(f"{prefix[:-1]} = {tree}: expected a finite number")
    return out


def _parse_toml(text: str, label: str | None) -> dict[str, Any]:
    try:
        tree: dict[str, Any] = json.loads(_core.toml_to_json_text(text))
    except ValueError as e:
        raise ScenarioError(_problems(e), label) from None
    if "inf" in text or "nan" in text:  # TOML's inf/nan reach the core as null: name them
        problems = non_finite(tomllib.loads(text))
        if problems:
            raise ScenarioError(problems, label)
    return tree


def _problems(e: ValueError) -> list[str]:
    if e.args and isinstance(e.args[0], list):
        return [str(p) for p in e.args[0]]
    return [str(e)]


def parse_value(text: str) -> Any:
    """A command-line value: a TOML literal (1e-5, true, "x", [1, 2]) or a bare string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def plain(value: Any) -> Any:
    """``value`` with numpy scalars and arrays (and anything else with ``tolist``, such as
    a pandas Series) as plain Python numbers and lists, inside dicts, lists and tuples too."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "dtype") and hasattr(value, "tolist"):
        return plain(value.tolist())
    return value


def apply_overrides(tree: dict[str, Any], overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """Sets each key (`link.bit_error_rate`, `medium[1].rate_bps`, `medium.l1.rate_bps`;
    syntax in :mod:`arqlab.keys`) in `tree`, creating tables as needed. Values may be
    numpy scalars or arrays (they become plain numbers and lists). Every bad key is
    reported at once."""
    if overrides is not None and not isinstance(overrides, Mapping):
        raise TypeError(f"overrides: expected a mapping of dotted keys to values such as "
                        f"{{'link.rate_bps': 9600}}, got {type(overrides).__name__}")
    problems: list[str] = []
    for key, value in (overrides or {}).items():
        trial = copy.deepcopy(tree)  # a key that fails leaves no half-made table behind
        try:
            keys.set_key(trial, str(key), plain(value))
        except ScenarioError as e:
            problems += e.problems
            continue
        tree.clear()
        tree.update(trial)
    if problems:
        raise ScenarioError(problems)
    return tree


def load(source: Source, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The resolved scenario (validated, every default explicit)."""
    tree, label = read(source)
    problems: list[str] = []
    try:
        tree = apply_overrides(tree, overrides)
    except ScenarioError as e:
        # The keys that apply are applied and the scenario is still checked: every
        # problem at once, bad keys and bad values alike.
        problems += e.problems
    nan = non_finite(tree)
    if nan:  # JSON and the core have no such numbers: name them and stop here
        raise ScenarioError(problems + nan, label)
    try:
        resolved = dict(json.loads(_core.resolve(json.dumps(tree))))
    except ValueError as e:
        problems += _problems(e)
    if problems:
        raise ScenarioError(problems, label)
    return resolved


def canonical_json(resolved: Mapping[str, Any]) -> str:
    """Keys sorted, no whitespace: the text the scenario hash is taken over."""
    return json.dumps(resolved, sort_keys=True, separators=(",", ":"))


def canonical_hash(resolved: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(resolved).encode()).hexdigest()


def to_toml(resolved: Mapping[str, Any]) -> str:
    """The scenario as a TOML file."""
    return tomli_w.dumps(dict(resolved))


def get_path(tree: Mapping[str, Any], dotted: str) -> Any:
    """The value at a key (syntax in :mod:`arqlab.keys`); KeyError if absent."""
    return keys.get_key(tree, dotted)


def has_path(tree: Mapping[str, Any], dotted: str) -> bool:
    """Whether a key names a value in the tree (syntax in :mod:`arqlab.keys`)."""
    return keys.has_key(tree, dotted)


def flows(resolved: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """The flow scopes of a resolved scenario with whether each offers traffic: the pair
    form's ``a_to_b``/``b_to_a``, or ``flow.<from>-><to>`` of the explicit form."""
    if "flow" in resolved:
        return [(f"flow.{f['from']}->{f['to']}", f["traffic"]["kind"] != "none") for f in resolved["flow"]]
    return [(d, resolved["traffic"][s]["kind"] != "none") for s, d in (("a", "a_to_b"), ("b", "b_to_a"))]


def describe(resolved: Mapping[str, Any]) -> str:
    """A one-line title for a scenario without one."""
    if "flow" in resolved:
        kinds = "/".join(sorted({ly["kind"] for s in resolved["stack"].values() for ly in s["layers"]}))
        return f"{kinds} on {len(resolved['node'])} nodes, {len(resolved['medium'])} media"
    return f"{resolved['protocol']['kind']} at {resolved['link']['rate_bps']:g} bit/s"
