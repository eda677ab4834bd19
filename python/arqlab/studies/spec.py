"""What a study declares: figures, their curves, closed forms, assumptions, sensitivity
variants and claims. These are specifications (what to run and check); the results they
produce are read through :mod:`.data` and the artefact types of :mod:`.artefacts`.

A :class:`Figure` has a base scenario, an x-axis (a function from an x value to scenario
overrides), a set of :class:`Curve` objects (each curve = base scenario + overrides, read
on one direction and one measure), optional closed forms drawn over it, the
:class:`Assumption` s made where the paper is silent, optional :class:`Sensitivity`
variants, and the paper's :class:`Claim` s about it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .verdicts import Outcome

Scenario = dict[str, Any]
#: ``{direction: {measure: {"mean", "ci95_half_width", "n"}}}`` of one run.
Metrics = dict[str, dict[str, dict[str, float]]]
#: A run's per-replication observations, ``{(direction, measure): (value of replication
#: 0, 1, ...)}``: kept beside the summary so that a claim can pair two runs replication
#: by replication (common random numbers) or count replications over a threshold.
Observations = dict[tuple[str, str], tuple[float, ...]]


@dataclass(frozen=True)
class Assumption:
    """A parameter the paper does not state, the value chosen and why."""

    parameter: str
    value: str
    justification: str


@dataclass(frozen=True)
class UncertainInput:
    """An input the paper does not state (or states loosely), declared for the robustness
    analysis: the study's value, a plausible range or set, and the argument for both.

    ``target`` says what the input changes: a scenario key path as ``run --set`` writes it
    (``"link.bit_error_rate"``, applied to every scenario of the study), or
    ``"param:<NAME>"`` for a study-level parameter that the study's scenario builders read
    (the study's ``params`` module attribute ``NAME``). Give either ``low``/``high`` (a
    continuous range; ``log`` samples it on a log scale) or ``levels`` (a discrete set that
    contains ``value``).
    """

    name: str
    target: str
    value: Any
    source: str
    low: float | None = None
    high: float | None = None
    levels: tuple[Any, ...] = ()
    log: bool = False

    def __post_init__(self) -> None:
        continuous = self.low is not None and self.high is not None
        if continuous == bool(self.levels):
            raise ValueError(f"uncertain input {self.name!r}: give low/high or levels, not both or neither")
        if continuous and not (self.low <= self.value <= self.high):
            raise ValueError(f"uncertain input {self.name!r}: value {self.value!r} outside [{self.low}, {self.high}]")
        if self.levels and self.value not in self.levels:
            raise ValueError(f"uncertain input {self.name!r}: value {self.value!r} not among levels {self.levels!r}")


@dataclass(frozen=True)
class Curve:
    """One plotted line: the figure's base scenario + ``overrides``, read on ``direction``.

    ``measure`` defaults to the figure's. ``params`` are study-specific knobs read by the
    figure's ``derive`` function (e.g. a timeout multiplier). ``xs`` restricts the x grid.
    ``plot=False`` curves are run and checked but not drawn (e.g. the second direction of
    a symmetric mode). ``extension`` marks curves that are not in the paper (drawn dotted).
    """

    key: str
    label: str
    direction: str
    overrides: Mapping[str, Any] = field(default_factory=dict)
    style: Mapping[str, Any] = field(default_factory=dict)
    measure: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    xs: tuple[float, ...] | None = None
    quick_xs: tuple[float, ...] | None = None
    plot: bool = True
    extension: bool = False


@dataclass(frozen=True)
class Sensitivity:
    """A variant of some curves with changed parameters, to show how claims depend on them.

    ``on_base_xs``: a claim under the variant is scored on the base's x points. A base
    point the variant did not run reads as missing (NaN, so inconclusive), instead of
    dropping out of the claim's region (where a failing point would simply vanish).

    ``coequal``: a reading the paper's text does not settle, as well supported as the
    study's own. Its verdicts get their own column beside the study's in ``claims.md``
    (not a cell of the sensitivity column) and its curves are drawn as lines, like the
    study's, not as markers.

    ``precision``: in a pass with a precision target, this variant's own target (a
    relative half-width, e.g. 0.1) when it differs from the study's: a sensitivity that
    only asks whether a verdict changes need not be as precise as the cells the claims
    read. A point whose scenario is also a base point shares the base's run."""

    name: str
    description: str
    curves: tuple[str, ...]
    overrides: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    xs: tuple[float, ...] | None = None
    quick_xs: tuple[float, ...] | None = None
    on_base_xs: bool = False
    coequal: bool = False
    precision: float | None = None


@dataclass(frozen=True)
class ClosedForm:
    """An exact or bounding formula drawn over the figure, y as a function of x."""

    label: str
    fn: Callable[[float], float]
    style: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Marker:
    """A vertical line at ``x``: a threshold the paper derives (e.g. C_max)."""

    label: str
    x: float
    style: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Claim:
    """One statement of the paper, with a computed verdict.

    ``check`` receives a :class:`~arqlab.studies.data.StudyData` and returns an
    :class:`Outcome` (typed ``Callable[..., Outcome]``: data.py builds on this module,
    so this one does not import it, not even for types — no import cycle). ``needs``
    lists the figures whose data it reads; ``sensitivity`` names variants (of the claim's
    own figure) under which the claim is re-evaluated.
    """

    id: str
    section: str
    statement: str
    check: Callable[..., Outcome]
    needs: tuple[int, ...] = ()
    sensitivity: tuple[str, ...] = ()
    figure: int | None = None
    #: Whose statement this is: ``"paper"`` (the paper says it of this figure),
    #: ``"extrapolation"`` (the paper says it of another figure; the reproduction carries
    #: it here), ``"inference"`` (the reproduction's own reading of a mechanism) or
    #: ``"model check"`` (the model against a closed form of the model itself, e.g. its own
    #: C_max: a test of the simulator, not of the paper). Only ``"paper"`` claims count
    #: as the paper's; the others are counted apart.
    origin: str = "paper"


@dataclass(frozen=True)
class Figure:
    """A figure of the paper: axes, curves, x grid, assumptions, reference values, claims."""

    number: int
    title: str
    base: Scenario
    x_label: str
    y_label: str
    measure: str
    xs: tuple[float, ...]
    quick_xs: tuple[float, ...]
    x_overrides: Callable[[float], dict[str, Any]]
    curves: tuple[Curve, ...]
    derive: Callable[[Scenario, Curve, Mapping[str, Any], bool, float], dict[str, Any]] | None = None
    normalize: Callable[[Scenario, Curve], float] | None = None
    x_scale: str = "linear"
    y_scale: str = "linear"
    y_limits: tuple[float | None, float | None] | None = None
    closed_forms: tuple[ClosedForm, ...] = ()
    markers: tuple[Marker, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    published: tuple[str, ...] = ()
    sensitivities: tuple[Sensitivity, ...] = ()
    claims: tuple[Claim, ...] = ()
    caption: str = ""
    #: Named x positions (a categorical axis, e.g. channels): (x, label) pairs.
    x_ticks: tuple[tuple[float, str], ...] = ()

    def curve(self, key: str) -> Curve:
        for c in self.curves:
            if c.key == key:
                return c
        raise KeyError(f"figure {self.number} has no curve {key!r}")

