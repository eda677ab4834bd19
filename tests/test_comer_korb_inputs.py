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
