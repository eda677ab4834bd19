"""Outputs are replaced in one step (issue 29 item 7): `store export`, the demo's CSV and
PNG and every file of the HTML report are written to a temporary file beside the target
and renamed, so a write interrupted half-way (Ctrl-C, a full disk) leaves the previous
file intact and no temporary file behind."""

from __future__ import annotations

import errno
import importlib
from pathlib import Path
from typing import Any

import matplotlib.figure
import pandas as pd
import pytest

from arqlab import demo, report
from arqlab.errors import ArqlabError
from arqlab.store import Store


def _half_then(exc: BaseException) -> Any:
    """A writer that puts a few bytes in its target, then fails like an interruption."""
    def write(self: Any, path: Any, *args: Any, **kwargs: Any) -> None:
        Path(path).write_bytes(b"half")
        raise exc
    return write


def _left(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize("kind", ["csv", "parquet"])
@pytest.mark.parametrize("exc", [KeyboardInterrupt(), OSError(errno.ENOSPC, "No space left on device")])
def test_interrupted_store_export_keeps_the_previous_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         kind: str, exc: BaseException) -> None:
    target = tmp_path / f"results.{kind}"
    target.write_bytes(b"previous export")
    monkeypatch.setattr(pd.DataFrame, "to_csv" if kind == "csv" else "to_parquet", _half_then(exc))
    with Store(tmp_path / "store.sqlite") as store:
        monkeypatch.setattr(store, "tidy", lambda: pd.DataFrame({"measure": ["m"], "value": [1.0]}))
        with pytest.raises(KeyboardInterrupt if isinstance(exc, KeyboardInterrupt) else ArqlabError) as info:
            store.export(**{kind: target})
    if isinstance(exc, OSError):
        assert f"store export --{kind} {target}: cannot write: No space left on device" == str(info.value)
    assert target.read_bytes() == b"previous export"
    assert _left(tmp_path) == sorted(["store.sqlite", target.name, *(p.name for p in tmp_path.glob("store.sqlite-*"))])


def test_a_completed_store_export_replaces_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "results.csv"
    target.write_bytes(b"previous export")
    with Store(tmp_path / "store.sqlite") as store:
        monkeypatch.setattr(store, "tidy", lambda: pd.DataFrame({"measure": ["m"], "value": [1.0]}))
        assert store.export(csv=target) == 1
    assert pd.read_csv(target).to_dict("list") == {"measure": ["m"], "value": [1.0]}


@pytest.mark.parametrize("data", ["<html>new</html>", b"\x89PNG new"])
def test_interrupted_report_file_keeps_the_previous_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        data: str | bytes) -> None:
    page = tmp_path / "index.html"
    page.write_text("previous report")
    method = "write_bytes" if isinstance(data, bytes) else "write_text"
    original = getattr(Path, method)

    def half(self: Path, content: Any, *args: Any, **kwargs: Any) -> int:
        original(self, content[:3], *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(Path, method, half)
    with pytest.raises(KeyboardInterrupt):
        report._write(page, data)
    monkeypatch.undo()
    assert page.read_text() == "previous report" and _left(tmp_path) == ["index.html"]
    report._write(page, data)  # and a write that completes replaces it
    assert (page.read_bytes() if isinstance(data, bytes) else page.read_text()) == data


def test_interrupted_demo_keeps_the_previous_plot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "demo.png").write_bytes(b"previous plot")
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", _half_then(KeyboardInterrupt()))
    monkeypatch.setattr(importlib.import_module("arqlab.sweep"), "sweep", lambda base, grid, **kw: pd.DataFrame(
        [{"direction": "a_to_b", "measure": "throughput_efficiency", "protocol.kind": k,
          "traffic.a.length.mean_bits": x, "mean": 0.5, "ci95_half_width": 0.01}
         for k in demo.KINDS for x in demo.LENGTHS]))
    with pytest.raises(KeyboardInterrupt):
        demo.run(tmp_path, workers=1, quick=True)
    assert (tmp_path / "demo.png").read_bytes() == b"previous plot"
    assert _left(tmp_path) == ["demo.csv", "demo.png"]  # the CSV, written before, is whole
    assert len(pd.read_csv(tmp_path / "demo.csv")) == len(demo.KINDS) * len(demo.LENGTHS)
