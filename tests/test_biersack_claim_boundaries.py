"""Biersack's Fig. 1 and Fig. 7 claim encodings at each threshold, in both directions, on
synthetic figures: the published maxima within ±3 %, "slightly" (significant and at most
15 %), "clearly worse" (more than 10 %), overload from exactly 4.0 Mbit/s, the ORIG
collapse (25 % below), two FIFOs within 5 % of SREJ, and "about five" FIFO buffers
(the smallest m within 5 % in 4–6, fewer or more refuting it)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import pytest

from arqlab.studies.artefacts.curves import FigureData
from arqlab.studies.biersack import claims as cl
from arqlab.studies.biersack.figures import figure
from arqlab.studies.biersack.params import (
    CLOSE,
    OVERLOAD_MBPS,
    PAPER_MAX_BG_MBPS,
    PAPER_MAX_SREJ_MBPS,
    PAPER_ORIG_OOS,
    SLIGHT,
)
from arqlab.studies.data import StudyData
from arqlab.studies.verdicts import Est, Verdict

#: curve -> {x: mean} or {x: (mean, half)}
Curves = Mapping[str, Mapping[float, float | tuple[float, float]]]


def sd(n: int, curves: Curves) -> StudyData:
    rows = [{"curve": c, "variant": "", "x": x, "y": v[0] if isinstance(v, tuple) else v,
             "y_ci95_half_width": v[1] if isinstance(v, tuple) else 0.0, "n": 10}
            for c, pts in curves.items() for x, v in pts.items()]
    return StudyData({n: FigureData(figure(n), pd.DataFrame(rows))})


def verdict(cid: str, data: StudyData) -> Verdict:
    (c,) = [c for group in (cl.fig1_claims(), cl.fig7_claims()) for c in group if c.id == cid]
    return c.check(data).verdict


@pytest.mark.parametrize("cid,paper", [("fig1.srej_max_3_55", PAPER_MAX_SREJ_MBPS), ("fig1.bg_max_3_35", PAPER_MAX_BG_MBPS)])
@pytest.mark.parametrize("off,want", [(1.0, Verdict.HOLDS), (1.025, Verdict.HOLDS), (0.975, Verdict.HOLDS),
                                      (1.035, Verdict.DOES_NOT_HOLD), (0.965, Verdict.DOES_NOT_HOLD)])
def test_published_maximum_within_3_percent(cid: str, paper: float, off: float, want: Verdict) -> None:
    curve = cid.split(".")[1].split("_")[0]
    # The maximum over x is read, wherever it lies.
    assert verdict(cid, sd(1, {curve: {2.0: 0.5 * paper, 3.0: off * paper, 5.0: 0.75 * paper}})) is want


@pytest.mark.parametrize("srej,want", [(1.125, Verdict.HOLDS), (1.0 + SLIGHT, Verdict.HOLDS),
                                       (1.1875, Verdict.DOES_NOT_HOLD), (1.0, Verdict.DOES_NOT_HOLD),
                                       (0.9375, Verdict.DOES_NOT_HOLD)])
def test_srej_slightly_above_bg_is_significant_and_at_most_15_percent(srej: float, want: Verdict) -> None:
    assert verdict("fig1.srej_slightly_above_bg", sd(1, {"srej": {3.0: 2.0 * srej}, "bg": {3.0: 2.0}})) is want
    # Lower is better (delay): the same rule with the roles turned.
    assert cl.slightly(Est(2.0, 0.0, 5), Est(2.0 * srej, 0.0, 5), False) is want


@pytest.mark.parametrize("jain,want", [(0.875, Verdict.HOLDS), (0.9375, Verdict.DOES_NOT_HOLD)])
def test_jain_clearly_worse_is_more_than_10_percent_below_both(jain: float, want: Verdict) -> None:
    assert verdict("fig1.jain_clearly_worse", sd(1, {"jain": {3.0: jain}, "bg": {3.0: 1.0}, "srej": {3.0: 1.0}})) is want
    one_only = sd(1, {"jain": {3.0: 0.875}, "bg": {3.0: 1.0}, "srej": {3.0: 0.9375}})
    assert verdict("fig1.jain_clearly_worse", one_only) is Verdict.DOES_NOT_HOLD, "clearly worse than SREJ too"


@pytest.mark.parametrize("low_at,want", [(OVERLOAD_MBPS, Verdict.DOES_NOT_HOLD), (OVERLOAD_MBPS - 0.5, Verdict.HOLDS)])
def test_orig_out_of_sequence_above_70_percent_from_exactly_4_mbit_s(low_at: float, want: Verdict) -> None:
    pts = {OVERLOAD_MBPS - 0.5: 0.8, OVERLOAD_MBPS: 0.8, OVERLOAD_MBPS + 1: 0.8}
    pts[low_at] = PAPER_ORIG_OOS  # at the paper's 70 %: not "more than"
    assert verdict("fig1.orig_out_of_sequence", sd(1, {"orig_oos": pts})) is want


@pytest.mark.parametrize("under,want", [(0.5, Verdict.HOLDS), (0.8125, Verdict.DOES_NOT_HOLD)])
def test_orig_collapses_more_than_25_percent_below_its_maximum_and_srej(under: float, want: Verdict) -> None:
    xs = (2.0, OVERLOAD_MBPS, 5.0)
    data = sd(1, {"orig": {2.0: 2.0, OVERLOAD_MBPS: 2.0 * under, 5.0: 2.0 * under}, "srej": dict.fromkeys(xs, 2.0)})
    assert verdict("fig1.orig_collapses", data) is want


@pytest.mark.parametrize("jain_window,want", [(1.25, Verdict.HOLDS), (1.0, Verdict.DOES_NOT_HOLD)])
def test_jain_opens_too_fast_larger_window_and_more_losses_under_overload(jain_window: float, want: Verdict) -> None:
    xs = (3.5, OVERLOAD_MBPS)
    data = sd(1, {"jain_window": {3.5: 0.5, OVERLOAD_MBPS: jain_window}, "bg_window": dict.fromkeys(xs, 1.0),
                  "jain_loss": dict.fromkeys(xs, 0.25), "bg_loss": dict.fromkeys(xs, 0.125)})
    assert verdict("fig1.jain_opens_too_fast", data) is want, "4.0 is overloaded, 3.5 is not looked at"


@pytest.mark.parametrize("mf,want", [(0.9375, Verdict.DOES_NOT_HOLD), (0.96875, Verdict.HOLDS), (1.0, Verdict.HOLDS)])
def test_two_fifos_close_at_w10_within_5_percent(mf: float, want: Verdict) -> None:
    assert CLOSE == 0.05
    assert verdict("fig7.two_fifos_close_at_w10", sd(7, {"mf_w10": {2.0: mf}, "srej_w10": {2.0: 1.0}})) is want


def _fifos(first_close: float | None, ms: tuple[float, ...] = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0)) -> StudyData:
    mf = {m: 1.0 if first_close is not None and m >= first_close else 0.5 for m in ms}
    return sd(7, {"mf_w20": mf, "srej_w20": dict.fromkeys(ms, 1.0)})


@pytest.mark.parametrize("first,want", [(4.0, Verdict.HOLDS), (6.0, Verdict.HOLDS), (3.0, Verdict.DOES_NOT_HOLD),
                                        (7.0, Verdict.DOES_NOT_HOLD), (None, Verdict.DOES_NOT_HOLD)])
def test_about_five_fifos_is_the_smallest_close_m_in_4_to_6(first: float | None, want: Verdict) -> None:
    assert verdict("fig7.about_five_for_larger_windows", _fifos(first)) is want


def test_about_five_is_inconclusive_when_the_grid_stops_short_or_a_smaller_m_is_undecided() -> None:
    assert verdict("fig7.about_five_for_larger_windows", _fifos(None, (1.0, 2.0, 3.0))) is Verdict.INCONCLUSIVE
    ms = (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0)
    mf: dict[float, float | tuple[float, float]] = {m: (1.0 if m >= 5.0 else 0.5) for m in ms}
    mf[3.0] = (0.9, 0.2)  # straddles the 5 % band
    undecided = sd(7, {"mf_w20": mf, "srej_w20": dict.fromkeys(ms, 1.0)})
    assert verdict("fig7.about_five_for_larger_windows", undecided) is Verdict.INCONCLUSIVE
