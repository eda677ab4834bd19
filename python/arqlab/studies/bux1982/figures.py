"""The figures of Bux, Kümmerle & Truong (1982): Figs. 2–6 (throughput, Section 3.1,
:mod:`.figures_throughput`) and Figs. 7–11 (delays, Section 3.2, :mod:`.figures_delay`)."""

from __future__ import annotations

from collections.abc import Callable

from ..spec import Figure
from .figures_delay import fig7, fig8, fig9, fig10, fig11
from .figures_throughput import fig2, fig3, fig4, fig5, fig6
from .params import NAME

FIGURE_BUILDERS: dict[int, Callable[[], Figure]] = {
    2: fig2, 3: fig3, 4: fig4, 5: fig5, 6: fig6, 7: fig7, 8: fig8, 9: fig9, 10: fig10, 11: fig11,
}


def figures() -> list[Figure]:
    """Figures 2–11 of the paper."""
    return [FIGURE_BUILDERS[n]() for n in sorted(FIGURE_BUILDERS)]


def figure(number: int) -> Figure:
    if number not in FIGURE_BUILDERS:
        raise KeyError(f"{NAME} has no figure {number}")
    return FIGURE_BUILDERS[number]()
