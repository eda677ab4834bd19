"""The Bux 1982 study's T1 rule at its bound (issue 28): the ABM/ARM bound is the longest
REJ recovery counted from the timer's last restart (Appendix A1.3: "restarted when a frame
is received which acknowledges a not-yet acknowledged I-frame"), with the REJ charged as
the S frame it is."""

from __future__ import annotations

import copy
import importlib
from typing import Any

import pytest

from arqlab.studies import bux1982 as bux
from arqlab.studies.bux1982.scenarios import study_t1

V = 48000.0
T_S = 48 / V


def _one_way_abm(length: int, delay: float, *, saturated: bool = True) -> dict[str, Any]:
    scn = bux.base_scenario(rate=V, delay=delay, p_bit=0.0, mode="abm", length=length, saturated=saturated)
    scn["traffic"]["b"] = {"kind": "none"}
    return scn


def test_t1_rule_counts_from_the_previous_acknowledgement_when_frames_go_back_to_back() -> None:
    # 48 kbit/s, t_p = 50 ms, l = 5000 bit: W·T_I = 0.74 s outlasts T_I + 2·t_p + T_S, so
    # the timer last restarts on the acknowledgement of the frame before the lost one,
    # 2·t_p + T_S after the lost frame's start: bound 4·T_I + 2·t_p + T_S.
    t_i = 5048 / V
    assert study_t1(_one_way_abm(5000, 0.05)) == round(1.25 * (4 * t_i + 2 * 0.05 + T_S), 4)


def test_t1_rule_counts_from_the_lost_frame_where_the_window_closes_or_traffic_is_poisson() -> None:
    # Satellite link, l = 1000 bit: 7·T_I = 0.15 s < T_I + 2·t_p: the window closes, the
    # frame may leave on the acknowledgement that opened it (a restart at its start).
    t_i = 1048 / V
    assert study_t1(_one_way_abm(1000, 0.35)) == round(1.25 * (4 * t_i + 4 * 0.35 + 2 * T_S), 4)
    # Poisson arrivals: a frame may start just after a restart by an earlier frame's ack.
    t_i = 5048 / V
    assert study_t1(_one_way_abm(5000, 0.05, saturated=False)) == round(1.25 * (4 * t_i + 4 * 0.05 + 2 * T_S), 4)


def test_rej_from_a_sending_peer_costs_its_frame_in_progress_and_an_s_frame() -> None:
    # Two-way: the REJ waits for the peer's frame in progress (T_I(peer)) and takes T_S;
    # the retransmission's acknowledgement rides the peer's next I frame (2·T_I(peer)).
    t_i, t_peer, t_p = 0.1, 0.2, 0.05
    assert bux.ack_delay_bound("abm", t_i, t_p, T_S, t_peer) == pytest.approx(
        4 * t_i + 4 * t_p + (t_peer + T_S) + 2 * t_peer)
    assert bux.ack_delay_bound("abm", t_i, t_p, T_S, t_peer, back_to_back=True) == pytest.approx(
        4 * t_i + 2 * t_p + t_peer + 2 * t_peer)
    # NRM's Annex B timer is unchanged: 2·t_p + R.
    assert bux.ack_delay_bound("nrm", t_i, t_p, T_S, t_peer, back_to_back=True) == pytest.approx(2 * t_p + 2 * t_peer)


def _core() -> Any:
    try:
        importlib.import_module("arqlab._core")
    except ImportError:
        return None
    return importlib.import_module("arqlab")


# The worst REJ recovery, built exactly: T_I = 0.1 s (4800 bits at 48 kbit/s) and
# 2·t_p + T_S = T_I + 2 ms, so the REJ reaches the sender 2 ms after a frame began and the
# retransmission waits a whole frame. Frame 10 (sent at t = 1.0 s) is lost; nothing else.
T_P_WORST = (0.1 + 0.002 - T_S) / 2


def _worst_case(t1: float) -> dict[str, Any]:
    scn = copy.deepcopy(_one_way_abm(4752, T_P_WORST))
    scn["run"] = {"duration_s": 3.0, "warmup_s": 0.0, "replications": 1}
    scn["link"]["a_to_b"] = {"error_model": "schedule", "times_s": [0.0, 0.95, 1.05], "bit_error_rates": [0.0, 0.5, 0.0]}
    scn["protocol"]["t1_s"] = t1
    return scn


@pytest.mark.skipif(_core() is None, reason="needs the compiled core (arqlab.simulate)")
def test_t1_at_the_bound_survives_the_worst_rej_recovery_and_just_below_it_does_not() -> None:
    bound = bux.ack_delay_bound("abm", 0.1, T_P_WORST, T_S, None, back_to_back=True)
    assert bound == pytest.approx(0.502)  # the recovery itself takes 0.500 s from the restart
    arq = _core()

    def run(t1: float) -> dict[str, float]:
        m = arq.simulate(_worst_case(t1)).metrics["a_to_b"]
        return {k: float(m[k]["mean"]) for k in ("retransmitted_reject", "timeouts", "frames_in_error")}

    at = run(bound)
    assert at["frames_in_error"] == 1.0 and at["retransmitted_reject"] >= 1.0
    assert at["timeouts"] == 0.0, at
    below = run(bound - 0.004)
    assert below["frames_in_error"] == 1.0
    assert below["timeouts"] >= 1.0, below  # the bound is tight to within 4 ms
