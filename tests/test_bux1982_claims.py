"""Bux (1982) Conclusions (1)–(6) at their thresholds on synthetic figures, in both
directions: the quarter of equivalent NRM-vs-ABM points, Fig. 9's loads up to 0.4 and
M/D/1 within 5% vs more than 10% above, "much stronger" as more than twice the excess,
the s→p gap of 0.5–2 t_p, Fig. 11's both stations above ABM at one load. Only the
curves a claim reads are given; no simulation runs."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import pytest

from arqlab.studies import bux1982 as bux
from arqlab.studies.artefacts.curves import FigureData
from arqlab.studies.bux1982.claims import study_claims
from arqlab.studies.bux1982.params import L_FIG7, T_P_TERRESTRIAL, V_HIGH
from arqlab.studies.bux1982.theory import ideal_transfer
from arqlab.studies.data import StudyData
from arqlab.studies.verdicts import Verdict

#: curve -> {x: mean} or {x: (mean, half)}
Curves = Mapping[str, Mapping[float, float | tuple[float, float]]]


def data(figs: Mapping[int, Curves]) -> StudyData:
    out = {}
    for n, curves in figs.items():
        rows = [{"curve": c, "variant": "", "x": x, "y": v[0] if isinstance(v, tuple) else v,
                 "y_ci95_half_width": v[1] if isinstance(v, tuple) else 0.0, "n": 10}
                for c, pts in curves.items() for x, v in pts.items()]
        out[n] = FigureData(bux.figure(n), pd.DataFrame(rows))
    return StudyData(out)


def verdict(cid: str, figs: Mapping[int, Curves]) -> Verdict:
    (c,) = [c for c in study_claims() if c.id == cid]
    return c.check(data(figs)).verdict


XS = (1000.0, 2000.0, 3000.0, 4000.0)


@pytest.mark.parametrize("nrm,want", [
    ((1.0, 2.0, 2.0, 2.0), Verdict.HOLDS),  # 1 of 4 equivalent: exactly a quarter
    (((1.0, 1.0), 2.0, 2.0, 2.0), Verdict.INCONCLUSIVE),  # 3 of 4 clearly different: not fewer than a quarter left
    ((2.0, 2.0, 2.0, 2.0), Verdict.DOES_NOT_HOLD),
    (((1.0, 1.0), (1.0, 1.0), 2.0, 2.0), Verdict.INCONCLUSIVE),
])
def test_conc1_broad_equivalence_is_at_least_a_quarter_of_the_points(nrm: tuple, want: Verdict) -> None:
    figs = {2: {"abm_48k": dict.fromkeys(XS, 1.0), "nrm_p2s_48k": dict(zip(XS, nrm))}}
    assert verdict("conc1.broad_equivalence", figs) is want
    assert verdict("conc1.broad_equivalence", {2: {"abm_48k": {1.0: 1.0}}}) is Verdict.INCONCLUSIVE


def _fig9(nrm_factor: float, at: float, abm_factor: float = 1.0) -> Mapping[int, Curves]:
    """ABM at ``abm_factor`` × M/D/1 at loads 0.3, 0.4, 0.5; NRM P→S at ``nrm_factor`` ×
    M/D/1 at load ``at`` and on M/D/1 elsewhere."""
    ideal = ideal_transfer(800.0, "constant")
    xs = (0.3, 0.4, 0.5)
    return {9: {"abm_p0": {x: abm_factor * ideal(x) for x in xs},
                "nrm_p2s_p0": {x: ideal(x) * (nrm_factor if x == at else 1.0) for x in xs}}}


@pytest.mark.parametrize("at,factor,want", [
    (0.4, 1.125, Verdict.HOLDS), (0.3, 1.125, Verdict.HOLDS),
    (0.5, 1.125, Verdict.DOES_NOT_HOLD),  # above load 0.4: not looked at
    (0.4, 1.0625, Verdict.DOES_NOT_HOLD),  # 6% above M/D/1: not more than 10%
])
def test_conc2_mod8_too_small_for_nrm_at_some_load_up_to_0_4(at: float, factor: float, want: Verdict) -> None:
    assert verdict("conc2.mod8_enough_for_abm", _fig9(factor, at)) is want


def test_conc2_mod8_needs_abm_on_md1_within_5_percent() -> None:
    assert verdict("conc2.mod8_enough_for_abm", _fig9(1.25, 0.4, abm_factor=1.0625)) is Verdict.DOES_NOT_HOLD
    assert verdict("conc2.mod8_enough_for_abm", _fig9(1.25, 0.4, abm_factor=1.03125)) is Verdict.HOLDS


@pytest.mark.parametrize("nrm_excess,want", [(2.5, Verdict.HOLDS), (1.5, Verdict.DOES_NOT_HOLD)])
def test_conc5_modulus_much_stronger_is_more_than_twice_abms_excess(nrm_excess: float, want: Verdict) -> None:
    ideal = ideal_transfer(800.0, "constant")
    xs = (0.2, 0.5)
    figs = {9: {"abm_p0": {x: ideal(x) + 0.5 for x in xs}, "nrm_p2s_p0": {x: ideal(x) + 0.5 * nrm_excess for x in xs}}}
    assert verdict("conc5.modulus_stronger_in_nrm", figs) is want


@pytest.mark.parametrize("gap_tp,want", [(1.0, Verdict.HOLDS), (0.55, Verdict.HOLDS), (1.95, Verdict.HOLDS),
                                         (0.45, Verdict.DOES_NOT_HOLD), (2.05, Verdict.DOES_NOT_HOLD)])
def test_conc5_s2p_extra_delay_is_between_half_and_twice_t_p(gap_tp: float, want: Verdict) -> None:
    t_p_in_y = T_P_TERRESTRIAL / ((L_FIG7 + 48.0) / V_HIGH)  # t_p in units of the transmission time
    xs = (0.2, 0.4, 0.6)
    figs = {7: {"nrm_p2s_p0": dict.fromkeys(xs, 2.0), "nrm_s2p_p0": dict.fromkeys(xs, 2.0 + gap_tp * t_p_in_y)}}
    assert verdict("conc5.s2p_extra_order_tp", figs) is want


@pytest.mark.parametrize("p2s,s2p,want", [(1.25, 1.25, Verdict.HOLDS), (1.25, 1.0625, Verdict.DOES_NOT_HOLD),
                                          (1.0625, 1.25, Verdict.DOES_NOT_HOLD)])
def test_conc6_nrm_bht_above_abm_needs_both_stations_above_at_one_load(p2s: float, s2p: float, want: Verdict) -> None:
    xs = (0.2, 0.5)
    figs = {11: {"abm_p0": dict.fromkeys(xs, 1.0), "nrm_p2s_p0": {0.2: 1.0, 0.5: p2s}, "nrm_s2p_p0": {0.2: 1.0, 0.5: s2p}}}
    assert verdict("conc6.nrm_bht_above_abm", figs) is want


@pytest.mark.parametrize("s2p,want", [(1.125, Verdict.HOLDS), (1.0625, Verdict.DOES_NOT_HOLD)])
def test_conc3_nrm_directions_differ_by_more_than_10_percent_somewhere(s2p: float, want: Verdict) -> None:
    xs = (0.2, 0.5)
    fig7 = {"abm_p0": dict.fromkeys(xs, 1.0), "nrm_p2s_p0": dict.fromkeys(xs, 1.0), "nrm_s2p_p0": {0.2: 1.0, 0.5: s2p}}
    assert verdict("conc3.nrm_directions_differ", {7: fig7}) is want


def test_conc5_reads_the_loads_both_curves_have_and_prints_each_excess() -> None:
    """Only loads where both curves have a point (NRM alone at 0.5, ABM alone at 0.8 are
    not read); the detail gives both excesses over M/D/1 at each load read."""
    ideal = ideal_transfer(800.0, "constant")
    (c,) = [c for c in study_claims() if c.id == "conc5.modulus_stronger_in_nrm"]
    figs = {9: {"abm_p0": {0.2: ideal(0.2) + 0.25, 0.8: ideal(0.8)},
                "nrm_p2s_p0": {0.2: ideal(0.2) + 0.375, 0.5: ideal(0.5)}}}
    out = c.check(data(figs))
    assert (out.verdict, out.detail) == (Verdict.DOES_NOT_HOLD, "x=0.2:NO excess NRM 0.375±0 vs ABM 0.25±0")
    # "can": one load with more than twice ABM's excess is enough.
    figs = {9: {"abm_p0": {0.2: ideal(0.2) + 0.25, 0.5: ideal(0.5) + 0.25},
                "nrm_p2s_p0": {0.2: ideal(0.2) + 0.375, 0.5: ideal(0.5) + 0.625}}}
    assert c.check(data(figs)).verdict is Verdict.HOLDS


def test_conc5_excess_is_over_the_md1_ideal_of_fig9s_800_bit_messages() -> None:
    """Both curves on M/D/1 for 800-bit messages: no excess, so not twice: does not hold
    (an ideal for any other length gives both the same nonzero excess, and −δ > −2δ)."""
    ideal = ideal_transfer(800.0, "constant")
    xs = (0.2, 0.5)
    figs = {9: {"abm_p0": {x: ideal(x) for x in xs}, "nrm_p2s_p0": {x: ideal(x) for x in xs}}}
    assert verdict("conc5.modulus_stronger_in_nrm", figs) is Verdict.DOES_NOT_HOLD


def test_conc2_prints_abm_and_nrm_against_md1_for_800_bit_messages_at_each_load() -> None:
    (c,) = [c for c in study_claims() if c.id == "conc2.mod8_enough_for_abm"]
    ideal = ideal_transfer(800.0, "constant")
    out = c.check(data(_fig9(1.125, 0.4)))
    assert out.detail == (f"x=0.3:NO ABM {ideal(0.3):.4g}±0, NRM P→S {ideal(0.3):.4g}±0 vs M/D/1 {ideal(0.3):.4g}; "
                          f"x=0.4:ok ABM {ideal(0.4):.4g}±0, NRM P→S {1.125 * ideal(0.4):.4g}±0 vs M/D/1 {ideal(0.4):.4g}")
    assert f"{ideal(0.4):.4g}" != f"{ideal_transfer(801.0, 'constant')(0.4):.4g}", "the length shows in 4 digits"
