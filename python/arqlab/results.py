"""From replication records to measures with 95% confidence intervals.

The interval arithmetic is Rust's (`arqlab._core.interval`, Student-t, never z); this
module only arranges records into observations per (direction, measure).
"""

from __future__ import annotations

import math
import sys
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from . import _core
from .errors import ArqlabError, printable
from .jsonout import finite_or_none
from .scenario import flows

if TYPE_CHECKING:
    import pandas as pd

Metrics = dict[str, dict[str, dict[str, float]]]
Record = Mapping[str, Any]


MEASURE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
"""The shape of a measure name (snake_case, unit suffix). Which names a scenario has
depends on its scopes (flows, lanes, relay ports, rings, transports, pooled scopes) and
is known once it has run; tools check the shape first and the name against the run."""


def catalogue(resolved: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every scope a scenario reports (flows, lanes, relay ports, rings, transports,
    pooled scopes) with its measure names, in the order a run reports them: one
    replication of the scenario cut to a millisecond of simulated time, so tools can
    check a measure or scope a user names before the real runs start."""
    import json

    short = json.loads(json.dumps(dict(resolved)))
    short["run"].update(duration_s=min(float(short["run"]["duration_s"]), 1e-3), warmup_s=0.0, warmup="fixed",
                        method="replications", replications=1)
    short["run"].pop("precision", None)
    record = _core.run_replication(json.dumps(short), 1, 0)
    out: dict[str, list[str]] = {}
    for batch in record["batches"]:
        for scope, measures in batch.items():
            out.setdefault(scope, list(measures))
    return out


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
    summary = RunningSummary(batch_means)
    for rec in records:
        summary.add(rec)
    return summary.metrics()


class RunningSummary:
    """The summary of replications folded in replication order, without keeping them.

    Each (direction, measure) has a running Welford tally (`_core.RunningInterval`), the
    very tally `_core.interval` builds from a list, so the intervals are exactly those of
    :func:`summarize` over the same records while memory stays constant in the number of
    replications. Batch means needs every batch at once (it merges correlated neighbours),
    so its one replication's batches are kept as lists."""

    def __init__(self, batch_means: bool = False) -> None:
        self.batch_means = batch_means
        self._tallies: dict[tuple[str, str], Any] = {}
        self._batches: dict[tuple[str, str], list[float]] = {}
        self.n = 0
        self.events = 0
        self.simulated_s: float = 0
        self.wall_s: float = 0
        self.unreliable = 0
        """Replications whose MSER-5 truncation hit its limit."""
        self.first_unreliable: list[int] = []
        self.windows = 0
        self.stalls: list[tuple[int, str]] = []
        """(replication, message) of the replications in which a reliable flow stalled."""

    def add(self, rec: Record) -> None:
        """Folds the next replication (replication number ``self.n``)."""
        for batch in rec["batches"]:
            for direction, measures in batch.items():
                for name, value in measures.items():
                    x = math.nan if value is None else float(value)
                    key = (direction, name)
                    if self.batch_means:
                        self._batches.setdefault(key, []).append(x)
                        continue
                    tally = self._tallies.get(key)
                    if tally is None:
                        tally = self._tallies[key] = _core.RunningInterval()
                    tally.add(x)
        self.windows += len(rec["batches"])
        if rec.get("stalled"):
            self.stalls.append((self.n, str(rec["stalled"]["message"])))
        self.events += int(rec.get("events", 0))
        self.simulated_s += rec.get("simulated_s", 0.0)
        self.wall_s += rec.get("wall_s", 0.0)
        if rec.get("mser_reliable") is False:
            self.unreliable += 1
            if len(self.first_unreliable) < 5:
                self.first_unreliable.append(self.n)
        self.n += 1

    def metrics(self) -> Metrics:
        """direction → measure → {mean, ci95_half_width, n}, in first-seen order."""
        metrics: Metrics = {}
        if self.batch_means:
            items = ((k, _core.interval(xs, True)) for k, xs in self._batches.items())
        else:
            items = ((k, t.interval()) for k, t in self._tallies.items())
        for (direction, name), (mean, hw, n) in items:
            metrics.setdefault(direction, {})[name] = {"mean": mean, "ci95_half_width": hw, "n": n}
        stalled = metrics.get("run", {}).get("stalled")
        if stalled is not None and stalled["n"] < self.windows:
            # `run.stalled` is only in the windows of a stalled run (unless every run is
            # terminating): every other window did not stall.
            xs = [1.0] * len(self.stalls) + [0.0] * (self.windows - len(self.stalls))
            mean, hw, n = _core.interval(xs, False)
            metrics["run"]["stalled"] = {"mean": mean, "ci95_half_width": hw, "n": n}
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
    kinds = [f["traffic"]["kind"] for f in resolved["flow"]] if "flow" in resolved else [
        resolved["traffic"][s]["kind"] for s in ("a", "b")]
    for (scope, active), kind in zip(flows(resolved), kinds, strict=False):
        if kind == "dialogue":
            out.append(f"{scope}.session_latency_s")
        elif active:
            out += [f"{scope}.throughput_efficiency", f"{scope}.transfer_time_s"]
    return out


def watched_intervals(metrics: Metrics, resolved: Mapping[str, Any]) -> list[tuple[float, float, int]]:
    """(mean, 95% half-width, n) of each measure the precision rule watches (NaN, NaN, 0
    for one the metrics lack)."""
    ivs = []
    for dm in watched_measures(resolved):
        direction, name = dm.rsplit(".", 1)  # scopes have dots (flow.a->b), measures none
        m = metrics.get(direction, {}).get(name)
        ivs.append((m["mean"], m["ci95_half_width"], int(m["n"])) if m else (math.nan, math.nan, 0))
    return ivs


def precision_status(metrics: Metrics, resolved: Mapping[str, Any], precision: float) -> str:
    """"continue" | "reached" | "cap_reached" for the sequential rule."""
    run = resolved["run"]
    ivs = watched_intervals(metrics, resolved)
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


#: Replication records are kept (``Result.records``) up to this many replications per
#: request; beyond it only running summaries are, so memory does not grow with the count.
KEEP_RECORDS_UP_TO = 10_000


class RecordsNotKept(ArqlabError):
    """``Result.records`` of a request too large to keep every replication's record."""


@dataclass
class Result:
    """The outcome of `arqlab.simulate`."""

    metrics: Metrics
    scenario: dict[str, Any]
    seed: int
    summary: RunningSummary = field(repr=False)
    kept_records: list[dict[str, Any]] | None = field(repr=False, default=None)
    precision_reached: bool | None = None

    @property
    def records(self) -> list[dict[str, Any]]:
        """Every replication's record, in replication order (requests of at most
        ``KEEP_RECORDS_UP_TO`` replications; larger ones keep only running summaries)."""
        if self.kept_records is None:
            raise RecordsNotKept(
                f"records of {self.replications} replications were not kept (more than {KEEP_RECORDS_UP_TO} "
                "are summarised as they arrive, at constant memory); read them from the result store instead "
                "(arqlab store export)"
            )
        return self.kept_records

    @property
    def events(self) -> int:
        return self.summary.events

    @property
    def simulated_s(self) -> float:
        return float(self.summary.simulated_s)

    @property
    def wall_s(self) -> float:
        return float(self.summary.wall_s)

    @property
    def replications(self) -> int:
        return self.summary.n

    @property
    def warnings(self) -> list[str]:
        """Things the user should know about the quality of these numbers."""
        out: list[str] = []
        s = self.summary
        if s.unreliable:
            out.append(
                f"MSER-5 truncation hit its limit (half the run) in {s.unreliable} of {s.n} "
                f"replication(s) {s.first_unreliable}: the warm-up may not be over; run longer (run.duration_s)"
            )
        for replication, message in s.stalls[:5]:
            out.append(f"replication {replication}: {message}")
        if len(s.stalls) > 5:
            out.append(f"... a flow stalled in {len(s.stalls)} of {s.n} replications")
        if self.precision_reached is False:
            out.append("the precision target was not reached before run.max_replications")
        return out

    @property
    def stalled(self) -> list[tuple[int, str]]:
        """(replication, message) of every replication that ended early because a
        reliable flow stalled (data pending, no progress end to end for 20 × its longest
        legitimate wait — its largest timer or a full send window — or ``run.stall_timers`` ×,
        plus the longest declared outage, at least a dialogue's session cap); empty if none
        did. Their measures cover the run up to the stall only."""
        return list(self.summary.stalls)

    @property
    def outcome(self) -> str:
        """``"stalled"`` if any replication stalled, else ``"ok"``."""
        return "stalled" if self.summary.stalls else "ok"

    def to_frame(self) -> pd.DataFrame:
        return frame(self.metrics)

    def _repr_html_(self) -> str:
        """A compact table for notebooks: each scope's measures with mean ± 95% CI
        half-width and n, under a caption naming the scenario, seed and replications;
        warnings (a stall, a truncated warm-up) below it. Every name is escaped."""
        from html import escape

        from .scenario import describe

        def num(x: Any) -> str:
            return "—" if not isinstance(x, (int, float)) or not math.isfinite(x) else f"{x:.6g}"

        sc = self.scenario
        title = sc.get("title") or describe(sc) if isinstance(sc, dict) else ""
        caption = f"{title} — seed {self.seed}, {self.replications} replication(s), 95% confidence intervals"
        rows = []
        for scope, measures in self.metrics.items():
            for i, (name, s) in enumerate(measures.items()):
                first = f'<th rowspan="{len(measures)}" style="text-align:left">{escape(scope)}</th>' if i == 0 else ""
                rows.append(f"<tr>{first}<td style=\"text-align:left\">{escape(name)}</td><td>{num(s.get('mean'))}</td>"
                            f"<td>± {num(s.get('ci95_half_width'))}</td><td>{num(s.get('n'))}</td></tr>")
        warnings = "".join(f"<li>{escape(w)}</li>" for w in self.warnings)
        return (f'<table class="arqlab-result"><caption>{escape(str(caption))}</caption>'
                "<thead><tr><th>scope</th><th>measure</th><th>mean</th><th>95% CI</th><th>n</th></tr></thead>"
                f"<tbody>{''.join(rows)}</tbody></table>" + (f"<ul>{warnings}</ul>" if warnings else ""))

    def to_dict(self) -> dict[str, Any]:
        """The JSON structure of `arqlab run --json` (non-finite values are None/null:
        an undefined measure, the infinite half-width of one replication)."""
        return finite_or_none({
            "metrics": self.metrics,
            "warnings": self.warnings,
            "events": self.events,
            "simulated_s": self.simulated_s,
            "wall_s": self.wall_s,
            "replications": self.replications,
            "seed": self.seed,
            "precision_reached": self.precision_reached,
            "outcome": self.outcome,
            "scenario": self._scenario_as_run(),
        })

    def _scenario_as_run(self) -> dict[str, Any]:
        """The scenario with ``run.replications`` set to the replications actually used
        (not the file's count, which ``--replications`` or a precision target overrode)."""
        out = dict(self.scenario)
        run = out.get("run")
        if isinstance(run, dict) and self.replications:
            out["run"] = {**run, "replications": self.replications}
        return out


def warn_stalls(label: str, stalls: Sequence[tuple[int, str]]) -> None:
    """A run whose reliable flow stalled is not a measurement: say so on stderr (its
    ``run.stalled`` measure is in the results too)."""
    for replication, message in stalls[:3]:
        print(printable(f"arqlab: warning: {label}: replication {replication}: {message}"), file=sys.stderr)
    if len(stalls) > 3:
        print(printable(f"arqlab: warning: {label}: a flow stalled in {len(stalls)} replications"), file=sys.stderr)

