#!/usr/bin/env python3
"""Where the time of an HDL session at 5 dB goes (docs/studies/johnson.md, "Seventh
reading", item 5): the first hour of replications 0..N-1 of the study's HDL cell at
stable 5 dB, traced frame by frame (``arqlab.trace.trace``), cut into transmissions (a
station's frames from its first to its last; a transmission lasts from its first frame's
start to its last frame's arrival − t_p) and the gaps between them. Each transmission is
classed by what it carries — data (the client's or server's packets, first sends and
repeats), an acknowledgement alone, a handover (a REQUEST or RELEASE) — and each gap as a
turnaround (a change of talker: τ + t_p) or an idle wait beyond it (no station
transmitting: TCP's timers, the ARQ's response timeout). The shares are of the hour's
busy time, divided by the sessions started in it: seconds per session by activity, for
SMTP over TCP, the same SMTP script without TCP, and HMTP.

Run from the repository root after ``make build``:
``.venv/bin/python tools/johnson_phases.py [--replications N]``.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

import arqlab  # noqa: E402
from arqlab.trace import trace  # noqa: E402
from arqlab.studies.johnson import params, scenarios  # noqa: E402

HOUR = params.HOUR_S
ACTIVITIES = ("data", "ack", "handover", "turnaround", "idle")


def cell(workload: str, no_tcp: bool = False, x: float = 2.0, **tcp: float) -> dict:
    """The study's HDL cell at 5 dB (``x``: another channel); ``no_tcp``: the script
    straight over the ARQ; ``tcp``: TCP keys changed (an ablation)."""
    tree = scenarios.tables("hdl", workload, x, 1)
    if no_tcp:
        tree["stack"]["s"]["layers"] = tree["stack"]["s"]["layers"][-1:]
    tree["stack"]["s"]["layers"][0].update(tcp)
    return tree


def breakdown(tree: dict, replication: int) -> tuple[Counter[str], Counter[str], float]:
    """Seconds by activity over the first hour, counts (transmissions, packets, and both
    ends' TCP and HF counters of the replication), sessions."""
    df = trace(tree, start_s=0.0, end_s=HOUR, replication=replication, limit=2_000_000)
    tp = tree["medium"][0]["delay_s"]
    sends = df[df.event == "send"].reset_index(drop=True)
    rx = df[df.event.isin(["receive", "receive_in_error"])]
    # A transmission: consecutive sends of one station from a first frame (command) to a last (pf).
    txs: list[dict] = []
    for row in sends.itertuples(index=False):
        if row.command or not txs or txs[-1]["station"] != row.station or txs[-1]["closed"]:
            txs.append({"station": row.station, "start": row.time_s, "kinds": Counter(), "closed": False, "frames": 0})
        t = txs[-1]
        t["kinds"][row.kind] += 1
        t["frames"] += 1
        if row.pf:
            t["closed"] = True
    # Each transmission ends when its last frame has arrived at the peer, minus t_p.
    ends = rx[rx.pf].time_s.tolist()
    secs: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    j = 0
    prev_end, prev_station = 0.0, None
    for t in txs:
        while j < len(ends) and ends[j] - tp < t["start"]:
            j += 1
        if j >= len(ends):
            break
        end = ends[j] - tp
        kinds = t["kinds"]
        what = "data" if kinds["DATA"] else ("handover" if kinds["REQ"] or kinds["REL"] else "ack")
        secs[what] += end - t["start"]
        counts[f"{what} transmissions"] += 1
        counts["DATA frames"] += kinds["DATA"]
        gap = t["start"] - prev_end
        if prev_station is not None and prev_station != t["station"]:
            turn = min(gap, tree["medium"][0]["turnaround_s"] + tp)
            secs["turnaround"] += turn
            secs["idle"] += gap - turn
        elif prev_station is not None:
            secs["idle"] += gap
        prev_end, prev_station = end, t["station"]
    counts["TCP timeouts and ARQ waits"] += int((df.event == "timeout").sum())
    batch = replication_batch(tree, replication)
    for key, value in batch["transport.flow.client->server"].items():
        counts[key] += value
    return secs, counts, float(batch[scenarios.CLIENT]["sessions_completed"])


def replication_batch(tree: dict, replication: int) -> dict:
    """The measures of replication ``replication`` (its own record; the trace is the same
    trajectory up to the hour)."""
    return arqlab.simulate(tree, seed=1, replications=replication + 1).records[replication]["batches"][0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replications", type=int, default=3)
    a = ap.parse_args()
    print(f"HDL at stable 5 dB (last row 25 dB), first hour of replications 0..{a.replications - 1}, seconds per session:\n")
    print("| workload | " + " | ".join(ACTIVITIES) + " | sum | transmissions | DATA frames | timer expiries |")
    print("|---|" + "---|" * (len(ACTIVITIES) + 4))
    for label, tree in (("SMTP over TCP (the study)", cell("smtp")),
                        ("SMTP over TCP, RTO floor 60 s (no spurious timeouts)",
                         cell("smtp", min_rto_s=60.0, initial_rto_s=60.0, max_rto_s=240.0)),
                        ("SMTP over TCP, MSS 1460", cell("smtp", mss_octets=1460, receive_window_octets=8760)),
                        ("SMTP script without TCP", cell("smtp", True)), ("HMTP", cell("hmtp")),
                        ("SMTP over TCP at stable 25 dB (for comparison)", cell("smtp", x=1.0))):
        secs: Counter[str] = Counter()
        counts: Counter[str] = Counter()
        sessions = 0.0
        for r in range(a.replications):
            s, c, n = breakdown(tree, r)
            secs.update(s)
            counts.update(c)
            sessions += n
        per = {k: secs[k] / sessions for k in ACTIVITIES}
        tx = sum(v for k, v in counts.items() if k.endswith("transmissions")) / sessions
        print(f"| {label} | " + " | ".join(f"{per[k]:.0f}" for k in ACTIVITIES) + f" | {sum(per.values()):.0f} | {tx:.0f} "
              f"({', '.join(f'{counts[k] / sessions:.0f} {k.split()[0]}' for k in ('data transmissions', 'ack transmissions', 'handover transmissions'))}) "
              f"| {counts['DATA frames'] / sessions:.0f} | {counts['TCP timeouts and ARQ waits'] / sessions:.1f} |", flush=True)
        tcp = ("tcp_connections", "tcp_segments_sent", "tcp_all_segments_sent", "tcp_segments_retransmitted", "tcp_timeouts",
               "hf_duplicates_filtered", "hf_packets_new", "hf_packets_sent")
        if counts["hf_packets_new"]:
            print("|  | " + ", ".join(f"{k} {counts[k] / sessions:.1f}" for k in tcp if k in counts) + " per session |" + " |" * 9)
    return 0


if __name__ == "__main__":
    sys.exit(main())
