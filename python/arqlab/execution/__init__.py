"""Running replications: the one place where ``_core.run_replication`` is called.

A *task* is one replication: (resolved scenario, seed, replication index). Tasks run
in-process (``"serial"``), on a local process pool (``"local"``, the default) or on a Dask
distributed cluster (an address such as ``"tcp://10.0.0.5:8786"``); see
:mod:`arqlab.execution.backends`. :func:`run_points` runs many points at once over one
backend, store first, submitting lazily (:mod:`arqlab.execution.scheduler`). Local
workers exit with their parent (:mod:`arqlab.execution.workers`); Ctrl-C stops a running
replication within about a second (:mod:`arqlab.interrupt`).

Dependency direction: ``execution`` uses ``store`` and ``results``; neither imports it.
"""

from arqlab.execution.backends import (
    Backend,
    DaskBackend,
    LocalBackend,
    Record,
    Runner,
    SerialBackend,
    Task,
    TaskFailed,
    TaskKey,
    make_backend,
    run_task,
)
from arqlab.execution.scheduler import PointOutcome, PointSpec, run_points, run_points_detailed
from arqlab.results import summarize_point

__all__ = [
    "Backend", "DaskBackend", "LocalBackend", "PointOutcome", "PointSpec", "Record", "Runner", "SerialBackend",
    "Task", "TaskFailed", "TaskKey", "make_backend", "run_points", "run_points_detailed", "run_task",
    "summarize_point",
]
