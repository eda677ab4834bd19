"""Closed forms of §4–5: the burst-model bound (eq. 1–2), its TCP/IP-header variant,
the inter-burst delay T_I and C_max = 1 + T_I / (W (T_p + T_f)), with the paper's
constants and with this model's own times (LAPB framing at 9600 bit/s, the far access
line and the RR packet inside T_I; see docs/studies/comer-korb.md).
"""

from __future__ import annotations

import math

from .params import (
    DATAGRAM_OCTETS,
    HEADER_OCTETS,
    LAPB_OVERHEAD_BITS,
    LINE_BPS,
    PACKET_OCTETS,
    PAPER_T_F_S,
    PAPER_T_P_S,
    SEGMENT_OCTETS,
    T_N_S,
    WINDOW,
)

X25_HEADER_OCTETS = 3
# flag, address, control, FCS (2), closing flag: the primary reading's framing (the
# closed forms stay at it when the robustness analysis varies LAPB_OVERHEAD_BITS).
LAPB_OCTETS = LAPB_OVERHEAD_BITS // 8
RR_OCTETS = X25_HEADER_OCTETS  # an RR packet carries no data


def paper_bound_bps(t_n: float = T_N_S) -> float:
    """Eq. (1)–(2): packet size / (T_p + T_N + T_f) with the paper's T_p and T_f."""
    return PACKET_OCTETS * 8 / (PAPER_T_P_S + t_n + PAPER_T_F_S)


def header_share() -> float:
    """User data per datagram octet: 452 / 492."""
    return SEGMENT_OCTETS / DATAGRAM_OCTETS


def paper_bound_headers_bps() -> float:
    """Eq. (2) less the TCP/IP headers (the paper rounds it to 2631 bit/s)."""
    return paper_bound_bps() * header_share()


def paper_c_max(t_n: float = T_N_S) -> float:
    """§5 with the paper's constants: 1 + (2T_N + T_f) / (W (T_p + T_f)) ≈ 2.97."""
    return 1 + (2 * t_n + PAPER_T_F_S) / (WINDOW * (PAPER_T_P_S + PAPER_T_F_S))


def frame_s(octets: int) -> float:
    """Time of one packet of ``octets`` (X.25 header included) in a LAPB frame."""
    return (octets + LAPB_OCTETS) * 8 / LINE_BPS


T_P_S = frame_s(PACKET_OCTETS + X25_HEADER_OCTETS)  # 114.2 ms
T_RR_S = frame_s(RR_OCTETS)  # 7.5 ms


def model_inter_burst_s(t_n: float = T_N_S) -> float:
    """T_I of this model: the last packet crosses the far access line, the RR both."""
    return 2 * t_n + T_P_S + 2 * T_RR_S


def model_bound_bps(t_n: float = T_N_S) -> float:
    """Full packets, W per burst: W·1024 bits per (W T_p + T_I)."""
    return WINDOW * PACKET_OCTETS * 8 / (WINDOW * T_P_S + model_inter_burst_s(t_n))


def model_bound_headers_bps(t_n: float = T_N_S) -> float:
    return model_bound_bps(t_n) * header_share()


def model_c_max(t_n: float = T_N_S) -> float:
    """1 + T_I / (W T_p): the frame level costs the sender nothing but inside T_I."""
    return 1 + model_inter_burst_s(t_n) / (WINDOW * T_P_S)


def burst_cycle_s(relay_s: float = T_N_S, processing_s: float = 0.0) -> float:
    """One circuit's burst cycle with this model's times, the relay's delay ``relay_s``
    and ``processing_s`` of host processing per packet handed to LAPB (busy time, not
    overlapped with the frame: `host_processing_s`): W packets of T_p + h each, then
    T_I = 2 relay + T_p + 2 T_rr + h (the last packet crosses the far access line, the
    RR packet is processed and crosses both)."""
    return WINDOW * (T_P_S + processing_s) + 2 * relay_s + T_P_S + 2 * T_RR_S + processing_s


def interface_c_max(relay_s: float = T_N_S, processing_s: float = 0.0) -> float:
    """§5's C_max = 1 + T_I/(W (T_p + T_f)) with T_f the processing (busy time): the
    circuits whose bursts fill one cycle of the sending interface."""
    return burst_cycle_s(relay_s, processing_s) / (WINDOW * (T_P_S + processing_s))


def interface_busy_share(circuits: float, relay_s: float = T_N_S, processing_s: float = 0.0) -> float:
    """§5's busy share of the sending X.25 interface (its line and its processing) at C
    circuits in the burst model: min(1, C W (T_p + h) / cycle) = min(1, C / C_max). The
    window bounds it whatever TCP sends: no circuit carries more than W packets a cycle."""
    return min(1.0, circuits / interface_c_max(relay_s, processing_s))


def line_busy_share_bound(circuits: float, relay_s: float = T_N_S, processing_s: float = 0.0) -> float:
    """The access line's share of :func:`interface_busy_share`: its T_p of each T_p + h."""
    return interface_busy_share(circuits, relay_s, processing_s) * T_P_S / (T_P_S + processing_s)


#: The model's frame-level delay per packet as eq. 1 counts it: its burst cycle
#: W T_p + T_I = 2 (T_p + T_N + T_f) gives T_f = T_p / 2 + T_rr (W = 2).
T_F_MODEL_S = (WINDOW * T_P_S + model_inter_burst_s()) / 2 - T_P_S - T_N_S


def paper_form_c_max_model_times(t_n: float = T_N_S) -> float:
    """§5's formula as the paper writes it, 1 + (2T_N + T_f)/(W(T_p + T_f)), with this
    model's T_p and T_f (beside the internal-consistency form :func:`model_c_max`)."""
    return 1 + (2 * t_n + T_F_MODEL_S) / (WINDOW * (T_P_S + T_F_MODEL_S))


def three_circuit_bound_bps(t_n: float) -> float:
    """Fig. 2's closed form: three circuits' burst bound at T_N, capped by the line."""
    return min(3 * model_bound_headers_bps(t_n), line_user_bps())


def day_factor_for_ratio(ratio: float) -> float:
    """The day/night T_N factor for which the three-circuit bound at night is ``ratio``
    times the bound by day (bisection; the bound falls monotonically with T_N)."""
    target = three_circuit_bound_bps(T_N_S) / ratio
    lo, hi = T_N_S, 50 * T_N_S
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if three_circuit_bound_bps(mid) > target else (lo, mid)
    return (lo + hi) / 2 / T_N_S


def packets_per_datagram(octets: int = DATAGRAM_OCTETS) -> int:
    return math.ceil(octets / PACKET_OCTETS)


def packet_fill(octets: int = DATAGRAM_OCTETS) -> float:
    """RFC 877: no packet shares two datagrams, so the last one is part empty."""
    return octets / (packets_per_datagram(octets) * PACKET_OCTETS)


def interface_user_bps(processing_s: float = 0.0) -> float:
    """User data the X.25 interface can send at most: every packet of the file's
    datagrams once, back to back, each costing its frame on the line plus
    ``processing_s`` of host processing (eq. 1's W (T_p + T_f) with T_f as busy time)."""
    n = packets_per_datagram()
    line_octets = DATAGRAM_OCTETS + n * (X25_HEADER_OCTETS + LAPB_OCTETS)
    # The processing as octets of line time, so that 0 gives the frame level's rate exactly.
    return LINE_BPS * SEGMENT_OCTETS / (line_octets + n * processing_s * LINE_BPS / 8)


def line_user_bps() -> float:
    """User data the access line can carry at most: a datagram's packets in frames."""
    return interface_user_bps(0.0)


def model_fig3_bound_bps(circuits: float) -> float:
    """min(C × model bound with headers, line capacity for user data)."""
    return min(circuits * model_bound_headers_bps(), line_user_bps())


__all__ = [
    "HEADER_OCTETS", "T_F_MODEL_S", "burst_cycle_s", "interface_busy_share", "interface_c_max", "interface_user_bps",
    "line_busy_share_bound", "day_factor_for_ratio", "paper_form_c_max_model_times", "three_circuit_bound_bps", "T_P_S", "T_RR_S", "frame_s", "header_share", "line_user_bps", "model_bound_bps",
    "model_bound_headers_bps", "model_c_max", "model_fig3_bound_bps", "model_inter_burst_s", "packet_fill",
    "packets_per_datagram", "paper_bound_bps", "paper_bound_headers_bps", "paper_c_max",
]
