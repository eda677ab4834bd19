"""The getting-started guide's examples run (issue 16): every block marked
``<!-- check-output … -->`` is executed and its output compared, so the docs cannot drift.

- A shell block holds ``$ command`` lines, each followed by its expected output (stdout,
  or stderr when the command fails); ``$ echo $?`` prints the previous exit code.
- A ``python`` block is a doctest (all Python blocks of the page share one namespace).
- A block marked ``<!-- file: NAME -->`` is written to NAME before the commands run.

Commands run in a temporary folder that links ``scenarios/`` and has its own result
store. Wall times and event rates (``in 0.123 wall s (22.4 M events/s)``) are not compared.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "docs" / "guide" / "getting-started.md", ROOT / "docs" / "guide" / "designs.md",
         ROOT / "docs" / "guide" / "tracing.md"]
VOLATILE = re.compile(r"in [\d.]+ wall s \([\d.]+ M events/s\)")


@dataclass
class Block:
    page: Path
    line: int
    kind: str  # "check" or "file"
    lang: str
    text: str
    name: str = ""


def blocks(page: Path) -> list[Block]:
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    for i, line in enumerate(lines):
        mark = line.strip()
        if not (mark.startswith("<!-- check-output") or mark.startswith("<!-- file:")):
            continue
        fence = lines[i + 1].strip()
        assert fence.startswith("```"), f"{page}:{i + 1}: a mark must precede a code block"
        indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
        body = []
        j = i + 2
        while lines[j].strip() != "```":
            body.append(lines[j][indent:])
            j += 1
        name = mark.removeprefix("<!-- file:").removesuffix("-->").strip() if "file:" in mark else ""
        out.append(Block(page, i + 2, "file" if name else "check", fence[3:].strip(), "\n".join(body) + "\n", name))
    return out


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ARQLAB_STORE", str(tmp_path / "store.sqlite"))
    return tmp_path


def _run_shell(block: Block) -> list[str]:
    mismatches: list[str] = []
    commands: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"{block.page.name}:{block.line}: output before any $ command"
            commands[-1][1].append(line)
    rc = 0
    for command, expected in commands:
        if command == "echo $?":
            actual = [str(rc)]
        else:
            argv = shlex.split(command)
            assert argv[0] == "arqlab", command
            p = subprocess.run([sys.executable, "-m", "arqlab.cli", *argv[1:]], capture_output=True, text=True,
                               timeout=600, env=os.environ.copy())
            rc = p.returncode
            actual = (p.stdout if rc == 0 else p.stderr).splitlines()
        want = [VOLATILE.sub("in … wall s", x).rstrip() for x in expected]
        got = [VOLATILE.sub("in … wall s", x).rstrip() for x in actual]
        if got != want:
            mismatches.append(f"$ {command}\n--- documented\n" + "\n".join(want) + "\n--- actual\n" + "\n".join(got))
    return mismatches


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_documented_examples_produce_the_documented_output(page: Path, workdir: Path) -> None:
    found = blocks(page)
    assert sum(b.kind == "check" for b in found) >= (2 if page.name == "tracing.md" else 5)
    for b in found:
        if b.kind == "file":
            (workdir / b.name).write_text(b.text, encoding="utf-8")
    mismatches: list[str] = []
    globs: dict[str, object] = {}
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for b in found:
        if b.kind != "check":
            continue
        if b.lang == "python":
            test = doctest.DocTestParser().get_doctest(b.text, globs, f"{page.name}:{b.line}", str(page), b.line)
            result = runner.run(test, out=mismatches.append, clear_globs=False)
            globs = test.globs
            if result.failed:
                mismatches.append(f"{page.name}:{b.line}: {result.failed} doctest example(s) failed")
        else:
            mismatches += [f"{page.name}:{b.line}:\n{m}" for m in _run_shell(b)]
    assert not mismatches, "\n\n".join(mismatches)


def test_the_checker_catches_drift(workdir: Path, tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("<!-- check-output -->\n```\n$ arqlab run no/such.toml\narqlab: no/such.toml\n```\n")
    (b,) = blocks(page)
    assert _run_shell(b)  # the documented line is out of date: caught
