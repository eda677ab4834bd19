"""A reproduction's files: each figure's plot (PNG, SVG), its scenario files, and the
claims with their verdicts (``claims.json``, ``claims.md``, and the printed summary)."""

from __future__ import annotations

import json
import math
import re
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import pandas as pd

from arqlab.jsonout import dumps
from arqlab.outputs import replaced_atomically

from .artefacts import Artefact
from .artefacts.curves import draw_curves
from .data import ClaimResult
from .overrides import to_toml, toml_value
from .plan import RunRequest, RunSettings, curve_scenario
from .spec import Curve, Figure
from .verdicts import tally


def quick_footer(settings: RunSettings, runs: Sequence[RunRequest], frame: pd.DataFrame) -> str:
    """The settings a quick pass actually used, for the figure's face (a quick figure must
    not pass for a full one): seed, replications and run length per point, points per curve."""
    durations = sorted({float(r.scenario.get("run", {}).get("duration_s", math.nan)) for r in runs} - {math.nan})
    per_curve = frame.groupby(["curve", "variant"], dropna=False).size() if len(frame) else pd.Series(dtype=int)
    parts = [f"seed {settings.seed}", f"{settings.replications} replication(s) per point"]
    if durations:
        parts.append("runs of " + (f"{durations[0]:g}" if len(durations) == 1 else f"{durations[0]:g}-{durations[-1]:g}")
                     + " simulated s")
    if len(per_curve):
        lo, hi = int(per_curve.min()), int(per_curve.max())
        parts.append(f"{lo if lo == hi else f'{lo}-{hi}'} x point(s) per curve")
    return "QUICK PASS, low precision: " + ", ".join(parts) + " (the full pass runs every point to its precision target)"


def write_plot(figure: Figure, frame: pd.DataFrame, out_dir: Path, *, quick: bool, footer: str = "") -> list[Path]:
    """Draw the figure in the paper's axes: curves with 95% CI bars, closed forms, notes;
    ``footer`` (a quick pass's settings, :func:`quick_footer`) closes the notes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(12.0, 6.6))
    draw_curves(ax, figure, frame)
    mode = "quick (low precision)" if quick else "full precision"
    ax.set_title(f"Fig. {figure.number}. {figure.title}\n[arqlab reproduction, {mode}; bars: 95% CI]", fontsize=9.5)
    ax.grid(True, which="both", alpha=0.3)
    # Long labels (sensitivities, bounds) wrap so the legend stays inside the figure.
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(handles, [textwrap.fill(label, 60) for label in labels], fontsize=6.5, loc="upper left",
              bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.subplots_adjust(right=0.62)
    notes = [figure.caption] if figure.caption else []
    notes += [f"Assumed {a.parameter} = {a.value}" for a in figure.assumptions]
    notes += [footer] if footer else []
    if notes:
        fig.text(0.01, 0.005, "\n".join(notes), fontsize=6.5, va="bottom", ha="left", wrap=True)
        fig.subplots_adjust(bottom=0.1 + 0.022 * len(notes))
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"fig{figure.number}.png", out_dir / f"fig{figure.number}.svg"]
    _save(fig, paths[0], dpi=130)
    _save(fig, paths[1])
    plt.close(fig)
    return paths


def _save(fig: Any, path: Path, **kw: Any) -> None:
    """A figure written whole or not at all (a full disk leaves no 0-byte file)."""
    with replaced_atomically(path, "--out") as tmp:
        fig.savefig(tmp, **kw)


def write_scenarios(figure: Figure, log: Sequence[Mapping[str, Any]], out_dir: Path, settings: RunSettings,
                    *, source: str) -> Path:
    """``figN_scenarios/``: each curve's base scenario (TOML) and its per-point overrides.

    ``source`` opens every file's header (the study's short citation, ASCII).
    """
    d = out_dir / f"fig{figure.number}_scenarios"
    d.mkdir(parents=True, exist_ok=True)
    variants: list[tuple[str, Curve, Mapping[str, Any]]] = [("", c, {}) for c in figure.curves]
    variants += [(s.name, figure.curve(k), s.overrides) for s in figure.sensitivities for k in s.curves]
    for variant, c, extra in variants:
        name = c.key + (f"@{variant}" if variant else "")
        header = (
            f"{source}, Fig. {figure.number}: {figure.title}\n"
            f"Curve: {c.label} (direction {c.direction}, measure {c.measure or figure.measure})"
            + (f"\nSensitivity variant {variant}" if variant else "")
            + f"\nBase scenario of the curve; every point adds the overrides in {name}.points.toml\n"
            f"(x axis: {figure.x_label}). Run with seed {settings.seed}"
            + (f", {settings.replications} replications" if settings.replications else "")
            + (f", sequential precision {settings.precision}" if settings.precision else "") + "."
        )
        (d / f"{name}.toml").write_text(to_toml(curve_scenario(figure, c, extra), header))
        pts = [e for e in log if e["curve"] == c.key and e["variant"] == variant]
        lines = [f"# Per-point overrides (dotted scenario keys) of {name}, Fig. {figure.number}", ""]
        for e in pts:
            lines.append("[[points]]")
            lines.append(f"x = {toml_value(float(e['x']))}")
            lines.append(f"run = {toml_value(e['run'])}")
            lines.append("[points.overrides]")
            for k, v in e["overrides"].items():
                lines.append(f"{json.dumps(k)} = {toml_value(v)}")
            lines.append("")
        (d / f"{name}.points.toml").write_text("\n".join(lines))
    return d


_NUM = r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?"
_PAIR = re.compile(rf"({_NUM})±{_NUM} vs ({_NUM})")
_EST = re.compile(rf"= ({_NUM})±{_NUM}")


def measured_of(result: ClaimResult) -> str:
    """The claims table's "measured" cell: the deviations the claim's check computed from
    the data (:attr:`ClaimResult.measured`); only a check that compares no pair of values
    falls back to reading its detail (:func:`measured`)."""
    return result.measured or measured(result.detail)


def _variant_measured(s: Mapping[str, str]) -> str:
    return s.get("measured") or measured(s["detail"])


def measured(detail: str) -> str:
    """The fallback of :func:`measured_of` for checks that record no deviations: the range
    of (A − B)/|B| over the compared points of the detail (``A±h vs B``), else the range of
    the reported values (``= E±h``), else the detail's first words."""
    pairs = [(float(a), float(b)) for a, b in _PAIR.findall(detail)]
    devs = [(a - b) / abs(b) for a, b in pairs if b != 0.0 and math.isfinite(a) and math.isfinite(b)]
    if devs:
        lo, hi = min(devs), max(devs)
        span = f"{100 * lo:+.1f}%" if len(devs) == 1 else f"{100 * lo:+.1f}% … {100 * hi:+.1f}%"
        return f"(A−B)/B {span} ({len(devs)} pt{'s' if len(devs) > 1 else ''})"
    vals = [float(v) for v in _EST.findall(detail)]
    if vals:
        return f"{min(vals):.3g} … {max(vals):.3g} ({len(vals)} pts)" if len(vals) > 1 else f"{vals[0]:.3g}"
    head = detail.split(";")[0].split("|")[0].strip()
    return head if len(head) <= 80 else head[:77] + "…"


def _counts(results: Sequence[ClaimResult]) -> dict[str, int]:
    return tally(r.verdict for r in results)


def counts_by_origin(results: Sequence[ClaimResult]) -> dict[str, dict[str, int]]:
    """Verdict counts per origin (paper, extrapolation, inference, model check), in that order."""
    order = ["paper", "extrapolation", "inference", "model check"]
    origins = sorted({r.origin for r in results}, key=lambda o: (order.index(o) if o in order else 9, o))
    return {o: _counts([r for r in results if r.origin == o]) for o in origins}


def write_claims(results: Sequence[ClaimResult], out_dir: Path, *, title: str, quick: bool,
                 coequal: Sequence[str] = ()) -> tuple[Path, Path]:
    """``claims.json`` and ``claims.md`` with every evaluated claim, its verdict and the
    deviation measured behind it. Claims the reproduction carried to another figure
    (extrapolation) or inferred itself (inference) are counted apart from the paper's.
    Each ``coequal`` variant (a reading the text does not settle) gets its own verdict
    and measured columns beside the study's reading, out of the sensitivity column."""
    out_dir.mkdir(parents=True, exist_ok=True)
    jpath, mpath = out_dir / "claims.json", out_dir / "claims.md"
    by_origin = counts_by_origin(results)
    paper = [r for r in results if r.origin == "paper"]
    payload: dict[str, Any] = {
        "study": title,
        "mode": "quick" if quick else "full",
        "counts": _counts(paper),
    }
    if set(by_origin) != {"paper"}:
        payload["counts_by_origin"] = by_origin
    if coequal:
        payload["coequal_readings"] = list(coequal)
        payload["coequal_counts"] = {name: coequal_counts(paper, name) for name in coequal}
    payload["claims"] = [r.to_json() for r in results]
    jpath.write_text(dumps(payload, indent=2) + "\n")
    lines = [f"# Claims: {title} ({'quick' if quick else 'full'} run)", ""]
    if set(by_origin) != {"paper"}:
        lines += ["Verdict counts: " + "; ".join(
            f"{o}: " + ", ".join(f"{n} {v}" for v, n in c.items()) for o, c in by_origin.items()), ""]
    for name in coequal:
        c = coequal_counts(paper, name)
        lines += [f"Under the co-equal reading `{name}` (paper's claims it applies to): "
                  + ", ".join(f"{n} {v}" for v, n in c.items()), ""]
    extra = "".join(f" under `{name}` | measured under `{name}` |" for name in coequal)
    lines += ["| id | origin | section | statement | verdict | measured |" + extra + " sensitivity |",
              "|---|---|---|---|---|---|" + "---|---|" * len(coequal) + "---|"]
    for r in results:
        by_variant = {s["variant"]: s for s in r.sensitivity}
        cols = ""
        for name in coequal:
            s = by_variant.get(name)
            cols += (f" **{s['verdict']}** | {_variant_measured(s).replace('|', '/')} |" if s
                     else " — | — |")
        sens = "; ".join(f"{s['variant']}: {s['verdict']} ({_variant_measured(s)})" for s in r.sensitivity
                         if s["variant"] not in coequal) or ""
        stmt = r.statement.replace("|", "\\|")
        lines.append(f"| `{r.id}` | {r.origin} | {r.section} | {stmt} | **{r.verdict.value}** | "
                     f"{measured_of(r).replace('|', '/')} |{cols} {sens.replace('|', '/')} |")
    lines += ["", "## Details", ""]
    for r in results:
        lines.append(f"- `{r.id}` — {r.verdict.value}: {r.detail}")
        for s in r.sensitivity:
            lines.append(f"  - under `{s['variant']}`: {s['verdict']}: {s['detail']}")
    mpath.write_text("\n".join(lines) + "\n")
    return jpath, mpath


def coequal_counts(results: Sequence[ClaimResult], name: str) -> dict[str, int]:
    """Verdict counts under the reading ``name`` over the claims it was evaluated on."""
    return tally(s["verdict"] for r in results for s in r.sensitivity if s["variant"] == name)


def print_claims(header: str, results: Sequence[ClaimResult], stream: TextIO | None = None,
                 coequal: Sequence[str] = ()) -> None:
    out = stream or sys.stdout
    print(header, file=out)
    for r in results:
        tag = "" if r.origin == "paper" else f" ({r.origin})"
        print(f"  [{r.verdict.value:>13}] {r.id}{tag}: {r.statement} [{measured_of(r)}]", file=out)
        for s in r.sensitivity:
            how = "reading" if s["variant"] in coequal else "under"
            print(f"  {'':>15}   {how} {s['variant']}: {s['verdict']}", file=out)



def write_artefact(artefact: Artefact, out_dir: Path, name: str, *, title: str = "",
                   figsize: tuple[float, float] = (8.0, 5.0)) -> list[Path]:
    """``name.csv`` (the tidy frame), ``name.png`` and ``name.svg`` (the plot) of any artefact."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    csv = out_dir / f"{name}.csv"
    with replaced_atomically(csv, "--out") as tmp:
        artefact.to_frame().to_csv(tmp, index=False)
    fig, ax = plt.subplots(figsize=figsize)
    artefact.plot(ax)
    if title:
        fig.suptitle(title, fontsize=9.5)
    fig.tight_layout()
    paths = [csv, out_dir / f"{name}.png", out_dir / f"{name}.svg"]
    _save(fig, paths[1], dpi=130)
    _save(fig, paths[2])
    plt.close(fig)
    return paths
