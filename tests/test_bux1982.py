"""Bux, Kümmerle & Truong (1982): figure specs against the paper, closed forms, and the
quick reproduction once the compiled core with the HDLC model is available."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from arqlab.studies import bux1982 as bux  # noqa: E402
from arqlab.studies.bux1982.scenarios import study_t1  # noqa: E402
from arqlab.studies import framework as fw  # noqa: E402


def _get(scn: dict, key: str) -> object:
    return fw.get_dotted(scn, key)


def _curve_scn(fig: fw.Figure, key: str) -> dict:
    return fw.curve_scenario(fig, fig.curve(key))


# ----------------------------------------------------------------------------- specs vs the paper


def test_figures_2_to_11_exist() -> None:
    assert [f.number for f in bux.figures()] == list(range(2, 12))


def test_fig2_parameters() -> None:
    f = bux.figure(2)
    rates = {_get(_curve_scn(f, c.key), "link.rate_bps") for c in f.curves}
    assert rates == {4800.0, 48000.0}  # Section 3: 4.8 and 48 kbit/s terrestrial
    for c in f.curves:
        s = _curve_scn(f, c.key)
        assert _get(s, "link.delay_s") == 0.05 and _get(s, "protocol.modulus") == 8
        assert _get(s, "link.bit_error_rate") == 1e-5
        loaded = [side for side in "ab" if _get(s, f"traffic.{side}.kind") == "saturated"]
        assert loaded == [bux.side_of(c.direction)]  # one-way flow in the curve's direction
        assert _get(s, "traffic.a.length.dist") == "constant"


def test_nrm_direction_convention() -> None:
    f = bux.figure(2)
    assert f.curve("nrm_p2s_48k").direction == "a_to_b"  # station A is the primary
    assert f.curve("nrm_s2p_48k").direction == "b_to_a"
    assert _get(_curve_scn(f, "nrm_s2p_48k"), "traffic.b.kind") == "saturated"


def test_fig3_moduli_and_arm_extension() -> None:
    f = bux.figure(3)
    mods = {_get(_curve_scn(f, c.key), "protocol.modulus") for c in f.curves}
    assert mods == {8, 128}
    arm = [c for c in f.curves if _get(_curve_scn(f, c.key), "protocol.mode") == "arm"]
    assert arm and all(c.extension for c in arm)


@pytest.mark.parametrize(("n", "dist", "delay", "p"), [(4, "constant", 0.05, 1e-5), (5, "exponential", 0.05, 1e-5),
                                                       (6, "constant", 0.35, 1e-7)])
def test_two_way_figures(n: int, dist: str, delay: float, p: float) -> None:
    f = bux.figure(n)
    for c in f.curves:
        s = _curve_scn(f, c.key)
        assert _get(s, "traffic.a.kind") == _get(s, "traffic.b.kind") == "saturated"
        assert _get(s, "traffic.a.length.dist") == dist
        assert _get(s, "link.delay_s") == delay and _get(s, "link.bit_error_rate") == p
        assert _get(s, "link.rate_bps") == 48000.0


@pytest.mark.parametrize(("n", "l", "dist"), [(7, 5000, "constant"), (8, 5000, "exponential"), (9, 800, "constant"),
                                              (11, 800, "constant")])
def test_transfer_figures(n: int, l: int, dist: str) -> None:
    f = bux.figure(n)
    for c in f.curves:
        s = _curve_scn(f, c.key)
        assert _get(s, "traffic.a.kind") == _get(s, "traffic.b.kind") == "poisson"
        assert _get(s, "traffic.a.length.mean_bits") == l and _get(s, "traffic.a.length.dist") == dist
        assert _get(s, "protocol.modulus") == 8 and _get(s, "link.delay_s") == 0.05
    ov = f.x_overrides(0.3)
    assert ov == {"traffic.a.load": 0.3, "traffic.b.load": 0.3}  # symmetric traffic (Section 3.2)
    if n in (7, 8, 9):
        assert {_get(_curve_scn(f, c.key), "link.bit_error_rate") for c in f.curves} == {0.0, 1e-5}
    assert f.measure == ("buffer_holding_time_s" if n == 11 else "transfer_time_s")


def test_fig10_block_error_and_delay_mapping() -> None:
    f = bux.figure(10)
    c = f.curve("abm_pb1e2")
    ov = fw.point_overrides(f, c, 2.0, False, c.params, {})
    scn = fw.apply_overrides(f.base, ov)
    t_i = (800 + 48) / 48000.0
    assert _get(scn, "link.delay_s") == pytest.approx(2.0 * t_i)
    p = _get(scn, "link.bit_error_rate")
    assert 1 - (1 - p) ** 848 == pytest.approx(1e-2)  # I-frame block-error probability 1e-2
    assert _get(scn, "traffic.a.load") == 0.5
    c0 = f.curve("abm_pb0")
    scn0 = fw.apply_overrides(f.base, fw.point_overrides(f, c0, 2.0, False, c0.params, {}))
    assert _get(scn0, "link.bit_error_rate") == 0.0


def test_every_point_has_sane_run_settings() -> None:
    for quick in (True, False):
        settings = bux.settings_for(quick)
        for f in bux.figures():
            points, runs, _ = fw.plan_figure(f, settings)
            assert points
            for r in runs.values():
                s = r.scenario
                dur, warm = _get(s, "run.duration_s"), _get(s, "run.warmup_s")
                assert 0 < warm < dur
                t_p = _get(s, "link.delay_s")
                rule = study_t1(s)
                # The rule exceeds one round trip of the mode's timer: NRM's Annex B timer runs
                # from the end of the P frame to the first response frame, ABM/ARM's from the
                # start of an I frame to its acknowledgement.
                t_s = bux.s_frame_bits(s) / _get(s, "link.rate_bps")
                for side in "ab":
                    if _get(s, f"traffic.{side}.kind") != "none":
                        t_i = bux.frame_time(s, side)
                        assert rule > 2 * t_p + (t_s if _get(s, "protocol.mode") == "nrm" else t_i)
                t1 = _get(s, "protocol.t1_s")
                t_i_here = bux.frame_time(s, "a" if _get(s, "traffic.a.kind") != "none" else "b")
                allowed = {round(k * rule, 4) for k in (1.0, 0.5, 2.0)}
                # t1prev uses the curve's own side; both sides have the same lengths here.
                allowed.add(bux.t1_rule_previous(t_i_here, t_p, t_s))
                assert round(t1, 4) in allowed or any(abs(t1 - a) <= 2e-4 for a in allowed), (t1, allowed)
                assert _get(s, "run.precision_measures")


def test_quick_plan_is_small() -> None:
    settings = bux.settings_for(True)
    runs: dict[str, fw.RunRequest] = {}
    for f in bux.figures():
        runs.update(fw.plan_figure(f, settings)[1])
    # The quick pass's budget is 3 min on 2 cores. 1208 runs (the reading variants on each
    # figure's own x grid, issue 28) took 1 min 48 s wall with no store at load ≈ 20.
    assert len(runs) <= 1300
    assert all(r.replications == bux.QUICK_REPLICATIONS and r.precision is None for r in runs.values())
    full = bux.settings_for(False)
    assert full.precision == 0.025 and full.replications is None


def test_fig9_and_fig11_share_runs() -> None:
    settings = bux.settings_for(True)
    r9 = set(fw.plan_figure(bux.figure(9), settings)[1])
    r11 = set(fw.plan_figure(bux.figure(11), settings)[1])
    assert len(r9 & r11) >= 2 * len(bux.LOADS_800_QUICK)  # NRM and ABM error-free runs are reused


def test_checked_in_scenarios_match_figure_bases() -> None:
    for f in bux.figures():
        path = ROOT / "scenarios" / "bux1982" / f"fig{f.number}.toml"
        text = path.read_text()
        assert text.startswith("# Bux, Kuemmerle & Truong (1982)")
        assert tomllib.loads(text) == f.base


def test_claim_ids_unique_and_cover_the_issue() -> None:
    ids = bux.all_claim_ids()
    assert len(ids) == len(set(ids))
    required = {
        "fig2.left_nrm_s2p_ge_p2s", "fig2.left_abm_ge_nrm", "fig2.right_nrm_p2s_highest", "fig2.right_abm_approx_nrm_s2p",
        "fig2.48k_below_4k8_short", "fig3.mod128_helps_short", "fig3.nrm_s2p_mod128_collapse",
        "fig3.abm_mod128_no_collapse", "fig7.errfree_abm_md1", "fig7.errfree_nrm_p2s_md1",
        "fig7.errfree_nrm_s2p_extra_tp", "fig9.nrm_p2s_leaves_md1_near_0_2", "fig9.abm_leaves_md1_above_0_4",
        "fig10.linear_small_tp", "fig10.nrm_bends_before_abm", "fig11.nrm_above_abm",
    }
    assert required <= set(ids)
    for prefix in ("conc1.", "conc2.", "conc3.", "conc4.", "conc5.", "conc6.", "a2."):
        assert any(i.startswith(prefix) for i in ids), prefix
    for f in bux.figures():
        names = {s.name for s in f.sensitivities}
        for c in f.claims:
            assert set(c.sensitivity) <= names, c.id


def test_closed_forms() -> None:
    t_i = 5048 / 48000.0
    assert bux.md1_transfer_over_ti(1e-9, 5000, 48, 48000, 0.05) == pytest.approx(1 + 0.05 / t_i)
    rho = 0.5 * 5048 / 5000
    assert bux.md1_transfer_over_ti(0.5, 5000, 48, 48000, 0.05, 1.0) == pytest.approx(
        1 + rho / (2 * (1 - rho)) + 2 * 0.05 / t_i)
    # exponential info length with zero overhead reduces to M/M/1: W = S/(1-ρ)
    assert bux.mg1_exp_transfer_over_ti(0.5, 1000, 0, 1000, 0.0) == pytest.approx(2.0)
    assert bux.window_bound(100, 48, 48000, 0.05, 7) == pytest.approx(100 / 148 * 7 * (148 / 48000) / (148 / 48000 + 0.1 + 0.001))
    assert bux.window_bound(10000, 48, 48000, 0.05, 7) == pytest.approx(10000 / 10048)
    assert bux.channel_bound(1000, 48, 1e-5) == pytest.approx(1000 / 1048 * (1 - 1e-5) ** 1048)
    # T1 = 1.25 × the longest legitimate acknowledgement delay (theory.ack_delay_bound):
    # ABM/ARM a REJ recovery 4·T_I + 4·t_p + R_rej + R, less 2·t_p + T_S when the sender
    # sends back to back (the timer restarts on the acknowledgement of the frame before);
    # NRM's Annex B timer 2·t_p + R; R = T_S from an idle peer, 2·T_I(peer) from a sending
    # one; the REJ, an S frame, R_rej = T_S idle, T_I(peer) + T_S sending.
    assert bux.t1_rule("abm", 0.1, 0.05, 0.001, None) == pytest.approx(1.25 * (0.4 + 0.2 + 0.002), abs=1e-4)
    assert bux.t1_rule("abm", 0.1, 0.05, 0.001, None, True) == pytest.approx(1.25 * (0.4 + 0.1 + 0.001), abs=1e-4)
    assert bux.t1_rule("arm", 0.1, 0.05, 0.001, 0.02) == pytest.approx(1.25 * (0.4 + 0.2 + 0.021 + 0.04), abs=1e-4)
    assert bux.t1_rule("arm", 0.1, 0.05, 0.001, 0.02, True) == pytest.approx(1.25 * (0.4 + 0.1 + 0.02 + 0.04), abs=1e-4)
    assert bux.t1_rule("nrm", 0.1, 0.05, 0.001, None) == pytest.approx(1.25 * (0.1 + 0.001), abs=1e-4)
    assert bux.t1_rule("nrm", 0.1, 0.05, 0.001, 0.02) == pytest.approx(1.25 * (0.1 + 0.04), abs=1e-4)


def test_t1_covers_a_rej_recovery_and_each_mode_gets_its_own() -> None:
    """The point's T1 comes from the scenario's mode and flows (not from the curve's side):
    two-way saturated ABM at 10000 bit (back to back, the window never closes) is
    1.25·(7·T_I + 2·t_p); one-way NRM P→S 1.25·(2·t_p + T_S)."""
    f4 = bux.figure(4)
    settings = bux.settings_for(True)
    t_i = 10048 / 48000.0
    runs = fw.plan_figure(f4, settings)[1].values()
    abm = {r.scenario["protocol"]["t1_s"] for r in runs if r.scenario["protocol"]["modulus"] == 8
           and r.scenario["protocol"]["mode"] == "abm" and r.scenario["traffic"]["a"]["length"]["mean_bits"] == 10000}
    assert round(1.25 * (7 * t_i + 0.1), 4) in abm  # with the t1x0.5, t1x2 and t1prev variants
    f3 = bux.figure(3)
    runs3 = [r for r in fw.plan_figure(f3, settings)[1].values()
             if r.scenario["protocol"]["mode"] == "nrm" and r.scenario["traffic"]["b"]["kind"] == "none"]
    nrm_ps = {r.scenario["protocol"]["t1_s"] for r in runs3}
    assert round(1.25 * (0.1 + 48 / 48000), 4) in nrm_ps  # the rule; the others are the T1 sensitivities


# ----------------------------------------------------------------------------- with a synthetic runner


def _synthetic(req: fw.RunRequest) -> fw.Metrics:
    """Idealized numbers (window bound × clean-copy factor; M/D/1) with ±1% CIs: exercises
    the pipeline end to end without the compiled core. It is not a model of HDLC."""
    s = req.scenario
    v, t_p, p = _get(s, "link.rate_bps"), _get(s, "link.delay_s"), _get(s, "link.bit_error_rate")
    out: fw.Metrics = {}
    for side, d in (("a", "a_to_b"), ("b", "b_to_a")):
        kind = _get(s, f"traffic.{side}.kind")
        if kind == "none":
            continue
        l = float(_get(s, f"traffic.{side}.length.mean_bits"))
        h = bux.overhead_bits(s)
        w = int(_get(s, "protocol.modulus")) - 1
        if kind == "saturated":
            m = {"throughput_efficiency": bux.window_bound(l, h, v, t_p, w) * (1 - p) ** (l + h)}
        else:
            load = float(_get(s, f"traffic.{side}.load"))
            t = bux.md1_transfer_over_ti(load, l, h, v, t_p) * (l + h) / v
            m = {"throughput_efficiency": load, "transfer_time_s": t, "buffer_holding_time_s": t + t_p}
        out[d] = {k: {"mean": x, "ci95_half_width": 0.01 * abs(x), "n": 3} for k, x in m.items()}
    return out


def test_synthetic_reproduction_writes_everything(tmp_path: Path) -> None:
    rep = bux.reproduce(figures=[2, 7], quick=True, out_dir=tmp_path, runner=_synthetic, quiet=True)
    for n in (2, 7):
        for ext in ("png", "svg", "csv"):
            assert (tmp_path / f"fig{n}.{ext}").stat().st_size > 0
        assert any((tmp_path / f"fig{n}_scenarios").glob("*.toml"))
    ids = {r.id for r in rep.claims}
    assert {c.id for c in bux.figure(2).claims} <= ids and {c.id for c in bux.figure(7).claims} <= ids
    verdicts = {r.id: r.verdict for r in rep.claims}
    # the synthetic data is exactly the closed forms: the closed-form claims must hold
    assert verdicts["fig7.errfree_abm_md1"] is fw.Verdict.HOLDS
    assert verdicts["fig2.48k_below_4k8_short"] is fw.Verdict.HOLDS
    assert "conc1.abm_at_least_nrm" in rep.skipped_claims  # needs every figure


# The verdict of every claim on the synthetic data above, all figures (quick grid): a pin of
# the claim logic, not of the model. Synthetic data are the idealised forms (window bound ×
# clean-copy factor, M/D/1), so claims about effects the forms lack (collapse with modulus
# 128, NRM S→P extra t_p, …) do not hold or are inconclusive. A change here means a claim
# helper or a claim's wiring changed: check it was meant.
SYNTHETIC_HOLDS = (
    "fig2.interior_optimum", "fig2.48k_below_4k8_short", "fig2.left_abm_ge_nrm", "fig2.right_abm_approx_nrm_s2p",
    "fig2.mod8_limits_48k", "fig2.abm_on_window_bound", "fig3.mod128_helps_short", "fig3.abm_mod128_no_collapse",
    "fig3.nrm_p2s_mod128_above_s2p", "a2.arm_left_throughput_eq_abm", "fig4.left_nrm_directions_equal_mod8",
    "fig4.optimum_and_right_equivalent_mod8", "fig4.abm_mod128_no_collapse", "fig4.abm_directions_equal",
    "a2.arm_two_way_no_collapse", "fig5.left_nrm_directions_equal_mod8", "fig5.optimum_and_right_equivalent_mod8",
    "fig5.abm_mod128_no_collapse", "fig5.same_when_no_effects", "fig6.only_left_effects", "fig6.mod128_drastic_short",
    "fig6.nrm_directions_roughly_equal_mod8", "fig7.errfree_abm_md1", "fig7.errfree_nrm_p2s_md1",
    "fig7.errfree_abm_eq_nrm_p2s", "fig9.abm_md1_to_0_4", "a2.arm_transfer_similar_abm", "fig10.linear_small_tp",
    "fig11.nrm_directions_equal", "conc1.abm_at_least_nrm", "conc1.broad_equivalence", "conc3.abm_symmetric",
    "conc5.abm_eq_nrm_p2s_transfer", "conc6.nrm_bht_equal",
)
# Issue 28 moved five: "degrades"/"differs significantly" are now beyond SIGNIFICANT (10 %),
# which equal synthetic curves clearly do not reach (fig6.abm_above_nrm_mod8 and conc4 that
# reads it; the Fig. 4 "rapid throughput degradation" and its Fig. 5 extrapolation;
# conc4.high_error_nrm_degrades).
SYNTHETIC_DOES_NOT_HOLD = (
    "fig6.abm_above_nrm_mod8", "conc4.long_delay_nrm_degrades", "fig4.nrm_s2p_mod128_collapse",
    "fig5.nrm_s2p_mod128_collapse", "conc4.high_error_nrm_degrades", "fig3.nrm_s2p_mod128_dramatic", "fig7.errfree_nrm_s2p_extra_tp", "fig8.errfree_abm_mg1",
    "fig9.abm_leaves_md1_above_0_4", "fig9.nrm_p2s_leaves_md1_near_0_2", "fig9.nrm_p2s_steep_beyond_0_3",
    "fig10.s2p_extra_order_tp", "fig11.nrm_above_abm", "conc2.mod8_enough_for_abm", "conc3.nrm_directions_differ",
    "conc5.s2p_extra_order_tp", "conc6.nrm_bht_above_abm",
)
# Issue 14 moved four (encodings by the words): fig2.left_nrm_s2p_ge_p2s is strict now
# (equal synthetic curves: inconclusive), fig3.nrm_p2s_mod128_above_s2p is "not worse"
# (holds on equal curves), fig8.relations_as_fig7 and conc5.modulus_stronger_in_nrm ask
# for an ordering / a ratio of excesses that equal curves leave undecided.
SYNTHETIC_INCONCLUSIVE = (
    "fig2.upper_bound", "fig2.clean_copy_bound", "fig2.left_nrm_s2p_ge_p2s", "fig2.right_nrm_p2s_highest",
    "fig3.nrm_s2p_mod128_collapse", "a2.arm_right_throughput_similar_abm", "fig4.left_abm_above_nrm_mod8",
    "fig4.nrm_p2s_mod128_worse", "fig5.left_abm_above_nrm_mod8", "fig5.nrm_p2s_mod128_worse", "fig5.modulus_broader", "fig5.errors_stronger_long",
    "fig7.errors_longer", "fig7.errors_nrm_p2s_below_abm", "fig8.longer_than_constant",
    "fig8.relations_as_fig7", "fig9.nrm_p2s_departs_before_abm", "fig9.nrm_s2p_above_p2s", "fig10.nrm_bends_before_abm",
    "fig11.vs_fig9", "conc2.modulus_earlier_in_nrm", "conc5.modulus_stronger_in_nrm",
)


def test_synthetic_verdicts_of_every_claim_are_pinned() -> None:
    settings = fw.RunSettings(quick=True)
    data = {}
    for fig in bux.figures():
        points, runs, _ = fw.plan_figure(fig, settings)
        metrics = {k: _synthetic(r) for k, r in runs.items()}
        data[fig.number] = fw.FigureData(fig, fw.tabulate(fig, points, metrics))
    sd = fw.StudyData(data)
    claims = [c for fig in bux.figures() for c in fig.claims] + bux.study_claims()
    results = {c.id: fw.evaluate_claim(c, sd) for c in claims}
    got = {k: r.verdict for k, r in results.items() if r is not None}
    assert len(got) == len(claims) == 73
    expected = {**{k: fw.Verdict.HOLDS for k in SYNTHETIC_HOLDS}, **{k: fw.Verdict.DOES_NOT_HOLD for k in SYNTHETIC_DOES_NOT_HOLD},
                **{k: fw.Verdict.INCONCLUSIVE for k in SYNTHETIC_INCONCLUSIVE}}
    changed = {k: f"{expected.get(k)} -> {v}" for k, v in got.items() if expected.get(k) is not v}
    assert not changed, changed


# ----------------------------------------------------------------------------- with the real core


def _core_available() -> bool:
    try:
        importlib.import_module("arqlab._core")
        arqlab = importlib.import_module("arqlab")
    except ImportError:
        return False
    return hasattr(arqlab, "simulate")


needs_core = pytest.mark.skipif(not _core_available(), reason="arqlab._core (compiled extension with arqlab.simulate) "
                                                              "cannot be imported; build it with `maturin develop`")


# Claims that hold robustly at quick precision (effects many CIs wide in every quick and
# full run so far), asserted on the whole quick pass.
ROBUST_QUICK = (
    "fig2.upper_bound", "fig2.interior_optimum", "fig2.48k_below_4k8_short", "fig2.left_nrm_s2p_ge_p2s",
    "fig2.mod8_limits_48k", "fig3.mod128_helps_short", "fig3.nrm_s2p_mod128_collapse", "fig3.abm_mod128_no_collapse",
    "fig3.nrm_p2s_mod128_above_s2p", "a2.arm_left_throughput_eq_abm", "fig7.errfree_abm_md1", "fig7.errfree_nrm_p2s_md1",
    "fig7.errfree_abm_eq_nrm_p2s", "fig7.errors_longer", "fig8.longer_than_constant",
)


@needs_core
@pytest.mark.slow
def test_quick_reproduction_robust_claims_hold(tmp_path: Path) -> None:
    # The whole quick pass, as `arqlab reproduce bux1982 --quick` runs it.
    rep = bux.reproduce(quick=True, out_dir=tmp_path, workers=2, quiet=True)
    assert not rep.skipped_claims, rep.skipped_claims
    for n in range(2, 12):
        assert (tmp_path / f"fig{n}.png").exists() and (tmp_path / f"fig{n}.csv").exists()
    v = {r.id: r.verdict for r in rep.claims}
    failed = {c: v[c].value if hasattr(v[c], "value") else str(v[c]) for c in ROBUST_QUICK if v[c] is not fw.Verdict.HOLDS}
    assert not failed, failed
    # Regression for the re-poll checkpoint mark (spurious go-backs on an error-free link):
    # before the fix ABM with exponential lengths was 14% above Pollaczek–Khinchine at load 0.7.
    assert v["fig8.errfree_abm_mg1"] is not fw.Verdict.DOES_NOT_HOLD
    fd = rep.data[8] if hasattr(rep, "data") else None
    if fd is not None:
        e = fd.est("abm_p0", 0.7)
        assert e.mean < 1.06 * bux.ideal_transfer(5000.0, "exponential")(0.7)
