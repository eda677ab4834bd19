"""Artefact types shared by every study: what a reproduction produces, next to the paper.

==========================  ==========================================================
:class:`FigureData`         a figure's curves: y ± CI against a set x, per curve/variant
:class:`Table`              rows × columns of estimates with CIs beside published values
:class:`FactorialEffects`   main effects and interactions of a 2^(k−p) experiment, with
                            CIs and the alias structure of its :class:`FractionalDesign`
:class:`MeasuredXCurve`     a curve whose x is itself a measured value with a CI
==========================  ==========================================================

Each one tabulates itself to a tidy :class:`pandas.DataFrame` (``to_frame()``) and draws
itself on a matplotlib axis (``plot(ax)``): that is the :class:`Artefact` protocol, which
:func:`arqlab.studies.output.write_artefact` uses to write any of them as CSV, PNG and SVG.
"""

from __future__ import annotations

from typing import Any, Protocol

import pandas as pd

from .curves import FigureData, draw_curves
from .factorial import Effect, FactorialEffects, FractionalDesign, parse_word
from .measured_x import MeasuredXCurve, curves_relation, measured_x_from_frame, xy_relation
from .table import Table, table_from_frame


class Artefact(Protocol):
    """Anything a study produces that can be tabulated and drawn."""

    def to_frame(self) -> pd.DataFrame: ...

    def plot(self, ax: Any) -> None: ...


__all__ = [
    "Artefact", "Effect", "FactorialEffects", "FigureData", "FractionalDesign", "MeasuredXCurve", "Table",
    "curves_relation", "draw_curves", "measured_x_from_frame", "parse_word", "table_from_frame", "xy_relation",
]
