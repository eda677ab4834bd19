"""Colella's claim encodings at their boundaries, on synthetic figures: each threshold
(the full-link tolerance and its range of rates, the 5% drop, the twice-the-window band,
the 95% knee, the paper's "up to" figure within ±25%) just inside and just outside, and
the helpers (ratio and its half-width, the largest improvement in each mode)."""

from __future__ import annotations

from collections.abc import Mapping

import math
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from arqlab.studies import colella as co  # noqa: E402
from arqlab.studies.artefacts.curves import FigureData  # noqa: E402
from arqlab.studies.colella import claims as cl  # noqa: E402
from arqlab.studies.colella.params import TOL_PAPER_MAX, TWICE_BAND, WINDOW_BERS  # noqa: E402
from arqlab.studies.data import StudyData  # noqa: E402
from arqlab.studies.spec import Claim  # noqa: E402
from arqlab.studies.verdicts import Est, Verdict  # noqa: E402

#: curve -> {x: mean} or {x: (mean, half)}
Curves = Mapping[str, Mapping[float, float | tuple[float, float]]]


def fig(n: int, curves: Curves) -> FigureData:
    rows = []
    for c, pts in curves.items():
        for x, v in pts.items():
            mean, half = v if isinstance(v, tuple) else (v, 0.0)
            rows.append({"curve": c, "variant": "", "x": x, "y": mean, "y_ci95_half_width": half, "n": 5})
    return FigureData(co.figure(n), pd.DataFrame(rows))


def data(**figs: Curves) -> StudyData:
    return StudyData({int(k[1:]): fig(int(k[1:]), v) for k, v in figs.items()})


def claim(cid: str) -> Claim:
    (c,) = [c for group in (cl.fig4_claims(), cl.fig5_claims(), cl.fig6_claims(), cl.fig7_claims(), cl.fig8_claims(),
                                cl.fig9_claims(), cl.study_claims()) for c in group
            if c.id == cid]
    return c


def check(cid: str, sd: StudyData) -> Verdict:
    return claim(cid).check(sd).verdict


def test_ratio_half_width_is_the_delta_method_and_degenerate_inputs_are_nan() -> None:
    r = cl.ratio(Est(2.0, 0.2, 5), Est(4.0, 0.3, 7))
    assert (r.mean, r.n) == (0.5, 5)
    assert r.half == pytest.approx(0.5 * math.hypot(0.1, 0.075), rel=1e-12)
    neg = cl.ratio(Est(-2.0, 0.2, 5), Est(4.0, 0.3, 5))
    assert neg.half == pytest.approx(0.0625, rel=1e-12), "|r| scales the half-width"
    for a, b in ((Est(0.0, 0.1, 5), Est(1.0, 0.1, 5)), (Est(1.0, 0.1, 5), Est(0.0, 0.1, 5)),
                 (Est(float("nan"), 0.1, 5), Est(1.0, 0.1, 5)), (Est(1.0, 0.1, 5), Est(float("nan"), 0.1, 5))):
        out = cl.ratio(a, b)
        assert math.isnan(out.mean) and math.isnan(out.half) and out.n == 0


def test_max_improvement_in_each_mode_keeps_the_first_of_equal_gains() -> None:
    fd = fig(6, {"a": {1.0: 0.5, 2.0: 0.75, 3.0: 0.75, 4.0: 0.6}, "b": {1.0: 0.25, 2.0: 0.5, 3.0: 0.5, 5.0: 0.1}})
    gain, x = cl.max_improvement(fd, "a", "b", "points")
    assert (gain.mean, x) == (0.25, 1.0), "0.25 at x = 1, 2 and 3: the first"
    gain, x = cl.max_improvement(fd, "a", "b", "ratio")
    assert (gain.mean, x) == (1.0, 1.0), "0.5/0.25 − 1"
    gain, x = cl.max_improvement(fd, "b", "a", "inverse")
    assert (gain.mean, x) == (1.0, 1.0), "a/b − 1 with better = b"
    gain, x = cl.max_improvement(fd, "a", "b", "inverse")
    assert (gain.mean, x) == (pytest.approx(-1 / 3), 2.0), "b/a − 1: −0.5 at 1, −1/3 at 2 and 3: the largest, first"
    gain, x = cl.max_improvement(fig(6, {"a": {1.0: 1.0}, "b": {2.0: 1.0}}), "a", "b", "points")
    assert x is None and math.isnan(gain.mean)
    # An invalid point (b = 0 in a ratio) is skipped, not taken as the best.
    gain, x = cl.max_improvement(fig(6, {"a": {1.0: 1.0, 2.0: 0.5}, "b": {1.0: 0.0, 2.0: 0.25}}), "a", "b", "ratio")
    assert (gain.mean, x) == (1.0, 2.0)


def test_knee_is_the_first_window_reaching_exactly_the_share_of_the_best() -> None:
    fd = fig(9, {"c": {1.0: 0.5, 2.0: 0.75, 3.0: 0.96, 4.0: 1.0}})
    assert cl.knee(fd, "c") == 3.0, "0.96 ≥ 0.95"
    assert cl.knee(fd, "c", share=0.96) == 3.0, "exactly the share counts"
    assert cl.knee(fd, "c", share=0.75) == 2.0
    assert cl.knee(fd, "c", share=0.97) == 4.0
    assert cl.knee(fig(9, {"c": {1.0: 0.5, 2.0: float("nan")}}), "c") is None
    assert cl.knee(fig(9, {"d": {1.0: 0.5}}), "c") is None


def _window_curves(ratio_at: dict[float, float]) -> dict[str, dict[float, float | tuple[float, float]]]:
    """One-for-one with its knee at 2 KiB; selective's at 2·r KiB, per error rate."""
    out: dict[str, dict[float, float | tuple[float, float]]] = {}
    for b in WINDOW_BERS:
        s_knee = 2.0 * ratio_at.get(b, 2.0)
        out[f"one_for_one@{b:g}"] = {1.0: 0.5, 2.0: 1.0, 8.0: 1.0}
        out[f"selective@{b:g}"] = {1.0: 0.5, s_knee: 1.0, 8.0: 1.0}
    return out


@pytest.mark.parametrize("r,verdict", [
    (TWICE_BAND[0], Verdict.HOLDS), (TWICE_BAND[1], Verdict.HOLDS), (2.0, Verdict.HOLDS),
    (TWICE_BAND[0] - 0.25, Verdict.DOES_NOT_HOLD), (TWICE_BAND[1] + 0.25, Verdict.DOES_NOT_HOLD)])
def test_twice_the_window_band_is_closed_and_universal_over_the_error_rates(r: float, verdict: Verdict) -> None:
    sd = data(f9=_window_curves({WINDOW_BERS[1]: r}))
    per = cl.window_ratios(sd[9])
    assert per[WINDOW_BERS[1]] == (2.0, 2.0 * r, r)
    assert per[WINDOW_BERS[0]] == (2.0, 4.0, 2.0)
    assert check("fig9.selective_needs_twice_the_window", sd) is verdict


def test_twice_the_window_is_inconclusive_when_a_rate_lacks_a_curve_or_a_finite_knee() -> None:
    curves = _window_curves({})
    del curves[f"selective@{WINDOW_BERS[2]:g}"]
    assert cl.window_ratios(fig(9, curves))[WINDOW_BERS[2]] is None
    assert check("fig9.selective_needs_twice_the_window", data(f9=curves)) is Verdict.INCONCLUSIVE
    curves = _window_curves({})
    curves[f"one_for_one@{WINDOW_BERS[0]:g}"][3.0] = float("nan")
    assert cl.window_ratios(fig(9, curves))[WINDOW_BERS[0]] is None
    assert check("fig9.selective_needs_twice_the_window", data(f9=curves)) is Verdict.INCONCLUSIVE


def test_full_link_up_to_1_7_checks_every_rate_in_0_to_0_145_and_only_those() -> None:
    base = {0.0: 1.0, 0.125: 0.98, 0.145: 0.98, 0.25: 0.5}
    assert check("fig4.nbs_full_to_1_7", data(f4={"nbs": base})) is Verdict.HOLDS, "0.25 is outside the range"
    assert check("fig4.nbs_full_to_1_7", data(f4={"nbs": {**base, 0.145: 0.96}})) is Verdict.DOES_NOT_HOLD, \
        "the rate 0.145 itself is in the range; 4% short is more than TOL_FULL (3%)"
    assert check("fig4.nbs_full_to_1_7", data(f4={"nbs": {**base, 0.125: 0.96}})) is Verdict.DOES_NOT_HOLD


def test_nbs_drop_from_1_7_to_1_3_is_more_than_5_percent() -> None:
    def sd(at_third: float) -> StudyData:
        return data(f4={"nbs": {0.0: 1.0, 0.14: 1.0, 0.33: at_third}})
    assert check("fig4.nbs_drops_1_7_to_1_3", sd(0.9375)) is Verdict.HOLDS, "1 > 0.9375·1.05"
    assert check("fig4.nbs_drops_1_7_to_1_3", sd(0.96875)) is Verdict.DOES_NOT_HOLD, "1 < 0.96875·1.05"


def test_iso_delay_grows_is_the_delay_at_1_3_above_none_by_5_percent() -> None:
    def sd(at_third: float) -> StudyData:
        return data(f5={"iso": {0.0: 1.0, 0.33: at_third}})
    assert check("fig5.iso_delay_grows", sd(1.0625)) is Verdict.HOLDS
    assert check("fig5.iso_delay_grows", sd(1.03125)) is Verdict.DOES_NOT_HOLD


@pytest.mark.parametrize("gain,verdict", [
    (0.38, Verdict.HOLDS), (0.38 * (1 + TOL_PAPER_MAX) - 0.01, Verdict.HOLDS), (0.38 * (1 - TOL_PAPER_MAX) + 0.01, Verdict.HOLDS),
    (0.38 * (1 + TOL_PAPER_MAX) + 0.01, Verdict.DOES_NOT_HOLD), (0.38 * (1 - TOL_PAPER_MAX) - 0.01, Verdict.DOES_NOT_HOLD)])
def test_expedited_38_is_the_largest_gain_in_points_within_25_percent_of_38(gain: float, verdict: Verdict) -> None:
    sd = data(f4={"nbs": {0.0: 0.9, 0.25: 0.5 + gain, 0.5: 0.55}, "iso": {0.0: 0.9, 0.25: 0.5, 0.5: 0.5}})
    out = claim("abstract.expedited_38").check(sd)
    assert out.verdict is verdict, out.detail
    assert "at x = 0.25" in out.detail and "as a ratio the maximum" in out.detail
    assert out.deviations == (pytest.approx((gain - 0.38) / 0.38),)


def test_up_to_claims_are_inconclusive_without_common_points() -> None:
    sd = data(f4={"nbs": {0.25: 0.9}, "iso": {0.5: 0.5}})
    assert check("abstract.expedited_38", sd) is Verdict.INCONCLUSIVE


def test_delay_61_reads_iso_over_nbs_minus_one() -> None:
    # ISO delay 1.61 × NBS delay at x = 0.25: exactly the paper's 61%.
    sd = data(f5={"nbs": {0.25: 1.0, 0.5: 1.0}, "iso": {0.25: 1.61, 0.5: 1.2}})
    out = claim("abstract.delay_61").check(sd)
    assert out.verdict is Verdict.HOLDS, out.detail
    assert "ISO/NBS − 1 = 61.0%" in out.detail
    sd = data(f5={"nbs": {0.25: 1.0}, "iso": {0.25: 1.2}})
    assert check("abstract.delay_61", sd) is Verdict.DOES_NOT_HOLD, "20% is outside 61% ± 25% of it"


# ---- The rules inside the claim declarations, and what each check prints ---------------


@pytest.mark.parametrize("nbs,want", [(0.9975, Verdict.HOLDS), (0.99, Verdict.DOES_NOT_HOLD), (1.25, Verdict.HOLDS)])
def test_nbs_ge_iso_and_delay_le_iso_allow_half_a_percent(nbs: float, want: Verdict) -> None:
    """fig4.nbs_ge_iso: NBS ≥ ISO less 0.5 %; fig5.nbs_delay_le_iso the mirror for delay."""
    xs = (0.0, 0.125, 0.25)
    assert check("fig4.nbs_ge_iso", data(f4={"nbs": dict.fromkeys(xs, nbs), "iso": dict.fromkeys(xs, 1.0)})) is want
    assert check("fig5.nbs_delay_le_iso", data(f5={"nbs": dict.fromkeys(xs, 1.0), "iso": dict.fromkeys(xs, nbs)})) is want


def test_knee_scales_the_share_by_the_best_not_one() -> None:
    assert cl.knee(fig(9, {"c": {1.0: 1.0, 2.0: 1.875, 3.0: 2.0}}), "c") == 3.0, "1.875 < 0.95·2 = 1.9"
    assert cl.knee(fig(9, {"c": {1.0: 1.0, 2.0: 1.9375, 3.0: 2.0}}), "c") == 2.0


def test_window_ratios_go_on_past_a_rate_that_lacks_a_curve() -> None:
    curves = _window_curves({})
    del curves[f"selective@{WINDOW_BERS[0]:g}"]
    per = cl.window_ratios(fig(9, curves))
    assert per == {WINDOW_BERS[0]: None, WINDOW_BERS[1]: (2.0, 4.0, 2.0), WINDOW_BERS[2]: (2.0, 4.0, 2.0)}


def test_max_improvement_without_common_points_is_the_empty_estimate() -> None:
    gain, x = cl.max_improvement(fig(6, {"a": {1.0: 1.0}, "b": {2.0: 1.0}}), "a", "b", "ratio")
    assert x is None and math.isnan(gain.mean) and math.isnan(gain.half) and gain.n == 0
    gain, _ = cl.max_improvement(fig(6, {"a": {1.0: (2.0, 0.0)}, "b": {1.0: (1.0, 0.0)}}), "a", "b", "ratio")
    assert gain.n == 5, "the ratio's count"


def test_full_link_reports_each_rate_against_none_and_its_deviation() -> None:
    out = claim("fig4.nbs_full_to_1_7").check(data(f4={"nbs": {0.0: 1.0, 0.125: 0.75, 0.145: 0.75, 0.25: 0.5}}))
    assert out.detail.count("0.75±0 vs none 1±0") == 2, out.detail
    assert out.deviations == (-0.25, -0.25), "one per rate in (0, 0.145]; none for x = 0 itself"


def test_drop_reports_both_points_and_the_relative_gap() -> None:
    out = claim("fig4.nbs_drops_1_7_to_1_3").check(data(f4={"nbs": {0.14: 1.25, 0.33: 1.0}}))
    assert (out.verdict, out.detail, out.deviations) == (Verdict.HOLDS, "nbs(0.14) = 1.25±0 vs nbs(0.33) = 1±0", (0.25,))


def test_up_to_prints_both_readings() -> None:
    f4 = {"nbs": {0.0: 1.0, 0.25: 0.875, 0.5: 0.5625}, "iso": {0.0: 1.0, 0.25: 0.5, 0.5: 0.5}}
    out = claim("abstract.expedited_38").check(data(f4=f4))
    assert out.detail == ("our maximum efficiency improvement 37.5% ± 0.0 (points) at x = 0.25 vs the paper's 38% "
                          "(tolerance ±25% of it); as a ratio the maximum is 75.0% at x = 0.25"), out.detail
    f5 = {"nbs": {0.25: 1.0}, "iso": {0.25: 1.625}}
    out = claim("abstract.delay_61").check(data(f4=f4, f5=f5))
    assert out.detail == (
        "our maximum delay improvement 62.5% ± 0.0 (inverse) at x = 0.25 vs the paper's 61% (tolerance ±25% of it); "
        "both readings at x = 0.25: delay reduction 1 − NBS/ISO = 38.5%, ISO/NBS − 1 = 62.5%; efficiency at the same "
        "rate 0.875 vs 0.500: 37.5 points, ratio − 1 = 75.0% (per-octet delay ≈ 1/η for a link-limited transfer: the "
        "38 points and the 61% are one gain read two ways)"), out.detail
    out = claim("abstract.delay_61").check(data(f5=f5))
    assert out.detail.endswith("ISO/NBS − 1 = 62.5%"), "no Fig. 4 at hand: no efficiency reading"
    assert claim("abstract.delay_61").check(data(f5={"nbs": {0.25: 1.0}, "iso": {0.5: 1.0}})).detail == "no common points"


def test_twice_the_window_prints_each_rate_and_its_deviation_from_2() -> None:
    out = claim("fig9.selective_needs_twice_the_window").check(data(f9=_window_curves({WINDOW_BERS[2]: 3.0})))
    assert out.detail == ("95% of the best efficiency (one-for-one vs selective): BER 1e-05: 2 vs 4 KiB, ratio 2.00 (ok); "
                          "BER 0.0001: 2 vs 4 KiB, ratio 2.00 (ok); BER 0.001: 2 vs 6 KiB, ratio 3.00 (NO) "
                          "(holds for 1.5–2.5 at every rate)"), out.detail
    assert out.deviations == (0.0, 0.0, 0.5)
    curves = _window_curves({})
    del curves[f"selective@{WINDOW_BERS[0]:g}"]
    assert claim("fig9.selective_needs_twice_the_window").check(data(f9=curves)).detail == "missing points"


BERS = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3)


@pytest.mark.parametrize("low,want", [(1e-7, Verdict.DOES_NOT_HOLD), (1e-3, Verdict.DOES_NOT_HOLD), (None, Verdict.HOLDS)])
def test_fig6_selective_better_at_every_error_rate(low: float | None, want: Verdict) -> None:
    sel = {b: (0.5 if b == low else 0.75) for b in BERS}
    assert check("fig6.selective_better", data(f6={"selective": sel, "one_for_one": dict.fromkeys(BERS, 0.625)})) is want


@pytest.mark.parametrize("cid,fig,a,b,start", [
    ("fig6.fewer_retransmissions", 6, "one_for_one_retx", "selective_retx", 1e-5),
    ("fig7.selective_more_memory", 7, "selective", "one_for_one", 1e-4),
    ("fig8.selective_more_memory", 8, "selective", "one_for_one", 1e-4)])
def test_high_error_rate_claims_look_from_their_first_rate_on(cid: str, fig: int, a: str, b: str, start: float) -> None:
    """A at least B·1.25 from ``start`` on holds; below ``start`` it is not looked at; A
    not above B at ``start`` itself refutes."""
    above = {x: (1.25 if x >= start else 0.5) for x in BERS}
    # The region is read off the selective curve's rates.
    curves = {"selective": dict.fromkeys(BERS, 1.0), b: dict.fromkeys(BERS, 1.0)}
    assert check(cid, data(**{f"f{fig}": {**curves, a: above}})) is Verdict.HOLDS
    assert check(cid, data(**{f"f{fig}": {**curves, a: {**above, start: 1.0}}})) is Verdict.DOES_NOT_HOLD


@pytest.mark.parametrize("at,want", [(1e-4, Verdict.HOLDS), (1e-3, Verdict.HOLDS), (1e-5, Verdict.DOES_NOT_HOLD)])
def test_fig7_selective_frees_send_buffer_at_some_rate_from_1e_4(at: float, want: Verdict) -> None:
    """'may promote': one rate of 1e-4 and above where one-for-one holds more send memory."""
    ofo = {x: (1.25 if x == at else 1.0) for x in BERS}
    f7 = {"one_for_one_send": ofo, "selective_send": dict.fromkeys(BERS, 1.0), "selective": dict.fromkeys(BERS, 1.0)}
    assert check("fig7.selective_frees_send_buffer", data(f7=f7)) is want
