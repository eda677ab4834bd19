"""Liveness under errors through the public API, every protocol including HDLC: random
bit errors both ways (acknowledgements are hit too; HDLC and `nak_corrupted = false`
discard corrupted frames silently) on Poisson traffic well below what the protocol can
carry. A protocol that stops sending after some loss pattern leaves every later batch
without a delivery and its messages piling up at the sender; a live one delivers in
every batch and ends with only a window's worth (plus a short queue) outstanding.

The Rust property tests (`crates/arqlab/tests/textbook_liveness.rs`, `hdlc_properties.rs`)
check the stronger form — errors stop, then *every* message is delivered within a bound —
which needs a channel whose errors stop; scenarios cannot say that."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arqlab
from arqlab import theory

protocols = st.sampled_from(
    [
        {"kind": "stop_and_wait"},
        {"kind": "go_back_n", "window": 7, "modulus": 8},
        {"kind": "go_back_n", "window": 3, "modulus": 8},
        {"kind": "go_back_n", "window": 127, "modulus": 128},
        {"kind": "selective_repeat", "window": 4, "modulus": 8},
        {"kind": "selective_repeat", "window": 64, "modulus": 128},
        {"kind": "hdlc", "mode": "abm", "modulus": 8},
        {"kind": "hdlc", "mode": "nrm", "modulus": 8},
        {"kind": "hdlc", "mode": "arm", "modulus": 8},
        {"kind": "hdlc", "mode": "abm", "modulus": 128, "reject": "srej", "window": 64},
        {"kind": "hdlc", "mode": "nrm", "modulus": 8, "reject": "none"},
    ]
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    protocol=protocols,
    p_ab=st.sampled_from([1e-5, 1e-4, 3e-4]),
    p_ba=st.sampled_from([0.0, 1e-4, 3e-4]),
    bits=st.sampled_from([200, 1000, 2000]),
    two_way=st.booleans(),
    delay=st.sampled_from([0.001, 0.05, 0.2]),
    nak=st.booleans(),
    seed=st.integers(1, 2**31),
)
def test_every_protocol_keeps_delivering_under_errors(
    protocol: dict[str, Any], p_ab: float, p_ba: float, bits: int, two_way: bool, delay: float, nak: bool, seed: int,
) -> None:
    rate, overhead = 48000.0, 64.0
    w = int(protocol.get("window", 1 if protocol["kind"] == "stop_and_wait" else protocol.get("modulus", 8) - 1))
    # A timer comfortably above a frame each way plus the round trip.
    timeout = 2.0 * (2 * (bits + overhead) / rate + 2 * delay) + 0.1
    # A quarter of the closed-form capacity in the worse direction (HDLC: of go-back-N's,
    # halved for checkpoint and timer recovery), so queues stay short when all is well.
    kind = protocol["kind"] if protocol["kind"] != "hdlc" else "go_back_n"
    capacity = min(
        theory.efficiency(kind, theory.Params(l=bits, h=overhead, ack=overhead, v=rate, tp=delay, p=p, p_ack=q,
                                              timeout=timeout, window=w))
        for p, q in ((p_ab, p_ba), (p_ba, p_ab))
    )
    load = (0.125 if protocol["kind"] == "hdlc" else 0.25) * capacity
    proto = dict(protocol)
    if proto["kind"] == "hdlc":
        proto["t1_s"] = timeout
    else:
        proto.update(timeout_s=timeout, nak_corrupted=nak, overhead_bits=int(overhead), ack_bits=int(overhead))
    traffic = {"kind": "poisson", "load": load, "length": {"dist": "constant", "mean_bits": bits}}
    duration = max(200.0, 400 * bits / (load * rate))  # ≥ 400 messages per direction
    sc = {
        "run": {"duration_s": duration, "method": "batch_means", "batches": 10},
        "link": {"rate_bps": rate, "delay_s": delay,
                 "a_to_b": {"error_model": "bit", "bit_error_rate": p_ab},
                 "b_to_a": {"error_model": "bit", "bit_error_rate": p_ba}},
        "protocol": proto,
        "traffic": {"a": traffic, "b": traffic if two_way else {"kind": "none"}},
    }
    rec = arqlab.simulate(sc, seed=seed).records[0]
    for direction in ("a_to_b", "b_to_a") if two_way else ("a_to_b",):
        acc = rec["accounting"][direction]
        # Something in every tenth of the run (a stall leaves the later batches empty).
        delivered = [b[direction]["messages_delivered"] for b in rec["batches"]]
        assert min(delivered) > 0, (direction, delivered, acc)
        # Little left at the end: a window, a short queue, nothing piled up.
        assert acc["unacknowledged"] <= 2 * w + 10 + 0.05 * acc["issued"], (direction, acc)
        assert acc["issued"] - acc["delivered"] <= 2 * w + 10 + 0.05 * acc["issued"], (direction, acc)
