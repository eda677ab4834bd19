"""Biersack (1992): figure specs against the paper, the pooled LLC2/bridge/ring measures,
claims on synthetic data, the quick reproduction through `arqlab reproduce biersack`,
Fig. 4 from a trace, and bad input exiting 2 naming the field."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import arqlab
from arqlab.studies import biersack as bi
from arqlab.studies import framework as fw
from arqlab.studies.biersack import claims as cl
from arqlab.studies.biersack.scenarios import BRIDGES, LLC2, POOLED, base


def _point(n: int, curve: str, x: float, quick: bool = True, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    f = bi.figure(n)
    c = f.curve(curve)
    return fw.apply_overrides(f.base, fw.point_overrides(f, c, x, quick, {**c.params, **(extra or {})}, {}))


def test_figures_and_trace_figure() -> None:
    assert [f.number for f in bi.figures()] == [1, 2, 3, 5, 6, 7, 8]
    assert bi.TRACE_FIGURES == (4,)


def test_the_paper_s_configuration_reaches_every_point() -> None:
    for v in ("orig", "bg", "jain", "srej"):
        scn = _point(1, v, 3.5, quick=False)
        assert scn["stack"]["llc2"]["variant"] == v and scn["stack"]["llc2"]["window"] == 10
        assert scn["stack"]["llc2"]["n"] == 8
        assert len(scn["node"]) == 36 and len(scn["flow"]) == 36
        assert [m["name"] for m in scn["medium"]] == ["backbone", "ring1", "ring2", "ring3"]
        assert all(m["rate_bps"] == 4e6 and m["kind"] == "token_ring" for m in scn["medium"])
        assert all(r["buffer_octets"] == 4096 for r in scn["relay"])
        offered = sum(f["traffic"]["load"] for f in scn["flow"]) * 4e6
        assert offered == pytest.approx(3.5e6)
        # Internet traffic only: every flow leaves its ring.
        assert all(f["from"][:2] != f["to"][:2] for f in scn["flow"])
        # The knee (3.2-3.6): delay read, not watched, from 10 replications.
        assert scn["run"]["precision_measures"] == [f"{POOLED}.throughput_bps"]
        assert scn["run"]["min_replications"] == 10
    assert _point(1, "srej", 3.0, quick=False)["run"]["precision_measures"] == [f"{POOLED}.throughput_bps",
                                                                               f"{POOLED}.transfer_time_s"]
    # Under overload, and for ORIG once it has collapsed, delay has no steady state.
    assert _point(1, "srej", 5.0, quick=False)["run"]["precision_measures"] == [f"{POOLED}.throughput_bps"]
    assert _point(1, "orig", 3.0, quick=False)["run"]["precision_measures"] == [f"{POOLED}.throughput_bps"]
    assert _point(1, "srej", 5.0, quick=False)["run"]["min_replications"] == 4
    assert _point(7, "mf_w10", 2.0)["stack"]["llc2"] == {**_point(7, "srej_w10", 2.0)["stack"]["llc2"],
                                                          "variant": "multi_fifo", "fifo_buffers": 2}


def test_figures_1_2_3_5_share_runs_and_sensitivities_change_one_key() -> None:
    s = fw.RunSettings(quick=False, precision=0.025)
    runs = [set(fw.plan_figure(bi.figure(n), s)[1]) for n in (1, 2, 3, 5)]
    # Figs. 2, 3 and 5 read Fig. 1's runs; Fig. 1 also runs multi-SREJ and two FIFOs.
    assert runs[1] == runs[2] == runs[3] < runs[0]
    f6 = bi.figure(6)
    base_scn = _point(6, "bg", 5.0, quick=False)
    for sens in f6.sensitivities:
        changed = _point(6, "bg", 5.0, quick=False, extra=dict(sens.params))
        assert changed != base_scn, sens.name


def test_pooled_llc2_bridge_and_ring_measures_balance() -> None:
    r = arqlab.simulate(base("bg", 4.5e6, duration_s=10.0, warmup_s=2.0, replications=1), seed=3)
    b = r.records[0]["batches"][0]
    llc, flow, nodes = b[LLC2], b[POOLED], b[BRIDGES]
    assert llc["network_efficiency"] == pytest.approx(flow["messages_delivered"] / llc["i_frames_sent"])
    assert llc["i_frames_retransmitted"] == flow["frames_retransmitted"]
    assert llc["out_of_sequence_fraction"] == pytest.approx(flow["out_of_sequence_discarded"] / llc["i_frames_received"])
    # BG: the working window seen by an I frame lies in [1, k]; losses cut it.
    assert 1.0 <= llc["working_window_mean"] < 10.0 and llc["window_cuts"] > 0
    ports = [v for k, v in b.items() if k.startswith("node.bridge")]
    assert nodes["frames_dropped"] == sum(p["frames_dropped"] for p in ports) > 0
    assert nodes["loss_ratio"] == pytest.approx(nodes["frames_dropped"] / nodes["frames_offered"])
    for ring in ("ring.backbone", "ring.ring1", "ring.ring2", "ring.ring3"):
        lanes = [v for k, v in b.items() if k.startswith(f"link.{ring[5:]}.")]
        assert b[ring]["utilisation"] == pytest.approx(sum(v["utilisation"] for v in lanes))
        assert 0.0 < b[ring]["utilisation"] <= 1.0
    # ORIG (Biersack §II): every received I frame is either accepted in sequence (and
    # delivered: one message per frame) or discarded, out of sequence or as a duplicate.
    o = arqlab.simulate(base("orig", 4.5e6, duration_s=10.0, warmup_s=2.0, replications=1), seed=3)
    ob = o.records[0]["batches"][0]
    assert ob[LLC2]["discarded_fraction"] == pytest.approx(1 - ob[POOLED]["messages_delivered"] / ob[LLC2]["i_frames_received"])
    assert ob[LLC2]["discarded_fraction"] > ob[LLC2]["out_of_sequence_fraction"] > 0, "duplicates arrive too"
    # SREJ keeps its window: the mean is k.
    s = arqlab.simulate(base("srej", 4.5e6, duration_s=5.0, warmup_s=1.0, replications=1), seed=3)
    assert s.records[0]["batches"][0][LLC2]["working_window_mean"] == 10.0


def _synthetic(oos: float, bg_gain: float) -> Any:
    """A runner: throughput saturating at 3.5 (SREJ), BG × (1 − bg_gain), JAIN 2.7,
    ORIG collapsing to 0.9 with `oos` out of sequence; efficiency BG 0.8 > SREJ 0.72 > JAIN 0.5."""
    tp = {"srej": 3.55, "bg": 3.55 * (1 - bg_gain), "jain": 2.7, "orig": 0.9, "multi_fifo": 3.5, "multi_srej": 3.3}
    eff = {"srej": 0.72, "bg": 0.8, "jain": 0.5, "orig": 0.3, "multi_fifo": 0.7, "multi_srej": 0.65}

    def run(req: fw.RunRequest) -> fw.Metrics:
        v = req.scenario["stack"]["llc2"]["variant"]
        offered = sum(f["traffic"]["load"] for f in req.scenario["flow"]) * 4.0
        top = tp[v] if offered >= 4.0 or v != "orig" else 3.4
        carried = min(offered, top) * 1e6
        delay = 0.02 / max(1e-3, 1 - min(offered, 3.9) / 4.0) * (1.0 if v == "srej" else 1.1)
        e = (lambda m: {"mean": m, "ci95_half_width": abs(m) * 0.005, "n": 5})
        return {POOLED: {"throughput_bps": e(carried), "transfer_time_s": e(delay), "transfer_time_p95_s": e(3 * delay)},
                LLC2: {"network_efficiency": e(eff[v]), "discarded_fraction": e(oos if v == "orig" else 0.1),
                       "out_of_sequence_fraction": e(0.1),
                       "working_window_mean": e(3.0), "window_cuts": e(100.0)},
                BRIDGES: {"loss_ratio": e(0.05)}}
    return run


def test_claims_on_synthetic_data(tmp_path: Path) -> None:
    rep = bi.reproduce(figures=[1, 2, 3, 5], quick=True, out_dir=tmp_path, runner=_synthetic(0.75, 0.05), quiet=True)
    v = {r.id: r.verdict for r in rep.claims}
    assert v["fig1.orig_out_of_sequence"] is fw.Verdict.HOLDS
    assert v["fig1.srej_max_3_55"] is fw.Verdict.HOLDS
    assert v["fig1.bg_max_3_35"] is fw.Verdict.HOLDS  # 3.37 is within 3% of 3.35
    assert v["fig1.srej_slightly_above_bg"] is fw.Verdict.HOLDS
    assert v["fig1.jain_clearly_worse"] is fw.Verdict.HOLDS
    assert v["fig1.orig_collapses"] is fw.Verdict.HOLDS
    assert v["fig5.efficiency_under_overload"] is fw.Verdict.HOLDS
    assert v["fig2.srej_mean_delay_slightly_better"] is fw.Verdict.HOLDS
    # Figs. 2, 3, 5 as the paper draws them: against the measured throughput.
    for n in (2, 3, 5):
        assert (tmp_path / f"fig{n}.png").exists() and (tmp_path / f"fig{n}_offered.png").exists()
        assert "x_ci95_half_width" in (tmp_path / f"fig{n}_vs_throughput.csv").read_text()


@pytest.mark.parametrize("oos,bg_gain,verdicts", [
    # ORIG's out-of-sequence fraction on either side of the paper's 70%.
    (0.60, 0.056, {"fig1.orig_out_of_sequence": "does not hold", "fig1.bg_max_3_35": "holds"}),
    # BG 30% below SREJ: no longer "slightly".
    (0.75, 0.30, {"fig1.srej_slightly_above_bg": "does not hold", "fig1.jain_clearly_worse": "does not hold"}),
])
def test_claims_fail_when_the_data_contradict_them(tmp_path: Path, oos: float, bg_gain: float,
                                                   verdicts: dict[str, str]) -> None:
    rep = bi.reproduce(figures=[1], quick=True, out_dir=tmp_path, runner=_synthetic(oos, bg_gain), quiet=True)
    v = {r.id: r.verdict.value for r in rep.claims}
    assert {k: v[k] for k in verdicts} == verdicts


def test_about_five_reads_the_smallest_close_number_of_fifos() -> None:
    f7 = bi.figure(7)

    def data(mf: dict[float, float]) -> fw.StudyData:
        rows = []
        for m, y in mf.items():
            for key, val in (("mf_w20", y), ("srej_w20", 3.5)):
                rows.append({"figure": 7, "curve": key, "label": key, "variant": "", "x": m, "direction": POOLED,
                             "measure": "throughput_bps", "mean": val, "ci95_half_width": 0.01, "n": 5, "norm": 1.0,
                             "y": val, "y_ci95_half_width": 0.01, "rel_half_width": 0.003, "run": "",
                             "capacity": math.nan, "capacity_ci95_half_width": math.nan, "steady_state": ""})
        import pandas as pd

        return fw.StudyData({7: fw.FigureData(f7, pd.DataFrame(rows, columns=fw.POINT_COLUMNS))})

    check = cl._about_five
    assert check(data({1: 2.0, 2: 2.5, 3: 3.0, 5: 3.45})).verdict is fw.Verdict.HOLDS
    assert check(data({1: 2.0, 2: 3.45, 3: 3.46, 5: 3.47})).verdict is fw.Verdict.DOES_NOT_HOLD
    assert check(data({1: 2.0, 2: 2.5, 3: 3.0, 5: 3.1, 8: 3.45})).verdict is fw.Verdict.DOES_NOT_HOLD


def test_quick_reproduction_through_the_cli(tmp_path: Path) -> None:
    # `arqlab reproduce biersack --quick` for the paper's four simulated figures.
    from arqlab.studies import main

    out = tmp_path / "out"
    args = ["biersack", "--quick", "--no-store", "--quiet", "--workers", "2", "--out", str(out)]
    assert main(args + ["--figure", "1", "--figure", "2", "--figure", "3", "--figure", "5"]) == 0
    for n in (1, 2, 3, 5):
        assert (out / f"fig{n}.csv").exists() and (out / f"fig{n}.png").stat().st_size > 1000
    text = (out / "claims.md").read_text()
    assert "events/s" in text and "fig1.orig_out_of_sequence" in text
    import json

    v = {c["id"]: c["verdict"] for c in json.loads((out / "claims.json").read_text())["claims"]}
    for robust in ("fig1.orig_collapses", "fig1.jain_opens_too_fast", "fig5.efficiency_under_overload"):
        assert v[robust] == "holds", (robust, v)
    # With k = 10 ORIG discards about 73% of received I frames under overload (the full
    # pass: 0.734 ± 0.006, holds); 3 quick replications cannot separate that from 70%, but
    # they must not refute it (at k = 7 they did: 0.61; docs/studies/biersack.md).
    assert v["fig1.orig_out_of_sequence"] in ("holds", "inconclusive")


def test_fig4_trace_follows_the_paper_s_narration(tmp_path: Path) -> None:
    from arqlab.capture import flights
    from arqlab.studies.biersack.timegraph import WINDOW_S, fig4_scenario

    fs = flights(fig4_scenario(), *WINDOW_S)["flights"]

    def name(f: dict[str, Any]) -> str:
        fr = f["frame"]
        n = fr["ns"] if fr["kind"] == "I" else fr["nr"]
        return f"{fr['kind']}{n}{',P' if fr['pf'] and fr['command'] else ',F' if fr['pf'] else ''}{'x' if f['in_error'] else ''}"

    seq = [name(f) for f in fs]
    assert seq[:14] == ["I0", "I1", "I2x", "I3x", "I4", "RR1", "RR2", "SREJ2", "I5", "I6", "I2", "RR3", "I7", "SREJ3x"]
    assert seq[14:18] == ["RR0,P", "RR3,F", "I3", "RR8"]
    from arqlab.studies import main

    assert main(["biersack", "--figure", "4", "--no-store", "--quiet", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "fig4.svg").exists() and (tmp_path / "fig4.png").exists()


def test_llc2_capture_decodes_as_token_ring_llc_in_tshark(tmp_path: Path) -> None:
    import shutil

    tshark = shutil.which("tshark")
    if tshark is None:
        pytest.skip("tshark is missing: install the Debian package (apt-get install tshark)")
    from arqlab.capture import flights, pcap
    from arqlab.studies.biersack.timegraph import WINDOW_S, fig4_scenario

    (path,) = pcap(fig4_scenario(), *WINDOW_S, tmp_path / "llc2.pcap")
    assert int.from_bytes(path.read_bytes()[20:24], "little") == 6  # LINKTYPE_IEEE802_5 (9 would be PPP)
    fs = flights(fig4_scenario(), *WINDOW_S)["flights"]
    fields = ["frame.protocols", "tr.src", "tr.dst", "llc.dsap", "llc.ssap", "llc.control.n_s", "llc.control.n_r",
              "llc.control.p", "llc.control.f", "llc.control.s_ftype"]
    cmd = [tshark, "-n", "-r", str(path), "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=120).stdout
    rows = [dict(zip(fields, ln.split("\t"))) for ln in out.splitlines()]
    assert len(rows) == len(fs) > 15
    s_codes = {"RR": 0, "RNR": 1, "REJ": 2, "SREJ": 3}
    a, b = "02:00:00:00:00:0a", "02:00:00:00:00:0b"
    for row, f in zip(rows, fs):
        fr = f["frame"]
        assert row["frame.protocols"].startswith("tr:llc"), row
        assert (row["tr.src"], row["tr.dst"]) == ((a, b) if f["sender"] == "A" else (b, a))
        # SSAP's low bit is the C/R bit: 1 in responses.
        assert int(row["llc.dsap"], 0) == 0x40 and int(row["llc.ssap"], 0) == 0x40 | (not fr["command"]), row
        assert int(row["llc.control.n_r"]) == fr["nr"], (row, fr)
        bit = row["llc.control.p"] if fr["command"] else row["llc.control.f"]
        assert (bit in ("1", "True")) == fr["pf"], (row, fr)
        if fr["kind"] == "I":
            assert int(row["llc.control.n_s"]) == fr["ns"], (row, fr)
        else:
            assert int(row["llc.control.s_ftype"], 0) == s_codes[fr["kind"]], (row, fr)


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


def test_a_station_on_a_missing_ring_is_named() -> None:
    sc = base()
    sc["medium"] = [m for m in sc["medium"] if m["name"] != "ring3"]
    with pytest.raises(arqlab.ScenarioError) as e:
        arqlab.simulate(sc, replications=1)
    assert 'node[24] = "r3s01": not attached to any medium' in str(e.value)


def test_unknown_figure_exits_2() -> None:
    from arqlab.studies.biersack.__main__ import main

    assert main(["--figure", "9"]) == 2
