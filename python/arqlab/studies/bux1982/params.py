"""Bux, Kümmerle & Truong (1982): the published parameters, the run settings of the
reproduction, plot conventions, and the assumptions made where the paper is silent.

Every value cites the section or figure legend it comes from; ``A_*`` are the
:class:`~arqlab.studies.spec.Assumption` s drawn under each figure.
"""

from __future__ import annotations

from ..spec import Assumption, UncertainInput

NAME = "bux1982"
TITLE = "Bux, Kümmerle & Truong (1982), Data Link-Control Performance: HDLC NRM vs ABM"
CITATION = (
    "W. Bux, K. Kümmerle and H.L. Truong, \"Data Link-Control Performance: Results Comparing HDLC "
    "Operational Modes\", Computer Networks 6 (1982) 37–51"
)
#: Heads every scenario file the reproduction writes (ASCII).
SOURCE = "Bux, Kuemmerle & Truong (1982)"
#: Heads the printed claims that draw on several figures.
STUDY_CLAIMS_HEADING = "Conclusions and appendix A2"

# ----------------------------------------------------------------------------- constants

T_P_TERRESTRIAL = 0.050  # s, Section 3 ("processing plus propagation delay of 50 msec")
T_P_SATELLITE = 0.350  # s, Section 3
V_LOW, V_HIGH = 4800.0, 48000.0  # bit/s, Section 3
P_BIT_DEFAULT = 1e-5  # Sections 3.1.3 (Fig. 6: "as opposed to 10^-5 in the previous examples"), 3.2
P_BIT_SATELLITE = 1e-7  # Section 3.1.3, Fig. 6
L_FIG7 = 5000  # bits, Fig. 7/8 legend
L_FIG9 = 800  # bits, Fig. 9 legend
Y_U_FIG10 = 0.5  # useful load, Section 3.2 (Fig. 10)
BLOCK_ERRORS_FIG10 = (0.0, 1e-2)  # I-frame block-error probabilities, Section 3.2 (Fig. 10)

#: The paper's words, one threshold each, fixed from the words before any run (issue 14):
#: "same", "equal", "almost equal", "equivalent", "no difference" → within TOL_APPROX;
#: "comparable", "roughly", "similar", "almost totally" → within TOL_ROUGH;
#: "significant(ly)", "differs significantly", "considerably", "degradation" → beyond SIGNIFICANT;
#: "dramatic", "drastic(ally)" → beyond DRAMATIC; "no collapse" → not more than DRAMATIC below;
#: "much stronger" → more than twice; "equal or superior" → ≥ with TOL_GE slack.
#: "can"/"may" make a claim existential (some point), a plain sentence universal.
TOL_APPROX = 0.05
TOL_ROUGH = 0.10
TOL_GE = 0.02
SIGNIFICANT = 0.10
DRAMATIC = 0.25
TOL_CLOSED_FORM = 0.05
TOL_ORDER_TP = 0.30  # "approximately equal to t_p"
#: "a wide range of longer message lengths" (Fig. 4): from the optimum to at least this
#: multiple of it, a third of the 100–20000 bit log axis.
WIDE_RANGE_FACTOR = 5.0
#: "apart from very high loads" (Fig. 7): the loads above this are the very high ones —
#: the top two of the 0.1–0.8 grid, where the line utilization exceeds 0.7.
VERY_HIGH_LOAD = 0.6

#: The study's readings of what the paper leaves open (issue 14; docs/studies/bux1982.md,
#: "Model readings"): where the NRM primary's P rides, and ABM/ARM timer recovery.
NRM_POLL = "supervisory"
TIMER_RECOVERY = "lapb"
#: T1 as a multiple of the study's rule (theory.t1_rule); variants and the robustness pass change it.
T1_FACTOR = 1.0

#: Run lengths: I-frames per replication (saturated) or messages per replication (Poisson).
FRAMES_QUICK, FRAMES_FULL = 20000, 40000
MESSAGES_QUICK, MESSAGES_FULL = 10000, 40000
QUICK_REPLICATIONS = 5
FULL_PRECISION = 0.025
FULL_MIN_REPLICATIONS = 10
FULL_MAX_REPLICATIONS = 2000

LENGTHS = (100, 200, 500, 1000, 2000, 3000, 5000, 10000, 20000)
LENGTHS_QUICK = (200, 500, 1000, 2000, 3000, 5000, 10000, 20000)
LOADS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
LOADS_QUICK = (0.1, 0.3, 0.5, 0.7)
LOADS_800 = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
LOADS_800_QUICK = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
TP_RATIOS = (0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
TP_RATIOS_QUICK = (0.0, 0.5, 1.0, 2.0, 3.0, 4.0)

# Paper's line styles: NRM P→S solid, NRM S→P dashed, ABM dash-dot; ARM (not in the paper) dotted.
SOLID, DASHED, DASHDOT = "-", "--", "-."


# ----------------------------------------------------------------------------- curve colours

COLORS = {"m8": "black", "m128": "tab:red", "4k8": "tab:blue", "48k": "black", "p0": "black", "p1e5": "tab:red",
          "pb0": "black", "pb1e2": "tab:red"}


# ----------------------------------------------------------------------------- assumptions

A_T1 = Assumption(
    "T1 (timeout)", "1.25 × the longest legitimate acknowledgement delay of the mode's timer",
    "not stated; ABM/ARM: a REJ recovery from the timer's last restart, 4·T_I + 4·t_p + R_rej + R, less "
    "2·t_p + T_S when frames go back to back; NRM (Annex B timer): 2·t_p + R; R = T_S from an idle peer, "
    "2·T_I(peer) from a sending one, R_rej = T_I(peer) + T_S (theory.ack_delay_bound); sensitivities t1x0.5, "
    "t1x2, t1prev",
)
A_READINGS = Assumption(
    "NRM poll, ABM/ARM timer recovery", "P on an RR/REJ command ahead of the I frames; LAPB timer recovery",
    "A1.2 'poll ... as often as possible ... at the earliest point in time'; A1.3 and the balanced-class standard "
    "(X.25 LAPB timer recovery); the text does not settle the poll: poll_asap (P on the next command) is a "
    "co-equal reading, drawn dashed and with its own claim columns; sensitivity tr_continue",
)
A_PBIT_1WAY = Assumption(
    "p_bit", "1e-5",
    "not legible in the extracted text; Section 3.1.3 says Fig. 6 uses 1e-7 'as opposed to 10^-5 in the previous "
    "examples' (Figs. 2–5); a right-of-optimum region (optimum ≈ √(h/p) ≈ 2000 bit) also needs p ≈ 1e-5",
)
A_REJ = Assumption("recovery options", "REJ, one outstanding, no SREJ; unlimited buffers",
                   "Section 2 and Appendix A1 (REJ from the optional functions; buffers unlimited)")
A_FIG3 = Assumption("v, t_p", "48 kbit/s, 50 ms",
                    "Fig. 3 legend not legible; the text motivates modulus 128 for 'higher-speed terrestrial links' "
                    "after Fig. 2, i.e. the 48 kbit/s terrestrial case")
A_FIG10_L = Assumption(
    "l, v (Fig. 10)", "800 bit constant, 48 kbit/s (T_I = 17.67 ms); x sets t_p = x·T_I",
    "'obtained for particular values of l and v' (unstated); the Fig. 9 configuration, so Fig. 10 at t_p/T_I = 2.83 "
    "and Y_u = 0.5 is the Fig. 9 link",
)
A_FIG10_PB = Assumption("p_bit (Fig. 10)", "from block-error 0 or 1e-2: p = 1 − (1 − P_B)^(1/(l+h))",
                        "the text gives I-frame block-error probabilities 0 and 10^-2")
A_FIG11 = Assumption(
    "l, p_bit (Fig. 11)", "800 bit constant, p_bit = 0, 48 kbit/s, t_p = 50 ms, modulus 8",
    "legend not legible; the text compares Fig. 11 with Fig. 9 direction by direction, so the Fig. 9 link "
    "(error-free case) is the most plausible",
)
A_LOADS = Assumption("traffic", "Poisson arrivals, the same useful load on both stations",
                     "Section 3.2: 'symmetrical traffic conditions, i.e., the traffic offered to both channels is equal'")
A_X = Assumption("x grid", "message lengths 100…20000 bit (log axis)",
                 "axis range not legible; covers the window-limited branch, the optimum near 2000 bit and the "
                 "'greater than 3000 bits' region of Figs. 3–4")


# ------------------------------------------------------- robustness (unstated inputs)
#: What the paper leaves unstated, with the plausible range the robustness pass explores
#: (``arqlab reproduce bux1982 --robustness``; docs/studies/bux1982.md, "Robustness").
UNCERTAIN_INPUTS = (
    UncertainInput(
        "t1_factor", "param:T1_FACTOR", T1_FACTOR,
        "T1 is not stated; the rule is 1.25 x the longest legitimate acknowledgement delay, so 0.8 x the rule is "
        "the bound itself (no premature timeout) and 2 x a generously set timer.",
        low=0.8, high=2.0),
    UncertainInput(
        "nrm_poll", "param:NRM_POLL", NRM_POLL,
        "A1.2 says the primary polls 'as often as possible ... at the earliest point in time' but not on which "
        "frame the P bit rides: an RR/REJ command ahead of the I frames (the study's reading) or the next "
        "command, often a long I frame.",
        levels=("supervisory", "asap")),
    UncertainInput(
        "timer_recovery", "param:TIMER_RECOVERY", TIMER_RECOVERY,
        "A1.3 does not say whether ABM/ARM stations send new I frames while waiting for the F = 1 response to a "
        "timeout's poll: LAPB timer recovery (none; the study's reading) or continue.",
        levels=("lapb", "continue")),
)
