"""Test-wide setup: results go to a temporary store, never the working tree's."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

# Set before anything opens the default store (CLI subprocesses inherit it too).
os.environ.setdefault("ARQLAB_STORE", os.path.join(tempfile.mkdtemp(prefix="arqlab-test-store-"), "store.sqlite"))


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
