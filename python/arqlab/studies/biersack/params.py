"""Biersack (1992): what the paper states, the run settings of the reproduction, and the
assumptions made where it is silent (docs/references.md#llc2-and-token-ring).

``A_*`` are the :class:`~arqlab.studies.spec.Assumption` s drawn under each figure.
"""

from __future__ import annotations

from typing import Any

from ..spec import Assumption

NAME = "biersack"
TITLE = "Biersack (1992), IEEE 802.2 type-2 LLC with selective retransmission over bridged token rings"
CITATION = (
    "E. W. Biersack, \"Performance of the IEEE 802.2 Type-2 Logical Link Protocol with Selective "
    "Retransmission\", IEEE Transactions on Communications 40 (1992)"
)
#: Heads every scenario file the reproduction writes (ASCII).
SOURCE = "Biersack (1992), IEEE Trans. Commun. 40"
STUDY_CLAIMS_HEADING = "Results and conclusions (Section IV)"

# ------------------------------------------------------------------ stated by the paper
RINGS = 3  # three local rings ...
STATIONS = 12  # ... of 12 stations, each bridged to a backbone ring
RATE_BPS = 4e6  # 4 Mbit/s rings
BUFFER_OCTETS = 4096  # 4 KB bridge buffers
N_BG = 8  # Bux–Grillo: +1 after n = 8 RRs
PAPER_MAX_SREJ_MBPS = 3.55
PAPER_MAX_BG_MBPS = 3.35
PAPER_ORIG_OOS = 0.70  # "more than 70% of all I-frames received were out-of-sequence"

#: The four variants of Figs. 1-3 and 5 (ORIG: IEEE 802.2 as standardised).
VARIANTS = ("orig", "bg", "jain", "srej")
LABELS = {"orig": "ORIG", "bg": "BG", "jain": "JAIN", "srej": "SREJ"}
COLORS = {"orig": "tab:gray", "bg": "tab:blue", "jain": "tab:green", "srej": "tab:red"}

#: Total offered user data rate (Mbit/s), the x-axis; overload from 4 Mbit/s.
OFFERED_MBPS = (0.5, 1.0, 2.0, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0)
OFFERED_MBPS_QUICK = (1.0, 2.5, 3.5, 5.0)
#: Offered rates at and above which the rings are overloaded (no steady state: queues at
#: the sources grow through the run, so delay is not watched by the precision rule there).
OVERLOAD_MBPS = 4.0

# ------------------------------------------------------------------ unstated parameters
#: Bux & Grillo's frame-length mix is not public: a bimodal short/long mix.
LENGTH_MIX: dict[str, Any] = {"dist": "empirical", "values_bits": [512.0, 10000.0], "weights": [0.2, 0.8]}
WINDOW = 7
T1_S = 0.5
REJECT_TIMER_S = 0.5
FORWARDING_TIME_S = 0.0005
PROPAGATION_S = 5e-6
T1_RESETS_WINDOW = True

# ------------------------------------------------------------------ run settings
QUICK_REPLICATIONS = 3
QUICK_DURATION_S = 15.0
QUICK_WARMUP_S = 3.0
FULL_DURATION_S = 100.0
FULL_WARMUP_S = 5.0
FULL_PRECISION = 0.025  # "±2.5% at 95%" (the paper's precision)
FULL_MIN_REPLICATIONS = 4
FULL_MAX_REPLICATIONS = 600

# ------------------------------------------------------------------ claim tolerances
#: "slightly better/above": better by a significant margin of at most 15%.
SLIGHT = 0.15
#: "close to SREJ": within 5% of SREJ's throughput.
CLOSE = 0.05
#: "about five" FIFO buffers: the smallest number within CLOSE of SREJ lies in 4..6.
ABOUT_FIVE = (4, 6)

A_TOPOLOGY = Assumption(
    "topology and traffic", "station i of ring r sends to station i of ring r+1 (mod 3), Poisson arrivals",
    "The paper: 3 rings of 12 stations bridged to a backbone, 'internet traffic only'; the pairing is ours.")
A_LENGTHS = Assumption(
    "message lengths", "20% 512 bits, 80% 10 000 bits (one I frame each; mean ≈ 1013 octets)",
    "Bux & Grillo's frame-length mix is not published; a bimodal short/long mix. Sensitivity 'exp_lengths' "
    "uses exponential lengths with the same mean.")
A_TIMERS = Assumption(
    "T1, reject timer", f"{T1_S} s each, k = {WINDOW}, n = {N_BG}, N2 = 8, N3 = 1, T2 = 0.1 s",
    "Not in the paper; T1 well above the loaded round trip (tens of ms). Sensitivities 't1_0.2', 't1_2', "
    "'window4', 'window12'.")
A_BRIDGE = Assumption(
    "bridges", f"{BUFFER_OCTETS} octets per output port, drop-tail, {FORWARDING_TIME_S * 1e3:g} ms forwarding",
    "Buffer size from the paper (4 KB), counted in LLC PDU octets; forwarding time ours. Sensitivities "
    "'buffer2k', 'buffer8k', 'fwd2ms'.")
A_T1_WINDOW = Assumption(
    "T1 expiry and the working window", "a T1 expiry cuts the BG/JAIN working window to 1",
    "docs/references.md#llc2-and-token-ring default; Bux & Grillo's dynamic window reacts to T1 too.")
A_RUN = Assumption(
    "run length", f"{FULL_DURATION_S:g} s after {FULL_WARMUP_S:g} s warm-up, {FULL_MIN_REPLICATIONS}-"
    f"{FULL_MAX_REPLICATIONS} replications (±2.5% at 95% on throughput and, below {OVERLOAD_MBPS:g} Mbit/s, "
    "mean delay)", "Under overload the source queues grow without bound: delay has no steady state there.")

ASSUMPTIONS = (A_TOPOLOGY, A_LENGTHS, A_TIMERS, A_BRIDGE, A_T1_WINDOW, A_RUN)
