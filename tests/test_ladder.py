"""Ladder diagrams: their structure equals the trace's counts, bad windows exit 2 with
the reason, the docs build makes the HDLC figures, and the SVGs render in headless
Chromium without errors."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

import arqlab
from arqlab import cli
from arqlab.capture import flights
from arqlab.ladder import label

from test_report import DevTools, _problems, browser  # noqa: F401  (the Chromium fixture)

ROOT = Path(__file__).resolve().parent.parent
ABM = "scenarios/hdlc_abm_poisson.toml"
ERRORS = {"link.bit_error_rate": 5e-5, "protocol.t1_s": 0.6}
CASES = [
    (ABM, ERRORS, 20.0, 21.5),                                            # REJ, crosses, a T1 expiry
    ("scenarios/selective_repeat.toml", {"link.bit_error_rate": 5e-5}, 38.9, 39.25),  # SREJ
]


def ids(svg: str, prefix: str) -> int:
    return len(set(re.findall(rf'id="{prefix}-(\d+)"', svg)))


@pytest.mark.parametrize("source, overrides, start, end", CASES)
def test_structure_equals_the_trace(source: str, overrides: dict[str, object], start: float, end: float,
                                    tmp_path: Path) -> None:
    out = tmp_path / "l.svg"
    argv = ["ladder", source, "--from", str(start), "--to", str(end), "--out", str(out)]
    argv += [a for k, v in overrides.items() for a in ("--set", f"{k}={v}")]
    assert cli.main(argv) == 0
    svg = out.read_text()
    data = flights(source, start, end, overrides=overrides)
    frames = data["flights"]
    assert 10 <= len(frames) <= 60
    assert ids(svg, "frame") == ids(svg, "label") == len(frames)
    assert ids(svg, "cross") == sum(f["in_error"] for f in frames)
    if source == ABM:
        assert ids(svg, "cross") > 0 and ids(svg, "expiry") > 0 and ids(svg, "timer") > 0
    assert ids(svg, "expiry") == len(data["expiries"])
    fig = arqlab.ladder(source, start, end, overrides=overrides)
    labels = [t.get_text() for t in fig.axes[0].texts if (t.get_gid() or "").startswith("label-")]
    assert labels == [label(f["frame"]) for f in frames]
    assert any(re.fullmatch(r"(REJ|SREJ)\(\d+(,[PF])?\)", s) for s in labels)
    assert fig.axes[0].get_ylim()[0] > fig.axes[0].get_ylim()[1], "time runs downward"


def test_labels_use_the_standards_notation() -> None:
    from arqlab.ladder import label
    assert label({"kind": "I", "ns": 3, "nr": 5, "pf": True, "command": True}) == "I(3,P)"
    assert label({"kind": "RR", "ns": None, "nr": 4, "pf": True, "command": False}) == "RR(4,F)"
    assert label({"kind": "REJ", "ns": None, "nr": 2, "pf": False, "command": False}) == "REJ(2)"
    assert label({"kind": "SREJ", "ns": None, "nr": 3, "pf": False, "command": True}) == "SREJ(3)"
    # X.25 packets: DATA(P(S),P(R)[,M]), RR(P(R)), call set-up by name.
    assert label({"kind": "DATA", "ns": 5, "nr": 2, "pf": True, "command": True}) == "DATA(5,2,M)"
    assert label({"kind": "DATA", "ns": 0, "nr": 0, "pf": False, "command": True}) == "DATA(0,0)"
    assert label({"kind": "RR", "ns": None, "nr": 4, "pf": False, "command": True}) == "RR(4)"
    assert label({"kind": "CALL-ACC", "ns": None, "nr": 0, "pf": False, "command": True}) == "CALL-ACC"


def test_ladder_draws_on_a_given_axes() -> None:
    from matplotlib.figure import Figure
    fig = Figure()
    ax = fig.add_subplot(1, 2, 2)
    assert arqlab.ladder(ABM, 20.0, 20.6, ax=ax, overrides=ERRORS) is fig


@pytest.mark.parametrize("window, message", [
    (("20", "20"), "is empty"),
    (("21", "20"), "is before --from"),
    (("20", "inf"), "expected finite times"),
    (("20", "60"), "narrow the window"),
    (("0", "0.0001"), "no frame is sent"),
])
def test_bad_windows_exit_2_with_the_reason(window: tuple[str, str], message: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "l.svg"
    code = cli.main(["ladder", ABM, "--from", window[0], "--to", window[1], "--out", str(out)])
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not out.exists()


def test_bad_output_name_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ladder", ABM, "--from", "20", "--to", "21", "--out", str(tmp_path / "l.pdf")]) == 2
    assert ".svg or .png" in capsys.readouterr().err


def test_docs_build_makes_the_hdlc_figures(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import figures
    finally:
        sys.path.pop(0)
    paths = figures.build(tmp_path)
    rej, poll = (p.read_text() for p in paths)
    assert re.search(r"REJ\(\d+", rej) and ids(rej, "cross") >= 1
    assert re.search(r"\(\d+,P\)", poll) and re.search(r"\(\d+,F\)", poll)
    doc = (ROOT / "docs" / "models" / "hdlc.md").read_text()
    for p in paths:
        assert f"img/{p.name}" in doc


def test_svgs_render_in_headless_chromium(tmp_path: Path, browser: DevTools) -> None:  # noqa: F811
    pages = []
    for i, (source, overrides, start, end) in enumerate(CASES):
        out = tmp_path / f"ladder-{i}.svg"
        arqlab.ladder(source, start, end, overrides=overrides).savefig(out)
        pages.append(out)
    for page in pages:
        browser.events.clear()
        browser.call("Page.navigate", url=page.as_uri())
        browser.wait_event("Page.loadEventFired")
        state = browser.call("Runtime.evaluate", returnByValue=True,
                             expression="JSON.stringify([document.documentElement.tagName,"
                                        " document.querySelectorAll('[id^=frame-]').length])")
        tag, arrows = __import__("json").loads(state["result"]["value"])
        assert tag.lower() == "svg" and arrows > 0, page.name
        time.sleep(0.2)
        browser.call("Runtime.evaluate", expression="1")
        assert _problems(browser.events) == [], page.name
