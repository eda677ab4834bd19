"""Saturation as §5 defines it: "the condition in which the underlying X.25 interface is
completely busy" (its footnote: the line is never idle for HDLC, "we refer to packet
traffic"), read from the access lines' busy time, with the threshold's sensitivity and
the readings under which the line's busy share cannot measure it."""

from __future__ import annotations

from ..artefacts.curves import FigureData
from ..verdicts import Est
from . import scenarios
from .params import FILE_OCTETS
from .theory import T_P_S

#: "Saturation is the condition in which the underlying X.25 interface is completely
#: busy" (§5): the access lines busy at least this share of the transfer's time.
SATURATION_BUSY = 0.95
#: "Completely busy" has no stated threshold: the saturation claims report the first
#: saturated C at each of these too (a knife edge shows as a C that moves).
SATURATION_BUSY_SENSITIVITY = (0.90, 0.95, 0.975)


def line_busy_share(fd: FigureData, curve: str, x: float) -> Est:
    """The share of the transfer's time the access lines were busy: `x25_line_busy_s`
    (each end's busier direction, summed over both) over twice the transfer's duration
    (the file's bits over the throughput)."""
    busy, thr = fd.est(f"{curve}.x25_line_busy_s", x), fd.est(curve, x)
    if not (busy.valid and thr.valid and thr.mean > 0):
        return Est(float("nan"), float("nan"))
    return busy.scaled(thr.mean / (2 * 8 * FILE_OCTETS))


def saturation(fd: FigureData, curve: str = "tcp", busy: float = SATURATION_BUSY) -> tuple[float | None, list[tuple[float, Est]]]:
    """The smallest C whose access lines are busy at least ``busy`` of the time (None:
    never), and the busy share at every C."""
    if not fd.has(f"{curve}.x25_line_busy_s"):
        return None, []
    shares = [(x, line_busy_share(fd, curve, x)) for x in fd.xs(f"{curve}.x25_line_busy_s") if x in fd.xs(curve)]
    return next((x for x, e in shares if e.mean >= busy), None), shares


def threshold_sensitivity(fd: FigureData, curve: str = "tcp") -> str:
    """The first saturated C at each of SATURATION_BUSY_SENSITIVITY's thresholds."""
    firsts = [(b, saturation(fd, curve, b)[0]) for b in SATURATION_BUSY_SENSITIVITY]
    return "; ".join(f"≥ {100 * b:g}%: " + (f"C = {c:g}" if c is not None else "never") for b, c in firsts)


def busy_list(shares: list[tuple[float, Est]], upto: float) -> str:
    return ", ".join(f"C = {x:g}: {100 * e.mean:.1f}%" for x, e in shares if x <= upto)


def processing_per_packet(fd: FigureData) -> float:
    """The host processing per packet under the data's reading (its sensitivity
    variant's T_N placement, else the study's parameters)."""
    placement = next((s.params.get("placement") for s in fd.figure.sensitivities if s.name == fd.variant), None)
    return scenarios.host_processing_s({"placement": placement})


def not_line_time(fd: FigureData) -> str:
    """Why the access line's busy share cannot measure saturation under the data's
    reading ("" when it can): host processing per packet is busy time of the host, not
    of the line, so the line is at most T_p/(T_p + h) busy however many circuits."""
    h = processing_per_packet(fd)
    if h <= 0:
        return ""
    return (f"not applicable: T_f = {1000 * h:g} ms of host processing per packet is busy time off the line, so the "
            f"access line is at most T_p/(T_p + T_f) = {100 * T_P_S / (T_P_S + h):.1f}% busy however many circuits; "
            "the line's busy share cannot show 'completely busy' under this reading")
