"""Scenarios of the study: a client and a server on a half-duplex HF radio, the
dialogue (SMTP over TCP, or HMTP directly over the ARQ) or, for the long-message claims,
a saturated one-way transfer. ``derive`` rewrites the stack, medium, node, flow and run
tables whole from the curve's params and x (the channel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec import Curve, Scenario
from .params import (CHANNEL_X, DURATION_S, FULL_REPLICATIONS, HOUR_S, QUICK_REPLICATIONS, RATE_ADAPTATION, SESSION_CAP_S,
                     SESSIONS, SNR_STEP_UP_DB)

CLIENT = "flow.client->server"
#: The external modem: MIL-STD-188-110B 75–9600 bit/s (the paper: "data rates of 75
#: through 9600 bps"), the body's serial tone and the Appendix C waveforms.
MODEM_110B = "mil-std-188-110b-75-9600"
LAYERS = "transport.flow.client->server"


def integrated(variant: str) -> bool:
    return variant in ("hdl", "hdl-1d", "sw-integrated-simplex", "all-three")


def tables(variant: str, workload: str, x: float, replications: int, initial_rto_s: float | None = None,
           rate_adaptation: str = RATE_ADAPTATION) -> dict[str, Any]:
    """Every table of one point: ``workload`` is "smtp" (SMTP over TCP with connection
    set-up), "hmtp" (directly over the ARQ) or "long" (5,000-byte messages back to back,
    client to server: the sustained throughput on long messages). ``initial_rto_s``:
    TCP's initial RTO when not the default (RFC 6298's 1 s). ``rate_adaptation``: the
    external modem's rate rule, "per_packet" (converges to the target PER) or "burst"
    (the model's default staircase)."""
    _, channel, snr = CHANNEL_X[x]
    # Modem turnaround as the hf scenarios (docs/models/hf.md): 0.5 s radio + ARQ, plus
    # the external 110B modem's 0.6 s interleaver delay.
    rate, turnaround, modem = (4800.0, 0.5, "mil-std-188-141b-appc") if integrated(variant) else (2400.0, 1.1, MODEM_110B)
    arq: dict[str, Any] = {"kind": "hf_arq", "variant": variant, "initial_snr_db": snr, "modem": modem}
    if not integrated(variant) and rate_adaptation == "per_packet":
        arq.update(rate_adaptation="per_packet", snr_step_up_db=SNR_STEP_UP_DB)
    tcp: dict[str, Any] = {"kind": "tcp", "connection_setup": True}
    if initial_rto_s is not None:
        tcp["initial_rto_s"] = initial_rto_s
    layers = [tcp, arq] if workload == "smtp" else [arq]
    lane = {"error_model": "hf", "channel": channel, "modem": modem}
    if workload == "long":
        traffic: dict[str, Any] = {"kind": "saturated", "length": {"dist": "constant", "mean_bits": 40_000}}
        duration = DURATION_S
    else:
        traffic = {"kind": "dialogue", "script": workload, "sessions": SESSIONS, "start_until_s": HOUR_S}
        duration = SESSION_CAP_S
    return {
        "run": {"duration_s": duration, "warmup_s": 0.0, "replications": replications},
        "stack": {"s": {"layers": layers}},
        "medium": [{"name": "hf", "kind": "half_duplex_radio", "ends": ["client", "server"], "rate_bps": rate,
                    "delay_s": 0.01, "turnaround_s": turnaround, "preamble_s": 0.0, "forward": lane, "reverse": dict(lane)}],
        "node": [{"name": "client", "stack": "s"}, {"name": "server", "stack": "s"}],
        "flow": [{"from": "client", "to": "server", "traffic": traffic}],
    }


def scenario(variant: str = "hdl", workload: str = "smtp", x: float = 1.0, replications: int = 3) -> Scenario:
    return {"title": f"Johnson: {workload} over {variant}, {CHANNEL_X[x][0]}", **tables(variant, workload, x, replications)}


def derive(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """The figures' ``derive``: x is the channel (1: 25 dB, 2: 5 dB, 3: transition)."""
    rto = params.get("initial_rto_s")
    return tables(str(params["variant"]), str(params["workload"]), x, QUICK_REPLICATIONS if quick else FULL_REPLICATIONS,
                  None if rto is None else float(rto), str(params.get("rate_adaptation", RATE_ADAPTATION)))
