"""Saturation in Fig. 3, read two ways, both scored on the constant-T_N curve
(:data:`SCORED_CURVE`). §5 defines it: "Saturation is the condition in which the
underlying X.25 interface is completely busy", and footnote 2 says its rates are
"packet traffic", so retransmitted copies count: the access lines' busy share, copies
and control packets included (:func:`line_busy_share`, :func:`busy_range`, threshold
:data:`LINE_BUSY_SHARE`). §5 then tests the prediction by its measured throughput ("the
burst model accurately predicts saturation at three virtual circuits"; conclusions: "a
point of saturation beyond which increasing the number of circuits will not increase
throughput"): the throughput KNEE, the first C whose throughput reaches
:data:`KNEE_SHARE` of the curve's best (:func:`knee`, :func:`knee_range`). The file's
own octets against the interface's capacity (:func:`saturation`, 8218 bit/s, each octet
once) are reported. Revision 12 (issue 26) scores the busy share beside the knee and
reads every Fig. 3 claim on one curve: the constant T_N is the only T_N the paper states
(the vendor's mean, eq. 1-2's input), while the random T_N's distribution is assumed, so
its curve is reported beside each verdict, never scored (Fig. 2's standard: no verdict
fixed by an assumed input)."""

from __future__ import annotations

import math

from ..artefacts.curves import FigureData
from ..verdicts import Est
from . import scenarios
from .params import FILE_OCTETS
from .theory import interface_busy_share as interface_busy_share_bound
from .theory import interface_user_bps

#: The file's octets (each once) against the interface's capacity, reported: the first C
#: at this share of :func:`capacity_bps`.
SATURATION_SHARE = 0.95
#: "Completely busy" (§5, scored, copies included): the access lines busy at least this
#: share of the transfer. Why 0.95, from the transfer's arithmetic alone (not from any
#: run): a line that never idles during the transfer still reads under 100 %, by the
#: transfer's tail (after the last data frame, its acknowledgement's round trip and the
#: delayed ACK, about 1 s) of a transfer of at least 800,000 bits / 8218 bit/s ≈ 97 s,
#: about 1 %; 0.95 leaves four points for that tail and a CI, and no line that idles a
#: twentieth of the transfer passes. Its sensitivity is reported at LINE_BUSY_SENSITIVITY.
LINE_BUSY_SHARE = 0.95
LINE_BUSY_SENSITIVITY = (0.90, 0.95, 0.975)
#: The knee: the first C whose throughput reaches this share of the best.
#: Why 0.95: in the burst model C circuits carry min(C, C_max)/C_max of the best, so one
#: circuit fewer than the knee ceil(C_max) carries (ceil(C_max) - 1)/C_max of it (67 % at
#: the paper's C_max 2.97, 83 % at this model's 3.62); a share above that finds the
#: model's knee. Near an integer C_max no share does (4.02: 3/4.02 = 99.5 %, so 95 %
#: reads the knee at 4, not 5); at 2.97 and 3.62 0.95 is clear of it. 0.95 leaves a
#: point 5 % under the best, twice the full pass's ± 2.5 % precision, short of the
#: knee, so that noise is not read as a gain. Its sensitivity is reported at
#: KNEE_SHARE_SENSITIVITY.
KNEE_SHARE = 0.95
KNEE_SHARE_SENSITIVITY = (0.90, 0.95, 0.975)
#: The burst model's curve: T_N constant, the vendor's mean.
CONSTANT_CURVE = "tcp"
#: The curve every Fig. 3 claim is scored on (revision 12): T_N constant, the only T_N
#: the paper states. Until revision 12 the saturation, linear and no-gain claims read
#: the random-T_N curve, whose uniform ± 50 % is an assumed input.
SCORED_CURVE = CONSTANT_CURVE
#: T_N uniform ± 50 % per packet (assumed distribution): reported beside each verdict.
RANDOM_CURVE = "random"
#: "Completely busy" as the file's octets have no stated threshold either: the first C
#: at each of these is reported (a knife edge shows as a C that moves).
SATURATION_SHARE_SENSITIVITY = (0.80, 0.90, 0.95)


def _placement(fd: FigureData) -> dict[str, str | None]:
    """The data's T_N placement (its sensitivity variant's, else the study's parameters)."""
    return {"placement": next((s.params.get("placement") for s in fd.figure.sensitivities if s.name == fd.variant), None)}


def processing_per_packet(fd: FigureData) -> float:
    """The host processing per packet under the data's reading."""
    return scenarios.host_processing_s(_placement(fd))


def busy_bound(fd: FigureData, circuits: float) -> float:
    """The burst model's interface busy share at ``circuits`` under the data's reading
    (its relay delay and processing): what no TCP can exceed, the window bounding each
    circuit's packets per cycle (:func:`theory.interface_busy_share`)."""
    p = _placement(fd)
    return interface_busy_share_bound(circuits, scenarios.relay_t_n(p), scenarios.host_processing_s(p))


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
    `x25_line_busy_s` (each end's busier direction, every frame's bits with LAPB's
    framing: data packets, retransmitted copies, RR packets and LAPB's own frames, over
    the line rate; summed over both ends) over twice the transfer's duration (the file's
    bits over the throughput). The counter runs over the whole run, so the call set-up's
    few frames before the transfer are in it (about 0.1 s of line time per circuit).
    Its CI combines the two means' relative half-widths in quadrature (the study data
    keep means, not replications; busy time and duration rise together, so this is
    wider than the ratio's own)."""
    return _over_duration(fd.est(f"{curve}.x25_line_busy_s", x), fd.est(curve, x))


#: The sending interface's busy time where the host processes packets
#: (`host_processing_s` > 0): its outgoing frames or a packet in processing, their
#: union, reported by the end whose sending side is the busier of its line (the
#: receiver reports 0), so the flow's sum is the sender's (docs/models/x25.md).
INTERFACE_BUSY = "x25_interface_busy_s"


def interface_busy_share(fd: FigureData, curve: str, x: float) -> Est:
    """§5's "the underlying X.25 interface is completely busy", the SENDING interface's
    (C_max = 1 + T_I/(W(T_p + T_f)) is the sender's), with T_f as its busy time as §5
    counts it. Where the host processes packets (host_to_host_busy) it is
    `x25_interface_busy_s` over the transfer's duration: the sender's outgoing frames
    and processing, their union, measured by the model (revision 14; until then the
    lines plus every packet both hosts processed, which added the receiver's processing
    of its acknowledgements and RR packets on top of its incoming line: about +3.6
    points near saturation). With no processing it is :func:`line_busy_share`: the
    sender's outgoing direction and the receiver's incoming one carry the same packets,
    so their mean is the sender's line but for LAPB's own S frames. NaN where the
    measure is missing."""
    if processing_per_packet(fd) == 0:
        return line_busy_share(fd, curve, x)
    key = f"{curve}.{INTERFACE_BUSY}"
    if not (fd.has(key) and x in fd.xs(key)):
        return Est(float("nan"), float("nan"))
    return _over_duration(fd.est(key, x), fd.est(curve, x), ends=1)


def _over_duration(busy: Est, thr: Est, ends: int = 2) -> Est:
    """Busy seconds summed over ``ends`` hosts, over ``ends`` times the transfer's
    duration (the file's bits over the throughput); the two relative half-widths in
    quadrature."""
    if not (busy.valid and thr.valid and thr.mean > 0 and busy.mean >= 0):
        return Est(float("nan"), float("nan"))
    mean = busy.mean * thr.mean / (ends * 8 * FILE_OCTETS)
    rel = math.hypot(busy.half / busy.mean if busy.mean else 0.0, thr.half / thr.mean)
    return Est(mean, mean * rel, min(busy.n, thr.n))


def busy_range(fd: FigureData, curve: str = SCORED_CURVE,
               share: float = LINE_BUSY_SHARE) -> tuple[float | None, float | None]:
    """Where §5's saturation can lie given the CIs: the earliest C whose sending
    interface's busy share (:func:`interface_busy_share`: its line, copies included, and
    its processing) may reach ``share`` (the CI's upper end) and the first whose whole CI
    does (None: none). A deterministic curve has earliest = first."""
    if not fd.has(f"{curve}.x25_line_busy_s"):
        return None, None
    shares = [(x, interface_busy_share(fd, curve, x)) for x in fd.xs(curve) if x in fd.xs(f"{curve}.x25_line_busy_s")]
    if not shares or not all(e.valid for _, e in shares):
        return None, None
    earliest = next((x for x, e in shares if e.hi >= share), None)
    surely = next((x for x, e in shares if e.lo >= share), None)
    return earliest, surely


def busy_sensitivity(fd: FigureData, curve: str = SCORED_CURVE) -> str:
    """The first C whose lines are busy (mean) at each of LINE_BUSY_SENSITIVITY's shares."""
    parts = []
    for b in LINE_BUSY_SENSITIVITY:
        e, s = busy_range(fd, curve, b)
        parts.append(f"≥ {100 * b:g}%: " + (f"C = {s:g}" if s is not None and s == e else
                                           f"C = {_c(e)}–{_c(s)}" if e is not None else "never"))
    return "; ".join(parts)


def _c(x: float | None) -> str:
    return f"{x:g}" if x is not None else "none"


def knee(fd: FigureData, curve: str = SCORED_CURVE, share: float = KNEE_SHARE) -> tuple[float | None, float]:
    """The smallest x whose mean reaches ``share`` of the curve's best mean, and the best."""
    xs = fd.xs(curve)
    vals = [fd.est(curve, x).mean for x in xs]
    if not vals or not all(math.isfinite(v) for v in vals):
        return None, float("nan")
    top = max(vals)
    return next(x for x, v in zip(xs, vals) if v >= share * top), top


def knee_range(fd: FigureData, curve: str = SCORED_CURVE,
               share: float = KNEE_SHARE) -> tuple[float | None, float | None, float]:
    """Where the knee can lie given the CIs, the best's included: the curve's best is
    the largest of noisy means, so it is not exact either. The best lies between the
    lower end of the best mean's CI (the point with the best mean is at least that) and
    the largest upper end of any point's CI (no point is above that). The earliest x
    whose CI's upper end reaches ``share`` of the best's lower end; the first whose CI's
    lower end reaches ``share`` of the best's upper end (None: none); and the best mean.
    A deterministic curve (CI 0) has earliest = first = :func:`knee`. (Until revision 12
    both ends were compared with the best mean as if it were exact.)"""
    xs = fd.xs(curve)
    ests = [fd.est(curve, x) for x in xs]
    if not ests or not all(e.valid for e in ests):
        return None, None, float("nan")
    top = max(ests, key=lambda e: e.mean)
    best_lo, best_hi = top.lo, max(e.hi for e in ests)
    earliest = next((x for x, e in zip(xs, ests) if e.hi >= share * best_lo), None)
    surely = next((x for x, e in zip(xs, ests) if e.lo >= share * best_hi), None)
    return earliest, surely, top.mean


def knee_sensitivity(fd: FigureData, curve: str = SCORED_CURVE) -> str:
    """The knee (on means) at each of KNEE_SHARE_SENSITIVITY's shares."""
    knees = [(b, knee(fd, curve, b)[0]) for b in KNEE_SHARE_SENSITIVITY]
    return "; ".join(f"{100 * b:g}%: " + (f"C = {k:g}" if k is not None else "none") for b, k in knees)


def saturation(fd: FigureData, curve: str = CONSTANT_CURVE, share: float = SATURATION_SHARE) -> tuple[float | None, list[tuple[float, Est]]]:
    """The smallest C whose throughput reaches ``share`` of the capacity (None: never),
    and the useful share at every C."""
    shares = [(x, useful_share(fd, curve, x)) for x in fd.xs(curve)]
    return next((x for x, e in shares if e.mean >= share), None), shares


def threshold_sensitivity(fd: FigureData, curve: str = CONSTANT_CURVE) -> str:
    """The first saturated C at each of SATURATION_SHARE_SENSITIVITY's thresholds."""
    firsts = [(b, saturation(fd, curve, b)[0]) for b in SATURATION_SHARE_SENSITIVITY]
    return "; ".join(f"≥ {100 * b:g}%: " + (f"C = {c:g}" if c is not None else "never") for b, c in firsts)


def share_list(shares: list[tuple[float, Est]], upto: float) -> str:
    return ", ".join(f"C = {x:g}: {100 * e.mean:.1f}%" for x, e in shares if x <= upto)


def busy_list(fd: FigureData, upto: float, curve: str = CONSTANT_CURVE) -> str:
    """The sending interface's busy share (its line, copies included, and its
    processing) up to ``upto``, if measured; the lines' alone beside it where the host
    processes packets."""
    if not fd.has(f"{curve}.x25_line_busy_s"):
        return "not measured"
    h = processing_per_packet(fd)

    def one(x: float) -> str:
        line = f" (lines {100 * line_busy_share(fd, curve, x).mean:.1f}%)" if h else ""
        return f"C = {x:g}: {100 * interface_busy_share(fd, curve, x).mean:.1f}%{line}"

    return ", ".join(one(x) for x in fd.xs(f"{curve}.x25_line_busy_s") if x <= upto and x in fd.xs(curve))
