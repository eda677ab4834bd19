"""Comer & Korb's declared inputs at the corners of their ranges give valid scenarios:
the robustness pass samples those corners, and a negative network delay there used to
stop it (host-to-host-busy placement subtracts T_p/2 + T_rr from T_N)."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("arqlab._core")

from arqlab.studies.comer_korb import params  # noqa: E402
from arqlab.studies.comer_korb import scenarios as cs  # noqa: E402

_BY_TARGET = {u.target: u for u in params.UNCERTAIN_INPUTS}


@pytest.mark.parametrize(
    "placement", _BY_TARGET["param:T_N_PLACEMENT"].levels or ()
)
def test_uniform_t_n_stays_positive_and_centred_at_every_corner(
    placement: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    t_n = _BY_TARGET["param:T_N_S"]
    spread = _BY_TARGET["param:T_N_SPREAD"]
    assert t_n.low is not None and t_n.high is not None and spread.high is not None
    for mean, share in itertools.product((t_n.low, t_n.high), (0.0, spread.high)):
        monkeypatch.setattr(params, "T_N_S", mean)
        monkeypatch.setattr(params, "T_N_SPREAD", share)
        point = {"t_n": "uniform", "placement": placement}
        table = cs.transit_delay(point)
        centre = cs.relay_t_n(point)
        assert table["min_s"] >= 0.0, (placement, mean, share, table)
        assert table["min_s"] <= centre <= table["max_s"]
        assert (table["min_s"] + table["max_s"]) / 2 == pytest.approx(centre, abs=1e-12)
        assert table["max_s"] - table["min_s"] == pytest.approx(2 * share * centre, abs=1e-12)


def test_fig2_profile_puts_the_vendors_mean_at_night_or_makes_it_the_24_hour_mean(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fig. 2's assumed profile: night 1, ramps (1 + DAY_FACTOR)/2 for 8–9 h and 17–18 h,
    DAY_FACTOR for 9–17 h; its 24-hour mean factor (14 + 2 × 1.5 + 8 × 2)/24 = 1.375. With
    the vendor's 235 ms at night (the study's value) the 24-hour mean is 323 ms; with the
    declared "mean" anchor the night is 235/1.375 = 171 ms and the 24-hour mean 235 ms."""
    assert params.profile_mean_factor() == 1.375
    assert params.t_n_profile() == ((0.0, 0.235), (8.0, 1.5 * 0.235), (9.0, 2 * 0.235), (17.0, 1.5 * 0.235),
                                    (18.0, 0.235))
    monkeypatch.setattr(params, "FIG2_T_N_ANCHOR", "mean")
    prof = params.t_n_profile()
    ends = [h for h, _ in prof[1:]] + [24.0]
    assert sum((end - h) * m for (h, m), end in zip(prof, ends)) / 24 == pytest.approx(0.235)
    assert prof[0][1] == pytest.approx(0.235 / 1.375)
    assert params.t_n_profile("night")[0][1] == 0.235, "an explicit anchor overrides FIG2_T_N_ANCHOR"
    monkeypatch.setattr(params, "DAY_FACTOR", 3.0)
    assert params.profile_mean_factor() == (14 + 2 * 2 + 8 * 3) / 24
    assert params.t_n_profile("mean")[0][1] == pytest.approx(0.235 * 24 / (14 + 2 * 2 + 8 * 3))
    # Business hours' T_N as the vendor's mean (revision 12's "day") has no source and is
    # no longer a level (review 26, finding 7).
    levels = next(u for u in params.UNCERTAIN_INPUTS if u.target == "param:FIG2_T_N_ANCHOR").levels
    assert levels == ("night", "mean") == params.FIG2_T_N_ANCHORS
    with pytest.raises(KeyError):
        params.t_n_profile("day")


@pytest.mark.parametrize("anchor,night", [("night", 0.235), ("mean", 0.235 / 1.375)])
def test_fourth_reasons_transfers_run_at_the_profiles_lowest_and_highest_t_n(
        anchor: str, night: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one-circuit transfers of the fourth reason: constant T_N at the assumed
    profile's night and business-hours levels (DAY_FACTOR × night), shifted like the
    vendor's mean by the T_N placement; without a level, the vendor's mean."""
    monkeypatch.setattr(params, "FIG2_T_N_ANCHOR", anchor)
    at = {level: cs.transit_delay({"t_n": "constant", "t_n_level": level})["mean_s"] for level in ("night", "day")}
    assert at == {"night": pytest.approx(night), "day": pytest.approx(2 * night)}
    assert cs.transit_delay({"t_n": "constant"}) == {"dist": "constant", "mean_s": 0.235}
    shifted = cs.transit_delay({"t_n": "constant", "t_n_level": "day", "placement": "host_to_host"})["mean_s"]
    assert shifted == pytest.approx(2 * night + cs.relay_t_n({"placement": "host_to_host"}) - 0.235)
    # A point's own anchor (fig3.single_reaches_2200's best_hour curves) wins over the study's.
    monkeypatch.setattr(params, "FIG2_T_N_ANCHOR", "night")
    own = cs.transit_delay({"t_n": "constant", "t_n_level": "night", "anchor": anchor})["mean_s"]
    assert own == pytest.approx(night)


def test_day_factor_description_states_the_range_the_code_computes() -> None:
    """The Fig. 2 day/night factor's description gives the factor 'nearly double' needs
    as the claim computes it (theory.day_factor_for_ratio at claims.NEARLY_DOUBLE's
    ends), not a single round figure (it said "about 2.3" for 2.06-2.85)."""
    from arqlab.studies.comer_korb import claims, theory

    lo, hi = claims.NEARLY_DOUBLE
    need = f"{theory.day_factor_for_ratio(lo):.2f}-{theory.day_factor_for_ratio(hi):.2f}"
    desc = _BY_TARGET["param:DAY_FACTOR"].source
    assert f"ratio of {lo:g}-{hi:g}) needs a factor of {need} " in desc, (need, desc)


def test_the_tcp_flavours_plausible_levels_are_1983_tcps_only() -> None:
    """Review 26 (revision 13), finding 1: the paper's hosts ran 4.2BSD in 1983, so the
    robustness screen's TCP is 4.2BSD, its 6.1 and 6.2 timing the declared levels; Reno
    and NewReno are later TCPs (params.LATER_TCPS), run as reported sensitivities only.
    The receive window's pairing with the flavour qualifies only those later TCPs (under
    4.2BSD "by_flavour" would override the declared window), so it is not declared."""
    targets = {u.target for u in params.UNCERTAIN_INPUTS}
    assert "param:TCP_FLAVOUR" not in targets and "param:RECEIVE_WINDOW_PAIRING" not in targets
    assert params.TCP_FLAVOUR == "bsd42" and params.LATER_TCPS == ("reno", "newreno")
    assert _BY_TARGET["param:BSD42_TIMING"].levels == ("tcp_input", "tcp_output")
    assert not any(level in params.LATER_TCPS for u in params.UNCERTAIN_INPUTS for level in u.levels)


def test_the_receive_windows_one_1983_level_is_2048_and_larger_windows_are_reported_variants() -> None:
    """Revision 14: a 4.2BSD sender keeps its unacknowledged data in its 2048-octet send
    buffer (tcp_sendspace until CSRG 6.5, 85/03/18), so a 1983 sender with default
    buffers never has more outstanding: the receive window is not a declared input (one
    level; a screen factor needs two). 4096 and 8192 are Fig. 3 variants writing that
    window, reported beside each verdict and never a level (claims.LARGER_WINDOW)."""
    from arqlab.studies.comer_korb import claims as cl
    from arqlab.studies.comer_korb.figures import figure

    assert "param:RECEIVE_WINDOW_OCTETS" not in _BY_TARGET and params.RECEIVE_WINDOW_OCTETS == 2048
    assert params.LARGER_WINDOWS == (4096, 8192)
    assert cl.LARGER_WINDOW[1] == tuple((str(w), f"rwnd_{w}") for w in params.LARGER_WINDOWS)
    assert cl.LARGER_WINDOW in cl.REPORTED
    by_name = {s.name: s for s in figure(3).sensitivities}
    for w in params.LARGER_WINDOWS:
        assert by_name[f"rwnd_{w}"].params == {"receive_window": w}
        assert cs.tcp_layer({**cs.TRANSFER, **by_name[f"rwnd_{w}"].params})["receive_window_octets"] == w
        # Only the curves a verdict reads: the random and bursty curves feed none.
        assert not any(c.startswith(("random", "bursty")) for c in by_name[f"rwnd_{w}"].curves), w
