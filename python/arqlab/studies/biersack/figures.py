"""Figures 1, 2, 3 and 5 of the paper, and two extensions: Fig. 6 (the BG/SREJ/JAIN
ranking under other buffer sizes, windows, timeouts, processing times and lengths, which
the paper states without a figure) and Fig. 7 (multi-FIFO receivers against SREJ, also
stated without a figure). Fig. 4 is a sequence diagram drawn from a trace
(:mod:`.timegraph`).

Every point of Figs. 1-3 and 5 is one run of the 36-station model at one total offered
rate; the four figures read different measures of the same runs. Curves with
``plot=False`` are read by claims and written to the CSV files: each variant's
throughput (the x of Figs. 2, 3 and 5 as the paper draws them, see
:func:`~arqlab.studies.biersack.vs_throughput`), out-of-sequence fraction, bridge loss
ratio and working window.
"""

from __future__ import annotations

from typing import Any

from ..spec import Curve, Figure, Scenario, Sensitivity
from . import claims as cl
from .params import (
    ASSUMPTIONS,
    COLORS,
    LABELS,
    OFFERED_MBPS,
    OFFERED_MBPS_QUICK,
    OVERLOAD_MBPS,
    UNIFORM_LENGTHS,
    VARIANTS,
)
from .scenarios import BRIDGES, LLC2, POOLED, derive, derive_fifos, derive_window, scenario

STATED = "3 token rings × 12 stations, bridged to a backbone ring, 4 Mbit/s, 4 KB bridge buffers, internet traffic only"
X_LABEL = "total offered data rate (Mbit/s)"
ASSUMED = ASSUMPTIONS

#: measure → factor to plot units (Mbit/s, ms); the rest are ratios or counts.
UNITS = {"throughput_bps": 1e6, "transfer_time_s": 1e-3, "transfer_time_p95_s": 1e-3}


def _no_x(x: float) -> dict[str, Any]:
    return {}


def _units(scn: Scenario, curve: Curve) -> float:
    return UNITS.get(curve.measure or "", 1.0)


def _variant_curves(measure: str, direction: str, variants: tuple[str, ...] = VARIANTS) -> tuple[Curve, ...]:
    return tuple(Curve(v, LABELS[v], direction, measure=measure, params={"variant": v},
                       style={"color": COLORS[v]}) for v in variants)


def _hidden(suffix: str, measure: str, direction: str, variants: tuple[str, ...] = VARIANTS) -> tuple[Curve, ...]:
    return tuple(Curve(f"{v}_{suffix}", f"{LABELS[v]}: {measure}", direction, measure=measure,
                       params={"variant": v}, plot=False) for v in variants)


def _offered(number: int, title: str, y_label: str, measure: str, direction: str, extra: tuple[Curve, ...],
             claims: Any, y_limits: tuple[float | None, float | None] | None = None, y_scale: str = "linear") -> Figure:
    return Figure(
        number, title, scenario(), X_LABEL, y_label, measure, OFFERED_MBPS, OFFERED_MBPS_QUICK, _no_x,
        _variant_curves(measure, direction) + extra, derive=derive, normalize=_units, y_limits=y_limits, y_scale=y_scale,
        assumptions=ASSUMED, claims=claims, caption=STATED,
    )


#: Where recovery and multi-FIFO receivers differ from SREJ: bridges lose frames from
#: about 3 Mbit/s offered on (below, every variant runs SREJ's loss-free trajectory).
LOSSY_MBPS = (3.0, 3.5, 4.0, 4.5, 5.0, 6.0)
LOSSY_MBPS_QUICK = (3.5, 5.0)
OVERLOADED_MBPS = tuple(x for x in LOSSY_MBPS if x >= OVERLOAD_MBPS)
OVERLOADED_MBPS_QUICK = (5.0,)


def _recovery_curves() -> tuple[Curve, ...]:
    """Immediate recovery (multi-SREJ: an SREJ for every gap at once) against SREJ's
    delayed one, under overload, and two FIFO buffers (w = k = 10) against SREJ wherever
    the bridges lose frames: throughput, I frames delivered per sent, bridge loss."""
    over, over_q = OVERLOADED_MBPS, OVERLOADED_MBPS_QUICK
    ms = {"variant": "multi_srej"}
    return (Curve("msrej", "multi-SREJ (immediate recovery, ours)", POOLED, measure="throughput_bps", params=ms,
                  style={"color": "tab:orange"}, extension=True, xs=over, quick_xs=over_q),
            Curve("msrej_eff", "multi-SREJ: network_efficiency", LLC2, measure="network_efficiency", params=ms,
                  plot=False, xs=over, quick_xs=over_q),
            Curve("msrej_loss", "multi-SREJ: bridge loss_ratio", BRIDGES, measure="loss_ratio", params=ms, plot=False,
                  xs=over, quick_xs=over_q),
            Curve("srej_eff", "SREJ: network_efficiency", LLC2, measure="network_efficiency", params={"variant": "srej"},
                  plot=False, xs=over, quick_xs=over_q),
            Curve("mf2", "two FIFO buffers (Gopal & Rom)", POOLED, measure="throughput_bps",
                  params={"variant": "multi_fifo", "fifo_buffers": 2},
                  style={"color": "tab:purple"}, extension=True, xs=LOSSY_MBPS, quick_xs=LOSSY_MBPS_QUICK))


def fig1() -> Figure:
    # "oos": the share of received I frames discarded (N(S) ≠ V(R): out of sequence or a
    # duplicate), the paper's "out-of-sequence and discarded" for ORIG.
    extra = (_hidden("oos", "discarded_fraction", LLC2) + _hidden("loss", "loss_ratio", BRIDGES)
             + _hidden("window", "working_window_mean", LLC2, ("bg", "jain")) + _hidden("cuts", "window_cuts", LLC2, ("bg", "jain"))
             + _recovery_curves())
    return _offered(1, "Throughput vs total offered data rate", "throughput (Mbit/s)", "throughput_bps", POOLED, extra,
                    cl.fig1_claims(), y_limits=(0.0, None))


def _tp() -> tuple[Curve, ...]:
    return _hidden("tp", "throughput_bps", POOLED)


def fig2() -> Figure:
    return _offered(2, "Mean end-to-end delay vs throughput", "mean delay (ms)", "transfer_time_s", POOLED, _tp(),
                    cl.fig2_claims(), y_scale="log")


def fig3() -> Figure:
    return _offered(3, "95th percentile of the end-to-end delay vs throughput", "95th percentile of the delay (ms)",
                    "transfer_time_p95_s", POOLED, _tp(), cl.fig3_claims(), y_scale="log")


def fig5() -> Figure:
    # I frames sent and received (the same runs): the I-frame loss rate the paper gives
    # as the reason for the efficiencies.
    counts = (_hidden("isent", "i_frames_sent", LLC2, ("bg", "jain", "srej"))
              + _hidden("irecv", "i_frames_received", LLC2, ("bg", "jain", "srej")))
    return _offered(5, "Network efficiency vs throughput", "network efficiency (I frames delivered / transmitted)",
                    "network_efficiency", LLC2, _tp() + counts, cl.fig5_claims(), y_limits=(0.0, 1.05))


#: SREJ's senders and bridges, read from the same runs as its throughput (the claim that
#: delayed recovery throttles the sender): I frames delivered per I frame sent, the
#: bridges' loss ratio, and the raw count of I frames sent (reported, not scored).
THROTTLE = ("srej_eff", "srej_loss", "srej_sent")


def _throttle_curves() -> tuple[Curve, ...]:
    return (Curve("srej_eff", "SREJ: network_efficiency", LLC2, measure="network_efficiency", params={"variant": "srej"},
                  plot=False),
            Curve("srej_loss", "SREJ: bridge loss_ratio", BRIDGES, measure="loss_ratio", params={"variant": "srej"},
                  plot=False),
            Curve("srej_sent", "SREJ: I frames sent", LLC2, measure="i_frames_sent", params={"variant": "srej"}, plot=False))


#: The ranking's sensitivity (Section III: "different values for the buffer size, window
#: size, and the timeout"), and the values the paper leaves open.
SENSITIVITIES = (
    Sensitivity("buffer2k", "bridge buffers 2 KB", ("bg", "jain", "srej"), params={"buffer_octets": 2048}),
    Sensitivity("buffer8k", "bridge buffers 8 KB", ("bg", "jain", "srej"), params={"buffer_octets": 8192}),
    Sensitivity("window4", "window k = 4", ("bg", "jain", "srej"), params={"window": 4}),
    Sensitivity("window7", "window k = 7 (802.2 implementations' default)", ("bg", "jain", "srej"), params={"window": 7}),
    Sensitivity("window12", "window k = 12", ("bg", "jain", "srej"), params={"window": 12}),
    Sensitivity("t1_0.3", "T1 = 0.3 s", ("bg", "jain", "srej") + THROTTLE, params={"t1_s": 0.3}),
    Sensitivity("t1_2", "T1 = 2 s", ("bg", "jain", "srej") + THROTTLE, params={"t1_s": 2.0}),
    Sensitivity("t1_cut", "a T1 expiry also cuts the BG/JAIN window", ("bg", "jain", "srej"),
                params={"t1_resets_window": True}),
    Sensitivity("fwd2ms", "bridge forwarding time 2 ms (one processor)", ("bg", "jain", "srej"),
                params={"forwarding_time_s": 0.002}),
    Sensitivity("fwd_parallel", "bridge forwarding a pure delay (frames in parallel)", ("bg", "jain", "srej"),
                params={"single_processor": False}),
    Sensitivity("proc1ms", "station processing 1 ms per received I frame, 0.5 ms per S frame", ("bg", "jain", "srej"),
                params={"processing_s": 0.001, "s_processing_s": 0.0005}),
    Sensitivity("holding10ms", "IEEE 802.5 token holding time 10 ms (several frames per token)", ("bg", "jain", "srej"),
                params={"holding_time_s": 0.01}),
    Sensitivity("uniform_lengths", "message lengths uniform on [512, 15693] bits (same mean)", ("bg", "jain", "srej"),
                params={"length": UNIFORM_LENGTHS}),
)
RANKING_XS = (4.5,)
RANKING_XS_QUICK = (5.0,)


def fig6() -> Figure:
    return Figure(
        6, "Extension: throughput of BG, SREJ and JAIN under other parameters", scenario(), X_LABEL,
        "throughput (Mbit/s)", "throughput_bps", RANKING_XS, RANKING_XS_QUICK, _no_x,
        _variant_curves("throughput_bps", POOLED, ("bg", "jain", "srej")) + _throttle_curves(), derive=derive,
        normalize=_units, assumptions=ASSUMED, sensitivities=SENSITIVITIES, claims=cl.fig6_claims(), y_limits=(0.0, None),
        caption=f"{STATED}; markers: one parameter changed at a time (Section III states the ranking without a figure)",
    )


FIFO_OFFERED_MBPS = 4.5
FIFOS = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
FIFOS_QUICK = (1.0, 2.0, 3.0, 5.0)


def _fifo_curves() -> tuple[Curve, ...]:
    out: list[Curve] = []
    for w, style in ((10, "-"), (20, "--")):
        out.append(Curve(f"mf_w{w}", f"multi-FIFO, w = {w}", POOLED, measure="throughput_bps",
                         params={"variant": "multi_fifo", "window": w}, style={"color": "tab:purple", "linestyle": style}))
        out.append(Curve(f"srej_w{w}", f"SREJ, w = {w}", POOLED, measure="throughput_bps",
                         params={"variant": "srej", "window": w}, style={"color": COLORS["srej"], "linestyle": style}))
    # Why m FIFOs fall short (read from the same runs, not drawn): the share of received
    # I frames discarded for want of a free FIFO, and the bridges' loss ratio.
    for key, variant in (("mf", "multi_fifo"), ("srej", "srej")):
        for w in (10, 20):
            out.append(Curve(f"{key}_w{w}_oos", f"{key} w = {w}: out_of_sequence_fraction", LLC2,
                             measure="out_of_sequence_fraction", params={"variant": variant, "window": w}, plot=False))
            out.append(Curve(f"{key}_w{w}_loss", f"{key} w = {w}: bridge loss_ratio", BRIDGES, measure="loss_ratio",
                             params={"variant": variant, "window": w}, plot=False))
    return tuple(out)


#: The most pessimistic reading is one SREJ round trip per discarded frame; the other
#: extreme recovers every discarded frame with one REJ (go back to V(R)).
FIFO_SENSITIVITIES = (
    Sensitivity("rej_after_discard", "multi-FIFO receiver sends REJ after a discard (go back)",
                ("mf_w10", "mf_w20", "mf_w10_oos", "mf_w20_oos", "mf_w10_loss", "mf_w20_loss"),
                params={"rej_after_discard": True}),
)


def fig7() -> Figure:
    return Figure(
        7, f"Extension: multi-FIFO receivers vs SREJ at {FIFO_OFFERED_MBPS:g} Mbit/s offered", scenario(),
        "FIFO buffers per connection m", "throughput (Mbit/s)", "throughput_bps", FIFOS, FIFOS_QUICK, _no_x,
        _fifo_curves(), derive=derive_fifos(FIFO_OFFERED_MBPS), normalize=_units, assumptions=ASSUMED,
        sensitivities=FIFO_SENSITIVITIES, claims=cl.fig7_claims(), y_limits=(0.0, None),
        caption=f"{STATED}; Gopal & Rom FIFO buffers (Section IV states the result without a figure)",
    )


SAVINGS_OFFERED_MBPS = 4.5
WINDOWS = (2.0, 4.0, 7.0, 10.0, 12.0)
WINDOWS_QUICK = (4.0, 10.0, 12.0)


def fig8() -> Figure:
    """Section II: "The savings in bandwidth due to selective retransmission become more
    pronounced with increasing window sizes" — ORIG's and SREJ's network efficiency
    against the window k, under overload."""
    curves = tuple(Curve(v, LABELS[v], LLC2, measure="network_efficiency", params={"variant": v},
                         style={"color": COLORS[v]}) for v in ("orig", "srej"))
    return Figure(
        8, f"Extension: network efficiency of ORIG and SREJ vs window size at {SAVINGS_OFFERED_MBPS:g} Mbit/s offered",
        scenario(), "window size k", "network efficiency (I frames delivered / transmitted)", "network_efficiency",
        WINDOWS, WINDOWS_QUICK, _no_x, curves, derive=derive_window(SAVINGS_OFFERED_MBPS), normalize=_units,
        assumptions=ASSUMED, claims=cl.fig8_claims(), y_limits=(0.0, 1.05),
        caption=f"{STATED}; Section II states the savings without a figure",
    )


FIGURE_BUILDERS = {1: fig1, 2: fig2, 3: fig3, 5: fig5, 6: fig6, 7: fig7, 8: fig8}


def figures() -> list[Figure]:
    return [b() for b in FIGURE_BUILDERS.values()]


def figure(n: int) -> Figure:
    return FIGURE_BUILDERS[n]()


def all_claim_ids() -> list[str]:
    """Every claim of the study: its figures' and the study-wide ones."""
    return [c.id for f in figures() for c in f.claims] + [c.id for c in cl.study_claims()]
