"""The paper's claims, each with a computed verdict: Fig. 3 and §4's four reasons,
Fig. 2 (with its assumed T_N profile), and §6's circuit-management statements checked
on the extension (Figures 4–7).
"""

from __future__ import annotations

import math
from ..artefacts.curves import FigureData
from ..data import StudyData
from ..spec import Claim
from ..verdicts import Est, Outcome, Verdict, all_of, approx, approx_value, at_most, below, exceeds, pointwise
from . import theory
from .saturation import (
    SATURATION_BUSY,
    SATURATION_BUSY_SENSITIVITY,  # noqa: F401 (re-exported: the claims' threshold sensitivity)
    busy_list,
    line_busy_share,
    not_line_time,
    saturation,
    threshold_sensitivity,
)
from .params import (
    FILE_OCTETS,
    HEADER_OCTETS,
    PACKET_OCTETS,
    PAPER_BOUND_HEADERS_BPS,
    PAPER_C_MAX,
    PAPER_RETX_SHARE,
    PAPER_SINGLE_MAX_BPS,
    SEGMENTS,
)
from .params import DAY_FACTOR

#: The throughput knee (reported beside the line's saturation): the smallest C reaching
#: this share of the best throughput.
SATURATION_SHARE = 0.95
#: Linear growth: C circuits give min(C × one circuit, the line's capacity for user
#: data) within this relative tolerance, C = 2 and 3 (the model's "doubled", "tripled").
TOL_LINEAR = 0.10
LINEAR_CIRCUITS = (2.0, 3.0)
#: "Without increasing performance": within this share of the throughput at the knee.
TOL_FLAT = 0.03
#: "Nearly double": best / worst hour in this range.
NEARLY_DOUBLE = (1.6, 2.05)


def knee(fd: FigureData, curve: str) -> tuple[float | None, float]:
    """The smallest x whose mean reaches SATURATION_SHARE of the curve's best, and the best."""
    xs = fd.xs(curve)
    vals = [fd.est(curve, x).mean for x in xs]
    if not vals or not all(math.isfinite(v) for v in vals):
        return None, float("nan")
    top = max(vals)
    return next(x for x, v in zip(xs, vals) if v >= SATURATION_SHARE * top), top


#: The paper's "2200 bps" is a round figure: two significant digits, so ± half the last
#: digit (50 bit/s) is its precision.
PAPER_SINGLE_MAX_PRECISION_BPS = 50.0


def single_below_2200(one: Est) -> Verdict:
    """"Has never exceeded 2200 bps" (§4), one-sided at the paper's precision: holds if
    the model's one-circuit rate is at most 2200 + 50 (its 95 % interval wholly at or
    below), does not hold if wholly above. §4 takes T_N as the vendor's MEAN delay, so
    the constant-T_N transfer is not the best case and a rate below 2200 does not refute
    the limit; agreement with "sometimes achieves ... 2200" is reported separately."""
    return at_most(one, Est(PAPER_SINGLE_MAX_BPS + PAPER_SINGLE_MAX_PRECISION_BPS, 0.0))


def _single_below_2200(sd: StudyData) -> Outcome:
    e = sd[3].est("tcp", 1.0)
    agree = approx_value(e, PAPER_SINGLE_MAX_BPS, PAPER_SINGLE_MAX_PRECISION_BPS / PAPER_SINGLE_MAX_BPS)
    return Outcome(single_below_2200(e), f"one circuit: {e} bit/s vs the paper's limit {PAPER_SINGLE_MAX_BPS:g} + "
                                         f"{PAPER_SINGLE_MAX_PRECISION_BPS:g} (a round figure: ± half its last digit); "
                                         f"agreement with 2200 ± {PAPER_SINGLE_MAX_PRECISION_BPS:g} (reported, not "
                                         f"scored): {agree}",
                   f"{e.mean:.0f} ± {e.half:.0f} ≤ {PAPER_SINGLE_MAX_BPS + PAPER_SINGLE_MAX_PRECISION_BPS:g}; "
                   f"within 2200 ± {PAPER_SINGLE_MAX_PRECISION_BPS:g}: {agree}")


def _single_below_bounds(sd: StudyData) -> Outcome:
    e = sd[3].est("tcp", 1.0)
    own = theory.model_bound_headers_bps()
    v = all_of([below(e, Est(PAPER_BOUND_HEADERS_BPS, 0.0)), below(e, Est(own, 0.0))])
    return Outcome(v, f"one circuit: {e} bit/s vs the paper's bound {PAPER_BOUND_HEADERS_BPS:g} and this model's "
                      f"{own:.0f} ({100 * e.mean / own:.1f}% of it)")


def linear_expected(one: Est, c: float) -> Est:
    """C × one circuit, capped at the line's capacity for user data (the model's own)."""
    cap = theory.line_user_bps()
    return one.scaled(c) if c * one.mean <= cap else Est(cap, 0.0)


def _linear(sd: StudyData) -> Outcome:
    """§5: "interleaving two circuits will double the throughput. With three virtual
    circuits, the throughput is tripled": C = 2 and 3 against min(C × one, the line)."""
    fd = sd[3]
    one = fd.est("tcp", 1.0)
    xs = [x for x in LINEAR_CIRCUITS if x in fd.xs("tcp")]
    out = pointwise(xs, lambda x: approx(fd.est("tcp", x), linear_expected(one, x), TOL_LINEAR),
                    describe=lambda x: f"C = {x:g}: {fd.est('tcp', x)} vs min({x:g} × {one}, "
                                       f"{theory.line_user_bps():.0f})")
    devs = [fd.est("tcp", x).mean / linear_expected(one, x).mean - 1 for x in xs if one.mean]
    cell = (f"C × one circuit: {100 * min(devs):+.1f}% … {100 * max(devs):+.1f}% ({len(devs)} pts)" if devs else "")
    return Outcome(out.verdict, out.detail, cell)


def _saturation_at(sd: StudyData) -> Outcome:
    """§5: saturation, "the underlying X.25 interface is completely busy", first at C = 3:
    judged from the access line's busy share (≥ SATURATION_BUSY), not a throughput knee."""
    fd = sd[3]
    s, shares = saturation(fd)
    if not shares:
        return Outcome(Verdict.INCONCLUSIVE, "missing points")
    if why := not_line_time(fd):
        return Outcome(Verdict.NOT_APPLICABLE, why, "host processing is not line time")
    k, top = knee(fd, "tcp")
    v = Verdict.HOLDS if s == PAPER_C_MAX else Verdict.DOES_NOT_HOLD
    where = f"first at C = {s:g}" if s is not None else "never reached"
    return Outcome(v, f"access lines busy ≥ {100 * SATURATION_BUSY:g}% of the transfer {where} (paper: {PAPER_C_MAX}); "
                      f"busy share {busy_list(shares, max(s or 0, PAPER_C_MAX) + 1)}; most "
                      f"{100 * max(e.mean for _, e in shares):.1f}%; the throughput knee "
                      f"({100 * SATURATION_SHARE:g}% of the best, {top:.0f} bit/s) at C = {k}; first saturated C by "
                      f"threshold: {threshold_sensitivity(fd)}",
                   f"busy ≥ {100 * SATURATION_BUSY:g}% {where}; max {100 * max(e.mean for _, e in shares):.1f}%")


def _c_max_formula(sd: StudyData) -> Outcome:
    """An internal consistency check: the formula with this model's own T_I and T_p
    (its T_f is inside T_I) against the simulated knee; the paper's formula with the
    model's times beside it."""
    k, shares = saturation(sd[3])
    if not shares:
        return Outcome(Verdict.INCONCLUSIVE, "missing points")
    if why := not_line_time(sd[3]):
        return Outcome(Verdict.NOT_APPLICABLE, why, "host processing is not line time")
    pred = math.ceil(theory.model_c_max())
    v = Verdict.HOLDS if pred == k else Verdict.DOES_NOT_HOLD
    paper_form = theory.paper_form_c_max_model_times()
    return Outcome(v, f"internal consistency: 1 + T_I/(W T_p) with this model's T_I = "
                      f"{1000 * theory.model_inter_burst_s():.0f} ms, T_p = {1000 * theory.T_P_S:.1f} ms: "
                      f"{theory.model_c_max():.2f} → {pred}; simulated saturation (lines busy ≥ {100 * SATURATION_BUSY:g}%) "
                      f"at C = {k}. The paper's formula "
                      f"1 + (2T_N + T_f)/(W(T_p + T_f)) with the model's T_p and T_f = {1000 * theory.T_F_MODEL_S:.1f} ms: "
                      f"{paper_form:.2f} → {math.ceil(paper_form)}; with the paper's constants {theory.paper_c_max():.2f}",
                   f"model {theory.model_c_max():.2f}→{pred}, saturated at {k}; paper's formula {paper_form:.2f}")


def _flat_beyond(sd: StudyData) -> Outcome:
    """Conclusions: "If the underlying hardware link is saturated, opening additional
    circuits will increase costs without increasing performance": past the first C whose
    lines are saturated, no C gains more than TOL_FLAT. Inconclusive if the lines never
    saturate (the premise is absent). The reference is the best throughput at C ≤ the
    first saturated C, so a go-back-N dip at that C does not count as a gain."""
    fd = sd[3]
    k, shares = saturation(fd)
    if shares and (why := not_line_time(fd)):
        return Outcome(Verdict.NOT_APPLICABLE, why, "host processing is not line time")
    if k is None:
        most = f"; at most {100 * max(e.mean for _, e in shares):.1f}%" if shares else ""
        return Outcome(Verdict.INCONCLUSIVE, f"the access lines never reach {100 * SATURATION_BUSY:g}% busy{most}",
                       f"never saturated{most}")
    best = max((x for x in fd.xs("tcp") if x <= k), key=lambda x: fd.est("tcp", x).mean)
    ref = fd.est("tcp", best)
    xs = [x for x in fd.xs("tcp") if x > k]
    out = pointwise(xs, lambda x: at_most(fd.est("tcp", x), ref, TOL_FLAT),
                    describe=lambda x: f"C = {x:g}: {fd.est('tcp', x)} vs the best up to saturation "
                                       f"(C = {best:g}) {ref}")
    if not xs or not ref.mean:
        return out
    top = max(xs, key=lambda x: fd.est("tcp", x).mean)
    gain = fd.est("tcp", top).mean / ref.mean - 1
    return Outcome(out.verdict, out.detail, f"beyond saturation (C = {k:g}; best up to it C = {best:g}) the most: C = {top:g}, "
                                            f"{100 * gain:+.1f}% ({len(xs)} pts; ≤ {100 * TOL_FLAT:+g}% asked)")


def retx_share(fd: FigureData, curve: str, x: float) -> Est:
    """Segments retransmitted per segment of the file."""
    return fd.est(f"{curve}.tcp_segments_retransmitted", x).scaled(1.0 / SEGMENTS)


#: The paragraph of §4 that reports "over 10 %" explains the one-circuit rate: its
#: tests are the one-circuit transfers (constant, random and bursty T_N).
OVER_10PCT_CIRCUITS = 1.0
#: "Several tests": at least this many transfers.
SEVERAL = 2


def transfers_over(share: Est, threshold: float) -> int:
    """How many of a point's transfers (replications) certainly re-sent more than
    ``threshold`` of the segments, from their mean alone (the study data keep each
    point's mean, CI and count, not the replications): all n when the CI is 0 (identical
    transfers); otherwise one if the mean is above the threshold (some transfer must
    be). A share has no upper bound — 4.2BSD's timeouts can send the window again and
    again: 548 % of the file at a 4096-octet window — so the mean says nothing more
    (until revision 7 the count assumed shares ≤ 1, n(m − t)/(1 − t), and counted "25 of 9")."""
    if not share.valid or share.n <= 0 or share.mean <= threshold:
        return 0
    return share.n if share.half == 0.0 else 1


def _over_10pct(sd: StudyData) -> Outcome:
    """§4: "(In several tests, over 10% of the datagrams were retransmitted)", in the
    paragraph on the single circuit; a test is one transfer, so the one-circuit
    transfers of every T_N variant are counted (those certainly over, `transfers_over`):
    holds with at least SEVERAL; does not hold if no transfer can exceed 10 % (every
    variant's transfers identical, CI 0, at or below 10 %); else inconclusive."""
    fd = sd[3]
    shares = [(c, retx_share(fd, c, OVER_10PCT_CIRCUITS)) for c in ("tcp", "random", "bursty")
              if OVER_10PCT_CIRCUITS in fd.xs(f"{c}.tcp_segments_retransmitted")]
    counts = [(c, s, transfers_over(s, PAPER_RETX_SHARE)) for c, s in shares]
    over, total = sum(k for *_, k in counts), sum(s.n for _, s in shares)
    if over >= SEVERAL:
        v = Verdict.HOLDS
    elif shares and all(s.half == 0.0 and s.mean <= PAPER_RETX_SHARE for _, s in shares):
        v = Verdict.DOES_NOT_HOLD
    else:
        v = Verdict.INCONCLUSIVE
    parts = ", ".join(f"{c} {100 * s.mean:.1f}% ± {100 * s.half:.1f} (n = {s.n}, ≥ {k} above)" for c, s, k in counts)
    return Outcome(v, f"at least {over} of {total} one-circuit transfers re-sent > 10% (certain from each variant's "
                      f"mean and CI: all if the CI is 0, else one if the mean is over; per-replication values are "
                      f"not in the study data): {parts}",
                   f"≥ {over} of {total} transfers > 10%")


ZERO = Est(0.0, 0.0)

#: The paper's header effect: 2860 → 2631 bit/s.
PAPER_HEADER_FACTOR = PAPER_BOUND_HEADERS_BPS / 2860.0
#: A reason "costs" throughput when it takes at least this share.
REASON_MIN_SHARE = 0.01


def _data_counters(fd: FigureData, curve: str) -> tuple[float, float, float, float] | None:
    """(data segments, data datagrams, data packets, data-datagram octets) at C = 1:
    the pure ACKs (datagrams beyond the segments, one 40-octet packet each) removed."""
    seg = fd.est(f"{curve}.tcp_segments_sent", 1.0).mean
    dgrams = fd.est(f"{curve}.x25_datagrams_sent", 1.0).mean
    packets = fd.est(f"{curve}.x25_data_packets_sent", 1.0).mean
    octets = fd.est(f"{curve}.x25_datagram_octets_sent", 1.0).mean
    if not all(math.isfinite(v) for v in (seg, dgrams, packets, octets)) or seg == 0:
        return None
    acks = dgrams - seg
    return seg, seg, packets - acks, octets - HEADER_OCTETS * acks


def _reason_headers(sd: StudyData) -> Outcome:
    """The paper: the headers take the bound from 2860 to 2631 bit/s (× 0.920). The
    header share measured from the counters must give the same factor within 1 %."""
    c = _data_counters(sd[3], "tcp")
    if c is None:
        return Outcome(Verdict.INCONCLUSIVE, "missing counters")
    seg, _, _, data_octets = c
    # Every data datagram carries HEADER_OCTETS of TCP/IP headers (the file's last,
    # short segment included).
    share = seg * HEADER_OCTETS / data_octets
    factor = 1.0 - share
    v = Verdict.HOLDS if abs(factor / PAPER_HEADER_FACTOR - 1) <= 0.01 else Verdict.DOES_NOT_HOLD
    return Outcome(v, f"TCP/IP headers are {100 * share:.1f}% of the data datagrams' octets: the bound × {factor:.3f} "
                      f"(paper: 2631/2860 = {PAPER_HEADER_FACTOR:.3f}); this model's bound falls from "
                      f"{theory.model_bound_bps():.0f} to {theory.model_bound_headers_bps():.0f} bit/s",
                   f"× {factor:.3f} vs paper × {PAPER_HEADER_FACTOR:.3f}")


def _retx_by_flavour(fd: FigureData) -> str:
    parts = []
    for name, curve in (("4.2BSD", "tcp"), ("Reno", "reno"), ("NewReno", "newreno")):
        if fd.has(f"{curve}.tcp_segments_retransmitted"):
            parts.append(f"{name} {100 * retx_share(fd, curve, 1.0).mean:.1f}%")
    return ", ".join(parts)


def reason_retx(resent: Est) -> Verdict:
    """"Long network delays can trigger retransmission": some segment is sent again
    (> 0, significant) on a path that loses nothing, so only the delay can trigger it."""
    return exceeds(resent, ZERO)


def _reason_retx(sd: StudyData) -> Outcome:
    """Scored on the constant-T_N transfer at C = 1: the access lines and the network
    lose nothing there and T_N is the vendor's mean, so any segment sent again was sent
    because of the delay alone (random T_N adds delay spikes, reported beside it)."""
    fd = sd[3]
    c, r = retx_share(fd, "tcp", 1.0), retx_share(fd, "random", 1.0)
    v = reason_retx(fd.est("tcp.tcp_segments_retransmitted", 1.0))
    return Outcome(v, f"one circuit: {100 * c.mean:.1f}% of segments sent again with T_N constant, "
                      f"{100 * r.mean:.1f}% ± {100 * r.half:.1f} with T_N random (paper: \"can trigger\"; needs > 0 with "
                      f"no loss); by TCP flavour: {_retx_by_flavour(fd)}",
                   f"{100 * c.mean:.1f}% (> 0 asked)")


def _reason_fill(sd: StudyData) -> Outcome:
    """RFC 877 leaves the tail of each datagram's last packet empty: the loss is at least
    REASON_MIN_SHARE of the packet capacity."""
    c = _data_counters(sd[3], "tcp")
    if c is None:
        return Outcome(Verdict.INCONCLUSIVE, "missing counters")
    seg, _, packets, data_octets = c
    fill = data_octets / (PACKET_OCTETS * packets)
    v = Verdict.HOLDS if fill <= 1 - REASON_MIN_SHARE else Verdict.DOES_NOT_HOLD
    return Outcome(v, f"data packets {100 * fill:.1f}% full ({packets / seg:.2f} packets per data datagram; "
                      f"RFC 877's rule gives {100 * theory.packet_fill():.1f}%; needs ≤ {100 - 100 * REASON_MIN_SHARE:g}%)",
                   f"{100 * fill:.1f}% full")


def _reason_variation(sd: StudyData) -> Outcome:
    fd = sd[3]
    c, r = fd.est("tcp", 1.0), fd.est("random", 1.0)
    v = below(r, c)
    drop = 100 * (1 - r.mean / c.mean) if c.mean else float("nan")
    return Outcome(v, f"one circuit: {r} bit/s with T_N uniform ±50% vs {c} constant ({drop:.1f}% lower)")


def fig3_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig3.single_below_2200", "§4, conclusions", "The observed rate on a single virtual circuit has never "
              "exceeded 2200 bit/s (one-sided, at the figure's precision: ≤ 2200 + 50; agreement with 2200 ± 50 "
              "reported beside it).",
              _single_below_2200, figure=3, sensitivity=("tcp_reno", "bsd42_6_2", "host_to_host", "host_to_host_busy")),
        Claim("fig3.single_below_bound", "§4", "A single circuit stays below the burst-model bound with TCP/IP headers "
              "(the paper's 2631 bit/s, and this model's own).", _single_below_bounds, figure=3),
        Claim("fig3.reason_headers", "§4", "First reason: the TCP and IP headers of every datagram take the bound from "
              "2860 to 2631 bit/s (the measured header share gives the same factor within 1%).", _reason_headers, figure=3),
        Claim("fig3.reason_retransmissions", "§4", "Second reason: long network delays can trigger TCP retransmissions "
              "(one circuit, constant T_N, nothing lost: some segment sent again).",
              _reason_retx, figure=3, sensitivity=("tcp_reno", "bsd42_6_2")),
        Claim("fig3.reason_unfilled_packets", "§4", "Third reason: the interface does not fill every X.25 packet "
              f"(at least {100 * REASON_MIN_SHARE:g}% of the packet capacity left empty).", _reason_fill, figure=3),
        Claim("fig3.reason_t_n_variation", "§4", "Fourth reason: network throughput varies; the model stands "
              "in random per-packet T_N (uniform ± 50 %) within one transfer for the paper's variation over the day "
              "(throughput below the constant-T_N transfer's).", _reason_variation, figure=3),
        Claim("fig3.over_10pct_retransmitted", "§4", "In several tests, over 10% of the datagrams were retransmitted "
              "(one circuit, the paragraph's subject: two or more one-circuit transfers, replications of the constant, "
              "random and bursty T_N variants, those certainly over counted from their means and CIs).",
              _over_10pct, figure=3, sensitivity=("tcp_reno",)),
        Claim("fig3.linear", "§5, conclusions", "Two circuits double the throughput, three triple it (C = 2, 3: "
              f"min(C × one circuit, the line's capacity for user data) within {100 * TOL_LINEAR:g}%).", _linear, figure=3,
              sensitivity=("bsd42_6_2", "host_to_host", "host_to_host_busy")),
        Claim("fig3.saturation_at_3", "§5", "The burst model accurately predicts saturation, the X.25 interface "
              f"completely busy, at three virtual circuits (the smallest C whose access lines are busy ≥ "
              f"{100 * SATURATION_BUSY:g}% of the transfer is 3).", _saturation_at, figure=3,
              sensitivity=("tcp_reno", "bsd42_6_2", "host_to_host", "host_to_host_busy")),
        Claim("fig3.c_max_formula", "§5", "Internal consistency check (not the paper's numbers): C_max = 1 + "
              "T_I/(W(T_p+T_f)) with this model's own T_I and T_p predicts the simulated knee; the paper's formula with "
              "the model's times is shown beside it.", _c_max_formula, figure=3),
        Claim("fig3.no_gain_when_saturated", "Conclusions", "If the link is saturated, opening additional circuits "
              f"does not increase performance (past the first C with the lines busy ≥ {100 * SATURATION_BUSY:g}%, within "
              f"{100 * TOL_FLAT:g}% of the best throughput at C up to it).", _flat_beyond, figure=3,
              sensitivity=("bsd42_6_2", "host_to_host", "host_to_host_busy")),
    )


def _nearly_double(sd: StudyData) -> Outcome:
    """Inconclusive by construction: the ratio follows from the ASSUMED T_N profile. The
    detail reports the day/night T_N ratio that "nearly double" would need."""
    fd = sd[2]
    xs = fd.xs("profile")
    ests = [(x, fd.est("profile", x)) for x in xs]
    if len(ests) < 2 or not all(e.valid for _, e in ests):
        return Outcome(Verdict.INCONCLUSIVE, "missing points")
    (xb, best), (xw, worst) = max(ests, key=lambda t: t[1].mean), min(ests, key=lambda t: t[1].mean)
    r = best.mean / worst.mean
    need = {q: theory.day_factor_for_ratio(q) for q in NEARLY_DOUBLE}
    return Outcome(Verdict.INCONCLUSIVE,
                   f"best {best} bit/s at {xb:g} h, worst {worst} at {xw:g} h: ratio {r:.2f} with the ASSUMED day/night "
                   f"T_N factor {DAY_FACTOR:g}; 'nearly double' ({NEARLY_DOUBLE[0]}–{NEARLY_DOUBLE[1]}) needs a factor of "
                   f"{need[NEARLY_DOUBLE[0]]:.2f}–{need[NEARLY_DOUBLE[1]]:.2f} by the burst bound (the paper measured no T_N by hour)",
                   f"ratio {r:.2f}; needs T_N ×{need[NEARLY_DOUBLE[0]]:.2f}–{need[NEARLY_DOUBLE[1]]:.2f} by day")


def fig2_claims() -> tuple[Claim, ...]:
    return (
        Claim("fig2.best_nearly_double_worst", "§4", "The highest throughput (non-business hours) is nearly double "
              "the worst (business hours) — inconclusive: it follows from the assumed T_N profile.",
              _nearly_double, figure=2),
    )


# The circuit-management claims (Figures 4–8) live in .claims_cm; re-exported here.
from .claims_cm import (  # noqa: E402
    EXTRA,
    HEAVY,
    PREVENT_SHARE,
    asymmetric_c_max_churn,
    exercised,
    fig4_claims,
    fig5_claims,
    fig6_claims,
    fig7_claims,
    fig8_claims,
    t_min_prevents_thrashing,
    _busy_xs,
    _crowded_xs,
)

__all__ = ["EXTRA", "HEAVY", "PREVENT_SHARE", "asymmetric_c_max_churn", "exercised", "fig4_claims", "fig5_claims", "fig6_claims",
           "fig7_claims", "fig8_claims", "t_min_prevents_thrashing", "_busy_xs", "_crowded_xs"]


def study_claims() -> list[Claim]:
    return []
