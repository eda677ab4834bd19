"""The sweep behind Figs. 1, 2, 3, 5 and the claims: per variant and total offered
rate, independent replications of the 36-station model; every measure is computed per
replication (so each has a Student-t 95% CI)."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any

import arqlab

from ..student_t import t95
from .scenarios import base

VARIANTS = ("orig", "bg", "jain", "srej")
#: figure → (x measure, y measure, title)
FIGURES: dict[int, tuple[str, str, str]] = {
    1: ("offered_mbps", "throughput_mbps", "Throughput vs total offered data rate"),
    2: ("throughput_mbps", "delay_mean_ms", "Mean end-to-end delay vs throughput"),
    3: ("throughput_mbps", "delay_p95_ms", "95th percentile of the end-to-end delay vs throughput"),
    5: ("throughput_mbps", "network_efficiency", "Network efficiency vs throughput"),
}


@dataclass
class Point:
    variant: str
    offered_mbps: float
    #: measure → (mean, 95% half-width)
    values: dict[str, tuple[float, float]] = field(default_factory=dict)
    events: int = 0
    wall_s: float = 0.0


def _ci(xs: list[float]) -> tuple[float, float]:
    xs = [x for x in xs if math.isfinite(x)]
    if not xs:
        return math.nan, math.nan
    if len(xs) < 2:
        return xs[0], math.inf
    return statistics.fmean(xs), t95(len(xs) - 1) * statistics.stdev(xs) / math.sqrt(len(xs))


def run_point(variant: str, offered_mbps: float, *, duration_s: float, replications: int, seed: int = 1,
              **keys: Any) -> Point:
    sc = base(variant, offered_mbps * 1e6, duration_s=duration_s, warmup_s=min(10.0, duration_s / 5),
              replications=replications, **keys)
    r = arqlab.simulate(sc, seed=seed)
    per: dict[str, list[float]] = {}
    for rec in r.records:
        f = rec["batches"][0]["flow.*"]
        delivered, retx, ooo = f["messages_delivered"], f["frames_retransmitted"], f["out_of_sequence_discarded"]
        drops = sum(rec["batches"][0][k]["frames_dropped"] for k in rec["batches"][0] if k.startswith("node.bridge"))
        row = {
            "throughput_mbps": f["throughput_bps"] / 1e6,
            "delay_mean_ms": f["transfer_time_s"] * 1e3,
            "delay_p95_ms": f["transfer_time_p95_s"] * 1e3,
            # I frames delivered / I frames transmitted (first copies ≈ deliveries).
            "network_efficiency": delivered / (delivered + retx) if delivered + retx else math.nan,
            # Received I frames ≈ delivered + discarded out of sequence.
            "out_of_sequence_fraction": ooo / (delivered + ooo) if delivered + ooo else math.nan,
            "bridge_drops": drops,
        }
        for k, v in row.items():
            per.setdefault(k, []).append(v)
    p = Point(variant, offered_mbps, {k: _ci(v) for k, v in per.items()})
    p.events = sum(rec["events"] for rec in r.records)
    p.wall_s = sum(rec["wall_s"] for rec in r.records)
    return p


def sweep(quick: bool, variants: tuple[str, ...] = VARIANTS, seed: int = 1, **keys: Any) -> list[Point]:
    offered = [1.0, 3.0, 4.0, 5.0] if quick else [0.5, 1.0, 2.0, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0]
    duration, reps = (40.0, 3) if quick else (300.0, 10)
    return [run_point(v, x, duration_s=duration, replications=reps, seed=seed, **keys) for v in variants for x in offered]


def _max_tp(points: list[Point], variant: str) -> tuple[float, float]:
    return max((p.values["throughput_mbps"] for p in points if p.variant == variant), key=lambda x: x[0])


def claims(points: list[Point]) -> list[tuple[str, str, str]]:
    """(claim, verdict, evidence) for the paper's statements the sweep can decide."""
    out = []
    srej, bg, jain = _max_tp(points, "srej"), _max_tp(points, "bg"), _max_tp(points, "jain")
    ev = f"max throughput SREJ {srej[0]:.3f} ± {srej[1]:.3f}, BG {bg[0]:.3f} ± {bg[1]:.3f}, JAIN {jain[0]:.3f} ± {jain[1]:.3f} Mbit/s (paper: 3.55, 3.35)"
    diff = srej[0] - bg[0]
    half = math.hypot(srej[1], bg[1])
    out.append(("SREJ's maximum throughput exceeds BG's", "holds" if diff > half else "does not hold" if diff < -half else "inconclusive", ev))
    out.append(("JAIN performs clearly worse than BG and SREJ", "holds" if jain[0] + jain[1] < min(bg[0] - bg[1], srej[0] - srej[1]) else "does not hold", ev))
    over = [p for p in points if p.variant == "orig" and p.offered_mbps >= 4.5]
    if over:
        f = max(p.values["out_of_sequence_fraction"][0] for p in over)
        out.append(("ORIG under overload: > 70% of received I frames out of sequence", "holds" if f > 0.7 else "does not hold", f"largest fraction {f:.2f} at ≥ 4.5 Mbit/s offered"))
    top = max(p.offered_mbps for p in points)
    eff = {v: next((p.values["network_efficiency"] for p in points if p.variant == v and p.offered_mbps == top), (math.nan, math.nan)) for v in ("bg", "srej", "jain")}
    out.append(("Under overload BG's network efficiency is slightly above SREJ's, JAIN's much lower",
                "holds" if eff["bg"][0] > eff["srej"][0] > eff["jain"][0] else "does not hold",
                ", ".join(f"{v} {m:.3f} ± {h:.3f}" for v, (m, h) in eff.items()) + f" at {top} Mbit/s"))
    return out
