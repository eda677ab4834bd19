"""Every tool addresses every key of either scenario form with `run --set`'s syntax
(arqlab.keys): by index and by name into arrays of tables, the one-protocol stack as its
own layers[0]; bad keys exit 2 naming the key, and nothing is silently ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from arqlab import keys, scenario
from arqlab.cli import main
from arqlab.errors import ScenarioError
from arqlab.testing import fake_run_replication

ROOT = Path(__file__).resolve().parents[1]
TANDEM = ROOT / "scenarios" / "topologies" / "tandem.toml"
GBN = ROOT / "scenarios" / "go_back_n.toml"


def test_a_key_selects_an_element_by_index_or_by_name() -> None:
    tree, _ = scenario.read(TANDEM)
    by_index = scenario.load(TANDEM, {"medium[1].rate_bps": 4800.0})
    by_name = scenario.load(TANDEM, {"medium.l2.rate_bps": 4800.0})
    assert by_index == by_name
    assert [m["rate_bps"] for m in by_name["medium"]] == [9600.0, 4800.0]
    flow = scenario.load(TANDEM, {"flow.a->b.traffic.load": 0.25})
    assert flow["flow"][0]["traffic"]["load"] == 0.25
    assert scenario.load(TANDEM, {"flow[0].traffic.load": 0.25}) == flow
    assert keys.get_key(tree, "relay.r.forwarding_time_s") == 0.0
    assert keys.get_key(tree, "node[1].name") == "b"


def test_a_one_protocol_stack_is_its_own_first_layer() -> None:
    text = TANDEM.read_text()
    tree, _ = scenario.read(text)
    assert "layers" not in tree["stack"]["udp"]
    a = scenario.load(text, {"stack.udp.layers[0].overhead_bits": 99})
    b = scenario.load(text, {"stack.udp.overhead_bits": 99})
    assert a == b and a["stack"]["udp"]["layers"][0]["overhead_bits"] == 99


@pytest.mark.parametrize(("key", "message"), [
    ("medium[2].rate_bps", "medium[2]: expected an index in [0, 1] (medium has 2 element(s))"),
    ("medium.l9.rate_bps", "medium.l9: expected the name of an element of medium (known: l1, l2)"),
    ("medium[0].rat_bps", "medium[0].rat_bps = 1: unknown key"),
    ("medium[0]", "medium[0]: names a whole table"),
    ("run[0].duration_s", "run[0]: run is a table, not an array"),
    ("medium..rate_bps", "expected a dotted key like link.rate_bps"),
])
def test_a_bad_key_is_refused_naming_it(key: str, message: str) -> None:
    with pytest.raises(ScenarioError) as e:
        scenario.load(TANDEM, {key: 1})
    assert any(message in p for p in e.value.problems), e.value.problems


def test_every_bad_key_is_reported_at_once() -> None:
    with pytest.raises(ScenarioError) as e:
        scenario.load(TANDEM, {"medium[7].rate_bps": 1, "node.zz.stack": "udp", "medium[0].rat_bps": 3,
                               "medium[1].rate_bps": -1})
    # Two keys that select nothing, then the scenario with the keys that applied: an
    # unknown field and a value out of range.
    assert [p.split(":")[0] for p in e.value.problems] == [
        "medium[7]", "node.zz", "medium[0].rat_bps = 3", "medium[1].rate_bps = -1"], e.value.problems


def test_the_cli_exits_2_on_a_bad_key_of_the_explicit_form(capsys: pytest.CaptureFixture[str]) -> None:
    for key in ["medium[5].rate_bps=1", "runn.duration_s=1", "medium[0].speed=1"]:
        assert main(["check", str(TANDEM), "--set", key]) == 2, key
        err = capsys.readouterr().err
        assert "error:" in err and "Traceback" not in err
    assert main(["check", str(TANDEM), "--set", "medium[0].rate_bps=1200"]) == 0
    assert "rate_bps = 1200" in capsys.readouterr().out


def test_check_applies_an_indexed_override() -> None:
    resolved = scenario.load(TANDEM, {"medium[0].rate_bps": 1200})
    assert resolved["medium"][0]["rate_bps"] == 1200


def test_sweep_grid_addresses_explicit_keys_by_index_and_name() -> None:
    from arqlab.sweep import sweep

    df = sweep(TANDEM, {"medium.l1.rate_bps": [4800.0, 9600.0], "stack.udp.layers[0].overhead_bits": [48]},
               replications=2, store=False, executor="serial", runner=fake_run_replication)
    assert sorted(set(df["medium.l1.rate_bps"])) == [4800.0, 9600.0]
    assert len(set(df["scenario_hash"])) == 2, "each point is its own scenario"


def test_sweep_refuses_a_key_the_scenario_does_not_have() -> None:
    from arqlab.sweep import GridError, sweep

    with pytest.raises(GridError) as e:
        sweep(TANDEM, {"medium[1].bit_error_rat": [1e-5]}, replications=2, store=False, executor="serial",
              runner=fake_run_replication)
    assert "did you mean 'medium[1].bit_error_rate'" in str(e.value)


def test_a_design_factor_on_a_missing_key_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "d.toml"
    spec.write_text('replications = 2\n[response]\nmeasure = "transfer_time_s"\n'
                    '[factors.A]\nkey = "medium[2].bit_error_rate"\nlevels = [0.0, 1e-5]\n'
                    '[factors.B]\nkey = "medium.l2.rate_bps"\nlevels = [4800.0, 9600.0]\n')
    assert main(["design", str(TANDEM), str(spec), "--no-store", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "medium[2]: expected an index in [0, 1]" in err and "Traceback" not in err


def test_a_design_on_explicit_keys_and_a_link_measure_runs(tmp_path: Path) -> None:
    from arqlab.design.run import run_design
    from arqlab.design.spec import load_design

    spec = load_design('replications = 2\n[response]\nmeasure = "utilisation"\ndirection = "link.l2.r->b"\n'
                       '[factors.A]\nkey = "medium[1].rate_bps"\nlevels = [9600.0, 19200.0]\n')
    base = {**scenario.read(TANDEM)[0]}
    base["run"] = {**base["run"], "duration_s": 200.0, "warmup_s": 10.0}
    result = run_design(spec.design, base, measure=spec.measure, direction=spec.direction, replications=2,
                        store=False)
    assert result.response == "link.l2.r->b.utilisation"
    means = list(result.runs["mean"])
    # The offered traffic follows l1's rate: doubling l2's halves its frames' time on l2.
    assert means[1] == pytest.approx(means[0] / 2, rel=0.1)


def test_check_states_what_an_hf_lane_does_with_plain_frames(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = TANDEM.read_text().replace(
        "rate_bps = 9600.0\ndelay_s = 0.005\n",
        'rate_bps = 2400.0\ndelay_s = 0.005\n'
        'forward = { error_model = "hf", channel = "stable_25", modem = "mil-std-188-110b" }\n', 1)
    path = tmp_path / "hf.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("# note: medium[0].forward: datagram frames are not modem-aware: each is sent at rate_bps = 2400 bit/s "
            "and judged by the mil-std-188-110b data mode of that rate") in out
    assert main(["check", str(path), "--set", "medium[0].rate_bps=9600"]) == 2
    assert "expected a modem with a data mode at the link's rate_bps = 9600" in capsys.readouterr().err
