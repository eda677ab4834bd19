"""Captures of IP stacks and of a lone datagram layer, checked by Wireshark's own
dissectors (tshark): the `ip` layer's datagrams and fragments as real IPv4 under
LINKTYPE_IPV4 (RFC 791 header: MF, offset in 8-octet units, TTL as each hop sent it,
header checksum) — on a token ring inside IEEE 802.5 frames with RFC 1042's SNAP
header —, TCP over IP as ip:tcp, and a datagram layer alone on a medium (the
users' messages, no header format of its own) as opaque records under LINKTYPE_USER0.
tshark is the Debian package `tshark` (.ci/run installs it); without it these skip."""

from __future__ import annotations

import subprocess
from pathlib import Path

from arqlab.capture import captures, flights

FRAGMENTS = "scenarios/compose/ip_fragmenting_routers.toml"
TCP_IP = "scenarios/compose/tcp_ip_two_rings.toml"
TANDEM = "scenarios/topologies/tandem.toml"
CHECKS = ["-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE"]
# LINKTYPE_USER0 (147) read as plain data, as a user tells Wireshark in its DLT_USER table.
USER0_AS_DATA = ["-o", 'uat:user_dlts:"User 0 (DLT=147)","data","0","","0",""']


def fields(tshark: str, pcap: Path, names: list[str], extra: list[str] = CHECKS) -> list[dict[str, str]]:
    cmd = [tshark, "-n", "-r", str(pcap), *extra, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f"]
    for f in names:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout
    return [dict(zip(names, line.split("\t"))) for line in out.splitlines()]


def expert(tshark: str, pcap: Path, extra: list[str] = CHECKS) -> str:
    """tshark's expert-information summary of the whole capture ('' when it has none)."""
    cmd = [tshark, "-n", "-q", "-r", str(pcap), *extra, "-z", "expert"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=300).stdout
    return "\n".join(line for line in out.splitlines() if line.strip() and not line.startswith("=") and "Running as user" not in line)


IP_FIELDS = ["frame.protocols", "ip.src", "ip.dst", "ip.len", "ip.id", "ip.flags.mf", "ip.frag_offset", "ip.ttl",
             "ip.proto", "ip.checksum.status", "ip.reassembled.length", "tcp.checksum.status", "_ws.malformed"]


def test_rfc791_fragments_through_two_routers_are_real_ipv4_with_good_checksums(tshark: str, tmp_path: Path) -> None:
    files = captures(FRAGMENTS, 0.0, 10.0, tmp_path / "ip.pcap")
    assert [(i, link) for _, i, link in files] == [("l1", "ipv4"), ("l2", "ipv4"), ("l3", "ipv4")]
    rows = {i: fields(tshark, path, IP_FIELDS) for path, i, _ in files}
    for i, (path, _, _) in zip(rows, files):
        assert expert(tshark, path) == "", f"{i}: expert information"
        for r in rows[i]:
            assert r["ip.checksum.status"] == "1", (i, r)  # RFC 791 header checksum good
            assert (r["ip.src"], r["ip.dst"], r["ip.proto"]) == ("10.0.0.1", "10.0.0.2", "253"), (i, r)
            assert not r["_ws.malformed"]
    # The closed form of RFC 791 fragmentation (tests/compose.rs asserts the model's
    # counts): 1000 octets whole on l1 (MTU 1500); 552 + 448 on l2 (MTU 576); each cut
    # again to 272-octet pieces on l3 (MTU 296): 272 + 272 + 8, 272 + 176. Offsets in
    # 8-octet units as in the header (552 octets = 69), MF on all but the last piece,
    # TTL one less per router.
    shape = {i: [(int(r["ip.len"]), int(r["ip.frag_offset"]), r["ip.flags.mf"], int(r["ip.ttl"])) for r in rs] for i, rs in rows.items()}
    assert shape == {
        "l1": [(1020, 0, "0", 64)],
        "l2": [(572, 0, "1", 63), (468, 69, "0", 63)],
        "l3": [(292, 0, "1", 62), (292, 34, "1", 62), (28, 68, "1", 62), (292, 69, "1", 62), (196, 103, "0", 62)],
    }
    assert len({r["ip.id"] for rs in rows.values() for r in rs}) == 1, "one datagram, one identification"
    # Wireshark reassembles the five pieces at b into the 1000-octet datagram.
    assert rows["l3"][-1]["ip.reassembled.length"] == "1000"


def test_tcp_over_ip_between_two_rings_is_ip_tcp_with_good_checksums(tshark: str, tmp_path: Path) -> None:
    window = (0.0, 3.0)
    files = captures(TCP_IP, *window, tmp_path / "tcp.pcap")
    # Each medium's own link type: the line raw IPv4, the rings IEEE 802.5 with RFC 1042 SNAP.
    assert sorted((i, link) for _, i, link in files) == [("ring1", "token_ring"), ("ring2", "token_ring"), ("wan", "ipv4")]
    fs = flights(TCP_IP, *window)["flights"]
    for path, i, _ in files:
        assert expert(tshark, path) == "", f"{i}: expert information"
        rows = fields(tshark, path, IP_FIELDS + ["tcp.seq_raw", "tcp.ack_raw", "tcp.len", "tcp.srcport", "tcp.dstport"])
        stack = "ip:tcp" if i == "wan" else "tr:llc:ip:tcp"
        assert rows and all(r["frame.protocols"].startswith(stack) for r in rows), (i, rows[0]["frame.protocols"])
        assert all(r["ip.checksum.status"] == "1" and r["tcp.checksum.status"] == "1" for r in rows), i
        # The datagrams' own ends on every hop (a router forwards them, the addresses
        # stay), TTL 64 leaving a, one less per router.
        mine = [f for f in fs if f["lane"].startswith(f"link.{i}.")]  # its lanes (a ring's: one per station)
        assert len(rows) == len(mine), i
        for r, f in zip(rows, mine):
            seg, ip = f["carried"]["pdu"], f["carried"]["ip"]
            a_to_b = ip["src"] == 0
            assert (r["ip.src"], r["ip.dst"]) == (("10.0.0.1", "10.0.0.2") if a_to_b else ("10.0.0.2", "10.0.0.1"))
            assert (int(r["tcp.srcport"]), int(r["tcp.dstport"])) == ((1024, 1025) if a_to_b else (1025, 1024))
            assert int(r["ip.ttl"]) == ip["ttl"]
            assert (int(r["tcp.seq_raw"]), int(r["tcp.ack_raw"])) == (seg.get("ns", 0), seg["nr"])
            assert int(r["tcp.len"]) in (0, 536)


def test_a_lone_datagram_layer_writes_opaque_records_under_linktype_user0(tshark: str, tmp_path: Path) -> None:
    window = (100.0, 101.0)
    files = captures(TANDEM, *window, tmp_path / "t.pcap")
    assert [(i, link) for _, i, link in files] == [("l1", "user0"), ("l2", "user0")]
    fs = flights(TANDEM, *window)["flights"]
    for path, i, _ in files:
        rows = fields(tshark, path, ["frame.len", "frame.protocols"], USER0_AS_DATA)
        mine = [f for f in fs if f["lane"].startswith(f"link.{i}.")]
        # Each record as long as the frame on the line: 1000 information bits + 48.
        assert [int(r["frame.len"]) for r in rows] == [(f["frame"]["bits"] + 7) // 8 for f in mine] != []
        assert all(r["frame.protocols"] == "user_dlt:data" for r in rows), rows[:2]
        assert expert(tshark, path, USER0_AS_DATA) == "", i
