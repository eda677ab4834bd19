"""Johnson: the run settings of the reproduction and the model's mapping of the paper's
protocols, channels and workloads onto arqlab scenario keys (the published numbers are
in :mod:`.published`)."""

from __future__ import annotations

from ..spec import UncertainInput
from .published import CHANNELS, PROTOCOLS

NAME = "johnson"
TITLE = "Johnson, HF radio ARQ protocol features under Internet-style and wireless-friendly e-mail"
#: Heads every scenario file the reproduction writes (ASCII).
SOURCE = "Johnson, HF ARQ for Internet applications"
STUDY_CLAIMS_HEADING = "Sections 4 and 5 (Tables 1-8)"

#: The eight feature combinations (selective repeat, integrated modem, duplex client
#: data) -> the hf_arq variant. The first four are the paper's protocols (the
#: 2^(3-1) fraction I = -ABC); the other four complete the 2^3 design (beyond the paper).
VARIANT: dict[tuple[bool, bool, bool], str] = {
    (False, False, False): "5066-1s",
    (True, False, True): "5066",
    (True, True, False): "hdl",
    (False, True, True): "hdl-1d",
    (True, False, False): "sr-external-simplex",
    (False, False, True): "sw-external-duplex",
    (False, True, False): "sw-integrated-simplex",
    (True, True, True): "all-three",
}
#: Curve keys (the paper's names for its four protocols).
PAPER_CURVES: dict[str, str] = {"HDL": "hdl", "HDL-1d": "hdl-1d", "5066": "5066", "5066-1s": "5066-1s"}
EXTRA_CURVES: tuple[str, ...] = ("all-three", "sr-external-simplex", "sw-external-duplex", "sw-integrated-simplex")
assert set(PAPER_CURVES) == set(PROTOCOLS)

#: x of Figures 1 and 2 -> (the paper's column, the hf channel preset, initial SNR estimate).
CHANNEL_X: dict[float, tuple[str, str, float]] = {
    1.0: (CHANNELS[0], "stable_25", 25.0),
    2.0: (CHANNELS[1], "stable_5", 5.0),
    3.0: (CHANNELS[2], "transition", 25.0),
}

#: The paper's run length: "at least an hour of simulated time, and the latency of all
#: messages delivered is averaged". Sessions run back to back and start during the first
#: hour; the session in progress at the hour runs to its end (the dialogue's
#: ``start_until_s``), so no session is cut and none is left out of the mean.
HOUR_S = 3600.0
#: The long-message runs (saturated, no sessions) last exactly the hour.
DURATION_S = HOUR_S
#: Cap of a session run: the hour plus room for the last session (the slowest cells'
#: sessions last ~30 min). A session still running at the cap is counted in the
#: ``sessions_censored`` measure (reported with the tables).
SESSION_CAP_S = 4 * HOUR_S
#: More sessions than fit in the hour: the run ends with the last one started in it.
SESSIONS = 100_000
#: The external modem's rate rule: the hf_arq default staircase (+1 dB after a
#: transmission without loss, −2 dB after one that lost more than half). It settles
#: where a third of the stop-and-wait transmissions fail, whatever the rate choice's
#: target PER (0.1); stepping per packet with up = down · target / (1 − target)
#: settles at the target for any burst size (tests/hf.rs, the staircase test) but
#: climbs back slowly after deep fades (the transition channel's 30 dB variation). The
#: paper does not give its algorithm: "per_packet" is a sensitivity (docs/studies/johnson.md).
RATE_ADAPTATION = "burst"
TARGET_PER, SNR_STEP_DOWN_DB = 0.1, 2.0
SNR_STEP_UP_DB = SNR_STEP_DOWN_DB * TARGET_PER / (1 - TARGET_PER)
#: The external modem (MIL-STD-188-110B, 75–9600 bit/s: the paper's "data rates of 75
#: through 9600 bps", the serial tone and the Appendix C waveforms): a rate ladder whose
#: required SNR rises strictly with the rate (the standard's figures on the paper's
#: channel, 300 and 150 bit/s by their repetition of 600's coded bits), every anchor
#: 6.6 dB higher — the smallest shift for which "300 bps results in a packet error rate
#: of over 50%"; "150 bps is nearly error-free" bounds it from above (150 bit/s under
#: 5 % up to 6.7 dB). tools/hf_modem_tables.py, docs/models/hf.md ("Calibrated 110B").
#: The standard's figures themselves (``STANDARD_MODEM``) are the sensitivity
#: ``modem_standard``: they lose 2 % of 300 bit/s packets at 5 dB.
EXTERNAL_MODEM = "mil-std-188-110b-johnson"
STANDARD_MODEM = "mil-std-188-110b-75-9600"
#: A further move of the external modem's table along the SNR axis (dB, the hf_arq and
#: lane key ``modem_offset_db``): 0 is the calibration's lower bound (6.6 dB); the 5 dB
#: sentence allows up to +0.9 (150 bit/s still loses under 10 % at 7.5 dB).
EXTERNAL_MODEM_OFFSET_DB = 0.0
QUICK_REPLICATIONS = 3
#: Fixed replications when a pass is asked for without the sequential rule (tests, the
#: tools' one-cell runs); the full pass stops each cell at FULL_PRECISION instead.
FULL_REPLICATIONS = 50
#: The full pass: replications are added to a cell (after MIN_REPLICATIONS) until the 95 %
#: CI of its response — the message throughput, or the long-message throughput of Figure 3
#: — is within ±2.5 % of its mean (the sequential rule's γ/(1+γ) form), or MAX_REPLICATIONS
#: is reached. The noisiest cells (the external modem's in the transition channel) need
#: ~800; the cap leaves room above that and bounds the pass's CPU
#: (docs/studies/johnson.md, "Precision").
FULL_PRECISION = 0.025
#: The sensitivity rows' own target in the full pass: they only ask whether a claim's
#: verdict changes under another reading (claims.md's last column), and at ±2.5 % they were
#: 59 % of the pass's replications (docs/studies/johnson.md, "Seventh reading", item 3).
SENSITIVITY_PRECISION = 0.10
MIN_REPLICATIONS = 10
MAX_REPLICATIONS = 2000

# Inputs the paper does not state; the study's value, read by ``scenarios.tables`` at
# each call (the robustness analysis sets them here: targets "param:<NAME>").
#: TCP: the paper names TCP without its settings. RFC 1122's default MSS (each segment
#: 3 packets of 5066's 200 octets, 2.3 of HDL's 233).
MSS_OCTETS = 536
#: RFC 6298 timers (initial and minimum RTO 1 s, SRTT + 4 RTTVAR); "rfc793": 2 SRTT.
RTO_RULE = "rfc6298"
INITIAL_RTO_S = 1.0
MIN_RTO_S = 1.0
#: RFC 1122 §4.2.3.2 delayed ACK (BSD 0.2 s) and the 1988 BSD initial window.
DELAYED_ACK_S = 0.2
INITIAL_WINDOW_SEGMENTS = 1
#: Radio + ARQ turnaround, and the external modem's interleaver delay on top of it.
TURNAROUND_S = 0.5
INTERLEAVER_DELAY_S = 0.6
#: One-way propagation delay (s) of the radio (the scenarios' ``delay_s``).
PROPAGATION_S = 0.01
#: How long a station waits for an answer before it may send again, counted from the
#: earliest instant the answer can start: the end of our transmission + the peer's
#: turnaround + 2 t_p (the hf_arq ``response_timeout_s`` is that sum plus this wait,
#: ``scenarios.response_timeout_s``). A STANAG 5066 station learns from the EOT field when
#: the peer's transmission ends and the peer answers one turnaround later; a timer that
#: expires before the answer can start preempts every answer (the sender keys up again,
#: the peer never gets the channel: the robustness pass's stalled design points, where
#: a 6.6 s external turnaround exceeded a 4.67 s timeout). Tied so, no combination of
#: turnaround and timeout stalls. The external modem's wait: 3.88 s, the crate's 5 s
#: at the study's 1.1 s turnaround (its cells unchanged); at least 3.0 s, the longest
#: first frame of an answer (an ACK at 75 bit/s: 0.6 s preamble + four 0.6 s blocks) —
#: the model sees an answer when its first frame has arrived, so a shorter wait declares
#: arriving answers lost and steps the rate down on them.
RESPONSE_WAIT_S = 3.88
#: "Precise frame timing", one half of the paper's integrated-modem factor: "Precise
#: synchronization of the transmission cycle permits use of a very short sync preamble on
#: each transmission" and "This sync preamble can be a large portion of the link
#: turnaround time". The model carries it as each modem's own preamble (141B BW2 0.64 s
#: and BW1's fixed 1.31 s, both in the 141B burst lengths; 110B 0.6 s per transmission)
#: and the turnaround (0.5 s integrated, 0.5 + 0.6 s external). SYNC_ACQUISITION_S is a
#: further, SNR-independent acquisition per external turnaround. 0: the paper bounds a
#: fixed per-turnaround cost by its high-SNR results — "at high SNR both modems transfer
#: data quickly and efficiently, so message latency is strongly dependent on protocol
#: overhead" and the integrated modem "had negligible effect ... at high SNR" (Table 4,
#: 0 %), where turnarounds dominate; its low-SNR sentence ("precise handshake timing
#: reduces protocol breakdowns") is the response wait below (docs/studies/johnson.md,
#: "Seventh reading", item 1).
SYNC_ACQUISITION_S = 0.0
#: With precise timing the integrated ARQ knows when an answer must start, so it knows
#: an answer is missing as soon as it is due: "Both the precision timing of the
#: integrated modem and the processing gain of code-combining contribute to reducing
#: message latency in this challenging channel" (low SNR), "In low-SNR channels, precise
#: handshake timing reduces protocol breakdowns". The model sees an answer when its first
#: frame has arrived; the longest first frame of an integrated answer is a BW1 burst
#: (1.30667 s: the ACK, HDL-1d's control packet), so the wait is 1.31 s beyond the
#: answer's earliest start (1.83 s after our transmission, against the external
#: modem's 5 s).
INTEGRATED_RESPONSE_WAIT_S = 1.31
#: The external-modem stop-and-wait protocols' acknowledgement (every transmission
#: without data): "data" sends it at the current data rate, as a 5066 ACK-ONLY D_PDU
#: would go; "lowest" at the modem's lowest rate, 75 bit/s (hf_arq ``ack_rate``). The
#: paper: "Since the acknowledgement carries only a single bit of information, it can be
#: encoded very robustly ... without significantly lengthening the ARQ cycle time"; it
#: does not say whether its 5066-1s did.
STOP_AND_WAIT_ACK_RATE = "data"
#: 5066's D_PDU data segment (the standard allows up to 1023 octets).
SEGMENT_OCTETS_5066 = 200
#: The transition channel's "30 dB amplitude lognormal variation", read as the σ of the
#: mid-term lognormal — the same word the paper uses for the stable channels' "4 dB
#: amplitude", which the model reads as σ = 4 dB (docs/studies/johnson.md, "σ reading").
TRANSITION_SIGMA_DB = 30.0
#: The stable channels' "4 dB amplitude of the 'mid-term' lognormal variation", as σ.
STABLE_SIGMA_DB = 4.0
#: The two directions of the radio: each fades on its own mid-term process (False, the
#: first two readings) or both sample one process, the medium's ``reciprocal = true``
#: (a single-frequency skywave link's directions ride the same paths; the paper has one
#: channel and one SNR per case and says nothing of the return direction).
RECIPROCAL_CHANNEL = False

# Inputs of the third reading (docs/studies/johnson.md, "Third reading, part B"): each
# was a crate default or a literal in scenarios.py; the values are unchanged.
#: The integrated modem's table. The 141B table's first BW2 copy is uncoded 8-PSK on the
#: 110B uncoded-4800 anchor (BER 1e-3 at 27 dB, a minimum requirement of another
#: waveform): at 25 dB it loses 99 % of packets, so every packet is sent twice — against
#: the paper's "at high SNR both modems transfer data quickly and efficiently" (its log
#: files). The study's reading puts copy 1 on the copy-2 anchor (as good as two copies
#: combined); the standard's anchor is the sensitivity ``first_copy_uncoded``
#: (docs/studies/johnson.md, "Third reading, part B").
STANDARD_INTEGRATED_MODEM = "mil-std-188-141b-appc"
FIRST_COPY_CODED_MODEM = "mil-std-188-141b-appc-first-copy-coded"
INTEGRATED_MODEM = FIRST_COPY_CODED_MODEM
#: The integrated modem's table moved along the SNR axis (dB, ``modem_offset_db``): its
#: anchors are MIL-STD-188-110B required performance (141B App. C gives no BER for a BW2
#: copy), not measurements of the paper's modem, so a modem a few dB better (negative)
#: is as plausible as the requirement itself.
INTEGRATED_MODEM_OFFSET_DB = 0.0
#: The external modem's burst staircase: up this much after a clean transmission (the
#: down step is SNR_STEP_DOWN_DB). Up 1 / down 2 settles where a third of transmissions
#: step down, whatever the target PER; the paper gives no algorithm.
BURST_STEP_UP_DB = 1.0
#: TCP: receive window (4.2BSD's 4096-octet socket buffer; at least 4 MSS), flavour,
#: and the RTO's ceiling (RFC 6298 allows any maximum of at least 60 s).
RECEIVE_WINDOW_OCTETS = 4096
TCP_FLAVOUR = "reno"
MAX_RTO_S = 60.0
#: RFC 9040 §4 / RFC 2140 per-path RTT cache: each session's new connection starts from
#: the previous one's SRTT and RTTVAR (4.4BSD route metrics) instead of the initial RTO.
RTT_CACHE = False
#: Selective repeat: data packets per transmission at most (a BW2 burst's largest n,
#: 24; 5066 sets no such number) and a transmission's data part at most (s).
MAX_PACKETS = 24
MAX_TRANSMISSION_S = 120.0
#: HDL's BW2 fill slots (a transmission of k packets is padded to 3, 6, 12 or 24): the
#: standard's TxFrame construction (MIL-STD-188-141B App. C; STANAG 4538 Annex C, its NATO
#: twin) completes a frame that the datagram does not fill by reinserting data packets,
#: so the slots carry further copies of the burst's packets, which code combining uses
#: (hf_arq ``fill_slots = "repeat"``). "repeat" refills retransmissions' slots too, which
#: a later patent (US 11,552,747) claims as an enhancement, and gives every fill copy a
#: new FEC set: an upper bound. "repeat_first_only" (first sends only) and "empty" (the
#: first readings: the slots carry nothing) are the sensitivities (docs/studies/johnson.md,
#: "Fifth reading").
BW2_FILL = "repeat"

UNCERTAIN_INPUTS: tuple[UncertainInput, ...] = (
    UncertainInput("tcp_mss", "param:MSS_OCTETS", MSS_OCTETS, "unstated in the paper; RFC 1122 default 536, 1460 on an Ethernet path",
                   levels=(536, 1460)),
    UncertainInput("tcp_rto_rule", "param:RTO_RULE", RTO_RULE, "unstated; RFC 6298 (SRTT + 4 RTTVAR) or RFC 793 / 4.2BSD (2 SRTT)",
                   levels=("rfc6298", "rfc793")),
    UncertainInput("tcp_initial_rto_s", "param:INITIAL_RTO_S", INITIAL_RTO_S, "unstated; RFC 6298 1 s, RFC 2988 (the paper's era) 3 s",
                   low=1.0, high=3.0),
    UncertainInput("tcp_min_rto_s", "param:MIN_RTO_S", MIN_RTO_S, "unstated; RFC 6298 1 s, BSD stacks 0.2-0.5 s, up to the HF ARQ cycle (~5 s)",
                   low=0.2, high=5.0, log=True),
    UncertainInput("tcp_delayed_ack_s", "param:DELAYED_ACK_S", DELAYED_ACK_S, "unstated; RFC 1122 allows up to 0.5 s, BSD 0.2 s, 0 = no delay",
                   low=0.0, high=0.5),
    UncertainInput("tcp_initial_window", "param:INITIAL_WINDOW_SEGMENTS", INITIAL_WINDOW_SEGMENTS, "unstated; 1 (1988 BSD) to 4 (RFC 3390)",
                   levels=(1, 2, 4)),
    UncertainInput("turnaround_s", "param:TURNAROUND_S", TURNAROUND_S, "unstated; radio + ARQ turnaround of 141B-era HF radios, 0.25-1 s",
                   low=0.25, high=1.0),
    UncertainInput("interleaver_delay_s", "param:INTERLEAVER_DELAY_S", INTERLEAVER_DELAY_S,
                   "unstated; 110B short interleaver 0.6 s, long 4.8 s (an ARQ modem runs the short one)", low=0.0, high=4.8),
    UncertainInput("sync_acquisition_s", "param:SYNC_ACQUISITION_S", SYNC_ACQUISITION_S,
                   "unstated ('precise frame timing ... permits use of a very short sync preamble'); an external modem's extra "
                   "acquisition per turnaround, 0 (the paper's high-SNR results: the integrated modem 'had negligible effect') "
                   "to two 110B short-interleave preambles", low=0.0, high=1.2),
    UncertainInput("integrated_response_wait_s", "param:INTEGRATED_RESPONSE_WAIT_S", INTEGRATED_RESPONSE_WAIT_S,
                   "unstated; with precise timing the integrated ARQ knows when the answer is due: one BW1 burst (1.31 s) "
                   "beyond its earliest start, up to the external modem's 5 s in all (4.48 s beyond it)", low=1.31, high=4.48),
    UncertainInput("stop_and_wait_ack_rate", "param:STOP_AND_WAIT_ACK_RATE", STOP_AND_WAIT_ACK_RATE,
                   "'the acknowledgement ... can be encoded very robustly ... without significantly lengthening the ARQ "
                   "cycle time' (stop-and-wait); whether the paper's 5066-1s did is not said: the data rate or the "
                   "external modem's lowest, 75 bit/s", levels=("data", "lowest")),
    UncertainInput("response_wait_s", "param:RESPONSE_WAIT_S", RESPONSE_WAIT_S,
                   "unstated; the external ARQ's wait for an answer beyond its earliest start (turnaround + 2 t_p): at least "
                   "the longest first frame of an answer (3.0 s, an ACK at 75 bit/s), up to 10 s in all at the study's "
                   "turnaround", low=3.0, high=8.88),
    UncertainInput("segment_octets_5066", "param:SEGMENT_OCTETS_5066", SEGMENT_OCTETS_5066, "unstated; STANAG 5066 D_PDU data 1-1023 octets",
                   levels=(200, 512, 1023)),
    UncertainInput("target_per", "param:TARGET_PER", TARGET_PER,
                   "unstated; the external modem's rate choice target. 'tends to switch between these two rates' (300 and "
                   "150 bit/s at 5 dB, where 300 loses over half) needs a target above 300's PER there: at 0.6 the model "
                   "switches (150: 64 %, 300: 36 % of packets), at 0.1 it never uses 300", low=0.01, high=0.6, log=True),
    UncertainInput("rate_adaptation", "param:RATE_ADAPTATION", RATE_ADAPTATION,
                   "the paper gives no algorithm ('tends to switch between' 300 and 150 bit/s)", levels=("burst", "per_packet")),
    UncertainInput("external_modem", "param:EXTERNAL_MODEM", EXTERNAL_MODEM,
                   "measured commercial modems not available; the paper's 5 dB statement (ladder +6.6 dB) or the standard's figures",
                   levels=(EXTERNAL_MODEM, STANDARD_MODEM)),
    UncertainInput("external_modem_offset_db", "param:EXTERNAL_MODEM_OFFSET_DB", EXTERNAL_MODEM_OFFSET_DB,
                   "the calibrated table's shift beyond its 6.6 dB: 'At 5 dB SNR, 300 bps results in a packet error rate "
                   "of over 50%' bounds it below (0), 'while 150 bps is nearly error-free' above (+0.9 dB: 150 bit/s under "
                   "10 % of 1728-bit packets)", low=0.0, high=0.9),
    UncertainInput("transition_sigma_db", "param:TRANSITION_SIGMA_DB", TRANSITION_SIGMA_DB,
                   "'30 dB amplitude lognormal variation': σ (as the stable channels' 4 dB) or half the peak-to-peak swing",
                   levels=(15.0, 30.0)),
    UncertainInput("reciprocal_channel", "param:RECIPROCAL_CHANNEL", RECIPROCAL_CHANNEL,
                   "'a multipath channel with independent Rayleigh fading of two equal-power paths ... three instances of "
                   "this channel': 'independent' is said of the paths; one channel per case reads as both directions "
                   "sharing one fading process (reciprocal), the model's default gives each direction its own",
                   levels=(False, True)),
    UncertainInput("stable_sigma_db", "param:STABLE_SIGMA_DB", STABLE_SIGMA_DB,
                   "'4 dB amplitude of the mid-term lognormal variation' read as σ; as a half swing, σ = 2 dB", low=2.0, high=4.0),
    UncertainInput("integrated_first_copy", "param:INTEGRATED_MODEM", INTEGRATED_MODEM,
                   "141B App. C gives no BER for one BW2 copy: 'at high SNR both modems transfer data quickly and "
                   "efficiently' (copy 1 as good as two) or the 110B uncoded-4800 anchor (BER 1e-3 at 27 dB)",
                   levels=(FIRST_COPY_CODED_MODEM, STANDARD_INTEGRATED_MODEM)),
    UncertainInput("integrated_modem_offset_db", "param:INTEGRATED_MODEM_OFFSET_DB", INTEGRATED_MODEM_OFFSET_DB,
                   "the table's anchors are MIL-STD-188-110B required performance (141B App. C gives no BER for a "
                   "BW2 copy), not the paper's modem: a modem up to 3 dB better than the table, or 1 dB worse",
                   low=-3.0, high=1.0),
    UncertainInput("snr_step_up_db", "param:BURST_STEP_UP_DB", BURST_STEP_UP_DB,
                   "unstated rate algorithm; a staircase up step of 0.1 dB (slow climb, settles near the target PER) to 1 dB",
                   low=0.1, high=1.0, log=True),
    UncertainInput("snr_step_down_db", "param:SNR_STEP_DOWN_DB", SNR_STEP_DOWN_DB,
                   "unstated rate algorithm; a staircase down step of 1-3 dB (one 110B rate step is ~3 dB)", low=1.0, high=3.0),
    UncertainInput("tcp_receive_window_octets", "param:RECEIVE_WINDOW_OCTETS", RECEIVE_WINDOW_OCTETS,
                   "unstated; 4.2BSD socket buffer 4096, 4.3BSD-Reno/4.4BSD 8192-16384 (at least 4 MSS)", levels=(4096, 8192, 16384)),
    UncertainInput("tcp_flavour", "param:TCP_FLAVOUR", TCP_FLAVOUR, "unstated; Reno (1990s stacks), NewReno (RFC 6582), 4.2BSD (no fast retransmit)",
                   levels=("reno", "newreno", "bsd42")),
    UncertainInput("tcp_max_rto_s", "param:MAX_RTO_S", MAX_RTO_S, "unstated; RFC 6298 'at least 60 s', BSD 64 s, Linux 120 s",
                   low=60.0, high=120.0),
    UncertainInput("max_packets", "param:MAX_PACKETS", MAX_PACKETS,
                   "unstated; 141B BW2 carries at most 24 packets a burst (48: one unpadded burst, beyond the standard); "
                   "5066 has no such limit (window 128)", levels=(12, 24, 48)),
    UncertainInput("max_transmission_s", "param:MAX_TRANSMISSION_S", MAX_TRANSMISSION_S,
                   "unstated; a transmission's data part at most 30 s to 127.5 s (5066's longest transmission interval)",
                   low=30.0, high=127.5),
    UncertainInput("bw2_fill_slots", "param:BW2_FILL", BW2_FILL,
                   "HDL bursts padded to 3/6/12/24 slots: the standard's TxFrame construction reinserts data packets "
                   "into a frame the datagram does not fill (STANAG 4538 Annex C as quoted publicly; whether a "
                   "retransmission's free positions are refilled so is not established: 'repeat' is an upper bound, "
                   "US 11,552,747 claims refilling retransmissions as an enhancement), first sends only, or the slots "
                   "carry nothing", levels=("repeat", "repeat_first_only", "empty")),
    UncertainInput("tcp_rtt_cache", "param:RTT_CACHE", RTT_CACHE,
                   "unstated; a new connection from RFC 6298's initial RTO, or from the previous connection's SRTT/RTTVAR "
                   "(RFC 2140, 1997; 4.4BSD route metrics)", levels=(False, True)),
)
