"""`theory.py` against textbook numbers and limits. The validation tests take their
expectations from these closed forms, so the forms themselves are checked here against
numbers computed by hand from the cited sources, and against each other in the limits
where they must agree.

Sources: Tanenbaum & Wetherall, *Computer Networks*, 5th ed., §3.4 (the 50 kbit/s
satellite example: 1000-bit frames, 250 ms one way, utilisation w/(1 + 2BD));
Stallings, *Data and Computer Communications*, Appendix 7A, and Bertsekas & Gallager,
*Data Networks*, §2.4 (stop-and-wait (1−P)/(1+2a), go-back-N (1−P)/(1+2aP) and
W(1−P)/((1+2a)(1−P+WP)), selective repeat 1−P and W(1−P)/(1+2a)); Kleinrock,
*Queueing Systems* Vol. 1, §5.7 (Pollaczek–Khinchine); Chu (1974) for the optimal length.
"""

from __future__ import annotations

import math

import pytest

from arqlab import theory


def params(**kw: float) -> theory.Params:
    base = dict(l=1000.0, h=0.0, ack=0.0, v=1000.0, tp=2.0, p=0.0)
    base.update(kw)
    return theory.Params(**base)  # type: ignore[arg-type]


def with_P(P: float, **kw: float) -> theory.Params:
    """A frame error probability P for 1000-bit frames: p = 1 − (1 − P)^(1/1000)."""
    return params(p=1.0 - (1.0 - P) ** (1.0 / 1000.0), **kw)


def test_tanenbaum_satellite_stop_and_wait_uses_4_percent() -> None:
    # 50 kbit/s, 500 ms round trip, 1000-bit frames: 20 ms sending, 520 ms per frame,
    # "the sender is blocked 500/520 or 96% of the time".
    x = theory.Params(l=1000.0, h=0.0, ack=0.0, v=50_000.0, tp=0.25, p=0.0)
    assert x.tf == pytest.approx(0.020)
    assert x.loop == pytest.approx(26.0)  # 1 + 2BD with BD = 12.5 frames
    assert theory.stop_and_wait(x) == pytest.approx(20 / 520)
    assert theory.stop_and_wait(x, nak=True) == pytest.approx(20 / 520)


@pytest.mark.parametrize("w,expected", [(1, 1 / 26), (13, 0.5), (25, 25 / 26), (26, 1.0), (51, 1.0)])
def test_tanenbaum_window_of_26_fills_the_satellite_link(w: int, expected: float) -> None:
    x = theory.Params(l=1000.0, h=0.0, ack=0.0, v=50_000.0, tp=0.25, p=0.0, window=w)
    assert theory.window_limit(x) == pytest.approx(expected)
    # No errors: every window protocol is at the window limit.
    assert theory.go_back_n(x) == pytest.approx(expected)
    assert theory.go_back_n(x, quantized=False) == pytest.approx(expected)
    assert theory.selective_repeat(x) == pytest.approx(expected)


# K = 1 + 2a = 5 exactly (t_f = 1 s, t_p = 2 s), P = 0.1, by hand:
#   stop-and-wait (1−P)/(1+2a) = 0.9/5 = 0.18
#   go-back-N W ≥ K: (1−P)/(1+2aP) = 0.9/1.4 = 0.642857…
#   go-back-N W = 3: W(1−P)/((1+2a)(1−P+WP)) = 2.7/(5·1.2) = 0.45
#   selective repeat W ≥ K: 0.9; W = 3: 3·0.9/5 = 0.54


@pytest.mark.parametrize(
    "kind,w,expected",
    [("go_back_n", 7, 0.9 / 1.4), ("go_back_n", 5, 0.9 / 1.4), ("go_back_n", 3, 0.45), ("go_back_n", 1, 0.9 / 5),
     ("selective_repeat", 7, 0.9), ("selective_repeat", 3, 0.54), ("selective_repeat", 1, 0.18)],
)
def test_textbook_forms_by_hand(kind: str, w: int, expected: float) -> None:
    x = with_P(0.1, window=w)
    assert x.P == pytest.approx(0.1)
    assert theory.efficiency(kind, x) == pytest.approx(expected)


def test_stop_and_wait_by_hand() -> None:
    x = with_P(0.1, timeout=4.0)
    assert theory.stop_and_wait(x, nak=True) == pytest.approx(0.18)
    # Timeout T_o = RTT: a failed cycle costs t_f + T_o = 5 s like a good one; expected
    # failures per success P/(1−P) = 1/9: 1 / (5 + 5/9) = 0.18 — the NAK form again.
    assert theory.stop_and_wait(x) == pytest.approx(0.18)
    # A longer timeout costs more: T_o = 13 s → 1 / (5 + 14/9) = 0.152542…
    assert theory.stop_and_wait(with_P(0.1, timeout=13.0)) == pytest.approx(1 / (5 + 14 / 9))
    # Errors on the acknowledgement: P_c = 1 − 0.9·0.9 = 0.19, 1 / (5 + 0.19/0.81·5).
    y = theory.Params(l=1000.0, h=0.0, ack=1000.0, v=1000.0, tp=1.5, p=x.p, p_ack=x.p, timeout=4.0)
    assert y.P_ack == pytest.approx(0.1)
    assert y.loop == pytest.approx(5.0)
    assert theory.stop_and_wait(y) == pytest.approx(1 / (5 + 0.19 / 0.81 * 5))
    assert theory.efficiency("stop_and_wait", y, nak=True) == pytest.approx(0.9 / 5)
    # Without `nak` the dispatcher gives the timeout form (the default is no NAK).
    assert theory.efficiency("stop_and_wait", y) == pytest.approx(1 / (5 + 0.19 / 0.81 * 5))


def test_overhead_and_frame_error_probability() -> None:
    # l = 952, h = 48: info 0.952; P = 1 − (1 − 1e-4)^1000 = 1 − e^(1000·ln 0.9999) = 0.0951671.
    x = theory.Params(l=952.0, h=48.0, ack=48.0, v=48_000.0, tp=0.0, p=1e-4, window=7)
    assert x.info == pytest.approx(0.952)
    assert x.P == pytest.approx(0.0951671, rel=1e-5)
    assert x.tf == pytest.approx(1000 / 48_000)
    assert x.ta == pytest.approx(48 / 48_000)
    assert x.loop == pytest.approx((1000 + 48) / 1000)
    assert theory.upper_bound(x) == pytest.approx(0.952 * (1 - 0.0951671), rel=1e-5)
    # Every protocol is below the clean-copy bound; selective repeat reaches it here (W ≥ K).
    for kind in ("stop_and_wait", "go_back_n", "selective_repeat"):
        assert theory.efficiency(kind, x) <= theory.upper_bound(x) + 1e-12
    assert theory.selective_repeat(x) == pytest.approx(theory.upper_bound(x))


def test_integer_loop_makes_quantized_and_continuous_go_back_n_agree() -> None:
    for P in (0.0, 0.01, 0.3):
        x = with_P(P, window=7)
        assert x.loop == 5.0
        assert theory.go_back_n(x) == pytest.approx(theory.go_back_n(x, quantized=False))


def test_fractional_loop_rounds_up_the_cost_of_an_error() -> None:
    # K = 4.5 (t_p = 1.75 s): an error costs ⌈K⌉ = 5 frame times, 0.9 / (1 + 4·0.1) = 0.642857
    # quantized, 0.9 / (1 + 3.5·0.1) = 0.666… continuous.
    x = with_P(0.1, tp=1.75, window=7)
    assert x.loop == pytest.approx(4.5)
    assert theory.go_back_n(x) == pytest.approx(0.9 / 1.4)
    assert theory.go_back_n(x, quantized=False) == pytest.approx(0.9 / 1.35)
    # The window-limited branch has no rounding: W = 4 < K.
    y = with_P(0.1, tp=1.75, window=4)
    assert theory.go_back_n(y) == pytest.approx(4 * 0.9 / (4.5 * (0.9 + 0.4)))
    assert theory.go_back_n(y) == theory.go_back_n(y, quantized=False)


def test_limits_in_the_error_rate() -> None:
    for kind in ("stop_and_wait", "go_back_n", "selective_repeat"):
        x = params(window=3 if kind != "stop_and_wait" else 1)
        assert theory.efficiency(kind, x) == pytest.approx(theory.window_limit(x))
        # Efficiency falls as errors grow, and goes to 0 when every frame is hit.
        last = theory.efficiency(kind, x)
        for P in (0.01, 0.1, 0.5, 0.9):
            e = theory.efficiency(kind, with_P(P, window=x.window))
            assert e < last
            last = e
        assert theory.efficiency(kind, with_P(1.0, window=x.window)) == pytest.approx(0.0, abs=1e-12)
    # W = 1: go-back-N and selective repeat are stop-and-wait with a NAK.
    for P in (0.0, 0.2):
        x = with_P(P, window=1)
        assert theory.go_back_n(x) == pytest.approx(theory.stop_and_wait(x, nak=True))
        assert theory.selective_repeat(x) == pytest.approx(theory.stop_and_wait(x, nak=True))


def test_md1_and_mg1_transfer_times() -> None:
    # Pollaczek–Khinchine: W = λE[S²]/(2(1−ρ)). Constant S = 1 s at ρ = 0.5: W = 0.5 s,
    # T = 0.5 + 1 + t_p. Exponential S: E[S²] = 2 → W = 1 s, T = 1/(μ − λ) = 2 s (M/M/1).
    assert theory.md1_transfer_time(0.5, 1.0, 0.25) == pytest.approx(1.75)
    assert theory.md1_transfer_time(0.8, 2.0, 0.0) == pytest.approx(0.8 * 2 / 0.4 + 2)
    assert theory.mg1_transfer_time(0.5, 1.0, 1.0, 0.25) == pytest.approx(theory.md1_transfer_time(0.5, 1.0, 0.25))
    assert theory.mg1_transfer_time(0.5, 1.0, 2.0, 0.0) == pytest.approx(2.0)
    assert theory.mg1_transfer_time(0.25, 2.0, 8.0, 0.1) == pytest.approx(0.25 * 8 / (2 * 0.5) + 2 + 0.1)
    assert theory.md1_transfer_time(0.0, 1.0, 0.3) == pytest.approx(1.3)
    # At ρ ≠ 1/2 (where 2(1 − ρ) ≠ 1, so multiplying by it instead of dividing shows):
    # M/M/1 with μ = 1, λ = 0.8: T = 1/(μ − λ) = 5 s.
    assert theory.mg1_transfer_time(0.8, 1.0, 2.0, 0.0) == pytest.approx(5.0)


def test_chu_optimal_length_maximises_the_clean_copy_efficiency() -> None:
    for overhead, p in ((48.0, 1e-5), (100.0, 1e-4)):
        approx = theory.chu_optimal_length(overhead, p)
        assert approx == pytest.approx(math.sqrt(overhead / p) - overhead / 2)

        def eff(d: float) -> float:
            return d / (d + overhead) * (1 - p) ** (d + overhead)

        best = max(range(1, 20 * int(approx)), key=eff)
        assert abs(best - approx) < 0.02 * best
        assert eff(approx) == pytest.approx(eff(best), rel=1e-4)


def test_params_from_a_resolved_scenario() -> None:
    sc = {
        "link": {"rate_bps": 48000.0, "delay_s": 0.05, "bit_error_rate": 1e-5},
        "protocol": {"overhead_bits": 48, "ack_bits": 32, "timeout_s": 1.5, "window": 7},
        "traffic": {"a": {"length": {"mean_bits": 1000}}},
    }
    x = theory.Params.from_scenario(sc)
    assert x == theory.Params(l=1000.0, h=48.0, ack=32.0, v=48000.0, tp=0.05, p=1e-5, p_ack=1e-5, timeout=1.5, window=7)
    assert theory.Params.from_scenario(sc, l=200).l == 200.0
    sc["link"]["a_to_b"] = {"error_model": "bit", "bit_error_rate": 1e-4}
    sc["link"]["b_to_a"] = {"error_model": "none"}
    x = theory.Params.from_scenario(sc)
    assert (x.p, x.p_ack) == (1e-4, 0.0)
    sc["link"]["a_to_b"] = {"error_model": "gilbert_elliott"}
    assert math.isnan(theory.Params.from_scenario(sc).p)
