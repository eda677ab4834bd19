"""Figures 4–8 of the paper (and Figure 9, an extension: the window sensitivity behind
"selective needs about twice the window"). Each carries its curves, closed forms,
assumptions, sensitivity variants and the claims made about it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..spec import Claim, ClosedForm, Curve, Figure, Scenario, Sensitivity
from . import claims as cl
from .params import (
    A_DELAY,
    A_DELAY_DEF,
    A_EXPEDITED,
    A_HEADERS,
    A_NETWORK,
    A_TRANSFER,
    BERS,
    BERS_QUICK,
    COLORS,
    EXPEDITED_RATES,
    EXPEDITED_RATES_QUICK,
    ONE_WAY_DELAY_S,
    TSDU_OCTETS,
    WINDOW_BER,
    WINDOW_BERS,
    WINDOWS_KIB,
    WINDOWS_KIB_QUICK,
)
from .scenarios import FLOW, TRANSPORT, derive_exp1, derive_exp2, derive_window, scenario
from .theory import iso_efficiency, nbs_efficiency

STATED = f"64 kbit/s satellite hop, one-way delay {ONE_WAY_DELAY_S} s, network window 4"


def _no_x(x: float) -> dict[str, Any]:
    return {}


def _per_octet_ms(scn: Scenario, curve: Curve) -> float:
    """Transfer time (s) per TSDU → per-octet delay in ms."""
    return TSDU_OCTETS / 1000.0


def _expedited_curves() -> tuple[Curve, ...]:
    return (
        Curve("iso", "ISO expedited", FLOW, params={"expedited": "iso"}, style={"color": COLORS["iso"], "linestyle": "--"}),
        Curve("nbs", "NBS expedited", FLOW, params={"expedited": "nbs"}, style={"color": COLORS["nbs"]}),
    )


def _expedited_sensitivities() -> tuple[Sensitivity, ...]:
    q = (0.0, 0.0455, 0.14, 0.33)
    return (
        Sensitivity("per_tsdu", "an ED after every k-th TSDU instead of every k-th DT", ("iso", "nbs"),
                    params={"expedited_unit": "tsdu"}, quick_xs=q),
        Sensitivity("delay0.135", "one-way delay 0.135 s instead of 0.27 s", ("iso", "nbs"),
                    params={"delay_s": 0.135}, quick_xs=q),
        Sensitivity("remote_ack", "network window released after a satellite round trip (0.55 s)", ("iso", "nbs"),
                    params={"net_ack_delay_s": 0.55}, quick_xs=q),
        Sensitivity("dt_user1024", "DTs of 1024 user octets (1036-octet TPDUs) instead of 1024 octets with the header",
                    ("iso", "nbs"), params={"dt_size_includes_header": False}, quick_xs=q),
    )


def _ack_curves() -> tuple[Curve, ...]:
    return (
        Curve("one_for_one", "one-for-one AK", FLOW, params={"acknowledgement": "one_for_one"},
              style={"color": COLORS["one_for_one"], "linestyle": "--"}),
        Curve("selective", "selective AK", FLOW, params={"acknowledgement": "selective"}, style={"color": COLORS["selective"]}),
    )


def _ack_sensitivities(extra: tuple[str, ...] = ()) -> tuple[Sensitivity, ...]:
    """The Experiment 2 variants, over both AK curves and ``extra`` curves read from the
    same runs (Figure 6's retransmission counts): a variant must vary every curve its
    claims read, or the claim would read default data under it (a plan-time error)."""
    curves = ("one_for_one", "selective", *extra)
    return (
        Sensitivity("delay0.135", "one-way delay 0.135 s instead of 0.27 s", curves,
                    params={"delay_s": 0.135}, quick_xs=(1e-5, 1e-4)),
        Sensitivity("t1_1s", "retransmission timer 1 s instead of 650 ms", curves,
                    params={"retransmission_timer_s": 1.0}, quick_xs=(1e-5, 1e-4)),
    )


EXP1_NOTE = "60 TSDUs of 10240 octets, 12K window, 1024-octet DTs, one-for-one AK, BER 1e-9"
EXP2_NOTE = "20 TSDUs (5 at 1e-3) of 10240 octets, 20K window, 128-octet DTs, T1 650 ms, NBS"


def fig4() -> Figure:
    return Figure(
        4, "Throughput efficiency vs expedited data rate, NBS and ISO", scenario(1), "expedited data rate (expedited/normal)",
        "throughput efficiency", "throughput_efficiency", EXPEDITED_RATES, EXPEDITED_RATES_QUICK, _no_x, _expedited_curves(),
        derive=derive_exp1, y_limits=(0.0, 1.05),
        closed_forms=(ClosedForm("ISO: T₀ + one ED round trip per ED", iso_efficiency, {"color": COLORS["iso"]}),
                      ClosedForm("NBS: the line schedule of its rule", nbs_efficiency,
                                 {"color": COLORS["nbs"], "linestyle": ":"})),
        assumptions=(A_DELAY, A_HEADERS, A_NETWORK, A_EXPEDITED, A_TRANSFER), sensitivities=_expedited_sensitivities(),
        claims=cl.fig4_claims(), caption=f"{STATED}; {EXP1_NOTE}",
    )


def fig5() -> Figure:
    return Figure(
        5, "Average per-octet delay vs expedited data rate, NBS and ISO", scenario(1), "expedited data rate (expedited/normal)",
        "average per-octet delay (ms/octet)", "transfer_time_s", EXPEDITED_RATES, EXPEDITED_RATES_QUICK, _no_x,
        _expedited_curves(), derive=derive_exp1, normalize=_per_octet_ms,
        assumptions=(A_DELAY, A_HEADERS, A_NETWORK, A_EXPEDITED, A_DELAY_DEF), sensitivities=_expedited_sensitivities(),
        claims=cl.fig5_claims(), caption=f"{STATED}; {EXP1_NOTE}",
    )


def _exp2(number: int, title: str, y_label: str, measure: str, claims: tuple[Claim, ...]) -> Figure:
    return Figure(
        number, title, scenario(2), "bit error rate", y_label, measure, BERS, BERS_QUICK, _no_x, _ack_curves(),
        derive=derive_exp2, x_scale="log", assumptions=(A_DELAY, A_HEADERS, A_NETWORK, A_TRANSFER),
        sensitivities=_ack_sensitivities(), claims=claims, caption=f"{STATED}; {EXP2_NOTE}",
    )


def _with_transport_curves(f: Figure, measure: str, suffix: str, what: str) -> Figure:
    """``f`` with TP4's own ``measure`` of both AK schemes read from the same runs (not
    drawn; keys ``<scheme>_<suffix>``), and the variants extended over them."""
    extra = tuple(Curve(f"{c.key}_{suffix}", f"{c.label}: {what}", TRANSPORT, params=c.params,
                        measure=measure, plot=False) for c in _ack_curves())
    return dataclasses.replace(f, curves=f.curves + extra,
                               sensitivities=_ack_sensitivities(tuple(c.key for c in extra)))


def fig6() -> Figure:
    f = _exp2(6, "Throughput efficiency vs bit error rate, one-for-one and selective AK", "throughput efficiency",
              "throughput_efficiency", cl.fig6_claims())
    return _with_transport_curves(f, "dt_retransmitted", "retx", "DTs retransmitted")


def fig7() -> Figure:
    f = _exp2(7, "Average receive memory vs bit error rate", "average receive memory (octets)",
              "receive_buffer_octets_mean", cl.fig7_claims())
    return _with_transport_curves(f, "send_buffer_octets_mean", "send", "average send memory (octets)")


def fig8() -> Figure:
    f = _exp2(8, "Maximum receive memory vs bit error rate", "maximum receive memory (octets)",
              "receive_buffer_octets_max", cl.fig8_claims())
    return _with_transport_curves(f, "send_buffer_octets_max", "send", "maximum send memory (octets)")


def window_curves() -> tuple[Curve, ...]:
    """Both AK schemes at each error rate of WINDOW_BERS (keys ``<scheme>@<ber>``)."""
    styles = {1e-5: ":", 1e-4: "-", 1e-3: "--"}
    return tuple(
        Curve(f"{c.key}@{b:g}", f"{c.label}, BER {b:g}", FLOW, params={**c.params, "ber": b},
              style={"color": COLORS[c.key], "linestyle": styles.get(b, "-")})
        for b in WINDOW_BERS for c in _ack_curves())


def fig9() -> Figure:
    return Figure(
        9, "Extension: throughput efficiency vs window size, by bit error rate", scenario(2), "window size (KiB)",
        "throughput efficiency", "throughput_efficiency", WINDOWS_KIB, WINDOWS_KIB_QUICK, _no_x, window_curves(),
        derive=derive_window, assumptions=(A_DELAY, A_HEADERS, A_NETWORK, A_TRANSFER),
        claims=cl.fig9_claims(), caption=f"{STATED}; {EXP2_NOTE}; window varied on a 0.5 KiB grid (not in the paper); "
                                         f"base scenario at BER {WINDOW_BER:g}",
    )


FIGURE_BUILDERS = {4: fig4, 5: fig5, 6: fig6, 7: fig7, 8: fig8, 9: fig9}


def figures() -> list[Figure]:
    return [b() for b in FIGURE_BUILDERS.values()]


def figure(n: int) -> Figure:
    return FIGURE_BUILDERS[n]()


def all_claim_ids() -> list[str]:
    """Every claim of the study: its figures' and the study-wide ones."""
    return [c.id for f in figures() for c in f.claims] + [c.id for c in cl.study_claims()]
