"""X.25 networks of several switches from the command line (issue 24): `arqlab check`
and `arqlab run` accept the shipped four-gateway / three-switch file and report the
gateways' X.25 counters and the trunks' lanes; a network cut in two is a one-line
error naming the flow, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

THREE = "scenarios/compose/x25_three_switches.toml"
TWO = "scenarios/compose/x25_two_switches.toml"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arqlab.cli", *args], capture_output=True, text=True)


def test_check_and_run_accept_four_gateways_on_three_switches() -> None:
    for f in (THREE, TWO):
        out = cli("check", f)
        assert out.returncode == 0, (f, out.stderr)
    out = cli("run", THREE, "--no-store", "--replications", "2", "--set", "run.duration_s=120", "--json")
    assert out.returncode == 0, out.stderr
    import json

    metrics = json.loads(out.stdout)["metrics"]
    # g1 calls g2 and g3 (one circuit each), g4 calls g1; the trunks carry them.
    assert metrics["ip.g1"]["x25_calls_placed"]["mean"] == 2.0
    assert metrics["ip.g4"]["x25_calls_placed"]["mean"] == 1.0
    assert metrics["link.t12.s1->s2"]["frames_transmitted"]["mean"] > 0
    assert metrics["link.t23.s2->s3"]["frames_transmitted"]["mean"] > 0
    assert all(metrics[s]["frames_dropped"]["mean"] == 0.0 for s in metrics if s.startswith("node.s"))


def test_a_network_cut_in_two_is_refused_naming_the_flow(tmp_path: Path) -> None:
    text = Path(TWO).read_text().replace('ends = ["s1", "s2"]', 'ends = ["s1", "s3"]') + (
        '[[medium]]\nname = "dce3"\nends = ["s3", "g3"]\nrate_bps = 1e9\n'
        '[[medium]]\nname = "dce4"\nends = ["s2", "g4"]\nrate_bps = 1e9\n'
        '[[medium]]\nname = "l_c"\nends = ["g3", "c"]\n[[medium]]\nname = "l_d"\nends = ["g4", "d"]\n'
        '[[relay]]\nname = "s3"\nkind = "transit_network"\n'
        '[[relay]]\nname = "g3"\nkind = "ip_router"\ninterfaces = [{ medium = "dce3", stack = "rfc877" }]\n'
        '[[relay]]\nname = "g4"\nkind = "ip_router"\ninterfaces = [{ medium = "dce4", stack = "rfc877" }]\n'
        '[[node]]\nname = "c"\nstack = "ip"\n[[node]]\nname = "d"\nstack = "ip"\n'
        '[[flow]]\nfrom = "c"\nto = "d"\ntraffic = { kind = "poisson", load = 0.1 }\n'
    )
    bad = tmp_path / "cut.toml"
    bad.write_text(text)
    for command in ("check", "run"):
        res = cli(command, str(bad), *(["--no-store"] if command == "run" else []))
        assert res.returncode == 2, res.stderr
        assert "flow[0]: no path from a to b through media and relays" in res.stderr and "Traceback" not in res.stderr, res.stderr
