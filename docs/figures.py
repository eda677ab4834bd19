"""Builds the documentation's generated figures (`make docs-figures`).

    python docs/figures.py [--out docs/models/img]

HDLC (docs/models/hdlc.md), in the style of Bux, Kümmerle & Truong (1982):
- hdlc-rej-recovery.svg: ABM with bit errors; the window opens just before the first
  REJ after 20 s, so the corrupted I frame, the REJ and the go-back are all in view.
- hdlc-nrm-poll-cycle.svg: NRM, light Poisson load both ways; the window opens at the
  first poll (a command with P = 1) after 20 s and covers the secondary's reply up to
  its final frame (F = 1) and the next poll.
Each is a ladder diagram of a fixed seed and replication, so the files are reproducible.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arqlab.capture import flights
from arqlab.ladder import ladder, save

ROOT = Path(__file__).resolve().parent.parent
REJ_SCENARIO = ROOT / "scenarios" / "hdlc_abm_poisson.toml"
REJ_OVERRIDES = {"link.bit_error_rate": 4e-5, "traffic.b.load": 0.2,
                 "title": "HDLC ABM, REJ recovery (p_bit = 4e-5)"}
NRM_SCENARIO = ROOT / "scenarios" / "hdlc_nrm.toml"
NRM_OVERRIDES: dict[str, Any] = {
    "traffic.a": {"kind": "poisson", "load": 0.2, "length": {"dist": "constant", "mean_bits": 2000}},
    "traffic.b": {"kind": "poisson", "load": 0.2, "length": {"dist": "constant", "mean_bits": 2000}},
    "protocol.poll": "idle",
    "title": "HDLC NRM poll cycle, Poisson load 0.2 both ways",
}
SEARCH = (20.0, 40.0)


def rej_window() -> tuple[float, float]:
    """A window around the first REJ sent after SEARCH[0]."""
    data = flights(REJ_SCENARIO, *SEARCH, overrides=REJ_OVERRIDES)
    rej = next(f for f in data["flights"] if f["frame"]["kind"] == "REJ")
    return round(rej["sent_s"] - 0.35, 3), round(rej["sent_s"] + 0.7, 3)


def poll_window() -> tuple[float, float]:
    """From the first poll after SEARCH[0] to the poll after the secondary's final."""
    data = flights(NRM_SCENARIO, *SEARCH, overrides=NRM_OVERRIDES)
    polls = [f for f in data["flights"] if f["sender"] == "A" and f["frame"]["pf"]]
    first = polls[0]
    final = next(f for f in data["flights"]
                 if f["sender"] == "B" and f["frame"]["pf"] and f["sent_s"] > first["sent_s"])
    after = next(p for p in polls if p["sent_s"] > final["sent_s"])
    return round(first["sent_s"] - 0.01, 3), round(after["sent_s"] + 0.01, 3)


def build(out: Path) -> list[Path]:
    written = []
    start, end = rej_window()
    written.append(save(ladder(REJ_SCENARIO, start, end, overrides=REJ_OVERRIDES), out / "hdlc-rej-recovery.svg"))
    start, end = poll_window()
    written.append(save(ladder(NRM_SCENARIO, start, end, overrides=NRM_OVERRIDES), out / "hdlc-nrm-poll-cycle.svg"))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "models" / "img")
    args = parser.parse_args()
    for p in build(args.out):
        print(f"wrote {p}")


if __name__ == "__main__":
    main()
