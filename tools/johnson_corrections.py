#!/usr/bin/env python3
"""Measures the second reading's model corrections of the Johnson study one at a time
(docs/studies/johnson.md, "Second reading"), and the ablations of the TCP-over-HDL gap
at 5 dB. Each column adds one correction to the previous one; nothing is fitted.

Columns of Tables 1 and 2 (mean session latency, s):

* ``1+2``: a TCP connection per session (SYN ... FIN) and HMTP's one write per batch,
  with the standard's 110B table and BW2 bursts of any size (the state before 3 and 4);
* ``+3``: BW2 bursts of 3, 6, 12 or 24 slots;
* ``+4``: the external modem calibrated to the paper's 5 dB statement (the study).

Corrections 1 and 2 are in the code (no switch): 1 moves only SMTP cells, 2 only HMTP
cells, so main's full-pass numbers (the doc's "before") against ``1+2`` give each.

Run from the repository root after ``make build``:
``.venv/bin/python tools/johnson_corrections.py [--out DIR] [--replications N] [--part tables|gap]``.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from johnson_investigations import DATA, run  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))
from arqlab.studies.johnson import scenarios as johnson_scenarios  # noqa: E402
from arqlab.studies.overrides import to_toml  # noqa: E402

STANDARD_110B = "mil-std-188-110b-75-9600"
CALIBRATED_110B = "mil-std-188-110b-johnson"
BW2 = "mil-std-188-141b-appc"
CHANNELS = {1.0: "25 dB", 2.0: "5 dB", 3.0: "transition"}
VARIANTS = ("hdl", "hdl-1d", "5066", "5066-1s")


def unpadded_bw2(out: Path) -> str:
    """The 141B table without its burst sizes (BW2 bursts of any number of packets)."""
    path = out / "141b_any_burst.toml"
    path.write_text(re.sub(r"^burst_packets = .*\n", "", (DATA / f"{BW2}.toml").read_text(), flags=re.M))
    return str(path)


def cell(variant: str, workload: str, x: float, n: int, modems: tuple[str, str], tcp: dict[str, Any] | None = None,
         layers: str = "default") -> str:
    """One cell as TOML: ``modems`` = (external, integrated) table; ``tcp``: extra TCP
    keys; ``layers = "no_tcp"`` runs the workload's script directly over the ARQ."""
    tree = johnson_scenarios.tables(variant, workload, x, n)
    modem = modems[1] if johnson_scenarios.integrated(variant) else modems[0]
    stack = tree["stack"]["s"]["layers"]
    stack[-1]["modem"] = modem
    for lane in ("forward", "reverse"):
        tree["medium"][0][lane]["modem"] = modem
    if tcp and stack[0]["kind"] == "tcp":
        stack[0].update(tcp)
    if layers == "no_tcp":
        tree["stack"]["s"]["layers"] = stack[-1:]
    return to_toml({"title": f"{variant} {workload} x={x}", **tree})


def measure(out: Path, name: str, text: str) -> dict[str, dict[str, float]]:
    p = out / f"{name}.toml"
    p.write_text(text)
    return run(p)


def tables(out: Path, n: int) -> None:
    any_burst = unpadded_bw2(out)
    configs = {"1+2": (STANDARD_110B, any_burst), "+3": (STANDARD_110B, BW2), "+4": (CALIBRATED_110B, BW2)}
    print(f"## Tables 1 and 2: mean session latency (s), {n} replications\n")
    print("| workload | protocol | channel | " + " | ".join(configs) + " |")
    print("|---|---|---|" + "---|" * len(configs))
    for workload in ("smtp", "hmtp"):
        for variant in VARIANTS:
            for x, ch in CHANNELS.items():
                row = []
                for label, modems in configs.items():
                    m = measure(out, f"{workload}_{variant}_{x}_{label}", cell(variant, workload, x, n, modems))
                    row.append(f"{m['flow.client->server']['session_latency_s']:.0f}")
                print(f"| {workload} | {variant} | {ch} | " + " | ".join(row) + " |", flush=True)
    print(f"\n## Long messages at 5 dB (throughput bit/s), {n} replications\n")
    print("| protocol | " + " | ".join(configs) + " |\n|---|" + "---|" * len(configs))
    for variant in ("5066", "hdl"):
        row = []
        for label, modems in configs.items():
            m = measure(out, f"long_{variant}_{label}", cell(variant, "long", 2.0, n, modems))
            row.append(f"{m['flow.client->server']['throughput_bps']:.0f}")
        print(f"| {variant} | " + " | ".join(row) + " |", flush=True)


def gap(out: Path, n: int) -> None:
    """HDL SMTP at 5 dB: the study's cell and its ablations."""
    modems = (CALIBRATED_110B, BW2)
    print(f"## HDL, SMTP, stable 5 dB: ablations, {n} replications\n")
    print("| variant | latency (s) | TCP timeouts / session | TCP segments re-sent / session | HF packets sent / new |")
    print("|---|---|---|---|---|")
    rows: list[tuple[str, dict[str, Any] | None, str]] = [
        ("the study (TCP, MSS 536, RFC 6298)", None, "default"),
        ("without TCP (the SMTP script over HDL)", None, "no_tcp"),
        ("MSS 1460", {"mss_octets": 1460, "receive_window_octets": 8760}, "default"),
        ("RTO floor 60 s (above the ARQ cycle)", {"min_rto_s": 60.0, "initial_rto_s": 60.0, "max_rto_s": 240.0}, "default"),
        ("RTO rule 2*SRTT (RFC 793)", {"rto": "rfc793"}, "default"),
    ]
    for label, tcp, layers in rows:
        m = measure(out, "gap_" + re.sub(r"[^a-z0-9]+", "_", label.lower())[:30], cell("hdl", "smtp", 2.0, n, modems, tcp, layers))
        f = m["flow.client->server"]
        sessions = f["sessions_completed"]
        # Both ends' counters (the transport scope sums the flow's two stacks).
        t = m["transport.flow.client->server"]
        to, rs = t.get("tcp_timeouts", 0.0) / sessions, t.get("tcp_segments_retransmitted", 0.0) / sessions
        ratio = t["hf_packets_sent"] / t["hf_packets_new"]
        print(f"| {label} | {f['session_latency_s']:.0f} | {to:.1f} | {rs:.1f} | {ratio:.2f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("johnson-corrections"))
    ap.add_argument("--replications", type=int, default=10)
    ap.add_argument("--part", choices=("tables", "gap", "all"), default="all")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    if a.part in ("tables", "all"):
        tables(a.out, a.replications)
    if a.part in ("gap", "all"):
        gap(a.out, a.replications)


if __name__ == "__main__":
    main()
