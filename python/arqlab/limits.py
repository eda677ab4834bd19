"""Ranges of the integers a user passes straight to the core: seeds and replication numbers.

The core takes them as unsigned 64-bit integers and the result store as SQLite's signed
64-bit INTEGER, so both are limited to 0 ≤ n < 2^63. Out of range is bad input (exit 2,
one line naming the value and the range), never an overflow traceback or a "model failure".
"""

from __future__ import annotations

import numbers
from typing import Any

from arqlab.errors import ArqlabError

MAX_INDEX = 2**63 - 1
"""The largest seed or replication number (SQLite INTEGER is signed 64-bit)."""


def index_problem(value: Any, what: str) -> str | None:
    """The problem with a seed or replication number, or None if it is in range (a
    Python or numpy integer; never a bool, a float or a string)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return f"{what} = {value!r}: expected a whole number in [0, 2^63 - 1]"
    if not 0 <= int(value) <= MAX_INDEX:
        return f"{what} = {value}: out of range, expected a whole number in [0, 2^63 - 1]"
    return None


def _check(value: Any, what: str) -> int:
    problem = index_problem(value, what)
    if problem is not None:
        raise ArqlabError(problem)
    return int(value)


def check_seed(seed: Any, what: str = "seed") -> int:
    """``seed`` if it is a whole number in [0, 2^63 - 1], else an :class:`ArqlabError`."""
    return _check(seed, what)


def check_replication_index(index: Any, what: str = "replication") -> int:
    """A replication number in [0, 2^63 - 1], else an :class:`ArqlabError`."""
    return _check(index, what)
