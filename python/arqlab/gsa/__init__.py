"""Global sensitivity analysis (SALib): how much each uncertain input moves a measure.

=====================  ================================================================
:mod:`.design`         inputs, Morris/Sobol' plans and samples, indices with bootstrap CIs
:mod:`.spec`           the TOML form of an analysis (``SPEC.toml``)
:mod:`.run`            :func:`sensitivity` (``arqlab.sensitivity``): a user scenario's measure over the inputs
:mod:`.plot`           μ*–σ plot (Morris), tornado of S1/ST (Sobol')
:mod:`.cli`            ``arqlab sensitivity SCENARIO SPEC.toml --measure M``
=====================  ================================================================

The same design machinery checks how robust a study's claims are to the inputs the
paper leaves unstated (``arqlab reproduce STUDY --robustness``,
:mod:`arqlab.studies.robustness`).
"""

from __future__ import annotations

from .design import DesignError, Factor, Plan, analyse, plan_for_budget, sample, share_interval, values
from .run import SensitivityResult, sensitivity
from .spec import SensitivitySpec, load_spec, parse_spec

__all__ = [
    "DesignError", "Factor", "Plan", "SensitivityResult", "SensitivitySpec", "analyse", "load_spec", "parse_spec",
    "plan_for_budget", "sample", "sensitivity", "share_interval", "values",
]
