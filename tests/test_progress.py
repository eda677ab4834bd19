"""Progress: a bar only on a terminal, a one-line summary unless quiet."""

from __future__ import annotations

import io

from arqlab.progress import Progress, Summary

RECORD = {"events": 1000, "wall_s": 0.01}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(progress: Progress) -> Summary:
    progress.start(3, points=2)
    progress.advance(RECORD, reused=True)
    progress.add_total(1)
    for _ in range(3):
        progress.advance(RECORD, reused=False)
    return progress.finish()


def test_not_a_terminal_prints_only_the_summary() -> None:
    stream = io.StringIO()
    summary = run(Progress(stream=stream))
    assert (summary.points, summary.computed, summary.reused, summary.events) == (2, 3, 1, 3000)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("2 points: 3 replications computed, 1 reused from the store, ")
    assert lines[0].endswith(" events/s")


def test_quiet_prints_nothing() -> None:
    stream = Terminal()
    summary = run(Progress(stream=stream, quiet=True))
    assert stream.getvalue() == ""
    assert summary.computed == 3


def test_terminal_shows_a_bar() -> None:
    stream = Terminal()
    progress = Progress(stream=stream)
    assert progress.show_bar
    run(progress)
    out = stream.getvalue()
    assert "replications" in out
    assert out.rstrip().splitlines()[-1].endswith(" events/s")
    assert "2 points: 3 replications computed" in out.rstrip().splitlines()[-1]


def test_summary_wording() -> None:
    s = Summary(points=1, computed=0, reused=1, wall_s=0.5, events=0)
    assert s.line() == "1 point: 0 replications computed, 1 reused from the store, 0.5 s wall"
    assert Summary(points=3, computed=2, reused=0, wall_s=2.0, events=4_000_000).line().endswith("2M events/s")
