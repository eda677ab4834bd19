"""Figure 1: the burst-mode time sequence, drawn as a ladder diagram from a trace of
the model (not drawn by hand).

The traced run: two X.25 hosts, one circuit opened at time zero, a saturated source of
one-packet datagrams (128 octets, as the model's packets), W = 2, T_N = 235 ms. After
CALL REQUEST / CALL ACCEPTED the sender sends two DATA packets and waits; the receiver
returns RR when its window is full; the next burst follows a round trip later — the
paper's T_p + T_f, T_N, T_f, T_N cycle, with the access lines inside each host.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .params import PACKET_OCTETS, T_N_S, WINDOW

WINDOW_S = (0.0, 3.2)


def burst_scenario(circuits: int = 1) -> dict[str, Any]:
    """The two-node scenario traced for Figure 1."""
    return {
        "title": f"X.25 burst mode (Comer & Korb Figure 1): W = {WINDOW}, {circuits} "
                 f"circuit{'s' if circuits > 1 else ''}, T_N = {T_N_S} s",
        "run": {"duration_s": 20.0, "replications": 1},
        "link": {"rate_bps": 1e9, "delay_s": T_N_S},
        "protocol": {"kind": "x25", "window": WINDOW, "ip_header_bits": 0, "preopen_circuits": circuits,
                     "policy": "multi_mlru", "c_max": circuits},
        "traffic": {"a": {"kind": "saturated", "length": {"dist": "constant", "mean_bits": PACKET_OCTETS * 8}}},
    }


def write_time_graph(out_dir: str | Path) -> list[Path]:
    """``fig1.svg``/``fig1.png`` in ``out_dir``."""
    from arqlab.ladder import ladder, save

    out = Path(out_dir)
    fig = ladder(burst_scenario(), *WINDOW_S)
    return [save(fig, out / f"fig1{suffix}") for suffix in (".svg", ".png")]
