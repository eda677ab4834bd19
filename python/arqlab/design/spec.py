"""The TOML form of a design (``arqlab design SCENARIO DESIGN.toml``)::

    generators = ["C=AB"]          # optional: none is a full factorial
    replications = 5               # optional (default: the scenario's run.replications)
    seed = 1                       # optional
    log = true                     # optional: analyse log10 of the response
    confidence = 0.95              # optional
    [response]
    measure = "transfer_time_s"
    direction = "a_to_b"           # optional: the one active flow by default
    [factors.A]
    label = "Window"
    key = "protocol.window"        # with key: levels are two values
    levels = [2, 7]
    [factors.B]
    levels = [{ "link.rate_bps" = 9600 }, { "link.rate_bps" = 64000 }]   # or two override tables
    level_names = ["slow", "fast"] # optional

Every problem is reported at once, naming its field.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arqlab.design.algebra import LETTERS, MAX_DESIGN_RUNS, Design, DesignError, Factor, design

TOP_KEYS = ("generators", "replications", "seed", "log", "confidence", "response", "factors", "max_runs")
FACTOR_KEYS = ("label", "key", "levels", "level_names")
RESPONSE_KEYS = ("measure", "direction")


@dataclass(frozen=True)
class DesignSpec:
    design: Design
    measure: str
    direction: str | None = None
    replications: int | None = None
    seed: int | None = None
    log: bool = False
    confidence: float = 0.95


def _unknown(table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> list[str]:
    return [f"{where}{k}: unknown key (allowed: {', '.join(allowed)})" for k in table if k not in allowed]


def _factor(name: str, table: Any) -> tuple[Factor | None, list[str]]:
    where = f"factors.{name}"
    if not isinstance(table, Mapping):
        return None, [f"{where} = {table!r}: expected a table with levels"]
    problems = _unknown(table, FACTOR_KEYS, f"{where}.")
    levels = table.get("levels")
    if not isinstance(levels, list) or len(levels) != 2:
        count = len(levels) if isinstance(levels, list) else "no list of"
        problems.append(f"{where}.levels = {levels!r}: expected exactly 2 levels (a two-level design), got {count}")
        return None, problems
    key = table.get("key")
    label = table.get("label", "")
    if not isinstance(label, str):
        problems.append(f"{where}.label = {label!r}: expected a string")
        label = ""
    names = table.get("level_names")
    if names is not None and (not isinstance(names, list) or len(names) != 2
                              or not all(isinstance(n, str) for n in names)):
        problems.append(f"{where}.level_names = {names!r}: expected two strings")
        names = None
    if key is not None:
        if not isinstance(key, str) or not key:
            problems.append(f"{where}.key = {key!r}: expected a dotted scenario key such as 'link.rate_bps'")
            return None, problems
        factor = Factor.on_key(name, key, levels[0], levels[1], label, tuple(names) if names else None)
    else:
        for i, level in enumerate(levels):
            if not isinstance(level, Mapping) or not level:
                problems.append(f"{where}.levels[{i}] = {level!r}: expected a table of overrides "
                                "(or give key = 'dotted.key' and two values)")
        if problems:
            return None, problems
        factor = Factor(name, dict(levels[0]), dict(levels[1]), label,
                        (names[0], names[1]) if names else ("-", "+"))
    return factor, problems


def parse_design(data: Mapping[str, Any], max_runs: int | None = None,
                 measures: Sequence[str] | None = None) -> DesignSpec:
    """A :class:`DesignSpec` from the parsed TOML; :class:`DesignError` lists every problem.
    ``max_runs`` (else the file's ``max_runs``, else ``MAX_DESIGN_RUNS``) caps the runs.
    ``measures``: the measure names of the scenario's scopes (:func:`arqlab.results.catalogue`),
    to check the response against; None checks only its shape."""
    problems = _unknown(data, TOP_KEYS, "")
    limit = data.get("max_runs", MAX_DESIGN_RUNS) if max_runs is None else max_runs
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        problems.append(f"max_runs = {limit!r}: expected a whole number >= 1")
        limit = MAX_DESIGN_RUNS
    factors: list[Factor] = []
    raw = data.get("factors")
    if not isinstance(raw, Mapping) or not raw:
        problems.append(f"factors = {raw!r}: expected tables such as [factors.A] with two levels")
    else:
        for name, table in raw.items():
            factor, found = _factor(name, table)
            problems += found
            if factor is not None:
                factors.append(factor)
    generators = data.get("generators", [])
    if not isinstance(generators, list) or not all(isinstance(g, str) for g in generators):
        problems.append(f"generators = {generators!r}: expected a list of strings such as ['D=ABC']")
        generators = []
    response = data.get("response")
    measure, direction = "", None
    if not isinstance(response, Mapping) or not isinstance(response.get("measure"), str):
        problems.append(f"response.measure: missing; expected e.g. [response] measure = \"transfer_time_s\"")
    else:
        problems += _unknown(response, RESPONSE_KEYS, "response.")
        measure = response["measure"]
        from arqlab.results import MEASURE_NAME

        # A measure of any scope; whether the scenario has it is known once it has run.
        if measures is not None and measure not in measures:
            problems.append(f"response.measure = {measure!r}: not a measure of this scenario "
                            f"(measures of its scopes: {', '.join(measures)})")
        elif not MEASURE_NAME.match(measure):
            problems.append(f"response.measure = {measure!r}: expected a measure name such as transfer_time_s "
                            "or loss_ratio (lower case, digits and '_')")
        direction = response.get("direction")
        if direction is not None and not isinstance(direction, str):
            problems.append(f"response.direction = {direction!r}: expected a string such as 'a_to_b'")
            direction = None
    replications = data.get("replications")
    if replications is not None and (isinstance(replications, bool) or not isinstance(replications, int)
                                     or replications < 1):
        problems.append(f"replications = {replications!r}: expected a whole number >= 1")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        problems.append(f"seed = {seed!r}: expected a whole number >= 0")
    log = data.get("log", False)
    if not isinstance(log, bool):
        problems.append(f"log = {log!r}: expected true or false")
    confidence = data.get("confidence", 0.95)
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        problems.append(f"confidence = {confidence!r}: expected a number in (0, 1)")
    # A factor with bad levels is still declared: check the generators against every
    # declared name (a stand-in for each broken factor), not only the factors that parsed.
    parsed = {f.name for f in factors}
    declared = raw if isinstance(raw, Mapping) else {}
    stand_ins = [Factor(n, {"?": 0}, {"?": 1}) for n in declared if n not in parsed and n in LETTERS]
    try:
        built = design(factors + stand_ins, generators, limit) if factors or stand_ins else None
    except DesignError as exc:
        problems += exc.problems
        built = None
    if stand_ins:
        built = None
    if problems or built is None:
        raise DesignError(problems)
    return DesignSpec(built, measure, direction, replications, seed, bool(log), float(confidence))


def load_design(path_or_text: str | os.PathLike[str], max_runs: int | None = None,
                measures: Sequence[str] | None = None) -> DesignSpec:
    """A design from a TOML file (or TOML text, if it spans lines); ``max_runs`` and
    ``measures`` as in :func:`parse_design`."""
    text = str(path_or_text)
    label = "design"
    if "\n" not in text:
        label = text
        try:
            text = Path(text).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DesignError([f"cannot read: {getattr(exc, 'strerror', None) or exc}"], label) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DesignError([f"not valid TOML: {exc}"], label) from None
    try:
        return parse_design(data, max_runs, measures)
    except DesignError as exc:
        raise DesignError(exc.problems, label) from None
