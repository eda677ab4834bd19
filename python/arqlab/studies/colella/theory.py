"""Closed forms of an error-free TP4 transfer over the satellite hop (no queueing on
the reverse direction, local network acknowledgements):

* no expedited data, link-limited: T₀ = Σ t(DT) + 2·t_p + t(AK) — the DTs back to back,
  then the last AK's return;
* ISO expedited data: every ED idles the link for one round trip,
  t(ED) + 2·t_p + t(EA), so T = T₀ + n_ED·(t(ED) + 2·t_p + t(EA)) and η = N·L / (C·T);
* NBS cannot idle while the data submitted before the next ED covers the ED's round
  trip: k·t(DT) ≥ t(ED) + 2·t_p + t(EA) for an ED every k DTs. Its transfer time is the
  link schedule of the NBS rule (:func:`nbs_transfer_time`): each ED goes first once the
  previous EA is back, then the DTs submitted before it flow while its EA is awaited;
  the link idles only when they run out first.

Header sizes are those of the model (ISO 8073 extended format with checksum, plus the
network header of every packet). Study parameters (delay, network header, expedited unit)
are read when a function runs, not when it is defined, so a robustness pass that rebinds
them (:func:`arqlab.studies.robustness.study_params`) moves the closed forms too.
"""

from __future__ import annotations

import math

from .params import EXP1, EXPEDITED_UNIT, LINK_BPS, NET_OVERHEAD_BITS, ONE_WAY_DELAY_S, TSDU_OCTETS

DT_HEADER, AK_OCTETS, ED_OCTETS, EA_OCTETS = 12, 14, 12 + 16, 12


def tx(octets: float) -> float:
    """Seconds on the 64 kbit/s line for a TPDU of ``octets`` in one packet."""
    return (octets * 8 + NET_OVERHEAD_BITS) / LINK_BPS


def dts_per_tsdu(dt_size: int = int(EXP1["dt_size_octets"])) -> list[int]:
    """TPDU lengths of one TSDU's DTs (the DT size counts its header)."""
    user = dt_size - DT_HEADER
    full, rest = divmod(TSDU_OCTETS, user)
    return [dt_size] * full + ([rest + DT_HEADER] if rest else [])


def _delay(delay: float | None) -> float:
    return ONE_WAY_DELAY_S if delay is None else delay


def no_expedited_time(tsdus: int = int(EXP1["tsdus"]), delay: float | None = None) -> float:
    """T₀: the error-free link-limited transfer of ``tsdus`` TSDUs."""
    return tsdus * sum(tx(o) for o in dts_per_tsdu()) + 2 * _delay(delay) + tx(AK_OCTETS)


def expedited_round_trip(delay: float | None = None) -> float:
    """The link idle time ISO adds per ED."""
    return tx(ED_OCTETS) + 2 * _delay(delay) + tx(EA_OCTETS)


def eds(rate: float, tsdus: int = int(EXP1["tsdus"]), per_dt: bool | None = None) -> int:
    """EDs the user submits: one after every k = round(1/rate) DTs (or TSDUs)."""
    if rate <= 0:
        return 0
    k = max(1, round(1 / rate))
    if per_dt is None:
        per_dt = EXPEDITED_UNIT == "dt"
    units = tsdus * len(dts_per_tsdu()) if per_dt else tsdus
    return units // k


def iso_efficiency(rate: float, delay: float | None = None, per_dt: bool | None = None) -> float:
    """η of the ISO discipline: N·L / (C·(T₀ + n_ED·RTT_ED))."""
    n = int(EXP1["tsdus"])
    t = no_expedited_time(n, delay) + eds(rate, n, per_dt) * expedited_round_trip(delay)
    return n * TSDU_OCTETS * 8 / (LINK_BPS * t)


def nbs_covers(rate: float, delay: float | None = None) -> bool:
    """NBS keeps the link busy: the k DTs before an ED outlast its round trip."""
    if rate <= 0:
        return True
    k = max(1, round(1 / rate))
    return k * tx(int(EXP1["dt_size_octets"])) >= expedited_round_trip(delay)


def break_even_rate(delay: float | None = None) -> float:
    """The largest expedited rate NBS hides completely (1/k at the smallest covering k)."""
    k = math.ceil(expedited_round_trip(delay) / tx(int(EXP1["dt_size_octets"])))
    return 1.0 / k


def nbs_transfer_time(rate: float, tsdus: int = int(EXP1["tsdus"]), delay: float | None = None,
                      per_dt: bool | None = None) -> float:
    """T of the NBS discipline, error-free, link-limited: the line schedule of its rule.

    ED i may leave once EA i−1 is back (at most one outstanding) and goes ahead of any
    DT; a DT may leave once every ED submitted before its data has been acknowledged, so
    while ED i is outstanding the DTs of the groups up to i (those submitted before it)
    flow. EA i returns t(ED) + 2·t_p + t(EA) after ED i starts; the next ED then waits
    for the DT in progress (transmissions are not pre-empted). The transfer ends when
    the AK of the last DT returns: its end + 2·t_p + t(AK)."""
    d = _delay(delay)
    k = 0 if rate <= 0 else max(1, round(1 / rate))
    if per_dt is None:
        per_dt = EXPEDITED_UNIT == "dt"
    dts = [tx(o) for o in dts_per_tsdu()] * tsdus
    per_unit = 1 if per_dt else len(dts_per_tsdu())
    group = k * per_unit  # DTs between two EDs
    n_ed = 0 if k == 0 else len(dts) // group
    t = 0.0  # the line is free from t
    sent = 0  # DTs sent so far
    for i in range(n_ed):
        t += tx(ED_OCTETS)
        ea = t - tx(ED_OCTETS) + expedited_round_trip(d)
        allowed = (i + 1) * group  # DTs submitted before ED i+1 (counting from 1)
        while sent < allowed and t < ea:
            t += dts[sent]
            sent += 1
        t = max(t, ea) if i + 1 < n_ed or allowed < len(dts) else t
    for o in dts[sent:]:
        t += o
    return t + 2 * d + tx(AK_OCTETS)


def nbs_efficiency(rate: float, delay: float | None = None, per_dt: bool | None = None) -> float:
    """η of the NBS discipline: N·L / (C·T) with T from :func:`nbs_transfer_time`."""
    n = int(EXP1["tsdus"])
    return n * TSDU_OCTETS * 8 / (LINK_BPS * nbs_transfer_time(rate, n, delay, per_dt))
