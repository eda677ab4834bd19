"""tests/conftest.py gives a pytest session a store of its own in a temporary directory
and removes that directory when the session ends; a store named by $ARQLAB_STORE is the
caller's, neither made nor removed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CONFTEST = Path(__file__).resolve().parent / "conftest.py"

# Writes the session's store path and checks that its directory exists while tests run.
TINY_TEST = '''
import os

def test_store_is_set_and_its_directory_exists():
    store = os.environ["ARQLAB_STORE"]
    with open(os.environ["STORE_NOTE"], "w") as f:
        f.write(store)
    assert os.path.isdir(os.path.dirname(store))
'''


def session(tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    """A pytest session on the tiny test beside a copy of conftest.py, with its own TMPDIR."""
    project, tmp = tmp_path / "project", tmp_path / "tmp"
    project.mkdir()
    tmp.mkdir()
    shutil.copy(CONFTEST, project / "conftest.py")
    (project / "test_tiny.py").write_text(TINY_TEST)
    base = {k: v for k, v in os.environ.items() if k != "ARQLAB_STORE"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(project)],
                          cwd=project, capture_output=True, text=True, timeout=120,
                          env={**base, "TMPDIR": str(tmp), "STORE_NOTE": str(tmp_path / "note"), **env})
    return done, tmp


def test_the_session_store_directory_is_removed_at_the_end(tmp_path):
    done, tmp = session(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    store = Path((tmp_path / "note").read_text())
    assert store.parent.parent == tmp and store.parent.name.startswith("arqlab-test-store-")
    assert not store.parent.exists()
    assert list(tmp.iterdir()) == []


def test_a_store_given_by_the_environment_is_neither_made_nor_removed(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep").write_text("x")
    done, tmp = session(tmp_path, ARQLAB_STORE=str(mine / "store.sqlite"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "note").read_text() == str(mine / "store.sqlite")
    assert (mine / "keep").exists()
    assert list(tmp.iterdir()) == []
