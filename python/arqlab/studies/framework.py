"""The study framework in one import: what a study module uses.

``from arqlab.studies import framework as fw`` gives the whole vocabulary; the pieces
live in focused modules:

====================  ==================================================================
:mod:`.verdicts`      ``Est``, ``Verdict``, ``Outcome`` and the verdict rules
:mod:`.spec`          ``Figure``, ``Curve``, ``Sensitivity``, ``ClosedForm``, ``Marker``, ``Assumption``, ``Claim``
:mod:`.overrides`     dotted-key scenario overrides, run keys, TOML output
:mod:`.plan`          points and de-duplicated runs of a figure; its tidy frame
:mod:`.run`           ``simulate_runs``: the one place that calls the simulator
:mod:`.data`          ``StudyData``, ``ClaimResult``, claim evaluation
:mod:`.claims`        shared claim helpers over curves (regions, relations, departures)
:mod:`.artefacts`     ``FigureData``, ``Table``, ``FactorialEffects``, ``MeasuredXCurve``
:mod:`.capacity`      steady-state / capacity checks of Poisson points
:mod:`.output`        plots, scenario files, claims files, any artefact as CSV/PNG/SVG
:mod:`.reproduce`     ``Study``, ``StudyPackage`` (+ ``Extra``), ``Reproduction``, ``reproduce_study``
====================  ==================================================================
"""

from __future__ import annotations

from .artefacts import (
    Artefact,
    Effect,
    FactorialEffects,
    FigureData,
    FractionalDesign,
    MeasuredXCurve,
    Table,
    curves_relation,
    xy_relation,
)
from .capacity import (
    CAPACITY_REPLICATIONS,
    SHORTFALL,
    capacity_request,
    check_capacity,
    point_name,
    short_point_note,
)
from .claims import (
    Check,
    Region,
    Relation,
    base_argmax,
    both,
    departs_before,
    departs_within,
    departure,
    every,
    fixed_ref,
    gap_vs_value,
    left_of,
    linear_trend,
    monotone_up,
    rel,
    right_of,
    right_of_latest,
    vs_value,
    xs_where,
)
from .data import ClaimResult, StudyData, evaluate_claim
from .output import print_claims, write_artefact, write_claims, write_plot, write_scenarios
from .overrides import apply_overrides, canonical_json, get_dotted, run_key, set_dotted, to_toml
from .plan import (
    POINT_COLUMNS,
    Point,
    RunRequest,
    RunSettings,
    curve_scenario,
    plan_figure,
    point_overrides,
    tabulate,
)
from .reproduce import Extra, PassInfo, Reproduction, Study, StudyPackage, reproduce_study
from .run import ProgressFn, plain_metrics, simulate_runs
from .spec import Assumption, Claim, ClosedForm, Curve, Figure, Marker, Metrics, Observations, Scenario, Sensitivity
from .verdicts import (
    Est,
    Outcome,
    Verdict,
    all_of,
    any_of,
    approx,
    approx_value,
    at_least,
    at_most,
    below,
    conjunction,
    exceeds,
    paired,
    pointwise,
    significant,
    t_interval,
    within,
)

__all__ = [
    "CAPACITY_REPLICATIONS", "POINT_COLUMNS", "SHORTFALL", "Artefact", "Assumption", "Check", "Claim", "ClaimResult",
    "ClosedForm", "Curve", "Effect", "Est", "Extra", "FactorialEffects", "Figure", "FigureData", "FractionalDesign",
    "Marker", "MeasuredXCurve", "Metrics", "Observations", "Outcome", "PassInfo", "Point", "ProgressFn", "Region", "Relation", "Reproduction", "RunRequest",
    "RunSettings", "Scenario", "Sensitivity", "Study", "StudyData", "StudyPackage", "Table", "Verdict", "all_of",
    "any_of", "apply_overrides", "approx", "approx_value", "at_least", "at_most", "base_argmax", "below", "both",
    "canonical_json", "capacity_request", "check_capacity", "conjunction", "curve_scenario", "curves_relation",
    "departs_before", "departs_within", "departure", "evaluate_claim", "every", "exceeds", "fixed_ref",
    "gap_vs_value", "get_dotted", "left_of", "linear_trend", "monotone_up", "paired", "plan_figure", "point_name",
    "plain_metrics", "point_overrides", "pointwise", "print_claims", "reproduce_study", "rel", "right_of", "right_of_latest",
    "run_key", "set_dotted", "short_point_note", "significant", "simulate_runs", "t_interval", "tabulate", "to_toml", "vs_value",
    "within", "write_artefact", "write_claims", "write_plot", "write_scenarios", "xs_where", "xy_relation",
]
