"""Comer & Korb (1984): the published parameters, the run settings of the reproduction,
and the assumptions made where the paper is silent.

``A_*`` are the :class:`~arqlab.studies.spec.Assumption` s drawn under each figure.
"""

from __future__ import annotations

from ..spec import Assumption, UncertainInput

NAME = "comer-korb"
TITLE = "Comer & Korb (1984), IP-to-X.25 Interface: Performance Optimization with Multiple Circuits"
CITATION = (
    "D. Comer and J. T. Korb, \"The Proposed DARPA IP-to-X.25 Interface Standard: Performance "
    "Optimization with Multiple Circuits\", Purdue University CSD-TR-473, 1984"
)
#: Heads every scenario file the reproduction writes (ASCII).
SOURCE = "Comer & Korb (1984)"
STUDY_CLAIMS_HEADING = "Section 4 and conclusions"

# ------------------------------------------------------------------ the paper's numbers
LINE_BPS = 9600.0  # "a 9600 bps network interface"
WINDOW = 2  # "for Telenet, the window size is two"
PACKET_OCTETS = 128
T_N_S = 0.235  # "the mean network delay as reported by the vendor"
PAPER_T_P_S = 0.108  # 130 octets at 9600 bit/s
PAPER_T_F_S = 0.015  # "the measured value of T_f is approximately 15 ms"
PAPER_BOUND_BPS = 2860.0  # eq. (2)
PAPER_BOUND_HEADERS_BPS = 2631.0  # "taking into account these headers"
PAPER_SINGLE_MAX_BPS = 2200.0  # "has never exceeded 2200 bps (on a single virtual circuit)"
PAPER_C_MAX = 3  # "= 3 circuits"
PAPER_RETX_SHARE = 0.10  # "in several tests, over 10% of the datagrams were retransmitted"
FILE_OCTETS = 100_000  # "a 100,000-byte file", "the number of bits in the data file (800,000)"
DATAGRAM_OCTETS = 492  # "each datagram (typically 492 bytes)"
HEADER_OCTETS = 40  # TCP (20) + IP (20)
SEGMENT_OCTETS = DATAGRAM_OCTETS - HEADER_OCTETS  # 452
#: The file is one application write cut by TCP into MSS-sized segments: 221 of 452
#: octets and a last one of 108 (100,000 octets; 222 datagrams, the last two packets).
SEGMENTS = -(-FILE_OCTETS // SEGMENT_OCTETS)  # 222
LAST_SEGMENT_OCTETS = FILE_OCTETS - (SEGMENTS - 1) * SEGMENT_OCTETS  # 108
CIRCUITS = tuple(range(1, 14))  # "from 1 to 13 virtual circuits"
#: The quick pass (and so the robustness screen, which plans quick passes) runs every C
#: too: Fig. 3's claims read a knee and the points beyond it, and 4.2BSD's curve is not
#: monotone (C = 7 is its peak), so a sparser grid gave another verdict than the full
#: pass. With constant T_N each point is one deterministic transfer, so it costs little.
CIRCUITS_QUICK = CIRCUITS
FIG2_CIRCUITS = 3  # "using three open virtual circuits"
HOURS = tuple(float(h) for h in range(24))
HOURS_QUICK = (0.0, 4.0, 8.0, 12.0, 16.0, 20.0)

# ------------------------------------------------------------- unstated parameters
#: TCP's receive window: not stated; 2048 octets, the window a 4.2BSD receiver
#: advertises (its socket buffer, tcp_recvspace = 2048; the `bsd42` flavour's default):
#: four 452-octet segments in flight at most, whatever the sender's flavour.
RECEIVE_WINDOW_OCTETS: int | None = 2048
#: Larger receive windows, not a declared input: a 4.2BSD sender keeps its unacknowledged
#: data in its send buffer, tcp_sendspace = 1024*2 in tcp_usrreq.c from CSRG 1.51
#: (82/02/25) until 6.5 (85/03/18), so a 1983 sender with default buffers has at most
#: 2048 octets outstanding whatever the receiver advertises; the window's one 1983 level
#: is 2048. The bsd42 flavour has no send buffer, so under these windows it lets the
#: whole window out: Fig. 3's variants rwnd_4096 and rwnd_8192, reported beside each
#: verdict, never a level of it nor of the robustness screen (revision 14).
LARGER_WINDOWS = (4096, 8192)
#: Which receive window goes with which TCP flavour: "fixed" (RECEIVE_WINDOW_OCTETS under
#: every flavour: Reno and NewReno run with 4.2BSD's receiver, the model until revision
#: 13) or "by_flavour" (each flavour with its own era's default socket buffer,
#: RECEIVE_WINDOW_BY_FLAVOUR). Not stated. It qualifies only the later TCPs' reported
#: runs: under 4.2BSD both pairings give 2048 octets, and "by_flavour" would override the
#: declared receive window, so it is not a level of the robustness screen (revision 14).
RECEIVE_WINDOW_PAIRING = "fixed"
#: The "by_flavour" pairing: a later sender with a later, larger receiver. The levels
#: are receive buffers, not releases of these flavours: 2048 is 4.2BSD's tcp_recvspace
#: (tcp_usrreq.c, 1983), 4096 the same variable as 4.3BSD (1986) set it, 8192 a later
#: and larger default. No BSD release ran the model's "reno" (RFC 5681/6298, 2009/2011)
#: or "newreno" (RFC 6582, 2012), so the pairing orders the windows with the flavours'
#: era and claims no more.
RECEIVE_WINDOW_BY_FLAVOUR = {"bsd42": 2048, "reno": 4096, "newreno": 8192}
#: TCP's delayed-ACK time (the tcp layer's default, 0.2 s: BSD's fast timer, tcp_fasttimo
#: every 200 ms, sends a delayed ACK at most this long after the segment; RFC 1122
#: §4.2.3.2 allows up to 0.5 s). Declared uncertain.
DELAYED_ACK_S = 0.2
#: The tcp layer's own default (the key is written only when it differs).
TCP_DEFAULT_DELAYED_ACK_S = 0.2
#: Uniform spread of T_N around its mean in the "random T_N" variant (an assumption).
T_N_SPREAD = 0.5
#: Fig. 2's assumed day/night factor of T_N (business hours over night).
DAY_FACTOR = 2.0
#: What the vendor's mean T_N (235 ms) is in Fig. 2's assumed profile: "night" (the
#: night's T_N; the profile's 24-hour mean is then 1.375 × 235 = 323 ms at DAY_FACTOR 2)
#: or "mean" (the profile's 24-hour time mean; the night is then 235/1.375 = 171 ms).
#: Not stated: a declared uncertain input, and fig3.single_reaches_2200 is read under
#: each. Revision 12 also had "day" (the vendor's mean as business hours' T_N, the night
#: 117.5 ms); dropped in revision 13: neither the paper nor a document it cites says the
#: vendor quoted its busiest hours' delay as its mean, and that level alone decided the
#: claim (review 26, finding 7).
FIG2_T_N_ANCHOR = "night"
FIG2_T_N_ANCHORS = ("night", "mean")


def _profile_factors() -> tuple[tuple[float, float], ...]:
    """(start hour, T_N over the night's) of Fig. 2's profile: night, DAY_FACTOR in
    business hours (9–17 h), half-way ramps of one hour between."""
    mid = (1 + DAY_FACTOR) / 2
    return ((0.0, 1.0), (8.0, mid), (9.0, DAY_FACTOR), (17.0, mid), (18.0, 1.0))


def profile_mean_factor() -> float:
    """The profile's 24-hour time mean over its night level (1.375 at DAY_FACTOR 2)."""
    f = _profile_factors()
    ends = [h for h, _ in f[1:]] + [24.0]
    return sum((end - h) * k for (h, k), end in zip(f, ends)) / 24.0


def t_n_profile(anchor: str | None = None) -> tuple[tuple[float, float], ...]:
    """Fig. 2's assumed T_N profile (piecewise constant, hours → mean seconds): the
    night level times each hour's factor. The night is the vendor's mean ("night"), the
    vendor's mean over the profile's 24-hour mean factor ("mean"), by ``anchor`` (None:
    FIG2_T_N_ANCHOR)."""
    at = anchor or FIG2_T_N_ANCHOR
    night = {"night": T_N_S, "mean": T_N_S / profile_mean_factor()}[at]
    return tuple((h, k * night) for h, k in _profile_factors())


T_N_PROFILE = t_n_profile()

#: The TCP of the primary reading: 4.2BSD's (the paper's hosts ran 4.2BSD in 1983: no
#: congestion window, RTO = 2·SRTT in 500 ms ticks, no Karn rule, SRTT 0 until the first
#: sample, so the first RTO is TCPTV_MIN = 1 s).
TCP_FLAVOUR = "bsd42"
#: 4.2BSD's RTO before any sample: its t_srtt starts at 0 and β·0 is clamped to
#: TCPTV_MIN, 1 s. (4.3BSD's, 1986: β × TCPTV_SRTTDFLT = 2 × 3 s = 6 s.)
BSD42_INITIAL_RTO_S = 1.0
#: "The required virtual circuits were opened before each test began" (§5): the file is
#: written this long after time 0, when every call of every Fig. 2/3 point is connected
#: (the slowest, 13 calls at 470 ms business-hours T_N, by about 1.3 s), and the
#: throughput is measured from here (run.warmup_s). Until revision 6 the file was written
#: at 0 and the set-up (≈ 0.5 s) overlapped the transfer and TCP's first RTO.
TRANSFER_START_S = 5.0
#: The phase of 4.2BSD's free-running 500 ms slow-timer clock (PR_SLOWHZ = 2) relative
#: to the simulation's time 0: "uniform" draws it in [0, 500 ms) per host and
#: replication from the replication's own stream (tcp.<node>.tick_phase), "zero" puts
#: the ticks on whole half-seconds, i.e. TRANSFER_START_S on tick 10, so every timer
#: expiry is phase-locked to the file's write (the model until revision 12). A real
#: host's clock has run since boot: its phase against a transfer is unknown and, over
#: transfers, uniform. Declared uncertain.
BSD42_TICK_PHASE = "uniform"
#: 4.2BSD's interface queue (if.h: IFQ_MAXLEN = 50): `tcp_output` hands every segment
#: the window allows to `ip_output` at once, which queues it for the interface or drops
#: it when 50 wait (IF_QFULL). The x25 layer's `interface_queue`; 0 leaves it out: TCP
#: is then pulled, asked for one datagram whenever none waits (the model until revision 6).
IFQ_MAXLEN = 50
#: Where 4.2BSD times the round trip: "tcp_input" (the 4.2 distribution, 6.1 of
#: 83/07/29: between advancing ACKs) or "tcp_output" (6.2 of 83/11/04, before the paper's
#: May 1984 revision: a new segment from its send). Purdue's kernel is not known.
BSD42_TIMING = "tcp_input"
#: Bursty, time-correlated T_N (the paper's closing guess: "long delays and burst
#: delivery of acknowledgements"): a square wave of period BURST_PERIOD_S, BURST_LOW ×
#: T_N for the first part and BURST_HIGH × T_N for the last BURST_HIGH_S seconds;
#: (20 × 0.7 + 10 × 1.6) / 30 = 1: the vendor's mean is kept.
BURST_PERIOD_S = 30.0
BURST_HIGH_S = 10.0
BURST_LOW = 0.7
BURST_HIGH = 1.6
#: Where T_N is measured: "between_dces" (the relay's delay is T_N; the far access
#: line adds its own frame time on top) or "host_to_host" (eq. 1 has no far-side T_p:
#: the relay's delay is set so that the model's burst cycle equals eq. 1's
#: 2 (T_p + T_N + T_f) with the paper's T_f = 15 ms: 235 + 15 − 64.6 = 185.4 ms, T_f
#: idle time) or "host_to_host_busy" (T_f = 15 ms of host processing per packet, busy
#: time as eq. 1's W (T_p + T_f) counts it; relay 235 − T_p/2 − T_rr = 170.4 ms).
T_N_PLACEMENT = "between_dces"
#: Host (and front-end board) processing per X.25 packet handed to LAPB, not overlapped
#: with the packet's transmission: each packet of a burst costs T_p + this on the access
#: line, as eq. 1's W (T_p + T_f) counts it. Not stated; 0 in the primary reading (the
#: model's T_f is its frame level alone).
HOST_PROCESSING_S = 0.0
#: The X.25 receiver's acknowledgement timer (P(R) goes back at the latest after it).
X25_ACK_TIMER_S = 2.0
#: The x25 layer's default acknowledgement timer (Figs. 4–8 write theirs only when it differs).
X25_DEFAULT_ACK_TIMER_S = 2.0
#: LAPB's acknowledgement delay T2 on the access lines (the x25 default: a tenth of T1).
LAPB_T2_S = 0.1
#: The x25 layer's default T2 (Figs. 4–8 write theirs only when it differs).
X25_DEFAULT_LAPB_T2_S = 0.1
#: LAPB framing per frame on the access lines, bits: opening flag, address, control, FCS
#: (2) and closing flag, 6 octets (the x25 default). The paper's "7 characters of header"
#: (§4) is the X.25 header (3) with address, control and FCS (4), flags left out; frames
#: sent back to back share a flag (5 octets), an idle line sends both (6). Declared
#: uncertain: 32 (the paper's 7), 40 (shared flag), 48.
LAPB_OVERHEAD_BITS = 48
#: The x25 layer's own default (the key is written into a scenario only when it differs).
X25_DEFAULT_LAPB_OVERHEAD_BITS = 48

QUICK_REPLICATIONS = 3
FULL_PRECISION = 0.025
FULL_MIN_REPLICATIONS = 5
FULL_MAX_REPLICATIONS = 200

# ------------------------------------------------ circuit management (beyond the paper)
CM_DESTINATIONS = (2, 4, 6, 8, 12, 16)
CM_DESTINATIONS_QUICK = (2, 8, 16)
CM_CHANNELS = 6  # the host's logical channels
CM_K_RESERVED = 2  # "typically K = 2"
CM_T_MIN_S = 60.0
CM_T_OPEN_S = 1.0
CM_C_MAX = 3
CM_TERMINAL_OCTETS = 20  # a keystroke echo line: 20 octets + 20 of IP header = small
CM_TERMINAL_RATE = 0.5  # datagrams/s per terminal site
CM_FILE_OCTETS = 472  # + 20 of IP header = 492
CM_FILE_RATE = 0.25  # datagrams/s per file site (≈ 1 kbit/s: 8 such sites fill the line)
#: The ``heavy_files`` sensitivity of Figs. 4–6, the load that exercises multi-circuit
#: MLRU: a file site offers 3.9 kbit/s, more than one circuit carries (2.3 kbit/s), and
#: host a has channels for every site's C_max circuits (16 sites × 3 + K), so an
#: additional circuit need not wait for another site's to be T_min old.
CM_FILE_RATE_HEAVY = 1.0
CM_CHANNELS_MANY = 64
#: The extension's replication cap (its thrashing points vary widely; the framework
#: reports points left at the cap).
CM_MAX_REPLICATIONS = 40
CM_DURATION_S = 3600.0
CM_WARMUP_S = 300.0
CM_DURATION_QUICK_S = 1200.0
CM_WARMUP_QUICK_S = 200.0

# ------------------------- both hosts sending, asymmetric C_max (§6; Fig. 8, beyond the paper)
#: Host a's C_max (the x axis); b's is TS_B_C_MAX. a has TS_A_CHANNELS channels (it never
#: closes), b TS_B_CHANNELS: one per circuit of a's at a's C_max 1 and of its own
#: TS_TERMINAL_SITES terminal sites, so with C_max matched nothing need be closed.
TS_A_C_MAX = (1, 2, 3, 4)
TS_A_C_MAX_QUICK = TS_A_C_MAX
TS_B_C_MAX = 1
TS_A_CHANNELS = 16
TS_TERMINAL_SITES = 3
TS_B_CHANNELS = 1 + TS_TERMINAL_SITES
#: a → b: 492-octet datagrams at 1/s (3.9 kbit/s, more than one circuit's 2.3 kbit/s);
#: b → a: one every 4 s; b → each terminal site: a 40-octet datagram every 100 s.
TS_A_RATE = 1.0
TS_B_RATE = 0.25
TS_TERMINAL_RATE = 0.01

COLORS = {"tcp": "tab:blue", "random": "tab:orange", "lru": "tab:red", "mlru": "tab:blue", "multi_mlru": "tab:green"}

A_HEADERS = Assumption(
    "datagram", f"{SEGMENT_OCTETS}-octet TCP segments + {HEADER_OCTETS} octets of TCP/IP headers = {DATAGRAM_OCTETS} "
    f"octets, four packets (the last carrying 108); the file's last segment {LAST_SEGMENT_OCTETS} octets (two packets)",
    "The paper's 'typically 492 bytes, average packet 123 bytes'.")
A_TCP = Assumption(
    "TCP", f"4.2BSD's (flavour bsd42: no congestion window, RTO = 2·SRTT in 500 ms ticks, no Karn rule, SRTT 0 "
    f"until timed between two advancing ACKs, first RTO {BSD42_INITIAL_RTO_S:g} s, back-off by tcp_backoff[], "
    f"the 500 ms clock's phase {'uniform in [0, 500 ms) per replication' if BSD42_TICK_PHASE == 'uniform' else '0'}), "
    "delayed ACKs, receive window "
    f"{RECEIVE_WINDOW_OCTETS} octets (4.2BSD's tcp_recvspace), every segment the window allows handed at once to an "
    f"interface queue of {IFQ_MAXLEN} datagrams (IFQ_MAXLEN); Reno as a variant",
    "The paper's hosts ran 4.2BSD (1983); its timer constants and windows are not stated in the paper.")
A_ACCESS = Assumption(
    "access line and T_f", f"LAPB (HDLC ABM) at 9600 bit/s both ends, 6 octets per frame; T_f emerges from it; "
    f"host processing {1000 * HOST_PROCESSING_S:g} ms per packet",
    "The paper measured T_f ≈ 15 ms; host processing is a declared input (0–15 ms).")
A_THROUGHPUT = Assumption(
    "throughput", f"the file's {8 * FILE_OCTETS:,} bits (as the paper) / time from the file's write, "
    f"{TRANSFER_START_S:g} s after the calls are placed, to the transfer's end",
    "The paper's circuits 'were opened before each test began': the set-up is excluded.")
A_PROFILE = Assumption(
    "T_N by time of day (ASSUMED INPUT, the paper measured throughput, not T_N)",
    ", ".join(f"{h:g} h: {1000 * m:g} ms" for h, m in T_N_PROFILE),
    "The vendor's mean at night (FIG2_T_N_ANCHOR; its 24-hour mean is then 323 ms, declared: or the 24-hour "
    "mean), twice it in business hours; the paper gives no T_N per hour.")
A_RANDOM = Assumption(
    "random T_N", f"uniform on [{1 - T_N_SPREAD:g}, {1 + T_N_SPREAD:g}] × {1000 * T_N_S:g} ms per packet, "
    "a circuit's packets kept in order",
    "The paper's fourth reason; its distribution is not stated.")
A_CM = Assumption(
    "circuit-management load",
    f"host a to N sites, half terminal sessions (Poisson, {CM_TERMINAL_RATE:g}/s of {CM_TERMINAL_OCTETS}+20-octet "
    f"datagrams), half file transfers (Poisson, {CM_FILE_RATE:g}/s of {CM_FILE_OCTETS}+20-octet datagrams); "
    f"{CM_CHANNELS} channels, K = {CM_K_RESERVED}, T_min = {CM_T_MIN_S:g} s, T_open = {CM_T_OPEN_S:g} s, C_max = {CM_C_MAX}",
    "Not in the paper (an extension): §6's manager under competition for circuits.")

A_HEAVY = Assumption(
    "heavy files (Figs. 4–6, the multi-circuit claims)",
    f"as the circuit-management load, but file sites at {CM_FILE_RATE_HEAVY:g}/s of {CM_FILE_OCTETS}+20-octet datagrams "
    f"(3.9 kbit/s, more than one circuit carries) and {CM_CHANNELS_MANY} channels",
    "Not in the paper: the load under which multi-circuit MLRU opens additional circuits at every N.")
A_TWO_SIDED = Assumption(
    "two-sided load (Fig. 8)",
    f"a → b Poisson {TS_A_RATE:g}/s of {CM_FILE_OCTETS}+20-octet datagrams; b → a {TS_B_RATE:g}/s of the same; b → "
    f"{TS_TERMINAL_SITES} terminal sites {TS_TERMINAL_RATE:g}/s each of {CM_TERMINAL_OCTETS}+20 octets; multi-circuit "
    f"MLRU everywhere, no reserved channels, T_min = {CM_T_MIN_S:g} s, T_open = {CM_T_OPEN_S:g} s; a {TS_A_CHANNELS} "
    f"channels, b {TS_B_CHANNELS} channels and C_max {TS_B_C_MAX}",
    "Not in the paper: §6's asymmetric-C_max warning with both hosts sending.")

A_BURSTY = Assumption(
    "bursty T_N", f"square wave: {BURST_LOW:g} × T_N, then {BURST_HIGH:g} × T_N for the last {BURST_HIGH_S:g} s of "
    f"every {BURST_PERIOD_S:g} s (mean T_N kept)",
    "The paper's closing guess (long delays, acknowledgements delivered in bursts); no distribution given.")

# --------------------------------------------------- inputs for the robustness analysis
#: The TCP flavour is not a declared input: the paper does not name its TCP, but it
#: measured on a VAX 11/780 (§1) in 1983 (the report is of October 1983), so its plausible
#: levels are 1983 TCPs only: 4.2BSD (TCP_FLAVOUR's reading), as its 6.1 and 6.2 sources
#: time the round trip, the declared input "4.2BSD round-trip timing" below. Reno (4.3BSD-
#: Reno, 1990; the model's is RFC 5681/6298) and NewReno (RFC 2582, 1999; RFC 6582) are
#: later TCPs: run as reported sensitivities (Fig. 3's ``tcp_reno`` variant, the
#: ``reno``/``newreno`` one-circuit curves), printed beside a verdict, never a level of
#: claims.decided_by nor of the robustness screen (review 26, revision 13, finding 1).
LATER_TCPS = ("reno", "newreno")
#: How datagrams to one site are assigned to its circuits is not an input: the paper
#: states it. §6.1: "When the interface receives a datagram, it enqueues it in a queue
#: associated with the destination X.25 address … Associated with each queue of outgoing
#: datagrams is a set of X.25 virtual circuits currently open to that destination"; §5:
#: "multiplexing datagram traffic to that site over all circuits available", "send packets
#: round-robin, using all the virtual circuits that are open to a given site"; §4 and RFC
#: 877: a datagram is one packet sequence, sharing no packet with another, so it goes whole
#: on one circuit. The model does exactly this (x25 `interface.rs`, `assign`): one queue per
#: site, its head taken by the next circuit in round-robin order that holds no datagram
#: still being sent. The one freedom, skipping a circuit still sending its last datagram,
#: is what "using all the virtual circuits" asks: the alternative, a datagram waiting for
#: its circuit's turn while another circuit to its site is idle, would leave a circuit
#: unused, and would need per-circuit queues, which §6.1 does not have (revision 14).
UNCERTAIN_INPUTS: tuple[UncertainInput, ...] = (
    UncertainInput("4.2BSD round-trip timing", "param:BSD42_TIMING", BSD42_TIMING,
                   "4.2 distribution (6.1, 83/07/29): tcp_output never times, tcp_input times between advancing "
                   "ACKs; 6.2 (83/11/04) times a new segment from tcp_output; which Purdue ran is not stated",
                   levels=("tcp_input", "tcp_output")),
    UncertainInput("4.2BSD slow-timer phase", "param:BSD42_TICK_PHASE", BSD42_TICK_PHASE,
                   "4.2BSD's tcp_slowtimo runs every 500 ms from boot (PR_SLOWHZ = 2), unrelated to when a "
                   "transfer starts: uniform in [0, 500 ms) per host and replication; 'zero' puts the file's "
                   "write exactly on a tick (revision 12 and before)", levels=("uniform", "zero")),
    UncertainInput("4.2BSD RTO before the first sample (s)", "param:BSD42_INITIAL_RTO_S", BSD42_INITIAL_RTO_S,
                   "4.2BSD (tcp_timer.c/tcp_output.c 6.1, 1983): t_srtt starts at 0, so β·0 is clamped to "
                   "TCPTV_MIN = 1 s; 4.3BSD (1986) assumes TCPTV_SRTTDFLT = 3 s until a sample: β × 3 = 6 s",
                   low=1.0, high=6.0),
    UncertainInput("interface queue (datagrams; 0: TCP pulled one at a time)", "param:IFQ_MAXLEN", IFQ_MAXLEN,
                   "4.2BSD's if.h: IFQ_MAXLEN = 50 (tcp_output sends all the window allows; ip_output drops on "
                   "IF_QFULL); the paper's IP-to-X.25 driver may have kept its own queue. 0: the model until "
                   "revision 6, TCP asked for a segment only when no datagram waits", levels=(0, 50)),
    UncertainInput("TCP delayed-ACK time (s)", "param:DELAYED_ACK_S", DELAYED_ACK_S,
                   "Not stated. 4.2BSD sets TF_DELACK and its tcp_fasttimo, every 200 ms (PR_FASTHZ = 5), sends the "
                   "ACK: 0-0.2 s after the segment; RFC 1122 §4.2.3.2: at most 0.5 s; 0 acknowledges every segment",
                   low=0.0, high=0.5),
    UncertainInput("host processing per X.25 packet (s)", "param:HOST_PROCESSING_S", HOST_PROCESSING_S,
                   "Not stated: the paper's measured T_f ≈ 15 ms holds host and board processing with the frame "
                   "level; 0 (frame level alone, T_f emerges from LAPB) to 15 ms (all of the measured T_f as "
                   "processing)", low=0.0, high=0.015),
    UncertainInput("T_f of the host-to-host calibration (s)", "param:PAPER_T_F_S", PAPER_T_F_S,
                   "The paper's 'approximately 15 ms' (measured, one figure): 7.5 ms (this model's frame level "
                   "per packet) to 30 ms (twice the measurement)", low=0.0075, high=0.030),
    UncertainInput("T_N, the mean network delay (s)", "param:T_N_S", T_N_S,
                   "The vendor's mean (§4); Fig. 2 shows the throughput (hence T_N) varying about two-fold by hour",
                   low=0.15, high=0.47),
    UncertainInput("T_N placement", "param:T_N_PLACEMENT", T_N_PLACEMENT,
                   "Eq. 1 has no far-side T_p, so the paper's T_N may run host to host; the vendor's figure may be "
                   "switch to switch; T_f may be idle time (host_to_host) or busy time per packet "
                   "(host_to_host_busy: eq. 1's W (T_p + T_f))",
                   levels=("between_dces", "host_to_host", "host_to_host_busy")),
    UncertainInput("random T_N spread (± share of the relay's mean)", "param:T_N_SPREAD", T_N_SPREAD,
                   "The paper's fourth reason; no distribution given", low=0.0, high=0.9),
    UncertainInput("Fig. 2 day/night T_N factor", "param:DAY_FACTOR", DAY_FACTOR,
                   "Not measured (the paper measured throughput by the hour); 'nearly double' throughput (a best/"
                   "worst ratio of 1.6-2.05) needs a factor of 2.06-2.85 by this model's burst bound",
                   low=1.0, high=3.0),
    UncertainInput("Fig. 2 profile: what the vendor's mean T_N is", "param:FIG2_T_N_ANCHOR", FIG2_T_N_ANCHOR,
                   "Not stated: §4 uses 'the mean network delay as reported by the vendor' as the model's constant "
                   "T_N; the profile may put it at night (its 24-hour mean then 323 ms) or make it the 24-hour mean "
                   "(night 171 ms); business hours' T_N (night 117.5 ms) is not a level: nothing in the paper or "
                   "its references says the vendor quoted its busiest hours' delay as its mean", levels=FIG2_T_N_ANCHORS),
    UncertainInput("bursty T_N high level (× T_N)", "param:BURST_HIGH", BURST_HIGH,
                   "The paper's closing guess; no measurement", low=1.2, high=3.0),
    UncertainInput("LAPB acknowledgement delay T2 (s)", "param:LAPB_T2_S", LAPB_T2_S,
                   "X.25 §2.4.8.2 asks only T2 < T1 (1 s here); 0 sends an RR ahead of every reply", low=0.0,
                   high=0.5),
    UncertainInput("LAPB framing per frame (bits)", "param:LAPB_OVERHEAD_BITS", LAPB_OVERHEAD_BITS,
                   "§4: 'X.25 packets that contain 123 characters of data and 7 characters of header' (T_p = 130 "
                   "octets): X.25's 3 with LAPB's address, control and FCS, without flags (32 bits); one shared "
                   "flag back to back (40); both flags (48, the primary: the model's frames are sent one by one)",
                   levels=(32, 40, 48)),
    UncertainInput("X.25 packet-level acknowledgement timer (s)", "param:X25_ACK_TIMER_S", X25_ACK_TIMER_S,
                   "The paper: P(R) returns when the window is full 'or after an extremely long time'", low=0.2, high=10.0,
                   log=True),
)
