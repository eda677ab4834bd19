"""The `arqlab` command line.

    arqlab run SCENARIO [--set key=value]... [--seed N] [--replications N] [--precision X] [--json]
    arqlab check SCENARIO [--set key=value]...
    arqlab sweep | design | sensitivity | reproduce | store | report | trace | ladder ...   (see `arqlab COMMAND --help`)

Exit codes: 0 success, 2 bad input (one message per problem, no traceback), 1 a
simulation failure (a model invariant broke; the message names scenario, seed and
replication).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import signal
import sys
import threading
from typing import Any, Callable, Sequence

from . import _core, scenario
from .errors import ArqlabError, LivelockError, ScenarioError, SimulationError, printable, shorten
from .interrupt import Terminated

Handler = Callable[[argparse.Namespace], int]

# Measures shown by `arqlab run` without --json (all of them are in --json).
SHOWN = [
    "throughput_efficiency",
    "throughput_bps",
    "transfer_time_s",
    "transfer_time_p95_s",
    "buffer_holding_time_s",
    "frames_sent",
    "frames_retransmitted",
    "frames_in_error",
]
#: Shown too when a flow has them (a dialogue's client → server flow).
SHOWN_IF_PRESENT = ["session_latency_s", "message_throughput_bps", "sessions_completed", "sessions_censored"]


def parse_sets(items: Sequence[str] | None) -> dict[str, Any]:
    """`key=value` pairs from --set; values are TOML literals or bare strings."""
    out: dict[str, Any] = {}
    bad: list[str] = []
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            bad.append(f"--set {item!r}: expected key=value, e.g. link.bit_error_rate=1e-5")
            continue
        out[key.strip()] = scenario.parse_value(value.strip())
    if bad:
        raise ScenarioError(bad)
    return out


def add_scenario_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="a TOML scenario file")
    p.add_argument("--set", dest="sets", action="append", metavar="KEY=VALUE", help="override a dotted key (repeatable)")


def _fmt(x: float) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if x == 0 or 1e-3 <= abs(x) < 1e6:
        return f"{x:.6g}"
    return f"{x:.4e}"


#: Scope groups of `arqlab run`'s text output, in print order: (prefix, heading).
GROUPS = [
    ("flow", "flows"),
    ("flow.*", "all flows pooled"),
    ("transport", "transport connections"),
    ("link", "media lanes"),
    ("ring", "token rings"),
    ("node", "relay ports"),
    ("ip", "IP routers"),
    ("llc2", "LLC2 connections pooled"),
    ("run", "run"),
]


def _group(scope: str) -> str:
    """The group of a scope name (the pair form's a_to_b / b_to_a are flows)."""
    if scope in ("flow.*", "run"):
        return scope
    head = scope.split(".", 1)[0]
    return head if head in {g for g, _ in GROUPS} else "flow"


def print_table(metrics: dict[str, dict[str, dict[str, float]]], directions: list[str]) -> None:
    """Every scope in `directions`, grouped (flows, pooled flows, transports, lanes, rings,
    relay ports, IP routers, pooled LLC2, run). A flow shows the usual measures, any other scope all of
    its own."""
    def shown(d: str) -> list[str]:
        if _group(d) != "flow":
            return list(metrics.get(d, {}))
        return SHOWN + [m for m in SHOWN_IF_PRESENT if m in metrics.get(d, {})]

    width = max(len(m) for d in directions for m in shown(d)) if directions else 0
    grouped = [(heading, [d for d in directions if _group(d) == g]) for g, heading in GROUPS]
    several = sum(1 for _, ds in grouped if ds) > 1
    for heading, ds in grouped:
        if ds and several:
            print(f"# {heading}")
        for d in ds:
            print(printable(f"{d}:"))  # scope names carry user-chosen node and medium names
            for m in shown(d):
                v = metrics.get(d, {}).get(m)
                if v is None:
                    continue
                print(f"  {m:<{width}}  {_fmt(v['mean']):>12} ± {_fmt(v['ci95_half_width']):<11} (n={v['n']})")


def steady_state_warnings(result: Any) -> list[str]:
    """`reproduce`'s steady-state check (:mod:`arqlab.steady`) on a run's Poisson directions."""
    from .steady import warnings

    return warnings(result.scenario, result.metrics)


#: `run`'s exit status when a reliable flow stalled in some replication: the results
#: are printed, but they describe a run that stopped making progress.
STALLED_EXIT = 3


def cmd_run(args: argparse.Namespace) -> int:
    overrides = parse_sets(args.sets)
    from .api import simulate
    from .progress import Progress

    store: Any = False if args.no_store else args.store  # None: the default store
    progress = Progress(quiet=args.json or args.quiet)
    result = simulate(
        args.scenario,
        seed=args.seed,
        replications=args.replications,
        precision=args.precision,
        overrides=overrides,
        store=store,
        executor=args.dask or ("local" if args.workers else "serial"),
        workers=args.workers,
        reuse_any_version=args.reuse_any_version,
        progress=progress,
    )
    warnings = [*result.warnings, *steady_state_warnings(result)]
    if args.json:
        out = result.to_dict()
        out["warnings"] = warnings
        from .jsonout import dumps

        print(dumps(out, indent=2))
        for w in warnings:
            print(printable(f"arqlab run: warning: {w}"), file=sys.stderr)
        return STALLED_EXIT if result.stalled else 0
    sc = result.scenario
    # Every scope but the flows that carry no traffic of their own.
    idle = {d for d, active in scenario.flows(sc) if not active}
    loaded = [d for d, active in scenario.flows(sc) if active]
    loaded += [k for k in result.metrics if k not in idle and k not in loaded]
    title = sc.get("title") or scenario.describe(sc)
    print(f"{printable(title)} — seed {result.seed}, {result.replications} replication(s), 95% confidence intervals")
    if overrides:
        print("  with " + printable(shorten(", ".join(f"{k}={v}" for k, v in overrides.items()), 200)))
    print_table(result.metrics, loaded)
    if result.precision_reached is not None:
        print(f"precision target {'reached' if result.precision_reached else 'NOT reached (replication cap hit)'}")
    for w in warnings:
        print(printable(f"arqlab run: warning: {w}"), file=sys.stderr)
    # The same wall time as the summary line on stderr: elapsed time of the whole run.
    wall = progress.summary.wall_s if progress.summary is not None else result.wall_s
    computed = progress.summary.computed if progress.summary is not None else result.replications
    rate = f" ({result.events / wall / 1e6:.1f} M events/s)" if wall > 0 and computed else ""
    print(f"{result.events} events, {result.simulated_s:.6g} simulated s in {wall:.3f} wall s{rate}")
    return STALLED_EXIT if result.stalled else 0


def hf_notes(resolved: dict[str, Any]) -> list[str]:
    """What an HF lane does with the frames of a layer that is not modem-aware (the
    check has already refused a modem without a mode at the link's rate)."""
    if "flow" in resolved:
        bottoms = {st["layers"][-1]["kind"] for st in resolved["stack"].values()}
        lanes = [(f"medium[{i}].{d}", m[d], m["rate_bps"]) for i, m in enumerate(resolved["medium"])
                 for d in ("forward", "reverse") if isinstance(m.get(d), dict)]
    else:
        bottoms = {resolved["protocol"]["kind"]}
        link = resolved["link"]
        lanes = [(f"link.{d}", link[d], link["rate_bps"]) for d in ("a_to_b", "b_to_a") if isinstance(link.get(d), dict)]
    plain = sorted(k for k in bottoms if k != "hf_arq")
    return [f"{path}: {', '.join(plain)} frames are not modem-aware: each is sent at rate_bps = {rate:g} bit/s "
            f"and judged by the {cfg['modem']} data mode of that rate"
            for path, cfg, rate in lanes if cfg.get("error_model") == "hf" and plain]


def cmd_check(args: argparse.Namespace) -> int:
    resolved = scenario.load(args.scenario, parse_sets(args.sets))
    print(f"# {args.scenario}: valid. Resolved scenario (every default explicit):")
    for note in hf_notes(resolved):
        print(printable(f"# note: {note}"))
    print(scenario.to_toml(resolved), end="")
    return 0


# Subcommands contributed by other modules: name -> (module with register_cli, one-line help).
# A module is imported only when its command runs (or for `COMMAND --help`), so
# `arqlab --version`, `--help` and `check` start without pandas, matplotlib or rich.
PLUGINS: dict[str, tuple[str, str]] = {
    "sweep": ("arqlab.sweep_cli", "run a scenario over a parameter grid"),
    "store": ("arqlab.store.cli", "inspect, export and clean the result store"),
    "report": ("arqlab.report", "build a static HTML report from the result store"),
    "design": ("arqlab.design.cli", "run a 2^k r or 2^(k-p) factorial design and print its effects"),
    "reproduce": ("arqlab.studies", "reproduce a published study's figures and check its claims"),
    "sensitivity": ("arqlab.gsa.cli", "Morris or Sobol' sensitivity of a measure to a scenario's inputs"),
    "trace": ("arqlab.trace", "every frame sent and received in a time window of one replication"),
    "ladder": ("arqlab.ladder", "a time-sequence (ladder) diagram of a window of one replication"),
}


def build_parser(command: str | None = "*") -> argparse.ArgumentParser:
    """The `arqlab` parser. ``command``: the plugin subcommand to build fully ("*": all;
    None: none — the others are listed with their help only)."""
    parser = argparse.ArgumentParser(prog="arqlab", description="A protocol performance laboratory.")
    parser.add_argument("--version", action="version", version=f"arqlab {_core.__version__} (model {_core.MODEL_VERSION})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("run", help="simulate a scenario and print its measures with 95%% CIs")
    add_scenario_args(p)
    p.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    p.add_argument("--replications", type=int, help="independent replications (default: run.replications)")
    p.add_argument("--precision", type=float, help="relative half-width target, e.g. 0.025 for ±2.5%%")
    p.add_argument("--json", action="store_true", help="print the full result as JSON")
    p.add_argument("--store", metavar="PATH", help="result store (default $ARQLAB_STORE or ./arqlab-results/store.sqlite)")
    p.add_argument("--no-store", action="store_true", help="do not read or write the result store")
    p.add_argument("--reuse-any-version", action="store_true", help="reuse stored results of other model versions")
    p.add_argument("--workers", type=int, metavar="N", help="run replications on N local worker processes")
    p.add_argument("--dask", metavar="tcp://HOST:PORT", help="run replications on this Dask distributed scheduler")
    p.add_argument("--quiet", action="store_true", help="no progress bar or summary line")
    p.set_defaults(handler=cmd_run)

    p = sub.add_parser("check", help="validate a scenario and print it with every default filled in")
    add_scenario_args(p)
    p.set_defaults(handler=cmd_check)

    for name, (module_name, help_text) in PLUGINS.items():
        if command != "*" and command != name:
            sub.add_parser(name, help=help_text, add_help=False)
            continue
        register: Callable[[Any], None] = getattr(importlib.import_module(module_name), "register_cli")
        register(sub)
    return parser


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    command = next((w for w in words if not w.startswith("-")), None)
    parser = build_parser(command if command in PLUGINS else None)
    args = parser.parse_args(words)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    prefix = f"arqlab {args.command}:"
    if threading.current_thread() is threading.main_thread():
        # SIGTERM stops like Ctrl-C: finished replications are kept, workers are stopped.
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        status = handler(args)
        sys.stdout.flush()  # a full or closed output fails here, inside the handlers below
        return status
    except ScenarioError as e:
        for line in e.problems:
            print(printable(f"{prefix} error: {e.source + ': ' if e.source else ''}{line}"), file=sys.stderr)
        return 2
    except LivelockError as e:  # a model bug the run stopped at: like bad input, exit 2
        print(printable(f"{prefix} error: {e}"), file=sys.stderr)
        return 2
    except SimulationError as e:
        print(printable(f"{prefix} error: {e}"), file=sys.stderr)
        return 1
    except ArqlabError as e:
        for line in str(e).splitlines() or [type(e).__name__]:
            print(printable(f"{prefix} error: {line}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        print(f"{prefix} interrupted (finished replications are kept in the store, if one is used)",
              file=sys.stderr)
        return 143 if isinstance(e, Terminated) else 130
    except BrokenPipeError:
        # The reader went away (`arqlab run ... | head`): stop quietly, as a shell tool
        # killed by SIGPIPE would; silence the flush at exit too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except OSError as e:
        # Standard output on a full disk (`> /dev/full`) or a failing device: one line,
        # and nothing more is tried on it at exit.
        what = f"cannot write {e.filename}" if e.filename else "cannot write the output"
        print(printable(f"{prefix} error: {what}: {e.strerror or e}"), file=sys.stderr)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 2


if __name__ == "__main__":
    sys.exit(main())
