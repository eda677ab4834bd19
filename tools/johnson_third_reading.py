#!/usr/bin/env python3
"""Runs the sensitivities of the Johnson study's third reading, part B
(docs/studies/johnson.md, "Third reading, part B"): each sets one declared uncertain
input of ``arqlab.studies.johnson.params`` (the robustness analysis's "param:<NAME>"
targets) to another value and prints the cells it moves, beside the study's value and
the paper. Nothing is fitted.

* ``first_copy``: the integrated modem's first BW2 copy as good as two combined
  (``INTEGRATED_MODEM``), HDL and HDL-1d;
* ``staircase``: the external modem's staircase up step 0.1 dB instead of 1 dB
  (``BURST_STEP_UP_DB``), 5066 and 5066-1s;
* ``rates``: the external modem's rate shares on long messages at 5 dB (5066);
* ``cells --set NAME=VALUE [--variants hdl,5066]``: Tables 1 and 2's cells of those
  protocols with one parameter set (SMTP only if the parameter is TCP's);
* ``full --set NAME=VALUE``: a full pass (50 replications, seed 1, no store) with one
  parameter of ``params`` set, into ``DIR/full-NAME`` (claims.md, tables.md).

Run from the repository root after ``make build``:
``.venv/bin/python tools/johnson_third_reading.py PART [--replications N] [--out DIR]``.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from johnson_investigations import rates, run  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))
from arqlab.studies.johnson import params as P  # noqa: E402
from arqlab.studies.johnson import published  # noqa: E402
from arqlab.studies.johnson import scenarios  # noqa: E402
from arqlab.studies.overrides import to_toml  # noqa: E402

CHANNELS = {1.0: "25 dB", 2.0: "5 dB", 3.0: "transition"}
PAPER_NAME = {v: k for k, v in P.PAPER_CURVES.items()}


@contextmanager
def param(name: str, value: Any) -> Iterator[None]:
    old = getattr(P, name)
    setattr(P, name, value)
    try:
        yield
    finally:
        setattr(P, name, old)


def latency(out: Path, variant: str, workload: str, x: float, n: int, tag: str) -> float:
    path = out / f"{tag}-{variant}-{workload}-{x:g}.toml"
    path.write_text(to_toml({"title": f"{variant} {workload} x={x} ({tag})", **scenarios.tables(variant, workload, x, n)}))
    return run(path)[scenarios.CLIENT]["session_latency_s"]


def parse(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def compare(out: Path, n: int, variants: tuple[str, ...], name: str, value: Any, label: str,
            workloads: tuple[str, ...] = ("smtp", "hmtp")) -> None:
    print(f"| cell | paper | study ({name} = {getattr(P, name)!r}) | {label} |")
    print("|---|---|---|---|")
    for workload, table in (("smtp", published.TABLE_1), ("hmtp", published.TABLE_2)):
        if workload not in workloads:
            continue
        for v in variants:
            for x, ch in CHANNELS.items():
                base = latency(out, v, workload, x, n, "study")
                with param(name, value):
                    alt = latency(out, v, workload, x, n, name)
                paper = table.values[(PAPER_NAME[v], published.CHANNELS[int(x) - 1])]
                print(f"| {PAPER_NAME[v]} {workload.upper()} {ch} | {paper:g} | {base:.0f} | {alt:.0f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("first_copy", "staircase", "rates", "cells", "full"))
    ap.add_argument("--set", default="", help="NAME=VALUE (parts cells, full)")
    ap.add_argument("--variants", default="hdl,hdl-1d,5066,5066-1s", help="part cells")
    ap.add_argument("--out", type=Path, default=Path("johnson-third-reading"))
    ap.add_argument("--replications", type=int, default=5)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    if a.part == "first_copy":
        compare(a.out, a.replications, ("hdl", "hdl-1d"), "INTEGRATED_MODEM", P.FIRST_COPY_CODED_MODEM, "copy 1 as good as two")
    elif a.part == "staircase":
        compare(a.out, a.replications, ("5066", "5066-1s"), "BURST_STEP_UP_DB", 0.1, "up step 0.1 dB")
    elif a.part == "cells":
        name, _, text = a.set.partition("=")
        tcp = name in ("RTT_CACHE", "TCP_FLAVOUR", "MAX_RTO_S", "RECEIVE_WINDOW_OCTETS", "MSS_OCTETS", "RTO_RULE")
        compare(a.out, a.replications, tuple(a.variants.split(",")), name, parse(text), f"{name} = {text}",
                ("smtp",) if tcp else ("smtp", "hmtp"))
    elif a.part == "full":
        from arqlab.studies import johnson
        from arqlab.studies.robustness import study_params

        name, _, text = a.set.partition("=")
        value = parse(text)
        with study_params("arqlab.studies.johnson", {name: value}):
            johnson.reproduce(out_dir=a.out / f"full-{name}", quiet=True)
    else:
        path = a.out / "5066-long-5dB.toml"
        path.write_text(to_toml({"title": "5066 long messages, 5 dB", **scenarios.tables("5066", "long", 2.0, 1)}))
        print("5066, long messages, 5 dB, replication 0, data packets per rate:", rates(path))


if __name__ == "__main__":
    main()
