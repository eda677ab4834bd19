"""Plots of a sensitivity analysis: Morris's μ*–σ plane, or a tornado of Sobol' S1 and ST."""

from __future__ import annotations

from pathlib import Path

import pandas as pd


def _pivot(indices: pd.DataFrame, index: str) -> pd.DataFrame:
    return indices[indices["index"] == index].set_index("input")


def write_plot(indices: pd.DataFrame, stem: Path, *, title: str = "") -> list[Path]:
    """The plot of ``indices`` (tidy, :func:`~.design.analyse`) as ``stem.png`` and ``stem.svg``.

    Morris: one point per input at (μ*, σ) with μ*'s bootstrap CI as a horizontal bar;
    inputs near the σ = μ* line act non-linearly or through interactions. Sobol': one bar
    pair per input (S1 and ST with their CIs), largest ST at the top.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    method = str(indices["method"].iloc[0]) if len(indices) else "morris"
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    if method == "morris":
        ms, sg = _pivot(indices, "mu_star"), _pivot(indices, "sigma")
        for name in ms.index:
            x, y = float(ms.loc[name, "value"]), float(sg.loc[name, "value"])
            lo, hi = ms.loc[name, "ci95_low"], ms.loc[name, "ci95_high"]
            err = None if pd.isna(lo) else [[max(0.0, x - float(lo))], [max(0.0, float(hi) - x)]]
            ax.errorbar([x], [y], xerr=err, fmt="o", capsize=3)
            ax.annotate(str(name), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
        top = max([0.0, *ms["value"].tolist(), *sg["value"].tolist()]) * 1.1 or 1.0
        ax.plot([0, top], [0, top], color="grey", linestyle=":", linewidth=0.8, label="σ = μ*")
        ax.set_xlim(0, top)
        ax.set_ylim(0, top)
        ax.set_xlabel("μ* (mean |elementary effect|, per unit range)")
        ax.set_ylabel("σ (spread of the effects)")
        ax.legend(loc="upper left", fontsize=8)
    else:
        st, s1 = _pivot(indices, "ST").sort_values("value"), _pivot(indices, "S1")
        names = list(st.index)
        ys = range(len(names))
        for offset, frame, label in ((0.2, st, "ST (total)"), (-0.2, s1.loc[names], "S1 (first order)")):
            vals = frame["value"].astype(float)
            err = [(vals - frame["ci95_low"].astype(float)).clip(lower=0).fillna(0),
                   (frame["ci95_high"].astype(float) - vals).clip(lower=0).fillna(0)]
            ax.barh([y + offset for y in ys], vals, height=0.38, xerr=err, capsize=2, label=label)
        ax.set_yticks(list(ys), names)
        ax.axvline(0, color="grey", linewidth=0.6)
        ax.set_xlabel("Sobol' index (share of the response's variance)")
        ax.legend(loc="lower right", fontsize=8)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    files = [stem.parent / f"{stem.name}.png", stem.parent / f"{stem.name}.svg"]  # a stem may hold dots (claim ids)
    for f in files:
        fig.savefig(f, dpi=120)
    plt.close(fig)
    return files
