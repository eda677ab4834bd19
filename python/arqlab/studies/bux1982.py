"""Bux, Kümmerle & Truong (1982): HDLC NRM vs ABM (and ARM), Figures 2–11.

W. Bux, K. Kümmerle, H.L. Truong, "Data Link-Control Performance: Results Comparing HDLC
Operational Modes", Computer Networks 6 (1982) 37–51.

Every figure is a :class:`~arqlab.studies.framework.Figure`: the paper's axes, curve set
and x grid, the parameters the paper states, the ones it does not (with the value chosen
and why, see ``ASSUMPTIONS``), closed forms drawn over the data, sensitivity variants, and
one :class:`~arqlab.studies.framework.Claim` per statement of Sections 3.1–3.2, the
Conclusions (1)–(6) and the ARM conjectures of Appendix A2.

Conventions: station A is the NRM/ARM primary, B the secondary, so direction ``a_to_b``
is primary→secondary (P→S) and ``b_to_a`` secondary→primary (S→P). Transfer and buffer
holding times are divided by the I-frame transmission time T_I = (l + h)/v (mean l for
exponential lengths), as the paper plots them.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TextIO

from .framework import (
    Assumption,
    Claim,
    ClosedForm,
    Curve,
    Est,
    Figure,
    FigureData,
    Metrics,
    Outcome,
    ProgressFn,
    Reproduction,
    RunRequest,
    RunSettings,
    Scenario,
    Sensitivity,
    StudyData,
    Verdict,
    all_of,
    any_of,
    approx,
    approx_value,
    at_least,
    at_most,
    below,
    conjunction,
    exceeds,
    get_dotted,
    pointwise,
    reproduce_study,
    within,
)

NAME = "bux1982"
TITLE = "Bux, Kümmerle & Truong (1982), Data Link-Control Performance: HDLC NRM vs ABM"
CITATION = (
    "W. Bux, K. Kümmerle and H.L. Truong, \"Data Link-Control Performance: Results Comparing HDLC "
    "Operational Modes\", Computer Networks 6 (1982) 37–51"
)

# ----------------------------------------------------------------------------- constants

T_P_TERRESTRIAL = 0.050  # s, Section 3 ("processing plus propagation delay of 50 msec")
T_P_SATELLITE = 0.350  # s, Section 3
V_LOW, V_HIGH = 4800.0, 48000.0  # bit/s, Section 3
P_BIT_DEFAULT = 1e-5  # Sections 3.1.3 (Fig. 6: "as opposed to 10^-5 in the previous examples"), 3.2
P_BIT_SATELLITE = 1e-7  # Section 3.1.3, Fig. 6
L_FIG7 = 5000  # bits, Fig. 7/8 legend
L_FIG9 = 800  # bits, Fig. 9 legend
Y_U_FIG10 = 0.5  # useful load, Section 3.2 (Fig. 10)
BLOCK_ERRORS_FIG10 = (0.0, 1e-2)  # I-frame block-error probabilities, Section 3.2 (Fig. 10)

#: Tolerances used by the claims (relative): "≈"/"almost equal", "≥" slack, M/D/1 match.
TOL_APPROX = 0.05
TOL_GE = 0.02
TOL_CLOSED_FORM = 0.05
TOL_ORDER_TP = 0.30  # "approximately equal to t_p"

#: Run lengths: I-frames per replication (saturated) or messages per replication (Poisson).
FRAMES_QUICK, FRAMES_FULL = 20000, 40000
MESSAGES_QUICK, MESSAGES_FULL = 10000, 40000
QUICK_REPLICATIONS = 5
FULL_PRECISION = 0.025
FULL_MIN_REPLICATIONS = 10
FULL_MAX_REPLICATIONS = 2000

LENGTHS = (100, 200, 500, 1000, 2000, 3000, 5000, 10000, 20000)
LENGTHS_QUICK = (200, 500, 1000, 2000, 3000, 5000, 10000, 20000)
LOADS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
LOADS_QUICK = (0.1, 0.3, 0.5, 0.7)
LOADS_800 = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
LOADS_800_QUICK = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
TP_RATIOS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
TP_RATIOS_QUICK = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0)

# Paper's line styles: NRM P→S solid, NRM S→P dashed, ABM dash-dot; ARM (not in the paper) dotted.
SOLID, DASHED, DASHDOT = "-", "--", "-."


# ----------------------------------------------------------------------------- scenario helpers


def overhead_bits(scn: Mapping[str, Any]) -> float:
    """Frame overhead h: the scenario's value, else 48 (modulus 8) or 56 (modulus 128)."""
    h = get_dotted(scn, "protocol.overhead_bits")
    if h is not None:
        return float(h)
    return 56.0 if int(get_dotted(scn, "protocol.modulus", 8)) == 128 else 48.0


def s_frame_bits(scn: Mapping[str, Any]) -> float:
    s = get_dotted(scn, "protocol.s_frame_bits")
    return float(s) if s is not None else overhead_bits(scn)


def side_of(direction: str) -> str:
    return "a" if direction == "a_to_b" else "b"


def frame_time(scn: Mapping[str, Any], side: str = "a") -> float:
    """Mean I-frame transmission time T_I = (l + h)/v of station ``side``'s messages."""
    l = float(get_dotted(scn, f"traffic.{side}.length.mean_bits"))
    return (l + overhead_bits(scn)) / float(get_dotted(scn, "link.rate_bps"))


def t1_rule(t_i: float, t_p: float, t_s: float) -> float:
    """Default timeout: 1.5 × (2·T_I + 2·t_p + T_S), rounded to 0.1 ms.

    REFERENCE.md §A: T1 > longest frame + 2·t_p + ack frame + receiver's ack delay; with
    two-way flow the ack may wait behind one reverse I-frame, hence 2·T_I. The paper calls
    ABM's time-out recovery "a relatively short delay", so a 50% margin, not a multiple.
    """
    return round(1.5 * (2.0 * t_i + 2.0 * t_p + t_s), 4)


def block_error_to_pbit(p_block: float, frame_bits: float) -> float:
    """Bit-error probability giving I-frame block-error probability ``p_block``."""
    if p_block <= 0.0:
        return 0.0
    return 1.0 - (1.0 - p_block) ** (1.0 / frame_bits)


def base_scenario(*, rate: float, delay: float, p_bit: float, modulus: int = 8, mode: str = "nrm",
                  dist: str = "constant", length: int = 1000, saturated: bool = True) -> Scenario:
    """A Bux 1982 link: full duplex, HDLC with REJ, unlimited buffers, station A primary."""
    kind = "saturated" if saturated else "poisson"
    traffic_a: dict[str, Any] = {"kind": kind, "length": {"dist": dist, "mean_bits": length}}
    traffic_b: dict[str, Any] = {"kind": kind, "length": {"dist": dist, "mean_bits": length}}
    if not saturated:
        traffic_a["load"] = 0.5
        traffic_b["load"] = 0.5
    return {
        "run": {
            "duration_s": 1000.0,
            "warmup_s": 10.0,
            "warmup": "fixed",
            "method": "replications",
            "replications": 10,
            "min_replications": FULL_MIN_REPLICATIONS,
            "max_replications": FULL_MAX_REPLICATIONS,
        },
        "link": {"rate_bps": rate, "delay_s": delay, "bit_error_rate": p_bit},
        "protocol": {
            "kind": "hdlc",
            "mode": mode,
            "modulus": modulus,
            "reject": "rej",
            "receive_buffer_frames": 0,
            "t1_s": 1.0,
        },
        "traffic": {"a": traffic_a, "b": traffic_b},
    }


def _length_overrides(x: float) -> dict[str, Any]:
    n = int(round(x))
    return {"traffic.a.length.mean_bits": n, "traffic.b.length.mean_bits": n}


def _load_overrides(x: float) -> dict[str, Any]:
    return {"traffic.a.load": float(x), "traffic.b.load": float(x)}


def _loaded_directions(scn: Mapping[str, Any]) -> list[str]:
    out = []
    for side, d in (("a", "a_to_b"), ("b", "b_to_a")):
        if get_dotted(scn, f"traffic.{side}.kind", "none") != "none":
            out.append(d)
    return out


def derive_run(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Per-point settings computed from the point's scenario: T1, run length, warm-up.

    * T1 = ``t1_factor`` × :func:`t1_rule` (factor 1 unless a sensitivity variant says).
    * Saturated flow: warm-up 20 window cycles (T_I + 2 t_p); length = warm-up + N frames at
      the slower of the line rate and the error-free window rate (N = 20000 quick, 40000 full).
    * Poisson flow: warm-up (50 + 10/(1−ρ)²)·T_I + 40·t_p, ρ = Y_u·(l+h)/l the line
      utilization (M/D/1 relaxation grows like 1/(1−ρ)²); measured length N/(1−ρ) messages
      of the direction (N = 10000 quick, 40000 full).
    """
    side = side_of(curve.direction)
    t_i = frame_time(scn, side)
    t_p = float(get_dotted(scn, "link.delay_s"))
    v = float(get_dotted(scn, "link.rate_bps"))
    t_s = s_frame_bits(scn) / v
    out: dict[str, Any] = {}
    if "block_error" in params:
        out["link.bit_error_rate"] = block_error_to_pbit(float(params["block_error"]), t_i * v)
    out["protocol.t1_s"] = round(float(params.get("t1_factor", 1.0)) * t1_rule(t_i, t_p, t_s), 4)
    loaded = _loaded_directions(scn)
    saturated = get_dotted(scn, f"traffic.{side}.kind") == "saturated"
    if saturated:
        w = float(get_dotted(scn, "protocol.window", int(get_dotted(scn, "protocol.modulus", 8)) - 1))
        per_frame = max(t_i, (t_i + 2 * t_p + t_s) / w)
        warm = 20.0 * (t_i + 2 * t_p)
        n = FRAMES_QUICK if quick else FRAMES_FULL
        out["run.warmup_s"] = round(warm, 3)
        out["run.duration_s"] = round(warm + n * per_frame, 3)
        out["run.precision_measures"] = [f"{d}.throughput_efficiency" for d in loaded]
    else:
        load = float(get_dotted(scn, f"traffic.{side}.load"))
        l = float(get_dotted(scn, f"traffic.{side}.length.mean_bits"))
        rho = min(load * (l + overhead_bits(scn)) / l, 0.97)
        warm = (50.0 + 10.0 / (1.0 - rho) ** 2) * t_i + 40.0 * t_p
        n_msgs = (MESSAGES_QUICK if quick else MESSAGES_FULL) / (1.0 - rho)
        rate_msgs = load * v / l
        out["run.warmup_s"] = round(warm, 3)
        out["run.duration_s"] = round(warm + n_msgs / rate_msgs, 3)
        out["run.precision_measures"] = [f"{d}.{m}" for d in loaded for m in ("transfer_time_s", "buffer_holding_time_s")]
    return out


def normalize_throughput(scn: Scenario, curve: Curve) -> float:
    return 1.0


def normalize_by_ti(scn: Scenario, curve: Curve) -> float:
    return frame_time(scn, side_of(curve.direction))


# ----------------------------------------------------------------------------- closed forms


def channel_bound(l: float, h: float, p_bit: float) -> float:
    """Any ARQ: η ≤ l/(l+h)·(1−p)^(l+h) (each delivered frame needs one clean copy)."""
    return l / (l + h) * (1.0 - p_bit) ** (l + h)


def window_bound(l: float, h: float, v: float, t_p: float, w: int) -> float:
    """Error-free one-way window limit: η ≤ l/(l+h)·min(1, W·T_I/(T_I + 2 t_p + T_S))."""
    t_i = (l + h) / v
    t_s = h / v
    return l / (l + h) * min(1.0, w * t_i / (t_i + 2 * t_p + t_s))


def md1_transfer_over_ti(load: float, l: float, h: float, v: float, t_p: float, extra_tp: float = 0.0) -> float:
    """M/D/1 transfer time / T_I: 1 + ρ/(2(1−ρ)) + (1 + extra)·t_p/T_I, ρ = Y_u (l+h)/l.

    ``extra_tp = 1`` adds the mean polling delay τ/2 with τ ≈ 2 t_p (Section 3.2).
    """
    t_i = (l + h) / v
    rho = load * (l + h) / l
    if rho >= 1.0:
        return float("nan")
    return 1.0 + rho / (2.0 * (1.0 - rho)) + (1.0 + extra_tp) * t_p / t_i


def mg1_exp_transfer_over_ti(load: float, l: float, h: float, v: float, t_p: float, extra_tp: float = 0.0) -> float:
    """Pollaczek–Khinchine for S = (L + h)/v, L exponential (mean l): transfer / mean T_I."""
    es = (l + h) / v
    es2 = (2 * l * l + 2 * l * h + h * h) / (v * v)
    lam = load * v / l
    rho = lam * es
    if rho >= 1.0:
        return float("nan")
    wq = lam * es2 / (2.0 * (1.0 - rho))
    return (wq + es + (1.0 + extra_tp) * t_p) / es


# ----------------------------------------------------------------------------- claim helpers

Region = Callable[[FigureData], list[float]]


def _base_argmax(fd: FigureData, curve: str) -> float | None:
    """Optimum (x of the largest mean) of ``curve`` in the figure's base data."""
    sub = fd.frame[(fd.frame["curve"] == curve) & (fd.frame["variant"] == "")]
    sub = sub[sub["y"].notna()]
    if sub.empty:
        return None
    return float(sub.loc[sub["y"].idxmax(), "x"])


def left_of(ref: str, factor: float = 0.5) -> Region:
    """x ≤ factor × optimum of ``ref`` (well left of the maximum)."""
    def region(fd: FigureData) -> list[float]:
        xo = _base_argmax(fd, ref)
        return [] if xo is None else [x for x in fd.xs(ref) if x <= factor * xo]
    return region


def right_of(ref: str, factor: float = 2.0) -> Region:
    """x ≥ factor × optimum of ``ref`` (well right of the maximum)."""
    def region(fd: FigureData) -> list[float]:
        xo = _base_argmax(fd, ref)
        return [] if xo is None else [x for x in fd.xs(ref) if x >= factor * xo]
    return region


def right_of_latest(refs: Sequence[str]) -> Region:
    """x ≥ the largest optimum among ``refs``: right of (or at) every compared curve's maximum.

    "In the region of the optimum and ... longer message lengths" (3.1.3) must not reach into
    a curve's ascending branch, where the same section says ABM is above NRM.
    """
    def region(fd: FigureData) -> list[float]:
        opts = [_base_argmax(fd, r) for r in refs]
        if any(o is None for o in opts):
            return []
        xo = max(o for o in opts if o is not None)
        return [x for x in fd.xs(refs[0]) if x >= xo]
    return region


def xs_where(pred: Callable[[float], bool], ref: str) -> Region:
    def region(fd: FigureData) -> list[float]:
        return [x for x in fd.xs(ref) if pred(x)]
    return region


def every(ref: str) -> Region:
    return xs_where(lambda x: True, ref)


Relation = Callable[[Est, Est], Verdict]


def rel(fig: int, a: str, b: str, region: Region, relation: Relation, *,
        combine: Callable[[Iterable[Verdict]], Verdict] = all_of, fig_b: int | None = None) -> Callable[[StudyData], Outcome]:
    """Check ``relation(a(x), b(x))`` over a region (``b`` may come from figure ``fig_b``)."""
    def check(sd: StudyData) -> Outcome:
        fa = sd[fig]
        fb = sd[fig_b] if fig_b is not None else fa
        xs = [x for x in region(fa) if x in set(fa.xs(a)) and x in set(fb.xs(b))]
        return pointwise(xs, lambda x: relation(fa.est(a, x), fb.est(b, x)), combine=combine,
                         describe=lambda x: f"{fa.est(a, x)} vs {fb.est(b, x)}")
    return check


def both(**parts: Callable[[StudyData], Outcome]) -> Callable[[StudyData], Outcome]:
    """Conjunction of several named checks."""
    def check(sd: StudyData) -> Outcome:
        return conjunction({k: f(sd) for k, f in parts.items()})
    return check


def vs_value(fig: int, a: str, region: Region, target: Callable[[FigureData, float], float],
             relation: Callable[[Est, float], Verdict]) -> Callable[[StudyData], Outcome]:
    """Check ``relation(a(x), target(x))`` over a region (target: closed form or reference)."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = region(fd)
        return pointwise(xs, lambda x: relation(fd.est(a, x), target(fd, x)),
                         describe=lambda x: f"{fd.est(a, x)} vs {target(fd, x):.4g}")
    return check


def gap_vs_value(fig: int, a: str, b: str, region: Region, target: Callable[[FigureData, float], float],
                 relation: Callable[[Est, float], Verdict]) -> Callable[[StudyData], Outcome]:
    """Check ``relation(a(x) − b(x), target(x))``."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = [x for x in region(fd) if x in set(fd.xs(b))]
        return pointwise(xs, lambda x: relation(fd.est(a, x) - fd.est(b, x), target(fd, x)),
                         describe=lambda x: f"gap {fd.est(a, x) - fd.est(b, x)} vs {target(fd, x):.4g}")
    return check


def departure(fd: FigureData, curve: str, ref: Callable[[float], float], tol: float) -> tuple[float | None, float | None, str]:
    """Where ``curve`` leaves a reference curve upward by more than ``tol`` (relative).

    Returns (lo, hi, detail): ``lo`` is the first x at which a departure cannot be ruled out,
    ``hi`` the first x at which it is significant at 95% (None when not reached in the grid).
    """
    lo = hi = None
    parts = []
    for x in fd.xs(curve):
        r = ref(x)
        v = exceeds(fd.est(curve, x), Est(r, 0.0), tol)
        parts.append(f"x={x:g}:{fd.est(curve, x)}/{r:.4g}:{ {Verdict.HOLDS: 'above', Verdict.DOES_NOT_HOLD: 'on', Verdict.INCONCLUSIVE: '?'}[v] }")
        if lo is None and v is not Verdict.DOES_NOT_HOLD:
            lo = x
        if hi is None and v is Verdict.HOLDS:
            hi = x
    return lo, hi, "; ".join(parts)


def departs_within(fig: int, curve: str, ref: Callable[[FigureData], Callable[[float], float]], tol: float,
                   low: float, high: float) -> Callable[[StudyData], Outcome]:
    """The departure of ``curve`` from ``ref`` happens at an x in [low, high]."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        lo, hi, detail = departure(fd, curve, ref(fd), tol)
        if lo is not None and hi is not None and lo >= low and hi <= high:
            v = Verdict.HOLDS
        elif (lo is not None and lo > high) or (hi is not None and hi < low) or (lo is None and fd.xs(curve)):
            v = Verdict.DOES_NOT_HOLD
        else:
            v = Verdict.INCONCLUSIVE
        return Outcome(v, f"departure in [{lo}, {hi}] vs claimed [{low}, {high}]: {detail}")
    return check


def departs_before(fig: int, first: str, second: str, ref_first: Callable[[FigureData], Callable[[float], float]],
                   ref_second: Callable[[FigureData], Callable[[float], float]], tol: float) -> Callable[[StudyData], Outcome]:
    """``first`` leaves its reference at a smaller x than ``second`` leaves its own."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        lo1, hi1, d1 = departure(fd, first, ref_first(fd), tol)
        lo2, hi2, d2 = departure(fd, second, ref_second(fd), tol)
        if hi1 is not None and (lo2 is None or hi1 < lo2):
            v = Verdict.HOLDS
        elif hi2 is not None and (lo1 is None or hi2 <= lo1):
            v = Verdict.DOES_NOT_HOLD
        else:
            v = Verdict.INCONCLUSIVE
        return Outcome(v, f"{first} departs in [{lo1}, {hi1}], {second} in [{lo2}, {hi2}]. {first}: {d1} || {second}: {d2}")
    return check


def linear_trend(curve: str) -> Callable[[FigureData], Callable[[float], float]]:
    """Reference: the straight line through the curve's first two points."""
    def make(fd: FigureData) -> Callable[[float], float]:
        xs = fd.xs(curve)
        if len(xs) < 2:
            return lambda x: float("nan")
        x0, x1 = xs[0], xs[1]
        y0, y1 = fd.est(curve, x0).mean, fd.est(curve, x1).mean
        slope = (y1 - y0) / (x1 - x0)
        return lambda x: y0 + slope * (x - x0)
    return make


def fixed_ref(fn: Callable[[float], float]) -> Callable[[FigureData], Callable[[float], float]]:
    return lambda fd: fn


def monotone_up(fig: int, curve: str, tol: float) -> Callable[[StudyData], Outcome]:
    """Non-decreasing in x (each point ≥ the previous one within ``tol``)."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = fd.xs(curve)
        pairs = list(zip(xs, xs[1:]))
        return pointwise([b for _, b in pairs], lambda xb: at_least(fd.est(curve, xb), fd.est(curve, xs[xs.index(xb) - 1]), tol),
                         describe=lambda xb: f"{fd.est(curve, xb)} after {fd.est(curve, xs[xs.index(xb) - 1])}")
    return check


# ----------------------------------------------------------------------------- curve builders

COLORS = {"m8": "black", "m128": "tab:red", "4k8": "tab:blue", "48k": "black", "p0": "black", "p1e5": "tab:red",
          "pb0": "black", "pb1e2": "tab:red"}


def nrm_oneway(tag: str, label: str, direction: str, overrides: Mapping[str, Any], color: str, **kw: Any) -> Curve:
    loaded = "a" if direction == "a_to_b" else "b"
    idle = "b" if loaded == "a" else "a"
    ov = {"protocol.mode": "nrm", f"traffic.{loaded}.kind": "saturated", f"traffic.{idle}.kind": "none", **overrides}
    key = f"nrm_{'p2s' if direction == 'a_to_b' else 's2p'}_{tag}"
    style = {"linestyle": SOLID if direction == "a_to_b" else DASHED, "color": color}
    return Curve(key, f"NRM {'prim.→sec.' if direction == 'a_to_b' else 'sec.→prim.'}, {label}", direction, ov, style, **kw)


def mode_curves(tag: str, label: str, overrides: Mapping[str, Any], color: str, *, arm: bool = False,
                abm_b: bool = True, **kw: Any) -> list[Curve]:
    """Two-way (or Poisson) curves of one parameter set: NRM P→S, NRM S→P, ABM (+ B→A), ARM."""
    nrm = {"protocol.mode": "nrm", **overrides}
    abm = {"protocol.mode": "abm", **overrides}
    out = [
        Curve(f"nrm_p2s_{tag}", f"NRM prim.→sec., {label}", "a_to_b", nrm, {"linestyle": SOLID, "color": color}, **kw),
        Curve(f"nrm_s2p_{tag}", f"NRM sec.→prim., {label}", "b_to_a", nrm, {"linestyle": DASHED, "color": color}, **kw),
        Curve(f"abm_{tag}", f"ABM, {label}", "a_to_b", abm, {"linestyle": DASHDOT, "color": color}, **kw),
    ]
    if abm_b:
        out.append(Curve(f"abm_ba_{tag}", f"ABM B→A, {label}", "b_to_a", abm, {"linestyle": DASHDOT, "color": color},
                         plot=False, **kw))
    if arm:
        armov = {"protocol.mode": "arm", **overrides}
        out += [
            Curve(f"arm_p2s_{tag}", f"ARM prim.→sec., {label} (arqlab)", "a_to_b", armov,
                  {"color": "tab:green"}, extension=True, **kw),
            Curve(f"arm_s2p_{tag}", f"ARM sec.→prim., {label} (arqlab)", "b_to_a", armov,
                  {"color": "tab:olive"}, extension=True, **kw),
        ]
    return out


def oneway_set(tag: str, label: str, overrides: Mapping[str, Any], color: str, *, arm: bool = False) -> list[Curve]:
    """One-way saturated curves: NRM P→S, NRM S→P (separate runs), ABM (A→B), ARM S→P."""
    out = [
        nrm_oneway(tag, label, "a_to_b", overrides, color),
        nrm_oneway(tag, label, "b_to_a", overrides, color),
        Curve(f"abm_{tag}", f"ABM, {label}", "a_to_b",
              {"protocol.mode": "abm", "traffic.a.kind": "saturated", "traffic.b.kind": "none", **overrides},
              {"linestyle": DASHDOT, "color": color}),
    ]
    if arm:
        out.append(Curve(f"arm_s2p_{tag}", f"ARM sec.→prim., {label} (arqlab)", "b_to_a",
                         {"protocol.mode": "arm", "traffic.a.kind": "none", "traffic.b.kind": "saturated", **overrides},
                         {"color": "tab:olive"}, extension=True))
    return out


# ----------------------------------------------------------------------------- assumptions

A_T1 = Assumption(
    "T1 (timeout)", "1.5·(2·T_I + 2·t_p + T_S) per point",
    "not stated; REFERENCE.md §A sizing (longest frame + 2 t_p + ack frame + one reverse I-frame of ack delay) "
    "with a 50% margin, since the paper calls ABM time-out recovery 'a relatively short delay'",
)
A_PBIT_1WAY = Assumption(
    "p_bit", "1e-5",
    "not legible in the extracted text; Section 3.1.3 says Fig. 6 uses 1e-7 'as opposed to 10^-5 in the previous "
    "examples' (Figs. 2–5); a right-of-optimum region (optimum ≈ √(h/p) ≈ 2000 bit) also needs p ≈ 1e-5",
)
A_REJ = Assumption("recovery options", "REJ, one outstanding, no SREJ; unlimited buffers",
                   "Section 2 and Appendix A1 (REJ from the optional functions; buffers unlimited)")
A_FIG3 = Assumption("v, t_p", "48 kbit/s, 50 ms",
                    "Fig. 3 legend not legible; the text motivates modulus 128 for 'higher-speed terrestrial links' "
                    "after Fig. 2, i.e. the 48 kbit/s terrestrial case")
A_FIG10_L = Assumption(
    "l, v (Fig. 10)", "800 bit constant, 48 kbit/s (T_I = 17.67 ms); x sets t_p = x·T_I",
    "'obtained for particular values of l and v' (unstated); the Fig. 9 configuration, so Fig. 10 at t_p/T_I = 2.83 "
    "and Y_u = 0.5 is the Fig. 9 link",
)
A_FIG10_PB = Assumption("p_bit (Fig. 10)", "from block-error 0 or 1e-2: p = 1 − (1 − P_B)^(1/(l+h))",
                        "the text gives I-frame block-error probabilities 0 and 10^-2")
A_FIG11 = Assumption(
    "l, p_bit (Fig. 11)", "800 bit constant, p_bit = 0, 48 kbit/s, t_p = 50 ms, modulus 8",
    "legend not legible; the text compares Fig. 11 with Fig. 9 direction by direction, so the Fig. 9 link "
    "(error-free case) is the most plausible",
)
A_LOADS = Assumption("traffic", "Poisson arrivals, the same useful load on both stations",
                     "Section 3.2: 'symmetrical traffic conditions, i.e., the traffic offered to both channels is equal'")
A_X = Assumption("x grid", "message lengths 100…20000 bit (log axis)",
                 "axis range not legible; covers the window-limited branch, the optimum near 2000 bit and the "
                 "'greater than 3000 bits' region of Figs. 3–4")


# ----------------------------------------------------------------------------- figures


window_limited_48k = xs_where(lambda x: window_bound(x, 48.0, V_HIGH, T_P_TERRESTRIAL, 7) < x / (x + 48.0), "abm_48k")


def fig2() -> Figure:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT)
    curves = (oneway_set("4k8", "4.8 kbit/s", {"link.rate_bps": V_LOW}, COLORS["4k8"])
              + oneway_set("48k", "48 kbit/s", {"link.rate_bps": V_HIGH}, COLORS["48k"]))
    h = 48.0
    closed = (
        ClosedForm("bound l/(l+h)·(1−p)^(l+h)", lambda x: channel_bound(x, h, P_BIT_DEFAULT)),
        ClosedForm("error-free window bound, 48 kbit/s, W=7", lambda x: window_bound(x, h, V_HIGH, T_P_TERRESTRIAL, 7),
                   {"linestyle": ":", "color": "0.3"}),
    )
    claims = (
        Claim("fig2.upper_bound", "3.1.1(i)",
              "Maximum throughput has an upper bound given by the ratio of I-field length to total I-frame length "
              "(here with the clean-copy factor (1−p)^(l+h)); no curve exceeds it.",
              lambda sd: conjunction({c.key: vs_value(2, c.key, every(c.key),
                                                      lambda fd, x: channel_bound(x, h, P_BIT_DEFAULT),
                                                      lambda e, t: at_most(e, Est(t, 0.0), 0.005))(sd)
                                      for c in curves}), figure=2),
        Claim("fig2.interior_optimum", "3.1.1(i)-(ii)",
              "Maximum throughput decreases for very short and for very long messages (an interior optimum).",
              lambda sd: conjunction({c.key: _interior_max(sd[2], c.key) for c in curves}), figure=2),
        Claim("fig2.48k_below_4k8_short", "3.1.2",
              "Left of the maximum, the 48 kbit/s link has lower throughput efficiency than the 4.8 kbit/s link "
              "(modulus rule: M−1 = 7 outstanding frames reached more often); checked where the 48 kbit/s error-free "
              "window bound binds (7·T_I < T_I + 2t_p + T_S, l ≤ 800 bit).",
              both(**{m: rel(2, f"{m}_48k", f"{m}_4k8", window_limited_48k, below) for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=2),
        Claim("fig2.left_nrm_s2p_ge_p2s", "3.1.2",
              "To the left of the maximum, NRM throughput secondary→primary is constantly higher than primary→secondary.",
              both(**{r: rel(2, f"nrm_s2p_{r}", f"nrm_p2s_{r}", left_of(f"abm_{r}"), lambda a, b: at_least(a, b, TOL_GE))
                      for r in ("48k", "4k8")}), figure=2),
        Claim("fig2.left_abm_ge_nrm", "3.1.2",
              "In the ascending branch, ABM is equal or superior to both directions of NRM.",
              both(**{f"{m}_{r}": rel(2, f"abm_{r}", f"{m}_{r}", left_of(f"abm_{r}"), lambda a, b: at_least(a, b, TOL_GE))
                      for r in ("48k", "4k8") for m in ("nrm_p2s", "nrm_s2p")}), figure=2, sensitivity=("t1x3",)),
        Claim("fig2.right_nrm_p2s_highest", "3.1.2",
              "Right of the maximum, primary→secondary shows higher throughput than the reverse direction (and ABM).",
              both(**{f"{m}_{r}": rel(2, f"nrm_p2s_{r}", f"{m}_{r}", right_of(f"abm_{r}"), exceeds)
                      for r in ("48k", "4k8") for m in ("nrm_s2p", "abm")}),
              figure=2, sensitivity=("p5e-6", "p2e-5", "t1x3")),
        Claim("fig2.right_abm_approx_nrm_s2p", "3.1.2",
              "Right of the maximum, ABM throughput is almost equal to NRM secondary→primary (both use REJ recovery).",
              both(**{r: rel(2, f"abm_{r}", f"nrm_s2p_{r}", right_of(f"abm_{r}"), lambda a, b: approx(a, b, TOL_APPROX))
                      for r in ("48k", "4k8")}),
              figure=2, sensitivity=("p5e-6", "p2e-5", "t1x3")),
        Claim("fig2.mod8_limits_48k", "3.1.2",
              "Modulus 8 degrades throughput on the 48 kbit/s link when t_p ≫ T_I: for short messages ABM stays "
              "well (>10%) below the error-free channel bound, near the window bound W·T_I/(T_I+2t_p+T_S).",
              both(
                  below_bound=vs_value(2, "abm_48k", xs_where(lambda x: 2 * T_P_TERRESTRIAL > 5 * (x + h) / V_HIGH, "abm_48k"),
                                       lambda fd, x: channel_bound(x, h, P_BIT_DEFAULT), lambda e, t: below(e, Est(t, 0.0), 0.10)),
                  near_window=vs_value(2, "abm_48k", xs_where(lambda x: 2 * T_P_TERRESTRIAL > 5 * (x + h) / V_HIGH, "abm_48k"),
                                       lambda fd, x: window_bound(x, h, V_HIGH, T_P_TERRESTRIAL, 7),
                                       lambda e, t: approx_value(e, t, 0.10)),
              ), figure=2),
    )
    sens = (
        Sensitivity("p5e-6", "p_bit = 5e-6 instead of the assumed 1e-5", ("nrm_p2s_48k", "nrm_s2p_48k", "abm_48k"),
                    {"link.bit_error_rate": 5e-6}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
        Sensitivity("p2e-5", "p_bit = 2e-5 instead of the assumed 1e-5", ("nrm_p2s_48k", "nrm_s2p_48k", "abm_48k"),
                    {"link.bit_error_rate": 2e-5}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
        Sensitivity("t1x3", "T1 three times the default rule", ("abm_48k", "abm_4k8"), params={"t1_factor": 3.0},
                    xs=(200, 5000, 10000, 20000), quick_xs=(5000, 10000)),
    )
    return Figure(
        2, "Maximum throughput relative to transmission rate vs. message length. One-way flow. Impact of transmission rate.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        _length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=closed, assumptions=(A_PBIT_1WAY, A_T1, A_X, A_REJ), sensitivities=sens, claims=claims,
        caption="Terrestrial link t_p = 50 ms, v = 4.8 and 48 kbit/s, constant lengths, modulus 8, one-way flow.",
        published=(
            "Optimum (maximum) in the middle of the length range; left of it 48 kbit/s < 4.8 kbit/s.",
            "Left: NRM S→P > NRM P→S; ABM ≥ both. Right: NRM P→S highest; ABM ≈ NRM S→P.",
        ),
    )


def _interior_max(fd: FigureData, curve: str) -> Outcome:
    xs = fd.xs(curve)
    if len(xs) < 3:
        return Outcome(Verdict.INCONCLUSIVE, "fewer than 3 points")
    xo = _base_argmax(fd, curve)
    peak = fd.est(curve, xo) if xo is not None else Est(float("nan"), float("nan"))
    v = all_of([below(fd.est(curve, xs[0]), peak), below(fd.est(curve, xs[-1]), peak)])
    return Outcome(v, f"max at x={xo} ({peak}); ends {fd.est(curve, xs[0])}, {fd.est(curve, xs[-1])}")


def fig3() -> Figure:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT)
    curves = (oneway_set("m8", "mod 8", {"protocol.modulus": 8}, COLORS["m8"], arm=True)
              + oneway_set("m128", "mod 128", {"protocol.modulus": 128}, COLORS["m128"], arm=True))
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    short = xs_where(lambda x: x <= 500, "abm_m8")
    claims = (
        Claim("fig3.mod128_helps_short", "3.1.2",
              "For short message lengths, throughput efficiency is significantly improved by modulus 128.",
              both(**{m: rel(3, f"{m}_m128", f"{m}_m8", short, exceeds) for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=3),
        Claim("fig3.nrm_s2p_mod128_collapse", "3.1.2",
              "For message lengths greater than 3000 bits, NRM secondary→primary throughput with modulus 128 degrades "
              "dramatically: a small modulus performs better than a large one.",
              rel(3, "nrm_s2p_m128", "nrm_s2p_m8", long_, below),
              figure=3, sensitivity=("p5e-6", "p2e-5")),
        Claim("fig3.nrm_s2p_mod128_dramatic", "3.1.2",
              "The NRM S→P modulus-128 degradation beyond 3000 bits is dramatic: more than 25% below ABM modulus 128.",
              rel(3, "nrm_s2p_m128", "abm_m128", long_, lambda a, b: below(a, b, 0.25)),
              figure=3, sensitivity=("p5e-6", "p2e-5", "t1x3")),
        Claim("fig3.abm_mod128_no_collapse", "3.1.2",
              "The ABM link does not show this effect (time-out recovery): ABM modulus 128 ≥ ABM modulus 8 beyond 3000 bits.",
              rel(3, "abm_m128", "abm_m8", long_, lambda a, b: at_least(a, b, TOL_GE)),
              figure=3, sensitivity=("t1x3", "p2e-5")),
        Claim("fig3.nrm_p2s_mod128_above_s2p", "3.1.3",
              "In one-way flow (unlike two-way), NRM primary→secondary with modulus 128 does better than secondary→primary "
              "for long messages.",
              rel(3, "nrm_p2s_m128", "nrm_s2p_m128", long_, exceeds), figure=3, sensitivity=("p5e-6", "p2e-5")),
        Claim("a2.arm_left_throughput_eq_abm", "A2(a)",
              "ARM conjecture: left of the optimum ARM throughput should equal ABM (asynchronous response).",
              both(**{m: rel(3, f"arm_s2p_{m}", f"abm_{m}", left_of(f"abm_{m}"), lambda a, b: approx(a, b, TOL_APPROX))
                      for m in ("m8", "m128")}), figure=3),
        Claim("a2.arm_right_throughput_similar_abm", "A2(a)",
              "ARM conjecture: right of the optimum time-out recovery prevents the NRM collapse; ARM at most slightly "
              "less efficient than ABM (within 10%) and above NRM S→P with modulus 128.",
              both(near_abm=rel(3, "arm_s2p_m128", "abm_m128", long_, lambda a, b: at_least(a, b, 0.10)),
                   above_nrm=rel(3, "arm_s2p_m128", "nrm_s2p_m128", long_, exceeds)),
              figure=3, sensitivity=("t1x3",)),
    )
    sens = (
        Sensitivity("p5e-6", "p_bit = 5e-6 instead of the assumed 1e-5", ("nrm_s2p_m8", "nrm_s2p_m128", "nrm_p2s_m128", "abm_m128"),
                    {"link.bit_error_rate": 5e-6}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
        Sensitivity("p2e-5", "p_bit = 2e-5 instead of the assumed 1e-5", ("nrm_s2p_m8", "nrm_s2p_m128", "nrm_p2s_m128", "abm_m8", "abm_m128"),
                    {"link.bit_error_rate": 2e-5}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
        Sensitivity("t1x3", "T1 three times the default rule", ("abm_m128", "arm_s2p_m128"), params={"t1_factor": 3.0},
                    xs=(5000, 10000, 20000), quick_xs=(5000, 10000)),
    )
    return Figure(
        3, "Maximum throughput relative to transmission rate vs. message length. One-way flow. Impact of modulus value.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        _length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=(ClosedForm("bound l/(l+h)·(1−p)^(l+h), h=48", lambda x: channel_bound(x, 48.0, P_BIT_DEFAULT)),),
        assumptions=(A_FIG3, A_PBIT_1WAY, A_T1, A_X, A_REJ), sensitivities=sens, claims=claims,
        caption="Terrestrial link t_p = 50 ms, v = 48 kbit/s, constant lengths, one-way flow, modulus 8 and 128 "
                "(h = 48 / 56 bit). ARM curves are arqlab's measurement of the A2 conjecture.",
        published=("Mod 128 > mod 8 for short messages; NRM S→P mod 128 collapses for l > 3000 bit; ABM does not.",),
    )


def _two_way_figure(dist: str, *, delay: float, p_bit: float, arm: bool) -> tuple[Scenario, list[Curve]]:
    """Two-way saturated flow, modulus 8 and 128 curve sets on one link."""
    base = base_scenario(rate=V_HIGH, delay=delay, p_bit=p_bit, dist=dist)
    curves = (mode_curves("m8", "mod 8", {"protocol.modulus": 8}, COLORS["m8"])
              + mode_curves("m128", "mod 128", {"protocol.modulus": 128}, COLORS["m128"], arm=arm))
    return base, curves


def _fig4_like_claims(n: int, *, prefix: str, sens: tuple[str, ...]) -> list[Claim]:
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    opt_right = right_of_latest(("abm_m8", "nrm_p2s_m8", "nrm_s2p_m8"))
    sec = "3.1.3"
    return [
        Claim(f"{prefix}.left_nrm_directions_equal_mod8", sec,
              "Left of the maximum (two-way flow), both NRM directions are almost equivalent (acks ride on I-frames).",
              rel(n, "nrm_p2s_m8", "nrm_s2p_m8", left_of("abm_m8"), lambda a, b: approx(a, b, TOL_APPROX)), figure=n),
        Claim(f"{prefix}.left_abm_above_nrm_mod8", sec,
              "With modulus 8, left of the maximum, ABM throughput is still higher than NRM (both directions).",
              both(p2s=rel(n, "abm_m8", "nrm_p2s_m8", left_of("abm_m8"), exceeds),
                   s2p=rel(n, "abm_m8", "nrm_s2p_m8", left_of("abm_m8"), exceeds)), figure=n),
        Claim(f"{prefix}.optimum_and_right_equivalent_mod8", sec,
              "With modulus 8, NRM (both directions) and ABM are almost equivalent around the optimum and over a wide "
              "range of longer messages (from the largest of the three curves' optima to the end of the grid).",
              both(p2s=rel(n, "nrm_p2s_m8", "abm_m8", opt_right, lambda a, b: approx(a, b, TOL_APPROX)),
                   s2p=rel(n, "nrm_s2p_m8", "abm_m8", opt_right, lambda a, b: approx(a, b, TOL_APPROX))),
              figure=n, sensitivity=sens),
        Claim(f"{prefix}.nrm_s2p_mod128_collapse", sec,
              "With modulus 128, NRM secondary→primary degrades rapidly for longer messages (below mod 8 and ABM).",
              both(vs_m8=rel(n, "nrm_s2p_m128", "nrm_s2p_m8", long_, below),
                   vs_abm=rel(n, "nrm_s2p_m128", "abm_m128", long_, below)), figure=n, sensitivity=sens),
        Claim(f"{prefix}.nrm_p2s_mod128_worse", sec,
              "In contrast to one-way flow, NRM primary→secondary with modulus 128 behaves even worse than secondary→primary.",
              rel(n, "nrm_p2s_m128", "nrm_s2p_m128", long_, below), figure=n, sensitivity=sens),
        Claim(f"{prefix}.abm_mod128_no_collapse", sec,
              "The ABM link does not show the modulus-128 degradation (time-out recovery after a short delay).",
              rel(n, "abm_m128", "abm_m8", long_, lambda a, b: at_least(a, b, TOL_GE)), figure=n, sensitivity=sens),
    ]


def fig4() -> Figure:
    base, curves = _two_way_figure("constant", delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT, arm=True)
    claims = _fig4_like_claims(4, prefix="fig4", sens=("t1x3",))
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    claims += [
        Claim("fig4.abm_directions_equal", "(3)",
              "ABM yields equal performance in both directions of the link (two-way flow).",
              both(m8=rel(4, "abm_m8", "abm_ba_m8", every("abm_m8"), lambda a, b: approx(a, b, TOL_APPROX)),
                   m128=rel(4, "abm_m128", "abm_ba_m128", every("abm_m128"), lambda a, b: approx(a, b, TOL_APPROX))),
              figure=4),
        Claim("a2.arm_two_way_no_collapse", "A2(a)",
              "ARM conjecture (two-way, modulus 128): time-out recovery avoids the NRM degradation; ARM throughput similar "
              "to ABM (within 10%) in both directions for long messages.",
              both(p2s=rel(4, "arm_p2s_m128", "abm_m128", long_, lambda a, b: at_least(a, b, 0.10)),
                   s2p=rel(4, "arm_s2p_m128", "abm_ba_m128", long_, lambda a, b: at_least(a, b, 0.10))),
              figure=4, sensitivity=("t1x3",)),
    ]
    sens = (Sensitivity("t1x3", "T1 three times the default rule",
                        ("abm_m8", "abm_m128", "abm_ba_m128", "arm_p2s_m128", "arm_s2p_m128", "nrm_p2s_m128", "nrm_s2p_m128"),
                        params={"t1_factor": 3.0}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),)
    return Figure(
        4, "Maximum throughput relative to transmission rate vs. message length. Two-way flow. Constant message length.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        _length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=(ClosedForm("bound l/(l+h)·(1−p)^(l+h), h=48", lambda x: channel_bound(x, 48.0, P_BIT_DEFAULT)),),
        assumptions=(A_T1, A_X, A_REJ), sensitivities=sens, claims=tuple(claims),
        caption="Terrestrial link t_p = 50 ms, p_bit = 1e-5, v = 48 kbit/s, constant lengths, two-way flow, modulus 8 and 128.",
        published=("Left: NRM P→S ≈ S→P < ABM (mod 8). Optimum and right: all ≈ (mod 8).",
                   "Mod 128 long messages: NRM S→P collapses, NRM P→S even worse, ABM does not."),
    )


def fig5() -> Figure:
    base, curves = _two_way_figure("exponential", delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT, arm=False)
    claims = _fig4_like_claims(5, prefix="fig5", sens=("t1x3",))
    claims += [
        Claim("fig5.same_when_no_effects", "3.1.3",
              "As long as neither modulus nor transmission errors have a significant impact (modulus 128, l = 500–1000 bit), "
              "the same throughput is obtained for exponential as for constant lengths.",
              both(**{m: rel(5, f"{m}_m128", f"{m}_m128", xs_where(lambda x: 500 <= x <= 1000, "abm_m128"),
                             lambda a, b: approx(a, b, TOL_APPROX), fig_b=4) for m in ("nrm_p2s", "abm")}),
              needs=(4,), figure=5),
        Claim("fig5.modulus_broader", "3.1.3(i)",
              "The modulus rule affects throughput over a broader range for variable lengths: left of the maximum "
              "(modulus 8), exponential lengths give lower throughput than constant lengths.",
              both(**{m: rel(5, f"{m}_m8", f"{m}_m8", left_of("abm_m8"), below, fig_b=4) for m in ("abm", "nrm_p2s", "nrm_s2p")}),
              needs=(4,), figure=5),
        Claim("fig5.errors_stronger_long", "3.1.3(ii)",
              "For longer frames, exponential lengths give lower throughput efficiency than constant lengths (long frames "
              "are more error-prone).",
              both(**{m: rel(5, f"{m}_m8", f"{m}_m8", right_of("abm_m8"), below, fig_b=4) for m in ("abm", "nrm_p2s", "nrm_s2p")}),
              needs=(4,), figure=5),
    ]
    sens = (Sensitivity("t1x3", "T1 three times the default rule", ("abm_m8", "abm_m128", "nrm_p2s_m128", "nrm_s2p_m128"),
                        params={"t1_factor": 3.0}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),)
    return Figure(
        5, "Maximum throughput relative to transmission rate vs. mean message length. Two-way flow. Exponentially distributed "
           "message length.",
        base, "mean message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        _length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        assumptions=(A_T1, A_X, A_REJ), sensitivities=sens, claims=tuple(claims),
        caption="As Fig. 4 with exponentially distributed message lengths (mean l). T1 uses the mean T_I.",
        published=("Same relation among modes as Fig. 4; lower throughput than Fig. 4 where modulus or errors matter.",),
    )


def fig6() -> Figure:
    base, curves = _two_way_figure("constant", delay=T_P_SATELLITE, p_bit=P_BIT_SATELLITE, arm=False)
    short = xs_where(lambda x: x <= 1000, "abm_m8")
    # "the modulus rule in conjunction with the polling operation": where W = 7 binds on the
    # satellite link (7·T_I < T_I + 2 t_p + T_S, l ≤ 5000 bit); beyond, all curves sit on the
    # channel bound and no mode can be above another.
    window_limited = xs_where(lambda x: window_bound(x, 48.0, V_HIGH, T_P_SATELLITE, 7) < x / (x + 48.0), "abm_m8")
    claims = [
        Claim("fig6.only_left_effects", "3.1.3",
              "With p_bit = 1e-7, only the left-of-maximum effects are seen over the whole range: throughput does not "
              "decrease with message length.",
              lambda sd: conjunction({c.key: monotone_up(6, c.key, TOL_GE)(sd) for c in curves if c.plot}), figure=6),
        Claim("fig6.mod128_drastic_short", "3.1.3",
              "Modulo-128 numbering drastically improves throughput for short I-frames (here: by more than 50%).",
              both(**{m: rel(6, f"{m}_m128", f"{m}_m8", short, lambda a, b: exceeds(a, b, 0.5)) for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=6),
        Claim("fig6.abm_above_nrm_mod8", "(4)(i)",
              "With long propagation delays, the modulus rule with polling degrades NRM: ABM above both NRM directions "
              "(modulus 8, where the window limits: l ≤ 5000 bit).",
              both(p2s=rel(6, "abm_m8", "nrm_p2s_m8", window_limited, exceeds),
                   s2p=rel(6, "abm_m8", "nrm_s2p_m8", window_limited, exceeds)), figure=6),
        Claim("fig6.nrm_directions_roughly_equal_mod8", "3.1.3",
              "The different sources of degradation give roughly the same throughput for both NRM directions (two-way flow).",
              rel(6, "nrm_p2s_m8", "nrm_s2p_m8", every("abm_m8"), lambda a, b: approx(a, b, 0.10)), figure=6),
    ]
    h = 48.0
    return Figure(
        6, "Maximum throughput relative to transmission rate vs. message length. Two-way flow. Satellite link.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        _length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=(ClosedForm("error-free window bound, W=7", lambda x: window_bound(x, h, V_HIGH, T_P_SATELLITE, 7),
                                 {"linestyle": ":", "color": "0.3"}),
                      ClosedForm("error-free window bound, W=127", lambda x: window_bound(x, 56.0, V_HIGH, T_P_SATELLITE, 127),
                                 {"linestyle": ":", "color": "tab:red"})),
        assumptions=(A_T1, A_X, A_REJ), claims=tuple(claims),
        caption="Satellite link t_p = 350 ms, p_bit = 1e-7, v = 48 kbit/s, constant lengths, two-way flow, modulus 8 and 128.",
        published=("No maximum within the range; mod 128 ≫ mod 8 for short frames.",),
    )


def _transfer_closed_forms(l: float, dist: str) -> tuple[ClosedForm, ...]:
    h = 48.0
    fn = md1_transfer_over_ti if dist == "constant" else mg1_exp_transfer_over_ti
    name = "M/D/1" if dist == "constant" else "M/G/1 (exp. l + h)"
    return (
        ClosedForm(f"{name} + t_p (ideal ABM, NRM P→S)", lambda x: fn(x, l, h, V_HIGH, T_P_TERRESTRIAL)),
        ClosedForm(f"{name} + t_p + τ/2, τ = 2t_p (NRM S→P)", lambda x: fn(x, l, h, V_HIGH, T_P_TERRESTRIAL, 1.0),
                   {"linestyle": ":", "color": "0.3"}),
    )


def _ideal(l: float, dist: str, extra_tp: float = 0.0) -> Callable[[float], float]:
    fn = md1_transfer_over_ti if dist == "constant" else mg1_exp_transfer_over_ti
    return lambda x: fn(x, l, 48.0, V_HIGH, T_P_TERRESTRIAL, extra_tp)


def _transfer_curves(l: int, dist: str, *, arm: bool = False) -> tuple[Scenario, list[Curve]]:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=0.0, dist=dist, length=l, saturated=False)
    curves = (mode_curves("p0", "p_bit = 0", {"link.bit_error_rate": 0.0}, COLORS["p0"], arm=arm)
              + mode_curves("p1e5", "p_bit = 1e-5", {"link.bit_error_rate": 1e-5}, COLORS["p1e5"]))
    return base, curves


def _tp_gap_claim(fig: int, tag: str, l: float, region: Region) -> Callable[[StudyData], Outcome]:
    """NRM S→P − NRM P→S ≈ t_p (in T_I units: t_p/T_I)."""
    target = T_P_TERRESTRIAL / ((l + 48.0) / V_HIGH)
    return gap_vs_value(fig, f"nrm_s2p_{tag}", f"nrm_p2s_{tag}", region, lambda fd, x: target,
                        lambda e, t: approx_value(e, t, TOL_ORDER_TP))


def fig7() -> Figure:
    l = float(L_FIG7)
    base, curves = _transfer_curves(L_FIG7, "constant")
    low = xs_where(lambda x: x <= 0.6, "abm_p0")
    claims = (
        Claim("fig7.errfree_abm_md1", "3.2",
              "Error-free ABM transfer time equals the M/D/1 result (queueing + T_I + t_p).",
              vs_value(7, "abm_p0", every("abm_p0"), lambda fd, x: _ideal(l, "constant")(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=7),
        Claim("fig7.errfree_nrm_p2s_md1", "3.2",
              "Error-free NRM primary→secondary transfer time equals the M/D/1 result.",
              vs_value(7, "nrm_p2s_p0", every("nrm_p2s_p0"), lambda fd, x: _ideal(l, "constant")(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=7),
        Claim("fig7.errfree_abm_eq_nrm_p2s", "3.2",
              "In the error-free case, ABM and NRM primary→secondary show the same delay values.",
              rel(7, "abm_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)), figure=7),
        Claim("fig7.errfree_nrm_s2p_extra_tp", "3.2",
              "Error-free NRM secondary→primary suffers an additional delay approximately equal to t_p (mean of τ/2, τ ≈ 2t_p).",
              _tp_gap_claim(7, "p0", l, every("abm_p0")), figure=7),
        Claim("fig7.errors_longer", "3.2",
              "Transmission errors (p_bit = 1e-5) give longer transfer times on both links.",
              both(**{m: rel(7, f"{m}_p1e5", f"{m}_p0", every("abm_p0"), exceeds) for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=7),
        Claim("fig7.errors_nrm_p2s_below_abm", "3.2",
              "With errors, apart from very high loads, NRM primary→secondary performs slightly better than ABM "
              "(checkpoint recovery by frequent polling is faster than REJ under light and medium traffic).",
              rel(7, "nrm_p2s_p1e5", "abm_p1e5", low, below), figure=7, sensitivity=("t1x3",)),
    )
    sens = (Sensitivity("t1x3", "T1 three times the default rule", ("abm_p1e5", "nrm_p2s_p1e5"), params={"t1_factor": 3.0},
                        xs=(0.2, 0.4, 0.6), quick_xs=(0.3, 0.5)),)
    return Figure(
        7, "Mean transfer time relative to I-frame transmission time vs. useful channel load. 5000 bit constant message length.",
        base, "useful channel load Y_u", "mean transfer time / T_I", "transfer_time_s", LOADS, LOADS_QUICK,
        _load_overrides, tuple(curves), derive_run, normalize_by_ti, closed_forms=_transfer_closed_forms(l, "constant"),
        assumptions=(A_LOADS, A_T1, A_REJ), sensitivities=sens, claims=claims,
        caption="Terrestrial link t_p = 50 ms, l = 5000 bit constant, v = 48 kbit/s, modulus 8, p_bit = 0 and 1e-5.",
        published=("Error-free ABM = NRM P→S = M/D/1; NRM S→P higher by ≈ t_p (≈ 0.48 T_I).",
                   "With errors NRM P→S slightly below ABM except at very high load."),
    )


def fig8() -> Figure:
    l = float(L_FIG7)
    base, curves = _transfer_curves(L_FIG7, "exponential")
    mid = xs_where(lambda x: x >= 0.3, "abm_p0")
    claims = (
        Claim("fig8.longer_than_constant", "3.2",
              "Exponentially distributed lengths lead to longer transfer times than constant lengths (queueing delay grows "
              "with the variance of the transmission times).",
              both(**{f"{m}_{p}": rel(8, f"{m}_{p}", f"{m}_{p}", mid, exceeds, fig_b=7)
                      for m in ("nrm_p2s", "nrm_s2p", "abm") for p in ("p0", "p1e5")}), needs=(7,), figure=8),
        Claim("fig8.errfree_abm_mg1", "3.2",
              "Error-free ABM follows the M/G/1 (Pollaczek–Khinchine) result for exponential lengths (no modulus impact).",
              vs_value(8, "abm_p0", every("abm_p0"), lambda fd, x: _ideal(l, "exponential")(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=8, sensitivity=("m128",)),
        Claim("fig8.relations_as_fig7", "3.2",
              "The general relation between the modes is robust to the length distribution: error-free ABM ≈ NRM P→S, "
              "NRM S→P higher by ≈ t_p.",
              both(abm_eq_p2s=rel(8, "abm_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)),
                   s2p_gap=_tp_gap_claim(8, "p0", l, every("abm_p0"))), figure=8),
    )
    return Figure(
        8, "Mean transfer time relative to mean I-frame transmission time vs. useful channel load. Exponentially distributed "
           "message lengths (mean 5000 bit).",
        base, "useful channel load Y_u", "mean transfer time / mean T_I", "transfer_time_s", LOADS, LOADS_QUICK,
        _load_overrides, tuple(curves), derive_run, normalize_by_ti, closed_forms=_transfer_closed_forms(l, "exponential"),
        assumptions=(A_LOADS, A_T1, A_REJ,
                     Assumption("p_bit (Fig. 8)", "0 and 1e-5", "'the corresponding transfer-time results' of Fig. 7")),
        claims=claims,
        sensitivities=(Sensitivity("m128", "modulus 128 (no window limit) instead of 8: separates the modulus impact "
                                   "of exponential lengths at high load from queueing", ("abm_p0",),
                                   {"protocol.modulus": 128}, xs=(0.5, 0.6, 0.7, 0.8), quick_xs=(0.5, 0.7)),),
        caption="Terrestrial link t_p = 50 ms, exponential lengths mean 5000 bit, v = 48 kbit/s, modulus 8.",
        published=("Longer than Fig. 7; same relation between modes.",),
    )


def fig9() -> Figure:
    l = float(L_FIG9)
    base, curves = _transfer_curves(L_FIG9, "constant", arm=True)
    md1 = _ideal(l, "constant")
    claims = (
        Claim("fig9.abm_md1_to_0_4", "3.2",
              "Error-free ABM follows the M/D/1 (ideal) transfer time up to a load of 0.4.",
              vs_value(9, "abm_p0", xs_where(lambda x: x <= 0.4, "abm_p0"), lambda fd, x: md1(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=9),
        Claim("fig9.abm_leaves_md1_above_0_4", "3.2",
              "Error-free ABM leaves the M/D/1 curve only for loads greater than 0.4 (more than seven frames occasionally ready).",
              departs_within(9, "abm_p0", fixed_ref(md1), TOL_CLOSED_FORM, 0.41, 1.0), figure=9),
        Claim("fig9.nrm_p2s_leaves_md1_near_0_2", "3.2",
              "Error-free NRM primary→secondary deviates from the ideal case already at a utilization of about 0.2 "
              "(first significant >5% excess at a load in [0.15, 0.3]).",
              departs_within(9, "nrm_p2s_p0", fixed_ref(md1), TOL_CLOSED_FORM, 0.15, 0.3), figure=9),
        Claim("fig9.nrm_p2s_departs_before_abm", "3.2",
              "NRM primary→secondary reaches the modulus limit at lower loads than a combined station.",
              departs_before(9, "nrm_p2s_p0", "abm_p0", fixed_ref(md1), fixed_ref(md1), TOL_CLOSED_FORM), figure=9),
        Claim("fig9.nrm_p2s_steep_beyond_0_3", "3.2",
              "NRM primary→secondary increases rather steeply beyond a load of 0.3: from 0.3 to 0.5 it rises by more than "
              "twice the M/D/1 increase.",
              lambda sd: _steep(sd[9], "nrm_p2s_p0", 0.3, 0.5, md1, 2.0), figure=9),
        Claim("fig9.nrm_s2p_above_p2s", "3.2",
              "Messages from secondary to primary again suffer a higher transfer delay (polling) than primary→secondary.",
              rel(9, "nrm_s2p_p0", "nrm_p2s_p0", every("abm_p0"), exceeds), figure=9),
        Claim("a2.arm_transfer_similar_abm", "A2(b)",
              "ARM conjecture: thanks to its asynchronous response, ARM transfer times are similar to ABM (both directions, "
              "error-free).",
              both(p2s=rel(9, "arm_p2s_p0", "abm_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)),
                   s2p=rel(9, "arm_s2p_p0", "abm_ba_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX))),
              figure=9),
    )
    return Figure(
        9, "Mean transfer time relative to I-frame transmission time vs. useful channel load. 800 bit constant message length.",
        base, "useful channel load Y_u", "mean transfer time / T_I", "transfer_time_s", LOADS_800, LOADS_800_QUICK,
        _load_overrides, tuple(curves), derive_run, normalize_by_ti, closed_forms=_transfer_closed_forms(l, "constant"),
        y_scale="log",
        assumptions=(A_LOADS, A_T1, A_REJ,
                     Assumption("p_bit (Fig. 9)", "0 and 1e-5", "'the same delay characteristic as Figure 7'")),
        claims=claims,
        caption="Terrestrial link t_p = 50 ms, l = 800 bit constant (t_p/T_I = 2.83), v = 48 kbit/s, modulus 8. "
                "ARM curves are arqlab's measurement of the A2 conjecture.",
        published=("Error-free ABM = M/D/1 up to Y_u = 0.4; NRM P→S leaves M/D/1 at ≈ 0.2, steep beyond 0.3.",),
    )


def _steep(fd: FigureData, curve: str, x0: float, x1: float, ref: Callable[[float], float], factor: float) -> Outcome:
    xs = fd.xs(curve)
    if x0 not in xs or x1 not in xs:
        return Outcome(Verdict.INCONCLUSIVE, f"needs loads {x0} and {x1}")
    rise = fd.est(curve, x1) - fd.est(curve, x0)
    ideal = ref(x1) - ref(x0)
    v = exceeds(rise, Est(factor * ideal, 0.0))
    return Outcome(v, f"rise {rise} vs {factor}× M/D/1 rise {factor * ideal:.4g}")


def fig10() -> Figure:
    l = float(L_FIG9)
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=0.0, length=L_FIG9, saturated=False)
    base["traffic"]["a"]["load"] = Y_U_FIG10
    base["traffic"]["b"]["load"] = Y_U_FIG10
    curves = (mode_curves("pb0", "P_B = 0", {}, COLORS["pb0"], params={"block_error": 0.0})
              + mode_curves("pb1e2", "P_B = 1e-2", {}, COLORS["pb1e2"], params={"block_error": 1e-2}))

    def x_over(x: float) -> dict[str, Any]:
        return {}

    def derive(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
        t_i = frame_time(scn, side_of(curve.direction))
        delay = round(x * t_i, 9)
        out = {"link.delay_s": delay}
        scn2 = {**scn, "link": {**scn["link"], "delay_s": delay}}
        out.update(derive_run(scn2, curve, params, quick, x))
        return out

    small = xs_where(lambda x: 0.0 < x <= 1.0, "abm_pb0")
    t_i = (l + 48.0) / V_HIGH

    def md1_line(x: float) -> float:
        return md1_transfer_over_ti(Y_U_FIG10, l, 48.0, V_HIGH, x * t_i)

    def linear_claim(sd: StudyData) -> Outcome:
        parts = {}
        for c in curves:
            if not c.plot:
                continue
            fd = sd[10]
            xs = [x for x in fd.xs(c.key) if x <= 1.0]
            trend = linear_trend(c.key)(fd)
            def near_line(x: float, k: str = c.key, tr: Callable[[float], float] = trend) -> Verdict:
                return approx_value(fd.est(k, x), tr(x), 0.10)

            def show(x: float, k: str = c.key, tr: Callable[[float], float] = trend) -> str:
                return f"{fd.est(k, x)} vs line {tr(x):.4g}"

            parts[c.key] = pointwise(xs[2:], near_line, describe=show)
        return conjunction(parts)

    def bends(sd: StudyData) -> Outcome:
        parts = {}
        for pb in ("pb0", "pb1e2"):
            for m in ("nrm_p2s", "nrm_s2p"):
                parts[f"{m}_{pb}"] = departs_before(10, f"{m}_{pb}", f"abm_{pb}", linear_trend(f"{m}_{pb}"),
                                                    linear_trend(f"abm_{pb}"), 0.10)(sd)
        return conjunction(parts)

    claims = (
        Claim("fig10.linear_small_tp", "3.2",
              "For small t_p the mean transfer time grows linearly with t_p (points up to t_p = T_I within 10% of the line "
              "through the first two points).",
              linear_claim, figure=10, sensitivity=("l2000",)),
        Claim("fig10.nrm_bends_before_abm", "3.2",
              "Deviation from linearity (modulus impact) occurs in NRM at considerably smaller t_p/T_I than in ABM "
              "(both NRM directions, both block-error probabilities; deviation = >10% above the initial line).",
              bends, figure=10, sensitivity=("l2000",)),
        Claim("fig10.s2p_extra_order_tp", "3.2",
              "NRM secondary→primary mean queueing time grows linearly with t_p: the S→P − P→S gap is of the order of t_p "
              "(between 0.5 and 2 t_p for 0 < t_p ≤ T_I).",
              lambda sd: pointwise([x for x in small(sd[10]) if x in sd[10].xs("nrm_p2s_pb0")],
                                   lambda x: within((sd[10].est("nrm_s2p_pb0", x) - sd[10].est("nrm_p2s_pb0", x)).scaled(1 / x), 0.5, 2.0),
                                   describe=lambda x: f"gap/t_p = {(sd[10].est('nrm_s2p_pb0', x) - sd[10].est('nrm_p2s_pb0', x)).scaled(1 / x)}"),
              figure=10),
    )
    sens = (Sensitivity("l2000", "l = 2000 bit instead of 800 (T_I = 42.7 ms), same t_p/T_I grid and block errors",
                        ("nrm_p2s_pb0", "nrm_s2p_pb0", "abm_pb0", "nrm_p2s_pb1e2", "nrm_s2p_pb1e2", "abm_pb1e2"),
                        {"traffic.a.length.mean_bits": 2000, "traffic.b.length.mean_bits": 2000},
                        xs=(0.0, 0.5, 1.0, 2.0, 3.0, 4.0), quick_xs=(0.0, 0.5, 1.0, 2.0, 3.0)),)
    return Figure(
        10, "Mean transfer time relative to I-frame transmission time vs. processing plus propagation delay relative to "
            "I-frame transmission time.",
        base, "t_p / T_I", "mean transfer time / T_I", "transfer_time_s", TP_RATIOS, TP_RATIOS_QUICK, x_over,
        tuple(curves), derive, normalize_by_ti, y_scale="log",
        closed_forms=(ClosedForm("M/D/1 + t_p at Y_u = 0.5 (ideal, error-free)", md1_line),),
        assumptions=(A_FIG10_L, A_FIG10_PB, A_LOADS, A_T1), sensitivities=sens, claims=claims,
        caption="Y_u = 0.5 on both channels, modulus 8, I-frame block-error probability 0 and 1e-2.",
        published=("Linear growth for small t_p/T_I; NRM bends at smaller t_p/T_I than ABM.",),
    )


def fig11() -> Figure:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=0.0, length=L_FIG9, saturated=False)
    curves = mode_curves("p0", "p_bit = 0", {"link.bit_error_rate": 0.0}, COLORS["p0"])
    curves = [dataclasses.replace(c, measure="buffer_holding_time_s") for c in curves]
    claims = (
        Claim("fig11.nrm_above_abm", "3.2",
              "Buffers have to be held considerably longer (here: >10%) in primary and secondary stations than in combined stations.",
              both(p2s=rel(11, "nrm_p2s_p0", "abm_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10)),
                   s2p=rel(11, "nrm_s2p_p0", "abm_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10))),
              figure=11, sensitivity=("p1e-5", "l5000")),
        Claim("fig11.nrm_directions_equal", "3.2",
              "The NRM direction differences seen for transfer time do not exist for buffer-holding time (≈ within 10%).",
              rel(11, "nrm_p2s_p0", "nrm_s2p_p0", every("abm_p0"), lambda a, b: approx(a, b, 0.10)),
              figure=11, sensitivity=("p1e-5", "l5000")),
        Claim("fig11.vs_fig9", "3.2",
              "Comparing Figs. 11 and 9: shorter transfer delays from primary to secondary are almost totally outweighed by "
              "longer acknowledgment delays (transfer gap S→P − P→S significant in Fig. 9, buffer-holding gap ≈ 0).",
              both(transfer_gap=rel(9, "nrm_s2p_p0", "nrm_p2s_p0", xs_where(lambda x: x <= 0.3, "abm_p0"), exceeds),
                   holding_equal=rel(11, "nrm_p2s_p0", "nrm_s2p_p0", xs_where(lambda x: x <= 0.3, "abm_p0"),
                                     lambda a, b: approx(a, b, 0.10))),
              needs=(9,), figure=11),
    )
    sens = (
        Sensitivity("p1e-5", "p_bit = 1e-5 instead of the assumed 0", ("nrm_p2s_p0", "nrm_s2p_p0", "abm_p0"),
                    {"link.bit_error_rate": 1e-5}, xs=(0.2, 0.4), quick_xs=(0.2, 0.4)),
        Sensitivity("l5000", "l = 5000 bit (t_p/T_I = 0.48, short delay) instead of 800", ("nrm_p2s_p0", "nrm_s2p_p0", "abm_p0"),
                    {"traffic.a.length.mean_bits": 5000, "traffic.b.length.mean_bits": 5000}, xs=(0.2, 0.4), quick_xs=(0.2, 0.4)),
    )
    return Figure(
        11, "Mean buffer-holding time relative to I-frame transmission time vs. useful channel load.",
        base, "useful channel load Y_u", "mean buffer-holding time / T_I", "buffer_holding_time_s", LOADS_800, LOADS_800_QUICK,
        _load_overrides, tuple(curves), derive_run, normalize_by_ti, y_scale="log",
        assumptions=(A_FIG11, A_LOADS, A_T1), sensitivities=sens, claims=claims,
        caption="Buffer-holding time: arrival → positive acknowledgement at the sender.",
        published=("NRM (both stations) ≫ ABM; NRM P→S ≈ NRM S→P.",),
    )


FIGURE_BUILDERS: dict[int, Callable[[], Figure]] = {
    2: fig2, 3: fig3, 4: fig4, 5: fig5, 6: fig6, 7: fig7, 8: fig8, 9: fig9, 10: fig10, 11: fig11,
}


def figures() -> list[Figure]:
    """Figures 2–11 of the paper."""
    return [FIGURE_BUILDERS[n]() for n in sorted(FIGURE_BUILDERS)]


def figure(number: int) -> Figure:
    if number not in FIGURE_BUILDERS:
        raise KeyError(f"{NAME} has no figure {number}")
    return FIGURE_BUILDERS[number]()


# ----------------------------------------------------------------------------- study-level claims


def _present(sd: StudyData, figs: Iterable[int]) -> list[int]:
    return [n for n in figs if n in sd]


def _conc1_abm_at_least(sd: StudyData) -> Outcome:
    parts: dict[str, Outcome] = {}
    for n in _present(sd, (2, 3, 4, 5, 6)):
        fd = sd[n]
        for c in fd.figure.curves:
            if c.key.startswith("nrm_"):
                tag = c.key.split("_", 2)[2]
                parts[f"fig{n}.{c.key}"] = rel(n, f"abm_{tag}", c.key, every(c.key), lambda a, b: at_least(a, b, TOL_APPROX))(sd)
    for n in _present(sd, (7, 8, 9, 10, 11)):
        fd = sd[n]
        for c in fd.figure.curves:
            if c.key.startswith("nrm_"):
                tag = c.key.split("_", 2)[2]
                ref = f"abm_{tag}" if c.direction == "a_to_b" else f"abm_ba_{tag}"
                parts[f"fig{n}.{c.key}"] = rel(n, ref, c.key, every(c.key), lambda a, b: at_most(a, b, TOL_APPROX))(sd)
    return conjunction(parts)


def _conc1_equivalence(sd: StudyData) -> Outcome:
    total = eq = neq = 0
    for n in _present(sd, (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)):
        fd = sd[n]
        for c in fd.figure.curves:
            if not c.key.startswith("nrm_"):
                continue
            tag = c.key.split("_", 2)[2]
            ref = f"abm_{tag}" if (c.direction == "a_to_b" or n <= 6) else f"abm_ba_{tag}"
            for x in fd.common_xs(c.key, ref):
                v = approx(fd.est(c.key, x), fd.est(ref, x), TOL_APPROX)
                total += 1
                eq += v is Verdict.HOLDS
                neq += v is Verdict.DOES_NOT_HOLD
    if total == 0:
        return Outcome(Verdict.INCONCLUSIVE, "no comparable points")
    if eq / total >= 0.25:
        v = Verdict.HOLDS
    elif (total - neq) / total < 0.25:
        v = Verdict.DOES_NOT_HOLD
    else:
        v = Verdict.INCONCLUSIVE
    return Outcome(v, f"{eq}/{total} NRM-vs-ABM points equivalent within {TOL_APPROX:.0%}, {neq} clearly different "
                      f"(claim: at least a quarter equivalent)")


def _conc3_symmetric(sd: StudyData) -> Outcome:
    parts: dict[str, Outcome] = {}
    for n in _present(sd, (4, 5, 6, 7, 8, 9, 10, 11)):
        fd = sd[n]
        for c in fd.figure.curves:
            if c.key.startswith("abm_ba_"):
                tag = c.key[len("abm_ba_"):]
                parts[f"fig{n}.{tag}"] = rel(n, f"abm_{tag}", c.key, every(c.key), lambda a, b: approx(a, b, TOL_APPROX))(sd)
    return conjunction(parts)


def _conc3_nrm_differs(sd: StudyData) -> Outcome:
    parts: dict[str, Outcome] = {}
    if 2 in sd:
        parts["fig2.48k"] = rel(2, "nrm_s2p_48k", "nrm_p2s_48k", every("abm_48k"), lambda a, b: exceeds(a, b, 0.10),
                                combine=any_of)(sd)
    if 7 in sd:
        parts["fig7.p0"] = rel(7, "nrm_s2p_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10), combine=any_of)(sd)
    if 9 in sd:
        parts["fig9.p0"] = rel(9, "nrm_s2p_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10), combine=any_of)(sd)
    verdict = any_of(o.verdict for o in parts.values())
    return Outcome(verdict, " | ".join(f"{k}: {o.verdict}" for k, o in parts.items()))


def _conc2_mod8_enough(sd: StudyData) -> Outcome:
    """"can be too small in the case of NRM" (Conclusion 2) is existential: one Fig. 9 load
    (≤ 0.4) where ABM sits on M/D/1 (±5%) and NRM P→S is >10% above it."""
    fd = sd[9]
    ideal = _ideal(800.0, "constant")
    xs = [x for x in fd.xs("abm_p0") if x <= 0.4 and x in set(fd.xs("nrm_p2s_p0"))]

    def at(x: float) -> Verdict:
        return all_of([approx_value(fd.est("abm_p0", x), ideal(x), TOL_CLOSED_FORM),
                       exceeds(fd.est("nrm_p2s_p0", x), Est(ideal(x), 0.0), 0.10)])
    return pointwise(xs, at, combine=any_of,
                     describe=lambda x: f"ABM {fd.est('abm_p0', x)}, NRM P→S {fd.est('nrm_p2s_p0', x)} vs M/D/1 {ideal(x):.4g}")


def _from_figure_claim(number: int, claim_id: str) -> Callable[[StudyData], Outcome]:
    def check(sd: StudyData) -> Outcome:
        for c in sd[number].figure.claims:
            if c.id == claim_id:
                return c.check(sd)
        raise KeyError(claim_id)
    return check


def study_claims() -> list[Claim]:
    """Conclusions (1)–(6): claims that draw on several figures."""
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    return [
        Claim("conc1.abm_at_least_nrm", "(1)",
              "The link operated in ABM performs better than, or at least as well as, the link under NRM (throughput ≥, "
              "transfer and buffer-holding time ≤, within 5%, at every point of Figs. 2–11).",
              _conc1_abm_at_least, needs=(2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),
        Claim("conc1.broad_equivalence", "(1)",
              "There is a relatively broad range of parameters where the performance of both modes is equivalent.",
              _conc1_equivalence, needs=(2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),
        Claim("conc2.modulus_earlier_in_nrm", "(2)",
              "In NRM the modulus affects performance at significantly smaller t_p than in ABM (Fig. 9 departure from "
              "M/D/1, Fig. 10 departure from linearity).",
              both(fig9=_from_figure_claim(9, "fig9.nrm_p2s_departs_before_abm"),
                   fig10=_from_figure_claim(10, "fig10.nrm_bends_before_abm")), needs=(9, 10)),
        Claim("conc2.mod8_enough_for_abm", "(2)",
              "Modulus 8 might be sufficient on a higher-speed terrestrial link with ABM but can be too small with NRM "
              "(Fig. 9: at some load ≤ 0.4, where the paper has ABM on the M/D/1 curve, ABM is within 5% of M/D/1 while "
              "NRM P→S is more than 10% above it).",
              _conc2_mod8_enough, needs=(9,)),
        Claim("conc3.abm_symmetric", "(3)",
              "ABM yields equal performance in both directions of the link (every two-way figure, within 5%).",
              _conc3_symmetric, needs=(4,)),
        Claim("conc3.nrm_directions_differ", "(3)",
              "Throughput and delay of the NRM link can be significantly different for both directions (>10% somewhere "
              "in Fig. 2, 7 or 9).",
              _conc3_nrm_differs, needs=(7,)),
        Claim("conc4.long_delay_nrm_degrades", "(4)(i)",
              "Long propagation and processing delays: the modulus rule with polling degrades NRM throughput (Fig. 6, "
              "modulus 8, where the window limits: ABM above both NRM directions).",
              _from_figure_claim(6, "fig6.abm_above_nrm_mod8"), needs=(6,)),
        Claim("conc4.high_error_nrm_degrades", "(4)(ii)",
              "High block-error probabilities: NRM suffers long recovery delays when REJ recovery fails, ABM recovers "
              "by time-out (modulus 128, l > 3000 bit: ABM above NRM S→P in Fig. 3, above both NRM directions in Fig. 4).",
              both(fig3=rel(3, "abm_m128", "nrm_s2p_m128", long_, exceeds),
                   fig4_s2p=rel(4, "abm_m128", "nrm_s2p_m128", long_, exceeds),
                   fig4_p2s=rel(4, "abm_m128", "nrm_p2s_m128", long_, exceeds)), needs=(3, 4)),
        Claim("conc5.abm_eq_nrm_p2s_transfer", "(5)",
              "Both directions of ABM and NRM primary→secondary have comparable transfer times while the modulus has no "
              "impact (Figs. 7 and 8, error-free, within 5%; Fig. 8 up to load 0.6 — above it the modulus-8 window "
              "binds with exponential lengths, see fig8.errfree_abm_mg1 and its m128 variant).",
              both(fig7=rel(7, "abm_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)),
                   fig7_ba=rel(7, "abm_ba_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)),
                   fig8=rel(8, "abm_p0", "nrm_p2s_p0", xs_where(lambda x: x <= 0.6, "abm_p0"),
                            lambda a, b: approx(a, b, TOL_APPROX))),
              needs=(7, 8)),
        Claim("conc5.s2p_extra_order_tp", "(5)",
              "NRM secondary→primary suffers an additional polling delay whose mean is of the order of t_p "
              "(Fig. 7 error-free: gap between 0.5 and 2 t_p at every load).",
              lambda sd: pointwise(sd[7].common_xs("nrm_s2p_p0", "nrm_p2s_p0"),
                                   lambda x: within((sd[7].est("nrm_s2p_p0", x) - sd[7].est("nrm_p2s_p0", x))
                                                    .scaled(((L_FIG7 + 48.0) / V_HIGH) / T_P_TERRESTRIAL), 0.5, 2.0)),
              needs=(7,)),
        Claim("conc5.modulus_stronger_in_nrm", "(5)",
              "The modulus can have a much stronger delay-increasing effect in NRM than in ABM (Fig. 9, loads ≥ 0.4: NRM "
              "P→S transfer time more than 20% above ABM).",
              rel(9, "nrm_p2s_p0", "abm_p0", xs_where(lambda x: x >= 0.4, "abm_p0"), lambda a, b: exceeds(a, b, 0.20)),
              needs=(9,)),
        Claim("conc6.nrm_bht_equal", "(6)",
              "Buffer-holding time in NRM is almost equal for primary and secondary stations.",
              _from_figure_claim(11, "fig11.nrm_directions_equal"), needs=(11,)),
        Claim("conc6.nrm_bht_above_abm", "(6)",
              "With relatively long processing and propagation delays, NRM buffer-holding times can be considerably higher "
              "than in ABM.",
              _from_figure_claim(11, "fig11.nrm_above_abm"), needs=(11,)),
    ]


def all_claim_ids() -> list[str]:
    return [c.id for f in figures() for c in f.claims] + [c.id for c in study_claims()]


# ----------------------------------------------------------------------------- reproduce


class _StudyModule:
    NAME = NAME
    TITLE = TITLE

    @staticmethod
    def figures() -> list[Figure]:
        return figures()

    @staticmethod
    def study_claims() -> list[Claim]:
        return study_claims()


def settings_for(quick: bool, seed: int = 1) -> RunSettings:
    """Quick: 3 fixed replications; full: sequential ±2.5% relative precision at 95%."""
    if quick:
        return RunSettings(quick=True, seed=seed, replications=QUICK_REPLICATIONS, precision=None)
    return RunSettings(quick=False, seed=seed, replications=None, precision=FULL_PRECISION)


def reproduce(
    figures: Sequence[int] | None = None,
    quick: bool = False,
    out_dir: str | os.PathLike[str] = "reproduce-bux1982",
    workers: int | None = None,
    executor: Any = None,
    store: Any = None,
    progress: ProgressFn | None = None,
    *,
    seed: int = 1,
    runner: Callable[[RunRequest], Metrics] | None = None,
    stream: TextIO | None = None,
    quiet: bool = False,
) -> Reproduction:
    """Reproduce Figures 2–11 (or the chosen ones) and check every claim.

    Writes ``figN.png``, ``figN.svg``, ``figN.csv``, ``figN_scenarios/`` and
    ``claims.json``/``claims.md`` into ``out_dir`` and prints each figure's claims with
    their verdicts. All curves share ``seed`` (common random numbers).
    """
    return reproduce_study(
        _StudyModule(), figures=figures, quick=quick, out_dir=out_dir, settings=settings_for(quick, seed),
        workers=workers, executor=executor, store=store, progress=progress, runner=runner,
        stream=stream if stream is not None else sys.stdout, quiet=quiet,
    )
