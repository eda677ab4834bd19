"""pcap captures checked by Wireshark's own dissectors (tshark), field by field, against
arqlab's trace: frame type, N(S), N(R), P/F, address (command/response), length,
direction and FCS status, for every HDLC mode and both moduli and for the textbook
protocols. tshark is the Debian package `tshark` (.ci/run installs it)."""

from __future__ import annotations

import struct
import subprocess
from pathlib import Path
from typing import Any

import pytest

import arqlab
from arqlab import _core, cli, scenario
from arqlab.capture import flights

ABM = "scenarios/hdlc_abm_poisson.toml"
NRM = "scenarios/hdlc_nrm.toml"
ERRORS = {"link.bit_error_rate": 5e-5, "protocol.t1_s": 0.6}
CASES = {
    "abm-8": (ABM, {**ERRORS, "protocol.mode": "abm", "protocol.modulus": 8}),
    "abm-128-srej": (ABM, {**ERRORS, "protocol.modulus": 128, "protocol.reject": "srej"}),
    "arm-8": (ABM, {**ERRORS, "protocol.mode": "arm"}),
    "arm-128": (ABM, {**ERRORS, "protocol.mode": "arm", "protocol.modulus": 128}),
    "nrm-8": (NRM, {"link.bit_error_rate": 5e-5}),
    "nrm-128": (NRM, {"link.bit_error_rate": 5e-5, "protocol.modulus": 128, "protocol.window": 30}),
    "go-back-n-8": ("scenarios/go_back_n.toml", {"link.bit_error_rate": 5e-5}),
    "selective-repeat-128": ("scenarios/selective_repeat.toml", {"link.bit_error_rate": 5e-5}),
    "stop-and-wait": ("scenarios/stop_and_wait.toml", {"link.bit_error_rate": 5e-5}),
}
WINDOW = (20.0, 26.0)
S_BITS = {"RR": 0, "RNR": 1, "REJ": 2, "SREJ": 3}
FIELDS = ["frame.len", "sita.flags.flags", "sita.errors.crc", "lapb.address", "lapb.control.ftype",
          "lapb.control.s_ftype", "lapb.control.n_s", "lapb.control.n_r", "lapb.control.p", "lapb.control.f"]


def run_tshark(tshark: str, pcap: Path, fields: list[str], *options: str) -> list[list[str]]:
    cmd = [tshark, "-n", "-r", str(pcap), *options, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120).stdout
    return [line.split("\t") for line in out.splitlines()]


def truthy(v: str) -> bool:
    return v in ("1", "True", "true")


def lapb_address(sender: str, command: bool) -> int:
    return 0x01 if (sender == "A") == command else 0x03


def records(path: Path) -> list[bytes]:
    """The packets of a classic pcap file, as stored (pseudo-header included)."""
    data = path.read_bytes()
    out, i = [], 24
    while i < len(data):
        n = struct.unpack_from("<I", data, i + 8)[0]
        out.append(data[i + 16:i + 16 + n])
        i += 16 + n
    return out


def expected_command(kind: str, frame: dict[str, Any]) -> bool:
    return bool(frame["command"]) if kind == "hdlc" else frame["kind"] == "I"


@pytest.mark.parametrize("case", sorted(CASES))
def test_tshark_decodes_every_frame_as_the_trace_says(case: str, tshark: str, tmp_path: Path) -> None:
    source, overrides = CASES[case]
    pcap = tmp_path / f"{case}.pcap"
    paths = arqlab.pcap(source, *WINDOW, pcap, overrides=overrides)
    assert paths == [pcap]
    data = flights(source, *WINDOW, overrides=overrides)
    sc = data["scenario"]["protocol"]
    kind, modulus, mode = sc["kind"], int(sc["modulus"]), sc.get("mode", "abm")
    extended = modulus > 8
    want = data["flights"]
    rows = run_tshark(tshark, pcap, FIELDS)
    assert len(rows) == len(want) > 10
    assert any(f["in_error"] for f in want), "the case should include corrupted frames"
    assert {f["sender"] for f in want} == {"A", "B"}
    raw = records(pcap)
    for row, f, rec in zip(rows, want, raw):
        frame = f["frame"]
        length, rx, crc, address, ftype, s_ftype, n_s, n_r, p, pf_f = row
        header = 3 if extended else 2  # address + control octets
        # frame.len excludes the pseudo-header: address, control, information, FCS.
        assert int(length) == header + (frame["info_bits"] + 7) // 8 + 2
        # Direction: the capture is at station A; B's frames are received from the remote end.
        assert truthy(rx) == (f["sender"] == "B")
        assert truthy(crc) == (f["in_error"] and f["sender"] == "B")
        command = expected_command(kind, frame)
        expected_address = lapb_address(f["sender"], command) if (kind != "hdlc" or mode == "abm") else 0x01
        assert int(address, 16) == expected_address
        assert int(ftype, 16) == (0 if frame["kind"] == "I" else 1)
        if frame["kind"] != "I":
            assert int(s_ftype, 16) == S_BITS[frame["kind"]]
        if not extended:
            if frame["kind"] == "I":
                assert int(n_s) == frame["ns"]
            assert int(n_r) == frame["nr"]
            assert (truthy(p) or truthy(pf_f)) == frame["pf"]
        else:
            # Wireshark's LAPB dissector reads a one-octet control field only; the
            # extended (modulus 128) octets are checked from the captured bytes.
            c1, c2 = rec[6], rec[7]
            if frame["kind"] == "I":
                assert c1 >> 1 == frame["ns"]
            assert (c2 >> 1, bool(c2 & 1)) == (frame["nr"], frame["pf"])
    # FCS status by Wireshark's own CRC-16: the same frames, after the 5-octet SITA
    # pseudo-header, decoded by the MTP2 dissector, which checks a trailing FCS-16
    # (the ISO 3309 polynomial, as HDLC/LAPB).
    user = tmp_path / f"{case}-user.pcap"
    body = bytearray(pcap.read_bytes())
    body[20:24] = struct.pack("<I", 147)
    user.write_bytes(bytes(body))
    fcs = run_tshark(tshark, user, ["mtp2.fcs_16.status"],
                     "-o", 'uat:user_dlts:"User 0 (DLT=147)","mtp2","5","","0",""',
                     "-o", "mtp2.capture_contains_frame_check_sequence:TRUE")
    assert [r[0] for r in fcs] == ["0" if f["in_error"] else "1" for f in want]


def test_timestamps_are_simulated_start_of_transmission(tmp_path: Path) -> None:
    source, overrides = CASES["abm-8"]
    pcap = tmp_path / "t.pcap"
    arqlab.pcap(source, *WINDOW, pcap, overrides=overrides)
    data = pcap.read_bytes()
    assert struct.unpack_from("<IHH", data, 0) == (0xA1B23C4D, 2, 4)
    want = flights(source, *WINDOW, overrides=overrides)["flights"]
    i, times = 24, []
    while i < len(data):
        sec, ns, n, _ = struct.unpack_from("<IIII", data, i)
        times.append(sec + ns * 1e-9)
        i += 16 + n
    assert times == pytest.approx([f["sent_s"] for f in want], abs=1e-9)
    assert all(WINDOW[0] <= t <= WINDOW[1] for t in times)


def test_lapb_with_dir_link_type_writes_a_direction_octet(tmp_path: Path) -> None:
    source, overrides = CASES["abm-8"]
    pcap = tmp_path / "d.pcap"
    arqlab.pcap(source, *WINDOW, pcap, overrides=overrides, linktype="lapb_with_dir")
    assert struct.unpack_from("<I", pcap.read_bytes(), 20)[0] == 207
    want = flights(source, *WINDOW, overrides=overrides)["flights"]
    assert [r[0] for r in records(pcap)] == [1 if f["sender"] == "A" else 0 for f in want]


def test_capturing_leaves_the_run_unchanged(tmp_path: Path) -> None:
    """Frames are encoded from the trace after the run: the replication's trajectory
    fingerprint is the same before and after a capture of it."""
    source, overrides = CASES["abm-8"]
    resolved = scenario.canonical_json(scenario.load(source, {**overrides, "run.duration_s": 60.0, "run.warmup_s": 10.0}))
    before = _core.run_replication(resolved, 1, 0)["fingerprint"]
    arqlab.pcap(source, *WINDOW, tmp_path / "x.pcap", overrides={**overrides, "run.duration_s": 60.0, "run.warmup_s": 10.0})
    assert _core.run_replication(resolved, 1, 0)["fingerprint"] == before


@pytest.mark.parametrize("argv, message", [
    (["--from", "5", "--to", "4"], "before --from"),
    (["--from", "0", "--to", "nan"], "expected finite times"),
    (["--from", "1", "--to", "2", "--linktype", "sita", "--set", "protocol.modulus=256", "--set",
      "protocol.window=7"], "modulus ≤ 128"),
])
def test_bad_capture_requests_exit_2_with_the_reason(argv: list[str], message: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bad.pcap"
    code = cli.main(["trace", "scenarios/go_back_n.toml", "--pcap", str(out), *argv])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not out.exists()
