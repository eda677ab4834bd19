"""Scenario keys: the one syntax `run --set`, `check --set`, `sweep --grid`, `design`
factors and `compare` use to address a value of either scenario form.

A key is dotted parts (``link.bit_error_rate``). In an array of tables a part selects
one element, by index or by name:

- ``medium[1].bit_error_rate``, ``stack.arq.layers[0].window``, ``flow[0].traffic.load``;
- ``medium.ring1.rate_bps``, ``node.a.stack``, ``relay.r.buffer_octets`` (the element
  whose ``name`` is the part), ``flow.a->b.traffic.load`` (the flow from ``a`` to ``b``).

Names are plain words (the scenario check refuses ``.``, ``->`` and ``[`` in them), so a
key splits unambiguously. A one-protocol stack written without ``layers``
(``[stack.arq] kind = "go_back_n"``) is its own ``layers[0]``, as in the resolved form.
Setting a key creates missing tables; the scenario check then reports a key that is
not a field (``medium[0].rat_bps: unknown key``), so no override is silently ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .errors import ScenarioError

_PART = re.compile(r"^([^\[\]]+)((?:\[\d+\])*)$")


def parse(key: str) -> list[str | int]:
    """The steps of a key: names and indices. ScenarioError if it is malformed."""
    steps: list[str | int] = []
    parts = str(key).split(".") if isinstance(key, str) else [""]
    for part in parts:
        m = _PART.match(part)
        if not m:
            raise ScenarioError([f"{key}: expected a dotted key like link.rate_bps or medium[1].bit_error_rate"])
        steps.append(m.group(1))
        steps += [int(i) for i in re.findall(r"\[(\d+)\]", m.group(2))]
    # `flow.a->b` splits into 'flow', 'a->b': no further splitting needed (no dots in names).
    return steps


def _label(element: Any) -> str | None:
    if isinstance(element, Mapping):
        if isinstance(element.get("name"), str):
            return str(element["name"])
        if isinstance(element.get("from"), str) and isinstance(element.get("to"), str):
            return f"{element['from']}->{element['to']}"
    return None


def _shown(steps: list[str | int]) -> str:
    out = ""
    for s in steps:
        out += f"[{s}]" if isinstance(s, int) else (f".{s}" if out else s)
    return out


def _child(node: Any, step: str | int, done: list[str | int], key: str, create: bool) -> Any:
    """The element `step` of `node` (creating an empty table if asked and allowed)."""
    where = _shown(done + [step])
    if isinstance(node, list):
        if isinstance(step, int):
            if step >= len(node):
                raise ScenarioError([f"{where}: expected an index in [0, {len(node) - 1}] "
                                     f"({_shown(done)} has {len(node)} element(s)) to set {key}"])
            return node[step]
        matches = [e for e in node if _label(e) == step]
        if len(matches) != 1:
            known = [lb for lb in (_label(e) for e in node) if lb is not None]
            raise ScenarioError([f"{where}: expected the name of an element of {_shown(done)} "
                                 f"(known: {', '.join(known) or 'none'}) or an index [i] to set {key}"])
        return matches[0]
    if not isinstance(node, dict):
        raise ScenarioError([f"{_shown(done)} = {node!r}: expected a table to set {key}"])
    if isinstance(step, int):
        # A one-protocol stack is its own layers[0].
        if done and done[-1] == "layers" and len(done) == 3 and done[0] == "stack" and step == 0:
            return node
        raise ScenarioError([f"{where}: {_shown(done)} is a table, not an array: expected a name"])
    if step == "layers" and len(done) == 2 and done[0] == "stack" and "layers" not in node and "kind" in node:
        return node  # the shorthand stack: resolved next by the [0] above
    if step not in node:
        if not create:
            raise KeyError(key)
        node[step] = {}
    return node[step]


def set_key(tree: dict[str, Any], key: str, value: Any) -> None:
    """Sets `key` in a scenario tree (raw or resolved), creating tables as needed."""
    steps = parse(key)
    node: Any = tree
    for i, step in enumerate(steps[:-1]):
        node = _child(node, step, steps[:i], key, create=True)
    last = steps[-1]
    if isinstance(last, int) or isinstance(node, list):
        parent_steps = steps[:-1]
        if isinstance(node, list):
            target = _child(node, last, parent_steps, key, create=False)
            raise ScenarioError([f"{key}: names a whole table ({_label(target) or last}): "
                                 "set one of its keys, e.g. " + _shown(steps + ["rate_bps"])])
        raise ScenarioError([f"{key}: {_shown(parent_steps)} is a table, not an array: expected a name"])
    if not isinstance(node, dict):
        raise ScenarioError([f"{_shown(steps[:-1])} = {node!r}: expected a table to set {key}"])
    node[last] = value


def get_key(tree: Mapping[str, Any], key: str) -> Any:
    """The value at `key`; KeyError if absent or if the key does not parse."""
    try:
        steps = parse(key)
    except ScenarioError:
        raise KeyError(key) from None
    node: Any = tree
    for i, step in enumerate(steps):
        try:
            node = _child(node, step, steps[:i], key, create=False)
        except ScenarioError:
            raise KeyError(key) from None
    return node


def has_key(tree: Mapping[str, Any], key: str) -> bool:
    try:
        get_key(tree, key)
    except KeyError:
        return False
    return True


def leaves(tree: Mapping[str, Any], prefix: str = "") -> list[str]:
    """Every key of a tree down to its values, arrays of tables by index
    (``medium[0].rate_bps``): the candidates for a "did you mean" hint."""
    out: list[str] = []
    for k, v in tree.items():
        here = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out += leaves(v, here + ".")
        elif isinstance(v, list) and v and all(isinstance(e, Mapping) for e in v):
            for i, e in enumerate(v):
                out += leaves(e, f"{here}[{i}].")
        else:
            out.append(here)
    return out
