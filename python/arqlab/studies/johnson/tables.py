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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from ...design import Design, Factor, analyse, design
from ..artefacts.table import Table
from ..data import StudyData
from ..plan import RunRequest, RunSettings, plan_figure
from ..spec import Figure
from ..output import write_artefact
from ..verdicts import Est
from .params import CHANNEL_X, PAPER_CURVES, SESSION_CAP_S, VARIANT
from .scenarios import CLIENT
from .published import CAPPED_CELLS, CHANNELS, EFFECTS_TABLES, LATENCY_TABLES, PROTOCOLS, EffectsTable

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


#: Per-replication message throughputs of the cells, ``(figure, curve, x) -> values``
#: (replication order: common random numbers across cells).
Reps = Mapping[tuple[int, str, float], Sequence[float]]


def _thr(data: StudyData, reps: Reps | None, fig: int, variant: str, channel: str) -> list[float]:
    x = X_OF[channel]
    if reps is not None:
        return list(reps[(fig, variant, x)])
    return [data[fig].est(variant, x).mean]


def observation(data: StudyData, table_id: str, run: dict[str, int], reps: Reps | None = None) -> list[float]:
    """The throughputs (bit/s) of one run of the table's design: its replications, or
    the cell's mean when ``reps`` is None."""
    v = VARIANT[(run["A"] > 0, run["B"] > 0, run["C"] > 0)]
    d = run.get("D", 0)
    if table_id in ("table4", "table9"):
        return _thr(data, reps, 1, v, CHANNELS[0])
    if table_id in ("table5", "table10"):
        return _thr(data, reps, 1, v, CHANNELS[1])
    if table_id == "table3":
        return _thr(data, reps, 1, v, CHANNELS[0] if d > 0 else CHANNELS[1])
    if table_id == "table6":
        if d > 0:  # Stable SNR: the mean of the two stable channels, replication by replication
            hi, lo = _thr(data, reps, 1, v, CHANNELS[0]), _thr(data, reps, 1, v, CHANNELS[1])
            n = min(len(hi), len(lo))
            return [(a + b) / 2 for a, b in zip(hi[:n], lo[:n], strict=True)]
        return _thr(data, reps, 1, v, CHANNELS[2])
    channel = CHANNELS[0] if table_id == "table7" else CHANNELS[1]
    return _thr(data, reps, 2 if d > 0 else 1, v, channel)


def effects(data: StudyData, table_id: str, reps: Reps | None = None) -> pd.DataFrame:
    """The effects table (``arqlab.design.analyse`` columns) of one of Tables 3–10: on
    the replications (effects with CIs, an ``error`` row) when ``reps`` is given, else
    on the cells' means (one observation per cell, as the paper)."""
    des = table_design(table_id)
    obs = [observation(data, table_id, r, reps) for r in des.runs()]
    # The sequential rule stops each cell at its own count; replication i of every cell
    # shares its random streams (common random numbers), so the first n, n the smallest
    # count, are the balanced, paired design a fixed-n pass would run.
    n = min(len(o) for o in obs)
    return analyse(des, [o[:n] for o in obs], response="message_throughput_bps")


def common_replications(data: StudyData, table_id: str, reps: Reps) -> int:
    """The replications the effects of ``table_id`` are computed on (every cell's first)."""
    des = table_design(table_id)
    return min(len(observation(data, table_id, r, reps)) for r in des.runs())


@dataclass(frozen=True)
class EffectRow:
    label: str
    word: str
    published_percent: float | None
    published_sign: int | None
    percent: float
    sign: int
    #: The effect q (bit/s) and its 95 % CI (NaN without replications).
    q: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan
    #: The share on the replications, the error's sum of squares in the total.
    rep_percent: float = math.nan


def _row(label: str, word: str, pub: float | None, pub_sign: int | None, r: Any) -> EffectRow:
    q = float(r["q"])
    return EffectRow(label, word, pub, pub_sign, float(r["variation_pct"]), 1 if q >= 0 else -1, q,
                     float(r["ci_low"]), float(r["ci_high"]))


def compare(data: StudyData, table: EffectsTable, reps: Reps | None = None) -> list[EffectRow]:
    """Every published row of ``table`` beside ours, then our remaining effects. The
    share is the paper's statistic (q² / Σq² on the cells' means, as ``percent`` and the
    claims); with replications, q's CI and the share with the error in the total
    (``rep_percent``, and an ``error`` row) come from every cell's first n."""
    means = effects(data, table.id).set_index("effect", drop=False)
    reps_frame = effects(data, table.id, reps).set_index("effect", drop=False) if reps is not None else None
    words: list[tuple[str, str, float | None, int | None]] = [(e.factor, effect_word(e.factor), e.percent, e.sign) for e in table.effects]
    seen = {w for _, w, _, _ in words}
    extra = reps_frame if reps_frame is not None else means
    words += [(str(r["label"]), str(w), None, None) for w, r in extra.iterrows() if w != "I" and w not in seen]
    rows: list[EffectRow] = []
    for label, w, pub, pub_sign in words:
        r = reps_frame.loc[w] if reps_frame is not None else means.loc[w]
        row = _row(label, w, pub, pub_sign, r)
        if reps_frame is not None:
            m = means.loc[w] if w in means.index else None
            share = math.nan if m is None else float(m["variation_pct"])
            sign = row.sign if m is None else (1 if float(m["q"]) >= 0 else -1)
            row = replace(row, percent=share, sign=sign, rep_percent=float(r["variation_pct"]))
        rows.append(row)
    return rows


def percent(data: StudyData, table_id: str, label: str) -> tuple[float, int]:
    """Our share of variation (%) and sign of the effect named by a paper label (on the
    cells' means: the claims see the figures' data)."""
    frame = effects(data, table_id).set_index("effect")
    w = effect_word(label)
    return float(frame.loc[w, "variation_pct"]), 1 if float(frame.loc[w, "q"]) >= 0 else -1


def replication_values(figures: Sequence[Figure], settings: RunSettings, *, workers: int | None = None,
                       executor: Any = None, store: Any = None) -> dict[tuple[int, str, float], list[float]]:
    """Every replication's message throughput (key ``(figure, curve, x)``) and session
    latency (key ``(figure, curve + ".latency", x)``) of the figures' cells, each run once
    through the same execution layer and store as the reproduction (with a store: read
    back, not rerun)."""
    from ... import scenario as scenario_mod
    from ...execution import PointSpec, run_points_detailed
    from ...results import observations

    wanted = ("message_throughput_bps", "session_latency_s")
    cells: list[tuple[tuple[int, str, float], str, str]] = []
    requests: dict[str, RunRequest] = {}
    for fig in figures:
        points, runs, _ = plan_figure(fig, settings)
        for p in points:
            if p.variant == "" and p.measure in wanted:
                cells.append(((fig.number, p.curve, p.x), p.run, p.measure))
                requests.setdefault(p.run, runs[p.run])
    specs = [PointSpec(resolved=scenario_mod.load(r.scenario), seed=r.seed, replications=r.replications,
                       precision=r.precision) for r in requests.values()]
    if executor is None:
        executor = "serial" if workers == 1 else "local"
    outcomes = run_points_detailed(specs, executor=executor, workers=workers, store=store, keep_records=True)
    obs = {key: observations(o.records) for key, o in zip(requests, outcomes, strict=True)}
    return {cell: obs[run][(CLIENT, measure)] for cell, run, measure in cells}


def single_run_range(values: Sequence[float]) -> tuple[float, float]:
    """Where one more replication (the paper ran one per cell) falls with 95 %
    probability: with 40 replications or more, their 2.5th and 97.5th percentiles (the
    transition cells' latencies are skewed); with fewer, the normal prediction interval
    mean ± t(0.975, n − 1) · s · √(1 + 1/n), cut at 0 (a latency is positive)."""
    import numpy as np
    from scipy import stats

    xs = np.asarray(values, dtype=float)
    n = len(xs)
    if n >= 40:
        lo, hi = np.percentile(xs, [2.5, 97.5])
        return float(lo), float(hi)
    h = float(stats.t.ppf(0.975, n - 1)) * float(xs.std(ddof=1)) * math.sqrt(1 + 1 / n)
    return max(0.0, float(xs.mean()) - h), float(xs.mean()) + h


def single_run_lines(n: int, reps: Reps) -> list[str]:
    """Table ``n`` (1 or 2): each cell's single-run 95 % range beside the paper's single
    run, and how many of the paper's cells fall inside (a capped cell, Table 1's 5066-1s
    2000 s, when the range reaches the cap)."""
    t = LATENCY_TABLES[n - 1]
    lines = ["Single-run 95 % range (where one replication, as the paper ran, falls: the 2.5th-97.5th "
             "percentiles of the replications' mean latencies from 40 replications, else the normal prediction "
             "interval) vs the paper's single run:", "",
             "| protocol | " + " | ".join(CHANNELS) + " |", "|---|" + "---|" * len(CHANNELS)]
    inside = 0
    for p in PROTOCOLS:
        row = []
        for c in CHANNELS:
            values = reps[(n, f"{PAPER_CURVES[p]}.latency", X_OF[c])]
            lo, hi = single_run_range(values)
            pub = dict(t.values)[(p, c)]
            capped = (t.id, p, c) in CAPPED_CELLS  # the paper's value is a cap: at least pub
            ok = hi >= pub if capped else lo <= pub <= hi
            inside += ok
            shown = f"≥ {pub:g}, a cap" if capped else f"{pub:g}"
            row.append(f"{lo:.0f}–{hi:.0f} ({shown}{'' if ok else '; outside'}; n = {len(values)})")
        lines.append(f"| {p} | " + " | ".join(row) + " |")
    return lines + ["", f"The paper's value lies in the single-run range in {inside} of {len(PROTOCOLS) * len(CHANNELS)} cells.", ""]


def latency(data: StudyData, fig: int, protocol: str, channel: str) -> Est:
    return data[fig].est(f"{PAPER_CURVES[protocol]}.latency", X_OF[channel])


def latency_table(data: StudyData, n: int) -> Table:
    """Table 1 (SMTP/TCP, from Figure 1's runs) or 2 (HMTP, Figure 2): mean session
    latency per protocol × channel with its CI, beside the published value."""
    t = LATENCY_TABLES[n - 1]
    cells = {(p, c): latency(data, n, p, c) for p in PROTOCOLS for c in CHANNELS}
    return Table(t.id, t.title, PROTOCOLS, CHANNELS, cells, dict(t.values), unit=t.unit)


def censored(data: StudyData, fig: int) -> tuple[int, int]:
    """Replications of Figure ``fig`` (Tables 1, 2) whose session in progress at the cap
    was cut (``sessions_censored``), and the replications in all: sessions start during
    the hour and run to their end, so any cut session is one the cap cut short."""
    cut = runs = 0
    for v in PAPER_CURVES.values():
        for x in X_OF.values():
            e = data[fig].est(f"{v}.censored", x)
            if e.n:
                cut += round(e.mean * e.n)
                runs += e.n
    return cut, runs


def _sign(s: int | None) -> str:
    return "" if s is None else ("+" if s > 0 else "−")


def _pct(p: float | None) -> str:
    return "—" if p is None or math.isnan(p) else f"{p:.0f} %"


def render(data: StudyData, tables: list[int], reps: Reps | None = None) -> tuple[str, pd.DataFrame]:
    """Markdown of the chosen tables and one tidy frame of every number in them."""
    lines: list[str] = []
    rows: list[dict[str, Any]] = []
    for n in tables:
        if n in (1, 2):
            if n not in data:
                continue
            t = latency_table(data, n)
            cut, runs = censored(data, n)
            lines += [f"## Table {n}: {t.title} — ours (mean ± 95 % CI) vs published (in parentheses)", "",
                      t.to_markdown(digits=4), "",
                      f"Sessions started during the hour and run to their end; sessions cut by the "
                      f"{SESSION_CAP_S / 3600:g} h cap (in no mean): {cut} in {runs} replications.", ""]
            if reps is not None and (n, f"{PAPER_CURVES[PROTOCOLS[0]]}.latency", X_OF[CHANNELS[0]]) in reps:
                lines += single_run_lines(n, reps)
            rows += [{"table": n, "row": r.row, "column": r.column, "ours": r.mean, "ours_ci95_half_width": r.ci95_half_width,
                      "published": r.published, "unit": "s"} for r in t.to_frame().itertuples(index=False)]
            continue
        need = TABLE_FIGURES[n]
        if any(f not in data for f in need):
            continue
        if n <= 8:
            et = EFFECTS_TABLES[n - 3]
            title, comp = et.title, compare(data, et, reps)
        else:
            channel = CHANNELS[0] if n == 9 else CHANNELS[1]
            title = f"Full 2^3 design, SMTP/TCP, {channel} (beyond the paper)"
            comp = compare(data, EffectsTable(f"table{n}", title, "", (), ""), reps)
        lines += [f"## Table {n}: {title} — % of variation, ours vs published", ""]
        if reps is not None:
            lines += [f"On the first {common_replications(data, f'table{n}', reps)} replications of every cell "
                      "(the fewest any cell of the table ran: a balanced, paired design).", ""]
        lines += ["Ours: the share of variation on the cells' means, q² / Σq² (the paper's statistic, "
                  "as the claims); q and its 95 % CI, and the share with the error in the total, on the "
                  "replications.", "",
                  "| effect | published | ours | effect q (bit/s), 95 % CI | share with error |", "|---|---|---|---|---|"]
        for r in comp:
            pub = f"{_pct(r.published_percent)} {_sign(r.published_sign)}" if r.published_percent is not None else "—"
            ci = "" if r.word == "error" else f"{r.q:+.1f}" + (f" [{r.ci_low:+.1f}, {r.ci_high:+.1f}]" if math.isfinite(r.ci_low) else "")
            sign = "" if r.word == "error" else _sign(r.sign)
            name = r.label if r.word == "error" else f"{r.label} ({r.word})"
            lines.append(f"| {name} | {pub} | {_pct(r.percent)} {sign} | {ci} | {_pct(r.rep_percent)} |")
            rows.append({"table": n, "row": r.label, "column": r.word, "ours": r.percent, "ours_ci95_half_width": math.nan,
                         "published": r.published_percent if r.published_percent is not None else math.nan,
                         "unit": "% of variation", "ours_sign": r.sign, "published_sign": r.published_sign,
                         "q": r.q, "q_ci_low": r.ci_low, "q_ci_high": r.ci_high, "ours_with_error": r.rep_percent})
        lines.append("")
    return "\n".join(lines), pd.DataFrame(rows)


def write_tables(data: StudyData, tables: list[int], out: Path, reps: Reps | None = None) -> list[Path]:
    """``tables.md``/``tables.csv`` (every chosen table) and, for Tables 1 and 2, the
    table artefact's own ``tableN.csv/.png/.svg`` (bars with CIs, published ticks)."""
    text, frame = render(data, tables, reps)
    md, csv = out / "tables.md", out / "tables.csv"
    md.write_text("# Johnson: tables, ours vs published\n\n" + text + "\n", encoding="utf-8")
    frame.to_csv(csv, index=False)
    files = [md, csv]
    for n in (1, 2):
        if n in tables and n in data:
            t = latency_table(data, n)
            files += write_artefact(t, out, f"table{n}", title=t.title)
    return files
