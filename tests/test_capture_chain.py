"""Captures whose records hold a whole header chain, checked by Wireshark's own
dissectors (tshark): IP in IP (RFC 2003, `scenarios/compose/tcp_five_layers.toml`:
TCP over three IP layers, each datagram written with the outer header, protocol 4, the
inner datagram whole, ..., the TCP segment) and the X.25 networks of RFC 877 gateways
(`x25_three_gateways.toml`, `internet_1984.toml`: each X.25 packet in a LAPB frame in
Linux's LAPB-over-Ethernet encapsulation, data packets carrying their pieces of the IP
datagram). Every frame must decode without malformed-packet or error expert
information, every checksum must verify, and the inner addresses, LCNs and packet
types must be the ones the trace says the scenario sent. tshark is the Debian package
`tshark` (.ci/run installs it); without it these skip."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from arqlab.capture import captures, flights

FIVE = "scenarios/compose/tcp_five_layers.toml"
GATEWAYS = "scenarios/compose/x25_three_gateways.toml"
INTERNET = "scenarios/compose/internet_1984.toml"
CHECKS = ["-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE"]
#: X.25 packet type identifiers (X.25 Table 5-1) by the trace's packet names.
TYPES = {"CALL": 0x0B, "CALL-ACC": 0x0F, "CLEAR": 0x13, "CLEAR-CONF": 0x17, "RR": 0x01}


def fields(tshark: str, pcap: Path, names: list[str]) -> list[dict[str, str]]:
    """One row per frame, every occurrence of a field (one per header of the chain)."""
    cmd = [tshark, "-n", "-r", str(pcap), *CHECKS, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a"]
    for f in names:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout
    return [dict(zip(names, line.split("\t"))) for line in out.splitlines()]


def expert(tshark: str, pcap: Path) -> list[str]:
    """tshark's expert-information summary lines (severity headings included)."""
    cmd = [tshark, "-n", "-q", "-r", str(pcap), *CHECKS, "-z", "expert"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout
    return [line for line in out.splitlines() if line.strip() and not line.startswith("=") and "Running as user" not in line]


def address(node: int) -> str:
    return f"10.0.0.{node + 1}"


def test_rfc2003_ip_in_ip_records_are_outer_header_inner_header_then_the_segment(tshark: str, tmp_path: Path) -> None:
    window = (20.0, 21.0)
    ((path, interface, link),) = captures(FIVE, *window, tmp_path / "ipip.pcap")
    assert (interface, link) == ("line", "ipv4")
    assert expert(tshark, path) == [], "no expert information at all"
    rows = fields(tshark, path, ["frame.protocols", "ip.src", "ip.dst", "ip.proto", "ip.len", "ip.ttl",
                                 "ip.checksum.status", "tcp.checksum.status", "tcp.seq_raw", "tcp.ack_raw", "_ws.malformed"])
    fs = flights(FIVE, *window)["flights"]
    assert len(rows) == len(fs) > 10
    for r, f in zip(rows, fs):
        assert r["frame.protocols"].startswith("ip:ip:ip:tcp"), r
        assert r["ip.proto"] == "4,4,6", "protocol 4 (IP in IP) twice, then TCP"
        assert r["ip.checksum.status"] == "1,1,1" and r["tcp.checksum.status"] == "1", r
        lengths = [int(x) for x in r["ip.len"].split(",")]
        assert lengths[0] == lengths[1] + 20 == lengths[2] + 40, "each header's total length counts what it wraps"
        # The chain the trace recorded in the framing's record: each datagram's ends
        # and TTL, outermost first.
        c: dict[str, Any] = f["carried"]
        chain = [ends for _, ends in c["inner"]]
        assert len(chain) == 3
        assert r["ip.src"].split(",") == [address(e["src"]) for e in chain]
        assert r["ip.dst"].split(",") == [address(e["dst"]) for e in chain]
        assert [int(t) for t in r["ip.ttl"].split(",")] == [e["ttl"] for e in chain]
        assert (int(r["tcp.seq_raw"]), int(r["tcp.ack_raw"])) == (c["pdu"].get("ns", 0), c["pdu"]["nr"])
        assert not r["_ws.malformed"]


def test_rfc2003_fragments_at_two_levels_reassemble_into_the_tcp_segment(tshark: str, tmp_path: Path) -> None:
    """With MTU 576 the middle layer cuts each 596-octet datagram in two and the outer
    layer cuts the first piece again (tests/ip_in_ip.rs, the counters' closed form):
    Wireshark reassembles both levels and checks the TCP checksum of the whole segment."""
    window = (20.0, 21.0)
    mtu = {"medium.line.mtu_octets": 576}
    ((path, _, _),) = captures(FIVE, *window, tmp_path / "frag.pcap", overrides=mtu)
    assert expert(tshark, path) == []
    rows = fields(tshark, path, ["frame.protocols", "ip.proto", "ip.checksum.status", "ip.reassembled.length",
                                 "tcp.checksum.status", "tcp.len", "_ws.malformed"])
    assert all(set(r["ip.checksum.status"].split(",")) == {"1"} and not r["_ws.malformed"] for r in rows)
    assert all(set(r["ip.proto"].split(",")) <= {"4", "6"} for r in rows)
    segments = [r for r in rows if "tcp" in r["frame.protocols"].split(":")]
    data = [r for r in segments if r["tcp.len"] == "536"]
    assert len(data) > 3 and all(r["frame.protocols"].startswith("ip:ip:ip:tcp") for r in segments)
    assert all(r["tcp.checksum.status"] == "1" for r in segments)
    # A data segment's top-level datagram is 576 octets, reassembled from two pieces.
    assert all(r["ip.reassembled.length"].split(",")[-1] == "576" for r in data), data[0]


def lcn(vc: int, local: int) -> int:
    """X.25 Annex A as the capture applies it (protocol/x25/wire.rs): circuits the
    interface's own DTE called count up from 1, the far side's down from 4095."""
    channel = (vc & 0xFFF) % 2047
    return 1 + channel if vc >> 12 == local else 4095 - channel


X25_FIELDS = ["frame.protocols", "eth.src", "eth.dst", "x25.lcn", "x25.type", "x25.p_s", "x25.p_r", "x25.m",
              "x25.x263_sec_protocol_id", "ip.src", "ip.dst", "ip.checksum.status", "tcp.checksum.status",
              "tcp.seq_raw", "tcp.ack_raw", "_ws.malformed", "_ws.expert.severity"]


def check_x25(tshark: str, path: Path, mine: list[dict[str, Any]], local: int) -> dict[int, int]:
    """Every frame of `path` is the X.25 packet of its flight: packet type, LCN, P(S),
    P(R) and M; a CALL REQUEST carries 0xCC (IP); the last packet of a datagram
    reassembles into it (its inner addresses and TCP numbers, checksums good).
    Returns the LCN of each circuit seen."""
    rows = fields(tshark, path, X25_FIELDS)
    assert len(rows) == len(mine) > 10
    lcns: dict[int, int] = {}
    for r, f in zip(rows, mine):
        frame, c = f["frame"], f["carried"]
        protocols = r["frame.protocols"].split(":")
        assert protocols[:5] == ["eth", "ethertype", "lapbether", "lapb", "x25"], r
        assert not r["_ws.malformed"] and "8388608" not in r["_ws.expert.severity"].split(","), r  # no PI_ERROR
        assert int(r["x25.lcn"]) == lcn(c["circuit"], local)
        assert lcns.setdefault(c["circuit"], int(r["x25.lcn"])) == int(r["x25.lcn"]), "one LCN per circuit"
        kind = frame["kind"]
        if kind == "DATA":
            assert (int(r["x25.p_s"]), int(r["x25.p_r"]), r["x25.m"]) == (frame["ns"], frame["nr"], "1" if frame["pf"] else "0")
            if not frame["pf"]:
                # The last packet (M = 0): Wireshark hands up the reassembled datagram.
                assert protocols[5:7] == ["ip", "tcp"], r
                (_, ends), seg = c["inner"][0], c["pdu"]
                assert (r["ip.src"], r["ip.dst"]) == (address(ends["src"]), address(ends["dst"]))
                assert r["ip.checksum.status"] == "1" and r["tcp.checksum.status"] == "1", r
                assert (int(r["tcp.seq_raw"]), int(r["tcp.ack_raw"])) == (seg.get("ns", 0), seg["nr"])
        else:
            assert int(r["x25.type"], 16) == TYPES[kind], (kind, r["x25.type"])
            if kind == "RR":
                assert int(r["x25.p_r"]) == frame["nr"]
            assert (r["x25.x263_sec_protocol_id"] == "0xcc") == (kind == "CALL"), "RFC 877: call user data 0xCC"
    assert len(set(lcns.values())) == len(lcns), "distinct circuits, distinct LCNs"
    return lcns


def test_rfc877_three_gateways_capture_lapb_x25_packets_carrying_ip(tshark: str, tmp_path: Path) -> None:
    window = (0.0, 10.0)
    files = captures(GATEWAYS, *window, tmp_path / "gw.pcap")
    assert sorted((i, link) for _, i, link in files) == [
        ("dce1", "ethernet"), ("dce2", "ethernet"), ("dce3", "ethernet"),
        ("ring1", "token_ring"), ("ring2", "token_ring"), ("ring3", "token_ring")]
    fs = flights(GATEWAYS, *window)["flights"]
    nodes = 4  # a, b, c, d; then relays net, g1, g2, g3 (the capture's addresses)
    seen = {}
    for path, interface, _ in files:
        severities = " ".join(expert(tshark, path))
        assert "Errors" not in severities and "Warns" not in severities and "Malformed" not in severities, (interface, severities)
        if not interface.startswith("dce"):
            continue
        mine = [f for f in fs if f["lane"].startswith(f"link.{interface}.")]
        seen[interface] = check_x25(tshark, path, mine, local=nodes + int(interface[-1]))
        assert any(f["frame"]["kind"] == "CALL" for f in mine), interface
    # g1 calls g2 (for b) and g3 (for c): two circuits of its own on its access line,
    # channels 1 and 2; each reaches the called gateway as an incoming call, on the
    # channel counted from the top (4096 - g1's).
    assert sorted(seen["dce1"].values()) == [1, 2]
    for far in ("dce2", "dce3"):
        assert len(seen[far]) == 1 and seen[far].keys() <= seen["dce1"].keys(), far
        ((vc, n),) = seen[far].items()
        assert n + seen["dce1"][vc] == 4096, (far, n)


def test_rfc877_two_gateways_on_one_line_number_their_circuits_as_dte_a_and_b(tshark: str, tmp_path: Path) -> None:
    """internet_1984: the line between g1 (DTE A, the lower index) and g2 carries
    several circuits (c_max = 3); the capture at g1 numbers g1's calls from 1 up."""
    window = (0.0, 10.0)
    files = {i: (p, link) for p, i, link in captures(INTERNET, *window, tmp_path / "i84.pcap")}
    path, link = files["x25net"]
    assert link == "ethernet"
    fs = [f for f in flights(INTERNET, *window)["flights"] if f["lane"].startswith("link.x25net.")]
    lcns = check_x25(tshark, path, fs, local=0)
    assert sorted(lcns.values()) == list(range(1, len(lcns) + 1)), "g1 calls on channels 1, 2, ..."
    assert 1 < len(lcns) <= 3, "several circuits, at most c_max = 3"
    # Reordering across circuits makes TCP's analysis warn; nothing is malformed.
    summary = expert(tshark, path)
    assert not any("Malformed" in line or "Bad checksum" in line for line in summary), summary
    assert "Errors" not in " ".join(summary)


def test_ladders_of_ip_in_ip_and_of_gateways_draw_every_frame_with_its_label(tmp_path: Path) -> None:
    """`ladder` on the same scenarios: one arrow and one label per frame of the trace,
    X.25 packets by the standard's names (CALL, DATA(P(S),P(R),M), ...), one axis per
    node or relay the frames touch."""
    import re

    from arqlab import cli
    from arqlab.ladder import label

    for source, (start, end), kinds in ((FIVE, (20.0, 20.3), {"I"}), (GATEWAYS, (0.0, 1.0), {"CALL", "CALL-ACC", "DATA"})):
        out = tmp_path / "l.svg"
        assert cli.main(["ladder", source, "--from", str(start), "--to", str(end), "--out", str(out)]) == 0
        svg = out.read_text()
        frames = flights(source, start, end)["flights"]
        assert 4 <= len(frames) <= 60 and {f["frame"]["kind"] for f in frames} >= kinds, source
        for prefix in ("frame", "label"):
            assert len(set(re.findall(rf'id="{prefix}-(\d+)"', svg))) == len(frames), (source, prefix)
        assert all(label(f["frame"]) in svg for f in frames)


def test_a_line_between_two_routers_is_written_by_their_link_stack(tshark: str, tmp_path: Path) -> None:
    """`tcp_over_hf_between_lans.toml`: the HF radio joins the two routers only, so its
    frames are the routers' `hf_arq` link's (STANAG 5066 D_PDUs), not the ring hosts'
    LLC2 (which could not encode an HF ACK and made the capture fail)."""
    window = (20.0, 25.0)
    files = {i: (p, link) for p, i, link in captures("scenarios/compose/tcp_over_hf_between_lans.toml", *window, tmp_path / "hf.pcap")}
    path, link = files["hf"]
    assert link == "stanag_5066"
    rows = fields(tshark, path, ["frame.protocols", "_ws.malformed"])
    fs = [f for f in flights("scenarios/compose/tcp_over_hf_between_lans.toml", *window)["flights"] if f["lane"].startswith("link.hf.")]
    assert len(rows) == len(fs) > 0
    assert all(r["frame.protocols"] == "s5066dts" and not r["_ws.malformed"] for r in rows), rows[:2]
    assert not [line for line in expert(tshark, path) if "Error" in line or "Malformed" in line]


def test_frames_in_flight_when_a_dialogue_ends_the_run_are_captured(tshark: str, tmp_path: Path) -> None:
    """`smtp_three_hops.toml` ends when the dialogue's last message is delivered, with
    the client's and a relay's last segments still on the line: they are captured (and
    drawn to the arrival their bits and the lane's delay give) instead of the capture
    failing with "never arrived"."""
    source, window = "scenarios/compose/smtp_three_hops.toml", (4.5, 6.0)
    fs = flights(source, *window)["flights"]
    last = max(f["sent_s"] for f in fs)
    assert last < window[1], "the run ends inside the window"
    ending = [f for f in fs if f["arrived_s"] > last]
    assert ending, "frames still on the line at the end"
    for f in ending:
        assert f["arrived_s"] == f["sent_s"] + f["frame"]["bits"] / 64000.0 + 0.05
        assert f["receiver"] == f["lane"].rsplit("->", 1)[1]
    files = captures(source, *window, tmp_path / "smtp.pcap")
    sent = 0
    for path, interface, _ in files:
        rows = fields(tshark, path, ["frame.protocols", "ip.checksum.status", "tcp.checksum.status", "_ws.malformed"])
        assert all(r["frame.protocols"].startswith("ip:tcp") and r["tcp.checksum.status"] == "1" and not r["_ws.malformed"] for r in rows), interface
        sent += len(rows)
    assert sent == len(fs)
