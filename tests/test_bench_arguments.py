"""The benchmark scripts' argument errors (`benches/vs_bare.py`, `benches/before_after.py`):
exit status 2 and a line naming the argument, its value and what was expected, before
any binary is started (the binaries given here do not exist)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHES = Path(__file__).resolve().parent.parent / "benches"
MISSING = "/nonexistent/arqlab-bench-binary"

# The binaries each script takes before SIM_SECONDS and ROUNDS.
SCRIPTS = {"vs_bare": [MISSING] * 2, "before_after": [MISSING] * 4}


def run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCHES / f"{script}.py"), *SCRIPTS[script], *args],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize(("args", "lines"), [
    (["abc"], ["SIM_SECONDS = 'abc': expected a finite number of simulated seconds > 0"]),
    (["0"], ["SIM_SECONDS = '0': expected a finite number of simulated seconds > 0"]),
    (["-1e-9"], ["SIM_SECONDS = '-1e-9': expected a finite number of simulated seconds > 0"]),
    (["inf"], ["SIM_SECONDS = 'inf': expected a finite number of simulated seconds > 0"]),
    (["nan"], ["SIM_SECONDS = 'nan': expected a finite number of simulated seconds > 0"]),
    (["10", "0"], ["ROUNDS = '0': expected a whole number >= 1"]),
    (["10", "-3"], ["ROUNDS = '-3': expected a whole number >= 1"]),
    (["10", "2.5"], ["ROUNDS = '2.5': expected a whole number >= 1"]),
    (["x", "y"], ["SIM_SECONDS = 'x': expected a finite number of simulated seconds > 0",
                  "ROUNDS = 'y': expected a whole number >= 1"]),
])
def test_a_bad_argument_is_named_with_its_value_and_what_was_expected(script, args, lines):
    done = run(script, *args)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"{script}: {line}" for line in lines]
    assert done.stdout == ""


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_arguments_at_their_bounds_are_accepted_and_reach_the_binaries(script):
    """The smallest accepted values (a tiny span, one round) pass the check: the script
    goes on to start the first binary, which is missing (not exit status 2)."""
    done = run(script, "1e-9", "1")
    assert done.returncode not in (0, 2)
    assert "FileNotFoundError" in done.stderr and MISSING in done.stderr
    assert "SIM_SECONDS" not in done.stderr and "ROUNDS" not in done.stderr


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_too_few_arguments_print_the_usage(script):
    done = subprocess.run([sys.executable, str(BENCHES / f"{script}.py")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert f"python3 benches/{script}.py" in done.stderr
