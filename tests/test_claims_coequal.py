"""A co-equal reading (a variant the paper's text does not settle) is reported beside the
study's reading: its own verdict and measured columns in claims.md, its own counts, its
curves drawn as lines — not a cell of the sensitivity column (issue 28, the Bux poll)."""

from __future__ import annotations

import json
from pathlib import Path

from arqlab.studies import bux1982 as bux
from arqlab.studies.data import ClaimResult
from arqlab.studies.output import write_claims
from arqlab.studies.verdicts import Verdict


def _result(cid: str, verdict: Verdict, readings: dict[str, str]) -> ClaimResult:
    r = ClaimResult(cid, 2, "3.1", f"statement {cid}", verdict, "A 1.0±0.1 vs B 1.0", value=f"value {cid}")
    r.sensitivity = [{"variant": name, "verdict": v, "detail": "", "measured": f"{name} {v}"} for name, v in readings.items()]
    return r


def test_a_coequal_reading_gets_its_own_columns_and_counts(tmp_path: Path) -> None:
    results = [_result("c1", Verdict.HOLDS, {"asap": "does not hold", "t1x2": "holds"}),
               _result("c2", Verdict.DOES_NOT_HOLD, {"t1x2": "holds"})]
    _, md = write_claims(results, tmp_path, title="T", quick=True, coequal=("asap",))
    lines = md.read_text().splitlines()
    head = next(line for line in lines if line.startswith("| id |"))
    assert "| verdict | measured | under `asap` | measured under `asap` | sensitivity |" in head
    row1 = next(line for line in lines if line.startswith("| `c1`"))
    cells = [c.strip() for c in row1.strip("|").split("|")]
    assert cells[4:8] == ["**holds**", "value c1", "**does not hold**", "asap does not hold"]
    assert "asap" not in cells[8] and "t1x2: holds" in cells[8]  # out of the sensitivity column
    row2 = next(line for line in lines if line.startswith("| `c2`"))
    assert [c.strip() for c in row2.strip("|").split("|")][6:8] == ["—", "—"]  # not evaluated under it
    assert "Under the co-equal reading `asap` (paper's claims it applies to): 0 holds, 1 does not hold" in md.read_text()
    payload = json.loads((tmp_path / "claims.json").read_text())
    assert payload["coequal_readings"] == ["asap"]
    assert payload["coequal_counts"]["asap"] == {"holds": 0, "does not hold": 1, "inconclusive": 0}


def test_without_coequal_readings_the_table_is_as_before(tmp_path: Path) -> None:
    _, md = write_claims([_result("c1", Verdict.HOLDS, {"asap": "holds"})], tmp_path, title="T", quick=True)
    text = md.read_text()
    assert "| id | origin | section | statement | verdict | measured | sensitivity |" in text
    assert "asap: holds" in text and "co-equal" not in text


def test_bux_poll_reading_is_coequal_on_every_figure_that_runs_it() -> None:
    figs = bux.figures()
    with_poll = [f.number for f in figs if any(s.name == "poll_asap" for s in f.sensitivities)]
    assert with_poll == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    for f in figs:
        for s in f.sensitivities:
            assert s.coequal == (s.name == "poll_asap"), (f.number, s.name)
