"""Biersack (1992): what the paper states, the run settings of the reproduction, and the
assumptions made where it is silent (docs/studies/biersack.md, "Parameters").

``A_*`` are the :class:`~arqlab.studies.spec.Assumption` s drawn under each figure.
"""

from __future__ import annotations

from typing import Any

from ..spec import Assumption, UncertainInput

NAME = "biersack"
TITLE = "Biersack (1992), IEEE 802.2 type-2 LLC with selective retransmission over bridged token rings"
CITATION = (
    "E. W. Biersack, \"Performance of the IEEE 802.2 Type-2 Logical Link Protocol with Selective "
    "Retransmission\", IEEE Transactions on Communications 40 (1992)"
)
#: Heads every scenario file the reproduction writes (ASCII).
SOURCE = "Biersack (1992), IEEE Trans. Commun. 40"
STUDY_CLAIMS_HEADING = "Results and comparison (Sections III-IV)"

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
#: 3.2-3.6: the knee, where the delay claims are read (throughput at equal delay).
OFFERED_MBPS = (0.5, 1.0, 2.0, 3.0, 3.2, 3.4, 3.5, 3.6, 4.0, 4.5, 5.0, 6.0)
OFFERED_MBPS_QUICK = (1.0, 2.5, 3.2, 3.5, 5.0)
#: Offered rates at and above which the network is overloaded: the paper's footnote 1,
#: "4.0 Mb/s or higher" (no steady state: queues at the sources grow through the run, so
#: delay is not watched by the precision rule there).
OVERLOAD_MBPS = 4.0
#: ORIG collapses from about 2.8 Mbit/s (go-back-N retransmissions fill the backbone, a
#: state it does not leave): its delay has no steady state there either.
ORIG_COLLAPSE_MBPS = 2.8
#: From here to overload (the knee) the delay is read, not watched: near saturation it needs
#: hundreds of replications for ±2.5%, beyond the pass's CPU budget; the knee points run
#: KNEE_REPLICATIONS replications and their CIs say how precise they are.
KNEE_MBPS = 3.2
KNEE_REPLICATIONS = 10

# ------------------------------------------------------------------ unstated parameters
#: Bux & Grillo's frame-length mix is not public: a bimodal short/long mix.
LENGTH_MIX: dict[str, Any] = {"dist": "empirical", "values_bits": [512.0, 10000.0], "weights": [0.2, 0.8]}
#: The same mean (8102.4 bits) spread uniformly: the lengths' sensitivity.
UNIFORM_LENGTHS: dict[str, Any] = {"dist": "uniform", "min_bits": 512.0, "max_bits": 15692.8}
#: The only window the paper states for its internet scenario: "For a window size of ten,
#: as few as two FIFO buffers are sufficient" (Section IV, run "in our simulator"); Fig. 4's
#: w = 5 is a drawing (docs/studies/biersack.md, "The window").
WINDOW = 10
#: T1 = 1 s and reject timer = 3 s: documented defaults of LLC2 implementations (Linux
#: net/llc, DECnet-Plus, llc2 t1-time/trej-time of switch and router manuals: docs/references.md,
#: "LLC2 timer defaults"), not the paper's, which gives no value.
T1_S = 1.0
REJECT_TIMER_S = 3.0
FORWARDING_TIME_S = 0.0005
#: The bridge forwards one frame at a time (queueing behind its processor), not in parallel.
SINGLE_PROCESSOR = True
#: Processing time of every I frame a station receives (one at a time); 0: none.
PROCESSING_S = 0.0
#: Processing time of every S frame (RR, REJ, SREJ) a station receives; None: as an I frame.
S_PROCESSING_S: float | None = None
#: IEEE 802.5 token holding time (s); None: one frame per token.
HOLDING_TIME_S: float | None = None
PROPAGATION_S = 5e-6
#: The paper's rule: only a REJ cuts the BG/JAIN working window (a T1 cut is a sensitivity).
T1_RESETS_WINDOW = False

# ------------------------------------------------------------------ run settings
QUICK_REPLICATIONS = 3
QUICK_DURATION_S = 15.0
QUICK_WARMUP_S = 3.0
FULL_DURATION_S = 60.0
FULL_WARMUP_S = 5.0
FULL_PRECISION = 0.025  # "±2.5% at 95%" (the paper's precision)
FULL_MIN_REPLICATIONS = 4
FULL_MAX_REPLICATIONS = 600

#: Fig. 6 variants that are the paper's own variations ("different values for the buffer
#: size, window size, and the timeout"): the ranking claim is scored over these only.
PAPER_VARIATIONS = ("buffer2k", "buffer8k", "window4", "window7", "window12", "t1_0.3", "t1_2")
#: Fig. 6 variants of inputs the paper does not vary: a separate inference claim.
OTHER_VARIATIONS = ("t1_cut", "fwd2ms", "fwd_parallel", "proc1ms", "holding10ms", "uniform_lengths")

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
    "Bux & Grillo's frame-length mix is not published; a bimodal short/long mix. Sensitivity 'uniform_lengths' "
    "uses lengths uniform on [512, 15693] bits with the same mean.")
A_TIMERS = Assumption(
    "T1, reject timer, window", f"T1 = {T1_S:g} s, reject timer {REJECT_TIMER_S:g} s, k = {WINDOW}, n = {N_BG}, "
    "N2 = 8, N3 = 1, T2 = 0.1 s",
    "Timers not in the paper ('typically larger than the roundtrip time'); T1 = 1 s and reject timer 3 s are "
    "documented defaults of LLC2 implementations (not of the paper's model); k = 10 is the window the paper names "
    "for its multi-FIFO runs. Sensitivities 't1_0.3', 't1_2', 'window4', 'window7', 'window12'; every claim per T1 "
    "in timers.md, per k in window.md.")
A_BRIDGE = Assumption(
    "bridges", f"{BUFFER_OCTETS} octets per output port, drop-tail, {FORWARDING_TIME_S * 1e3:g} ms forwarding by one "
    "processor (frames queue behind it)",
    "Buffer size from the paper (4 KB), counted in LLC PDU octets; forwarding time ours. Sensitivities "
    "'buffer2k', 'buffer8k', 'fwd2ms', 'fwd_parallel'.")
A_PROCESSING = Assumption(
    "stations and ring", "no per-frame processing at the stations; one frame per token",
    "Bux & Grillo's processing times 'of the various frames' are not public; a station receives at most ~40 frames/s "
    "here, so ms-scale times keep its processor below 10% busy. Sensitivities 'proc1ms' (1 ms per I frame, 0.5 ms "
    "per S frame) and 'holding10ms' (IEEE 802.5 token holding time); every claim under both token readings in "
    "holding_time_s.md.")
A_T1_WINDOW = Assumption(
    "T1 expiry and the working window", "only a REJ cuts the BG/JAIN working window to 1; a T1 expiry does not",
    "The paper: 'Whenever the sender receives a REJ-frame it reduces its current window size dw to 1'. "
    "Sensitivity 't1_cut': a T1 expiry cuts it too.")
A_RUN = Assumption(
    "run length", f"{FULL_DURATION_S:g} s after {FULL_WARMUP_S:g} s warm-up, {FULL_MIN_REPLICATIONS}-"
    f"{FULL_MAX_REPLICATIONS} replications (±2.5% at 95% on throughput and, below {KNEE_MBPS:g} Mbit/s (ORIG "
    f"{ORIG_COLLAPSE_MBPS:g}), mean delay; {KNEE_REPLICATIONS} at least at the knee)",
    "Under overload the source queues grow without bound: delay has no steady state there.")

ASSUMPTIONS = (A_TOPOLOGY, A_LENGTHS, A_TIMERS, A_BRIDGE, A_PROCESSING, A_T1_WINDOW, A_RUN)

#: Every input the paper leaves open, with a plausible range and its source, for the
#: claim-robustness analysis (``param:NAME`` is an attribute of this module, read by
#: :func:`.scenarios.defaults` when a scenario is built).
UNCERTAIN_INPUTS: tuple[UncertainInput, ...] = (
    UncertainInput("T1 (acknowledgement timer)", "param:T1_S", T1_S,
                   "Not in the paper ('typically larger than the roundtrip time'); LLC2 implementations default to "
                   "1 s (Linux net/llc LLC2_ACK_TIME, DECnet-Plus, 'llc2 t1-time'). T1 runs from the end of a "
                   "frame's transmission, so it covers the loss-free round trip (measured up to 136 ms under "
                   "overload, ORIG at 3.5 Mbit/s, roundtrip.py), not the source queue: 0.3 s is 2.2x that, 2 s a "
                   "slow implementation.",
                   low=0.3, high=2.0, log=True),
    UncertainInput("reject timer", "param:REJECT_TIMER_S", REJECT_TIMER_S,
                   "Not in the paper; 3 s is the documented default of LLC2 implementations (Linux net/llc "
                   "LLC2_REJ_TIME, DECnet-Plus reject timer 3000 ms, 'llc2 trej-time' 3 s); tied to T1 (1 s) in "
                   "the earlier study.", low=1.0, high=3.0, log=True),
    UncertainInput("T1 cuts the BG/JAIN window", "param:T1_RESETS_WINDOW", T1_RESETS_WINDOW,
                   "The paper names the REJ as the only signal; some dynamic-window implementations also react to T1.",
                   levels=(False, True)),
    UncertainInput("window k", "param:WINDOW", WINDOW,
                   "Not stated for Figs. 1-3, 5; the paper's multi-FIFO runs name 10 ('for a window size of ten'); "
                   "802.2 implementations default to 7.", levels=(4, 7, 10, 12)),
    UncertainInput("bridge forwarding time (s)", "param:FORWARDING_TIME_S", FORWARDING_TIME_S,
                   "Bux & Grillo's processing times are not public; a 1980s bridge forwarded a few thousand "
                   "frames/s.", low=0.0001, high=0.002, log=True),
    UncertainInput("bridge forwards with one processor", "param:SINGLE_PROCESSOR", SINGLE_PROCESSOR,
                   "One processor per bridge is the physical default; parallel forwarding is the pure-delay model.",
                   levels=(True, False)),
    UncertainInput("station processing per received frame (s)", "param:PROCESSING_S", PROCESSING_S,
                   "The paper used Bux & Grillo's per-frame processing times (not at hand); I frames carry up to "
                   "1254 octets to copy.", low=0.0, high=0.002),
    UncertainInput("station processing per received S frame (s)", "param:S_PROCESSING_S", S_PROCESSING_S,
                   "Bux & Grillo distinguish 'the various frames' (not at hand); an S frame has no data to copy, so "
                   "up to the I frame's time (None: the I frame's).", levels=(None, 0.0, 0.0005)),
    UncertainInput("token holding time (s)", "param:HOLDING_TIME_S", HOLDING_TIME_S,
                   "IEEE 802.5 lets a station send frames until its token holding timer (10 ms) runs out; the paper "
                   "and Bux & Grillo's summary do not say whether a station sent more than one frame per token: both "
                   "readings are reported for every claim (holding_time_s.md).", levels=(None, 0.01)),
    UncertainInput("bridge buffer (octets)", "param:BUFFER_OCTETS", BUFFER_OCTETS,
                   "Stated as 4 KB; whether MAC framing counts, and per port or shared, is not.",
                   levels=(2048, 4096, 8192)),
    UncertainInput("message lengths", "param:LENGTH_MIX", LENGTH_MIX,
                   "Bux & Grillo's mix is not public: the bimodal mix or uniform lengths with the same mean.",
                   levels=(LENGTH_MIX, UNIFORM_LENGTHS)),
    UncertainInput("cable propagation per ring (s)", "param:PROPAGATION_S", PROPAGATION_S,
                   "Not stated; 1 km of cable at 5 us/km, up to a few km.", low=1e-6, high=2e-5, log=True),
    UncertainInput("N3 (I frames per acknowledgement)", "stack.llc2.n3", 1,
                   "Not stated; the model's default acknowledges every I frame; LLC2 implementations allow up to "
                   "3 (ack-max).", levels=(1, 3)),
    UncertainInput("acknowledgement delay T2 (s)", "stack.llc2.ack_delay_s", 0.1,
                   "Not stated; LLC2 implementations default to 100 ms.", low=0.01, high=0.2, log=True),
)
