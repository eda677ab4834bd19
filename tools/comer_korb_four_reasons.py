#!/usr/bin/env python3
"""§4's four reasons at one circuit under each TCP flavour (docs/studies/comer-korb.md,
"Revision 13"), read from a Fig. 3 pass's ``fig3.csv``: the one-circuit throughput, the
TCP/IP headers' share of the data datagrams (first reason), the segments re-sent and
timeouts (second), the data packets' fill (third) and, where the reading ran it, the
one-circuit throughput with T_N random (fourth: T_N varying within a transfer). Prints
a markdown table. 4.2BSD is the primary curve, 6.2 the ``bsd42_6_2`` variant, Reno and
NewReno the hidden one-circuit curves (Reno's random T_N from the ``tcp_reno`` variant).

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

#: (flavour, variant, curve, variant and curve of its random-T_N transfer or None)
READINGS = (("4.2BSD (6.1, primary)", "", "tcp", ("", "random")),
            ("4.2BSD 6.2 (timed from tcp_output)", "bsd42_6_2", "tcp", ("bsd42_6_2", "random")),
            ("Reno", "", "reno", ("tcp_reno", "random")),
            ("NewReno", "", "newreno", None))


def main() -> int:
    frame = pd.read_csv(sys.argv[1], keep_default_na=False, na_values=[""])
    frame["variant"] = frame["variant"].fillna("").astype(str)
    base = FigureData(figure(3), frame)
    print("| TCP | one circuit, bit/s | 1: headers, % of data-datagram octets | 2: re-sent, % of segments "
          "(timeouts) | 3: data packets' fill, % | 4: T_N random ±50 %, bit/s (vs constant) |")
    print("|---|---|---|---|---|---|")
    for name, variant, curve, random in READINGS:
        fd = base.with_variant(variant) if variant else base
        one = fd.est(curve, 1.0)
        counters = cl._data_counters(fd, curve)
        if counters is None:
            print(f"| {name} | {one} | not measured | | | |")
            continue
        seg, _, packets, octets = counters
        retx = cl.retx_share(fd, curve, 1.0)
        timeouts = fd.est(f"{curve}.tcp_timeouts", 1.0)
        if random is None:
            fourth = "not run"
        else:
            r = (base.with_variant(random[0]) if random[0] else base).est(random[1], 1.0)
            fourth = f"{r.mean:.0f} ± {r.half:.0f} ({100 * (r.mean / one.mean - 1):+.1f} %)"
        print(f"| {name} | {one.mean:.0f} ± {one.half:.0f} | {100 * seg * HEADER_OCTETS / octets:.1f} | "
              f"{100 * retx.mean:.1f} ± {100 * retx.half:.1f} ({timeouts.mean:.1f}) | "
              f"{100 * octets / (PACKET_OCTETS * packets):.1f} | {fourth} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
