"""TCP captures as real IPv4/TCP, checked by Wireshark's own dissectors (tshark): TCP
over X.25 (Comer & Korb's file transfer, several circuits: LAPB carrying X.25 data
packets whose M-bit sequences reassemble into IPv4 datagrams) and TCP over LLC2 on a
token ring with three hosts (each I frame's information field one datagram). Every
IPv4 header checksum and every TCP checksum (over the pseudo-header) must verify, no
frame may be malformed, and sequence and acknowledgement numbers, flags and ports must
be the trace's. tshark is the Debian package `tshark` (.ci/run installs it)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from arqlab.capture import captures, flights

#: Comer & Korb's transfer over three circuits, on one network medium (so one capture)
#: and as 222 whole-segment messages, so that each decoded datagram names one message.
#: (scenarios/comer_korb/fig3.toml is the study's point: a relay, two media, one write.)
FIG3_TEXT = """
[run]
duration_s = 3600.0
replications = 1
[stack.host]
layers = [
  { kind = "tcp", mss_octets = 452, receive_window_octets = 4096 },
  { kind = "x25", window = 2, policy = "multi_mlru", c_max = 3, preopen_circuits = 3 },
]
[[medium]]
name = "network"
ends = ["a", "b"]
rate_bps = 1e9
delay_s = 0.235
[[node]]
name = "a"
stack = "host"
[[node]]
name = "b"
stack = "host"
[[flow]]
from = "a"
to = "b"
traffic = { kind = "bulk", messages = 222, length = { dist = "constant", mean_bits = 3616 } }
"""
RING = "scenarios/compose/tcp_llc2_three_hosts.toml"
CHECKS = ["-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE"]
FIELDS = ["frame.protocols", "ip.checksum.status", "tcp.checksum.status", "ip.src", "ip.dst", "tcp.srcport",
          "tcp.dstport", "tcp.seq_raw", "tcp.ack_raw", "tcp.flags", "tcp.len", "_ws.expert.severity", "_ws.malformed"]


def decode(tshark: str, pcap: Path) -> list[dict[str, str]]:
    cmd = [tshark, "-n", "-r", str(pcap), *CHECKS, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout
    return [dict(zip(FIELDS, line.split("\t"))) for line in out.splitlines()]


def expert(tshark: str, pcap: Path) -> str:
    """tshark's expert-information summary of the whole capture."""
    cmd = [tshark, "-n", "-q", "-r", str(pcap), *CHECKS, "-z", "expert"]
    return subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout


def assert_clean(rows: list[dict[str, str]], report: str) -> None:
    """RFC 791 header checksums and RFC 9293 checksums all good (status 1), nothing
    malformed, no expert error."""
    ip = [r for r in rows if "ip:tcp" in r["frame.protocols"]]
    assert ip, "no IPv4/TCP in the capture"
    assert all(r["ip.checksum.status"] == "1" and r["tcp.checksum.status"] == "1" for r in ip), ip[:3]
    assert not any(r["_ws.malformed"] for r in rows)
    assert "Malformed" not in report and "Bad checksum" not in report and "Error" not in report, report


def test_tcp_over_x25_is_ipv4_tcp_in_x25_data_packets(tshark: str, tmp_path: Path) -> None:
    # The whole transfer, from the circuits' CALL REQUESTs (call user data 0xCC: IP) to
    # the last acknowledgement: a window opening mid-datagram would hold pieces only.
    window = (0.0, 150.0)
    fig3 = tmp_path / "fig3.toml"
    fig3.write_text(FIG3_TEXT)
    ((path, interface, link),) = captures(str(fig3), *window, tmp_path / "fig3.pcap")
    assert (interface, link) == ("network", "ethernet")
    rows = decode(tshark, path)
    assert_clean(rows, expert(tshark, path))
    fs = flights(str(fig3), *window)["flights"]
    assert len(rows) == len(fs)
    # A datagram is decoded at its last packet (M = 0): each names the segment the
    # trace says it carried, on the circuit it went on.
    last = [f for f in fs if f["frame"]["kind"] == "DATA" and not f["frame"]["pf"]]
    decoded = [r for r in rows if ":ip:tcp" in r["frame.protocols"]]
    assert len(decoded) == len(last) > 10
    for r, f in zip(decoded, last):
        seg = f["carried"]["pdu"]
        a_to_b = f["sender"] == "a"
        assert (r["ip.src"], r["ip.dst"]) == (("10.0.0.1", "10.0.0.2") if a_to_b else ("10.0.0.2", "10.0.0.1"))
        assert (int(r["tcp.srcport"]), int(r["tcp.dstport"])) == ((1024, 1025) if a_to_b else (1025, 1024))
        assert (int(r["tcp.seq_raw"]), int(r["tcp.ack_raw"])) == (seg.get("ns", 0), seg["nr"])
        assert int(r["tcp.len"]) == (seg["bits"] - 160) // 8 == (452 if seg["kind"] == "I" else 0)
        assert int(r["tcp.flags"], 16) & 0x10, "every segment acknowledges (no connection set-up)"
    sent = {int(r["tcp.seq_raw"]) for r in decoded if int(r["tcp.len"]) == 452}
    assert sent == {452 * k for k in range(222)}, "every message of the file (a retransmission repeats one)"


def test_tcp_over_llc2_on_a_token_ring_is_ipv4_tcp_per_i_frame(tshark: str, tmp_path: Path) -> None:
    window = (5.0, 5.5)
    ((path, interface, link),) = captures(RING, *window, tmp_path / "ring.pcap")
    assert (interface, link) == ("ring", "token_ring")
    rows = decode(tshark, path)
    assert_clean(rows, expert(tshark, path))
    fs = flights(RING, *window)["flights"]
    assert len(rows) == len(fs)
    hosts = {"a": "10.0.0.1", "b": "10.0.0.2", "c": "10.0.0.3"}
    seen: set[tuple[str, str]] = set()
    for r, f in zip(rows, fs):
        if f["frame"]["kind"] != "I":
            assert ":ip" not in r["frame.protocols"], "supervisory frames carry no datagram"
            continue
        assert "tr:llc:ip:tcp" in r["frame.protocols"], r
        seg: dict[str, Any] = f["carried"]["pdu"]
        assert (r["ip.src"], r["ip.dst"]) == (hosts[f["sender"]], hosts[f["receiver"]])
        assert (int(r["tcp.seq_raw"]), int(r["tcp.ack_raw"])) == (seg.get("ns", 0), seg["nr"])
        assert int(r["tcp.len"]) == (seg["bits"] - 160) // 8
        seen.add((f["sender"], f["receiver"]))
    assert {("a", "b"), ("a", "c")} <= seen, "both connections appear, each with its own addresses"


def test_tcp_over_datagrams_is_raw_ipv4_with_the_rfc9293_handshake(tshark: str, tmp_path: Path) -> None:
    """The SMTP dialogue across three hops (TCP over datagrams, two relays): one capture
    per medium under LINKTYPE_IPV4, the three-way handshake's SYN, SYN-ACK and ACK with
    their flags and numbers (RFC 9293 §3.5), every checksum good."""
    files = captures("scenarios/compose/smtp_three_hops.toml", 0.0, 4.0, tmp_path / "smtp.pcap")
    assert [(name, link) for _, name, link in files] == [("l1", "ipv4"), ("l2", "ipv4"), ("l3", "ipv4")]
    for path, name, _ in files:
        rows = decode(tshark, path)
        assert_clean(rows, expert(tshark, path))
        assert all(r["frame.protocols"].startswith("ip:tcp") for r in rows)
        syn, syn_ack, ack = rows[:3]
        assert [int(r["tcp.flags"], 16) for r in (syn, syn_ack, ack)] == [0x02, 0x12, 0x10]
        assert (int(syn_ack["tcp.ack_raw"]), int(ack["tcp.ack_raw"])) == (int(syn["tcp.seq_raw"]) + 1, int(syn_ack["tcp.seq_raw"]) + 1)
        if name != "l2":  # between the two relays the addresses are the relays' (documented)
            assert (syn["ip.src"], syn["ip.dst"]) == ("10.0.0.1", "10.0.0.2"), "client to server, end to end"
