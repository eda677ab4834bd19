"""Times two builds of arqlab against each other on the reference scenario, each beside
its own bare loop (`benches/vs_bare.py`'s measure), interleaved: per round the `run`
example and the bare loop of one build, then of the other, the order swapped every
round, so that a change in the machine's load falls on both builds alike.

    python3 benches/before_after.py RUN_A BARE_A RUN_B BARE_B [SIM_SECONDS] [ROUNDS]

Prints, per build, the median CPU time of `run` (events per CPU-second) and the
per-event CPU ratio against its bare loop (median and range over the rounds), then
B's CPU time over A's per round (median and range). Both `run` examples must count
the same events (a speed-only change); exit status 2 on bad arguments, 1 otherwise.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile

from vs_bare import events, scenario_text, sim_and_rounds, timed  # (this script's folder is on sys.path)


def spread(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.3f} (range {min(xs):.3f}-{max(xs):.3f})"


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    parsed = sim_and_rounds(argv[4:6], "before_after")
    if parsed is None:
        return 2
    sim, rounds = parsed
    builds = {"A": (argv[0], argv[1]), "B": (argv[2], argv[3])}
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
        f.write(scenario_text(sim))
    runs: dict[str, list[tuple[float, float]]] = {"A": [], "B": []}
    counts: dict[str, tuple[int, int]] = {}
    try:
        for k in range(rounds):
            for name in ("A", "B") if k % 2 == 0 else ("B", "A"):
                run, bare = builds[name]
                cpu_run, _, out_run = timed([run, f.name])
                cpu_bare, _, out_bare = timed([bare, str(sim)])
                runs[name].append((cpu_run, cpu_bare))
                counts[name] = (events(out_run, f"{name}'s run"), events(out_bare, f"{name}'s bare loop"))
    finally:
        os.unlink(f.name)
    if counts["A"][0] != counts["B"][0]:
        print(f"before_after: the builds count different events ({counts['A'][0]} and {counts['B'][0]}): not a speed-only change", file=sys.stderr)
        return 1
    for name in ("A", "B"):
        ev, ev_bare = counts[name]
        cpu = statistics.median(r for r, _ in runs[name])
        ratios = [r / b * ev_bare / ev for r, b in runs[name]]
        print(f"{name}: run CPU {cpu:.3f} s = {ev / cpu / 1e6:.1f} M events/CPU-s; per-event ratio to its bare loop {spread(ratios)}")
    print(f"B/A run CPU per round: {spread([b[0] / a[0] for a, b in zip(runs['A'], runs['B'])])} ({rounds} rounds, {counts['A'][0]:,} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
