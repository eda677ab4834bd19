"""From replication records to measures with 95% confidence intervals.

The interval arithmetic is Rust's (`arqlab._core.interval`, Student-t, never z); this
module only arranges records into observations per (direction, measure).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from . import _core
from .scenario import flows

if TYPE_CHECKING:
    import pandas as pd

Metrics = dict[str, dict[str, dict[str, float]]]
Record = Mapping[str, Any]


def is_batch_means(resolved: Mapping[str, Any]) -> bool:
    return bool(resolved.get("run", {}).get("method") == "batch_means")


def observations(records: Sequence[Record]) -> dict[tuple[str, str], list[float]]:
    """Per (direction, measure), the observations: one per replication, or one per
    batch for batch means. Undefined values (None/NaN) are kept as NaN."""
    obs: dict[tuple[str, str], list[float]] = {}
    for rec in records:
        for batch in rec["batches"]:
            for direction, measures in batch.items():
                for name, value in measures.items():
                    x = math.nan if value is None else float(value)
                    obs.setdefault((direction, name), []).append(x)
    return obs


def summarize(records: Sequence[Record], batch_means: bool = False) -> Metrics:
    """direction → measure → {mean, ci95_half_width, n}."""
    metrics: Metrics = {}
    for (direction, name), xs in observations(records).items():
        mean, hw, n = _core.interval(xs, batch_means)
        metrics.setdefault(direction, {})[name] = {"mean": mean, "ci95_half_width": hw, "n": n}
    return metrics


def summarize_point(records: Sequence[Record], resolved: Mapping[str, Any]) -> Metrics:
    """:func:`summarize` of a point's records, with batch means when the scenario says so."""
    return summarize(records, batch_means=is_batch_means(resolved))


def watched_measures(resolved: Mapping[str, Any]) -> list[str]:
    """The measures the precision rule watches ("direction.measure")."""
    run = resolved["run"]
    if run.get("precision_measures"):
        return list(run["precision_measures"])
    out: list[str] = []
    for scope, active in flows(resolved):
        if active:
            out += [f"{scope}.throughput_efficiency", f"{scope}.transfer_time_s"]
    return out


def precision_status(metrics: Metrics, resolved: Mapping[str, Any], precision: float) -> str:
    """"continue" | "reached" | "cap_reached" for the sequential rule."""
    run = resolved["run"]
    ivs = []
    for dm in watched_measures(resolved):
        direction, name = dm.rsplit(".", 1)  # scopes have dots (flow.a->b), measures none
        m = metrics.get(direction, {}).get(name)
        ivs.append((m["mean"], m["ci95_half_width"], int(m["n"])) if m else (math.nan, math.nan, 0))
    return str(_core.precision_status(ivs, precision, int(run["min_replications"]), int(run["max_replications"])))


def precision_reached(metrics: Metrics, resolved: Mapping[str, Any], precision: float | None = None) -> bool:
    p = precision if precision is not None else resolved["run"].get("precision")
    if p is None:
        return True
    return precision_status(metrics, resolved, float(p)) == "reached"


def frame(metrics: Metrics, extra: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Tidy table: one row per direction × measure."""
    import pandas as pd

    rows = [
        {**(extra or {}), "direction": d, "measure": m, **v}
        for d, ms in metrics.items()
        for m, v in ms.items()
    ]
    return pd.DataFrame(rows, columns=[*(extra or {}).keys(), "direction", "measure", "mean", "ci95_half_width", "n"])


def _nan_to_none(x: Any) -> Any:
    """Strict JSON has no NaN: an undefined measure becomes null."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _nan_to_none(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_nan_to_none(v) for v in x]
    return x


@dataclass
class Result:
    """The outcome of `arqlab.simulate`."""

    metrics: Metrics
    scenario: dict[str, Any]
    seed: int
    records: list[dict[str, Any]] = field(repr=False)
    precision_reached: bool | None = None

    @property
    def events(self) -> int:
        return int(sum(r["events"] for r in self.records))

    @property
    def simulated_s(self) -> float:
        return float(sum(r["simulated_s"] for r in self.records))

    @property
    def wall_s(self) -> float:
        return float(sum(r["wall_s"] for r in self.records))

    @property
    def replications(self) -> int:
        return len(self.records)

    @property
    def warnings(self) -> list[str]:
        """Things the user should know about the quality of these numbers."""
        out: list[str] = []
        unreliable = [i for i, r in enumerate(self.records) if r.get("mser_reliable") is False]
        if unreliable:
            out.append(
                f"MSER-5 truncation hit its limit (half the run) in {len(unreliable)} of {len(self.records)} "
                f"replication(s) {unreliable[:5]}: the warm-up may not be over; run longer (run.duration_s)"
            )
        if self.precision_reached is False:
            out.append("the precision target was not reached before run.max_replications")
        return out

    def to_frame(self) -> pd.DataFrame:
        return frame(self.metrics)

    def to_dict(self) -> dict[str, Any]:
        """The JSON structure of `arqlab run --json` (undefined values are None/null)."""
        return {
            "metrics": _nan_to_none(self.metrics),
            "warnings": self.warnings,
            "events": self.events,
            "simulated_s": self.simulated_s,
            "wall_s": self.wall_s,
            "replications": self.replications,
            "seed": self.seed,
            "precision_reached": self.precision_reached,
            "scenario": self._scenario_as_run(),
        }

    def _scenario_as_run(self) -> dict[str, Any]:
        """The scenario with ``run.replications`` set to the replications actually used
        (not the file's count, which ``--replications`` or a precision target overrode)."""
        out = dict(self.scenario)
        run = out.get("run")
        if isinstance(run, dict) and self.records:
            out["run"] = {**run, "replications": self.replications}
        return out
