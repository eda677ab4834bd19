"""Times arqlab against the bare hand-written loop of the same model (`benches/bare_loop.rs`)
on the reference scenario (`scenarios/go_back_n.toml`: saturated go-back-N, W = 7,
1000 + 48 bits, 48 kbit/s, t_p = 50 ms, p_bit = 1e-5 both ways, T1 = 1 s), alternately in
one run, and prints the ratio of CPU times (and of wall times) per pair.

    make bench-vs-bare [VS_BARE="SIM_SECONDS ROUNDS"]    (default 100000 9)
    python3 benches/vs_bare.py ARQLAB_RUN BARE_LOOP [SIM_SECONDS] [ROUNDS]

ARQLAB_RUN is the `run` example (it takes a scenario file and prints "events N"),
BARE_LOOP the `bare_loop` example. CPU time is each child's user + system time
(`os.wait4`): a shared machine slows wall time more than CPU time. Both programs run the
same simulated span with seed 1 and no warm-up; ratio > 1 means arqlab is slower.
"""

from __future__ import annotations

import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stdout) of one run of `cmd`."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    out = p.stdout.read() if p.stdout else ""
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise SystemExit(f"vs_bare: {cmd[0]} exited with status {p.returncode}")
    return usage.ru_utime + usage.ru_stime, wall, out


def events(out: str, what: str) -> int:
    m = re.search(r"events (\d+)", out)
    if not m:
        raise SystemExit(f"vs_bare: {what} printed no 'events N' line")
    return int(m.group(1))


def scenario_text(sim: float) -> str:
    """The reference scenario for `sim` simulated seconds: one replication, no warm-up."""
    text = (ROOT / "scenarios" / "go_back_n.toml").read_text()
    text = re.sub(r"(?m)^duration_s = .*$", f"duration_s = {sim}", text)
    text = re.sub(r"(?m)^warmup_s = .*$", "warmup_s = 0.0", text)
    return re.sub(r"(?m)^replications = .*$", "replications = 1", text)


def sim_and_rounds(args: list[str], name: str) -> tuple[float, int] | None:
    """SIM_SECONDS and ROUNDS from `args` (defaults 100 000 and 9), or None after naming
    each bad one, its value and what was expected."""
    sim_text = args[0] if len(args) > 0 else "100000"
    rounds_text = args[1] if len(args) > 1 else "9"
    problems = []
    try:
        sim = float(sim_text)
    except ValueError:
        sim = math.nan
    if not (math.isfinite(sim) and sim > 0):  # inf would never end, nan never start
        problems.append(f"SIM_SECONDS = {sim_text!r}: expected a finite number of simulated seconds > 0")
    try:
        rounds = int(rounds_text)
    except ValueError:
        rounds = 0
    if rounds < 1:
        problems.append(f"ROUNDS = {rounds_text!r}: expected a whole number >= 1")
    for problem in problems:
        print(f"{name}: {problem}", file=sys.stderr)
    return None if problems else (sim, rounds)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    arq, bare = argv[0], argv[1]
    parsed = sim_and_rounds(argv[2:4], "vs_bare")
    if parsed is None:
        return 2
    sim, rounds = parsed
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(scenario_text(sim))
    try:
        a, b = [], []
        for _ in range(rounds):
            a.append(timed([arq, f.name]))
            b.append(timed([bare, str(sim)]))
    finally:
        os.unlink(f.name)
    ea, eb = events(a[0][2], "arqlab"), events(b[0][2], "bare loop")
    for name, runs, ev in (("arqlab", a, ea), ("bare loop", b, eb)):
        cpu, wall = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        print(f"{name:9} {ev:,} events  CPU {cpu:.3f} s = {ev / cpu / 1e6:5.1f} M events/CPU-s  (wall {wall:.3f} s = {ev / wall / 1e6:5.1f} M events/s)")
    cpu_ratio = statistics.median(x[0] / y[0] for x, y in zip(a, b))
    wall_ratio = statistics.median(x[1] / y[1] for x, y in zip(a, b))
    print(f"ratio arqlab/bare, median of {rounds} alternated pairs: CPU {cpu_ratio:.2f} (wall {wall_ratio:.2f}); "
          f"per event: CPU {cpu_ratio * eb / ea:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
