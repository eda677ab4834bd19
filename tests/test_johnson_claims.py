"""Johnson's claims at their boundaries, on synthetic Tables 1 and 2: the paper's own
numbers with one group of cells moved just inside and just outside the threshold each
claim's sentence sets (claims.py says why each threshold)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from arqlab.studies import johnson as jo  # noqa: E402
from arqlab.studies.artefacts.curves import FigureData  # noqa: E402
from arqlab.studies.data import StudyData  # noqa: E402
from arqlab.studies.johnson import claims as cl  # noqa: E402
from arqlab.studies.johnson import params  # noqa: E402
from arqlab.studies.johnson import published as P  # noqa: E402
from arqlab.studies.verdicts import Est, Verdict  # noqa: E402

#: (figure, protocol, x) -> message throughput (bit/s).
Cells = dict[tuple[int, str, float], float]


def paper_cells() -> Cells:
    return {(n, p, x): table.throughput_bps(p, channel)
            for n, table in ((1, P.TABLE_1), (2, P.TABLE_2)) for p in P.PROTOCOLS
            for x, (channel, _, _) in params.CHANNEL_X.items()}


def study_data(cells: Mapping[tuple[int, str, float], float]) -> StudyData:
    figs = {}
    for n in (1, 2):
        rows = [{"curve": v, "variant": "", "x": x, "y": y, "y_ci95_half_width": 0.0, "n": 1}
                for (f, p, x), y in cells.items() if f == n for v in (params.PAPER_CURVES[p],)]
        rows += [{**r, "curve": f"{r['curve']}.latency", "y": P.MESSAGE_BITS / r["y"]} for r in list(rows)]
        figs[n] = FigureData(jo.figure(n), pd.DataFrame(rows))
    return StudyData(figs)


def verdict(check: Callable[[StudyData], object], cells: Cells) -> str:
    return str(check(study_data(cells)).verdict)  # type: ignore[attr-defined]


def _ratio(cells: Cells, p: str) -> float:
    return sum(cells[(2, p, x)] for x in params.CHANNEL_X) / sum(cells[(1, p, x)] for x in params.CHANNEL_X)


def _with_ratio(p: str, target: float) -> Cells:
    """The paper's cells with protocol p's HMTP throughputs scaled to an HMTP/SMTP ratio."""
    cells = paper_cells()
    k = target / _ratio(cells, p)
    for x in params.CHANNEL_X:
        cells[(2, p, x)] *= k
    return cells


@pytest.mark.parametrize(("protocol", "ratio", "expected"), [
    ("HDL", 4.45, "holds"), ("HDL", 4.55, "does not hold"),          # upper bound 3 + 50 %
    ("HDL-1d", 1.52, "holds"), ("HDL-1d", 1.48, "does not hold"),    # lower bound 3 − 50 %
])
def test_hmtp_threefold_bounds_each_protocols_ratio_on_both_sides(protocol: str, ratio: float, expected: str) -> None:
    cells = _with_ratio(protocol, ratio)
    assert _ratio(cells, protocol) == pytest.approx(ratio)
    out = cl.hmtp_threefold(study_data(cells))
    assert str(out.verdict) == expected, out.detail
    assert "each in [1.5, 4.5]" in out.detail


def test_hmtp_threefold_fails_on_hdl_at_twice_the_paper() -> None:
    # The round-2 model's HDL ratio: 5.99 (paper 3.44) with the others as the paper.
    assert verdict(cl.hmtp_threefold, _with_ratio("HDL", 5.99)) == "does not hold"


def _hmtp_25(x: float) -> Cells:
    """HMTP 25 dB cells with the modem effect 0 and selective repeat's main effect
    (2x − 200)/4 vs duplex's (800 − 2x)/4 bit/s: equal at x = 250."""
    cells = paper_cells()
    cells.update({(2, "5066-1s", 1.0): 100.0, (2, "5066", 1.0): 400.0, (2, "HDL", 1.0): x, (2, "HDL-1d", 1.0): 500.0 - x})
    return cells


@pytest.mark.parametrize(("x", "expected"), [(251.0, "holds"), (249.0, "does not hold")])
def test_selective_repeat_dominant_for_hmtp_at_high_snr_at_its_boundary(x: float, expected: str) -> None:
    q = cl.half_fraction_effects({p: _hmtp_25(x)[(2, p, 1.0)] for p in P.PROTOCOLS})
    assert q["Integrated Modem"] == pytest.approx(0.0)
    assert verdict(cl.sr_dominant_hmtp_high_snr, _hmtp_25(x)) == expected


def test_selective_repeat_dominant_needs_a_positive_effect() -> None:
    # The largest effect is selective repeat's, but it lengthens the sessions.
    cells = _hmtp_25(100.0)
    cells[(2, "HDL", 1.0)], cells[(2, "5066", 1.0)], cells[(2, "HDL-1d", 1.0)] = 50.0, 60.0, 900.0
    q = cl.half_fraction_effects({p: cells[(2, p, 1.0)] for p in P.PROTOCOLS})
    assert max(q, key=lambda f: abs(q[f])) == "Selective Repeat" and q["Selective Repeat"] < 0
    assert verdict(cl.sr_dominant_hmtp_high_snr, cells) == "does not hold"


def _table7(q_ad: float) -> Cells:
    """25 dB cells (SMTP: workload D = −1, HMTP: D = +1) = 1000 + 100 A + 100 D + q_ad A·D:
    the interaction's share is q_ad² / (2·100² + q_ad²) (10 % at q_ad = 47.14)."""
    cells = paper_cells()
    for n, d in ((1, -1), (2, 1)):
        for p in P.PROTOCOLS:
            a = 1 if P.FEATURES[p].selective_repeat else -1
            cells[(n, p, 1.0)] = 1000 + 100 * a + 100 * d + q_ad * a * d
    return cells


@pytest.mark.parametrize(("q_ad", "expected"), [(48.0, "holds"), (46.0, "does not hold"), (-48.0, "does not hold")])
def test_workload_selective_repeat_interaction_strong_and_positive_at_its_boundary(q_ad: float, expected: str) -> None:
    out = cl.workload_sr_interaction(study_data(_table7(q_ad)))
    assert str(out.verdict) == expected, out.detail


@pytest.mark.parametrize("x", sorted(params.CHANNEL_X))
def test_5066_1s_worst_in_every_channel_not_only_the_transition(x: float) -> None:
    cells = paper_cells()
    best_other = min(cells[(1, p, x)] for p in P.PROTOCOLS if p != "5066-1s")
    cells[(1, "5066-1s", x)] = best_other * 0.99
    assert verdict(cl.worst_in_transition, cells) == "holds"
    cells[(1, "5066-1s", x)] = best_other * 1.01
    assert verdict(cl.worst_in_transition, cells) == "does not hold"


def test_new_claims_hold_on_the_papers_tables() -> None:
    data = study_data(paper_cells())
    for check in (cl.sr_dominant_hmtp_high_snr, cl.workload_sr_interaction, cl.worst_in_transition, cl.hmtp_threefold):
        out = check(data)
        assert str(out.verdict) == "holds", out.detail
    assert "Selective Repeat +286 bit/s" in cl.sr_dominant_hmtp_high_snr(data).detail


# Exactly at the bounds (mutation testing, issue 31): the intervals are closed.

def _uniform_ratios(ratios: Mapping[str, float]) -> Cells:
    """SMTP 100 bit/s in every channel, HMTP = ratio × 100: each ratio exact in binary."""
    cells = paper_cells()
    for p in P.PROTOCOLS:
        for x in params.CHANNEL_X:
            cells[(1, p, x)] = 100.0
            cells[(2, p, x)] = 100.0 * ratios[p]
    return cells


@pytest.mark.parametrize("ratios", [
    {"HDL": 2.0, "HDL-1d": 2.0, "5066": 2.0, "5066-1s": 2.0},    # geometric mean exactly 2
    {"HDL": 4.0, "HDL-1d": 4.0, "5066": 4.0, "5066-1s": 4.0},    # geometric mean exactly 4
    {"HDL": 1.5, "HDL-1d": 3.0, "5066": 3.0, "5066-1s": 3.0},    # one protocol exactly 1.5
    {"HDL": 4.5, "HDL-1d": 3.0, "5066": 3.0, "5066-1s": 3.0},    # one protocol exactly 4.5
])
def test_hmtp_threefold_holds_exactly_at_each_bound(ratios: dict[str, float]) -> None:
    out = cl.hmtp_threefold(study_data(_uniform_ratios(ratios)))
    assert str(out.verdict) == "holds", out.detail
    assert "roughly threefold = geometric mean in [2, 4]" in out.detail


def test_sr_dominant_needs_a_strictly_positive_effect() -> None:
    cells = paper_cells()
    for p in P.PROTOCOLS:
        cells[(2, p, 1.0)] = 100.0
    assert verdict(cl.sr_dominant_hmtp_high_snr, cells) == "does not hold", "every effect 0: not dominant"
    cells[(2, "HDL", 1.0)] = cells[(2, "5066", 1.0)] = 101.0
    q = cl.half_fraction_effects({p: cells[(2, p, 1.0)] for p in P.PROTOCOLS})
    assert q == {"Selective Repeat": 0.5, "Integrated Modem": 0.0, "Duplex Client Data": 0.0}
    assert verdict(cl.sr_dominant_hmtp_high_snr, cells) == "holds", "a positive effect under 1 bit/s still counts"


def test_below_is_inconclusive_when_the_intervals_touch() -> None:
    assert cl._below(Est(1.0, 1.0, 2), Est(3.0, 1.0, 2)) == Verdict.INCONCLUSIVE
    assert cl._below(Est(1.0, 0.5, 2), Est(3.0, 1.0, 2)) == Verdict.HOLDS
    assert cl._below(Est(3.0, 1.0, 2), Est(1.0, 1.0, 2)) == Verdict.INCONCLUSIVE
    assert cl._below(Est(3.0, 0.5, 2), Est(1.0, 1.0, 2)) == Verdict.DOES_NOT_HOLD


def test_all_holds_only_when_every_verdict_holds() -> None:
    h, n, i = Verdict.HOLDS, Verdict.DOES_NOT_HOLD, Verdict.INCONCLUSIVE
    assert cl._all([h, h]) == h
    assert cl._all([h, i]) == i
    assert cl._all([i, n, h]) == n


@pytest.mark.parametrize(("q_ad", "expected", "sign"), [(100.0, "holds", "+"), (-100.0, "does not hold", "−")])
def test_workload_selective_repeat_interaction_at_exactly_the_strong_share(q_ad: float, expected: str, sign: str) -> None:
    # 1000 + 300 A ± 100 A·D: the interaction's share is 100² / (300² + 100²) = 10 %
    # exactly, the "strong" threshold itself (at least 10 %).
    cells = paper_cells()
    for n, d in ((1, -1), (2, 1)):
        for p in P.PROTOCOLS:
            a = 1 if P.FEATURES[p].selective_repeat else -1
            cells[(n, p, 1.0)] = 1000 + 300 * a + q_ad * a * d
    out = cl.workload_sr_interaction(study_data(cells))
    assert str(out.verdict) == expected, out.detail
    assert f"Selective repeat 10 % {sign} (paper: 14 % +)" in out.detail


def test_tables_4_and_5_dominant_factors_on_the_paper_s_tables_as_declared() -> None:
    # The declared table, top and negligible factor of each claim reach its check: Table 4
    # (25 dB) is read for the duplex claim, Table 5 (5 dB) for the modem's.
    data = study_data(paper_cells())
    duplex, modem = cl.fig1_claims()[:2]
    assert (duplex.id, modem.id) == ("high_snr_duplex_dominates", "low_snr_modem_dominates")
    out = duplex.check(data)
    assert out.verdict == Verdict.HOLDS
    assert out.detail == ("table4: Selective Repeat 26 % +, Integrated Modem 0 % −, Duplex Client Data 74 % +; "
                          "negligible = under 5 %")
    out = modem.check(data)
    assert out.verdict == Verdict.HOLDS
    assert out.detail == ("table5: Selective Repeat 26 % +, Integrated Modem 74 % +, Duplex Client Data 0 % +; "
                          "negligible = under 5 %")
