"""Comer & Korb's claim encodings at each threshold, in both directions, on synthetic
figures: the knee at 95 % of the best (saturation as observed, on the constant-T_N
curve, by its CIs), the access lines ≥ 95 % busy with copies (§5's saturation), the
file's throughput ≥ 95 % of the interface's capacity (reported), no gain and more calls
past the busy lines (3 %), 81.7 % of the X.25 window bound at C = 1-3 (limited by the
network's delay), "several" transfers over
10 % (the lower bound per variant), the headers and packet fill reported (arithmetic,
not scored), the line cap of linear growth, the "more than the channels" regions and
T_min's 10 % of the control's closes."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd
import pytest

from arqlab.studies.artefacts.curves import FigureData
from arqlab.studies.comer_korb import claims as cl
from arqlab.studies.comer_korb import theory
from arqlab.studies.comer_korb.figures import figure
from arqlab.studies.comer_korb.params import (
    CM_CHANNELS,
    FIG2_T_N_ANCHORS,
    CM_K_RESERVED,
    FILE_OCTETS,
    HEADER_OCTETS,
    PACKET_OCTETS,
    PAPER_RETX_SHARE,
    SEGMENTS,
)
from arqlab.studies.data import StudyData
from arqlab.studies.verdicts import Est, Verdict, t_interval

#: curve -> {x: mean}, {x: (mean, half, n)} or {x: [each replication's value]}
Curves = Mapping[str, Mapping[float, float | tuple[float, float, int] | list[float]]]

#: A throughput at which the busy share equals the busy time (2·8·FILE_OCTETS bit/s).
UNIT = 16.0 * FILE_OCTETS


def fig(n: int, curves: Curves) -> FigureData:
    """A synthetic figure; a point given as a list is its replications, kept as the
    runs' observations (its mean and CI their t-interval)."""
    rows, observed = [], {}
    for c, pts in curves.items():
        for x, v in pts.items():
            row: dict[str, object] = {"curve": c, "variant": "", "x": x}
            if isinstance(v, list):
                e = t_interval(v)
                mean, half, k = e.mean, (e.half if e.n > 1 else 0.0), len(v)
                run = f"{c}@{x:g}"
                observed[run] = {("d", "m"): tuple(v)}
                row.update({"run": run, "direction": "d", "measure": "m", "norm": 1.0})
            else:
                mean, half, k = v if isinstance(v, tuple) else (v, 0.0, 5)
            rows.append({**row, "y": mean, "y_ci95_half_width": half, "n": k})
    return FigureData(figure(n), pd.DataFrame(rows), observed=observed)


def sd(n: int, curves: Curves) -> StudyData:
    return StudyData({n: fig(n, curves)})


def test_knee_is_the_first_c_reaching_exactly_95_percent_of_the_best() -> None:
    assert cl.knee(fig(3, {"tcp": {1.0: 0.5, 2.0: 0.95, 3.0: 1.0}}), "tcp") == (2.0, 1.0)
    assert cl.knee(fig(3, {"tcp": {1.0: 0.5, 2.0: 0.9375, 3.0: 1.0}}), "tcp") == (3.0, 1.0)
    k, top = cl.knee(fig(3, {"tcp": {1.0: 0.5, 2.0: float("nan")}}), "tcp")
    assert k is None and math.isnan(top)


#: The interface's capacity for user data (the saturation claims' 100 %).
CAP = theory.line_user_bps()


def _fig3(useful: Mapping[float, float], busy: Mapping[float, float] | None = None, cap: float = CAP) -> StudyData:
    """Throughput = useful share × ``cap`` at each C, on the constant-T_N and the
    measured (random-T_N) curves alike; the lines' busy seconds (reported) if given."""
    tput = {c: u * cap for c, u in useful.items()}
    curves: dict[str, Mapping[float, float | tuple[float, float, int]]] = {"tcp": tput, "random": tput}
    if busy is not None:
        curves["tcp.x25_line_busy_s"] = busy
    return sd(3, curves)


def test_saturation_reading_reports_the_first_c_at_95_percent_of_capacity(monkeypatch: pytest.MonkeyPatch) -> None:
    """§5's "completely busy" is reported beside the knee: the first C whose throughput
    (constant T_N) reaches 95 % of the capacity, exactly 95 % included."""
    from arqlab.studies.comer_korb import saturation as sat

    # A capacity of 8192 bit/s keeps 0.95 × it exact in binary: the boundary is exact.
    monkeypatch.setattr(sat, "interface_user_bps", lambda processing_s=0.0: 8192.0)
    for useful, first in (({1.0: 0.5, 2.0: 0.75, 3.0: 0.95, 4.0: 0.99}, 3.0),
                          ({1.0: 0.5, 2.0: 0.75, 3.0: 0.9375, 4.0: 0.99}, 4.0),
                          ({1.0: 0.5, 2.0: 0.75, 3.0: 0.875}, None)):
        s, shares = cl.saturation(_fig3(useful, cap=8192.0)[3])
        assert s == first
        assert [e.mean for _, e in shares] == list(useful.values())


def test_the_file_octets_reading_ignores_the_lines_busy_share_which_counts_copies() -> None:
    """Lines 99 % busy with retransmitted copies while the file moves at half the
    capacity: the file-octets reading (reported) finds no saturation. The busy share is
    busy time over twice the transfer; a throughput of 0 gives no busy share. Without
    the constant-T_N curve the knee is not read."""
    data = _fig3({1.0: 0.25, 2.0: 0.5}, busy={1.0: 0.99 * UNIT / (0.25 * CAP), 2.0: 0.99 * UNIT / (0.5 * CAP)})
    assert cl.saturation(data[3])[0] is None
    assert cl.line_busy_share(data[3], "tcp", 2.0).mean == pytest.approx(0.99)
    assert math.isnan(cl.line_busy_share(sd(3, {"tcp": {1.0: 0.0}, "tcp.x25_line_busy_s": {1.0: 0.5}})[3], "tcp", 1.0).mean)
    assert cl.saturation(fig(3, {"random": {1.0: 1.0}})) == (None, [])
    assert cl._saturation_at(sd(3, {"random": {1.0: 1.0}})).verdict is Verdict.INCONCLUSIVE, "no constant curve"


def test_line_busy_share_carries_both_means_cis() -> None:
    """The busy share's CI: the busy time's and the throughput's relative half-widths in
    quadrature (3/64 and 4/64 of their means: 5/64 of the share)."""
    data = sd(3, {"tcp": {1.0: (UNIT / 256, UNIT / 256 * 4 / 64, 5)}, "tcp.x25_line_busy_s": {1.0: (128.0, 6.0, 5)}})
    e = cl.line_busy_share(data[3], "tcp", 1.0)
    assert (e.mean, e.n) == (0.5, 5) and e.half == pytest.approx(0.5 * 5 / 64)


def _scored(points: Mapping[float, float | tuple[float, float, int]],
            random: Mapping[float, float | tuple[float, float, int]] | None = None) -> StudyData:
    """Fig. 3's scored curve (T_N constant) and, if given, the random-T_N curve (reported)."""
    curves: dict[str, Mapping[float, float | tuple[float, float, int]]] = {"tcp": points}
    if random is not None:
        curves["random"] = random
    return sd(3, curves)


def test_knee_range_is_where_the_cis_let_the_knee_lie() -> None:
    """Deterministic: earliest = first certain = the knee. With CIs: the earliest C
    whose CI reaches 95 % of the best mean, and the first whose whole CI does."""
    assert cl.knee_range(_scored({1.0: 0.5, 2.0: 0.95, 3.0: 1.0})[3]) == (2.0, 2.0, 1.0)
    assert cl.knee_range(_scored({1.0: 0.5, 2.0: (0.9375, 0.03125, 5), 3.0: 1.0})[3]) == (2.0, 3.0, 1.0)
    assert cl.knee_range(_scored({1.0: 0.5, 2.0: (0.90625, 0.03125, 5), 3.0: 1.0})[3]) == (3.0, 3.0, 1.0)
    assert cl.knee_range(_scored({1.0: (0.5, 0.5, 5), 2.0: (1.0, 0.1, 5)})[3]) == (1.0, None, 1.0)
    assert cl.knee_range(_scored({1.0: float("nan")})[3])[:2] == (None, None)


def test_knee_range_counts_the_best_means_own_uncertainty() -> None:
    """Finding 9 of the review of revision 11: the best is the largest of noisy means,
    not exact. The earliest knee is read against the best's lower end (95 % of 0.875
    = 0.83125: C = 2 at 0.85 may be the knee; against the best mean 0.95 it could not)
    and the certain knee against the largest upper end (95 % of 1.02 = 0.969: C = 2's
    CI [0.96, 0.98] no longer certainly reaches it; against 1.0 it did)."""
    assert cl.knee_range(_scored({1.0: 0.5, 2.0: 0.85, 3.0: (1.0, 0.125, 5)})[3]) == (2.0, None, 1.0)
    assert cl.knee_range(_scored({1.0: 0.5, 2.0: 0.83, 3.0: (1.0, 0.125, 5)})[3]) == (3.0, None, 1.0)
    assert cl.knee_range(_scored({1.0: 0.5, 2.0: (0.97, 0.01, 5), 3.0: (1.0, 0.02, 5)})[3]) == (2.0, 3.0, 1.0)
    assert cl.knee_range(_scored({1.0: 0.5, 2.0: (0.97, 0.0005, 5), 3.0: (1.0, 0.02, 5)})[3]) == (2.0, 2.0, 1.0)


@pytest.mark.parametrize("points,verdict", [
    ({1.0: 0.5, 2.0: 0.75, 3.0: 0.95, 4.0: 1.0, 5.0: 0.98}, Verdict.HOLDS),  # exactly 95 % of the best at C = 3
    ({1.0: 0.5, 2.0: 0.75, 3.0: 0.9375, 4.0: 1.0, 5.0: 0.98}, Verdict.DOES_NOT_HOLD),  # knee at 4
    ({1.0: 0.5, 2.0: 0.96875, 3.0: 1.0, 4.0: 1.0}, Verdict.DOES_NOT_HOLD),  # knee at 2
    ({1.0: 0.5, 2.0: 0.75, 3.0: (0.9375, 0.03125, 5), 4.0: 1.0}, Verdict.INCONCLUSIVE),  # 3 or 4, by the CIs
    ({1.0: 0.5, 2.0: 0.75, 3.0: (0.96875, 0.03125, 5), 4.0: 1.0}, Verdict.INCONCLUSIVE),  # 3 or later
    ({1.0: 0.5, 2.0: (0.90625, 0.0625, 5), 3.0: 1.0, 4.0: 1.0}, Verdict.INCONCLUSIVE),  # 2 or 3
    ({1.0: 0.5, 2.0: (0.875, 0.0625, 5), 3.0: 0.96875, 4.0: 1.0}, Verdict.HOLDS),  # C = 2's CI stops short
])
def test_saturation_at_3_is_the_knee_of_the_constant_curve_by_its_cis(
        points: dict[float, float | tuple[float, float, int]], verdict: Verdict) -> None:
    """The paper's saturation as it observed it: the first C of the scored (constant-T_N)
    curve reaching 95 % of the best, holding only if the CIs put it at 3 and nowhere
    else. The random-T_N curve, knee at 1 here, is reported with its own verdict, never
    scored (review of revision 11, finding 3)."""
    out = cl._saturation_at(_scored(points, random={1.0: 1.0, 2.0: 0.5, 3.0: 0.5}))
    assert out.verdict is verdict
    assert "T_N random (assumed distribution, reported, not scored): does not hold: n = 5: the knee, the first C " \
        "reaching 95% of the best (1 bit/s), at C = 1" in out.detail, out.detail


def test_knee_share_sensitivity_is_reported() -> None:
    out = cl._saturation_at(_scored({1.0: 0.5, 2.0: 0.9, 3.0: 0.96, 4.0: 0.98, 5.0: 1.0}))
    assert "knee by share: 90%: C = 2; 95%: C = 3; 97.5%: C = 4" in out.detail, out.detail


#: A flat 6250 bit/s: the busy share is busy seconds × 6250 / 1,600,000 = busy / 256.
FLAT = UNIT / 256


def _busy_curve(shares: Mapping[float, float | tuple[float, float]], tput: Mapping[float, float] | None = None,
                calls: Mapping[float, float] | None = None) -> dict[str, dict[float, float | tuple[float, float, int]]]:
    """The scored curve at ``tput`` (default FLAT) with busy seconds giving ``shares``
    (a (share, half) pair for a CI) and, if given, the calls placed."""
    tput = tput or dict.fromkeys(shares, FLAT)
    busy: dict[float, float | tuple[float, float, int]] = {}
    for c, v in shares.items():
        m, h = v if isinstance(v, tuple) else (v, 0.0)
        busy[c] = (m * UNIT / tput[c], h * UNIT / tput[c], 5)
    out: dict[str, dict[float, float | tuple[float, float, int]]] = {"tcp": dict(tput), "tcp.x25_line_busy_s": busy}
    if calls is not None:
        out[f"tcp.{cl.CALLS_MEASURE}"] = dict(calls)
    return out


@pytest.mark.parametrize("shares,verdict", [
    ({1.0: 0.5, 2.0: 0.75, 3.0: 0.95, 4.0: 0.99}, Verdict.HOLDS),  # exactly 95 % at C = 3
    ({1.0: 0.5, 2.0: 0.75, 3.0: 0.9375, 4.0: 0.99}, Verdict.DOES_NOT_HOLD),  # first at 4
    ({1.0: 0.5, 2.0: 0.96875, 3.0: 0.99}, Verdict.DOES_NOT_HOLD),  # first at 2
    ({1.0: 0.5, 2.0: 0.75, 3.0: 0.875, 4.0: 0.9375}, Verdict.DOES_NOT_HOLD),  # never completely busy
    ({1.0: 0.5, 2.0: 0.75, 3.0: (0.9375, 0.03125), 4.0: 0.99}, Verdict.INCONCLUSIVE),  # 3 or 4, by the CIs
    ({1.0: 0.5, 2.0: (0.90625, 0.0625), 3.0: 0.99}, Verdict.INCONCLUSIVE),  # 2 or 3
])
def test_busy_at_3_is_the_first_c_whose_lines_are_completely_busy_with_copies(
        shares: dict[float, float | tuple[float, float]], verdict: Verdict) -> None:
    """§5's definition with footnote 2's packet traffic: the first C whose access lines
    are busy ≥ 95 % of the transfer (copies included) is 3, by the CIs; lines that
    never get there do not hold. The random-T_N curve is reported, not scored: its
    lines busy from C = 1 change nothing."""
    data = _busy_curve(shares)
    data.update({"random": dict(data["tcp"]), "random.x25_line_busy_s": {c: 0.99 * UNIT / FLAT for c in shares}})
    out = cl._busy_at(sd(3, data))
    assert out.verdict is verdict, out.detail
    assert "T_N random (assumed distribution, reported, not scored): does not hold: sending interface busy ≥ 95% " \
        "(its line, copies included, and its processing) first at C = 1" in out.detail, out.detail
    assert cl._busy_at(sd(3, {"tcp": dict.fromkeys(shares, FLAT)})).verdict is Verdict.INCONCLUSIVE, "no busy time"


#: The lines certainly ≥ 95 % busy from C = 3; calls = C (each circuit one call).
BUSY_FROM_3 = {1.0: 0.5, 2.0: 0.75, 3.0: 0.96875, 4.0: 0.99, 5.0: 0.99}
CALLS = {c: c for c in BUSY_FROM_3}


@pytest.mark.parametrize("c4,c5,verdict", [
    (1.0, 1.0, Verdict.HOLDS),  # flat past C = 3
    (1.03, 1.0, Verdict.HOLDS),  # exactly +3 % over the best up to C = 3
    (1.0, math.nextafter(1.03, 2.0), Verdict.DOES_NOT_HOLD),  # just over +3 %
    (1.25, 1.0, Verdict.DOES_NOT_HOLD),  # +25 %: not capped by a knee (the old encoding's 5.3 %)
])
def test_no_gain_when_saturated_past_the_busy_lines_gains_nothing(c4: float, c5: float, verdict: Verdict) -> None:
    """Conclusions: "If the underlying hardware link is saturated, opening additional
    circuits will increase costs without increasing performance". The premise is §5's
    busy share (review of revision 11, finding 6: it was the knee, so a gain past it was
    at most 5.3 %); past the first C whose lines are certainly ≥ 95 % busy, each C
    within +3 % of the best throughput up to it. A gain before the premise (C = 2 over
    1) is not read. The cost half is scenario arithmetic (review 26, finding 8: the
    circuits are pre-opened, calls = C), so it is reported, and the verdict is the same
    with or without the calls counter, even with fewer calls past the premise."""
    tput = {1.0: FLAT / 2, 2.0: FLAT, 3.0: FLAT, 4.0: FLAT * c4, 5.0: FLAT * c5}
    out = cl._flat_beyond(sd(3, _busy_curve(BUSY_FROM_3, tput, CALLS)))
    assert out.verdict is verdict, out.detail
    assert out.detail.startswith("T_N constant: sending interface certainly ≥ 95% busy (its line, copies included, and its processing) from C = 3; past it: x=4:")
    assert "reported, not scored: C = 3: 3 calls" in out.detail, out.detail
    assert cl._flat_beyond(sd(3, _busy_curve(BUSY_FROM_3, tput))).verdict is verdict, "no calls counter"
    fewer = cl._flat_beyond(sd(3, _busy_curve(BUSY_FROM_3, tput, {**CALLS, 5.0: 1.0})))
    assert fewer.verdict is verdict, "the calls are not scored"


def test_no_gain_when_saturated_reports_calls_and_circuit_seconds_as_arithmetic() -> None:
    """§2.2: "some networks charge for circuits when they are idle": the cost of C
    pre-opened circuits is C calls and C × the transfer's time in circuit-seconds
    (800,000 bits at FLAT = 6250 bit/s: 128 s), both arithmetic, reported."""
    flat = {c: FLAT for c in BUSY_FROM_3}
    out = cl._flat_beyond(sd(3, _busy_curve(BUSY_FROM_3, flat, CALLS)))
    assert ("the cost, arithmetic of the scenario (circuits pre-opened: calls = C; circuit-seconds = C × the "
            "transfer's time), reported, not scored: C = 3: 3 calls, 384 circuit-s, C = 4: 4 calls, 512 circuit-s, "
            "C = 5: 5 calls, 640 circuit-s") in out.detail, out.detail
    assert "C = 4: nan calls, 512 circuit-s" in cl._flat_beyond(sd(3, _busy_curve(BUSY_FROM_3, flat))).detail


def test_no_gain_when_saturated_is_inconclusive_without_its_premise() -> None:
    """Lines never certainly ≥ 95 % busy (C = 3 may be: its CI reaches it): no premise,
    whatever the gain; no busy time or no constant curve: inconclusive too."""
    tput = {1.0: FLAT / 2, 2.0: FLAT, 3.0: FLAT, 4.0: 2 * FLAT}
    unsure = _busy_curve({1.0: 0.5, 2.0: 0.75, 3.0: (0.9375, 0.03125), 4.0: (0.9375, 0.03125)}, tput, CALLS)
    out = cl._flat_beyond(sd(3, unsure))
    assert out.verdict is Verdict.INCONCLUSIVE and "no premise" in out.detail, out.detail
    assert cl._flat_beyond(sd(3, {"tcp": tput})).verdict is Verdict.INCONCLUSIVE
    assert cl._flat_beyond(sd(3, {"random": tput})).verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("share,half,verdict", [
    (cl.NETWORK_SHARE, 0.0, Verdict.HOLDS),  # exactly 2150/2631 of the bound at each C
    (1.0, 0.0, Verdict.HOLDS),
    (cl.NETWORK_SHARE - 1e-6, 0.0, Verdict.DOES_NOT_HOLD),  # just below
    (cl.NETWORK_SHARE, 0.01, Verdict.INCONCLUSIVE),  # the CI straddles it
    (cl.NETWORK_SHARE - 0.02, 0.01, Verdict.DOES_NOT_HOLD),  # the CI wholly below
])
def test_limited_by_network_delay_is_the_throughput_near_the_x25_window_bound(share: float, half: float,
                                                                           verdict: Verdict) -> None:
    """Conclusions: "throughput was limited by delays in the underlying X.25 network, not
    in the interface software or higher-level protocols": at C = 1, 2 and 3 the
    throughput at least 2150/2631 (81.7 %, the paper's own measurement against its own
    bound) of min(C × W packets per network round trip, the line); the share fails at
    one C (C = 2) here, the others at the bound. C = 4, far below, is not read; TCP's
    re-sent share per C is reported."""
    bound = theory.model_fig3_bound_bps
    tput: dict[float, float | tuple[float, float, int]] = {c: bound(c) for c in (1.0, 3.0)}
    tput[2.0] = (share * bound(2.0), half * bound(2.0), 5)
    tput[4.0] = 1.0
    # The lines half busy, datagrams waiting for P(R) through all the idle time (the
    # mechanism holds: test_limited_by_network_delay_needs_datagrams_waiting_…).
    means = {c: bound(c) * (share if c == 2.0 else 1.0) for c in (1.0, 2.0, 3.0)}
    data = sd(3, {"tcp": tput, "tcp.tcp_segments_retransmitted": {1.0: SEGMENTS / 4, 2.0: 0.0, 3.0: 0.0},
                  "tcp.x25_line_busy_s": {c: 0.5 * UNIT / m for c, m in means.items()},
                  f"tcp.{cl.BLOCKED}": {c: 4 * FILE_OCTETS / m for c, m in means.items()}})
    out = cl._limited_by_network(data)
    assert out.verdict is verdict, out.detail
    assert "re-sent: C = 1: 25.0%, C = 2: 0.0%, C = 3: 0.0%" in out.detail, out.detail
    assert cl.NETWORK_SHARE == pytest.approx(2150 / 2631) and cl.NETWORK_SHARE == pytest.approx(0.817, abs=5e-4)
    assert cl._limited_by_network(sd(3, {"random": tput})).verdict is Verdict.INCONCLUSIVE, "no constant curve"


@pytest.mark.parametrize("knee_c,verdict", [(4.0, Verdict.HOLDS), (3.0, Verdict.DOES_NOT_HOLD),
                                            (5.0, Verdict.DOES_NOT_HOLD)])
def test_c_max_formula_predicts_the_constant_curves_knee(knee_c: float, verdict: Verdict) -> None:
    """This model's C_max 3.62 → 4 against the constant-T_N (burst model's) curve's knee,
    whatever the random-T_N curve's knee (review of revision 11, finding 5)."""
    pts = {c: (1.0 if c >= knee_c else 0.2 * c) for c in (1.0, 2.0, 3.0, 4.0, 5.0)}
    other = {c: (1.0 if c >= 2.0 else 0.2 * c) for c in (1.0, 2.0, 3.0, 4.0, 5.0)}
    assert cl._c_max_formula(_scored(pts, random=other)).verdict is verdict
    assert cl._c_max_formula(sd(3, {"random": pts})).verdict is Verdict.INCONCLUSIVE, "no constant curve"


def test_linear_reads_the_constant_curve() -> None:
    """Scored on the constant-T_N curve; the random curve's verdict reported beside it."""
    one = 2000.0
    holds = cl._linear(_scored({1.0: one, 2.0: 2 * one, 3.0: 3 * one}, random={1.0: one, 2.0: one, 3.0: one}))
    assert holds.verdict is Verdict.HOLDS and "T_N random (assumed distribution, reported, not scored): does not " \
        "hold: x=2:NO C = 2: 2000±0 vs min(2 × 2000±0, 8218)" in holds.detail, holds.detail
    assert cl._linear(_scored({1.0: one, 2.0: one, 3.0: 3 * one})).verdict is Verdict.DOES_NOT_HOLD
    assert cl._linear(sd(3, {"random": {1.0: one, 2.0: 2 * one}})).verdict is Verdict.INCONCLUSIVE


def _retx(shares: Mapping[str, tuple[float, float, int] | list[float]]) -> StudyData:
    """Fig. 3's one-circuit retransmission counters from shares of the file's segments:
    (mean, half, n) or each replication's share; a key ``<curve>_thr`` gives the
    curve's throughput (bit/s) instead."""
    def counts(v: tuple[float, float, int] | list[float], k: float) -> tuple[float, float, int] | list[float]:
        if isinstance(v, list):
            return [x * k for x in v]
        m, h, n = v
        return (m * k, h * k, n)
    return sd(3, {(c[:-4] if c.endswith("_thr") else f"{c}.tcp_segments_retransmitted"):
                  {1.0: counts(v, 1.0 if c.endswith("_thr") else SEGMENTS)} for c, v in shares.items()})


def test_distinct_transfers_are_the_replications_unless_all_are_one_transfer() -> None:
    """Review of revision 13, finding 12: one deterministic transfer is decided from the
    transfer (the replications' throughputs identical), not from the share re-sent."""
    same = (1584.0, 1584.0, 1584.0)
    assert cl.distinct_transfers((0.3, 0.3, 0.3), same) == ((0.3,), True), "a deterministic transfer run 3 times"
    assert cl.distinct_transfers((0.3, 0.3, 0.3), (1584.0, 1590.0, 1584.0)) == ((0.3, 0.3, 0.3), False), \
        "identical shares of different transfers (4.2BSD's drawn tick phase): each a test"
    assert cl.distinct_transfers((0.3, 0.3, 0.3)) == ((0.3, 0.3, 0.3), False), "throughputs unknown: each a test"
    assert cl.distinct_transfers((0.3,), (1584.0,)) == ((0.3,), False), "one replication shows no determinism"
    assert cl.distinct_transfers((0.3, 0.2, 0.3), same) == ((0.3, 0.2, 0.3), False)
    assert cl.distinct_transfers((0.3, 0.3), (1584.0, float("nan"))) == ((0.3, 0.3), False)
    assert cl.distinct_transfers((0.3, float("nan"))) == ((0.3,), False)
    assert cl.distinct_transfers(()) == ((), False)


@pytest.mark.parametrize("over,share,final,verdict", [
    (2, Est(2 / 3, 1.43, 3), False, Verdict.HOLDS),  # two tests over: several
    (1, Est(1 / 3, 1.43, 3), False, Verdict.INCONCLUSIVE),  # one: another test may be
    (0, Est(0.0, 0.0, 3), False, Verdict.DOES_NOT_HOLD),  # none of three
    (0, Est(0.0, 0.0, 1), False, Verdict.INCONCLUSIVE),  # a single test says nothing of the others
    (1, Est(1.0, 0.0, 1), True, Verdict.HOLDS),  # one deterministic transfer over: every test would be
    (0, Est(0.0, 0.0, 1), True, Verdict.DOES_NOT_HOLD),  # one deterministic transfer not over: none would be
    (0, Est(0.0, 0.1, 20), False, Verdict.INCONCLUSIVE),  # upper end 0.1 × 20 tests = 2: several not ruled out
    (0, Est(0.0, 0.099, 20), False, Verdict.DOES_NOT_HOLD),  # 1.98 tests: fewer than several
])
def test_over_10pct_rule_at_several_tests(over: int, share: Est, final: bool, verdict: Verdict) -> None:
    assert cl.over_10pct(over, share, final) is verdict


@pytest.mark.parametrize("shares,verdict", [
    ({"tcp": (0.125, 0.0, 3), "tcp_thr": (1584.0, 0.0, 3)}, Verdict.HOLDS),  # one deterministic transfer over 10 %
    ({"tcp": (0.1, 0.0, 3), "tcp_thr": (1584.0, 0.0, 3)}, Verdict.DOES_NOT_HOLD),  # one at exactly 10 %: not over
    ({"tcp": (0.125, 0.0, 1)}, Verdict.INCONCLUSIVE),  # one test, not shown deterministic: one of several
    ({"tcp": [0.125, 0.125, 0.125], "tcp_thr": [1584.0, 1590.0, 1600.0]}, Verdict.HOLDS),  # identical shares, 3 tests
    ({"tcp": (0.125, 0.0, 10), "random": (0.0, 0.0, 10)}, Verdict.HOLDS),  # the random variant is not counted
    ({"tcp": (0.1, 0.0, 10), "random": (0.125, 0.0, 10)}, Verdict.DOES_NOT_HOLD),  # exactly 10 % is not over
    ({"tcp": (0.1 + 1e-9, 0.0, 10)}, Verdict.HOLDS),  # just over 10 %
    ({"tcp": [0.05, 0.11, 0.12]}, Verdict.HOLDS),  # two of three replications over: several
    ({"tcp": [0.05, 0.11, 0.09], "random": (0.3, 0.0, 3), "bursty": (0.3, 0.0, 3)},
     Verdict.INCONCLUSIVE),  # one of three over; the assumed variants' tests over are not counted
    ({"tcp": [0.05, 0.10, 0.09, 0.0]}, Verdict.DOES_NOT_HOLD),  # none of four tests over 10 %
    ({"tcp": (0.2, 0.05, 10)}, Verdict.INCONCLUSIVE),  # replications not kept: unknown
    ({"random": [0.3, 0.4, 0.5]}, Verdict.INCONCLUSIVE),  # the stated condition not run
])
def test_over_10pct_counts_the_stated_conditions_tests(shares: dict[str, tuple[float, float, int] | list[float]],
                                                      verdict: Verdict) -> None:
    """Finding 6 of review 26: only the transfer under the stated condition (T_N
    constant, the vendor's mean) is counted, each replication a test, identical ones
    one test; a deterministic transfer over 10 % holds a fortiori (every test would be
    over). The random and bursty T_N variants (assumed distributions) are reported."""
    out = cl._over_10pct(_retx(shares))
    assert out.verdict is verdict, out.detail


def _counters(seg: float, dgrams: float, packets: float, octets: float) -> StudyData:
    return sd(3, {"tcp.tcp_segments_sent": {1.0: seg}, "tcp.x25_datagrams_sent": {1.0: dgrams},
                  "tcp.x25_data_packets_sent": {1.0: packets}, "tcp.x25_datagram_octets_sent": {1.0: octets}})


def test_headers_and_packet_fill_are_reported_beside_the_bound_not_scored() -> None:
    """§4's first and third reasons are arithmetic of the 492-octet datagram (2860 ×
    452/492; 492 octets in 512 of packets): no declared input moves them, so they are
    reported in fig3.single_below_bound's detail from the counters, not scored. Counters:
    100 data segments and 20 pure ACKs (one 40-octet packet each, taken out of the counts)."""
    ids = [c.id for c in figure(3).claims]
    assert "fig3.reason_headers" not in ids and "fig3.reason_unfilled_packets" not in ids
    data = sd(3, {"tcp": {1.0: 2000.0}, "tcp.tcp_segments_sent": {1.0: 100.0}, "tcp.x25_datagrams_sent": {1.0: 120.0},
                  "tcp.x25_data_packets_sent": {1.0: 60.0},
                  "tcp.x25_datagram_octets_sent": {1.0: 5000.0 + 20 * HEADER_OCTETS}})
    out = cl._single_below_bounds(data)
    assert out.verdict is Verdict.HOLDS
    # 100 × 40 / 5000 = 80 %: headers; 5000 / (128 × 40 data packets) = 97.7 % full.
    assert "TCP/IP headers 80.0% of the data datagrams' octets (paper: 1 − 2631/2860 = 8.0%)" in out.detail, out.detail
    assert "data packets 97.7% full (RFC 877 with 492-octet datagrams: 96.1%)" in out.detail, out.detail
    assert "reported, not scored" in out.detail
    assert cl._single_below_bounds(sd(3, {"tcp": {1.0: 2000.0}})).detail.endswith(
        "headers and packet fill: missing counters")


def test_linear_expected_is_c_times_one_up_to_the_line_cap() -> None:
    cap = theory.line_user_bps()
    assert cl.linear_expected(Est(cap / 2, 10.0, 5), 2.0) == Est(cap, 20.0, 5), "exactly the cap: scaled"
    assert cl.linear_expected(Est(cap / 2, 10.0, 5), 3.0) == Est(cap, 0.0), "above: the cap"


def test_crowded_and_busy_regions_are_strictly_more_destinations_than_channels() -> None:
    fd = fig(7, {"lru": {float(x): 1.0 for x in range(1, CM_CHANNELS + 3)}})
    assert cl._crowded_xs(fd, "lru") == [CM_CHANNELS + 1.0, CM_CHANNELS + 2.0]
    assert cl._busy_xs(fd, "lru")[0] == CM_CHANNELS - CM_K_RESERVED + 1.0


@pytest.mark.parametrize("with_t_min,verdict", [(0.5, Verdict.HOLDS), (0.625, Verdict.DOES_NOT_HOLD)])
def test_t_min_prevents_thrashing_at_most_10_percent_of_the_controls_closes(with_t_min: float, verdict: Verdict) -> None:
    xs = (CM_CHANNELS - 1.0, CM_CHANNELS + 2.0)
    curves = {"mlru_no_t_min": dict.fromkeys(xs, 5.0), "mlru": dict.fromkeys(xs, 0.0),
              "multi_mlru": {xs[0]: 5.0, xs[1]: with_t_min}}
    assert cl.t_min_prevents_thrashing(sd(7, curves)).verdict is verdict
    only_few = {k: {xs[0]: v[xs[0]]} for k, v in curves.items()}
    assert cl.t_min_prevents_thrashing(sd(7, only_few)).verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("rate,half,verdict", [
    (2200.0, 0.0, Verdict.HOLDS),
    (2150.0, 0.0, Verdict.HOLDS),  # the band's lower edge
    (2250.0, 0.0, Verdict.HOLDS),  # its upper edge
    (2149.0, 0.0, Verdict.DOES_NOT_HOLD),  # just below
    (2251.0, 0.0, Verdict.DOES_NOT_HOLD),  # just above
    (2170.0, 10.0, Verdict.HOLDS),  # CI [2160, 2180] inside
    (2150.0, 10.0, Verdict.INCONCLUSIVE),  # CI straddles 2150
    (2130.0, 10.0, Verdict.DOES_NOT_HOLD),  # CI [2120, 2140] wholly below
    (1641.0, 0.0, Verdict.DOES_NOT_HOLD),  # the model's night rate
])
def test_single_reaches_2200_within_the_figures_precision_at_the_best_hour(rate: float, half: float,
                                                                            verdict: Verdict) -> None:
    """Conclusions: "it sometimes achieves 23% of the line capacity (2200 bps)": the
    one-circuit rate at the best hour's T_N within 2200 ± 50, both edges, the CI wholly
    in (holds) or out (does not hold); with every anchor of the profile giving that
    rate, the claim's verdict is the rule's; the constant-T_N curve is not read."""
    assert cl.single_reaches_2200(Est(rate, half, 5)) is verdict
    claim = next(c for c in cl.fig3_claims() if c.id == "fig3.single_reaches_2200")
    every = {f"{cl.BEST_HOUR}.{a}": {1.0: (rate, half, 5)} for a in FIG2_T_N_ANCHORS}
    assert claim.check(sd(3, {**every, "tcp": {1.0: 2200.0}})).verdict is verdict
    assert claim.check(sd(3, {"tcp": {1.0: 2200.0}})).verdict is Verdict.INCONCLUSIVE, "no best-hour point"


@pytest.mark.parametrize("night,mean,verdict", [
    (2200.0, 2200.0, Verdict.HOLDS),  # both anchors in the band
    (2200.0, 2300.0, Verdict.INCONCLUSIVE),  # as the 24-hour mean above it: the anchor decides it
    (1641.0, 2100.0, Verdict.DOES_NOT_HOLD),  # below under both anchors
    (2300.0, 2400.0, Verdict.DOES_NOT_HOLD),  # above under both anchors
    (1641.0, 2251.0, Verdict.INCONCLUSIVE),  # just outside on both sides: an anchor between reaches it
    (1641.0, 2149.0, Verdict.DOES_NOT_HOLD),  # just below at most
    (1641.0, (2100.0, 60.0), Verdict.INCONCLUSIVE),  # the 24-hour-mean anchor's CI reaches the band
])
def test_single_reaches_2200_is_inconclusive_when_the_profiles_anchor_decides_it(
        night: float, mean: float | tuple[float, float], verdict: Verdict) -> None:
    """Finding 10 of the review of revision 11: the best hour's T_N follows from what the
    vendor's mean is in Fig. 2's assumed profile (night or 24-hour mean: declared with
    that range; business hours, revision 12's third level, has no source and is dropped:
    review 26, finding 7), so the claim is read under each anchor and is inconclusive
    when they disagree or lie on both sides of 2200 ± 50."""
    m, h = mean if isinstance(mean, tuple) else (mean, 0.0)
    ests = [Est(night, 0.0, 5), Est(m, h, 5)]
    assert FIG2_T_N_ANCHORS == ("night", "mean")
    assert cl.reaches_under_anchors(ests) is verdict
    claim = next(c for c in cl.fig3_claims() if c.id == "fig3.single_reaches_2200")
    data = sd(3, {f"{cl.BEST_HOUR}.night": {1.0: night}, f"{cl.BEST_HOUR}.mean": {1.0: (m, h, 5)}, "tcp": {1.0: night}})
    out = claim.check(data)
    assert out.verdict is verdict, out.detail
    assert "vendor's mean at night (best hour 235.0 ms)" in out.detail and "at mean (best hour 170.9 ms)" in out.detail
    assert "day" not in out.detail
    assert ("the anchor decides it" in out.detail) is (verdict is Verdict.INCONCLUSIVE)
    assert "the constant-T_N transfer fig3.single_below_2200 reads" in out.detail
    assert cl.reaches_under_anchors([]) is Verdict.INCONCLUSIVE

def _with_variants(base: Curves, variants: Mapping[str, Curves]) -> StudyData:
    rows = []
    for variant, curves in (("", base), *variants.items()):
        for c, pts in curves.items():
            for x, v in pts.items():
                rows.append({"curve": c, "variant": variant, "x": x, "y": v, "y_ci95_half_width": 0.0, "n": 5})
    return StudyData({3: FigureData(figure(3), pd.DataFrame(rows))})


def _one_over_2000(d: StudyData) -> cl.Outcome:
    """A stand-in claim: the one-circuit rate over 2000."""
    v = d[3].est("tcp", 1.0).mean
    return cl.Outcome(Verdict.HOLDS if v > 2000 else Verdict.DOES_NOT_HOLD, f"{v:g}")


def test_decided_by_is_inconclusive_when_a_declared_inputs_levels_disagree_and_lists_each() -> None:
    check = cl.decided_by(_one_over_2000, cl.BSD42_TIMING_LEVELS)
    d = _with_variants({"tcp": {1.0: 1641.0}}, {"bsd42_6_2": {"tcp": {1.0: 2155.0}}})
    out = check(d)
    assert out.verdict is Verdict.INCONCLUSIVE
    assert "decided by the 4.2BSD round-trip timing (tcp_input: does not hold, tcp_output: holds)" in out.detail
    assert "primary reading: does not hold" in out.detail
    # Under the variant itself the variant is the reading: no comparison.
    assert check(d.with_variant(3, "bsd42_6_2")).verdict is Verdict.HOLDS


def test_decided_by_keeps_the_primary_verdict_when_every_level_agrees() -> None:
    check = cl.decided_by(_one_over_2000, cl.BSD42_TIMING_LEVELS, cl.PLACEMENT_LEVELS, reported=())
    d = _with_variants({"tcp": {1.0: 2001.0}}, {"bsd42_6_2": {"tcp": {1.0: 2155.0}},
                                                "host_to_host": {"tcp": {1.0: 2422.0}}})
    out = check(d)
    assert out.verdict is Verdict.HOLDS and out.detail == "2001"
    # One level just the other side of the stand-in's threshold decides it.
    d = _with_variants({"tcp": {1.0: 2001.0}}, {"bsd42_6_2": {"tcp": {1.0: 2155.0}},
                                                "host_to_host": {"tcp": {1.0: 2000.0}}})
    out = check(d)
    assert out.verdict is Verdict.INCONCLUSIVE and "decided by the T_N placement" in out.detail
    assert "round-trip timing" not in out.detail
    # A level whose variant was not run is left out (here: none run, the primary stands).
    assert cl.decided_by(_one_over_2000, cl.BSD42_TIMING_LEVELS)(_with_variants({"tcp": {1.0: 1.0}}, {})).verdict \
        is Verdict.DOES_NOT_HOLD


@pytest.mark.parametrize("primary,reno,verdict", [
    (1641.0, 2155.0, Verdict.DOES_NOT_HOLD),  # Reno holds: reported, the 1983 reading stands
    (2001.0, 1641.0, Verdict.HOLDS),  # Reno does not hold: reported, the 1983 reading stands
    (2001.0, 2001.0, Verdict.HOLDS),
])
def test_decided_by_reports_a_later_tcp_beside_the_verdict_and_never_lets_it_decide(
        primary: float, reno: float, verdict: Verdict) -> None:
    """Review 26 (revision 13), finding 1: Reno (1990) and NewReno (1999) are not TCPs a
    1983 VAX ran, so they are no level of any claim: the verdict is the 1983 readings',
    Reno's printed after the detail ("a later TCP")."""
    check = cl.decided_by(_one_over_2000, cl.BSD42_TIMING_LEVELS)
    d = _with_variants({"tcp": {1.0: primary}}, {"tcp_reno": {"tcp": {1.0: reno}},
                                                 "bsd42_6_2": {"tcp": {1.0: primary}}})
    out = check(d)
    reno_says = "holds" if reno > 2000 else "does not hold"
    assert out.verdict is verdict, out.detail
    assert out.detail == f"{primary:g}; a later TCP (reported, not a level): Reno: {reno_says}"
    # With a 1983 level disagreeing, inconclusive; Reno still only printed.
    d = _with_variants({"tcp": {1.0: primary}}, {"tcp_reno": {"tcp": {1.0: primary}},
                                                 "bsd42_6_2": {"tcp": {1.0: 4000.0 - primary}}})
    out = check(d)
    assert out.verdict is Verdict.INCONCLUSIVE and out.detail.startswith("decided by the 4.2BSD round-trip timing")
    assert out.detail.endswith(f"a later TCP (reported, not a level): Reno: {verdict.value}")
    # The TCP flavour is no input of any claim (its 1983 levels are the timing's).
    assert not hasattr(cl, "FLAVOUR_LEVELS")
    assert all(v != "tcp_reno" for _, levels in (cl.BSD42_TIMING_LEVELS, cl.PLACEMENT_LEVELS) for _, v in levels)


_WINDOWS = ("a larger socket buffer than 4.2BSD's default, with no send buffer in the model, so the whole window "
            "goes out (reported, not a level)")


@pytest.mark.parametrize("primary,w4096,w8192,verdict", [
    (2001.0, 2001.0, 2001.0, Verdict.HOLDS),
    (2001.0, 1999.0, 2001.0, Verdict.HOLDS),  # 4096 the other side: reported, the 2048 reading stands
    (1999.0, 2001.0, 2001.0, Verdict.DOES_NOT_HOLD),  # both larger windows the other side: still reported
])
def test_decided_by_reports_the_larger_receive_windows_and_never_lets_them_decide(
        primary: float, w4096: float, w8192: float, verdict: Verdict) -> None:
    """Revision 14: a 1983 4.2BSD sender has at most its 2048-octet send buffer
    outstanding (tcp_sendspace until 85/03/18), so 2048 is the window's one plausible
    level; 4096 and 8192 (rwnd_4096, rwnd_8192) are printed beside the verdict, before
    Reno, and never decide it, alone or with a 1983 level disagreeing."""
    check = cl.decided_by(_one_over_2000, *cl.EVERY_LEVEL)
    d = _with_variants({"tcp": {1.0: primary}}, {"rwnd_4096": {"tcp": {1.0: w4096}}, "rwnd_8192": {"tcp": {1.0: w8192}},
                                                 "tcp_reno": {"tcp": {1.0: primary}}})
    out = check(d)
    says = {w: "holds" if r > 2000 else "does not hold" for w, r in ((4096, w4096), (8192, w8192))}
    assert out.verdict is verdict, out.detail
    assert out.detail == (f"{primary:g}; {_WINDOWS}: 4096: {says[4096]}, 8192: {says[8192]}; "
                          f"a later TCP (reported, not a level): Reno: {verdict.value}")
    # No claim has the window as a level: every wrapped claim reports it instead.
    for c in cl.fig3_claims():
        for name, _ in getattr(c.check, "levels", ()):
            assert "window" not in name, (c.id, name)
    # A 1983 level the other side decides it; the windows are still only printed.
    d = _with_variants({"tcp": {1.0: primary}}, {"bsd42_6_2": {"tcp": {1.0: 4000.0 - primary}},
                                                 "rwnd_4096": {"tcp": {1.0: primary}}})
    out = check(d)
    assert out.verdict is Verdict.INCONCLUSIVE and out.detail.startswith("decided by the 4.2BSD round-trip timing")
    assert "receive window" not in out.detail and out.detail.endswith(f"{_WINDOWS}: 4096: {verdict.value}")


def _reaches(curves: Mapping[str, float], variants: Mapping[str, float]) -> StudyData:
    """Fig. 3 with the best hour's one-circuit rate under both anchors, the primary's and
    each variant's (the same rate under both anchors)."""
    best = {f"{cl.BEST_HOUR}.{a}": {1.0: curves["best"]} for a in FIG2_T_N_ANCHORS}
    return _with_variants({**best, "tcp": {1.0: curves["best"]}},
                          {v: {f"{cl.BEST_HOUR}.{a}": {1.0: r} for a in FIG2_T_N_ANCHORS} | {"tcp": {1.0: r}}
                           for v, r in variants.items()})


@pytest.mark.parametrize("primary,timing_6_2,reno,verdict", [
    (2200.0, 2200.0, 1641.0, Verdict.HOLDS),  # both 1983 timings in 2200 ± 50; Reno below, reported
    (1584.0, 1811.0, 2155.0, Verdict.DOES_NOT_HOLD),  # both below; Reno in the band, reported
    (2149.0, 2149.0, 2200.0, Verdict.DOES_NOT_HOLD),  # just below under both timings
    (2150.0, 2149.0, 2200.0, Verdict.INCONCLUSIVE),  # the band's edge under 6.1, just below under 6.2
    (1584.0, 2200.0, 1584.0, Verdict.INCONCLUSIVE),  # the timing decides it
])
def test_single_reaches_2200_is_held_to_the_standard_of_single_below_2200(
        primary: float, timing_6_2: float, reno: float, verdict: Verdict) -> None:
    """Review 26 (revision 13), finding 2: both halves of "2200" under one rule. The
    lower side reads the best hour's curves under every variant decided_by reads (the
    6.2 timing here), inconclusive if a 1983 level decides it; Reno is reported beside
    it, never deciding it (its night rate 2155 is in the band)."""
    claim = next(c for c in cl.fig3_claims() if c.id == "fig3.single_reaches_2200")
    sibling = next(c for c in cl.fig3_claims() if c.id == "fig3.single_below_2200")
    assert claim.sensitivity == sibling.sensitivity
    out = claim.check(_reaches({"best": primary}, {"bsd42_6_2": timing_6_2, "tcp_reno": reno}))
    assert out.verdict is verdict, out.detail
    reno_says = cl.single_reaches_2200(Est(reno, 0.0, 5)).value
    assert out.detail.endswith(f"a later TCP (reported, not a level): Reno: {reno_says}"), out.detail
    if verdict is Verdict.INCONCLUSIVE:
        assert "decided by the 4.2BSD round-trip timing" in out.detail


def test_every_fig3_variant_a_claim_is_decided_by_runs_the_curves_the_claim_reads() -> None:
    """Each level's variant is among the claim's reported sensitivities, and each varies
    every curve the claim reads that its runs feed (data.inapplicable_variants: none),
    the best hour's curves included (review 26, finding 2)."""
    from arqlab.studies.data import inapplicable_variants
    from arqlab.studies.plan import RunSettings, plan_figure

    f = figure(3)
    names = {s.name for s in f.sensitivities}
    assert {"tcp_reno", "bsd42_6_2", "host_to_host", "host_to_host_busy", "rwnd_4096", "rwnd_8192"} == names
    for c in f.claims:
        for _, levels in getattr(c.check, "levels", ()):
            for _, variant in levels:
                assert variant is None or variant in c.sensitivity, (c.id, variant)
    for name in names:
        curves = next(s for s in f.sensitivities if s.name == name).curves
        assert {f"{cl.BEST_HOUR}.{a}" for a in FIG2_T_N_ANCHORS} <= set(curves), name
    pts, _, _ = plan_figure(f, RunSettings(quick=True, seed=1, replications=3, precision=None))
    frame = pd.DataFrame([{"curve": p.curve, "variant": p.variant, "x": p.x, "y": float("nan"),
                           "y_ci95_half_width": float("nan"), "n": 0, "run": p.run, "direction": p.direction,
                           "measure": p.measure, "norm": p.norm} for p in pts])
    assert inapplicable_variants(f.claims, {3: f}, StudyData({3: FigureData(f, frame)})) == []
    wrapped = {c.id for c in f.claims if getattr(c.check, "levels", ())}
    assert {"fig3.saturation_at_3", "fig3.busy_at_3", "fig3.no_gain_when_saturated", "fig3.c_max_formula",
            "fig3.single_reaches_2200", "fig3.single_below_2200"} <= wrapped
    # The larger windows are reported beside every wrapped claim (its sensitivity list
    # has them), a level of none.
    assert all({"rwnd_4096", "rwnd_8192"} <= set(c.sensitivity) for c in f.claims if c.id in wrapped)
    assert not any(v in ("rwnd_4096", "rwnd_8192") for c in f.claims for _, levels in getattr(c.check, "levels", ())
                   for _, v in levels)


# ----------------------------------------- revision 13: review 26's findings 4 (item 2) and 5 (item 3)

@pytest.mark.parametrize("placement,c_max,busy_at_3,line_at_3", [
    ("between_dces", 3.624, 0.828, 0.828),  # the primary: C = 3 can never reach 95 %
    ("host_to_host", 3.190, 0.941, 0.941),  # T_f idle: a knife edge under 95 %
    ("host_to_host_busy", 2.877, 1.0, 0.884),  # T_f busy: the interface 100 %, its line T_p/(T_p + T_f)
])
def test_interface_busy_share_at_3_closed_forms_by_t_n_placement(placement: str, c_max: float, busy_at_3: float,
                                                                 line_at_3: float) -> None:
    """Review 26, finding 4's closed forms from theory.py's times (T_p 114.2 ms, T_rr
    7.5 ms): C_max = cycle / (W (T_p + h)) and the sending interface's busy share
    min(1, C / C_max) at C = 3, by where T_N is measured. The review's "line 92.2 %"
    under host_to_host_busy is 3 W T_p / cycle without the cap: an interface more than
    100 % busy; with the cap the line is busy T_p of each T_p + 15 ms, 88.4 %."""
    from arqlab.studies.comer_korb import scenarios

    p = {"placement": placement}
    relay, h = scenarios.relay_t_n(p), scenarios.host_processing_s(p)
    assert theory.interface_c_max(relay, h) == pytest.approx(c_max, abs=5e-4)
    assert theory.interface_busy_share(3, relay, h) == pytest.approx(busy_at_3, abs=5e-4)
    assert theory.line_busy_share_bound(3, relay, h) == pytest.approx(line_at_3, abs=5e-4)
    assert (theory.interface_busy_share(3, relay, h) >= 0.95) is (placement == "host_to_host_busy")
    if placement == "host_to_host_busy":
        assert 3 * 2 * theory.T_P_S / theory.burst_cycle_s(relay, h) == pytest.approx(0.922, abs=5e-4)
    assert theory.interface_c_max() == pytest.approx(theory.model_c_max()), "no processing: the model's own C_max"


def _busy_variant(busy_s: float, interface_s: float | None) -> FigureData:
    """Fig. 3 at C = 3 under host_to_host_busy (15 ms per packet processed) at the
    throughput UNIT/256, a transfer of 128 s (the lines' share = busy seconds summed
    over both ends / 256), the sending interface busy ``interface_s`` seconds (its
    share = interface_s / 128; None: not measured)."""
    curves: dict[str, dict[float, float]] = {"tcp": {3.0: FLAT}, "tcp.x25_line_busy_s": {3.0: busy_s}}
    if interface_s is not None:
        curves["tcp.x25_interface_busy_s"] = {3.0: interface_s}
    frame = fig(3, curves).frame
    both = pd.concat([frame, frame.assign(variant="host_to_host_busy")], ignore_index=True)
    return FigureData(figure(3), both, "host_to_host_busy")


def test_interface_busy_share_is_the_senders_interface_over_the_transfer() -> None:
    """Review of revision 13, finding 3: under host_to_host_busy the scored share is the
    sending interface's, `x25_interface_busy_s` (its frames and processing, their union;
    the receiver reports 0) over one transfer's duration, not the two ends' lines plus
    every packet both processed; with no processing (the primary) it is the lines'
    share exactly; the measure missing leaves it unknown."""
    from arqlab.studies.comer_korb import saturation as sat

    fd = _busy_variant(128.0, 120.0)
    assert sat.line_busy_share(fd, "tcp", 3.0).mean == pytest.approx(0.5)
    assert sat.interface_busy_share(fd, "tcp", 3.0).mean == pytest.approx(120.0 / 128)
    base = fd.with_variant("")
    assert sat.interface_busy_share(base, "tcp", 3.0).mean == sat.line_busy_share(base, "tcp", 3.0).mean == 0.5
    assert math.isnan(sat.interface_busy_share(_busy_variant(128.0, None), "tcp", 3.0).mean)


@pytest.mark.parametrize("busy_3,verdict", [
    (0.95, Verdict.HOLDS),  # the sending interface exactly 95 % busy at C = 3 (lines 60 %)
    (0.95 - 1e-6, Verdict.DOES_NOT_HOLD),  # just under: first at 4
    ((0.95, 0.02), Verdict.INCONCLUSIVE),  # a CI straddling 95 % at C = 3: 3 or 4
])
def test_busy_at_3_reads_the_sending_interface_under_host_to_host_busy(busy_3: float | tuple[float, float],
                                                                       verdict: Verdict) -> None:
    """fig3.busy_at_3 under host_to_host_busy reads the sending interface
    (`x25_interface_busy_s`): lines 60 % busy at C = 3 and the interface exactly 95 %
    hold, a millionth under does not, a CI straddling 95 % is inconclusive; the lines
    alone would never pass. The detail names the burst model's bound at C = 3 for the
    placement (100 % here)."""
    mean3, half3 = busy_3 if isinstance(busy_3, tuple) else (busy_3, 0.0)
    tput = {c: FLAT for c in (1.0, 2.0, 3.0, 4.0)}
    lines = {1.0: 0.3, 2.0: 0.5, 3.0: 0.6, 4.0: 0.62}
    share: dict[float, float | tuple[float, float, int]] = {1.0: 0.5 * 128, 2.0: 0.75 * 128, 4.0: 0.99 * 128}
    share[3.0] = (mean3 * 128, half3 * 128, 5) if half3 else mean3 * 128
    curves: dict[str, dict[float, float | tuple[float, float, int]]] = {
        "tcp": dict(tput), "tcp.x25_line_busy_s": {c: lines[c] * 256 for c in tput}, "tcp.x25_interface_busy_s": share}
    frame = fig(3, curves).frame
    both = pd.concat([frame, frame.assign(variant="host_to_host_busy")], ignore_index=True)
    out = cl._busy_at(StudyData({3: FigureData(figure(3), both, "host_to_host_busy")}))
    assert out.verdict is verdict, out.detail
    assert "bound at C = 3 under this T_N placement: 100.0%" in out.detail, out.detail
    assert "C = 3: " + f"{100 * mean3:.1f}% (lines 60.0%)" in out.detail
    primary = cl._busy_at(StudyData({3: FigureData(figure(3), frame)}))
    assert primary.verdict is Verdict.DOES_NOT_HOLD and "82.8%" in primary.detail, "lines alone: never"


def _limited(blocked: Mapping[float, float | tuple[float, float, int]], busy: float = 0.5) -> StudyData:
    """Fig. 3 at the X.25 bound at C = 1-3, lines ``busy`` of the transfer (no copies),
    datagrams waiting for P(R) ``blocked`` seconds."""
    bound = theory.model_fig3_bound_bps
    tput = {c: bound(c) for c in (1.0, 2.0, 3.0)}
    return sd(3, {"tcp": tput, "tcp.x25_line_busy_s": {c: busy * UNIT / tput[c] for c in tput},
                  f"tcp.{cl.BLOCKED}": dict(blocked)})


def _idle(c: float, busy: float = 0.5) -> float:
    """The interface's idle seconds at C (the transfer's duration × (1 − busy))."""
    return 8 * FILE_OCTETS / theory.model_fig3_bound_bps(c) * (1 - busy)


@pytest.mark.parametrize("share_2,half,verdict", [
    (1.0, 0.0, Verdict.HOLDS),  # datagrams wait for P(R) through all the idle time
    (cl.BLOCKED_SHARE, 0.0, Verdict.HOLDS),  # exactly half of it at C = 2
    (cl.BLOCKED_SHARE - 1e-6, 0.0, Verdict.DOES_NOT_HOLD),  # just under: TCP offered nothing the larger part
    (0.0, 0.0, Verdict.DOES_NOT_HOLD),  # TCP's window: no datagram ever waits
    (cl.BLOCKED_SHARE, 0.1, Verdict.INCONCLUSIVE),  # the CI straddles one half
])
def test_limited_by_network_delay_needs_datagrams_waiting_for_p_r_most_of_the_idle_time(
        share_2: float, half: float, verdict: Verdict) -> None:
    """Review 26, finding 5: the throughput at the X.25 window bound is not enough; the
    mechanism must be the network's: data waiting for P(R) with no circuit to its site free
    (`x25_window_blocked_s`) through at least half its idle time, the rest being time
    TCP offered nothing. At C = 1 and 3 all the idle time; at C = 2 ``share_2`` of it.
    Without the counter (no interface queue) the mechanism is unknown: inconclusive."""
    blocked: dict[float, float | tuple[float, float, int]] = {c: _idle(c) for c in (1.0, 3.0)}
    blocked[2.0] = (share_2 * _idle(2.0), half * _idle(2.0), 5)
    out = cl._limited_by_network(_limited(blocked))
    assert out.verdict is verdict, out.detail
    assert f"datagrams waiting for P(R), share of the idle time: C = 1: 100.0%, C = 2: {100 * share_2:.1f}%" \
        in out.detail, out.detail
    bound = theory.model_fig3_bound_bps
    unmeasured = sd(3, {"tcp": {c: bound(c) for c in (1.0, 2.0, 3.0)}})
    assert cl._limited_by_network(unmeasured).verdict is Verdict.INCONCLUSIVE
    assert "not measured (no interface queue)" in cl._limited_by_network(unmeasured).detail


def test_blocked_share_is_the_wait_for_p_r_over_the_idle_time_with_its_ci() -> None:
    """The share's CI: the blocked time's, the throughput's and the busy share's relative
    half-widths in quadrature; a fully busy interface or a missing counter: NaN."""
    e = cl.blocked_share(_limited({1.0: (0.5 * _idle(1.0), 0.03 * _idle(1.0), 5)})[3], "tcp", 1.0)
    assert e.mean == pytest.approx(0.5) and e.half == pytest.approx(0.5 * 0.06)
    assert math.isnan(cl.blocked_share(_limited({1.0: 1.0}, busy=1.0)[3], "tcp", 1.0).mean)
    assert math.isnan(cl.blocked_share(_limited({})[3], "tcp", 1.0).mean)
