"""Bux 1982 study-level claims: Conclusions (1)–(6), which draw on several figures.

The claims of Sections 3.1–3.2 and the ARM conjectures of Appendix A2 belong to the
figure they are about and are declared with it (:mod:`.figures_throughput`,
:mod:`.figures_delay`); :func:`all_claim_ids` lists both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..claims import base_argmax, both, every, rel, xs_where
from ..data import StudyData
from ..spec import Claim
from ..verdicts import (
    Est,
    Outcome,
    Verdict,
    all_of,
    any_of,
    approx,
    approx_value,
    at_least,
    at_most,
    conjunction,
    exceeds,
    pointwise,
    within,
)
from .figures import figures
from .params import L_FIG7, SIGNIFICANT, T_P_TERRESTRIAL, TOL_APPROX, TOL_CLOSED_FORM, TOL_ROUGH, V_HIGH, VERY_HIGH_LOAD
from .theory import ideal_transfer

def _present(sd: StudyData, figs: Iterable[int]) -> list[int]:
    return [n for n in figs if n in sd]


def _named_exceptions(n: int, curve: str, fd: Any) -> Callable[[float], bool]:
    """The points the paper itself says NRM beats ABM at, excluded from Conclusion (1):
    one-way primary→secondary right of the maximum (3.1.2, Figs. 2–3: 'The direction primary
    to secondary shows higher throughput than the reverse direction; the ABM throughput is
    almost equal to the NRM throughput from secondary to primary') and primary→secondary with
    errors apart from very high loads (3.2, Fig. 7, and Fig. 8 whose 'general relation ... is
    robust': 'Apart from very high loads, the direction from primary to secondary of the NRM
    link performs slightly better than the ABM link'). The 3.1.2 sentence is about Fig. 2,
    so in Fig. 3 it covers only the modulus-8 curve (the Fig. 2 48 kbit/s link), not
    modulus 128."""
    if (n == 2 and curve.startswith("nrm_p2s_")) or (n == 3 and curve == "nrm_p2s_m8"):
        xo = base_argmax(fd, "abm_" + curve.split("_", 2)[2])
        return lambda x: xo is not None and x > xo
    if n in (7, 8) and curve == "nrm_p2s_p1e5":
        return lambda x: x <= VERY_HIGH_LOAD
    return lambda x: False


def _outside(excluded: Callable[[float], bool], curve: str) -> Callable[[Any], list[float]]:
    return xs_where(lambda x: not excluded(x), curve)


def _conc1_abm_at_least(sd: StudyData) -> Outcome:
    parts: dict[str, Outcome] = {}
    for n in _present(sd, (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)):
        fd = sd[n]
        for c in fd.figure.curves:
            if not c.key.startswith("nrm_"):
                continue
            tag = c.key.split("_", 2)[2]
            region = _outside(_named_exceptions(n, c.key, fd), c.key)
            if n <= 6:
                parts[f"fig{n}.{c.key}"] = rel(n, f"abm_{tag}", c.key, region, lambda a, b: at_least(a, b, TOL_APPROX))(sd)
            else:
                ref = f"abm_{tag}" if c.direction == "a_to_b" else f"abm_ba_{tag}"
                parts[f"fig{n}.{c.key}"] = rel(n, ref, c.key, region, lambda a, b: at_most(a, b, TOL_APPROX))(sd)
    return conjunction(parts)


def _conc1_equivalence(sd: StudyData) -> Outcome:
    total = eq = neq = 0
    for n in _present(sd, (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)):
        fd = sd[n]
        for c in fd.figure.curves:
            if not c.key.startswith("nrm_"):
                continue
            tag = c.key.split("_", 2)[2]
            ref = f"abm_{tag}" if (c.direction == "a_to_b" or n <= 6) else f"abm_ba_{tag}"
            for x in fd.common_xs(c.key, ref):
                v = approx(fd.est(c.key, x), fd.est(ref, x), TOL_APPROX)
                total += 1
                eq += v is Verdict.HOLDS
                neq += v is Verdict.DOES_NOT_HOLD
    if total == 0:
        return Outcome(Verdict.INCONCLUSIVE, "no comparable points")
    if eq / total >= 0.25:
        v = Verdict.HOLDS
    elif (total - neq) / total < 0.25:
        v = Verdict.DOES_NOT_HOLD
    else:
        v = Verdict.INCONCLUSIVE
    return Outcome(v, f"{eq}/{total} NRM-vs-ABM points equivalent within {TOL_APPROX:.0%}, {neq} clearly different "
                      f"(claim: at least a quarter equivalent)")


def _conc3_symmetric(sd: StudyData) -> Outcome:
    parts: dict[str, Outcome] = {}
    for n in _present(sd, (4, 5, 6, 7, 8, 9, 10, 11)):
        fd = sd[n]
        for c in fd.figure.curves:
            if c.key.startswith("abm_ba_"):
                tag = c.key[len("abm_ba_"):]
                parts[f"fig{n}.{tag}"] = rel(n, f"abm_{tag}", c.key, every(c.key), lambda a, b: approx(a, b, TOL_APPROX))(sd)
    return conjunction(parts)


def _conc3_nrm_differs(sd: StudyData) -> Outcome:
    parts: dict[str, Outcome] = {}
    if 2 in sd:
        parts["fig2.48k"] = rel(2, "nrm_s2p_48k", "nrm_p2s_48k", every("abm_48k"), lambda a, b: exceeds(a, b, 0.10),
                                combine=any_of)(sd)
    if 7 in sd:
        parts["fig7.p0"] = rel(7, "nrm_s2p_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10), combine=any_of)(sd)
    if 9 in sd:
        parts["fig9.p0"] = rel(9, "nrm_s2p_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10), combine=any_of)(sd)
    verdict = any_of(o.verdict for o in parts.values())
    return Outcome(verdict, " | ".join(f"{k}: {o.verdict}" for k, o in parts.items()))


def _conc2_mod8_enough(sd: StudyData) -> Outcome:
    """"can be too small in the case of NRM" (Conclusion 2) is existential: one Fig. 9 load
    (≤ 0.4) where ABM sits on M/D/1 (±5%) and NRM P→S is >10% above it."""
    fd = sd[9]
    ideal = ideal_transfer(800.0, "constant")
    xs = [x for x in fd.xs("abm_p0") if x <= 0.4 and x in set(fd.xs("nrm_p2s_p0"))]

    def at(x: float) -> Verdict:
        return all_of([approx_value(fd.est("abm_p0", x), ideal(x), TOL_CLOSED_FORM),
                       exceeds(fd.est("nrm_p2s_p0", x), Est(ideal(x), 0.0), 0.10)])
    return pointwise(xs, at, combine=any_of,
                     describe=lambda x: f"ABM {fd.est('abm_p0', x)}, NRM P→S {fd.est('nrm_p2s_p0', x)} vs M/D/1 {ideal(x):.4g}")


def _conc5_much_stronger(sd: StudyData) -> Outcome:
    """"much stronger delay-increasing effect": the modulus's effect is the excess over the
    M/D/1 ideal; "much stronger" is read as more than twice ABM's, at some load ("can")."""
    fd = sd[9]
    ideal = ideal_transfer(800.0, "constant")

    def excess(k: str, x: float) -> Est:
        return fd.est(k, x) - Est(ideal(x), 0.0)
    return pointwise(fd.common_xs("nrm_p2s_p0", "abm_p0"), lambda x: exceeds(excess("nrm_p2s_p0", x),
                                                                                excess("abm_p0", x).scaled(2.0)),
                     combine=any_of,
                     describe=lambda x: f"excess NRM {excess('nrm_p2s_p0', x)} vs ABM {excess('abm_p0', x)}")


def _significantly_above(a: Est, b: Est) -> Verdict:
    return exceeds(a, b, SIGNIFICANT)


def _from_figure_claim(number: int, claim_id: str) -> Callable[[StudyData], Outcome]:
    def check(sd: StudyData) -> Outcome:
        for c in sd[number].figure.claims:
            if c.id == claim_id:
                return c.check(sd)
        raise KeyError(claim_id)
    return check


def study_claims() -> list[Claim]:
    """Conclusions (1)–(6): claims that draw on several figures."""
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    return [
        Claim("conc1.abm_at_least_nrm", "(1)",
              "The link operated in ABM performs better than, or at least as well as, the link under NRM (throughput ≥, "
              "transfer and buffer-holding time ≤, within 5%, at every point of Figs. 2–11). The paper contradicts this "
              "itself: 3.1.2 has NRM primary→secondary above ABM right of the maximum (Fig. 2, and its 48 kbit/s modulus-8 link in Fig. 3), 3.2 has it slightly "
              "better than ABM with errors apart from very high loads (Figs. 7–8); those points are excluded.",
              _conc1_abm_at_least, needs=(2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),
        Claim("conc1.broad_equivalence", "(1)",
              "There is a relatively broad range of parameters where the performance of both modes is equivalent.",
              _conc1_equivalence, needs=(2, 3, 4, 5, 6, 7, 8, 9, 10, 11)),
        Claim("conc2.modulus_earlier_in_nrm", "(2)",
              "In NRM the modulus affects performance at significantly smaller t_p than in ABM (Fig. 9 departure from "
              "M/D/1, Fig. 10 departure from linearity).",
              both(fig9=_from_figure_claim(9, "fig9.nrm_p2s_departs_before_abm"),
                   fig10=_from_figure_claim(10, "fig10.nrm_bends_before_abm")), needs=(9, 10)),
        Claim("conc2.mod8_enough_for_abm", "(2)",
              "Modulus 8 might be sufficient on a higher-speed terrestrial link with ABM but can be too small with NRM "
              "(Fig. 9: at some load ≤ 0.4, where the paper has ABM on the M/D/1 curve, ABM is within 5% of M/D/1 while "
              "NRM P→S is more than 10% above it).",
              _conc2_mod8_enough, needs=(9,)),
        Claim("conc3.abm_symmetric", "(3)",
              "ABM yields equal performance in both directions of the link (every two-way figure, within 5%).",
              _conc3_symmetric, needs=(4,)),
        Claim("conc3.nrm_directions_differ", "(3)",
              "Throughput and delay of the NRM link can be significantly different for both directions (>10% somewhere "
              "in Fig. 2, 7 or 9).",
              _conc3_nrm_differs, needs=(7,)),
        Claim("conc4.long_delay_nrm_degrades", "(4)(i)",
              "Long propagation and processing delays: the modulus rule with polling degrades NRM throughput (Fig. 6, "
              "modulus 8, where the window limits: ABM more than 10% above both NRM directions).",
              _from_figure_claim(6, "fig6.abm_above_nrm_mod8"), needs=(6,)),
        Claim("conc4.high_error_nrm_degrades", "(4)(ii)",
              "'The situations where the throughput of both modes differs significantly are: ... (ii) For high "
              "block-error probabilities where in NRM a long recovery delay can occur if REJ recovery fails': ABM more "
              "than 10% above NRM ('significantly' = beyond SIGNIFICANT) at every l > 3000 bit with modulus 128, "
              "NRM S→P in Fig. 3 and both NRM directions in Fig. 4.",
              both(fig3=rel(3, "abm_m128", "nrm_s2p_m128", long_, _significantly_above),
                   fig4_s2p=rel(4, "abm_m128", "nrm_s2p_m128", long_, _significantly_above),
                   fig4_p2s=rel(4, "abm_m128", "nrm_p2s_m128", long_, _significantly_above)), needs=(3, 4)),
        Claim("conc5.abm_eq_nrm_p2s_transfer", "(5)",
              "Both directions of ABM and NRM primary→secondary show comparable transfer times as long as the modulus has "
              "no impact (Figs. 7 and 8, error-free, within 10%; Fig. 8 up to load 0.6 — above it the modulus-8 window "
              "binds with exponential lengths, see fig8.errfree_abm_mg1 and its m128 variant).",
              both(fig7=rel(7, "abm_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_ROUGH)),
                   fig7_ba=rel(7, "abm_ba_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_ROUGH)),
                   fig8=rel(8, "abm_p0", "nrm_p2s_p0", xs_where(lambda x: x <= 0.6, "abm_p0"),
                            lambda a, b: approx(a, b, TOL_ROUGH))),
              needs=(7, 8)),
        Claim("conc5.s2p_extra_order_tp", "(5)",
              "NRM secondary→primary suffers an additional polling delay whose mean is of the order of t_p "
              "(Fig. 7 error-free: gap between 0.5 and 2 t_p at every load).",
              lambda sd: pointwise(sd[7].common_xs("nrm_s2p_p0", "nrm_p2s_p0"),
                                   lambda x: within((sd[7].est("nrm_s2p_p0", x) - sd[7].est("nrm_p2s_p0", x))
                                                    .scaled(((L_FIG7 + 48.0) / V_HIGH) / T_P_TERRESTRIAL), 0.5, 2.0)),
              needs=(7,)),
        Claim("conc5.modulus_stronger_in_nrm", "(5)",
              "The modulus can have a much stronger delay-increasing effect in NRM than in ABM (Fig. 9, error-free: at "
              "some load, NRM P→S's excess over M/D/1 is more than twice ABM's).",
              _conc5_much_stronger, needs=(9,)),
        Claim("conc6.nrm_bht_equal", "(6)",
              "Buffer-holding time in NRM is almost equal for primary and secondary stations.",
              _from_figure_claim(11, "fig11.nrm_directions_equal"), needs=(11,)),
        Claim("conc6.nrm_bht_above_abm", "(6)",
              "With relatively long processing and propagation delays, NRM buffer-holding times can be considerably higher "
              "than in ABM (Fig. 11, t_p/T_I = 2.8: at some load both NRM stations more than 10% above ABM).",
              lambda sd: pointwise(sd[11].common_xs("nrm_p2s_p0", "nrm_s2p_p0", "abm_p0"),
                                   lambda x: all_of([exceeds(sd[11].est(k, x), sd[11].est("abm_p0", x), SIGNIFICANT)
                                                     for k in ("nrm_p2s_p0", "nrm_s2p_p0")]),
                                   combine=any_of,
                                   describe=lambda x: " / ".join(f"{sd[11].est(k, x)} vs {sd[11].est('abm_p0', x)}"
                                                                 for k in ("nrm_p2s_p0", "nrm_s2p_p0"))),
              needs=(11,)),
    ]


def all_claim_ids() -> list[str]:
    return [c.id for f in figures() for c in f.claims] + [c.id for c in study_claims()]
