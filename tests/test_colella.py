"""Colella, Aronoff & Mills (NBS): figure specs against Tables 2 and 3, closed forms, the
framework on synthetic data, the quick reproduction, the time graphs of Figures 1–2 and
TP4 captures checked by tshark."""

from __future__ import annotations

import importlib
import shutil
import struct
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

from arqlab.studies import colella as co  # noqa: E402
from arqlab.studies import framework as fw  # noqa: E402
from arqlab.studies.colella import claims as cl  # noqa: E402
from arqlab.studies.colella import scenarios as cs  # noqa: E402
from arqlab.studies.colella import theory  # noqa: E402


def _point(n: int, curve: str, x: float, quick: bool = True) -> dict[str, Any]:
    f = co.figure(n)
    c = f.curve(curve)
    return fw.apply_overrides(f.base, fw.point_overrides(f, c, x, quick, c.params, {}))


def _tp4(scn: dict[str, Any]) -> dict[str, Any]:
    layers: list[dict[str, Any]] = scn["stack"]["ts"]["layers"]
    return layers[0]


def test_figures_4_to_9_exist() -> None:
    assert [f.number for f in co.figures()] == [4, 5, 6, 7, 8, 9]


def test_table2_parameters_reach_every_point_of_figures_4_and_5() -> None:
    for n in (4, 5):
        for c in ("iso", "nbs"):
            scn = _point(n, c, 1 / 7)
            t = _tp4(scn)
            assert (t["dt_size_octets"], t["window_octets"], t["send_buffer_octets"], t["receive_buffer_octets"]) == (
                1024, 12 * 1024, 32 * 1024, 32 * 1024)
            assert (t["retransmission_timer_s"], t["window_timer_s"], t["acknowledgement"]) == (2.0, 6.0, "one_for_one")
            assert (t["expedited"], t["expedited_every"]) == (c, 7)
            assert "max_ack_delay_s" not in t  # infinite
            assert scn["stack"]["ts"]["layers"][1]["window"] == 4
            assert scn["medium"][0]["rate_bps"] == 64_000.0 and scn["medium"][0]["bit_error_rate"] == 1e-9
            assert scn["flow"][0]["traffic"]["messages"] == 60
            assert scn["flow"][0]["traffic"]["length"]["mean_bits"] == 10_240 * 8
    assert _tp4(_point(4, "iso", 0.0))["expedited_every"] == 0
    assert [cs.every_for(r) for r in (0.33, 0.14, 0.08, 0.0588, 0.0455, 0.037, 0.03)] == [3, 7, 12, 17, 22, 27, 33]


def test_table3_parameters_reach_every_point_of_figures_6_to_8() -> None:
    for n in (6, 7, 8):
        for c in ("one_for_one", "selective"):
            for ber in (1e-6, 1e-3):
                scn = _point(n, c, ber)
                t = _tp4(scn)
                assert (t["dt_size_octets"], t["window_octets"], t["retransmission_timer_s"], t["window_timer_s"]) == (
                    128, 20 * 1024, 0.65, 2.0)
                assert (t["acknowledgement"], t["expedited"], t["expedited_every"]) == (c, "nbs", 0)
                assert scn["medium"][0]["bit_error_rate"] == ber
                assert scn["flow"][0]["traffic"]["messages"] == (5 if ber == 1e-3 else 20)


def test_figures_share_runs() -> None:
    s = fw.RunSettings(quick=True, replications=5)
    runs = [set(fw.plan_figure(co.figure(n), s)[1]) for n in (4, 5, 6, 7, 8)]
    assert runs[0] == runs[1], "Figures 4 and 5 read the same runs"
    assert runs[2] == runs[3] == runs[4], "Figures 6–8 read the same runs"


def test_checked_in_scenarios_match_the_tables() -> None:
    exp1 = tomllib.loads((ROOT / "scenarios/colella/expedited.toml").read_text())
    exp2 = tomllib.loads((ROOT / "scenarios/colella/acknowledgement.toml").read_text())
    for text, p in ((exp1, cs.params_for(1, {"expedited_every": 7})), (exp2, cs.params_for(2, {"acknowledgement": "selective", "ber": 1e-5}))):
        # Every key the study generates, with its value, and no other: a key the file
        # leaves out would run at the model's default, not the study's value.
        want = cs.tables(p)
        assert text["stack"] == want["stack"]
        assert text["medium"] == want["medium"]
        assert text["flow"] == want["flow"]


def test_closed_forms() -> None:
    # 60 TSDUs of 10 full DTs (1012 user octets) and one of 120: T0 by hand.
    bits = 60 * (10 * (1024 * 8 + 72) + (132 * 8 + 72))
    assert theory.no_expedited_time() == pytest.approx(bits / 64000 + 0.54 + (14 * 8 + 72) / 64000)
    assert theory.expedited_round_trip() == pytest.approx((28 * 8 + 72) / 64000 + 0.54 + (12 * 8 + 72) / 64000)
    assert theory.eds(1 / 3) == 660 // 3 and theory.eds(0.0) == 0 and theory.eds(1 / 3, per_dt=False) == 20
    assert theory.iso_efficiency(0.0) > theory.iso_efficiency(0.03) > theory.iso_efficiency(0.33)
    # The NBS break-even: the smallest k whose k DTs outlast the ED round trip (k = 5).
    assert theory.break_even_rate() == pytest.approx(1 / 5)
    assert theory.nbs_covers(1 / 7) and not theory.nbs_covers(1 / 3)


def test_nbs_line_schedule_closed_form() -> None:
    # No ED: the NBS schedule is T0. At 1/7 the 7 DTs before each ED (≥ 0.80 s) outlast
    # its round trip (0.548 s): the line never idles, each ED only adds its own time.
    t0, ed = theory.no_expedited_time(), theory.tx(theory.ED_OCTETS)
    assert theory.nbs_transfer_time(0.0) == pytest.approx(t0)
    assert theory.nbs_transfer_time(1 / 7) == pytest.approx(t0 + theory.eds(1 / 7) * ed)
    # At 1/3 every cycle idles (3 DTs ≤ 0.39 s < 0.548 s): ED i+1 starts one ED round trip
    # after ED i; after ED 220 (no data after it) its group (DTs 657–659: two full, the
    # last short) and the last AK.
    dt, short, ak = theory.tx(1024), theory.tx(132), theory.tx(theory.AK_OCTETS)
    want = 219 * theory.expedited_round_trip() + ed + 2 * dt + short + 2 * 0.27 + ak
    assert theory.eds(1 / 3) == 220
    assert theory.nbs_transfer_time(1 / 3) == pytest.approx(want, rel=1e-12)
    for rate in (0.03, 0.0455, 0.08, 0.14, 0.33):
        assert theory.iso_efficiency(rate) < theory.nbs_efficiency(rate) <= theory.nbs_efficiency(0.0)


def test_window_figure_has_both_schemes_at_each_error_rate_on_a_half_kib_grid() -> None:
    from arqlab.studies.colella.params import TWICE_BAND, WINDOW_BERS, WINDOWS_KIB

    assert WINDOWS_KIB[0] == 0.5 and WINDOWS_KIB[-1] == 20.0 and all(
        b - a == 0.5 for a, b in zip(WINDOWS_KIB, WINDOWS_KIB[1:]))
    assert sum(TWICE_BAND) / 2 == 2.0, "the band is centred on 2"
    f = co.figure(9)
    assert [c.key for c in f.curves] == [f"{a}@{b:g}" for b in WINDOW_BERS for a in ("one_for_one", "selective")]
    for b in WINDOW_BERS:
        scn = _point(9, f"selective@{b:g}", 7.5)
        assert scn["medium"][0]["bit_error_rate"] == b
        assert _tp4(scn)["window_octets"] == 7680 and _tp4(scn)["acknowledgement"] == "selective"
        assert scn["flow"][0]["traffic"]["messages"] == (5 if b == 1e-3 else 20)


def test_dt_user1024_variant_reaches_the_scenario_and_only_it() -> None:
    f = co.figure(4)
    (s,) = [v for v in f.sensitivities if v.name == "dt_user1024"]
    c = f.curve("nbs")
    scn = fw.apply_overrides(f.base, fw.point_overrides(f, c, 1 / 7, True, {**c.params, **s.params}, {}))
    assert _tp4(scn)["dt_size_includes_header"] is False and _tp4(scn)["dt_size_octets"] == 1024
    assert "dt_size_includes_header" not in _tp4(_point(4, "nbs", 1 / 7)), "the base keeps the model's default"


def _window_runner(selective_window: float) -> Any:
    """The synthetic runner with selective reaching its best at ``selective_window`` octets."""
    def run(req: fw.RunRequest) -> fw.Metrics:
        t = req.scenario["stack"]["ts"]["layers"][0]
        out = _synthetic(req)
        if t["dt_size_octets"] == 128 and t["acknowledgement"] == "selective":
            eff = 0.83 * min(1.0, t["window_octets"] / selective_window)
            out[cs.FLOW]["throughput_efficiency"] = {"mean": eff, "ci95_half_width": 0.001 * eff, "n": 5}
        return out
    return run


@pytest.mark.parametrize("selective_window,verdict", [(20480.0, fw.Verdict.HOLDS), (14336.0, fw.Verdict.DOES_NOT_HOLD)])
def test_twice_the_window_band_is_centred_on_2(tmp_path: Path, selective_window: float, verdict: fw.Verdict) -> None:
    # One-for-one reaches 95% of its best at 9.5 KiB (W/10 KiB); selective, W/20 KiB,
    # at 19 KiB: ratio 2.0, inside 1.5–2.5. With W/14 KiB selective's knee is 13.5 KiB:
    # ratio 1.42, below the band, at every error rate.
    rep = co.reproduce(quick=True, out_dir=tmp_path, runner=_window_runner(selective_window), quiet=True,
                       figures=[9])
    (r,) = [c for c in rep.claims if c.id == "fig9.selective_needs_twice_the_window"]
    per = cl.window_ratios(rep.data[9])
    ratios = [v[2] for v in per.values() if v is not None]
    assert len(ratios) == 3
    assert r.verdict is (fw.Verdict.HOLDS if all(1.5 <= x <= 2.5 for x in ratios) else fw.Verdict.DOES_NOT_HOLD)
    assert r.verdict is verdict, r.detail


def test_claim_ids_unique_and_cover_the_issue() -> None:
    ids = co.all_claim_ids()
    assert len(ids) == len(set(ids))
    for needed in ("fig4.nbs_ge_iso", "fig4.nbs_full_to_1_7", "fig4.nbs_drops_1_7_to_1_3", "abstract.expedited_38",
                   "abstract.delay_61", "fig6.selective_better", "abstract.selective_34", "fig7.selective_more_memory",
                   "fig8.selective_more_memory", "fig9.selective_needs_twice_the_window",
                   "fig4.iso_one_round_trip_per_ed"):
        assert needed in ids


def test_ratio_and_knee_helpers() -> None:
    r = cl.ratio(fw.Est(2.0, 0.2, 5), fw.Est(1.0, 0.0, 5))
    assert (r.mean, r.half) == pytest.approx((2.0, 0.2))
    assert not cl.ratio(fw.Est(1.0, 0.1), fw.Est(0.0, 0.1)).valid


def _synthetic(req: fw.RunRequest) -> fw.Metrics:
    """Plausible metrics from the closed forms (ISO idles; NBS full; selective better)."""
    t = req.scenario["stack"]["ts"]["layers"][0]
    ber = req.scenario["medium"][0]["bit_error_rate"]
    if t["dt_size_octets"] == 1024:
        rate = 0.0 if t["expedited_every"] == 0 else 1.0 / t["expedited_every"]
        eff = theory.iso_efficiency(rate) if t["expedited"] == "iso" else theory.iso_efficiency(0.0) * (0.7 if rate > 0.2 else 1.0)
    else:
        loss = min(0.9, ber * 2e4) * (0.3 if t["acknowledgement"] == "selective" else 1.0)
        eff = 0.83 * (1 - loss) * min(1.0, t["window_octets"] / (10240.0 if t["acknowledgement"] == "one_for_one" else 20480.0))
    mem = 5000.0 + ber * 1e7 * (2.0 if t["acknowledgement"] == "selective" else 1.0)
    flow = {"throughput_efficiency": eff, "transfer_time_s": 3.75 / eff, "receive_buffer_octets_mean": mem,
            "receive_buffer_octets_max": 2 * mem}
    tr = {"dt_retransmitted": 1000 * ber * 1e3 * (0.1 if t["acknowledgement"] == "selective" else 1.0),
          "send_buffer_octets_mean": 30000.0 - (1000.0 if t["acknowledgement"] == "selective" else 0.0),
          "send_buffer_octets_max": 32768.0}
    return {cs.FLOW: {k: {"mean": v, "ci95_half_width": 0.001 * abs(v), "n": 5} for k, v in flow.items()},
            cs.TRANSPORT: {k: {"mean": v, "ci95_half_width": 0.01 * abs(v) + 0.01, "n": 5} for k, v in tr.items()}}


def test_synthetic_reproduction_writes_everything(tmp_path: Path) -> None:
    rep = co.reproduce(quick=True, out_dir=tmp_path, runner=_synthetic, quiet=True)
    for n in range(4, 10):
        for suffix in ("png", "svg", "csv"):
            assert (tmp_path / f"fig{n}.{suffix}").exists()
        assert (tmp_path / f"fig{n}_scenarios").is_dir()
    assert (tmp_path / "claims.json").exists() and (tmp_path / "claims.md").exists()
    v = {r.id: r.verdict for r in rep.claims}
    assert v["fig4.iso_one_round_trip_per_ed"] is fw.Verdict.HOLDS  # the synthetic ISO is the closed form
    assert v["fig9.selective_needs_twice_the_window"] is fw.Verdict.HOLDS


def _core_available() -> bool:
    try:
        importlib.import_module("arqlab._core")
    except ImportError:
        return False
    return True


needs_core = pytest.mark.skipif(not _core_available(), reason="arqlab._core cannot be imported; build it with `maturin develop`")

# Claims that hold at quick precision in every run so far (the effects are many CIs wide).
# Not fig6.selective_better: at 1e-6 the gain (2%) is inside the quick pass's CI.
ROBUST_QUICK = (
    "fig4.nbs_ge_iso", "fig4.iso_one_round_trip_per_ed", "fig4.nbs_full_to_1_7", "fig4.nbs_drops_1_7_to_1_3",
    "fig5.nbs_delay_le_iso", "fig5.iso_delay_grows", "fig6.fewer_retransmissions",
    "abstract.expedited_38", "abstract.selective_34",
)


@needs_core
@pytest.mark.slow
def test_quick_reproduction_robust_claims_hold(tmp_path: Path) -> None:
    # The whole quick pass, as `arqlab reproduce colella --quick` runs it.
    rep = co.reproduce(quick=True, out_dir=tmp_path, workers=2, quiet=True, store=False)
    assert not rep.skipped_claims, rep.skipped_claims
    for n in (1, 2, 4, 5, 6, 7, 8, 9):
        assert (tmp_path / f"fig{n}.svg").exists() and (tmp_path / f"fig{n}.png").exists()
    v = {r.id: r.verdict for r in rep.claims}
    failed = {c: str(v[c]) for c in ROBUST_QUICK if v[c] is not fw.Verdict.HOLDS}
    assert not failed, failed


@needs_core
def test_time_graphs_show_iso_idle_and_nbs_flow() -> None:
    from arqlab.capture import flights
    from arqlab.studies.colella.timegraph import WINDOW_S, time_graph_scenario

    def while_ed_outstanding(d: str) -> list[str]:
        fs = flights(time_graph_scenario(d), *WINDOW_S)["flights"]
        ed = next(f["sent_s"] for f in fs if f["frame"]["kind"] == "ED")
        ea = next(f["arrived_s"] for f in fs if f["frame"]["kind"] == "EA")
        return [f"{f['frame']['kind']}{f['frame']['ns']}" for f in fs if f["sender"] == "A" and ed < f["sent_s"] < ea]

    # DT 0 is on the line when the user's ED (after six DTs of data) arrives. ISO sends
    # nothing new until the EA; NBS sends DTs 1-5, submitted before the ED, and holds DT 6.
    assert while_ed_outstanding("iso") == []
    assert while_ed_outstanding("nbs") == [f"DT{n}" for n in range(1, 6)]


def _records(path: Path) -> list[bytes]:
    """The packets of a classic pcap file."""
    data = path.read_bytes()
    out, i = [], 24
    while i < len(data):
        n = struct.unpack_from("<I", data, i + 8)[0]
        out.append(data[i + 16:i + 16 + n])
        i += 16 + n
    return out


def _fletcher_ok(tpdu: bytes) -> bool:
    """ISO 8073 Annex B: both running sums over the TPDU are 0 modulo 255."""
    c0 = c1 = 0
    for b in tpdu:
        c0 = (c0 + b) % 255
        c1 = (c1 + c0) % 255
    return c0 == 0 and c1 == 0


@needs_core
def test_tp4_capture_decodes_as_cotp_in_tshark(tmp_path: Path) -> None:
    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark is missing: install the Debian package (apt-get install tshark)")
    from arqlab.capture import flights, pcap

    scn = {
        "run": {"duration_s": 100.0, "replications": 1},
        "link": {"rate_bps": 64000.0, "delay_s": 0.27, "bit_error_rate": 2e-4},
        "protocol": {"kind": "tp4", "expedited": "nbs", "expedited_every": 2, "dt_size_octets": 128,
                     "window_octets": 2048, "acknowledgement": "selective", "retransmission_timer_s": 0.65},
        "traffic": {"a": {"kind": "bulk", "messages": 4, "length": {"dist": "constant", "mean_bits": 8000}}},
    }
    window = (0.0, 4.0)
    (path,) = pcap(scn, *window, tmp_path / "tp4.pcap", seed=3)
    fs = flights(scn, *window, seed=3)["flights"]
    fields = ["cotp.type", "cotp.tpdu-number", "cotp.eot", "cotp.next-tpdu-number", "cotp.credit"]
    cmd = [tshark, "-n", "-r", str(path), "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    rows = [ln.split("\t") for ln in subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120).stdout.splitlines()]
    assert len(rows) == len(fs) > 10
    codes = {"DT": 0x0F, "ED": 0x01, "AK": 0x06, "EA": 0x02}
    seen = set()
    for row, f in zip(rows, fs):
        fr = f["frame"]
        seen.add(fr["kind"])
        assert int(row[0], 0) == codes[fr["kind"]], (row, fr)
        if fr["kind"] in ("DT", "ED"):
            assert int(row[1], 0) == fr["ns"]
        if fr["kind"] == "DT":
            assert (row[2] in ("1", "True")) == fr["pf"]
        if fr["kind"] in ("AK", "EA"):
            assert int(row[3], 0) == fr["nr"]
        if fr["kind"] == "AK":
            assert int(row[4], 0) == 16  # 2048 / 128
    # The ISO 8073 (Annex B) checksum verifies on every TPDU the channel left intact and
    # fails on every corrupted one. (Wireshark 4.0 marks COTP checksums in this
    # encapsulation bad whatever their value, so it is checked here from the bytes.)
    for raw, f in zip(_records(path), fs):
        assert _fletcher_ok(raw[18:]) != f["in_error"], f
    assert {"DT", "AK", "ED", "EA"} <= seen
    assert any(f["in_error"] for f in fs), "the window must show a corrupted TPDU"


@needs_core
@pytest.mark.parametrize(("override", "field"), [
    ("stack.ts.layers=[{kind='tp4',dt_size_octets=2048,window_octets=1024},{kind='network_window'}]", "window_octets = 1024"),
    ("stack.ts.layers=[{kind='tp4',retransmission_timer_s=-1},{kind='network_window'}]", "retransmission_timer_s = -1"),
    ("stack.ts.layers=[{kind='tp4',expedited='fast'},{kind='network_window'}]", "expedited = \"fast\""),
])
def test_bad_tp4_input_exits_2_naming_the_field(override: str, field: str) -> None:
    p = subprocess.run([sys.executable, "-m", "arqlab.cli", "check", str(ROOT / "scenarios/colella/expedited.toml"),
                        "--set", override], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr
    assert f"stack.ts.layers[0].{field}" in p.stderr, p.stderr
