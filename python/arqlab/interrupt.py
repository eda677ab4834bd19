"""Prompt Ctrl-C during a long replication.

A replication runs in Rust with the GIL released, so Python's SIGINT handler cannot run
in the thread that waits for it. :func:`call_interruptibly` therefore runs the call in a
helper thread while the main thread waits (a wait that Ctrl-C does interrupt); on
``KeyboardInterrupt`` it asks the core to stop (``_core.request_interrupt``: the event
loop checks the flag every 2^16 events, i.e. within milliseconds), waits for the helper to
return, and re-raises. Off the main thread (no signals there) the call runs directly.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_POLL_S = 0.05


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: stop, keep what is finished, exit 143."""


def call_interruptibly(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, interruptible by Ctrl-C within about a second."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    from arqlab import _core

    _core.clear_interrupt()
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # handed to the waiting thread
            box["error"] = exc

    helper = threading.Thread(target=target, name="arqlab-replication", daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            helper.join(_POLL_S)
    except KeyboardInterrupt:
        _core.request_interrupt()
        helper.join()
        _core.clear_interrupt()
        raise
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value
