"""The arqlab half of the ns-3 peer comparison (benches/peers/tcp_udp_vs_ns3.py), which
runs without the optional ns-3 wheel: UDP over the lossy link meets its closed form, a
NewReno transfer is bounded by it, and the script refuses to run without ns-3 unless
told --arqlab-only."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tcp_udp_vs_ns3", ROOT / "benches/peers/tcp_udp_vs_ns3.py")
    assert spec is not None and spec.loader is not None
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def test_udp_bulk_goodput_is_the_closed_form() -> None:
    """Saturated 125-octet datagrams with 30 octets of UDP/IP/PPP headers: goodput =
    125/155 × (1 − 1e-5)^(155·8)."""
    b = bench()
    r = b.run_arqlab("udp", 2000.0, seed=1)
    frame_bits = 8 * (b.MSS + 8 + b.IP_PPP_OCTETS)
    exact = b.MSS * 8 / frame_bits * (1 - b.BER) ** frame_bits
    assert r["goodput"] == pytest.approx(exact, rel=0.005)


def test_newreno_goodput_below_the_line_and_deterministic() -> None:
    b = bench()
    r = b.run_arqlab("tcp", 500.0, seed=1)
    ceiling = b.MSS / (b.MSS + 20 + b.IP_PPP_OCTETS)
    assert 0.4 < r["goodput"] < ceiling
    assert r["timeouts"] >= 0
    again = b.run_arqlab("tcp", 500.0, seed=1)
    assert again["goodput"] == r["goodput"], "same scenario and seed, same result"
    reno = b.run_arqlab("tcp", 500.0, seed=1, flavour="reno")
    assert math.isfinite(reno["goodput"])


def test_script_without_ns3_exits_2_unless_arqlab_only(capsys: pytest.CaptureFixture[str]) -> None:
    b = bench()
    try:
        import ns  # noqa: F401
        pytest.skip("ns-3 is installed here")
    except ImportError:
        pass
    assert b.main(["--replications", "1", "--duration-s", "50"]) == 2
    assert "pip install ns3" in capsys.readouterr().err
    assert b.main(["--replications", "2", "--duration-s", "50", "--arqlab-only"]) == 0
    out = capsys.readouterr().out
    assert "tcp  arqlab" in out and "udp  arqlab" in out
