"""Two-level (fractional) factorial experiments: designs, alias structure, effects and
their confidence intervals, checked against hand-computed answers."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from arqlab.studies.artefacts import FactorialEffects, FractionalDesign  # noqa: E402
from arqlab.studies.verdicts import Verdict, significant  # noqa: E402

T8 = 2.306004135  # Student t(8), 0.975 (tables)


def _words(relation: tuple[tuple[int, frozenset[str]], ...]) -> set[tuple[int, str]]:
    return {(s, "".join(sorted(w))) for s, w in relation}


def test_full_factorial_standard_order() -> None:
    d = FractionalDesign.full("ABC")
    assert d.runs == 8 and d.relation == () and d.resolution() is None
    assert d.matrix[:, 0].tolist() == [-1, 1, -1, 1, -1, 1, -1, 1]  # A alternates fastest
    assert d.matrix[:, 2].tolist() == [-1, -1, -1, -1, 1, 1, 1, 1]
    assert (d.matrix.T @ d.matrix == 8 * np.eye(3)).all()  # orthogonal columns


def test_resolution_iv_half_fraction() -> None:
    d = FractionalDesign.fraction("ABC", {"D": "ABC"})
    assert d.factors == ("A", "B", "C", "D") and d.runs == 8
    assert _words(d.relation) == {(1, "ABCD")}
    assert d.resolution() == 4
    assert [d.name(w, s) for s, w in d.aliases("A")] == ["BCD"]
    assert [d.name(w, s) for s, w in d.aliases("AB")] == ["CD"]
    assert (d.column(frozenset("AB")) == d.column(frozenset("CD"))).all()
    assert (d.column(frozenset("ABCD")) == 1).all()


def test_resolution_iii_fractions() -> None:
    d = FractionalDesign.fraction("AB", {"C": "AB"})
    assert _words(d.relation) == {(1, "ABC")} and d.resolution() == 3
    assert [d.name(w, s) for s, w in d.aliases("A")] == ["BC"]  # a main effect aliased with a 2fi
    d = FractionalDesign.fraction("ABC", {"D": "AB", "E": "AC"})
    assert d.runs == 8 and d.resolution() == 3
    assert _words(d.relation) == {(1, "ABD"), (1, "ACE"), (1, "BCDE")}  # I = ABD = ACE = BCDE
    assert [d.name(w, s) for s, w in d.aliases("A")] == ["BD", "CE", "ABCDE"]
    # The relation read off the matrix's columns agrees with the one built from the generators.
    assert _words(FractionalDesign.from_matrix(d.factors, d.matrix).relation) == _words(d.relation)


def test_negative_generator_and_long_names() -> None:
    d = FractionalDesign.fraction("ABC", {"D": "-ABC"})
    assert _words(d.relation) == {(-1, "ABCD")}
    assert [d.name(w, s) for s, w in d.aliases("AB")] == ["-CD"]
    assert (d.column(frozenset("AB")) == -d.column(frozenset("CD"))).all()
    named = FractionalDesign.fraction(("window", "timeout"), {"modulus": "window*timeout"})
    assert named.name(frozenset({"timeout", "window"})) == "window*timeout"
    assert [named.name(w, s) for s, w in named.aliases("window")] == ["timeout*modulus"]


def _responses(d: FractionalDesign, model: dict[str, float], delta: float, mean: float = 10.0) -> list[list[float]]:
    """Two replications per run, model mean ± delta: run means are the model exactly and
    the pooled replication variance is 2·delta²."""
    out = []
    for i in range(d.runs):
        mu = mean + sum(c * d.column(frozenset(w))[i] for w, c in model.items())
        out.append([mu - delta, mu + delta])
    return out


def test_effects_and_cis_known_answers() -> None:
    d = FractionalDesign.fraction("ABC", {"D": "ABC"})
    # coefficients of ±1 factors: an effect (mean at + minus mean at −) is twice its coefficient
    fx = FactorialEffects.estimate(d, _responses(d, {"A": 2.0, "B": -1.5, "AB": 0.5}, 0.3), response="throughput")
    assert fx.df == 8
    names = [e.name for e in fx.effects]
    assert names == ["A", "B", "C", "D", "AB", "AC", "AD"]  # N − 1 = 7 estimable effects
    assert [e.aliases for e in fx.effects][4:] == [("CD",), ("BD",), ("BC",)]
    half = T8 * math.sqrt(4 / 8 ** 2 * (2 * 0.3 ** 2) * (8 / 2))  # t·sqrt(4/N² · s² · Σ 1/n_i)
    expected = {"A": 4.0, "B": -3.0, "C": 0.0, "D": 0.0, "AB": 1.0, "AC": 0.0, "AD": 0.0}
    for e in fx.effects:
        assert e.est.mean == pytest.approx(expected[e.name], abs=1e-12)
        assert e.est.half == pytest.approx(half, rel=1e-9)
    assert fx.mean.mean == pytest.approx(10.0)
    assert fx.effect("CD").mean == pytest.approx(1.0)  # read through its alias
    assert fx.effect("BCD").mean == pytest.approx(4.0)
    assert significant(fx.effect("A")) is Verdict.HOLDS
    assert significant(fx.effect("C")) is Verdict.INCONCLUSIVE
    assert significant(fx.effect("C"), negligible=1.0) is Verdict.DOES_NOT_HOLD
    with pytest.raises(KeyError):
        fx.effect("ABCD")  # confounded with the mean, not estimated


def test_effect_is_difference_of_means_with_unequal_replication() -> None:
    d = FractionalDesign.full("AB")
    reps = [[1.0, 2.0, 3.0], [5.0, 6.0], [2.0, 2.5], [8.0, 9.0, 10.0, 11.0]]
    fx = FactorialEffects.estimate(d, reps)
    means = [float(np.mean(r)) for r in reps]
    a = d.matrix[:, 0]
    plus = np.mean([m for m, s in zip(means, a) if s > 0])
    minus = np.mean([m for m, s in zip(means, a) if s < 0])
    assert fx.effect("A").mean == pytest.approx(plus - minus)
    df = sum(len(r) - 1 for r in reps)
    s2 = sum(((np.array(r) - np.mean(r)) ** 2).sum() for r in reps) / df
    var = 4 / 16 * s2 * sum(1 / len(r) for r in reps)
    assert fx.df == df == 7
    assert fx.effect("AB").half == pytest.approx(2.364624251592785 * math.sqrt(var))  # t(7), 0.975


def test_allocation_of_variation() -> None:
    # Full 2^3, equal replication: the seven effects and the error explain all the variation.
    d = FractionalDesign.full("ABC")
    fx = FactorialEffects.estimate(d, _responses(d, {"A": 2.0, "B": -1.0}, 0.5))
    # SST = 16·(2² + 1²) + 8·2·0.5² = 84 (each coefficient β contributes N·n·β²)
    assert fx.effect("A") == fx.effects[0].est
    assert fx.effects[0].variation == pytest.approx(64 / 84)
    assert fx.effects[1].variation == pytest.approx(16 / 84)
    assert fx.error_variation == pytest.approx(4 / 84)
    assert sum(e.variation for e in fx.effects) + fx.error_variation == pytest.approx(1.0)
    assert fx.to_frame()["variation_fraction"].iloc[2] == pytest.approx(0.0)


def test_ci_coverage_is_95_percent() -> None:
    rng = np.random.default_rng(20240501)
    d = FractionalDesign.full("ABC")
    truth = {"A": 1.0, "B": -0.5, "C": 0.0, "AB": 0.25, "AC": 0.0, "BC": 0.0}
    covered = total = 0
    for _ in range(400):
        mu = [5.0 + sum(c / 2 * d.column(frozenset(w))[i] for w, c in truth.items()) for i in range(d.runs)]
        reps = [list(m + rng.normal(0.0, 1.0, 3)) for m in mu]
        fx = FactorialEffects.estimate(d, reps)
        for e in fx.effects:
            total += 1
            covered += e.est.lo <= truth[e.name] <= e.est.hi
    assert total == 2400
    assert 0.935 <= covered / total <= 0.965  # binomial sd 0.0044 around 0.95


@pytest.mark.parametrize(("responses", "message"), [
    ([[1.0]] * 4, "no run is replicated"),
    ([[1.0, 2.0]] * 3, "expected one list per run"),
    ([[1.0, 2.0]] * 3 + [[]], "at least one replication"),
])
def test_bad_responses(responses: list[list[float]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FactorialEffects.estimate(FractionalDesign.full("AB"), responses)


def test_bad_designs() -> None:
    with pytest.raises(ValueError, match="expected distinct factors"):
        FractionalDesign.fraction("ABC", {"D": "ABX"})
    with pytest.raises(ValueError, match="at least two base factors"):
        FractionalDesign.fraction("ABC", {"D": "A"})
    with pytest.raises(ValueError, match="-1 or \\+1"):
        FractionalDesign.from_matrix("AB", [[0, 1], [1, 1]])


def test_frame_and_plot() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = FractionalDesign.fraction("ABC", {"D": "ABC"})
    fx = FactorialEffects.estimate(d, _responses(d, {"A": 2.0}, 0.3))
    frame = fx.to_frame()
    assert list(frame["effect"]) == ["A", "B", "C", "D", "AB", "AC", "AD"]
    assert frame.loc[0, "aliases"] == "BCD" and frame.loc[0, "estimate"] == pytest.approx(4.0)
    assert (frame["hi"] - frame["lo"]).round(12).nunique() == 1
    fig, ax = plt.subplots()
    fx.plot(ax)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == 7 and labels[-1] == "A (= BCD)"  # sorted by magnitude, largest on top
    assert "resolution 4" in ax.get_title()
    plt.close(fig)
