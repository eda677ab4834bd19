"""The store as one tidy table (one row per replication × batch × direction × measure),
exported to Parquet or CSV."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arqlab.errors import ArqlabError
from arqlab.outputs import replaced_atomically
from arqlab.store.db import StoreBase
from arqlab.store.keys import flatten

if TYPE_CHECKING:
    import pandas as pd


class TidyStore(StoreBase):
    """The tidy export (see :class:`arqlab.store.Store`)."""

    def records(self) -> Iterator[tuple[str, int, int, str, dict[str, Any], float]]:
        """All stored replications: (hash, seed, replication, version, record, created)."""
        with self._guard("cannot read") as conn:
            rows = conn.execute(
                "SELECT hash, seed, replication, version, record, created FROM replications "
                "ORDER BY hash, version, seed, replication"
            ).fetchall()
        for h, seed, rep, version, record, created in rows:
            yield h, seed, rep, version, json.loads(record), created

    def tidy(self) -> pd.DataFrame:
        """One row per replication × batch × direction × measure, with flattened scenario columns."""
        import pandas as pd

        scenario_cols: dict[str, dict[str, Any]] = {}
        rows: list[dict[str, Any]] = []
        for h, seed, rep, version, record, created in self.records():
            if h not in scenario_cols:
                scenario_cols[h] = flatten(self.scenario(h) or {})
            for b, batch in enumerate(record.get("batches", [])):
                for direction, measures in batch.items():
                    for measure, value in measures.items():
                        rows.append(
                            {
                                "scenario_hash": h,
                                "seed": seed,
                                "replication": rep,
                                "batch": b,
                                "version": version,
                                "direction": direction,
                                "measure": measure,
                                "value": float(value),
                                "events": int(record.get("events", 0)),
                                "simulated_s": float(record.get("simulated_s", 0.0)),
                                "wall_s": float(record.get("wall_s", 0.0)),
                                "fingerprint": str(record.get("fingerprint", "")),
                                "created": created,
                            }
                        )
        base = pd.DataFrame(
            rows,
            columns=[
                "scenario_hash", "seed", "replication", "batch", "version", "direction", "measure",
                "value", "events", "simulated_s", "wall_s", "fingerprint", "created",
            ],
        )
        keys = sorted({k for cols in scenario_cols.values() for k in cols})
        params: dict[str, list[Any]] = {}
        for k in keys:
            per_hash = {h: _param_cell(cols.get(k)) for h, cols in scenario_cols.items()}
            values = [per_hash[h] for h in base["scenario_hash"]]
            params[k] = _uniform_column(values)
        return pd.concat([base, pd.DataFrame(params, index=base.index)], axis=1)

    def export(self, *, parquet: str | os.PathLike[str] | None = None,
               csv: str | os.PathLike[str] | None = None) -> int:
        """Write the tidy table to Parquet and/or CSV; returns the number of rows."""
        if parquet is None and csv is None:
            raise ArqlabError("store export: give a Parquet path, a CSV path, or both")
        df = self.tidy()
        for target, kind in ((parquet, "parquet"), (csv, "csv")):
            if target is None:
                continue
            path = Path(target)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ArqlabError(f"store export: cannot write {path}: {exc.strerror or exc}") from None
            # Written beside the target and renamed: an interrupted export leaves the
            # previous file whole, never a truncated one.
            with replaced_atomically(path, f"store export --{kind}") as tmp:
                if kind == "parquet":
                    df.to_parquet(tmp, index=False)
                else:
                    df.to_csv(tmp, index=False)
        return len(df)

def _param_cell(value: Any) -> Any:
    if isinstance(value, (list, dict)):
        return json.dumps(value, sort_keys=True)
    return value


def _uniform_column(values: list[Any]) -> list[Any]:
    """Keep a column numeric when every present value is a number; otherwise make it text."""
    present = [v for v in values if v is not None]
    if all(isinstance(v, bool) for v in present):
        return values
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        if any(isinstance(v, float) for v in present):
            return [float(v) if v is not None else math.nan for v in values]
        return values
    return [None if v is None else str(v) for v in values]


