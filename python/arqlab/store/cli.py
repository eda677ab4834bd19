"""``arqlab store ls | show KEY | export | gc``.

``ls``, ``show`` and ``export`` open the store read-only, so they work on a store on a
read-only filesystem; only ``gc`` writes.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from arqlab.errors import ArqlabError, printable
from arqlab.jsonout import dumps
from arqlab.store import Store
from arqlab.store.keys import DEFAULT_STORE_PATH

TITLE_WIDTH = 44


def register_cli(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``arqlab store ls | show KEY | export | gc``."""
    parser = subparsers.add_parser("store", help="inspect, export and clean the result store")
    parser.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or "
                        f"{DEFAULT_STORE_PATH})")
    sub = parser.add_subparsers(dest="store_command", metavar="COMMAND", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--store", metavar="PATH", default=argparse.SUPPRESS, help="result store")
    sub.add_parser("ls", parents=[common], help="list stored runs, sweeps and studies")
    show = sub.add_parser("show", parents=[common], help="show one scenario's resolved form and results")
    show.add_argument("key", metavar="KEY", help="a KEY of `store ls`: a sweep's name, a study's STUDY/FIGURE, "
                      "or a scenario hash (a unique prefix of ≥ 4 hex digits)")
    export = sub.add_parser("export", parents=[common], help="export a tidy table (Parquet and/or CSV)")
    export.add_argument("--parquet", metavar="FILE", help="write the table as Parquet to FILE")
    export.add_argument("--csv", metavar="FILE", help="write the table as CSV to FILE")
    sub.add_parser("gc", parents=[common], help="delete results of other arqlab versions and orphans")
    parser.set_defaults(handler=store_command)


def _fmt_time(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def _clip(text: str, width: int) -> str:
    text = printable(" ".join(text.split()))
    return text if len(text) <= width else text[: width - 1] + "…"


def _scenario_title(scenario: dict[str, Any] | None) -> str:
    if not scenario:
        return "?"
    title = scenario.get("title")
    if isinstance(title, str) and title.strip():
        return title
    protocol = scenario.get("protocol", {})
    return str(protocol.get("kind", "?")) if isinstance(protocol, dict) else "?"


def listing(store: Store) -> list[dict[str, Any]]:
    """One row per stored run (scenario not part of a sweep), sweep and study figure:
    kind, key (hash prefix or name), title, points, replications, date, version."""
    rows: list[dict[str, Any]] = []
    in_sweeps: set[str] = set()
    for s in store.sweeps():
        in_sweeps.update(str(p.get("hash", "")) for p in s.points)
        rows.append({
            "kind": "study" if s.study else "sweep",
            "key": f"{s.study}/{s.name}" if s.study else s.name,
            "title": s.title or s.name,
            "points": len(s.points),
            "replications": sum(int(p.get("n") or 0) for p in s.points),
            "date": s.created,
            "version": s.version,
        })
    runs: dict[tuple[str, str], dict[str, Any]] = {}
    for e in store.ls():
        if e["hash"] in in_sweeps:
            continue
        row = runs.get((e["hash"], e["version"]))
        if row is None:
            row = runs[(e["hash"], e["version"])] = {
                "kind": "run", "key": e["hash"][:12], "title": _scenario_title(store.scenario(e["hash"])),
                "points": 1, "replications": 0, "date": e["last"], "version": e["version"],
            }
        row["replications"] += e["replications"]
        row["date"] = max(row["date"], e["last"])
    rows.extend(runs.values())
    rows.sort(key=lambda r: r["date"])
    return rows


def _print_listing(store: Store) -> None:
    print(f"store {store.path} (arqlab {store.version})")
    rows = listing(store)
    if not rows:
        print("nothing stored yet")
        return
    table = [["KIND", "KEY", "TITLE", "POINTS", "REPLICATIONS", "DATE", ""]]
    for r in rows:
        mark = "" if r["version"] == store.version else f"(version {r['version']})"
        table.append([r["kind"], _clip(r["key"], 32), _clip(r["title"], TITLE_WIDTH), str(r["points"]),
                      str(r["replications"]), _fmt_time(r["date"]), mark])
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    right = {3, 4}
    for row in table:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        print(printable("  ".join(cells).rstrip()))


def _print_show(store: Store, key: str) -> None:
    from arqlab.results import summarize_point

    info = store.show(key)
    print(f"scenario {info['hash']}")
    print(dumps(info["scenario"], indent=2, sort_keys=True))
    for run in info["runs"]:
        records = run["records"]
        print(f"seed {run['seed']}, arqlab {run['version']}: {len(records)} replications")
        metrics = summarize_point(records, info["scenario"] or {})
        for direction, measures in metrics.items():
            for measure, s in measures.items():
                print(printable(f"  {direction:<8} {measure:<32} {s['mean']:.6g} ± {s['ci95_half_width']:.3g} (n={s['n']})"))


def _sweep_named(store: Store, key: str) -> Any:
    """The sweep or study figure that `store ls` lists under ``key`` (the newest), or None."""
    found = [s for s in store.sweeps() if key == (f"{s.study}/{s.name}" if s.study else s.name)]
    return max(found, key=lambda s: s.created) if found else None


def _print_sweep(sweep: Any) -> None:
    """A sweep (or study figure): what it is, then each point with its scenario hash."""
    kind = "study figure" if sweep.study else "sweep"
    print(printable(f"{kind} {sweep.study + '/' if sweep.study else ''}{sweep.name}: {sweep.title or sweep.name}"))
    print(printable(f"  {len(sweep.points)} points, arqlab {sweep.version}, {_fmt_time(sweep.created)}"))
    for p in sweep.points:
        given = p.get("params")
        params = ", ".join(f"{k}={v}" for k, v in (given if isinstance(given, dict) else {}).items())
        print(printable(f"  {str(p.get('hash', '?'))[:12]}  n={p.get('n', '?')}  {params}"))
    print("(arqlab store show HASH: a point's scenario and results)")


def store_command(args: argparse.Namespace) -> int:
    """Handler of ``arqlab store``."""
    command = args.store_command
    try:
        if command == "export" and args.parquet is None and args.csv is None:
            raise ArqlabError("give --parquet FILE and/or --csv FILE")
        with Store(args.store, readonly=command != "gc") as store:
            if command == "ls":
                _print_listing(store)
            elif command == "show":
                sweep = _sweep_named(store, args.key)
                if sweep is not None:
                    _print_sweep(sweep)
                else:
                    _print_show(store, args.key)
            elif command == "export":
                n = store.export(parquet=args.parquet, csv=args.csv)
                targets = " and ".join(str(p) for p in (args.parquet, args.csv) if p is not None)
                print(f"exported {n} rows to {targets}")
            elif command == "gc":
                counts = store.gc()
                print(
                    f"deleted {counts['replications']} replications, {counts['sweeps']} sweeps and "
                    f"{counts['claims']} claims of other versions, {counts['scenarios']} orphan scenarios"
                )
    except ArqlabError as exc:
        for line in str(exc).splitlines() or ["error"]:
            print(printable(f"arqlab store: error: {line}"), file=sys.stderr)
        return 2
    return 0
