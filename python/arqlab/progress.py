"""Progress of a batch of replications: a rich progress bar and a one-line summary.

The executors call :meth:`Progress.start` once, :meth:`Progress.add_total` when sequential
precision asks for more replications, :meth:`Progress.advance` for every replication that
became available (computed or reused from the store) and :meth:`Progress.finish` at the end.

The bar is shown only when stderr is a terminal; the summary line is printed to stderr
unless ``quiet`` is set.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


@dataclass(frozen=True)
class Summary:
    """What a batch of replications cost."""

    points: int
    computed: int
    reused: int
    wall_s: float
    events: int

    @property
    def events_per_s(self) -> float:
        return self.events / self.wall_s if self.wall_s > 0 else 0.0

    def line(self) -> str:
        rate = f", {_si(self.events_per_s)} events/s" if self.computed else ""
        return (
            f"{self.points} point{'s' if self.points != 1 else ''}: "
            f"{self.computed} replication{'s' if self.computed != 1 else ''} computed, "
            f"{self.reused} reused from the store, {self.wall_s:.1f} s wall{rate}"
        )


def _si(x: float) -> str:
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if x >= factor:
            return f"{x / factor:.3g}{suffix}"
    return f"{x:.3g}"


class Progress:
    """Progress bar (done/total, rate, ETA) plus a closing summary line."""

    def __init__(self, *, quiet: bool = False, stream: TextIO | None = None, description: str = "replications") -> None:
        self.stream: TextIO = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.description = description
        # In a Jupyter kernel stderr is no terminal, but a rich bar renders there as HTML.
        self.notebook = stream is None and _in_notebook()
        self.show_bar = not quiet and (_isatty(self.stream) or self.notebook)
        self.points = 0
        self.total = 0
        self.computed = 0
        self.reused = 0
        self.events = 0
        self._t0 = 0.0
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None
        self.summary: Summary | None = None

    def start(self, total: int, *, points: int = 0) -> None:
        """Begin: ``total`` replications planned so far, over ``points`` points."""
        self._t0 = time.perf_counter()
        self.total = total
        self.points = points
        if self.show_bar:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=Console() if self.notebook else Console(file=self.stream),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=total, rate="")

    def add_total(self, n: int) -> None:
        """More replications were planned (sequential precision)."""
        self.total += n
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, total=self.total)

    def advance(self, record: Mapping[str, Any], reused: bool) -> None:
        """One replication became available."""
        if reused:
            self.reused += 1
        else:
            self.computed += 1
            self.events += int(record.get("events", 0))
        if self._bar is not None and self._task is not None:
            elapsed = time.perf_counter() - self._t0
            rate = f"{self.computed / elapsed:.1f} rep/s" if elapsed > 0 and self.computed else ""
            self._bar.update(self._task, advance=1, rate=rate)

    def finish(self) -> Summary:
        """Stop the bar and print the summary line (unless quiet)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        self.summary = Summary(
            points=self.points,
            computed=self.computed,
            reused=self.reused,
            wall_s=time.perf_counter() - self._t0,
            events=self.events,
        )
        if not self.quiet:
            print(self.summary.line(), file=self.stream, flush=True)
        return self.summary


def _in_notebook() -> bool:
    """Running in a Jupyter kernel (IPython's ZMQ shell)?"""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython is not None else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def _isatty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:
        return False
