"""Bux 1982, Section 3.1: Figures 2–6, maximum throughput against message length.

Saturated sources (one-way in Figs. 2–3, two-way in Figs. 4–6); each figure carries its
curves, closed forms, assumptions, sensitivity variants and the claims of the section.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..claims import Region, base_argmax, both, every, left_of, monotone_up, rel, right_of, vs_value, xs_where
from ..spec import Claim, ClosedForm, Curve, Figure, Scenario, Sensitivity
from ..artefacts.curves import FigureData
from ..verdicts import Est, Outcome, Verdict, all_of, any_of, approx, approx_value, at_least, at_most, below, conjunction, exceeds
from .params import (
    A_FIG3,
    A_PBIT_1WAY,
    A_REJ,
    A_T1,
    A_X,
    A_READINGS,
    COLORS,
    DRAMATIC,
    LENGTHS,
    LENGTHS_QUICK,
    P_BIT_DEFAULT,
    P_BIT_SATELLITE,
    SIGNIFICANT,
    T_P_SATELLITE,
    T_P_TERRESTRIAL,
    TOL_APPROX,
    TOL_GE,
    TOL_ROUGH,
    V_HIGH,
    V_LOW,
    WIDE_RANGE_FACTOR,
)
from .scenarios import (
    base_scenario,
    derive_run,
    length_overrides,
    mode_curves,
    normalize_throughput,
    oneway_set,
    reading_sensitivities,
)
from .theory import channel_bound, window_bound

#: x points of the readings and T1 sensitivities: one left of the optimum, three right of it.
READING_XS, READING_QUICK_XS = LENGTHS, LENGTHS_QUICK  # the figures' own grids: scored on the base's x points


def with_readings(claims: Sequence[Claim], curves: Sequence[Curve]) -> tuple[tuple[Claim, ...], tuple[Sensitivity, ...]]:
    """Every claim of a throughput figure re-evaluated under the readings and T1 variants."""
    sens = reading_sensitivities(curves, READING_XS, READING_QUICK_XS)
    names = tuple(x.name for x in sens)
    return tuple(dataclasses.replace(c, sensitivity=c.sensitivity + names) for c in claims), sens


def optimum_to_wide(refs: Sequence[str]) -> Region:
    """From the largest optimum among ``refs`` up to WIDE_RANGE_FACTOR times it: "in the
    region of the optimum and within a wide range of longer message lengths" (3.1.3)."""
    def region(fd: FigureData) -> list[float]:
        opts = [base_argmax(fd, r) for r in refs]
        if any(o is None for o in opts):
            return []
        xo = max(o for o in opts if o is not None)
        return [x for x in fd.xs(refs[0]) if xo <= x <= WIDE_RANGE_FACTOR * xo]
    return region


window_limited_48k = xs_where(lambda x: window_bound(x, 48.0, V_HIGH, T_P_TERRESTRIAL, 7) < x / (x + 48.0), "abm_48k")


def fig2() -> Figure:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT)
    curves = (oneway_set("4k8", "4.8 kbit/s", {"link.rate_bps": V_LOW}, COLORS["4k8"])
              + oneway_set("48k", "48 kbit/s", {"link.rate_bps": V_HIGH}, COLORS["48k"]))
    h = 48.0
    closed = (
        ClosedForm("bound l/(l+h)·(1−p)^(l+h)", lambda x: channel_bound(x, h, P_BIT_DEFAULT)),
        ClosedForm("error-free window bound, 48 kbit/s, W=7", lambda x: window_bound(x, h, V_HIGH, T_P_TERRESTRIAL, 7),
                   {"linestyle": ":", "color": "0.3"}),
    )
    claims: tuple[Claim, ...] = (
        Claim("fig2.upper_bound", "3.1.1(i)",
              "Maximum throughput has an upper bound given by the ratio of I-field length to total I-frame length "
              "l/(l+h); no curve exceeds it.",
              lambda sd: conjunction({c.key: vs_value(2, c.key, every(c.key), lambda fd, x: x / (x + h),
                                                      lambda e, t: at_most(e, Est(t, 0.0), 0.005))(sd)
                                      for c in curves}), figure=2),
        Claim("fig2.clean_copy_bound", "3.1.1(i)-(ii)",
              "arqlab: with the clean-copy factor of (ii), l/(l+h)·(1−p)^(l+h) bounds every curve too.",
              lambda sd: conjunction({c.key: vs_value(2, c.key, every(c.key),
                                                      lambda fd, x: channel_bound(x, h, P_BIT_DEFAULT),
                                                      lambda e, t: at_most(e, Est(t, 0.0), 0.005))(sd)
                                      for c in curves}), figure=2, origin="model check"),
        Claim("fig2.interior_optimum", "3.1.1(i)-(ii)",
              "Maximum throughput decreases for very short and for very long messages (an interior optimum).",
              lambda sd: conjunction({c.key: _interior_max(sd[2], c.key) for c in curves}), figure=2),
        Claim("fig2.48k_below_4k8_short", "3.1.2",
              "Left of the maximum, the 48 kbit/s link has lower throughput efficiency than the 4.8 kbit/s link "
              "(modulus rule: M−1 = 7 outstanding frames reached more often); checked where the 48 kbit/s error-free "
              "window bound binds (7·T_I < T_I + 2t_p + T_S, l ≤ 800 bit).",
              both(**{m: rel(2, f"{m}_48k", f"{m}_4k8", window_limited_48k, below) for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=2),
        Claim("fig2.left_nrm_s2p_ge_p2s", "3.1.2",
              "To the left of the maximum, NRM throughput secondary→primary is constantly higher than primary→secondary "
              "(strictly, at every point left of the maximum).",
              both(**{r: rel(2, f"nrm_s2p_{r}", f"nrm_p2s_{r}", left_of(f"abm_{r}"), exceeds)
                      for r in ("48k", "4k8")}), figure=2),
        Claim("fig2.left_abm_ge_nrm", "3.1.2",
              "In the ascending branch, ABM is equal or superior to both directions of NRM.",
              both(**{f"{m}_{r}": rel(2, f"abm_{r}", f"{m}_{r}", left_of(f"abm_{r}"), lambda a, b: at_least(a, b, TOL_GE))
                      for r in ("48k", "4k8") for m in ("nrm_p2s", "nrm_s2p")}), figure=2),
        Claim("fig2.right_nrm_p2s_highest", "3.1.2",
              "Right of the maximum, the direction primary→secondary shows higher throughput than the reverse direction.",
              both(**{r: rel(2, f"nrm_p2s_{r}", f"nrm_s2p_{r}", right_of(f"abm_{r}"), exceeds) for r in ("48k", "4k8")}),
              figure=2, sensitivity=("p5e-6", "p2e-5")),
        Claim("fig2.right_abm_approx_nrm_s2p", "3.1.2",
              "Right of the maximum, ABM throughput is almost equal to NRM secondary→primary (both use REJ recovery).",
              both(**{r: rel(2, f"abm_{r}", f"nrm_s2p_{r}", right_of(f"abm_{r}"), lambda a, b: approx(a, b, TOL_APPROX))
                      for r in ("48k", "4k8")}),
              figure=2, sensitivity=("p5e-6", "p2e-5")),
        Claim("fig2.mod8_limits_48k", "3.1.2",
              "A modulus of eight can lead to throughput degradation on the 48 kbit/s link if t_p is considerably "
              "longer than T_I: for some message length with 2t_p > 5·T_I, ABM is more than 10% below the channel bound.",
              vs_value(2, "abm_48k", xs_where(lambda x: 2 * T_P_TERRESTRIAL > 5 * (x + h) / V_HIGH, "abm_48k"),
                       lambda fd, x: channel_bound(x, h, P_BIT_DEFAULT),
                       lambda e, t: below(e, Est(t, 0.0), SIGNIFICANT), combine=any_of), figure=2),
        Claim("fig2.abm_on_window_bound", "3.1.2",
              "arqlab: where 2t_p > 5·T_I, ABM sits on the error-free window bound W·T_I/(T_I+2t_p+T_S) (within 10%).",
              vs_value(2, "abm_48k", xs_where(lambda x: 2 * T_P_TERRESTRIAL > 5 * (x + h) / V_HIGH, "abm_48k"),
                       lambda fd, x: window_bound(x, h, V_HIGH, T_P_TERRESTRIAL, 7),
                       lambda e, t: approx_value(e, t, 0.10)), figure=2, origin="model check"),
    )
    sens: tuple[Sensitivity, ...] = (
        Sensitivity("p5e-6", "p_bit = 5e-6 instead of the assumed 1e-5", ("nrm_p2s_48k", "nrm_s2p_48k", "abm_48k"),
                    {"link.bit_error_rate": 5e-6}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
        Sensitivity("p2e-5", "p_bit = 2e-5 instead of the assumed 1e-5", ("nrm_p2s_48k", "nrm_s2p_48k", "abm_48k"),
                    {"link.bit_error_rate": 2e-5}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
    )
    claims, readings = with_readings(claims, curves)
    sens += readings
    return Figure(
        2, "Maximum throughput relative to transmission rate vs. message length. One-way flow. Impact of transmission rate.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=closed, assumptions=(A_PBIT_1WAY, A_T1, A_READINGS, A_X, A_REJ), sensitivities=sens, claims=claims,
        caption="Terrestrial link t_p = 50 ms, v = 4.8 and 48 kbit/s, constant lengths, modulus 8, one-way flow.",
        published=(
            "Optimum (maximum) in the middle of the length range; left of it 48 kbit/s < 4.8 kbit/s.",
            "Left: NRM S→P > NRM P→S; ABM ≥ both. Right: NRM P→S highest; ABM ≈ NRM S→P.",
        ),
    )


def _interior_max(fd: FigureData, curve: str) -> Outcome:
    xs = fd.xs(curve)
    if len(xs) < 3:
        return Outcome(Verdict.INCONCLUSIVE, "fewer than 3 points")
    xo = base_argmax(fd, curve)
    peak = fd.est(curve, xo) if xo is not None else Est(float("nan"), float("nan"))
    ends = (fd.est(curve, xs[0]), fd.est(curve, xs[-1]))
    if xo in (xs[0], xs[-1]):
        # The largest mean sits on an end: refuted if that end is significantly above every
        # interior point (comparing it with itself would only ever give 0 ± h).
        v = all_of(below(fd.est(curve, x), peak) for x in xs[1:-1])
        v = Verdict.DOES_NOT_HOLD if v is Verdict.HOLDS else Verdict.INCONCLUSIVE
    else:
        v = all_of([below(ends[0], peak), below(ends[1], peak)])
    return Outcome(v, f"max at x={xo} ({peak}); ends {ends[0]}, {ends[1]}")


def fig3() -> Figure:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT)
    curves = (oneway_set("m8", "mod 8", {"protocol.modulus": 8}, COLORS["m8"], arm=True)
              + oneway_set("m128", "mod 128", {"protocol.modulus": 128}, COLORS["m128"], arm=True))
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    short = xs_where(lambda x: x <= 500, "abm_m8")
    claims: tuple[Claim, ...] = (
        Claim("fig3.mod128_helps_short", "3.1.2",
              "For short message lengths, throughput efficiency can be significantly improved by modulus 128 "
              "(each mode: more than 10% above modulus 8 at some l ≤ 500 bit).",
              both(**{m: rel(3, f"{m}_m128", f"{m}_m8", short, lambda a, b: exceeds(a, b, SIGNIFICANT), combine=any_of)
                      for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=3),
        Claim("fig3.nrm_s2p_mod128_collapse", "3.1.2",
              "'Under these conditions' (l > 3000 bit) 'a small modulus value may result in a better performance than a "
              "large one': NRM secondary→primary with modulus 128 below modulus 8 at some l > 3000 bit ('may' makes it "
              "existential; the universal 'dramatic degradation' is fig3.nrm_s2p_mod128_dramatic).",
              rel(3, "nrm_s2p_m128", "nrm_s2p_m8", long_, below, combine=any_of),
              figure=3, sensitivity=("p5e-6", "p2e-5")),
        Claim("fig3.nrm_s2p_mod128_dramatic", "3.1.2",
              "For message lengths greater than 3000 bits, NRM S→P shows a dramatic degradation for the modulo-128 case: "
              "at every l > 3000 bit more than 25% below the modulo-8 case (the sentence is universal; 'dramatic' = "
              "beyond DRAMATIC).",
              rel(3, "nrm_s2p_m128", "nrm_s2p_m8", long_, lambda a, b: below(a, b, DRAMATIC)),
              figure=3, sensitivity=("p5e-6", "p2e-5")),
        Claim("fig3.abm_mod128_no_collapse", "3.1.2",
              "The ABM link does not show this effect (time-out recovery): no dramatic degradation, ABM modulus 128 not "
              "more than 25% below modulus 8 beyond 3000 bits.",
              rel(3, "abm_m128", "abm_m8", long_, lambda a, b: at_least(a, b, DRAMATIC)),
              figure=3, sensitivity=("p2e-5",)),
        Claim("fig3.nrm_p2s_mod128_above_s2p", "3.1.3",
              "'In contrast to one-way flow' (3.1.3), NRM primary→secondary with modulus 128 is not worse than "
              "secondary→primary for long messages in one-way flow (≥, 2% slack).",
              rel(3, "nrm_p2s_m128", "nrm_s2p_m128", long_, lambda a, b: at_least(a, b, TOL_GE)), figure=3,
              sensitivity=("p5e-6", "p2e-5")),
        Claim("a2.arm_left_throughput_eq_abm", "A2(a)",
              "ARM conjecture: left of the optimum ARM throughput should equal ABM (asynchronous response).",
              both(**{m: rel(3, f"arm_s2p_{m}", f"abm_{m}", left_of(f"abm_{m}"), lambda a, b: approx(a, b, TOL_APPROX))
                      for m in ("m8", "m128")}), figure=3),
        Claim("a2.arm_right_throughput_similar_abm", "A2(a)",
              "ARM conjecture: right of the optimum time-out recovery prevents the NRM collapse; ARM at most slightly "
              "less efficient than ABM (within 10%) and above NRM S→P with modulus 128.",
              both(near_abm=rel(3, "arm_s2p_m128", "abm_m128", long_, lambda a, b: at_least(a, b, 0.10)),
                   above_nrm=rel(3, "arm_s2p_m128", "nrm_s2p_m128", long_, exceeds)),
              figure=3),
    )
    sens: tuple[Sensitivity, ...] = (
        Sensitivity("p5e-6", "p_bit = 5e-6 instead of the assumed 1e-5", ("nrm_s2p_m8", "nrm_s2p_m128", "nrm_p2s_m128", "abm_m128"),
                    {"link.bit_error_rate": 5e-6}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
        Sensitivity("p2e-5", "p_bit = 2e-5 instead of the assumed 1e-5", ("nrm_s2p_m8", "nrm_s2p_m128", "nrm_p2s_m128", "abm_m8", "abm_m128"),
                    {"link.bit_error_rate": 2e-5}, xs=(2000, 5000, 10000, 20000), quick_xs=(5000, 10000)),
    )
    claims, readings = with_readings(claims, curves)
    sens += readings
    return Figure(
        3, "Maximum throughput relative to transmission rate vs. message length. One-way flow. Impact of modulus value.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=(ClosedForm("bound l/(l+h)·(1−p)^(l+h), h=48", lambda x: channel_bound(x, 48.0, P_BIT_DEFAULT)),),
        assumptions=(A_FIG3, A_PBIT_1WAY, A_T1, A_READINGS, A_X, A_REJ), sensitivities=sens, claims=claims,
        caption="Terrestrial link t_p = 50 ms, v = 48 kbit/s, constant lengths, one-way flow, modulus 8 and 128 "
                "(h = 48 / 56 bit). ARM curves are arqlab's measurement of the A2 conjecture.",
        published=("Mod 128 > mod 8 for short messages; NRM S→P mod 128 collapses for l > 3000 bit; ABM does not.",),
    )


def _two_way_figure(dist: str, *, delay: float, p_bit: float, arm: bool) -> tuple[Scenario, list[Curve]]:
    """Two-way saturated flow, modulus 8 and 128 curve sets on one link."""
    base = base_scenario(rate=V_HIGH, delay=delay, p_bit=p_bit, dist=dist)
    curves = (mode_curves("m8", "mod 8", {"protocol.modulus": 8}, COLORS["m8"])
              + mode_curves("m128", "mod 128", {"protocol.modulus": 128}, COLORS["m128"], arm=arm))
    return base, curves


def _fig4_like_claims(n: int, *, prefix: str, origin: str = "paper") -> list[Claim]:
    """The Fig. 4 statements of Section 3.1.3; on Fig. 5 they are arqlab's extrapolation (the
    paper says only that 'the general relation among the results ... is nearly the same')."""
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    opt_wide = optimum_to_wide(("abm_m8", "nrm_p2s_m8", "nrm_s2p_m8"))
    sec = "3.1.3"
    out = [
        Claim(f"{prefix}.left_nrm_directions_equal_mod8", sec,
              "Left of the maximum (two-way flow), both NRM directions are almost equivalent (acks ride on I-frames), "
              "with either modulus.",
              both(m8=rel(n, "nrm_p2s_m8", "nrm_s2p_m8", left_of("abm_m8"), lambda a, b: approx(a, b, TOL_APPROX)),
                   m128=rel(n, "nrm_p2s_m128", "nrm_s2p_m128", left_of("abm_m128"), lambda a, b: approx(a, b, TOL_APPROX))),
              figure=n),
        Claim(f"{prefix}.left_abm_above_nrm_mod8", sec,
              "With modulus 8, left of the maximum, ABM throughput is still higher than NRM (both directions).",
              both(p2s=rel(n, "abm_m8", "nrm_p2s_m8", left_of("abm_m8"), exceeds),
                   s2p=rel(n, "abm_m8", "nrm_s2p_m8", left_of("abm_m8"), exceeds)), figure=n),
        Claim(f"{prefix}.optimum_and_right_equivalent_mod8", sec,
              "With modulus 8, NRM (both directions) and ABM are almost equivalent in the region of the optimum and "
              f"within a wide range of longer messages (from the largest of the three optima to {WIDE_RANGE_FACTOR:g}× it).",
              both(p2s=rel(n, "nrm_p2s_m8", "abm_m8", opt_wide, lambda a, b: approx(a, b, TOL_APPROX)),
                   s2p=rel(n, "nrm_s2p_m8", "abm_m8", opt_wide, lambda a, b: approx(a, b, TOL_APPROX))),
              figure=n),
        Claim(f"{prefix}.nrm_s2p_mod128_collapse", sec,
              "With modulus 128, NRM secondary→primary 'exhibits rapid throughput degradation for longer message "
              "lengths': at every l > 3000 bit more than 10% below modulus 8 ('degradation' = beyond SIGNIFICANT) and "
              "below ABM with modulus 128 (which 'does not show this effect').",
              both(vs_m8=rel(n, "nrm_s2p_m128", "nrm_s2p_m8", long_, lambda a, b: below(a, b, SIGNIFICANT)),
                   vs_abm=rel(n, "nrm_s2p_m128", "abm_m128", long_, below)), figure=n),
        Claim(f"{prefix}.nrm_p2s_mod128_worse", sec,
              "In contrast to one-way flow, NRM primary→secondary with modulus 128 behaves even worse than secondary→primary.",
              rel(n, "nrm_p2s_m128", "nrm_s2p_m128", long_, below), figure=n),
        Claim(f"{prefix}.abm_mod128_no_collapse", sec,
              "The ABM link does not show the modulus-128 degradation (time-out recovery after a short delay): no "
              "collapse, modulus 128 not more than 25% below modulus 8.",
              rel(n, "abm_m128", "abm_m8", long_, lambda a, b: at_least(a, b, DRAMATIC)), figure=n),
    ]
    if origin != "paper":
        out = [dataclasses.replace(c, origin=origin, statement=f"arqlab, from Fig. 4: {c.statement}") for c in out]
    return out


def fig4() -> Figure:
    base, curves = _two_way_figure("constant", delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT, arm=True)
    claims = _fig4_like_claims(4, prefix="fig4")
    long_ = xs_where(lambda x: x > 3000, "abm_m128")
    claims += [
        Claim("fig4.abm_directions_equal", "(3)",
              "ABM yields equal performance in both directions of the link (two-way flow).",
              both(m8=rel(4, "abm_m8", "abm_ba_m8", every("abm_m8"), lambda a, b: approx(a, b, TOL_APPROX)),
                   m128=rel(4, "abm_m128", "abm_ba_m128", every("abm_m128"), lambda a, b: approx(a, b, TOL_APPROX))),
              figure=4),
        Claim("a2.arm_two_way_no_collapse", "A2(a)",
              "ARM conjecture (two-way, modulus 128): time-out recovery avoids the NRM degradation; ARM throughput similar "
              "to ABM (within 10%) in both directions for long messages.",
              both(p2s=rel(4, "arm_p2s_m128", "abm_m128", long_, lambda a, b: at_least(a, b, 0.10)),
                   s2p=rel(4, "arm_s2p_m128", "abm_ba_m128", long_, lambda a, b: at_least(a, b, 0.10))),
              figure=4),
    ]
    claims4, sens = with_readings(claims, curves)
    return Figure(
        4, "Maximum throughput relative to transmission rate vs. message length. Two-way flow. Constant message length.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=(ClosedForm("bound l/(l+h)·(1−p)^(l+h), h=48", lambda x: channel_bound(x, 48.0, P_BIT_DEFAULT)),),
        assumptions=(A_T1, A_READINGS, A_X, A_REJ), sensitivities=sens, claims=claims4,
        caption="Terrestrial link t_p = 50 ms, p_bit = 1e-5, v = 48 kbit/s, constant lengths, two-way flow, modulus 8 and 128.",
        published=("Left: NRM P→S ≈ S→P < ABM (mod 8). Optimum and right: all ≈ (mod 8).",
                   "Mod 128 long messages: NRM S→P collapses, NRM P→S even worse, ABM does not."),
    )


def fig5() -> Figure:
    base, curves = _two_way_figure("exponential", delay=T_P_TERRESTRIAL, p_bit=P_BIT_DEFAULT, arm=False)
    claims = _fig4_like_claims(5, prefix="fig5", origin="extrapolation")
    claims += [
        Claim("fig5.same_when_no_effects", "3.1.3",
              "As long as neither modulus nor transmission errors have a significant impact (modulus 128, l = 500–1000 bit), "
              "the same throughput is obtained for exponential as for constant lengths.",
              both(**{m: rel(5, f"{m}_m128", f"{m}_m128", xs_where(lambda x: 500 <= x <= 1000, "abm_m128"),
                             lambda a, b: approx(a, b, TOL_APPROX), fig_b=4) for m in ("nrm_p2s", "abm")}),
              needs=(4,), figure=5),
        Claim("fig5.modulus_broader", "3.1.3(i)",
              "The modulus rule affects throughput over a broader range for variable lengths: left of the maximum "
              "(modulus 8), exponential lengths give lower throughput than constant lengths.",
              both(**{m: rel(5, f"{m}_m8", f"{m}_m8", left_of("abm_m8"), below, fig_b=4) for m in ("abm", "nrm_p2s", "nrm_s2p")}),
              needs=(4,), figure=5),
        Claim("fig5.errors_stronger_long", "3.1.3(ii)",
              "For longer frames, exponential lengths give lower throughput efficiency than constant lengths (long frames "
              "are more error-prone).",
              both(**{m: rel(5, f"{m}_m8", f"{m}_m8", right_of("abm_m8"), below, fig_b=4) for m in ("abm", "nrm_p2s", "nrm_s2p")}),
              needs=(4,), figure=5),
    ]
    claims5, sens = with_readings(claims, curves)
    return Figure(
        5, "Maximum throughput relative to transmission rate vs. mean message length. Two-way flow. Exponentially distributed "
           "message length.",
        base, "mean message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        assumptions=(A_T1, A_READINGS, A_X, A_REJ), sensitivities=sens, claims=claims5,
        caption="As Fig. 4 with exponentially distributed message lengths (mean l). T1 uses the mean T_I.",
        published=("Same relation among modes as Fig. 4; lower throughput than Fig. 4 where modulus or errors matter.",),
    )


def fig6() -> Figure:
    base, curves = _two_way_figure("constant", delay=T_P_SATELLITE, p_bit=P_BIT_SATELLITE, arm=False)
    short = xs_where(lambda x: x <= 1000, "abm_m8")
    # "the modulus rule in conjunction with the polling operation": where W = 7 binds on the
    # satellite link (7·T_I < T_I + 2 t_p + T_S, l ≤ 5000 bit); beyond, all curves sit on the
    # channel bound and no mode can be above another.
    window_limited = xs_where(lambda x: window_bound(x, 48.0, V_HIGH, T_P_SATELLITE, 7) < x / (x + 48.0), "abm_m8")
    claims = [
        Claim("fig6.only_left_effects", "3.1.3",
              "With p_bit = 1e-7, only the left-of-maximum effects are seen over the whole range: throughput does not "
              "decrease with message length.",
              lambda sd: conjunction({c.key: monotone_up(6, c.key, TOL_GE)(sd) for c in curves if c.plot}), figure=6),
        Claim("fig6.mod128_drastic_short", "3.1.3",
              "Modulo-128 numbering drastically improves throughput for short I-frames (l ≤ 1000 bit: by more than 25%).",
              both(**{m: rel(6, f"{m}_m128", f"{m}_m8", short, lambda a, b: exceeds(a, b, DRAMATIC))
                      for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=6),
        Claim("fig6.abm_above_nrm_mod8", "(4)(i)",
              "With long propagation delays, the modulus rule with polling degrades NRM: ABM more than 10% above both "
              "NRM directions ('degrades' = beyond SIGNIFICANT; modulus 8, where the window limits: l ≤ 5000 bit).",
              both(p2s=rel(6, "abm_m8", "nrm_p2s_m8", window_limited, lambda a, b: exceeds(a, b, SIGNIFICANT)),
                   s2p=rel(6, "abm_m8", "nrm_s2p_m8", window_limited, lambda a, b: exceeds(a, b, SIGNIFICANT))),
              figure=6),
        Claim("fig6.nrm_directions_roughly_equal_mod8", "3.1.3",
              "arqlab, from Fig. 4: the different sources of degradation give roughly the same throughput for both NRM "
              "directions (two-way flow; within 10%).",
              rel(6, "nrm_p2s_m8", "nrm_s2p_m8", every("abm_m8"), lambda a, b: approx(a, b, TOL_ROUGH)), figure=6,
              origin="extrapolation"),
    ]
    claims6, sens6 = with_readings(claims, curves)
    h = 48.0
    return Figure(
        6, "Maximum throughput relative to transmission rate vs. message length. Two-way flow. Satellite link.",
        base, "message length l [bit]", "throughput efficiency", "throughput_efficiency", LENGTHS, LENGTHS_QUICK,
        length_overrides, tuple(curves), derive_run, normalize_throughput, x_scale="log", y_limits=(0.0, 1.0),
        closed_forms=(ClosedForm("error-free window bound, W=7", lambda x: window_bound(x, h, V_HIGH, T_P_SATELLITE, 7),
                                 {"linestyle": ":", "color": "0.3"}),
                      ClosedForm("error-free window bound, W=127", lambda x: window_bound(x, 56.0, V_HIGH, T_P_SATELLITE, 127),
                                 {"linestyle": ":", "color": "tab:red"})),
        assumptions=(A_T1, A_READINGS, A_X, A_REJ), claims=claims6, sensitivities=sens6,
        caption="Satellite link t_p = 350 ms, p_bit = 1e-7, v = 48 kbit/s, constant lengths, two-way flow, modulus 8 and 128.",
        published=("No maximum within the range; mod 128 ≫ mod 8 for short frames.",),
    )
