"""The paper's claims, each with a computed verdict: Experiment 1 (Figures 4–5),
Experiment 2 (Figures 6–8), the "twice the window" statement (Figure 9, an extension)
and the improvement figures of the abstract and conclusions.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..artefacts.curves import FigureData
from ..claims import both, every, rel, vs_value, xs_where
from ..data import StudyData
from ..spec import Claim
from ..verdicts import Est, Outcome, Verdict, any_of, approx_value, at_least, at_most, exceeds, pointwise, relative
from .params import TOL_FULL, TOL_PAPER_MAX, TWICE_BAND, WINDOW_BERS
from .theory import iso_efficiency, nbs_efficiency

ALL_EXP = ("per_tsdu", "delay0.135", "remote_ack", "dt_user1024")


def ratio(a: Est, b: Est) -> Est:
    """a / b with a first-order (delta-method) 95% half-width."""
    if not (a.valid and b.valid) or b.mean == 0 or a.mean == 0:
        return Est(float("nan"), float("nan"), 0)
    r = a.mean / b.mean
    return Est(r, abs(r) * math.hypot(a.half / a.mean, b.half / b.mean), min(a.n, b.n))


def _ge(tol: float) -> Callable[[Est, Est], Verdict]:
    return lambda a, b: at_least(a, b, tol)


def _le(tol: float) -> Callable[[Est, Est], Verdict]:
    return lambda a, b: at_most(a, b, tol)


def _full_link(fig: int, curve: str, upto: float) -> Callable[[StudyData], Outcome]:
    """curve(x) ≥ curve(0)·(1 − TOL_FULL) for every x ≤ upto (0 = no expedited data)."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        ref = fd.est(curve, 0.0)
        xs = [x for x in fd.xs(curve) if 0 < x <= upto]
        return pointwise(xs, lambda x: at_least(fd.est(curve, x), ref, TOL_FULL),
                         describe=lambda x: f"{fd.est(curve, x)} vs none {ref}",
                         deviation=lambda x: relative(fd.est(curve, x).mean, ref.mean))
    return check


def _drop(fig: int, curve: str, lo: float, hi: float, margin: float) -> Callable[[StudyData], Outcome]:
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        a, b = fd.est(curve, lo), fd.est(curve, hi)
        return Outcome(exceeds(a, b, margin), f"{curve}({lo:g}) = {a} vs {curve}({hi:g}) = {b}",
                       deviations=(relative(a.mean, b.mean),))
    return check


def max_improvement(fd: FigureData, better: str, worse: str, mode: str) -> tuple[Est, float | None]:
    """The largest improvement of ``better`` over ``worse`` across x, with its x:
    ``points`` = better − worse (efficiency in absolute points), ``ratio`` = better/worse − 1,
    ``inverse`` = worse/better − 1 (delay)."""
    best: tuple[Est, float | None] = (Est(float("nan"), float("nan"), 0), None)
    for x in fd.common_xs(better, worse):
        a, b = fd.est(better, x), fd.est(worse, x)
        if mode == "points":
            gain = a - b
        else:
            r = ratio(a, b) if mode == "ratio" else ratio(b, a)
            gain = Est(r.mean - 1.0, r.half, r.n)
        if gain.valid and (best[1] is None or gain.mean > best[0].mean):
            best = (gain, x)
    return best


def _up_to(fig: int, better: str, worse: str, mode: str, paper: float, what: str) -> Callable[[StudyData], Outcome]:
    """"Improvements of up to P%": our largest improvement (in ``mode``, see
    :func:`max_improvement`) is P within ±TOL_PAPER_MAX (relative). The detail gives
    both readings (points and ratio) for efficiency."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        gain, x = max_improvement(fd, better, worse, mode)
        if x is None:
            return Outcome(Verdict.INCONCLUSIVE, "no common points")
        v = approx_value(gain, paper, TOL_PAPER_MAX)
        detail = (f"our maximum {what} improvement {100 * gain.mean:.1f}% ± {100 * gain.half:.1f} ({mode}) at x = {x:g} "
                  f"vs the paper's {100 * paper:.0f}% (tolerance ±{100 * TOL_PAPER_MAX:g}% of it)")
        if mode == "points":
            r, xr = max_improvement(fd, better, worse, "ratio")
            detail += f"; as a ratio the maximum is {100 * r.mean:.1f}% at x = {xr:g}"
        if mode == "inverse":
            detail += "; " + _delay_readings(sd, fd, better, worse, x)
        return Outcome(v, detail, deviations=(relative(gain.mean, paper),))
    return check


def _delay_readings(sd: StudyData, fd: FigureData, better: str, worse: str, x: float) -> str:
    """Both readings of a delay gain at ``x`` and the efficiency ratio that makes the
    abstract's two figures one: a link-limited transfer's per-octet delay is ∝ 1/η, so
    D_worse/D_better − 1 = η_better/η_worse − 1 — the same gain the efficiency points
    (38) express as a difference."""
    a, b = fd.est(better, x), fd.est(worse, x)
    reduction = 1.0 - a.mean / b.mean
    out = f"both readings at x = {x:g}: delay reduction 1 − NBS/ISO = {100 * reduction:.1f}%, ISO/NBS − 1 = " \
          f"{100 * (b.mean / a.mean - 1):.1f}%"
    if 4 in sd and x in sd[4].common_xs(better, worse):
        ea, eb = sd[4].est(better, x), sd[4].est(worse, x)
        out += (f"; efficiency at the same rate {ea.mean:.3f} vs {eb.mean:.3f}: {100 * (ea.mean - eb.mean):.1f} points, "
                f"ratio − 1 = {100 * (ea.mean / eb.mean - 1):.1f}% (per-octet delay ≈ 1/η for a link-limited transfer: the 38 points and the 61% are one gain read two ways)")
    return out


def fig4_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig4.nbs_ge_iso", "Exp. 1 results", "NBS throughput efficiency is at least ISO's at every expedited data rate.",
              rel(4, "nbs", "iso", every("nbs"), _ge(0.005)), figure=4, sensitivity=ALL_EXP),
        Claim("fig4.iso_one_round_trip_per_ed", "Exp. 1 results",
              "ISO: each expedited message forces link idle time equal to its round trip (efficiency within 1% of "
              "N·L / (C·(T₀ + n_ED·(t_ED + 2t_p + t_EA))))",
              vs_value(4, "iso", every("iso"), lambda fd, x: iso_efficiency(x), lambda e, t: approx_value(e, t, 0.01)),
              figure=4, origin="model check"),
        Claim("fig4.nbs_line_schedule", "Exp. 1 results",
              "NBS: the link idles only when the data submitted before an ED is sent before its EA returns "
              "(efficiency within 1% of the line schedule of the NBS rule at every rate)",
              vs_value(4, "nbs", every("nbs"), lambda fd, x: nbs_efficiency(x), lambda e, t: approx_value(e, t, 0.01)),
              figure=4, origin="model check"),
        Claim("fig4.nbs_full_to_1_7", "Exp. 1 results",
              f"At rates between 0/n and 1/7 NBS keeps the connection fully used (within {100 * TOL_FULL:g}% of no "
              "expedited data).", _full_link(4, "nbs", 0.145), figure=4, sensitivity=ALL_EXP),
        Claim("fig4.nbs_drops_1_7_to_1_3", "Exp. 1 results",
              "NBS throughput efficiency drops significantly (by more than 5%) from rate 1/7 to 1/3.",
              _drop(4, "nbs", 0.14, 0.33, 0.05), figure=4, sensitivity=ALL_EXP),
    )


def fig5_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig5.nbs_delay_le_iso", "Exp. 1 results", "NBS per-octet delay is at most ISO's at every expedited rate.",
              rel(5, "nbs", "iso", every("nbs"), _le(0.005)), figure=5, sensitivity=ALL_EXP),
        Claim("fig5.iso_delay_grows", "Exp. 1 results",
              "More expedited data stretches the ISO transfer: its per-octet delay at 1/3 exceeds that without expedited data.",
              _drop(5, "iso", 0.33, 0.0, 0.05), figure=5, sensitivity=ALL_EXP),
    )


HIGH_BER = xs_where(lambda x: x >= 1e-5, "selective")
MEMORY_BER = xs_where(lambda x: x >= 1e-4, "selective")
ACK_SENS = ("delay0.135", "t1_1s")


def fig6_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig6.selective_better", "Exp. 2 results",
              "Selective acknowledgement is more efficient than one-for-one at every error rate from 1e-7 to 1e-3 "
              "('increased throughput efficiency for the medium to high error rates (E-7 to E-3)').",
              rel(6, "selective", "one_for_one", every("selective"), exceeds), figure=6, sensitivity=ACK_SENS),
        Claim("fig6.fewer_retransmissions", "Exp. 2 results",
              "The increase is due to fewer retransmissions: selective retransmits fewer DTs where errors are frequent.",
              rel(6, "one_for_one_retx", "selective_retx", HIGH_BER, exceeds), figure=6, sensitivity=ACK_SENS),
    )


def fig7_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig7.selective_more_memory", "Exp. 2 results",
              "Selective acknowledgement uses more average receive memory (at 1e-4 and above, where gaps are common).",
              rel(7, "selective", "one_for_one", MEMORY_BER, exceeds), figure=7, sensitivity=ACK_SENS),
        # "may" (the word table): existential over the rates where gaps are common.
        Claim("fig7.selective_frees_send_buffer", "Selective acknowledgement mechanism",
              "Selective acknowledgement 'may promote more efficient buffer utilization at the sending transport "
              "entity': its average send memory is below one-for-one's at some error rate of 1e-4 and above.",
              rel(7, "one_for_one_send", "selective_send", MEMORY_BER, exceeds, combine=any_of), figure=7,
              sensitivity=ACK_SENS),
    )


def fig8_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig8.selective_more_memory", "Exp. 2 results",
              "Selective acknowledgement uses more maximum receive memory (at 1e-4 and above).",
              rel(8, "selective", "one_for_one", MEMORY_BER, exceeds), figure=8, sensitivity=ACK_SENS),
    )


def knee(fd: FigureData, curve: str, share: float = 0.95) -> float | None:
    """The smallest window whose mean efficiency reaches ``share`` of the curve's best."""
    xs = fd.xs(curve)
    vals = [fd.est(curve, x).mean for x in xs]
    if not vals or not all(math.isfinite(v) for v in vals):
        return None
    top = max(vals)
    return next(x for x, v in zip(xs, vals) if v >= share * top)


def window_ratios(fd: FigureData) -> dict[float, tuple[float, float, float] | None]:
    """Per error rate of WINDOW_BERS: (one-for-one knee, selective knee, their ratio)
    in KiB, or None when a curve is missing or not finite."""
    out: dict[float, tuple[float, float, float] | None] = {}
    for b in WINDOW_BERS:
        keys = (f"one_for_one@{b:g}", f"selective@{b:g}")
        if not all(fd.has(k) for k in keys):
            out[b] = None
            continue
        a, s = knee(fd, keys[0]), knee(fd, keys[1])
        out[b] = None if a is None or s is None else (a, s, s / a)
    return out


def _twice_the_window(sd: StudyData) -> Outcome:
    """Universal over the error rates (the sentence names none): the ratio of the knees
    lies in TWICE_BAND at every rate. The detail lists each rate's knees and ratio."""
    lo, hi = TWICE_BAND
    per = window_ratios(sd[9])
    if any(v is None for v in per.values()):
        return Outcome(Verdict.INCONCLUSIVE, "missing points")
    parts: list[str] = []
    verdicts: list[Verdict] = []
    devs: list[float] = []
    for b, knees in per.items():
        assert knees is not None
        a, s, r = knees
        ok = lo <= r <= hi
        verdicts.append(Verdict.HOLDS if ok else Verdict.DOES_NOT_HOLD)
        devs.append(relative(r, 2.0))
        parts.append(f"BER {b:g}: {a:g} vs {s:g} KiB, ratio {r:.2f} ({'ok' if ok else 'NO'})")
    verdict = Verdict.HOLDS if all(x is Verdict.HOLDS for x in verdicts) else Verdict.DOES_NOT_HOLD
    return Outcome(verdict, f"95% of the best efficiency (one-for-one vs selective): {'; '.join(parts)} "
                      f"(holds for {lo:g}–{hi:g} at every rate)", deviations=tuple(devs))


def fig9_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig9.selective_needs_twice_the_window", "Exp. 2 results",
              "Selective acknowledgement needs about twice the window of one-for-one to keep data flowing "
              f"(the window at which each reaches 95% of its best efficiency differs by a factor "
              f"{TWICE_BAND[0]:g}–{TWICE_BAND[1]:g}, at each error rate 1e-5, 1e-4, 1e-3).",
              _twice_the_window, figure=9),
    )


def study_claims() -> list[Claim]:
    return [
        Claim("abstract.expedited_38", "Abstract, Conclusions",
              "The NBS expedited mechanism improves throughput efficiency by up to 38% over ISO (read as efficiency points).",
              _up_to(4, "nbs", "iso", "points", 0.38, "efficiency"), needs=(4,)),
        Claim("abstract.delay_61", "Introduction, Conclusions",
              "The NBS expedited mechanism improves delay by up to 61% over ISO (ISO delay / NBS delay − 1).",
              _up_to(5, "nbs", "iso", "inverse", 0.61, "delay"), needs=(5,)),
        Claim("abstract.selective_34", "Abstract, Conclusions",
              "Selective acknowledgement improves throughput efficiency by up to 34% over one-for-one (efficiency points).",
              _up_to(6, "selective", "one_for_one", "points", 0.34, "efficiency"), needs=(6,)),
    ]
