"""Frame-level traces: every frame sent and received, and every timer expiry, in a time
window of one replication.

    arqlab trace SCENARIO --from 790 --to 800 [--replication 8] [--seed 1] [--csv FILE]
                          [--pcap FILE [--linktype sita|lapb_with_dir]]

The trace is the same trajectory as replication N of `arqlab run` with the same
scenario and seed (up to the window's end, where the traced run stops), so a
replication whose numbers look odd can be opened frame by frame. Its main use is to
explain a result: why did this replication's transfer time jump?
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import TYPE_CHECKING, Any, Mapping

from . import _core, scenario
from .errors import ScenarioError, core_failure, printable
from .interrupt import call_interruptibly
from .limits import index_problem
from .outputs import writable_file

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_LIMIT = 200_000
COLUMNS = ["time_s", "station", "event", "kind", "ns", "nr", "pf", "command", "bits", "message", "queued", "unacknowledged"]


def trace(
    source: scenario.Source,
    *,
    start_s: float,
    end_s: float,
    seed: int = 1,
    replication: int = 0,
    overrides: Mapping[str, Any] | None = None,
    limit: int = DEFAULT_LIMIT,
) -> pd.DataFrame:
    """The trace of replication `replication` between `start_s` and `end_s` simulated
    seconds, one row per event (columns `COLUMNS`, and `lane` after `event` in an
    explicit topology). `pf` is the P bit in a command and
    the F bit in a response. At most `limit` rows; `df.attrs["dropped"]` counts the rest."""
    import pandas as pd

    problems = [p for p in (index_problem(seed, "seed"), index_problem(replication, "replication")) if p]
    if not (math.isfinite(start_s) and math.isfinite(end_s)):
        problems.append(f"trace window [{start_s}, {end_s}]: expected finite times in seconds")
    elif not 0 <= start_s <= end_s:
        problems.append(f"trace window [{start_s}, {end_s}]: expected 0 ≤ start ≤ end")
    if limit < 1:
        problems.append(f"limit = {limit}: expected an integer ≥ 1")
    if problems:
        raise ScenarioError(problems)
    resolved = scenario.load(source, overrides)
    try:
        text = call_interruptibly(_core.trace, scenario.canonical_json(resolved), int(seed), int(replication),
                                  float(start_s), float(end_s), int(limit))
    except RuntimeError as e:
        raise core_failure(e) from None
    data = json.loads(text)
    rows = []
    for r in data["records"]:
        f = r.get("frame") or {}
        rows.append({
            "time_s": r["time_s"], "station": r["station"], "event": r["event"],
            "kind": f.get("kind"), "ns": f.get("ns"), "nr": f.get("nr"), "pf": f.get("pf"),
            "command": f.get("command"), "bits": f.get("bits"), "message": f.get("message"),
            "queued": r["queued"], "unacknowledged": r["unacknowledged"],
        })
    explicit = "flow" in resolved  # explicit topologies name each frame event's lane
    if explicit:
        for row, r in zip(rows, data["records"]):
            row["lane"] = r.get("lane")
    df = pd.DataFrame(rows, columns=COLUMNS[:3] + ["lane"] + COLUMNS[3:] if explicit else COLUMNS)
    for col in ("ns", "nr", "bits", "message"):
        df[col] = df[col].astype("Int64")
    df.attrs["dropped"] = int(data["dropped"])
    return df


def format_line(row: Mapping[str, Any]) -> str:
    """One event as a line: time, station, event, then the frame as HDLC writes it
    (`I ns=3 nr=5 P`, `REJ nr=2 F`)."""
    import pandas as pd

    frame = ""
    if isinstance(row.get("kind"), str):
        frame = str(row["kind"])
        if not pd.isna(row["ns"]):
            frame += f" ns={row['ns']}"
        frame += f" nr={row['nr']}"
        if row["pf"]:
            frame += " P" if row["command"] else " F"
        if not pd.isna(row["message"]):
            frame += f" msg={row['message']}"
    lane = row.get("lane")
    where = f"  {lane}" if isinstance(lane, str) else ""  # explicit topologies: the lane
    return (f"{row['time_s']:14.6f}  {row['station']}{where}  {row['event']:<16}  {frame:<30}  "
            f"queued={row['queued']} unacked={row['unacknowledged']}")


def cmd_trace(args: argparse.Namespace) -> int:
    from .cli import parse_sets

    if args.csv:
        writable_file(args.csv, "--csv")  # before the run, not after
    if args.pcap:
        from .capture import captures, linktype_of

        files = captures(args.scenario, args.start, args.end, args.pcap, seed=args.seed, replication=args.replication,
                         overrides=parse_sets(args.sets), linktype=args.linktype, limit=args.limit)
        for p, interface, link in files:
            print(printable(f"capture written to {p} (interface {interface}, link type {linktype_of(p)})"), file=sys.stderr)
    df = trace(args.scenario, start_s=args.start, end_s=args.end, seed=args.seed, replication=args.replication,
               overrides=parse_sets(args.sets), limit=args.limit)
    if args.csv:
        from .outputs import replaced_atomically

        with replaced_atomically(args.csv, "--csv") as tmp:
            df.to_csv(tmp, index=False)
        print(printable(f"{len(df)} events written to {args.csv}"), file=sys.stderr)
    elif not args.pcap:
        print(f"# {'time_s':>12}  station  event  frame  queued unacked=queued+outstanding"
              f" (seed {args.seed}, replication {args.replication})")
        for row in df.to_dict("records"):
            print(printable(format_line(row)))  # station names are the user's
    if df.attrs["dropped"]:
        print(f"arqlab: warning: {df.attrs['dropped']} more events in the window were not kept (--limit {args.limit})",
              file=sys.stderr)
    return 0


def register_cli(sub: Any) -> None:
    from .cli import add_scenario_args

    p = sub.add_parser("trace", help="every frame sent and received in a time window of one replication")
    add_scenario_args(p)
    p.add_argument("--from", dest="start", type=float, required=True, metavar="SECONDS", help="window start (simulated s)")
    p.add_argument("--to", dest="end", type=float, required=True, metavar="SECONDS", help="window end (simulated s)")
    p.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    p.add_argument("--replication", type=int, default=0, help="replication number (default 0)")
    p.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help=f"at most this many events (default {DEFAULT_LIMIT})")
    p.add_argument("--csv", metavar="FILE", help="write the events as CSV instead of printing them")
    p.add_argument("--pcap", metavar="FILE", help="write the frames sent in the window as a pcap capture (Wireshark)")
    p.add_argument("--linktype", choices=["sita", "lapb_with_dir"], default="sita",
                   help="pcap link type of HDLC/LAPB frames (default sita: the one Wireshark reads as LAPB with a "
                        "direction); TP4 TPDUs always go in Ethernet, LLC2 PDUs in IEEE 802.5 (LINKTYPE 6)")
    p.set_defaults(handler=cmd_trace)
