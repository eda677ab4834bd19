"""Ladder (time-sequence) diagrams of a window of one replication.

    arqlab ladder SCENARIO --from 10 --to 10.6 --out rej.svg        # or .png
    fig = arqlab.ladder("scenarios/hdlc_abm_poisson.toml", 10, 10.6)

One vertical time axis per station (A and B in the pair form; in an explicit topology
each node and relay the window's frames touch, by name), time running downward as in
the papers. Each frame (each hop: a relay's forwarded copy is a frame of its own) is an
arrow from its start of transmission at the sender to the end of its reception at the
receiver, over a shaded band whose height at each end is the frame's transmission
time; its label is the standard's notation (I(3,P), RR(4,F), REJ(2), SREJ(3)). A frame
the channel corrupted ends in a cross. A retransmission-timer expiry is marked on its
station's axis, with a bracket back to when that timer was started (expiry minus the
configured timeout). Readable up to about 60 frames; wider windows are refused.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Mapping

from . import scenario
from .capture import DEFAULT_LIMIT, check_window, flights, index_problems
from .errors import ScenarioError, printable

#: At most this many frames in one diagram (a clear error beyond).
MAX_FRAMES = 60
#: The pair form's two stations; an explicit topology has one axis per node and relay,
#: named as in the scenario (nodes first, in file order).
STATIONS = ("A", "B")
FORMATS = (".svg", ".png")


def label(frame: Mapping[str, Any]) -> str:
    """A frame in the standard's notation: I(N(S)[,P|F]) or KIND(N(R)[,P|F])."""
    kind = frame["kind"]
    if kind in TPDUS:
        return tpdu_label(frame)
    if kind in X25_PACKETS:
        return x25_label(frame)
    if kind in D_PDUS:
        return d_pdu_label(frame)
    number = frame["ns"] if kind == "I" else frame["nr"]
    bit = (",P" if frame["command"] else ",F") if frame["pf"] else ""
    return f"{kind}({number}{bit})"


#: HF ARQ packets as STANAG 5066 D_PDUs (hf_arq scenarios).
D_PDUS = ("DATA", "ACK", "REQ", "REL")


def d_pdu_label(frame: Mapping[str, Any]) -> str:
    """DATA(TX FSN), ACK(RX LWE), REQ, REL; ",EOT" marks the last of a transmission."""
    kind, eot = frame["kind"], ",EOT" if frame["pf"] else ""
    if kind == "DATA":
        return f"DATA({frame['ns']}{eot})"
    if kind == "ACK":
        return f"ACK({frame['nr']}{eot})"
    return f"{kind}({eot[1:]})" if eot else kind


#: ISO 8073 data-transfer TPDUs (TP4 scenarios).
TPDUS = ("DT", "AK", "ED", "EA")


#: X.25 packet-level packets of x25 scenarios (their RR(P(R)) reads as HDLC's RR(N(R))).
X25_PACKETS = ("DATA", "CALL", "CALL-ACC", "CLEAR", "CLEAR-CONF")


def x25_label(frame: Mapping[str, Any]) -> str:
    """An X.25 packet: DATA(P(S),P(R)[,M]); call set-up and clearing by name."""
    kind = frame["kind"]
    if kind == "DATA":
        return f"DATA({frame['ns']},{frame['nr']}{',M' if frame['pf'] else ''})"
    return str(kind)


def tpdu_label(frame: Mapping[str, Any]) -> str:
    """A TPDU in ISO 8073 terms: DT(TPDU-NR[,EOT]), ED(n), AK(YR-TU-NR[,+selectively
    acknowledged TPDU-NR]), EA(n)."""
    kind = frame["kind"]
    if kind in ("DT", "ED"):
        return f"{kind}({frame['ns']}{',EOT' if kind == 'DT' and frame['pf'] else ''})"
    if kind == "AK" and frame.get("ns") is not None:
        return f"AK({frame['nr']},+{frame['ns']})"
    return f"{kind}({frame['nr']})"


def timer_s(resolved: Mapping[str, Any], station: str | None = None) -> tuple[str, float | None]:
    """The retransmission timer's name and value in the scenario: its protocol's, or in
    an explicit topology the top layer of `station`'s stack (else of the first stack)."""
    if "protocol" in resolved:
        p = resolved["protocol"]
    else:
        stacks = resolved["stack"]
        name = next((n["stack"] for n in resolved["node"] if n["name"] == station), next(iter(stacks)))
        p = stacks[name]["layers"][0]
    if p["kind"] == "hdlc":
        return "T1", float(p["t1_s"])
    if p["kind"] == "tp4":
        return "retransmission timer", float(p["retransmission_timer_s"])
    return "timeout", float(p["timeout_s"]) if "timeout_s" in p else None


def ladder(
    source: scenario.Source,
    start: float,
    end: float,
    ax: Any = None,
    *,
    seed: int = 1,
    replication: int = 0,
    overrides: Mapping[str, Any] | None = None,
    max_frames: int = MAX_FRAMES,
) -> Any:
    """The ladder diagram of [start, end] simulated seconds of replication `replication`,
    drawn on `ax` (a new figure if None); returns the matplotlib Figure. Every artist
    carries a gid: `frame-N`, `label-N`, `cross-N`, `expiry-N`, `timer-N`."""
    problems = check_window(start, end)
    if not problems and end == start:
        problems.append(f"window [{start}, {end}] is empty: expected T0 < T1")
    problems += index_problems(seed, replication)
    if isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 1:
        problems.append(f"max_frames = {max_frames!r}: expected a whole number >= 1")
    if problems:
        raise ScenarioError(problems)
    data = flights(source, start, end, seed=seed, replication=replication, overrides=overrides,
                   limit=DEFAULT_LIMIT)
    frames, expiries = data["flights"], data["expiries"]
    if not frames:
        raise ScenarioError([f"no frame is sent between {start} s and {end} s: widen the window"])
    if len(frames) > max_frames:
        # Suggest a window with about max_frames frames from the same start.
        suggestion = frames[max_frames - 1]["sent_s"]
        raise ScenarioError([
            f"{len(frames)} frames are sent between {start} s and {end} s; a ladder is readable up to "
            f"{max_frames}: narrow the window (e.g. --from {start:g} --to {suggestion:.6g})"])
    explicit = "flow" in data["scenario"]  # the pair form keeps its stations A and B
    return draw(frames, expiries, data["scenario"], start, end, ax, stations=data["stations"] if explicit else None)


def draw(frames: list[dict[str, Any]], expiries: list[dict[str, Any]], resolved: Mapping[str, Any],
         start: float, end: float, ax: Any = None, *, stations: list[str] | None = None) -> Any:
    from matplotlib.patches import FancyArrowPatch

    names = list(stations or STATIONS)
    # Only the stations the window's frames and expiries touch get an axis.
    used = {f["sender"] for f in frames} | {f.get("receiver") for f in frames} | {e["station"] for e in expiries}
    names = [n for n in names if n in used] if len(names) > 2 else names
    pos = {n: float(i) for i, n in enumerate(names)}

    if ax is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(max(6.4, 2.2 * len(names)), max(5.0, 0.22 * len(frames) + 2.5)))
        ax = fig.add_subplot(1, 1, 1)
    fig = ax.figure
    last = max([f["arrived_s"] for f in frames] + [end])
    for x in pos.values():
        ax.axvline(x, color="black", linewidth=1.2)
    for i, f in enumerate(frames):
        xs = pos[f["sender"]]
        xr = pos[f["receiver"]] if f.get("receiver") in pos else 1.0 - xs
        width = f["tx_end_s"] - f["sent_s"]
        kind = f["frame"]["kind"]
        color = "tab:red" if f["in_error"] else (
            "tab:blue" if kind in ("I", "DT", "DATA") else "tab:purple" if kind in ("ED", "EA") else "tab:green")
        ax.fill([xs, xr, xr, xs], [f["sent_s"], f["arrived_s"] - width, f["arrived_s"], f["tx_end_s"]],
                color=color, alpha=0.08, linewidth=0, gid=f"band-{i}")
        ax.add_patch(FancyArrowPatch((xs, f["sent_s"]), (xr, f["arrived_s"]), gid=f"frame-{i}",
                                     arrowstyle="-" if f["in_error"] else "-|>", mutation_scale=10, color=color,
                                     linewidth=1.0, shrinkA=0, shrinkB=0))
        if f["in_error"]:
            ax.plot([xr], [f["arrived_s"]], marker="x", markersize=9, markeredgewidth=2, color="tab:red",
                    gid=f"cross-{i}")
        # The label sits on the arrow a fifth of the way from the sender.
        lx = xs + 0.2 * (xr - xs)
        ly = f["sent_s"] + 0.2 * (f["arrived_s"] - f["sent_s"])
        ax.text(lx, ly, label(f["frame"]), fontsize=7, ha="center", va="bottom", color=color, gid=f"label-{i}",
                bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
    for i, e in enumerate(expiries):
        name, value = timer_s(resolved, e["station"])
        x = pos[e["station"]]
        side = -1 if x == 0.0 else 1
        ax.plot([x], [e["time_s"]], marker="o", markersize=6, color="tab:orange", gid=f"expiry-{i}")
        ax.text(x + side * 0.04, e["time_s"], f"{name} expires", fontsize=7, color="tab:orange",
                ha="right" if side < 0 else "left", va="center")
        if value is not None:
            t0 = max(e["time_s"] - value, start)
            ax.plot([x + side * 0.025] * 2, [t0, e["time_s"]], color="tab:orange", linewidth=2, alpha=0.7,
                    gid=f"timer-{i}")
    ax.set_xlim(-0.35, len(names) - 1 + 0.35)
    ax.set_ylim(last + 0.02 * (last - start), start)
    ax.xaxis.tick_top()
    ax.set_xticks(list(pos.values()), [f"station {n}" if stations is None else n for n in names], fontweight="bold")
    ax.set_ylabel("time (s)")
    for spine in ("top", "right", "bottom"):
        ax.spines[spine].set_visible(False)
    title = resolved.get("title") or scenario.describe(resolved)
    ax.set_title(f"{title}: {len(frames)} frames, {start:g}–{end:g} s", fontsize=9, pad=22)
    return fig


def save(fig: Any, out: str | Path) -> Path:
    """Writes `fig` as SVG or PNG (by suffix), with no timestamp so the bytes are
    reproducible."""
    p = Path(out)
    if p.suffix.lower() not in FORMATS:
        raise ScenarioError([f"--out {out}: expected a .svg or .png file name"])
    from .outputs import replaced_atomically

    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScenarioError([f"--out {out}: cannot write: {e.strerror or e}"]) from None
    meta = {"Date": None} if p.suffix.lower() == ".svg" else {}
    with replaced_atomically(p, "--out") as tmp:
        fig.savefig(tmp, bbox_inches="tight", metadata=meta, dpi=150)
    return p


def cmd_ladder(args: argparse.Namespace) -> int:
    from .cli import parse_sets

    if Path(args.out).suffix.lower() not in FORMATS:
        raise ScenarioError([f"--out {args.out}: expected a .svg or .png file name"])
    fig = ladder(args.scenario, args.start, args.end, seed=args.seed, replication=args.replication,
                 overrides=parse_sets(args.sets), max_frames=args.max_frames)
    p = save(fig, args.out)
    print(printable(f"ladder diagram written to {p}"), file=sys.stderr)
    return 0


def register_cli(sub: Any) -> None:
    from .cli import add_scenario_args

    p = sub.add_parser("ladder", help="a time-sequence (ladder) diagram of a window of one replication")
    add_scenario_args(p)
    p.add_argument("--from", dest="start", type=float, required=True, metavar="SECONDS", help="window start (simulated s)")
    p.add_argument("--to", dest="end", type=float, required=True, metavar="SECONDS", help="window end (simulated s)")
    p.add_argument("--out", required=True, metavar="FILE.svg|FILE.png", help="where to write the diagram")
    p.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    p.add_argument("--replication", type=int, default=0, help="replication number (default 0)")
    p.add_argument("--max-frames", type=int, default=MAX_FRAMES,
                   help=f"refuse windows with more frames than this (default {MAX_FRAMES})")
    p.set_defaults(handler=cmd_ladder)
