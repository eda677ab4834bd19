"""arqlab — a protocol performance laboratory.

    >>> import arqlab
    >>> r = arqlab.simulate("scenarios/go_back_n.toml", replications=3)   # doctest: +SKIP
    >>> r.metrics["a_to_b"]["throughput_efficiency"]                      # doctest: +SKIP
    {'mean': 0.883..., 'ci95_half_width': 0.002..., 'n': 3}
"""

from __future__ import annotations

from . import _core
from .api import compare, simulate
from .capture import pcap
from .errors import ArqlabError, ScenarioError, SimulationError
from .results import Result
from .ladder import ladder
from .scenario import load as load_scenario
from .sweep import sweep

__version__: str = _core.__version__
#: The package version plus a hash of the simulator's source; results are stored under it.
MODEL_VERSION: str = _core.MODEL_VERSION
MEASURES: list[str] = list(_core.MEASURES)

__all__ = [
    "ArqlabError",
    "MEASURES",
    "MODEL_VERSION",
    "Result",
    "ScenarioError",
    "SimulationError",
    "compare",
    "ladder",
    "load_scenario",
    "pcap",
    "simulate",
    "sweep",
    "__version__",
]
