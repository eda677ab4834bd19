"""Throughput efficiency of the textbook protocols against the closed forms
(docs/references.md#closed-forms; `arqlab.theory`), within the run's own 95% CI plus 1% of the value.

The closed forms assume what textbooks assume: error-free feedback and a receiver that
NAKs a corrupted frame at once (`nak_corrupted`), except the stop-and-wait timeout form,
which assumes silent discard and errors in both directions. Where a closed form is an
approximation (window-limited *with* errors), the test states which way it errs and
checks that, instead of widening a tolerance.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import arqlab
from arqlab import theory

BASE: dict[str, Any] = {
    "run": {"duration_s": 300.0, "warmup_s": 5.0, "replications": 5},
    "link": {"rate_bps": 48000.0, "delay_s": 0.05, "a_to_b": {"error_model": "bit", "bit_error_rate": 0.0}},
    "protocol": {"kind": "go_back_n", "overhead_bits": 48, "ack_bits": 48, "timeout_s": 2.0, "nak_corrupted": True},
    "traffic": {"a": {"kind": "saturated", "length": {"dist": "constant", "mean_bits": 1000}}},
}

WINDOWS = {"stop_and_wait": [(None, None)], "go_back_n": [(7, 8), (3, 8)], "selective_repeat": [(64, 128), (4, 8)]}


def run(kind: str, w: int | None, m: int | None, l: int, p: float, tp: float, **extra: Any) -> tuple[dict[str, float], theory.Params, dict[str, Any]]:
    ov: dict[str, Any] = {
        "protocol.kind": kind,
        "traffic.a.length.mean_bits": l,
        "link.a_to_b.bit_error_rate": p,
        "link.delay_s": tp,
        **extra,
    }
    if w is not None:
        ov.update({"protocol.window": w, "protocol.modulus": m})
    r = arqlab.simulate(BASE, overrides=ov)
    return r.metrics["a_to_b"]["throughput_efficiency"], theory.Params.from_scenario(r.scenario), r.scenario


def assert_close(m: dict[str, float], expected: float, what: str) -> None:
    tol = m["ci95_half_width"] + 0.01 * expected
    assert abs(m["mean"] - expected) <= tol, f"{what}: simulated {m['mean']:.4f} ± {m['ci95_half_width']:.4f}, closed form {expected:.4f}"


GRID = [
    (kind, w, m, l, tp)
    for kind, windows in WINDOWS.items()
    for (w, m) in windows
    for l, tp in itertools.product([300, 1000, 5000], [0.01, 0.05])
]


@pytest.mark.parametrize("kind,w,m,l,tp", GRID)
def test_error_free_efficiency_is_the_window_limit(kind: str, w: int | None, m: int | None, l: int, tp: float) -> None:
    # S = min(C, W·L/(t_f + RTT)): window-limited and not.
    eff, x, _ = run(kind, w, m, l, 0.0, tp)
    assert_close(eff, theory.window_limit(x), f"{kind} W={x.window} l={l} tp={tp}")
    assert eff["ci95_half_width"] < 1e-6, "error free and saturated: every replication is the same"


ERROR_LIMITED = [
    ("stop_and_wait", None, None),
    ("go_back_n", 7, 8),
    ("selective_repeat", 64, 128),
]


@pytest.mark.parametrize("kind,w,m", ERROR_LIMITED)
@pytest.mark.parametrize("l,p,tp", [(300, 1e-4, 0.01), (1000, 1e-5, 0.05), (1000, 1e-4, 0.01), (5000, 1e-5, 0.05), (5000, 1e-4, 0.01)])
def test_efficiency_with_errors_matches_the_closed_form(kind: str, w: int | None, m: int | None, l: int, p: float, tp: float) -> None:
    eff, x, _ = run(kind, w, m, l, p, tp)
    if kind != "stop_and_wait":
        assert x.window >= x.loop, "grid point must be in the error-limited regime"
    assert_close(eff, theory.efficiency(kind, x, nak=True), f"{kind} l={l} p={p} tp={tp}")


@pytest.mark.parametrize("l,p", [(1000, 1e-5), (1000, 1e-4), (5000, 1e-5), (5000, 1e-4)])
def test_stop_and_wait_with_timeouts_and_errors_both_ways(l: int, p: float) -> None:
    # Silent discard: a lost frame or acknowledgement costs t_f + T_o.
    eff, x, _ = run("stop_and_wait", None, None, l, p, 0.05, **{"protocol.nak_corrupted": False, "link.b_to_a": {"error_model": "bit", "bit_error_rate": p}})
    assert x.P_ack > 0
    assert_close(eff, theory.stop_and_wait(x, nak=False), f"stop-and-wait l={l} p={p}")


def test_go_back_n_window_limited_with_errors_matches_at_low_error_rates() -> None:
    eff, x, _ = run("go_back_n", 3, 8, 1000, 1e-5, 0.05)
    assert x.window < x.loop
    assert_close(eff, theory.go_back_n(x), "go-back-N W=3, window-limited")


def test_selective_repeat_window_limited_closed_form_is_an_upper_bound() -> None:
    # W(1−P)/(1+2a) ignores that a lost frame holds the window for one more loop, so the
    # simulated efficiency lies below it, by more the larger P is.
    gaps = []
    for p in (1e-5, 1e-4):
        eff, x, _ = run("selective_repeat", 4, 8, 1000, p, 0.05)
        assert x.window < x.loop
        bound = theory.selective_repeat(x)
        assert eff["mean"] - eff["ci95_half_width"] < bound
        gaps.append(bound - eff["mean"])
    assert gaps[1] > gaps[0] > 0


def test_no_protocol_beats_the_clean_copy_bound() -> None:
    # Any ARQ: η ≤ l/(l+h)·(1−p)^(l+h).
    for kind, (w, m) in [("go_back_n", (7, 8)), ("selective_repeat", (64, 128)), ("stop_and_wait", (None, None))]:
        eff, x, _ = run(kind, w, m, 2000, 1e-4, 0.01)
        assert eff["mean"] - eff["ci95_half_width"] <= theory.upper_bound(x)


def test_reference_go_back_n_scenario() -> None:
    # The foundation issue's reference scenario (HDLC-like receiver: silent discard, one
    # REJ per gap, errors both ways, T1 = 1 s) has an efficiency of about 0.885.
    # PIN, not an independent expectation: 0.885 is this simulator's own result (10 × 1000 s,
    # seed 1) — no closed form covers silent discard with errors both ways. It guards
    # against unexplained change; the independent check is the textbook bound below.
    r = arqlab.simulate("scenarios/go_back_n.toml", replications=10, overrides={"run.duration_s": 1000.0})
    eff = r.metrics["a_to_b"]["throughput_efficiency"]
    assert abs(eff["mean"] - 0.885) < 0.005 + eff["ci95_half_width"]
    # It sits below the textbook form: the gap is seen one frame late and a lost
    # retransmission waits for T1.
    x = theory.Params.from_scenario(r.scenario)
    assert eff["mean"] < theory.go_back_n(x)


def test_a_timer_shorter_than_the_recovery_loop_fires_spuriously() -> None:
    # 25600-bit frames take 0.53 s: recovering a lost frame (NAK, then the retransmission
    # and its acknowledgement) takes ≈ 2 t_f + RTT = 1.17 s from the last acknowledgement.
    # With T1 = 1 s the timer expires during the retransmission and forces a redundant
    # go-back, so efficiency falls below the closed form (which assumes no timeouts);
    # with T1 = 3 s it matches.
    short, x, _ = run("go_back_n", 7, 8, 25600, 1e-5, 0.05, **{"protocol.timeout_s": 1.0})
    long, _, _ = run("go_back_n", 7, 8, 25600, 1e-5, 0.05, **{"protocol.timeout_s": 3.0})
    expected = theory.go_back_n(x)
    assert_close(long, expected, "go-back-N l=25600, T1 = 3 s")
    assert short["mean"] + short["ci95_half_width"] < long["mean"] - long["ci95_half_width"]
