"""Records a study reproduction in the result store, so `arqlab report` can show it: the
study, and per figure its plot, its data table with confidence intervals, its claims
with verdicts, the scenario files, the seed and the model version.

Kept apart from the framework: the framework computes, this module files the results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..store import Store, open_store
from .output import measured_of
from .reproduce import Reproduction


def _claims_of_figure(rep: Reproduction, number: int | None) -> list[dict[str, Any]]:
    rows = []
    for c in rep.claims:
        if c.figure != number:
            continue
        evidence = c.detail
        if c.sensitivity:
            evidence += " | sensitivity: " + "; ".join(f"{s.get('variant', '')}: {s.get('verdict', '')}" for s in c.sensitivity)
        rows.append({"claim": f"{c.id} — {c.statement} ({c.section})", "verdict": c.verdict.value, "evidence": evidence,
                     "origin": c.origin, "measured": measured_of(c)})
    return rows


def publish(rep: Reproduction, study: Any, store: Store | str | Path | None = None, *, seed: int = 1, quick: bool = False) -> int:
    """Files `rep` (a reproduction of `study`) in `store`; returns the figures recorded."""
    s = open_store(store)
    try:
        s.record_study(
            study.NAME,
            title=study.TITLE,
            citation=getattr(study, "CITATION", ""),
            description=("quick (low-precision) pass" if quick else "full pass: sequential ±2.5% precision at 95%")
            + f", seed {seed}; outputs in {rep.out_dir}",
        )
        figures: Mapping[int, Any] = rep.data.figures
        for number, fig_data in sorted(figures.items()):
            fig = fig_data.figure
            png = rep.out_dir / f"fig{number}.png"
            scenarios_dir = rep.out_dir / f"fig{number}_scenarios"
            scenario_text = "\n\n".join(
                f"# --- {p.name}\n{p.read_text(encoding='utf-8')}" for p in sorted(scenarios_dir.glob("*.toml"))
            ) if scenarios_dir.is_dir() else ""
            s.record_sweep(
                f"fig{number}",
                fig_data.frame,
                study=study.NAME,
                figure=str(number),
                title=getattr(fig, "title", f"Figure {number}"),
                seed=seed,
                plot_png=png.read_bytes() if png.exists() else None,
                notes=scenario_text,
            )
            s.record_claims(study.NAME, _claims_of_figure(rep, number), figure=str(number))
        general = _claims_of_figure(rep, None)
        if general:
            s.record_claims(study.NAME, general, figure="conclusions")
        return len(figures)
    finally:
        if not isinstance(store, Store):
            s.close()
