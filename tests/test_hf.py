"""HF radio ARQ (Johnson) at the user boundary: the D_PDU capture checked by Wireshark's
s5066dts dissector frame by frame against the trace, the ladder diagram, the example
scenarios through `arqlab run`, and bad HF input exiting 2 with the field named."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import arqlab
from arqlab.capture import flights
from test_capture import run_tshark  # tshark: the shared fixture (conftest.py)

PAIR = "scenarios/johnson/pair/5066_stable_5.toml"
WINDOW = (0.0, 120.0)
TYPES = {"DATA": 0, "ACK": 1, "REQ": 6, "REL": 6}


def test_tshark_decodes_every_d_pdu_as_the_trace_says(tshark: str, tmp_path: Path) -> None:
    pcap = tmp_path / "hf.pcap"
    assert arqlab.pcap(PAIR, *WINDOW, pcap) == [pcap]
    want = flights(PAIR, *WINDOW)["flights"]
    fields = ["s5066dts.type", "s5066dts.src_addr", "s5066dts.dest_addr", "s5066dts.eot",
              "s5066dts.data_only.transmit_sequence_number", "s5066dts.ack_only.rx_lwe", "s5066dts.header_crc"]
    rows = run_tshark(tshark, pcap, fields)
    assert len(rows) == len(want) > 10
    assert {f["frame"]["kind"] for f in want} >= {"DATA", "ACK"}
    assert any(f["in_error"] for f in want), "a 5 dB channel corrupts some packets"
    verbose = subprocess.run([tshark, "-n", "-r", str(pcap), "-V"], capture_output=True, text=True, check=True, timeout=120).stdout
    crc_status = [line.strip().endswith("(Correct)") for line in verbose.splitlines() if "CRC on header" in line]
    for row, f, ok in zip(rows, want, crc_status):
        frame = f["frame"]
        ty, src, dst, eot, fsn, lwe, _ = row
        assert int(ty) == TYPES[frame["kind"]]
        a, b = ("1", "2") if f["sender"] == "A" else ("2", "1")  # -T fields: raw address values
        assert (src, dst) == (a, b)
        assert int(eot) == (0 if frame["pf"] else 1), "EOT 0 marks the last D_PDU of a transmission"
        if frame["kind"] == "DATA":
            assert int(fsn) == frame["ns"]
        if frame["kind"] == "ACK":
            assert int(lwe) == frame["nr"]
        assert ok == (not f["in_error"]), "a corrupted packet fails its header CRC"
    assert len(crc_status) == len(want)


def test_the_ladder_shows_the_hf_packets(tmp_path: Path) -> None:
    out = tmp_path / "ladder.svg"
    p = subprocess.run([sys.executable, "-m", "arqlab.cli", "ladder", PAIR, "--from", "0", "--to", "30", "--out", str(out)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert all(f"DATA({n}" in text for n in range(10)), "every data packet of the window is drawn with its FSN"


def test_johnson_scenarios_run_with_arqlab_run() -> None:
    p = subprocess.run([sys.executable, "-m", "arqlab.cli", "run", "scenarios/johnson/hdl_stable_5.toml",
                        "--set", "run.duration_s=600", "--set", "run.replications=2"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "throughput" in p.stdout


@pytest.mark.parametrize("setting, message", [
    ("stack.arq.variant=hdl-2", 'stack.arq.variant = "hdl-2": expected one of "5066"'),
    ("stack.arq.modem=mil-std-188-110b", "an integrated modem needs a code-combining table"),
    ("stack.arq.segment_bits=0", "stack.arq.segment_bits = 0: expected a whole number in [8, 8184]"),
    ("stack.arq.rate_adaptation=sometimes", 'stack.arq.rate_adaptation = "sometimes": expected one of "burst", "per_packet"'),
    ("stack.arq.snr_step_up_db=-1", "stack.arq.snr_step_up_db = -1: expected a number in [0, 20]"),
])
def test_bad_hf_input_exits_2_naming_the_field(setting: str, message: str) -> None:
    p = subprocess.run([sys.executable, "-m", "arqlab.cli", "run", "scenarios/johnson/hdl_stable_5.toml", "--set", setting],
                       capture_output=True, text=True)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert message in p.stderr


JOHNSON_HDL = "scenarios/johnson/hdl_stable_5.toml"


@pytest.mark.parametrize("settings, message", [
    (["medium[0].reciprocal=yes"], 'medium[0].reciprocal = "yes": expected true or false'),
    (["medium[0].reciprocal=true", "medium[0].reverse.snr_db=7"],
     "medium[0].reverse.snr_db = 7: expected 5, as medium[0].forward.snr_db: reciprocal = true makes both lanes one channel"),
    (["medium[0].reciprocal=true", "medium[0].forward.variation_db=2"],
     "medium[0].reverse.variation_db = 4: expected 2, as medium[0].forward.variation_db"),
    (["medium[0].reciprocal=true", "medium[0].reverse.error_model=bit"],
     "medium[0].reciprocal = true: expected false: a reciprocal channel shares one hf channel's fading between the two "
     "lanes, and medium[0].reverse is not error_model = \"hf\""),
    (["stack.arq.ack_rate=lowest"], 'stack.arq.ack_rate = "lowest": expected "data": an integrated modem sends its control packets'),
    (["stack.arq.ack_rate=fast"], 'stack.arq.ack_rate = "fast": expected one of "data", "lowest"'),
])
def test_bad_reciprocal_or_ack_rate_input_exits_2_naming_the_field(settings: list[str], message: str) -> None:
    args = [a for s in settings for a in ("--set", s)]
    p = subprocess.run([sys.executable, "-m", "arqlab.cli", "check", JOHNSON_HDL, *args], capture_output=True, text=True)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "Traceback" not in p.stderr
    assert message in p.stderr, p.stderr


def test_a_reciprocal_channel_runs_deterministically_and_differs_from_independent_fading() -> None:
    """Same scenario and seed, same results (every measure and the event count; the
    wall-clock times differ); the shared fading process changes them."""
    def run(*settings: str) -> tuple[object, object]:
        args = [a for s in ("run.duration_s=900", "run.replications=2", *settings) for a in ("--set", s)]
        p = subprocess.run([sys.executable, "-m", "arqlab.cli", "run", JOHNSON_HDL, *args, "--json", "--no-store"],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        out = json.loads(p.stdout)
        return out["metrics"], out["events"]

    shared = run("medium[0].reciprocal=true")
    assert shared == run("medium[0].reciprocal=true")
    assert shared != run()
