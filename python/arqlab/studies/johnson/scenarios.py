"""Scenarios of the study: a client and a server on a half-duplex HF radio, the
dialogue (SMTP over TCP, or HMTP directly over the ARQ) or, for the long-message claims,
a saturated one-way transfer. ``derive`` rewrites the stack, medium, node, flow and run
tables whole from the curve's params and x (the channel).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec import Curve, Scenario
from . import params as P
from .params import CHANNEL_X, DURATION_S, FULL_REPLICATIONS, HOUR_S, QUICK_REPLICATIONS, SESSION_CAP_S, SESSIONS

CLIENT = "flow.client->server"
LAYERS = "transport.flow.client->server"


#: The stop-and-wait protocols with an external modem (the robust acknowledgement's).
STOP_AND_WAIT_EXTERNAL = ("5066-1s", "sw-external-duplex")


def integrated(variant: str) -> bool:
    return variant in ("hdl", "hdl-1d", "sw-integrated-simplex", "all-three")


def selective_repeat(variant: str) -> bool:
    return any(sr for (sr, _, _), v in P.VARIANT.items() if v == variant)


def response_timeout_s(turnaround_s: float, wait_s: float) -> float:
    """The ARQ's response timeout, counted from the end of its transmission: the answer
    can start no earlier than the peer's turnaround + 2 t_p later (params.RESPONSE_WAIT_S),
    so the wait is added to that; a timeout below it would preempt every answer. Rounded
    to the nanosecond (the engine's tick) so that 1.1 + 0.02 + 3.88 is the crate's 5 s."""
    return round(turnaround_s + 2 * P.PROPAGATION_S + wait_s, 9)


def tables(variant: str, workload: str, x: float, replications: int, initial_rto_s: float | None = None,
           rate_adaptation: str | None = None, external_modem: str | None = None,
           transition_sigma_db: float | None = None, reciprocal: bool | None = None,
           ack_rate: str | None = None, integrated_modem: str | None = None, fill_slots: str | None = None) -> dict[str, Any]:
    """Every table of one point: ``workload`` is "smtp" (SMTP over TCP with connection
    set-up), "hmtp" (directly over the ARQ) or "long" (5,000-byte messages back to back,
    client to server: the sustained throughput on long messages). The keyword arguments
    override, for a sensitivity, the study's value in :mod:`.params` (read at each call,
    so the robustness analysis may set them there): TCP's initial RTO, the external
    modem's rate rule and table, the transition channel's mid-term σ, whether the two
    directions share one fading process, the external stop-and-wait acknowledgement's rate,
    the integrated modem's table, what HDL's BW2 fill slots carry."""
    _, channel, snr = CHANNEL_X[x]
    rate_adaptation = P.RATE_ADAPTATION if rate_adaptation is None else rate_adaptation
    external_modem = P.EXTERNAL_MODEM if external_modem is None else external_modem
    # Modem turnaround (docs/models/hf.md): 0.5 s radio + ARQ, plus the external 110B
    # modem's 0.6 s interleaver delay and the acquisition that precise timing saves.
    integrated_modem = P.INTEGRATED_MODEM if integrated_modem is None else integrated_modem
    rate, turnaround, modem = ((4800.0, P.TURNAROUND_S, integrated_modem) if integrated(variant)
                               else (2400.0, P.TURNAROUND_S + P.INTERLEAVER_DELAY_S + P.SYNC_ACQUISITION_S, external_modem))
    timeout = response_timeout_s(turnaround, P.INTEGRATED_RESPONSE_WAIT_S if integrated(variant) else P.RESPONSE_WAIT_S)
    # The modem's table moved along the SNR axis: the ARQ (rate choice) and the lanes'
    # errors read the same table (absent at 0: the scenarios as before).
    offset_db = P.INTEGRATED_MODEM_OFFSET_DB if integrated(variant) else P.EXTERNAL_MODEM_OFFSET_DB
    offset = {"modem_offset_db": offset_db} if offset_db else {}
    arq: dict[str, Any] = {"kind": "hf_arq", "variant": variant, "initial_snr_db": snr, "modem": modem,
                           "response_timeout_s": timeout, "max_transmission_s": P.MAX_TRANSMISSION_S, **offset}
    if selective_repeat(variant):
        arq["max_packets"] = P.MAX_PACKETS
        if integrated(variant):
            arq["fill_slots"] = P.BW2_FILL if fill_slots is None else fill_slots  # HDL's BW2 bursts (and all-three's)
    if not integrated(variant):
        arq.update(target_per=P.TARGET_PER, segment_bits=8 * P.SEGMENT_OCTETS_5066, snr_step_down_db=P.SNR_STEP_DOWN_DB,
                   snr_step_up_db=P.BURST_STEP_UP_DB)
        if rate_adaptation == "per_packet":
            # Per packet, up = down · target / (1 − target) settles at the target PER.
            arq.update(rate_adaptation="per_packet", snr_step_up_db=P.SNR_STEP_DOWN_DB * P.TARGET_PER / (1 - P.TARGET_PER))
        ack_rate = P.STOP_AND_WAIT_ACK_RATE if ack_rate is None else ack_rate
        if ack_rate != "data" and variant in STOP_AND_WAIT_EXTERNAL:
            arq["ack_rate"] = ack_rate
    tcp: dict[str, Any] = {"kind": "tcp", "flavour": P.TCP_FLAVOUR, "connection_setup": True, "mss_octets": P.MSS_OCTETS,
                           "receive_window_octets": max(P.RECEIVE_WINDOW_OCTETS, 4 * P.MSS_OCTETS), "rto": P.RTO_RULE,
                           "initial_rto_s": P.INITIAL_RTO_S if initial_rto_s is None else initial_rto_s,
                           "min_rto_s": P.MIN_RTO_S, "max_rto_s": max(P.MAX_RTO_S, P.MIN_RTO_S),
                           "delayed_ack_s": P.DELAYED_ACK_S, "initial_window_segments": P.INITIAL_WINDOW_SEGMENTS,
                           "rtt_cache": P.RTT_CACHE}
    if P.TCP_FLAVOUR == "bsd42":
        # 4.2BSD has its own timer (2·SRTT in ticks) and kept no per-path RTT: the RTO
        # rule and the cache do not apply (so any combination of inputs is a scenario).
        del tcp["rto"], tcp["rtt_cache"]
    layers = [tcp, arq] if workload == "smtp" else [arq]
    lane: dict[str, Any] = {"error_model": "hf", "channel": channel, "modem": modem, **offset}
    if channel == "transition":
        lane["variation_db"] = P.TRANSITION_SIGMA_DB if transition_sigma_db is None else transition_sigma_db
    else:
        lane["variation_db"] = P.STABLE_SIGMA_DB
    responses: tuple[str, ...]
    if workload == "long":
        traffic: dict[str, Any] = {"kind": "saturated", "length": {"dist": "constant", "mean_bits": 40_000}}
        duration, responses = DURATION_S, ("throughput_bps",)
    else:
        traffic = {"kind": "dialogue", "script": workload, "sessions": SESSIONS, "start_until_s": HOUR_S}
        duration, responses = SESSION_CAP_S, ("message_throughput_bps", "session_latency_s")
    run: dict[str, Any] = {"duration_s": duration, "warmup_s": 0.0, "replications": replications, "min_replications": P.MIN_REPLICATIONS,
                           "max_replications": P.MAX_REPLICATIONS, "precision_measures": [f"{CLIENT}.{m}" for m in responses]}
    medium: dict[str, Any] = {"name": "hf", "kind": "half_duplex_radio", "ends": ["client", "server"], "rate_bps": rate,
                              "delay_s": P.PROPAGATION_S, "turnaround_s": turnaround, "preamble_s": 0.0, "forward": lane, "reverse": dict(lane)}
    if P.RECIPROCAL_CHANNEL if reciprocal is None else reciprocal:
        medium["reciprocal"] = True  # absent when false: the first readings' scenarios unchanged
    return {
        # The full pass's sequential rule watches the figure's response and, for the
        # sessions, Tables 1-2's latency.
        "run": run,
        "stack": {"s": {"layers": layers}},
        "medium": [medium],
        "node": [{"name": "client", "stack": "s"}, {"name": "server", "stack": "s"}],
        "flow": [{"from": "client", "to": "server", "traffic": traffic}],
    }


def scenario(variant: str = "hdl", workload: str = "smtp", x: float = 1.0, replications: int = 3) -> Scenario:
    return {"title": f"Johnson: {workload} over {variant}, {CHANNEL_X[x][0]}", **tables(variant, workload, x, replications)}


def derive(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """The figures' ``derive``: x is the channel (1: 25 dB, 2: 5 dB, 3: transition)."""
    def opt(key: str) -> Any:
        return params.get(key)

    rto, sigma = opt("initial_rto_s"), opt("transition_sigma_db")
    return tables(str(params["variant"]), str(params["workload"]), x, QUICK_REPLICATIONS if quick else FULL_REPLICATIONS,
                  None if rto is None else float(rto), opt("rate_adaptation"), opt("external_modem"),
                  None if sigma is None else float(sigma), opt("reciprocal"), opt("ack_rate"),
                  opt("integrated_modem"), opt("fill_slots"))
