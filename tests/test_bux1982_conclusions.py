"""Bux (1982) Conclusions (1), (3), (4)(ii) and (5) at their boundaries, on synthetic
figures, in both directions: ABM at least NRM within 5% and the points the paper itself
excludes (3.1.2: NRM P→S right of ABM's maximum in Fig. 2 and Fig. 3's modulus-8 link;
3.2: NRM P→S with errors up to very high loads in Figs. 7-8), the reference ABM direction
of each NRM curve, ABM symmetric within 5%, ABM more than 10% above NRM beyond 3000 bit,
and comparable transfer times within 10% up to load 0.6 in Fig. 8. Every curve of a
figure is given (a claim over all NRM curves is inconclusive on a missing one); all
numbers are exact in binary. No simulation runs."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import pytest

from arqlab.studies import bux1982 as bux
from arqlab.studies.artefacts.curves import FigureData
from arqlab.studies.bux1982.claims import study_claims
from arqlab.studies.bux1982.params import SIGNIFICANT, TOL_APPROX, TOL_ROUGH, VERY_HIGH_LOAD
from arqlab.studies.data import StudyData
from arqlab.studies.verdicts import Verdict


def figure(n: int, xs: tuple[float, ...], overrides: Mapping[str, Mapping[float, float]]) -> FigureData:
    """Every curve of Fig. n at 1.0 on ``xs``, except the points ``overrides`` gives."""
    rows = [{"curve": c.key, "variant": "", "x": x, "y": overrides.get(c.key, {}).get(x, 1.0),
             "y_ci95_half_width": 0.0, "n": 10}
            for c in bux.figure(n).curves for x in xs]
    return FigureData(bux.figure(n), pd.DataFrame(rows))


def verdict(cid: str, figs: Mapping[int, FigureData]) -> Verdict:
    (c,) = [c for c in study_claims() if c.id == cid]
    return c.check(StudyData(dict(figs))).verdict


# ABM vs NRM within TOL_APPROX = 5% of their mean: 1 vs 1 + 5/128 is inside, 1 vs 1 + 1/16
# outside (the slack is 0.05 · (1 + x)/2 ≈ 0.051 and 0.053).
INSIDE, OUTSIDE = 1.0 + 5 / 128, 1.0 + 1 / 16
XS2 = (1000.0, 2000.0, 3000.0)
ABM_PEAK = {1000.0: 1.0, 2000.0: 2.0, 3000.0: 1.0}  # ABM's maximum at 2000 bit


def test_tolerances_are_the_word_table_readings() -> None:
    assert (TOL_APPROX, TOL_ROUGH, SIGNIFICANT, VERY_HIGH_LOAD) == (0.05, 0.10, 0.10, 0.6)


@pytest.mark.parametrize("n", [4, 6])
@pytest.mark.parametrize("nrm,want", [(INSIDE, Verdict.HOLDS), (OUTSIDE, Verdict.DOES_NOT_HOLD),
                                      (1 / OUTSIDE, Verdict.HOLDS)])
def test_conc1_abm_at_least_nrm_throughput_within_5_percent(n: int, nrm: float, want: Verdict) -> None:
    """Figs. 2-6 are throughput (ABM ≥ NRM), up to Fig. 6 included."""
    fig = figure(n, XS2, {"nrm_p2s_m128": {2000.0: nrm}})
    assert verdict("conc1.abm_at_least_nrm", {n: fig}) is want


def test_conc1_3_1_2_excludes_nrm_p2s_right_of_abms_maximum_in_fig2_only() -> None:
    def fig2(curve: str, x: float) -> FigureData:
        return figure(2, XS2, {"abm_48k": ABM_PEAK, "abm_4k8": ABM_PEAK, curve: {**ABM_PEAK, x: ABM_PEAK[x] * OUTSIDE}})

    assert verdict("conc1.abm_at_least_nrm", {2: fig2("nrm_p2s_48k", 3000.0)}) is Verdict.HOLDS, "right of the maximum"
    assert verdict("conc1.abm_at_least_nrm", {2: fig2("nrm_p2s_4k8", 3000.0)}) is Verdict.HOLDS, "both links of Fig. 2"
    assert verdict("conc1.abm_at_least_nrm", {2: fig2("nrm_p2s_48k", 2000.0)}) is Verdict.DOES_NOT_HOLD, "at the maximum"
    assert verdict("conc1.abm_at_least_nrm", {2: fig2("nrm_p2s_48k", 1000.0)}) is Verdict.DOES_NOT_HOLD, "left of it"
    assert verdict("conc1.abm_at_least_nrm", {2: fig2("nrm_s2p_48k", 3000.0)}) is Verdict.DOES_NOT_HOLD, "S→P not excluded"
    # The same shape in Fig. 4 is not excluded: the 3.1.2 sentence is about Figs. 2-3.
    fig4 = figure(4, XS2, {"abm_m8": ABM_PEAK, "nrm_p2s_m8": {**ABM_PEAK, 3000.0: OUTSIDE}})
    assert verdict("conc1.abm_at_least_nrm", {4: fig4}) is Verdict.DOES_NOT_HOLD


@pytest.mark.parametrize("curve,ref,want", [
    ("nrm_p2s_m8", "abm_m8", Verdict.HOLDS),  # Fig. 3's modulus-8 curve is Fig. 2's 48 kbit/s link
    ("nrm_p2s_m128", "abm_m128", Verdict.DOES_NOT_HOLD),  # modulus 128 is not
])
def test_conc1_fig3_excludes_only_the_modulus_8_nrm_p2s_curve(curve: str, ref: str, want: Verdict) -> None:
    fig3 = figure(3, XS2, {ref: ABM_PEAK, curve: {**ABM_PEAK, 3000.0: OUTSIDE}})
    assert verdict("conc1.abm_at_least_nrm", {3: fig3}) is want


XS7 = (0.5, VERY_HIGH_LOAD, 0.75)


@pytest.mark.parametrize("n", [7, 8])
@pytest.mark.parametrize("x,want", [(0.5, Verdict.HOLDS), (VERY_HIGH_LOAD, Verdict.HOLDS), (0.75, Verdict.DOES_NOT_HOLD)])
def test_conc1_3_2_excludes_nrm_p2s_with_errors_apart_from_very_high_loads(n: int, x: float, want: Verdict) -> None:
    """Transfer times: ABM ≤ NRM within 5%; NRM P→S with errors below ABM by more is
    excluded at loads up to VERY_HIGH_LOAD (0.6) and counted above it."""
    fig = figure(n, XS7, {"nrm_p2s_p1e5": {x: 1 / OUTSIDE}})
    assert verdict("conc1.abm_at_least_nrm", {n: fig}) is want
    error_free = figure(n, XS7, {"nrm_p2s_p0": {x: 1 / OUTSIDE}})
    assert verdict("conc1.abm_at_least_nrm", {n: error_free}) is Verdict.DOES_NOT_HOLD, "only the curve with errors"


@pytest.mark.parametrize("nrm,want", [(1 / INSIDE, Verdict.HOLDS), (1 / OUTSIDE, Verdict.DOES_NOT_HOLD),
                                      (OUTSIDE, Verdict.HOLDS)])
def test_conc1_transfer_time_abm_at_most_nrm_within_5_percent(nrm: float, want: Verdict) -> None:
    assert verdict("conc1.abm_at_least_nrm", {9: figure(9, XS7, {"nrm_s2p_p0": {0.5: nrm}})}) is want


def test_conc1_nrm_s2p_is_compared_with_abm_b_to_a_in_figs_7_on_and_with_abm_in_figs_2_to_6() -> None:
    # Fig. 9 (transfer time): NRM S→P at 1.5 is below ABM B→A at 2 (fails) although above ABM A→B at 1.
    fig9 = figure(9, XS7, {"abm_ba_p0": dict.fromkeys(XS7, 2.0), "nrm_s2p_p0": dict.fromkeys(XS7, 1.5)})
    assert verdict("conc1.abm_at_least_nrm", {9: fig9}) is Verdict.DOES_NOT_HOLD
    fig9 = figure(9, XS7, {"abm_ba_p0": dict.fromkeys(XS7, 2.0), "nrm_s2p_p0": dict.fromkeys(XS7, 2.0)})
    assert verdict("conc1.abm_at_least_nrm", {9: fig9}) is Verdict.HOLDS
    # Fig. 4 (throughput): NRM S→P at 1 against ABM (A→B) at 1, whatever ABM B→A is.
    fig4 = figure(4, XS2, {"abm_ba_m8": dict.fromkeys(XS2, 0.5)})
    assert verdict("conc1.abm_at_least_nrm", {4: fig4}) is Verdict.HOLDS
    fig4 = figure(4, XS2, {"abm_m8": dict.fromkeys(XS2, 0.5), "abm_ba_m8": dict.fromkeys(XS2, 2.0)})
    assert verdict("conc1.abm_at_least_nrm", {4: fig4}) is Verdict.DOES_NOT_HOLD


@pytest.mark.parametrize("n", range(4, 12))
@pytest.mark.parametrize("ba,want", [(INSIDE, Verdict.HOLDS), (1 / INSIDE, Verdict.HOLDS), (OUTSIDE, Verdict.DOES_NOT_HOLD),
                                     (1 / OUTSIDE, Verdict.DOES_NOT_HOLD)])
def test_conc3_abm_symmetric_within_5_percent_at_every_point(n: int, ba: float, want: Verdict) -> None:
    """Every two-way figure, 4 to 11, each given alone."""
    tag = {4: "m8", 5: "m8", 6: "m8", 10: "pb0"}.get(n, "p0")
    fig = figure(n, XS7, {f"abm_ba_{tag}": {0.75: ba}})
    assert verdict("conc3.abm_symmetric", {n: fig}) is want


# More than SIGNIFICANT = 10% above: 1 + 1/8 is, 1 + 1/16 is not.
XS4 = (3000.0, 4000.0)


@pytest.mark.parametrize("curve", ["fig3.nrm_s2p_m128", "fig4.nrm_s2p_m128", "fig4.nrm_p2s_m128"])
@pytest.mark.parametrize("abm,want", [(1.125, Verdict.HOLDS), (1.0625, Verdict.DOES_NOT_HOLD)])
def test_conc4_ii_abm_more_than_10_percent_above_each_nrm_beyond_3000_bit(curve: str, abm: float, want: Verdict) -> None:
    """At 3000 bit ABM equals NRM (not looked at: 'l > 3000'); at 4000 bit ABM is ``abm``
    times the one NRM curve under test and 1.125 times the others."""
    figs = {}
    for n in (3, 4):
        overrides = {"abm_m128": {4000.0: 1.125}}
        if curve.startswith(f"fig{n}."):
            overrides = {"abm_m128": {4000.0: 1.125 * abm}, curve.split(".")[1]: {4000.0: 1.125}}
        figs[n] = figure(n, XS4, overrides)
    assert verdict("conc4.high_error_nrm_degrades", figs) is want


@pytest.mark.parametrize("x,nrm,want", [
    (0.6, 1.0 + 3 / 32, Verdict.HOLDS),  # 9.4%: within 10%
    (0.6, 1.125, Verdict.DOES_NOT_HOLD),  # 12.5% at load 0.6: looked at
    (0.75, 1.5, Verdict.HOLDS),  # Fig. 8 above load 0.6: the modulus-8 window binds, not looked at
])
def test_conc5_transfer_times_comparable_within_10_percent_up_to_load_0_6_in_fig8(x: float, nrm: float, want: Verdict) -> None:
    figs = {7: figure(7, XS7, {}), 8: figure(8, XS7, {"nrm_p2s_p0": {x: nrm}})}
    assert verdict("conc5.abm_eq_nrm_p2s_transfer", figs) is want


@pytest.mark.parametrize("curve,want", [("abm_p0", Verdict.DOES_NOT_HOLD), ("abm_ba_p0", Verdict.DOES_NOT_HOLD),
                                        ("nrm_s2p_p0", Verdict.HOLDS)])
def test_conc5_fig7_compares_both_abm_directions_with_nrm_p2s_at_every_load(curve: str, want: Verdict) -> None:
    figs = {7: figure(7, XS7, {curve: {0.75: 1.125}}), 8: figure(8, XS7, {})}
    assert verdict("conc5.abm_eq_nrm_p2s_transfer", figs) is want


@pytest.mark.parametrize("n,tag", [(6, "m8"), (7, "p0")])
def test_conc1_equivalence_reads_nrm_s2p_against_abm_up_to_fig6_and_abm_b_to_a_from_fig7(n: int, tag: str) -> None:
    """NRM P→S twice ABM everywhere (clearly different), NRM S→P equal to its reference
    ABM curve and twice the other: half the points equivalent, so the claim holds only if
    S→P is read against ABM (A→B) up to Fig. 6 and against ABM B→A from Fig. 7 on."""
    curves = [c.key for c in bux.figure(n).curves]
    ref_ba = n >= 7
    over: dict[str, dict[float, float]] = {}
    for c in curves:
        if c.startswith("abm_ba_"):
            over[c] = dict.fromkeys(XS2, 2.0)
        elif c.startswith("nrm_p2s_"):
            over[c] = dict.fromkeys(XS2, 2.0 if not ref_ba else 1.5)
        elif c.startswith("nrm_s2p_"):
            over[c] = dict.fromkeys(XS2, 2.0 if ref_ba else 1.0)
    assert verdict("conc1.broad_equivalence", {n: figure(n, XS2, over)}) is Verdict.HOLDS


@pytest.mark.parametrize("n,tag,xs", [(2, "48k", XS2), (7, "p0", XS7), (9, "p0", XS7)])
@pytest.mark.parametrize("s2p,p2s,want", [(1.125, 1.0, Verdict.HOLDS), (1.0625, 1.0, Verdict.DOES_NOT_HOLD),
                                          (1.0, 1.125, Verdict.DOES_NOT_HOLD)])
def test_conc3_nrm_s2p_more_than_10_percent_above_p2s_in_fig2_7_or_9_alone(n: int, tag: str, xs: tuple[float, ...],
                                                                          s2p: float, p2s: float, want: Verdict) -> None:
    """Each figure the claim reads, given alone: S→P more than 10% above P→S at one point
    of ABM's grid (P→S above S→P is not what it reads)."""
    fig = figure(n, xs, {f"nrm_s2p_{tag}": {xs[-1]: s2p}, f"nrm_p2s_{tag}": {xs[-1]: p2s}})
    (c,) = [c for c in study_claims() if c.id == "conc3.nrm_directions_differ"]
    out = c.check(StudyData({n: fig}))
    assert out.verdict is want
    assert out.detail == f"fig{n}.{tag}: {want}", "one part per figure present, named after it"


def test_conc3_nrm_directions_differ_somewhere_is_any_of_the_figures() -> None:
    figs = {2: figure(2, XS2, {"nrm_s2p_48k": {3000.0: 1.125}}), 7: figure(7, XS7, {}), 9: figure(9, XS7, {})}
    (c,) = [c for c in study_claims() if c.id == "conc3.nrm_directions_differ"]
    out = c.check(StudyData(figs))
    assert out.verdict is Verdict.HOLDS
    assert out.detail == f"fig2.48k: {Verdict.HOLDS} | fig7.p0: {Verdict.DOES_NOT_HOLD} | fig9.p0: {Verdict.DOES_NOT_HOLD}"


def _s2p_tag(n: int) -> str:
    return {2: "48k", 3: "m8", 4: "m8", 5: "m8", 6: "m8", 10: "pb0"}.get(n, "p0")


@pytest.mark.parametrize("n", range(2, 12))
def test_conc1_reads_every_figure_2_to_11(n: int) -> None:
    """Each figure alone: NRM S→P 1/16 better than ABM (throughput above it up to Fig. 6,
    transfer time below it from Fig. 7) breaks 'ABM at least as good'; all equal is broad
    equivalence."""
    worse = OUTSIDE if n <= 6 else 1 / OUTSIDE
    fig = figure(n, XS7, {f"nrm_s2p_{_s2p_tag(n)}": {0.5: worse}})
    assert verdict("conc1.abm_at_least_nrm", {n: fig}) is Verdict.DOES_NOT_HOLD
    assert verdict("conc1.broad_equivalence", {n: figure(n, XS7, {})}) is Verdict.HOLDS


def test_conc1_equivalence_reads_nrm_p2s_against_abm_a_to_b_in_fig7() -> None:
    """P→S equal to ABM (A→B), S→P clearly off both ABM curves: half the points
    equivalent (P→S read against ABM B→A would make none)."""
    over = {"abm_ba_p0": dict.fromkeys(XS7, 2.0), "abm_ba_p1e5": dict.fromkeys(XS7, 2.0),
            "nrm_s2p_p0": dict.fromkeys(XS7, 3.0), "nrm_s2p_p1e5": dict.fromkeys(XS7, 3.0)}
    assert verdict("conc1.broad_equivalence", {7: figure(7, XS7, over)}) is Verdict.HOLDS


def test_conc1_equivalence_counts_only_points_both_curves_have_and_says_so() -> None:
    """Fig. 2 at 1000 bit: one NRM curve equal to ABM, three clearly not (a quarter:
    holds); NRM P→S at 48 kbit/s also at 2000 and 3000 bit, where ABM has no point: not
    counted. Two of twelve equivalent, ten different: does not hold."""
    (c,) = [c for c in study_claims() if c.id == "conc1.broad_equivalence"]
    rows = [{"curve": k, "variant": "", "x": 1000.0, "y": 1.0 if k.startswith("abm") or k == "nrm_p2s_48k" else 2.0,
             "y_ci95_half_width": 0.0, "n": 10} for k in (cv.key for cv in bux.figure(2).curves)]
    rows += [{"curve": "nrm_p2s_48k", "variant": "", "x": x, "y": 2.0, "y_ci95_half_width": 0.0, "n": 10}
             for x in (2000.0, 3000.0)]
    out = c.check(StudyData({2: FigureData(bux.figure(2), pd.DataFrame(rows))}))
    assert (out.verdict, out.detail) == (Verdict.HOLDS, "1/4 NRM-vs-ABM points equivalent within 5%, 3 clearly different "
                                                        "(claim: at least a quarter equivalent)")
    over = {k: {1000.0: 1.0, 2000.0: 2.0, 3000.0: 2.0} for k in ("nrm_p2s_48k", "nrm_p2s_4k8")}
    over.update({k: dict.fromkeys(XS2, 2.0) for k in ("nrm_s2p_48k", "nrm_s2p_4k8")})
    out = c.check(StudyData({2: figure(2, XS2, over)}))
    assert (out.verdict, out.detail) == (Verdict.DOES_NOT_HOLD, "2/12 NRM-vs-ABM points equivalent within 5%, 10 clearly "
                                                                "different (claim: at least a quarter equivalent)")
    nrm_only = pd.DataFrame([{"curve": k, "variant": "", "x": 1000.0, "y": 1.0, "y_ci95_half_width": 0.0, "n": 10}
                             for k in (cv.key for cv in bux.figure(2).curves) if k.startswith("nrm")])
    out = c.check(StudyData({2: FigureData(bux.figure(2), nrm_only)}))
    assert (out.verdict, out.detail) == (Verdict.INCONCLUSIVE, "no comparable points")


@pytest.mark.parametrize("cid,number,fid", [
    ("conc2.modulus_earlier_in_nrm", 9, "fig9.nrm_p2s_departs_before_abm"),
    ("conc4.long_delay_nrm_degrades", 6, "fig6.abm_above_nrm_mod8"),
    ("conc6.nrm_bht_equal", 11, "fig11.nrm_directions_equal"),
])
def test_conclusions_that_cite_a_figure_claim_give_its_outcome(cid: str, number: int, fid: str) -> None:
    from arqlab.studies.bux1982.claims import _from_figure_claim

    sd = StudyData({n: figure(n, XS7, {}) for n in (6, 9, 10, 11)})
    (fc,) = [c for c in bux.figure(number).claims if c.id == fid]
    if cid != "conc2.modulus_earlier_in_nrm":
        (c,) = [c for c in study_claims() if c.id == cid]
        assert c.check(sd) == fc.check(sd)
    assert _from_figure_claim(number, fid)(sd) == fc.check(sd)
    others = [c.check(sd) for c in bux.figure(number).claims if c.id != fid]
    assert any(o != fc.check(sd) for o in others), "the data tell the cited claim from the others"
    with pytest.raises(KeyError, match="fig0.none"):
        _from_figure_claim(number, "fig0.none")(sd)
