"""Scaling of one run with topology size, against K = 1 of the same family:

- `links`: K independent two-node links (saturated go-back-N, the reference scenario's
  parameters) in one replication, K = 1, 10, 100, 1000;
- `star`: K host pairs on one store-and-forward relay (h2i -> h2i+1 through the hub,
  saturated go-back-N end to end, the same link parameters, a buffer that never
  overflows), K = 1, 10, 100, 500: at K = 500 a 1,001-node relay topology.

    python benches/scaling.py [--family links star] [--simulated-s 20000] [--repeat 3] [--run BIN]

Prints the marginal events per CPU-second (the issue's target: within 2x of K = 1, i.e.
"vs K=1" >= 0.5) and the peak RSS of a fresh process per K (expected to grow linearly in
K). Each K simulates the same total number of link-seconds (simulated seconds x K is
constant) twice, at D and 2D: the rate is (events2 - events1) / (CPU2 - CPU1), so
starting Python, building the topology and opening the measures (linear in K, once) do
not count. CPU time is the child's user + system time (`os.wait4`: a shared machine
slows wall time more); each run is repeated and the fastest kept. With `--run BIN` (the
`run` example, `cargo build --release -p arqlab --example run`) each point runs that
binary on the topology written as a TOML scenario instead of the Python extension, so
two builds can be compared alternately without rebuilding the extension (its peak RSS
is then the child's `ru_maxrss`, which Linux floors at the forking Python's own size:
read memory from the extension runs).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

LINK = {"rate_bps": 48000.0, "delay_s": 0.05, "bit_error_rate": 1e-5}
SATURATED = {"kind": "saturated", "length": {"dist": "constant", "mean_bits": 1000}}
STACK = {"gbn": {"kind": "go_back_n", "window": 7, "modulus": 8, "timeout_s": 1.0}}
SIZES = {"links": (1, 10, 100, 1000), "star": (1, 10, 100, 500)}


def topology(family: str, k: int, duration_s: float) -> dict[str, Any]:
    """`links`: K pairs n<i>a -- l<i> -- n<i>b; `star`: hosts h0 .. h(2K-1), each on its
    own medium to the relay `hub`, flows h(2i) -> h(2i+1). One saturated flow per pair."""
    run = {"duration_s": duration_s, "warmup_s": 0.0, "replications": 1}
    if family == "links":
        return {
            "title": f"{k} independent links",
            "run": run,
            "stack": STACK,
            "medium": [{"name": f"l{i}", "ends": [f"n{i}a", f"n{i}b"], **LINK} for i in range(k)],
            "node": [{"name": f"n{i}{s}", "stack": "gbn"} for i in range(k) for s in "ab"],
            "flow": [{"from": f"n{i}a", "to": f"n{i}b", "traffic": SATURATED} for i in range(k)],
        }
    return {
        "title": f"{k} host pairs on one relay",
        "run": run,
        "stack": STACK,
        "medium": [{"name": f"l{i}", "ends": [f"h{i}", "hub"], **LINK} for i in range(2 * k)],
        "relay": [{"name": "hub", "buffer_octets": 1 << 20, "forwarding_time_s": 0.001}],
        "node": [{"name": f"h{i}", "stack": "gbn"} for i in range(2 * k)],
        "flow": [{"from": f"h{2 * i}", "to": f"h{2 * i + 1}", "traffic": SATURATED} for i in range(k)],
    }


def child(family: str, k: int, duration_s: float) -> None:
    """One K in this (fresh) process: events and peak RSS as JSON."""
    import resource

    from arqlab import api, scenario

    r = api.run_replication(scenario.load(topology(family, k, duration_s)), 1, 0)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"events": r["events"], "rss_kib": rss}))


def run(family: str, k: int, duration_s: float, repeat: int, binary: str | None = None) -> dict[str, Any]:
    """The fastest of `repeat` fresh processes (events and RSS are the same in each)."""
    path = None
    if binary:
        import tomli_w  # pinned in requirements.lock, as for the extension's own scenarios

        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write(tomli_w.dumps(topology(family, k, duration_s)))
        path = f.name
        cmd = [binary, path]
    else:
        cmd = [sys.executable, __file__, "--child", family, str(k), str(duration_s)]
    runs = []
    try:
        for _ in range(repeat):
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            out = p.stdout.read() if p.stdout else ""
            _, status, usage = os.wait4(p.pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"scaling: {' '.join(cmd)} failed")
            if binary:
                m = re.search(r"events (\d+)", out)
                if not m:
                    raise SystemExit(f"scaling: {binary} printed no 'events N' line")
                # ru_maxrss of the child, in KiB on Linux.
                got = {"events": int(m.group(1)), "rss_kib": usage.ru_maxrss}
            else:
                got = json.loads(out)
            runs.append({**got, "cpu_s": usage.ru_utime + usage.ru_stime})
    finally:
        if path:
            os.unlink(path)
    return min(runs, key=lambda r: float(r["cpu_s"]))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", nargs="*", choices=sorted(SIZES), default=["links", "star"])
    ap.add_argument("--simulated-s", type=float, default=20000.0, help="simulated seconds at K = 1 (divided by K)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per point; the fastest is kept")
    ap.add_argument("--run", metavar="BIN", help="time this `run` example on TOML scenarios instead of the extension")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", nargs=3, metavar=("FAMILY", "K", "SIMULATED_S"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), float(args.child[2]))
        return 0
    if args.repeat < 1 or not args.simulated_s > 0:
        print(f"scaling: --repeat must be >= 1 (got {args.repeat}) and --simulated-s > 0 (got {args.simulated_s})", file=sys.stderr)
        return 2
    rows = []
    for family in args.family:
        for k in SIZES[family]:
            d = max(args.simulated_s / k, 1.0)
            r1, r2 = run(family, k, d, args.repeat, args.run), run(family, k, 2 * d, args.repeat, args.run)
            rate = (r2["events"] - r1["events"]) / (r2["cpu_s"] - r1["cpu_s"]) if r2["cpu_s"] > r1["cpu_s"] else float("nan")
            rows.append({"family": family, "k": k, **r2, "events_per_cpu_s": rate})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'family':>6} {'K':>5} {'nodes':>6} {'events':>11} {'M ev/CPU-s':>11} {'vs K=1':>7} {'log2 K + 1':>10} {'peak RSS MiB':>13} {'RSS growth/K KiB':>17}")
    for r in rows:
        base = next(b for b in rows if b["family"] == r["family"] and b["k"] == 1)
        nodes = 2 * r["k"] + (r["family"] == "star")
        grow = (r["rss_kib"] - base["rss_kib"]) / max(r["k"] - 1, 1)
        print(f"{r['family']:>6} {r['k']:>5} {nodes:>6} {r['events']:>11,d} {r['events_per_cpu_s'] / 1e6:>11.2f} "
              f"{r['events_per_cpu_s'] / base['events_per_cpu_s']:>7.2f} {1 + math.log2(r['k']):>10.1f} "
              f"{r['rss_kib'] / 1024:>13.1f} {grow:>17.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
