"""The words of every claim, pinned (issue 31). A claim's ``statement`` and ``section``
decide no verdict, but they are what the study publishes: the statement column of
claims.md and claims.json, the report and the robustness screen print them beside the
verdict. The rules behind them have boundary tests (test_*_claim*.py) and the declared
numbers are parsed back out of the statements (test_claim_statements.py); this file
guards the text itself, with the claim's origin, figure, needs and sensitivity variants,
against an edit nobody meant: each study's register in ``tests/claim_register/`` is the
reviewed declaration, compared field by field, claim by claim.

A statement changed on purpose: re-pin with ``ARQLAB_BLESS=1 pytest
tests/test_claim_register.py`` and say in the commit message which claims changed."""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any

import pytest

REGISTER = Path(__file__).resolve().parent / "claim_register"
STUDIES = ("bux1982", "colella", "johnson", "biersack", "comer_korb")


def declared(name: str) -> list[dict[str, Any]]:
    """Every claim of the study as claims.md and claims.json show it, in declaration
    order (each figure's claims, then the study's own)."""
    module = importlib.import_module(f"arqlab.studies.{name}")
    claims = [c for f in module.figures() for c in f.claims] + list(module.study_claims())
    seen: dict[str, dict[str, Any]] = {}
    for c in claims:
        entry = {"id": c.id, "origin": c.origin, "section": c.section, "statement": c.statement,
                 "figure": c.figure, "needs": list(c.needs), "sensitivity": list(c.sensitivity)}
        assert seen.setdefault(c.id, entry) == entry, f"{name}: {c.id} declared twice, differently"
    return list(seen.values())


@pytest.mark.parametrize("name", STUDIES)
def test_every_claim_s_published_words_are_the_registered_ones(name: str) -> None:
    path = REGISTER / f"{name}.json"
    now = declared(name)
    if os.environ.get("ARQLAB_BLESS") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(now, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    pinned = json.loads(path.read_text(encoding="utf-8"))
    assert [c["id"] for c in now] == [c["id"] for c in pinned], f"{name}: claims added, removed or reordered"
    for got, want in zip(now, pinned):
        for field in want:
            assert got[field] == want[field], f"{name}: {got['id']}.{field} is {got[field]!r}, registered {want[field]!r}"
