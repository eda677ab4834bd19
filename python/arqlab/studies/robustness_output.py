"""Writing a robustness pass (:mod:`.robustness`): CSV tables, one plot per claim, the
section of ``claims.md``, the printed table, and the record in the result store (shown by
``arqlab report`` as the study's "robustness" figure)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TextIO

from ..gsa.plot import write_plot
from .robustness import FLIP_EFFECT, ROBUST_SHARE, Robustness

SECTION = "## Robustness to the unstated inputs"


def _inputs_lines(rob: Robustness) -> list[str]:
    lines = ["| input | target | study's value | plausible range | source |", "|---|---|---|---|---|"]
    for u in rob.inputs:
        rng = "{" + ", ".join(map(str, u.levels)) + "}" if u.levels else f"[{u.low:g}, {u.high:g}]" + (" log" if u.log else "")
        lines.append(f"| {u.name} | `{u.target}` | {u.value} | {rng} | {u.source.replace('|', '/')} |")
    return lines


def label_counts(rob: Robustness) -> str:
    """The labels counted per claim origin, the paper's claims apart from arqlab's own
    (extrapolations, inferences, model checks): "paper: 5 holds robustly, …; model check: …"."""
    order = ["paper", "extrapolation", "inference", "model check"]
    summary = rob.summary
    origins = sorted(set(summary["origin"]), key=lambda o: (order.index(o) if o in order else 9, o))
    parts = []
    for o in origins:
        labels = summary[summary["origin"] == o]["label"].value_counts()
        parts.append(f"{o}: " + ", ".join(f"{n} {label}" for label, n in labels.items()))
    return "; ".join(parts)


def section(rob: Robustness) -> list[str]:
    """The robustness section of ``claims.md``."""
    what = (f"Morris screening, {rob.plan.size} trajectories" if rob.plan.method == "morris"
            else f"Sobol' indices (Saltelli sampling), base sample {rob.plan.size}")
    flip = (f"at least {100 * FLIP_EFFECT:g}% of its one-at-a-time steps change the verdict" if rob.plan.method == "morris"
            else f"its total-order index ST on the 0/1 verdict is at least {FLIP_EFFECT:g}")
    lines = [SECTION, "",
             f"{what}: {len(rob.design)} design points over {len(rob.inputs)} inputs, {rob.runs} distinct runs, "
             f"quick precision. Share = where the claim holds (Wilson 95% interval over the points); an input flips "
             f"a claim when {flip}. Labels: *holds robustly* (holds at "
             f"the study's values and on ≥ {100 * ROBUST_SHARE:g}% of the space), *holds at the study's values only*, "
             f"*fails robustly* (holds on ≤ {100 * (1 - ROBUST_SHARE):g}%), *fails at the study's values only*.", ""]
    lines += _inputs_lines(rob) + ["", f"Labels: {label_counts(rob)}.", ""]
    lines += ["| claim | origin | at the study's values | share holding (95% CI) | label | flipped by |",
              "|---|---|---|---|---|---|"]
    for r in rob.summary.itertuples(index=False):
        lines.append(f"| `{r.claim}` | {r.origin} | {r.verdict_at_study_values} | {100 * r.share_holds:.0f}% "
                     f"({100 * r.share_ci95_low:.0f}–{100 * r.share_ci95_high:.0f}) | **{r.label}** | {r.flipped_by} |")
    return lines + [""]


def _slug(claim: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", claim)


def write_robustness(rob: Robustness, out_dir: Path) -> list[Path]:
    """``robustness/`` with design.csv, indices.csv, summary.csv and a plot per claim; the
    section appended to ``claims.md`` (replacing an earlier one)."""
    folder = out_dir / "robustness"
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / "design.csv", folder / "indices.csv", folder / "summary.csv"]
    rob.design.to_csv(files[0], index=False)
    rob.indices.to_csv(files[1], index=False)
    rob.summary.to_csv(files[2], index=False)
    for r in rob.summary.itertuples(index=False):
        ix = rob.indices[rob.indices["claim"] == r.claim]
        title = f"{r.claim}: {r.label}, holds on {100 * r.share_holds:.0f}% of the plausible space"
        files += write_plot(ix, folder / _slug(r.claim), title=title)
    md = out_dir / "claims.md"
    text = md.read_text(encoding="utf-8") if md.exists() else ""
    text = text.split(SECTION)[0].rstrip("\n")
    md.write_text((text + "\n\n" if text else "") + "\n".join(section(rob)), encoding="utf-8")
    return files + [md]


def print_robustness(rob: Robustness, stream: TextIO) -> None:
    print(f"Robustness ({rob.plan.method}, {len(rob.design)} design points, {rob.runs} runs):", file=stream)
    print(f"  Labels: {label_counts(rob)}", file=stream)
    for r in rob.summary.itertuples(index=False):
        print(f"  [{r.label:>33}] {r.claim}: holds on {100 * r.share_holds:.0f}% "
              f"({100 * r.share_ci95_low:.0f}–{100 * r.share_ci95_high:.0f}); flipped by {r.flipped_by}", file=stream)


def publish_robustness(rob: Robustness, study: Any, out_dir: Path, store: Any, *, seed: int = 1) -> None:
    """Files the summary in the result store as the study's "robustness" figure (table and
    per-claim labels), so ``arqlab report`` shows it beside the figures."""
    from ..store import Store, open_store

    s = open_store(store)
    try:
        s.record_sweep("robustness", rob.summary, study=study.NAME, figure="robustness",
                       title="Robustness of the claims to the unstated inputs", seed=seed,
                       notes="\n".join(_inputs_lines(rob)))
        s.record_claims(study.NAME, [
            {"claim": f"{r.claim} — {r.statement}", "verdict": r.label, "origin": r.origin,
             "evidence": f"holds on {100 * r.share_holds:.0f}% ({100 * r.share_ci95_low:.0f}–"
                         f"{100 * r.share_ci95_high:.0f}) of {r.points} design points; flipped by {r.flipped_by}",
             "measured": f"{100 * r.share_holds:.0f}%"}
            for r in rob.summary.itertuples(index=False)], figure="robustness")
    finally:
        if not isinstance(store, Store):
            s.close()
