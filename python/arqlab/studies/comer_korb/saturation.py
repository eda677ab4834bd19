"""Saturation as §5 defines it: "the condition in which the underlying X.25 interface is
completely busy" (its footnote: the line is never idle for HDLC, "we refer to packet
traffic"), judged on the file's distinct packets: the transfer's throughput (each
octet of the file counted once, as the paper computes it) against what the interface
can send when it sends every packet of the file once, back to back. Retransmitted
copies keep a line busy without carrying the file, so the access line's busy share
(reported beside) cannot tell saturation from a TCP that re-sends its window: with
4.2BSD the lines pass 95 % busy at C = 4 while the file moves at 46.5 % of the
capacity (until revision 10 saturation was read from the busy share)."""

from __future__ import annotations

from ..artefacts.curves import FigureData
from ..verdicts import Est
from . import scenarios
from .params import FILE_OCTETS
from .theory import interface_user_bps

#: "Completely busy" (§5): the file's throughput at least this share of the interface's
#: capacity for user data (:func:`capacity_bps`).
SATURATION_SHARE = 0.95
#: "Completely busy" has no stated threshold: the saturation claims report the first
#: saturated C at each of these too (a knife edge shows as a C that moves).
SATURATION_SHARE_SENSITIVITY = (0.80, 0.90, 0.95)


def processing_per_packet(fd: FigureData) -> float:
    """The host processing per packet under the data's reading (its sensitivity
    variant's T_N placement, else the study's parameters)."""
    placement = next((s.params.get("placement") for s in fd.figure.sensitivities if s.name == fd.variant), None)
    return scenarios.host_processing_s({"placement": placement})


def capacity_bps(fd: FigureData) -> float:
    """The interface's capacity for user data under the data's reading: each packet of
    the file's datagrams costs its frame and, where T_f is host processing (busy time,
    eq. 1's W (T_p + T_f)), that processing too."""
    return interface_user_bps(processing_per_packet(fd))


def useful_share(fd: FigureData, curve: str, x: float) -> Est:
    """The file's throughput at ``x`` as a share of :func:`capacity_bps`: the share of
    the transfer's time the interface would be busy sending each of the file's packets
    once (retransmitted copies not counted)."""
    return fd.est(curve, x).scaled(1.0 / capacity_bps(fd))


def line_busy_share(fd: FigureData, curve: str, x: float) -> Est:
    """The share of the transfer's time the access lines were busy, copies included:
    `x25_line_busy_s` (each end's busier direction, summed over both) over twice the
    transfer's duration (the file's bits over the throughput). Reported, not judged."""
    busy, thr = fd.est(f"{curve}.x25_line_busy_s", x), fd.est(curve, x)
    if not (busy.valid and thr.valid and thr.mean > 0):
        return Est(float("nan"), float("nan"))
    return busy.scaled(thr.mean / (2 * 8 * FILE_OCTETS))


def saturation(fd: FigureData, curve: str = "tcp", share: float = SATURATION_SHARE) -> tuple[float | None, list[tuple[float, Est]]]:
    """The smallest C whose throughput reaches ``share`` of the capacity (None: never),
    and the useful share at every C."""
    shares = [(x, useful_share(fd, curve, x)) for x in fd.xs(curve)]
    return next((x for x, e in shares if e.mean >= share), None), shares


def threshold_sensitivity(fd: FigureData, curve: str = "tcp") -> str:
    """The first saturated C at each of SATURATION_SHARE_SENSITIVITY's thresholds."""
    firsts = [(b, saturation(fd, curve, b)[0]) for b in SATURATION_SHARE_SENSITIVITY]
    return "; ".join(f"≥ {100 * b:g}%: " + (f"C = {c:g}" if c is not None else "never") for b, c in firsts)


def share_list(shares: list[tuple[float, Est]], upto: float) -> str:
    return ", ".join(f"C = {x:g}: {100 * e.mean:.1f}%" for x, e in shares if x <= upto)


def busy_list(fd: FigureData, upto: float, curve: str = "tcp") -> str:
    """The access lines' busy share (copies included) up to ``upto``, if measured."""
    if not fd.has(f"{curve}.x25_line_busy_s"):
        return "not measured"
    return ", ".join(f"C = {x:g}: {100 * line_busy_share(fd, curve, x).mean:.1f}%"
                     for x in fd.xs(f"{curve}.x25_line_busy_s") if x <= upto and x in fd.xs(curve))
