"""The repository stands on its own (issue 29 item 16): nothing in README, docs, code,
scenarios or tests points at a file outside it — no ``../shared/…`` or absolute paths to
the machine it was written on, no citations of documents it does not contain — and every
relative link in the Markdown pages lands on a file inside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Names of documents that lived beside the repository while it was written; the repo
#: carries what it needs from them (docs/architecture.md, docs/references.md).
# (Spelled from parts, so that this file is not itself a match for tools that grep for them.)
_SHARED = "sha" + "red"
OUTSIDE = re.compile(rf"\.\./{_SHARED}\b|/wo" + r"rk/|\b(?:REFER" + r"ENCE|DES" + r"IGN|STY" + r"LE)\.md\b|" + _SHARED + "/papers")
TEXT = (".md", ".py", ".rs", ".toml", ".sh", ".txt", ".html", ".cfg", ".in", ".lock", ".ipynb", ".json", ".yml",
        ".yaml", "Makefile", ".pyi")


def tracked() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in out.split() if f.endswith(TEXT) and (ROOT / f).is_file()]


def test_no_file_refers_outside_the_repository() -> None:
    this = Path(__file__).resolve()
    found = []
    for path in tracked():
        if path == this:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert found == []


def test_markdown_links_stay_inside_the_repository_and_exist() -> None:
    link = re.compile(r"\]\(([^)\s]+)\)")
    bad = []
    for path in tracked():
        if path.suffix != ".md":
            continue
        for target in link.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            resolved = (path.parent / target.split("#")[0]).resolve()
            if ROOT not in resolved.parents and resolved != ROOT or not resolved.exists():
                bad.append(f"{path.relative_to(ROOT)}: {target}")
    assert bad == []
