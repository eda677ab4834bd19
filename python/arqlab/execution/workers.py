"""Local worker processes that never outlive their parent.

Workers are spawned by a ``ProcessPoolExecutor``. :func:`init_worker` runs first in each:

- SIGINT is ignored: Ctrl-C in a terminal reaches the whole process group, and the parent
  decides (it stops the pool and keeps what is finished) instead of every worker printing
  a traceback;
- on Linux the kernel sends SIGKILL to the worker when its parent dies
  (``prctl(PR_SET_PDEATHSIG)``), and on every platform a watchdog thread exits the worker
  when its parent process is gone, so a SIGKILL or SIGTERM to the parent never leaves
  ~100 MB workers computing for nobody.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

WATCHDOG_PERIOD_S = 0.5
_PR_SET_PDEATHSIG = 1


def _parent_death_signal() -> None:
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):
        pass  # the watchdog still covers it


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(WATCHDOG_PERIOD_S)
        if os.getppid() != parent:
            os._exit(1)


def init_worker(parent: int) -> None:
    """Initializer of every local worker process (``parent`` is the pool owner's pid)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _parent_death_signal()
    if os.getppid() != parent:  # the parent died before we got here
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="arqlab-parent-watchdog", daemon=True).start()
