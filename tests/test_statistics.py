"""Sequential precision, batch means and MSER-5 through the public API."""

from __future__ import annotations

import arqlab

SC = "scenarios/go_back_n.toml"
SHORT = {"run.duration_s": 150.0, "run.warmup_s": 5.0}


def test_precision_target_is_reached_with_the_adjusted_rule() -> None:
    gamma = 0.01
    r = arqlab.simulate(SC, precision=gamma, overrides=SHORT)
    assert r.precision_reached is True
    for measure in ("throughput_efficiency", "transfer_time_s"):
        m = r.metrics["a_to_b"][measure]
        assert m["ci95_half_width"] <= gamma / (1 + gamma) * abs(m["mean"])
        assert m["n"] == r.replications >= 10
    # The smallest such n: one replication fewer would not do.
    fewer = arqlab.simulate(SC, replications=r.replications - 1, overrides=SHORT)
    if r.replications > 10:
        ok = [
            fewer.metrics["a_to_b"][m]["ci95_half_width"] <= gamma / (1 + gamma) * abs(fewer.metrics["a_to_b"][m]["mean"])
            for m in ("throughput_efficiency", "transfer_time_s")
        ]
        assert not all(ok)


def test_precision_cap_is_reported_as_not_reached() -> None:
    r = arqlab.simulate(SC, precision=1e-6, overrides={**SHORT, "run.max_replications": 12})
    assert r.precision_reached is False
    assert r.replications == 12


def test_precision_from_the_scenario_file() -> None:
    r = arqlab.simulate(SC, overrides={**SHORT, "run.precision": 0.05, "run.min_replications": 4})
    assert r.precision_reached is True and r.replications >= 4


def test_batch_means_over_one_long_run() -> None:
    r = arqlab.simulate(SC, overrides={"run.method": "batch_means", "run.batches": 40, "run.duration_s": 4000.0, "run.warmup_s": 20.0})
    assert r.replications == 1 and len(r.records[0]["batches"]) == 40
    m = r.metrics["a_to_b"]["throughput_efficiency"]
    assert 10 <= m["n"] <= 40
    # Agrees with independent replications of the same total length.
    ind = arqlab.simulate(SC, replications=10, overrides={"run.duration_s": 400.0, "run.warmup_s": 20.0})
    i = ind.metrics["a_to_b"]["throughput_efficiency"]
    assert abs(m["mean"] - i["mean"]) <= m["ci95_half_width"] + i["ci95_half_width"]


def test_mser5_deletes_the_initial_transient() -> None:
    # Poisson traffic at high load starting empty: transfer times rise to steady state.
    sc = {
        "run": {"duration_s": 2000.0, "warmup": "mser5", "replications": 3},
        "link": {"rate_bps": 48000.0, "delay_s": 0.01},
        "protocol": {"kind": "selective_repeat"},
        "traffic": {"a": {"kind": "poisson", "load": 0.9, "length": {"dist": "constant", "mean_bits": 1000}}},
    }
    r = arqlab.simulate(sc)
    for rec in r.records:
        assert 0.0 <= rec["warmup_s"] < 1000.0
        assert "mser_reliable" in rec
    assert r.metrics["a_to_b"]["transfer_time_s"]["n"] == 3


def test_tidy_frame() -> None:
    r = arqlab.simulate(SC, replications=2, overrides=SHORT)
    df = r.to_frame()
    assert list(df.columns) == ["direction", "measure", "mean", "ci95_half_width", "n"]
    assert set(df.direction) == {"a_to_b", "b_to_a"}
    assert len(df) == 2 * len(arqlab.MEASURES)
