"""Johnson: the study's scenarios carry the paper's workloads and channels, the effects
tables computed by :mod:`arqlab.studies.johnson.tables` give the published percentages
when fed the published latencies, every claim of the paper is checked, and a quick
reproduction (all figures and tables) runs through the command line."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import arqlab.scenario

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from arqlab.studies import framework as fw  # noqa: E402
from arqlab.studies import johnson as jo  # noqa: E402
from arqlab.studies import robustness  # noqa: E402
from arqlab.studies.artefacts.curves import FigureData  # noqa: E402
from arqlab.studies.data import StudyData  # noqa: E402
from arqlab.studies.johnson import params, scenarios, tables  # noqa: E402
from arqlab.studies.johnson import published as P  # noqa: E402


def _point(n: int, curve: str, x: float) -> dict[str, Any]:
    f = jo.figure(n)
    c = f.curve(curve)
    return fw.apply_overrides(f.base, fw.point_overrides(f, c, x, True, c.params, {}))


def test_points_carry_the_workload_protocol_and_channel() -> None:
    smtp = _point(1, "hdl", 2.0)
    tcp, arq = smtp["stack"]["s"]["layers"]
    assert (tcp["kind"], tcp["connection_setup"]) == ("tcp", True)
    assert (arq["kind"], arq["variant"], arq["initial_snr_db"]) == ("hf_arq", "hdl", 5.0)
    lane = smtp["medium"][0]["forward"]
    assert (lane["channel"], lane["modem"]) == ("stable_5", params.INTEGRATED_MODEM)
    assert smtp["flow"][0]["traffic"] == {"kind": "dialogue", "script": "smtp", "sessions": params.SESSIONS, "start_until_s": 3600.0}
    # The paper's "at least an hour": sessions start during the hour and run to their
    # end (the run ends then); the duration is only a cap.
    assert smtp["flow"][0]["traffic"]["start_until_s"] == 3600.0 == params.HOUR_S
    assert smtp["run"]["duration_s"] == params.SESSION_CAP_S > 3600.0
    hmtp = _point(2, "5066", 3.0)
    (arq,) = hmtp["stack"]["s"]["layers"]
    assert (arq["variant"], hmtp["medium"][0]["reverse"]["channel"]) == ("5066", "transition")
    assert hmtp["medium"][0]["forward"]["modem"] == arq["modem"] == "mil-std-188-110b-johnson", "75–9600 bit/s, the 5 dB statement"
    # The transition channel's σ as its text reads (the stable channels' "amplitude").
    assert hmtp["medium"][0]["forward"]["variation_db"] == params.TRANSITION_SIGMA_DB == 30.0
    assert lane["variation_db"] == params.STABLE_SIGMA_DB == 4.0
    assert _point(3, "all-three", 1.0)["flow"][0]["traffic"]["kind"] == "saturated"


def test_sensitivities_change_only_their_input() -> None:
    """The modem and σ sensitivities swap one key of the study's scenario; every
    uncertain input names a study parameter that the scenarios read."""
    base = scenarios.tables("5066", "smtp", 3.0, 3)
    std = scenarios.tables("5066", "smtp", 3.0, 3, external_modem=params.STANDARD_MODEM)
    assert std["stack"]["s"]["layers"][1]["modem"] == std["medium"][0]["forward"]["modem"] == params.STANDARD_MODEM
    sigma = scenarios.tables("5066", "smtp", 3.0, 3, transition_sigma_db=15.0)
    assert sigma["medium"][0]["reverse"]["variation_db"] == 15.0
    # The two directions' fading: absent (independent, the scenarios of the first
    # readings unchanged) unless the reciprocal reading is asked for.
    assert "reciprocal" not in base["medium"][0]
    rec = scenarios.tables("5066", "smtp", 3.0, 3, reciprocal=True)
    assert rec["medium"][0] == {**base["medium"][0], "reciprocal": True}
    with robustness.study_params("arqlab.studies.johnson", {"RECIPROCAL_CHANNEL": True}):
        assert scenarios.tables("hdl", "hmtp", 1.0, 3)["medium"][0]["reciprocal"] is True
    # The robust acknowledgement: only the external stop-and-wait protocols' ARQ.
    ack = scenarios.tables("5066-1s", "smtp", 3.0, 3, ack_rate="lowest")
    assert ack["stack"]["s"]["layers"][1]["ack_rate"] == "lowest"
    assert "ack_rate" not in scenarios.tables("5066-1s", "smtp", 3.0, 3)["stack"]["s"]["layers"][1]
    for variant in ("5066", "hdl", "hdl-1d"):
        assert "ack_rate" not in scenarios.tables(variant, "hmtp", 1.0, 3, ack_rate="lowest")["stack"]["s"]["layers"][0]
    for other in (std, sigma, rec, ack):
        assert other["node"] == base["node"] and other["flow"] == base["flow"] and other["run"] == base["run"]
        arqlab.scenario.load(other)  # the model accepts every variant
    for u in params.UNCERTAIN_INPUTS:
        assert u.target.startswith("param:") and hasattr(params, u.target[6:]), u.name
        assert getattr(params, u.target[6:]) == u.value, u.name


def test_precise_timing_inputs_reach_only_their_modem() -> None:
    """The precise-timing inputs (docs/studies/johnson.md, "Precise frame timing" and
    "Seventh reading"): the external modem's extra sync acquisition lengthens only the
    external turnaround (and its response timeout with it), the integrated ARQ's wait
    applies only to the integrated modem. At the study's values: external 0.5 + 0.6 s
    turnaround and the crate's 5 s timeout; integrated 0.5 s and 0.5 + 0.02 + 1.31 s."""
    def radio(variant: str) -> tuple[float, float]:
        t = scenarios.tables(variant, "hmtp", 2.0, 3)
        return t["medium"][0]["turnaround_s"], t["stack"]["s"]["layers"][0]["response_timeout_s"]

    assert radio("5066") == (0.5 + 0.6, 5.0) and radio("hdl") == (0.5, 1.83)
    with robustness.study_params("arqlab.studies.johnson", {"SYNC_ACQUISITION_S": 0.7, "INTEGRATED_RESPONSE_WAIT_S": 4.48}):
        assert radio("5066") == (0.5 + 0.6 + 0.7, 5.7)
        assert radio("5066-1s")[0] == 0.5 + 0.6 + 0.7
        assert radio("hdl") == (0.5, 5.0) and radio("hdl-1d") == (0.5, 5.0)


def test_the_half_fraction_is_the_papers_four_protocols_and_the_full_design_all_eight() -> None:
    half = tables.table_design("table4")
    got = {params.VARIANT[(r["A"] > 0, r["B"] > 0, r["C"] > 0)] for r in half.runs()}
    assert got == set(params.PAPER_CURVES.values())
    for name, v in params.PAPER_CURVES.items():
        f = P.FEATURES[name]
        assert params.VARIANT[(f.selective_repeat, f.integrated_modem, f.duplex_client_data)] == v
    full = tables.table_design("table9")
    assert {params.VARIANT[(r["A"] > 0, r["B"] > 0, r["C"] > 0)] for r in full.runs()} == set(params.VARIANT.values())


def _published_data() -> StudyData:
    """Study data whose cells are the paper's Tables 1 and 2 (throughput and latency)."""
    figs = {}
    for n, table in ((1, P.TABLE_1), (2, P.TABLE_2)):
        rows = []
        for p, v in params.PAPER_CURVES.items():
            for x, (channel, _, _) in params.CHANNEL_X.items():
                for curve, y in ((v, table.throughput_bps(p, channel)), (f"{v}.latency", table.values[(p, channel)])):
                    rows.append({"curve": curve, "variant": "", "x": x, "y": y, "y_ci95_half_width": 0.0, "n": 1})
        figs[n] = FigureData(jo.figure(n), pd.DataFrame(rows))
    return StudyData(figs)


@pytest.mark.parametrize("table", P.EFFECTS_TABLES, ids=lambda t: t.id)
def test_effects_tables_give_the_published_percentages_from_the_published_latencies(table: P.EffectsTable) -> None:
    for row in tables.compare(_published_data(), table):
        if row.published_percent is None:
            continue
        assert abs(row.percent - row.published_percent) <= 1.0, f"{table.id} {row.label}: {row.percent:.2f} %"
        if row.published_percent > 0:
            assert row.sign == row.published_sign, f"{table.id} {row.label}"


def test_effects_on_replications_keep_the_effects_of_the_means_and_add_their_cis() -> None:
    data = _published_data()
    # Two replications per cell, ±1 % around the published value: the same means.
    reps = {(n, v, x): [data[n].est(v, x).mean * 0.99, data[n].est(v, x).mean * 1.01]
            for n in (1, 2) for v in params.PAPER_CURVES.values() for x in params.CHANNEL_X}
    for t in ("table3", "table6", "table8"):
        means, both = tables.effects(data, t), tables.effects(data, t, reps)
        assert list(both[both["effect"] != "error"]["q"]) == pytest.approx(list(means["q"])), t
        assert "error" in set(both["effect"]) and "error" not in set(means["effect"])
        real = both[~both["effect"].isin(["I", "error"])]
        assert ((real["ci_low"] <= real["q"]) & (real["q"] <= real["ci_high"])).all()
        assert (real["ci_high"] > real["ci_low"]).all()


def test_tables_md_prints_the_papers_share_on_the_means_the_same_as_the_claims() -> None:
    """§5: "the fraction of overall performance variation that its effect represents",
    one observation per cell. tables.md's "ours" is that share (as ``percent``, which the
    claims use) even with replications; the share on the replications with the error in
    the total is its own column."""
    data = _published_data()
    keys = [(n, v, x) for n in (1, 2) for v in params.PAPER_CURVES.values() for x in params.CHANNEL_X]
    # Uneven noise: the error's share is not zero and the first-n means differ from the means.
    reps = {k: [data[k[0]].est(k[1], k[2]).mean * f for f in (0.9, 1.1, 0.95 + 0.01 * i)] for i, k in enumerate(keys)}
    text, frame = tables.render(data, list(range(3, 9)), reps)
    checked = 0
    for table in P.EFFECTS_TABLES:
        n = int(table.id.removeprefix("table"))
        for e in table.effects:
            row = frame[(frame["table"] == n) & (frame["column"] == tables.effect_word(e.factor))].iloc[0]
            share, sign = tables.percent(data, table.id, e.factor)
            assert row["ours"] == pytest.approx(share) and row["ours_sign"] == sign, f"{table.id} {e.factor}"
            w = tables.effect_word(e.factor)
            pub = f"{tables._pct(e.percent)} {tables._sign(e.sign)}"
            assert f"| {e.factor} ({w}) | {pub} | {tables._pct(share)} {tables._sign(sign)} |" in text, f"{table.id} {e.factor}"
            checked += 1
    assert checked == sum(len(t.effects) for t in P.EFFECTS_TABLES)
    assert (frame[frame["column"] == "error"]["ours_with_error"] > 0).all()


def test_effects_with_unequal_replication_counts_use_every_cells_first_replications() -> None:
    """The full pass stops each cell at its own count (±2.5 %): the effects are computed on
    the first n replications of every cell, n the fewest — the balanced, paired design a
    fixed-n pass would run (replication i of every cell shares its random streams)."""
    data = _published_data()
    keys = [(n, v, x) for n in (1, 2) for v in params.PAPER_CURVES.values() for x in params.CHANNEL_X]
    base = {k: [data[k[0]].est(k[1], k[2]).mean * f for f in (0.99, 1.01, 0.98, 1.02)] for k in keys}
    # Cells ran 4 to 7 replications, the extra ones with values that would move the
    # effects if used (every table has a cell with 4).
    longer = {k: v + [5e3] * (i % 4) for i, (k, v) in enumerate(base.items())}
    for t in ("table3", "table4", "table6", "table7", "table8"):
        assert tables.common_replications(data, t, longer) == 4, t
        a, b = tables.effects(data, t, base), tables.effects(data, t, longer)
        assert list(b["q"]) == pytest.approx(list(a["q"]), nan_ok=True), t
        assert list(b["variation_pct"]) == pytest.approx(list(a["variation_pct"]), nan_ok=True), t


def test_the_full_pass_stops_each_cell_at_2_5_percent_on_its_response() -> None:
    """Full pass: sequential precision ±2.5 % at 95 % on the figure's response (and the
    sessions' latency, Tables 1-2), n0 = 10, a cap; the quick pass keeps 3 fixed
    replications."""
    full, quick = jo.settings_for(False), jo.settings_for(True)
    assert (full.precision, full.replications) == (params.FULL_PRECISION, None) == (0.025, None)
    assert (quick.precision, quick.replications) == (None, params.QUICK_REPLICATIONS)
    session = ("message_throughput_bps", "session_latency_s")
    for n, measures in ((1, session), (2, session), (3, ("throughput_bps",))):
        run = _point(n, "hdl", 2.0)["run"]
        assert run["precision_measures"] == [f"{scenarios.CLIENT}.{m}" for m in measures], n
        assert (run["min_replications"], run["max_replications"]) == (params.MIN_REPLICATIONS, params.MAX_REPLICATIONS)
        arqlab.scenario.load(_point(n, "5066", 3.0))


def test_the_full_pass_holds_the_sensitivities_to_their_own_target_and_shares_base_runs() -> None:
    """Precision per claim (docs/studies/johnson.md, "Seventh reading", item 3): in the
    full pass every study cell runs to ±2.5 %, every sensitivity row to
    params.SENSITIVITY_PRECISION (±10 %: it only asks whether a verdict changes), except
    a sensitivity point whose scenario is a study cell's (σ = 15 dB off the transition
    channel), which reads the study cell's run; the quick pass is unchanged."""
    from arqlab.studies.plan import plan_figure

    assert params.SENSITIVITY_PRECISION == 0.10 > params.FULL_PRECISION
    for fig in jo.figures():
        points, runs, _ = plan_figure(fig, jo.settings_for(False))
        base = {p.run for p in points if not p.variant}
        assert {runs[r].precision for r in base} == {params.FULL_PRECISION}, fig.number
        held = {p.run for p in points if p.variant} - base
        assert held and {runs[r].precision for r in held} == {params.SENSITIVITY_PRECISION}, fig.number
        if fig.number == 1:
            shared = {p.run for p in points if p.variant == "sigma_15" and p.x != 3.0}
            assert shared and shared <= base
        quick_points, quick_runs, _ = plan_figure(fig, jo.settings_for(True))
        assert {r.precision for r in quick_runs.values()} == {None}


def test_single_run_range_and_table_1s_capped_cells() -> None:
    """Each cell's single-run 95 % range beside the paper's one run (tables.single_run_range):
    the normal prediction interval below 40 replications (mean 12, s = 2, n = 3: 12 ±
    4.303 · 2 · √(4/3)), the 2.5th-97.5th percentiles from 40; Table 1's 5066-1s 2000 s
    are a cap (published.CAPPED_CELLS), so a range that reaches 2000 is consistent with
    them, one wholly below is not."""
    lo, hi = tables.single_run_range([10.0, 12.0, 14.0])
    assert (lo, hi) == pytest.approx((12 - 4.302653 * 2 * math.sqrt(4 / 3), 12 + 4.302653 * 2 * math.sqrt(4 / 3)))
    assert tables.single_run_range([float(v) for v in range(1, 41)]) == pytest.approx((1.975, 39.025))
    assert tables.single_run_range([1.0, 2.0, 30.0])[0] == 0.0
    assert P.CAPPED_CELLS == {("table1", "5066-1s", "5 dB SNR"), ("table1", "5066-1s", "Transition")}

    def reps(capped: list[float]) -> dict[tuple[int, str, float], list[float]]:
        out = {}
        for p in P.PROTOCOLS:
            for c in P.CHANNELS:
                pub = P.TABLE_1.values[(p, c)]
                out[(1, f"{params.PAPER_CURVES[p]}.latency", tables.X_OF[c])] = capped if p == "5066-1s" and c != "25 dB SNR" else [pub - 1, pub, pub + 1]
        return out

    assert "in 12 of 12 cells" in "\n".join(tables.single_run_lines(1, reps([2500.0, 3000.0, 3500.0])))
    below = "\n".join(tables.single_run_lines(1, reps([1000.0, 1001.0, 1002.0])))
    assert "in 10 of 12 cells" in below and "≥ 2000, a cap; outside" in below


def test_claims_on_the_published_tables() -> None:
    """The claims that rest on Tables 1-8 alone, evaluated on the paper's own numbers:
    what its tables support holds, what they contradict does not (see published.py)."""
    data = _published_data()
    by_id = {c.id: c for c in [*jo.figure(1).claims, *jo.study_claims()]}
    verdict = {i: str(by_id[i].check(data).verdict) for i in (
        "high_snr_duplex_dominates", "low_snr_modem_dominates", "low_snr_modem_over_workload",
        "selective_repeat_everywhere", "modem_less_loss_when_unstable", "hmtp_threefold", "hdl_1d_drops_with_hmtp")}
    assert set(verdict.values()) == {"holds"}, verdict
    # HDL-1d's ratio is 1.8 in the paper's tables: the claim is about the protocols' mean.
    detail = by_id["hmtp_threefold"].check(data).detail
    assert "HDL-1d 1.83" in detail and "geometric mean 2.76" in detail, detail


def test_every_claim_of_the_paper_is_checked() -> None:
    checked = [c.id for f in jo.figures() for c in f.claims] + [c.id for c in jo.study_claims()]
    assert sorted(checked) == sorted(jo.all_claim_ids())


def test_quick_reproduction_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "arqlab.cli", "reproduce", "johnson", "--quick", "--no-store", "--quiet", "--out", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    claims = json.loads((out / "claims.json").read_text())
    assert len(claims["claims"]) == len(P.CLAIMS)
    frame = pd.read_csv(out / "tables.csv")
    assert sorted(set(frame["table"])) == list(range(1, 11))
    lat = frame[frame["table"] == 1]
    assert len(lat) == 12 and all(math.isfinite(v) and v > 0 for v in lat["ours"])
    # Every session started in the hour ran to its end: none cut by the cap.
    fig1 = pd.read_csv(out / "fig1.csv")
    cut = fig1[fig1["curve"].str.endswith(".censored")]
    assert len(cut) == 8 * 3 and (cut["y"] == 0).all(), cut
    assert "sessions cut by the 4 h cap (in no mean): 0 in 36 replications" in (out / "tables.md").read_text()
    for n in range(3, 11):
        shares = frame[frame["table"] == n]
        # The paper's share is on the cells' means, which carry no error term: the error
        # row has no "ours", only a share of the replications' total variation.
        effects, error = shares[shares["column"] != "error"], shares[shares["column"] == "error"]
        assert effects["ours"].between(0, 100).all() and len(error) == 1
        assert error["ours"].isna().all() and shares["ours_with_error"].between(0, 100).all()
        assert (effects["q_ci_low"] <= effects["q_ci_high"]).all(), "every effect has its CI from the replications"
    # --table picks the figures a table needs; a bad one exits 2 naming it.
    r = subprocess.run([*cmd[:-1], str(tmp_path / "t7"), "--table", "7"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "t7").glob("fig*.csv")) == ["fig1.csv", "fig2.csv"]
    bad = subprocess.run([*cmd, "--table", "11"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "johnson has no table 11" in bad.stderr
