"""Johnson: the run settings of the reproduction and the model's mapping of the paper's
protocols, channels and workloads onto arqlab scenario keys (the published numbers are
in :mod:`.published`)."""

from __future__ import annotations

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
QUICK_REPLICATIONS = 3
FULL_REPLICATIONS = 50
