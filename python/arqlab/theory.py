"""Closed forms for the textbook protocols (docs/references.md#closed-forms; Bertsekas & Gallager §2.4,
Schwartz ch. 4), used to validate the simulator and drawn on the demo plot.

All efficiencies are *information* efficiencies: delivered information bits over link
capacity, i.e. the frame-level formula times l/(l+h).

Notation: l information bits, h overhead bits, v rate, t_f = (l+h)/v, t_a = ack/v,
t_p one-way delay, P = 1 − (1−p)^(l+h) the frame error probability, and
1 + 2a = (t_f + 2 t_p + t_a)/t_f the feedback loop in frame times (the textbook's
1 + 2a with the acknowledgement's own transmission time included).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True)
class Params:
    l: float  # information bits
    h: float  # overhead bits per data frame
    ack: float  # acknowledgement frame bits
    v: float  # rate, bit/s
    tp: float  # one-way delay, s
    p: float  # bit-error probability, data direction
    p_ack: float = 0.0  # bit-error probability, acknowledgement direction
    timeout: float = 1.0  # retransmission timeout after the frame's end, s
    window: int = 1

    @property
    def tf(self) -> float:
        return (self.l + self.h) / self.v

    @property
    def ta(self) -> float:
        return self.ack / self.v

    @property
    def P(self) -> float:
        return 1.0 - (1.0 - self.p) ** (self.l + self.h)

    @property
    def P_ack(self) -> float:
        return 1.0 - (1.0 - self.p_ack) ** self.ack

    @property
    def loop(self) -> float:
        """1 + 2a: frame times from the start of a frame to the arrival of its feedback."""
        return (self.tf + 2 * self.tp + self.ta) / self.tf

    @property
    def info(self) -> float:
        return self.l / (self.l + self.h)

    @classmethod
    def from_scenario(cls, sc: Mapping[str, Any], l: float | None = None) -> "Params":
        link, proto, length = sc["link"], sc["protocol"], sc["traffic"]["a"]["length"]

        def ber(direction: str) -> float:
            own = link.get(direction)
            if own is None:
                return float(link["bit_error_rate"])
            if own["error_model"] == "none":
                return 0.0
            return float(own.get("bit_error_rate", 0.0)) if own["error_model"] == "bit" else math.nan

        return cls(
            l=float(l if l is not None else length["mean_bits"]),
            h=float(proto["overhead_bits"]),
            ack=float(proto["ack_bits"]),
            v=float(link["rate_bps"]),
            tp=float(link["delay_s"]),
            p=ber("a_to_b"),
            p_ack=ber("b_to_a"),
            timeout=float(proto["timeout_s"]),
            window=int(proto["window"]),
        )


def stop_and_wait(x: Params, nak: bool = False) -> float:
    """Without NAKs (errors found by the timeout T_o, counted from the frame's end):
    η = t_f / [(t_f + RTT) + P_c/(1−P_c)·(t_f + T_o)] · l/(l+h), where a cycle fails if
    the frame or its acknowledgement is hit: P_c = 1 − (1−P)(1−P_ack).
    With an immediate NAK of a corrupted frame and error-free feedback:
    η = (1−P)·t_f / (t_f + RTT) · l/(l+h)."""
    rtt = 2 * x.tp + x.ta
    if nak:
        return x.info * (1 - x.P) * x.tf / (x.tf + rtt)
    pc = 1.0 - (1.0 - x.P) * (1.0 - x.P_ack)
    if pc >= 1.0:
        return 0.0  # no cycle ever succeeds
    return x.info * x.tf / ((x.tf + rtt) + pc / (1.0 - pc) * (x.tf + x.timeout))


def window_limit(x: Params) -> float:
    """Error-free window limit: min(1, W·t_f / (t_f + 2 t_p + t_a)) · l/(l+h)."""
    return x.info * min(1.0, x.window / x.loop)


def go_back_n(x: Params, quantized: bool = True) -> float:
    """Go-back-N with error-free feedback and an immediate NAK of a corrupted frame:
    (1−P)/(1 + (K−1)P) if W ≥ K, else W(1−P)/(K(1 − P + WP)), K = 1 + 2a.

    `quantized`: a sender cannot abort the frame it is sending, so in the error-limited
    regime the go-back starts at the next frame boundary after the NAK arrives and an
    error costs ⌈K⌉ frame times, not K (Bertsekas & Gallager treat K as continuous;
    the two agree when 1 + 2a is a whole number)."""
    K, W, P = x.loop, x.window, x.P
    if W >= K:
        k = math.ceil(K) if quantized else K
        return x.info * (1 - P) / (1 + (k - 1) * P)
    return x.info * W * (1 - P) / (K * (1 - P + W * P))


def selective_repeat(x: Params) -> float:
    """Selective repeat: 1−P if W ≥ 1+2a, else W(1−P)/(1+2a)."""
    K, W, P = x.loop, x.window, x.P
    return x.info * (1 - P) * min(1.0, W / K)


def efficiency(kind: str, x: Params, nak: bool = False) -> float:
    """The closed form for a textbook protocol; `nak` selects the stop-and-wait variant
    (go-back-N and selective repeat assume an immediate NAK in any case)."""
    if kind == "stop_and_wait":
        return stop_and_wait(x, nak)
    return {"go_back_n": go_back_n, "selective_repeat": selective_repeat}[kind](x)


def upper_bound(x: Params) -> float:
    """Any ARQ: η ≤ l/(l+h)·(1−p)^(l+h) — each delivered frame needs one clean copy."""
    return x.info * (1 - x.P)


def md1_transfer_time(rho: float, tf: float, tp: float) -> float:
    """M/D/1 waiting time + frame time + t_p (Pollaczek–Khinchine with constant service)."""
    return rho * tf / (2 * (1 - rho)) + tf + tp


def mg1_transfer_time(lam: float, es: float, es2: float, tp: float) -> float:
    """M/G/1 waiting time λE[S²]/(2(1−ρ)) + E[S] + t_p."""
    rho = lam * es
    return lam * es2 / (2 * (1 - rho)) + es + tp


def chu_optimal_length(overhead: float, p: float) -> float:
    """Chu 1974: the information length maximising [D/(D+B)](1−p)^(D+B): ≈ √(B/p) − B/2."""
    return math.sqrt(overhead / p) - overhead / 2
