"""Colella, Aronoff & Mills (NBS): the published parameters (Tables 2 and 3), the run
settings of the reproduction, and the assumptions made where the paper is silent.

``A_*`` are the :class:`~arqlab.studies.spec.Assumption` s drawn under each figure.
"""

from __future__ import annotations

from typing import Any

from ..spec import Assumption, UncertainInput

NAME = "colella"
TITLE = "Colella, Aronoff & Mills (NBS), Performance Improvements for ISO Transport"
CITATION = (
    "R. Colella, R. Aronoff and K. Mills, \"Performance Improvements for ISO Transport\", "
    "National Bureau of Standards, Gaithersburg MD"
)
#: Heads every scenario file the reproduction writes (ASCII).
SOURCE = "Colella, Aronoff & Mills (NBS)"
STUDY_CLAIMS_HEADING = "Abstract and conclusions"

# ----------------------------------------------------------------- Tables 2 and 3
LINK_BPS = 64_000.0  # "Satellite Link Speed 64 Kbps"
NETWORK_WINDOW = 4  # "Network Window (MSGs) 4"
TSDU_OCTETS = 10_240  # "TSDU Size 10240 Octets"
BUFFER_OCTETS = 32 * 1024  # "Send/RCV Buffer Size (Octets) 32K"
EXP1: dict[str, Any] = {  # Table 2
    "tsdus": 60, "ber": 1e-9, "window_octets": 12 * 1024, "retransmission_timer_s": 2.0,
    "window_timer_s": 6.0, "dt_size_octets": 1024, "acknowledgement": "one_for_one",
}
EXP2: dict[str, Any] = {  # Table 3 (5 TSDUs at 1e-3)
    "tsdus": 20, "window_octets": 20 * 1024, "retransmission_timer_s": 0.65, "window_timer_s": 2.0,
    "dt_size_octets": 128, "expedited": "nbs", "expedited_every": 0,
}
TSDUS_AT_1E3 = 5
#: Table 2's expedited/normal ratios, and None (0).
EXPEDITED_RATES = (0.0, 0.03, 0.037, 0.0455, 0.0588, 0.08, 0.14, 0.33)
EXPEDITED_RATES_QUICK = (0.0, 0.0455, 0.08, 0.14, 0.33)
#: Table 3 lists 1e-3 … 1e-6; Figure 6's text covers 1e-7 to 1e-3.
BERS = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3)
BERS_QUICK = (1e-6, 1e-5, 1e-4, 1e-3)
#: Window sizes (KiB) of the "twice the window" sensitivity (an extension figure): a
#: 0.5 KiB grid up to Table 3's 20K, at each error rate of WINDOW_BERS (the ratio of the
#: two knees depends on it). WINDOW_BER is the rate of the base scenario.
WINDOWS_KIB = tuple(0.5 * i for i in range(1, 41))
WINDOWS_KIB_QUICK = WINDOWS_KIB
WINDOW_BERS = (1e-5, 1e-4, 1e-3)
WINDOW_BER = 1e-4
#: "twice the window": the ratio of the knees is 2 within ±25 % (a band centred on 2).
TWICE_BAND = (1.5, 2.5)

# ------------------------------------------------------------- unstated parameters
ONE_WAY_DELAY_S = 0.27  # geostationary hop, stated on every figure
NET_OVERHEAD_BITS = 72  # X.25 packet header (3 octets) + LAPB frame (6 octets)
NET_ACK_DELAY_S = 0.0  # the network window is released by a local acknowledgement
EXPEDITED_UNIT = "dt"  # a "normal data request" is one DT-sized piece of user data

QUICK_REPLICATIONS = 5
FULL_PRECISION = 0.025
FULL_MIN_REPLICATIONS = 10
FULL_MAX_REPLICATIONS = 400

#: Claim tolerances: "fully utilises" = within 3% of the error-free no-ED efficiency;
#: a published maximum improvement is matched within ±25% of its value.
TOL_FULL = 0.03
TOL_PAPER_MAX = 0.25

COLORS = {"iso": "tab:red", "nbs": "tab:blue", "one_for_one": "tab:red", "selective": "tab:blue"}

A_DELAY = Assumption(
    "satellite one-way delay", f"{ONE_WAY_DELAY_S} s",
    "Not stated; a geostationary hop (≈ 0.27 s). Sensitivity 'delay0.135' halves it.")
A_HEADERS = Assumption(
    "TPDU headers", "ISO 8073 extended format + 4-octet checksum: DT 12, AK 14 (20 selective), ED 12+16, EA 12",
    "Figure 3 shows the extended AK (10 octets, 16 selective); the checksum parameter is class 4's usual one. "
    "The DT TPDU size counts its header (ISO 8073), so a 1024-octet DT carries 1012 octets of user data.")
A_NETWORK = Assumption(
    "network window", f"{NETWORK_WINDOW} packets, released {NET_ACK_DELAY_S} s after a packet's last bit, "
    f"{NET_OVERHEAD_BITS} header bits per packet",
    "Not stated how the subnetwork acknowledges; a local (access-link) acknowledgement as an X.25 DCE gives. "
    "Experiment 2 rules out the alternative: with a place released only after a satellite round trip (0.55 s), "
    "four 128-octet packets per round trip cap both schemes near 0.10 and the selective gain at 1e-4 shrinks "
    "to 1.3 points (quick pass: 0.090 vs 0.077), incompatible with the paper's 34% improvement. Sensitivity "
    "'remote_ack' (Experiment 1) and the robustness pass (network_ack_delay 0–0.55 s) vary it.")
A_EXPEDITED = Assumption(
    "expedited arrival pattern", "an ED after every k-th DT-sized piece of user data, k = round(1/rate)",
    "Experiment 1 defines the rate as 'expedited data requests per normal data requests at the user interface' "
    "without saying what a normal request is, and explains NBS's drop from 1/7 to 1/3 by 'transport is not "
    "receiving sufficient normal data before each expedited message to keep the transport connection fully "
    "utilized'. With a whole TSDU (11 DTs, 1.3 s of line time) before each ED, NBS never idles; the drop "
    "appears only if a normal request is about one DT (1/3: 3 DTs = 0.39 s < the ED round trip 0.55 s). "
    "Sensitivity 'per_tsdu' places an ED after every k-th TSDU. ED user data 16 octets.")
A_DELAY_DEF = Assumption(
    "TSDU delay", "from the transport entity accepting the TSDU into its send buffer to its delivery",
    "Table 1: 'between transmission and receipt of a TSDU' as seen by the users; a continuously queued user "
    "is blocked while the send buffer is full, so its request completes when the entity accepts it.")
A_TRANSFER = Assumption(
    "transfer time", "from time 0 to the sender's receipt of the AK covering the last DT",
    "Table 1: 'user data transferred / transfer time'; each replication is one finite transfer.")

# ------------------------------------------------------- robustness (unstated inputs)
#: What the paper leaves unstated, with the plausible range the robustness pass explores
#: (``arqlab reproduce colella --robustness``; docs/studies/colella.md, "Robustness").
UNCERTAIN_INPUTS = (
    UncertainInput(
        "one_way_delay", "param:ONE_WAY_DELAY_S", ONE_WAY_DELAY_S,
        "Not stated ('satellite'); a geostationary hop's propagation is 0.24–0.28 s between ground stations "
        "under the satellite and at the edge of its coverage, plus a few ms of ground-station processing.",
        low=0.24, high=0.30),
    UncertainInput(
        "network_ack_delay", "param:NET_ACK_DELAY_S", NET_ACK_DELAY_S,
        "Not stated how the window-4 subnetwork releases a place: 0 s is a local (access-link) acknowledgement as "
        "an X.25 DCE gives; 0.55 s an end-to-end one after a satellite round trip.",
        low=0.0, high=0.55),
    UncertainInput(
        "network_overhead_bits", "param:NET_OVERHEAD_BITS", NET_OVERHEAD_BITS,
        "Not stated; X.25 packet header + LAPB frame: 3 + 6 octets with modulo-8 numbering (72 bits), "
        "4 + 7 octets with modulo 128 (88 bits).",
        levels=(72, 88)),
    UncertainInput(
        "expedited_unit", "param:EXPEDITED_UNIT", EXPEDITED_UNIT,
        "'expedited data requests per normal data requests at the user interface' (Experiment 1) does not say "
        "what a normal request is: one DT-sized piece of user data (the study's reading) or a whole TSDU.",
        levels=("dt", "tsdu")),
)
