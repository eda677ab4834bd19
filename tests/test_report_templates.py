"""The report from Jinja2 templates (issue 16): autoescaping everywhere, verdicts told
apart by colour and text, figures in numeric order."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from arqlab.report import build_report, figure_order, verdict_class, verdict_mark
from arqlab.store import Store
from arqlab.sweep import sweep
from arqlab.testing import fake_run_replication

PAYLOAD = '<script>alert("x")</script><img src=x onerror=alert(1)>'
GBN = "scenarios/go_back_n.toml"


def test_every_user_text_is_escaped(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        sweep(GBN, {"link.delay_s": [0.01, 0.1]}, replications=2, executor="serial", store=store,
              runner=fake_run_replication, name=f"sweep {PAYLOAD}", study=f"st{PAYLOAD}", figure=f"2{PAYLOAD}",
              overrides={"title": PAYLOAD})
        store.record_sweep(f"table {PAYLOAD}", pd.DataFrame({PAYLOAD: [PAYLOAD]}), study=f"st{PAYLOAD}",
                           figure="T1", title=PAYLOAD, notes=PAYLOAD, source=PAYLOAD)
        store.record_study(f"st{PAYLOAD}", title=PAYLOAD, citation=PAYLOAD, description=PAYLOAD)
        store.record_claims(f"st{PAYLOAD}", [{"claim": PAYLOAD, "verdict": PAYLOAD, "evidence": PAYLOAD}],
                            figure=f"2{PAYLOAD}")
    out = tmp_path / "report"
    build_report(path, out)
    pages = list(out.glob("*.html"))
    assert len(pages) == 4
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "<img src=x" not in text, page.name
        assert "&lt;script&gt;" in text, page.name


def test_verdicts_differ_in_colour_and_text() -> None:
    cases = {"holds": ("v-good", "✓"), "does not hold": ("v-bad", "✗"), "inconclusive": ("v-mixed", "~"),
             "not checked": ("v-other", "?"), "does not hold: 3": ("v-bad", "✗")}
    for verdict, (cls, mark) in cases.items():
        assert (verdict_class(verdict), verdict_mark(verdict)) == (cls, mark), verdict


def test_study_page_lists_figures_in_numeric_order(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        for fig in ["10", "11", "2", "3"]:
            store.record_sweep(f"fig {fig}", pd.DataFrame({"x": [1]}), study="bux", figure=fig, title=f"Figure {fig}")
    build_report(path, tmp_path / "r")
    text = (tmp_path / "r" / "study-bux.html").read_text(encoding="utf-8")
    positions = [text.index(f"Figure {n}<") for n in ("2", "3", "10", "11")]
    assert positions == sorted(positions)
    assert sorted(["10", "2", "T1", "3a"], key=figure_order) == ["2", "3a", "10", "T1"]
