"""`arqlab.design` at the boundary of each rule (issue 31): synthetic observations whose
effects, errors and intervals are exact in binary, so every comparison is tested at the
value where it flips, in both directions. Jain (1991) §17.4–18.5 notation: N runs of r
replications, q the effect, SSE the error sum of squares, CI q ± t·s_e/√(Nr)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from arqlab.design import DesignError, Factor, analyse, design
from arqlab.design.algebra import MAX_DESIGN_RUNS
from arqlab.studies.student_t import t_quantile


def _design(names: str = "A", generators: tuple[str, ...] = ()) -> object:
    return design([Factor.on_key(n, f"x.{n}", 0, 1) for n in names], generators)


def _row(table: object, effect: str) -> object:
    return table.set_index("effect").loc[effect]  # type: ignore[attr-defined]


def test_effect_sign_is_plus_minus_or_zero_exactly_at_zero() -> None:
    # 2^1, one replication: q_A = (y2 − y1)/2.
    d = _design()
    assert _row(analyse(d, [[1.0], [3.0]]), "A")["sign"] == "+"
    assert _row(analyse(d, [[3.0], [1.0]]), "A")["sign"] == "-"
    assert _row(analyse(d, [[2.0], [2.0]]), "A")["sign"] == "0"


def test_without_replications_there_is_no_error_row_and_no_significance() -> None:
    t = analyse(_design(), [[1.0], [3.0]])
    assert "error" not in set(t["effect"]) and t.attrs["error_dof"] == 0
    assert t["significant"].isna().all() and math.isnan(t.attrs["s_e"])
    assert _row(t, "A")["variation_pct"] == 100.0  # all variation is A's when SSE = 0


def test_error_row_and_dof_with_two_replications() -> None:
    # runs (1, 3) and (5, 7): means 2 and 6, q_A = 2, q_I = 4, SSE = 4 · 1 = 4, dof N(r−1) = 2.
    t = analyse(_design(), [[1.0, 3.0], [5.0, 7.0]])
    assert t.attrs["error_dof"] == 2 and t.attrs["replications"] == 2 and t.attrs["runs"] == 2
    err = _row(t, "error")
    assert err["sum_of_squares"] == 4.0
    # SST = SS_A + SSE = N r q² + SSE = 2·2·4 + 4 = 20.
    assert t.attrs["sst"] == 20.0 and _row(t, "A")["variation_pct"] == 80.0 and err["variation_pct"] == 20.0
    assert t.attrs["s_e"] == math.sqrt(2.0)
    half = t_quantile(2, 0.975) * math.sqrt(2.0) / 2.0
    assert _row(t, "A")["ci_low"] == pytest.approx(2.0 - half) and _row(t, "A")["ci_high"] == pytest.approx(2.0 + half)


def _interval_touching_zero(shift: float) -> tuple[float, float]:
    """Observations of a 2^1 with r = 2 whose effect A is ``half + shift``, where half is
    the interval's half-width: the CI's low end is ``shift`` (0 = touching zero)."""
    s_q = math.sqrt(2.0) / 2.0  # SSE = 4, dof 2, N r = 4
    half = t_quantile(2, 0.975) * s_q
    q = half + shift
    return q, half


@pytest.mark.parametrize(("shift", "expected"), [(-0.01, False), (0.01, True)])
def test_an_effect_is_significant_only_when_its_interval_excludes_zero(shift: float, expected: bool) -> None:
    q, _ = _interval_touching_zero(shift)
    # means 2 − q and 2 + q; replications ±1 around them keep SSE = 4.
    obs = [[2.0 - q - 1.0, 2.0 - q + 1.0], [2.0 + q - 1.0, 2.0 + q + 1.0]]
    a = _row(analyse(_design(), obs), "A")
    assert a["q"] == pytest.approx(q) and bool(a["significant"]) is expected
    # the mirror image (a negative effect) at the same distance from zero
    neg = _row(analyse(_design(), [obs[1], obs[0]]), "A")
    assert neg["q"] == pytest.approx(-q) and bool(neg["significant"]) is expected


def test_an_interval_ending_exactly_at_zero_is_not_significant() -> None:
    # q = 0 with replications: the CI is ±half around 0, so 0 is inside.
    a = _row(analyse(_design(), [[1.0, 3.0], [1.0, 3.0]]), "A")
    assert a["q"] == 0.0 and bool(a["significant"]) is False


def test_variation_is_nan_when_there_is_no_variation() -> None:
    t = analyse(_design(), [[2.0, 2.0], [2.0, 2.0]])
    assert t.attrs["sst"] == 0.0
    assert math.isnan(_row(t, "A")["variation_pct"]) and math.isnan(_row(t, "error")["variation_pct"])


@pytest.mark.parametrize("confidence", [0.0, 1.0, -0.5, 1.5])
def test_confidence_must_lie_strictly_between_0_and_1(confidence: float) -> None:
    with pytest.raises(DesignError) as e:
        analyse(_design(), [[1.0], [2.0]], confidence=confidence)
    assert e.value.problems == [f"confidence = {confidence!r}: expected a number in (0, 1)"]


@pytest.mark.parametrize("confidence", [1e-9, 0.5, 1.0 - 1e-9])
def test_confidence_just_inside_the_bounds_is_accepted(confidence: float) -> None:
    t = analyse(_design(), [[1.0, 3.0], [5.0, 7.0]], confidence=confidence)
    assert t.attrs["confidence"] == confidence


def test_log_transform_refuses_zero_and_accepts_the_smallest_positive_value() -> None:
    with pytest.raises(DesignError) as e:
        analyse(_design(), [[0.0], [1.0]], log=True)
    assert e.value.problems == ["observations[0][0] = 0.0: the log transform needs positive values"]
    t = analyse(_design(), [[1e-300], [1.0]], log=True)
    assert _row(t, "A")["q"] == pytest.approx(150.0)  # (log10 1 − log10 1e-300)/2
    assert set(t["transform"]) == {"log10"}
    # without log, zero and negative values are fine
    assert _row(analyse(_design(), [[0.0], [-2.0]]), "A")["q"] == -1.0


def test_run_count_and_replication_count_are_checked() -> None:
    with pytest.raises(DesignError) as e:
        analyse(_design(), [[1.0]])
    assert e.value.problems == ["observations: 1 runs given, the design has 2"]
    with pytest.raises(DesignError) as e:
        analyse(_design(), [[1.0, 2.0], [3.0]])
    assert "every run needs the same number (≥ 1) of replications, got [2, 1]" in e.value.problems[0]
    with pytest.raises(DesignError) as e:
        analyse(_design(), [[], []])
    assert "got [0, 0]" in e.value.problems[0]


def test_non_finite_observations_are_named() -> None:
    with pytest.raises(DesignError) as e:
        analyse(_design(), [[1.0, math.inf], [math.nan, 2.0]])
    assert e.value.problems == ["observations[0][1] = inf: expected a finite number",
                                "observations[1][0] = nan: expected a finite number"]


def test_mean_row_and_effect_order() -> None:
    t = analyse(_design("AB"), [[1.0], [2.0], [3.0], [5.0]])
    assert list(t["effect"]) == ["I", "A", "B", "AB"]
    assert list(t["order"]) == [0, 1, 1, 2]
    assert _row(t, "I")["q"] == 2.75 and _row(t, "I")["label"] == "mean"
    assert math.isnan(_row(t, "I")["variation_pct"])
    # q_AB = (1 − 2 − 3 + 5)/4
    assert _row(t, "AB")["q"] == 0.25 and _row(t, "AB")["sum_of_squares"] == 4 * 0.25 ** 2


# --- design(): the run limit and the resolution rule at their boundaries -------------

def test_run_limit_allows_exactly_the_limit_and_refuses_one_factor_more() -> None:
    assert _design_n(3, max_runs=8).n_runs == 8
    with pytest.raises(DesignError) as e:
        _design_n(4, max_runs=8)
    assert "2^4 = 16 runs, more than the limit of 8" in e.value.problems[0]
    assert MAX_DESIGN_RUNS == 4096


def _design_n(k: int, max_runs: int) -> object:
    return design([Factor.on_key(c, f"x.{c}", 0, 1) for c in "ABCDEFGH"[:k]], (), max_runs=max_runs)


def test_a_generator_counts_against_the_limit_only_through_the_base_factors() -> None:
    # 4 factors, D = ABC: 2^3 = 8 runs, within a limit of 8.
    d = design([Factor.on_key(c, f"x.{c}", 0, 1) for c in "ABCD"], ("D=ABC",), max_runs=8)
    assert d.n_runs == 8 and d.resolution() == 4


def test_resolution_three_is_accepted_and_two_refused() -> None:
    d = _design("ABC", ("C=AB",))
    assert d.resolution() == 3 and d.aliases("C") == ["AB"]
    with pytest.raises(DesignError) as e:
        _design("ABC", ("C=A",))
    assert "resolution 2" in e.value.problems[0] and "I = AC" in e.value.problems[0]
    with pytest.raises(DesignError) as e:
        _design("ABC", ("C=-A",))
    assert "I = -AC" in e.value.problems[0]


# --- the algebra: a design read off its matrix, and effect names ----------------------

def test_from_matrix_reads_constant_columns_as_defining_words() -> None:
    from arqlab.design.algebra import FractionalDesign

    # C = AB in a 2^(3−1): the only constant product is ABC (+1); a single factor never is.
    m = [[-1, -1, 1], [1, -1, -1], [-1, 1, -1], [1, 1, 1]]
    d = FractionalDesign.from_matrix(("A", "B", "C"), m)
    assert d.factors == ("A", "B", "C") and d.matrix.tolist() == m
    assert d.relation == ((1, frozenset("ABC")),) and d.resolution() == 3
    # a constant single column is a word of length 1 (a factor held at one level)
    held = FractionalDesign.from_matrix(("A", "B"), [[1, -1], [1, 1]])
    assert held.relation == ((1, frozenset("A")),)
    # a negative word: C = −AB makes ABC constant at −1
    neg = FractionalDesign.from_matrix(("A", "B", "C"), [[a, b, -a * b] for a, b in ((-1, -1), (1, -1), (-1, 1), (1, 1))])
    assert neg.relation == ((-1, frozenset("ABC")),)


def test_from_matrix_of_one_run_and_of_floats() -> None:
    from arqlab.design.algebra import FractionalDesign

    one = FractionalDesign.from_matrix(("A",), [[1]])  # one run: every column is constant
    assert one.relation == ((1, frozenset("A")),) and one.runs == 1
    floats = FractionalDesign.from_matrix(("A", "B"), [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])
    assert floats.matrix.dtype.kind == "i" and floats.column(frozenset("AB")).tolist() == [1, -1, -1, 1]


@pytest.mark.parametrize(("matrix", "message"), [
    ([1, -1], "design matrix must have one column per factor (1), got shape (2,)"),
    ([[1, -1], [-1, 1]], "design matrix must have one column per factor (1), got shape (2, 2)"),
    ([[0], [1]], "design matrix entries must be -1 or +1"),
])
def test_from_matrix_refuses_bad_shapes_and_entries(matrix: object, message: str) -> None:
    from arqlab.design.algebra import FractionalDesign

    with pytest.raises(ValueError) as e:
        FractionalDesign.from_matrix(("A",), matrix)
    assert str(e.value) == message


def test_names_of_the_identity_and_of_signed_words() -> None:
    from arqlab.design.algebra import FractionalDesign, signed_name

    d = FractionalDesign.full("AB")
    assert d.name(frozenset()) == "I" and d.name(frozenset(), -1) == "-I"
    assert d.name(frozenset("BA")) == "AB" and d.name(frozenset("AB"), -1) == "-AB"
    long = FractionalDesign.full(("window", "timeout"))
    assert long.name(frozenset(("timeout", "window"))) == "window*timeout" and long.name(frozenset()) == "I"
    assert signed_name((1, frozenset())) == "I" and signed_name((-1, frozenset("CA"))) == "-AC"
    assert signed_name((1, frozenset("CA"))) == "AC"


def test_alias_column_lists_each_effect_s_confounded_words_and_the_mean_the_relation() -> None:
    # 2^(5−2), D = AB, E = AC: I = ABD = ACE = BCDE (Jain §19.4: products of the generators).
    d = _design("ABCDE", ("D=AB", "E=AC"))
    t = analyse(d, [[float(i)] for i in range(8)])
    assert _row(t, "I")["aliases"] == "ABD; ACE; BCDE"
    assert _row(t, "A")["aliases"] == "BD; CE; ABCDE"  # A·ABD, A·ACE, A·BCDE
    assert _row(t, "B")["aliases"] == "AD; CDE; ABCE"
    assert list(t["response"]) == [""] * len(t)  # no response named: empty, not a placeholder
    assert set(analyse(d, [[1.0]] * 8, response="delay")["response"]) == {"delay"}


def test_signs_of_the_defining_relation_stay_integers() -> None:
    d = _design("ABCDE", ("D=-AB", "E=AC"))
    assert d.defining_relation() == ["I", "-ABD", "ACE", "-BCDE"]
    assert all(type(sign) is int for sign, _ in d.algebra.relation)
    assert all(type(sign) is int for sign, _ in d.algebra.aliases(frozenset("A")))


def test_the_error_row_has_no_estimate_interval_order_or_significance() -> None:
    err = _row(analyse(_design(), [[1.0, 3.0], [5.0, 7.0]]), "error")
    assert err["aliases"] == "" and err["sign"] == "" and err["label"] == "error"
    assert math.isnan(err["q"]) and math.isnan(err["ci_low"]) and math.isnan(err["ci_high"])
    assert err["order"] is pd.NA and err["significant"] is pd.NA


def test_a_zero_width_interval_at_zero_is_not_significant() -> None:
    # Identical replications: s_e = 0, so the interval of q = 0 is [0, 0], which holds 0.
    t = analyse(_design(), [[2.0, 2.0], [2.0, 2.0]])
    a = _row(t, "A")
    assert (a["q"], a["ci_low"], a["ci_high"]) == (0.0, 0.0, 0.0) and bool(a["significant"]) is False
    # ... and a zero-width interval away from zero is significant, either sign
    assert bool(_row(analyse(_design(), [[1.0, 1.0], [3.0, 3.0]]), "A")["significant"]) is True
    assert bool(_row(analyse(_design(), [[3.0, 3.0], [1.0, 1.0]]), "A")["significant"]) is True


def test_variation_shares_are_given_for_any_positive_total() -> None:
    # SST = 0.125 (< 1): q_A = 0.25, SS_A = N r q² = 0.125, the whole of it.
    assert _row(analyse(_design(), [[0.0], [0.5]]), "A")["variation_pct"] == 100.0


def test_the_error_share_is_given_for_any_positive_total_and_columns_keep_their_order() -> None:
    # q = 0, SSE = 4 · 0.25² = 0.25 = SST (< 1): the error is all the variation.
    t = analyse(_design(), [[0.0, 0.5], [0.0, 0.5]])
    assert _row(t, "error")["variation_pct"] == 100.0
    assert list(t.columns) == ["response", "transform", "effect", "label", "order", "aliases", "q", "sign",
                               "sum_of_squares", "variation_pct", "ci_low", "ci_high", "significant"]
    assert set(t["transform"]) == {"none"} and set(t["response"]) == {""}


@pytest.mark.parametrize(("name", "where"), [
    ("AB", "factors.AB"),  # two letters, though "AB" is a substring of the letters allowed
    ("I", "factors.I"),
    ("a", "factors.a"),
    ("", "factors[0]"),  # an empty name, or one that is not a string, is named by position
    (3, "factors[0]"),
])
def test_a_factor_name_must_be_one_capital_letter_other_than_i(name: object, where: str) -> None:
    with pytest.raises(DesignError) as info:
        design([Factor(name, {"x": 1}, {"x": 2})])  # type: ignore[arg-type]
    assert info.value.problems == [f"{where}: the name {name!r} must be one capital letter A–Z other than I "
                                   "(Jain's notation: effects are words such as AB)"]


def test_every_badly_named_factor_is_named() -> None:
    with pytest.raises(DesignError) as info:
        design([Factor("AB", {"x": 1}, {"x": 2}), Factor("a", {"y": 1}, {"y": 2}), Factor("C", {"z": 1}, {"z": 1})])
    assert [p.split(":")[0] for p in info.value.problems] == ["factors.AB", "factors.a", "factors.C.levels"]
