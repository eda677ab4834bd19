"""Closed forms the Bux 1982 figures are checked against and drawn with.

Bounds on saturated throughput (one clean copy per frame; the error-free window limit),
M/D/1 and M/G/1 transfer times for the Poisson figures, the default timeout rule and the
block-error to bit-error conversion of Fig. 10.
"""

from __future__ import annotations

from collections.abc import Callable

from ..spec import ClosedForm
from .params import T_P_TERRESTRIAL, V_HIGH


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


def transfer_closed_forms(l: float, dist: str) -> tuple[ClosedForm, ...]:
    h = 48.0
    fn = md1_transfer_over_ti if dist == "constant" else mg1_exp_transfer_over_ti
    name = "M/D/1" if dist == "constant" else "M/G/1 (exp. l + h)"
    return (
        ClosedForm(f"{name} + t_p (ideal ABM, NRM P→S)", lambda x: fn(x, l, h, V_HIGH, T_P_TERRESTRIAL)),
        ClosedForm(f"{name} + t_p + τ/2, τ = 2t_p (NRM S→P)", lambda x: fn(x, l, h, V_HIGH, T_P_TERRESTRIAL, 1.0),
                   {"linestyle": ":", "color": "0.3"}),
    )


def ideal_transfer(l: float, dist: str, extra_tp: float = 0.0) -> Callable[[float], float]:
    fn = md1_transfer_over_ti if dist == "constant" else mg1_exp_transfer_over_ti
    return lambda x: fn(x, l, 48.0, V_HIGH, T_P_TERRESTRIAL, extra_tp)
