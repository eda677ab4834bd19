"""The HTML report: pages, links and images exist; headless Chromium renders them cleanly."""

from __future__ import annotations

import argparse
import base64
import json
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from arqlab.report import build_report, register_cli, verdict_class
from arqlab.store import Store
from arqlab.sweep import sweep
from arqlab.testing import fake_run_replication

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
GBN = Path(__file__).resolve().parent.parent / "scenarios" / "go_back_n.toml"
SHORT: dict[str, Any] = {"run.duration_s": 30.0, "run.warmup_s": 5.0, "run.replications": 3}


@pytest.fixture
def populated_store(tmp_path: Path) -> Path:
    path = tmp_path / "store.sqlite"
    with Store(path) as store:
        sweep(GBN, {"traffic.a.length.mean_bits": [500, 1000, 2000], "link.bit_error_rate": [1e-5, 1e-4]},
              overrides=SHORT, executor="serial", store=store, runner=fake_run_replication, study="bux1985", figure="4",
              name="Figure 4: efficiency vs message length")
        sweep(GBN, {"link.delay_s": [0.01, 0.1, 0.5]}, overrides=SHORT, executor="serial", store=store)
        store.record_sweep("Table 2", pd.DataFrame({"window": [1, 7], "published": [0.5, 0.88],
                                                    "simulated": [0.49, 0.885]}),
                           study="bux1985", figure="T2", title="Table 2 <published vs simulated>")
        store.record_study("bux1985", title="Bux, Kümmerle & Truong 1980",
                           citation="IEEE Trans. Commun. 28(1)", description="Balanced HDLC procedures.")
        store.record_claims("bux1985", [
            {"claim": "Efficiency peaks at a medium message length", "verdict": "agrees",
             "evidence": "peak at 1000 bits, CI ±0.03"},
            {"claim": "SR beats GBN by 20% at p=1e-4", "verdict": "disagrees", "evidence": "12% ± 2%"},
        ], figure="4")
        store.record_claims("bux1985", [{"claim": "general remark", "verdict": "not checked"}])
    return path


def _local_refs(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    refs = re.findall(r'(?:href|src)="([^"]+)"', text)
    return [r for r in refs if not r.startswith(("data:", "#"))]


def test_report_files_and_links(populated_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    index = build_report(populated_store, out)
    assert index == out / "index.html"
    pages = sorted(out.glob("*.html"))
    assert len(pages) == 5  # index, one study, three sweeps
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text
        for ref in _local_refs(page):
            assert (out / ref).is_file(), f"{page.name} links to missing {ref}"
    index_text = index.read_text(encoding="utf-8")
    assert "Bux, Kümmerle &amp; Truong 1980" in index_text
    fig = next(p for p in pages if "figure-4" in p.name).read_text(encoding="utf-8")
    assert "Efficiency peaks at a medium message length" in fig and "v-bad" in fig
    assert "± 95% CI" in fig and "[traffic.a.length]" in fig and "window = 7" in fig
    table2 = next(p for p in pages if "table-2" in p.name).read_text(encoding="utf-8")
    assert "Table 2 &lt;published vs simulated&gt;" in table2 and "0.885" in table2
    assert len(list(out.glob("*.png"))) == 2


def test_report_shows_claims_origin_and_measured_deviation(tmp_path: Path) -> None:
    """Issue 14: each claim keeps its measured numbers beside the verdict and its origin
    label (the paper's claims counted apart from arqlab's extrapolations/inferences)."""
    from types import SimpleNamespace

    from arqlab.studies.data import ClaimResult, StudyData
    from arqlab.studies.publish import publish
    from arqlab.studies.reproduce import Reproduction
    from arqlab.studies.verdicts import Verdict

    results = [
        ClaimResult("c.paper", None, "§3", "ABM beats NRM", Verdict.HOLDS, "at 9600: 0.812±0.004 vs 0.738"),
        ClaimResult("c.extra", None, "§3", "carried to Fig. 9", Verdict.DOES_NOT_HOLD, "tau = 1.25±0.02",
                    origin="extrapolation"),
        ClaimResult("c.infer", None, "§A", "follows M/G/1", Verdict.HOLDS, "no deviation", origin="inference"),
    ]
    rep = Reproduction(out_dir=tmp_path, data=StudyData({}), claims=results, files=[], skipped_claims=[])
    study = SimpleNamespace(NAME="toy", TITLE="Toy study")
    path = tmp_path / "store.sqlite"
    publish(rep, study, path, quick=True)
    out = tmp_path / "report"
    build_report(path, out)
    page = (out / "study-toy.html").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"<tr>.*?(c\.\w+).*?</tr>", page)}
    assert "(A−B)/B +10.0% (1 pt)" in rows["c.paper"] and '<td class="origin">paper</td>' in rows["c.paper"]
    assert "<td class=\"measured\">1.25</td>" in rows["c.extra"] and "arqlab extrapolation" in rows["c.extra"]
    assert "arqlab inference" in rows["c.infer"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "arqlab extrapolation:</span>" in index and "arqlab inference:</span>" in index


def test_report_reads_a_store_without_origin_and_measured(tmp_path: Path) -> None:
    """A store written before the claims' origin/measured columns opens read-only and reports."""
    import sqlite3

    path = tmp_path / "old.sqlite"
    with Store(path) as store:
        store.record_claims("old", [{"claim": "c", "verdict": "agrees", "evidence": "e"}], figure="1")
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE claims DROP COLUMN origin")
    conn.execute("ALTER TABLE claims DROP COLUMN measured")
    conn.commit()
    conn.close()
    build_report(path, tmp_path / "r")
    assert "agrees" in (tmp_path / "r" / "study-old.html").read_text(encoding="utf-8")
    with Store(path) as store:  # a writable open adds the columns
        store.record_claims("old", [{"claim": "c", "verdict": "agrees", "measured": "+1%"}], figure="1")
        assert store.claims("old")[0].measured == "+1%"


def test_report_cli(populated_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="arqlab")
    register_cli(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["report", "--store", str(populated_store), "--out", str(tmp_path / "r")])
    assert args.handler(args) == 0
    assert "index.html" in capsys.readouterr().out
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"junk" * 10)
    args = parser.parse_args(["report", "--store", str(bad), "--out", str(tmp_path / "r2")])
    assert args.handler(args) == 2
    assert capsys.readouterr().err.startswith("arqlab report: error: result store ")


def test_verdict_classes() -> None:
    assert [verdict_class(v) for v in ("agrees", "Disagrees", "partly", "?")] == ["v-good", "v-bad", "v-mixed",
                                                                                     "v-other"]


# ------------------------------------------------------------------ headless Chromium
def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class DevTools:
    """A minimal Chrome DevTools Protocol session over one page target."""

    def __init__(self, ws_url: str) -> None:
        import websocket

        self.ws = websocket.create_connection(ws_url, timeout=30, suppress_origin=True)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        my_id = self.next_id
        self.ws.send(json.dumps({"id": my_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result
            self.events.append(msg)

    def wait_event(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        for ev in self.events:
            if ev.get("method") == method:
                self.events.remove(ev)
                return ev
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if msg.get("method") == method:
                return msg
            self.events.append(msg)
        raise TimeoutError(method)

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[DevTools]:
    binary = _chromium()
    if binary is None:
        pytest.skip("chromium is not installed (apt-get install chromium)")
    pytest.importorskip("websocket", reason="websocket-client is a dev requirement")
    profile = Path(tempfile.mkdtemp(prefix="arqlab-chromium-"))
    log = tmp_path / "chromium.log"
    with log.open("wb") as log_fh:
        proc = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions",
             "--disable-background-networking", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
             "--remote-allow-origins=*", f"--user-data-dir={profile}", "--window-size=1280,1600", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=log_fh,
        )
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and len(port_file.read_text().splitlines()) >= 2):
            assert proc.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "chromium did not open its DevTools port"
            time.sleep(0.1)
        port = int(port_file.read_text().splitlines()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as resp:
            targets = json.loads(resp.read())
        page = next(t for t in targets if t.get("type") == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        tools.call("Page.enable")
        tools.call("Runtime.enable")
        tools.call("Log.enable")
        try:
            yield tools
        finally:
            tools.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        shutil.rmtree(profile, ignore_errors=True)


def _problems(events: list[dict[str, Any]]) -> list[str]:
    out = []
    for ev in events:
        method, params = ev.get("method"), ev.get("params", {})
        if method == "Runtime.exceptionThrown":
            out.append(f"exception: {params.get('exceptionDetails', {}).get('text')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            out.append(f"console.{params.get('type')}: {params.get('args')}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
            entry = params["entry"]
            out.append(f"log {entry.get('level')}: {entry.get('text')} {entry.get('url', '')}")
    return out


def test_report_renders_in_headless_chromium(populated_store: Path, tmp_path: Path, browser: DevTools) -> None:
    out = tmp_path / "report"
    build_report(populated_store, out)
    ARTIFACTS.mkdir(exist_ok=True)
    pages = [out / "index.html", out / "study-bux1985.html",
             next(p for p in out.glob("sweep-*.html") if "figure-4" in p.name)]
    for page in pages:
        browser.events.clear()
        browser.call("Page.navigate", url=page.as_uri())
        browser.wait_event("Page.loadEventFired")
        state = browser.call(
            "Runtime.evaluate",
            expression="JSON.stringify({title: document.title, h1: (document.querySelector('h1')||{}).textContent,"
                       " images: Array.from(document.images).map(i => [i.getAttribute('src'), i.complete,"
                       " i.naturalWidth])})",
            returnByValue=True,
        )
        info = json.loads(state["result"]["value"])
        assert info["h1"], f"{page.name}: no heading rendered"
        for src, complete, width in info["images"]:
            assert complete and width > 0, f"{page.name}: image {src} did not load"
        if page.name != "index.html" or (out / "index.html").read_text().count("<img") > 0:
            assert info["images"], f"{page.name}: expected images"
        shot = browser.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        (ARTIFACTS / f"report-{page.stem}.png").write_bytes(base64.b64decode(shot["data"]))
        time.sleep(0.2)
        browser.call("Runtime.evaluate", expression="1")
        assert _problems(browser.events) == [], page.name


def test_a_study_figure_page_collapses_its_scenarios_and_identifies_its_rows(tmp_path: Path) -> None:
    """Issue 29 item 13: the scenarios behind a collapsed block after the results, rows
    identified by curve and x, no "points 0" or "grid —" for a figure without a grid."""
    frame = pd.DataFrame({"figure": ["2"] * 2, "curve": ["abm", "nrm"], "label": ["ABM", "NRM"],
                          "variant": ["", ""], "x": [1000.0, 1000.0], "direction": ["a_to_b"] * 2,
                          "measure": ["throughput_efficiency"] * 2, "mean": [0.81, 0.74],
                          "ci95_half_width": [0.004, 0.003], "n": [10, 10],
                          # A study figure's statistics beside the identity (studies.plan.POINT_COLUMNS).
                          "norm": [1.0, 1.0], "y": [0.81, 0.74], "y_ci95_half_width": [0.004, 0.003],
                          "rel_half_width": [0.005, 0.004], "run": ["r1", "r2"], "capacity": [0.9, 0.8],
                          "capacity_ci95_half_width": [0.01, 0.01], "steady_state": ["yes", "yes"]})
    path = tmp_path / "store.sqlite"
    scenarios = "# --- abm.toml\n" + "x = 1\n" * 5000
    with Store(path) as store:
        store.record_sweep("fig2", frame, study="toy", figure="2", title="Figure 2", notes=scenarios)
        store.record_study("toy", title="Toy study")
    out = tmp_path / "report"
    build_report(path, out)
    page = next(out.glob("*fig2*.html")).read_text(encoding="utf-8")
    results = page.index("<h2>Results</h2>")
    assert page.index("<details><summary>Each curve's scenario") > results, "scenarios after the results, collapsed"
    assert "<th>points</th>" not in page and "<th>grid</th>" not in page and "<th>rows</th><td>2</td>" in page
    header = re.search(r"<h2>Results</h2>\s*<table[^>]*>\s*<thead>\s*<tr>(.*?)</tr>", page, re.S)
    assert header is not None
    cells = re.findall(r"<th[^>]*>(.*?)</th>", header.group(1))
    assert cells == ["curve", "label", "x", "direction", "measure", "mean", "± 95% CI", "n"], cells


def test_a_normalised_figure_shows_the_plotted_value_beside_the_mean(tmp_path: Path) -> None:
    """Issue 29 item 13: a figure that plots mean / norm shows that value; the table's
    statistics never pass for a row's identity."""
    frame = pd.DataFrame({"figure": ["5"], "curve": ["sr"], "label": ["SR"], "variant": [""], "x": [0.5],
                          "direction": ["a_to_b"], "measure": ["throughput_bps"], "mean": [4800.0],
                          "ci95_half_width": [48.0], "n": [5], "norm": [9600.0], "y": [0.5],
                          "y_ci95_half_width": [0.005], "rel_half_width": [0.01]})
    path = tmp_path / "store.sqlite"
    with Store(path) as store:
        store.record_sweep("fig5", frame, study="toy", figure="5", title="Figure 5")
    out = tmp_path / "report"
    build_report(path, out)
    page = next(out.glob("*fig5*.html")).read_text(encoding="utf-8")
    header = re.search(r"<h2>Results</h2>\s*<table[^>]*>\s*<thead>\s*<tr>(.*?)</tr>", page, re.S)
    assert header is not None
    cells = re.findall(r"<th[^>]*>(.*?)</th>", header.group(1))
    assert cells == ["curve", "label", "x", "direction", "measure", "mean", "± 95% CI", "n", "plotted y",
                     "± 95% CI (y)"], cells
