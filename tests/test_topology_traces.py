"""Traces, captures and ladders of explicit topologies: every hop of a frame through a
relay is traced on its lane (sender, receiver, lane, frame number), a capture is written
per medium under its link type, read back by tshark, and a ladder has one axis per node
and relay, named as in the scenario."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from arqlab import cli
from arqlab.capture import captures, flights
from arqlab.ladder import ladder
from arqlab.trace import trace

ROOT = Path(__file__).resolve().parents[1]
TANDEM = ROOT / "scenarios" / "topologies" / "tandem.toml"
RELAY_ARQ = ROOT / "scenarios" / "topologies" / "relay_loss_arq.toml"
STAR = ROOT / "scenarios" / "topologies" / "star_mux.toml"
WINDOW = (100.0, 102.0)


def test_a_trace_names_every_node_and_relay_and_the_lane_of_each_frame() -> None:
    df = trace(TANDEM, start_s=WINDOW[0], end_s=WINDOW[1])
    assert set(df["station"]) == {"a", "r", "b"}
    sends = df[df["event"] == "send"]
    assert set(zip(sends["station"], sends["lane"])) <= {("a", "link.l1.a->r"), ("r", "link.l2.r->b")}
    receives = df[df["event"] == "receive"]
    assert set(zip(receives["station"], receives["lane"])) <= {("r", "link.l1.a->r"), ("b", "link.l2.r->b")}


def test_flights_pair_each_hop_on_its_lane_and_follow_a_message_through_the_relay() -> None:
    data = flights(TANDEM, *WINDOW)
    assert data["stations"] == ["a", "r", "b"], "in the order the media name them"
    hops = data["flights"]
    assert hops, "frames in the window"
    rate, delay = {"link.l1.a->r": (9600.0, 0.005), "link.l2.r->b": (9600.0, 0.020)}, {}
    for f in hops:
        r, d = rate[f["lane"]]
        assert (f["sender"], f["receiver"]) == (("a", "r") if f["lane"] == "link.l1.a->r" else ("r", "b"))
        # Each hop: transmission at the lane's rate, then its propagation delay.
        assert f["tx_end_s"] == pytest.approx(f["sent_s"] + f["frame"]["bits"] / r, abs=1e-9)
        assert f["arrived_s"] == pytest.approx(f["tx_end_s"] + d, abs=1e-9)
    # A message's second hop leaves the relay no earlier than its first hop arrived there.
    first = {f["frame"]["message"]: f for f in hops if f["lane"] == "link.l1.a->r"}
    second = [f for f in hops if f["lane"] == "link.l2.r->b" and f["frame"]["message"] in first]
    assert second, "a message crosses both hops in the window"
    for f in second:
        assert f["sent_s"] >= first[f["frame"]["message"]]["arrived_s"] - 1e-12
    del delay


def test_a_capture_per_medium_says_its_link_type_and_tshark_reads_it(tmp_path: Path) -> None:
    files = captures(RELAY_ARQ, *WINDOW, tmp_path / "run.pcap")
    assert [(p.name, iface, link) for p, iface, link in files] == [
        ("run-l1.pcap", "l1", "sita"), ("run-l2.pcap", "l2", "sita")]
    data = flights(RELAY_ARQ, *WINDOW)
    per_medium = {"l1": 0, "l2": 0}
    for f in data["flights"]:
        per_medium[f["lane"].split(".")[1]] += 1
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark is missing: install the Debian package (apt-get install tshark)")
    for p, iface, _ in files:
        out = subprocess.run([tshark, "-n", "-r", str(p), "-T", "fields", "-e", "lapb.control.ftype"],
                             capture_output=True, text=True, check=True, timeout=120).stdout.split()
        assert len(out) == per_medium[iface], iface


def test_the_ladder_of_a_topology_has_an_axis_per_station_by_name() -> None:
    fig = ladder(TANDEM, 100.0, 100.6)
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == ["a", "r", "b"]


def test_the_trace_cli_runs_on_a_multiplexed_star(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["trace", str(STAR), "--from", "50", "--to", "51", "--pcap", str(tmp_path / "s.pcap")]) == 0
    err = capsys.readouterr().err
    assert "(interface" in err and "link type" in err
