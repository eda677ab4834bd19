"""Experimental designs: 2^k r full and 2^(k−p) fractional factorials (Jain 1991, ch. 17–19).

    >>> from arqlab.design import Factor, design, run_design
    >>> d = design([Factor.on_key("A", "protocol.window", 2, 7),
    ...             Factor.on_key("B", "link.bit_error_rate", 1e-6, 1e-5),
    ...             Factor.on_key("C", "link.rate_bps", 9600.0, 64000.0)], ["C=AB"])
    >>> d.defining_relation(), d.resolution(), d.aliases("A")
    (['I', 'ABC'], 3, ['BC'])

:mod:`~arqlab.design.algebra` (factors, generators, aliases), :mod:`~arqlab.design.analysis`
(effects, % of variation, intervals), :mod:`~arqlab.design.run` (runs through the store and
executors), :mod:`~arqlab.design.spec` (the TOML form) and :mod:`~arqlab.design.cli`.
The contract is ``docs/guide/designs.md``.
"""

from arqlab.design.algebra import Design, DesignError, Factor, design
from arqlab.design.analysis import EFFECT_COLUMNS, analyse
from arqlab.design.run import DesignResult, run_design
from arqlab.design.spec import DesignSpec, load_design, parse_design

__all__ = [
    "EFFECT_COLUMNS", "Design", "DesignError", "DesignResult", "DesignSpec", "Factor", "analyse", "design",
    "load_design", "parse_design", "run_design",
]
