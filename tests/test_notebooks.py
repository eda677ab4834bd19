"""Every notebook in the repository runs (issue 29 item 14): each ``*.ipynb`` is executed
top to bottom in a fresh Jupyter kernel with nbclient, from the notebook's own folder, as
a user opening it would. A cell that raises fails the test with the cell's error. The
notebooks are kept without outputs, so a diff shows only what changed in them."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".venv", "target", ".git", "mutants", "mutants-python", "mutants-out", "node_modules"}
NOTEBOOKS = sorted(p for p in ROOT.rglob("*.ipynb")
                   if not SKIP_DIRS & set(p.relative_to(ROOT).parts) and ".ipynb_checkpoints" not in p.parts)


def test_the_repository_has_notebooks() -> None:
    # Guards the parametrisation below: an empty list would pass vacuously.
    assert [str(p.relative_to(ROOT)) for p in NOTEBOOKS] == ["docs/notebooks/first-steps.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert [c.outputs for c in nb.cells if c.cell_type == "code" and c.outputs] == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_executes(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    if path.name == "first-steps.ipynb":
        # The result renders as its compact HTML table (Result._repr_html_), not a repr.
        html = [o.data["text/html"] for o in outputs if o.output_type == "execute_result" and "text/html" in o.data]
        assert any("<table" in h and "throughput_efficiency" in h for h in html), html
