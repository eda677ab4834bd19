"""``arqlab design SCENARIO DESIGN.toml``: run a factorial design and print its effects.

The TOML form is :mod:`arqlab.design.spec`. Bad input raises :class:`DesignError`, which
the ``arqlab`` entry point reports one line per problem with exit status 2.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any, Literal

from arqlab.design.algebra import Design, DesignError
from arqlab.errors import ArqlabError, printable

if TYPE_CHECKING:
    import pandas as pd

    from arqlab.store import Store


def register_cli(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser("design", help="run a 2^k r or 2^(k-p) factorial design and print its effects")
    p.add_argument("scenario", metavar="SCENARIO", help="the base scenario (TOML)")
    p.add_argument("design", metavar="DESIGN", help="the design (TOML: factors, generators, response)")
    p.add_argument("--set", action="append", default=[], dest="sets", metavar="KEY=VALUE",
                   help="override a base-scenario value for every run (repeatable)")
    p.add_argument("--replications", type=int, metavar="N", help="replications per run (overrides the design file)")
    p.add_argument("--seed", type=int, metavar="N", help="master seed, the same for every run (default 1)")
    p.add_argument("--log", action="store_true", help="analyse log10 of the response (multiplicative model)")
    p.add_argument("--plan", action="store_true", help="print the design (sign table, aliases) and stop")
    p.add_argument("--max-runs", type=int, metavar="N",
                   help="allow designs of up to N runs (default: the file's max_runs, else 4096)")
    p.add_argument("--name", help="name of the design in the store and report")
    p.add_argument("--out", metavar="DIR", help="write DIR/effects.csv and DIR/runs.csv")
    p.add_argument("--workers", type=int, metavar="N", help="local worker processes")
    p.add_argument("--dask", metavar="tcp://HOST:PORT", help="run on this Dask distributed scheduler")
    p.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or arqlab-results/store.sqlite)")
    p.add_argument("--no-store", action="store_true", help="do not read or write the result store")
    p.add_argument("--reuse-any-version", action="store_true", help="reuse stored results of other arqlab versions")
    p.add_argument("--quiet", action="store_true", help="no progress bar (the table is still printed)")
    p.set_defaults(handler=design_command)


def _cell(x: float, fmt: str = ".4g") -> str:
    return "—" if math.isnan(x) else format(x, fmt)


def _print(rows: list[list[str]], out: Any) -> None:
    out = out or sys.stdout
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(printable("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()), file=out)


def print_plan(design: Design, out: Any = None) -> None:
    """The design: factors and levels, defining relation, resolution, aliases, sign table."""
    out = out or sys.stdout
    kind = f"2^({design.k}-{design.p})" if design.p else f"2^{design.k}"
    print(f"{kind} design, {design.n_runs} runs", file=out)
    for f in design.factors:
        print(printable(f"  {f.name}: {f.title}  low {f.level_names[0]} {dict(f.low)}  "
                        f"high {f.level_names[1]} {dict(f.high)}"), file=out)
    if design.p:
        print(f"generators: {', '.join(design.generators)}", file=out)
        print(f"defining relation: {' = '.join(design.defining_relation())}  (resolution {design.resolution()})",
              file=out)
        for e in design.effects():
            print(f"  {e} = {' = '.join(design.aliases(e))}", file=out)
    table = design.sign_table()
    _print([["run", *table.columns]] + [[str(i), *("+" if v > 0 else "-" for v in row)]
                                         for i, row in enumerate(table.itertuples(index=False))], out)


def print_effects(effects: pd.DataFrame, out: Any = None) -> None:
    """The effects table: effect, label, aliases, q, sign, % of variation, CI."""
    transform = str(effects["transform"].iloc[0]) if len(effects) else "none"
    q_head = "q (log10)" if transform == "log10" else "q"
    conf = effects.attrs.get("confidence", 0.95)
    rows = [["effect", "label", "aliases", q_head, "sign", "% variation", f"{conf:.0%} CI of q"]]
    for r in effects.itertuples(index=False):
        ci = "—" if math.isnan(r.ci_low) else f"({r.ci_low:.4g}, {r.ci_high:.4g})"
        rows.append([str(r.effect), str(r.label), str(r.aliases) or "", _cell(r.q), str(r.sign),
                     _cell(r.variation_pct, ".2f"), ci])
    _print(rows, out)


def _measures(source: str, overrides: dict[str, Any]) -> list[str] | None:
    """The measure names of every scope of the base scenario, to check the design's
    response against before anything runs; None if the scenario itself does not load
    (its problems are reported, with each run's, when the runs are resolved)."""
    from arqlab import scenario as scenario_mod
    from arqlab.errors import ScenarioError
    from arqlab.results import catalogue

    try:
        resolved = scenario_mod.load(source, overrides or None)
    except ScenarioError:
        return None
    return list(dict.fromkeys(m for ms in catalogue(resolved).values() for m in ms))


def design_command(args: argparse.Namespace) -> int:
    from arqlab.cli import parse_sets
    from arqlab.design.run import resolve_runs, run_design
    from arqlab.design.spec import load_design
    from arqlab.outputs import writable_dir

    if args.max_runs is not None and args.max_runs < 1:
        raise DesignError([f"--max-runs {args.max_runs}: expected a whole number >= 1"])
    overrides = parse_sets(args.sets)
    spec = load_design(args.design, args.max_runs, _measures(args.scenario, overrides))
    if args.dask and args.workers is not None:
        raise DesignError(["--workers applies to the local pool; with --dask the cluster decides"])
    out = writable_dir(args.out, "--out") if args.out else None
    if args.plan:
        resolve_runs(spec.design, args.scenario, overrides, args.replications or spec.replications)
        print_plan(spec.design)
        return 0
    if args.dask:
        from arqlab.execution.backends import check_dask_address

        check_dask_address(args.dask)
    from arqlab.progress import Progress

    store: Store | str | Literal[False] | None = False if args.no_store else args.store
    result = run_design(
        spec.design, args.scenario, measure=spec.measure, direction=spec.direction,
        replications=args.replications if args.replications is not None else spec.replications,
        seed=args.seed if args.seed is not None else spec.seed if spec.seed is not None else 1,
        log=args.log or spec.log, confidence=spec.confidence, overrides=overrides,
        executor=args.dask or ("local" if args.workers else "serial"), workers=args.workers, store=store,
        progress=Progress(quiet=args.quiet), reuse_any_version=args.reuse_any_version, name=args.name,
    )
    d = result.design
    kind = f"2^({d.k}-{d.p})" if d.p else f"2^{d.k}"
    r = int(result.effects.attrs["replications"])
    print(printable(f"{kind} design, {d.n_runs} runs × {r} replication(s), response {result.response}"
                    + (", log10" if args.log or spec.log else "")))
    if d.p:
        print(f"defining relation: {' = '.join(d.defining_relation())}  (resolution {d.resolution()})")
    print_effects(result.effects)
    if out is not None:
        from arqlab.outputs import replaced_atomically

        for name, frame in (("effects.csv", result.effects), ("runs.csv", result.runs)):
            with replaced_atomically(out / name, "--out") as tmp:
                frame.to_csv(tmp, index=False)
    return 0
