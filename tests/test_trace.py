"""`arqlab trace`: the frames of a window of one replication, consistent with the
measures of the same replication."""

from __future__ import annotations

import pandas as pd
import pytest

import arqlab
from arqlab import cli
from arqlab.errors import ScenarioError
from arqlab.trace import trace

SCENARIO = "scenarios/hdlc_abm_poisson.toml"
# Errors, short T1 and load so that rejects, time-outs and polls all occur.
BUSY = {
    "link.bit_error_rate": 3e-5,
    "traffic.a.load": 0.5,
    "traffic.b.load": 0.5,
    "protocol.t1_s": 0.6,
    "run.warmup_s": 20.0,
    "run.duration_s": 220.0,
}


def test_trace_counts_match_the_measures_of_the_same_replication() -> None:
    replication = 3
    df = trace(SCENARIO, start_s=20.0, end_s=220.0, replication=replication, overrides=BUSY)
    result = arqlab.simulate(SCENARIO, overrides={**BUSY, "run.replications": replication + 1})
    for station, direction, peer in (("A", "a_to_b", "B"), ("B", "b_to_a", "A")):
        m = result.records[replication]["batches"][0][direction]
        sent = df[(df.station == station) & (df.event == "send")]
        assert len(sent) == m["frames_sent"]
        assert ((df.station == station) & (df.event == "timeout")).sum() == m["timeouts"]
        rejects = df[(df.station == peer) & (df.event == "send") & (df.kind == "REJ")]
        assert len(rejects) == m["rejects_sent"]
    assert m["rejects_sent"] > 0 and m["timeouts"] > 0, "the window exercises recovery"
    received = df[df.event.isin(["receive", "receive_in_error"])]
    assert set(received.station) == {"A", "B"}
    assert df.time_s.is_monotonic_increasing
    assert df.time_s.between(20.0, 220.0).all()


def test_trace_is_deterministic_and_limited() -> None:
    a = trace(SCENARIO, start_s=50.0, end_s=60.0, overrides=BUSY)
    b = trace(SCENARIO, start_s=50.0, end_s=60.0, overrides=BUSY)
    assert a.equals(b) and len(a) > 50
    short = trace(SCENARIO, start_s=50.0, end_s=60.0, overrides=BUSY, limit=10)
    pd.testing.assert_frame_equal(short, a.head(10), check_dtype=False)
    assert short.attrs["dropped"] == len(a) - 10


def test_trace_bad_input_names_the_problem() -> None:
    with pytest.raises(ScenarioError, match=r"expected 0 ≤ start ≤ end"):
        trace(SCENARIO, start_s=10.0, end_s=5.0)
    with pytest.raises(ScenarioError, match=r"replication = -1"):
        trace(SCENARIO, start_s=0.0, end_s=5.0, replication=-1)
    with pytest.raises(ScenarioError, match=r"protocol.modulus = 16"):
        trace(SCENARIO, start_s=0.0, end_s=5.0, overrides={"protocol.modulus": 16})


def test_trace_cli(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["trace", SCENARIO, "--from", "10", "--to", "10.5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("#") and any(" I ns=" in line for line in out[1:])
    csv = tmp_path / "t.csv"
    assert cli.main(["trace", SCENARIO, "--from", "10", "--to", "10.5", "--csv", str(csv)]) == 0
    assert csv.read_text().splitlines()[0].startswith("time_s,station,event,kind")
    assert cli.main(["trace", SCENARIO, "--from", "10", "--to", "1"]) == 2
    assert "expected 0 ≤ start ≤ end" in capsys.readouterr().err
