"""Test-wide setup: results go to a temporary store, never the working tree's."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

# Set before anything opens the default store (CLI subprocesses inherit it too). The
# directory is this session's own (made only when $ARQLAB_STORE is unset) and is removed
# when the session ends.
_STORE_DIR = None if "ARQLAB_STORE" in os.environ else tempfile.mkdtemp(prefix="arqlab-test-store-")
if _STORE_DIR is not None:
    os.environ["ARQLAB_STORE"] = os.path.join(_STORE_DIR, "store.sqlite")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _STORE_DIR is not None:
        shutil.rmtree(_STORE_DIR, ignore_errors=True)


@pytest.fixture(scope="module")
def tshark() -> str:
    """Wireshark's command-line reader (the Debian package `tshark`): skipped with the
    reason where it is missing, a failure in CI (.ci/run installs it)."""
    path = shutil.which("tshark")
    if path is None:
        message = "tshark is missing: install the Debian package (apt-get install tshark); .ci/run does"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path
