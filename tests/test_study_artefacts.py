"""Artefact types shared by the studies (tables, curves with a measured x, the Artefact
protocol) and the Student-t quantile behind factorial CIs, with known answers."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from arqlab.studies.artefacts import (  # noqa: E402
    MeasuredXCurve,
    Table,
    curves_relation,
    measured_x_from_frame,
    table_from_frame,
    xy_relation,
)
from arqlab.studies.output import write_artefact  # noqa: E402
from arqlab.studies.student_t import t95, t_quantile, two_sided_probability  # noqa: E402
from arqlab.studies.verdicts import Est, Verdict, approx, exceeds  # noqa: E402

H, N, I = Verdict.HOLDS, Verdict.DOES_NOT_HOLD, Verdict.INCONCLUSIVE


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def _axes() -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots()


# ----------------------------------------------------------------------------- Student t


@pytest.mark.parametrize(("df", "t"), [(1, 12.706204736), (2, 4.302652730), (3, 3.182446305), (4, 2.776445105),
                                       (8, 2.306004135), (29, 2.045229642), (120, 1.979930405), (1000, 1.962339081)])
def test_t95_matches_tables(df: int, t: float) -> None:
    assert t95(df) == pytest.approx(t, abs=1e-8)


def test_t_quantile_shape() -> None:
    assert t_quantile(5, 0.025) == pytest.approx(-t95(5))
    assert t_quantile(1, 0.75) == pytest.approx(1.0)  # Cauchy quartile
    assert t_quantile(10, 0.5) == 0.0
    assert math.isnan(t_quantile(0, 0.975)) and t_quantile(3, 1.0) == math.inf
    assert t95(1001) == pytest.approx(t95(1000), abs=1e-5)  # the series takes over smoothly
    assert t95(10 ** 9) == pytest.approx(1.959963985, abs=1e-8)
    assert two_sided_probability(t95(17), 17) == pytest.approx(0.95, abs=1e-12)


def test_t_quantile_agrees_with_the_core() -> None:
    core = pytest.importorskip("arqlab._core")
    for values in ([1.0, 2.0, 4.0], [0.5, 0.7, 0.2, 0.9, 1.4, 0.1], list(map(float, range(40)))):
        mean, half, n = core.interval(values, False)
        s = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        assert half == pytest.approx(t95(n - 1) * s / math.sqrt(n), rel=1e-9)


# ----------------------------------------------------------------------------- Table


def _table() -> Table:
    return Table(
        "t2", "Throughput per variant", ("GBN", "SR"), ("p=1e-5", "p=1e-4"),
        {("GBN", "p=1e-5"): Est(0.80, 0.01, 10), ("GBN", "p=1e-4"): Est(0.50, 0.01, 10),
         ("SR", "p=1e-5"): Est(0.90, 0.01, 10)},
        {("GBN", "p=1e-5"): 0.81, ("GBN", "p=1e-4"): 0.60, ("SR", "p=1e-5"): 0.89, ("SR", "p=1e-4"): 0.70},
        unit="efficiency",
    )


def test_table_frame_and_lookup() -> None:
    t = _table()
    f = t.to_frame()
    assert list(zip(f["row"], f["column"])) == [("GBN", "p=1e-5"), ("GBN", "p=1e-4"), ("SR", "p=1e-5"), ("SR", "p=1e-4")]
    assert f.loc[1, "rel_diff"] == pytest.approx((0.50 - 0.60) / 0.60)
    assert math.isnan(f.loc[3, "mean"]) and f.loc[3, "published"] == 0.70  # not simulated
    assert t.est("SR", "p=1e-5") == Est(0.90, 0.01, 10)
    back = table_from_frame("t2", "Throughput per variant", f, unit="efficiency")
    assert back == t


def test_table_agreement_verdicts() -> None:
    t = _table()
    # 0.80±0.01 vs 0.81 (within 5%), 0.50 vs 0.60 (17% off), 0.90 vs 0.89, missing cell → inconclusive
    out = t.agreement(0.05)
    assert out.verdict is N
    assert "GBN/p=1e-4:NO" in out.detail and "GBN/p=1e-5:ok" in out.detail and "SR/p=1e-4:?" in out.detail
    only_good = Table("t", "", ("GBN",), ("p=1e-5",), {("GBN", "p=1e-5"): Est(0.80, 0.01, 10)},
                      {("GBN", "p=1e-5"): 0.81})
    assert only_good.agreement(0.05).verdict is H
    assert Table("t", "", ("a",), ("b",), {}).agreement(0.05).verdict is I  # nothing published


def test_table_markdown_and_errors() -> None:
    md = _table().to_markdown()
    assert "| GBN | 0.8 ± 0.01 (0.81) | 0.5 ± 0.01 (0.6) |" in md
    assert "| SR | 0.9 ± 0.01 (0.89) | — (0.7) |" in md
    with pytest.raises(ValueError, match="cells row 'TCP' is not one of"):
        Table("t", "", ("GBN",), ("p",), {("TCP", "p"): Est(1.0, 0.1)})


def test_table_plot() -> None:
    fig, ax = _axes()
    _table().plot(ax)
    assert len(ax.patches) == 4  # 2 rows × 2 columns of bars
    assert [t.get_text() for t in ax.get_xticklabels()] == ["GBN", "SR"]


# ----------------------------------------------------------------------------- curves with a measured x


def _offered_vs_carried() -> MeasuredXCurve:
    # given out of order: the curve sorts by measured x
    return MeasuredXCurve(
        "gbn", "GBN", (Est(0.3, 0.02, 10), Est(0.1, 0.01, 10), Est(0.9, 0.02, 10)),
        (Est(2.0, 0.2, 10), Est(1.0, 0.1, 10), Est(2.5, 0.1, 10)), nominal=(0.3, 0.1, 0.9),
    )


def test_measured_x_sorting_and_interpolation() -> None:
    c = _offered_vs_carried()
    assert [x.mean for x in c.x] == [0.1, 0.3, 0.9] and c.nominal == (0.1, 0.3, 0.9)
    e = c.y_at(0.2)  # w = 0.5, slope 5: 1.5 ± (0.05 + 0.1 + 5·(0.005 + 0.01))
    assert e.mean == pytest.approx(1.5) and e.half == pytest.approx(0.225)
    e = c.y_at(0.3)  # at a measured point its x uncertainty still counts (segment slope 5)
    assert e.mean == pytest.approx(2.0) and e.half == pytest.approx(0.2 + 5 * 0.02)
    assert math.isnan(c.y_at(0.05).mean) and math.isnan(c.y_at(1.0).mean)
    assert c.where_x(0.0, 0.35) == [0, 1] and c.where_x(0.0, 0.3) == [0]  # 0.3 ± 0.02 straddles 0.3


def test_measured_x_claim_helpers() -> None:
    carried = MeasuredXCurve("c", "carried", (Est(0.2, 0.01), Est(0.5, 0.01), Est(0.9, 0.01)),
                             (Est(0.2, 0.005), Est(0.5, 0.005), Est(0.7, 0.005)))
    # the link carries what is offered below 0.6, not at 0.9
    assert xy_relation(carried, lambda x, y: approx(y, x, 0.1), high=0.6).verdict is H
    out = xy_relation(carried, lambda x, y: approx(y, x, 0.1))
    assert out.verdict is N and "NO" in out.detail
    assert xy_relation(carried, lambda x, y: approx(y, x, 0.1), low=2.0).verdict is I
    better = MeasuredXCurve("b", "better", (Est(0.25, 0.01), Est(0.55, 0.01), Est(0.95, 0.01)),
                            (Est(0.3, 0.005), Est(0.6, 0.005), Est(0.9, 0.005)))
    assert curves_relation(better, carried, exceeds, [0.3, 0.5]).verdict is H
    assert curves_relation(better, carried, exceeds, [0.1]).verdict is I  # outside `better`'s range
    assert curves_relation(better, carried, exceeds, []).verdict is I


def test_measured_x_frame_plot_and_errors() -> None:
    c = _offered_vs_carried()
    f = c.to_frame()
    assert list(f["x"]) == [0.1, 0.3, 0.9] and list(f["y_ci95_half_width"]) == [0.1, 0.2, 0.1]
    assert measured_x_from_frame(f) == [c]
    fig, ax = _axes()
    c.plot(ax)
    bars = ax.containers[0]
    assert bars.has_xerr and bars.has_yerr
    with pytest.raises(ValueError, match="3 x estimates but 2 y estimates"):
        MeasuredXCurve("k", "k", c.x, c.y[:2])


def test_write_artefact(tmp_path: Path) -> None:
    paths = write_artefact(_offered_vs_carried(), tmp_path, "offered", title="Carried vs offered")
    assert [p.name for p in paths] == ["offered.csv", "offered.png", "offered.svg"]
    assert all(p.stat().st_size > 0 for p in paths)
    assert (tmp_path / "offered.csv").read_text().startswith("curve,label,nominal,x,")


def test_figure_data_is_an_artefact(tmp_path: Path) -> None:
    from arqlab.studies import framework as fw

    fig = fw.Figure(
        1, "Toy", {"traffic": {"a": {"load": 0.1}}}, "load", "y", "throughput_efficiency", (0.1, 0.5), (0.1, 0.5),
        lambda x: {"traffic.a.load": x}, (fw.Curve("c", "curve c", "a_to_b"),),
        closed_forms=(fw.ClosedForm("y = x", lambda x: x),),
    )
    points, runs, _ = fw.plan_figure(fig, fw.RunSettings(quick=True, replications=3))
    metrics: fw.Metrics = {
        key: {"a_to_b": {"throughput_efficiency": {"mean": 0.9 * r.scenario["traffic"]["a"]["load"],
                                                   "ci95_half_width": 0.01, "n": 3}}}
        for key, r in runs.items()
    }
    fd = fw.FigureData(fig, fw.tabulate(fig, points, metrics))
    assert fd.est("c", 0.5) == Est(0.45, 0.01, 3)
    assert list(fd.to_frame()["y"]) == pytest.approx([0.09, 0.45])
    fig_, ax = _axes()
    fd.plot(ax)
    assert [line.get_label() for line in ax.get_lines()][-1] == "y = x"  # the closed form over the curve
    assert ax.get_xlabel() == "load" and len(ax.containers) == 1
    paths = write_artefact(fd, tmp_path, "fig1")
    assert (tmp_path / "fig1.csv").read_text().splitlines()[0].startswith("figure,curve,label,variant,x,")
    assert len(paths) == 3


def test_named_x_positions_label_a_categorical_axis() -> None:
    from arqlab.studies import framework as fw

    fig = fw.Figure(
        1, "Toy", {"traffic": {"a": {"load": 0.1}}}, "channel", "y", "throughput_efficiency", (1.0, 2.0), (1.0, 2.0),
        lambda x: {}, (fw.Curve("c", "curve c", "a_to_b"),), x_ticks=((1.0, "good"), (2.0, "bad")),
    )
    points, runs, _ = fw.plan_figure(fig, fw.RunSettings(quick=True, replications=3))
    metrics: fw.Metrics = {key: {"a_to_b": {"throughput_efficiency": {"mean": 0.5, "ci95_half_width": 0.01, "n": 3}}}
                           for key in runs}
    fd = fw.FigureData(fig, fw.tabulate(fig, points, metrics))
    _, ax = _axes()
    fd.plot(ax)
    assert list(ax.get_xticks()) == [1.0, 2.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["good", "bad"]
