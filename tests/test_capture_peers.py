"""Captures of a node with several peers (`scenarios/topologies/star_tp4.toml`: one TP4
connection per peer behind the multiplexing layer), checked with tshark: each TPDU is
written between its connection's own nodes (MAC 02:00:00:00:00:0a + node) with its
connection's DST-REF (2c + 1 towards the higher-numbered node of connection c, 2c + 2
towards the lower), also on the hop from the relay, where the frame alone does not say
whose it is. tshark is the Debian package `tshark`; without it this skips."""

from __future__ import annotations

import subprocess
from pathlib import Path

from arqlab.capture import captures

STAR = "scenarios/topologies/star_tp4.toml"
FIELDS = ["frame.protocols", "eth.src", "eth.dst", "cotp.type", "cotp.destref", "_ws.malformed"]


def test_each_peer_s_tpdus_carry_their_own_connection_and_addresses(tshark: str, tmp_path: Path) -> None:
    files = {i: p for p, i, link in captures(STAR, 0.0, 3.0, tmp_path / "star.pcap") if link == "ethernet"}
    assert sorted(files) == ["la", "lb", "lc"]
    cmd = [tshark, "-n", "-r", str(files["lc"]), "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout
    rows = [dict(zip(FIELDS, line.split("\t"))) for line in out.splitlines()]
    assert rows and all(":cotp" in r["frame.protocols"] and not r["_ws.malformed"] for r in rows)
    mac = {"02:00:00:00:00:0a": "a", "02:00:00:00:00:0b": "b", "02:00:00:00:00:0c": "c"}
    seen = {(mac[r["eth.src"]], mac[r["eth.dst"]], r["cotp.type"], int(r["cotp.destref"], 0)) for r in rows}
    # Connection 0 is a–c, 1 is b–c (flow order); c is the higher-numbered node of both.
    # DTs (0x0f) relayed to c, AKs (0x06) from c to each client.
    assert {s for s in seen if s[2] == "0x0f"} == {("a", "c", "0x0f", 1), ("b", "c", "0x0f", 3)}
    assert {s for s in seen if s[2] == "0x06"} == {("c", "a", "0x06", 2), ("c", "b", "0x06", 4)}
