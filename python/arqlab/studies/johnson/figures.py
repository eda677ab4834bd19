"""Figures 1 and 2 (message throughput of the SMTP/TCP and HMTP sessions per protocol
and channel; Tables 1 and 2 are their latencies) and Figure 3 (beyond the paper's
figures: the sustained throughput on long messages that Section 5 quotes). x is the
channel: 1 = 25 dB, 2 = 5 dB, 3 = transition. Every figure carries the four protocols
of the paper and, as extension curves, the other four feature combinations.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from ..spec import Assumption, ClosedForm, Curve, Figure, Sensitivity
from . import claims as cl
from .params import CHANNEL_X, EXTRA_CURVES, PAPER_CURVES, SENSITIVITY_PRECISION, STANDARD_INTEGRATED_MODEM, STANDARD_MODEM
from .published import TABLE_1, TABLE_2, LatencyTable
from .scenarios import CLIENT, LAYERS, derive, scenario

XS = tuple(CHANNEL_X)
COLORS = {"hdl": "C0", "hdl-1d": "C1", "5066": "C2", "5066-1s": "C3", "all-three": "C4",
          "sr-external-simplex": "C5", "sw-external-duplex": "C6", "sw-integrated-simplex": "C7"}
#: Counters behind the "transmissions per packet" claim (hidden curves).
PACKET_MEASURES = ("hf_packets_sent", "hf_packets_new")

A_MODEM = Assumption("modem tables", "MIL-STD-188-141B App. C required performance, the first BW2 copy as good as two (the paper's 'both modems transfer data quickly and efficiently' at high SNR); MIL-STD-188-110B's as a strictly ordered rate ladder moved 6.6 dB up to the paper's 5 dB statement",
                     "Johnson used measured commercial modems we do not have; he states only the external modem's 5 dB behaviour (docs/models/hf.md)")
A_TCP = Assumption("TCP", "Reno, RFC 6298 timers, MSS 536, connection set-up",
                   "the paper names TCP without its settings")
A_RUN = Assumption("run length", "sessions back to back, started during one simulated hour and run to their end",
                   "the paper's \"at least an hour\", every session averaged; replications give the CIs the paper lacks")


def _no_x(x: float) -> dict[str, Any]:
    return {}


def curves(workload: str, latency: bool) -> tuple[Curve, ...]:
    """One curve per feature combination (the paper's four first) and, hidden, each
    one's session latency (Tables 1 and 2) and packet counters."""
    keys = [(name, v, False) for name, v in PAPER_CURVES.items()] + [(v, v, True) for v in EXTRA_CURVES]
    out: list[Curve] = []
    for label, v, extension in keys:
        params = {"variant": v, "workload": workload}
        out.append(Curve(v, label, CLIENT, params=params, extension=extension,
                         style={"color": COLORS[v], "marker": "o", "linestyle": "--" if extension else "-"}))
        if latency:
            out.append(Curve(f"{v}.latency", f"{label}: session latency", CLIENT, params=params,
                             measure="session_latency_s", plot=False, extension=extension))
            out.append(Curve(f"{v}.censored", f"{label}: sessions censored at the cap", CLIENT, params=params,
                             measure="sessions_censored", plot=False, extension=extension))
        out += [Curve(f"{v}.{m}", f"{label}: {m}", LAYERS, params=params, measure=m, plot=False, extension=extension)
                for m in PACKET_MEASURES]
    return tuple(out)


#: TCP of the paper's era: RFC 2988 (2000) started the RTO at 3 s; RFC 6298 (2011), our
#: default, at 1 s. The paper does not give its TCP's timers.
RFC2988 = Sensitivity("rto_rfc2988", "TCP's initial RTO 3 s (RFC 2988, the paper's era) instead of 1 s (RFC 6298)",
                      tuple(PAPER_CURVES.values()) + tuple(f"{v}.latency" for v in PAPER_CURVES.values()),
                      params={"initial_rto_s": 3.0})


def rate_per_packet(latency: bool) -> Sensitivity:
    """The external-modem protocols with the rate rule that converges to the target PER
    (params.RATE_ADAPTATION)."""
    curves = ("5066", "5066-1s") + (("5066.latency", "5066-1s.latency") if latency else ())
    return Sensitivity("rate_per_packet", "external modem: SNR estimate stepped per packet, settling at the target PER 0.1",
                       curves, params={"rate_adaptation": "per_packet"})


#: The transition channel's "30 dB amplitude" read as half the peak-to-peak swing
#: (σ = 15 dB) instead of σ = 30 dB (params.TRANSITION_SIGMA_DB); only the transition
#: cells change.
SIGMA_15 = Sensitivity("sigma_15", "transition channel: mid-term σ = 15 dB (\"30 dB amplitude\" as a peak-to-peak swing) instead of 30 dB",
                       tuple(PAPER_CURVES.values()) + tuple(f"{v}.latency" for v in PAPER_CURVES.values()),
                       params={"transition_sigma_db": 15.0})


def reciprocal(latency: bool) -> Sensitivity:
    """The paper's four protocols with both directions of the radio sampling one fading
    process (params.RECIPROCAL_CHANNEL) instead of one each."""
    curves = tuple(PAPER_CURVES.values()) + (tuple(f"{v}.latency" for v in PAPER_CURVES.values()) if latency else ())
    curves += tuple(f"{v}.{m}" for v in PAPER_CURVES.values() for m in PACKET_MEASURES)
    return Sensitivity("reciprocal", "both directions of the radio share one mid-term fading process (a reciprocal channel) "
                       "instead of fading independently", curves, params={"reciprocal": True})


def robust_ack(latency: bool) -> Sensitivity:
    """5066-1s with its acknowledgement (every transmission without data) at the external
    modem's lowest rate (params.STOP_AND_WAIT_ACK_RATE)."""
    curves = ("5066-1s",) + (("5066-1s.latency",) if latency else ()) + tuple(f"5066-1s.{m}" for m in PACKET_MEASURES)
    return Sensitivity("robust_ack", "5066-1s: the acknowledgement at the external modem's lowest rate (75 bit/s) "
                       "instead of the current data rate", curves, params={"ack_rate": "lowest"})


def modem_standard(latency: bool) -> Sensitivity:
    """The external-modem protocols with the standard's required-performance table
    instead of the one calibrated to the paper's 5 dB statement (params.EXTERNAL_MODEM)."""
    curves = ("5066", "5066-1s") + (("5066.latency", "5066-1s.latency") if latency else ())
    return Sensitivity("modem_standard", "external modem: the 110B standard's required figures (not moved to the paper's 5 dB statement)",
                       curves, params={"external_modem": STANDARD_MODEM})


def first_copy_uncoded(latency: bool) -> Sensitivity:
    """The integrated-modem protocols with the 141B table's first BW2 copy on the 110B
    uncoded-4800 anchor (fails 99 % at 25 dB) instead of as good as two copies
    (params.INTEGRATED_MODEM)."""
    curves = ("hdl", "hdl-1d") + (("hdl.latency", "hdl-1d.latency") if latency else ("hdl.hf_packets_sent", "hdl.hf_packets_new"))
    return Sensitivity("first_copy_uncoded", "integrated modem: first BW2 copy on the 110B uncoded-4800 anchor (BER 1e-3 at 27 dB), not as good as two",
                       curves, params={"integrated_modem": STANDARD_INTEGRATED_MODEM})


def fill_first_only(latency: bool) -> Sensitivity:
    """HDL with its BW2 fill slots repeating first sends only (params.BW2_FILL's level
    "repeat_first_only"): a retransmission's spare slots carry nothing, where the study's
    "repeat" (an upper bound) refills them too."""
    curves = ("hdl",) + (("hdl.latency",) if latency else ()) + tuple(f"hdl.{m}" for m in PACKET_MEASURES)
    return Sensitivity("fill_first_only", "HDL: BW2 fill slots repeat a burst's first sends only (not a retransmission's packets)",
                       curves, params={"fill_slots": "repeat_first_only"})


def published_curves(table: LatencyTable) -> tuple[ClosedForm, ...]:
    """The paper's Figure 1 or 2 (40,000 bits / Table 1 or 2) drawn over ours: thin
    dotted lines through the three channels, in each protocol's colour."""
    def line(protocol: str) -> ClosedForm:
        ys = [table.throughput_bps(protocol, CHANNEL_X[x][0]) for x in XS]
        return ClosedForm(f"published: {protocol}", lambda x: float(np.interp(x, XS, ys)),
                          {"color": COLORS[PAPER_CURVES[protocol]], "linestyle": ":", "linewidth": 1.2})
    return tuple(line(p) for p in PAPER_CURVES)

def held(*sensitivities: Sensitivity) -> tuple[Sensitivity, ...]:
    """The sensitivities at their own target in the full pass (params.SENSITIVITY_PRECISION):
    they only ask whether a verdict changes."""
    return tuple(replace(s, precision=SENSITIVITY_PRECISION) for s in sensitivities)


#: The channels as named x positions.
CHANNEL_TICKS = ((1.0, "stable 25 dB"), (2.0, "stable 5 dB"), (3.0, "transition 25 → 5 dB"))


def fig1() -> Figure:
    return Figure(
        1, "Message throughput for SMTP/TCP (40,000 bits / session latency)", scenario(workload="smtp"),
        "channel", "message throughput (bit/s)", "message_throughput_bps",
        XS, XS, _no_x, curves("smtp", True), derive=derive, assumptions=(A_MODEM, A_TCP, A_RUN), sensitivities=held(RFC2988, rate_per_packet(True), modem_standard(True), SIGMA_15, reciprocal(True), robust_ack(True), first_copy_uncoded(True), fill_first_only(True)),
        published=(TABLE_1.figure,), claims=cl.fig1_claims(), closed_forms=published_curves(TABLE_1),
        caption="dashed: the four feature combinations the paper did not run (the full 2^3 design)", x_ticks=CHANNEL_TICKS,
    )


def fig2() -> Figure:
    return Figure(
        2, "Message throughput for HMTP (40,000 bits / session latency)", scenario(workload="hmtp"),
        "channel", "message throughput (bit/s)", "message_throughput_bps",
        XS, XS, _no_x, curves("hmtp", True), derive=derive, assumptions=(A_MODEM, A_RUN), sensitivities=held(rate_per_packet(True), modem_standard(True), SIGMA_15, reciprocal(True), robust_ack(True), first_copy_uncoded(True), fill_first_only(True)),
        published=(TABLE_2.figure,), claims=cl.fig2_claims(), closed_forms=published_curves(TABLE_2),
        caption="dashed: the four feature combinations the paper did not run (the full 2^3 design)", x_ticks=CHANNEL_TICKS,
    )


def fig3() -> Figure:
    return Figure(
        3, "Sustained throughput on long messages (5,000-byte messages back to back; Section 5)",
        scenario(workload="long"), "channel", "throughput (bit/s)", "throughput_bps",
        XS, XS, _no_x, curves("long", False), derive=derive, assumptions=(A_MODEM, A_RUN), claims=cl.fig3_claims(),
        sensitivities=held(rate_per_packet(False), modem_standard(False), reciprocal(False), robust_ack(False), first_copy_uncoded(False), fill_first_only(False)),
        caption="not a figure of the paper: the long-message rates its Section 5 quotes", x_ticks=CHANNEL_TICKS,
    )


FIGURE_BUILDERS = {1: fig1, 2: fig2, 3: fig3}


def figures() -> list[Figure]:
    return [b() for b in FIGURE_BUILDERS.values()]


def figure(n: int) -> Figure:
    return FIGURE_BUILDERS[n]()
