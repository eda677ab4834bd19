"""All five studies at full precision, both cores busy to the end (``make reproduce``).

    python -m arqlab.studies.reproduce_all [--out DIR] [--jobs 2] [--workers N] [--quick]
                                           [--store PATH | --no-store] [STUDY ...]

Each study is its own ``arqlab reproduce`` process with a local pool of ``--workers``
processes (default: the CPU count), ``--jobs`` studies at a time (default 2), the longest
first. Within a study the pool keeps every core busy while points remain; two studies at
once keep them busy across studies too (one plotting or checking its claims, the other
simulating), and the short studies fill in beside the long one. Each study's output goes
to ``DIR/<study>/`` and its printed summary to ``DIR/<study>.log``. At the end: each
study's verdict line, CPU seconds (its process and every worker, from ``os.wait4``) and
wall seconds, and the totals. Exit status: 0 if every study ran, else the first failure's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: The studies, longest first (full-precision CPU before the speed issue: Bux 10.6 min,
#: Biersack 3.2, Johnson 0.5, Comer & Korb 0.3, Colella 0.2).
STUDIES = ("bux1982", "biersack", "johnson", "comer-korb", "colella")


@dataclass
class StudyRun:
    name: str
    returncode: int
    cpu_s: float
    wall_s: float
    log: Path


def run_all(commands: Sequence[tuple[str, list[str]]], jobs: int, log_dir: Path, poll_s: float = 0.05) -> list[StudyRun]:
    """Runs ``(name, argv)`` commands, at most ``jobs`` at a time in the given order; each
    one's output goes to ``log_dir/<name>.log``. Returns one record per command, in order."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1 (got {jobs})")
    log_dir.mkdir(parents=True, exist_ok=True)
    pending = list(commands)
    running: dict[int, tuple[str, float, Path, subprocess.Popen[bytes]]] = {}
    done: dict[str, StudyRun] = {}
    while pending or running:
        while pending and len(running) < jobs:
            name, argv = pending.pop(0)
            log = log_dir / f"{name}.log"
            with log.open("w") as f:
                p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT)
            running[p.pid] = (name, time.perf_counter(), log, p)
        # Only our own children are reaped (by pid); os.wait4 reports each one's CPU
        # including the workers it waited for.
        finished = False
        for pid in list(running):
            got, status, usage = os.wait4(pid, os.WNOHANG)
            if got == pid:
                name, started, log, proc = running.pop(pid)
                proc.returncode = os.waitstatus_to_exitcode(status)
                done[name] = StudyRun(name, proc.returncode, usage.ru_utime + usage.ru_stime,
                                      time.perf_counter() - started, log)
                finished = True
        if not finished:
            time.sleep(poll_s)
    return [done[name] for name, _ in commands]


def verdict_line(log: Path) -> str:
    """The last ``Verdicts:`` line a study printed (or its last line)."""
    lines = [ln.strip() for ln in log.read_text(errors="replace").splitlines() if ln.strip()]
    found = [ln for ln in lines if ln.startswith("Verdicts:")]
    return (found or lines or ["(no output)"])[-1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arqlab.studies.reproduce_all", description=__doc__.splitlines()[0])
    ap.add_argument("studies", nargs="*", metavar="STUDY", help=f"studies to run (default: all: {', '.join(STUDIES)})")
    ap.add_argument("--out", default="reproduce-out", help="output directory (default reproduce-out)")
    ap.add_argument("--jobs", type=int, default=2, help="studies at a time (default 2)")
    ap.add_argument("--workers", type=int, default=None, help="worker processes per study (default: CPU count)")
    ap.add_argument("--quick", action="store_true", help="the low-precision pass")
    store = ap.add_mutually_exclusive_group()
    store.add_argument("--store", default=None, help="result store (default: arqlab reproduce's)")
    store.add_argument("--no-store", action="store_true", help="do not read or write the result store")
    args = ap.parse_args(argv)
    unknown = [s for s in args.studies if s not in STUDIES]
    if unknown:
        ap.error(f"unknown study {unknown[0]!r} (expected one of: {', '.join(STUDIES)})")
    if args.jobs < 1:
        ap.error(f"--jobs must be at least 1 (got {args.jobs})")
    if args.workers is not None and args.workers < 1:
        ap.error(f"--workers must be at least 1 (got {args.workers})")
    out = Path(args.out)
    commands = []
    for name in [s for s in STUDIES if not args.studies or s in args.studies]:
        cmd = [sys.executable, "-m", "arqlab.cli", "reproduce", name, "--out", str(out / name)]
        cmd += ["--workers", str(args.workers or os.cpu_count() or 1)]
        cmd += ["--quick"] if args.quick else []
        cmd += ["--no-store"] if args.no_store else (["--store", args.store] if args.store else [])
        commands.append((name, cmd))
    t0 = time.perf_counter()
    runs = run_all(commands, args.jobs, out)
    wall = time.perf_counter() - t0
    print(f"{'study':11} {'CPU s':>8} {'wall s':>8}  verdicts")
    for r in runs:
        status = "" if r.returncode == 0 else f"  FAILED (exit {r.returncode}, see {r.log})"
        print(f"{r.name:11} {r.cpu_s:8.1f} {r.wall_s:8.1f}  {verdict_line(r.log)}{status}")
    cpu = sum(r.cpu_s for r in runs)
    print(f"{'total':11} {cpu:8.1f} {wall:8.1f}  ({cpu / 60:.1f} CPU-minutes in {wall / 60:.1f} minutes: "
          f"{cpu / wall if wall > 0 else 0:.2f} cores busy on average)")
    return next((r.returncode for r in runs if r.returncode != 0), 0)


if __name__ == "__main__":
    sys.exit(main())
