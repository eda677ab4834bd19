"""arqlab — a protocol performance laboratory.

    >>> import arqlab
    >>> r = arqlab.simulate("scenarios/go_back_n.toml", replications=3)   # doctest: +SKIP
    >>> r.metrics["a_to_b"]["throughput_efficiency"]                      # doctest: +SKIP
    {'mean': 0.883..., 'ci95_half_width': 0.002..., 'n': 3}

The public names are imported on first use, so ``import arqlab`` (and ``arqlab --version``,
``arqlab check``, ``arqlab --help``) does not pay for pandas, matplotlib and friends.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import TYPE_CHECKING, Any

from . import _core
from .errors import ArqlabError, LivelockError, ScenarioError, SimulationError

if TYPE_CHECKING:
    from .api import compare, simulate
    from .capture import pcap
    from .ladder import ladder
    from .results import Result
    from .gsa import sensitivity
    from .scenario import load as load_scenario
    from .sweep import sweep

__version__: str = _core.__version__
#: The package version plus a hash of the simulator's source; results are stored under it.
MODEL_VERSION: str = _core.MODEL_VERSION
MEASURES: list[str] = list(_core.MEASURES)

_LAZY = {
    "pcap": ("arqlab.capture", "pcap"),
    "compare": ("arqlab.api", "compare"),
    "simulate": ("arqlab.api", "simulate"),
    "Result": ("arqlab.results", "Result"),
    "load_scenario": ("arqlab.scenario", "load"),
    "sensitivity": ("arqlab.gsa", "sensitivity"),
}


class _Package(types.ModuleType):
    """``arqlab.sweep`` is the function, although a submodule has the same name: importing
    the submodule would otherwise replace the package attribute with the module."""

    @property
    def sweep(self) -> Any:
        return importlib.import_module("arqlab.sweep").sweep

    @sweep.setter
    def sweep(self, value: Any) -> None:
        pass  # the import system setting the submodule; it stays reachable in sys.modules

    @property
    def ladder(self) -> Any:
        """The function, although the submodule has the same name (as ``sweep``)."""
        return importlib.import_module("arqlab.ladder").ladder

    @ladder.setter
    def ladder(self, value: Any) -> None:
        pass


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    # A submodule not imported yet (``arqlab.trace.trace(...)`` right after ``import arqlab``).
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'arqlab' has no attribute {name!r}")


__all__ = [
    "ArqlabError",
    "LivelockError",
    "MEASURES",
    "MODEL_VERSION",
    "Result",
    "ScenarioError",
    "SimulationError",
    "compare",
    "ladder",
    "load_scenario",
    "pcap",
    "sensitivity",
    "simulate",
    "sweep",
    "__version__",
]
