"""Figures 1 and 2: the time graphs of the ISO and NBS expedited data mechanisms, drawn
as ladder diagrams from a trace of the model (not drawn by hand).

The traced run: TP4 alone on the 64 kbit/s satellite hop (one-way delay 0.27 s), three
TSDUs of 4048 octets (four 1024-octet DTs each) queued at time 0, and the user's ED
after the sixth DT's worth of data. ISO sends the ED first and then nothing new until
its EA returns, a round trip later (Figure 1); NBS sends the ED first and then the six
DTs the user submitted before it while the EA is awaited, holding back only the data
submitted after the ED (Figure 2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .params import LINK_BPS, ONE_WAY_DELAY_S

WINDOW_S = (0.0, 1.9)


def time_graph_scenario(discipline: str) -> dict[str, Any]:
    """The two-node scenario traced for Figure 1 (``iso``) or 2 (``nbs``)."""
    return {
        "title": f"{discipline.upper()} expedited data (Colella et al. Figure {1 if discipline == 'iso' else 2})",
        "run": {"duration_s": 100.0, "replications": 1},
        "link": {"rate_bps": LINK_BPS, "delay_s": ONE_WAY_DELAY_S, "bit_error_rate": 0.0},
        "protocol": {"kind": "tp4", "expedited": discipline, "expedited_every": 6, "expedited_unit": "dt",
                     "window_octets": 12288},
        "traffic": {"a": {"kind": "bulk", "messages": 3, "length": {"dist": "constant", "mean_bits": 4048 * 8}}},
    }


def write_time_graphs(out_dir: str | Path) -> list[Path]:
    """``fig1.svg``/``fig1.png`` (ISO) and ``fig2.svg``/``fig2.png`` (NBS) in ``out_dir``."""
    from arqlab.ladder import ladder, save

    out = Path(out_dir)
    files: list[Path] = []
    for n, d in ((1, "iso"), (2, "nbs")):
        fig = ladder(time_graph_scenario(d), *WINDOW_S)
        for suffix in (".svg", ".png"):
            files.append(save(fig, out / f"fig{n}{suffix}"))
    return files
