"""``arqlab sensitivity SCENARIO SPEC.toml --measure M [--method morris|sobol]``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import printable

DESCRIPTION = """\
Global sensitivity of one measure of a scenario to the inputs of SPEC.toml (key paths as
`arqlab run --set` takes them, each with a range or a set of levels): Morris elementary
effects (mu*, sigma) for screening, or Sobol' first- and total-order indices on Saltelli's
sampling, each with a bootstrap 95% CI (SALib). Prints the indices, and with --out writes
indices.csv, points.csv and a mu*-sigma or tornado plot."""


def register_cli(subparsers: Any) -> argparse.ArgumentParser:
    p = subparsers.add_parser("sensitivity", help="Morris or Sobol' sensitivity of a measure to a scenario's inputs",
                              description=DESCRIPTION)
    p.add_argument("scenario", metavar="SCENARIO", help="the base scenario (TOML)")
    p.add_argument("spec", metavar="SPEC", help="the inputs and their ranges (TOML; see docs/guide/sensitivity.md)")
    p.add_argument("--measure", required=True, metavar="M",
                   help="the response: DIRECTION.MEASURE (a_to_b.throughput_efficiency) or a measure one direction reports")
    p.add_argument("--method", choices=("morris", "sobol"), help="default: the spec's, else Sobol' when the budget allows")
    p.add_argument("--budget", type=int, metavar="N", help="model evaluations (default: the spec's, else 10 per input + 10)")
    p.add_argument("--seed", type=int, metavar="N", help="sample and simulation seed (default: the spec's, else 1)")
    p.add_argument("--replications", type=int, metavar="N", help="replications per evaluation")
    p.add_argument("--set", dest="sets", action="append", metavar="KEY=VALUE", help="fix a base-scenario value (repeatable)")
    p.add_argument("--out", metavar="DIR", help="write indices.csv, points.csv and the plot into DIR")
    p.add_argument("--workers", type=int, metavar="N", help="local worker processes")
    p.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or arqlab-results/store.sqlite)")
    p.add_argument("--no-store", action="store_true", help="do not read or write the result store")
    p.set_defaults(handler=handler)
    return p


def handler(args: argparse.Namespace) -> int:
    from ..cli import parse_sets
    from ..errors import ScenarioError
    from .design import DesignError
    from .run import sensitivity, summary

    problems = [f"--{name} = {v}: expected a whole number >= {low}"
                for name, v, low in (("budget", args.budget, 2), ("replications", args.replications, 1),
                                     ("workers", args.workers, 1), ("seed", args.seed, 0))
                if v is not None and v < low]
    if problems:
        raise ScenarioError(problems)
    store: Any = False if args.no_store else args.store
    try:
        result = sensitivity(args.scenario, args.spec, args.measure, method=args.method, budget=args.budget,
                             seed=args.seed, replications=args.replications, overrides=parse_sets(args.sets),
                             store=store, workers=args.workers)
    except DesignError as e:
        raise ScenarioError([str(e)]) from None
    for line in summary(result):
        print(printable(line))
    if args.out:
        files = result.write(args.out)
        print(f"wrote {', '.join(str(f) for f in files)}", file=sys.stderr)
    return 0
