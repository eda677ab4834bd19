"""Tables 1 and 2 (mean session latency ± 95 % CI beside the published values) and the
effects tables: Tables 3–8 as the paper builds them and, beyond the paper, the full 2^3
design of the three features at 25 dB and at 5 dB (Tables 9 and 10), all computed by
:func:`arqlab.design.analyse` on the message throughput (40,000 bits / latency; see
:mod:`.published` for why the response is the throughput) of our runs.

The analysis takes each cell's mean over the replications as one observation (the
paper ran one replication per cell); the cells' own CIs are in Tables 1 and 2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ...design import Design, Factor, analyse, design
from ..artefacts.table import Table
from ..data import StudyData
from ..output import write_artefact
from ..verdicts import Est
from .params import CHANNEL_X, PAPER_CURVES, VARIANT
from .published import CHANNELS, EFFECTS_TABLES, LATENCY_TABLES, PROTOCOLS, EffectsTable

FEATURES = (("A", "Selective Repeat"), ("B", "Integrated Modem"), ("C", "Duplex Client Data"))
X_OF = {name: x for x, (name, _, _) in CHANNEL_X.items()}
#: The paper's effect labels -> our factor letters (D: the table's fourth factor).
_ALIAS = {"SNR": "D", "High SNR": "D", "StableSNR": "D", "Stable SNR": "D", "Workload": "D", "Wireless Workload": "D",
          "Duplex Data": "C", "Duplex": "C", "Duplex Client Data": "C", "Integr Modem": "B", "IntModem": "B",
          "Integrated Modem": "B", "SelectRpt": "A", "Selective Repeat": "A"}
#: Which figures each table needs (``--table N`` runs them).
TABLE_FIGURES: dict[int, tuple[int, ...]] = {1: (1,), 2: (2,), 3: (1,), 4: (1,), 5: (1,), 6: (1,), 7: (1, 2), 8: (1, 2),
                                             9: (1,), 10: (1,)}


def effect_word(label: str) -> str:
    """``"SNR * Duplex Data"`` -> ``"CD"``."""
    return "".join(sorted(_ALIAS[part.strip()] for part in label.split("*")))


def _factor(name: str, label: str) -> Factor:
    return Factor(name, {"level": "no"}, {"level": "yes"}, label=label, level_names=("no", "yes"))


#: The fourth factor of Tables 3, 6, 7, 8: its label and what its ±1 levels mean.
FOURTH = {"table3": "High SNR", "table6": "Stable SNR", "table7": "Wireless Workload", "table8": "Wireless Workload"}


def table_design(table_id: str) -> Design:
    """Tables 3–8: the paper's half fraction C = −AB (its four protocols), with a full
    fourth factor D where the table has one; Tables 9–10: the full 2^3."""
    fs = [_factor(n, label) for n, label in FEATURES]
    if table_id in FOURTH:
        fs.append(_factor("D", FOURTH[table_id]))
    return design(fs, () if table_id in ("table9", "table10") else ("C=-AB",))


def _thr(data: StudyData, fig: int, variant: str, channel: str) -> float:
    return data[fig].est(variant, X_OF[channel]).mean


def observation(data: StudyData, table_id: str, run: dict[str, int]) -> float:
    """The throughput (bit/s) of one run of the table's design."""
    v = VARIANT[(run["A"] > 0, run["B"] > 0, run["C"] > 0)]
    d = run.get("D", 0)
    if table_id in ("table4", "table9"):
        return _thr(data, 1, v, CHANNELS[0])
    if table_id in ("table5", "table10"):
        return _thr(data, 1, v, CHANNELS[1])
    if table_id == "table3":
        return _thr(data, 1, v, CHANNELS[0] if d > 0 else CHANNELS[1])
    if table_id == "table6":
        if d > 0:  # Stable SNR: the mean of the two stable channels
            return (_thr(data, 1, v, CHANNELS[0]) + _thr(data, 1, v, CHANNELS[1])) / 2
        return _thr(data, 1, v, CHANNELS[2])
    channel = CHANNELS[0] if table_id == "table7" else CHANNELS[1]
    return _thr(data, 2 if d > 0 else 1, v, channel)


def effects(data: StudyData, table_id: str) -> pd.DataFrame:
    """The effects table (``arqlab.design.analyse`` columns) of one of Tables 3–10."""
    des = table_design(table_id)
    return analyse(des, [[observation(data, table_id, r)] for r in des.runs()], response="message_throughput_bps")


@dataclass(frozen=True)
class EffectRow:
    label: str
    word: str
    published_percent: float | None
    published_sign: int | None
    percent: float
    sign: int


def compare(data: StudyData, table: EffectsTable) -> list[EffectRow]:
    """Every published row of ``table`` beside ours, then our remaining effects."""
    frame = effects(data, table.id).set_index("effect")
    rows: list[EffectRow] = []
    seen: set[str] = set()
    for e in table.effects:
        w = effect_word(e.factor)
        seen.add(w)
        q = float(frame.loc[w, "q"])
        rows.append(EffectRow(e.factor, w, e.percent, e.sign, float(frame.loc[w, "variation_pct"]), 1 if q >= 0 else -1))
    for w, r in frame.iterrows():
        if w in ("I", "error") or w in seen:
            continue
        rows.append(EffectRow(str(r["label"]), str(w), None, None, float(r["variation_pct"]), 1 if r["q"] >= 0 else -1))
    return rows


def percent(data: StudyData, table_id: str, label: str) -> tuple[float, int]:
    """Our share of variation (%) and sign of the effect named by a paper label."""
    frame = effects(data, table_id).set_index("effect")
    w = effect_word(label)
    return float(frame.loc[w, "variation_pct"]), 1 if float(frame.loc[w, "q"]) >= 0 else -1


def latency(data: StudyData, fig: int, protocol: str, channel: str) -> Est:
    return data[fig].est(f"{PAPER_CURVES[protocol]}.latency", X_OF[channel])


def latency_table(data: StudyData, n: int) -> Table:
    """Table 1 (SMTP/TCP, from Figure 1's runs) or 2 (HMTP, Figure 2): mean session
    latency per protocol × channel with its CI, beside the published value."""
    t = LATENCY_TABLES[n - 1]
    cells = {(p, c): latency(data, n, p, c) for p in PROTOCOLS for c in CHANNELS}
    return Table(t.id, t.title, PROTOCOLS, CHANNELS, cells, dict(t.values), unit=t.unit)


def _sign(s: int | None) -> str:
    return "" if s is None else ("+" if s > 0 else "−")


def _pct(p: float | None) -> str:
    return "—" if p is None or math.isnan(p) else f"{p:.0f} %"


def render(data: StudyData, tables: list[int]) -> tuple[str, pd.DataFrame]:
    """Markdown of the chosen tables and one tidy frame of every number in them."""
    lines: list[str] = []
    rows: list[dict[str, Any]] = []
    for n in tables:
        if n in (1, 2):
            if n not in data:
                continue
            t = latency_table(data, n)
            lines += [f"## Table {n}: {t.title} — ours (mean ± 95 % CI) vs published (in parentheses)", "",
                      t.to_markdown(digits=4)]
            rows += [{"table": n, "row": r.row, "column": r.column, "ours": r.mean, "ours_ci95_half_width": r.ci95_half_width,
                      "published": r.published, "unit": "s"} for r in t.to_frame().itertuples(index=False)]
            continue
        need = TABLE_FIGURES[n]
        if any(f not in data for f in need):
            continue
        if n <= 8:
            et = EFFECTS_TABLES[n - 3]
            title, comp = et.title, compare(data, et)
        else:
            channel = CHANNELS[0] if n == 9 else CHANNELS[1]
            title = f"Full 2^3 design, SMTP/TCP, {channel} (beyond the paper)"
            frame = effects(data, f"table{n}")
            comp = [EffectRow(str(r["label"]), str(r["effect"]), None, None, float(r["variation_pct"]),
                              1 if r["q"] >= 0 else -1) for _, r in frame.iterrows() if r["effect"] not in ("I", "error")]
        lines += [f"## Table {n}: {title} — % of variation, ours vs published", "",
                  "| effect | published | ours |", "|---|---|---|"]
        for r in comp:
            pub = f"{_pct(r.published_percent)} {_sign(r.published_sign)}" if r.published_percent is not None else "—"
            lines.append(f"| {r.label} ({r.word}) | {pub} | {_pct(r.percent)} {_sign(r.sign)} |")
            rows.append({"table": n, "row": r.label, "column": r.word, "ours": r.percent, "ours_ci95_half_width": math.nan,
                         "published": r.published_percent if r.published_percent is not None else math.nan,
                         "unit": "% of variation", "ours_sign": r.sign, "published_sign": r.published_sign})
        lines.append("")
    return "\n".join(lines), pd.DataFrame(rows)


def write_tables(data: StudyData, tables: list[int], out: Path) -> list[Path]:
    """``tables.md``/``tables.csv`` (every chosen table) and, for Tables 1 and 2, the
    table artefact's own ``tableN.csv/.png/.svg`` (bars with CIs, published ticks)."""
    text, frame = render(data, tables)
    md, csv = out / "tables.md", out / "tables.csv"
    md.write_text("# Johnson: tables, ours vs published\n\n" + text + "\n", encoding="utf-8")
    frame.to_csv(csv, index=False)
    files = [md, csv]
    for n in (1, 2):
        if n in tables and n in data:
            t = latency_table(data, n)
            files += write_artefact(t, out, f"table{n}", title=t.title)
    return files
