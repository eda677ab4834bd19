"""Parameter sweeps: a grid of dotted scenario keys, run as one batch of replications.

``sweep(scenario, {"traffic.a.length.mean_bits": [500, 1000, 2000]})`` resolves one scenario
per grid point (the cartesian product, first key varying slowest), runs every point's
replications on one executor through :func:`arqlab.execution.run_points_detailed` (store
first, compute only what is missing) and returns a tidy table: one row per point ×
direction × measure. The command line is :mod:`arqlab.sweep_cli`.
"""

from __future__ import annotations

import difflib
import io
import itertools
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from arqlab import keys as key_syntax, scenario as scenario_mod
from arqlab.errors import ArqlabError, ScenarioError, shorten
from arqlab.execution import PointSpec, Runner, run_points_detailed
from arqlab.limits import check_seed
from arqlab.outputs import PLOT_FORMATS, replaced_atomically, writable_file
from arqlab.progress import Progress
from arqlab.results import warn_stalls
from arqlab.store import Store, open_store

if TYPE_CHECKING:
    import pandas as pd

PREFERRED_MEASURES: tuple[str, ...] = (
    "throughput_efficiency",
    "transfer_time_s",
    "throughput_bps",
    "buffer_holding_time_s",
)


class GridError(ArqlabError):
    """Bad sweep input; ``problems`` has one message per problem."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


def _check_grid_shape(grid: Any) -> list[str]:
    """Problems with the grid's shape: a mapping of keys to non-empty lists."""
    problems: list[str] = []
    if not isinstance(grid, Mapping) or not grid:
        return ["grid is empty: give at least one key with a list of values, e.g. "
                "{'traffic.a.length.mean_bits': [500, 1000]}"]
    for key, values in grid.items():
        if not isinstance(key, str) or not key:
            problems.append(f"grid key {key!r}: expected a dotted scenario key such as 'link.rate_bps'")
        elif isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            problems.append(f"grid key {key!r}: values must be a list, got {values!r}")
        elif len(values) == 0:
            problems.append(f"grid key {key!r}: the list of values is empty")
    return problems


def _check_grid(grid: Mapping[str, Sequence[Any]], resolved: Mapping[str, Any],
                raw: Mapping[str, Any] | None = None) -> list[str]:
    """The grid's shape, and each key must name a value of the scenario as written (`raw`)
    or resolved (every default explicit), in the syntax of :mod:`arqlab.keys`."""
    if not isinstance(grid, Mapping) or not grid:
        return _check_grid_shape(grid)
    problems: list[str] = []
    known = key_syntax.leaves(resolved)
    for key, values in grid.items():
        if isinstance(key, str) and key and not scenario_mod.has_path(resolved, key) \
                and not (raw is not None and scenario_mod.has_path(raw, key)):
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            problems.append(f"grid key {key!r} is not in the resolved scenario{hint}")
        problems += _check_grid_shape({key: values})
    return problems


def grid_points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """The cartesian product in a deterministic order (first key slowest)."""
    keys = list(grid)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(list(grid[k]) for k in keys))]


def _point_label(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items())


def sweep(
    scenario: str | os.PathLike[str] | Mapping[str, Any],
    grid: Mapping[str, Sequence[Any]],
    *,
    seed: int = 1,
    replications: int | None = None,
    precision: float | None = None,
    executor: str | None = None,
    workers: int | None = None,
    store: Store | str | os.PathLike[str] | None | Literal[False] = None,
    progress: Progress | bool | None = None,
    name: str | None = None,
    study: str = "",
    figure: str = "",
    overrides: Mapping[str, Any] | None = None,
    reuse_any_version: bool = False,
    runner: Runner | None = None,
) -> pd.DataFrame:
    """Run ``scenario`` at every point of ``grid`` and return a tidy DataFrame.

    Columns: one per grid key, then ``direction``, ``measure``, ``mean``,
    ``ci95_half_width``, ``n``, ``precision_reached`` (nullable boolean; NA when no precision
    was asked for) and ``scenario_hash``. Every point uses the same ``seed`` (common random
    numbers across points). ``progress``: a :class:`~arqlab.progress.Progress`, True for a
    default one, None/False for none. With a store (the default), the sweep is also recorded
    under ``name`` for ``arqlab report``."""
    import pandas as pd


    check_seed(seed)
    if overrides is not None and not isinstance(overrides, Mapping):
        scenario_mod.apply_overrides({}, overrides)  # the TypeError naming what was given
    base_overrides = dict(overrides or {})
    if isinstance(grid, Mapping):  # numpy arrays and scalars as plain lists and numbers
        grid = {k: scenario_mod.plain(v) if hasattr(v, "tolist") or isinstance(v, (list, tuple)) else v
                for k, v in grid.items()}
    source = scenario if isinstance(scenario, Mapping) else str(scenario)
    try:
        base = scenario_mod.load(source, base_overrides or None)
        overrides_for_raw = base_overrides
    except ScenarioError:
        if _check_grid_shape(grid):
            raise
        # The grid may set what the base lacks: check the base with the first point's
        # values instead (each point is validated in full below).
        overrides_for_raw = {**base_overrides, **grid_points(grid)[0]}
        base = scenario_mod.load(source, overrides_for_raw)
    raw = scenario_mod.apply_overrides(scenario_mod.read(source)[0], overrides_for_raw)
    problems = _check_grid(grid, base, raw)
    if problems:
        raise GridError(problems)
    params_list = grid_points(grid)
    specs: list[PointSpec] = []
    problems = []
    for params in params_list:
        try:
            resolved = scenario_mod.load(source, {**base_overrides, **params})
        except ArqlabError as exc:
            details = getattr(exc, "problems", None) or [str(exc)]
            problems.extend(f"grid point {_point_label(params)}: {p}" for p in details)
            continue
        specs.append(PointSpec(resolved=resolved, seed=seed, replications=replications, precision=precision))
    if problems:
        raise GridError(problems)

    prog: Progress | None
    if progress is True:
        prog = Progress()
    elif progress is None or progress is False:
        prog = None
    else:
        prog = progress
    own_store = store is not False and not isinstance(store, Store)
    the_store = None if store is False else open_store(store)
    try:
        outcomes = run_points_detailed(
            specs,
            executor=executor,
            workers=workers,
            store=the_store if the_store is not None else False,
            progress=prog,
            reuse_any_version=reuse_any_version,
            runner=runner,
        )
        keys = list(grid)
        rows: list[dict[str, Any]] = []
        for params, outcome in zip(params_list, outcomes):
            warn_stalls(_point_label(params), outcome.summary.stalls)
            metrics = outcome.metrics
            for direction, measures in metrics.items():
                for measure, stats in measures.items():
                    row = dict(params)
                    row.update(
                        direction=direction,
                        measure=measure,
                        mean=float(stats["mean"]),
                        ci95_half_width=float(stats["ci95_half_width"]),
                        n=int(stats["n"]),
                        precision_reached=outcome.precision_reached,
                        scenario_hash=outcome.scenario_hash,
                    )
                    rows.append(row)
        columns = keys + ["direction", "measure", "mean", "ci95_half_width", "n", "precision_reached",
                          "scenario_hash"]
        df = pd.DataFrame(rows, columns=columns)
        df["precision_reached"] = df["precision_reached"].astype("boolean")
        if the_store is not None:
            label = name or _default_name(scenario, keys)
            the_store.record_sweep(
                label,
                df,
                grid=[(k, list(grid[k])) for k in keys],
                study=study,
                figure=figure,
                title=label,
                base_scenario=base,
                source=str(scenario) if not isinstance(scenario, Mapping) and "\n" not in str(scenario) else "",
                points=[
                    {"params": params, "hash": o.scenario_hash, "n": o.n,
                     "precision_reached": o.precision_reached}
                    for params, o in zip(params_list, outcomes)
                ],
                seed=seed,
                replications=replications,
                precision=precision,
                measures=default_measures(df),
            )
        return df
    finally:
        if own_store and the_store is not None:
            the_store.close()


def plot_title(name: str, overrides: Mapping[str, Any] | None) -> str:
    """A figure title that shows the overrides under the name, so a scenario title such
    as "p_bit = 1e-5" is never read as describing a run made with another value."""
    if not overrides:
        return name
    return f"{name}\n" + shorten(", ".join(f"{k}={v}" for k, v in overrides.items()), 100)


def _default_name(scenario: str | os.PathLike[str] | Mapping[str, Any], keys: Sequence[str]) -> str:
    if isinstance(scenario, Mapping) or "\n" in str(scenario):
        stem = "scenario"
    else:
        stem = Path(str(scenario)).stem
    return f"{stem}: {' × '.join(keys)}"


def default_measures(df: pd.DataFrame, limit: int = 1) -> list[str]:
    """The measures to plot by default: throughput efficiency if present, else the first."""
    present = list(dict.fromkeys(df["measure"])) if "measure" in df.columns else []
    chosen = [m for m in PREFERRED_MEASURES if m in present][:limit]
    return chosen or present[:limit]


def _has_signal(series: pd.Series) -> bool:
    values = [float(v) for v in series if v is not None and not (isinstance(v, float) and math.isnan(v))]
    return any(v != 0.0 for v in values)


def log_axis_suits(key: str, values: Any) -> bool:
    """An error rate (``bit_error_rate``, ``*_ber``) whose values are all positive and span
    more than a decade is read on a logarithmic axis."""
    if not ("error_rate" in key or key.endswith("ber")):
        return False
    xs = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return bool(xs) and min(xs) > 0 and max(xs) / min(xs) > 10


def plot_sweep(
    df: pd.DataFrame,
    grid_keys: Sequence[str],
    path: str | os.PathLike[str] | None = None,
    *,
    measures: Sequence[str] | None = None,
    title: str = "",
    logx: bool | None = None,
    logy: bool = False,
) -> bytes:
    """Plot a sweep table: x = first grid key, one line per combination of the other keys
    per direction, error bars = 95% CI; one panel per measure. Returns the PNG bytes and
    writes the plot to ``path`` if given, in the format its extension names (.png, .svg, .pdf).
    ``logx``: a logarithmic x axis (None: when x is an error rate with positive values
    spanning more than a decade); ``logy``: a logarithmic y axis."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = list(measures) if measures else default_measures(df)
    if not grid_keys:
        raise ArqlabError("plot: a sweep table needs at least one grid key")
    x_key = grid_keys[0]
    others = list(grid_keys[1:])
    if logx is None:
        logx = log_axis_suits(x_key, df[x_key])
    fig, axes = plt.subplots(len(chosen), 1, figsize=(7.0, 3.6 * max(1, len(chosen))), squeeze=False)
    for ax, measure in zip(axes[:, 0], chosen):
        sub = df[df["measure"] == measure]
        directions = [d for d in dict.fromkeys(sub["direction"]) if _has_signal(sub[sub["direction"] == d]["mean"])]
        if not directions:
            directions = list(dict.fromkeys(sub["direction"]))
        groups = sub.groupby(others + ["direction"], sort=False, dropna=False) if others else sub.groupby(
            ["direction"], sort=False)
        for label, part in groups:
            parts = label if isinstance(label, tuple) else (label,)
            direction = parts[-1]
            if direction not in directions:
                continue
            name = ", ".join([f"{k}={v}" for k, v in zip(others, parts[:-1])] + [str(direction)])
            ax.errorbar(part[x_key], part["mean"], yerr=part["ci95_half_width"].fillna(0.0), marker="o",
                        capsize=3, label=name)
        ax.set_xlabel(x_key)
        ax.set_ylabel(measure)
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    target = None if path is None else writable_file(path, "plot", PLOT_FORMATS)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    try:
        if target is not None:
            with replaced_atomically(target, "plot") as tmp:
                if target.suffix.lower() != ".png":
                    fig.savefig(tmp, format=target.suffix.lower().lstrip("."), dpi=110)
                else:
                    tmp.write_bytes(buf.getvalue())
    finally:
        plt.close(fig)
    return buf.getvalue()

