"""The main job (`make demo`) runs end to end and its points agree with the closed forms."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from arqlab import demo


def test_demo_writes_csv_png_and_agrees_with_theory(tmp_path: Path) -> None:
    assert demo.main(["--out", str(tmp_path), "--quick"]) == 0
    assert (tmp_path / "demo.png").stat().st_size > 10_000
    df = pd.read_csv(tmp_path / "demo.csv")
    assert set(df["protocol.kind"]) == set(demo.KINDS)
    assert sorted(set(df["traffic.a.length.mean_bits"])) == demo.LENGTHS
    # Under the textbook assumptions the demo is built on, every point lies within its
    # own 95% CI plus 1% of the closed form (a quick run: wider CIs, same rule).
    off = df[(df["mean"] - df["closed_form"]).abs() > df["ci95_half_width"] + 0.01 * df["closed_form"]]
    assert off.empty, off[["protocol.kind", "traffic.a.length.mean_bits", "mean", "ci95_half_width", "closed_form"]]
