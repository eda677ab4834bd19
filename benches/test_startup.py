"""Start-up time of the commands a newcomer runs first (issue 16): `arqlab --version`,
`arqlab --help` and `arqlab check` should answer in under 0.2 s.

A benchmark, not a test: run it with

    .venv/bin/pytest benches/test_startup.py --benchmark-only

(`make bench-startup`). The deterministic half — these commands import no pandas,
matplotlib or rich — is a test: tests/test_newcomer.py::test_quick_commands_import_nothing_heavy.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "version": ["--version"],
    "help": ["--help"],
    "check": ["check", str(ROOT / "scenarios" / "go_back_n.toml")],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_startup(benchmark: Any, name: str) -> None:
    argv = [sys.executable, "-m", "arqlab.cli", *COMMANDS[name]]

    def run() -> None:
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)

    benchmark.pedantic(run, rounds=10, warmup_rounds=1)
