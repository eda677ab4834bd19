"""Bux 1982 scenarios: the base link, per-point run settings, and the paper's curve sets.

Conventions: station A is the NRM/ARM primary, B the secondary, so direction ``a_to_b``
is primary→secondary (P→S) and ``b_to_a`` secondary→primary (S→P).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..overrides import get_dotted
from ..spec import Curve, Scenario, Sensitivity
from .params import (
    DASHDOT,
    DASHED,
    NRM_POLL,
    T1_FACTOR,
    TIMER_RECOVERY,
    FRAMES_FULL,
    FRAMES_QUICK,
    FULL_MAX_REPLICATIONS,
    FULL_MIN_REPLICATIONS,
    MESSAGES_FULL,
    MESSAGES_QUICK,
    SOLID,
)
from .theory import block_error_to_pbit, t1_rule, t1_rule_previous


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


def length_overrides(x: float) -> dict[str, Any]:
    n = int(round(x))
    return {"traffic.a.length.mean_bits": n, "traffic.b.length.mean_bits": n}


def load_overrides(x: float) -> dict[str, Any]:
    return {"traffic.a.load": float(x), "traffic.b.load": float(x)}


def loaded_directions(scn: Mapping[str, Any]) -> list[str]:
    out = []
    for side, d in (("a", "a_to_b"), ("b", "b_to_a")):
        if get_dotted(scn, f"traffic.{side}.kind", "none") != "none":
            out.append(d)
    return out


def study_t1(scn: Mapping[str, Any]) -> float:
    """T1 of a scenario: :func:`~.theory.t1_rule` for the timer that runs in its mode.

    NRM: the primary's Annex B timer, answered by the secondary (station B). ABM and ARM:
    every sending station's timer (they share the scenario's ``t1_s``), so the largest;
    a station's bound counts from the acknowledgement of the frame before the lost one
    when it sends back to back (saturated, window never closed), else from the lost
    frame's start.
    """
    t_p = float(get_dotted(scn, "link.delay_s"))
    t_s = s_frame_bits(scn) / float(get_dotted(scn, "link.rate_bps"))
    mode = str(get_dotted(scn, "protocol.mode"))

    def t_i(side: str) -> float | None:
        return None if get_dotted(scn, f"traffic.{side}.kind", "none") == "none" else frame_time(scn, side)

    if mode == "nrm":
        return t1_rule("nrm", t_i("a") or 0.0, t_p, t_s, t_i("b"))
    w = float(get_dotted(scn, "protocol.window", int(get_dotted(scn, "protocol.modulus", 8)) - 1))

    def back_to_back(side: str, own: float, peer: float | None) -> bool:
        # A saturated sender whose error-free window never closes: W frames outlast the
        # round trip to the acknowledgement of the first (T_S idle peer, 2·T_I(peer) sending).
        ack = t_s if peer is None else 2.0 * peer
        return get_dotted(scn, f"traffic.{side}.kind") == "saturated" and w * own >= own + 2.0 * t_p + ack

    rules = [t1_rule(mode, own, t_p, t_s, t_i(peer), back_to_back(side, own, t_i(peer)))
             for side, peer in (("a", "b"), ("b", "a")) if (own := t_i(side)) is not None]
    return max(rules) if rules else t1_rule(mode, 0.0, t_p, t_s, None)


def derive_run(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Per-point settings computed from the point's scenario: T1, run length, warm-up.

    * T1 = ``t1_factor`` × :func:`study_t1` (factor ``T1_FACTOR`` = 1 unless a sensitivity
      variant or the robustness pass says;
      ``t1 = "previous"`` selects the rule used before issue 14).
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
    t1 = t1_rule_previous(t_i, t_p, t_s) if params.get("t1") == "previous" else study_t1(scn)
    out["protocol.t1_s"] = round(float(params.get("t1_factor", T1_FACTOR)) * t1, 4)
    loaded = loaded_directions(scn)
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




def nrm_oneway(tag: str, label: str, direction: str, overrides: Mapping[str, Any], color: str, **kw: Any) -> Curve:
    loaded = "a" if direction == "a_to_b" else "b"
    idle = "b" if loaded == "a" else "a"
    ov = {"protocol.mode": "nrm", "protocol.poll": NRM_POLL, f"traffic.{loaded}.kind": "saturated",
          f"traffic.{idle}.kind": "none", **overrides}
    key = f"nrm_{'p2s' if direction == 'a_to_b' else 's2p'}_{tag}"
    style = {"linestyle": SOLID if direction == "a_to_b" else DASHED, "color": color}
    return Curve(key, f"NRM {'prim.→sec.' if direction == 'a_to_b' else 'sec.→prim.'}, {label}", direction, ov, style, **kw)


def mode_curves(tag: str, label: str, overrides: Mapping[str, Any], color: str, *, arm: bool = False,
                abm_b: bool = True, **kw: Any) -> list[Curve]:
    """Two-way (or Poisson) curves of one parameter set: NRM P→S, NRM S→P, ABM (+ B→A), ARM."""
    nrm = {"protocol.mode": "nrm", "protocol.poll": NRM_POLL, **overrides}
    abm = {"protocol.mode": "abm", "protocol.timer_recovery": TIMER_RECOVERY, **overrides}
    out = [
        Curve(f"nrm_p2s_{tag}", f"NRM prim.→sec., {label}", "a_to_b", nrm, {"linestyle": SOLID, "color": color}, **kw),
        Curve(f"nrm_s2p_{tag}", f"NRM sec.→prim., {label}", "b_to_a", nrm, {"linestyle": DASHED, "color": color}, **kw),
        Curve(f"abm_{tag}", f"ABM, {label}", "a_to_b", abm, {"linestyle": DASHDOT, "color": color}, **kw),
    ]
    if abm_b:
        out.append(Curve(f"abm_ba_{tag}", f"ABM B→A, {label}", "b_to_a", abm, {"linestyle": DASHDOT, "color": color},
                         plot=False, **kw))
    if arm:
        armov = {"protocol.mode": "arm", "protocol.timer_recovery": TIMER_RECOVERY, **overrides}
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
              {"protocol.mode": "abm", "protocol.timer_recovery": TIMER_RECOVERY, "traffic.a.kind": "saturated",
               "traffic.b.kind": "none", **overrides},
              {"linestyle": DASHDOT, "color": color}),
    ]
    if arm:
        out.append(Curve(f"arm_s2p_{tag}", f"ARM sec.→prim., {label} (arqlab)", "b_to_a",
                         {"protocol.mode": "arm", "protocol.timer_recovery": TIMER_RECOVERY, "traffic.a.kind": "none",
                          "traffic.b.kind": "saturated", **overrides},
                         {"color": "tab:olive"}, extension=True))
    return out


def reading_sensitivities(curves: Sequence[Curve], xs: tuple[float, ...], quick_xs: tuple[float, ...]) -> tuple[Sensitivity, ...]:
    """The model readings run both ways and T1 as a headline sensitivity (issue 14).

    ``poll_asap``: NRM curves with the P on the next command (often a long I frame);
    ``tr_continue``: ABM/ARM curves sending new I frames during timer recovery;
    ``t1x0.5``, ``t1x2``: T1 halved and doubled; ``t1prev``: the T1 rule used before.
    Each is scored on the base's x points (issue 28): ``xs``/``quick_xs`` should be the
    figure's own, or a claim reads the points they lack as missing (inconclusive).
    """
    keys = tuple(c.key for c in curves)
    nrm = tuple(k for k in keys if k.startswith("nrm_"))
    asyn = tuple(k for k in keys if k.startswith(("abm_", "arm_")))
    return (
        Sensitivity("poll_asap", "NRM: P on the next command (the reading before issue 14)", nrm,
                    {"protocol.poll": "asap"}, xs=xs, quick_xs=quick_xs, on_base_xs=True, coequal=True),
        Sensitivity("tr_continue", "ABM/ARM: new I frames during timer recovery (before issue 14)", asyn,
                    {"protocol.timer_recovery": "continue"}, xs=xs, quick_xs=quick_xs, on_base_xs=True),
        Sensitivity("t1x0.5", "T1 half the rule", keys, params={"t1_factor": 0.5}, xs=xs, quick_xs=quick_xs, on_base_xs=True),
        Sensitivity("t1x2", "T1 twice the rule", keys, params={"t1_factor": 2.0}, xs=xs, quick_xs=quick_xs, on_base_xs=True),
        Sensitivity("t1prev", "T1 = 1.5·(2·T_I + 2·t_p + T_S), the rule before issue 14", keys,
                    params={"t1": "previous"}, xs=xs, quick_xs=quick_xs, on_base_xs=True),
    )
