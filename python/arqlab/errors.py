"""arqlab's exceptions. Everything raised at the user boundary is an `ArqlabError`."""

from __future__ import annotations


class ArqlabError(Exception):
    """Base class: a problem the user can fix (bad input, unreachable executor, ...)."""


class ScenarioError(ArqlabError, ValueError):
    """A scenario that cannot be used. `problems` holds one line per problem, each naming
    the dotted field path, the value and what is allowed."""

    def __init__(self, problems: list[str], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        head = f"{source}: " if source else ""
        super().__init__(head + "; ".join(self.problems))

    def __str__(self) -> str:
        head = f"{self.source}:\n" if self.source else ""
        return head + "\n".join(f"  {p}" for p in self.problems)


class SimulationError(ArqlabError, RuntimeError):
    """The simulator failed (a model invariant broke, or an internal error). The message
    names the scenario, seed and replication; results computed before are kept."""


class LivelockError(SimulationError):
    """The run stopped advancing simulated time: more than a generous bound of events in a
    row at one instant (a model bug, never a result). The message names the instant and
    the node and layer (or lane, flow, relay) whose events repeat; at the command line it
    is a one-line error with exit code 2, never a hang."""


def core_failure(exc: BaseException, message: str | None = None) -> SimulationError:
    """The arqlab error for a failure ``exc`` raised by the simulation core (with
    ``message`` instead of ``str(exc)`` if given): a `LivelockError` for the core's
    ``LivelockError``, otherwise a `SimulationError`."""
    text = str(exc) if message is None else message
    try:
        from ._core import LivelockError as CoreLivelock
    except ImportError:  # no core built: nothing it raised can be a livelock
        return SimulationError(text)
    return LivelockError(text) if isinstance(exc, CoreLivelock) else SimulationError(text)


SHOWN_MAX_CHARS = 60
"""Values longer than this are shortened in messages (as the core does)."""


def shorten(text: object, limit: int = SHOWN_MAX_CHARS) -> str:
    """``text`` (as ``str``) cut to ``limit`` characters, saying how long it was: a message
    names a value, it does not echo a megabyte back."""
    s = str(text)
    if len(s) <= limit:
        return s
    return f"{s[: limit - 20]}… ({len(s)} characters)"


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]}


def printable(text: object) -> str:
    """``text`` with control characters (escape sequences, carriage returns, newlines)
    shown as ``\\x1b``: text from a scenario or a store never drives the terminal."""
    return str(text).translate(_CONTROL)
