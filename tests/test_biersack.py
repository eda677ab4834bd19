"""Biersack (1992) study: the quick pass runs end to end and its results have the
paper's shape; bad input exits 2 naming the field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import arqlab
from arqlab.studies.biersack import base, claims, run_point
from arqlab.studies.biersack.__main__ import main


def test_quick_reproduction_writes_figures_and_claims(tmp_path: Path) -> None:
    assert main(["--quick", "--out", str(tmp_path)]) == 0
    for n in (1, 2, 3, 5):
        rows = (tmp_path / f"fig{n}.csv").read_text().splitlines()
        assert len(rows) == 1 + 4 * 4, rows[:3]
        assert (tmp_path / f"fig{n}.png").stat().st_size > 1000
    text = (tmp_path / "claims.md").read_text()
    assert "max throughput SREJ" in text and "events/s" in text


def test_light_load_is_carried_and_overload_separates_orig() -> None:
    light = run_point("srej", 1.0, duration_s=30.0, replications=2)
    tp, hw = light.values["throughput_mbps"]
    assert abs(tp - 1.0) < 0.06, (tp, hw)
    orig = run_point("orig", 5.0, duration_s=30.0, replications=2)
    srej = run_point("srej", 5.0, duration_s=30.0, replications=2)
    assert orig.values["throughput_mbps"][0] < srej.values["throughput_mbps"][0]
    assert orig.values["out_of_sequence_fraction"][0] > srej.values["out_of_sequence_fraction"][0]
    verdicts = claims([orig, srej, run_point("bg", 5.0, duration_s=30.0, replications=2), run_point("jain", 5.0, duration_s=30.0, replications=2)])
    assert all(v in ("holds", "does not hold", "inconclusive") for _, v, _ in verdicts)


@pytest.mark.parametrize("key,value,field", [
    ("window", 200, "stack.llc2.window = 200"),
    ("n", 0, "stack.llc2.n = 0"),
    ("fifo_buffers", 0, "stack.llc2.fifo_buffers = 0"),
])
def test_bad_llc2_keys_exit_2_naming_the_field(tmp_path: Path, key: str, value: int, field: str) -> None:
    sc = base("multi_fifo")
    sc["stack"]["llc2"][key] = value
    import tomli_w

    path = tmp_path / "bad.toml"
    path.write_bytes(tomli_w.dumps(sc).encode())
    r = subprocess.run([sys.executable, "-m", "arqlab.cli", "check", str(path)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert field in r.stderr and "Traceback" not in r.stderr


def test_a_station_on_a_missing_ring_is_named(tmp_path: Path) -> None:
    sc = base()
    sc["medium"] = [m for m in sc["medium"] if m["name"] != "ring3"]
    with pytest.raises(arqlab.ScenarioError) as e:
        arqlab.simulate(sc, replications=1)
    assert 'node[24] = "r3s01": not attached to any medium' in str(e.value)


def test_figure_4_is_refused_with_exit_2() -> None:
    assert main(["--figure", "4"]) == 2
