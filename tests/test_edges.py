"""Issue 29 items 5-10: resources, crashes and messages at the edges. Each bad input
ends as one line naming the value and what was expected, exit 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arqlab.design import DesignError, parse_design
from test_bad_input import cli, one_error


def _design(k: int, generators: list[str] | None = None, **top: object) -> dict[str, object]:
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:k]
    return {
        **top,
        "generators": generators or [],
        "response": {"measure": "transfer_time_s"},
        "factors": {c: {"key": "protocol.window", "levels": [2, 7]} for c in letters},
    }


def test_a_design_of_too_many_runs_is_refused_before_it_is_planned() -> None:
    started = time.monotonic()
    with pytest.raises(DesignError) as e:
        parse_design(_design(25))
    assert time.monotonic() - started < 5, "nothing of 2^25 rows was built"
    assert e.value.problems == [
        "factors: 25 factors and 0 generator(s) make 2^25 = 33,554,432 runs, more than the limit of 4,096: add "
        "generators for a smaller fraction, or raise the limit (max_runs = N in the design file, or --max-runs N)"
    ]
    # At the limit, a fraction under it, or asked for: planned.
    assert parse_design(_design(12)).design.n_runs == 4096
    assert parse_design(_design(13, ["N=ABCDEFGHJKLM"])).design.n_runs == 4096
    assert parse_design(_design(13), max_runs=8192).design.n_runs == 8192
    assert parse_design(_design(13, max_runs=8192)).design.n_runs == 8192
    with pytest.raises(DesignError) as e:
        parse_design(_design(3, max_runs=0))
    assert e.value.problems == ["max_runs = 0: expected a whole number >= 1"]


def test_an_hf_modem_that_is_a_device_or_fifo_is_refused_without_reading_it(tmp_path: Path) -> None:
    base = Path("scenarios/johnson/hdl_stable_5.toml").read_text()
    assert 'modem = "mil-std-188-141b-appc"' in base
    fifo = tmp_path / "fifo"
    import os

    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * 1_000_001)
    for path, why in [("/dev/zero", "it is not a regular file (a device, pipe or socket)"),
                      (str(fifo), "it is not a regular file (a device, pipe or socket)"),
                      (str(big), "it is 1000001 bytes, more than 1000000"),
                      (str(tmp_path), "it is a directory")]:
        sc = tmp_path / "sc.toml"
        sc.write_text(base.replace('modem = "mil-std-188-141b-appc"', f'modem = "{path}"'))
        started = time.monotonic()
        p = cli("check", str(sc), timeout=60)
        assert time.monotonic() - started < 30
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        assert why in p.stderr and "a TOML file of at most 1000000 bytes" in p.stderr, p.stderr


def test_output_on_a_full_disk_is_one_line_and_exit_2() -> None:
    for args in (["run", "scenarios/stop_and_wait.toml", "--no-store", "--quiet", "--json"],
                 ["run", "scenarios/stop_and_wait.toml", "--no-store", "--quiet"],
                 ["check", "scenarios/stop_and_wait.toml"]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([sys.executable, "-m", "arqlab.cli", *args, "--set", "run.duration_s=20",
                                "--set", "run.warmup_s=1"], stdout=full, stderr=subprocess.PIPE, text=True,
                               timeout=120)
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        assert p.stderr.strip().splitlines() == [f"arqlab {args[0]}: error: cannot write the output: "
                                                 "No space left on device"], p.stderr


def test_reproduce_into_an_existing_file_or_a_read_only_place_stops_before_running(tmp_path: Path) -> None:
    existing = tmp_path / "out"
    existing.write_text("keep me")
    line = one_error(cli("reproduce", "bux1982", "--quick", "--figure", "2", "--out", str(existing), "--no-store"),
                     "reproduce")
    assert line == f"arqlab reproduce: error: --out {existing}: exists and is not a directory"
    assert existing.read_text() == "keep me"
    readonly = tmp_path / "ro"
    readonly.mkdir()
    readonly.chmod(0o555)
    try:
        if not os.access(readonly, os.W_OK):  # (root may write anywhere)
            line = one_error(cli("reproduce", "bux1982", "--quick", "--figure", "2", "--out", str(readonly / "x"),
                                 "--no-store"), "reproduce")
            assert "cannot write there" in line
    finally:
        readonly.chmod(0o755)


def test_a_failed_write_leaves_no_empty_file_behind(tmp_path: Path) -> None:
    from arqlab.errors import ArqlabError
    from arqlab.outputs import replaced_atomically, write_bytes

    target = tmp_path / "capture.pcap"
    with pytest.raises(ArqlabError) as e:
        with replaced_atomically(target, "--pcap") as tmp:
            tmp.write_bytes(b"partial")
            raise OSError(28, "No space left on device")
    assert str(e.value) == f"--pcap {target}: cannot write: No space left on device"
    assert list(tmp_path.iterdir()) == [], "neither the target nor the temporary file"
    write_bytes(target, b"whole", "--pcap")
    assert target.read_bytes() == b"whole" and [p.name for p in tmp_path.iterdir()] == ["capture.pcap"]
    with pytest.raises(ArqlabError) as e:
        write_bytes(tmp_path / "missing-dir" / "x.png", b"x", "--out")
    assert "cannot write" in str(e.value)


def test_ladder_trace_and_pcap_range_check_seeds_and_replications(tmp_path: Path) -> None:
    from arqlab import ladder
    from arqlab.capture import pcap
    from arqlab.errors import ScenarioError

    svg, cap = tmp_path / "l.svg", tmp_path / "c.pcap"
    line = one_error(cli("ladder", "scenarios/stop_and_wait.toml", "--from", "10", "--to", "11", "--seed", "-1",
                         "--out", str(svg)), "ladder")
    assert line == "arqlab ladder: error: seed = -1: out of range, expected a whole number in [0, 2^63 - 1]"
    line = one_error(cli("trace", "scenarios/stop_and_wait.toml", "--from", "10", "--to", "11",
                         "--seed", str(2**63), "--pcap", str(cap)), "trace")
    assert line == f"arqlab trace: error: seed = {2**63}: out of range, expected a whole number in [0, 2^63 - 1]"
    assert list(tmp_path.iterdir()) == [], "nothing written before the error"
    with pytest.raises(ScenarioError) as e:
        pcap("scenarios/stop_and_wait.toml", 10, 11, cap, replication=-2)
    assert e.value.problems == ["replication = -2: out of range, expected a whole number in [0, 2^63 - 1]"]
    with pytest.raises(ScenarioError) as e:
        ladder("scenarios/stop_and_wait.toml", 10, 11, seed=1.5)  # type: ignore[arg-type]
    assert e.value.problems == ["seed = 1.5: expected a whole number in [0, 2^63 - 1]"]
    line = one_error(cli("ladder", "scenarios/stop_and_wait.toml", "--from", "10", "--to", "11",
                         "--max-frames", "0", "--out", str(svg)), "ladder")
    assert line == "arqlab ladder: error: max_frames = 0: expected a whole number >= 1"


def test_trace_names_the_link_type_each_capture_has(tmp_path: Path) -> None:
    from arqlab.capture import linktype_of

    cap = tmp_path / "c.pcap"
    p = cli("trace", "scenarios/stop_and_wait.toml", "--from", "10", "--to", "11", "--pcap", str(cap))
    assert p.returncode == 0, p.stderr
    assert f"capture written to {cap} (interface link, link type sita (196))" in p.stderr
    header = bytearray(cap.read_bytes()[:24])
    header[20:24] = (237).to_bytes(4, "little")
    cap.write_bytes(bytes(header))
    assert linktype_of(cap) == "stanag_5066_d_pdu (237)"


def test_python_api_types() -> None:
    import numpy as np

    import arqlab
    from arqlab.errors import ScenarioError

    sc = "scenarios/stop_and_wait.toml"
    quick = {"run.duration_s": np.float64(20.0), "run.warmup_s": np.int64(1), "protocol.window": np.int32(1)}
    r = arqlab.simulate(sc, replications=np.int64(2), seed=np.uint16(3), overrides=quick, store=False)
    assert r.replications == 2 and r.seed == 3
    for bad, shown in ((2.5, "2.5"), ("5", "'5'"), (True, "True"), (0, "0")):
        with pytest.raises(ScenarioError) as e:
            arqlab.simulate(sc, replications=bad, overrides=quick, store=False)  # type: ignore[arg-type]
        assert e.value.problems == [f"replications = {shown}: expected a whole number >= 1"]
    with pytest.raises(TypeError) as t:
        arqlab.simulate(sc, overrides=[("run.duration_s", 20.0)], store=False)  # type: ignore[arg-type]
    assert str(t.value).startswith("overrides: expected a mapping of dotted keys to values") and "got list" in str(t.value)
    df = arqlab.sweep(sc, {"link.bit_error_rate": np.array([0.0, 1e-4])}, overrides=quick, replications=2, store=False)
    assert sorted(df["link.bit_error_rate"].unique()) == [0.0, 1e-4]


def test_compare_refuses_scenarios_without_a_flow_in_common() -> None:
    import arqlab
    from arqlab.errors import ScenarioError

    started = time.monotonic()
    with pytest.raises(ScenarioError) as e:
        arqlab.compare("scenarios/stop_and_wait.toml", "scenarios/topologies/tandem.toml")
    assert e.value.problems == ["compare: the scenarios have no flow in common (a: a_to_b, b_to_a; b: flow.a->b): "
                                "there is nothing to pair"]
    assert time.monotonic() - started < 10, "refused before running"


def test_a_sweep_base_completed_by_its_grid_is_accepted() -> None:
    import arqlab

    # Bulk traffic needs warm-up 0: the base has 1 s, the grid sets 0.
    quick = {"run.duration_s": 20.0, "run.warmup_s": 1.0, "traffic.a.kind": "bulk", "traffic.a.messages": 5}
    df = arqlab.sweep("scenarios/stop_and_wait.toml", {"run.warmup_s": [0.0]}, overrides=quick, replications=1,
                      store=False)
    assert set(df["run.warmup_s"]) == {0.0}


def test_messages_that_misled(tmp_path: Path) -> None:
    # A dotted key into a list of tables: no Python list repr, but how to address an element.
    line = one_error(cli("check", "scenarios/topologies/tandem.toml", "--set", "relay.buffer_octets=1"), "check")
    assert line == ("arqlab check: error: scenarios/topologies/tandem.toml: relay.buffer_octets: expected the name of "
                    "an element of relay (known: r) or an index [i] to set relay.buffer_octets")
    # Bulk with MSER-5 names run.warmup, not warmup_s = 0.0.
    line = one_error(cli("check", "scenarios/stop_and_wait.toml", "--set", "traffic.a.kind=bulk",
                         "--set", "traffic.a.messages=5", "--set", "run.warmup=mser5", "--set", "run.warmup_s=0"),
                     "check")
    assert line.startswith('arqlab check: error: scenarios/stop_and_wait.toml: run.warmup = "mser5": expected "fixed"'), line
    # A capture of an explicit file names the stack's key, not [protocol]'s.
    line = one_error(cli("trace", "scenarios/topologies/tandem.toml", "--from", "100", "--to", "101", "--pcap",
                         str(tmp_path / "x.pcap"), "--set", "stack.udp.kind=go_back_n", "--set", "stack.udp.modulus=256",
                         "--set", "stack.udp.window=7"), "trace")
    assert line.endswith("error: stack.udp.modulus = 256: a capture needs an HDLC control field, modulus ≤ 128"), line


def test_steady_state_warnings_name_the_cause() -> None:
    from arqlab.steady import warnings

    sc = {"run": {"duration_s": 300.0, "warmup_s": 1.0}, "traffic": {"a": {"kind": "poisson", "load": 0.5},
                                                                      "b": {"kind": "none"}}}

    def metrics(carried: float, delivered: float, transfer: float) -> dict[str, object]:
        return {"a_to_b": {"throughput_efficiency": {"mean": carried, "ci95_half_width": 0.0, "n": 3},
                           "messages_delivered": {"mean": delivered}, "transfer_time_s": {"mean": transfer}}}

    # Load 1e-300: nothing arrives, so nothing can be judged.
    (w,) = warnings({**sc, "traffic": {"a": {"kind": "poisson", "load": 1e-300}, "b": {"kind": "none"}}},
                    metrics(0.0, 0.0, float("nan")))
    assert w.startswith("too few messages in a_to_b to judge a steady state (0 delivered")
    # A 40 s path in a 299 s window: 13% in transit explains a 13% shortfall.
    (w,) = warnings(sc, metrics(0.435, 4000.0, 40.0))
    assert "still in transit when the window closed (mean transfer time 40 s against a 299 s window)" in w
    # An overload: far more missing than is in transit.
    (w,) = warnings(sc, metrics(0.3, 4000.0, 40.0))
    assert w.startswith("no steady state in a_to_b") and "lower traffic.a.load" in w
    assert warnings(sc, metrics(0.5, 4000.0, 0.1)) == []


def test_names_with_control_characters_are_escaped_in_every_output(tmp_path: Path) -> None:
    sc = tmp_path / "esc.toml"
    sc.write_text('[run]\nduration_s = 20.0\nwarmup_s = 1.0\nreplications = 2\n[stack.s]\nkind = "go_back_n"\n'
                  '[[medium]]\nname = "l"\nends = ["a\\nX", "b\\u001b[2J"]\n[[node]]\nname = "a\\nX"\nstack = "s"\n'
                  '[[node]]\nname = "b\\u001b[2J"\nstack = "s"\n'
                  '[[flow]]\nfrom = "a\\nX"\nto = "b\\u001b[2J"\ntraffic = { kind = "saturated" }\n')
    # Such names are refused (names are letters, digits, '_' and '-'), and the refusal
    # itself shows them escaped: no raw control character reaches the terminal.
    for args in (["run", str(sc), "--no-store", "--quiet"], ["trace", str(sc), "--from", "1", "--to", "1.1"]):
        p = cli(*args)
        assert p.returncode == 2, p.stderr
        assert "\x1b" not in p.stderr and "a\nX" not in p.stderr, p.stderr[:300]
        assert "expected a name of letters, digits" in p.stderr and "Traceback" not in p.stderr
    # A name the store keeps as given (a sweep's) is printed by Python: escaped there.
    import arqlab

    store = tmp_path / "store.sqlite"
    arqlab.sweep("scenarios/stop_and_wait.toml", {"link.bit_error_rate": [0.0]}, replications=1, store=str(store),
                 overrides={"run.duration_s": 20.0, "run.warmup_s": 1.0}, name="d\x1b[2J\nx")
    for args in (["store", "ls", "--store", str(store)], ["store", "show", "d\x1b[2J\nx", "--store", str(store)]):
        p = cli(*args)
        assert p.returncode == 0, p.stderr
        assert "\x1b" not in p.stdout and "d\\x1b[2J" in p.stdout, p.stdout


def test_store_show_accepts_every_key_store_ls_lists(tmp_path: Path) -> None:
    import arqlab

    store = tmp_path / "store.sqlite"
    arqlab.sweep("scenarios/stop_and_wait.toml", {"link.bit_error_rate": [0.0, 1e-4]},
                 overrides={"run.duration_s": 20.0, "run.warmup_s": 1.0}, replications=2, store=str(store),
                 name="demo")
    listed = cli("store", "ls", "--store", str(store))
    assert listed.returncode == 0, listed.stderr
    rows = [line.split() for line in listed.stdout.splitlines()[2:]]
    assert [r[:2] for r in rows] == [["sweep", "demo"]], listed.stdout
    shown = cli("store", "show", "demo", "--store", str(store))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("sweep demo: ") and "2 points" in lines[1]
    point = lines[2].split()[0]
    assert "link.bit_error_rate=0.0" in lines[2]
    detail = cli("store", "show", point, "--store", str(store))
    assert detail.returncode == 0 and detail.stdout.startswith("scenario "), detail.stderr


def test_submodules_are_reachable_right_after_import_arqlab() -> None:
    # Issue 29 item 12: arqlab.trace.trace(...) failed unless arqlab.trace was imported.
    code = ("import arqlab, sys; assert 'arqlab.trace' not in sys.modules; "
            "print(callable(arqlab.trace.trace), callable(arqlab.capture.pcap))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stdout) == (0, "True True\n"), p.stderr


def test_a_result_renders_as_a_compact_html_table_in_notebooks(tmp_path: Path) -> None:
    # Issue 29 item 14.
    import arqlab

    r = arqlab.simulate("scenarios/stop_and_wait.toml", replications=2, store=False,
                        overrides={"run.duration_s": 20.0, "run.warmup_s": 1.0})
    html = r._repr_html_()
    assert html.startswith('<table class="arqlab-result"><caption>Stop-and-wait')
    assert "seed 1, 2 replication(s)" in html
    n_measures = sum(len(m) for m in r.metrics.values())
    assert html.count("<tr>") == n_measures + 1
    assert '<th rowspan="' in html and ">a_to_b</th>" in html and "<td>throughput_efficiency</td>" not in html
    # Node names cannot carry markup (letters, digits, '_' and '-'), but every flow scope
    # has a '>', which must be escaped.
    sc = tmp_path / "esc.toml"
    sc.write_text('[run]\nduration_s = 20.0\nwarmup_s = 1.0\nreplications = 2\n[stack.s]\nkind = "go_back_n"\n'
                  '[[medium]]\nname = "l"\nends = ["a", "b"]\n[[node]]\nname = "a"\nstack = "s"\n'
                  '[[node]]\nname = "b"\nstack = "s"\n[[flow]]\nfrom = "a"\nto = "b"\ntraffic = { kind = "saturated" }\n')
    html = arqlab.simulate(str(sc), store=False)._repr_html_()
    assert "flow.a->b" not in html and "flow.a-&gt;b" in html


def test_progress_shows_a_bar_in_a_jupyter_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    from arqlab.progress import Progress

    assert not Progress().show_bar, "no terminal, no kernel: no bar"

    class ZMQInteractiveShell:
        pass

    fake = types.ModuleType("IPython")
    fake.get_ipython = lambda: ZMQInteractiveShell()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", fake)
    assert Progress().show_bar and Progress().notebook
    assert not Progress(quiet=True).show_bar
