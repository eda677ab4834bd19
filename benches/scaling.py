"""Scaling of one run with topology size: K independent two-node links (saturated
go-back-N, the reference scenario's parameters) in one replication, K = 1, 10, 100, 1000.

    python benches/scaling.py [--simulated-s 20000] [--repeat 3]

Prints the marginal events per wall second (expected to fall at most like log K: the
event heap) and the peak RSS of a fresh process per K (expected to grow linearly in K).
Each K simulates the same total number of link-seconds (simulated seconds × K is
constant) twice, at D and 2D: the rate is (events₂ − events₁) / (wall₂ − wall₁), so
building the topology and opening the measures (linear in K, once) do not count. Each
run is repeated and the fastest kept (the wall times of a shared machine only err
upward); at 2000 simulated s a K = 1 run lasts milliseconds and its difference is noise.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from typing import Any


def topology(k: int, duration_s: float) -> dict[str, Any]:
    """K pairs n<i>a -- l<i> -- n<i>b, each a saturated go-back-N flow one way."""
    return {
        "title": f"{k} independent links",
        "run": {"duration_s": duration_s, "warmup_s": 0.0, "replications": 1},
        "stack": {"gbn": {"kind": "go_back_n", "window": 7, "modulus": 8, "timeout_s": 1.0}},
        "medium": [
            {"name": f"l{i}", "ends": [f"n{i}a", f"n{i}b"], "rate_bps": 48000.0, "delay_s": 0.05, "bit_error_rate": 1e-5}
            for i in range(k)
        ],
        "node": [{"name": f"n{i}{s}", "stack": "gbn"} for i in range(k) for s in "ab"],
        "flow": [
            {"from": f"n{i}a", "to": f"n{i}b", "traffic": {"kind": "saturated", "length": {"dist": "constant", "mean_bits": 1000}}}
            for i in range(k)
        ],
    }


def child(k: int, duration_s: float) -> None:
    """One K in this (fresh) process: events, wall time and peak RSS as JSON."""
    import resource

    from arqlab import api, scenario

    r = api.run_replication(scenario.load(topology(k, duration_s)), 1, 0)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"events": r["events"], "wall_s": r["wall_s"], "rss_kib": rss}))


def run(k: int, duration_s: float, repeat: int) -> dict[str, Any]:
    """The fastest of `repeat` fresh processes (events and RSS are the same in each)."""
    cmd = [sys.executable, __file__, "--child", str(k), str(duration_s)]
    runs = [dict(json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)) for _ in range(repeat)]
    return min(runs, key=lambda r: float(r["wall_s"]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--simulated-s", type=float, default=20000.0, help="simulated seconds at K = 1 (divided by K)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per point; the fastest is kept")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", nargs=2, metavar=("K", "SIMULATED_S"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(int(args.child[0]), float(args.child[1]))
        return 0
    rows = []
    for k in (1, 10, 100, 1000):
        d = max(args.simulated_s / k, 1.0)
        r1, r2 = run(k, d, args.repeat), run(k, 2 * d, args.repeat)
        rate = (r2["events"] - r1["events"]) / (r2["wall_s"] - r1["wall_s"])
        rows.append({"k": k, **r2, "events_per_s": rate})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    base = rows[0]
    print(f"{'K':>5} {'events':>11} {'M events/s':>11} {'vs K=1':>7} {'log2 K + 1':>10} {'peak RSS MiB':>13} {'RSS growth/K KiB':>17}")
    for r in rows:
        grow = (r["rss_kib"] - base["rss_kib"]) / max(r["k"] - 1, 1)
        print(f"{r['k']:>5} {r['events']:>11,d} {r['events_per_s'] / 1e6:>11.2f} {r['events_per_s'] / base['events_per_s']:>7.2f} "
              f"{1 + math.log2(r['k']):>10.1f} {r['rss_kib'] / 1024:>13.1f} {grow:>17.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
