"""Reproductions of published studies, one package per paper (docs/studies/README.md).

``arqlab reproduce STUDY [--figure N]... [--quick] [--out DIR] [--workers N] [--dask ADDR]
[--store PATH] [--quiet] [--robustness [--budget N] [--method morris|sobol]] [--dry-run]`` regenerates a paper's figures, writes CSV/PNG/SVG/scenario files
and ``claims.json``/``claims.md``, and prints each claim of the paper with a computed
verdict. :func:`register_cli` adds that sub-command to the ``arqlab`` command line.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import Any

__all__ = ["STUDIES", "get_study", "register_cli", "handler", "main"]

#: Registry: study name -> package path. Each package provides NAME, TITLE, CITATION,
#: figures(), study_claims() and reproduce(...).
STUDIES: dict[str, str] = {
    "biersack": "arqlab.studies.biersack", "bux1982": "arqlab.studies.bux1982", "colella": "arqlab.studies.colella",
    "comer-korb": "arqlab.studies.comer_korb", "johnson": "arqlab.studies.johnson",
}


def get_study(name: str) -> ModuleType:
    """Import a registered study module; KeyError for an unknown name."""
    if name not in STUDIES:
        raise KeyError(name)
    return importlib.import_module(STUDIES[name])


#: Design points of a robustness pass unless --budget says (docs/guide/sensitivity.md
#: gives the cost per study).
DEFAULT_BUDGET = 40

DESCRIPTION = """\
Reproduce a published study: run every figure's simulations (or those of --figure N),
write each figure as PNG, SVG and CSV (every point with its 95% confidence interval)
with the scenario files used, and print each of the paper's claims with a computed
verdict (holds / does not hold / inconclusive). Results go to the result store, so a
re-run computes only what is missing and `arqlab report` can show them."""


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("study", help=f"study to reproduce ({', '.join(sorted(STUDIES))})")
    p.add_argument("--figure", dest="figures", action="append", default=None, metavar="N",
                   help="reproduce only figure N (repeatable); default: all figures")
    p.add_argument("--table", dest="tables", action="append", default=None, metavar="N",
                   help="reproduce only table N (repeatable; studies with tables, e.g. johnson): runs the figures it needs")
    p.add_argument("--quick", action="store_true",
                   help="low-precision pass (few replications, short runs, fewer x points)")
    p.add_argument("--out", default=None, metavar="DIR", help="output directory (default: ./reproduce-STUDY)")
    p.add_argument("--workers", type=int, default=None, metavar="N", help="local worker processes (default: CPU count)")
    p.add_argument("--dask", default=None, metavar="ADDR", help="run on a Dask distributed scheduler at ADDR")
    p.add_argument("--store", default=None, metavar="PATH",
                   help="SQLite result store for cache, resume and the report (default $ARQLAB_STORE or ./arqlab-results/store.sqlite)")
    p.add_argument("--no-store", action="store_true", help="do not read or write the result store")
    p.add_argument("--reuse-any-version", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--quiet", action="store_true", help="print only the verdict summary")
    p.add_argument("--robustness", action="store_true",
                   help="after the quick pass, vary the study's unstated inputs (Morris, or Sobol' when the budget "
                        "allows) and label each claim by how much of their plausible space it holds in")
    p.add_argument("--budget", type=int, default=None, metavar="N",
                   help=f"--robustness: design points, each a quick pass (default {DEFAULT_BUDGET})")
    p.add_argument("--method", choices=("morris", "sobol"), default=None,
                   help="--robustness: the design (default: Sobol' when the budget allows, else Morris)")
    p.add_argument("--dry-run", action="store_true",
                   help="check the options and print the figures, points and runs the pass would simulate "
                        "(and the robustness design), without simulating or writing anything")


def register_cli(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``reproduce`` to an argparse sub-parser collection; its handler is :func:`handler`."""
    p = subparsers.add_parser("reproduce", help="reproduce a published study's figures and check its claims",
                              description=DESCRIPTION)
    _add_arguments(p)
    p.set_defaults(handler=handler)
    return p


def _fail(message: str) -> int:
    print(f"arqlab reproduce: error: {message}", file=sys.stderr)
    return 2


def _progress(done: int, total: int, label: str) -> None:
    print(f"\r  {done}/{total} runs done ({label})".ljust(100), end="" if done < total else "\n",
          file=sys.stderr, flush=True)


def _chosen(raws: list[str] | None, what: str, prefix: str, name: str, known: list[int]) -> list[int] | str | None:
    """The numbers of ``--figure``/``--table`` (each once, in order), None when not
    given, or the error message."""
    if not raws:
        return None
    out: list[int] = []
    for raw in raws:
        try:
            n = int(str(raw).removeprefix(prefix))
        except ValueError:
            return f"--{what} expects a {what} number, got {raw!r}"
        if n not in known:
            return f"{name} has no {what} {n} ({what}s: {', '.join(map(str, known))})"
        if n not in out:
            out.append(n)
    return out


def handler(args: argparse.Namespace) -> int:
    """Run ``arqlab reproduce``: 0 when it ran (whatever the verdicts), 2 on bad input."""
    name = args.study
    if name not in STUDIES:
        return _fail(f"unknown study {name!r} (known: {', '.join(sorted(STUDIES))})")
    study = get_study(name)
    # Figures drawn from a trace (TRACE_FIGURES) are chosen like the swept ones.
    known = sorted([f.number for f in study.figures()] + list(getattr(study, "TRACE_FIGURES", ())))
    figures = _chosen(args.figures, "figure", "fig", name, known)
    if isinstance(figures, str):
        return _fail(figures)
    tables: list[int] | str | None = None
    if getattr(args, "tables", None):
        known_tables = sorted(getattr(study, "TABLE_FIGURES", {}))
        if not known_tables:
            return _fail(f"{name} has no tables (use --figure)")
        tables = _chosen(args.tables, "table", "table", name, known_tables)
        if isinstance(tables, str):
            return _fail(tables)
    if args.workers is not None and args.workers < 1:
        return _fail(f"--workers must be at least 1, got {args.workers}")
    robust = getattr(args, "robustness", False)
    if not robust and (getattr(args, "budget", None) is not None or getattr(args, "method", None) is not None):
        return _fail("--budget and --method apply to --robustness only")
    if robust:
        from .robustness import uncertain_inputs

        if not uncertain_inputs(study):
            return _fail(f"{name} declares no uncertain inputs (params.UNCERTAIN_INPUTS), so --robustness has nothing "
                         "to vary")
        if args.budget is not None and args.budget < 2:
            return _fail(f"--budget must be at least 2 design points, got {args.budget}")
    if getattr(args, "dry_run", False):
        return _dry_run(study, args, figures, None if isinstance(tables, str) else tables, robust)
    executor: str | None = args.dask or None
    store: Any = False if getattr(args, "no_store", False) else args.store  # None: the default store
    # A progress line rewritten with \r only on a terminal; a log or pipe gets none.
    progress = None if args.quiet or not sys.stderr.isatty() else _progress
    out = args.out or f"reproduce-{name}"
    from ..errors import ArqlabError, LivelockError, SimulationError

    try:
        from ..outputs import writable_dir

        writable_dir(out, "--out")  # before anything runs: a file in the way, a read-only place
        extra: dict[str, Any] = {"tables": tables} if tables is not None else {}
        quick = args.quick or robust
        rep = study.reproduce(figures=figures, quick=quick, out_dir=out, workers=args.workers,
                              executor=executor, store=store, progress=progress, quiet=args.quiet, **extra)
        if store is not False:
            from .publish import publish

            publish(rep, study, store, quick=quick)
        if robust:
            _robustness(study, args, rep, figures, executor, store, progress)
    except SimulationError as e:
        print(f"arqlab reproduce: error: {e}", file=sys.stderr)
        return 2 if isinstance(e, LivelockError) else 1
    except ArqlabError as e:
        return _fail(str(e))
    except OSError as e:  # a write the atomic helpers do not cover (a full disk)
        return _fail(f"--out {out}: cannot write: {e.strerror or e}")
    return 0


def _dry_run(study: ModuleType, args: argparse.Namespace, figures: list[int] | None, tables: list[int] | None,
             robust: bool) -> int:
    """``--dry-run``: the plan of the pass (:mod:`.dry_run`), after the same checks."""
    from ..gsa.design import DesignError, plan_for_budget
    from .dry_run import print_plan
    from .robustness import uncertain_inputs

    out = args.out or f"reproduce-{study.NAME}"
    if os.path.exists(out) and not os.path.isdir(out):
        return _fail(f"--out {out}: exists and is not a directory")
    design = None
    if robust:
        k = len(uncertain_inputs(study))
        try:
            plan = plan_for_budget(k, args.budget or DEFAULT_BUDGET, args.method)
        except DesignError as e:
            return _fail(str(e))
        design = (plan.method, plan.points(k))
    print_plan(study, figures, tables, args.quick or robust, out, design, sys.stdout)
    return 0


def _robustness(study: ModuleType, args: argparse.Namespace, rep: Any, figures: list[int] | None, executor: Any,
                store: Any, progress: Any) -> None:
    """The robustness pass after the quick one: design, simulate, label, write, file."""
    from pathlib import Path

    from .robustness import robustness
    from .robustness_output import print_robustness, publish_robustness, write_robustness

    swept = None if figures is None else [n for n in figures if n not in getattr(study, "TRACE_FIGURES", ())]
    try:
        rob = robustness(study, budget=args.budget or DEFAULT_BUDGET, method=args.method, figures=swept,
                         nominal=rep.claims, workers=args.workers, executor=executor, store=store, progress=progress)
    except ValueError as e:
        from ..errors import ArqlabError

        raise ArqlabError(str(e)) from None
    rep.files += write_robustness(rob, Path(rep.out_dir))
    print_robustness(rob, sys.stdout)
    if store is not False:
        publish_robustness(rob, study.STUDY, Path(rep.out_dir), store)


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point equivalent to ``arqlab reproduce ...``."""
    parser = argparse.ArgumentParser(prog="arqlab-reproduce", description=DESCRIPTION)
    _add_arguments(parser)
    return handler(parser.parse_args(argv))
