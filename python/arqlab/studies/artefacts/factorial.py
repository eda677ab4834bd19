"""Two-level factorial experiments: designs, alias structure, effects with 95% CIs.

A 2^(k−p) fractional factorial runs N = 2^(k−p) combinations of k two-level factors
(levels −1/+1): k−p *base* factors in full factorial (standard, Yates, order: the first
factor alternates fastest) and p *generated* factors set to products of base columns,
e.g. ``D = ABC``. Each generator is a word of the **defining relation** (``I = ABCD``);
the relation is the group those words generate. An effect is **aliased** with its
product with every word of the relation (``A = BCD``, ``AB = CD``): their contrast
columns are identical, so the experiment estimates their sum. The **resolution** is the
length of the shortest word (III: main effects aliased with two-factor interactions; IV:
main effects clear of them, two-factor interactions aliased with each other).

Estimation (Montgomery, *Design and Analysis of Experiments*, ch. 6–8): with run means
ȳ_i over n_i replications and contrast column c (±1, the product of the effect's factor
columns), the effect is ``Σ c_i ȳ_i / (N/2)`` (mean response at + minus mean at −). Its
variance is ``(4/N²) Σ s²/n_i`` with ``s²`` the replication variance pooled over runs,
``Σ (n_i − 1)`` degrees of freedom; the 95% CI uses Student's t on those. The
**fraction of variation** an effect explains is its contrast sum of squares
``(Σ c_i ȳ_i)² / Σ (1/n_i)`` over the total sum of squares of all observations (with
equal replication the effects of a full factorial and the replication error add up to 1);
it is how some papers rank features (e.g. Johnson's HF ARQ study).

The design algebra (:class:`FractionalDesign`) is :mod:`arqlab.design.algebra`'s, shared
with ``arqlab design``; this module adds the estimator with CIs that claims read.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from arqlab.design.algebra import FractionalDesign, Signed, Word, parse_word

from ..student_t import t95
from ..verdicts import Est

__all__ = ["EFFECT_COLUMNS", "Effect", "FactorialEffects", "FractionalDesign", "Signed", "Word", "parse_word"]

EFFECT_COLUMNS = ["effect", "order", "estimate", "ci95_half_width", "lo", "hi", "df", "variation_fraction", "aliases"]


@dataclass(frozen=True)
class Effect:
    """One estimable effect: its name, order, estimate with CI, and the effects aliased with it."""

    name: str
    order: int
    est: Est
    aliases: tuple[str, ...]
    variation: float = math.nan  # fraction of the total sum of squares


@dataclass(frozen=True)
class FactorialEffects:
    """Main effects and interactions of a (fractional) factorial experiment, each with a CI."""

    design: FractionalDesign
    response: str
    effects: tuple[Effect, ...]
    mean: Est
    df: int
    error_variation: float = math.nan  # fraction of the total sum of squares within runs

    @classmethod
    def estimate(cls, design: FractionalDesign, responses: Sequence[Sequence[float]], *,
                 response: str = "y", max_order: int = 2) -> FactorialEffects:
        """Effects up to ``max_order`` from per-run replicated responses (``responses[i]``:
        the replications of run i, in the design's row order; at least one run needs two)."""
        if len(responses) != design.runs:
            raise ValueError(f"responses: expected one list per run ({design.runs}), got {len(responses)}")
        reps = [np.asarray(r, dtype=float) for r in responses]
        if any(r.size == 0 for r in reps):
            raise ValueError("responses: every run needs at least one replication")
        df = sum(r.size - 1 for r in reps)
        if df < 1:
            raise ValueError("responses: no run is replicated, so there is no variance estimate for the CIs")
        ybar = np.array([r.mean() for r in reps])
        sse = sum(float(((r - r.mean()) ** 2).sum()) for r in reps)
        s2 = sse / df
        everything = np.concatenate(reps)
        sst = float(((everything - everything.mean()) ** 2).sum())
        inv_n = np.array([1.0 / r.size for r in reps])
        t = t95(df)
        n_total = sum(r.size for r in reps)
        n = design.runs
        mean = Est(float(ybar.mean()), t * math.sqrt(s2 * inv_n.sum()) / n, n_total)
        half = t * math.sqrt(4.0 / n ** 2 * s2 * inv_n.sum())  # the same for every contrast
        effects: list[Effect] = []
        seen: set[Word] = set()
        confounded = {w for _, w in design.relation}
        for order in range(1, max_order + 1):
            for combo in itertools.combinations(design.factors, order):
                word = frozenset(combo)
                if word in seen or word in confounded:
                    continue
                chain = design.aliases(word)
                seen.add(word)
                seen.update(w for _, w in chain)
                c = design.column(word)
                contrast = float(c @ ybar)
                names = tuple(design.name(w, s) for s, w in chain)
                frac = contrast ** 2 / float(inv_n.sum()) / sst if sst > 0 else math.nan
                effects.append(Effect(design.name(word), order, Est(contrast / (n / 2), half, n_total), names, frac))
        return cls(design, response, tuple(effects), mean, df, sse / sst if sst > 0 else math.nan)

    def effect(self, name: str) -> Est:
        """The estimate of an effect, named by itself or by any of its aliases (``BCD`` for
        ``A`` when ``I = ABCD``; a negative alias ``-BCD`` gives the negated estimate)."""
        sign, word = parse_word(name, self.design.factors)
        for e in self.effects:
            if parse_word(e.name, self.design.factors)[1] == word:
                return e.est.scaled(sign)
            for a in e.aliases:
                s, w = parse_word(a, self.design.factors)
                if w == word:
                    return e.est.scaled(sign * s)
        raise KeyError(f"no estimated effect is {name!r} or aliased with it")

    def to_frame(self) -> pd.DataFrame:
        """One row per estimable effect, with its CI and its alias chain."""
        rows = [{"effect": e.name, "order": e.order, "estimate": e.est.mean, "ci95_half_width": e.est.half,
                 "lo": e.est.lo, "hi": e.est.hi, "df": self.df, "variation_fraction": e.variation,
                 "aliases": " = ".join(e.aliases)}
                for e in self.effects]
        return pd.DataFrame(rows, columns=EFFECT_COLUMNS)

    def plot(self, ax: Any) -> None:
        """Effects sorted by magnitude, as points with horizontal 95% CI bars around zero."""
        order = sorted(self.effects, key=lambda e: abs(e.est.mean))
        ys = np.arange(len(order))
        ax.errorbar([e.est.mean for e in order], ys, xerr=[e.est.half for e in order], fmt="o", capsize=3)
        ax.axvline(0.0, color="0.4", linewidth=0.8)
        ax.set_yticks(ys)
        ax.set_yticklabels([e.name + (f" (= {', '.join(e.aliases)})" if e.aliases else "") for e in order], fontsize=7)
        ax.set_xlabel(f"effect on {self.response} (95% CI, {self.df} df)")
        res = self.design.resolution()
        ax.set_title(f"Factorial effects, {self.design.runs} runs" + (f", resolution {res}" if res else ""), fontsize=9.5)
