"""A store on a read-only filesystem (issue 16, item 8): `store ls`, `store show`,
`store export` and `report` open it read-only and work; nothing is written to it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arqlab.report import build_report
from arqlab.store import Store, canonical_hash
from arqlab.sweep import sweep
from arqlab.testing import fake_run_replication

GBN = "scenarios/go_back_n.toml"


def _read_only(directory: Path) -> Iterator[None]:
    """Make ``directory`` read-only: a read-only bind mount as root (permissions do not
    stop root), else permission bits."""
    if os.geteuid() == 0:
        if shutil.which("mount") is None:
            pytest.skip("mount is not available")
        shadow = directory.with_name(directory.name + "-rw")
        directory.rename(shadow)
        directory.mkdir()
        ok = subprocess.run(["mount", "--bind", str(shadow), str(directory)], capture_output=True).returncode == 0
        ok = ok and subprocess.run(["mount", "-o", "remount,bind,ro", str(directory)],
                                   capture_output=True).returncode == 0
        if not ok:
            subprocess.run(["umount", str(directory)], capture_output=True)
            pytest.skip("cannot make a read-only bind mount here")
        try:
            yield
        finally:
            if subprocess.run(["umount", str(directory)], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", str(directory)], check=True)
    else:
        for p in [*directory.iterdir(), directory]:
            p.chmod(0o555 if p.is_dir() else 0o444)
        try:
            yield
        finally:
            for p in [directory, *directory.iterdir()]:
                p.chmod(0o755 if p.is_dir() else 0o644)


@pytest.fixture
def ro_store(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "results"
    folder.mkdir()
    path = folder / "store.sqlite"
    with Store(path) as store:
        sweep(GBN, {"link.delay_s": [0.01, 0.1]}, replications=3, executor="serial", store=store,
              runner=fake_run_replication, name="delay sweep")
    before = sorted(p.name for p in folder.iterdir())
    gen = _read_only(folder)
    next(gen)
    try:
        with pytest.raises(OSError):
            (folder / "probe").write_text("x")
        yield path
        assert sorted(p.name for p in folder.iterdir()) == before
    finally:
        next(gen, None)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True, timeout=120)


def test_store_commands_work_on_a_read_only_filesystem(ro_store: Path, tmp_path: Path) -> None:
    p = cli("store", "--store", str(ro_store), "ls")
    assert p.returncode == 0, p.stderr
    assert "delay sweep" in p.stdout
    with Store(ro_store, readonly=True) as s:
        h = next(iter({e["hash"] for e in s.ls()}))
    p = cli("store", "--store", str(ro_store), "show", h[:8])
    assert p.returncode == 0, p.stderr
    assert "3 replications" in p.stdout
    p = cli("store", "--store", str(ro_store), "export", "--csv", str(tmp_path / "x.csv"))
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "x.csv").stat().st_size > 0


def test_report_works_on_a_read_only_filesystem(ro_store: Path, tmp_path: Path) -> None:
    index = build_report(ro_store, tmp_path / "report")
    assert "delay sweep" in index.read_text(encoding="utf-8")
    p = cli("report", "--store", str(ro_store), "--out", str(tmp_path / "r2"))
    assert p.returncode == 0, p.stderr


def test_a_read_only_store_refuses_writes(ro_store: Path) -> None:
    from arqlab.errors import ArqlabError

    with Store(ro_store, readonly=True) as s:
        with pytest.raises(ArqlabError, match="opened read-only"):
            s.record_study("x")
        assert s.get(canonical_hash({"x": 1}), 1, 0) is None
