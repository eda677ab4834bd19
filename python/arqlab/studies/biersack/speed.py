"""The simulator's speed on this study's model (36 stations, 4 token rings, 3 bridges):
one timed replication of SREJ at the knee of Fig. 1, reported with every full pass."""

from __future__ import annotations

SPEED_POINT = ("srej", 4.0e6)
SPEED_DURATION_S = 30.0


def events_per_second() -> str:
    """One replication (this process, one core): events, wall time, events/s."""
    from arqlab.api import simulate

    from .scenarios import base

    variant, offered = SPEED_POINT
    r = simulate(base(variant, offered, duration_s=SPEED_DURATION_S, warmup_s=0.0, replications=1), seed=1)
    events = sum(int(rec["events"]) for rec in r.records)
    wall = sum(float(rec["wall_s"]) for rec in r.records)
    return (f"Speed: {variant.upper()} at {offered / 1e6:g} Mbit/s offered, {SPEED_DURATION_S:g} simulated s, "
            f"36 stations on 4 token rings: {events} events in {wall:.2f} s = {events / wall:.3g} events/s "
            f"({SPEED_DURATION_S / wall:.0f} simulated s per wall s, one core)")
