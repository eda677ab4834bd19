"""Prompt Ctrl-C during a long replication.

A replication runs in Rust with the GIL released, so Python's SIGINT handler cannot run
in the thread that waits for it. :func:`call_interruptibly` therefore runs the call in a
long-lived helper thread while the main thread waits (a wait that Ctrl-C does interrupt); on
``KeyboardInterrupt`` it asks the core to stop (``_core.request_interrupt``: the event
loop checks the flag every 2^16 events, i.e. within milliseconds), waits for the helper to
return, and re-raises. Off the main thread (no signals there) the call runs directly.
"""

from __future__ import annotations

import queue
import signal
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_POLL_S = 0.05


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C: stop, keep what is finished, exit 143."""


def _block_signals() -> Any:
    """Block SIGINT/SIGTERM in this thread (the helper inherits the mask and never gets
    them); returns the old mask, or None where masks do not exist."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def _restore_signals(old: Any) -> None:
    if old is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


_jobs: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any], threading.Event]] = (
    queue.SimpleQueue())
_runner: threading.Thread | None = None


def _serve() -> None:
    while True:
        fn, args, box, done = _jobs.get()
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # handed to the waiting thread
            box["error"] = exc
        finally:
            done.set()


def _ensure_runner() -> None:
    """One long-lived daemon thread runs the replications (signals blocked in it). A
    thread per replication would leave, at exit, a thread still tearing down the core's
    thread-local state while the interpreter finalizes — which aborts the process."""
    global _runner
    if _runner is None or not _runner.is_alive():
        _runner = threading.Thread(target=_serve, name="arqlab-replications", daemon=True)
        _runner.start()


def _stop(done: threading.Event) -> None:
    """Stop the running replication and wait until it has returned."""
    from arqlab import _core

    _core.request_interrupt()
    while not done.is_set():
        try:
            done.wait()
        except KeyboardInterrupt:
            continue  # a second Ctrl-C: the replication is already stopping
    _core.clear_interrupt()


def call_interruptibly(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)``, interruptible by Ctrl-C within about a second."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    from arqlab import _core

    _core.clear_interrupt()
    box: dict[str, Any] = {}
    done = threading.Event()
    queued = False
    # Signals stay blocked until the job is queued (the runner thread, created here,
    # inherits the mask), so a Ctrl-C is raised only inside the try, where the job is
    # stopped and waited for before the exception leaves this function.
    old = _block_signals()
    try:
        _ensure_runner()
        _jobs.put((fn, args, box, done))
        queued = True
        _restore_signals(old)
        while not done.wait(_POLL_S):
            pass
    except BaseException:
        _restore_signals(old)
        if queued:
            _stop(done)
        raise
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value
