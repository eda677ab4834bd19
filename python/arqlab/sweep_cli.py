"""``arqlab sweep``: the command line of :mod:`arqlab.sweep`.

Everything the user names (measures, ``--out``, ``--plot``, ``--dask``) is checked before
the sweep runs, so a typo costs a one-line message, not a finished sweep.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from arqlab import scenario as scenario_mod
from arqlab.errors import ArqlabError, LivelockError, ScenarioError, SimulationError, printable, shorten
from arqlab.jsonout import dumps
from arqlab.outputs import PLOT_FORMATS, replaced_atomically, writable_dir, writable_file, write_bytes
from arqlab.sweep import GridError, _has_signal, default_measures, plot_sweep, plot_title, sweep

if TYPE_CHECKING:
    import pandas as pd

    from arqlab.execution import Runner
    from arqlab.store import Store


def parse_value(text: str) -> Any:
    """A command-line value, parsed as ``arqlab run --set`` parses it: a TOML literal
    (``1e-5``, ``true``, ``"x"``, ``7``) or else the bare string."""

    return scenario_mod.parse_value(text.strip())


def parse_assignment(text: str, *, option: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise GridError([f"{option} {text!r}: expected KEY=VALUE"])
    return key.strip(), value


def parse_grid(items: Sequence[str]) -> dict[str, list[Any]]:
    """``["a.b=1,2", "c=x,y"]`` → ``{"a.b": [1, 2], "c": ["x", "y"]}`` (order kept)."""
    grid: dict[str, list[Any]] = {}
    problems: list[str] = []
    for item in items:
        try:
            key, raw = parse_assignment(item, option="--grid")
        except GridError as exc:
            problems.extend(exc.problems)
            continue
        values = [parse_value(v) for v in raw.split(",") if v.strip()]
        if key in grid:
            problems.append(f"--grid {key}: given twice")
        grid[key] = values
    if problems:
        raise GridError(problems)
    return grid


def register_cli(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``arqlab sweep``."""
    p = subparsers.add_parser("sweep", help="run a scenario over a parameter grid")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario TOML file")
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                   help="a dotted scenario key and its values (repeatable; first key is the plot's x axis)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="set",
                   help="override a scenario value for every point (repeatable)")
    p.add_argument("--seed", type=int, default=1, metavar="N",
                   help="master seed, the same for every point: common random numbers (default 1)")
    p.add_argument("--replications", type=int, metavar="N",
                   help="replications per point (default: the scenario's run.replications)")
    p.add_argument("--precision", type=float, metavar="X", help="relative 95%% half-width target, e.g. 0.025")
    p.add_argument("--workers", type=int, metavar="N", help="local worker processes (default: CPU count)")
    p.add_argument("--dask", metavar="tcp://HOST:PORT", help="run on this Dask distributed scheduler")
    p.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or "
                   "arqlab-results/store.sqlite)")
    p.add_argument("--no-store", action="store_true", help="do not read or write the result store")
    p.add_argument("--reuse-any-version", action="store_true",
                   help="reuse stored results of other arqlab versions")
    p.add_argument("--name", help="name of the sweep in the store and report")
    p.add_argument("--out", metavar="DIR", help="write DIR/sweep.csv and DIR/scenario.json")
    p.add_argument("--plot", metavar="FILE", help="write a plot; the extension picks the format (.png, .svg, .pdf)")
    p.add_argument("--logx", action=argparse.BooleanOptionalAction, default=None,
                   help="logarithmic x axis (default: for an error rate spanning more than a decade)")
    p.add_argument("--logy", action="store_true", help="logarithmic y axis")
    p.add_argument("--measure", action="append", default=[], metavar="NAME",
                   help="measure(s) to plot and print (default: throughput_efficiency)")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no summary line (the result table is still printed)")
    p.set_defaults(handler=sweep_command)


def _print_table(df: pd.DataFrame, keys: Sequence[str], measures: Sequence[str], out: Any) -> None:
    sub = df[df["measure"].isin(list(measures))]
    keep = {key for key, part in sub.groupby(["direction", "measure"], sort=False) if _has_signal(part["mean"])}
    if keep:
        sub = sub[[(d, m) in keep for d, m in zip(sub["direction"], sub["measure"])]]
    header = [*keys, "direction", "measure", "mean", "± ci95", "n"]
    lines = [header]
    for _, r in sub.iterrows():
        lines.append([*(str(r[k]) for k in keys), str(r["direction"]), str(r["measure"]),
                      f"{r['mean']:.6g}", f"{r['ci95_half_width']:.3g}", str(r["n"])])
    widths = [max(len(row[i]) for row in lines) for i in range(len(header))]
    for row in lines:
        print(printable("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()), file=out)


def report_error(command: str, exc: BaseException) -> None:
    """One line per problem on stderr."""
    problems = getattr(exc, "problems", None) or str(exc).splitlines() or [type(exc).__name__]
    for problem in problems:
        print(printable(f"arqlab {command}: error: {problem}"), file=sys.stderr)


def sweep_command(args: argparse.Namespace, runner: Runner | None = None) -> int:
    """Handler of ``arqlab sweep``."""
    try:
        grid = parse_grid(args.grid)
        if not grid:
            raise GridError(["no --grid given: add --grid KEY=V1,V2,..."])
        overrides = dict(parse_assignment(s, option="--set") for s in args.set)
        overrides = {k: parse_value(v) for k, v in overrides.items()}
        if args.dask and args.workers is not None:
            raise GridError(["--workers applies to the local pool; with --dask the cluster decides"])
        # Everything the user named is checked before the sweep runs: a measure of any
        # scope (flow, link, relay port, ring, transport, pooled) of the base scenario.
        if args.measure:
            from arqlab.results import catalogue

            known = list(dict.fromkeys(m for ms in catalogue(scenario_mod.load(args.scenario, overrides or None)).values()
                                       for m in ms))
            unknown = [m for m in args.measure if m not in known]
            if unknown:
                raise GridError([f"--measure {shorten(m)}: not a measure of this scenario (measures of its scopes: "
                                 f"{', '.join(known)})" for m in unknown])
        out = writable_dir(args.out, "--out") if args.out else None
        plot = writable_file(args.plot, "--plot", PLOT_FORMATS) if args.plot else None
        if args.dask:
            from arqlab.execution.backends import check_dask_address

            check_dask_address(args.dask)
        from arqlab.progress import Progress

        progress = Progress(quiet=args.quiet)
        store: Store | str | Literal[False] | None = False if args.no_store else args.store
        df = sweep(
            args.scenario,
            grid,
            seed=args.seed,
            replications=args.replications,
            precision=args.precision,
            executor=args.dask,
            workers=args.workers,
            store=store,
            progress=progress,
            name=args.name,
            overrides=overrides,
            reuse_any_version=args.reuse_any_version,
            runner=runner,
        )
        keys = list(grid)
        measures = args.measure or default_measures(df)
        absent = [m for m in measures if m not in set(df["measure"])]
        if absent:
            present = ", ".join(dict.fromkeys(df["measure"]))
            raise GridError([f"--measure {shorten(m)}: not a measure of any scope of this scenario (its measures: "
                             f"{present}); the computed points are kept in the store, if one is used" for m in absent])
        if out is not None:
            with replaced_atomically(out / "sweep.csv", "--out") as tmp:
                df.to_csv(tmp, index=False)
            try:
                base = scenario_mod.load(args.scenario, overrides or None)
            except ScenarioError:  # a base the grid completes: written as given
                base = scenario_mod.apply_overrides(scenario_mod.read(args.scenario)[0], overrides)
            write_bytes(out / "scenario.json", (dumps(base, indent=2, sort_keys=True) + "\n").encode(), "--out")
        if plot is not None:
            plot_sweep(df, keys, plot, measures=measures, title=plot_title(Path(args.scenario).stem, overrides),
                       logx=args.logx, logy=args.logy)
        _print_table(df, keys, measures, sys.stdout)
    except LivelockError as exc:
        report_error("sweep", exc)
        return 2
    except SimulationError as exc:
        report_error("sweep", exc)
        return 1
    except ArqlabError as exc:
        report_error("sweep", exc)
        return 2
    return 0
