"""A static HTML report of the result store: studies, sweeps, figures, claims, scenarios.

``build_report(store, out_dir)`` writes ``index.html``, one page per study and one per
sweep or figure, each figure's PNG and CSV next to its page. Pages link to each other with
relative paths, carry their CSS inline and load nothing from the network, so the folder
opens from the file system and can be zipped and mailed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arqlab.errors import ArqlabError
from arqlab.outputs import replaced_atomically, writable_dir
from arqlab.store import Claim, Store, StudyInfo, SweepInfo, current_version

DEFAULT_REPORT_DIR = Path("arqlab-results") / "report"
FULL_TABLE_ROW_LIMIT = 2000

TEMPLATES = Path(__file__).parent / "templates" / "report"
"""Jinja2 templates of the pages (autoescaping on: every value is escaped unless a
template says otherwise, and none does)."""

# Verdict words (whole words at the start), by meaning. Bad is checked first, so "does not hold" is bad although
# it contains "hold", and "not reproduced" is bad although it contains "reproduced".
_BAD = ("does not hold", "not reproduced", "disagree", "disagrees", "refuted", "fails", "failed", "contradicted",
        "no", "false")
_MIXED = ("partly", "partial", "partially", "mixed", "inconclusive", "within")
_GOOD = ("holds", "hold", "agree", "agrees", "confirmed", "reproduced", "pass", "yes", "true", "ok")
_MARKS = {"v-good": "✓", "v-bad": "✗", "v-mixed": "~", "v-other": "?"}


def verdict_class(verdict: str) -> str:
    """CSS class of a verdict: v-good, v-bad, v-mixed or v-other."""
    v = verdict.strip().lower()
    for words, cls in ((_BAD, "v-bad"), (_MIXED, "v-mixed"), (_GOOD, "v-good")):
        if re.match(r"(?:%s)\b" % "|".join(map(re.escape, words)), v):
            return cls
    return "v-other"


def verdict_mark(verdict: str) -> str:
    """A symbol that tells the verdict classes apart without colour (✓ ✗ ~ ?)."""
    return _MARKS[verdict_class(verdict)]


_ORIGINS = {"paper": "paper", "extrapolation": "arqlab extrapolation", "inference": "arqlab inference",
            "model check": "arqlab model check"}


def origin_label(origin: str) -> str:
    """Whose statement a claim is, as the report says it: "paper", "arqlab extrapolation"
    (the paper says it of another figure), "arqlab inference" (not the paper's claim),
    "arqlab model check" (the model against its own closed form)."""
    return _ORIGINS.get(origin, origin)


def figure_order(figure: str) -> tuple[Any, ...]:
    """Natural order of figure labels: 2, 3, …, 10, 11 (not 10, 11, 2)."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", figure) if part)


def slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return s[:60] or "item"


def scenario_text(resolved: Mapping[str, Any]) -> str:
    """The scenario as TOML (as ``arqlab check`` prints it); JSON if TOML cannot hold it."""
    from arqlab import scenario as scenario_mod

    try:
        return str(scenario_mod.to_toml(resolved))
    except (TypeError, ValueError):
        return json.dumps(resolved, indent=2, sort_keys=True)


# --------------------------------------------------------------------------- pages
def _env() -> Any:
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters.update(fmt=_fmt_num, verdict_class=verdict_class, verdict_mark=verdict_mark,
                       origin_label=origin_label)
    env.tests["number_cell"] = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
    env.globals["css"] = (TEMPLATES / "report.css").read_text(encoding="utf-8")
    return env


def _fmt_time(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def _fmt_num(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return "—"
        return f"{value:.6g}"
    return str(value)


@dataclass(frozen=True)
class _SweepFiles:
    page: str
    png: str | None
    csv: str


def _sweep_files(sweep: SweepInfo) -> _SweepFiles:
    base = f"sweep-{sweep.id}-{slug(sweep.name)}"
    return _SweepFiles(page=f"{base}.html", png=f"{base}.png", csv=f"{base}.csv")


def _sweep_plot(sweep: SweepInfo) -> bytes | None:
    if sweep.plot_png:
        return bytes(sweep.plot_png)
    cols = set(sweep.columns)
    keys = [k for k, _ in sweep.grid if k in cols]
    if not keys or not {"measure", "direction", "mean", "ci95_half_width"} <= cols or not sweep.rows:
        return None
    from arqlab.sweep import plot_sweep

    measures = [m for m in sweep.measures if m in {r[sweep.columns.index("measure")] for r in sweep.rows}]
    return plot_sweep(sweep.table(), keys, measures=measures or None, title=sweep.title or sweep.name)


#: Columns of a result table that are statistics or bookkeeping, not a row's identity
#: (a study figure's plotted value, its normalisation and capacity check included).
NOT_IDENTIFYING = frozenset({"direction", "measure", "mean", "ci95_half_width", "n", "precision_reached",
                             "scenario_hash", "figure", "run", "norm", "y", "rel_half_width", "capacity",
                             "steady_state"})


def _identifying(column: str) -> bool:
    return column not in NOT_IDENTIFYING and not column.endswith("_ci95_half_width")


def _summary_table(sweep: SweepInfo) -> dict[str, Any]:
    df = sweep.table()
    cols = set(df.columns)
    if not {"measure", "direction", "mean", "ci95_half_width"} <= cols:
        return {"columns": list(df.columns), "rows": list(df.itertuples(index=False, name=None))}
    # The columns that say which row is which: a sweep's grid keys, a study figure's
    # curve, label, variant and x (whatever is not a statistic or bookkeeping).
    keys = [k for k, _ in sweep.grid if k in cols] or [
        c for c in df.columns if _identifying(c) and df[c].map(lambda v: v not in ("", None)).any()]
    shown = df[df["measure"].isin(sweep.measures)] if sweep.measures else df
    columns = [*keys, "direction", "measure", "mean", "± 95% CI", "n"]
    extra = [c for c in ("precision_reached",) if c in cols and shown[c].notna().any()]
    # A normalised figure plots y = mean / norm: shown beside the mean.
    plotted = [c for c in ("y", "y_ci95_half_width") if {"norm", c} <= cols and (shown["norm"] != 1).any()]
    columns += [{"y": "plotted y", "y_ci95_half_width": "± 95% CI (y)"}[c] for c in plotted]
    columns += [c.replace("_", " ") for c in extra]
    rows = [[*(r[k] for k in keys), r["direction"], r["measure"], r["mean"], r["ci95_half_width"], r.get("n"),
             *(r[c] for c in plotted), *(r[c] for c in extra)] for r in shown.to_dict(orient="records")]
    return {"columns": columns, "rows": rows}


def _sweep_page(env: Any, sweep: SweepInfo, files: _SweepFiles, has_png: bool, claims: Sequence[Claim]) -> str:
    crumbs: list[tuple[str, str]] = [("index", "index.html")]
    if sweep.study:
        crumbs.append((sweep.study, f"study-{slug(sweep.study)}.html"))
    heading = sweep.title or sweep.name
    sub = " · ".join(s for s in (sweep.study and f"study {sweep.study}", sweep.figure and f"figure {sweep.figure}") if s)
    if sweep.replications is not None:
        replications = str(sweep.replications)
    elif sweep.precision is not None:
        replications = f"sequential, ±{sweep.precision:g} relative"
    else:
        replications = "from the scenario"
    df = sweep.table()
    points = [
        [", ".join(f"{k}={_fmt_num(v)}" for k, v in (p.get("params") or {}).items()),
         str(p.get("hash", ""))[:16], p.get("n"), p.get("precision_reached")]
        for p in sweep.points
    ]
    return str(env.get_template("sweep.html").render(
        title=f"{heading} — arqlab", crumbs=crumbs, heading=heading, sub=sub, sweep=sweep, files=files,
        replications=replications, recorded=_fmt_time(sweep.created),
        grid=[(k, ", ".join(_fmt_num(v) for v in vs)) for k, vs in sweep.grid],
        png=files.png if has_png else None, claims=claims, summary=_summary_table(sweep),
        full={"total": len(df), "columns": list(df.columns),
              "rows": list(df.head(FULL_TABLE_ROW_LIMIT).itertuples(index=False, name=None))},
        points=points, scenario=scenario_text(sweep.base_scenario) if sweep.base_scenario else "",
    ))


def _card(sweep: SweepInfo, files: _SweepFiles, has_png: bool) -> dict[str, Any]:
    return {
        "page": files.page, "png": files.png if has_png else None, "name": sweep.name,
        "title": sweep.title or sweep.name, "version": sweep.version, "created": _fmt_time(sweep.created),
        "label": f"figure {sweep.figure}" if sweep.figure else f"{len(sweep.points)} points",
    }


def build_report(store: Store | str | os.PathLike[str] | None = None,
                 out_dir: str | os.PathLike[str] | None = None) -> Path:
    """Write the report; returns the path of ``index.html``."""
    own = not isinstance(store, Store)
    target = writable_dir(out_dir if out_dir is not None else DEFAULT_REPORT_DIR, "--out")
    s = store if isinstance(store, Store) else Store(store, readonly=True)
    try:
        return _build(s, target)
    finally:
        if own:
            s.close()


def _write(path: Path, data: str | bytes) -> None:
    """Each report file replaced in one step: an interrupted rebuild leaves the previous
    report's file whole."""
    with replaced_atomically(path, "report --out") as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding="utf-8")


def _build(store: Store, out: Path) -> Path:
    env = _env()
    sweeps = sorted(store.sweeps(), key=lambda w: (w.study, figure_order(w.figure), w.created))
    claims = store.claims()
    studies = {s.name: s for s in store.studies()}
    for name in [s.study for s in sweeps if s.study] + [c.study for c in claims]:
        if name not in studies:
            studies[name] = StudyInfo(name=name, title=name, citation="", description="", version="", created=0.0)

    cards_by_study: dict[str, list[dict[str, Any]]] = {}
    loose_cards: list[dict[str, Any]] = []
    for sweep in sweeps:
        files = _sweep_files(sweep)
        png = _sweep_plot(sweep)
        if png is not None and files.png:
            _write(out / files.png, png)
        _write(out / files.csv, sweep.table().to_csv(index=False))
        fig_claims = [c for c in claims if c.study == sweep.study and sweep.figure and c.figure == sweep.figure]
        _write(out / files.page, _sweep_page(env, sweep, files, png is not None, fig_claims))
        card = _card(sweep, files, png is not None)
        (cards_by_study.setdefault(sweep.study, []) if sweep.study else loose_cards).append(card)

    study_rows = []
    for name, study in sorted(studies.items()):
        study_claims = sorted((c for c in claims if c.study == name), key=lambda c: figure_order(c.figure))
        page = f"study-{slug(name)}.html"
        _write(out / page, env.get_template("study.html").render(
            title=f"{study.title} — arqlab", crumbs=[("index", "index.html")], study=study,
            cards=cards_by_study.get(name, []), claims=study_claims))
        # The paper's own claims are counted apart from arqlab's extrapolations and inferences.
        counts: dict[str, dict[str, int]] = {}
        for c in study_claims:
            group = counts.setdefault("" if c.origin in ("", "paper") else origin_label(c.origin), {})
            group[c.verdict] = group.get(c.verdict, 0) + 1
        study_rows.append({"page": page, "title": study.title, "citation": study.citation,
                           "figures": len(cards_by_study.get(name, [])), "counts": [(g, sorted(counts[g].items())) for g in sorted(counts)]})

    entries = store.ls()
    stored = None
    if entries:
        stored = {"total": sum(e["replications"] for e in entries),
                  "current": sum(e["replications"] for e in entries if e["version"] == store.version),
                  "scenarios": len({e["hash"] for e in entries})}
    index = out / "index.html"
    _write(index, env.get_template("index.html").render(
        title="arqlab results", crumbs=[], store_path=str(store.path), version=current_version(),
        generated=_fmt_time(time.time()), studies=study_rows, cards=loose_cards, stored=stored))
    return index


# --------------------------------------------------------------------------- CLI
def register_cli(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``arqlab report``."""
    p = subparsers.add_parser("report", help="build a static HTML report from the result store")
    p.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or "
                   "arqlab-results/store.sqlite)")
    p.add_argument("--out", metavar="DIR", help=f"output folder (default {DEFAULT_REPORT_DIR})")
    p.add_argument("--quiet", action="store_true", help="do not print where the report was written")
    p.set_defaults(handler=report_command)


def report_command(args: argparse.Namespace) -> int:
    """Handler of ``arqlab report``."""
    try:
        index = build_report(args.store, args.out)
    except ArqlabError as exc:
        for line in str(exc).splitlines() or ["error"]:
            print(f"arqlab report: error: {line}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(f"report written to {index}")
    return 0
