"""`make reproduce`'s driver (arqlab.studies.reproduce_all): scheduling and CPU accounting,
with stand-in commands instead of the studies (which take CPU-minutes)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from arqlab.studies import reproduce_all
from arqlab.studies.reproduce_all import run_all, verdict_line


def burn(seconds: float, code: int = 0, also_child: bool = False) -> list[str]:
    """A command that spends about `seconds` of CPU (half in a child of its own if
    `also_child`), prints a verdict line and exits with `code`."""
    spin = f"t=__import__('time').process_time()\nwhile __import__('time').process_time()-t<{seconds / (2 if also_child else 1)}: pass"
    child = f"import subprocess,sys; subprocess.run([sys.executable,'-c',{spin!r}])\n" if also_child else ""
    return [sys.executable, "-c", f"{child}{spin}\nprint('Verdicts: {code} stand-in')\nraise SystemExit({code})"]


def test_each_command_gets_its_cpu_including_its_children_and_its_log(tmp_path: Path) -> None:
    runs = run_all([("a", burn(0.3, also_child=True)), ("b", burn(0.1))], jobs=2, log_dir=tmp_path)
    assert [r.name for r in runs] == ["a", "b"]
    assert all(r.returncode == 0 for r in runs)
    # A child's CPU counts for its study (the workers of a reproduction are children).
    assert runs[0].cpu_s >= 0.25
    assert 0.08 <= runs[1].cpu_s < runs[0].cpu_s
    assert verdict_line(runs[0].log) == "Verdicts: 0 stand-in"


def test_jobs_run_together_and_never_more_than_jobs_at_once(tmp_path: Path) -> None:
    # Each stand-in records its start and end; "a" and "b" wait for each other's start
    # (so they pass only if run together), "c" must wait for a free slot.
    def cmd(name: str, partner: str | None) -> list[str]:
        wait = (f"d=time.time()+60\nwhile not os.path.exists({str(tmp_path / partner)!r}+'.start'):\n"
                f"    time.sleep(0.01)\n    if time.time()>d: raise SystemExit(1)\n") if partner else ""
        body = (f"import os,time\nopen({str(tmp_path / name)!r}+'.start','w').write(repr(time.time()))\n{wait}"
                f"time.sleep(0.2)\nopen({str(tmp_path / name)!r}+'.end','w').write(repr(time.time()))\n")
        return [sys.executable, "-c", body]

    runs = run_all([("a", cmd("a", "b")), ("b", cmd("b", "a")), ("c", cmd("c", None))], jobs=2, log_dir=tmp_path / "logs")
    assert [r.returncode for r in runs] == [0, 0, 0], "a and b ran at the same time"
    span = {n: (float((tmp_path / f"{n}.start").read_text()), float((tmp_path / f"{n}.end").read_text())) for n in "abc"}
    # c started only after a or b had ended: never three at once.
    assert span["c"][0] >= min(span["a"][1], span["b"][1])


def test_a_failing_study_is_reported_with_its_status(tmp_path: Path) -> None:
    runs = run_all([("ok", burn(0.0)), ("bad", burn(0.0, code=3))], jobs=1, log_dir=tmp_path)
    assert [r.returncode for r in runs] == [0, 3]


def test_bad_arguments_name_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        reproduce_all.main(["nosuchstudy"])
    assert e.value.code == 2
    assert "unknown study 'nosuchstudy'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        reproduce_all.main(["--jobs", "0"])
    assert e.value.code == 2
    assert "--jobs must be at least 1 (got 0)" in capsys.readouterr().err
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        run_all([], jobs=0, log_dir=Path("."))


def test_the_studies_are_the_registered_ones() -> None:
    from arqlab.studies import STUDIES

    assert sorted(reproduce_all.STUDIES) == sorted(STUDIES)


def test_the_end_prints_each_studys_cpu_and_the_total(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # The studies' commands replaced by stand-ins that burn known CPU: the last lines
    # are one row per study (its CPU seconds) and the total, in CPU-minutes too.
    real = run_all
    monkeypatch.setattr(reproduce_all, "run_all", lambda cmds, jobs, out: real([(n, burn(0.2 if n == "colella" else 0.0)) for n, _ in cmds], jobs, out))
    assert reproduce_all.main(["colella", "johnson", "--out", str(tmp_path), "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    rows = {line.split()[0]: line.split() for line in lines[-3:]}
    assert list(rows) == ["johnson", "colella", "total"], "studies in the registered order, then the total"
    assert float(rows["colella"][1]) >= 0.15 and float(rows["johnson"][1]) < 0.15
    assert float(rows["total"][1]) == pytest.approx(float(rows["colella"][1]) + float(rows["johnson"][1]), abs=0.11)
    assert "CPU-minutes" in lines[-1]
    assert lines[-2].endswith("Verdicts: 0 stand-in"), "each study's row ends with its verdict line"
