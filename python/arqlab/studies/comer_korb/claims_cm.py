"""§6's circuit-management statements, checked on the extension: Figures 4–7 (LRU,
MLRU and multi-circuit MLRU when sites compete for a host's channels) and Figure 8 (both
hosts sending with asymmetric C_max). The multi-circuit claims are scored only where
multi-circuit MLRU opened an additional circuit (its ``x25_extra_circuit_calls``
counter), and are *not exercised* where it never did. The trade of §6 (calls for
throughput) is scored with the figure's own channels, where the managers close
circuits, and where the offered load fits the line; past it, that additional circuits
gain nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from ..artefacts.curves import FigureData
from ..data import StudyData
from ..spec import Claim
from ..verdicts import Est, Outcome, Verdict, all_of, any_of, at_least, at_most, below, exceeds, paired, pointwise
from .params import (
    CM_C_MAX,
    CM_CHANNELS,
    CM_CHANNELS_MANY,
    CM_FILE_OCTETS,
    CM_FILE_RATE_HEAVY,
    CM_K_RESERVED,
    CM_TERMINAL_OCTETS,
    CM_TERMINAL_RATE,
    FULL_PRECISION,
    LINE_BPS,
    TS_B_C_MAX,
    WINDOW,
)
from .params import CM_T_MIN_S
from .saturation import LINE_BUSY_SHARE
from .scenarios import cm_sites
from .theory import LAPB_OCTETS, T_P_S, X25_HEADER_OCTETS, model_inter_burst_s, packets_per_datagram

#: The IP header each circuit-management datagram carries (its octets are the payload + 20).
IP_HEADER_OCTETS = 20

#: Figures 4-8 are workloads the paper never ran (it has no circuit-management
#: measurement): its §6 and conclusions statements carried onto them are extrapolations
#: (spec.Claim.origin). ext7.t_min_prevents_thrashing is a model check instead: a T_min
#: manager cannot close a circuit younger than T_min, so it holds by construction.
#: ext4.mlru_discards_when_overloaded is one too: it is the fail branch of §6.2's
#: pseudo-code, which the manager implements.
EXT = "extrapolation"
MODEL_CHECK = "model check"
ZERO = Est(0.0, 0.0)
#: "Without increasing performance": within this share (as Fig. 3's claim).
TOL_FLAT = 0.03


BUSY = f"N > {CM_CHANNELS - CM_K_RESERVED} destinations (more than MLRU's outgoing channels)"
CROWDED = f"N > {CM_CHANNELS} destinations (more than the host's channels)"


def _busy_xs(fd: FigureData, curve: str) -> list[float]:
    return [x for x in fd.xs(curve) if x > CM_CHANNELS - CM_K_RESERVED]


def _crowded_xs(fd: FigureData, curve: str) -> list[float]:
    return [x for x in fd.xs(curve) if x > CM_CHANNELS]


def _each(fig: int, curve: str, region: Callable[[FigureData, str], list[float]],
          check: Callable[[Est], Verdict], what: str) -> Callable[[StudyData], Outcome]:
    def run(sd: StudyData) -> Outcome:
        fd = sd[fig]
        return pointwise(region(fd, curve), lambda x: check(fd.est(curve, x)),
                         describe=lambda x: f"N = {x:g}: {what} {fd.est(curve, x)}")
    return run


def _pair(fig: int, a: str, b: str, region: Callable[[FigureData, str], list[float]],
          relation: Callable[[Est, Est], Verdict]) -> Callable[[StudyData], Outcome]:
    def run(sd: StudyData) -> Outcome:
        fd = sd[fig]
        return pointwise(region(fd, a), lambda x: relation(fd.est(a, x), fd.est(b, x)),
                         describe=lambda x: f"N = {x:g}: {a} {fd.est(a, x)} vs {b} {fd.est(b, x)}")
    return run


def _largest(fd: FigureData, curve: str) -> list[float]:
    return fd.xs(curve)[-1:]


#: The suffix of a per-hour count over the run's first half only (same seed, half the
#: duration: the same trajectory up to there, scenarios.first_half).
FIRST_HALF = ".first_half"


def halves(whole: Est, first: Est) -> tuple[Est, Est]:
    """The per-hour rates of a run's two halves from the whole run's rate and the first
    half's: the second is 2 × whole − first. Its CI is not known from the two CIs (the
    runs share their seeds, so they are correlated): 2 h_whole + h_first bounds it for
    any correlation, so it is used (conservative)."""
    second = Est(2 * whole.mean - first.mean, 2 * whole.half + first.half, min(whole.n, first.n))
    return first, second


def sustained(whole: Est, first: Est, rate: float) -> Verdict:
    """A count kept up through the run: in each half its per-hour rate is above ``rate``
    (each half significantly: holds; either half's whole CI at or below: does not hold;
    else inconclusive)."""
    if not (whole.valid and first.valid):
        return Verdict.INCONCLUSIVE
    return all_of([exceeds(h, Est(rate, 0.0)) for h in halves(whole, first)])


def _halves_said(fd: FigureData, curve: str, x: float) -> str:
    a, b = halves(fd.est(curve, x), fd.est(f"{curve}{FIRST_HALF}", x))
    return f"{a} / {b} per hour (first / second half)"



#: Multi-circuit MLRU's calls to a site that already had a circuit open or being opened
#: (``x25_extra_circuit_calls``, whole-run counts): the mechanism of the multi-circuit
#: claims. Zero in every replication at a point = the manager never opened an additional
#: circuit there, so a claim about additional circuits is not exercised at it.
EXTRA = "multi_mlru.extra_calls"
#: The curves' suffix under the load that exercises multi-circuit MLRU (params.A_HEAVY).
HEAVY = ".heavy"


def exercised(extra: Est) -> Verdict:
    """Did multi-circuit MLRU open additional circuits at a point? Holds if its count is
    significantly above 0 (the claim can be scored there); does not hold if it is 0 in
    every replication (mean 0: the mechanism never ran, *not exercised*); inconclusive
    if some replication opened one but too few to tell the two managers apart."""
    if not extra.valid:
        return Verdict.INCONCLUSIVE
    if extra.mean == 0.0:
        return Verdict.DOES_NOT_HOLD
    return exceeds(extra, ZERO)


def _multi(fig: int, region: Callable[[FigureData, str], list[float]],
           relation: Callable[[Est, Est], Verdict]) -> Callable[[StudyData], Outcome]:
    """A multi-MLRU vs MLRU claim, scored on the heavy-files curves (the load that
    exercises multi-circuit MLRU) where multi-MLRU opened additional circuits; the
    figure's own load is reported beside it (there it opens almost none at N ≥ 6)."""
    def run(sd: StudyData) -> Outcome:
        fd = sd[fig]
        xs = region(fd, "multi_mlru")
        base = "; ".join(f"N = {x:g}: {fd.est(EXTRA, x)}" for x in xs) if fd.has(EXTRA) else "not run"
        o = _scored_where_exercised(fd, xs, HEAVY, relation)
        return Outcome(o.verdict, f"heavy files: {o.detail}; under the figure's own load additional circuits per run: "
                                  f"{base}", o.measured, o.deviations)
    return run


def _scored_where_exercised(fd: FigureData, xs: list[float], sfx: str,
                            relation: Callable[[Est, Est], Verdict]) -> Outcome:
    """``relation`` (multi-MLRU vs MLRU, curves with suffix ``sfx``) on the points where
    multi-MLRU opened additional circuits (EXTRA significantly above 0). Where it never
    opened one at any point: *not exercised*, the counter the reason; where it opened too
    few to score at some point (and never significantly): inconclusive, saying so."""
    extra, multi, mlru = f"{EXTRA}{sfx}", f"multi_mlru{sfx}", f"mlru{sfx}"
    if not fd.has(extra):
        return Outcome(Verdict.INCONCLUSIVE, "missing the multi-circuit counter")
    ran = {x: exercised(fd.est(extra, x)) for x in xs}
    scored = [x for x in xs if ran[x] is Verdict.HOLDS]
    counts = ", ".join(f"N = {x:g}: {fd.est(extra, x)}" for x in xs)
    if not scored:
        if all(v is Verdict.DOES_NOT_HOLD for v in ran.values()):
            return Outcome(Verdict.NOT_EXERCISED,
                           f"multi-MLRU opened no additional circuit at N = {', '.join(f'{x:g}' for x in xs)} "
                           f"(calls to a site with a circuit open, per run: {counts}): it ran as MLRU",
                           "no additional circuit opened")
        return Outcome(Verdict.INCONCLUSIVE, f"multi-MLRU opened too few additional circuits to compare the managers "
                                             f"(per run: {counts})", "additional circuits too rare")
    out = pointwise(scored, lambda x: relation(fd.est(multi, x), fd.est(mlru, x)),
                    describe=lambda x: f"N = {x:g}: multi_mlru {fd.est(multi, x)} vs mlru {fd.est(mlru, x)}")
    rest = [x for x in xs if x not in scored]
    skipped = f"; not scored (additional circuits not significant) at N = {', '.join(f'{x:g}' for x in rest)}" if rest else ""
    return Outcome(out.verdict, f"{out.detail}; additional circuits opened per run: {counts}{skipped}",
                   out.measured, out.deviations)


def offered_line_share(n: float, file_rate: float = CM_FILE_RATE_HEAVY) -> float:
    """The share of host a's access line that the N sites' offered datagrams take, each
    packet in its frame (X.25 header and LAPB framing): half terminal sites, half file
    sites at ``file_rate`` (the heavy-files load's by default). At most 1: the line has
    room for all of it, so a circuit-limited site can gain from additional circuits."""
    terminals, files = cm_sites(int(n))
    bits = (len(terminals) * CM_TERMINAL_RATE * _line_bits(CM_TERMINAL_OCTETS + IP_HEADER_OCTETS)
            + len(files) * file_rate * _line_bits(CM_FILE_OCTETS + IP_HEADER_OCTETS))
    return bits / LINE_BPS


def _line_bits(octets: int) -> float:
    """A datagram's bits on the access line: its octets with every packet's X.25 header
    and LAPB framing."""
    return 8.0 * (octets + packets_per_datagram(octets) * (X25_HEADER_OCTETS + LAPB_OCTETS))


def _room_xs(fd: FigureData, curve: str) -> list[float]:
    return [x for x in fd.xs(curve) if offered_line_share(x) <= 1.0]


#: The curves' suffix under heavy files with the figure's own channels: a file site
#: offers more than one circuit carries and multi-MLRU's additional circuits need
#: channels, so the managers close circuits to open others (§6's trade).
LIMITED = ".limited"
#: Its points: the N whose offered load fits the line (offered_line_share ≤ 1).
LIMITED_XS = (2.0, 4.0)


def _per_call(fd: FigureData, x: float) -> str:
    gain = fd.est(f"multi_mlru{LIMITED}", x).mean - fd.est(f"mlru{LIMITED}", x).mean
    calls = fd.est(f"multi_mlru{LIMITED}.calls", x).mean - fd.est(f"mlru{LIMITED}.calls", x).mean
    each = f"{gain / calls:.0f}" if calls > 0 else "n/a"
    return f"N = {x:g}: {gain:+.0f} bit/s for {calls:+.3g} calls per run ({each} bit/s per call)"


def trades_calls_for_throughput(sd: StudyData) -> Outcome:
    """§6: multiple circuits trade "increased cost (e.g., for opening an additional
    circuit)" for "increased throughput"; conclusions: they "can dramatically increase
    throughput" unless the link is saturated. Scored under heavy files with the figure's
    own channels (LIMITED: a file site offers more than one circuit carries; multi-MLRU
    closes other sites' circuits to open its additional ones) at every N whose offered
    load fits the line (:func:`offered_line_share` ≤ 1) and where multi-MLRU opened
    additional circuits: it must place more calls than MLRU (the cost) and carry more
    throughput (the gain). The circuits each closed and the bit/s per additional call
    are reported."""
    fd = sd[4]
    xs = _room_xs(fd, f"multi_mlru{LIMITED}")
    if not xs:
        return Outcome(Verdict.INCONCLUSIVE, "no point whose offered load fits the line")
    share = ", ".join(f"N = {x:g}: {100 * offered_line_share(x):.0f}%" for x in xs)
    thr = _scored_where_exercised(fd, xs, LIMITED, exceeds)
    head = f"heavy files, {CM_CHANNELS} channels, the offered load fitting the line ({share} of it)"
    if not thr.verdict.settled:
        return Outcome(thr.verdict, f"{head}: {thr.detail}", thr.measured)
    scored = [x for x in xs if exercised(fd.est(f"{EXTRA}{LIMITED}", x)) is Verdict.HOLDS]
    a, b = f"multi_mlru{LIMITED}.calls", f"mlru{LIMITED}.calls"
    calls = pointwise(scored, lambda x: exceeds(fd.est(a, x), fd.est(b, x)),
                      describe=lambda x: f"N = {x:g}: multi_mlru {fd.est(a, x)} vs mlru {fd.est(b, x)}")
    closed = ", ".join(f"N = {x:g}: {fd.est(f'multi_mlru{LIMITED}.closed', x)} / {fd.est(f'mlru{LIMITED}.closed', x)}"
                       for x in scored)
    gains = "; ".join(_per_call(fd, x) for x in scored)
    return Outcome(all_of([thr.verdict, calls.verdict]),
                   f"{head}: throughput {thr.detail}; calls per run {calls.detail}; circuits closed per run (multi-MLRU / "
                   f"MLRU) {closed}; throughput per additional call: {gains}", gains)


def fig4_claims() -> tuple[Claim, ...]:
    return (
        Claim("ext4.mlru_discards_when_overloaded", "§6.2", "When no circuit can be obtained (MLRU, every channel "
              f"younger than T_min) the interface discards the site's datagrams: MLRU discards for {BUSY}.",
              _each(4, "mlru.discarded", _busy_xs, lambda e: exceeds(e, ZERO), "discarded"), figure=4,
              origin=MODEL_CHECK),
        Claim("ext4.multi_trades_calls_for_throughput", "§6, conclusions", "Multiple circuits trade cost (calls) for "
              "throughput: where a file site offers more than one circuit carries, the host's channels are limited "
              f"(heavy files, {CM_CHANNELS} channels: circuits are closed to open others) and the offered load fits the "
              "line (every N with the offered load at most the line's capacity where multi-MLRU opened an additional "
              "circuit), multi-circuit MLRU places more calls than MLRU and carries more throughput.",
              trades_calls_for_throughput, figure=4, origin=EXT),
        Claim("ext4.multi_no_gain_when_saturated", "Conclusions", "When communicating with many sites, opening "
              "additional circuits does not increase throughput (largest N, heavy files: multi-MLRU at most MLRU's, "
              "within 3%).",
              _multi(4, _largest, lambda a, b: at_most(a, b, TOL_FLAT)), figure=4, origin=EXT),
    )


#: LRU reserves no channel for incoming calls (K = 0: all CM_CHANNELS outgoing); MLRU
#: reserves CM_K_RESERVED (the circuit manager's policy table). In Figs. 4-7 no call comes in,
#: so MLRU's reserved channels stay idle: its throughput is not comparable with LRU's.
LRU_K_RESERVED = 0


def mlru_cheaper_than_lru(sd: StudyData) -> Outcome:
    """§2.2: "throughput is maximized and cost minimized by reducing the number of times
    a circuit must be opened" ([4]'s MLRU, with T_min, against LRU's anomalies): for
    CROWDED, MLRU places fewer calls than LRU (the cost, scored). Throughput is reported,
    not scored: LRU has K = 0 (every channel outgoing) and MLRU K = CM_K_RESERVED, so the
    two carry on different numbers of outgoing channels (and MLRU discards when every
    channel is younger than T_min, §6.2); the paper's sentence is about time spent
    opening calls, not a claim that MLRU carries LRU's throughput on fewer channels. The
    calls per kbit/s carried are reported."""
    fd = sd[5]
    xs = _crowded_xs(fd, "mlru")
    if not xs:
        return Outcome(Verdict.INCONCLUSIVE, f"no point with {CROWDED}")
    calls = _pair(5, "mlru", "lru", _crowded_xs, below)(sd)
    a, b = "mlru.throughput", "lru.throughput"
    has_thr = all(x in fd.xs(a) and x in fd.xs(b) for x in xs) if fd.has(a) and fd.has(b) else False
    thr = ", ".join(f"N = {x:g}: mlru {fd.est(a, x)} vs lru {fd.est(b, x)} bit/s" for x in xs) if has_thr else "not run"

    def per_kbit(k: str, x: float) -> str:
        t = fd.est(f"{k}.throughput", x).mean
        return f"{1000 * fd.est(k, x).mean / t:.3g}" if t > 0 else "n/a"

    cost = ", ".join(f"N = {x:g}: {per_kbit('mlru', x)} vs {per_kbit('lru', x)}" for x in xs) if has_thr else "n/a"
    top = xs[-1]
    ratio = fd.est(a, top).mean / fd.est(b, top).mean if has_thr and fd.est(b, top).mean else float("nan")
    channels = (f"LRU K = {LRU_K_RESERVED} ({CM_CHANNELS - LRU_K_RESERVED} outgoing channels), MLRU K = "
                f"{CM_K_RESERVED} ({CM_CHANNELS - CM_K_RESERVED} outgoing): throughput not comparable as encoded")
    return Outcome(calls.verdict,
                   f"calls/h {calls.detail}; throughput (reported, not scored: {channels}) {thr}; calls per hour per "
                   f"kbit/s carried (mlru vs lru) {cost}",
                   f"N = {top:g}: calls {fd.est('mlru', top).mean:.3g} vs {fd.est('lru', top).mean:.3g}/h, throughput "
                   f"{100 * ratio:.0f}% of LRU's (K = {CM_K_RESERVED} vs {LRU_K_RESERVED})")


def fig5_claims() -> tuple[Claim, ...]:
    return (
        Claim("ext5.mlru_cheaper_than_lru", "§2.2, §6.1", f"Fewer opens minimize cost: for {CROWDED}, MLRU (T_min's "
              f"hysteresis) opens fewer circuits than LRU. Throughput is reported, not scored: LRU has K = "
              f"{LRU_K_RESERVED} ({CM_CHANNELS - LRU_K_RESERVED} outgoing channels) against MLRU's K = {CM_K_RESERVED} "
              f"({CM_CHANNELS - CM_K_RESERVED} outgoing), so it is not comparable as encoded.",
              mlru_cheaper_than_lru, figure=5, origin=EXT),
    )


#: §6's gateway (ext6): the "given site" that may open additional circuits. Every
#: site but this one keeps C_max 1 (the x25 key ``site_c_max``); the control is MLRU,
#: which is multi-circuit MLRU at C_max 1 for every site (the same manager), in the
#: heavy-files runs (a channel for every circuit), so replication r of both sees the
#: same arrivals (one seed for the study: common random numbers).
GIVEN_SITE = "f1"
#: The curves' prefix of the gateway runs (heavy files, GIVEN_SITE at C_max CM_C_MAX).
GATEWAY = "gateway"
#: The control's prefix: MLRU under heavy files (C_max 1 for every site).
CONTROL = f"mlru{HEAVY}"

#: "Lower throughput to other sites": lower by more than this share of the site's
#: throughput under the control, significant on the paired difference. A materiality
#: margin, not in the paper (which gives no size): a drop smaller than the full pass's
#: precision (± 2.5 %) is not one this study would call a drop. The verdict at margin 0
#: (any significant drop) is reported beside it.
MATERIALITY_MARGIN = FULL_PRECISION


def lowered(diff: Est, ref: Est, margin: float = MATERIALITY_MARGIN) -> Verdict:
    """Is a site's throughput lowered? ``diff`` is the gateway run's minus the
    control's, paired, and ``ref`` the control's throughput to the site: holds if the
    difference's interval lies wholly below −margin × ref, does not hold if wholly at
    or above it, else inconclusive."""
    if not ref.valid:
        return Verdict.INCONCLUSIVE
    return below(diff, Est(-margin * abs(ref.mean), 0.0))


def circuit_datagrams_per_s(octets: int) -> float:
    """One circuit's burst-model rate in datagrams of ``octets``: W packets per cycle
    W T_p + T_I (theory, T_N constant), each packet a full T_p (a lower bound: a
    datagram's last packet is shorter)."""
    return WINDOW / (WINDOW * T_P_S + model_inter_burst_s()) / packets_per_datagram(octets)


def one_circuit_line_share(n: float, file_rate: float = CM_FILE_RATE_HEAVY) -> float:
    """The share of host a's line that the N sites keep busy with one circuit each:
    every site's offered datagrams, at most one circuit's burst-model rate
    (:func:`circuit_datagrams_per_s`), in their frames. Above 1: with C_max 1 for every
    site the gateway already keeps its line saturated (ext6's premise; N ≥ 8 under
    heavy files: a file site offers 1/s, one circuit carries 0.60/s)."""
    terminals, files = cm_sites(int(n))

    def share(rate: float, octets: int) -> float:
        return min(rate, circuit_datagrams_per_s(octets)) * _line_bits(octets)

    bits = (len(terminals) * share(CM_TERMINAL_RATE, CM_TERMINAL_OCTETS + IP_HEADER_OCTETS)
            + len(files) * share(file_rate, CM_FILE_OCTETS + IP_HEADER_OCTETS))
    return bits / LINE_BPS


def gateway_line_share(fd: FigureData, x: float, prefix: str = CONTROL) -> Est:
    """The share of the run host a's line was busy in ``prefix``'s runs (review of
    revision 13, finding 10: ext6's premise measured, not only the closed form). The
    layers' scope of the flow to t1 sums host a's busier direction (``.line_busy``,
    `x25_line_busy_s` per second of the run) and t1's; t1's busier direction is the
    frames its DCE sends it: each datagram it received (``.t1_delivered``: a receives
    none) in one I frame, and at most one LAPB S frame for each frame t1 sends. Its
    upper bound, deliveries × (I frame + S frame), is taken out, so this is a lower
    bound on a's share (t1's few call set-up frames, under 0.01 % of the run, are left
    in). Its CI: the two half-widths added. NaN where not measured."""
    keys = (f"{prefix}.line_busy", f"{prefix}.t1_delivered")
    if not all(fd.has(k) and x in fd.xs(k) for k in keys):
        return Est(float("nan"), float("nan"), 0)
    busy, t1 = (fd.est(k, x) for k in keys)
    per = (_line_bits(CM_TERMINAL_OCTETS + IP_HEADER_OCTETS) + 8 * LAPB_OCTETS) / LINE_BPS
    return Est(busy.mean - per * t1.mean, busy.half + per * t1.half, min(busy.n, t1.n))


def line_saturated(share: Est) -> Verdict:
    """ext6's premise, "a heavily-used gateway that keeps the X.25 line saturated", by
    the study's one standard for saturation (saturation.LINE_BUSY_SHARE): the line's
    busy share at least that by its CI holds, wholly below does not, else (or not
    measured) inconclusive."""
    return at_least(share, Est(LINE_BUSY_SHARE, 0.0)) if share.valid else Verdict.INCONCLUSIVE


def _paired_site(fd: FigureData, x: float, site: str) -> Est:
    """Site ``site``'s throughput in the gateway run minus in the control, replication
    by replication (the two runs share their seed), with its t-interval; NaN where the
    replications were not kept."""
    a, b = fd.replications(f"{GATEWAY}.{site}", x), fd.replications(f"{CONTROL}.{site}", x)
    if a is None or b is None:
        return Est(float("nan"), float("nan"), 0)
    return paired(a, b)


def _others(fd: FigureData, x: float) -> list[str]:
    """The other sites scored at ``x``: the file sites but the given one (each offers
    more than one circuit carries: backlogged), with a curve in both runs."""
    return [f for f in cm_sites(int(x))[1] if f != GIVEN_SITE
            and x in fd.xs(f"{GATEWAY}.{f}") and x in fd.xs(f"{CONTROL}.{f}")]


def _sites_line(fd: FigureData, x: float, sites: list[str]) -> str:
    return ", ".join(f"{s} {_paired_site(fd, x, s)}" for s in sites)


def _terminals_said(fd: FigureData, x: float) -> str:
    """The terminal sites at ``x`` (reported): throughput paired, t1's delay and the
    datagrams discarded in each run."""
    ts = [t for t in cm_sites(int(x))[0] if x in fd.xs(f"{GATEWAY}.{t}") and x in fd.xs(f"{CONTROL}.{t}")]
    delay = (f"; t1's delay {fd.est(GATEWAY, x)} s vs {fd.est(CONTROL, x)} s" if x in fd.xs(GATEWAY) and x in fd.xs(CONTROL)
             else "")
    lost = (f"; discarded per run {fd.est(f'{GATEWAY}.discarded', x)} vs {fd.est(f'{CONTROL}.discarded', x)}"
            if x in fd.xs(f"{GATEWAY}.discarded") and x in fd.xs(f"{CONTROL}.discarded") else "")
    return f"terminal sites, paired, bit/s: {_sites_line(fd, x, ts) or 'none'}{delay}{lost}"


def _line_said(fd: FigureData, x: float) -> str:
    control, gateway = gateway_line_share(fd, x), gateway_line_share(fd, x, GATEWAY)
    return (f"the control's line busy {_share_pct(control)} of the run (≥ {100 * LINE_BUSY_SHARE:g}%: "
            f"{line_saturated(control).value}; the gateway run's {_share_pct(gateway)}; one circuit each keeps "
            f"{100 * one_circuit_line_share(x):.0f}% of the line busy by the closed form)")


def _share_pct(e: Est) -> str:
    return f"{100 * e.mean:.1f}% ± {100 * e.half:.1f}" if e.valid else "not measured"


def _gateway_said(fd: FigureData, x: float) -> str:
    return (f"N = {x:g} ({_line_said(fd, x)}): "
            f"{GIVEN_SITE}'s additional circuits {fd.est(f'{GATEWAY}.extra', x)}, its throughput "
            f"{_paired_site(fd, x, GIVEN_SITE)}; other file sites, gateway − control, paired, bit/s: "
            f"{_sites_line(fd, x, _others(fd, x)) or 'none'}; {_terminals_said(fd, x)}")


def _scored_at(fd: FigureData, xs: list[float], margin: float) -> Outcome:
    return pointwise(xs, lambda x: all_of([lowered(_paired_site(fd, x, s), fd.est(f"{CONTROL}.{s}", x), margin)
                                           for s in _others(fd, x)]),
                     describe=lambda x: _gateway_said(fd, x))


def slows_other_sites(sd: StudyData) -> Outcome:
    """Conclusions: "Consider a heavily-used gateway that keeps the X.25 line saturated.
    Opening additional virtual circuits to a given site would result in lower
    throughput to other sites". The gateway: host a under heavy files (a channel for
    every circuit), GIVEN_SITE allowed CM_C_MAX circuits and every other site 1,
    against the control where every site has 1 (MLRU), paired replication by
    replication (same seed). Scored at every N where the sites keep the line saturated
    with one circuit each (the premise, measured: the control's line busy at least
    LINE_BUSY_SHARE of the run by its CI, :func:`gateway_line_share`, :func:`line_saturated`;
    the closed form :func:`one_circuit_line_share` reported beside it) and the
    given site opened additional circuits (significantly above 0): each other file site
    (backlogged: it offers more than one circuit carries) must be :func:`lowered`,
    below −MATERIALITY_MARGIN of its control throughput at 95 %. Reported: the verdict
    at margin 0, the given site's gain, the terminal sites' throughput, delay and
    discards, the points where the line has room (premise false) or its share is not
    settled by the CI, and the 6-channel
    runs where multi-MLRU closes other sites' circuits (§6, N = 2, 4)."""
    fd = sd[6]
    xs = [x for x in fd.xs(f"{GATEWAY}.extra") if _others(fd, x)]
    premise = {x: line_saturated(gateway_line_share(fd, x)) for x in xs}
    saturated = [x for x in xs if premise[x] is Verdict.HOLDS]
    room = [x for x in xs if premise[x] is Verdict.DOES_NOT_HOLD]
    unsettled = [x for x in xs if premise[x] is Verdict.INCONCLUSIVE]
    closed = f"multi_mlru{LIMITED}.closed"
    limited = [x for x in LIMITED_XS if x in fd.xs(f"{EXTRA}{LIMITED}")]
    reported = "".join([
        "; the control's line not saturated (reported, not scored): " + "; ".join(_gateway_said(fd, x) for x in room)
        if room else "",
        "; the control's line busy share not settled by its CI (reported, not scored): "
        + "; ".join(_gateway_said(fd, x) for x in unsettled) if unsettled else "",
        f"; multi-MLRU everywhere, {CM_CHANNELS} channels, where it closes other sites' circuits (reported, §6): "
        + "; ".join(f"N = {x:g}: terminal sites multi − MLRU, paired, bit/s: "
                    f"{', '.join(f'{t} {_limited_pair(fd, x, t)}' for t in cm_sites(int(x))[0])}, closed {fd.est(closed, x)}"
                    for x in limited) if limited else ""])
    if not saturated:
        return Outcome(Verdict.INCONCLUSIVE, f"no gateway point whose control keeps the line saturated (busy ≥ "
                                             f"{100 * LINE_BUSY_SHARE:g}% by the CI){reported}", "no saturated point")
    ran = {x: exercised(fd.est(f"{GATEWAY}.extra", x)) for x in saturated}
    scored = [x for x in saturated if ran[x] is Verdict.HOLDS]
    if not scored:
        v = Verdict.NOT_EXERCISED if all(r is Verdict.DOES_NOT_HOLD for r in ran.values()) else Verdict.INCONCLUSIVE
        return Outcome(v, f"line saturated, but {GIVEN_SITE} opened no (or too few) additional circuits: "
                          f"{'; '.join(_gateway_said(fd, x) for x in saturated)}{reported}",
                       "no additional circuit opened" if v is Verdict.NOT_EXERCISED else "additional circuits too rare")
    out = _scored_at(fd, scored, MATERIALITY_MARGIN)
    zero = _scored_at(fd, scored, 0.0)
    rest = [x for x in saturated if x not in scored]
    skipped = f"; not scored (additional circuits not significant) at N = {', '.join(f'{x:g}' for x in rest)}" if rest else ""
    pairs = [(x, s) for x in scored for s in _others(fd, x)]
    x, s = max(pairs, key=lambda p: _paired_site(fd, p[0], p[1]).hi)
    d, ref = _paired_site(fd, x, s), fd.est(f"{CONTROL}.{s}", x)
    cell = (f"{len(pairs)} site-points (N = {', '.join(f'{x:g}' for x in scored)}); the least lowered: N = {x:g} {s} "
            f"{d.mean:+.0f} ± {d.half:.0f} bit/s of {ref.mean:.0f} ({100 * d.mean / ref.mean:+.1f}%, paired, n = {d.n}); "
            f"at margin 0: {zero.verdict.value}")
    return Outcome(out.verdict, f"gateway, {GIVEN_SITE} at C_max {CM_C_MAX} and every other site at 1, against every site "
                                f"at 1 (heavy files, {CM_CHANNELS_MANY} channels), each other file site lowered by more than "
                                f"{100 * MATERIALITY_MARGIN:g}% (a materiality margin, not in the paper): {out.detail}"
                                f"{skipped}; at margin 0 (any significant drop): {zero.verdict.value}{reported}",
                   cell)


def _limited_pair(fd: FigureData, x: float, t: str) -> Est:
    """Terminal site ``t`` in the 6-channel runs: multi-MLRU minus MLRU, paired."""
    a, b = fd.replications(f"multi_mlru{LIMITED}.{t}", x), fd.replications(f"mlru{LIMITED}.{t}", x)
    return paired(a, b) if a is not None and b is not None else Est(float("nan"), float("nan"), 0)


def fig6_claims() -> tuple[Claim, ...]:
    return (
        Claim("ext6.multi_slows_other_sites", "Conclusions, §6", "On a gateway that keeps the X.25 line saturated, "
              "opening additional circuits to a given site lowers the throughput to other sites: under heavy files "
              f"(a channel for every circuit), with site {GIVEN_SITE} allowed {CM_C_MAX} circuits and every other site "
              "1, against every site at 1 (paired, same seed), where one circuit per site already keeps the line "
              f"saturated (the control's line busy at least {100 * LINE_BUSY_SHARE:g}% of the run by its CI, "
              f"measured; the closed form reported) and {GIVEN_SITE} opened additional circuits, each other file site's throughput is lower by "
              f"more than {100 * MATERIALITY_MARGIN:g}% of the control's (a materiality margin, not in the paper; the "
              "verdict at margin 0 reported) at 95 %; the terminal sites' throughput, delay and discards reported.",
              slows_other_sites, figure=6, origin=EXT),
    )


#: "Prevents": T_min removes at least 90 % of the control's short-lived closes.
PREVENT_SHARE = 0.1


def _at_most_prevent_share(a: Est, control: Est) -> Verdict:
    return at_most(a, control.scaled(PREVENT_SHARE))


def t_min_prevents_thrashing(sd: StudyData) -> Outcome:
    """Where sites crowd the channels, the manager without T_min (``mlru_no_t_min``)
    thrashes, and MLRU and multi-MLRU with T_min close at most PREVENT_SHARE of its
    short-lived circuits. A manager that ignored T_min would equal the control and fail."""
    fd = sd[7]
    xs = _crowded_xs(fd, "mlru_no_t_min")
    if not xs:
        return Outcome(Verdict.INCONCLUSIVE, f"no point with {CROWDED}")
    control = pointwise(xs, lambda x: exceeds(fd.est("mlru_no_t_min", x), ZERO),
                        describe=lambda x: f"N = {x:g}: without T_min {fd.est('mlru_no_t_min', x)}")
    fewer = [_pair(7, k, "mlru_no_t_min", _crowded_xs, _at_most_prevent_share)(sd) for k in ("mlru", "multi_mlru")]
    v = all_of([control.verdict, *(o.verdict for o in fewer)])
    detail = "; ".join(f"N = {x:g}: " + ", ".join(f"{k} {fd.est(k, x).mean:.3g}" for k in
                                                    ("mlru", "multi_mlru", "mlru_no_t_min")) for x in xs)
    return Outcome(v, f"short-lived closes per hour: {detail}",
                   f"with T_min {fd.est('mlru', xs[-1]).mean:.3g} vs without {fd.est('mlru_no_t_min', xs[-1]).mean:.3g} "
                   f"(N = {xs[-1]:g})")


#: "Continually close each other's circuits" (§6): short-lived closes (circuits open
#: less than T_min) at more than one per T_min, so that at any time some circuit opened
#: within the last T_min is being closed, in each half of the run.
THRASH_RATE_PER_H = 3600.0 / CM_T_MIN_S


def lru_thrashes(sd: StudyData) -> Outcome:
    """§6's thrashing, "continually": at every N with CROWDED, LRU's short-lived closes
    per hour in each half of the run (:func:`halves`) above THRASH_RATE_PER_H."""
    fd = sd[7]
    half = f"lru{FIRST_HALF}"
    xs = [x for x in _crowded_xs(fd, "lru") if x in fd.xs(half)]
    if not xs:
        return Outcome(Verdict.INCONCLUSIVE, f"no point with {CROWDED} and both halves")
    out = pointwise(xs, lambda x: sustained(fd.est("lru", x), fd.est(half, x), THRASH_RATE_PER_H),
                    describe=lambda x: f"N = {x:g}: short-lived closes {_halves_said(fd, 'lru', x)}")
    low = min((h.mean for x in xs for h in halves(fd.est("lru", x), fd.est(half, x))), default=float("nan"))
    return Outcome(out.verdict, f"{out.detail} (more than {THRASH_RATE_PER_H:g}/h asked in each)",
                   f"least half {low:.3g}/h (> {THRASH_RATE_PER_H:g} asked)")


def fig7_claims() -> tuple[Claim, ...]:
    return (
        Claim("ext7.lru_thrashes", "§6", f"Sites competing for circuits continually close each other's circuits "
              f"(thrashing) under LRU for {CROWDED}: in each half of the run, more than {THRASH_RATE_PER_H:g} closes of "
              f"circuits open < {CM_T_MIN_S:g} s per hour (one per T_min).", lru_thrashes, figure=7, origin=EXT),
        Claim("ext7.t_min_prevents_thrashing", "§6.1", f"T_min prevents closing a circuit that was just opened: for "
              f"{CROWDED}, MLRU and multi-circuit MLRU close at most {100 * PREVENT_SHARE:g}% as many circuits open < 60 s "
              "as the same MLRU without T_min (which must thrash there).", t_min_prevents_thrashing, figure=7,
              origin=MODEL_CHECK),
    )


def occurred(e: Est) -> Verdict:
    """A whole-run count that is never negative occurred if its mean over the
    replications is above 0 (some replication counted it): holds; does not hold if it is
    0 in every replication (mean 0, CI 0); else inconclusive (no valid estimate)."""
    if not e.valid:
        return Verdict.INCONCLUSIVE
    return Verdict.HOLDS if e.mean > 0.0 else Verdict.DOES_NOT_HOLD


def never(e: Est) -> Verdict:
    """The count is 0 in every replication: holds; occurred: does not hold."""
    return {Verdict.HOLDS: Verdict.DOES_NOT_HOLD, Verdict.DOES_NOT_HOLD: Verdict.HOLDS}.get(occurred(e), Verdict.INCONCLUSIVE)


#: "Keep opening ... keep closing" (§6): each at more than this many per hour in each
#: half of the run (one every 10 minutes: more than 3 of b's closes and of a's
#: reopenings in each half hour of the full pass's 3600 s; fewer are isolated
#: episodes, not a cycle).
KEEP_RATE_PER_H = 6.0


def asymmetric_c_max_churn(sd: StudyData) -> Outcome:
    """§6: "One site may KEEP opening additional virtual circuits while the other KEEPS
    closing them", both hosts sending (Fig. 8): at SOME C_max of a's above b's ("may":
    the churn is possible, not bound to every asymmetry), b's own datagrams close a's
    circuits by rule 1 of select_and_close_circuit and a opens additional circuits, each
    at more than KEEP_RATE_PER_H in each half of the run (:func:`sustained`: where it
    happens it is kept up), and with a's C_max equal to b's (the control: the paper's
    remedy) rule 1 closes nothing in any replication."""
    fd = sd[8]
    xs = fd.xs("b_rule_1")
    asym = [x for x in xs if x > TS_B_C_MAX]
    matched = [x for x in xs if x == TS_B_C_MAX]
    if not asym or not matched:
        return Outcome(Verdict.INCONCLUSIVE, "needs a's C_max both equal to b's and above it")
    def kept(k: str, x: float) -> Verdict:
        return sustained(fd.est(k, x), fd.est(f"{k}{FIRST_HALF}", x), KEEP_RATE_PER_H)

    churn = pointwise(asym, lambda x: all_of([kept("b_rule_1", x), kept("a_extra", x)]), combine=any_of,
                      describe=lambda x: f"C_max a = {x:g}: b's rule-1 closes {_halves_said(fd, 'b_rule_1', x)}, "
                                         f"a's additional circuits {_halves_said(fd, 'a_extra', x)}")
    control = pointwise(matched, lambda x: never(fd.est("b_rule_1", x)),
                        describe=lambda x: f"matched (C_max a = {x:g}): b's rule-1 closes/h {fd.est('b_rule_1', x)}")
    v = all_of([churn.verdict, control.verdict])
    top = asym[-1]
    return Outcome(v, f"{churn.detail} (more than {KEEP_RATE_PER_H:g}/h asked in each half, at some asymmetric "
                      f"C_max); {control.detail}; b's "
                      f"closes for a's incoming calls/h: "
                      + ", ".join(f"{x:g}: {fd.est('b_calls_in', x).mean:.3g}" for x in xs),
                   f"C_max {top:g}/{TS_B_C_MAX}: b closes {fd.est('b_rule_1', top).mean:.3g}/h by rule 1, a opens "
                   f"{fd.est('a_extra', top).mean:.3g}/h; matched: {fd.est('b_rule_1', matched[0]).mean:.3g}/h")


def fig8_claims() -> tuple[Claim, ...]:
    return (
        Claim("ext8.asymmetric_c_max_churn", "§6", "With asymmetric C_max, one site may keep opening additional "
              "virtual circuits while the other keeps closing them (both hosts sending: b's own datagrams close a's "
              "extra circuits by rule 1 of select_and_close_circuit and a opens more, each more than "
              f"{KEEP_RATE_PER_H:g} times an hour in each half of the run, at some C_max of a's above b's; never "
              "with C_max matched).", asymmetric_c_max_churn, figure=8, origin=EXT),
    )
