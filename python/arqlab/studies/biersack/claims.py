"""The paper's claims (Sections I–IV), each with a computed verdict, encoded as
strongly as its sentence: "≈ 3.55" is a published value matched within ±TOL_PAPER,
"slightly better" is better (significant at 95%) by at most SLIGHT, "clearly worse" /
"much lower" is worse by more than MARKED, "close to SREJ" is within CLOSE of it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..artefacts.curves import FigureData
from ..artefacts.measured_x import MeasuredXCurve
from ..data import StudyData
from ..spec import Claim
from ..verdicts import (
    Est,
    Outcome,
    Verdict,
    all_of,
    approx_value,
    at_least,
    below,
    conjunction,
    exceeds,
    pointwise,
)
from .params import (
    ABOUT_FIVE,
    OTHER_VARIATIONS,
    PAPER_VARIATIONS,
    CLOSE,
    FULL_PRECISION,
    OVERLOAD_MBPS,
    PAPER_MAX_BG_MBPS,
    PAPER_MAX_SREJ_MBPS,
    PAPER_ORIG_OOS,
    SLIGHT,
)

#: A published value read off the text (3.55, 3.35 Mbit/s): matched within ±3%.
TOL_PAPER = 0.03
#: "clearly worse", "quite striking", "much lower": by more than 10%.
MARKED = 0.10
SECTION = "III. Results"
#: The pass's precision (±2.5%): differences smaller than it are not read as worse.
PRECISION = FULL_PRECISION
SECTION_FIFO = "IV. Comparison of BG and SREJ (multiple FIFO buffers)"


def max_est(fd: FigureData, curve: str) -> tuple[Est, float | None]:
    """The largest mean of ``curve`` over x, with its x."""
    x = fd.argmax(curve)
    return (Est(float("nan"), float("nan"), 0), None) if x is None else (fd.est(curve, x), x)


def overload(fd: FigureData, curve: str) -> list[float]:
    """Offered rates at which the network is overloaded: the paper's footnote 1, "4.0 Mb/s
    or higher" (x >= OVERLOAD_MBPS, the boundary included)."""
    return [x for x in fd.xs(curve) if x >= OVERLOAD_MBPS]


def below_overload(fd: FigureData, curve: str) -> list[float]:
    return [x for x in fd.xs(curve) if x < OVERLOAD_MBPS]


def slightly(better: Est, worse: Est, higher_is_better: bool) -> Verdict:
    """Better (significant at 95%) and by at most SLIGHT (relative to the worse one)."""
    a, b = (better, worse) if higher_is_better else (worse, better)
    return all_of([exceeds(a, b), at_least(b.scaled(1 + SLIGHT), a)])


def _paper_max(curve: str, paper: float) -> Callable[[StudyData], Outcome]:
    def check(sd: StudyData) -> Outcome:
        m, x = max_est(sd[1], curve)
        return Outcome(approx_value(m, paper, TOL_PAPER),
                       f"our maximum {m} Mbit/s (at {x} Mbit/s offered) vs the paper's {paper} (±{100 * TOL_PAPER:g}%)")
    return check


def _srej_slightly_above_bg(sd: StudyData) -> Outcome:
    (s, xs), (b, xb) = max_est(sd[1], "srej"), max_est(sd[1], "bg")
    gap = 100 * (s.mean / b.mean - 1) if b.mean else float("nan")
    return Outcome(slightly(s, b, True), f"maximum SREJ {s} (at {xs}) vs BG {b} (at {xb}) Mbit/s: +{gap:.1f}% "
                                          f"(slightly: significant, at most +{100 * SLIGHT:g}%; paper +6.0%)")


def _jain_clearly_worse(sd: StudyData) -> Outcome:
    fd = sd[1]
    j = max_est(fd, "jain")[0]
    parts = {o: Outcome(below(j, max_est(fd, o)[0], MARKED), f"max JAIN {j} vs max {o.upper()} {max_est(fd, o)[0]}")
             for o in ("bg", "srej")}
    return conjunction(parts)


def _orig_out_of_sequence(sd: StudyData) -> Outcome:
    """The share of received I frames ORIG discards, by the paper's receiver rule: every
    frame with N(S) ≠ V(R) — out of sequence inside the window or a duplicate
    (``discarded_fraction``) — above PAPER_ORIG_OOS at every overloaded point."""
    fd = sd[1]
    return pointwise(overload(fd, "orig_oos"), lambda x: exceeds(fd.est("orig_oos", x), Est(PAPER_ORIG_OOS, 0.0)),
                     describe=lambda x: f"fraction {fd.est('orig_oos', x)} > {PAPER_ORIG_OOS}")


def _orig_collapses(sd: StudyData) -> Outcome:
    """Under overload ORIG carries far less than its own maximum (and than SREJ)."""
    fd = sd[1]
    top, xo = max_est(fd, "orig")
    return pointwise(overload(fd, "orig"), lambda x: all_of([below(fd.est("orig", x), top, 0.25),
                                                             below(fd.est("orig", x), fd.est("srej", x), 0.25)]),
                     describe=lambda x: f"ORIG {fd.est('orig', x)} vs its maximum {top} (at {xo}) and SREJ {fd.est('srej', x)}")


def _orig_degrades_only_under_overload(sd: StudyData) -> Outcome:
    """Below overload ORIG carries what SREJ carries (not significantly less beyond the
    pass's precision): the paper ties ORIG's degradation to overload (Section I, "a
    serious degradation of throughput when the network was overloaded", footnote 1)."""
    fd = sd[1]
    xs = [x for x in below_overload(fd, "orig") if x in fd.xs("srej")]
    return pointwise(xs, lambda x: at_least(fd.est("orig", x), fd.est("srej", x), PRECISION),
                     describe=lambda x: f"ORIG {fd.est('orig', x)} vs SREJ {fd.est('srej', x)}")


def _delayed_recovery_throttles(sd: StudyData) -> Outcome:
    """Under overload SREJ (one SREJ outstanding: a second loss waits for the first
    recovery) carries more than multi-SREJ (every gap asked for at once), and its
    bridges lose a smaller share of frames (significant at 95%): the delay eases
    congestion. Read at every overloaded point multi-SREJ ran."""
    fd = sd[1]
    xs = [x for x in overload(fd, "msrej") if x in fd.xs("srej")]
    return conjunction({
        "SREJ carries more": pointwise(xs, lambda x: exceeds(fd.est("srej", x), fd.est("msrej", x)),
                                       describe=lambda x: f"SREJ {fd.est('srej', x)} vs multi-SREJ {fd.est('msrej', x)}"),
        "its bridges lose less": pointwise(
            xs, lambda x: exceeds(fd.est("msrej_loss", x), fd.est("srej_loss", x)),
            describe=lambda x: f"loss ratio SREJ {fd.est('srej_loss', x)} vs multi-SREJ {fd.est('msrej_loss', x)}"),
    })


def _two_fifos_across_loads(sd: StudyData) -> Outcome:
    """Two FIFO buffers (w = k) within CLOSE of SREJ at every offered load where the
    bridges lose frames."""
    fd = sd[1]
    xs = [x for x in fd.xs("mf2") if x in fd.xs("srej")]
    return pointwise(xs, lambda x: at_least(fd.est("mf2", x), fd.est("srej", x), CLOSE),
                     describe=lambda x: f"two FIFOs {fd.est('mf2', x)} vs SREJ {fd.est('srej', x)}")


def _jain_opens_too_fast(sd: StudyData) -> Outcome:
    """Under overload JAIN's working window is larger than BG's on average and its I
    frames are dropped by the bridges more often (bridge loss ratio)."""
    fd = sd[1]
    xs = overload(fd, "jain_window")
    return conjunction({
        "larger window": pointwise(xs, lambda x: exceeds(fd.est("jain_window", x), fd.est("bg_window", x)),
                                   describe=lambda x: f"JAIN {fd.est('jain_window', x)} vs BG {fd.est('bg_window', x)}"),
        "more bridge losses": pointwise(xs, lambda x: exceeds(fd.est("jain_loss", x), fd.est("bg_loss", x)),
                                        describe=lambda x: f"JAIN {fd.est('jain_loss', x)} vs BG {fd.est('bg_loss', x)}"),
    })


def fig1_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig1.srej_max_3_55", SECTION, f"The maximum achievable throughput for SREJ is {PAPER_MAX_SREJ_MBPS} Mbit/s "
              "(input-dependent: the verdict flips with the reject timer, which the paper does not state; ours is "
              "3 s, the declared range 1-3 s spans both verdicts).",
              _paper_max("srej", PAPER_MAX_SREJ_MBPS), figure=1),
        Claim("fig1.bg_max_3_35", SECTION, f"The maximum achievable throughput for BG is {PAPER_MAX_BG_MBPS} Mbit/s.",
              _paper_max("bg", PAPER_MAX_BG_MBPS), figure=1),
        Claim("fig1.srej_slightly_above_bg", SECTION,
              "SREJ under overload has a slightly better user-level performance than BG: its maximum throughput is "
              "higher (3.55 vs 3.35 Mbit/s).", _srej_slightly_above_bg, figure=1),
        Claim("fig1.jain_clearly_worse", SECTION,
              "JAIN does not perform as well as either BG or SREJ; the difference is quite striking "
              f"(maximum throughput more than {100 * MARKED:g}% below both).", _jain_clearly_worse, figure=1),
        Claim("fig1.jain_opens_too_fast", SECTION,
              "The lower performance of JAIN is due to the fact that after a loss JAIN opens the window too fast, which "
              "causes a high number of I frames to be dropped by the bridges (under overload: a larger mean working "
              "window and a higher bridge loss ratio than BG's).", _jain_opens_too_fast, figure=1),
        Claim("fig1.orig_out_of_sequence", "II. LLC protocol",
              "ORIG: when the network is overloaded, more than 70% of all I frames received are out of sequence and "
              "discarded (input-dependent: it depends on the window k, which the paper names only for its multi-FIFO "
              "runs; ours is k = 10).", _orig_out_of_sequence, figure=1),
        Claim("fig1.orig_collapses", SECTION,
              "ORIG collapses under overload: its throughput falls more than 25% below its own maximum and below SREJ's.",
              _orig_collapses, figure=1),
        Claim("fig1.orig_degrades_only_under_overload", "I. Introduction",
              "Inference (ours, stricter than the paper's \"a serious degradation of throughput when the network was "
              "overloaded\", which does not say \"only\"): below overload ORIG carries what SREJ carries, within the "
              f"±{100 * PRECISION:g}% precision.",
              _orig_degrades_only_under_overload, figure=1, origin="inference"),
        Claim("fig1.delayed_recovery_throttles_the_sender", "III. Results",
              "The delayed recovery of lost I frames significantly improves the overall performance because it eases "
              "congestion by throttling the sender (under overload SREJ, one SREJ outstanding, carries more than "
              "multi-SREJ, which asks for every gap at once, and its bridges lose a smaller share of frames).",
              _delayed_recovery_throttles, figure=1),
        Claim("fig1.two_fifos_close_across_loads", SECTION_FIFO,
              "Inference (ours; the paper's sentence names no load and is scored as fig7.two_fifos_close_at_w10): "
              "for a window size of ten, two FIFO buffers stay close to SREJ "
              f"(throughput within {100 * CLOSE:g}% at every offered load where the bridges lose frames).",
              _two_fifos_across_loads, figure=1, origin="inference"),
    )


def throughput_at_delay(fd: FigureData, curve: str, delay: float) -> Est:
    """The throughput of ``curve`` where its delay (Fig. 2 or 3) reaches ``delay``, read
    along the curve in offered-load order below overload: linear between the two points
    that bracket it; the half-width adds the points' throughput half-widths and the
    slope times their delay half-widths (as ``MeasuredXCurve.y_at``). NaN if the curve
    never reaches that delay below overload."""
    xs = below_overload(fd, curve)
    pts = [(fd.est(f"{curve}_tp", x), fd.est(curve, x)) for x in xs]
    # A point at exactly that delay (identical trajectories at light load) is itself.
    for t, d in pts:
        if d.mean == delay:
            return t
    for (t1, d1), (t2, d2) in zip(pts, pts[1:]):
        if d1.mean <= delay <= d2.mean:
            if d2.mean == d1.mean:
                return t1
            w = (delay - d1.mean) / (d2.mean - d1.mean)
            slope = (t2.mean - t1.mean) / (d2.mean - d1.mean)
            half = (1 - w) * t1.half + w * t2.half + abs(slope) * ((1 - w) * d1.half + w * d2.half)
            return Est((1 - w) * t1.mean + w * t2.mean, half, min(t1.n, t2.n))
    return Est(float("nan"), float("nan"), 0)


def _delay_slightly_better(fig: int) -> Callable[[StudyData], Outcome]:
    """Read as the figure is drawn (delay against throughput). Never worse: no SREJ point
    below overload is significantly worse than BG's curve beyond the ±2.5% precision,
    read either way — less throughput than BG at SREJ's delay (horizontal), or more delay
    than BG at SREJ's throughput (vertical, the well-conditioned reading at light load,
    where the curves are flat). Slightly better: at SREJ's delay at its highest load below
    overload, SREJ carries slightly more (significant, at most SLIGHT)."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = below_overload(fd, "srej")
        if not xs:
            return Outcome(Verdict.INCONCLUSIVE, "no point below overload")
        pairs = {x: (fd.est("srej_tp", x), throughput_at_delay(fd, "bg", fd.est("srej", x).mean)) for x in xs}
        bg_xs = below_overload(fd, "bg")
        bg = MeasuredXCurve("bg", "BG", tuple(fd.est("bg_tp", x) for x in bg_xs), tuple(fd.est("bg", x) for x in bg_xs))
        unit = "ms" if fd.figure.measure.endswith("_s") else ""

        def no_worse(x: float) -> Verdict:
            (s_tp, b_tp), s_d = pairs[x], fd.est("srej", x)
            b_d = bg.y_at(s_tp.mean)
            worse = [below(s_tp, b_tp, PRECISION) if b_tp.valid else Verdict.DOES_NOT_HOLD,
                     exceeds(s_d, b_d, PRECISION) if b_d.valid else Verdict.DOES_NOT_HOLD]
            return Verdict.DOES_NOT_HOLD if Verdict.HOLDS in worse else Verdict.HOLDS

        def say(x: float) -> str:
            return (f"at {fd.est('srej', x).mean:.4g} {unit}: SREJ {pairs[x][0]} vs BG {pairs[x][1]} Mbit/s; at "
                    f"{pairs[x][0].mean:.4g} Mbit/s: SREJ {fd.est('srej', x)} vs BG {bg.y_at(pairs[x][0].mean)} {unit}")
        never_worse = pointwise(xs, no_worse, describe=say)
        top = xs[-1]
        s, b = pairs[top]
        gain = 100 * (s.mean / b.mean - 1) if b.mean else float("nan")
        slight = Outcome(slightly(s, b, True) if b.valid else Verdict.INCONCLUSIVE,
                         f"at {fd.est('srej', top).mean:.4g} {unit}: SREJ {s} vs BG {b} Mbit/s "
                         f"(+{gain:.1f}%; slightly: significant, at most +{100 * SLIGHT:g}%)")
        return conjunction({"never worse": never_worse, "slightly better": slight})
    return check


def fig2_claims() -> tuple[Claim, ...]:
    return (Claim("fig2.srej_mean_delay_slightly_better", SECTION,
                  "The delay performance of SREJ with respect to the average delay is slightly better than for BG "
                  "(read horizontally: at equal mean delay SREJ carries at least BG's throughput, and slightly more "
                  "near the knee).",
                  _delay_slightly_better(2), figure=2),)


def fig3_claims() -> tuple[Claim, ...]:
    return (Claim("fig3.srej_p95_delay_slightly_better", SECTION,
                  "The delay performance of SREJ with respect to the 95th percentile of the delay is slightly better "
                  "than for BG (read horizontally: throughput at equal 95th percentile).", _delay_slightly_better(3), figure=3),)


def _efficiency(sd: StudyData) -> Outcome:
    fd = sd[5]
    xs = overload(fd, "bg")
    bg_srej = pointwise(xs, lambda x: slightly(fd.est("bg", x), fd.est("srej", x), True),
                        describe=lambda x: f"BG {fd.est('bg', x)} vs SREJ {fd.est('srej', x)}")
    jain = pointwise(xs, lambda x: all_of([below(fd.est("jain", x), fd.est("bg", x), MARKED),
                                           below(fd.est("jain", x), fd.est("srej", x), MARKED)]),
                     describe=lambda x: f"JAIN {fd.est('jain', x)}")
    return conjunction({"BG slightly above SREJ": bg_srej, "JAIN much lower": jain})


def i_frame_loss(fd: FigureData, variant: str, x: float) -> Est:
    """I frames lost in the network per I frame sent, 1 − received/sent, from the pooled
    counts of the same runs. The half-width adds the two counts' relative half-widths
    (conservative: the counts rise and fall together across replications)."""
    sent, got = fd.est(f"{variant}_isent", x), fd.est(f"{variant}_irecv", x)
    if not (sent.valid and got.valid) or sent.mean <= 0 or got.mean <= 0:
        return Est(float("nan"), float("nan"), 0)
    r = got.mean / sent.mean
    return Est(1 - r, r * (sent.half / sent.mean + got.half / got.mean), min(sent.n, got.n))


def _loss_rates(sd: StudyData) -> Outcome:
    """Under overload SREJ loses a larger share of its I frames than BG (significant),
    and JAIN more than MARKED above both."""
    fd = sd[5]
    xs = overload(fd, "bg_isent")
    loss = {v: {x: i_frame_loss(fd, v, x) for x in xs} for v in ("bg", "jain", "srej")}
    return conjunction({
        "SREJ above BG": pointwise(xs, lambda x: exceeds(loss["srej"][x], loss["bg"][x]),
                                   describe=lambda x: f"SREJ {loss['srej'][x]} vs BG {loss['bg'][x]}"),
        "JAIN markedly above both": pointwise(
            xs, lambda x: all_of([exceeds(loss["jain"][x], loss["bg"][x], MARKED),
                                  exceeds(loss["jain"][x], loss["srej"][x], MARKED)]),
            describe=lambda x: f"JAIN {loss['jain'][x]} vs BG {loss['bg'][x]}, SREJ {loss['srej'][x]}"),
    })


def fig5_claims() -> tuple[Claim, ...]:
    return (Claim("fig5.efficiency_under_overload", SECTION,
                  "Under overload BG has a slightly better network efficiency than SREJ; JAIN's is much lower "
                  f"(more than {100 * MARKED:g}% below both).", _efficiency, figure=5),
            Claim("fig5.loss_rates_explain_efficiency", SECTION,
                  "This is because the loss rate of I-frames for SREJ is higher than for BG. Because JAIN suffers "
                  "from a significantly higher loss rate than BG or SREJ, its network efficiency is much lower "
                  f"(under overload, I frames lost per I frame sent: SREJ above BG; JAIN more than {100 * MARKED:g}% "
                  "above both).", _loss_rates, figure=5))


def ranking(fd: FigureData) -> Outcome:
    """SREJ ≥ BG (within 1%) and both above JAIN (significant), at every x of the figure."""
    xs = fd.xs("srej")
    return pointwise(xs, lambda x: all_of([at_least(fd.est("srej", x), fd.est("bg", x), 0.01),
                                           exceeds(fd.est("bg", x), fd.est("jain", x)),
                                           exceeds(fd.est("srej", x), fd.est("jain", x))]),
                     describe=lambda x: f"SREJ {fd.est('srej', x)} BG {fd.est('bg', x)} JAIN {fd.est('jain', x)}")


def _ranking_under(variants: tuple[str, ...], with_base: bool) -> Callable[[StudyData], Outcome]:
    """The ranking at the study's values (``with_base``) and under each of ``variants``;
    inconclusive if one of them was not run."""
    def check(sd: StudyData) -> Outcome:
        fd = sd[6]
        missing = [v for v in variants if v not in fd.variants()]
        if missing:
            return Outcome(Verdict.INCONCLUSIVE, f"variants not run: {', '.join(missing)}")
        parts = {"base": ranking(fd)} if with_base else {}
        for v in variants:
            parts[v] = ranking(fd.with_variant(v))
        return per_level(parts)
    return check


def per_level(parts: dict[str, Outcome]) -> Outcome:
    """All levels must hold; when some hold and some do not, the detail opens with
    "input-dependent" and names the levels each way (the levels are ours, not the paper's)."""
    out = conjunction(parts)
    by = {v: [k for k, o in parts.items() if o.verdict is v] for v in (Verdict.HOLDS, Verdict.DOES_NOT_HOLD)}
    if by[Verdict.HOLDS] and by[Verdict.DOES_NOT_HOLD]:
        head = (f"input-dependent: holds at {', '.join(by[Verdict.HOLDS])}; "
                f"does not hold at {', '.join(by[Verdict.DOES_NOT_HOLD])} | ")
        return Outcome(out.verdict, head + out.detail, deviations=out.deviations)
    return out


def _t1_steps(sd: StudyData, keys: dict[str, tuple[str, bool]]) -> Outcome:
    """Under overload (at and above OVERLOAD_MBPS) each measure ``key`` moves the named
    way (``rising``) at each step T1 = 0.3 s → the study's value → 2 s, each step
    significant at 95%; inconclusive if the T1 variants were not run."""
    fd = sd[6]
    if not {"t1_0.3", "t1_2"} <= set(fd.variants()):
        return Outcome(Verdict.INCONCLUSIVE, "the T1 variants were not run")
    short, long_ = fd.with_variant("t1_0.3"), fd.with_variant("t1_2")

    def ordered(key: str, rising: bool) -> Outcome:
        lo, hi = (short, long_) if rising else (long_, short)
        step = lambda x: all_of([exceeds(fd.est(key, x), lo.est(key, x)),  # noqa: E731
                                 exceeds(hi.est(key, x), fd.est(key, x))])
        return pointwise(overload(fd, key), step, describe=lambda x: f"T1 0.3 s {short.est(key, x)}, study "
                                                                      f"{fd.est(key, x)}, 2 s {long_.est(key, x)}")

    return conjunction({name: ordered(key, rising) for name, (key, rising) in keys.items()})


#: The throttling measures: both ratios, so a lower throughput alone (fewer frames sent
#: because fewer are carried) does not make the claim hold.
THROTTLE = {"I frames delivered per I frame sent rises": ("srej_eff", True),
            "bridge loss ratio falls": ("srej_loss", False)}


def _longer_timers_throttle(sd: StudyData) -> Outcome:
    """The longer T1 (which paces a delayed recovery), the fewer I frames SREJ's senders
    transmit per I frame delivered and the smaller the share the bridges lose."""
    return _t1_steps(sd, THROTTLE)


def _timeout_recovery_improves(sd: StudyData) -> Outcome:
    """The paper's sentence under the timeout reading ("not recovered until a timeout
    occurs"): a longer T1 throttles the sender (THROTTLE) *and* improves the overall
    performance — SREJ's throughput rises at each step. Delay is not read: under
    overload it has no steady state."""
    return _t1_steps(sd, {**THROTTLE, "throughput rises": ("srej", True)})


def fig6_claims() -> tuple[Claim, ...]:
    return (Claim("fig6.ranking_stays", SECTION,
                  "When we ran the same simulations with different values for the buffer size, window size, and the "
                  "timeout, the performance of BG, SREJ, and JAIN relative to each other stayed the same (SREJ at "
                  "least BG within 1%, both above JAIN, under overload; scored over the paper's own variations: "
                  + ", ".join(PAPER_VARIATIONS) + "; input-dependent: the levels are ours, the paper names none, and "
                  "the verdict is reported per level).", _ranking_under(PAPER_VARIATIONS, True), figure=6),
            Claim("fig6.ranking_stays_other_inputs", SECTION,
                  "Inference (ours, not the paper's): the same ranking also stays under the inputs the paper does "
                  "not vary (" + ", ".join(OTHER_VARIATIONS) + ").", _ranking_under(OTHER_VARIATIONS, False),
                  figure=6, origin="inference"),
            Claim("fig6.longer_timers_throttle_the_sender", SECTION,
                  "Inference (ours): a longer T1 delays recovery more and throttles SREJ's senders more (under "
                  "overload: with T1 = 0.3 s < 1 s < 2 s its senders transmit fewer I frames per I frame delivered "
                  "and the bridges lose a smaller share of frames).", _longer_timers_throttle, figure=6,
                  origin="inference"),
            Claim("fig6.timeout_recovery_improves_performance", "III. Results",
                  "When an I-frame is corrupted or lost during retransmission, it is not recovered until a timeout "
                  "occurs; the delayed recovery significantly improves the overall performance because it eases "
                  "congestion by throttling the sender (the timeout reading: under overload, with T1 = 0.3 s < 1 s "
                  "< 2 s SREJ carries more, its senders transmit fewer I frames per I frame delivered and the "
                  "bridges lose a smaller share; the one-SREJ-outstanding reading is fig1.delayed_recovery_"
                  "throttles_the_sender).", _timeout_recovery_improves, figure=6))


def _close(fd: FigureData, w: int, m: float) -> Verdict:
    return at_least(fd.est(f"mf_w{w}", m), fd.est(f"srej_w{w}", m), CLOSE)


def _two_fifos(sd: StudyData) -> Outcome:
    fd = sd[7]
    return Outcome(_close(fd, 10, 2.0), f"w = 10: two FIFOs {fd.est('mf_w10', 2.0)} vs SREJ {fd.est('srej_w10', 2.0)} "
                                         f"Mbit/s (close: within {100 * CLOSE:g}%)")


def _about_five(sd: StudyData) -> Outcome:
    """The smallest m within CLOSE of SREJ at w = 20 lies in ABOUT_FIVE, every smaller m
    of the grid being significantly further away."""
    fd = sd[7]
    ms = fd.xs("mf_w20")
    low, high = ABOUT_FIVE
    v_at = {m: _close(fd, 20, m) for m in ms}
    first = next((m for m in ms if v_at[m] is Verdict.HOLDS), None)
    short_before = first is not None and all(v_at[m] is Verdict.DOES_NOT_HOLD for m in ms if m < first)
    if first is not None and first < low:
        v = Verdict.DOES_NOT_HOLD  # fewer suffice
    elif first is not None and first <= high and short_before:
        v = Verdict.HOLDS
    elif any(m >= high for m in ms) and all(v_at[m] is Verdict.DOES_NOT_HOLD for m in ms if m <= high):
        v = Verdict.DOES_NOT_HOLD  # more are needed
    else:
        v = Verdict.INCONCLUSIVE
    ref = fd.est("srej_w20", ms[0]) if ms else None
    detail = "; ".join(f"m={m:g}:{v_at[m].value} {fd.est('mf_w20', m)}" for m in ms)
    return Outcome(v, f"w = 20, SREJ {ref} Mbit/s; smallest m within {100 * CLOSE:g}%: {first} "
                      f"(about five: {low}-{high}); {detail}")


def fig7_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig7.two_fifos_close_at_w10", SECTION_FIFO,
              "For a window size of ten, as few as two FIFO buffers are sufficient to achieve a performance close to "
              f"SREJ (throughput within {100 * CLOSE:g}%).", _two_fifos, figure=7, sensitivity=("rej_after_discard",)),
        Claim("fig7.about_five_for_larger_windows", SECTION_FIFO,
              "For larger windows (w = 20) the number of FIFO buffers needed to achieve the performance of SREJ "
              f"increases to about five (the smallest within {100 * CLOSE:g}% is {ABOUT_FIVE[0]}-{ABOUT_FIVE[1]}).",
              _about_five, figure=7, sensitivity=("rej_after_discard",)),
    )


def _savings_grow(sd: StudyData) -> Outcome:
    """SREJ's network efficiency minus ORIG's grows with the window: larger at each
    window than at the next smaller one (significant)."""
    fd = sd[8]
    ks = fd.common_xs("orig", "srej")
    gaps = {k: fd.est("srej", k) - fd.est("orig", k) for k in ks}
    if len(ks) < 2:
        return Outcome(Verdict.INCONCLUSIVE, "fewer than two windows")
    v = all_of(exceeds(gaps[b], gaps[a]) for a, b in zip(ks, ks[1:]))
    return Outcome(v, "SREJ − ORIG efficiency: " + ", ".join(f"k={k:g}: {gaps[k]}" for k in ks))


def fig8_claims() -> tuple[Claim, ...]:
    return (Claim("fig8.savings_grow_with_window", "II. LLC protocol",
                  "The savings in bandwidth due to selective retransmission become more pronounced with increasing "
                  "window sizes (SREJ's network efficiency above ORIG's by more at each larger window, under "
                  "overload).", _savings_grow, figure=8),)


def study_claims() -> list[Claim]:
    return []
