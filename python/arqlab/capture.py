"""Frames of a window as real bytes: pcap captures that Wireshark opens.

    arqlab trace SCENARIO --from 10 --to 11 --pcap run.pcap      # writes run.pcap
    arqlab.pcap("scenarios/hdlc_abm_poisson.toml", 10, 11, "run.pcap")

Every frame sent in the window is written as an HDLC/LAPB frame (address, control field
of modulus 8 or 128, an information field of the message's length rounded up to octets,
FCS-16), stamped with its start of transmission in simulated time (nanoseconds since
the start of the run), with its direction; a frame the channel corrupted carries a
failing FCS (and, under the SITA link type, the receive CRC-error flag). The encoders
live with the protocols (`protocol/*/wire.rs`); the capture is made from the trace after
the run, so it never changes a run's results. See docs/guide/traces.md.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Mapping

from . import _core, scenario
from .errors import ScenarioError, core_failure
from .limits import index_problem
from .outputs import write_bytes

#: Link types a capture can be written under (see docs/guide/traces.md).
LINKTYPES = ("sita", "lapb_with_dir")
DEFAULT_LIMIT = 200_000


def check_window(start_s: float, end_s: float) -> list[str]:
    """Problems with a time window, one line each."""
    problems = []
    if not (math.isfinite(start_s) and math.isfinite(end_s)):
        problems.append(f"window [{start_s}, {end_s}]: expected finite times in seconds")
    elif not (start_s >= 0 and end_s >= 0):
        problems.append(f"window [{start_s}, {end_s}]: expected times ≥ 0 s")
    elif end_s < start_s:
        problems.append(f"--to {end_s} is before --from {start_s}: expected T0 ≤ T1")
    return problems


def flights(
    source: scenario.Source,
    start_s: float,
    end_s: float,
    *,
    seed: int = 1,
    replication: int = 0,
    overrides: Mapping[str, Any] | None = None,
    limit: int = DEFAULT_LIMIT,
) -> dict[str, Any]:
    """The frames sent in [start_s, end_s] with their arrival and FCS outcome, and the
    timer expiries: {"flights": [...], "expiries": [...], "from_s", "to_s"}, plus the
    resolved scenario under "scenario"."""
    problems = check_window(start_s, end_s) + index_problems(seed, replication)
    if problems:
        raise ScenarioError(problems)
    resolved = scenario.load(source, overrides)
    try:
        text = _core.flights(scenario.canonical_json(resolved), int(seed), int(replication),
                             float(start_s), float(end_s), int(limit))
    except ValueError as e:
        raise ScenarioError(list(e.args[0])) from None
    except RuntimeError as e:
        raise core_failure(e) from None
    data: dict[str, Any] = json.loads(text)
    data["scenario"] = resolved
    return data


def index_problems(seed: Any, replication: Any) -> list[str]:
    """The seed and replication number checked as `run` checks them: whole numbers in
    [0, 2^63 - 1] (the core's and the store's range)."""
    return [p for p in (index_problem(seed, "seed"), index_problem(replication, "replication")) if p]


def capture_paths(path: str | Path, names: list[str]) -> list[Path]:
    """Where each interface's capture goes: `path` itself for a single interface,
    `stem-NAME.suffix` beside it for several."""
    p = Path(path)
    if len(names) == 1:
        return [p]
    return [p.with_name(f"{p.stem}-{n}{p.suffix or '.pcap'}") for n in names]


def pcap(source: scenario.Source, start_s: float, end_s: float, path: str | Path, **options: Any) -> list[Path]:
    """Writes the frames sent in [start_s, end_s] of replication `replication` as pcap,
    one file per observed interface (the pair form: the line at station A; an explicit
    topology: one per medium), and returns the paths written. Options as
    :func:`captures` (`seed`, `replication`, `overrides`, `linktype`, `limit`), which
    also says each file's interface and link type."""
    return [p for p, _, _ in captures(source, start_s, end_s, path, **options)]


def captures(
    source: scenario.Source,
    start_s: float,
    end_s: float,
    path: str | Path,
    *,
    seed: int = 1,
    replication: int = 0,
    overrides: Mapping[str, Any] | None = None,
    linktype: str = "sita",
    limit: int = DEFAULT_LIMIT,
) -> list[tuple[Path, str, str]]:
    """As :func:`pcap`, returning (path, interface, link type) per file: `linktype`
    applies to HDLC-family frames; a token ring's are written under IEEE 802.5, TPDUs
    under Ethernet, HF D_PDUs under STANAG 5066."""
    problems = check_window(start_s, end_s) + index_problems(seed, replication)
    if linktype not in LINKTYPES:
        problems.append(f"linktype = {linktype!r}: expected one of {', '.join(LINKTYPES)}")
    if problems:
        raise ScenarioError(problems)
    resolved = scenario.load(source, overrides)
    try:
        files = _core.pcap(scenario.canonical_json(resolved), int(seed), int(replication),
                           float(start_s), float(end_s), int(limit), linktype)
    except ValueError as e:
        raise ScenarioError(list(e.args[0])) from None
    except RuntimeError as e:
        raise core_failure(e) from None
    paths = capture_paths(path, [name for name, _, _ in files])
    for p, (_, _, data) in zip(paths, files):
        write_bytes(p, data, "--pcap")
    return [(p, name, link) for p, (name, link, _) in zip(paths, files)]


#: pcap link types arqlab writes, by number: the name the capture is announced with.
LINKTYPE_NAMES = {196: "sita", 207: "lapb_with_dir", 1: "ethernet", 6: "ieee802_5", 237: "stanag_5066_d_pdu", 228: "ipv4", 147: "user0"}


def linktype_of(path: str | Path) -> str:
    """The link type in a pcap file's header, as ``name (number)``."""
    with open(path, "rb") as fh:
        header = fh.read(24)
    number = int.from_bytes(header[20:24], "little") if len(header) == 24 else -1
    return f"{LINKTYPE_NAMES.get(number, 'unknown')} ({number})"
