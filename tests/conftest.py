"""Test-wide setup: results go to a temporary store, never the working tree's."""

from __future__ import annotations

import os
import tempfile

# Set before anything opens the default store (CLI subprocesses inherit it too).
os.environ.setdefault("ARQLAB_STORE", os.path.join(tempfile.mkdtemp(prefix="arqlab-test-store-"), "store.sqlite"))
