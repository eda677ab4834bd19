"""A 2^(3−1) design worked by hand (issue 31): C = AB, so I = ABC (Jain 1991 §19.1–19.6).

Base factors A, B in standard order; C is set from the generator. With r = 2 replications
of ±1 around run means 10, 20, 30, 44:

    run  A  B  C=AB   y        mean
    0    −  −  +     9, 11    10
    1    +  −  −    19, 21    20
    2    −  +  −    29, 31    30
    3    +  +  +    43, 45    44

q_I = 104/4 = 26, q_A = (−10 + 20 − 30 + 44)/4 = 6, q_B = (−10 − 20 + 30 + 44)/4 = 11,
q_C = (10 − 20 − 30 + 44)/4 = 1. SS = N r q² = 8 q²: 288, 968, 8; SSE = 8 · 1 = 8,
SST = 1272 (= Σ (y − 26)², checked below from the observations). Error dof N(r − 1) = 4,
s_e = √(8/4) = √2, s_q = s_e/√(Nr) = 1/2. The intervals use Student's t with 4 degrees of
freedom from the printed tables: 2.776 (95 %), 2.132 (90 %), 1.533 (80 %), so C's
interval, 1 ± t/2, holds 0 at 95 % and 90 % and excludes it at 80 %.
"""

from __future__ import annotations

import math

import pytest

from arqlab.design import DesignError, Factor, analyse, design

OBS = [[9.0, 11.0], [19.0, 21.0], [29.0, 31.0], [43.0, 45.0]]
T4 = {0.95: 2.776, 0.90: 2.132, 0.80: 1.533}  # t[1 − α/2; 4], printed tables (3 decimals)


def _abc(generator: str = "C=AB") -> object:
    return design([Factor.on_key(n, f"x.{n}", 0, 1, f"factor {n}") for n in "ABC"], [generator])


def _row(table: object, effect: str) -> object:
    return table.set_index("effect").loc[effect]  # type: ignore[attr-defined]


def test_the_half_fraction_runs_its_base_factors_in_standard_order_and_sets_c_from_ab() -> None:
    d = _abc()
    assert (d.k, d.p, d.n_runs, d.base) == (3, 1, 4, ("A", "B"))
    assert d.runs() == [{"A": -1, "B": -1, "C": 1}, {"A": 1, "B": -1, "C": -1},
                        {"A": -1, "B": 1, "C": -1}, {"A": 1, "B": 1, "C": 1}]
    assert d.overrides(0) == {"x.A": 0, "x.B": 0, "x.C": 1} and d.overrides(3) == {"x.A": 1, "x.B": 1, "x.C": 1}
    assert d.level_names(1) == {"A": "1", "B": "0", "C": "0"}
    assert d.sign_table().to_dict("list") == {"I": [1, 1, 1, 1], "A": [-1, 1, -1, 1], "B": [-1, -1, 1, 1],
                                              "C": [1, -1, -1, 1]}


def test_i_equals_abc_gives_resolution_three_and_each_main_effect_one_alias() -> None:
    d = _abc()
    assert d.defining_relation() == ["I", "ABC"] and d.resolution() == 3
    # each effect times ABC: A·ABC = BC, B·ABC = AC, C·ABC = AB; estimated under the lower-order name
    assert d.effects() == ["A", "B", "C"]
    assert {e: d.aliases(e) for e in ("A", "B", "C", "AB", "BC", "AC")} == {
        "A": ["BC"], "B": ["AC"], "C": ["AB"], "AB": ["C"], "BC": ["A"], "AC": ["B"]}
    assert d.aliases("I") == ["ABC"] and d.aliases("ABC") == ["I"]
    # aliased columns are identical: the design cannot tell A from BC
    assert d.column("A") == d.column("BC") and d.column("C") == d.column("AB") and d.column("ABC") == [1] * 4


def test_a_negative_generator_flips_the_relation_the_aliases_and_the_estimate_of_c() -> None:
    d = _abc("C=-AB")
    assert d.defining_relation() == ["I", "-ABC"] and d.resolution() == 3
    assert d.aliases("C") == ["-AB"] and d.aliases("A") == ["-BC"]
    assert d.column("C") == [-1, 1, 1, -1] and d.column("ABC") == [-1] * 4
    t = analyse(d, OBS)
    # the same responses, C's column negated: q_C = −1, A and B unchanged
    assert _row(t, "C")["q"] == -1.0 and _row(t, "C")["sign"] == "-"
    assert (_row(t, "A")["q"], _row(t, "B")["q"]) == (6.0, 11.0)
    assert _row(t, "I")["aliases"] == "-ABC" and _row(t, "A")["aliases"] == "-BC"


def test_effects_sums_of_squares_and_shares_of_the_hand_worked_response() -> None:
    t = analyse(_abc(), OBS, response="delay")
    assert list(t["effect"]) == ["I", "A", "B", "C", "error"]
    assert list(t["q"][:4]) == [26.0, 6.0, 11.0, 1.0]
    assert list(t["sign"]) == ["+", "+", "+", "+", ""]
    assert list(t["sum_of_squares"]) == [8 * 26.0 ** 2, 288.0, 968.0, 8.0, 8.0]
    sst = math.fsum((y - 26.0) ** 2 for run in OBS for y in run)
    assert sst == 1272.0 and t.attrs["sst"] == sst
    assert list(t["variation_pct"][1:]) == [100 * 288 / 1272, 100 * 968 / 1272, 100 * 8 / 1272, 100 * 8 / 1272]
    assert list(t["aliases"][:4]) == ["ABC", "BC", "AC", "AB"]
    assert list(t["label"][:4]) == ["mean", "factor A", "factor B", "factor C"]
    assert list(t["order"][:4]) == [0, 1, 1, 1]
    assert t.attrs["error_dof"] == 4 and t.attrs["s_e"] == math.sqrt(2.0)
    assert (t.attrs["runs"], t.attrs["replications"], t.attrs["confidence"]) == (4, 2, 0.95)


@pytest.mark.parametrize(("confidence", "c_significant"), [(0.95, False), (0.90, False), (0.80, True)])
def test_intervals_are_q_plus_minus_t_times_s_q_and_c_is_significant_only_at_80_percent(
        confidence: float, c_significant: bool) -> None:
    t = analyse(_abc(), OBS, confidence=confidence)
    half = T4[confidence] * 0.5  # s_q = 1/2
    for e, q in (("I", 26.0), ("A", 6.0), ("B", 11.0), ("C", 1.0)):
        r = _row(t, e)
        assert r["ci_low"] == pytest.approx(q - half, abs=5e-4) and r["ci_high"] == pytest.approx(q + half, abs=5e-4)
    assert [bool(_row(t, e)["significant"]) for e in ("I", "A", "B", "C")] == [True, True, True, c_significant]


def test_the_log_transform_analyses_log10_of_each_observation() -> None:
    # y = 10^v: the analysis sees v, run means 1, 2, 3, 4 with ±0.5 around them
    logs = [[0.5, 1.5], [1.5, 2.5], [2.5, 3.5], [3.5, 4.5]]  # means 1, 2, 3, 4
    t = analyse(_abc(), [[10.0 ** v for v in run] for run in logs], log=True)
    assert list(t["q"][:4]) == pytest.approx([2.5, 0.5, 1.0, 0.0], abs=1e-12)
    assert set(t["transform"]) == {"log10"}
    # SSE = 8 · 0.5² = 2 on 4 degrees of freedom: s_e = √(1/2)
    assert _row(t, "error")["sum_of_squares"] == pytest.approx(2.0, abs=1e-12)
    assert t.attrs["s_e"] == pytest.approx(math.sqrt(0.5), abs=1e-12)


def test_the_design_needs_one_observation_list_per_run() -> None:
    with pytest.raises(DesignError) as e:
        analyse(_abc(), OBS[:3])
    assert e.value.problems == ["observations: 3 runs given, the design has 4"]
