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



#: T1 = T1_MARGIN × the longest legitimate acknowledgement delay (:func:`ack_delay_bound`).
#: The bound takes every term at its worst for constant lengths; the margin is for what it
#: leaves out (exponential lengths' frames longer than the mean, equal event times).
T1_MARGIN = 1.25


def ack_delay_bound(mode: str, t_i: float, t_p: float, t_s: float, t_i_peer: float | None,
                    back_to_back: bool = False) -> float:
    """The longest wait for an acknowledgement that involves no further error, per mode,
    counted from the timer's last (re)start.

    ``t_i`` is the sender's I-frame time, ``t_i_peer`` the peer's (None: the peer sends no
    I frames). An acknowledgement from the peer takes ``R``: an RR (T_S) from an idle peer,
    or, when the peer sends I frames, the rest of its frame in progress plus the next frame
    that carries it (2·T_I(peer)). A REJ is an S frame: from a sending peer it leaves after
    the frame in progress, ``R_rej`` = T_I(peer) + T_S (T_S from an idle peer).

    * ABM and ARM (Appendix A1.3 timer: started by an I frame, restarted only by a *new*
      acknowledgement): the longest legitimate delay is a REJ recovery. From the start of
      the lost frame n: n (T_I), the frame that exposes the gap (T_I), t_p, the REJ
      (R_rej) — it acknowledges nothing new, so T1 keeps running — t_p, the sender
      finishing its frame in progress (T_I), the retransmission (T_I), t_p, its
      acknowledgement (R), t_p: ``4·T_I + 4·t_p + R_rej + R``. The timer may have been
      restarted as late as the start of n (an acknowledgement opening the window, or
      a Poisson frame sent while an earlier one is outstanding), so that is the bound —
      unless ``back_to_back``: saturated sources whose window never closes send n right
      after n − 1, and the acknowledgement of n − 1, which restarts the timer, arrives
      2·t_p + T_S after the start of n at the earliest; the bound is then that much
      shorter.
    * NRM (Annex B primary timer: started when the P has gone, restarted by any frame
      with F = 0, stopped by F = 1): the secondary answers a P at once, so the longest gap
      is t_p + its first response frame + t_p: ``2·t_p + R`` (with R as above, one frame
      more than needed when the secondary sends: it is idle when a new P arrives). REJ
      recovery does not stretch it: every frame restarts it.
    """
    r = t_s if t_i_peer is None else 2.0 * t_i_peer
    if mode == "nrm":
        return 2.0 * t_p + r
    r_rej = t_s if t_i_peer is None else t_i_peer + t_s
    restart = 2.0 * t_p + t_s if back_to_back else 0.0
    return 4.0 * t_i + 4.0 * t_p + r_rej + r - restart


def t1_rule(mode: str, t_i: float, t_p: float, t_s: float, t_i_peer: float | None,
            back_to_back: bool = False) -> float:
    """T1 = T1_MARGIN × :func:`ack_delay_bound`, rounded to 0.1 ms."""
    return round(T1_MARGIN * ack_delay_bound(mode, t_i, t_p, t_s, t_i_peer, back_to_back), 4)


def t1_rule_previous(t_i: float, t_p: float, t_s: float) -> float:
    """The rule used before issue 14 (the ``t1prev`` sensitivity): 1.5·(2·T_I + 2·t_p + T_S),
    one I frame of acknowledgement delay, shorter than a REJ recovery's."""
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
