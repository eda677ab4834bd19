"""Every fenced block of README.md and docs/ is executed or explicitly exempted (issue 29
item 12), so the docs cannot drift. The line before each fence carries a mark:

- ``<!-- check-output -->``: a shell transcript of ``$ command`` lines, each followed by its
  expected output (stdout, or stderr when the command fails; a ``...`` line stands for any
  lines; ``<N>`` in a line stands for one number, for values that legitimately differ
  between runs, such as a study pass's verdict counts, quick in CI and full as written;
  ``$ echo $?`` prints the previous exit code), or a Python doctest. Run and compared.
- ``<!-- run -->``: shell commands (``arqlab …``, ``python -m …``), each must exit 0; or
  Python code, which must run without an exception. A study pass (``arqlab reproduce …``,
  ``python -m arqlab.studies.…``) costs CPU-minutes as written, so the normal suite runs
  its *CI form* (:func:`ci_form`). In a ``run`` block, ``arqlab reproduce`` (and ``python
  -m arqlab.studies.STUDY``, the same command) gets ``--dry-run``: its options, figures,
  tables, ``--out`` and robustness design are checked as for a real pass and its plan is
  printed, nothing is simulated — each study's quick pass itself runs in its own test
  (``test_bux1982.py``, ``test_colella.py``, ``test_comer_korb.py``, ``test_biersack.py``,
  ``test_johnson.py``). Any other study module (``python -m
  arqlab.studies.biersack.timers``), and a study pass whose output a ``check-output``
  block shows, runs for real with ``--quick`` added, every such run of the session
  sharing one result store (``--store`` and ``$ARQLAB_STORE`` point at it), so what one
  command simulated the next reads back, as a user's re-run does. With
  ``ARQLAB_DOCS_REPRODUCE=1`` the commands run as written (full precision, the
  robustness passes, each page with its own store).
- ``<!-- scenario -->``: a complete TOML scenario; ``arqlab check`` must accept it.
- ``<!-- scenario-fragment: scenarios/X.toml -->``: TOML laid over X (:func:`merged`: a
  top-level table merges key by key, whatever it gives is replaced whole, arrays of
  tables too); ``arqlab check`` must accept the result.
- ``<!-- file: NAME -->``: written to NAME before the page's other blocks run.
- ``<!-- not-run: REASON -->``: a layout, diagram, formula, SQL, ``make`` target or cluster
  command; the reason is required.

The blocks of a page run in order in one temporary folder that links ``scenarios/`` and has
its own result store; the page's Python blocks share one namespace. Wall times and event
rates (``in 0.123 wall s (22.4 M events/s)``) are not compared.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
VOLATILE = re.compile(r"in [\d.]+ wall s \([\d.]+ M events/s\)")
KINDS = ("check-output", "run", "scenario", "scenario-fragment", "file", "not-run")
REPRODUCE_ENV = "ARQLAB_DOCS_REPRODUCE"


@dataclass
class Block:
    page: Path
    line: int  # of the first line inside the fence
    kind: str  # one of KINDS, or "" when unmarked
    arg: str  # file name, fragment base or reason
    lang: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page.name}:{self.line}"


def _mark(line: str) -> tuple[str, str]:
    m = re.fullmatch(r"<!--\s*([a-z-]+)\s*(?::\s*(.*?))?\s*-->", line.strip())
    if not m or m.group(1) not in KINDS:
        return "", ""
    return m.group(1), (m.group(2) or "").strip()


def blocks(page: Path) -> list[Block]:
    """Every fenced block of the page, with the mark on the line before its fence."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        fence = lines[i].strip()
        if not fence.startswith("```"):
            i += 1
            continue
        indent = len(lines[i]) - len(lines[i].lstrip())
        kind, arg = _mark(lines[i - 1]) if i else ("", "")
        j, body = i + 1, []
        while lines[j].strip() != "```":
            body.append(lines[j][indent:])
            j += 1
        out.append(Block(page, i + 2, kind, arg, fence[3:].strip(), "\n".join(body) + "\n"))
        i = j + 1
    return out


def _cli(argv: list[str]) -> list[str]:
    """The argv to execute for a documented command (this interpreter's arqlab)."""
    if argv[0] == "arqlab":
        return [sys.executable, "-m", "arqlab.cli", *argv[1:]]
    assert argv[:2] == ["python", "-m"], f"a documented command runs arqlab or python -m: {argv}"
    return [sys.executable, *argv[1:]]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cli(argv), capture_output=True, text=True, timeout=900, env=os.environ.copy())


NUMBER = r"-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?"


def _line_matches(want: str, got: str) -> bool:
    """One shown line against one actual line; ``<N>`` stands for a number."""
    if "<N>" not in want:
        return want == got
    return re.fullmatch(re.escape(want).replace(re.escape("<N>"), NUMBER), got) is not None


def _matches(want: list[str], got: list[str]) -> bool:
    """Shown output against actual, line by line; a ``...`` line stands for any lines."""
    if not want:
        return not got
    if want[0].strip() in ("...", "…"):
        return any(_matches(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and _line_matches(want[0], got[0]) and _matches(want[1:], got[1:])


def _run_shell(block: Block, store: Path | None = None) -> list[str]:
    mismatches: list[str] = []
    commands: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            assert commands, f"{block.where}: output before any $ command"
            commands[-1][1].append(line)
    rc = 0
    for command, expected in commands:
        if command == "echo $?":
            actual = [str(rc)]
        else:
            argv = shlex.split(command)
            if store is not None and is_study_pass(argv):
                p = subprocess.run(_cli(ci_form(argv, store, shown=True)), capture_output=True, text=True, timeout=900,
                                   env={**os.environ, "ARQLAB_STORE": str(store)})
            else:
                p = _run(argv)
            rc = p.returncode
            actual = (p.stdout if rc == 0 else p.stderr).splitlines()
        want = [VOLATILE.sub("in … wall s", x).rstrip() for x in expected]
        got = [VOLATILE.sub("in … wall s", x).rstrip() for x in actual]
        if not _matches(want, got):
            mismatches.append(f"$ {command}\n--- documented\n" + "\n".join(want) + "\n--- actual\n" + "\n".join(got))
    return mismatches


def command_lines(text: str) -> list[str]:
    """The commands of a shell block: continuations joined, ``# comments`` dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    lines = (re.sub(r"(^|\s)#.*$", "", x).strip().removeprefix("$ ") for x in joined.splitlines())
    return [c for c in lines if c]


def is_study_pass(argv: list[str]) -> bool:
    return argv[:2] == ["arqlab", "reproduce"] or (argv[:2] == ["python", "-m"] and argv[2].startswith("arqlab.studies."))


def _plans_only(argv: list[str]) -> bool:
    """``arqlab reproduce`` or ``python -m arqlab.studies.STUDY``: accepts ``--dry-run``."""
    return argv[:2] == ["arqlab", "reproduce"] or argv[2].count(".") == 2


def ci_form(argv: list[str], store: Path, shown: bool = False) -> list[str]:
    """A study pass as the normal suite runs it (module docstring): planned with
    ``--dry-run``, or (another study module, or ``shown``: its output is compared) run
    quick against the session's store. Other commands as written."""
    if not is_study_pass(argv):
        return argv
    if _plans_only(argv) and not shown:
        return [*argv, "--dry-run"]
    out: list[str] = []
    args = iter(argv)
    for a in args:
        if a == "--store":
            next(args)  # its path: replaced by the session's store
        elif not a.startswith("--store="):
            out.append(a)
    return [*out, *(["--quick"] if "--quick" not in out else []), *([] if "--no-store" in out else ["--store", str(store)])]


def _run_commands(block: Block, store: Path | None = None) -> list[str]:
    """Each command of the block must exit 0; with ``store``, study passes in their CI form."""
    failures = []
    for command in command_lines(block.text):
        argv = shlex.split(command)
        env = None
        if store is not None and any(is_study_pass(shlex.split(c)) for c in command_lines(block.text)):
            argv, env = ci_form(argv, store), {**os.environ, "ARQLAB_STORE": str(store)}
        p = subprocess.run(_cli(argv), capture_output=True, text=True, timeout=900, env=env or os.environ.copy())
        if p.returncode != 0:
            failures.append(f"{block.where}: $ {shlex.join(argv)} → exit {p.returncode}\n{p.stderr[-2000:]}")
    return failures


def merged(base: dict[str, Any], fragment: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``fragment`` laid over it: a top-level table merges key by key (a
    ``[stack.x]`` joins the base's stacks), and each value it gives replaces the base's
    whole (a ``[traffic.a]`` or ``[stack.llc2]`` shown is the complete table); arrays of
    tables (``[[medium]]``) are replaced."""
    out = dict(base)
    for key, value in fragment.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


def _toml(value: Any) -> str:
    """A TOML literal of a parsed value (inline tables and arrays; enough for scenarios)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    assert isinstance(value, dict), value
    return "{" + ", ".join(f'"{k}" = {_toml(v)}' for k, v in value.items()) + "}"


def dump(doc: dict[str, Any]) -> str:
    return "\n".join(f'"{k}" = {_toml(v)}' for k, v in doc.items()) + "\n"


def _check_scenario(block: Block, workdir: Path) -> list[str]:
    doc = tomllib.loads(block.text)
    if block.kind == "scenario-fragment":
        base = tomllib.loads((ROOT / block.arg).read_text(encoding="utf-8"))
        doc = merged(base, doc)
    path = workdir / f"doc-block-{block.line}.toml"
    path.write_text(dump(doc), encoding="utf-8")
    p = _run(["arqlab", "check", str(path)])
    return [] if p.returncode == 0 else [f"{block.where}: arqlab check refused it:\n{p.stderr[-2000:]}"]


class Page:
    """Runs one page's blocks in order, its Python blocks in one namespace."""

    def __init__(self, page: Path, workdir: Path, study_store: Path | None = None) -> None:
        self.page, self.workdir, self.study_store = page, workdir, study_store
        self.globs: dict[str, Any] = {}
        self.runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)

    def python(self, block: Block) -> list[str]:
        if ">>>" in block.text:
            out: list[str] = []
            test = doctest.DocTestParser().get_doctest(block.text, self.globs, block.where, str(self.page), block.line)
            result = self.runner.run(test, out=out.append, clear_globs=False)
            self.globs = test.globs
            return out + ([f"{block.where}: {result.failed} doctest example(s) failed"] if result.failed else [])
        try:
            exec(compile(block.text, block.where, "exec"), self.globs)  # noqa: S102 - the docs' own code
        except Exception as e:  # noqa: BLE001 - any failure of a shown snippet is the finding
            return [f"{block.where}: {type(e).__name__}: {e}"]
        return []

    def run(self, block: Block) -> list[str]:
        if block.kind == "file":
            (self.workdir / block.arg).write_text(block.text, encoding="utf-8")
            return []
        if block.kind in ("scenario", "scenario-fragment"):
            return _check_scenario(block, self.workdir)
        if block.lang == "python":
            return self.python(block)
        if block.kind == "check-output":
            return [f"{block.where}:\n{m}" for m in _run_shell(block, self.study_store)]
        return _run_commands(block, self.study_store)


@pytest.fixture(scope="session")
def study_store(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The result store every study pass of the session shares (None: as written, gated)."""
    if os.environ.get(REPRODUCE_ENV) == "1":
        return None
    return tmp_path_factory.mktemp("study-passes") / "store.sqlite"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "scenarios").symlink_to(ROOT / "scenarios")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ARQLAB_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    return tmp_path


PAGE_IDS = [str(p.relative_to(ROOT)) for p in PAGES]
RUN_PAGES = [p for p in PAGES if any(b.kind not in ("", "not-run") for b in blocks(p))]


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_every_block_is_marked(page: Path) -> None:
    """An unmarked block would be neither run nor knowingly exempt."""
    bad = [f"{b.where}: no mark (one of {', '.join(KINDS)}) on the line before the fence"
           for b in blocks(page) if not b.kind]
    bad += [f"{b.where}: {b.kind} needs an argument" for b in blocks(page)
            if b.kind in ("file", "not-run", "scenario-fragment") and not b.arg]
    bad += [f"{b.where}: check-output needs $ lines or a doctest" for b in blocks(page)
            if b.kind == "check-output" and not (b.text.startswith("$ ") or ">>>" in b.text)]
    assert bad == []


@pytest.mark.parametrize("page", RUN_PAGES, ids=[str(p.relative_to(ROOT)) for p in RUN_PAGES])
def test_documented_blocks_run_and_show_their_real_output(page: Path, workdir: Path, study_store: Path | None) -> None:
    found = [b for b in blocks(page) if b.kind not in ("", "not-run")]
    runner, problems = Page(page, workdir, study_store), []
    for b in sorted(found, key=lambda b: b.kind != "file"):  # files first: commands name them
        problems += runner.run(b)
    assert not problems, "\n\n".join(problems)


def test_the_checker_catches_drift(workdir: Path, tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("<!-- check-output -->\n```\n$ arqlab run no/such.toml\narqlab: no/such.toml\n```\n")
    (b,) = blocks(page)
    assert _run_shell(b)  # the documented line is out of date: caught


def test_an_elided_output_still_checks_the_lines_it_shows() -> None:
    assert _matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert _matches(["a", "..."], ["a"])
    assert not _matches(["a", "...", "d"], ["a", "b", "c"])
    assert not _matches(["a", "...", "x"], ["a", "b", "c", "d"])
    assert not _matches(["a"], ["a", "b"])  # no silent tail without a "..."


def test_a_failing_command_or_snippet_is_reported(workdir: Path, tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("<!-- run -->\n```sh\narqlab run scenarios/no_such.toml   # comment\n```\n"
                    "<!-- run -->\n```python\n1 / 0\n```\n"
                    "<!-- scenario -->\n```toml\n[run]\nduration_s = -1.0\n```\n")
    shell, python, scenario = blocks(page)
    assert command_lines(shell.text) == ["arqlab run scenarios/no_such.toml"]
    assert _run_commands(shell) and "exit 2" in _run_commands(shell)[0]
    assert "ZeroDivisionError" in Page(page, workdir).python(python)[0]
    assert _check_scenario(scenario, workdir)


def test_a_number_placeholder_matches_one_number_only() -> None:
    assert _matches(["Verdicts: <N> holds; outputs in out"], ["Verdicts: 12 holds; outputs in out"])
    assert _matches(["x <N> y"], ["x -1.5e-3 y"]) and _matches(["x <N> y"], ["x 1,545 y"])
    assert not _matches(["Verdicts: <N> holds"], ["Verdicts: many holds"])
    assert not _matches(["Verdicts: <N> holds"], ["Verdicts: 12 holds, 3 more"])
    assert not _matches(["a.b <N>"], ["axb 1"]), "the rest of the line is literal"


def test_a_study_pass_runs_in_its_ci_form() -> None:
    store = Path("/s/store.sqlite")
    assert ci_form(["arqlab", "reproduce", "bux1982"], store) == ["arqlab", "reproduce", "bux1982", "--dry-run"]
    assert ci_form(["arqlab", "reproduce", "x", "--robustness"], store)[-1] == "--dry-run"
    assert ci_form(["python", "-m", "arqlab.studies.biersack", "--quick"], store)[-1] == "--dry-run"
    assert ci_form(["arqlab", "reproduce", "x", "--store", "r.db", "--quiet"], store, shown=True) == [
        "arqlab", "reproduce", "x", "--quiet", "--quick", "--store", str(store)]
    assert ci_form(["python", "-m", "arqlab.studies.biersack.timers", "--t1", "2", "--store=r.db"], store) == [
        "python", "-m", "arqlab.studies.biersack.timers", "--t1", "2", "--quick", "--store", str(store)]
    assert ci_form(["arqlab", "run", "x.toml"], store) == ["arqlab", "run", "x.toml"]


def test_a_fragment_merges_into_its_base() -> None:
    base = {"run": {"duration_s": 1.0, "seed": 2}, "medium": [{"name": "x"}],
            "traffic": {"a": {"kind": "saturated", "length": {"mean_bits": 1000}}}}
    frag = {"run": {"duration_s": 5.0}, "medium": [{"name": "y"}],
            "traffic": {"a": {"kind": "poisson", "length": {"dist": "empirical"}}}}
    assert merged(base, frag) == {"run": {"duration_s": 5.0, "seed": 2}, "medium": [{"name": "y"}],
                                  "traffic": {"a": {"kind": "poisson", "length": {"dist": "empirical"}}}}
    assert tomllib.loads(dump(merged(base, frag))) == merged(base, frag)
