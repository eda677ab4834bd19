"""Johnson's third-reading inputs (docs/studies/johnson.md, "Third reading, part B"):
each declared uncertain input reaches its scenario key and only the layers it names,
each of its levels or range ends makes a valid scenario, and the inputs that were crate
defaults before are written out with the same values (the resolved scenario is the one
without them)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from arqlab import scenario as scenario_mod  # noqa: E402
from arqlab.studies import robustness  # noqa: E402
from arqlab.studies.johnson import params, scenarios  # noqa: E402

PKG = "arqlab.studies.johnson"
#: Inputs of part B and where each lands: (layer kind, key) and the variants it reaches.
KEYS = {
    "BURST_STEP_UP_DB": ("hf_arq", "snr_step_up_db"),
    "SNR_STEP_DOWN_DB": ("hf_arq", "snr_step_down_db"),
    "MAX_PACKETS": ("hf_arq", "max_packets"),
    "MAX_TRANSMISSION_S": ("hf_arq", "max_transmission_s"),
    "RECEIVE_WINDOW_OCTETS": ("tcp", "receive_window_octets"),
    "TCP_FLAVOUR": ("tcp", "flavour"),
    "MAX_RTO_S": ("tcp", "max_rto_s"),
    "RTT_CACHE": ("tcp", "rtt_cache"),
}
PART_B = ("integrated_first_copy", "snr_step_up_db", "snr_step_down_db", "tcp_receive_window_octets", "tcp_flavour",
          "tcp_max_rto_s", "max_packets", "max_transmission_s", "tcp_rtt_cache")


def _layer(tree: dict[str, Any], kind: str) -> dict[str, Any] | None:
    return next((layer for layer in tree["stack"]["s"]["layers"] if layer["kind"] == kind), None)


def _other(value: Any) -> Any:
    return {bool: lambda v: not v, str: lambda v: "newreno" if v == "reno" else v}.get(type(value), lambda v: v * 2)(value)


@pytest.mark.parametrize("name", sorted(KEYS))
def test_each_input_reaches_its_key_and_only_the_variants_it_names(name: str) -> None:
    kind, key = KEYS[name]
    value = _other(getattr(params, name))
    for variant in params.VARIANT.values():
        base = scenarios.tables(variant, "smtp", 1.0, 1)
        with robustness.study_params(PKG, {name: value}):
            moved = scenarios.tables(variant, "smtp", 1.0, 1)
        layer = _layer(moved, kind)
        reaches = (kind == "tcp" or (key == "max_transmission_s")
                   or (key == "max_packets" and scenarios.selective_repeat(variant))
                   or (key.startswith("snr_step") and not scenarios.integrated(variant)))
        assert layer is not None
        if reaches:
            assert layer[key] == value, (name, variant)
        else:
            assert layer.get(key) == _layer(base, kind).get(key), (name, variant)  # type: ignore[union-attr]
        base_layer = _layer(base, kind)
        assert base_layer is not None
        assert {k: v for k, v in layer.items() if k != key} == {k: v for k, v in base_layer.items() if k != key}


def test_the_integrated_modem_input_reaches_only_the_integrated_protocols() -> None:
    for variant in params.VARIANT.values():
        with robustness.study_params(PKG, {"INTEGRATED_MODEM": params.STANDARD_INTEGRATED_MODEM}):
            t = scenarios.tables(variant, "hmtp", 1.0, 1)
        modem = t["stack"]["s"]["layers"][0]["modem"]
        assert t["medium"][0]["forward"]["modem"] == t["medium"][0]["reverse"]["modem"] == modem
        assert modem == (params.STANDARD_INTEGRATED_MODEM if scenarios.integrated(variant) else params.EXTERNAL_MODEM)
        assert scenarios.tables(variant, "hmtp", 1.0, 1, integrated_modem=params.STANDARD_INTEGRATED_MODEM) == t


def test_the_values_written_out_are_the_crate_defaults_they_replace() -> None:
    """Before part B these keys were left to the crate: the resolved scenario with them
    written out is the one without them (so the study's cells are bit-identical but for
    the primary reading of the integrated modem's first copy)."""
    written = {"hf_arq": ("snr_step_up_db", "snr_step_down_db", "max_packets", "max_transmission_s"),
               "tcp": ("flavour", "max_rto_s", "rtt_cache")}
    for variant in ("hdl", "hdl-1d", "5066", "5066-1s"):
        tree = scenarios.tables(variant, "smtp", 2.0, 1)
        bare = scenarios.tables(variant, "smtp", 2.0, 1)
        for layer in bare["stack"]["s"]["layers"]:
            for key in written[layer["kind"]]:
                layer.pop(key, None)
        assert scenario_mod.load(tree) == scenario_mod.load(bare), variant


@pytest.mark.parametrize("name", PART_B)
def test_every_level_and_range_end_of_the_part_b_inputs_is_a_valid_scenario(name: str) -> None:
    u = next(u for u in params.UNCERTAIN_INPUTS if u.name == name)
    values = list(u.levels) if u.levels else [u.low, u.high]
    for v in values:
        with robustness.study_params(PKG, {u.target.removeprefix("param:"): v}):
            for variant in ("hdl", "hdl-1d", "5066", "5066-1s"):
                scenario_mod.load(scenarios.tables(variant, "smtp", 3.0, 1))


def test_the_4_2bsd_flavour_combines_with_any_rto_rule_and_rtt_cache() -> None:
    """The robustness analysis varies the inputs together: 4.2BSD's own timer takes
    neither the RTO rule nor the cache, so the scenario leaves both out."""
    with robustness.study_params(PKG, {"TCP_FLAVOUR": "bsd42", "RTO_RULE": "rfc793", "RTT_CACHE": True}):
        tree = scenarios.tables("hdl", "smtp", 1.0, 1)
        tcp = _layer(tree, "tcp")
        assert tcp is not None and "rto" not in tcp and "rtt_cache" not in tcp and tcp["flavour"] == "bsd42"
        scenario_mod.load(tree)


def test_the_bw2_fill_reaches_only_the_integrated_selective_repeat_protocols() -> None:
    """``BW2_FILL`` (docs/studies/johnson.md, "Fifth reading"): the hf_arq key
    ``fill_slots`` goes to the protocols whose bursts are slotted BW2 (HDL, all-three) in
    every workload and channel, at each level, and every such scenario is valid; the crate
    rejects it elsewhere (``fill_slots_repeat_is_an_error_without_bw2_bursts``)."""
    u = next(u for u in params.UNCERTAIN_INPUTS if u.name == "bw2_fill_slots")
    assert u.value == params.BW2_FILL == "repeat" and set(u.levels or ()) == {"repeat", "repeat_first_only", "empty"}
    for level in u.levels or ():
        with robustness.study_params(PKG, {"BW2_FILL": level}):
            for variant in params.VARIANT.values():
                for workload, x in (("smtp", 1.0), ("hmtp", 2.0), ("long", 3.0)):
                    tree = scenarios.tables(variant, workload, x, 1)
                    arq = _layer(tree, "hf_arq")
                    assert arq is not None
                    bw2 = scenarios.integrated(variant) and scenarios.selective_repeat(variant)
                    assert arq.get("fill_slots") == (level if bw2 else None), (level, variant, workload)
                    scenario_mod.load(tree)


@pytest.mark.parametrize(("name", "param", "span", "integrated"),
                         [("external_modem_offset_db", "EXTERNAL_MODEM_OFFSET_DB", (0.0, 0.9), False),
                          ("integrated_modem_offset_db", "INTEGRATED_MODEM_OFFSET_DB", (-3.0, 1.0), True)])
def test_a_modem_offset_moves_the_rate_choice_and_the_lanes_alike(name: str, param: str, span: tuple[float, float],
                                                                   integrated: bool) -> None:
    """The modems' offsets (continuous inputs, not second tables): the hf_arq layer and
    both lanes of that modem's protocols get the same ``modem_offset_db``; the other
    modem's none; 0 leaves the scenario as it was; both range ends load."""
    u = next(u for u in params.UNCERTAIN_INPUTS if u.name == name)
    assert (u.value, u.low, u.high) == (0.0, *span)
    for variant in params.VARIANT.values():
        base = scenarios.tables(variant, "smtp", 2.0, 1)
        assert "modem_offset_db" not in _layer(base, "hf_arq")  # type: ignore[operator]
        for level in (u.low, u.high):
            with robustness.study_params(PKG, {param: level}):
                tree = scenarios.tables(variant, "smtp", 2.0, 1)
            lanes = [tree["medium"][0][k] for k in ("forward", "reverse")]
            arq = _layer(tree, "hf_arq")
            assert arq is not None
            want = level if level and scenarios.integrated(variant) == integrated else None
            assert arq.get("modem_offset_db") == want and all(lane.get("modem_offset_db") == want for lane in lanes), variant
            scenario_mod.load(tree)


#: The inputs that make up the turnaround and the response timeout.
TIMING = ("turnaround_s", "interleaver_delay_s", "sync_acquisition_s", "response_wait_s", "integrated_response_wait_s")


def test_the_response_timeout_outlasts_the_turnaround_at_every_corner_of_the_design() -> None:
    """The response timeout is tied to the turnaround (docs/studies/johnson.md, "Seventh
    reading", item 2): at every corner of the five timing inputs' ranges, each ARQ's
    timeout is its radio's turnaround + 2 t_p + its wait, and the wait is at least the
    longest first frame of an answer (BW1's 1.30667 s integrated, a 75 bit/s ACK's 3.0 s
    external), so the peer's answer always starts, and has been seen, before the timer."""
    import itertools

    ranges = {u.name: (u.target.removeprefix("param:"), (u.low, u.high)) for u in params.UNCERTAIN_INPUTS if u.name in TIMING}
    assert set(ranges) == set(TIMING)
    for corner in itertools.product(*(ends for _, ends in ranges.values())):
        values = {target: v for (target, _), v in zip(ranges.values(), corner)}
        with robustness.study_params(PKG, values):
            for variant in params.VARIANT.values():
                tree = scenarios.tables(variant, "hmtp", 2.0, 1)
                turnaround = tree["medium"][0]["turnaround_s"]
                arq = _layer(tree, "hf_arq")
                assert arq is not None
                first_frame = 1.30667 if scenarios.integrated(variant) else 3.0
                assert arq["response_timeout_s"] >= turnaround + 2 * tree["medium"][0]["delay_s"] + first_frame - 1e-9, (values, variant)


def _sessions(tree: dict[str, Any]) -> float:
    import arqlab

    tree["run"].update(duration_s=1800.0, replications=1)
    tree["flow"][0]["traffic"]["start_until_s"] = 600.0
    m = arqlab.simulate(tree, seed=1, replications=1).metrics
    return float(m[scenarios.CLIENT]["sessions_completed"]["mean"])


def test_a_response_timeout_below_the_turnaround_preempts_every_answer_and_the_tie_does_not() -> None:
    """The stall the robustness pass found, at its boundary: 5066 HMTP at 25 dB with a
    6.6 s external turnaround (1.0 + 4.8 + 0.8 s). A timeout of 4.67 s fires before the
    peer may key up (τ + t_p = 6.61 s), the sender transmits again and holds the channel:
    no session completes. The tied timeout (6.62 s + the wait) lets every answer through."""
    timing = {"TURNAROUND_S": 1.0, "INTERLEAVER_DELAY_S": 4.8, "SYNC_ACQUISITION_S": 0.8}
    with robustness.study_params(PKG, timing):
        tied = scenarios.tables("5066", "hmtp", 1.0, 1)
    assert tied["medium"][0]["turnaround_s"] == pytest.approx(6.6)
    arq = _layer(tied, "hf_arq")
    assert arq is not None and arq["response_timeout_s"] == pytest.approx(6.62 + params.RESPONSE_WAIT_S)
    preempted = json.loads(json.dumps(tied))
    _layer(preempted, "hf_arq")["response_timeout_s"] = 4.67  # type: ignore[index]
    assert _sessions(tied) > 5
    assert _sessions(preempted) == 0
