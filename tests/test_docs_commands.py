"""Every ``arqlab`` command the README and docs/ show is a command arqlab has, with
options it accepts (issue 29 item 12): each command line in a code block is parsed by
the real argument parser (nothing runs), and every inline ``arqlab WORD`` names a real
subcommand. Shown outputs are checked by test_docs_examples.py."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from arqlab.cli import PLUGINS, build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
COMMANDS = {"run", "check", *PLUGINS}


def command_lines(page: Path) -> list[tuple[int, str]]:
    """(line number, command) of each `arqlab …` line inside a fenced code block. In a
    block that marks its commands with a `$ ` prompt, the other lines are shown output."""
    out: list[tuple[int, str]] = []
    block: list[tuple[int, str]] | None = None
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip().startswith("```"):
            if block is not None:
                prompted = any(text.startswith("$ ") for _, text in block)
                for m, text in block:
                    if prompted and not text.startswith("$ "):
                        continue
                    text = text.removeprefix("$ ")
                    # ("arqlab run: error: …" is a shown output, not a command.)
                    if text.startswith("arqlab ") and not re.match(r"arqlab [\w-]+:", text):
                        out.append((m, text))
            block = None if block is not None else []
            continue
        if block is not None:
            block.append((n, line.strip()))
    return out


def words_of(command: str) -> list[str] | None:
    """The arguments, or None for a synopsis with placeholders ([…], A|B, …)."""
    command = re.sub(r"\s+#.*$", "", command)
    if any(c in command for c in "[]|…<>{}") or "..." in command:
        return None
    try:
        return shlex.split(command)[1:]
    except ValueError:
        return None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shown_command_parses(page: Path) -> None:
    bad = []
    for n, command in command_lines(page):
        words = words_of(command)
        if not words:
            continue
        if words[0] not in COMMANDS and not words[0].startswith("-"):
            bad.append(f"{page.name}:{n}: {command}: no command {words[0]!r}")
            continue
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                build_parser(words[0] if words[0] in PLUGINS else None).parse_args(words)
        except SystemExit as e:
            if e.code:
                bad.append(f"{page.name}:{n}: {command}: {err.getvalue().strip().splitlines()[-1:]}")
    assert bad == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_inline_commands_name_real_subcommands(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    named = re.findall(r"`arqlab ([a-z][a-z-]*)", text)
    assert sorted({w for w in named if w not in COMMANDS}) == []
