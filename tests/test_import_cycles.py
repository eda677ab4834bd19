"""No Python import cycles in the package: dependencies flow one way.

Every `import` / `from ... import` statement counts, wherever it is (module level, inside
a function, under `if TYPE_CHECKING:`): a cycle hidden in a function or behind a type
is still two modules that cannot be understood, tested or moved apart. `from pkg import
name` depends on the submodule `pkg.name` when there is one (or the compiled `_core`),
else on the package's `__init__`."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "arqlab"


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for f in PACKAGE.rglob("*.py"):
        parts = list(f.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def _is_module(name: str, mods: dict[str, Path]) -> bool:
    if name in mods:
        return True
    path = PACKAGE.parent.joinpath(*name.split("."))
    return any(path.parent.glob(path.name + ".*"))  # a compiled extension (_core) or its stub


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    deps: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            deps.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            for a in node.names:
                sub = f"{source}.{a.name}"
                deps.add(sub if _is_module(sub, mods) else source)
    return {d for d in deps if d in mods and d != name}


def import_cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    mods = _modules()
    graph = {m: sorted(_imports(m, p, mods)) for m, p in mods.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def test_the_package_has_no_import_cycle() -> None:
    assert import_cycles() == []


def test_the_check_finds_a_cycle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The detector itself: two modules importing each other (one inside a function,
    # one only for types) are a cycle.
    pkg = tmp_path / "arqlab"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text("def f():\n    from . import b\n")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import f\n")
    (pkg / "c.py").write_text("from arqlab.sub import a\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", pkg)
    assert import_cycles() == [["arqlab.sub.a", "arqlab.sub.b"]]
