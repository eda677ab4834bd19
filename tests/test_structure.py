"""Dependency direction and module size (issue 8): `execution` uses `store` and
`results`; `store` never imports `execution`; no module of the core package grows much
past 400 lines."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "arqlab"


def _imports(path: Path) -> set[str]:
    """Every arqlab module a file imports, at any depth (functions included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("arqlab"))
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if node.level == 0 else "arqlab." + node.module
            out.add(base)
    return out


def test_store_never_imports_execution() -> None:
    for path in (PACKAGE / "store").glob("*.py"):
        assert not any(m.startswith("arqlab.execution") for m in _imports(path)), path.name
    p = subprocess.run([sys.executable, "-c", "import sys, arqlab.store, arqlab.store.cli; "
                        "print(sorted(m for m in sys.modules if m.startswith('arqlab.execution')))"],
                       capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "[]", p.stderr


def test_modules_stay_small() -> None:
    big = []
    for path in PACKAGE.rglob("*.py"):
        if "studies" in path.parts:  # restructured separately (issue 8, studies package)
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > 420:
            big.append(f"{path.relative_to(PACKAGE)}: {lines} lines")
    assert big == []
