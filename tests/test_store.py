"""The result store: round trip, version isolation, export, corruption and locking."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from arqlab.errors import ArqlabError
from arqlab.store import Store, canonical_hash, key_scenario, record_claims, record_study
from arqlab.store.cli import register_cli
from arqlab.testing import fake_run_replication

SCENARIO: dict[str, Any] = {
    "link": {"rate_bps": 48000.0, "delay_s": 0.05},
    "protocol": {"kind": "go_back_n", "window": 7},
    "run": {"duration_s": 10.0, "replications": 3, "method": "replications"},
}


def record(rep: int, seed: int = 1, scenario: dict[str, Any] = SCENARIO) -> dict[str, Any]:
    import json

    return fake_run_replication(json.dumps(scenario, sort_keys=True), seed, rep)


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        h = canonical_hash(SCENARIO)
        assert store.get(h, 1, 0) is None
        assert store.put(SCENARIO, 1, 0, record(0)) is True
        assert store.get(h, 1, 0) == record(0)
        assert store.scenario(h) == key_scenario(SCENARIO)
    with Store(path) as again:
        assert again.get(h, 1, 0) == record(0)
        assert again.count() == 1
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_existing_rows_are_never_overwritten(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        h = store.ensure_scenario(SCENARIO)
        assert store.put(SCENARIO, 1, 0, record(0))
        assert store.put(SCENARIO, 1, 0, record(5)) is False
        assert store.get(h, 1, 0) == record(0)


def test_canonical_hash_ignores_key_order_and_stopping_rule() -> None:
    a = {"b": 1, "a": {"y": 2.5, "x": "s"}, "run": {"replications": 3, "duration_s": 5.0}}
    b = {"a": {"x": "s", "y": 2.5}, "run": {"duration_s": 5.0, "replications": 30, "precision": 0.05}, "b": 1}
    assert canonical_hash(a) == canonical_hash(b)
    assert canonical_hash(a) != canonical_hash({**a, "b": 2})
    assert len(canonical_hash(a)) == 64
    batch = {"run": {"method": "batch_means", "precision": 0.05}}
    assert canonical_hash(batch) != canonical_hash({"run": {"method": "batch_means", "precision": 0.01}})


def test_other_versions_are_not_used_unless_asked(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        h = store.ensure_scenario(SCENARIO)
        store.put(SCENARIO, 1, 0, record(0), version="0.0.1-old")
        assert store.get(h, 1, 0) is None
        assert store.get(h, 1, 0, any_version=True) == record(0)
        store.put(SCENARIO, 1, 0, record(1))
        assert store.get(h, 1, 0, any_version=True) == record(1)
        assert store.get(h, 1, 0, version="0.0.1-old") == record(0)


def test_export_parquet_and_csv_are_tidy(tmp_path: Path) -> None:
    other = {**SCENARIO, "link": {"rate_bps": 9600.0, "delay_s": 0.5}}
    with Store(tmp_path / "s.sqlite") as store:
        for rep in range(3):
            store.put(SCENARIO, 7, rep, record(rep, 7))
        store.put(other, 7, 0, record(0, 7, other))
        n = store.export(parquet=tmp_path / "out" / "all.parquet", csv=tmp_path / "out" / "all.csv")
    measures = len(record(0)["batches"][0]["a_to_b"])
    assert n == 4 * 2 * measures
    for df in (pd.read_parquet(tmp_path / "out" / "all.parquet"), pd.read_csv(tmp_path / "out" / "all.csv")):
        assert len(df) == n
        for col in ("scenario_hash", "seed", "replication", "batch", "version", "direction", "measure", "value",
                    "link.rate_bps", "protocol.kind", "protocol.window"):
            assert col in df.columns
        assert set(df["direction"]) == {"a_to_b", "b_to_a"}
        assert sorted(df["link.rate_bps"].unique()) == [9600.0, 48000.0]
        one = df[(df["replication"] == 1) & (df["direction"] == "a_to_b") & (df["measure"] == "throughput_efficiency")]
        assert one["value"].tolist() == [record(1, 7)["batches"][0]["a_to_b"]["throughput_efficiency"]]


def test_corrupted_store_is_an_error_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    junk = b"this is not a database\n" * 100
    path.write_bytes(junk)
    with pytest.raises(ArqlabError, match="store.sqlite.*not an SQLite database"):
        Store(path)
    assert path.read_bytes() == junk


def test_damaged_sqlite_file_is_an_error_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    with Store(path) as store:
        store.put(SCENARIO, 1, 0, record(0))
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    path.write_bytes(bytes(data))
    before = path.read_bytes()
    with pytest.raises(ArqlabError, match=str(path)):
        with Store(path) as store:
            store.count()
    assert path.read_bytes() == before


def test_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE people(name TEXT)")
    conn.execute("INSERT INTO people VALUES ('ada')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(ArqlabError, match="not an arqlab result store"):
        Store(path)
    assert path.read_bytes() == before


def test_locked_store_is_a_clear_error_and_keeps_rows(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        store.put(SCENARIO, 1, 0, record(0))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with Store(path, timeout=0.2) as store:
            with pytest.raises(ArqlabError, match="locked"):
                store.put(SCENARIO, 1, 1, record(1))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with Store(path) as store:
        assert store.count() == 1
        assert store.get(canonical_hash(SCENARIO), 1, 0) == record(0)


def test_unwritable_path_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(ArqlabError, match="cannot create directory"):
        Store(blocker / "store.sqlite")
    with pytest.raises(ArqlabError, match="is a directory"):
        Store(tmp_path)


def test_default_path_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARQLAB_STORE", str(tmp_path / "env" / "x.sqlite"))
    with Store() as store:
        assert store.path == tmp_path / "env" / "x.sqlite"
    assert (tmp_path / "env" / "x.sqlite").exists()


def test_gc_removes_other_versions_and_orphans(tmp_path: Path) -> None:
    other = {**SCENARIO, "protocol": {"kind": "selective_repeat", "window": 7}}
    with Store(tmp_path / "s.sqlite") as store:
        store.put(SCENARIO, 1, 0, record(0))
        store.put(SCENARIO, 1, 1, record(1), version="0.0.0")
        store.put(other, 1, 0, record(0, 1, other), version="0.0.0")
        store.record_sweep("s", pd.DataFrame({"x": [1]}))
        counts = store.gc()
        assert counts == {"replications": 2, "sweeps": 0, "claims": 0, "scenarios": 1}
        assert store.count() == 1
        assert store.scenario(canonical_hash(other)) is None


def test_sweeps_studies_and_claims(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    table = pd.DataFrame({"link.rate_bps": [1.0, 2.0], "mean": [0.5, float("nan")]})
    with Store(path) as store:
        store.record_sweep("fig", table, grid={"link.rate_bps": [1.0, 2.0]}, study="s1", figure="3",
                           base_scenario=SCENARIO, seed=4)
        store.record_sweep("fig", table.head(1), study="s1", figure="3")
        (info,) = store.sweeps()
        assert info.name == "fig" and info.study == "s1" and len(info.rows) == 1
    record_study("s1", title="Study one", citation="A. Author, 1985", store=path)
    assert record_claims("s1", [{"claim": "c", "verdict": "agrees", "evidence": "e"}], figure="3", store=path) == 1
    record_claims("s1", [{"claim": "c2", "verdict": "partly"}], figure="3", store=path)
    with Store(path) as store:
        assert [c.claim for c in store.claims("s1")] == ["c2"]
        assert store.studies()[0].title == "Study one"
        with pytest.raises(ArqlabError, match=r"claims\[0\]: missing verdict"):
            store.record_claims("s1", [{"claim": "no verdict"}])


def _cli(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="arqlab")
    register_cli(parser.add_subparsers(dest="command"))
    return parser.parse_args(argv)


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        for rep in range(3):
            store.put(SCENARIO, 1, rep, record(rep))
    h = canonical_hash(SCENARIO)
    args = _cli(["store", "--store", str(path), "ls"])
    assert args.handler(args) == 0
    assert h[:12] in capsys.readouterr().out
    args = _cli(["store", "show", h[:8], "--store", str(path)])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert "throughput_efficiency" in out and "3 replications" in out
    args = _cli(["store", "--store", str(path), "export", "--csv", str(tmp_path / "x.csv")])
    assert args.handler(args) == 0
    assert pd.read_csv(tmp_path / "x.csv")["replication"].nunique() == 3
    args = _cli(["store", "--store", str(path), "show", "ffff0000"])
    assert args.handler(args) == 2
    err = capsys.readouterr().err
    assert err.strip() == "arqlab store: error: store key 'ffff0000': no scenario with this hash in " + str(path)
    args = _cli(["store", "--store", str(path), "export"])
    assert args.handler(args) == 2
    args = _cli(["store", "--store", str(path), "gc"])
    assert args.handler(args) == 0
    assert "deleted 0 replications" in capsys.readouterr().out
    bad = tmp_path / "bad.sqlite"
    bad.write_text("garbage")
    args = _cli(["store", "--store", str(bad), "ls"])
    assert args.handler(args) == 2
    assert "not an SQLite database" in capsys.readouterr().err
