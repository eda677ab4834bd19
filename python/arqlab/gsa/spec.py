"""The TOML form of a sensitivity analysis (``arqlab sensitivity SCENARIO SPEC.toml``)::

    method = "morris"        # optional: "morris" or "sobol" (default: by budget, see below)
    budget = 60              # optional: model evaluations (default 10 per input + 10)
    seed = 1                 # optional: the sample's seed and the simulations' master seed
    replications = 5         # optional: per evaluation (default: the scenario's run.replications)
    [inputs.t_p]
    key = "link.delay_s"     # a key path exactly as `arqlab run --set` takes it
    low = 0.005
    high = 0.2
    log = true               # optional: sample the range on a log scale
    [inputs.mode]
    key = "protocol.kind"
    levels = ["go_back_n", "selective_repeat"]   # or a discrete set

Every problem is reported at once, naming its field.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ScenarioError
from .design import DesignError, Factor

TOP_KEYS = ("method", "budget", "seed", "replications", "inputs")
INPUT_KEYS = ("key", "low", "high", "log", "levels")


@dataclass(frozen=True)
class SensitivitySpec:
    factors: tuple[Factor, ...]
    method: str | None = None
    budget: int | None = None
    seed: int = 1
    replications: int | None = None

    @property
    def default_budget(self) -> int:
        return self.budget if self.budget is not None else 10 * (len(self.factors) + 1)


def _whole(data: Mapping[str, Any], key: str, low: int, problems: list[str]) -> int | None:
    v = data.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        problems.append(f"{key} = {v!r}: expected a whole number >= {low}")
        return None
    return v


def _number(table: Mapping[str, Any], key: str, where: str, problems: list[str]) -> float | None:
    v = table.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        problems.append(f"{where}.{key} = {v!r}: expected a number")
        return None
    return float(v)


def _factor(name: str, table: Any, problems: list[str]) -> Factor | None:
    where = f"inputs.{name}"
    if not isinstance(table, Mapping):
        problems.append(f"{where} = {table!r}: expected a table with key and low/high or levels")
        return None
    problems += [f"{where}.{k}: unknown key (allowed: {', '.join(INPUT_KEYS)})" for k in table if k not in INPUT_KEYS]
    key = table.get("key")
    if not isinstance(key, str) or not key.strip():
        problems.append(f"{where}.key = {key!r}: expected a dotted scenario key such as 'link.bit_error_rate'")
        return None
    levels = table.get("levels", [])
    if not isinstance(levels, list):
        problems.append(f"{where}.levels = {levels!r}: expected a list of values")
        return None
    log = table.get("log", False)
    if not isinstance(log, bool):
        problems.append(f"{where}.log = {log!r}: expected true or false")
        return None
    before = len(problems)
    low, high = _number(table, "low", where, problems), _number(table, "high", where, problems)
    if len(problems) > before:
        return None
    try:
        return Factor(name, key.strip(), low, high, tuple(levels), log)
    except DesignError as e:
        problems.append(f"{where}: {str(e).split(': ', 1)[-1]}")
        return None


def parse_spec(data: Mapping[str, Any]) -> SensitivitySpec:
    """A :class:`SensitivitySpec` from parsed TOML; :class:`ScenarioError` lists every problem."""
    problems = [f"{k}: unknown key (allowed: {', '.join(TOP_KEYS)})" for k in data if k not in TOP_KEYS]
    factors: list[Factor] = []
    raw = data.get("inputs")
    if not isinstance(raw, Mapping) or not raw:
        problems.append(f"inputs = {raw!r}: expected tables such as [inputs.t_p] with key and low/high or levels")
    else:
        for name, table in raw.items():
            f = _factor(str(name), table, problems)
            if f is not None:
                factors.append(f)
    method = data.get("method")
    if method is not None and method not in ("morris", "sobol"):
        problems.append(f"method = {method!r}: expected \"morris\" or \"sobol\"")
    budget = _whole(data, "budget", 2, problems)
    seed = _whole(data, "seed", 0, problems)
    replications = _whole(data, "replications", 1, problems)
    if problems:
        raise ScenarioError(problems)
    return SensitivitySpec(tuple(factors), method, budget, 1 if seed is None else seed, replications)


def load_spec(source: str | os.PathLike[str] | Mapping[str, Any] | SensitivitySpec) -> SensitivitySpec:
    """A spec from a TOML file, a parsed mapping, or a spec (returned as it is)."""
    if isinstance(source, SensitivitySpec):
        return source
    if isinstance(source, Mapping):
        return parse_spec(source)
    path = Path(source)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ScenarioError([f"cannot read the sensitivity spec: {e.strerror or e}"], str(path)) from None
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError([f"not valid TOML: {e}"], str(path)) from None
    try:
        return parse_spec(data)
    except ScenarioError as e:
        raise ScenarioError(e.problems, str(path)) from None
