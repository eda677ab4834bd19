"""Prints, for the reference scenario (`scenarios/go_back_n.toml`), simulated events per
wall second and simulated seconds per wall second (median of repeated runs of
10,000 simulated seconds, one core), and peak memory for 10× longer runs.

    python benches/report.py [--repeat 7]

Targets (foundation issue): ≥ 20 million events/s and ≥ 150,000 simulated s per wall s
on one core of the 2-core reference machine, release build; memory flat in run length.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

from arqlab import api, scenario


def measure(duration: float, repeat: int) -> tuple[float, float, int]:
    resolved = scenario.load("scenarios/go_back_n.toml", {"run.duration_s": duration, "run.warmup_s": 0.0})
    runs = [api.run_replication(resolved, 1, 0) for _ in range(repeat)]
    wall = statistics.median(r["wall_s"] for r in runs)
    events = runs[0]["events"]
    return events / wall, duration / wall, events


def peak_rss_kib(duration: float) -> int:
    """Peak RSS of a fresh process running one replication of `duration` seconds."""
    code = (
        "import resource; from arqlab import api, scenario; "
        f"r = scenario.load('scenarios/go_back_n.toml', {{'run.duration_s': {duration}, 'run.warmup_s': 0.0}}); "
        "api.run_replication(r, 1, 0); print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return int(out.strip())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    ev_s, sim_s, events = measure(10_000.0, args.repeat)
    mem_short, mem_long = peak_rss_kib(10_000.0), peak_rss_kib(100_000.0)
    result = {
        "events_per_wall_s": ev_s,
        "simulated_s_per_wall_s": sim_s,
        "events_per_10000_s": events,
        "peak_rss_kib_10000_s": mem_short,
        "peak_rss_kib_100000_s": mem_long,
        "memory_growth": mem_long / mem_short - 1.0,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print("reference scenario: saturated go-back-N, W=7, 48 kbit/s, t_p=50 ms, p_bit=1e-5 both ways")
    print(f"  {ev_s / 1e6:8.1f} M events per wall second       (target >= 20)")
    print(f"  {sim_s:10,.0f} simulated s per wall second  (target >= 150,000)")
    print(f"  {events:10,d} events per 10,000 simulated s")
    print(f"  peak RSS {mem_short / 1024:.1f} MiB (10,000 s) vs {mem_long / 1024:.1f} MiB (100,000 s): {100 * result['memory_growth']:+.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
