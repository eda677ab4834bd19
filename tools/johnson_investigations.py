#!/usr/bin/env python3
"""Reruns the sensitivity experiments behind docs/studies/johnson.md, "Deviations and
why": which modelling assumption makes the external 110B modem fast at 5 dB, and what
makes the stop-and-wait protocols slow at 25 dB. Each experiment changes one input (a
variant of a modem table, or an hf_arq key) of one cell of the study and prints the
measure it moves; nothing here is a fit to the paper.

Run from the repository root after ``make build``:
``.venv/bin/python tools/johnson_investigations.py [--out DIR] [--replications N]``
(a few seconds). Tables it prints are quoted in the doc.
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import hf_modem_tables as tables  # noqa: E402

sys.path.insert(0, str(ROOT / "python"))
import arqlab  # noqa: E402
from arqlab.studies.johnson import scenarios as johnson_scenarios  # noqa: E402
from arqlab.studies.overrides import to_toml  # noqa: E402
from arqlab.trace import trace  # noqa: E402

DATA = ROOT / "crates" / "arqlab" / "data" / "hf"
RATES = (75, 150, 300, 600, 1200, 2400, 3200, 4800, 6400, 8000, 9600)
PER_RE = re.compile(r"per = \[\n.*?\n\]", re.S)


def scenario(variant: str, x: float, modem: str, workload: str, replications: int, **arq: Any) -> str:
    """One cell of the study (channel x: 1 = 25 dB, 2 = 5 dB) with its modem table
    replaced by ``modem`` and extra ``hf_arq`` keys, as TOML."""
    tree = johnson_scenarios.tables(variant, workload, x, replications)
    tree["stack"]["s"]["layers"][-1].update(modem=modem, **arq)
    for lane in ("forward", "reverse"):
        tree["medium"][0][lane]["modem"] = modem
    return to_toml({"title": f"{variant} {workload} x={x}", **tree})


def variant_tables(out: Path) -> dict[str, str]:
    """The modem tables the experiments swap in, by name -> file."""
    files: dict[str, str] = {}
    # 75-300 bit/s only: the rate pair the paper's adaptive modem switched between.
    head, *modes = (DATA / "mil-std-188-110b.toml").read_text().split("\n[[mode]]")
    keep = [m for m in modes if re.search(r"bps = (75|150|300)\.0", m)]
    files["110b_upto300"] = str(out / "110b_upto300.toml")
    Path(files["110b_upto300"]).write_text(head + "".join("\n[[mode]]" + m for m in keep))
    # Independent bit errors after the decoder (burst = 1) instead of 5-bit error events.
    files["110b_burst1"] = str(out / "110b_burst1.toml")
    Path(files["110b_burst1"]).write_text(tables.table_110b(appendix_c=True, coded_burst=1.0))
    # A bound: the first 141B copy as good as two combined copies (rate 1/2).
    parts = (DATA / "mil-std-188-141b-appc.toml").read_text().split("\n[[mode]]")
    second = PER_RE.search(parts[2])
    assert second is not None
    parts[1] = PER_RE.sub(lambda _: second.group(0), parts[1])
    files["141b_copy1_as_copy2"] = str(out / "141b_copy1_as_copy2.toml")
    Path(files["141b_copy1_as_copy2"]).write_text("\n[[mode]]".join(parts))
    return files


def run(path: Path) -> dict[str, dict[str, float]]:
    """The means of every measure of the scenario in `path`."""
    metrics = arqlab.simulate(path).metrics
    return {scope: {k: v["mean"] for k, v in m.items()} for scope, m in metrics.items()}


def rates(path: Path) -> str:
    """Shares of the client's data packets per external-modem rate in replication 0,
    from the spacing of back-to-back 1728-bit packets in the trace."""
    df = trace(path, start_s=0.0, end_s=3600.0)
    sent = df[(df["event"] == "send") & (df["station"] == "client") & (df["kind"] == "DATA") & (df["bits"] == 1728)]
    times = sent["time_s"].tolist()
    c: collections.Counter[int] = collections.Counter()
    for a, b in zip(times, times[1:]):
        d = b - a
        rate = next((x for x in RATES if d > 0 and abs(1728 / d - x) < 0.02 * x), None)
        if rate is not None:
            c[rate] += 1
    n = sum(c.values()) or 1
    return ", ".join(f"{r}: {100 * k / n:.0f} %" for r, k in sorted(c.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("johnson-investigations"))
    ap.add_argument("--replications", type=int, default=10)
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    t = variant_tables(a.out)
    n = a.replications
    full = "mil-std-188-110b-75-9600"
    up = 2.0 * 0.1 / 0.9
    print("## 5066, long messages, stable 5 dB (throughput_bps, data-packet loss, rates used)\n")
    print("| input changed | bit/s | packets lost | rates (replication 0) |\n|---|---|---|---|")
    per_packet: dict[str, Any] = {"rate_adaptation": "per_packet", "snr_step_up_db": up}
    for label, modem, extra in (
        ("none (the study's 75–9600 table)", full, {}),
        ("rates 75–300 only", t["110b_upto300"], {}),
        ("independent bit errors (burst 1)", t["110b_burst1"], {}),
        ("target_per 0.01", full, {"target_per": 0.01}),
        ("per-packet rate rule (up 2/9 dB)", full, per_packet),
    ):
        p = a.out / f"long5_{re.sub(r'[^a-z0-9]+', '_', label.lower())[:30]}.toml"
        p.write_text(scenario("5066", 2.0, modem, "long", n, **extra))
        m = run(p)
        thr, fer = m["flow.client->server"]["throughput_bps"], m["link.hf.client->server"]["frame_error_ratio"]
        print(f"| {label} | {thr:.0f} | {fer:.3f} | {rates(p)} |")
    print("\n## Stop-and-wait and HDL at 25 dB (mean session latency, s)\n")
    print("| cell | as the study | first 141B copy as good as two | per-packet rate rule |\n|---|---|---|---|")
    for variant, workload in (("hdl", "smtp"), ("hdl", "hmtp"), ("hdl-1d", "smtp"), ("hdl-1d", "hmtp"),
                              ("5066-1s", "hmtp")):
        integrated = variant.startswith("hdl")
        base = "mil-std-188-141b-appc" if integrated else full
        cells: list[str] = []
        # (modem table, extra hf_arq keys) per column; None: the column does not apply.
        columns: list[tuple[str | None, dict[str, Any]]] = [
            (base, {}), (t["141b_copy1_as_copy2"] if integrated else None, {}), (None if integrated else full, per_packet)]
        for table, extra in columns:
            if table is None:
                cells.append("—")
                continue
            p = a.out / f"s25_{variant}_{workload}_{len(cells)}.toml"
            p.write_text(scenario(variant, 1.0, table, workload, n, **extra))
            m = run(p)
            lat, fer = m["flow.client->server"]["session_latency_s"], m["link.hf.client->server"]["frame_error_ratio"]
            cells.append(f"{lat:.0f} (loss {fer:.2f})")
        print(f"| {variant} {workload} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
