"""What T1 has to cover: the loss-free round trip of an I frame, measured from a trace
of the 36-station model (docs/studies/biersack.md, "Timers").

T1 starts when an I frame's transmission ends (the source queue and the wait for the
token are behind it) and stops at the acknowledgement. So it has to cover one frame's
way to the receiver (bridge processors, bridge output buffers, tokens on the backbone
and the destination ring) and the response's way back — not the source queue, which
grows without bound under overload. The round trip of one I frame here: from the end
of its last transmission before it arrived to the arrival at its sender of the RR its
receiver sent for it (N3 = 1: one per I frame accepted) — counted only where that RR is
the receiver's first response after the frame, acknowledges it, and no other I frame
reached the receiver in between (a frame stored out of sequence is answered only once
its gap is filled, which is recovery, not a round trip).

``python -m arqlab.studies.biersack.roundtrip [--variant srej] [--offered 4.5 ...]``
prints the percentiles per offered rate.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import pandas as pd

from .params import RATE_BPS, RINGS, STATIONS
from .scenarios import base, station

#: MAC framing of every frame on a ring (octets), before the PDU's bits.
MAC_OCTETS = 21
RESPONSES = ("RR", "REJ", "SREJ", "RNR")
MODULUS = 128
PERCENTILES = (0.5, 0.9, 0.99, 1.0)


def flows() -> list[tuple[str, str]]:
    """(sender, receiver) of every connection: station i of ring r to ring r + 1."""
    return [(station(r, i), station((r + 1) % RINGS, i)) for r in range(RINGS) for i in range(STATIONS)]


def round_trips(df: pd.DataFrame, pairs: Sequence[tuple[str, str]], rate_bps: float = RATE_BPS) -> pd.Series:
    """Loss-free round trips (s) of the I frames of ``pairs`` in a trace (the columns of
    :func:`arqlab.trace.trace`): one per I frame received and acknowledged at once by an
    RR that reached the sender (a response lost on the way is skipped)."""
    out: list[pd.Series] = []
    response = df.kind.isin(RESPONSES) & df.command.eq(False)  # (a timeout row has no command)
    for src, dst in pairs:
        sent = df[(df.station == src) & (df.event == "send") & (df.kind == "I")]
        got = df[(df.station == dst) & (df.event == "receive") & (df.kind == "I")]
        said = df[(df.station == dst) & (df.event == "send") & response]
        heard = df[(df.station == src) & (df.event == "receive") & response]
        if got.empty or said.empty or heard.empty:
            continue
        sent = sent.assign(end=sent.time_s + (sent.bits + 8 * MAC_OCTETS) / rate_bps)
        got = got[["time_s", "message", "ns"]].sort_values("time_s")
        got = got.assign(next_i=got.time_s.shift(-1).fillna(float("inf")))
        # The last transmission of that message before it arrived ...
        m = pd.merge_asof(got, sent[["time_s", "message", "end"]].sort_values("time_s"),
                          on="time_s", by="message", direction="backward")
        # ... the receiver's first response after it (an RR acknowledging it, before the
        # next I frame arrived), and that response at the sender.
        m = pd.merge_asof(m.dropna(subset=["end"]), said[["time_s", "kind", "nr"]].rename(columns={"time_s": "said"}),
                          left_on="time_s", right_on="said", direction="forward")
        m = m.dropna(subset=["said"])
        # (It acknowledges the frame: N(R) is past N(S) by less than half the modulus.)
        ahead = (m.nr - m.ns) % MODULUS
        m = m[(m.kind == "RR") & (m.said < m.next_i) & (ahead >= 1) & (ahead < MODULUS // 2)]
        m = pd.merge_asof(m.sort_values("said"), heard[["time_s", "kind", "nr"]].rename(columns={"time_s": "heard"}),
                          left_on="said", right_on="heard", by=["kind", "nr"], direction="forward")
        out.append((m.heard - m.end).dropna())
    return pd.concat(out, ignore_index=True) if out else pd.Series(dtype=float)


def measure(variant: str, offered_mbps: float, *, start_s: float = 5.0, end_s: float = 15.0, seed: int = 1,
            **keys: object) -> pd.Series:
    """Round trips of every connection of one point of the study between ``start_s``
    and ``end_s`` (replication 0)."""
    from ... import trace as tr

    scn = base(variant, offered_mbps * 1e6, duration_s=end_s, warmup_s=0.0, replications=1, **keys)
    df = tr.trace(scn, start_s=start_s, end_s=end_s, seed=seed, limit=5_000_000)
    return round_trips(df, flows())


def summary(rtt: pd.Series) -> dict[str, float]:
    """Count and percentiles (ms)."""
    q = rtt.quantile(list(PERCENTILES)) * 1e3 if len(rtt) else pd.Series([float("nan")] * len(PERCENTILES))
    return {"n": float(len(rtt)), **{f"p{100 * p:g}_ms": float(v) for p, v in zip(PERCENTILES, q)}}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arqlab.studies.biersack.roundtrip", description=__doc__)
    ap.add_argument("--variant", action="append", help="LLC2 variant (default srej and bg)")
    ap.add_argument("--offered", type=float, action="append", help="total offered Mbit/s (default 2, 3.5, 4.5)")
    ap.add_argument("--start", type=float, default=5.0)
    ap.add_argument("--end", type=float, default=15.0)
    a = ap.parse_args(argv)
    print("variant  offered  n  p50_ms  p90_ms  p99_ms  max_ms")
    for v in a.variant or ["srej", "bg"]:
        for x in a.offered or [2.0, 3.5, 4.5]:
            s = summary(measure(v, x, start_s=a.start, end_s=a.end))
            print(f"{v} {x:g} {s['n']:.0f} {s['p50_ms']:.1f} {s['p90_ms']:.1f} {s['p99_ms']:.1f} {s['p100_ms']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
