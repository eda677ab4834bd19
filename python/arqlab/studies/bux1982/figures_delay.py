"""Bux 1982, Section 3.2: Figures 7–11, transfer and buffer-holding times.

Poisson sources with the same useful load on both stations; times are divided by the
I-frame transmission time T_I = (l + h)/v, as the paper plots them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..artefacts.curves import FigureData
from ..claims import (
    Region,
    both,
    departs_before,
    departs_within,
    every,
    fixed_ref,
    gap_vs_value,
    linear_trend,
    rel,
    vs_value,
    xs_where,
)
from ..data import StudyData
from ..spec import Assumption, Claim, ClosedForm, Curve, Figure, Scenario, Sensitivity
from ..verdicts import Est, Outcome, Verdict, approx, approx_value, below, conjunction, exceeds, pointwise, within
from .params import (
    A_FIG10_L,
    A_FIG10_PB,
    A_FIG11,
    A_LOADS,
    A_READINGS,
    A_REJ,
    A_T1,
    COLORS,
    L_FIG7,
    L_FIG9,
    LOADS,
    LOADS_800,
    LOADS_800_QUICK,
    LOADS_QUICK,
    T_P_TERRESTRIAL,
    TOL_APPROX,
    TOL_CLOSED_FORM,
    TOL_ORDER_TP,
    TOL_ROUGH,
    VERY_HIGH_LOAD,
    TP_RATIOS,
    TP_RATIOS_QUICK,
    V_HIGH,
    Y_U_FIG10,
)
from .scenarios import (
    base_scenario,
    derive_run,
    frame_time,
    load_overrides,
    mode_curves,
    normalize_by_ti,
    reading_sensitivities,
    side_of,
)
from .theory import ideal_transfer, md1_transfer_over_ti, transfer_closed_forms

def _transfer_curves(l: int, dist: str, *, arm: bool = False) -> tuple[Scenario, list[Curve]]:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=0.0, dist=dist, length=l, saturated=False)
    curves = (mode_curves("p0", "p_bit = 0", {"link.bit_error_rate": 0.0}, COLORS["p0"], arm=arm)
              + mode_curves("p1e5", "p_bit = 1e-5", {"link.bit_error_rate": 1e-5}, COLORS["p1e5"]))
    return base, curves


def _poll(curves: Sequence[Curve], xs: tuple[float, ...], quick_xs: tuple[float, ...]) -> Sensitivity:
    """The other NRM poll reading (P on the next command), on the figure's own x points:
    the text does not settle when the primary polls, so every figure runs both (issue 28)."""
    (s,) = [s for s in reading_sensitivities(curves, xs, quick_xs) if s.name == "poll_asap"]
    return s


def _with_poll(claims: tuple[Claim, ...], ids: tuple[str, ...]) -> tuple[Claim, ...]:
    """``claims`` with the poll reading added to those of ``ids`` (claims that read only
    their own figure: a comparison with another figure's base would mix the readings)."""
    return tuple(dataclasses.replace(c, sensitivity=c.sensitivity + ("poll_asap",)) if c.id in ids else c
                 for c in claims)


def _readings(curves: list[Curve], xs: tuple[float, ...], quick_xs: tuple[float, ...]) -> tuple[Sensitivity, ...]:
    """The model readings both ways and the previous T1 rule (the T1 factors are shown on
    the throughput figures)."""
    return tuple(s for s in reading_sensitivities(curves, xs, quick_xs) if s.name in ("poll_asap", "tr_continue", "t1prev"))


def _tp_gap_claim(fig: int, tag: str, l: float, region: Region) -> Callable[[StudyData], Outcome]:
    """NRM S→P − NRM P→S ≈ t_p (in T_I units: t_p/T_I)."""
    target = T_P_TERRESTRIAL / ((l + 48.0) / V_HIGH)
    return gap_vs_value(fig, f"nrm_s2p_{tag}", f"nrm_p2s_{tag}", region, lambda fd, x: target,
                        lambda e, t: approx_value(e, t, TOL_ORDER_TP))


def fig7() -> Figure:
    l = float(L_FIG7)
    base, curves = _transfer_curves(L_FIG7, "constant")
    low = xs_where(lambda x: x <= VERY_HIGH_LOAD, "abm_p0")
    claims: tuple[Claim, ...] = (
        Claim("fig7.errfree_abm_md1", "3.2",
              "Error-free ABM transfer time equals the M/D/1 result (queueing + T_I + t_p).",
              vs_value(7, "abm_p0", every("abm_p0"), lambda fd, x: ideal_transfer(l, "constant")(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=7),
        Claim("fig7.errfree_nrm_p2s_md1", "3.2",
              "Error-free NRM primary→secondary transfer time equals the M/D/1 result.",
              vs_value(7, "nrm_p2s_p0", every("nrm_p2s_p0"), lambda fd, x: ideal_transfer(l, "constant")(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=7),
        Claim("fig7.errfree_abm_eq_nrm_p2s", "3.2",
              "In the error-free case, ABM and NRM primary→secondary show the same delay values.",
              rel(7, "abm_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)), figure=7),
        Claim("fig7.errfree_nrm_s2p_extra_tp", "3.2",
              "Error-free NRM secondary→primary suffers an additional delay approximately equal to t_p (mean of τ/2, τ ≈ 2t_p).",
              _tp_gap_claim(7, "p0", l, every("abm_p0")), figure=7),
        Claim("fig7.errors_longer", "3.2",
              "Transmission errors (p_bit = 1e-5) give longer transfer times on both links.",
              both(**{m: rel(7, f"{m}_p1e5", f"{m}_p0", every("abm_p0"), exceeds) for m in ("nrm_p2s", "nrm_s2p", "abm")}),
              figure=7),
        Claim("fig7.errors_nrm_p2s_below_abm", "3.2",
              f"With errors, apart from very high loads (here: loads ≤ {VERY_HIGH_LOAD}), NRM primary→secondary performs "
              "slightly better than ABM: below it, by less than 10%.",
              both(better=rel(7, "nrm_p2s_p1e5", "abm_p1e5", low, below),
                   slightly=rel(7, "nrm_p2s_p1e5", "abm_p1e5", low, lambda a, b: approx(a, b, TOL_ROUGH))), figure=7),
    )
    sens = _readings(curves, LOADS, LOADS_QUICK)
    names = tuple(x.name for x in sens)
    claims = tuple(dataclasses.replace(c, sensitivity=c.sensitivity + names) for c in claims)
    return Figure(
        7, "Mean transfer time relative to I-frame transmission time vs. useful channel load. 5000 bit constant message length.",
        base, "useful channel load Y_u", "mean transfer time / T_I", "transfer_time_s", LOADS, LOADS_QUICK,
        load_overrides, tuple(curves), derive_run, normalize_by_ti, closed_forms=transfer_closed_forms(l, "constant"),
        assumptions=(A_LOADS, A_T1, A_READINGS, A_REJ), sensitivities=sens, claims=claims,
        caption="Terrestrial link t_p = 50 ms, l = 5000 bit constant, v = 48 kbit/s, modulus 8, p_bit = 0 and 1e-5.",
        published=("Error-free ABM = NRM P→S = M/D/1; NRM S→P higher by ≈ t_p (≈ 0.48 T_I).",
                   "With errors NRM P→S slightly below ABM except at very high load."),
    )


def fig8() -> Figure:
    l = float(L_FIG7)
    base, curves = _transfer_curves(L_FIG7, "exponential")
    mid = xs_where(lambda x: x >= 0.3, "abm_p0")
    claims = (
        Claim("fig8.longer_than_constant", "3.2",
              "Exponentially distributed lengths lead to longer transfer times than constant lengths (queueing delay grows "
              "with the variance of the transmission times).",
              both(**{f"{m}_{p}": rel(8, f"{m}_{p}", f"{m}_{p}", mid, exceeds, fig_b=7)
                      for m in ("nrm_p2s", "nrm_s2p", "abm") for p in ("p0", "p1e5")}), needs=(7,), figure=8),
        Claim("fig8.errfree_abm_mg1", "3.2",
              "arqlab: error-free ABM follows the M/G/1 (Pollaczek–Khinchine) result for exponential lengths (no modulus "
              "impact).",
              vs_value(8, "abm_p0", every("abm_p0"), lambda fd, x: ideal_transfer(l, "exponential")(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=8, sensitivity=("m128",), origin="model check"),
        Claim("fig8.relations_as_fig7", "3.2",
              "The general relation between the performance of the modes is robust to the length distribution: as in "
              "Fig. 7, error-free ABM ≈ NRM P→S (within 5%) and NRM S→P above NRM P→S.",
              both(abm_eq_p2s=rel(8, "abm_p0", "nrm_p2s_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)),
                   s2p_above=rel(8, "nrm_s2p_p0", "nrm_p2s_p0", every("abm_p0"), exceeds)), figure=8),
    )
    return Figure(
        8, "Mean transfer time relative to mean I-frame transmission time vs. useful channel load. Exponentially distributed "
           "message lengths (mean 5000 bit).",
        base, "useful channel load Y_u", "mean transfer time / mean T_I", "transfer_time_s", LOADS, LOADS_QUICK,
        load_overrides, tuple(curves), derive_run, normalize_by_ti, closed_forms=transfer_closed_forms(l, "exponential"),
        assumptions=(A_LOADS, A_T1, A_REJ,
                     Assumption("p_bit (Fig. 8)", "0 and 1e-5", "'the corresponding transfer-time results' of Fig. 7")),
        claims=_with_poll(claims, ("fig8.relations_as_fig7",)),
        sensitivities=(Sensitivity("m128", "modulus 128 (no window limit) instead of 8: separates the modulus impact "
                                   "of exponential lengths at high load from queueing", ("abm_p0",),
                                   {"protocol.modulus": 128}, xs=(0.5, 0.6, 0.7, 0.8), quick_xs=(0.5, 0.7)),
                       _poll(curves, LOADS, LOADS_QUICK)),
        caption="Terrestrial link t_p = 50 ms, exponential lengths mean 5000 bit, v = 48 kbit/s, modulus 8.",
        published=("Longer than Fig. 7; same relation between modes.",),
    )


def fig9() -> Figure:
    l = float(L_FIG9)
    base, curves = _transfer_curves(L_FIG9, "constant", arm=True)
    md1 = ideal_transfer(l, "constant")
    claims: tuple[Claim, ...] = (
        Claim("fig9.abm_md1_to_0_4", "3.2",
              "Error-free ABM follows the M/D/1 (ideal) transfer time up to a load of 0.4.",
              vs_value(9, "abm_p0", xs_where(lambda x: x <= 0.4, "abm_p0"), lambda fd, x: md1(x),
                       lambda e, t: approx_value(e, t, TOL_CLOSED_FORM)), figure=9),
        Claim("fig9.abm_leaves_md1_above_0_4", "3.2",
              "Error-free ABM leaves the M/D/1 curve only for loads greater than 0.4 (more than seven frames occasionally ready).",
              departs_within(9, "abm_p0", fixed_ref(md1), TOL_CLOSED_FORM, 0.41, 1.0), figure=9),
        Claim("fig9.nrm_p2s_leaves_md1_near_0_2", "3.2",
              "Error-free NRM primary→secondary deviates from the ideal case already at a channel utilization of 0.2 "
              "(more than 5% above M/D/1 at load 0.2).",
              vs_value(9, "nrm_p2s_p0", xs_where(lambda x: abs(x - 0.2) < 1e-9, "nrm_p2s_p0"), lambda fd, x: md1(x),
                       lambda e, t: exceeds(e, Est(t, 0.0), TOL_CLOSED_FORM)), figure=9),
        Claim("fig9.nrm_p2s_departs_before_abm", "3.2",
              "NRM primary→secondary reaches the modulus limit at lower loads than a combined station.",
              departs_before(9, "nrm_p2s_p0", "abm_p0", fixed_ref(md1), fixed_ref(md1), TOL_CLOSED_FORM), figure=9),
        Claim("fig9.nrm_p2s_steep_beyond_0_3", "3.2",
              "NRM primary→secondary increases rather steeply beyond a load of 0.3: from 0.3 to 0.5 it rises by more than "
              "twice the M/D/1 increase.",
              lambda sd: _steep(sd[9], "nrm_p2s_p0", 0.3, 0.5, md1, 2.0), figure=9),
        Claim("fig9.nrm_s2p_above_p2s", "3.2",
              "Messages from secondary to primary again suffer a higher transfer delay (polling) than primary→secondary.",
              rel(9, "nrm_s2p_p0", "nrm_p2s_p0", every("abm_p0"), exceeds), figure=9),
        Claim("a2.arm_transfer_similar_abm", "A2(b)",
              "ARM conjecture: thanks to its asynchronous response, ARM transfer times are similar to ABM (both directions, "
              "error-free).",
              both(p2s=rel(9, "arm_p2s_p0", "abm_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)),
                   s2p=rel(9, "arm_s2p_p0", "abm_ba_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX))),
              figure=9),
    )
    sens9 = _readings(curves, LOADS_800, LOADS_800_QUICK)
    claims = tuple(dataclasses.replace(c, sensitivity=c.sensitivity + tuple(x.name for x in sens9)) for c in claims)
    return Figure(
        9, "Mean transfer time relative to I-frame transmission time vs. useful channel load. 800 bit constant message length.",
        base, "useful channel load Y_u", "mean transfer time / T_I", "transfer_time_s", LOADS_800, LOADS_800_QUICK,
        load_overrides, tuple(curves), derive_run, normalize_by_ti, closed_forms=transfer_closed_forms(l, "constant"),
        y_scale="log",
        assumptions=(A_LOADS, A_T1, A_REJ,
                     Assumption("p_bit (Fig. 9)", "0 and 1e-5", "'the same delay characteristic as Figure 7'"), A_READINGS),
        claims=claims, sensitivities=sens9,
        caption="Terrestrial link t_p = 50 ms, l = 800 bit constant (t_p/T_I = 2.83), v = 48 kbit/s, modulus 8. "
                "ARM curves are arqlab's measurement of the A2 conjecture.",
        published=("Error-free ABM = M/D/1 up to Y_u = 0.4; NRM P→S leaves M/D/1 at ≈ 0.2, steep beyond 0.3.",),
    )


def _steep(fd: FigureData, curve: str, x0: float, x1: float, ref: Callable[[float], float], factor: float) -> Outcome:
    xs = fd.xs(curve)
    if x0 not in xs or x1 not in xs:
        return Outcome(Verdict.INCONCLUSIVE, f"needs loads {x0} and {x1}")
    rise = fd.est(curve, x1) - fd.est(curve, x0)
    ideal = ref(x1) - ref(x0)
    v = exceeds(rise, Est(factor * ideal, 0.0))
    return Outcome(v, f"rise {rise} vs {factor}× M/D/1 rise {factor * ideal:.4g}")


def fig10() -> Figure:
    l = float(L_FIG9)
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=0.0, length=L_FIG9, saturated=False)
    base["traffic"]["a"]["load"] = Y_U_FIG10
    base["traffic"]["b"]["load"] = Y_U_FIG10
    curves = (mode_curves("pb0", "P_B = 0", {}, COLORS["pb0"], params={"block_error": 0.0})
              + mode_curves("pb1e2", "P_B = 1e-2", {}, COLORS["pb1e2"], params={"block_error": 1e-2}))

    def x_over(x: float) -> dict[str, Any]:
        return {}

    def derive(scn: Scenario, curve: Curve, params: Mapping[str, Any], quick: bool, x: float) -> dict[str, Any]:
        t_i = frame_time(scn, side_of(curve.direction))
        delay = round(x * t_i, 9)
        out = {"link.delay_s": delay}
        scn2 = {**scn, "link": {**scn["link"], "delay_s": delay}}
        out.update(derive_run(scn2, curve, params, quick, x))
        return out

    small = xs_where(lambda x: 0.0 < x <= 1.0, "abm_pb0")
    t_i = (l + 48.0) / V_HIGH

    def md1_line(x: float) -> float:
        return md1_transfer_over_ti(Y_U_FIG10, l, 48.0, V_HIGH, x * t_i)

    def linear_claim(sd: StudyData) -> Outcome:
        parts = {}
        for c in curves:
            if not c.plot:
                continue
            fd = sd[10]
            xs = [x for x in fd.xs(c.key) if x <= 1.0]
            trend = linear_trend(c.key)(fd)
            def near_line(x: float, k: str = c.key, tr: Callable[[float], float] = trend) -> Verdict:
                return approx_value(fd.est(k, x), tr(x), 0.10)

            def show(x: float, k: str = c.key, tr: Callable[[float], float] = trend) -> str:
                return f"{fd.est(k, x)} vs line {tr(x):.4g}"

            parts[c.key] = pointwise(xs[2:], near_line, describe=show)
        return conjunction(parts)

    def bends(sd: StudyData) -> Outcome:
        parts = {}
        for pb in ("pb0", "pb1e2"):
            for m in ("nrm_p2s", "nrm_s2p"):
                parts[f"{m}_{pb}"] = departs_before(10, f"{m}_{pb}", f"abm_{pb}", linear_trend(f"{m}_{pb}"),
                                                    linear_trend(f"abm_{pb}"), 0.10)(sd)
        return conjunction(parts)

    claims = (
        Claim("fig10.linear_small_tp", "3.2",
              "For small t_p the mean transfer time grows linearly with t_p (points up to t_p = T_I within 10% of the line "
              "through the first two points).",
              linear_claim, figure=10, sensitivity=("l2000",)),
        Claim("fig10.nrm_bends_before_abm", "3.2",
              "Deviation from linearity (modulus impact) occurs in NRM at considerably smaller t_p/T_I than in ABM "
              "(both NRM directions, both block-error probabilities; deviation = >10% above the initial line).",
              bends, figure=10, sensitivity=("l2000",)),
        Claim("fig10.s2p_extra_order_tp", "3.2",
              "NRM secondary→primary mean queueing time grows linearly with t_p: the S→P − P→S gap is of the order of t_p "
              "(between 0.5 and 2 t_p for 0 < t_p ≤ T_I).",
              lambda sd: pointwise([x for x in small(sd[10]) if x in sd[10].xs("nrm_p2s_pb0")],
                                   lambda x: within((sd[10].est("nrm_s2p_pb0", x) - sd[10].est("nrm_p2s_pb0", x)).scaled(1 / x), 0.5, 2.0),
                                   describe=lambda x: f"gap/t_p = {(sd[10].est('nrm_s2p_pb0', x) - sd[10].est('nrm_p2s_pb0', x)).scaled(1 / x)}"),
              figure=10),
    )
    sens = (Sensitivity("l2000", "l = 2000 bit instead of 800 (T_I = 42.7 ms), same t_p/T_I grid and block errors",
                        ("nrm_p2s_pb0", "nrm_s2p_pb0", "abm_pb0", "nrm_p2s_pb1e2", "nrm_s2p_pb1e2", "abm_pb1e2"),
                        {"traffic.a.length.mean_bits": 2000, "traffic.b.length.mean_bits": 2000},
                        xs=(0.0, 0.5, 1.0, 2.0, 3.0, 4.0), quick_xs=(0.0, 0.5, 1.0, 2.0, 3.0)),
            _poll(curves, TP_RATIOS, TP_RATIOS_QUICK))
    claims10 = _with_poll(claims, tuple(c.id for c in claims))
    return Figure(
        10, "Mean transfer time relative to I-frame transmission time vs. processing plus propagation delay relative to "
            "I-frame transmission time.",
        base, "t_p / T_I", "mean transfer time / T_I", "transfer_time_s", TP_RATIOS, TP_RATIOS_QUICK, x_over,
        tuple(curves), derive, normalize_by_ti, y_scale="log",
        closed_forms=(ClosedForm("M/D/1 + t_p at Y_u = 0.5 (ideal, error-free)", md1_line),),
        assumptions=(A_FIG10_L, A_FIG10_PB, A_LOADS, A_T1), sensitivities=sens, claims=claims10,
        caption="Y_u = 0.5 on both channels, modulus 8, I-frame block-error probability 0 and 1e-2.",
        published=("Linear growth for small t_p/T_I; NRM bends at smaller t_p/T_I than ABM.",),
    )


def fig11() -> Figure:
    base = base_scenario(rate=V_HIGH, delay=T_P_TERRESTRIAL, p_bit=0.0, length=L_FIG9, saturated=False)
    curves = mode_curves("p0", "p_bit = 0", {"link.bit_error_rate": 0.0}, COLORS["p0"])
    curves = [dataclasses.replace(c, measure="buffer_holding_time_s") for c in curves]
    claims = (
        Claim("fig11.nrm_above_abm", "3.2",
              "Buffers have to be held considerably longer (here: >10%) in primary and secondary stations than in combined stations.",
              both(p2s=rel(11, "nrm_p2s_p0", "abm_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10)),
                   s2p=rel(11, "nrm_s2p_p0", "abm_p0", every("abm_p0"), lambda a, b: exceeds(a, b, 0.10))),
              figure=11, sensitivity=("p1e-5", "l5000")),
        Claim("fig11.nrm_directions_equal", "3.2",
              "The NRM direction differences seen for transfer time do not exist for buffer-holding time (within 5%).",
              rel(11, "nrm_p2s_p0", "nrm_s2p_p0", every("abm_p0"), lambda a, b: approx(a, b, TOL_APPROX)),
              figure=11, sensitivity=("p1e-5", "l5000")),
        Claim("fig11.vs_fig9", "3.2",
              "Comparing Figs. 11 and 9: shorter transfer delays from primary to secondary are almost totally outweighed by "
              "longer acknowledgment delays (transfer gap S→P − P→S significant in Fig. 9, buffer-holding gap ≈ 0).",
              both(transfer_gap=rel(9, "nrm_s2p_p0", "nrm_p2s_p0", xs_where(lambda x: x <= 0.3, "abm_p0"), exceeds),
                   holding_equal=rel(11, "nrm_p2s_p0", "nrm_s2p_p0", xs_where(lambda x: x <= 0.3, "abm_p0"),
                                     lambda a, b: approx(a, b, TOL_ROUGH))),
              needs=(9,), figure=11),
    )
    sens = (
        Sensitivity("p1e-5", "p_bit = 1e-5 instead of the assumed 0", ("nrm_p2s_p0", "nrm_s2p_p0", "abm_p0"),
                    {"link.bit_error_rate": 1e-5}, xs=(0.2, 0.4), quick_xs=(0.2, 0.4)),
        Sensitivity("l5000", "l = 5000 bit (t_p/T_I = 0.48, short delay) instead of 800", ("nrm_p2s_p0", "nrm_s2p_p0", "abm_p0"),
                    {"traffic.a.length.mean_bits": 5000, "traffic.b.length.mean_bits": 5000}, xs=(0.2, 0.4), quick_xs=(0.2, 0.4)),
        _poll(curves, LOADS_800, LOADS_800_QUICK),
    )
    claims11 = _with_poll(claims, ("fig11.nrm_above_abm", "fig11.nrm_directions_equal"))
    return Figure(
        11, "Mean buffer-holding time relative to I-frame transmission time vs. useful channel load.",
        base, "useful channel load Y_u", "mean buffer-holding time / T_I", "buffer_holding_time_s", LOADS_800, LOADS_800_QUICK,
        load_overrides, tuple(curves), derive_run, normalize_by_ti, y_scale="log",
        assumptions=(A_FIG11, A_LOADS, A_T1), sensitivities=sens, claims=claims11,
        caption="Buffer-holding time: arrival → positive acknowledgement at the sender.",
        published=("NRM (both stations) ≫ ABM; NRM P→S ≈ NRM S→P.",),
    )
