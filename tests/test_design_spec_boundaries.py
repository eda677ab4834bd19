"""The TOML form of a design (``arqlab.design.spec``) at each field's boundary (issue 31):
every number just inside and just outside what it accepts, booleans where a number is
expected, every shape a table can take, and the exact problem list, which names the
field, the value and what was expected, all problems at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arqlab.design import DesignError, load_design, parse_design

A = {"key": "x.a", "levels": [1, 2]}
RESPONSE = {"measure": "m"}


def problems(data: dict[str, Any], **kw: Any) -> list[str]:
    with pytest.raises(DesignError) as info:
        parse_design(data, **kw)
    return info.value.problems


def spec(**top: Any) -> dict[str, Any]:
    return {"factors": {"A": A}, "response": RESPONSE, **top}


LIMIT_1 = ("factors: 1 factors and 0 generator(s) make 2^1 = 2 runs, more than the limit of 1: add generators "
           "for a smaller fraction, or raise the limit (max_runs = N in the design file, or --max-runs N)")


@pytest.mark.parametrize("value", [0, -1, True, 2.0, "8"])
def test_max_runs_below_1_or_not_a_whole_number_is_refused(value: Any) -> None:
    assert problems(spec(max_runs=value)) == [f"max_runs = {value!r}: expected a whole number >= 1"]
    assert problems(spec(), max_runs=value) == [f"max_runs = {value!r}: expected a whole number >= 1"]


def test_max_runs_of_1_is_a_limit_and_2_admits_a_2_run_design() -> None:
    assert problems(spec(max_runs=1)) == [LIMIT_1]
    assert parse_design(spec(max_runs=2)).design.n_runs == 2
    # the argument overrides the file, in both directions
    assert parse_design(spec(max_runs=1), max_runs=2).design.n_runs == 2
    assert problems(spec(max_runs=2), max_runs=1) == [LIMIT_1]


@pytest.mark.parametrize(("field", "bad", "good", "expected"), [
    ("replications", 0, 1, "a whole number >= 1"),
    ("replications", True, 2, "a whole number >= 1"),
    ("replications", 1.0, 3, "a whole number >= 1"),
    ("seed", -1, 0, "a whole number >= 0"),
    ("seed", False, 7, "a whole number >= 0"),
    ("seed", 0.5, 1, "a whole number >= 0"),
    ("log", 1, True, "true or false"),
    ("log", "yes", False, "true or false"),
    ("confidence", 0, 0.5, "a number in (0, 1)"),
    ("confidence", 1, 0.999, "a number in (0, 1)"),
    ("confidence", 0.0, 1e-9, "a number in (0, 1)"),
    ("confidence", True, 0.9, "a number in (0, 1)"),
    ("confidence", "0.9", 0.95, "a number in (0, 1)"),
])
def test_each_top_level_number_at_its_boundary(field: str, bad: Any, good: Any, expected: str) -> None:
    assert problems(spec(**{field: bad})) == [f"{field} = {bad!r}: expected {expected}"]
    parsed = parse_design(spec(**{field: good}))
    assert getattr(parsed, field) == good and type(getattr(parsed, field)) is type(good)


def test_defaults_and_what_a_valid_file_gives() -> None:
    d = parse_design(spec())
    assert (d.measure, d.direction, d.replications, d.seed, d.log, d.confidence) == ("m", None, None, None, False, 0.95)
    assert type(d.confidence) is float
    d = parse_design({**spec(confidence=1 / 2), "response": {"measure": "m", "direction": "b_to_a"}})
    assert d.direction == "b_to_a" and d.confidence == 0.5


def test_every_problem_of_a_file_is_reported_at_once_in_field_order() -> None:
    bad = {"factors": {"A": A}, "response": {"measure": "m", "direction": 3, "x": 1}, "replications": True,
           "seed": -1, "log": 1, "confidence": 1, "bogus": 0}
    assert problems(bad) == [
        "bogus: unknown key (allowed: generators, replications, seed, log, confidence, response, factors, max_runs)",
        "response.x: unknown key (allowed: measure, direction)",
        "response.direction = 3: expected a string such as 'a_to_b'",
        "replications = True: expected a whole number >= 1",
        "seed = -1: expected a whole number >= 0",
        "log = 1: expected true or false",
        "confidence = 1: expected a number in (0, 1)",
    ]


@pytest.mark.parametrize(("factors", "expected"), [
    (None, ["factors = None: expected tables such as [factors.A] with two levels"]),
    ({}, ["factors = {}: expected tables such as [factors.A] with two levels"]),
    ({"A": 3}, ["factors.A = 3: expected a table with levels"]),
    ({"A": {"levels": 3}}, ["factors.A.levels = 3: expected exactly 2 levels (a two-level design), got no list of"]),
    ({"A": {"key": "x", "levels": [1]}}, ["factors.A.levels = [1]: expected exactly 2 levels (a two-level design), got 1"]),
    ({"A": {"key": "x", "levels": [1, 2, 3], "y": 0}},
     ["factors.A.y: unknown key (allowed: label, key, levels, level_names)",
      "factors.A.levels = [1, 2, 3]: expected exactly 2 levels (a two-level design), got 3"]),
    ({"A": {"key": "x", "levels": [1, 2], "label": 5, "level_names": ["a"]}},
     ["factors.A.label = 5: expected a string", "factors.A.level_names = ['a']: expected two strings"]),
    ({"A": {"key": "x", "levels": [1, 2], "level_names": ["a", 2]}},
     ["factors.A.level_names = ['a', 2]: expected two strings"]),
    ({"A": {"key": "x", "levels": [1, 2], "level_names": "ab"}}, ["factors.A.level_names = 'ab': expected two strings"]),
    ({"A": {"key": "", "levels": [1, 2]}},
     ["factors.A.key = '': expected a dotted scenario key such as 'link.rate_bps'"]),
    ({"A": {"key": 7, "levels": [1, 2]}}, ["factors.A.key = 7: expected a dotted scenario key such as 'link.rate_bps'"]),
    ({"A": {"levels": [{}, 3]}},
     ["factors.A.levels[0] = {}: expected a table of overrides (or give key = 'dotted.key' and two values)",
      "factors.A.levels[1] = 3: expected a table of overrides (or give key = 'dotted.key' and two values)"]),
])
def test_each_shape_of_a_factor_table(factors: Any, expected: list[str]) -> None:
    assert problems({"factors": factors, "response": RESPONSE}) == expected


def test_a_factor_s_level_names_label_and_levels_as_parsed() -> None:
    keyed = parse_design({"factors": {"A": {"key": "x.a", "levels": [1, 2], "label": "W",
                                            "level_names": ["lo", "hi"]}}, "response": RESPONSE}).design.factor("A")
    assert (keyed.low, keyed.high, keyed.label, keyed.level_names) == ({"x.a": 1}, {"x.a": 2}, "W", ("lo", "hi"))
    assert parse_design(spec()).design.factor("A").level_names == ("1", "2")  # the values themselves
    tables = {"levels": [{"x.a": 1, "x.b": 0}, {"x.a": 2}]}
    f = parse_design({"factors": {"B": tables}, "response": RESPONSE}).design.factor("B")
    assert (f.low, f.high, f.label, f.level_names) == ({"x.a": 1, "x.b": 0}, {"x.a": 2}, "", ("-", "+"))
    named = parse_design({"factors": {"B": {**tables, "level_names": ["no", "yes"]}},
                          "response": RESPONSE}).design.factor("B")
    assert named.level_names == ("no", "yes") and named.title == "B"


@pytest.mark.parametrize(("generators", "expected"), [
    ("C=AB", "generators = 'C=AB': expected a list of strings such as ['D=ABC']"),
    (["C=AB", 3], "generators = ['C=AB', 3]: expected a list of strings such as ['D=ABC']"),
])
def test_generators_must_be_a_list_of_strings(generators: Any, expected: str) -> None:
    assert problems({**spec(), "generators": generators}) == [expected]


def test_a_generator_naming_a_broken_factor_is_checked_against_every_declared_name() -> None:
    # B's levels are bad, but B is declared: C (undeclared) is named, B is not.
    data = {"factors": {"A": A, "B": {"levels": 3}}, "generators": ["C=AB"], "response": RESPONSE}
    assert problems(data) == ["factors.B.levels = 3: expected exactly 2 levels (a two-level design), got no list of",
                              "generators[0] = 'C=AB': factor C is not defined (factors: A, B)"]
    # with every name declared the broken factor alone is reported
    data = {"factors": {"A": A, "B": {"key": "x.b", "levels": [1, 2]}, "C": {"levels": 3}},
            "generators": ["C=AB"], "response": RESPONSE}
    assert problems(data) == ["factors.C.levels = 3: expected exactly 2 levels (a two-level design), got no list of"]


@pytest.mark.parametrize(("response", "kw", "expected"), [
    (None, {}, 'response.measure: missing; expected e.g. [response] measure = "transfer_time_s"'),
    ({"measure": 3}, {}, 'response.measure: missing; expected e.g. [response] measure = "transfer_time_s"'),
    ({"measure": "Bad"}, {}, "response.measure = 'Bad': expected a measure name such as transfer_time_s "
                             "or loss_ratio (lower case, digits and '_')"),
    ({"measure": "m"}, {"measures": ["a", "b"]},
     "response.measure = 'm': not a measure of this scenario (measures of its scopes: a, b)"),
])
def test_the_response_measure(response: Any, kw: dict[str, Any], expected: str) -> None:
    assert problems({"factors": {"A": A}, "response": response}, **kw) == [expected]


def test_a_measure_of_the_scenario_is_accepted_whatever_its_spelling_rule() -> None:
    assert parse_design(spec(), measures=["m", "n"]).measure == "m"


def test_load_design_names_the_file_or_design_and_the_problem(tmp_path: Path) -> None:
    missing = tmp_path / "none.toml"
    with pytest.raises(DesignError) as info:
        load_design(missing)
    assert info.value.source == str(missing) and info.value.problems == ["cannot read: No such file or directory"]
    with pytest.raises(DesignError) as info:
        load_design("a = [\n")
    assert info.value.source == "design" and info.value.problems[0].startswith("not valid TOML: ")
    bad = tmp_path / "bad.toml"
    bad.write_text('[response]\nmeasure = "m"\n[factors.A]\nlevels = [1]\nkey = "x"\n')
    with pytest.raises(DesignError) as info:
        load_design(bad)
    assert info.value.source == str(bad)
    assert info.value.problems == ["factors.A.levels = [1]: expected exactly 2 levels (a two-level design), got 1"]
    with pytest.raises(DesignError) as info:
        load_design("max_runs = 0\n" + bad.read_text())
    assert info.value.source == "design" and info.value.problems[0] == "max_runs = 0: expected a whole number >= 1"
    good = tmp_path / "good.toml"
    good.write_text('max_runs = 1\n[response]\nmeasure = "m"\n[factors.A]\nlevels = [1, 2]\nkey = "x"\n')
    assert load_design(good, max_runs=2, measures=["m"]).design.n_runs == 2
    with pytest.raises(DesignError, match="not a measure of this scenario"):
        load_design(good, max_runs=2, measures=["n"])


def test_a_design_file_that_is_not_utf_8_is_named_with_the_decoder_s_problem(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('[factors.A]\nlabel = "Größe"\n'.encode("latin-1"))
    with pytest.raises(DesignError) as info:
        load_design(bad)
    assert info.value.source == str(bad)
    assert info.value.problems == ["cannot read: 'utf-8' codec can't decode byte 0xf6 in position 23: "
                                   "invalid start byte"]


def test_a_design_file_is_read_as_utf_8_whatever_the_locale(tmp_path: Path) -> None:
    # TOML is UTF-8: under the C locale without Python's UTF-8 mode (an ASCII default
    # encoding) the non-ASCII label still reads.
    import os
    import subprocess
    import sys

    good = tmp_path / "utf8.toml"
    good.write_text('[response]\nmeasure = "m"\n[factors.A]\nlabel = "Fenster × Größe"\nkey = "x"\nlevels = [1, 2]\n',
                    encoding="utf-8")
    code = ("import sys; from arqlab.design import load_design; "
            "sys.stdout.buffer.write(load_design(sys.argv[1]).design.factor('A').label.encode('utf-8'))")
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    out = subprocess.run([sys.executable, "-X", "utf8=0", "-c", code, str(good)], env=env, capture_output=True,
                         check=False)
    assert out.returncode == 0, out.stderr.decode("utf-8", "replace")
    assert out.stdout.decode("utf-8") == "Fenster × Größe"
