#!/usr/bin/env python3
"""§4's four reasons at one circuit under each TCP flavour (docs/studies/comer-korb.md,
"Revision 14"), read from a Fig. 3 pass's ``fig3.csv``: the one-circuit throughput, the
TCP/IP headers' share of the data datagrams (first reason), the segments re-sent and
timeouts (second), the data packets' fill (third) and §4's fourth, "the network
throughput varies dramatically during the day": one circuit at the night and the day
T_N of Fig. 2's profile (an assumed input: the paper gives no T_N by hour) and their
ratio. An extra column, not one of the four reasons, gives one circuit with T_N random
within the transfer (uniform ± 50 % per packet, an assumed distribution) where the
reading ran it. Prints a markdown table. 4.2BSD is the primary curve, 6.2 the
``bsd42_6_2`` variant (its day extremes the ``bsd42_6_2.*`` curves), Reno and NewReno
the hidden one-circuit curves (Reno's random T_N from the ``tcp_reno`` variant).

``.venv/bin/python tools/comer_korb_four_reasons.py OUT/fig3.csv``
(OUT from ``arqlab reproduce comer-korb --figure 3 [--quick] --out OUT``).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
from arqlab.studies.artefacts.curves import FigureData  # noqa: E402
from arqlab.studies.comer_korb import claims as cl  # noqa: E402
from arqlab.studies.comer_korb import figure  # noqa: E402
from arqlab.studies.comer_korb.params import HEADER_OCTETS, PACKET_OCTETS  # noqa: E402

#: (flavour, variant, curve, prefix of its night/day curves, variant and curve of its
#: random-T_N transfer or None)
READINGS = (("4.2BSD (6.1, primary)", "", "tcp", "", ("", "random")),
            ("4.2BSD 6.2 (timed from tcp_output)", "bsd42_6_2", "tcp", "bsd42_6_2.", ("bsd42_6_2", "random")),
            ("Reno", "", "reno", "reno.", ("tcp_reno", "random")),
            ("NewReno", "", "newreno", "newreno.", None))


def main() -> int:
    frame = pd.read_csv(sys.argv[1], keep_default_na=False, na_values=[""])
    frame["variant"] = frame["variant"].fillna("").astype(str)
    base = FigureData(figure(3), frame)
    print("| TCP | one circuit, bit/s | 1: headers, % of data-datagram octets | 2: re-sent, % of segments "
          "(timeouts) | 3: data packets' fill, % | 4: the day's variation: night / day T_N of the assumed profile, "
          "bit/s (ratio) | extra: T_N random ± 50 % within the transfer (assumed distribution), bit/s (vs constant) |")
    print("|---|---|---|---|---|---|---|")
    for name, variant, curve, day_prefix, random in READINGS:
        fd = base.with_variant(variant) if variant else base
        one = fd.est(curve, 1.0)
        counters = cl._data_counters(fd, curve)
        if counters is None:
            print(f"| {name} | {one} | not measured | | | | |")
            continue
        seg, _, packets, octets = counters
        retx = cl.retx_share(fd, curve, 1.0)
        timeouts = fd.est(f"{curve}.tcp_timeouts", 1.0)
        night, day = (base.est(f"{day_prefix}{level}", 1.0) if base.has(f"{day_prefix}{level}") else None
                      for level in ("night", "day"))
        fourth = (f"{night.mean:.0f} ± {night.half:.0f} / {day.mean:.0f} ± {day.half:.0f} ({night.mean / day.mean:.2f})"
                  if night is not None and day is not None and night.valid and day.valid else "not run")
        if random is None:
            extra = "not run"
        else:
            r = (base.with_variant(random[0]) if random[0] else base).est(random[1], 1.0)
            extra = f"{r.mean:.0f} ± {r.half:.0f} ({100 * (r.mean / one.mean - 1):+.1f} %)"
        print(f"| {name} | {one.mean:.0f} ± {one.half:.0f} | {100 * seg * HEADER_OCTETS / octets:.1f} | "
              f"{100 * retx.mean:.1f} ± {100 * retx.half:.1f} ({timeouts.mean:.1f}) | "
              f"{100 * octets / (PACKET_OCTETS * packets):.1f} | {fourth} | {extra} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
