"""Scenarios of the study, built from one flat parameter dict. Every host is a ``tcp``
over ``x25`` stack (or ``x25`` alone for the circuit-management extension); the network
between the DCEs is a ``transit_network`` relay whose delay is T_N: constant, uniform
around its mean, or the time-of-day profile of Fig. 2. Figures pass everything through
``derive``, which rewrites the ``stack``, ``relay``, ``medium``, ``node`` and ``flow``
tables whole (they hold lists).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..spec import Curve, Scenario
from . import params as P
from .theory import T_F_MODEL_S, T_P_S, T_RR_S
from .params import (
    CM_C_MAX,
    CM_CHANNELS,
    CM_DURATION_QUICK_S,
    CM_DURATION_S,
    CM_FILE_OCTETS,
    CM_FILE_RATE,
    CM_K_RESERVED,
    CM_MAX_REPLICATIONS,
    CM_T_MIN_S,
    CM_T_OPEN_S,
    CM_TERMINAL_OCTETS,
    CM_TERMINAL_RATE,
    CM_WARMUP_QUICK_S,
    CM_WARMUP_S,
    FULL_MAX_REPLICATIONS,
    FULL_MIN_REPLICATIONS,
    QUICK_REPLICATIONS,
    FILE_OCTETS,
    SEGMENT_OCTETS,
    WINDOW,
)

FLOW = "flow.a->b"
LAYERS = "transport.flow.a->b"
#: A rate so high that the media between the DCEs and the network add nothing: the
#: access lines live inside the x25 layers.
TRUNK_BPS = 1e9

#: Every parameter a transfer point may set.
TRANSFER: dict[str, Any] = {
    "circuits": 3,
    "t_n": "constant",  # "constant", "uniform" or "profile"
    "hour": 0.0,
    "file_octets": FILE_OCTETS,
    "flavour": None,  # None: params.TCP_FLAVOUR (4.2BSD); "reno", "newreno"
    "placement": None,  # None: params.T_N_PLACEMENT; "between_dces", "host_to_host", "host_to_host_busy"
    "rto": "rfc6298",  # Reno, NewReno: or "rfc793" (2·SRTT, a sensitivity)
    "bsd42_timing": None,  # None: params.BSD42_TIMING; "tcp_output": 4.2BSD 6.2's timing
    "t_n_level": None,  # constant T_N: None, the vendor's mean; "night"/"day": Fig. 2's profile's lowest/highest
    "anchor": None,  # the profile's anchor for t_n_level: None, params.FIG2_T_N_ANCHOR; "night", "mean"
    "receive_window": None,  # None: by params.RECEIVE_WINDOW_PAIRING; octets: this window
}

def relay_t_n(p: Mapping[str, Any]) -> float:
    """The relay's mean delay for the vendor's T_N, by where T_N is measured (the
    point's ``placement`` or params.T_N_PLACEMENT). Between the DCEs: T_N itself.
    Host to host, with the paper's T_f: the model's burst cycle W T_p + 2 relay + T_p +
    2 T_rr equals eq. 1's 2 (T_p + T_N + T_f) with T_f = 15 ms, i.e. the model's own
    frame-level share per packet (T_p/2 + T_rr = 64.6 ms) is replaced by the paper's."""
    placement = p.get("placement") or P.T_N_PLACEMENT
    if placement == "host_to_host":
        return P.T_N_S + P.PAPER_T_F_S - T_F_MODEL_S
    if placement == "host_to_host_busy":
        return P.T_N_S - T_P_S / 2 - T_RR_S
    return P.T_N_S


def host_processing_s(p: Mapping[str, Any]) -> float:
    """The host's processing per packet: the paper's T_f under ``host_to_host_busy``
    (T_f as busy time per packet, eq. 1's W (T_p + T_f)), else params.HOST_PROCESSING_S.
    With it the model's cycle W (T_p + T_f) + 2 relay + T_p + 2 T_rr + T_f (the RR packet
    is processed too) equals eq. 1's W (T_p + T_f) + 2 T_N + T_f when relay = T_N − T_p/2
    − T_rr = 170.4 ms."""
    if (p.get("placement") or P.T_N_PLACEMENT) == "host_to_host_busy":
        return P.PAPER_T_F_S
    return P.HOST_PROCESSING_S


def transit_delay(p: Mapping[str, Any]) -> dict[str, Any]:
    """The relay's ``transit_delay`` table for T_N (params are read at call time)."""
    t_n = relay_t_n(p)
    shift = t_n - P.T_N_S
    if p["t_n"] == "uniform":
        # ± a share of the relay's own mean, so any spread below 1 keeps every delay
        # positive whatever the placement subtracts from T_N.
        return {"dist": "uniform", "min_s": t_n * (1.0 - P.T_N_SPREAD), "max_s": t_n * (1.0 + P.T_N_SPREAD)}
    if p["t_n"] == "profile":
        prof = P.t_n_profile()
        return {"dist": "profile", "starts_s": [h * 3600.0 for h, _ in prof],
                "means_s": [m + shift for _, m in prof], "period_s": 86_400.0,
                "clock_at_start_s": float(p["hour"]) * 3600.0}
    if p["t_n"] == "bursty":
        low = P.BURST_PERIOD_S - P.BURST_HIGH_S
        return {"dist": "profile", "starts_s": [0.0, low], "period_s": P.BURST_PERIOD_S,
                "means_s": [P.BURST_LOW * P.T_N_S + shift, P.BURST_HIGH * P.T_N_S + shift]}
    if level := p.get("t_n_level"):
        means = [m for _, m in P.t_n_profile(p.get("anchor"))]
        return {"dist": "constant", "mean_s": (min(means) if level == "night" else max(means)) + shift}
    return {"dist": "constant", "mean_s": t_n}


def tcp_layer(p: Mapping[str, Any]) -> dict[str, Any]:
    """The ``tcp`` layer of a transfer: the flavour of ``p`` or the primary reading."""
    flavour = p.get("flavour") or P.TCP_FLAVOUR
    tcp: dict[str, Any] = {"kind": "tcp", "mss_octets": SEGMENT_OCTETS, "flavour": flavour}
    window = p.get("receive_window") or (P.RECEIVE_WINDOW_BY_FLAVOUR[flavour] if P.RECEIVE_WINDOW_PAIRING == "by_flavour"
                                         else P.RECEIVE_WINDOW_OCTETS)
    if window is not None:
        tcp["receive_window_octets"] = window
    if P.DELAYED_ACK_S != P.TCP_DEFAULT_DELAYED_ACK_S:
        tcp["delayed_ack_s"] = P.DELAYED_ACK_S
    if flavour == "bsd42":
        tcp["initial_rto_s"] = P.BSD42_INITIAL_RTO_S
        timing = p.get("bsd42_timing") or P.BSD42_TIMING
        if timing != "tcp_input":
            tcp["bsd42_timing"] = timing
        if P.BSD42_TICK_PHASE == "uniform":
            tcp["bsd42_random_tick_phase"] = True
    else:
        tcp["rto"] = p["rto"]
    return tcp


def network(sites: list[str], p: Mapping[str, Any]) -> dict[str, Any]:
    """Host ``a``, the sites, and the transit network between them."""
    return {
        "relay": [{"name": "net", "kind": "transit_network", "transit_delay": transit_delay(p)}],
        "medium": [{"name": f"dce_{n}", "ends": [n, "net"], "rate_bps": TRUNK_BPS} for n in ["a", *sites]],
    }


def lapb_framing() -> dict[str, int]:
    """The access lines' LAPB framing, written only when it is not the x25 default (so
    the primary reading's scenarios stay as they were)."""
    bits = P.LAPB_OVERHEAD_BITS
    return {} if bits == P.X25_DEFAULT_LAPB_OVERHEAD_BITS else {"lapb_overhead_bits": bits}


def x25_timers() -> dict[str, float]:
    """The X.25 acknowledgement timer and LAPB's T2 of the circuit-management runs
    (Figs. 4–8), each written only when it is not the x25 default (their scenarios stay
    as they were). The first decides whether a terminal circuit locks into one packet
    per round-robin visit (the study page, revision 9), so the robustness analysis
    must reach these runs."""
    out = {}
    if P.X25_ACK_TIMER_S != P.X25_DEFAULT_ACK_TIMER_S:
        out["ack_timer_s"] = P.X25_ACK_TIMER_S
    if P.LAPB_T2_S != P.X25_DEFAULT_LAPB_T2_S:
        out["lapb_t2_s"] = P.LAPB_T2_S
    return out


def transfer_tables(p: Mapping[str, Any]) -> dict[str, Any]:
    """The tables of one file transfer over ``circuits`` pre-opened circuits (Fig. 2, 3)."""
    c = int(p["circuits"])
    x25 = {"kind": "x25", "window": WINDOW, "policy": "multi_mlru", "c_max": c, "preopen_circuits": c,
           "ack_timer_s": P.X25_ACK_TIMER_S, "lapb_t2_s": P.LAPB_T2_S}
    if host_processing_s(p) > 0:
        x25["host_processing_s"] = host_processing_s(p)
    if P.IFQ_MAXLEN > 0:
        x25["interface_queue"] = P.IFQ_MAXLEN
    return {
        "stack": {"host": {"layers": [tcp_layer(p), {**x25, **lapb_framing()}]}},
        **network(["b"], p),
        "node": [{"name": "a", "stack": "host"}, {"name": "b", "stack": "host"}],
        # FTP writes the file; TCP cuts it into MSS-sized segments (the last short), and
        # the throughput is the file's bits over the time to its last octet, as the paper's.
        # The file is written once the calls are connected (params.TRANSFER_START_S).
        "flow": [{"from": "a", "to": "b", "traffic": {
            "kind": "bulk", "messages": 1, "start_s": P.TRANSFER_START_S,
            "length": {"dist": "constant", "mean_bits": 8 * int(p["file_octets"])}}}],
    }


def run_table(quick: bool, watched: list[str]) -> dict[str, Any]:
    """Replications (quick) or the sequential rule's bounds and watched measures (full)."""
    # Measured from the file's write, after the call set-up (params.TRANSFER_START_S).
    run: dict[str, Any] = {"duration_s": 86_400.0, "warmup_s": P.TRANSFER_START_S, "replications": QUICK_REPLICATIONS}
    if not quick:
        run.update({"min_replications": FULL_MIN_REPLICATIONS, "max_replications": FULL_MAX_REPLICATIONS,
                    "precision_measures": watched})
    return run


def transfer_scenario(*layers: Mapping[str, Any], quick: bool = True) -> Scenario:
    """A whole transfer scenario (the figures' base)."""
    p = {**TRANSFER}
    for m in layers:
        p.update(m)
    return {"title": f"Comer & Korb: {int(p['file_octets'])}-octet transfer over {p['circuits']} circuits",
            "run": run_table(quick, [f"{FLOW}.throughput_bps"]), **transfer_tables(p)}


def derive_circuits(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Fig. 3: x is the number of open circuits."""
    p = {**TRANSFER, **params, "circuits": int(x)}
    return {**transfer_tables(p), "run": run_table(quick, [f"{FLOW}.throughput_bps"])}


def derive_hour(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Fig. 2: x is the hour of day at which the transfer starts (three circuits)."""
    from .params import FIG2_CIRCUITS

    p = {**TRANSFER, **params, "circuits": FIG2_CIRCUITS, "t_n": "profile", "hour": x}
    return {**transfer_tables(p), "run": run_table(quick, [f"{FLOW}.throughput_bps"])}


# ------------------------------------------------ circuit management (beyond the paper)
def cm_sites(n: int) -> tuple[list[str], list[str]]:
    """Terminal sites t1… and file sites f1… (half each; the odd one is a terminal)."""
    terminals = (n + 1) // 2
    return [f"t{i + 1}" for i in range(terminals)], [f"f{i + 1}" for i in range(n - terminals)]


def poisson(rate: float, octets: int) -> dict[str, Any]:
    """Poisson datagrams of ``octets`` at ``rate`` per second (load relative to the trunk)."""
    return {"kind": "poisson", "load": rate * octets * 8 / TRUNK_BPS,
            "length": {"dist": "constant", "mean_bits": octets * 8}}


def cm_tables(policy: str, n: int, t_min_s: float = CM_T_MIN_S, file_rate: float = CM_FILE_RATE,
              channels: int = CM_CHANNELS, given: str | None = None) -> dict[str, Any]:
    """Host ``a`` with ``CM_CHANNELS`` channels sending to ``n`` sites under ``policy``;
    ``t_min_s`` = 0 is the manager without T_min (Fig. 7's control), ``file_rate`` the
    file sites' datagrams per second and ``channels`` host a's (the ``heavy_files``
    sensitivity raises both). A close counts as
    thrashing when the circuit was open less than CM_T_MIN_S, whatever the manager's own
    T_min. ``given``: §6's gateway, multi-circuit MLRU with C_max 1 for every site but
    this one, which may open CM_C_MAX (the x25 key ``site_c_max``)."""
    terminals, files = cm_sites(n)
    c_max = CM_C_MAX if policy == "multi_mlru" and given is None else 1
    x25 = {"kind": "x25", "window": WINDOW, "policy": policy, "c_max": c_max,
           "channels": channels, "k_reserved": CM_K_RESERVED, "t_min_s": t_min_s, "t_open_s": CM_T_OPEN_S,
           "thrash_window_s": CM_T_MIN_S}
    if given is not None:
        x25["site_c_max"] = {given: CM_C_MAX}
    flows = [{"from": "a", "to": s, "traffic": poisson(CM_TERMINAL_RATE, CM_TERMINAL_OCTETS)} for s in terminals]
    flows += [{"from": "a", "to": s, "traffic": poisson(file_rate, CM_FILE_OCTETS)} for s in files]
    return {
        "stack": {"host": {"layers": [{**x25, **lapb_framing(), **x25_timers()}]}},
        **network(terminals + files, {"t_n": "constant"}),
        "node": [{"name": s, "stack": "host"} for s in ["a", *terminals, *files]],
        "flow": flows,
    }


def cm_run_table(quick: bool) -> dict[str, Any]:
    run: dict[str, Any] = {
        "duration_s": CM_DURATION_QUICK_S if quick else CM_DURATION_S,
        "warmup_s": CM_WARMUP_QUICK_S if quick else CM_WARMUP_S,
        "replications": QUICK_REPLICATIONS,
    }
    if not quick:
        # The pooled scope cannot be watched; the first file site stands for the others.
        run.update({"min_replications": FULL_MIN_REPLICATIONS, "max_replications": CM_MAX_REPLICATIONS,
                    "precision_measures": ["flow.a->f1.throughput_bps"]})
    return run


def cm_scenario(policy: str = "mlru", n: int = 6, quick: bool = True) -> Scenario:
    return {"title": f"Comer & Korb extension: {policy} circuit manager, {n} destinations",
            "run": cm_run_table(quick), **cm_tables(policy, n)}


def first_half(run: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """The run table cut to its first half when ``params`` asks for it (``half``): the
    same seed gives the same trajectory up to there, so a whole-run count minus this
    run's is the second half's (the claims of continual churn read both halves)."""
    if params.get("half"):
        return {**run, "duration_s": run["duration_s"] / 2}
    return run


def derive_destinations(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Circuit management: x is the number of destinations."""
    return {**cm_tables(str(params["policy"]), int(x), float(params.get("t_min_s", CM_T_MIN_S)),
                        float(params.get("file_rate", CM_FILE_RATE)), int(params.get("channels", CM_CHANNELS)),
                        params.get("given")),
            "run": first_half(cm_run_table(quick), params)}


# ------------------------- both hosts sending, asymmetric C_max (§6; Fig. 8, beyond the paper)
#: b's counters: the flow to the first terminal site (which only answers calls, so the
#: scope's closes are b's); a's extra calls: the a → b flow (b, C_max 1, places none).
TS_B_LAYERS = "transport.flow.b->t1"
TS_AB_LAYERS = "transport.flow.a->b"


def two_sided_tables(a_c_max: int) -> dict[str, Any]:
    """Hosts a (C_max ``a_c_max``) and b (C_max TS_B_C_MAX) both sending: a to b, b to a
    and to TS_TERMINAL_SITES terminal sites t1…; ``scenarios/comer_korb/two_sided_c_max.toml``
    is this at a's C_max 3 (c, d, e for t1, t2, t3)."""
    def x25(c_max: int, channels: int) -> dict[str, Any]:
        return {"kind": "x25", "window": WINDOW, "policy": "multi_mlru", "c_max": c_max, "channels": channels,
                "k_reserved": 0, "t_min_s": CM_T_MIN_S, "t_open_s": CM_T_OPEN_S, **lapb_framing(), **x25_timers()}

    sites = [f"t{i + 1}" for i in range(P.TS_TERMINAL_SITES)]
    flows = [{"from": "a", "to": "b", "traffic": poisson(P.TS_A_RATE, CM_FILE_OCTETS)},
             {"from": "b", "to": "a", "traffic": poisson(P.TS_B_RATE, CM_FILE_OCTETS)}]
    flows += [{"from": "b", "to": s, "traffic": poisson(P.TS_TERMINAL_RATE, CM_TERMINAL_OCTETS)} for s in sites]
    return {
        "stack": {"a_host": {"layers": [x25(a_c_max, P.TS_A_CHANNELS)]},
                  "b_host": {"layers": [x25(P.TS_B_C_MAX, P.TS_B_CHANNELS)]},
                  "site": {"layers": [x25(1, P.TS_A_CHANNELS)]}},
        **network(["b", *sites], {"t_n": "constant"}),
        "node": [{"name": "a", "stack": "a_host"}, {"name": "b", "stack": "b_host"},
                 *({"name": s, "stack": "site"} for s in sites)],
        "flow": flows,
    }


def two_sided_run_table(quick: bool) -> dict[str, Any]:
    """As the circuit-management runs, measured from 0: the churn starts once a's first
    circuits are older than T_min."""
    run = cm_run_table(quick)
    run["warmup_s"] = 0.0
    if not quick:
        run["precision_measures"] = ["flow.a->b.throughput_bps"]
    return run


def two_sided_scenario(a_c_max: int = 3, quick: bool = True) -> Scenario:
    return {"title": f"Comer & Korb extension: both hosts sending, C_max a {a_c_max} / b {P.TS_B_C_MAX}",
            "run": two_sided_run_table(quick), **two_sided_tables(a_c_max)}


def derive_a_c_max(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
    """Fig. 8: x is host a's C_max."""
    return {**two_sided_tables(int(x)), "run": first_half(two_sided_run_table(quick), params)}
