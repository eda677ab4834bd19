"""Explicit topologies from Python and the command line: the shipped examples run and
report every scope; bad topologies are one-line errors naming the path (exit 2); the
pair shorthand and its explicit equivalent give the same flow measures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import arqlab
from arqlab import scenario
from arqlab.errors import ScenarioError

TANDEM = "scenarios/topologies/tandem.toml"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True)


def test_the_tandem_reports_flow_lane_and_relay_port_scopes() -> None:
    r = arqlab.simulate(TANDEM, replications=2, store=False, overrides={"run.duration_s": 400.0})
    assert set(r.metrics) == {
        "flow.a->b", "link.l1.a->r", "link.l1.r->a", "link.l2.r->b", "link.l2.b->r", "node.r.l1", "node.r.l2",
    }
    assert r.metrics["node.r.l2"]["frames_dropped"]["mean"] == 0.0
    assert r.metrics["link.l1.a->r"]["frames_transmitted"]["mean"] == r.metrics["flow.a->b"]["frames_sent"]["mean"]
    frame = r.to_frame()
    assert {"flow.a->b", "node.r.l2"} <= set(frame.direction)
    assert scenario.flows(r.scenario) == [("flow.a->b", True)]


def test_the_pair_form_and_its_explicit_equivalent_agree() -> None:
    pair = {
        "run": {"duration_s": 300.0, "warmup_s": 10.0, "replications": 2},
        "link": {"rate_bps": 9600.0, "delay_s": 0.02},
        "protocol": {"kind": "go_back_n", "window": 7},
        "traffic": {"a": {"kind": "saturated"}, "b": {"kind": "none"}},
    }
    explicit = {
        "run": pair["run"],
        "stack": {"gbn": {"kind": "go_back_n", "window": 7}},
        "medium": [{"name": "link", "ends": ["a", "b"], "rate_bps": 9600.0, "delay_s": 0.02}],
        "node": [{"name": "a", "stack": "gbn"}, {"name": "b", "stack": "gbn"}],
        "flow": [{"from": "a", "to": "b", "traffic": {"kind": "saturated"}}],
    }
    a = arqlab.simulate(pair, store=False).metrics["a_to_b"]
    b = arqlab.simulate(explicit, store=False).metrics["flow.a->b"]
    # Error free: the trajectories are the same up to stream names, which do not matter
    # without randomness; every flow measure agrees exactly.
    for m in ("throughput_efficiency", "transfer_time_s", "frames_sent", "buffer_holding_time_s"):
        assert a[m]["mean"] == b[m]["mean"], m


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace('ends = ["r", "b"]', 'ends = ["r", "c"]'),
         'medium[1].ends[1] = "c": expected the name of a [[node]] or [[relay]] (known: a, b, r)'),
        (lambda t: t.replace('stack = "udp"\n\n[[flow]]', 'stack = "tcp"\n\n[[flow]]'),
         'node[1].stack = "tcp": expected the name of a [stack.<name>] table (known: udp)'),
        (lambda t: t.replace('kind = "datagram"', 'layers = [{ kind = "hdlc" }, { kind = "datagram" }]'),
         'stack.udp.layers[0].kind = "hdlc": hdlc over datagram (layers[1]): hdlc needs frames on a medium below it, '
         'but the layer below offers best-effort datagrams'),
        (lambda t: t + '\n[link]\nrate_bps = 1\n',
         'link = {…}: not allowed with [[node]]/[[medium]]/[[flow]]'),
    ],
)
def test_bad_topologies_name_the_path(tmp_path: Path, edit, message: str) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text(edit(Path(TANDEM).read_text()))
    with pytest.raises(ScenarioError) as e:
        scenario.load(bad)
    assert any(p.startswith(message) for p in e.value.problems), e.value.problems
    out = cli("check", str(bad))
    assert out.returncode == 2, out.stderr
    assert message.split(":")[0] in out.stderr and "Traceback" not in out.stderr


def test_run_and_check_work_on_every_shipped_topology() -> None:
    for f in sorted(Path("scenarios/topologies").glob("*.toml")):
        out = cli("check", str(f))
        assert out.returncode == 0, (f, out.stderr)
        resolved = scenario.load(f)
        # The resolved form is a fixed point.
        assert scenario.load(resolved) == resolved
    out = cli("run", TANDEM, "--no-store", "--replications", "2", "--set", "run.duration_s=200")
    assert out.returncode == 0, out.stderr
    assert "node.r.l2:" in out.stdout and "flow.a->b:" in out.stdout


def test_a_bulk_transfer_is_a_terminating_run_from_python_and_the_command_line() -> None:
    overrides = {"traffic.a.kind": "bulk", "traffic.a.messages": 100, "run.warmup_s": 0.0,
                 "link.bit_error_rate": 0.0, "run.replications": 2}
    r = arqlab.simulate("scenarios/go_back_n.toml", overrides=overrides, store=False)
    run = r.metrics["run"]
    assert run["completed"]["mean"] == 1.0
    # Error free, window never closed: 100 frame times + 2 t_p + an RR.
    assert run["completion_time_s"]["mean"] == pytest.approx(100 * 1048 / 48000 + 0.1 + 48 / 48000, abs=1e-9)
    out = cli("run", "scenarios/go_back_n.toml", "--no-store", *[f"--set={k}={v}" for k, v in overrides.items()])
    assert out.returncode == 0, out.stderr
    assert "run:" in out.stdout and "completion_time_s" in out.stdout


IP = "scenarios/compose/ip_fragmenting_routers.toml"


def test_ip_routers_print_their_counters_and_bad_ip_keys_exit_2(tmp_path: Path) -> None:
    out = cli("run", IP, "--no-store", "--replications", "1")
    assert out.returncode == 0, out.stderr
    section = out.stdout.split("# IP routers", 1)[1]
    assert "ip.r2:" in section and "fragments_created" in section and "ttl_expired" in section
    r = arqlab.simulate(IP, replications=1, store=False, overrides={"stack.ip.ttl": 2})
    assert r.metrics["ip.r2"]["ttl_expired"]["mean"] == 2.0
    for edit, message in [
        (lambda t: t.replace("mtu_octets = 296", "mtu_octets = 60"), "medium[2].mtu_octets = 60: expected"),
        (lambda t: t.replace('kind = "ip_router"\nforwarding_time_s = 0.001', 'kind = "ip_rooter"'), "relay[1].kind"),
        (lambda t: t.replace("ttl = 64", "ttl = 300"), "stack.ip.ttl = 300: expected"),
    ]:
        bad = tmp_path / "bad.toml"
        bad.write_text(edit(Path(IP).read_text()))
        res = cli("check", str(bad))
        assert res.returncode == 2 and message in res.stderr and "Traceback" not in res.stderr, res.stderr
