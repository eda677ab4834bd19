"""A static HTML report of the result store: studies, sweeps, figures, claims, scenarios.

``build_report(store, out_dir)`` writes ``index.html``, one page per study and one per
sweep or figure, each figure's PNG and CSV next to its page. Pages link to each other with
relative paths, carry their CSS inline and load nothing from the network, so the folder
opens from the file system and can be zipped and mailed.
"""

from __future__ import annotations

import argparse
import html
import json
import math
import os
import re
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arqlab.errors import ArqlabError
from arqlab.store import Claim, Store, StudyInfo, SweepInfo, current_version

DEFAULT_REPORT_DIR = Path("arqlab-results") / "report"
FULL_TABLE_ROW_LIMIT = 2000

CSS = """
:root { --fg:#1f2328; --muted:#57606a; --line:#d0d7de; --bg:#ffffff; --soft:#f6f8fa; --accent:#0969da; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: var(--fg); background: var(--bg); margin: 0; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 28px 64px; }
header.top { border-bottom: 1px solid var(--line); background: var(--soft); }
header.top div { max-width: 1080px; margin: 0 auto; padding: 10px 28px; color: var(--muted); font-size: 13px; }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
h1 { font-size: 26px; margin: 8px 0 4px; } h2 { font-size: 19px; margin: 32px 0 8px;
     border-bottom: 1px solid var(--line); padding-bottom: 4px; }
p.sub { color: var(--muted); margin: 0 0 16px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13.5px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.meta th { width: 180px; }
img.figure { max-width: 100%; border: 1px solid var(--line); border-radius: 4px; }
img.thumb { width: 260px; border: 1px solid var(--line); border-radius: 4px; display: block; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 10px 12px;
      overflow-x: auto; font-size: 12.5px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.verdict { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12.5px; font-weight: 600;
           white-space: nowrap; }
.v-good { background: #dafbe1; color: #116329; } .v-bad { background: #ffebe9; color: #a40e26; }
.v-mixed { background: #fff8c5; color: #7d4e00; } .v-other { background: #eaeef2; color: #424a53; }
.cards { display: flex; flex-wrap: wrap; gap: 16px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 10px; width: 282px; }
.card h3 { font-size: 14.5px; margin: 8px 0 2px; } .card p { margin: 0; color: var(--muted); font-size: 12.5px; }
details summary { cursor: pointer; color: var(--accent); margin: 4px 0; }
.muted { color: var(--muted); }
"""

_GOOD = ("agree", "agrees", "confirmed", "holds", "reproduced", "pass", "yes", "true", "ok")
_BAD = ("disagree", "disagrees", "refuted", "fails", "failed", "not reproduced", "contradicted", "no", "false")
_MIXED = ("partly", "partial", "partially", "mixed", "inconclusive", "within")


def verdict_class(verdict: str) -> str:
    v = verdict.strip().lower()
    if v.startswith(_BAD):
        return "v-bad"
    if v.startswith(_MIXED):
        return "v-mixed"
    if v.startswith(_GOOD):
        return "v-good"
    return "v-other"


def slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return s[:60] or "item"


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def scenario_text(resolved: Mapping[str, Any]) -> str:
    """The scenario as TOML (as ``arqlab check`` prints it); JSON if TOML cannot hold it."""
    from arqlab import scenario as scenario_mod

    try:
        return str(scenario_mod.to_toml(resolved))
    except (TypeError, ValueError):
        return json.dumps(resolved, indent=2, sort_keys=True)


# --------------------------------------------------------------------------- pages
def _page(title: str, body: str, *, crumbs: Sequence[tuple[str, str]] = ()) -> str:
    nav = " / ".join(f'<a href="{esc(href)}">{esc(label)}</a>' for label, href in crumbs)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>{CSS}</style>\n</head>\n<body>\n"
        f'<header class="top"><div>arqlab report{" · " + nav if nav else ""}</div></header>\n'
        f"<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


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


def _html_table(columns: Sequence[str], rows: Iterable[Sequence[Any]], *, numeric: Sequence[bool] | None = None) -> str:
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = []
        for i, v in enumerate(row):
            is_num = numeric[i] if numeric is not None else isinstance(v, (int, float)) and not isinstance(v, bool)
            cells.append(f'<td class="num">{esc(_fmt_num(v))}</td>' if is_num else f"<td>{esc(_fmt_num(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(body) + "\n</tbody>\n</table>"


def _claims_table(claims: Sequence[Claim], *, with_figure: bool) -> str:
    if not claims:
        return '<p class="muted">No claims recorded.</p>'
    head = ("<th>Figure</th>" if with_figure else "") + "<th>Claim</th><th>Verdict</th><th>Evidence</th>"
    rows = []
    for c in claims:
        fig = f"<td>{esc(c.figure)}</td>" if with_figure else ""
        rows.append(
            f"<tr>{fig}<td>{esc(c.claim)}</td>"
            f'<td><span class="verdict {verdict_class(c.verdict)}">{esc(c.verdict)}</span></td>'
            f"<td>{esc(c.evidence)}</td></tr>"
        )
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>"


def _verdict_counts(claims: Sequence[Claim]) -> str:
    counts: dict[str, int] = {}
    for c in claims:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    return " ".join(
        f'<span class="verdict {verdict_class(v)}">{esc(v)}: {n}</span>' for v, n in sorted(counts.items())
    )


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


def _summary_table(sweep: SweepInfo) -> str:
    df = sweep.table()
    cols = set(df.columns)
    if not {"measure", "direction", "mean", "ci95_half_width"} <= cols:
        return _html_table(list(df.columns), df.itertuples(index=False, name=None))
    keys = [k for k, _ in sweep.grid if k in cols]
    shown = df[df["measure"].isin(sweep.measures)] if sweep.measures else df
    columns = [*keys, "direction", "measure", "mean", "± 95% CI", "n"]
    extra = [c for c in ("precision_reached",) if c in cols and shown[c].notna().any()]
    columns += [c.replace("_", " ") for c in extra]
    rows = []
    for r in shown.to_dict(orient="records"):
        rows.append([*(r[k] for k in keys), r["direction"], r["measure"], r["mean"], r["ci95_half_width"],
                     r.get("n"), *(r[c] for c in extra)])
    return _html_table(columns, rows)


def _sweep_page(sweep: SweepInfo, files: _SweepFiles, has_png: bool, claims: Sequence[Claim]) -> str:
    crumbs: list[tuple[str, str]] = [("index", "index.html")]
    if sweep.study:
        crumbs.append((sweep.study, f"study-{slug(sweep.study)}.html"))
    heading = sweep.title or sweep.name
    parts = [f"<h1>{esc(heading)}</h1>"]
    sub = [s for s in (sweep.study and f"study {sweep.study}", sweep.figure and f"figure {sweep.figure}") if s]
    if sub:
        parts.append(f'<p class="sub">{esc(" · ".join(sub))}</p>')
    meta: list[tuple[str, str]] = [
        ("name", esc(sweep.name)),
        ("arqlab version", esc(sweep.version)),
        ("seed", esc(sweep.seed if sweep.seed is not None else "—")),
        ("replications", esc(sweep.replications) if sweep.replications is not None else
         (f"sequential, ±{sweep.precision:g} relative" if sweep.precision is not None else "from the scenario")),
        ("points", esc(len(sweep.points))),
        ("grid", "<br>".join(f"<code>{esc(k)}</code> = {esc(', '.join(_fmt_num(v) for v in vs))}"
                             for k, vs in sweep.grid) or "—"),
        ("source", f"<code>{esc(sweep.source)}</code>" if sweep.source else "—"),
        ("recorded", esc(_fmt_time(sweep.created))),
        ("data", f'<a href="{esc(files.csv)}">{esc(files.csv)}</a>'),
    ]
    parts.append('<table class="meta">' + "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in meta) + "</table>")
    if sweep.notes:
        parts.append(f"<p>{esc(sweep.notes)}</p>")
    if has_png and files.png:
        parts.append(f'<h2>Figure</h2>\n<img class="figure" src="{esc(files.png)}" alt="{esc(heading)}">')
    if sweep.study:
        parts.append("<h2>Claims</h2>\n" + _claims_table(claims, with_figure=False))
    parts.append("<h2>Results</h2>\n" + _summary_table(sweep))
    df = sweep.table()
    if len(df) > 0:
        limited = df.head(FULL_TABLE_ROW_LIMIT)
        note = (f'<p class="muted">First {FULL_TABLE_ROW_LIMIT} of {len(df)} rows; the CSV has all.</p>'
                if len(df) > FULL_TABLE_ROW_LIMIT else "")
        parts.append(
            f"<details><summary>Full table ({len(df)} rows)</summary>\n{note}"
            + _html_table(list(df.columns), limited.itertuples(index=False, name=None)) + "\n</details>"
        )
    if sweep.points:
        rows = [
            [", ".join(f"{k}={_fmt_num(v)}" for k, v in (p.get("params") or {}).items()),
             str(p.get("hash", ""))[:16], p.get("n"), p.get("precision_reached")]
            for p in sweep.points
        ]
        parts.append("<h2>Points</h2>\n" + _html_table(
            ["parameters", "scenario hash", "replications used", "precision reached"], rows,
            numeric=[False, False, True, False]))
    if sweep.base_scenario:
        parts.append(
            "<h2>Scenario</h2>\n<p class=\"sub\">The resolved base scenario (defaults filled); each point "
            "changes only the grid keys.</p>\n<pre><code>" + esc(scenario_text(sweep.base_scenario)) + "</code></pre>"
        )
    return _page(f"{heading} — arqlab", "\n".join(parts), crumbs=crumbs)


def _card(sweep: SweepInfo, files: _SweepFiles, has_png: bool) -> str:
    img = f'<img class="thumb" src="{esc(files.png)}" alt="{esc(sweep.name)}">' if has_png and files.png else ""
    label = f"figure {sweep.figure}" if sweep.figure else f"{len(sweep.points)} points"
    return (
        f'<div class="card"><a href="{esc(files.page)}">{img}<h3>{esc(sweep.title or sweep.name)}</h3></a>'
        f"<p>{esc(label)} · arqlab {esc(sweep.version)} · {esc(_fmt_time(sweep.created))}</p></div>"
    )


def _study_page(study: StudyInfo, cards: Sequence[str], claims: Sequence[Claim]) -> str:
    parts = [f"<h1>{esc(study.title)}</h1>"]
    if study.citation:
        parts.append(f'<p class="sub">{esc(study.citation)}</p>')
    if study.description:
        parts.append(f"<p>{esc(study.description)}</p>")
    parts.append("<h2>Figures and tables</h2>\n" + (f'<div class="cards">{"".join(cards)}</div>' if cards else
                                                    '<p class="muted">Nothing recorded yet.</p>'))
    parts.append("<h2>Claims</h2>\n" + _claims_table(claims, with_figure=True))
    return _page(f"{study.title} — arqlab", "\n".join(parts), crumbs=[("index", "index.html")])


def build_report(store: Store | str | os.PathLike[str] | None = None,
                 out_dir: str | os.PathLike[str] | None = None) -> Path:
    """Write the report; returns the path of ``index.html``."""
    own = not isinstance(store, Store)
    s = store if isinstance(store, Store) else Store(store)
    try:
        return _build(s, Path(out_dir) if out_dir is not None else DEFAULT_REPORT_DIR)
    finally:
        if own:
            s.close()


def _write(path: Path, data: str | bytes) -> None:
    try:
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    except OSError as exc:
        raise ArqlabError(f"report: cannot write {path}: {exc.strerror or exc}") from None


def _build(store: Store, out: Path) -> Path:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ArqlabError(f"report: cannot create {out}: {exc.strerror or exc}") from None
    sweeps = store.sweeps()
    claims = store.claims()
    studies = {s.name: s for s in store.studies()}
    for name in [s.study for s in sweeps if s.study] + [c.study for c in claims]:
        if name not in studies:
            studies[name] = StudyInfo(name=name, title=name, citation="", description="", version="", created=0.0)

    cards_by_study: dict[str, list[str]] = {}
    loose_cards: list[str] = []
    for sweep in sweeps:
        files = _sweep_files(sweep)
        png = _sweep_plot(sweep)
        if png is not None and files.png:
            _write(out / files.png, png)
        _write(out / files.csv, sweep.table().to_csv(index=False))
        fig_claims = [c for c in claims if c.study == sweep.study and sweep.figure and c.figure == sweep.figure]
        _write(out / files.page, _sweep_page(sweep, files, png is not None, fig_claims))
        card = _card(sweep, files, png is not None)
        (cards_by_study.setdefault(sweep.study, []) if sweep.study else loose_cards).append(card)

    for name, study in studies.items():
        page = _study_page(study, cards_by_study.get(name, []), [c for c in claims if c.study == name])
        _write(out / f"study-{slug(name)}.html", page)

    parts = ["<h1>arqlab results</h1>",
             f'<p class="sub">Store <code>{esc(store.path)}</code> · arqlab {esc(current_version())} · '
             f"generated {esc(_fmt_time(time.time()))}</p>"]
    parts.append("<h2>Studies</h2>")
    if studies:
        rows = []
        for name, study in sorted(studies.items()):
            study_claims = [c for c in claims if c.study == name]
            rows.append(
                f'<tr><td><a href="study-{esc(slug(name))}.html">{esc(study.title)}</a></td>'
                f"<td>{esc(study.citation)}</td><td class=\"num\">{len(cards_by_study.get(name, []))}</td>"
                f"<td>{_verdict_counts(study_claims)}</td></tr>"
            )
        parts.append("<table><thead><tr><th>Study</th><th>Reference</th><th>Figures</th><th>Claims</th></tr>"
                     "</thead><tbody>" + "".join(rows) + "</tbody></table>")
    else:
        parts.append('<p class="muted">No studies recorded.</p>')
    parts.append("<h2>Sweeps</h2>")
    parts.append(f'<div class="cards">{"".join(loose_cards)}</div>' if loose_cards else
                 '<p class="muted">No sweeps recorded.</p>')
    entries = store.ls()
    if entries:
        current = sum(e["replications"] for e in entries if e["version"] == store.version)
        parts.append("<h2>Store</h2>\n" + f"<p>{sum(e['replications'] for e in entries)} replications stored "
                     f"({current} of this version) over {len({e['hash'] for e in entries})} scenarios.</p>")
    index = out / "index.html"
    _write(index, _page("arqlab results", "\n".join(parts)))
    return index


# --------------------------------------------------------------------------- CLI
def register_cli(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``arqlab report``."""
    p = subparsers.add_parser("report", help="build a static HTML report from the result store")
    p.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or "
                   "arqlab-results/store.sqlite)")
    p.add_argument("--out", metavar="DIR", help=f"output folder (default {DEFAULT_REPORT_DIR})")
    p.add_argument("--quiet", action="store_true")
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
